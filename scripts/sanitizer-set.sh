#!/usr/bin/env bash
# sanitizer-set.sh -- choose the tests of the sanitizer pass by measured coverage: builds a gcc --coverage
# tree of the product (build-cov/, Debug), runs every test the sanitizer pass could run (labels unit,
# embedded, server, cli; not slow, demo, fault; the server tests against one test server started here in
# build-cov/test-server/, the fixture's directory) each with its own GCOV_PREFIX (its child tools inherit
# it), reads with `gcov --json-format` the product lines each executed (core/ store/ datasets/ etl/ scan/
# compare/ ...: every source of the tree outside tests/; WiredTiger and libmongoc are system libraries, not
# measured), then picks greedily the test with the fewest seconds per line not yet covered until the chosen
# tests cover every line that all of them cover, drops any chosen test the others then cover, and writes
# tests/sanitizer-set.txt: a header (when and from which commit), one chosen test a line, then a
# "left out: NAME -- why" line for every other candidate. tests/CMakeLists.txt labels the chosen tests
# `san` at configure time and scripts/test.sh's sanitizer pass runs `ctest -L san`; the test
# sanitizer_set checks the file against the test list. Re-run after adding a test or a module.
#
# A test's cost is its [sanitizer] seconds in --times FILE (lines "SECONDS [sanitizer] NAME", as
# scripts/test.sh prints them, seconds first); a test with only a [tests] line there costs those seconds
# times the ratio of the two passes' sums over the tests that have both; a test not in the file, or no
# --times: its wall seconds in the coverage run.
#
# Usage: scripts/sanitizer-set.sh [--times FILE] [--jobs N] [--out FILE] [--no-build] [--reuse]
#                                  [--max-seconds-per-line S]
#   --times FILE  per-test seconds of a CI run (see above)
#   --max-seconds-per-line S  then leave out, the worst first, each chosen test whose lines no other chosen
#                 test runs cost more than S seconds each: those lines go uncovered, named on the test's
#                 "left out" line and counted in the header (default: every line covered)
#   --jobs N      tests run at a time (default 2)
#   --out FILE    where to write the set (default tests/sanitizer-set.txt)
#   --no-build    use build-cov/ as it is
#   --reuse       keep the per-test line lists of an earlier run (build-cov/sancov/NAME.lines) and run only
#                 the tests that have none; the choice is made again
#   --merge       run every test again and add its lines to the earlier runs' (a line counts for a test
#                 that reached it in any run): a few branches of the timed tools (the samplers, a verdict
#                 sentence chosen by measured times) move between runs, 8 of 30,716 lines once
# Output: the file, and the totals on stdout (lines covered by all candidates and by the chosen ones, the
# number of tests and their summed seconds before and after). Exit 1 when a test failed in the coverage run
# (the file is written anyway, the failures named in it), 2 for bad usage.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
me=sanitizer-set.sh
bdir=$here/build-cov
cov=$bdir/sancov

# --run-one NAME: run one test under its own GCOV_PREFIX and write its product lines to $cov/NAME.lines
# and "STATUS SECONDS" to $cov/NAME.status (the worker of the parallel runs below).
if [ "${1:-}" = --run-one ]; then
  name=$2
  pre=$cov/gcda/$name
  rm -rf "$pre"
  mkdir -p "$pre"
  strip=$(tr -cd / <<<"$bdir" | wc -c)
  t0=$(date +%s.%N)
  rc=0
  GCOV_PREFIX=$pre GCOV_PREFIX_STRIP=$strip \
    ctest --test-dir "$bdir" -R "^${name}\$" -FA '.*' --timeout 1500 --output-on-failure \
    >"$cov/$name.log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  status=failed
  if grep -qE 'Test +#[0-9]+: .*\*\*\*Skipped' "$cov/$name.log"; then
    status=skipped
  elif [ "$rc" -eq 0 ] && grep -qE 'Test +#[0-9]+: .* Passed ' "$cov/$name.log"; then
    status=passed
  fi
  # gcov reads FILE.gcno beside FILE.gcda: link the build's notes files in
  (cd "$pre" && find . -name '*.gcda') | while IFS= read -r f; do
    ln -sf "$bdir/${f%.gcda}.gcno" "$pre/${f%.gcda}.gcno"
  done
  (cd "$pre" && find . -name '*.gcda' -print0 | xargs -0 -r gcov --json-format --stdout 2>/dev/null) |
    python3 -c '
