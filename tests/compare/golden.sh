#!/usr/bin/env bash
# golden.sh -- layout-report's CLI golden tests: committed results files render to committed Markdown,
# byte for byte (with and without a baseline, with missing optional fields and Markdown-special names, a
# cache sweep with and without a production point), and bad input is refused with a clear message, a
# non-zero exit code and no output file.
#
# Usage: golden.sh [--update]   (--update rewrites the expected files: review the diff before committing)
# Environment (set by ctest): LAB_BIN_DIR, LAB_SOURCE_DIR, LAB_TEST_TMP.
set -euo pipefail

src=${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LAB_BIN_DIR:-$src/build/bin}
data=$src/tests/compare/data
expected=$src/tests/compare/expected
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/compare-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
update=0
[ "${1:-}" = "--update" ] && update=1
report=$bin/layout-report
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# golden NAME ARGS... -- run layout-report from the data directory (relative paths, as a user would)
golden() {
  local name=$1; shift
  if ! (cd "$data" && "$report" "$@" -o "$tmp/$name.md" -q); then
    fail "$name: layout-report exited non-zero"; return
  fi
  if [ $update -eq 1 ]; then
    cp "$tmp/$name.md" "$expected/$name.md"; echo "updated $expected/$name.md"
  elif ! cmp -s "$tmp/$name.md" "$expected/$name.md"; then
    fail "$name: output differs from $expected/$name.md"
    diff -u "$expected/$name.md" "$tmp/$name.md" | head -40 >&2 || true
  else
    echo "ok: $name"
  fi
}

golden run run.json --charts none
golden run-vs-baseline run.json --baseline baseline.json --charts none --title 'snappy vs zlib: bill_detail folding'
golden minimal minimal.json --charts none
# keys that matched no document in part, and layouts that returned different rows: said in
# the verdict and under the table
golden partial partial.json --charts none
# a cache sweep (three points): the curve verdict and tables; with the production point inside the
# measured range (interpolated) and outside it (refused, the report still written)
# three layouts (schema version 2): a column per layout, ratios against detail, the N-layout verdict;
# against a two-layout baseline (the layout the baseline lacks shows n/a)
golden run3 run3.json --charts none
golden run3-vs-baseline run3.json --baseline run.json --charts none --title 'three candidates against the two-layout run'
golden sweep sweep.json --charts none
golden sweep-production sweep.json --charts none --production-cache-ratio 0.5
golden sweep-outside sweep.json --charts none --production-cache 64MiB --production-data 659562496
# the original experiment's published table beside a sweep (the point in its regime) and a single point
# in another regime
golden sweep-reference sweep.json --charts none --reference "$src/datasets/reference/original.json"
golden run-reference run.json --charts none --reference "$src/datasets/reference/original.json"
golden sweep-vs-baseline sweep.json --baseline sweep-baseline.json --charts none --title 'snappy vs zlib: the cache sweep'
# a cache sweep of three layouts: a column per layout in every sweep table, every candidate's
# curve and production estimate, the fastest layout per point (ties by the 2% rule); against the
# two-layout sweep of the same data, every layout both hold point by point
golden sweep3 sweep3.json --charts none --production-cache-ratio 0.5
golden sweep3-vs-baseline sweep3.json --baseline sweep.json --charts none --title 'three candidates against the two-layout sweep'

# loads without --direct-io: one sweep point per regime (rereads, fits in memory, fits in
# cache), the same 1 GiB point as a single-point file, each also beside the original experiment
golden buffered-sweep buffered-sweep.json --charts none
golden buffered-sweep-reference buffered-sweep.json --charts none --reference "$src/datasets/reference/original.json"
golden buffered-run buffered-run.json --charts none
golden buffered-run-reference buffered-run.json --charts none --reference "$src/datasets/reference/original.json"
# the CPU of the store's process (gen_cpu.py: run.json plus cpu figures): the two catalogue rows, and the
# CPU-bound sentence under the table for the folded load (96% of its 2 cores), not for the detail one (47%)
golden run-cpu run-cpu.json --charts none
# gen_newcomer.py: a single point whose cache (1.57x the data on disk) still reread 66x: the
# verdict names rereads; a one-run near-tie (0.012 s vs 0.011 s, sampled every 0.1 s): no winner; loads
# too short for time charts: totals, each caption naming the cache (needs gnuplot); the provenance
# billgen and fold-details record, in the Reproduce section
golden reread-point reread-point.json --charts none
golden near-tie near-tie.json --charts none
# gen_decompose.py: detail, the same rows in key order (sorted: fold-details --shape sorted, its
# provenance says so) and folded over three cache points: the speedup taken apart into locality and fewer
# documents per point, with the read requests, bytes read, CPU and pages per master of each layout (every
# two-layout report above says instead that it was not measured)
golden decompose decompose.json --charts none
# its reference point alone, the sorted layout marked by layouts[].order "key": the one point taken apart
golden decompose-point decompose-point.json --charts none
# that point with a clustered collection beside sorted: what the rows keep unfolded, per point
golden decompose-clustered decompose-clustered.json --charts none
golden short-load short-load.json --charts svg
golden provenance provenance.json --charts none
# figures that cannot stand for a cold mongod load (gen_trust.py): the test server's (FerretDB, 99.8% of
# the data files resident) and three layouts with one run 45% resident: the ratio without bold, saying why
golden ferretdb ferretdb.json --charts none
golden warm3 warm3.json --charts none
# gen_workloads.py: the "workloads" of scancmp --workload load,row,range,aggregate: the ledger
# after the verdict, the trade-off sentence, each workload in detail; two layouts, and three (a loss names
# its winner; rows_equal false warned in the ledger and the workload's section)
golden workloads workloads.json --charts none
golden workloads3 workloads3.json --charts none
# a sweep whose every point has its workloads: the table of each workload's winner per cache
golden workloads-sweep workloads-sweep.json --charts none
# gen_predict.py: a prediction (scancmp --predict) rendered alone, and beside the measured sweep
# of the same data: the table of predicted vs measured with the error per point, the sentence naming the
# largest error and where (near the knee), the probe's cost; the sweep chart's caption saying which
# curves are predicted (needs gnuplot)
golden predict predict.json --charts none
golden sweep-prediction sweep.json --prediction predict.json --charts svg --production-cache-ratio 0.5
# gen_writes.py: the write workloads (append, update) with their write costs in the ledger and in
# each workload's table, and the load again after the appends
golden writes writes.json --charts none
# the same writes in a 4 MiB cache, smaller than detail's 18.1 MB of indexes (writes.json with only
# config.cache_size_bytes changed): the ledger and the recommendation say the cache thrashes
golden writes-thrash writes-thrash.json --charts none
# a sweep whose reference point (the middle one) ran the writes (workloads-sweep.json with writes.json's
# append and update added there): the sweep's note says the reference point was measured last, and why
golden sweep-writes sweep-writes.json --charts none
# the user's mix (gen_mix.py: writes.json plus a measured "mix", docs/results-schema.md): the section "The
# user's mix" after the ledger; the same mix estimated from writes.json's separate workloads (--mix); and
# the estimate beside the measured mix with its error per layout (refusals and sentences: mix.sh)
golden mix mix.json --charts none
golden mix-estimated writes.json --charts none --mix load=5,row=60,range=5,append=25,update=5
golden mix-beside mix.json --charts none --mix load=5,row=60,range=5,append=25,update=5
# the stream and the estimate name different winners (mix-far.json: detail's appends and ranges slowed far
# more in the stream): page one and the section say which types made the difference, per op both ways
golden mix-far mix-far.json --charts none --mix load=5,row=60,range=5,append=25,update=5
# the stream measured in another file of the same collections (--mix-file): page one gives its verdict
# and why the estimate from this file's workloads differs; the section says where it was measured
golden mix-file writes.json --charts none --mix load=5,row=60,range=5,append=25,update=5 --mix-file mix-far.json
# an open-loop mix (gen_mix_open.py, --mix-rate): its mode and rate, achieved rate and lag (detail behind),
# latency beside service percentiles, n/a where too few ops, the CPU, the machine saturated
golden mix-open mix-open.json --charts none
# data measured after writes (gen_aged.py: mix.json on collections an earlier scancmp run wrote to, the
# state of every measurement recorded): the Dataset section lists the earlier writes and the documents each
# measurement started on, the mix section its own, the Reproduce section the earlier run's command and the
# fold's verification as before those writes
golden aged aged.json --charts none

