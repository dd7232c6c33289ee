#!/usr/bin/env bash
# bench-predict.sh -- the prediction (scancmp --predict) against the real cold sweep, on the same
# data, in one run per data shape: billgen generate (the shape) + fold-details, then
#   1. scancmp --cold --direct-io over the cache ratios, keys and workers: the measured sweep (with
#      --candidates also the sorted and clustered copies, buckets of 100 and the fold with zstd blocks);
#   2. scancmp --predict at that sweep's cache sizes exactly (--cache-sizes; no --calibrate unless given:
#      the probe's own cost figures give the load times): the probe of the
#      detail collection alone (the timed sample gives the load times), its cost;
# and prints per shape and cache the predicted and measured engine bytes read (read amplification beside)
# of both layouts with the error of the bytes, and the load times' speedup (the factor predicted /
# measured); under each shape the knee's cache (where the detail layout's read amplification falls through
# 2, log-interpolated between points, the same rule on both curves) predicted and measured with its error,
# and the speedup's error at the reference point; the detail layout's band where the prediction states one
# (a load not in order: the figure to its held "no keep" edge); then per cache the speedup's error (x = predicted /
# measured) of the load times, of the CPU (the process's CPU seconds, which other processes on a shared
# machine do not lengthen as they do the elapsed times) and with --random of the random load order (times
# and CPU), beside
# the cores other processes kept busy during the measured runs, and per shape the worst x of each; with
# --candidates each candidate's bytes read predicted and measured; with --workloads the range and aggregate
# workloads' bytes read predicted and measured per layout; with --writes a row read's engine bytes and an
# append's journal bytes predicted and measured per layout; per shape a line counting the issue's targets
# met (detail bytes within 25% where it rereads, or where the predicted curve is steep the cache at which it
# reaches the measured bytes within 15%: the prediction runs again at 0.85 and 1.15 times each cache; "fits"
# where it fits, folded bytes within 25%, the speedup within a factor 1.5 or 2 at the knee, the knee's cache
# within 15%: one figure against the runs' median),
# and at the end those counts per shape and over all. Prints figures; asserts nothing (the tests with
# a band are tests/scan/test_predict_embedded.c, test_predict_wl_embedded.c and test_predict_row_embedded.c).
#
# Usage: scripts/bench-predict.sh [--build DIR] [--bills N] [--rows MEAN] [--ratios LIST] [--parallel N]
#                                 [--keys-limit N] [--shapes LIST|all] [--runs N] [--random] [--candidates]
#                                 [--workloads] [--writes] [--sample LIST] [--calibrate] [--keep]
#                                 [-- BILLGEN-OPTIONS...]
#   --bills N        masters (default 2000), --rows MEAN rows per master (default 130): 260,000 rows
#   --ratios LIST    cache ratios (default 0.25,0.5,1,1.5,2,4)
#   --parallel N     workers (default 4, as the original experiment)
#   --keys-limit N   masters loaded (default: all)
#   --shapes LIST    data shapes, comma-separated, or all (default: default):
#                      default    billgen's defaults (lognormal rows, 1000 bills open, interleaved)
#                      open60     --open-bills 60 (few bills open at once: rows less scattered)
#                      zipf       --dist zipf
#                      clustered  --order clustered (each bill's rows together)
#                      few        a twentieth of the masters, twenty times the rows each
#                      uniform    --dist uniform --open-bills 300
#                      small      6.5 times the masters, 20 rows each (--dist fixed): many folded
#                                 documents a page, whose in-order load rereads under "no keep"
#                      big        three times the rows a master, 200 bills open at once: a master's rows
#                                 over a longer stretch of the file (three times the default's rows)
#   --runs N         measured runs per point, the median kept (default 1; a shared machine's times vary);
#                    with N > 1 also the detail layout's runs' spread per cache (fewest to most MiB read)
#                    and whether the prediction lies within 25% of that range
#   --random         also measure the random load order (scancmp --load-order both) and its speedup
#   --candidates     also measure and predict the other candidates (slower: four more folds and loads)
#   --workloads      also measure (cold, every point) and predict the range and aggregate workloads
#   --writes         also measure the append (2,000 rows) and row (500 reads) workloads and predict them
#                    (predicted on a copy of the data made before the measured appends change it)
#   --sample LIST    also predict from a sample of the masters (scancmp --predict --sample F, each F of the
#                    comma-separated LIST, e.g. 0.5,0.1): per cache the sampled prediction's MiB read with its
#                    stated sampling error beside the exact prediction's and the measured (with --workloads
#                    the range workload's too), and the probe's documents fetched
#   --calibrate      predict with --calibrate (a timed sample refines the first page read)
#   --keep           keep the work directories (printed)
#   after --: more billgen generate options for every shape (--preset seed --scale F: the original's shape
#             scaled, with --shapes default only)
# Needs jq.
set -euo pipefail

