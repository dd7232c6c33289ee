#!/usr/bin/env bash
# test.sh -- the README's test command: installs what is missing, builds (warnings as errors), starts
# the MongoDB-compatible test server through ctest's fixture, runs every test, then runs the unit and
# embedded-store tests again under AddressSanitizer + UndefinedBehaviorSanitizer, then the short fuzz pass
# (scripts/fuzz.sh: every libFuzzer target for 15 s, clang-16 tree in build-fuzz/).
#
# Usage: scripts/test.sh [--no-asan] [--no-fuzz] [-R REGEX] [-L LABEL]
#   LAYOUTLAB_TEST_URI=mongodb://...   run the server tests against a real mongod instead of FerretDB
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
asan=1
fuzz=1
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-asan) asan=0 ;;
    --no-fuzz) fuzz=0 ;;
    -R|-L|-E) ctest_args+=("$1" "$2"); shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

setup_args=()
[ "$asan" -eq 1 ] && setup_args+=(--asan)
# --fuzz: clang-16 and libFuzzer, and the harnesses built in build-fuzz/ (run by fuzz.sh below).
[ "$fuzz" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ] && setup_args+=(--fuzz)
"$here/scripts/setup.sh" "${setup_args[@]}"

jobs=$(nproc)
echo "== tests (build/)"
ctest --test-dir "$here/build" -j "$jobs" --output-on-failure --timeout 1500 "${ctest_args[@]}"

if [ "$asan" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ]; then
  echo "== sanitizer tests (build-asan/: unit and embedded)"
  # WiredTiger itself is not instrumented; leaks are checked in our code only.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$here/build-asan" -j "$jobs" --output-on-failure -L 'unit|embedded' -LE 'slow|demo' \
      --timeout 1500
fi

if [ "$fuzz" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ]; then
  echo "== fuzz (build-fuzz/: every target for 15 s)"
  "$here/scripts/fuzz.sh" --time 15
fi