# the wording the "fits in memory" regime must carry wherever a regime is named, both figures said
# (pinned beyond the goldens so that --update cannot quietly drop it); never in a --direct-io file
# contains NAME FILE TEXT -- layout-report's report of FILE (extra args after) contains TEXT
contains() {
  local name=$1 file=$2 text=$3; shift 3
  (cd "$data" && "$report" "$file" --charts none "$@") > "$tmp/contains.md" || fail "$name: layout-report failed"
  if grep -qF -- "$text" "$tmp/contains.md"; then
    echo "ok: $name"
  else
    fail "$name: the report of $file lacks: $text"
  fi
}
# the ledger's trade-off, in the verdict and the ledger, pinned beyond the goldens
contains "workloads: verdict trade-off" workloads.json \
  '- **Across the workloads**: folded wins load (key order) 2.24x and range 2.00x, loses row 3.20x and aggregate 1.40x'
contains "workloads: ledger row" workloads.json \
  '| **row**: one row fetched by (bill_id, line_no) | **4.10 s** | 1 | 4.10 KB | 13.1 s (3.20x) | 1 | 11.8 KB | detail 3.20x (1 run: no spread) |'
contains "workloads: three layouts, losses name their winner" workloads3.json \
  'folded wins load (key order) 1.21x and range 1.17x (rows differ), loses row 3.20x to detail and aggregate 1.55x to buckets'
# prose is prose: outside tables and code, no escaped braces (a value rendered as escaped JSON)
# and no parameter the report could not render
if bad=$(grep -n -v -E '^\||^    |^```' "$src/tests/compare/expected/"*.md | grep -E '\\[{}]|not a number or a string'); then
  fail "escaped JSON or an unrendered value outside a table: $(printf '%s' "$bad" | head -3)"
else
  echo "ok: no escaped JSON outside tables"
fi
# a report names no internal issue: a reader cannot resolve one
if bad=$(grep -n -i -E '\bissues? [0-9]+' "$src/tests/compare/expected/"*.md); then
  fail "a report names an internal issue: $(printf '%s' "$bad" | head -3)"
else
  echo "ok: no internal issue numbers in the reports"
fi
# one unit per quantity: a cache as configured, binary (256 MiB), its ratio with two decimals (0.41), in
# every table whose rows are caches
if bad=$(grep -n -E '^\| [0-9.]+ (B|KB|MB|GB|TB) \| [0-9.]+ \||^\| [0-9.]+ [KMGT]iB \| [0-9]+\.[0-9]{3}|^\| engine cache maximum \| [0-9.]+ [KMGT]?B \|' \
           "$src/tests/compare/expected/"*.md); then
  fail "a cache in SI units or a ratio not as the options take it: $(printf '%s' "$bad" | head -3)"
else
  echo "ok: caches binary, ratios as given"
fi
# the state measured (gen_aged.py), pinned beyond the goldens: the fold verified before the writes, the
# load after this run's own appends on their counts
contains "aged: verified before the writes" aged.json \
  'at 2026-11-30T14:11:02Z, **before** 2 later write runs: +26,000 rows appended, 3,000 corrected'
contains "aged: the load after the writes on its own counts" aged.json '| the load after the writes | 490,127 | 3,012 |'
contains "aged: the mix on the aged data" aged.json 'Each stream started on the data as it stood then: detail 490,127 documents'
contains "writes: ledger row of the appends" writes.json \
  '| **append**: 100000 new rows appended to the most recent masters | **9.80 s** | 0 | 688 B written | 88.4 s (9.02x) | 1 | 9.30 KB written | detail 9.02x (1 run: no spread) |'
contains "workloads: rows differ warned" workloads3.json '**Warning: the layouts returned different rows for range**'
contains "memory: sweep table" buffered-sweep.json '| 1 GiB | 1.63 | fits in memory | 21.7 s (21.3–22.1) |'
contains "memory: sweep table, rereads" buffered-sweep.json '| 256 MiB | 0.41 | rereads |'
contains "memory: sweep table, fits" buffered-sweep.json '| 2 GiB | 3.26 | fits in cache |'
contains "memory: reads table" buffered-sweep.json '| 6.10x (disk 1.02x) |'
contains "memory: verdict" buffered-sweep.json \
  'At 1 GiB (ratio 1.63, **fits in memory**) the engine read 6.10x the detail layout, the disk 1.02x: the page cache held it'
contains "memory: verdict, no disk read claimed" buffered-sweep.json 'the engine read 93.7x its on-disk size at 256 MiB (ratio 0.41; the disk 93.2x)'
contains "memory: cold procedure" buffered-sweep.json 'data files read through the OS page cache (no `--direct-io`'
contains "memory: regime line" buffered-run.json \
  'Measured in the **fits in memory** regime: an engine cache of 1 GiB is 1.63x the detail layout'
contains "memory: regime line figures" buffered-run.json 'the engine read 6.10x the detail layout, the disk 1.02x: the page cache held it'
contains "memory: reference section" buffered-run.json \
  'in the **fits in memory** regime (the engine read 6.10x the detail layout, the disk 1.02x: the page cache held it). Next to the reference' \
  --reference "$src/datasets/reference/original.json"
