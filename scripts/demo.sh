#!/usr/bin/env bash
# demo.sh -- the whole layoutlab experiment in one command: set up, build, generate bill details,
# predict the curve from them alone (scancmp --predict), fold them, copy the same rows into a clustered
# collection (the cheaper change: a master's rows together, the documents unchanged), load the three
# layouts cold side by side at several engine cache sizes (the regime curve), and write the Markdown
# report -- the recommendation with its costs first -- with its charts and the prediction beside it.
#
# Usage: scripts/demo.sh [options]
#   --bills N            bills (masters) to generate (default 1200; --quick: 300)
#   --mean-rows N        mean detail rows per bill (default 130)
#   --cache-ratios LIST  the sweep: one cold comparison per engine cache, given as fractions of the
#                        detail layout's on-disk size (default 0.1,1,4; --quick: 0.5,4). Below 1
#                        the cache rereads the detail pages; at 4 even their uncompressed form fits.
#                        The size is what the prediction's probe finds (data and indexes, before the
#                        workloads' indexes): the measured sweep runs at the prediction's caches
#   --cache-size SIZE    one point instead of a sweep: this embedded WiredTiger cache (e.g. 64MB)
#   --server-cache-sweep with a mongodb:// URI: sweep the server's own cache (setParameter
#                        wiredTigerEngineRuntimeConfig); without it a server gets one point
#   --uri URI            store to use (default: wiredtiger:OUT/layoutlab-data, the embedded store);
#                        a mongodb:// URI runs the same experiment on a real server, in its own database
#   --db NAME            with a mongodb:// URI: the database the demo writes to (default layoutlab_demo,
#                        whatever database the URI names). A database holding a collection layoutlab did
#                        not write is refused before anything is written (exit 2): choose another
#   --restart-cmd CMD    how to restart that server between layouts (e.g. 'systemctl restart mongod')
#   --dbpath DIR         the server's data directory, when it runs on this machine (device metrics)
#   --out DIR            where run.json, report.md and the charts go (default: out)
#   --runs N             repetitions per point (default 1; 3 with --cache-size); a sweep's reference
#                        point (the report's ledger) is measured 3 times, or N when larger (not --quick)
#   --parallel N         loading workers (default 4; --quick: 2)
#   --interval DUR       sampling period of the charts' time series (default 250ms; --quick: 100ms):
#                        the folded load can take well under a second
#   --calibrate          also measure the disk's own sequential and random read limits
#   --candidates         six candidates instead of three. The default three: one document per row
#                        (detail), the same rows in a clustered collection keyed by {bill_id, id} on the
#                        embedded store (clustered: fold-details --shape clustered; on a server the same
#                        rows in key order instead, sorted: --shape sorted) and folded. --candidates adds
#                        the same rows in key order (sorted), buckets of at most 100 rows (fold-details
#                        --bucket-rows 100) and folded with the zstd block compressor (--block-compressor
#                        zstd); each verified, all loaded cold in one order-rotated run (scancmp --layout,
#                        ratios against detail); the report takes the speedup apart into locality and
#                        fewer documents
#   --no-direct-io       embedded store: let the OS page cache serve re-reads (default: scancmp
#                        --direct-io, so every engine cache miss is a disk read, as on a server whose
#                        RAM is far smaller than its data; this machine's RAM would otherwise hold
#                        the whole dataset after the first touch and hide the layouts' IO difference)
#   --workload LIST      the workloads to measure on every layout (default load,row,range,aggregate,
#                        append,update: each bill fetched whole, random charge lines, time windows across
#                        all bills, a total per department, new charge lines for a fortieth more rows per run and
#                        single-row corrections), each cold, their ledger first in the report; the indexes
#                        each needs are created (scancmp --create-workload-indexes); as many random rows
#                        as bills (at most 10,000). The writes run once, at the sweep's reference point,
#                        after the other points. --workload load: the original experiment alone.
#                        The load is measured in both orders at every point (scancmp --load-order both):
#                        key order (the headline) and random order (the ledger's "load (random order)")
#   --mix SPEC           then the user's mix: one interleaved stream of those operations in these
#                        proportions on every layout measured (so that they keep the same data), cold, at the reference point's cache, into
#                        mix.json and report-mix.md (measured, with the estimate from separate runs beside
#                        it); default load=5,row=60,range=5,append=25,update=5 on the embedded store, none
#                        on a server (give one to run it there); none: no mix
#   --mix-ops N          operations in the mix (default 10000; --quick: 2000)
#   --quick              a reduced size for the test suite (finishes in about a minute)
#   --bin DIR            use the tools already built in DIR (skips the build; setup only checks packages)
#   -h, --help           this help
#
# Examples:
#   scripts/demo.sh                              # ~156,000 rows, 3 layouts, 3 cache sizes
#   scripts/demo.sh --cache-ratios 0.05,0.2,1,2,4  # more points on the curve
#   scripts/demo.sh --cache-size 64MB --runs 3   # one point, as before the sweep
#   scripts/demo.sh --bills 20000 --out big      # a bigger dataset
#   scripts/demo.sh --candidates                 # detail, sorted, clustered, folded, buckets of 100, zstd
#   scripts/demo.sh --workload load --mix none   # the load alone, as before the workloads
#   scripts/demo.sh --mix row=80,append=20       # a mix of single-row reads and appends
#   sudo scripts/demo.sh --uri mongodb://localhost/ --restart-cmd 'systemctl restart mongod' \
#        --dbpath /var/lib/mongodb               # a real mongod on this machine, database layoutlab_demo
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bills=1200
mean_rows=130
cache_size=
cache_ratios=
server_cache_sweep=0
uri=
db=layoutlab_demo
restart_cmd=
dbpath=
out=out
runs=1
parallel=4
interval=
calibrate=0
candidates=0
direct_io=1
quick=0
workload=load,row,range,aggregate,append,update
mix=
mix_ops=
bin=
bills_set=0 cache_set=0 runs_set=0 parallel_set=0

