#!/usr/bin/env bash
# rename.sh -- apply rename maps (scripts/renames/*.map) over every tracked C, CMake, shell and Markdown
# file: the way a family of names is renamed here, so that a branch started before the rename can apply
# the same map before it is merged (`scripts/rename.sh scripts/renames/22-*.map`, then commit), and so
# that scripts/check-moved.sh and check-split.sh can compare function bodies across a rename (check-split.sh
# holds the names of a past base and is left alone).
#
# A map holds one rename per line, `OLD NEW`; `#` starts a comment. A name ending in `*` is a prefix
# (`lab_keys_* lab_scan_keys_*` renames every identifier starting with lab_keys_); otherwise the whole
# word is renamed. Usage: scripts/rename.sh [--check | --program] MAP...
#   --check: rename nothing; exit 1 when a file still uses an old name (each listed).
#   --program: print the perl substitutions the maps make, and nothing else (scripts/check-moved.sh).
#   exit 0: done (or nothing left to rename); 1: --check found old names; 2: usage.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
check=0
program=0
maps=()
for a in "$@"; do
  case "$a" in
    --check) check=1 ;;
    --program) program=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "rename.sh: unknown option '$a' (try --help)" >&2; exit 2 ;;
    *) maps+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")") ;;
  esac
done
[ ${#maps[@]} -gt 0 ] || { echo "rename.sh: no map given (try --help)" >&2; exit 2; }

# the perl substitutions of the maps, in their order
prog=$(cat "${maps[@]}" | sed 's/#.*//' | awk 'NF == 2 {
  old = $1; new = $2
  if (old ~ /\*$/) { sub(/\*$/, "", old); sub(/\*$/, "", new); printf "s/\\b%s(?=\\w)/%s/g;\n", old, new }
  else printf "s/\\b%s\\b/%s/g;\n", old, new
} NF != 0 && NF != 2 { print "rename.sh: bad map line: " $0 > "/dev/stderr"; exit 2 }')
if [ "$program" -eq 1 ]; then
  printf '%s\n' "$prog"
  exit 0
fi
pattern=$(cat "${maps[@]}" | sed 's/#.*//' | awk 'NF == 2 { old = $1; if (old ~ /\*$/) { sub(/\*$/, "", old); printf "%s\\b%s\\w", sep, old } else printf "%s\\b%s\\b", sep, old; sep = "|" }')

cd "$here"
mapfile -t files < <(git ls-files '*.c' '*.h' '*.md' '*.sh' '*.cmake' '*CMakeLists.txt' | grep -v -e '^scripts/renames/' -e '^scripts/rename.sh$' -e '^scripts/check-split.sh$')
mapfile -t hits < <(grep -l -P "$pattern" "${files[@]}" || true)
if [ "$check" -eq 1 ]; then
  if [ ${#hits[@]} -gt 0 ]; then
    grep -n -P "$pattern" "${hits[@]}" | head -50 || true
    echo "rename.sh: ${#hits[@]} files still use names the maps rename"
    exit 1
  fi
  echo "rename.sh: no old name left"
  exit 0
fi
if [ ${#hits[@]} -gt 0 ]; then
  perl -pi -e "$prog" "${hits[@]}"
fi
echo "rename.sh: ${#hits[@]} files rewritten"