contains "memory: reference section, other point" buffered-sweep.json \
  '(1 GiB, ratio 1.63, **fits in memory**, detail read amplification 6.10x, disk 1.02x)' \
  --reference "$src/datasets/reference/original.json"
for f in sweep.json run.json; do
  (cd "$data" && "$report" "$f" --charts none --reference "$src/datasets/reference/original.json") > "$tmp/none.md"
  if grep -qE 'fits in memory|the page cache held' "$tmp/none.md"; then
    fail "$f (--direct-io or not said) names the fits in memory regime"
  else
    echo "ok: no fits in memory in $f"
  fi
done

# the CPU-bound sentence (pinned beyond the goldens): at >= 90% of the cores' mean, not below, and never
# without the figure (a remote server, or a file written before it)
cpu_bound='load kept 96% of its 2 cores busy (the store'"'"'s process, mean over the load): it was bound by the CPU'
contains "cpu: folded bound" run-cpu.json "The folded $cpu_bound"
# not_contains NAME FILE TEXT [ARGS...] -- layout-report's report of FILE (extra args after) lacks TEXT
# the one rule in the ledger: three paired runs of the row workload that disagree (the update winner that
# flipped between two demo runs) are "same", neither won nor lost; the same runs agreeing name a winner
python3 - "$data/workloads.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    if w["workload"] != "row":
        continue
    for l in w["layouts"]:
        runs = [1.0, 1.40, 1.1] if l["layout"] == "detail" else [1.50, 1.0, 1.2]
        l["runs"] = [{"run": k + 1, "elapsed_s": v} for k, v in enumerate(runs)]
        l["elapsed_s"] = sorted(runs)[1]
        l.pop("x_vs_winner", None)
json.dump(d, open(sys.argv[2] + "/wl-flip.json", "w"))
for w in d["workloads"]:
    if w["workload"] == "row":
        for l in w["layouts"]:
            l["runs"] = [{"run": k + 1, "elapsed_s": v * (1 if l["layout"] == "detail" else 1.5)}
                         for k, v in enumerate([1.0, 1.40, 1.1])]
            l["elapsed_s"] = sorted(r["elapsed_s"] for r in l["runs"])[1]
json.dump(d, open(sys.argv[2] + "/wl-agree.json", "w"))
PY
contains "workloads: runs that disagree are the same" "$tmp/wl-flip.json" \
  '| **row**: one row fetched by (bill_id, line_no) | 1.10 s | 1 | 4.10 KB | 1.20 s (1.05x) | 1 | 11.8 KB | same (the 95% interval 0.38x–2.39x over 3 runs holds 1) |'
contains "workloads: a tie is neither won nor lost" "$tmp/wl-flip.json" \
  'folded wins load (key order) 2.24x and range 2.00x, loses aggregate 1.40x, no difference the runs can tell on row'
contains "workloads: runs that agree name the winner" "$tmp/wl-agree.json" \
  '| 1.65 s (1.50x) | 1 | 11.8 KB | detail 1.50x (3 runs, 1.50x each) |'
not_contains() {
  local name=$1 file=$2 text=$3; shift 3
  (cd "$data" && "$report" "$file" --charts none "$@") > "$tmp/lacks.md" 2>/dev/null || fail "$name: layout-report failed"
  if grep -qF -- "$text" "$tmp/lacks.md"; then fail "$name: the report of $file says: $text"; else echo "ok: $name"; fi
}
not_contains "cpu: detail not bound at 47%" run-cpu.json "The detail load kept"
not_contains "cpu: no figure, no sentence" run.json "bound by the CPU"
not_contains "cpu: no figure, no sentence (three layouts)" run3.json "bound by the CPU"
# the folded layout's mean busy share set to PCT in every run and in the summary
python3 - "$data/run-cpu.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for pct in (89.9, 90.0):
    for e in d["runs"]:
        if e["layout"] == "folded":
            e["cpu"]["busy_pct_mean"] = pct
    d["summary"]["folded"]["cpu_busy_pct_mean"] = {"median": pct, "min": pct, "max": pct}
    with open("%s/cpu-%s.json" % (sys.argv[2], pct), "w") as f:
        json.dump(d, f)
# both layouts bound (the full-size run's case): one sentence naming both, in the plural
for e in d["runs"]:
    if e["layout"] == "detail":
        e["cpu"]["busy_pct_mean"] = 97.0
d["summary"]["detail"]["cpu_busy_pct_mean"] = {"median": 97.0, "min": 97.0, "max": 97.0}
with open("%s/cpu-both.json" % sys.argv[2], "w") as f:
    json.dump(d, f)
PY
not_contains "cpu: 89.9% is not bound" "$tmp/cpu-89.9.json" "bound by the CPU"
# --direct-io with the engine's bytes read from disk equal to the device's at every point: one column, said
# so; sweep.json's differ at 2 GiB (940 MB vs 655 MB), so it keeps both
python3 - "$data/sweep.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["sweep"]:
    for e in p["runs"]:
        e["engine"]["block_read_bytes"] = e["read_bytes"]
    for l in ("detail", "folded"):
        p["summary"][l]["block_read_bytes"] = p["summary"][l]["read_bytes"]
json.dump(d, open("%s/sweep-direct.json" % sys.argv[2], "w"))
PY
contains "direct-io: one bytes column" "$tmp/sweep-direct.json" "matched the device's bytes read within 2% at every point"
not_contains "direct-io: no engine column" "$tmp/sweep-direct.json" "engine read from disk: detail"
contains "direct-io: both when they differ" sweep.json "| disk bytes read: detail | folded | engine read from disk: detail |"
# an engine cache used over its maximum is explained, never shown bare
python3 - "$data/sweep.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["sweep"][0]["summary"]["detail"]["cache_peak_pct"] = {"median": 128.0, "min": 127.0, "max": 129.0}
json.dump(d, open("%s/sweep-over.json" % sys.argv[2], "w"))
PY
contains "cache over 100%: explained" "$tmp/sweep-over.json" "An engine cache used at 128% of its maximum is not a measuring error"
not_contains "cache under 100%: nothing to explain" sweep.json "is not a measuring error"
contains "cpu: 90.0% is bound" "$tmp/cpu-90.0.json" "The folded load kept 90% of its 2 cores busy"
contains "cpu: both bound, one sentence" "$tmp/cpu-both.json" \
  "The detail and folded loads kept 97% and 90% of their 2 cores busy (the store's process, mean over the load): they were bound by the CPU"
not_contains "cpu: both bound, no second sentence" "$tmp/cpu-both.json" "The folded load kept"

# the prediction beside the measured sweep, pinned beyond the goldens: points paired by cache size, the
# error per point of the engine bytes read (read amplifications beside), the largest error and where, the
# probe's cost; a largest error away from the knee is not said to be near it
contains "prediction: error per point" sweep.json \
  '| 512.0 MiB | 0.81 | 5598.2 | 7677.1 (runs 7610.3 to 7743.8) | -27% | 8.90 | 12.21 | 252.4 | 260.5 (runs 259.8 to 261.3) | -3% | 0.98 | 1.01 | 24.76 | 33.81 | 0.73x |' --prediction predict.json
