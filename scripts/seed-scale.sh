#!/usr/bin/env bash
# seed-scale.sh -- the original experiment end to end at its size (or a fraction of it) on the embedded
# store: generate, fold and verify, load both layouts cold at two caches, report beside the original.
#
# Usage: scripts/seed-scale.sh [--fraction F] [--dir DIR] [--keep] [--build DIR]
#                              [--cache-ratios LIST | --cache-sizes LIST] [--buffered] [--resume]
#                              [--candidates] [--predict F] [--progress auto|always|never]
#
#   1. billgen generate --preset seed --scale F: exactly round(427,003 F) masters and round(55,357,286 F)
#      rows, keyed by the string ETL_Patient_IDStr, rows of a master scattered in time (interleaved);
#   2. fold-details --parallel 2 --verify: the folded layout, then proof it holds exactly the rows;
#      with --candidates also the two cheaper changes, each verified the same way: --shape sorted (the
#      rows copied unchanged in key order into a plain collection with its key index) and --shape
#      clustered (the same into a clustered collection keyed by {ETL_Patient_IDStr, id});
#   3. scancmp --cold --direct-io --parallel 4 --cache-ratios 0.25,4: both layouts (with --candidates,
#      all four: detail, sorted, clustered, folded, so the report takes the speedup apart) loaded cold with an
#      engine cache a quarter of the detail layout's size on disk (it rereads) and one four times it
#      (it holds the data: the original server's regime). When four times the detail layout does not
#      fit this machine's memory (the full size needs ~31 GB of cache, more than a 24 GiB machine has),
#      and no cache was named, it runs mongod's own configuration instead: one point at mongod's default
#      engine cache, max(50% of (RAM - 1 GB), 256 MB), with buffered reads (no O_DIRECT), so the page
#      cache holds the compressed files beside the engine cache -- the data fits in memory, as on the
#      original server, though not in the engine cache alone; it says so before it starts;
#   4. layout-report --reference datasets/reference/original.json: the report, with the original's
#      table beside this run's.
#   With --predict F it also runs, after the sweep (the page cache dropped first), what a DBA runs
#   before any fold: scancmp --predict --sample F on bill_detail alone at the sweep's caches exactly,
#   and prints the probe's time beside the folded layout's cold load, and the predicted engine bytes of
#   both layouts and the speedup beside the measured ones with their errors and the sample's stated
#   sampling error; the report carries the prediction (layout-report --prediction). Its time is not in
#   the total (the targets are for the experiment itself).
#   Before anything it checks the free space of DIR against an estimate (bytes per row on disk with
#   the indexes: the detail layout ~110 B/row at 4.9 M rows with int64 keys, 138 B/row at 1.1 M rows
#   of this preset, whose string keys make both of its indexes larger; the folded one ~55 B/row; the
#   fold's temporary space -- none on the embedded store, whose reads walk the key index -- and the
#   journal)
#   and refuses, naming both figures, when it does not fit. At the end it prints the phase table: wall
#   time, its target -- set for the original's size on a quiet 2-core machine: generate 90 s, fold
#   80 s, verify 30 s, scancmp 95 s at its one point of mongod's default engine cache, total 300 s --
#   with ok or OVER only for the run it was set for (the full size; scancmp's and the total's only at
#   that one default-cache point, two layouts); at a fraction the target scaled by it, marked "est"
#   and never judged (fixed costs weigh more at a small size); none for a cache sweep's scancmp --, rows/s, peak RSS and bytes written (/usr/bin/time -v: the kernel's rusage, written
#   bytes as 512-byte blocks), and the disk space the data directory holds after the phase; generate's
#   inserts and its index build (with the checkpoint beside it) and fold-details's fold and verify as rows
#   of their own, from the tools' summaries; then the verify's method and the load average.
#
#   --fraction F        scale of the preset (default 1: the original's size; 0.001 takes ~35 s)
#   --dir DIR           where the store, the summaries and the report go (default ./seed-scale-out);
#                       it must be empty or absent, or hold a previous seed-scale run (replaced)
#   --keep              keep the store when done (default: removed, the summaries and report kept)
#   --build DIR         the build tree whose bin/ holds the tools (default: ./build of the repository,
#                       or $LAB_BIN_DIR/..)
#   --cache-ratios LIST the sweep's engine caches as fractions of the detail layout (default 0.25,4).
#                       The point below 1 is the long one: with O_DIRECT the detail layout rereads each
#                       page 140-185x (at fraction 0.02 its load took 205 s, 495 s at 0.8, on a loaded
#                       2-core machine), so at full size it runs for hours; --cache-ratios 4 runs only
#                       the comparison in the original's regime (the data fits in the cache)
#   --cache-sizes LIST  the sweep's engine caches as sizes (e.g. 8GiB,12GiB) instead of ratios
#   --buffered          data files read through the page cache (mongod's way) instead of with O_DIRECT:
#                       engine cache misses that the page cache holds cost no disk read
#   --progress MODE     the tools' progress bars with ETA (default auto: when stderr is a terminal)
#   --candidates        also fold the sorted and clustered copies and load them beside detail and folded
#                       (at full size about 14 minutes more and 10 GB more disk: docs/results.md)
#   --predict F         the prediction from a read-only probe sampling a share F of the masters
#                       (0 < F <= 1; 0.05 at full size: 11.7 sampled masters a page, where 0.01 gives
#                       2.6 and a warning), timed cold and set beside the measured sweep
#   --resume            continue a run in DIR that was stopped or failed (its store kept, e.g. with --keep,
#                       or killed): the phases that completed are not run again -- their rows in the table
#                       are the recorded ones -- and the rest run as usual; the fraction must be the same
#   Every engine cache of the sweep, plus 1 GiB for the tools, must fit this machine's memory (MemTotal):
#   a larger one is refused before anything runs (the process would be killed for memory hours in).
#
# Outputs in DIR: generate.json, fold.json, scancmp.json (the tools' summaries), sweep.json (the results
# file), report.md (with its charts when gnuplot is there), phases.json (the phase table for scripts),
# phases.txt (as printed), PHASE.out (each tool's stdout, e.g. scancmp's tables) and PHASE.time.
#
# Examples:
#   scripts/seed-scale.sh                               # the original size; on 24 GiB, mongod's configuration
#   scripts/seed-scale.sh --cache-ratios 4              # the original size in its regime (needs ~32 GiB RAM)
#   scripts/seed-scale.sh --fraction 0.1 --dir /mnt/big/seed
#   scripts/seed-scale.sh --fraction 0.001 --progress never   # what the test suite runs
#   scripts/seed-scale.sh --dir run1 --keep --resume    # after a stop: the scans and report only
#   scripts/seed-scale.sh --candidates                  # detail, sorted, clustered and folded side by side
#   scripts/seed-scale.sh --predict 0.05                # and the prediction before folding, checked
set -euo pipefail

