#!/usr/bin/env bash
# check-format.sh -- check (or, with --fix, apply) the house format (.clang-format) on every C file git
# tracks, then the house rules a script can check (WiredTiger's dist/s_style is the model):
#   - libmongoc and WiredTiger are the store's: mongoc.h and wiredtiger.h, and the store's private
#     headers, are included only under store/ (and tests/); a tool goes through store/store.h;
#   - includes point down (scripts/check-layers.sh: the module order, no header circle);
#   - the caps (scripts/check-caps.sh): no product file (.c/.h under core/ store/ datasets/ etl/ scan/
#     compare/; not tests/) over 1,000 lines, no function in one over 150 lines from its signature's
#     first line to its closing brace; each file, function (with its line) and cap is named.
# The tests run it, so the format and the rules are checked by a script, not by reviewers.
#
# Usage: scripts/check-format.sh [--fix] [FILE...]
#   exit 0: formatted and the rules hold; 1: files differ (each listed with a diff excerpt) or a rule is
#   broken (each place listed); 2: usage or no clang-format.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
fix=0
files=()
for a in "$@"; do
  case "$a" in
    --fix) fix=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "check-format.sh: unknown option '$a' (try --help)" >&2; exit 2 ;;
    *) files+=("$a") ;;
  esac
done

cf=
for c in clang-format-16 clang-format; do
  if command -v "$c" >/dev/null 2>&1; then cf=$c; break; fi
done
if [ -z "$cf" ]; then
  echo "check-format.sh: clang-format-16 is not installed (scripts/setup.sh installs it)" >&2
  exit 2
fi

cd "$here"
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(git ls-files '*.c' '*.h')
fi
if [ "$fix" -eq 1 ]; then
  "$cf" -i --style=file "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! out=$("$cf" --style=file "$f" | diff -u "$f" - 2>&1); then
    bad=$((bad + 1))
    echo "not formatted: $f"
    printf '%s\n' "$out" | sed -n '3,12p'
  fi
done
rules=0
# the store's libraries: no #include of mongoc.h (or mongoc/...) or wiredtiger.h outside store/ and tests/
if out=$(git grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](mongoc/|mongoc\.h|wiredtiger\.h|wiredtiger_ext\.h)' \
           -- '*.c' '*.h' ':!store/' ':!tests/'); then
  rules=1
  printf '%s\n' "$out" | sed 's/^/  /'
  echo "check-format.sh: mongoc.h and wiredtiger.h are the store's: include them only under store/ (and tests/);" \
       "a tool calls store/store.h"
fi
# the store's internals: its private headers are included only under store/ (and tests/)
if out=$(git grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"store/(store_impl|wt_private|mongo_private|wt_sort)\.h"' \
           -- '*.c' '*.h' ':!store/' ':!tests/'); then
  rules=1
  printf '%s\n' "$out" | sed 's/^/  /'
  echo "check-format.sh: store_impl.h, wt_private.h, mongo_private.h and wt_sort.h are the store's internals:" \
       "outside store/ (and tests/) use store/store.h"
fi
if ! "$here/scripts/check-layers.sh"; then
  rules=1
fi
caps=0
"$here/scripts/check-caps.sh" || caps=$?
if [ "$caps" -eq 2 ]; then
  exit 2
elif [ "$caps" -ne 0 ]; then
  rules=1
fi
if [ "$bad" -gt 0 ]; then
  echo "check-format.sh: $bad of ${#files[@]} files differ from .clang-format; run scripts/check-format.sh --fix"
fi
if [ "$bad" -gt 0 ] || [ "$rules" -gt 0 ]; then
  exit 1
fi
echo "check-format.sh: ${#files[@]} files formatted, house rules hold"