# with sorted measured between detail and folded (decompose.json: the same detail and folded figures), the
# measured "folded" columns are still folded's, not the file's second layout's
contains "prediction: the folded layout among three" decompose.json \
  '| 512.0 MiB | 0.81 | 5598.2 | 7677.1 (runs 7610.3 to 7743.8) | -27% | 8.90 | 12.21 | 252.4 | 260.5 (runs 259.8 to 261.3) | -3% | 0.98 | 1.01 | 24.76 | 33.81 | 0.73x |' --prediction predict.json
contains "prediction: largest error, near the knee" sweep.json \
  "The largest error is the detail layout's engine bytes read at 512.0 MiB (ratio 0.81): 5598.2 MiB predicted against 7677.1 MiB measured, -27% (its 2 runs read 7610.3 to 7743.8 MiB: the figure lies under them), near the knee of the curve (measured: rereads here, fits in cache at 2048.0 MiB)" \
  --prediction predict.json
contains "prediction: the speedup furthest off" sweep.json "; the speedup is furthest off at 512.0 MiB: 0.73x the measured." \
  --prediction predict.json
contains "prediction: the probe's cost" sweep.json \
  "took 2.04 s: it walked 38000 masters' index entries (1.62 s, 27.0 MiB of index read from disk), counted the collection's leaf pages (0.42 s, 6.0 MiB of its pages read, no document returned) and fetched 0 documents" \
  --prediction predict.json
python3 - "$data/predict.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["sweep"][1]  # 256 MiB: -47% of the bytes, both neighbours reread
p["detail"]["read_amplification"] = 50.0
p["summary"]["detail"]["block_read_bytes"] = {"median": 31450000000.0, "min": 31450000000.0, "max": 31450000000.0}
p["runs"][0]["engine"]["block_read_bytes"] = 31450000000
json.dump(d, open("%s/predict-far.json" % sys.argv[2], "w"))
# the same caches, each 5% larger: the ratios of the measured points are near, the sizes are not
for p in d["sweep"]:
    p["cache_size_bytes"] = int(p["cache_size_bytes"] * 1.05)
json.dump(d, open("%s/predict-other-sizes.json" % sys.argv[2], "w"))
# only 512 MiB predicted at the measured size
d = json.load(open(sys.argv[1]))
for p in d["sweep"]:
    if p["cache_size_bytes"] != 512 * 1048576:
        p["cache_size_bytes"] = int(p["cache_size_bytes"] * 1.05)
json.dump(d, open("%s/predict-one-size.json" % sys.argv[2], "w"))
PY
contains "prediction: largest error away from the knee" sweep.json \
  "The largest error is the detail layout's engine bytes read at 256.0 MiB (ratio 0.41): 29993.1 MiB predicted against 58937.1 MiB measured, -49% (its 2 runs read 58364.9 to 59509.3 MiB: the figure lies under them);" \
  --prediction "$tmp/predict-far.json"
not_contains "prediction: away from the knee, not said near it" sweep.json "near the knee" --prediction "$tmp/predict-far.json"
# the measured runs' range beside the median: one run a point shows none; a figure among wide runs is said
# to lie among them (the 512 MiB point's detail runs made 5,000 to 12,000 MiB: median 8,500, error -34%)
jq '.sweep |= map(.summary |= map_values(if type == "object" then .runs = 1 else . end))' "$data/sweep.json" \
  >"$tmp/sweep-one-run.json"
not_contains "prediction: one run, no range" "$tmp/sweep-one-run.json" "(runs " --prediction predict.json
contains "prediction: one run, the figure alone" "$tmp/sweep-one-run.json" "| 512.0 MiB | 0.81 | 5598.2 | 7677.1 | -27% |" \
  --prediction predict.json
jq '.sweep[1].summary.detail.block_read_bytes = {median: 8912896000, min: 5242880000, max: 12582912000}' \
  "$data/sweep.json" >"$tmp/sweep-wide-runs.json"
contains "prediction: wide runs, the figure among them" "$tmp/sweep-wide-runs.json" \
  "5598.2 MiB predicted against 8500.0 MiB measured, -34% (its 2 runs read 5000.0 to 12000.0 MiB: the figure lies among them)" \
  --prediction predict.json
# points are paired by cache size only: other sizes are said, never paired by their ratio
contains "prediction: other sizes, said" sweep.json \
  "No point is paired: 3 measured points have no predicted point of the same cache size: the prediction's caches are 140928614, 281857228, 563714457, 2254857830 and 4509715660 bytes, the measured ones 268435456, 536870912 and 2147483648 bytes. Points are not paired by cache ratio" \
  --prediction "$tmp/predict-other-sizes.json"
not_contains "prediction: other sizes, no row" sweep.json "| 512.0 MiB | 0.81 |" --prediction "$tmp/predict-other-sizes.json"
contains "prediction: one size of three, paired" sweep.json "$(printf '%s' "| 512.0 MiB | 0.81 | 5598.2 | 7677.1 (runs 7610.3 to 7743.8) | -27% |")" \
  --prediction "$tmp/predict-one-size.json"
contains "prediction: one size of three, the others said" sweep.json \
  "2 measured points have no predicted point of the same cache size" --prediction "$tmp/predict-one-size.json"
not_contains "prediction: one size of three, no other row" sweep.json "| 256.0 MiB | 0.41 | 51578.6" \
  --prediction "$tmp/predict-one-size.json"
# a sampled prediction (--sample): each read amplification with its sampling error, and the sample said
python3 - "$data/predict.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["prediction"]["sample"] = {"fraction": 0.25, "masters": 9512, "index_entries": 1226000, "groups": 4}
for p in d["sweep"]:
    p["detail"]["read_amplification_sampling_error"] = round(p["detail"]["read_amplification"] * 0.04, 2)
    p["folded"]["read_amplification_sampling_error"] = 0.01
json.dump(d, open("%s/predict-sampled.json" % sys.argv[2], "w"))
PY
contains "prediction: sampled, the error per figure" sweep.json \
  '| 5598.2 | 7677.1 (runs 7610.3 to 7743.8) | -27% | 8.90 ± 0.36 | 12.21 | 252.4 | 260.5 (runs 259.8 to 261.3) | -3% | 0.98 ± 0.01 | 1.01 |' --prediction "$tmp/predict-sampled.json"
contains "prediction: sampled, said" sweep.json \
  'it read the RecordIds of a sample of 25% of the masters (9512, chosen by a hash of the key)' --prediction "$tmp/predict-sampled.json"
