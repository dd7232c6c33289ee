#!/usr/bin/env bash
# check-format.sh -- check (or, with --fix, apply) the house format (.clang-format) on every C file git
# tracks. The tests run it, so the format is checked by a script, not by reviewers.
#
# Usage: scripts/check-format.sh [--fix] [FILE...]
#   exit 0: formatted; 1: files differ (each listed with a diff excerpt); 2: usage or no clang-format.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
fix=0
files=()
for a in "$@"; do
  case "$a" in
    --fix) fix=1 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
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
if [ "$bad" -gt 0 ]; then
  echo "check-format.sh: $bad of ${#files[@]} files differ from .clang-format; run scripts/check-format.sh --fix"
  exit 1
fi
echo "check-format.sh: ${#files[@]} files formatted"
