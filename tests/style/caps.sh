#!/usr/bin/env bash
# caps.sh -- scripts/check-caps.sh on fixture trees: a 151-line function and a 1,001-line file fail,
# naming the file, the function with its line and the cap; 150 and 1,000 lines pass; braces in strings,
# character constants and comments do not end a function early. Exit 77 (skip) without universal-ctags.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
check=$here/scripts/check-caps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# func NAME BODY_LINES -- a function whose signature-to-brace length is BODY_LINES + 5, its body full of
# braces that are not code.
func() {
  printf '/* %s -- a fixture; { not a brace } */\nstatic int\n%s (void)\n{\n' "$1" "$1"
  local i
  for ((i = 0; i < $2; i++)); do
    case $((i % 4)) in
      0) printf '   const char *s%d = "}}} { \\" }";\n' "$i" ;;
      1) printf "   char c%d = '}';\n" "$i" ;;
      2) printf '   /* } } */ (void) 0; // }\n' ;;
      *) printf '   (void) "{";\n' ;;
    esac
  done
  printf '   return 0;\n}\n'
}

# run DIR WANT_RC WHAT [GREP...] -- check-caps.sh --root DIR exits WANT_RC and prints each GREP
run() {
  local dir=$1 want=$2 what=$3 rc
  shift 3
  "$check" --root "$dir" >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" -eq 2 ] && grep -q 'universal-ctags is not installed' "$tmp/out"; then
    echo "SKIP: universal-ctags is not installed"
    exit 77
  fi
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, want $want"; sed 's/^/  /' "$tmp/out"; fail=1; return
  fi
  local g
  for g in "$@"; do
    if ! grep -qF -- "$g" "$tmp/out"; then
      echo "FAIL: $what: no '$g' in:"; sed 's/^/  /' "$tmp/out"; fail=1; return
    fi
  done
  echo "ok: $what"
}

# at the caps: a 150-line function (from "static int" to "}") and a 1,000-line file
mkdir -p "$tmp/at/core" "$tmp/at/tests"
func lab_core_at 145 >"$tmp/at/core/at.c"
yes '/* filler */' | head -n 1000 >"$tmp/at/core/full.h"
# tests/ is not the product: a long file there is fine
yes '/* filler */' | head -n 2000 >"$tmp/at/tests/long.c"
run "$tmp/at" 0 "150-line function, 1,000-line file"

# one over: a 151-line function starting at line 3 (after a first function), a 1,001-line file
mkdir -p "$tmp/over/store" "$tmp/over/scan"
{ printf 'static int x;\n\n'; func lab_store_long 146; } >"$tmp/over/store/long.c"
yes '/* filler */' | head -n 1001 >"$tmp/over/scan/big.c"
run "$tmp/over" 1 "151-line function, 1,001-line file" \
  "store/long.c:4: function lab_store_long is 151 lines (4-154), over the cap of 150 lines per function" \
  "scan/big.c: 1001 lines, over the cap of 1000 lines per file"

# the files named on the command line
(cd "$tmp/over" && "$check" store/long.c >"$tmp/out" 2>&1)
if [ $? -ne 1 ] || ! grep -q 'lab_store_long is 151 lines' "$tmp/out"; then
  echo "FAIL: a named file over the cap passed"; cat "$tmp/out"; fail=1
else
  echo "ok: a named file"
fi

exit $fail