not_contains "prediction: unsampled, no ±" sweep.json "8.90 ±" --prediction predict.json
not_contains "prediction: sampled without a knee, none said" sweep.json "knee (the cache" \
  --prediction "$tmp/predict-sampled.json"
jq '.prediction.sample.knee = {detail: {sample_cache_ratio: 2.756, moved_cache_ratio: 3.261}}' \
  "$tmp/predict-sampled.json" >"$tmp/predict-knee.json"
contains "prediction: sampled, the knee said" sweep.json \
  "the detail layout's knee (the cache where it first reads at most twice its fitting reads) lies at cache ratio 2.76 in the sample, the same jackknife of its cache moves it to 3.26" \
  --prediction "$tmp/predict-knee.json"
python3 - "$tmp/predict-sampled.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["prediction"]["sample"]["warning"] = "few sampled masters touch each page: the estimate can be off"
json.dump(d, open("%s/predict-warned.json" % sys.argv[2], "w"))
PY
contains "prediction: sampled, warned" sweep.json '(**few sampled masters touch each page: the estimate can be off**)' \
  --prediction "$tmp/predict-warned.json"
not_contains "prediction: sampled, not warned" sweep.json 'few sampled masters' --prediction "$tmp/predict-sampled.json"
# bands: the detail layout's held edge ("A to B"), a folded band whose edges show the same (the one
# figure), the speedup's band from speedup_low to speedup_held
python3 - "$data/predict.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["sweep"]:
    if p["cache_size_bytes"] == 536870912:
        p["detail"]["read_amplification_held"] = round(p["detail"]["read_amplification"] * 1.5, 2)
        p["folded"]["read_amplification_held"] = p["folded"]["read_amplification"]
        p.setdefault("speed", {}).setdefault("key", {})
        p["speed"]["key"]["speedup_held"] = 20.0
        p["speed"]["key"]["speedup_low"] = 5.0
json.dump(d, open("%s/predict-band.json" % sys.argv[2], "w"))
PY
contains "prediction: bands, and a band whose edges show the same" sweep.json \
  '| 512.0 MiB | 0.81 | 5598.2 to 8397.3 | 7677.1 (runs 7610.3 to 7743.8) | -27% | 8.90 to 13.35 | 12.21 | 252.4 | 260.5 (runs 259.8 to 261.3) | -3% | 0.98 | 1.01 | 5.00 to 20.00 | 33.81 | 0.73x |' \
  --prediction "$tmp/predict-band.json"
contains "prediction: bands, said" sweep.json '"A to B" is a band' --prediction "$tmp/predict-band.json"
not_contains "prediction: no band, not said" sweep.json '"A to B" is a band' --prediction predict.json

# the same bytes on stdout as in a file
(cd "$data" && "$report" run.json --charts none) > "$tmp/stdout.md"
cmp -s "$tmp/stdout.md" "$expected/run.md" && echo "ok: stdout" || fail "stdout rendering differs from the file"

# the example scancmp itself committed (the real writer's shape) renders without a complaint
example=$src/tests/scan/data/example-run.json
if [ ! -f "$example" ]; then
  fail "tests/scan/data/example-run.json is missing (its check would be left out)"
elif "$report" "$example" --charts none > "$tmp/example.md" 2>"$tmp/example.err" &&
     grep -q '^## Verdict' "$tmp/example.md" && ! grep -q '(null)' "$tmp/example.md"; then
  echo "ok: tests/scan/data/example-run.json"
else
  fail "tests/scan/data/example-run.json does not render: $(cat "$tmp/example.err")"
fi

# refused -- layout-report must exit with CODE, say MESSAGE on stderr, and write no report
refused() {
  local code=$1 message=$2; shift 2
  local rc=0
  rm -f "$tmp/bad.md"
  (cd "$tmp" && "$report" "$@" -o "$tmp/bad.md") >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" -ne "$code" ]; then fail "'$*': exit $rc, want $code ($(cat "$tmp/err"))"; return; fi
  if ! grep -qF -- "$message" "$tmp/err"; then fail "'$*': stderr lacks '$message': $(cat "$tmp/err")"; return; fi
  if [ -e "$tmp/bad.md" ]; then fail "'$*': wrote a report despite the error"; return; fi
  echo "ok: refused $* -> $code"
}

head -c 5000 "$data/run.json" > "$tmp/truncated.json"
printf '{"schema_version": 1,\n "runs": [\n  {"run": 1, "layout": detail}\n]}\n' > "$tmp/invalid.json"
printf '' > "$tmp/empty.json"
printf '{"schema_version": 1, "runs": [{"run": 1, "layout": "detail", "elapsed_s": 1, "docs": 1, "bytes_returned": 1}]}' > "$tmp/onelayout.json"
refused 1 "truncated.json: invalid JSON (Incomplete JSON): the file is truncated" truncated.json
refused 1 "invalid.json: line 3, column" invalid.json
refused 1 "empty.json: empty file" empty.json
refused 1 "a comparison needs at least one of each" onelayout.json
refused 1 "cannot open results file missing.json" missing.json
# three layouts: a run of an unknown layout, a layout without runs, layouts[] in a version 1 file
python3 - "$data/run3.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
def write(name, doc):
    with open("%s/%s" % (sys.argv[2], name), "w") as f:
        json.dump(doc, f)
u = copy.deepcopy(d); u["runs"][2]["layout"] = "stacked"
write("run3-unknown.json", u)
m = copy.deepcopy(d); m["runs"] = [x for x in m["runs"] if x["layout"] != "buckets"]
write("run3-nobuckets.json", m)
v = copy.deepcopy(d); v["schema_version"] = 1
write("run3-v1.json", v)
PY
refused 1 'run3-unknown.json: runs[2]: "layout" must be "detail", "folded" or "buckets" (found "stacked")' run3-unknown.json
refused 1 "run3-nobuckets.json: runs[] has no entry of layout buckets" run3-nobuckets.json
refused 1 'run3-v1.json: "layouts" must be an array of {name, collection, kind}, from schema_version 2 on' run3-v1.json
refused 1 "--baseline: truncated.json" "$data/run.json" --baseline truncated.json
# broken workloads: each refused naming the entry and the field, no report written
python3 - "$data/workloads.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
def write(name, f):
    doc = copy.deepcopy(d); f(doc)
    with open("%s/%s" % (sys.argv[2], name), "w") as out:
        json.dump(doc, out)
