#!/usr/bin/env bash
# help.sh -- the tools' help a person can read: every tool's (and billgen command's) --help is at most 60
# lines with worked examples, names no test hook and no internal issue number; --help-all is the whole
# reference and equals docs/help/<tool>.txt, so the reference in docs/ is the one the binary prints.
# The README names no internal issue and stays at most 260 lines.
#
# Usage: tests/help.sh BIN_DIR [--update]   (--update rewrites docs/help/ from the binaries)
set -euo pipefail

bin=${1:?usage: help.sh BIN_DIR [--update]}
update=0
[ "${2:-}" = "--update" ] && update=1
src=$(cd "$(dirname "$0")/.." && pwd)
fail=0
bad() { echo "FAIL: $*"; fail=1; }

check() { # check NAME CMD...: the short help and the reference of one command
  local name=$1 short all
  shift
  short=$("$@" --help) || { bad "$name --help exited non-zero"; return; }
  all=$("$@" --help-all) || { bad "$name --help-all exited non-zero"; return; }
  local n
  n=$(printf '%s\n' "$short" | wc -l)
  [ "$n" -le 60 ] || bad "$name --help is $n lines (at most 60; the rest belongs in --help-all)"
  printf '%s\n' "$short" | grep -q '^Examples:' || bad "$name --help has no Examples:"
  printf '%s\n' "$short" | grep -q -- '--help-all' || bad "$name --help does not say --help-all exists"
  for text in "$short" "$all"; do
    if printf '%s\n' "$text" | grep -n -i -E 'issues? [0-9]+|test hooks?|LAYOUTLAB_TEST|LAYOUTLAB_DROP_CACHES_PATH'; then
      bad "$name's help names an internal issue or a test hook (above)"
    fi
  done
  local ref="$src/docs/help/$name.txt"
  if [ "$update" -eq 1 ]; then
    mkdir -p "$src/docs/help"
    printf '%s\n' "$all" > "$ref"
  elif ! printf '%s\n' "$all" | diff -u "$ref" - > /tmp/help-diff.$$ 2>&1; then
    bad "$name --help-all differs from docs/help/$name.txt (tests/help.sh BIN_DIR --update):"
    sed -n '1,12p' /tmp/help-diff.$$
  fi
  rm -f /tmp/help-diff.$$
  echo "ok: $name --help $n lines"
}

check scancmp "$bin/scancmp"
check fold-details "$bin/fold-details"
check layout-report "$bin/layout-report"
check billgen "$bin/billgen"
for cmd in generate import export collections clean; do
  check "billgen-$cmd" "$bin/billgen" "$cmd"
done
# the README a user reads first names no internal issue either
if grep -n -i -E '\bissues? [0-9]+' "$src/README.md"; then
  bad "README.md names an internal issue number (above)"
fi
# and is short enough to read first: the reference lives in docs/
n=$(wc -l < "$src/README.md")
[ "$n" -le 260 ] || bad "README.md is $n lines (at most 260: move reference material to docs/)"
[ "$fail" -eq 0 ] && echo "help.sh: passed" || { echo "help.sh: FAILED"; exit 1; }
