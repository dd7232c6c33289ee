#!/usr/bin/env bash
# bench-fold.sh -- fold-details throughput against its ceiling, and its memory, measured in one run.
#
# Usage: scripts/bench-fold.sh [--build DIR] [--uri URI] [--rows N] [--mean-rows N] [--cache-size SIZE]
#                              [--json FILE] [--keep]
#
#   Generates one dataset of --rows detail rows (default 1,000,000; billgen generate, interleaved,
#   --mean-rows 130) in a temporary embedded store (or --uri: a server; the collections bench_src,
#   bench_copy and bench_fold are replaced there), then on that same dataset:
#     1. a warm-up copy (discarded), so every measured run starts with the same OS cache;
#     2. the ceiling: `fold-details --copy-only` -- the same sorted read and the same batched writes,
#        rows written unchanged -- at --parallel 1 and 2;
#     3. the fold: `fold-details` (hoist auto, split at 16 MiB) at --parallel 1 and 2;
#   and prints rows/s, fold/copy ratios (target: >= 70% at --parallel 1) and peak RSS.
#   Memory: peak RSS of a --parallel 1 fold on the full dataset and on a tenth of it, both with the
#   embedded cache fixed at 64M, so that what remains is the fold's own memory (one master + one batch):
#   it should not grow with the collection.
#   --json FILE keeps every figure. Needs jq.
#
# Examples:
#   scripts/bench-fold.sh                                  # 10^6 rows embedded (~3 min on 2 cores)
#   scripts/bench-fold.sh --rows 200000                    # a quick look
#   scripts/bench-fold.sh --uri mongodb://db1:27017/bench --rows 1000000
set -euo pipefail

me=bench-fold.sh
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build"
uri=
rows=1000000
mean=130
cache=1G
json_out=
keep=0

die() { echo "$me: error: $*" >&2; exit 1; }
need() { [ $# -ge 2 ] || { echo "$me: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) need "$@"; build=$2; shift ;;
    --uri) need "$@"; uri=$2; shift ;;
    --rows) need "$@"; rows=$2; shift ;;
    --mean-rows) need "$@"; mean=$2; shift ;;
    --cache-size) need "$@"; cache=$2; shift ;;
    --json) need "$@"; json_out=$2; shift ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$rows" =~ ^[0-9]+$ ]] && [ "$rows" -ge 1000 ] || die "--rows must be a number >= 1000"
command -v jq >/dev/null || die "jq is needed to read the JSON summaries (apt-get install jq)"
fold="$build/bin/fold-details"
billgen="$build/bin/billgen"
[ -x "$fold" ] || die "$fold is not built (cmake --build $build)"
[ -x "$billgen" ] || die "$billgen is not built (cmake --build $build)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-fold.XXXXXX")
cleanup() { [ "$keep" -eq 1 ] && echo "$me: kept $tmp" >&2 || rm -rf "$tmp"; }
trap cleanup EXIT
[ -n "$uri" ] || uri="wiredtiger:$tmp/data"
small_uri="wiredtiger:$tmp/small"
bills=$(( (rows + mean - 1) / mean ))

common=(--progress never -q)
echo "$me: generating $rows rows (~$bills bills of mean $mean rows) ..." >&2
"$billgen" generate --uri "$uri" --cache-size "$cache" "${common[@]}" --dst bench_src --bills "$bills" \
  --mean-rows "$mean" --seed 1 --drop --json "$tmp/gen.json"
nrows=$(jq -r '.rows' "$tmp/gen.json")

# run NAME ARGS... -- one fold-details run; its JSON summary lands in $tmp/NAME.json
run() {
  local name=$1; shift
  "$fold" --uri "$uri" --cache-size "$cache" "${common[@]}" --json "$tmp/$name.json" "$@" \
    || die "fold-details $* failed (exit $?)"
}

echo "$me: warm-up copy ..." >&2
run warm --src bench_src --dst bench_copy --drop-dst --copy-only
for p in 1 2; do
  echo "$me: --parallel $p: copy (ceiling), then fold ..." >&2
  run "copy$p" --src bench_src --dst bench_copy --drop-dst --copy-only --parallel "$p"
  run "fold$p" --src bench_src --dst bench_fold --drop-dst --parallel "$p"
done
echo "$me: verifying the last fold ..." >&2
run verify --src bench_src --dst bench_fold --verify
[ "$(jq -r '.verify.equal' "$tmp/verify.json")" = true ] || die "the benchmark's fold does not verify"