me=seed-scale.sh
here=$(cd "$(dirname "$0")/.." && pwd)
fraction=1
dir=./seed-scale-out
keep=0
build=
ratios=
sizes=
buffered=0
resume=0
candidates=0
predict=
progress=auto

die() { echo "$me: error: $*" >&2; exit 1; }
usage_die() { echo "$me: $* (try --help)" >&2; exit 2; }
need() { [ $# -ge 2 ] || usage_die "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --fraction) need "$@"; fraction=$2; shift ;;
    --dir) need "$@"; dir=$2; shift ;;
    --keep) keep=1 ;;
    --build) need "$@"; build=$2; shift ;;
    --cache-ratios) need "$@"; ratios=$2; shift ;;
    --cache-sizes) need "$@"; sizes=$2; shift ;;
    --buffered) buffered=1 ;;
    --resume) resume=1 ;;
    --candidates) candidates=1 ;;
    --predict) need "$@"; predict=$2; shift ;;
    --progress) need "$@"; progress=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
    *) usage_die "unknown option '$1'" ;;
  esac
  shift
done
[[ "$fraction" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || usage_die "--fraction: '$fraction' is not a number"
if [ -n "$predict" ]; then
  [[ "$predict" =~ ^(0?\.[0-9]*[1-9][0-9]*|1(\.0*)?)$ ]] || usage_die "--predict: '$predict' is not a share of the masters in (0, 1]"
fi
[ -z "$ratios" ] || [ -z "$sizes" ] || usage_die "--cache-ratios and --cache-sizes exclude each other"
case "$progress" in auto|always|never) ;; *) usage_die "--progress: '$progress' is not auto, always or never" ;; esac
if [ -z "$build" ]; then
  if [ -n "${LAB_BIN_DIR:-}" ]; then build=$(cd "$LAB_BIN_DIR/.." && pwd); else build=$here/build; fi