usage() { sed -n '2,/^set -euo pipefail/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() { [ $# -ge 2 ] || { echo "demo.sh: $1 needs a value (try --help)" >&2; exit 2; }; }

while [ $# -gt 0 ]; do
  case "$1" in
    --bills) need "$@"; bills=$2; bills_set=1; shift 2 ;;
    --mean-rows) need "$@"; mean_rows=$2; shift 2 ;;
    --cache-size) need "$@"; cache_size=$2; cache_set=1; shift 2 ;;
    --cache-ratios) need "$@"; cache_ratios=$2; shift 2 ;;
    --server-cache-sweep) server_cache_sweep=1; shift ;;
    --uri) need "$@"; uri=$2; shift 2 ;;
    --db) need "$@"; db=$2; shift 2 ;;
    --restart-cmd) need "$@"; restart_cmd=$2; shift 2 ;;
    --dbpath) need "$@"; dbpath=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --runs) need "$@"; runs=$2; runs_set=1; shift 2 ;;
    --no-direct-io) direct_io=0; shift ;;
    --parallel) need "$@"; parallel=$2; parallel_set=1; shift 2 ;;
    --interval) need "$@"; interval=$2; shift 2 ;;
    --calibrate) calibrate=1; shift ;;
    --candidates) candidates=1; shift ;;
    --quick) quick=1; shift ;;
    --workload) need "$@"; workload=$2; shift 2 ;;
    --mix) need "$@"; mix=$2; shift 2 ;;
    --mix-ops) need "$@"; mix_ops=$2; shift 2 ;;
    --bin) need "$@"; bin=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "demo.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
for v in bills mean_rows runs parallel; do
  if ! [[ ${!v} =~ ^[1-9][0-9]*$ ]]; then
    echo "demo.sh: --${v//_/-} must be a positive integer, not '${!v}'" >&2; exit 2
  fi
