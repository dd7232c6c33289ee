#!/usr/bin/env bash
# fuzz.sh -- build the libFuzzer harnesses (tests/fuzz/, clang-16 with ASan+UBSan, in build-fuzz/) and run
# each target for a fixed time, one at a time at the lowest CPU priority. Seeds are read from
# tests/fuzz/corpus/<target>/; what a run finds goes to build-fuzz/fuzz/<target>/corpus/ (kept between
# runs) and a crash, leak or UBSan report to build-fuzz/fuzz/<target>/crashes/.
#
# Usage: scripts/fuzz.sh [--time SECONDS] [--merge] [--list] [TARGET...]
#   --time S   seconds per target (default 4: a smoke run, the one scripts/test.sh makes: the seed corpus
#              replayed and a few seconds of fuzzing; fuzz for real with e.g. --time 300)
#   --merge    afterwards, merge the new inputs that add coverage into tests/fuzz/corpus/<target>/
#   --list     print the targets and exit
#   TARGET     csv results keys uri opts cli diskstats device serverfacts keyenc fold reference (default: all)
# Prints a table (target, runs, corpus entries, result); exit 1 when any target failed.
# Reproduce a crash: build-fuzz/bin/fuzz_<target> build-fuzz/fuzz/<target>/crashes/<file>
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
all=(csv results keys uri opts cli diskstats device serverfacts keyenc fold reference)
secs=4
merge=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) secs=${2:?--time needs seconds}; shift ;;
    --time=*) secs=${1#--time=} ;;
    --merge) merge=1 ;;
    --list) printf '%s\n' "${all[@]}"; exit 0 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) targets+=("${1#fuzz_}") ;;
  esac
  shift
done
case "$secs" in ''|*[!0-9]*) echo "fuzz.sh: --time needs a whole number of seconds, not '$secs'" >&2; exit 2 ;; esac
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: no target '$t' (try --list)" >&2; exit 2; }
done

# The compiler and runtimes come from setup (idempotent: only installs what is missing).
"$here/scripts/setup.sh" --fuzz --no-build
bf="$here/build-fuzz"
if [ ! -f "$bf/build.ninja" ]; then
  CC=clang-16 cmake -S "$here" -B "$bf" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAB_FUZZ=ON >/dev/null
fi
nice -n 19 cmake --build "$bf" -j "$(nproc)" --target fuzz >/dev/null

export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-16/bin/llvm-symbolizer}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
rows=()
for t in "${targets[@]}"; do
  d="$bf/fuzz/$t"
  seeds="$here/tests/fuzz/corpus/$t"
  mkdir -p "$d/corpus" "$d/crashes" "$seeds"
  rc=0
  # The work corpus comes first: libFuzzer writes new inputs into the first directory only.
  nice -n 19 "$bf/bin/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$d/crashes/" "$d/corpus" "$seeds" >"$d/log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -1)
  corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$d/log" | tail -1 | sed 's/corp: //')
  if [ "$rc" -eq 0 ]; then
    result=ok
  else
    failed=1
    art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$d/log" | tail -1)
    kind=$(grep -o -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)[^ ]*: [a-z-]+|runtime error|deadly signal|out-of-memory|timeout' "$d/log" || true)
    result="FAIL ($kind) ${art:-see $d/log}"
  fi
  if [ "$merge" -eq 1 ] && [ "$rc" -eq 0 ]; then
    nice -n 19 "$bf/bin/fuzz_$t" -merge=1 -rss_limit_mb=2048 -timeout=30 "$seeds" "$d/corpus" >"$d/merge.log" 2>&1 ||
      { failed=1; result="merge failed: see $d/merge.log"; }
  fi
  rows+=("$(printf '%-12s %10s %14s  %s' "$t" "${runs:-?}" "${corp:-?}" "$result")")
done

printf '%-12s %10s %14s  %s\n' target runs "corpus(n/size)" result
printf '%s\n' "${rows[@]}"
nfail=$(printf '%s\n' "${rows[@]}" | grep -vc '  ok$' || true)
echo "fuzz: $((${#rows[@]} - nfail)) passed, $nfail failed"
exit "$failed"