me=bench-predict.sh
here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build
bills=2000
rows=130
ratios=0.25,0.5,1,1.5,2,4
parallel=4
keys_limit=
keep=0
calibrate=()
shapes=default
candidates=0
workloads=()
pworkloads=()
writes=0
samples=
wargs=(--row-keys 500 --append-rows 2000)
runs=1
random=()
all_shapes=default,open60,zipf,clustered,few,uniform,small,big
die() { echo "$me: error: $*" >&2; exit 1; }
need() { [ $# -ge 2 ] || { echo "$me: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) need "$@"; build=$2; shift 2 ;;
    --bills) need "$@"; bills=$2; shift 2 ;;
    --rows) need "$@"; rows=$2; shift 2 ;;
    --ratios) need "$@"; ratios=$2; shift 2 ;;
    --parallel) need "$@"; parallel=$2; shift 2 ;;
    --keys-limit) need "$@"; keys_limit=$2; shift 2 ;;
    --shapes) need "$@"; shapes=$2; shift 2 ;;
    --candidates) candidates=1; shift ;;
    --workloads) workloads=(--workload load,range,aggregate --create-workload-indexes)
                 pworkloads=(--workload range,aggregate); shift ;;
    --writes) writes=1; shift ;;
    --sample) need "$@"; samples=$2; shift 2 ;;
    --runs) need "$@"; runs=$2; shift 2 ;;
    --random) random=(--load-order both); shift ;;
    --calibrate) calibrate=(--calibrate); shift ;;
    --keep) keep=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,/^# Needs jq/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
extra=("$@")
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "$me: --runs takes a whole number of runs, 1 or more: '$runs'" >&2; exit 2; }
if [ -n "$samples" ]; then
  IFS=, read -r -a sample_list <<<"$samples"
  for f in "${sample_list[@]}"; do
    awk -v f="$f" 'BEGIN { exit !(f ~ /^[0-9.]+$/ && f > 0 && f < 1) }' ||
      { echo "$me: --sample takes fractions in (0, 1), comma-separated: '$f'" >&2; exit 2; }
  done