done
if [ $cache_set -eq 1 ] && [ -n "$cache_ratios" ]; then
  echo "demo.sh: --cache-size (one point) and --cache-ratios (a sweep): give one of them" >&2; exit 2
fi
if [ $quick -eq 1 ]; then
  [ $bills_set -eq 1 ] || bills=300
  [ $runs_set -eq 1 ] || runs=1
  [ $parallel_set -eq 1 ] || parallel=2
  [ -n "$interval" ] || interval=100ms
  # the reference point (the one nearest ratio 1, which the report's tables show) is the rereading one:
  # 0.5 stays nearer 1 than 4 after the measured sweep's ratios shrink by the workloads' indexes (0.84x)
  [ -n "$cache_ratios" ] || cache_ratios=0.5,4
  [ -n "$mix_ops" ] || mix_ops=2000
fi
[ -n "$mix_ops" ] || mix_ops=10000
if ! [[ $mix_ops =~ ^[1-9][0-9]*$ ]]; then
  echo "demo.sh: --mix-ops must be a positive integer, not '$mix_ops'" >&2; exit 2
fi
[ -n "$cache_ratios" ] || cache_ratios=0.1,1,4
# one point: --cache-size, or a server without --server-cache-sweep
sweep=1
[ $cache_set -eq 1 ] && sweep=0
case "$uri" in mongodb://*|mongodb+srv://*) [ $server_cache_sweep -eq 1 ] || sweep=0 ;; esac
if [ $sweep -eq 0 ]; then
  [ $runs_set -eq 1 ] || runs=3
  [ -n "$cache_size" ] || cache_size=64MB
fi
[ -n "$interval" ] || interval=250ms

step() { printf '\n== %s\n' "$*" >&2; }

# 1. packages and build
if [ -n "$bin" ]; then
  step "checking packages (using the tools in $bin)"
  "$here/scripts/setup.sh" --no-build
else
  step "setting up and building"
  "$here/scripts/setup.sh"
  bin=$here/build/bin
fi
bin=$(cd "$bin" && pwd)
for t in billgen fold-details scancmp layout-report; do
  [ -x "$bin/$t" ] || { echo "demo.sh: $bin/$t is missing: the build did not produce it" >&2; exit 1; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
store=()
if [ -z "$uri" ]; then
  # the collections are replaced by billgen --drop and fold-details --drop-dst: nothing is deleted here
  uri="wiredtiger:$out/layoutlab-data"
fi
case "$uri" in
  wiredtiger:*) store=(--uri "$uri"); [ -n "$cache_size" ] && store+=(--cache-size "$cache_size") ;;
  mongodb://*|mongodb+srv://*)
    # the demo's own database, never the one the URI names (it may hold the user's bill_detail)
    store=(--uri "$uri" --db "$db")
    if [ $server_cache_sweep -eq 1 ] && [ -z "$restart_cmd" ]; then
      echo "demo.sh: --server-cache-sweep needs --restart-cmd: each point must start from an empty server cache" >&2
      exit 2
    fi
    step "checking that database '$db' holds only collections layoutlab wrote"
    if ! "$bin/billgen" collections "${store[@]}" --require-layoutlab -q; then
      echo "demo.sh: refusing to write into database '$db' (see above); nothing has been written." \
           "Choose another database with --db NAME" >&2
      exit 2
    fi
    ;;
  *) echo "demo.sh: --uri must be wiredtiger:DIR, mongodb://... or mongodb+srv://..." >&2; exit 2 ;;
esac
rm -f "$out/run.json" "$out/pred.json" "$out/report.md" "$out"/report-*.svg "$out/comparison.json" \
      "$out/mix.json" "$out/report-mix.md"

