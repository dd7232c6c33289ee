#!/usr/bin/env bash
# demo.sh -- the whole layoutlab experiment in one command: set up, build, generate bill details, fold
# them, load both layouts cold side by side, and write the Markdown report with its charts.
#
# Usage: scripts/demo.sh [options]
#   --bills N            bills (masters) to generate (default 3000; --quick: 300)
#   --mean-rows N        mean detail rows per bill (default 130)
#   --cache-size SIZE    embedded WiredTiger cache (default 64MB; --quick: 4MB): small, so the
#                        one-document-per-row layout does not fit and the load is IO-bound
#   --uri URI            store to use (default: wiredtiger:OUT/layoutlab-data, the embedded store);
#                        a mongodb:// URI runs the same experiment on a real server
#   --restart-cmd CMD    how to restart that server between layouts (e.g. 'systemctl restart mongod')
#   --dbpath DIR         the server's data directory, when it runs on this machine (device metrics)
#   --out DIR            where run.json, report.md and the charts go (default: out)
#   --runs N             repetitions (default 3; --quick: 2)
#   --parallel N         loading workers (default 4; --quick: 2)
#   --interval DUR       sampling period of the charts' time series (default 250ms; --quick: 100ms):
#                        the folded load can take well under a second
#   --calibrate          also measure the disk's own sequential and random read limits
#   --no-direct-io       embedded store: let the OS page cache serve re-reads (default: scancmp
#                        --direct-io, so every engine cache miss is a disk read, as on a server whose
#                        RAM is far smaller than its data; this machine's RAM would otherwise hold
#                        the whole dataset after the first touch and hide the layouts' IO difference)
#   --quick              a reduced size for the test suite (finishes in well under a minute)
#   --bin DIR            use the tools already built in DIR (skips the build; setup only checks packages)
#   -h, --help           this help
#
# Examples:
#   scripts/demo.sh                              # ~390,000 rows on the embedded store, a few minutes
#   scripts/demo.sh --bills 20000 --out big      # a bigger dataset
#   sudo scripts/demo.sh --uri mongodb://localhost/layoutlab --restart-cmd 'systemctl restart mongod' \
#        --dbpath /var/lib/mongodb               # a real mongod on this machine
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bills=3000
mean_rows=130
cache_size=64MB
uri=
restart_cmd=
dbpath=
out=out
runs=3
parallel=4
interval=
calibrate=0
direct_io=1
quick=0
bin=
bills_set=0 cache_set=0 runs_set=0 parallel_set=0

usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; }
need() { [ $# -ge 2 ] || { echo "demo.sh: $1 needs a value (try --help)" >&2; exit 2; }; }

while [ $# -gt 0 ]; do
  case "$1" in
    --bills) need "$@"; bills=$2; bills_set=1; shift 2 ;;
    --mean-rows) need "$@"; mean_rows=$2; shift 2 ;;
    --cache-size) need "$@"; cache_size=$2; cache_set=1; shift 2 ;;
    --uri) need "$@"; uri=$2; shift 2 ;;
    --restart-cmd) need "$@"; restart_cmd=$2; shift 2 ;;
    --dbpath) need "$@"; dbpath=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --runs) need "$@"; runs=$2; runs_set=1; shift 2 ;;
    --no-direct-io) direct_io=0; shift ;;
    --parallel) need "$@"; parallel=$2; parallel_set=1; shift 2 ;;
    --interval) need "$@"; interval=$2; shift 2 ;;
    --calibrate) calibrate=1; shift ;;
    --quick) quick=1; shift ;;
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
if [ $quick -eq 1 ]; then
  [ $bills_set -eq 1 ] || bills=300
  [ $cache_set -eq 1 ] || cache_size=4MB
  [ $runs_set -eq 1 ] || runs=2
  [ $parallel_set -eq 1 ] || parallel=2
  [ -n "$interval" ] || interval=100ms
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
  wiredtiger:*) store=(--uri "$uri" --cache-size "$cache_size") ;;
  mongodb://*|mongodb+srv://*) store=(--uri "$uri") ;;
  *) echo "demo.sh: --uri must be wiredtiger:DIR, mongodb://... or mongodb+srv://..." >&2; exit 2 ;;
esac
rm -f "$out/run.json" "$out/report.md" "$out"/report-*.svg "$out/comparison.json"

# 2. the dataset: one document per detail row, rows of a bill scattered in time order
step "generating $bills bills x ~$mean_rows rows into bill_detail"
"$bin/billgen" generate "${store[@]}" --dst bill_detail --bills "$bills" --mean-rows "$mean_rows" --drop

# 3. the folded layout, proven identical to the source
step "folding bill_detail into detail_coll (one document per bill) and verifying"
"$bin/fold-details" "${store[@]}" --src bill_detail --dst detail_coll --drop-dst --verify

# 4. the cold side-by-side load
step "loading both layouts cold: $runs run(s), $parallel workers"
scan=(--detail bill_detail --folded detail_coll --cold --parallel "$parallel" --runs "$runs" --interval "$interval"
      --out "$out/run.json")
[ -n "$restart_cmd" ] && scan+=(--restart-cmd "$restart_cmd")
[ -n "$dbpath" ] && scan+=(--dbpath "$dbpath")
[ $calibrate -eq 1 ] && scan+=(--calibrate)
case "$uri" in wiredtiger:*) [ $direct_io -eq 1 ] && scan+=(--direct-io) ;; esac
"$bin/scancmp" "${store[@]}" "${scan[@]}"

# 5. the report
step "writing the report"
"$bin/layout-report" "$out/run.json" -o "$out/report.md" --json "$out/comparison.json" -q

printf '\nreport: %s\n' "$out/report.md"
