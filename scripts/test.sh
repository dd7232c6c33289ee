#!/usr/bin/env bash
# test.sh -- the README's test command: installs what is missing, builds (warnings as errors), starts
# the MongoDB-compatible test server through ctest's fixture, runs every test, then runs them again under
# AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/: the unit, embedded-store, server and CLI
# tests, golden files included; not the slow, demo and fault-injection ones, nor those labelled nosan,
# whose native code other tests already run under the sanitizers: tests/CMakeLists.txt), then the fuzz
# smoke pass (scripts/fuzz.sh: every libFuzzer target for 4 s, its seed corpus replayed, clang-16 tree in
# build-fuzz/; the long run is its own command: scripts/fuzz.sh --time 300).
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
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
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

# ctest_pass NAME DIR ARGS... -- run ctest in DIR writing a JUnit file, then count its tests: a test is
# skipped when ctest did not run it for its SKIP_RETURN_CODE (status "notrun", message SKIP_...), failed
# when it failed, timed out, or was not run for another reason (a failed fixture, a missing program).
ctest_pass() {
  local name=$1 dir=$2 junit=$2/test-results.xml t0=$SECONDS rc=0 counts
  shift 2
  rm -f "$junit"
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 1500 --output-junit "$junit" "$@" || rc=$?
  counts=$(python3 - "$junit" "$rc" "$name" <<'PY'
import sys
import xml.etree.ElementTree as ET

junit, rc, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
passed = failed = skipped = 0
notes = []
try:
    cases = list(ET.parse(junit).getroot().iter("testcase"))
except (OSError, ET.ParseError) as e:
    cases = []
    notes.append("%s: no readable JUnit file from ctest (%s)" % (name, e))
for tc in cases:
    status, out = tc.get("status"), "".join(x.text or "" for x in tc.iter("system-out"))
    skip = tc.find("skipped")
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
print("%d %d %d" % (passed, failed, skipped))
for n in notes:
    print(n)
PY
)
  read -r p f s <<<"$(head -1 <<<"$counts")"
  summary+=("$name: $p passed, $f failed, $s skipped ($((SECONDS - t0)) s)")
  while IFS= read -r line; do notes+=("$line"); done < <(tail -n +2 <<<"$counts")
  [ "$f" -eq 0 ] || failed=1
}

echo "== tests (build/)"
ctest_pass tests "$here/build" "${ctest_args[@]}"

if [ "$asan" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ]; then
  echo "== sanitizer tests (build-asan/: unit, embedded, server and CLI)"
  # WiredTiger itself is not instrumented. exitcode=23: a sanitizer report ends the tool with a status no
  # test expects (ASan's default, 1, is the exit status of a tool's runtime error that tests do expect).
  # The server tests get the fixture of build-asan/ (the server binary is cached, not rebuilt).
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=23 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest_pass sanitizer "$here/build-asan" -L 'unit|embedded|server|cli' -LE 'slow|demo|nosan'
fi

if [ "$fuzz" -eq 1 ] && [ ${#ctest_args[@]} -eq 0 ]; then
  echo "== fuzz (build-fuzz/: every target for 4 s, a smoke run; scripts/fuzz.sh --time 300 fuzzes longer)"
  t0=$SECONDS
  rc=0
  "$here/scripts/fuzz.sh" --time 4 | tee "$here/build-fuzz/fuzz-summary.txt" || rc=$?
  # fuzz.sh's own closing line: "fuzz: N passed, M failed"
  line=$(grep '^fuzz: [0-9]* passed, [0-9]* failed$' "$here/build-fuzz/fuzz-summary.txt" | tail -1 || true)
  if [ -n "$line" ]; then
    read -r p f <<<"$(sed 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/' <<<"$line")"
  else
    p=0 f=1
    notes+=("fuzz: fuzz.sh exited $rc without its closing line")
  fi
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
  summary+=("fuzz: $p passed, $f failed, 0 skipped ($((SECONDS - t0)) s)")
  [ "$f" -eq 0 ] || failed=1
fi

echo "== summary"
for n in "${notes[@]}"; do echo "  $n"; done
verdict=PASSED
[ "$failed" -eq 0 ] || verdict=FAILED
(IFS=';'; echo "test.sh: $verdict in $((SECONDS - t_start)) s -- ${summary[*]}" | sed 's/;/; /g')
exit "$failed"