import json, os, sys
root = sys.argv[1]
out = set()
for doc in sys.stdin:
    doc = doc.strip()
    if not doc:
        continue
    d = json.loads(doc)
    cwd = d.get("current_working_directory", "")
    for f in d.get("files", []):
        p = os.path.normpath(os.path.join(cwd, f["file"]))
        if not p.startswith(root + "/"):
            continue
        rel = p[len(root) + 1:]
        top = rel.split("/")[0]
        if top == "tests" or top.startswith("build"):
            continue
        for ln in f.get("lines", []):
            if ln.get("count", 0) > 0:
                out.add("%s:%d" % (rel, ln["line_number"]))
for l in sorted(out):
    print(l)
' "$here" >"$cov/$name.lines.tmp"
  # --merge: a line any run of the test reached counts (timing moves a few branches between runs)
  if [ "${SANCOV_MERGE:-0}" = 1 ] && [ -f "$cov/$name.lines" ]; then
    sort -u "$cov/$name.lines" "$cov/$name.lines.tmp" -o "$cov/$name.lines.tmp"
  fi
  mv "$cov/$name.lines.tmp" "$cov/$name.lines"
  awk -v s="$status" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s %.1f\n", s, b - a }' >"$cov/$name.status"
  rm -rf "$pre"
  echo "$me: $name: $status, $(wc -l <"$cov/$name.lines") product lines, $(cut -d' ' -f2 "$cov/$name.status") s"
  exit 0
fi

times=
jobs=2
out=$here/tests/sanitizer-set.txt
build=1
reuse=0
merge=0
maxspl=
while [ $# -gt 0 ]; do
  case "$1" in
    --times|--jobs|--out|--max-seconds-per-line)
      [ $# -ge 2 ] || { echo "$me: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --times) times=$2 ;; --jobs) jobs=$2 ;; --out) out=$2 ;; --max-seconds-per-line) maxspl=$2 ;;
      esac
      shift ;;
    --no-build) build=0 ;;
    --reuse) reuse=1 ;;
    --merge) merge=1 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "$me: --jobs: '$jobs' is not a positive number" >&2; exit 2; }
