#!/usr/bin/env bash
# demo_test.sh -- scripts/demo.sh end to end on a reduced size (--quick), with the tools of this build:
# it must finish, write run.json, report.md and the charts, and the experiment must show the
# one-document-per-row layout needing more disk read requests than the folded one (read from JSON).
# The demo sweeps the engine cache (2 points with --quick): run.json holds the points in order, the
# detail layout rereads more at the smaller cache, and the report's verdict and chart show the curve.
#
# Usage: demo_test.sh OUT_DIR   (ctest passes <build>/demo-out; LAB_BIN_DIR names the tools)
set -euo pipefail

src=${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LAB_BIN_DIR:-$src/build/bin}
out=${1:?usage: demo_test.sh OUT_DIR}
rm -rf "$out"

"$src/scripts/demo.sh" --quick --out "$out" --bin "$bin" > "$out.stdout"
cat "$out.stdout"
grep -q "^report: $out/report.md\$" "$out.stdout" || { echo "FAIL: demo did not print the report's path" >&2; exit 1; }

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
if rr.get("better") != "folded" or not rr["detail"]["median"] > rr["folded"]["median"]:
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
if "## Cache sweep" not in md or "depending on the engine cache" not in md:
    errors.append("report.md does not show the curve (## Cache sweep, the verdict's range)")
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: demo finished; detail needed %s read requests vs folded %s" % (rr["detail"]["median"], rr["folded"]["median"]))
PY