fi
[ "$shapes" = all ] && shapes=$all_shapes
IFS=, read -r -a shape_list <<<"$shapes"
# sample_table F PRED_F PRED MEAS -- per cache the prediction from a sample of F of the masters: each
# layout's MiB read (± its stated sampling error) against the exact prediction's and the measured, and with
# the range workload predicted its figures the same way
sample_table() {
  jq -r --arg f "$1" --slurpfile e "$3" --slurpfile m "$4" '
    def mib(x): if x then (x / 1048576 * 10 | round / 10 | tostring) else "n/a" end;
    def pct(a; b): if a and b and b > 0 then ((a - b) / b * 100 | round | tostring) + "%" else "n/a" end;
    def at(doc; c): [doc.sweep[] | select(.cache_size_bytes == c)] | first;
    def rb(p; l): p.summary[l].block_read_bytes.median;
    def se(p; l): if p[l].read_amplification_sampling_error and p[l].read_amplification > 0
                  then rb(p; l) / p[l].read_amplification * p[l].read_amplification_sampling_error else null end;
    def rg(p; l): [(p.workload_reads // [])[] | select(.workload == "range") | (.layouts // [])[]
                   | select(.layout == l)] | first;
    def mrg(q; l): [(q.workloads // [])[] | select(.workload == "range") | (.layouts // [])[]
                    | select(.layout == l) | .engine_read_bytes] | first;
    def inside(p; l; m): if se(p; l) and m then ((rb(p; l) - m) | fabs) <= se(p; l) else false end;
    "--sample \($f): probe \(.prediction.probe.elapsed_s * 1000 | round) ms, \(.prediction.probe.documents_fetched) documents fetched; MiB read sampled ± error / exact / measured (sampled vs measured; \"in\": the exact within the sampled ± error, what the error claims)",
    (.prediction.sample.knee.detail // null | select(. != null)
     | "  detail knee (where its LRU curve first reads twice its fitting reads): cache ratio \(.sample_cache_ratio * 100 | round / 100) in the sample, moved to \(.moved_cache_ratio * 100 | round / 100) by its jackknife (an error, not an estimate)"),
    ([.sweep[] as $p | at($e[0]; $p.cache_size_bytes) as $x | at($m[0]; $p.cache_size_bytes) as $q
      | select($q != null) | ("detail", "folded") as $l | inside($p; $l; rb($x; $l))]
     | "  the exact prediction within the stated error: \(map(select(.)) | length) of \(length) figures"),
    (.sweep[] as $p | at($e[0]; $p.cache_size_bytes) as $x | at($m[0]; $p.cache_size_bytes) as $q
     | select($q != null)
     | "  \(mib($p.cache_size_bytes)) MiB: "
       + ([("detail", "folded") as $l
           | "\($l) \(mib(rb($p; $l)))\(if se($p; $l) then " ± " + mib(se($p; $l)) else "" end) / \(mib(rb($x; $l))) / \(mib($q.summary[$l].block_read_bytes.median)) (\(pct(rb($p; $l); $q.summary[$l].block_read_bytes.median))\(if inside($p; $l; rb($x; $l)) then " in" else "" end))"]
          | join(", "))
       + ([("detail", "folded") as $l | rg($p; $l) as $r | select($r != null)
           | "; range \($l) \(mib($r.engine_read_bytes))\(if $r.engine_read_bytes_sampling_error then " ± " + mib($r.engine_read_bytes_sampling_error) else "" end) / \(mib(rg($x; $l).engine_read_bytes)) / \(mib(mrg($q; $l))) (\(pct($r.engine_read_bytes; mrg($q; $l))))\(if $r.sample_warning then " [warning]" else "" end)"]
          | join("")))' "$2"
}

# writes_table PRED MEAS -- per layout a row read's engine KB per read predicted (the point's, through an
# LRU cache of its size) / measured (error) at each measured cache, and an append's journal bytes per
# write predicted / measured (error)
writes_table() {
  echo "writes: a row read's engine KB per read (each measured cache), an append's journal bytes per write; predicted / measured (error)"
  jq -r --slurpfile m "$2" '
    def pct(a; b): if a and b and b > 0 then ((a - b) / b * 100 | round | tostring) + "%" else "n/a" end;
    def r1(x): if x then (x * 10 | round / 10 | tostring) else "n/a" end;
    def lay(q; w; l): [(q.workloads // [])[] | select(.workload == w) | (.layouts // [])[] | select(.layout == l)] | first;
    .predicted_workloads.layouts as $p | .sweep as $ps
    | ("layout\t" + ([$m[0].sweep[] | "row KB @ \(.cache_size_bytes / 1048576 * 10 | round / 10) MiB"] | join("\t")) + "\tjournal B"),
      ($p | keys_unsorted[] as $l
       | [$l]
         + [$m[0].sweep[] as $q | lay($q; "row"; $l) as $r
            | (if $r and $r.queries > 0 then $r.engine_read_bytes / $r.queries else null end) as $b
            | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $pt
            | ($pt.row_read_bytes_per_query[$l] // $p[$l].row_read_bytes_per_query) as $a
            | r1($a / 1000) + " / " + r1(if $b then $b / 1000 else null end) + " (" + pct($a; $b) + ")"]
         + [lay($m[0].sweep[0]; "append"; $l).write.journal_bytes_per_write as $j
            | r1($p[$l].append_journal_bytes_per_write) + " / " + r1($j) + " (" + pct($p[$l].append_journal_bytes_per_write; $j) + ")"]
       | join("\t"))' "$1" | column -t -s $'\t'
}

# a preset (billgen --preset, after --) sets the masters and rows itself: the default shape only
preset=0
for a in ${extra[@]+"${extra[@]}"}; do [ "$a" = --preset ] && preset=1; done
for s in "${shape_list[@]}"; do
  if [ "$preset" = 1 ] && [ "$s" != default ]; then
    echo "$me: --preset (after --) sets the masters and rows itself: give it with --shapes default only, not '$s'" >&2
    exit 2
  fi
  case ",$all_shapes," in *",$s,"*) ;; *) echo "$me: --shapes: unknown shape '$s' (one of $all_shapes, or all)" >&2; exit 2 ;; esac
done
command -v jq >/dev/null || die "jq is needed to read the results files (apt-get install jq)"

cmake --build "$build" --target scancmp billgen fold-details >/dev/null || die "build failed in $build"
bin=$build/bin
works=()
cleanup() { rm -f "${tally:-}"; [ "$keep" = 1 ] || rm -rf ${works[@]+"${works[@]}"}; }
trap cleanup EXIT

# shape_args NAME -- billgen's options of shape NAME (bills and rows included; the default shape's none when
# the options after -- name a preset, which sets them itself)
shape_args() {
  case "$1" in
    default) [ "$preset" = 1 ] || echo "--bills $bills --mean-rows $rows" ;;
    open60) echo "--bills $bills --mean-rows $rows --open-bills 60" ;;
    zipf) echo "--bills $bills --mean-rows $rows --dist zipf" ;;
    clustered) echo "--bills $bills --mean-rows $rows --order clustered" ;;
    few) echo "--bills $(( bills / 20 > 1 ? bills / 20 : 2 )) --mean-rows $(( rows * 20 ))" ;;
    uniform) echo "--bills $bills --mean-rows $rows --dist uniform --open-bills 300" ;;
    small) echo "--bills $(( bills * 13 / 2 )) --mean-rows 20 --dist fixed" ;;
    big) echo "--bills $bills --mean-rows $(( rows * 3 )) --open-bills 200" ;;
  esac
}