write("wl-elapsed.json", lambda x: x["workloads"][1]["layouts"][0].update(elapsed_s="fast"))
write("wl-docs.json", lambda x: x["workloads"][2]["layouts"][1].update(docs_read="many"))
write("wl-negative.json", lambda x: x["workloads"][2]["layouts"][1].update(disk_reads=-7))
write("wl-winner.json", lambda x: x["workloads"][3].update(winner="stacked"))
write("wl-layout.json", lambda x: x["workloads"][1]["layouts"][1].update(layout="stacked"))
write("wl-twice.json", lambda x: x["workloads"][2].update(workload="row"))
write("wl-multikey.json", lambda x: x["workloads"][2]["layouts"][1]["indexes"][0].update(multikey="yes"))
write("wl-group.json", lambda x: x["workloads"][3]["result"]["by_group"].update(ICU="lots"))
write("wl-object.json", lambda x: x.update(workloads={"load": {}}))
write("wl-nolayouts.json", lambda x: x["workloads"][1].update(layouts=[]))
PY
refused 1 'wl-elapsed.json: workloads[1] (row): layouts[0] (detail): missing or non-numeric "elapsed_s", which every workload'"'"'s layout entry must carry' wl-elapsed.json
refused 1 'wl-docs.json: workloads[2] (range): layouts[1] (folded): "docs_read" must be a number of at least 0 (-1 or null: unknown)' wl-docs.json
refused 1 'wl-negative.json: workloads[2] (range): layouts[1] (folded): "disk_reads" must be a number of at least 0' wl-negative.json
refused 1 'wl-winner.json: workloads[3] (aggregate): "winner" "stacked" is none of its layouts' wl-winner.json
refused 1 'wl-layout.json: workloads[1] (row): layouts[1]: layout "stacked" is none of the file'"'"'s layouts' wl-layout.json
refused 1 'wl-twice.json: workloads[2]: workload "row" appears twice' wl-twice.json
refused 1 'wl-multikey.json: workloads[2] (range): layouts[1] (folded): indexes[0]: "multikey" must be true or false' wl-multikey.json
refused 1 'wl-group.json: workloads[3] (aggregate): result: by_group "ICU" must be a number' wl-group.json
refused 1 'wl-object.json: "workloads" must be an array' wl-object.json
refused 1 'wl-nolayouts.json: workloads[1] (row): no "layouts": a workload needs one entry per layout' wl-nolayouts.json
# broken sweeps: unsorted, a repeated cache size, a point without the folded layout
python3 - "$data/sweep.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
def write(name, doc):
    with open("%s/%s" % (sys.argv[2], name), "w") as f:
        json.dump(doc, f)
u = copy.deepcopy(d); u["sweep"][0], u["sweep"][1] = u["sweep"][1], u["sweep"][0]
write("sweep-unsorted.json", u)
r = copy.deepcopy(d); r["sweep"][2]["cache_size_bytes"] = r["sweep"][1]["cache_size_bytes"]
write("sweep-repeated.json", r)
m = copy.deepcopy(d); m["sweep"][1]["runs"] = [x for x in m["sweep"][1]["runs"] if x["layout"] == "detail"]
write("sweep-onelayout.json", m)
PY
refused 1 "sweep-unsorted.json: sweep[1] (256 MiB): a smaller cache than sweep[0] (512 MiB): points must be in strictly increasing cache size" sweep-unsorted.json
refused 1 "sweep-repeated.json: sweep[2] (512 MiB): the same cache size as sweep[1] (512 MiB): one point per cache size" sweep-repeated.json
refused 1 "sweep-onelayout.json: sweep[1] (512 MiB): runs[] has 2 detail and 0 folded entries; every point needs both layouts" sweep-onelayout.json
# broken reference files: a metric outside the catalogue, a unit that does not convert, not a reference
ref=$src/datasets/reference/original.json
sed 's/"elapsed_s"/"load_time"/' "$ref" > "$tmp/ref-metric.json"
sed 's/"unit": "GB"/"unit": "GHz"/' "$ref" > "$tmp/ref-unit.json"
printf '{"metrics": []}' > "$tmp/ref-version.json"
refused 1 "--reference: ref-metric.json: metrics[1]: \"metric\" 'load_time' is not in the metric catalogue" "$data/run.json" --reference ref-metric.json
refused 1 "--reference: ref-unit.json: metrics[5] (server_rss_peak_bytes): unit 'GHz' cannot be converted into the catalogue's; use one of: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB" "$data/run.json" --reference ref-unit.json
refused 1 "--reference: ref-version.json: not a reference file of version 1" "$data/run.json" --reference ref-version.json
refused 1 "--reference: cannot open reference file missing.json" "$data/run.json" --reference missing.json
refused 2 "--production-cache needs --production-data too" "$data/sweep.json" --production-cache 64GiB
refused 2 "--production-data needs --production-cache too" "$data/sweep.json" --production-data 1TiB
refused 2 "--production-cache-ratio: '0' is not a ratio above 0" "$data/sweep.json" --production-cache-ratio 0
refused 2 "--production-cache-ratio: '-0.5' is not a ratio above 0" "$data/sweep.json" --production-cache-ratio -0.5
refused 2 "--production-cache-ratio: 'half' is not a ratio above 0" "$data/sweep.json" --production-cache-ratio half
refused 2 "--production-data: cannot read 'lots' as a size" "$data/sweep.json" --production-cache 1G --production-data lots
refused 2 "--production-data: the size must be above 0" "$data/sweep.json" --production-cache 1G --production-data 0
refused 2 "give either --production-cache-ratio or --production-cache" "$data/sweep.json" --production-cache-ratio 0.5 --production-cache 1G --production-data 2G
refused 2 "no results file given" --charts none
refused 2 "unknown option '--colour'" "$data/run.json" --colour
refused 2 "--charts: 'png' is not one of svg, none" "$data/run.json" --charts png
refused 2 "one results file at a time" "$data/run.json" "$data/baseline.json"
# -o, --out and the old --output write the same report
(cd "$data" && "$report" run.json --charts none --out "$tmp/out1.md" -q && "$report" run.json --charts none \
  --output "$tmp/out2.md" -q) && cmp -s "$tmp/out1.md" "$expected/run.md" && cmp -s "$tmp/out2.md" "$expected/run.md" \
  && echo "ok: --out and --output" || fail "--out / --output differ from the golden"

# scancmp's --json summary holds the results under "results": rendered as the results file
python3 - "$data/run.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
head = {"version": "0.1.0", "command_line": ["scancmp", "--out", "run.json"], "started": "2026-11-30T15:10:00.000Z",
        "finished": "2026-11-30T15:30:41.000Z", "elapsed_s": 1241.0}
with open("%s/summary.json" % sys.argv[2], "w") as f:
    json.dump(dict(tool="scancmp", **head, exit_code=0, ok=True, results=d), f)
with open("%s/failed-summary.json" % sys.argv[2], "w") as f:
    json.dump(dict(tool="scancmp", **head, exit_code=1, ok=False, error="no key matched"), f)
with open("%s/fold-summary.json" % sys.argv[2], "w") as f:
    json.dump(dict(tool="fold-details", **head, exit_code=0, ok=True, src="a", dst="b"), f)
