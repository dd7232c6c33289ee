#!/usr/bin/env bash
# bench-predict.sh -- the prediction (scancmp --predict) against the real cold sweep, on the same
# data, in one run: billgen generate (the shape you give) + fold-details, then
#   1. scancmp --cold --direct-io over the cache ratios, keys and workers: the measured sweep;
#   2. scancmp --predict at that sweep's cache sizes exactly (--cache-sizes): the probe of the detail
#      collection alone (its cost figures give the load times; --calibrate adds the timed sample), its cost;
# and prints per shape and cache the predicted and measured engine bytes read (read amplification beside)
# of both layouts with the error of the bytes, and the load times' speedup (the factor predicted /
# measured). Prints figures; asserts nothing (the test with a band is
# tests/scan/test_predict_embedded.c).
#
# Usage: scripts/bench-predict.sh [--build DIR] [--bills N] [--rows MEAN] [--ratios LIST] [--parallel N]
#                                 [--keys-limit N] [--load-order key|random] [--calibrate] [--keep]
#                                 [-- BILLGEN-OPTIONS...]
#   --bills N        masters (default 38000), --rows MEAN rows per master (default 130): 4.9 M rows
#   --ratios LIST    cache ratios (default 0.1,0.3,1,4)
#   --parallel N     workers (default 4, as the original experiment)
#   --keys-limit N   masters loaded (default: all)
#   --load-order O   the measured sweep's load order (default key); the predicted speedup is the
#                    prediction's for that order (sweep[].speed.O)
#   --calibrate      the prediction with --calibrate (a timed sample refines the first page read)
#   --keep           keep the work directory (printed)
#   after --: billgen generate's shape options, e.g. -- --open-bills 60, -- --dist zipf, -- --order clustered
# Needs jq.
set -euo pipefail

me=bench-predict.sh
here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build
bills=38000
rows=130
ratios=0.1,0.3,1,4
parallel=4
keys_limit=
keep=0
order=key
calibrate=()
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
    --load-order) need "$@"; order=$2; shift 2 ;;
    --calibrate) calibrate=(--calibrate); shift ;;
    --keep) keep=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
shape=("$@")
command -v jq >/dev/null || die "jq is needed to read the results files (apt-get install jq)"

cmake --build "$build" --target scancmp billgen fold-details >/dev/null || die "build failed in $build"
bin=$build/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-predict.XXXXXX")
if [ "$keep" = 0 ]; then trap 'rm -rf "$work"' EXIT; else echo "work directory: $work"; fi
uri=wiredtiger:$work/data

echo "data: $bills bills x $rows rows ${shape[*]:-(default shape)}" >&2
"$bin/billgen" generate --uri "$uri" --dst bill_detail --bills "$bills" --mean-rows "$rows" --seed 7 \
  --drop --progress never -q ${shape[@]+"${shape[@]}"} || die "billgen failed"
common=(--uri "$uri" --parallel "$parallel" --progress never -q)
if [ -n "$keys_limit" ]; then common+=(--keys-limit "$keys_limit"); fi

"$bin/fold-details" --uri "$uri" --src bill_detail --dst detail_coll --progress never -q || die "fold-details failed"
case "$order" in key|random) ;; *) echo "$me: --load-order key or random" >&2; exit 2 ;; esac
"$bin/scancmp" "${common[@]}" --cache-ratios "$ratios" --cold --direct-io --load-order "$order" --out "$work/meas.json" >/dev/null || die "the measured sweep failed"
# the prediction at the measured sweep's caches exactly (its ratios divide by its own detail size, the
# prediction's by the probe's: one ratio would be two caches); it reads the detail collection alone
sizes=$(jq -r '[.sweep[].cache_size_bytes] | map(tostring) | join(",")' "$work/meas.json")
"$bin/scancmp" "${common[@]}" --cache-sizes "$sizes" --predict ${calibrate[@]+"${calibrate[@]}"} --direct-io --out "$work/pred.json" >/dev/null || die "scancmp --predict failed"

jq -r '"probe: \(.prediction.probe.elapsed_s * 1000 | round) ms, index walk \(((.prediction.probe.index_walk_read_bytes // 0) / 1048576 * 10 | round) / 10) MiB read, \(.prediction.probe.documents_fetched) documents fetched; timed sample \(.prediction.timing.documents // 0) documents; cost: \(.prediction.cost.source // .prediction.cost.not_measured)"' "$work/pred.json"
echo "load order: $order"
printf '%9s %5s  %36s  %36s  %16s\n' cache ratio "detail: MiB read (read amp)" "folded: MiB read (read amp)" "speedup"
printf '%9s %5s  %11s %11s %6s %5s  %11s %11s %6s %5s  %5s %5s %4s\n' MiB "" pred meas err "" pred meas err "" pred meas x
jq -r --arg order "$order" --slurpfile m "$work/meas.json" '
  def rb(p; l): p.summary[l].block_read_bytes.median // null;
  def amp(p; l): p[l].read_amplification;
  def sp(p): (p.summary.detail.elapsed_s.median // null) as $d | (p.summary.folded.elapsed_s.median // null) as $f
             | if $d and $f and $f > 0 then $d / $f else null end;
  def psp(p): p.speed[$order].speedup // sp(p);
  def pct(a; b): if a and b and b > 0 then ((a - b) / b * 100 | round | tostring) + "%" else "n/a" end;
  def fac(a; b): if a and b and b > 0 then (a / b * 100 | round / 100 | tostring) else "n/a" end;
  def f(x): if x then (x * 100 | round / 100 | tostring) else "n/a" end;
  def mib(x): if x then (x / 1048576 * 10 | round / 10 | tostring) else "n/a" end;
  def prb(p; l): p.speed[$order][l + "_read_bytes"] // rb(p; l);
  def cell(p; q; l): mib(prb(p; l)) + "(" + f(amp(p; l)) + ")", mib(rb(q; l)) + "(" + f(amp(q; l)) + ")",
                     pct(prb(p; l); rb(q; l));
  .sweep as $ps | $m[0].sweep[] as $q
  | ([$ps[] | select(.cache_size_bytes == $q.cache_size_bytes)] | first) as $p
  | if $p == null then "\($q.cache_size_bytes / 1048576 | . * 10 | round / 10)\tno predicted point of this cache"
    else [($q.cache_size_bytes / 1048576 * 10 | round / 10 | tostring), ($q.cache_ratio * 100 | round / 100 | tostring),
          cell($p; $q; "detail"), cell($p; $q; "folded"), f(psp($p)), f(sp($q)), fac(psp($p); sp($q))] | @tsv end' \
  "$work/pred.json" |
  while IFS=$'\t' read -r c r a b e d g h s1 s2 x; do
    printf '%9s %5s  %17s %17s %6s  %17s %17s %6s  %5s %5s %4s\n' "$c" "$r" "$a" "$b" "$e" "$d" "$g" "$h" "$s1" "$s2" "$x"
  done
echo "MiB read: the engine's bytes read from disk into its cache (median of the runs), read amplification in"
echo "brackets (the predicted one key order's); err = (predicted - measured) / measured of the bytes read"
echo "(predicted in the measured load order), at the same cache size;"
echo "x = predicted speedup / measured speedup"