# 2. the dataset: one document per detail row, rows of a bill scattered in time order
step "generating $bills bills x ~$mean_rows rows into bill_detail"
"$bin/billgen" generate "${store[@]}" --dst bill_detail --bills "$bills" --mean-rows "$mean_rows" --drop

# 2b. the prediction, before anything is folded: the curve from bill_detail alone (the probe
# reads index entries, no document, on the embedded store). A server without RecordIds (FerretDB) cannot
# be probed: the demo says so and goes on measuring.
if [ $sweep -eq 1 ]; then pred=(--cache-ratios "$cache_ratios"); else pred=(--cache-sizes "$cache_size"); fi
step "predicting the curve from bill_detail alone, before folding"
if ! "$bin/scancmp" "${store[@]}" --predict --detail bill_detail --parallel "$parallel" "${pred[@]}" \
     --out "$out/pred.json"; then
  echo "demo.sh: no prediction on this store (see the message above); measuring anyway" >&2
  rm -f "$out/pred.json"
fi

# 3. the folded layout, proven identical to the source
step "folding bill_detail into detail_coll (one document per bill) and verifying"
"$bin/fold-details" "${store[@]}" --src bill_detail --dst detail_coll --drop-dst --verify

# 3b. the cheaper change: the same rows, documents unchanged, kept together by key -- a clustered
#     collection on the embedded store, the rows rewritten in key order on a server (FerretDB has no
#     clustered collections); with --candidates also the sorted rows, the bucket pattern and zstd blocks
cheap=()
case "$uri" in
  wiredtiger:*)
    step "copying bill_detail into detail_clustered (a clustered collection, _id {bill_id, id}) and verifying"
    "$bin/fold-details" "${store[@]}" --src bill_detail --dst detail_clustered --drop-dst --shape clustered \
      --verify
    cheap=(--layout clustered=detail_clustered:rows) ;;
esac
if [ $candidates -eq 1 ] || [ ${#cheap[@]} -eq 0 ]; then
  step "copying bill_detail into detail_sorted (the same rows in key order) and verifying"
  "$bin/fold-details" "${store[@]}" --src bill_detail --dst detail_sorted --drop-dst --shape sorted --verify
  cheap=(--layout sorted=detail_sorted:rows "${cheap[@]}")
fi
layouts=(--layout detail=bill_detail:rows "${cheap[@]}" --layout folded=detail_coll:folded)
what="the three layouts"
if [ $candidates -eq 1 ]; then
  step "folding bill_detail into detail_b100 (buckets of at most 100 rows) and verifying"
  "$bin/fold-details" "${store[@]}" --src bill_detail --dst detail_b100 --drop-dst --bucket-rows 100 --verify
  step "folding bill_detail into detail_zstd (folded, zstd block compressor) and verifying"
  "$bin/fold-details" "${store[@]}" --src bill_detail --dst detail_zstd --drop-dst --block-compressor zstd \
    --verify
  layouts+=(--layout buckets100=detail_b100:buckets --layout folded-zstd=detail_zstd:folded)
  what="the $(( ${#layouts[@]} / 2 )) candidates"
fi

# 4. the cold side-by-side load, at each cache of the sweep
# both load orders at every point: key (the original's batch loaders, the headline) and random (an
# application opening bills), the ledger's rows "load (key order)" and "load (random order)"
scan=("${layouts[@]}" --cold --parallel "$parallel" --runs "$runs" --interval "$interval"
      --out "$out/run.json" --workload "$workload" --load-order both)
if [ "$workload" != load ]; then
  # the demo's own data: the indexes each query needs are the demo's to build
  scan+=(--create-workload-indexes)
  # as many random rows as there are bills (at most scancmp's 10,000): on a test server that scans
  # rather than seeks, 10,000 single-row queries would take minutes
  rowk=$bills
  [ "$rowk" -gt 10000 ] && rowk=10000
  scan+=(--row-keys "$rowk")
  # the writes: a fortieth more rows appended to the latest bills per run (three runs at the reference
  # point: a tenth then is minutes of folded appends), and as many corrections as row reads
  case ",$workload," in *,append,*) scan+=(--append-rows $(( bills * mean_rows / 40 > 0 ? bills * mean_rows / 40 : 1 ))) ;; esac
  case ",$workload," in *,update,*) scan+=(--update-rows "$rowk") ;; esac
  [ $quick -eq 1 ] && scan+=(--range-windows 10)
  case "$uri" in mongodb://*|mongodb+srv://*) scan+=(--range-windows 10) ;; esac