PY
if (cd "$tmp" && "$report" summary.json --charts none >"$tmp/summary.md" 2>"$tmp/summary.err") &&
   sed -i 's/^Source: summary.json,/Source: run.json,/' "$tmp/summary.md" && cmp -s "$tmp/summary.md" "$expected/run.md" &&
   grep -qF "summary.json is scancmp's --json summary: rendering the results" "$tmp/summary.err"; then
  echo "ok: scancmp's --json summary"
else
  fail "scancmp's --json summary does not render as run.json: $(head -c 300 "$tmp/summary.err")"
fi
# an empty "workloads" is no workload: the report of run.json, byte for byte
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['workloads']=[]; json.dump(d, open(sys.argv[2], 'w'))" \
  "$data/run.json" "$tmp/no-workloads.json"
if (cd "$tmp" && "$report" no-workloads.json --charts none -q >"$tmp/no-workloads.md") &&
   sed -i 's/^Source: no-workloads.json,/Source: run.json,/' "$tmp/no-workloads.md" && cmp -s "$tmp/no-workloads.md" "$expected/run.md"; then
  echo "ok: an empty workloads array"
else
  fail "an empty workloads array does not render as run.json"
fi
refused 1 "fold-summary.json is fold-details's --json summary, not a results file: give layout-report the file scancmp writes with --out" fold-summary.json
refused 1 "failed-summary.json is the --json summary of a scancmp run that measured nothing" failed-summary.json

# the common options it has no use for are refused, not ignored
refused 2 "option --uri is not used here: layout-report opens no store" "$data/run.json" --uri wiredtiger:x
refused 2 "option --db is not used here" "$data/run.json" --db x
refused 2 "option --cache-size is not used here" "$data/run.json" --cache-size 64M
refused 2 "option --progress is not used here" "$data/run.json" --progress never
refused 2 "unknown option '--titel' (did you mean --title?" "$data/run.json" --titel x

rc=0; "$report" "$data/run.json" --json - >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -qF "cannot both go to standard output" "$tmp/err" && echo "ok: --json - with the report on stdout" || fail "--json - with the report on stdout: exit $rc"
(cd "$data" && "$report" run.json --charts none -o "$tmp/j.md" --json - -q) > "$tmp/j.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d['metrics']; assert d['tool']=='layout-report' and d['exit_code']==0 and d['ok'] and d['command_line'][1]=='run.json' and d['started'].endswith('Z') and 'elapsed_s' in d; assert m['read_requests']['better']=='folded' and m['elapsed_s']['detail']['runs']==3 and 'ratio_folded_to_detail' in m['elapsed_s']" "$tmp/j.json" \
  && echo "ok: --json comparison" || fail "--json comparison is wrong: $(head -c 300 "$tmp/j.json")"

# keys that matched nothing and rows that differ, for scripts; a file without keys_unmatched has none
(cd "$data" && "$report" partial.json --charts none -o "$tmp/p.md" --json - -q) > "$tmp/p.json"
(cd "$data" && "$report" run.json --charts none -o "$tmp/r.md" --json - -q) > "$tmp/r.json"
python3 -c "
import json, sys
p, r = json.load(open(sys.argv[1]))['match'], json.load(open(sys.argv[2]))['match']
assert p == {'keys': 40, 'keys_unmatched': {'detail': 5, 'folded': 2}, 'row_pairs': 2, 'rows_differ_runs': 2}, p
assert r['keys_unmatched'] == {} and r['rows_differ_runs'] == 0 and r['row_pairs'] == 3, r
" "$tmp/p.json" "$tmp/r.json" && echo "ok: --json match" || fail "--json match is wrong: $(head -c 300 "$tmp/p.json")"
(cd "$data" && "$report" run3.json --charts none -o "$tmp/j3.md" --json - -q) > "$tmp/j3.json"
python3 -c "
import json, sys
m = json.load(open(sys.argv[1]))['metrics']
e = m['elapsed_s']
assert set(e) == {'detail', 'folded', 'buckets', 'better'} and e['better'] == 'folded'
# paired runs: the geometric mean of the runs' ratios (near the medians' ratio), inside its 95% interval
b = e['buckets']
assert abs(b['ratio_to_reference'] / (b['median'] / e['detail']['median']) - 1) < 0.02, b
assert b['runs_paired'] == 3 and b['ratio_ci_95'][0] < b['ratio_to_reference'] < b['ratio_ci_95'][1], b
assert 'ratio_to_reference' not in e['detail'] and 'ratio_folded_to_detail' not in e
# sizes are facts: 2% apart is a difference (52.4 vs 53.4 MB)
assert m['cache_peak_bytes']['better'] == 'same' and m['storage_size_bytes']['better'] == 'folded'
" "$tmp/j3.json" && echo "ok: --json comparison of three layouts" || fail "--json of three layouts is wrong: $(head -c 300 "$tmp/j3.json")"

(cd "$data" && "$report" sweep.json --charts none -o "$tmp/s.md" --json - -q --production-cache-ratio 0.5) > "$tmp/s.json"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d['sweep'], d['production']
assert [x['cache_size_bytes'] for x in s] == [268435456, 536870912, 2147483648]
assert [x['regime'] for x in s] == ['rereads', 'rereads', 'fits in cache'] and s[1]['reference']
# two paired runs: the geometric mean of the runs' speedups (near the medians'), inside its interval
f0 = s[0]['folded']
assert abs(s[0]['speedup'] / (166.5 / 1.94) - 1) < 0.02 and s[0]['detail']['read_amplification'] > 90
assert f0['runs_paired'] == 2 and f0['speedup_ci_95'][0] < s[0]['speedup'] < f0['speedup_ci_95'][1], f0
assert s[0]['detail']['locality']['masters_sampled'] == 1000
assert p['estimate'] == 'interpolated' and 70 < p['speedup'] < 71 and p['measured_ratio_max'] > 3
" "$tmp/s.json" && echo "ok: --json sweep and production" || fail "--json sweep is wrong: $(head -c 300 "$tmp/s.json")"
(cd "$data" && "$report" sweep3.json --charts none -o "$tmp/s3.md" --json - -q --production-cache-ratio 0.5) > "$tmp/s3.json"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d['sweep'], d['production']
assert all(set(x) >= {'detail', 'folded', 'buckets'} for x in s)
assert abs(s[0]['buckets']['speedup'] / (s[0]['detail']['elapsed_s_median'] / s[0]['buckets']['elapsed_s_median']) - 1) < 0.03
assert s[0]['speedup'] == s[0]['folded']['speedup'] and 'speedup' not in s[0]['detail']
assert all(x['buckets']['read_amplification'] > 1 for x in s)
c = p['candidates']
assert set(c) == {'folded', 'buckets'} and c['folded']['speedup'] == p['speedup']
assert c['buckets']['estimate'] == 'interpolated' and 53 < c['buckets']['speedup'] < 54
" "$tmp/s3.json" && echo "ok: --json sweep of three layouts" || fail "--json sweep of three layouts is wrong: $(head -c 300 "$tmp/s3.json")"