# memory: same cache, a tenth of the data vs all of it (embedded only: a server's memory is not ours)
mem_note="embedded only"
if [[ "$uri" == wiredtiger:* ]]; then
  echo "$me: memory: fold of $((rows / 10)) vs $rows rows with --cache-size 64M ..." >&2
  "$billgen" generate --uri "$small_uri" --cache-size 64M "${common[@]}" --dst bench_src \
    --bills $(( (bills + 9) / 10 )) --mean-rows "$mean" --seed 1 --drop --json "$tmp/gen_small.json"
  "$fold" --uri "$small_uri" --cache-size 64M "${common[@]}" --json "$tmp/mem_small.json" \
    --src bench_src --dst bench_fold --drop-dst || die "memory run (small) failed"
  "$fold" --uri "$uri" --cache-size 64M "${common[@]}" --json "$tmp/mem_full.json" \
    --src bench_src --dst bench_fold --drop-dst || die "memory run (full) failed"
  mem_note=""
fi

jq -n \
  --slurpfile gen "$tmp/gen.json" \
  --slurpfile c1 "$tmp/copy1.json" --slurpfile f1 "$tmp/fold1.json" \
  --slurpfile c2 "$tmp/copy2.json" --slurpfile f2 "$tmp/fold2.json" \
  --slurpfile v "$tmp/verify.json" \
  --arg uri "$uri" \
  '{uri: $uri, rows: $gen[0].rows, bills: $gen[0].bills,
    copy_p1: $c1[0], fold_p1: $f1[0], copy_p2: $c2[0], fold_p2: $f2[0], verify: $v[0].verify,
    ratio_p1: ($f1[0].rows_per_s / $c1[0].rows_per_s), ratio_p2: ($f2[0].rows_per_s / $c2[0].rows_per_s)}' \
  > "$tmp/all.json"
if [ -z "$mem_note" ]; then
  jq --slurpfile ms "$tmp/mem_small.json" --slurpfile mf "$tmp/mem_full.json" \
    '. + {mem_small: {rows: $ms[0].rows_in, peak_rss_bytes: $ms[0].peak_rss_bytes,
                      peak_buffer_bytes: $ms[0].peak_buffer_bytes},
          mem_full: {rows: $mf[0].rows_in, peak_rss_bytes: $mf[0].peak_rss_bytes,
                     peak_buffer_bytes: $mf[0].peak_buffer_bytes}}' \
    "$tmp/all.json" > "$tmp/all2.json" && mv "$tmp/all2.json" "$tmp/all.json"
fi

jq -r '
  def mib: . / 1048576 | . * 10 | round / 10;
  def k: . | round;
  "fold-details benchmark: \(.rows) rows, \(.bills) bills (\(.uri | sub("://[^@]*@"; "://***@")))",
  "",
  "run                 rows/s     elapsed_s  docs_out   largest_doc  peak_rss_MiB  buffers_MiB",
  (["copy --parallel 1", .copy_p1], ["fold --parallel 1", .fold_p1],
   ["copy --parallel 2", .copy_p2], ["fold --parallel 2", .fold_p2]
   | "\(.[0] | . + "                    " | .[0:18])  \(.[1].rows_per_s | k | tostring | . + "          " | .[0:9])  \(.[1].fold_elapsed_s * 100 | round / 100 | tostring | . + "          " | .[0:9])  \(.[1].docs_out | tostring | . + "          " | .[0:9])  \(.[1].largest_doc_bytes | tostring | . + "            " | .[0:11])  \(.[1].peak_rss_bytes | mib | tostring | . + "            " | .[0:12])  \(.[1].peak_buffer_bytes | mib)"),
  "",
  "fold / copy ceiling: --parallel 1 \(.ratio_p1 * 1000 | round / 10)%  (target >= 70%),  --parallel 2 \(.ratio_p2 * 1000 | round / 10)%",
  "fold --parallel 2 / --parallel 1: \(.fold_p2.rows_per_s / .fold_p1.rows_per_s * 100 | round)%",
  "verify: \(if .verify.equal then "equal" else "DIFFERENT" end) (\(.verify.src_rows) rows, \(.verify.dst_docs) documents)",
  (if .mem_small then
     "peak RSS with --cache-size 64M: \(.mem_small.rows) rows \(.mem_small.peak_rss_bytes | mib) MiB, \(.mem_full.rows) rows \(.mem_full.peak_rss_bytes | mib) MiB (includes the engine cache)",
     "fold buffers (batch + one master): \(.mem_small.rows) rows \(.mem_small.peak_buffer_bytes | mib) MiB, \(.mem_full.rows) rows \(.mem_full.peak_buffer_bytes | mib) MiB"
   else "peak RSS comparison: embedded store only" end)
' "$tmp/all.json"
if [ -n "$json_out" ]; then
  cp "$tmp/all.json" "$json_out"
fi
