#!/usr/bin/env bash
# charts.sh -- layout-report's charts: with gnuplot, four well-formed SVG files next to the report, each
# holding both layouts' series and linked from it by a relative path; for a cache sweep, the sweep
# chart (speedup and read amplification against the cache ratio); without gnuplot on PATH (or with
# no samples in the file) the report still renders and says why the charts were skipped.
# Environment (set by ctest): LAB_BIN_DIR, LAB_SOURCE_DIR, LAB_TEST_TMP.
set -euo pipefail

src=${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LAB_BIN_DIR:-$src/build/bin}
data=$src/tests/compare/data
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/compare-charts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
report=$bin/layout-report

# no_svg DIR WHAT -- DIR holds no SVG file, else the test fails (a real assertion: set -e ignores the
# status of a `! cmd`, so `! ls DIR/*.svg` could never stop this script).
no_svg() {
  local f
  for f in "$1"/*.svg; do
    if [ -e "$f" ]; then
      echo "FAIL: $2, yet a chart was written: $f" >&2
      exit 1
    fi
  done
}

if ! command -v gnuplot >/dev/null; then
  echo "FAIL: gnuplot is not installed (scripts/setup.sh installs gnuplot-nox)" >&2
  exit 1
fi

mkdir -p "$tmp/out dir"
"$report" "$data/run.json" -o "$tmp/out dir/review.md" -q
python3 - "$tmp/out dir" <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

d = sys.argv[1]
md = open(os.path.join(d, "review.md"), encoding="utf-8").read()
names = ["read-requests", "read-mbs", "memory", "latency"]
errors = []
for n in names:
    f = "review-%s.svg" % n
    p = os.path.join(d, f)
    if not os.path.exists(p):
        errors.append("%s missing" % f)
        continue
    try:
        root = ET.parse(p).getroot()
    except ET.ParseError as e:
        errors.append("%s is not well-formed XML: %s" % (f, e))
        continue
    if not root.tag.endswith("svg"):
        errors.append("%s: root element is %s, not svg" % (f, root.tag))
    text = " ".join(t for t in root.itertext())
    for layout in ("detail", "folded"):
        if not re.search(r"\b%s\b" % layout, text):
            errors.append("%s: no %s series in the chart's legend" % (f, layout))
    paths = [e for e in root.iter() if e.tag.endswith("path")]
    if len(paths) < 4:
        errors.append("%s: only %d paths drawn" % (f, len(paths)))
    if "](%s)" % f not in md:
        errors.append("review.md does not link %s by a relative path" % f)
if "Charts were skipped" in md:
    errors.append("review.md says charts were skipped although gnuplot ran")
leftover = [f for f in os.listdir(d) if f not in ["review.md"] + ["review-%s.svg" % n for n in names]]
if leftover:
    errors.append("unexpected files next to the report: %s" % leftover)
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: 4 well-formed SVG charts with both layouts, linked from the report")
PY

# three layouts: every chart has a series per layout (each named in the legend, in its own colour)
mkdir -p "$tmp/three"
"$report" "$data/run3.json" -o "$tmp/three/review.md" -q
python3 - "$tmp/three" <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

d = sys.argv[1]
errors = []
for n in ["read-requests", "read-mbs", "memory", "latency"]:
    p = os.path.join(d, "review-%s.svg" % n)
    if not os.path.exists(p):
        errors.append("review-%s.svg missing" % n)
        continue
    root = ET.parse(p).getroot()
    text = " ".join(t for t in root.itertext())
    for layout in ("detail", "folded", "buckets"):
        if not re.search(r"\b%s\b" % layout, text):
            errors.append("review-%s.svg: no %s series in the chart's legend" % (n, layout))
    raw = open(p, encoding="utf-8").read()
    drawn = {tuple(int(x) for x in m) for m in re.findall(r"rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)", raw)}
    colours = drawn & {(217, 95, 2), (27, 126, 158), (117, 112, 179)}  # detail, folded, the third
    if len(colours) < 3:
        errors.append("review-%s.svg: %d layout colours drawn, want 3 (%s)" % (n, len(colours), sorted(colours)))
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: three layouts, three series in every chart")
PY

# a cache sweep: the sweep chart, well-formed, with the speedup and both read amplification series, the
# regimes named and the production point marked (inside the measured range); outside the range there
# is no production marker (no estimate to draw)
mkdir -p "$tmp/sweep" "$tmp/sweep-out"
"$report" "$data/sweep.json" -o "$tmp/sweep/review.md" -q --production-cache-ratio 0.5
"$report" "$data/sweep.json" -o "$tmp/sweep-out/review.md" -q --production-cache-ratio 0.1
python3 - "$tmp/sweep" "$tmp/sweep-out" <<'PY'
import os, sys
import xml.etree.ElementTree as ET

errors = []
def check(d, production):
    p = os.path.join(d, "review-sweep.svg")
    md = open(os.path.join(d, "review.md"), encoding="utf-8").read()
    if not os.path.exists(p):
        errors.append("%s: review-sweep.svg missing" % d)
        return
    try:
        root = ET.parse(p).getroot()
    except ET.ParseError as e:
        errors.append("review-sweep.svg is not well-formed XML: %s" % e)
        return
    if not root.tag.endswith("svg"):
        errors.append("review-sweep.svg: root element is %s, not svg" % root.tag)
    text = " ".join(t for t in root.itertext())
    for want in ("speedup", "read amplification, detail", "read amplification, folded", "rereads",
                 "fits in cache", "85.8x", "9.15x", "256 MiB", "2 GiB"):
        if want not in text:
            errors.append("review-sweep.svg: no '%s' in the chart's text" % want)
    has_prod = "production" in text
    if has_prod != production:
        errors.append("review-sweep.svg: production marker %s" % ("missing" if production else "drawn outside the range"))
    paths = [e for e in root.iter() if e.tag.endswith("path")]
    if len(paths) < 6:
        errors.append("review-sweep.svg: only %d paths drawn" % len(paths))
    if "](review-sweep.svg)" not in md:
        errors.append("review.md does not link review-sweep.svg")
check(sys.argv[1], True)
check(sys.argv[2], False)
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: the sweep chart is well-formed SVG with the speedup and both amplification series")
PY

# a cache sweep of three layouts: a speedup series per candidate and an amplification series per layout
mkdir -p "$tmp/sweep3"
"$report" "$data/sweep3.json" -o "$tmp/sweep3/review.md" -q --production-cache-ratio 0.5
python3 - "$tmp/sweep3" <<'PY'
import os, sys
import xml.etree.ElementTree as ET

p = os.path.join(sys.argv[1], "review-sweep.svg")
if not os.path.exists(p):
    print("FAIL: review-sweep.svg missing for the three-layout sweep", file=sys.stderr)
    sys.exit(1)
text = " ".join(t for t in ET.parse(p).getroot().itertext())
want = ["speedup (detail load time ÷ folded, key order)", "speedup (detail load time ÷ buckets, key order)", "read amplification, detail",
        "read amplification, folded", "read amplification, buckets", "production"]
missing = [w for w in want if w not in text]
if missing:
    print("FAIL: review-sweep.svg of three layouts lacks %s" % missing, file=sys.stderr)
    sys.exit(1)
print("ok: the three-layout sweep chart has both candidates' speedups and all three amplifications")
PY

# a cache sweep with --prediction: the predicted curves beside the measured ones, each in its
# layout's colour, dash-dotted (a dash array the measured series do not use), the legend saying which is
# which, the predicted points the sweep did not measure (128 MiB, 4 GiB) on the same axis; the caption
# says it. Without --prediction the same chart has no predicted series and no "measured" in its legend.
mkdir -p "$tmp/pred"
"$report" "$data/sweep.json" --prediction "$data/predict.json" -o "$tmp/pred/review.md" -q
python3 - "$tmp/pred" "$tmp/sweep" <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

errors = []
def chart(d):
    p = os.path.join(d, "review-sweep.svg")
    if not os.path.exists(p):
        errors.append("%s: review-sweep.svg missing" % d)
        return None, None, set()
    root = ET.parse(p).getroot()
    text = " ".join(t for t in root.itertext())
    dashes = set()
    for e in root.iter():
        da = e.get("stroke-dasharray")
        if da:
            dashes.add(re.sub(r"\s+", "", da))
    return root, text, dashes

root, text, dashes = chart(sys.argv[1])
_, text0, dashes0 = chart(sys.argv[2])
if root is not None:
    for want in ("speedup (detail load time ÷ folded, key order), measured", "speedup (detail load time ÷ folded), predicted",
                 "read amplification, detail, measured", "read amplification, detail, predicted",
                 "read amplification, folded, measured", "read amplification, folded, predicted"):
        if want not in text:
            errors.append("the sweep chart with a prediction lacks '%s' in its legend" % want)
    new = dashes - dashes0
    if not new:
        errors.append("the predicted series use no dash pattern of their own (%s vs %s)" % (sorted(dashes), sorted(dashes0)))
    # x axis: the predicted 128 MiB point (ratio 0.20) widens it below the measured 0.41: the 0.2 tick shows
    if "0.2" not in text.split():
        errors.append("the chart's x axis does not reach the predicted point at ratio 0.2")
    md = open(os.path.join(sys.argv[1], "review.md"), encoding="utf-8").read()
    if "predicted before folding (dash-dotted lines, hollow marks)](review-sweep.svg)" not in md:
        errors.append("review.md's caption of the sweep chart does not say which curves are predicted")
if text0 is not None and ("predicted" in text0 or "measured" in text0):
    errors.append("the sweep chart without --prediction names predicted or measured series")
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: the predicted curves beside the measured ones, dash-dotted, the legend saying which is which")
PY

# loads too short for a time chart (folded: 2 samples): each time chart is a bar per layout of its median
# run's total, titled with what it shows, why, and the engine cache
mkdir -p "$tmp/short"
"$report" "$data/short-load.json" -o "$tmp/short/review.md" -q
python3 - "$tmp/short" <<'PY'
import os, sys
import xml.etree.ElementTree as ET

d = sys.argv[1]
errors = []
for n, want in (("read-requests", "Disk read requests per load"), ("read-mbs", "Disk bytes read per load"),
                ("memory", "Server memory and engine cache, peak per load")):
    p = os.path.join(d, "review-%s.svg" % n)
    if not os.path.exists(p):
        errors.append("review-%s.svg missing" % n)
        continue
    text = " ".join(t for t in ET.parse(p).getroot().itertext())
    for w in (want, "too few for a time chart", "engine cache 64 MiB", "layout (its median run)", "detail",
              "folded"):
        if w not in text:
            errors.append("review-%s.svg lacks '%s'" % (n, w))
    if "seconds since the layout's load started" in text:
        errors.append("review-%s.svg is still a time chart" % n)
if errors:
    print("FAIL: " + "\nFAIL: ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok: loads too short for time charts are drawn as totals per layout")
PY

# without gnuplot on PATH: the report renders and says so; no SVG is written
mkdir -p "$tmp/nognuplot"
PATH=/nonexistent "$report" "$data/run.json" -o "$tmp/nognuplot/report.md" -q
grep -q "Charts were skipped: gnuplot was not found on PATH" "$tmp/nognuplot/report.md"
no_svg "$tmp/nognuplot" "gnuplot is not on PATH"
echo "ok: without gnuplot the report says the charts were skipped"

# a file without samples or histograms: no empty charts
mkdir -p "$tmp/nosamples"
"$report" "$data/minimal.json" -o "$tmp/nosamples/report.md" -q
grep -q "Charts were skipped: the results file has no time series samples" "$tmp/nosamples/report.md"
no_svg "$tmp/nosamples" "the results file has no samples"
echo "ok: no samples, no charts"
echo "all chart checks passed"