(cd "$data" && "$report" buffered-sweep.json --charts none -o "$tmp/b.md" --json - -q) > "$tmp/b.json"
python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['sweep']
assert [x['regime'] for x in s] == ['rereads', 'fits in memory', 'fits in cache'], s
assert s[1]['detail']['read_amplification'] > 6 and abs(s[1]['detail']['disk_read_amplification'] - 1.02) < 1e-9
" "$tmp/b.json" && echo "ok: --json buffered sweep" || fail "--json buffered sweep is wrong: $(head -c 300 "$tmp/b.json")"
(cd "$data" && "$report" sweep.json --charts none -o "$tmp/s.md" --json - -q --production-cache-ratio 9) > "$tmp/s.json"
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['production']; assert p['estimate']=='outside' and 'speedup' not in p" "$tmp/s.json" \
  && echo "ok: --json production outside the range" || fail "--json production outside: $(head -c 300 "$tmp/s.json")"

rc=0; "$report" --charts svg "$data/run.json" >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -qF "needs -o" "$tmp/err" && echo "ok: --charts svg without -o" || fail "--charts svg without -o: exit $rc"
# into a file: grep -q may leave a pipe before a help text longer than one 4 KiB write is all written
# (SIGPIPE, exit 141 under pipefail)
"$report" --help > "$tmp/help.txt" && grep -q "Examples:" "$tmp/help.txt" && echo "ok: --help" || fail "--help lacks examples"

# -o to a FIFO (as to /dev/null): written in place, never a temporary file renamed over it
mkfifo "$tmp/report.fifo"
timeout 30 cat "$tmp/report.fifo" >"$tmp/from-fifo.md" &
reader=$!
(cd "$data" && "$report" run.json --charts none -q -o "$tmp/report.fifo") 2>"$tmp/err"
[ -p "$tmp/report.fifo" ] || kill "$reader" 2>/dev/null  # replaced: the reader would wait forever
wait "$reader" 2>/dev/null || true
if [ -p "$tmp/report.fifo" ] && cmp -s "$tmp/from-fifo.md" "$expected/run.md"; then
  echo "ok: -o FIFO written in place"
else
  fail "-o FIFO: replaced by a file or not the report"
fi
# not mongod's figures, not a cold load (pinned beyond the goldens): said in the verdict and the
# environment, and no speedup in bold
contains "ferretdb: verdict says not mongod's" ferretdb.json \
  "- **Warning**: these figures are not mongod's: the server is FerretDB"
contains "ferretdb: environment names the product" ferretdb.json '| server product | ferretdb (these figures are not'
contains "ferretdb: not cold, said" ferretdb.json \
  'The folded layout loads 2.24x faster in key order (95% CI 1.93x–2.59x, 3 runs; not cold: 99.8% of the data files were resident before the run)'
not_contains "ferretdb: no bold speedup" ferretdb.json '**The folded layout loads'
not_contains "warm3: no bold speedup" warm3.json 'faster than the runner-up buckets**'
contains "warm3: not cold, said" warm3.json '(not cold: 45.0% of the data files were resident before the run)'
not_contains "run: mongod's own figures carry no warning" run.json "not mongod's"
contains "run: a cold run keeps its bold speedup" run.json '**The folded layout loads 2.24x faster in key order** (95% CI 1.93x–2.59x, 3 runs)'

# a sweep with one point's run 60% resident: its curve line not in bold either
python3 - "$data/sweep.json" "$tmp/warm-sweep.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["sweep"][0]["runs"][0]["cold"]["resident_pct_before"] = 60.0
json.dump(d, open(sys.argv[2], "w"))
PY
not_contains "warm sweep: no bold speedup" "$tmp/warm-sweep.json" "**The folded layout loads"
contains "warm sweep: not cold, said" "$tmp/warm-sweep.json" \
  "depending on the engine cache (not cold: 60.0% of the data files were resident before the run): "

# a suggested command never prints credentials, even from a file that recorded them unredacted
python3 - "$data/ferretdb.json" "$tmp/secret.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["backend"]["uri"] = "mongodb://lab:s3cret@127.0.0.1:39935/?authSource=admin"
d["command_line"] = ["scancmp", "--uri=mongodb://lab:s3cret@127.0.0.1:39935/", "--cold", "--out", "run.json"]
json.dump(d, open(sys.argv[2], "w"))
PY
not_contains "suggested commands: credentials redacted" "$tmp/secret.json" "s3cret"
contains "suggested commands: the redacted URI" "$tmp/secret.json" "scancmp --uri 'mongodb://***@127.0.0.1:39935/' --db layoutlab --cold --out run.json"

# every command a report suggests names the store it is about (core/suggest.h): an inline command or a
# Reproduce line that starts with a tool that opens a store carries --uri (layout-report opens none)
python3 - "$expected" <<'PY' && echo "ok: every suggested command names --uri" || fail "a suggested command lacks --uri"
import glob, os, re, sys
tools = ("fold-details ", "scancmp ", "billgen ")
bad, seen = [], 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.md"))):
    text = open(path).read()
    cmds = re.findall(r"`([^`\n]+)`", text)
    cmds += [l for l in text.splitlines() if l.startswith(tools)]
    for c in cmds:
        if c.startswith(tools):
            seen += 1
            if " --uri " not in c:
                bad.append("%s: %s" % (os.path.basename(path), c))
for b in bad[:10]:
    print("  no --uri: " + b, file=sys.stderr)
sys.exit(1 if bad or seen == 0 else 0)
PY

# a clustered layout measured on the embedded store is named in the environment from scancmp's
# dataset.<layout>.clustered (no provenance needed); on a server it is mongod's own layout: no such row
python3 - "$data/decompose.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["dataset"]["sorted"]["clustered"] = True
d["dataset"]["sorted"].pop("provenance", None)
json.dump(d, open(sys.argv[2] + "/clustered-flag.json", "w"))
d["backend"]["name"] = "mongodb"
json.dump(d, open(sys.argv[2] + "/clustered-server.json", "w"))
PY
contains "environment: the embedded clustered layout, from the dataset" "$tmp/clustered-flag.json" \
  "| clustered layout on the embedded store | sorted: a 5.3+ layout on the 4.2 engine (WiredTiger 3.2.1): keys and record format are mongod's byte for byte; page images, eviction and checkpoints are 3.2.1's |"
(cd "$data" && "$report" "$tmp/clustered-server.json" --charts none) > "$tmp/clustered-server.md" ||
  fail "clustered on a server: layout-report failed"
if grep -qF "clustered layout on the embedded store" "$tmp/clustered-server.md"; then
  fail "a server's clustered layout was called the embedded store's"
else
  echo "ok: environment: no embedded-store row on a server"
fi

if [ $failures -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "all golden checks passed"