# jq definitions the tables share: rb(p; l), a point's median bytes read of layout l; sp(p), its speedup
# (the load times' ratio); through2(s), the indices i where a sweep's detail read amplification falls
# through 2 between points i and i + 1; knee(s), the cache of the first such fall, log-log interpolated
# between the two points around it (the same rule on both curves)
jq_shared='
    def rb(p; l): p.summary[l].block_read_bytes.median // null;
    def sp(p): (p.summary.detail.elapsed_s.median // null) as $d | (p.summary.folded.elapsed_s.median // null) as $f
               | if $d and $f and $f > 0 then $d / $f else null end;
    def through2(s): s as $s | [range(0; ($s | length) - 1)
                      | select(($s[.].detail.read_amplification // 0) > 2 and ($s[. + 1].detail.read_amplification // 99) <= 2)];
    def knee(s): [through2(s)[] as $i | s[$i] as $a | s[$i + 1] as $b
                  | ((($a.detail.read_amplification | log) - (2 | log)) /
                     (($a.detail.read_amplification | log) - ($b.detail.read_amplification | log))) as $t
                  | (($a.cache_size_bytes | log) + $t * (($b.cache_size_bytes | log) - ($a.cache_size_bytes | log))) | exp]
                 | first;'

# table PRED MEAS -- the per-cache table of both layouts, then the knee and the speedup's error
table() {
  printf '%9s %5s  %36s  %36s  %16s\n' cache ratio "detail: MiB read (read amp)" "folded: MiB read (read amp)" "speedup"
  printf '%9s %5s  %11s %11s %6s %5s  %11s %11s %6s %5s  %5s %5s %4s\n' MiB "" pred meas err "" pred meas err "" pred meas x
  jq -r --slurpfile m "$2" "$jq_shared"'
    def amp(p; l): p[l].read_amplification;
    def pct(a; b): if a and b and b > 0 then ((a - b) / b * 100 | round | tostring) + "%" else "n/a" end;
    def fac(a; b): if a and b and b > 0 then (a / b * 100 | round / 100 | tostring) else "n/a" end;
    def f(x): if x then (x * 100 | round / 100 | tostring) else "n/a" end;
    def mib(x): if x then (x / 1048576 * 10 | round / 10 | tostring) else "n/a" end;
    def cell(p; q; l): mib(rb(p; l)) + "(" + f(amp(p; l)) + ")", mib(rb(q; l)) + "(" + f(amp(q; l)) + ")",
                       pct(rb(p; l); rb(q; l));
    .sweep as $ps | $m[0].sweep[] as $q
    | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p
    | if $p == null then "\($q.cache_size_bytes / 1048576 | . * 10 | round / 10)\tno predicted point of this cache"
      else [($q.cache_size_bytes / 1048576 * 10 | round / 10 | tostring), ($q.cache_ratio * 100 | round / 100 | tostring),
            cell($p; $q; "detail"), cell($p; $q; "folded"), f(sp($p)), f(sp($q)), fac(sp($p); sp($q))] | @tsv end' \
    "$1" |
    while IFS=$'\t' read -r c r a b e d g h s1 s2 x; do
      printf '%9s %5s  %17s %17s %6s  %17s %17s %6s  %5s %5s %4s\n' "$c" "$r" "$a" "$b" "$e" "$d" "$g" "$h" "$s1" "$s2" "$x"
    done
  # the knee: the cache where the detail's read amplification falls through 2, log-log interpolated
  # between the two points around it (the same points on both curves); the speedup at the reference point
  jq -r --slurpfile m "$2" "$jq_shared"'
    def mib(x): (x / 1048576 * 10 | round / 10 | tostring);
    (knee(.sweep)) as $kp | (knee($m[0].sweep)) as $km
    | (if $kp and $km then "knee (detail read amp through 2): predicted \(mib($kp)) MiB, measured \(mib($km)) MiB, error \((($kp - $km) / $km * 100) | round)%"
       else "knee (detail read amp through 2): predicted \(if $kp then mib($kp) + " MiB" else "none in range" end), measured \(if $km then mib($km) + " MiB" else "none in range" end)" end),
      ((.sweep[.sweep_reference // 0]) as $p | ($m[0].sweep[$m[0].sweep_reference // 0]) as $q
       | if sp($p) and sp($q) then "speedup at the reference point (\($q.cache_ratio * 100 | round / 100)): predicted \(sp($p) * 100 | round / 100), measured \(sp($q) * 100 | round / 100), error \(((sp($p) - sp($q)) / sp($q) * 100) | round)%"
         else "speedup at the reference point: n/a" end)' "$1"
}

# speed_table PRED MEAS -- per cache the speedup predicted / measured and its error x: the load times', the
# CPU's (predicted detail_cpu_s / folded_cpu_s, measured cpu.process_s), the random order's (measured with
# --random); the most cores other processes kept busy in the point's measured runs; the worst x of each
speed_table() {
  local defs='
    def ratio(a; b): if a and b and b > 0 then a / b else null end;
    def f(x): if x then (x * 100 | round / 100 | tostring) else "n/a" end;
    def lay(q; w; l): [(q.workloads // [])[] | select(.workload == w) | .layouts[] | select(.layout == l)] | first;
    def rows: .sweep as $ps | $m[0].sweep[] as $q
      | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p | select($p != null)
      | { c: ($q.cache_size_bytes / 1048576 * 10 | round / 10), r: ($q.cache_ratio * 100 | round / 100),
          ep: $p.speed.key.speedup,
          em: ratio($q.summary.detail.elapsed_s.median; $q.summary.folded.elapsed_s.median),
          cp: ratio($p.speed.key.detail_cpu_s; $p.speed.key.folded_cpu_s),
          cm: ratio($q.summary.detail.cpu_process_s.median; $q.summary.folded.cpu_process_s.median),
          rp: $p.speed.random.speedup,
          rm: ratio(lay($q; "load_random"; "detail").elapsed_s; lay($q; "load_random"; "folded").elapsed_s),
          rcp: ratio($p.speed.random.detail_cpu_s; $p.speed.random.folded_cpu_s),
          rcm: ratio(lay($q; "load_random"; "detail").cpu_s; lay($q; "load_random"; "folded").cpu_s),
          bg: ([$q.runs[]?.background.other_cores // empty] | max) }
      | . + { ex: ratio(.ep; .em), cx: ratio(.cp; .cm), rx: ratio(.rp; .rm), rcx: ratio(.rcp; .rcm) };
    def worst(k): [.[] | .[k] // empty | if . < 1 then 1 / . else . end] | max;'
  echo "speedup predicted / measured, x = predicted / measured: of the load times, of the CPU, of the random order;"
  echo "others: the most cores other processes kept busy during the point's measured runs"
  jq -r --slurpfile m "$2" "$defs"'
    (["cache_MiB", "ratio", "time:pred", "meas", "x", "cpu:pred", "meas", "x", "random:pred", "meas", "x",
      "random_cpu:pred", "meas", "x", "others"] | @tsv),
    (rows | [.c, .r, f(.ep), f(.em), f(.ex), f(.cp), f(.cm), f(.cx), f(.rp), f(.rm), f(.rx), f(.rcp), f(.rcm), f(.rcx),
             f(.bg)] | map(tostring) | @tsv)' "$1" | column -t -s $'\t'
  jq -r --slurpfile m "$2" "$defs"'
    [rows] as $r | "speedup worst factor off (either way): load time \(f($r | worst("ex"))), CPU \(f($r | worst("cx"))), random order \(f($r | worst("rx"))), its CPU \(f($r | worst("rcx")))"' "$1"
}

# wl_table PRED MEAS -- the range and aggregate workloads' MiB read predicted / measured (error) per cache
# and layout
wl_table() {
  echo "workloads: MiB read predicted / measured (error)"
  jq -r --slurpfile m "$2" '
    def mib(x): if x then (x / 1048576 * 100 | round / 100 | tostring) else "n/a" end;
    def pct(a; b): if a and b and b > 0 then ((a - b) / b * 100 | round | tostring) + "%" else "n/a" end;
    def lb(q; k; w; l): [(q[k] // [])[] | select(.workload == w) | (.layouts // [])[] | select(.layout == l)
                         | .engine_read_bytes] | first;
    ([.sweep[0].workload_reads[0].layouts[]?.layout]) as $names
    | ("cache_MiB\tworkload\t" + ($names | join("\t"))),
    (.sweep as $ps | $m[0].sweep[] as $q
     | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p | select($p != null)
     | ("range", "aggregate") as $w
     | [mib($q.cache_size_bytes), $w]
       + [$names[] as $l | lb($p; "workload_reads"; $w; $l) as $a | lb($q; "workloads"; $w; $l) as $b
          | mib($a) + "/" + mib($b) + " (" + pct($a; $b) + ")"]
     | join("\t"))' "$1" | column -t -s $'\t'
}

# spread_table PRED MEAS -- with more than one measured run a point: per cache the detail layout's runs'
# MiB read, fewest to most (the engine's own spread), their factor, and the predicted figure's place: inside
# the runs' range, within 25% of its nearer end, or its error to that end; then how many points lie within
# 25% of the range against within 25% of the median
spread_table() {
  echo "detail: the measured runs' MiB read, fewest to most, against the predicted figure"
  jq -r --slurpfile m "$2" '
    def mib(x): (x / 1048576 * 10 | round / 10 | tostring);
    def near(p; lo; hi): if p >= lo and p <= hi then "inside"
      elif p < lo then (if p >= 0.75 * lo then "within 25%" else ((p - lo) / lo * 100 | round | tostring) + "%" end)
      else (if p <= 1.25 * hi then "within 25%" else ((p - hi) / hi * 100 | round | tostring) + "%" end) end;
    [.sweep as $ps | $m[0].sweep[] as $q
     | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p | select($p != null)
     | $q.summary.detail.block_read_bytes as $b | select($b.min != null and $b.max != null and $b.min > 0)
     | ($p.summary.detail.block_read_bytes.median) as $pb
     | { c: mib($q.cache_size_bytes), lo: $b.min, hi: $b.max, med: $b.median, p: $pb,
         where: near($pb; $b.min; $b.max),
         med25: ((($pb - $b.median) / $b.median) | fabs <= 0.25) }] as $r
    | ($r[] | "  \(.c) MiB: runs \(mib(.lo)) to \(mib(.hi)) (\(.hi / .lo * 100 | round / 100)x), median \(mib(.med)); predicted \(mib(.p)): \(.where)"),
      "  predicted within 25% of the runs'"'"' range at \([$r[] | select(.where == "inside" or .where == "within 25%")] | length) of \($r | length) points, of their median at \([$r[] | select(.med25)] | length)"' "$1"
}

# band_table PRED MEAS -- where the prediction states a layout's band (read_amplification_held: the detail
# layout of a load not in order, the folded layout of one in order), per cache the measured MiB read
# against the band [figure, held edge] and its errors, and on the detail lines the measured speedup against
# the speedup's band [speedup_low or the speedup, speedup_held or the speedup] (x = predicted / measured)
band_table() {
  jq -r --slurpfile m "$2" '
    def mib(x): (x / 1048576 * 10 | round / 10 | tostring);
    def pct(a; b): ((a - b) / b * 100 | round | tostring) + "%";
    def r2(x): (x * 100 | round / 100);
    . as $pred | ("detail", "folded") as $ly
    | [$pred.sweep[] | select(.[$ly].read_amplification_held)] as $ps | select($ps | length > 0)
    | "\($ly) band (figure to its held \"no keep\" edge) against the measured MiB read:",
      ($m[0].sweep[] as $q | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p
       | select($p != null) | ($q.summary[$ly].block_read_bytes.median) as $b
       | ($p.summary[$ly].block_read_bytes.median) as $lo
       | ($lo / $p[$ly].read_amplification * $p[$ly].read_amplification_held) as $hi
       | ($q.summary.detail.elapsed_s.median / $q.summary.folded.elapsed_s.median) as $ms
       | ($p.speed.key.speedup // null) as $sp
       | (if $sp then ($p.speed.key.speedup_low // $sp) else null end) as $sl
       | (if $sp then ($p.speed.key.speedup_held // $sp) else null end) as $sh
       | "  \(mib($q.cache_size_bytes)) MiB: measured \(mib($b)), band \(mib($lo)) (\(pct($lo; $b))) to \(mib($hi)) (\(pct($hi; $b)))\(if $b >= $lo and $b <= $hi then ", inside" else "" end)\(if $ly == "detail" and $sl and $sh then "; speedup measured \(r2($ms)), band \(r2($sl)) (\(r2($sl / $ms))x) to \(r2($sh)) (\(r2($sh / $ms))x)\(if $ms >= $sl and $ms <= $sh then ", inside" else "" end)" else "" end)")' "$1"
}

# cands_table PRED MEAS -- each candidate's MiB read predicted / measured (error) per cache
cands_table() {
  jq -r --slurpfile m "$2" '
    def mib(x): if x then (x / 1048576 * 10 | round / 10 | tostring) else "n/a" end;
    def pct(a; b): if a and b and b > 0 then ((a - b) / b * 100 | round | tostring) + "%" else "n/a" end;
    ([.predicted_candidates[].name]) as $names
    | "candidates: MiB read predicted / measured (error)",
      ("cache MiB\t" + ($names | join("\t"))),
      (.sweep as $ps | $m[0].sweep[] as $q
       | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p
       | select($p != null)
       | ([mib($q.cache_size_bytes)] + [$names[] as $n
            | ($p.candidates[$n].block_read_bytes) as $a | ($q.summary[$n].block_read_bytes.median // null) as $b
            | mib($a) + "/" + mib($b) + " (" + pct($a; $b) + ")"]) | join("\t"))' "$1" | column -t -s $'\t'
}

# targets_table PRED MEAS SHAPE EDGES -- the issue's targets counted on this shape's points, one line, and
# a row of the same counts appended to $tally for the summary: the detail layout's bytes within 25% where it
# rereads (measured read amplification over 1.5), or where the predicted curve is steep, the cache at which
# it reaches the measured bytes within 15% of the measured cache (EDGES: the prediction at 0.85 and 1.15
# times each measured cache; steep: over those three caches the predicted bytes span more than the 25%
# band's width, 1.25 / 0.75, so that the cache's rule is the looser one only there; reached: the measured
# bytes lie between the fewest and the most of the three, the curve taken as continuous between them);
# "fits" (1.5 or less) predicted where it fits; the folded layout's bytes within 25% at every point; the
# speedup within a factor 1.5, 2 at the knee (the two points around the measured detail curve's fall
# through 2); the knee's cache within 15%. One figure against the runs' median: the bands and the runs'
# spread are in the tables above.
targets_table() {
  jq -r --slurpfile m "$2" --slurpfile e "$4" --arg shape "$3" "$jq_shared"'
    def within(a; b; t): a != null and b != null and b > 0 and ((a - b) / b | fabs) <= t;
    def at(c): [$e[0].sweep[] | select(.cache_size_bytes == c)] | first;
    .sweep as $ps | $m[0].sweep as $qs
    | [through2($qs)[] as $i | $qs[$i].cache_size_bytes, $qs[$i + 1].cache_size_bytes] as $kneepts
    | [$qs[] as $q | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p | select($p != null)
       | $q.cache_size_bytes as $c
       | [rb(at(($c * 85 / 100) | floor); "detail"), rb($p; "detail"), rb(at(($c * 115 + 99) / 100 | floor); "detail")]
         as $w
       | rb($q; "detail") as $mb
       | (($w | map(select(. != null)) | length) == 3 and ($w | min) > 0) as $have
       | { rereads: (($q.detail.read_amplification // 0) > 1.5),
           detail: within(rb($p; "detail"); $mb; 0.25),
           steep: ($have and (($w | max) / ($w | min)) > (1.25 / 0.75)),
           reached: ($have and $mb != null and $mb >= ($w | min) and $mb <= ($w | max)),
           fits: (($p.detail.read_amplification // 99) <= 1.5),
           folded: within(rb($p; "folded"); rb($q; "folded"); 0.25),
           speed: (if sp($p) and sp($q) then ([sp($p) / sp($q), sp($q) / sp($p)] | max)
                     <= (if ([$kneepts[] | select(. == $q.cache_size_bytes)] | length) > 0 then 2 else 1.5 end)
                   else null end) }] as $r
    | (knee($ps)) as $kp | (knee($qs)) as $km
    | ($r | map(select(.rereads)) | [length, (map(select(.detail)) | length),
                                     (map(select(.detail or (.steep and .reached))) | length),
                                     (map(select(.steep)) | length)]) as $d
    | ($r | map(select(.rereads | not)) | [length, (map(select(.fits)) | length)]) as $f
    | ($r | [length, (map(select(.folded)) | length)]) as $g
    | ($r | map(select(.speed != null)) | [length, (map(select(.speed)) | length)]) as $v
    | (if $kp and $km then (($kp - $km) / $km) else null end) as $ke
    | "targets (one figure against the median): detail within 25% where it rereads \($d[1]) of \($d[0]), or within 15% in cache where the predicted curve is steep (\($d[3]) steep) \($d[2]) of \($d[0]); fits where it fits \($f[1]) of \($f[0]); folded within 25% \($g[1]) of \($g[0]); speedup within 1.5 (2 at the knee) \($v[1]) of \($v[0]); knee within 15%: \(if $ke == null then "n/a (no knee on both curves)" elif ($ke | fabs) <= 0.15 then "yes" else "no" end)\(if $ke == null then "" else " (" + (($ke * 100) | round | tostring) + "%)" end)",
      ([$shape, $d[1], $d[0], $f[1], $f[0], $g[1], $g[0], $v[1], $v[0], (if $ke == null then "n/a" elif ($ke | fabs) <= 0.15 then "yes" else "no" end), $d[2]] | map(tostring) | join("\t") | "TALLY\t" + .)' "$1" |
    while IFS= read -r line; do
      case $line in
        TALLY*) printf '%s\n' "${line#TALLY	}" >>"$tally" ;;
        *) printf '%s\n' "$line" ;;
      esac
    done
}

tally=$(mktemp "${TMPDIR:-/tmp}/bench-predict-tally.XXXXXX")
for s in "${shape_list[@]}"; do
  work=$(mktemp -d "${TMPDIR:-/tmp}/bench-predict.XXXXXX")
  works+=("$work")
  [ "$keep" = 1 ] && echo "work directory ($s): $work"
  uri=wiredtiger:$work/data
  read -r -a sargs <<<"$(shape_args "$s")"
  echo
  echo "== shape $s: billgen ${sargs[*]} ${extra[*]:-}"
  "$bin/billgen" generate --uri "$uri" --dst bill_detail --seed 7 --drop --progress never -q "${sargs[@]}" \
    ${extra[@]+"${extra[@]}"} --json "$work/gen.json" || die "billgen failed ($s)"
  # the master key as billgen made it (--key or a preset after --): fold-details folds by it
  key=$(jq -r '.params.key // "bill_id"' "$work/gen.json")
  common=(--uri "$uri" --parallel "$parallel" --progress never -q)
  if [ -n "$keys_limit" ]; then common+=(--keys-limit "$keys_limit"); fi
  fd=(--uri "$uri" --src bill_detail --key "$key" --progress never -q)
  "$bin/fold-details" "${fd[@]}" --dst detail_coll || die "fold-details failed ($s)"
  layouts=()
  if [ "$candidates" = 1 ]; then
    "$bin/fold-details" "${fd[@]}" --dst detail_sorted --shape sorted || die "fold-details sorted failed ($s)"
    "$bin/fold-details" "${fd[@]}" --dst detail_clustered --shape clustered || die "fold-details clustered failed ($s)"
    "$bin/fold-details" "${fd[@]}" --dst detail_b100 --bucket-rows 100 || die "fold-details buckets failed ($s)"
    "$bin/fold-details" "${fd[@]}" --dst detail_zstd --block-compressor zstd || die "fold-details zstd failed ($s)"
    layouts=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded --layout sorted=detail_sorted:rows
             --layout clustered=detail_clustered:rows --layout buckets=detail_b100:buckets
             --layout folded-zstd=detail_zstd:folded)
  fi
  puri=$uri
  mwl=(${workloads[@]+"${workloads[@]}"})
  if [ "$writes" = 1 ]; then
    # the prediction reads the data as it was: the measured appends change it
    cp -a "$work/data" "$work/data-pred"
    puri=wiredtiger:$work/data-pred
    if [ ${#mwl[@]} -gt 0 ]; then mwl[1]=${mwl[1]},append,row; else mwl=(--workload load,append,row --create-workload-indexes); fi
    mwl+=("${wargs[@]}")
  fi
  "$bin/scancmp" "${common[@]}" ${layouts[@]+"${layouts[@]}"} --cache-ratios "$ratios" --cold --direct-io \
    --runs "$runs" ${random[@]+"${random[@]}"} ${mwl[@]+"${mwl[@]}"} --out "$work/meas.json" >/dev/null || die "the measured sweep failed ($s)"
  # the prediction at the measured sweep's caches exactly (its ratios divide by its own detail size, the
  # prediction's by the probe's: one ratio would be two caches); it reads the detail collection alone
  sizes=$(jq -r '[.sweep[].cache_size_bytes] | map(tostring) | join(",")' "$work/meas.json")
  pwl=(${pworkloads[@]+"${pworkloads[@]}"})
  if [ "$writes" = 1 ]; then pwl+=("${wargs[@]}" --bucket-rows 100); fi
  pcommon=(--uri "$puri" "${common[@]:2}" --key "$key")
  "$bin/scancmp" "${pcommon[@]}" --cache-sizes "$sizes" --predict ${calibrate[@]+"${calibrate[@]}"} \
    ${pwl[@]+"${pwl[@]}"} --direct-io --out "$work/pred.json" \
    >/dev/null || die "scancmp --predict failed ($s)"
  # the same prediction at 0.85 and 1.15 times each measured cache (the integers targets_table computes; none
  # under the engine's 1 MiB, whose point then has no window): where the predicted curve is steep, whether it
  # reaches the measured bytes within 15% of the cache
  edges=$(jq -r '[.sweep[].cache_size_bytes | ((. * 85 / 100) | floor), ((. * 115 + 99) / 100 | floor)]
                 | map(select(. >= 1048576)) | unique | map(tostring) | join(",")' "$work/meas.json")
  "$bin/scancmp" "${pcommon[@]}" --cache-sizes "$edges" --predict ${calibrate[@]+"${calibrate[@]}"} \
    --direct-io --out "$work/pred-edges.json" >/dev/null || die "scancmp --predict at the edges failed ($s)"
  jq -r '"probe: \(.prediction.probe.elapsed_s * 1000 | round) ms, index walk \(((.prediction.probe.index_walk_read_bytes // 0) / 1048576 * 10 | round) / 10) MiB read, \(.prediction.probe.documents_fetched) documents fetched; timed sample \(.prediction.timing.documents // 0) documents; cost: \(.prediction.cost.source // .prediction.cost.not_measured)"' "$work/pred.json"
  table "$work/pred.json" "$work/meas.json"
  speed_table "$work/pred.json" "$work/meas.json"
  if [ "$runs" -gt 1 ]; then spread_table "$work/pred.json" "$work/meas.json"; fi
  band_table "$work/pred.json" "$work/meas.json"
  targets_table "$work/pred.json" "$work/meas.json" "$s" "$work/pred-edges.json"
  if [ "$candidates" = 1 ]; then cands_table "$work/pred.json" "$work/meas.json"; fi
  if [ ${#workloads[@]} -gt 0 ]; then wl_table "$work/pred.json" "$work/meas.json"; fi
  if [ "$writes" = 1 ]; then writes_table "$work/pred.json" "$work/meas.json"; fi
  for f in ${sample_list[@]+"${sample_list[@]}"}; do
    "$bin/scancmp" "${pcommon[@]}" --cache-sizes "$sizes" --predict --sample "$f" ${calibrate[@]+"${calibrate[@]}"} \
      ${pwl[@]+"${pwl[@]}"} --direct-io --out "$work/pred-$f.json" \
      >/dev/null || die "scancmp --predict --sample $f failed ($s)"
    sample_table "$f" "$work/pred-$f.json" "$work/pred.json" "$work/meas.json"
  done
done
echo
echo "targets per shape (the issue's, one figure against the runs' median; see each shape's line):"
{
  printf 'shape\tdetail<=25%%\tor_cache<=15%%\tfits\tfolded<=25%%\tspeedup\tknee<=15%%\n'
  awk -F'\t' '{ printf "%s\t%s/%s\t%s/%s\t%s/%s\t%s/%s\t%s/%s\t%s\n", $1, $2, $3, $11, $3, $4, $5, $6, $7, $8, $9, $10
                d += $2; dn += $3; dc += $11; f += $4; fn += $5; g += $6; gn += $7; v += $8; vn += $9; k += ($10 == "yes"); kn += ($10 != "n/a") }
       END { printf "all\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d\t%d/%d\n", d, dn, dc, dn, f, fn, g, gn, v, vn, k, kn }' "$tally"
} | column -t -s $'\t'
rm -f "$tally"
echo
echo "MiB read: the engine's bytes read from disk into its cache (median of the runs), read amplification in"
echo "brackets; err = (predicted - measured) / measured of the bytes read, at the same cache size;"
echo "x = predicted speedup / measured speedup"