fi
bin=$build/bin
for t in billgen fold-details scancmp layout-report; do
  [ -x "$bin/$t" ] || die "$bin/$t is not built (cmake --build $build)"
done
[ -x /usr/bin/time ] || die "/usr/bin/time is needed for peak RSS and bytes written (apt-get install time)"
command -v python3 >/dev/null || die "python3 is needed to read the tools' JSON summaries"
reference=$here/datasets/reference/original.json
[ -f "$reference" ] || die "$reference is missing"

# the preset's sizes, as billgen computes them (llround of the product)
read -r masters rows < <(python3 -c "
import sys
f = float(sys.argv[1])
r = lambda x: int(x + 0.5)
print(r(427003 * f), r(55357286 * f))" "$fraction")
[ "$masters" -ge 1 ] && [ "$rows" -gt "$masters" ] ||
  usage_die "--fraction $fraction leaves $masters masters and $rows rows: use at least 0.00001"

# ---- the directory and its free space -----------------------------------------------------------------
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
if [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/.seed-scale" ]; then
  die "$dir is not empty and not a previous seed-scale run: name an empty or new directory with --dir"
fi
if [ "$resume" -eq 1 ]; then
  [ -f "$dir/.seed-scale" ] && [ -d "$dir/data" ] ||
    die "--resume: $dir holds no stopped seed-scale run with its store (run without --resume to start one)"
  prev=$(cat "$dir/.seed-scale")
  [ -z "$prev" ] || [ "$prev" = "fraction=$fraction" ] ||
    die "--resume: $dir holds a run of $prev, not fraction=$fraction: name the same --fraction"
  rm -f "$dir"/phases.*
else
  rm -rf "${dir:?}/data" "$dir"/*.json "$dir"/report*.md "$dir"/report*.svg "$dir"/phases.* "$dir"/*.time \
    "$dir"/*.out "$dir"/*.phase
fi
echo "fraction=$fraction" > "$dir/.seed-scale"
data=$dir/data
uri="wiredtiger:$data"

# Bytes per row (storage + indexes) measured at 1.1 M rows of the preset (fraction 0.02): detail 137.5,
# folded 55.3 (at 4.9 M rows with int64 keys the detail layout took ~110: string keys cost more). The fold's
# temporary space on the embedded store is none (every read walks the key index; fold-details --plan
# says so). The journal keeps up to ~3 log files of 100 MiB between checkpoints: 512 MiB, plus 15% of
# margin for page fill and checkpoints.
detail_per_row=140
folded_per_row=56
# --candidates: the sorted copy with its key index ~100 B/row, the clustered one ~90 (measured at full size)
candidates_per_row=0
cand_text=
if [ "$candidates" -eq 1 ]; then
  candidates_per_row=190
  cand_text=" + $candidates_per_row B sorted and clustered"
fi
temp_bytes=0
journal=$((512 * 1024 * 1024))
need_bytes=$(( (rows * (detail_per_row + folded_per_row + candidates_per_row) + temp_bytes) * 115 / 100 + journal ))
free_bytes=$(df -B1 --output=avail "$dir" | tail -1 | tr -d ' ')
if [ "$resume" -eq 1 ]; then
  # the store already holds part of what the run needs
  have=$(du -sb "$data" 2>/dev/null | cut -f1)
  need_bytes=$(( need_bytes > ${have:-0} ? need_bytes - ${have:-0} : 0 ))
fi
gib() { python3 -c "import sys; print('%.2f GiB' % (int(sys.argv[1]) / 2**30))" "$1"; }
if [ "$free_bytes" -lt "$need_bytes" ]; then
  die "not enough free disk space in $dir: this run needs about $(gib "$need_bytes") ($rows rows x" \
      "($detail_per_row B detail + $folded_per_row B folded$cand_text) + 15% + $(gib $journal) of journal) but" \
      "$(gib "$free_bytes") is free; free some space, use --dir on a larger disk or a smaller --fraction"
fi
echo "$me: $masters masters, $rows rows (fraction $fraction) in $dir: needs about $(gib "$need_bytes")," \
     "$(gib "$free_bytes") free" >&2

# ---- the engine caches and the machine's memory -------------------------------------------------------
# The ratios are of the detail layout's on-disk size, which scancmp measures after the fold; here it is
# estimated (detail_per_row), so a sweep that cannot fit in memory is refused before hours of work.
mem_bytes=$(( $(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo) * 1024 ))
tools_bytes=$((1024 * 1024 * 1024))
detail_est=$(( rows * detail_per_row ))
# largest_cache LIST KIND -- the largest engine cache in bytes of a ratio or size list
largest_cache() {
  python3 - "$1" "$2" "$detail_est" <<'PY'
import re, sys
lst, kind, detail = sys.argv[1], sys.argv[2], int(sys.argv[3])
units = {"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
         "t": 1 << 40, "tib": 1 << 40, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
best = 0
for item in lst.split(","):
    m = re.fullmatch(r"\s*([0-9]+\.?[0-9]*|\.[0-9]+)\s*([A-Za-z]*)\s*", item)
    if not m or (kind == "ratio" and m.group(2)) or m.group(2).lower() not in units:
        sys.exit("'%s' is not a %s" % (item, "ratio" if kind == "ratio" else "size"))
    v = float(m.group(1)) * (detail if kind == "ratio" else units[m.group(2).lower()])
    best = max(best, int(v))
print(best)
PY
}
io_note="O_DIRECT: every engine cache miss is a disk read"
default_caches=0   # the one point of mongod's default engine cache, the configuration of scancmp's target
if [ -z "$ratios" ] && [ -z "$sizes" ]; then
  ratios=0.25,4
  if [ $(( detail_est * 4 + tools_bytes )) -gt "$mem_bytes" ]; then
    # mongod's default engine cache on this machine: max(50% of (RAM - 1 GB), 256 MB)
    cache=$(( (mem_bytes - 1000000000) / 2 ))
    [ "$cache" -ge $((256 * 1024 * 1024)) ] || cache=$((256 * 1024 * 1024))
    ratios=
    sizes="$(( cache / 1024 / 1024 ))MiB"
    buffered=1
    default_caches=1
    echo "$me: four times the detail layout (about $(gib $(( detail_est * 4 ))) of engine cache) does not fit" \
         "this machine's $(gib "$mem_bytes") of memory: running mongod's configuration instead, one point at" \
         "its default engine cache ($sizes) with buffered reads, the page cache holding the files beside it" \
         "(name --cache-ratios or --cache-sizes to choose)" >&2
  fi
fi
if [ -n "$ratios" ]; then
  largest=$(largest_cache "$ratios" ratio) || usage_die "--cache-ratios: ${largest:-bad list}"
else
  largest=$(largest_cache "$sizes" size) || usage_die "--cache-sizes: ${largest:-bad list}"
fi
if [ $(( largest + tools_bytes )) -gt "$mem_bytes" ]; then
  est=
  [ -z "$ratios" ] || est=" (the detail layout is about $(gib "$detail_est") on disk at $detail_per_row B/row)"
  die "the sweep's largest engine cache, about $(gib "$largest")$est, plus $(gib $tools_bytes) for the" \
      "tools, exceeds this machine's $(gib "$mem_bytes") of memory; name smaller caches (--cache-sizes" \
      "$(( (mem_bytes - tools_bytes) / 1024 / 1024 / 1024 ))GiB at most) or a smaller --fraction"
fi
sweep_opts=(--cache-ratios "$ratios")
[ -n "$ratios" ] || sweep_opts=(--cache-sizes "$sizes")
io_opts=(--direct-io)
if [ "$buffered" -eq 1 ]; then
  io_opts=()
  io_note="buffered: cache misses the page cache holds cost no disk read"
fi
echo "$me: engine caches ${ratios:+at ratios $ratios of the detail layout}${sizes:+$sizes}; reads: $io_note" >&2

# ---- phases -------------------------------------------------------------------------------------------
phases=()   # "name|seconds|rows|rss_kb|written_bytes|disk_bytes"

# phase NAME ROWS CMD... -- run CMD under /usr/bin/time -v, record its wall time, peak RSS, bytes written
# and the data directory's size afterwards; a failure stops the script with the tool's exit code.
phase() {
  local name=$1 prows=$2; shift 2
  local tf="$dir/$name.time" t0 t1 rc=0
  # (the report is derived from the results: it always runs again)
  if [ "$resume" -eq 1 ] && [ "$rerun" -eq 0 ] && [ "$name" != report ]; then
    if [ -f "$dir/$name.phase" ]; then
      echo "$me: == $name: done in the run being resumed (its recorded figures are kept)" >&2
      phases+=("$(cat "$dir/$name.phase")")
      return 0
    fi
    # (GNU time says "Exit status: 0" of a command killed by a signal too: that line must be absent)
    if [ -f "$tf" ] && grep -q '^\s*Exit status: 0$' "$tf" && ! grep -q 'terminated by signal' "$tf"; then
      # a run from before .phase files: the wall time and figures from /usr/bin/time, the disk unknown
      echo "$me: == $name: done in the run being resumed (figures from $name.time)" >&2
      phases+=("$(python3 - "$tf" "$prows" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
g = lambda k: re.search(r"^\s*" + re.escape(k) + r": (.*)$", t, re.M).group(1).strip()
w = [float(x) for x in g("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
secs = sum(v * 60 ** (len(w) - 1 - i) for i, v in enumerate(w))
print("%s|%.3f|%s|%s|%d|-1" % (sys.argv[1].rsplit("/", 1)[1][:-5], secs, sys.argv[2],
      g("Maximum resident set size (kbytes)"), int(g("File system outputs")) * 512))
PY
)")
      return 0
    fi
  fi
  rerun=1
  # a phase that starts again leaves no figures of an earlier try behind until it succeeds
  rm -f "$dir/$name.phase" "$tf"
  echo "$me: == $name: $*" >&2
  t0=$(date +%s.%N)
  /usr/bin/time -v -o "$tf" "$@" >"$dir/$name.out" || rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then
    tail -20 "$dir/$name.out" >&2
    echo "$me: error: phase $name failed (exit $rc): $*" >&2
    exit $rc
  fi
  local rss out disk entry
  rss=$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$tf")
  out=$(sed -n 's/^\s*File system outputs: //p' "$tf")
  disk=$(du -sb "$data" 2>/dev/null | cut -f1)
  entry="$name|$(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1")|$prows|${rss:-0}|$(( ${out:-0} * 512 ))|${disk:-0}"
  echo "$entry" > "$dir/$name.phase"
  phases+=("$entry")
}
rerun=0   # --resume: set once a phase runs, so every later phase runs too

phase generate "$rows" "$bin/billgen" generate --uri "$uri" --preset seed --scale "$fraction" --drop \
  --progress "$progress" --json "$dir/generate.json"
phase fold+verify "$rows" "$bin/fold-details" --uri "$uri" --src bill_detail --dst detail_coll \
  --key ETL_Patient_IDStr --parallel 2 --verify --drop-dst --progress "$progress" --json "$dir/fold.json"
layouts=(--detail bill_detail --folded detail_coll)
if [ "$candidates" -eq 1 ]; then
  for shape in sorted clustered; do
    phase "$shape" "$rows" "$bin/fold-details" --uri "$uri" --src bill_detail --dst "detail_$shape" \
      --key ETL_Patient_IDStr --shape "$shape" --parallel 2 --verify --drop-dst --progress "$progress" \
      --json "$dir/$shape.json"
  done
  layouts=(--layout detail=bill_detail:rows --layout sorted=detail_sorted:rows
           --layout clustered=detail_clustered:rows --layout folded=detail_coll:folded)
fi
# every row loaded from every layout at each point of the sweep
npoints=$(( $(tr -cd ',' <<<"$ratios$sizes" | wc -c) + 1 ))
nlayouts=$(( candidates == 1 ? 4 : 2 ))
phase scancmp $(( rows * nlayouts * npoints )) "$bin/scancmp" --uri "$uri" "${layouts[@]}" \
  --key ETL_Patient_IDStr --cold "${io_opts[@]}" --parallel 4 "${sweep_opts[@]}" --progress "$progress" \
  --out "$dir/sweep.json" --json "$dir/scancmp.json"
report_opts=()
if [ -n "$predict" ]; then
  # the probe reads bill_detail alone (the fold changed nothing of it): at the sweep's caches exactly (its
  # ratios divide by its own detail size, the prediction's by the probe's), timed cold like the loads
  psizes=$(python3 -c 'import json,sys; print(",".join(str(p["cache_size_bytes"]) for p in json.load(open(sys.argv[1]))["sweep"]))' "$dir/sweep.json")
  sync
  if ! { echo 1 > /proc/sys/vm/drop_caches; } 2>/dev/null; then
    echo "$me: warning: cannot drop the page cache (needs root): the probe is timed with what it holds" >&2
    echo warm > "$dir/predict.cache"
  else
    echo cold > "$dir/predict.cache"
  fi
  phase predict 0 "$bin/scancmp" --uri "$uri" --key ETL_Patient_IDStr --parallel 4 "${io_opts[@]}" \
    --cache-sizes "$psizes" --predict --sample "$predict" --progress "$progress" --out "$dir/predict.json"
  report_opts=(--prediction "$dir/predict.json")
fi
phase report 0 "$bin/layout-report" "$dir/sweep.json" --reference "$reference" ${report_opts[@]+"${report_opts[@]}"} \
  -o "$dir/report.md" --title "The original experiment at fraction $fraction: $masters masters, $rows rows"

# ---- the phase table ----------------------------------------------------------------------------------
printf '%s\n' "${phases[@]}" > "$dir/phases.psv"
python3 - "$dir" "$fraction" "$masters" "$rows" "$default_caches" "$candidates" "$predict" <<'PY'
import json, os, sys
d, fraction, masters, rows = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
default_caches = sys.argv[5] == "1"
candidates = sys.argv[6] == "1"  # four layouts loaded: scancmp's and the total's targets are for two
gen = json.load(open(d + "/generate.json"))

def prediction_text(d):
    """the prediction beside the measured sweep: the probe's time against the folded layout's cold load,
    and per cache the engine bytes of both layouts and the speedup, predicted / measured (error)"""
    pr, me = json.load(open(d + "/predict.json")), json.load(open(d + "/sweep.json"))
    probe, sample = pr["prediction"]["probe"], pr["prediction"].get("sample") or {}
    how = open(d + "/predict.cache").read().strip() if os.path.exists(d + "/predict.cache") else "?"
    med = lambda p, l, k: ((p.get("summary") or {}).get(l) or {}).get(k, {}).get("median")
    folded_load = [med(q, "folded", "elapsed_s") for q in me["sweep"]]
    folded_load = min(x for x in folded_load if x) if any(folded_load) else None
    t = "prediction (scancmp --predict --sample %g, bill_detail alone, page cache %s before): probe %.1f s " % (
        sample.get("fraction", 1), "dropped" if how == "cold" else "not dropped (not root)", probe["elapsed_s"])
    t += "(index walk %.1f s, %.0f MiB read; %d documents fetched)" % (
        probe.get("index_walk_s") or 0, (probe.get("index_walk_read_bytes") or 0) / 1048576.0,
        probe.get("documents_fetched") or 0)
    if folded_load:
        t += "; the folded layout's cold load %.1f s: probe / load %.2f" % (folded_load, probe["elapsed_s"] / folded_load)
    t += "\n"
    if sample.get("warning"):
        t += "  sample: %.1f sampled masters per page: %s\n" % (sample.get("masters_per_page") or 0, sample["warning"])
    pct = lambda a, b: "%+.0f%%" % ((a - b) / b * 100) if a is not None and b else "n/a"
    mib = lambda b: "%.1f" % (b / 1048576.0) if b is not None else "n/a"
    sp = lambda p: (med(p, "detail", "elapsed_s") / med(p, "folded", "elapsed_s")
                    if med(p, "detail", "elapsed_s") and med(p, "folded", "elapsed_s") else None)
    for q in me["sweep"]:
        p = next((x for x in pr["sweep"] if x["cache_size_bytes"] == q["cache_size_bytes"]), None)
        if p is None:
            t += "  cache %s MiB: no predicted point\n" % mib(q["cache_size_bytes"])
            continue
        cells = []
        for l in ("detail", "folded"):
            a, b = med(p, l, "block_read_bytes"), med(q, l, "block_read_bytes")
            se = (p.get(l) or {}).get("read_amplification_sampling_error")
            cells.append("%s MiB read predicted / measured %s / %s (%s%s)" % (
                l, mib(a), mib(b), pct(a, b),
                "" if se is None else ", sampling error +-%.2g of read amp %.3g" % (se, (p.get(l) or {}).get("read_amplification") or 0)))
        s1, s2 = sp(p), sp(q)
        cells.append("speedup predicted / measured %s / %s (x%s)" % (
            "%.2f" % s1 if s1 else "n/a", "%.2f" % s2 if s2 else "n/a", "%.2f" % (s1 / s2) if s1 and s2 else "n/a"))
        t += "  cache %s MiB: %s\n" % (mib(q["cache_size_bytes"]), "; ".join(cells))
    return t

fold = json.load(open(d + "/fold.json"))
# the targets, set for the original's size on a quiet 2-core machine; scancmp's (and so the total's) for
# its one point of mongod's default engine cache with two layouts. Judged (ok / OVER) only at that size;
# at a fraction, scaled by it as an estimate, never judged: fixed costs weigh more at a small size
full_targets = {"generate": 90.0, "fold+verify": 110.0, "  fold": 80.0, "  verify": 30.0,
                "scancmp": 95.0 if default_caches and not candidates else None}
full_targets["total"] = 300.0 if full_targets["scancmp"] is not None else None
full_size = fraction == 1
target = lambda name: full_targets.get(name) if full_size else None
estimate = lambda name: None if full_size or full_targets.get(name) is None else full_targets[name] * fraction
out = []
def size(b):
    for u in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(b) < 1024 or u == "TiB":
            return ("%d %s" % (b, u)) if u == "B" else ("%.1f %s" % (b, u))
        b /= 1024.0
rows_out = []
total = 0.0
for line in open(d + "/phases.psv").read().split("\n"):
    if not line:
        continue
    name, secs, prows, rss_kb, written, disk = line.split("|")
    secs, prows, rss, written, disk = float(secs), int(prows), int(rss_kb) * 1024, int(written), int(disk)
    if name != "predict":  # the prediction is what a DBA runs before: not the experiment's time
        total += secs
    rows_out.append({"phase": name, "wall_s": secs, "target_s": target(name), "target_estimate_s": estimate(name),
                     "rows": prows,
                     "rows_per_s": prows / secs if prows and secs > 0 else None,
                     "peak_rss_bytes": rss, "bytes_written": written, "disk_bytes": disk})
    # a process's own phases from its summary, beside it: generate's inserts and its index build with
    # the checkpoint after it; the fold and its verify
    subs = ()
    if name == "generate":
        ix = (gen.get("index_elapsed_s") or 0) + (gen.get("flush_elapsed_s") or 0)
        subs = (("  insert", gen.get("insert_elapsed_s"), prows), ("  index", ix or None, prows))
    elif name == "fold+verify":
        subs = (("  fold", fold.get("fold_elapsed_s"), prows),
                ("  verify", (fold.get("verify") or {}).get("elapsed_s"), prows))
    for sub, s, n in subs:
        if s:
            rows_out.append({"phase": sub, "wall_s": s, "target_s": target(sub), "target_estimate_s": estimate(sub),
                             "rows": n,
                             "rows_per_s": n / s if n else None, "peak_rss_bytes": None,
                             "bytes_written": None, "disk_bytes": None})
def target_text(secs, name):
    t, e = target(name), estimate(name)
    if t is not None:
        return "%.1fs %s" % (t, "ok" if secs <= t else "OVER")
    return "-" if e is None else "%.1fs est" % e
hdr = ("phase", "wall time", "target", "rows", "rows/s", "peak RSS", "bytes written", "disk used after")
lines = ["%-12s %10s %12s %12s %12s %10s %13s %15s" % hdr]
for r in rows_out:
    lines.append("%-12s %9.1fs %12s %12s %12s %10s %13s %15s" % (
        r["phase"], r["wall_s"],
        "not in total" if r["phase"] == "predict" else target_text(r["wall_s"], r["phase"]),
        "{:,}".format(r["rows"]) if r["rows"] else "-",
        "{:,.0f}".format(r["rows_per_s"]) if r["rows_per_s"] else "-",
        size(r["peak_rss_bytes"]) if r["peak_rss_bytes"] is not None else "(same)",
        size(r["bytes_written"]) if r["bytes_written"] is not None else "(same)",
        "" if r["disk_bytes"] is None else ("not recorded" if r["disk_bytes"] < 0 else size(r["disk_bytes"]))))
lines.append("%-12s %9.1fs %12s" % ("total", total, target_text(total, "total")))
text = "seed-scale: fraction %g, %s masters, %s rows (generated: %s masters, %s rows)\n" % (
    fraction, "{:,}".format(masters), "{:,}".format(rows), "{:,}".format(gen["bills"]), "{:,}".format(gen["rows"]))
text += "\n".join(lines) + "\n"
text += ("targets: set for the original's size on a quiet 2-core machine (generate 90 s, fold 80 s, "
         "verify 30 s, scancmp 95 s at one point of mongod's default engine cache with two layouts, total "
         "300 s)%s%s; verify by the %s method, load average %s at the end\n" % (
             "" if full_targets["scancmp"] is not None else
             "; none for scancmp and the total here: %s" % ("four layouts" if candidates else
                                                            "not that one default-cache point"),
             "" if full_size else "; at fraction %g only estimates (est: the target times the fraction, "
             "not judged)" % fraction,
             (fold.get("verify") or {}).get("method", "?"), open("/proc/loadavg").read().split()[0]))
if sys.argv[7]:  # --predict given: this run's prediction (never an earlier run's file)
    text += prediction_text(d)
sys.stdout.write(text)
open(d + "/phases.txt", "w").write(text)
json.dump({"fraction": fraction, "masters": masters, "rows": rows, "generated_masters": gen["bills"],
           "generated_rows": gen["rows"], "total_wall_s": total, "total_target_s": target("total"),
           "total_target_estimate_s": estimate("total"),
           "verify_method": (fold.get("verify") or {}).get("method"),
           "load_average_end": float(open("/proc/loadavg").read().split()[0]), "phases": rows_out},
          open(d + "/phases.json", "w"), indent=2)
PY
echo "$me: report: $dir/report.md" >&2
if [ "$keep" -eq 0 ]; then
  rm -rf "${data:?}"
else
  echo "$me: kept the store: wiredtiger:$data" >&2
fi
