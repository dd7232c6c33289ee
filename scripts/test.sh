#!/usr/bin/env bash
# test.sh -- the README's test command: installs what is missing, builds (warnings as errors), starts
# the MongoDB-compatible test server through ctest's fixture, runs every test and, at the same time in
# build-asan/, the tests again under AddressSanitizer + UndefinedBehaviorSanitizer (those labelled san:
# the unit, embedded-store, server and CLI tests, golden files included, whose product lines cover all
# those tests run, tests/sanitizer-set.txt chosen by scripts/sanitizer-set.sh; never the slow, demo and
# fault-injection ones), then demo_quick (which must run alone) beside the fuzz smoke pass
# (scripts/fuzz.sh: every libFuzzer target for 4 s, its seed corpus replayed, clang-16 tree in
# build-fuzz/; the long run is its own command: scripts/fuzz.sh --time 300). The fault-injection tests
# run in the plain pass. With -R/-L/-E, --no-asan: one ctest pass, as before.
#
# Every pass runs even when an earlier one failed. The closing lines count each pass's tests as passed,
# failed and skipped (a test that exits 77 is skipped, never passed), list why each skipped test was
# skipped (its "SKIP:" lines) and the checks left out (their "left out" lines: root-only checks run
# unprivileged), then say "test.sh: PASSED" or "test.sh: FAILED"; the exit status is 1 when any test of
# any pass failed.
#
# Usage: scripts/test.sh [--no-asan] [--no-fuzz] [-R REGEX] [-L LABEL] [-E REGEX]
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
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
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
t_start=$SECONDS
summary=()  # one "NAME: P passed, F failed, S skipped (T s)" per pass
notes=()    # skip reasons and checks left out, per test
failed=0
counts_dir=$here/build/test-counts
rm -rf "$counts_dir"
mkdir -p "$counts_dir"

# ctest_pass NAME DIR ARGS... -- run ctest in DIR writing a JUnit file, then count its tests into
# $counts_dir/NAME (a first line "PASSED FAILED SKIPPED SECONDS", then one note a line): a test is skipped
# when ctest did not run it for its SKIP_RETURN_CODE (status "notrun", message SKIP_...), failed when it
# failed, timed out, or was not run for another reason (a failed fixture, a missing program). Runs in the
# background too (the passes overlap below): it writes only its own files.
ctest_pass() {
  local name=$1 dir=$2 junit=$2/test-results-$1.xml t0=$SECONDS rc=0
  shift 2
  rm -f "$junit"
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 1500 --output-junit "$junit" "$@" || rc=$?
  python3 - "$junit" "$rc" "$name" "$((SECONDS - t0))" >"$counts_dir/$name" <<'PY'
import os
import sys
import xml.etree.ElementTree as ET

junit, rc, name, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
passed = failed = skipped = 0
notes = []
try:
    cases = list(ET.parse(junit).getroot().iter("testcase"))
except (OSError, ET.ParseError) as e:
    cases = []
    notes.append("%s: no readable JUnit file from ctest (%s)" % (name, e))
# fixture tests that passed in another run of the same tree already (counted once, failures always)
uncounted = set(os.environ.get("LAB_TEST_UNCOUNTED", "").split())
for tc in cases:
    status, out = tc.get("status"), "".join(x.text or "" for x in tc.iter("system-out"))
    skip = tc.find("skipped")
    if status == "run" and tc.get("name") in uncounted:
        continue
    if status == "run":
        passed += 1
    elif status == "disabled" or (status == "notrun" and skip is not None and
                                  (skip.get("message") or "").startswith("SKIP_")):
        skipped += 1
        why = [l.strip() for l in out.splitlines() if l.lstrip().startswith("SKIP")]
        notes.append("%s: %s skipped: %s" % (name, tc.get("name"), "; ".join(why[:4]) or "no SKIP: line"))
    else:
        failed += 1
    for l in sorted(set(l.strip() for l in out.splitlines() if l.lstrip().startswith("left out"))):
        notes.append("%s: %s: %s" % (name, tc.get("name"), l))
if rc != 0 and failed == 0:
    failed = 1  # ctest failed without a failed test in its file (it could not start, or wrote no file)
    notes.append("%s: ctest exited %d" % (name, rc))
print("%d %d %d %s" % (passed, failed, skipped, secs))
for n in notes:
    print(n)
PY
}

# add_pass TITLE NAME... -- one summary entry for the counts of the named ctest_pass runs, which ran one
# after the other (counts and seconds summed), their notes kept; a run that left no counts file failed.
add_pass() {
  local title=$1 p=0 f=0 s=0 t=0 n a b c d
  shift
  for n in "$@"; do
    if [ ! -s "$counts_dir/$n" ]; then
      f=$((f + 1))
      notes+=("$title: the run $n left no counts")
      continue
    fi
    read -r a b c d <"$counts_dir/$n"
    p=$((p + a)) f=$((f + b)) s=$((s + c))
    t=$((t + d))
    while IFS= read -r line; do notes+=("$line"); done < <(tail -n +2 "$counts_dir/$n")
  done
  summary+=("$title: $p passed, $f failed, $s skipped ($t s)")
  [ "$f" -eq 0 ] || failed=1
}