[ -z "$maxspl" ] || [[ "$maxspl" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
  { echo "$me: --max-seconds-per-line: '$maxspl' is not a number of seconds" >&2; exit 2; }
[ -z "$times" ] || [ -r "$times" ] || { echo "$me: --times: cannot read '$times'" >&2; exit 2; }
command -v gcov >/dev/null || { echo "$me: gcov not found (it comes with gcc)" >&2; exit 1; }

commit=$(git -C "$here" rev-parse --short=12 HEAD)
dirty=
# the tree measured: read before the tests run
git -C "$here" diff --quiet HEAD -- . ':!tests/sanitizer-set.txt' || dirty=" (with uncommitted changes)"

if [ "$build" -eq 1 ]; then
  echo "== building $bdir (gcc --coverage, Debug)"
  cmake -S "$here" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=--coverage \
    -DCMAKE_EXE_LINKER_FLAGS=--coverage -DCMAKE_SHARED_LINKER_FLAGS=--coverage >/dev/null
  cmake --build "$bdir" -j "$(nproc)"
fi
mkdir -p "$cov"
[ "$reuse" -eq 1 ] || [ "$merge" -eq 1 ] || rm -f "$cov"/*.lines "$cov"/*.status "$cov"/*.log
export SANCOV_MERGE=$merge

# The candidates: what the sanitizer pass could run, without the fixture's own start and stop.
ctest --test-dir "$bdir" --show-only=json-v1 >"$cov/tests.json"
python3 - "$cov/tests.json" >"$cov/candidates.txt" <<'PY'
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    labels = set(props.get("LABELS", []))
    if "FIXTURES_SETUP" in props or "FIXTURES_CLEANUP" in props:
        continue
    if labels & {"unit", "embedded", "server", "cli"} and not labels & {"slow", "demo", "fault"}:
        print(t["name"])
PY
echo "== $(wc -l <"$cov/candidates.txt") candidate tests"

todo=()
while IFS= read -r n; do
  [ "$reuse" -eq 1 ] && [ -s "$cov/$n.status" ] && continue
  todo+=("$n")
done <"$cov/candidates.txt"

if [ ${#todo[@]} -gt 0 ]; then
  # one test server for all the server tests, where the fixture would put it (their URI file)
  srv=$bdir/test-server
  "$here/scripts/mongo-test-server.sh" start --dir "$srv" >/dev/null
  trap '"$here/scripts/mongo-test-server.sh" stop --dir "$srv" >/dev/null 2>&1 || true' EXIT
  echo "== running ${#todo[@]} tests, $jobs at a time (each one's output: $cov/NAME.log)"
  # the longest first (the COST ctest would use, else 0), so that none runs on alone at the end
  python3 - "$cov/tests.json" "${todo[@]}" <<'PY' | xargs -r -P "$jobs" -n 1 "$0" --run-one
import json, sys
cost = {}
for t in json.load(open(sys.argv[1]))["tests"]:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    cost[t["name"]] = float(props.get("COST", 0))
for n in sorted(sys.argv[2:], key=lambda n: -cost.get(n, 0)):
    print(n)
PY
fi

python3 - "$cov" "$out" "$times" "$commit$dirty" "$maxspl" <<'PY'
import datetime, os, re, sys

cov, out, times_file, commit, maxspl = sys.argv[1:6]
names = [l.strip() for l in open(os.path.join(cov, "candidates.txt")) if l.strip()]
lines, status, secs = {}, {}, {}
for n in names:
    lines[n] = set(l.strip() for l in open(os.path.join(cov, n + ".lines")) if l.strip())
    s, t = open(os.path.join(cov, n + ".status")).read().split()
    status[n], secs[n] = s, float(t)

# costs: the CI run's [sanitizer] seconds, else its [tests] seconds scaled, else the coverage run's
ci_san, ci_plain = {}, {}
if times_file:
    for l in open(times_file):
        m = re.match(r"\s*([0-9.]+)\s+\[(sanitizer|tests)\]\s+(\S+)", l)
        if m:
            (ci_san if m.group(2) == "sanitizer" else ci_plain)[m.group(3)] = float(m.group(1))
both = [n for n in ci_san if n in ci_plain]
ratio = sum(ci_san[n] for n in both) / max(sum(ci_plain[n] for n in both), 1e-9) if both else 1.0
cost, source = {}, {}
for n in names:
    if n in ci_san:
        cost[n], source[n] = ci_san[n], "sanitizer pass"
    elif n in ci_plain:
        cost[n], source[n] = ci_plain[n] * ratio, "plain pass x %.2f" % ratio
    else:
        cost[n], source[n] = secs[n], "coverage run"
    cost[n] = max(cost[n], 0.01)

union = set().union(*lines.values()) if names else set()
chosen, covered = [], set()
# greedy: the fewest seconds per new line first
while covered != union:
    best = min((n for n in names if n not in chosen and lines[n] - covered),
               key=lambda n: (cost[n] / len(lines[n] - covered), cost[n], n))
    chosen.append(best)
    covered |= lines[best]
# then drop, the dearest first, any chosen test whose lines the other chosen tests cover
for n in sorted(chosen, key=lambda n: -cost[n]):
    rest = set().union(*(lines[m] for m in chosen if m != n))
    if lines[n] <= rest:
        chosen.remove(n)
covered = set().union(*(lines[n] for n in chosen)) if chosen else set()
assert covered == union

def only(n):  # the lines of chosen test n that no other chosen test runs
    return lines[n] - set().union(*(lines[m] for m in chosen if m != n))

# --max-seconds-per-line: trade the dearest lines for time, the worst test first
dropped = {}
while maxspl and chosen:
    worst = max(chosen, key=lambda n: cost[n] / len(only(n)))
    lost = only(worst)
    if cost[worst] / len(lost) <= float(maxspl):
        break
    chosen.remove(worst)
    dropped[worst] = lost
covered = set().union(*(lines[n] for n in chosen)) if chosen else set()
# ... and take back any other test whose lines the drops left uncovered cost at most S seconds each
while dropped:
    adds = [n for n in names if n not in chosen and n not in dropped and lines[n] - covered]
    best = min(adds, key=lambda n: cost[n] / len(lines[n] - covered), default=None)
    if best is None or cost[best] / len(lines[best] - covered) > float(maxspl):
        break
    chosen.append(best)
    covered |= lines[best]
for n in dropped:
    dropped[n] = lines[n] - covered

def files(s):
    return len(set(l.rsplit(":", 1)[0] for l in s))

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
before = sum(cost[n] for n in names)
after = sum(cost[n] for n in chosen)
order = sorted(chosen, key=lambda n: (-len(lines[n]), n))
with open(out + ".tmp", "w") as f:
    f.write("# sanitizer-set.txt -- the tests of the sanitizer pass (scripts/test.sh, build-asan/: ctest -L san),\n")
    f.write("# chosen by coverage by scripts/sanitizer-set.sh; re-run it after adding a test or a module.\n")
    f.write("# computed %s from commit %s\n" % (now, commit))
    f.write("# product lines executed: %d by all %d candidates, %d by the %d chosen (%d files)\n"
            % (len(union), len(names), len(covered), len(chosen), files(union)))
    if dropped:
        f.write("# --max-seconds-per-line %s: %d lines not covered, named on the left-out lines of %d tests\n"
                % (maxspl, len(union - covered), len(dropped)))
    f.write("# seconds (cost: %s): %.0f for all candidates, %.0f for the chosen\n"
            % ("--times " + os.path.basename(times_file) if times_file else "the coverage run", before, after))
    f.write("# A line: a chosen test (# its lines, the lines no other chosen test runs, its cost), or\n")
    f.write("# \"left out: NAME -- why\". scripts/sanitizer-set.sh --help says how.\n")
    for n in order:
        others = set().union(*(lines[m] for m in chosen if m != n))
        note = "" if status[n] == "passed" else ", %s in the coverage run" % status[n]
        f.write("%-28s # %d lines, %d only here, %.0f s%s\n" % (n, len(lines[n]), len(lines[n] - others), cost[n], note))
    for n in sorted(set(names) - set(chosen)):
        note = "" if status[n] == "passed" else "; %s in the coverage run" % status[n]
        if n in dropped:
            why = ("over --max-seconds-per-line %s: the lines only it ran cost more than that each; "
                   "%d of them no chosen test runs: %s" % (maxspl, len(dropped[n]), " ".join(sorted(dropped[n]))))
        elif not lines[n]:
            why = "runs no product line"
        else:
            why = "covered by the chosen set (adds 0 of its %d lines, %.0f s)" % (len(lines[n]), cost[n])
        f.write("left out: %s -- %s%s\n" % (n, why, note))
os.replace(out + ".tmp", out)
print("product lines: %d covered by all %d candidates, %d by the %d chosen"
      % (len(union), len(names), len(covered), len(chosen)))
for n in sorted(dropped):
    print("not covered (--max-seconds-per-line %s): %s's %s" % (maxspl, n, " ".join(sorted(dropped[n]))))
print("summed seconds (%s): %.0f before, %.0f after" % ("--times" if times_file else "coverage run", before, after))
if ci_san:
    fixture = [n for n in ci_san if n not in names]  # the fixture's start and stop, and tests gone since
    print("the sanitizer pass of --times: %d tests, %.0f s (%d of them not candidates: %s, %.0f s)"
          % (len(ci_san), sum(ci_san.values()), len(fixture), " ".join(sorted(fixture)),
             sum(ci_san[n] for n in fixture)))
    print("the chosen tests there: %.0f s (%d of them with no [sanitizer] line: %s)"
          % (after, len([n for n in chosen if n not in ci_san]),
             " ".join(sorted(n for n in chosen if n not in ci_san)) or "none"))
for n in names:
    if status[n] == "failed":
        print("FAILED in the coverage run: %s (%s)" % (n, os.path.join(cov, n + ".log")))
PY
echo "== wrote $out"
! grep -l '^failed' "$cov"/*.status >/dev/null 2>&1
