#!/usr/bin/env bash
# demo_test.sh -- scripts/demo.sh end to end on a reduced size (--quick), with the tools of this build:
# it must finish, write run.json, report.md and the charts, and the experiment must show the
# one-document-per-row layout needing more disk read requests than the folded one (read from JSON).
# The demo sweeps the engine cache (2 points with --quick): run.json holds the points in order, the
# detail layout rereads more at the smaller cache, and the report's verdict and chart show the curve. The
# workloads are in run.json at every point, rows equal across the layouts, and the report leads
# with their ledger.
#
# Then the README's next commands ("Next, from the same directory") run as written, from the directory
# the demo ran in (a fresh one, with build/bin pointing at the tools): they must find the demo's store and
# files, and give a one-point results file of three runs per layout and its report.
#
# Usage: demo_test.sh WORK_DIR   (ctest passes <build>/demo-out; LAB_BIN_DIR names the tools)
set -euo pipefail

src=${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LAB_BIN_DIR:-$src/build/bin}
work=${1:?usage: demo_test.sh WORK_DIR}
rm -rf "$work"
mkdir -p "$work/build"
ln -s "$bin" "$work/build/bin"
work=$(cd "$work" && pwd)
out=$work/out

# as the README says: from the directory it runs in, its default --out
(cd "$work" && "$src/scripts/demo.sh" --quick --bin "$bin") > "$work.stdout"
cat "$work.stdout"
grep -q "^report: $out/report.md\$" "$work.stdout" || { echo "FAIL: demo did not print the report's path" >&2; exit 1; }

python3 - "$out" <<'PY'
import json, os, sys

out = sys.argv[1]
errors = []
run = json.load(open(os.path.join(out, "run.json")))
cmpj = json.load(open(os.path.join(out, "comparison.json")))

def per_layout(layout):
    return [r["read_requests"] for r in run["runs"] if r["layout"] == layout and "read_requests" in r]

def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0

if run["config"].get("direct_io") is not True:
    errors.append("the embedded demo did not load with --direct-io (config.direct_io: %r)" % run["config"].get("direct_io"))
if "read_ahead_kb" not in run.get("device", {}):
    errors.append("run.json lacks device.read_ahead_kb")
d, f = per_layout("detail"), per_layout("folded")
if not d or not f:
    errors.append("run.json lacks read_requests for a layout (device not sampled?)")
elif not median(d) > median(f):
    errors.append("detail read requests %s (median) are not above folded %s" % (d, f))
rr = cmpj["metrics"].get("read_requests", {})
# the best group the rule names: "folded", or a tie in it ("clustered = folded": the clustered copy also
# reads each master's rows together, 233 and 234 requests in one run)
best = [x.strip() for x in str(rr.get("better", "")).split("=")]
if "folded" not in best or "detail" in best or not rr["detail"]["median"] > rr["folded"]["median"]:
    errors.append("the report's comparison does not show folded needing fewer read requests: %s" % rr)
if run["config"].get("cold") is not True:
    errors.append("the demo's runs were not cold")
md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
for section in ("## Verdict", "## Comparison", "## Charts", "## Cold procedure", "## Per-run figures"):
    if section not in md:
        errors.append("report.md lacks %s" % section)
for c in cmpj["charts"]:
    if not os.path.exists(os.path.join(out, c)):
        errors.append("chart %s is missing" % c)
if len(cmpj["charts"]) != 5 or "report-sweep.svg" not in cmpj["charts"]:
    errors.append("expected 5 charts with the sweep's, got %s" % cmpj["charts"])
sweep = run.get("sweep", [])
if len(sweep) != 2:
    errors.append("expected a 2-point sweep, got %d points" % len(sweep))
else:
    if not sweep[0]["cache_size_bytes"] < sweep[1]["cache_size_bytes"]:
        errors.append("sweep points out of order: %s" % [p["cache_size_bytes"] for p in sweep])
    amp = [p.get("detail", {}).get("read_amplification") for p in sweep]
    if None in amp or not amp[0] > amp[1]:
        errors.append("detail read amplification does not fall as the cache grows: %s" % amp)
    if "locality" not in sweep[0].get("folded", {}):
        errors.append("the sweep lacks the folded layout's locality")
# the prediction made before the fold is set beside every measured point: the sweep ran at its caches
# exactly, and the report's "Predicted beside measured" has a row per point (none left unpaired)
pred = json.load(open(os.path.join(out, "pred.json")))
psizes = [p["cache_size_bytes"] for p in pred.get("sweep", [])]
if psizes != [p["cache_size_bytes"] for p in sweep]:
    errors.append("the sweep's caches %s are not the prediction's %s" % ([p["cache_size_bytes"] for p in sweep], psizes))
sec = md[md.find("## Predicted beside measured"):] if "## Predicted beside measured" in md else ""
sec = sec[:sec.find("\n## ", 1)] if "\n## " in sec[1:] else sec
prows, intable = [], False
for l in sec.splitlines():
    if "| detail MiB read predicted |" in l:
        intable = True
    elif intable and l.startswith("| "):
        prows.append(l)
    elif intable and not l.startswith("|"):
        break
if not sec or "No point is paired" in sec or len(prows) != len(sweep):
    errors.append("report.md's Predicted beside measured pairs %d of %d points" % (len(prows), len(sweep)))
