#!/usr/bin/env bash
# check-caps.sh -- the size caps of the product's C files (scripts/check-format.sh runs it):
#   - no file over 1,000 lines (wc -l);
#   - no function over 150 lines, counted from its signature's first line (the return type's line above
#     the name) to its closing brace.
# A file at a cap is one idea too many: split it where an idea ends, not where the count does.
# The product is every .c and .h git tracks under core/ store/ datasets/ etl/ scan/ compare/ (not tests/).
# Functions are found by universal-ctags (Debian universal-ctags; scripts/setup.sh installs it), which
# skips braces in strings, character constants and comments.
#
# Usage: scripts/check-caps.sh [--root DIR] [FILE...]
#   --root DIR  check the product files under DIR (any files, tracked or not) instead of this checkout's
#   FILE...     check these files only
#   exit 0: within the caps; 1: a cap is broken (each file, function and line named); 2: usage, no ctags.
set -euo pipefail

FILE_CAP=1000
FUNC_CAP=150
MODULES="core store datasets etl scan compare"

here=$(cd "$(dirname "$0")/.." && pwd)
root=
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=${2:-}; [ -n "$root" ] || { echo "check-caps.sh: --root needs DIR" >&2; exit 2; }; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "check-caps.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) files+=("$1") ;;
  esac
  shift
done

ctags=
for c in ctags-universal universal-ctags ctags; do
  if command -v "$c" >/dev/null 2>&1 && "$c" --version 2>/dev/null | grep -q 'Universal Ctags'; then
    ctags=$c
    break
  fi
done
if [ -z "$ctags" ]; then
  echo "check-caps.sh: universal-ctags is not installed (scripts/setup.sh installs it)" >&2
  exit 2
fi

if [ ${#files[@]} -eq 0 ]; then
  if [ -n "$root" ]; then
    [ -d "$root" ] || { echo "check-caps.sh: no directory '$root'" >&2; exit 2; }
    cd "$root"
    for m in $MODULES; do
      if [ -d "$m" ]; then find "$m" -type f \( -name '*.c' -o -name '*.h' \); fi
    done | sort >"${TMPDIR:-/tmp}/check-caps.$$"
    mapfile -t files <"${TMPDIR:-/tmp}/check-caps.$$"
    rm -f "${TMPDIR:-/tmp}/check-caps.$$"
  else
    cd "$here"
    for m in $MODULES; do
      git ls-files "$m/*.c" "$m/*.h"
    done >"${TMPDIR:-/tmp}/check-caps.$$"
    mapfile -t files <"${TMPDIR:-/tmp}/check-caps.$$"
    rm -f "${TMPDIR:-/tmp}/check-caps.$$"
  fi
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "check-caps.sh: no files to check" >&2
  exit 2
fi

for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "check-caps.sh: no file '$f'" >&2; exit 2; }
done
bad=0
# files: wc -l prints "N FILE" per file (and a total line when there are several)
out=$(wc -l -- "${files[@]}" | awk -v cap="$FILE_CAP" '
  $2 != "total" && $1 > cap { printf "  %s: %d lines, over the cap of %d lines per file\n", $2, $1, cap }')
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  bad=1
fi
# functions: each definition as FILE NAME LINE END; its signature starts above LINE at the first line of
# the declaration (the return type on its own line), i.e. after the blank line, comment, '}' or ';' before it.
out=$(printf '%s\n' "${files[@]}" |
  "$ctags" -x --_xformat='%F %N %n %e' --fields=+ne --kinds-c=f --language-force=C -L - -o - |
  awk -v cap="$FUNC_CAP" '
    function load(f,   l, i) {
      delete line
      i = 0
      while ((getline l < f) > 0) line[++i] = l
      close(f)
      cur = f
    }
    $4 == "" || $4 == "-" { printf "  %s:%s: %s: no end line found (ctags)\n", $1, $3, $2; next }
    {
      if ($1 != cur) load($1)
      s = $3
      while (s > 1) {
        p = line[s - 1]
        if (p ~ /^[[:space:]]*$/ || p ~ /[;{}][[:space:]]*$/ || p ~ /\*\/[[:space:]]*$/ || p ~ /^[[:space:]]*#/ ||
            p ~ /^[[:space:]]*\/\//)
          break
        s--
      }
      len = $4 - s + 1
      if (len > cap)
        printf "  %s:%d: function %s is %d lines (%d-%d), over the cap of %d lines per function\n",
               $1, s, $2, len, s, $4, cap
    }')
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  bad=1
fi

if [ "$bad" -ne 0 ]; then
  echo "check-caps.sh: split these where an idea ends (caps: $FILE_CAP lines per file, $FUNC_CAP per function)"
  exit 1
fi
echo "check-caps.sh: ${#files[@]} files within the caps ($FILE_CAP lines per file, $FUNC_CAP per function)"
