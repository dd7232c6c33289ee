#!/usr/bin/env bash
# bench-billgen.sh -- billgen throughput on the embedded store, measured in one run:
#   1. generate N bills into a fresh embedded store        -> generate rows/s
#   2. export them to a .csv.zst (zstd level 3)            -> the import input
#   3. parse-only pass over that .csv.zst (twice: before and after the import; the faster one counts)
#                                                         -> the ceiling: read + zstd + libcsv + typing
#   4. import the same .csv.zst into a fresh embedded store -> import rows/s, and its share of the ceiling
# Targets (issue "billgen"): generate >= 200,000 rows/s; import >= 50% of parse-only.
#
# Usage: scripts/bench-billgen.sh [--bills N] [--bin DIR] [--dir DIR] [--cache-size SIZE]
#   --bills N         bills to generate (default 10000, about 1.3 million rows of ~380 B)
#   --bin DIR         where billgen is (default: $LAB_BIN_DIR, else build/bin, else the newest build-*/bin)
#   --dir DIR         work directory, kept afterwards (default: a temporary one, removed)
#   --cache-size SIZE embedded WiredTiger cache (default: mongod's rule)
# CPU seconds per command are shown too: on a busy machine the wall rates fall with the share of the CPU
# the run gets, the CPU cost per row does not.
# Targets are judged on "generate (inserts)" (generation and inserts, as the issue puts it) and on the
# import's whole-command wall time; "generate (with index build)" and "import (load only)" are shown too. The machine's load average is printed with the figures: the rates are only
# comparable between quiet runs.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
bills=10000
bin=${LAB_BIN_DIR:-}
dir=
cache=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bills) bills=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --cache-size) cache=(--cache-size "$2"); shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-billgen.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$bin" ]; then
  if [ -x "$here/build/bin/billgen" ]; then
    bin="$here/build/bin"
  else
    bin=$(ls -td "$here"/build-*/bin 2>/dev/null | while read -r d; do [ -x "$d/billgen" ] && echo "$d" && break; done)
  fi
fi
B="$bin/billgen"
[ -x "$B" ] || { echo "bench-billgen.sh: no billgen binary (build first, or pass --bin DIR)" >&2; exit 1; }
if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-billgen-XXXXXX")
  trap 'rm -rf "$dir"' EXIT
else
  mkdir -p "$dir"
  rm -rf "$dir/gen" "$dir/imp"
fi

# timed NAME CMD... -- run CMD, keeping its CPU seconds (user + system, all threads) in $dir/NAME.cpu
timed () {
  local name=$1; shift
  local TIMEFORMAT='%U %S'
  { time "$@" 2>"$dir/$name.err"; } 2>"$dir/$name.time" || { cat "$dir/$name.err" >&2; return 1; }
  awk '{ printf "%.2f", $1 + $2 }' "$dir/$name.time" >"$dir/$name.cpu"
}
cpu () { cat "$dir/$1.cpu"; }

# jnum FILE KEY -- a number from a billgen --json summary
jnum () { sed -n "s/^ *\"$2\" : \\([-0-9.eE+]*\\).*/\\1/p" "$1" | head -1; }
rate () { awk -v r="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? r / s : 0) }'; }

echo "bench-billgen: $B, $bills bills, work dir $dir, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

timed gen "$B" generate --uri "wiredtiger:$dir/gen" "${cache[@]}" --bills "$bills" --seed 1 --progress never -q \
  --json "$dir/gen.json"
rows=$(jnum "$dir/gen.json" rows)
gen_ins_s=$(jnum "$dir/gen.json" insert_elapsed_s)
gen_s=$(jnum "$dir/gen.json" run_elapsed_s)

"$B" export --uri "wiredtiger:$dir/gen" "${cache[@]}" --progress never -q -o "$dir/bills.csv.zst" \
  --json "$dir/export.json"

timed parse1 "$B" import --parse-only --headerline --columns-have-types --progress never -q --json "$dir/parse1.json" \
  "$dir/bills.csv.zst"
timed import "$B" import --uri "wiredtiger:$dir/imp" "${cache[@]}" --headerline --columns-have-types --progress never -q \
  --json "$dir/import.json" "$dir/bills.csv.zst"
timed parse2 "$B" import --parse-only --headerline --columns-have-types --progress never -q --json "$dir/parse2.json" \
  "$dir/bills.csv.zst"

imp_rows=$(jnum "$dir/import.json" rows)
[ "$imp_rows" = "$rows" ] || { echo "bench-billgen.sh: imported $imp_rows rows, generated $rows" >&2; exit 1; }
p1=$(rate "$rows" "$(jnum "$dir/parse1.json" run_elapsed_s)")
p2=$(rate "$rows" "$(jnum "$dir/parse2.json" run_elapsed_s)")
parse=$(( p1 > p2 ? p1 : p2 ))
imp=$(rate "$rows" "$(jnum "$dir/import.json" run_elapsed_s)")
imp_load=$(rate "$rows" "$(jnum "$dir/import.json" load_elapsed_s)")
gen_ins=$(rate "$rows" "$gen_ins_s")
gen_all=$(rate "$rows" "$gen_s")
share=$(awk -v a="$imp" -v b="$parse" 'BEGIN { printf "%.0f", (b > 0 ? 100 * a / b : 0) }')
share_load=$(awk -v a="$imp_load" -v b="$parse" 'BEGIN { printf "%.0f", (b > 0 ? 100 * a / b : 0) }')
csv_mb=$(awk -v b="$(jnum "$dir/import.json" csv_bytes)" 'BEGIN { printf "%.1f", b / 1048576 }')
zst_mb=$(awk -v b="$(stat -c %s "$dir/bills.csv.zst")" 'BEGIN { printf "%.1f", b / 1048576 }')
verdict () { if [ "$1" -ge "$2" ]; then echo "meets"; else echo "MISSES"; fi; }

printf '\n%-34s %12s   %s\n' "measure ($rows rows)" "rows/s" "(CPU seconds of the command, all threads)"
printf '%-34s %12s   target 200000: %s   (%s CPU s)\n' "generate (inserts)" "$gen_ins" "$(verdict "$gen_ins" 200000)" "$(cpu gen)"
printf '%-34s %12s\n' "generate (with index build)" "$gen_all"
printf '%-34s %12s   (runs %s and %s; %s and %s CPU s)\n' "parse-only, ceiling" "$parse" "$p1" "$p2" "$(cpu parse1)" "$(cpu parse2)"
printf '%-34s %12s   %s%% of parse-only, target 50%%: %s   (%s CPU s)\n' "import (whole command)" \
  "$imp" "$share" "$(verdict "$share" 50)" "$(cpu import)"
printf '%-34s %12s   %s%% of parse-only (before the index build and flush)\n' "import (load only)" \
  "$imp_load" "$share_load"
echo "input: $csv_mb MiB of CSV in $zst_mb MiB of zstd"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