# fuzz_pass -- the fuzz smoke run, its counts into $counts_dir/fuzz like ctest_pass's.
fuzz_pass() {
  local t0=$SECONDS rc=0 line p f note=
  "$here/scripts/fuzz.sh" --time 4 >"$here/build-fuzz/fuzz-summary.txt" 2>&1 || rc=$?
  # fuzz.sh's own closing line: "fuzz: N passed, M failed"
  line=$(grep '^fuzz: [0-9]* passed, [0-9]* failed$' "$here/build-fuzz/fuzz-summary.txt" | tail -1 || true)
  if [ -n "$line" ]; then
    read -r p f <<<"$(sed 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/' <<<"$line")"
  else
    p=0 f=1
    note="fuzz: fuzz.sh exited $rc without its closing line"
  fi
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
  { echo "$p $f 0 $((SECONDS - t0))"; [ -z "$note" ] || echo "$note"; } >"$counts_dir/fuzz"
}

san=0
[ "$asan" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ] && san=1
run_fuzz=0
[ "$fuzz" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ] && run_fuzz=1

# The sanitizer pass: the tests labelled san under ASan + UBSan, the unit, embedded, server and CLI tests
# whose product lines cover every line all of them run (tests/sanitizer-set.txt, chosen by
# scripts/sanitizer-set.sh). WiredTiger itself is not instrumented. exitcode=23: a sanitizer report
# ends the tool with a status no test expects (ASan's default, 1, is the exit status of a tool's runtime
# error that tests do expect). Its server tests get the fixture of build-asan/ (its own server, port and
# directories: the two passes share no file).
san_args=(-L '^san$')

if [ "$san" -eq 1 ]; then
  # The plain and sanitizer passes run at the same time (each ctest -j nproc): most tests wait on a
  # server, a child tool or an fsync part of their time, and the two passes fill each other's waits.
  # demo_quick, which reads device-wide disk figures and drops the real page cache, runs after them, its
  # only company the fuzz smoke run (CPU only, no IO of note). The fault tests run in the plain pass:
  # their fault points move with the load, and every window a moved point found is fixed (docs/testing.md;
  # three runs of them beside four other jobs, load average 8-9, all passed); alone at the end they
  # added their whole 74 s to the command.
  echo "== tests (build/, lines [tests]) and sanitizer tests (build-asan/: unit, embedded, server and CLI,"
  echo "   lines [sanitizer]) side by side; their whole output: build/test-output.txt, build-asan/test-output.txt"
  ctest_pass tests "$here/build" -E '^demo_quick$' >"$here/build/test-output.txt" 2>&1 &
  plain_pid=$!
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest_pass sanitizer "$here/build-asan" "${san_args[@]}" >"$here/build-asan/test-output.txt" 2>&1 &
  san_pid=$!
  # each test's result line as it comes, from both (each tail ends with its pass)
  tail -q -n +1 --pid "$plain_pid" -F "$here/build/test-output.txt" 2>/dev/null |
    grep --line-buffered -E '^ *[0-9]+/[0-9]+ Test +#' | sed -u 's/^/[tests] /' &
  tail_plain=$!
  tail -q -n +1 --pid "$san_pid" -F "$here/build-asan/test-output.txt" 2>/dev/null |
    grep --line-buffered -E '^ *[0-9]+/[0-9]+ Test +#' | sed -u 's/^/[sanitizer] /' &
  tail_san=$!
  wait "$plain_pid" || true
  wait "$san_pid" || true
  wait "$tail_plain" "$tail_san" || true
  # a failed test's output (ctest --output-on-failure), from its result line to the next result line
  for f in "$here/build/test-output.txt" "$here/build-asan/test-output.txt"; do
    awk '/^ *[0-9]+\/[0-9]+ Test +#/ { show = ($0 !~ / Passed |\*\*\*Skipped/) } show' "$f"
  done
  echo "== demo_quick (build/, alone but for the fuzz smoke run: build-fuzz/, every target for 4 s;"
  echo "   scripts/fuzz.sh --time 300 fuzzes longer)"
  fuzz_pid=
  if [ "$run_fuzz" -eq 1 ]; then
    fuzz_pass &
    fuzz_pid=$!
  fi
  ctest_pass demo_quick "$here/build" -R '^demo_quick$'
  [ -z "$fuzz_pid" ] || wait "$fuzz_pid" || true
  [ "$run_fuzz" -eq 0 ] || cat "$here/build-fuzz/fuzz-summary.txt"
  add_pass tests tests demo_quick
  add_pass sanitizer sanitizer
  [ "$run_fuzz" -eq 0 ] || add_pass fuzz fuzz
else
  echo "== tests (build/)"
  ctest_pass tests "$here/build" "${ctest_args[@]}"
  add_pass tests tests
  if [ "$run_fuzz" -eq 1 ]; then
    echo "== fuzz (build-fuzz/: every target for 4 s, a smoke run; scripts/fuzz.sh --time 300 fuzzes longer)"
    fuzz_pass
    cat "$here/build-fuzz/fuzz-summary.txt"
    add_pass fuzz fuzz
  fi
fi

echo "== summary"
for n in "${notes[@]}"; do echo "  $n"; done
verdict=PASSED
[ "$failed" -eq 0 ] || verdict=FAILED
(IFS=';'; echo "test.sh: $verdict in $((SECONDS - t_start)) s -- ${summary[*]}" | sed 's/;/; /g')
exit "$failed"