fi
if [ $sweep -eq 1 ]; then
  # at the prediction's caches exactly, so that the report sets each predicted point beside a measured one
  # of the same cache (a ratio is of each file's own detail size, and the workloads' indexes, built just
  # before the sweep, make the measured one larger: one ratio would be two caches)
  sizes=
  [ -f "$out/pred.json" ] && sizes=$(python3 -c 'import json,sys; print(",".join(str(int(p["cache_size_bytes"])) for p in json.load(open(sys.argv[1]))["sweep"]))' "$out/pred.json")
  if [ -n "$sizes" ]; then
    step "loading $what cold at the prediction's caches ($cache_ratios x the detail layout on disk as the probe found it: $sizes bytes): $runs run(s) each ($(( quick == 0 && runs < 3 ? 3 : runs )) at the reference), $parallel workers"
    scan+=(--cache-sizes "$sizes")
  else
    step "loading $what cold at caches of $cache_ratios x the detail layout on disk: $runs run(s) each ($(( quick == 0 && runs < 3 ? 3 : runs )) at the reference), $parallel workers"
    scan+=(--cache-ratios "$cache_ratios")
  fi
  # the reference point is the one the report's tables and ledger show: 3 runs there (each workload's
  # winner from paired runs), --runs at the others; --quick keeps one
  if [ $quick -eq 0 ]; then
    scan+=(--reference-runs $(( runs > 3 ? runs : 3 )))
  fi
  [ $server_cache_sweep -eq 1 ] && scan+=(--server-cache-sweep)
else
  step "loading $what cold: $runs run(s), $parallel workers"
fi
[ -n "$restart_cmd" ] && scan+=(--restart-cmd "$restart_cmd")
[ -n "$dbpath" ] && scan+=(--dbpath "$dbpath")
[ $calibrate -eq 1 ] && scan+=(--calibrate)
case "$uri" in wiredtiger:*) [ $direct_io -eq 1 ] && scan+=(--direct-io) ;; esac
"$bin/scancmp" "${store[@]}" "${scan[@]}"

# 5. the report
step "writing the report"
report=(-o "$out/report.md" --json "$out/comparison.json" -q)
[ -f "$out/pred.json" ] && report+=(--prediction "$out/pred.json")
case "$uri" in wiredtiger:*) [ -n "$mix" ] || mix=load=5,row=60,range=5,append=25,update=5 ;; *) [ -n "$mix" ] || mix=none ;; esac
# the user's mix estimated from the workloads measured one by one, on page one beside the rest (the
# measured mix follows in report-mix.md); only when every type of the mix was measured
mix_measured=1
for t in $(printf '%s' "$mix" | tr ',' '\n' | sed 's/=.*//'); do
  case ",$workload," in *,"$t",*) ;; *) mix_measured=0 ;; esac
done
[ "$mix" != none ] && [ $mix_measured -eq 1 ] && report+=(--mix "$mix")
"$bin/layout-report" "$out/run.json" "${report[@]}"