# the workloads' ledger (24): the reads on both layouts, rows equal, at every point; the writes
# (appends, the load after them, corrections) at the reference point only, the file's ledger
reads = ["load", "load_random", "row", "range", "aggregate"]
writes = ["load", "load_random", "row", "range", "aggregate", "append", "load_after_writes", "update"]
wl = [w["workload"] for w in run.get("workloads", [])]
if wl != writes:
    errors.append("run.json's workloads are %s, not %s" % (wl, writes))
for w in run.get("workloads", []):
    if w.get("rows_equal") is not True:
        errors.append("workload %s: the layouts returned different rows" % w["workload"])
ref = run.get("sweep_reference")
for i, p in enumerate(sweep):
    if [x["workload"] for x in p.get("workloads", [])] != (writes if i == ref else reads):
        errors.append("sweep point %d has workloads %s" % (i, [x["workload"] for x in p.get("workloads", [])]))
if "## What each query costs" not in md or "**aggregate**" not in md or "**append**" not in md or "**update**" not in md:
    errors.append("report.md lacks the workloads' ledger, the writes in it")
if "| **load (key order)**" not in md or "| **load (random order)**" not in md or "speedup (random order" not in md:
    errors.append("report.md does not name both load orders (ledger rows, the sweep's random-order speedup)")
# the user's mix: measured on every layout, its verdict, the estimate beside it
mix = json.load(open(os.path.join(out, "mix.json"))).get("mix", {})
# on every layout the demo measured: writes to some only would leave the layouts with different data
if mix.get("rows_equal") is not True or sorted(l["layout"] for l in mix.get("layouts", [])) != ["clustered", "detail", "folded"]:
    errors.append("mix.json: no measured mix on detail, clustered and folded with equal rows: %s" % {k: mix.get(k) for k in ("rows_equal", "spec")})
mmd = open(os.path.join(out, "report-mix.md"), encoding="utf-8").read()
if "\nUnder this mix (load 5%, row 60%, range 5%, append 25%, update 5%)" not in mmd or "### The estimate beside the measured mix" not in mmd:
    errors.append("report-mix.md lacks the mix's verdict or the estimate beside it")
if "## Cache sweep" not in md or "depending on the engine cache" not in md:
    errors.append("report.md does not show the curve (## Cache sweep, the verdict's range)")
# page one decides: the recommendation is the first section, names what folding costs (the workloads it
# loses) and the clustered collection's share of folding's gain, before anything else
first = md.find("\n## ")
if md[first:first + 19] != "\n## Recommendation\n":
    errors.append("report.md's first section is not the Recommendation: %r" % md[first:first + 40])
rec = md[first:md.find("\n## ", first + 1)]
if "- **folded**" not in rec or "slower" not in rec or "What it costs:" not in rec:
    errors.append("the Recommendation does not name folding's costs: %r" % rec[:600])
if "- **The cheaper change**: clustered keeps " not in rec or "of folded's" not in rec:
    errors.append("the Recommendation does not give the clustered collection's share of folding's gain")
if "- **How sure**:" not in rec:
    errors.append("the Recommendation does not say how sure its figures are")
if "- **The user's mix**" in rec and "under this mix (" not in rec.lower():
    errors.append("the Recommendation names the user's mix without its verdict")
# the mix was measured (mix.json): page one gives the stream's verdict, not the estimate from separate runs
if mix and "- **The user's mix**: Under this mix (" not in rec:
    errors.append("the Recommendation does not give the measured mix's verdict (layout-report --mix-file)")
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: demo finished; detail needed %s read requests vs folded %s" % (rr["detail"]["median"], rr["folded"]["median"]))
PY

# the README's next commands, as written (continuation lines joined), from the same directory
python3 - "$src/README.md" > "$work/next.sh" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"^### Next, from the same directory\n.*?^```sh\n(.*?)^```", text, re.S | re.M)
if not m:
    sys.exit("README.md has no 'Next, from the same directory' command block")
print("set -euo pipefail")
print(m.group(1).replace("\\\n", " "))
PY
n=$(grep -c '^build/bin/' "$work/next.sh" || true)
[ "$n" = 3 ] || { echo "FAIL: README's next commands: $n, want 3" >&2; cat "$work/next.sh" >&2; exit 1; }
rm -f "$out/report.md"
if ! (cd "$work" && bash next.sh) > "$work/next.out" 2>&1; then
  echo "FAIL: the README's next commands failed after the demo:" >&2
  cat "$work/next.out" >&2
  exit 1
fi
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
errors = []
if not os.path.exists(os.path.join(out, "report.md")):
    errors.append("the first command did not render out/report.md again")
run = json.load(open(os.path.join(out, "run-64mb.json")))
for layout in ("detail", "folded"):
    n = len([r for r in run["runs"] if r["layout"] == layout])
    if n != 3:
        errors.append("run-64mb.json has %d %s runs, want 3" % (n, layout))
if run.get("sweep"):
    errors.append("run-64mb.json is a sweep, want one point")
if run["config"].get("cache_size_bytes") != 64 * 1048576:
    errors.append("--cache-size 64MB gave %s bytes, want 64 MiB" % run["config"].get("cache_size_bytes"))
md = open(os.path.join(out, "report-64mb.md"), encoding="utf-8").read()
for want in ("## Verdict", "## Reproduce", "median of 3 runs each"):
    if want not in md:
        errors.append("report-64mb.md lacks %r" % want)
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: the README's next commands work after the demo")
PY