# 6. the user's mix: one interleaved stream of loads, single rows, windows, appends and
# corrections on every layout measured (writes to some only would leave them with different data), cold, at the reference point's cache; the same workloads alone too, so
# the report sets the estimate from separate runs beside the measured mix
# it runs on the data as the writes before it left it (step 4's appends and corrections, then its own
# append and update workloads), not on fresh copies: scancmp records those writes in each collection's
# _layoutlab record and the state every measurement started on, and report-mix.md lists them
if [ "$mix" != none ]; then
  mixscan=("${layouts[@]}" --cold --parallel "$parallel" --interval "$interval"
           --mix "$mix" --mix-ops "$mix_ops" --create-workload-indexes --out "$out/mix.json"
           --load-order both) # the estimate costs the mix's random picks by the random-order load
  # the types of the mix measured alone as well (the estimate's inputs); aggregate is never in a mix
  mixwl=$(printf '%s' "$mix" | tr ',' '\n' | sed 's/=.*//' | paste -sd, -)
  rowk_mix=$bills
  [ "$rowk_mix" -gt 10000 ] && rowk_mix=10000
  mixscan+=(--workload "$mixwl")
  case ",$mixwl," in *,row,*) mixscan+=(--row-keys "$rowk_mix") ;; esac
  case ",$mixwl," in *,append,*) mixscan+=(--append-rows "$rowk_mix") ;; esac
  case ",$mixwl," in *,update,*) mixscan+=(--update-rows "$rowk_mix") ;; esac
  case ",$mixwl," in *,range,*) [ $quick -eq 1 ] && mixscan+=(--range-windows 10) ;; esac
  case "$uri" in wiredtiger:*)
    [ $direct_io -eq 1 ] && mixscan+=(--direct-io)
    if [ $sweep -eq 1 ]; then
      mixcache=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(d["sweep"][d["sweep_reference"]]["cache_size_bytes"]))' "$out/run.json")
      mixscan+=(--cache-size "$mixcache")
    fi ;;
  esac
  [ -n "$restart_cmd" ] && mixscan+=(--restart-cmd "$restart_cmd")
  [ -n "$dbpath" ] && mixscan+=(--dbpath "$dbpath")
  step "the user's mix ($mix, $mix_ops operations) on $what, cold"
  "$bin/scancmp" "${store[@]}" "${mixscan[@]}"
  "$bin/layout-report" "$out/mix.json" --mix "$mix" -o "$out/report-mix.md" --charts none -q
  # page one of report.md gives the measured stream's verdict (and why the estimate differs), not the
  # estimate alone
  "$bin/layout-report" "$out/run.json" "${report[@]}" --mix-file "$out/mix.json"
fi

printf '\nreport: %s\n' "$out/report.md"
[ "$mix" != none ] && printf 'the mix: %s\n' "$out/report-mix.md"

# what to run next (README.md, "Next, from the same directory"): paths as seen from here
rel() { case "$1" in "$PWD"/*) printf '%s' "${1#"$PWD"/}" ;; *) printf '%s' "$1" ;; esac; }
case "$uri" in
  wiredtiger:*)
    printf 'next (from %s):\n' "$PWD"
    # the report as the demo rendered it: with the measured mix (and its estimate) when there is one
    again=
    [ -f "$out/pred.json" ] && again=" --prediction $(rel "$out")/pred.json"
    [ "$mix" != none ] && [ -f "$out/mix.json" ] && again="$again --mix-file $(rel "$out")/mix.json"
    [ -f "$out/mix.json" ] && [ $mix_measured -eq 1 ] && again="$again --mix $mix"
    printf '  %s/layout-report %s/run.json -o %s/report.md%s\n' "$(rel "$bin")" "$(rel "$out")" "$(rel "$out")" "$again"
    printf '  %s/scancmp --uri wiredtiger:%s --db layoutlab %s --cold --direct-io --cache-size 64MB --runs 3 -o %s/run-64mb.json\n' \
      "$(rel "$bin")" "$(rel "${uri#wiredtiger:}")" "${layouts[*]}" "$(rel "$out")"
    printf '  %s/layout-report %s/run-64mb.json -o %s/report-64mb.md\n' "$(rel "$bin")" "$(rel "$out")" "$(rel "$out")"
    ;;
esac
