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
#        rows written unchanged, on the same key ranges -- at --parallel 1 .. max(2, cores);
#     3. the fold: `fold-details` (hoist auto, split at 16 MiB) at the same worker counts;
#     4. `--verify` of the last fold by both methods, each against its ceiling, in 3 alternating rounds
#        judged by the median ratio: the multiset method (the default) against bench_natural_read's two
#        bare natural-order scans of both collections at once, one per collection on a thread of its own
#        (the ceiling; also against the same threads over verify's own ranges, shown beside it); the
#        ordered method (--verify=ordered) against bench_index_read, a bare index-order read of both in
#        lockstep; no hashing, no unfolding in either read; again at a cache holding both collections when
#        --cache-size does not (with less, eviction churn adds noise of its own);
#   and prints rows/s, fold/copy ratios (targets: >= 70% at --parallel 1 and 2), the parallel efficiency
#   of fold and copy at every worker count (rows/s at N / (N x rows/s at 1)), verify / its ceiling
#   (target >= 80% for the multiset method), CPU seconds and peak RSS of every run, and the load average.
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
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
maxp=$(nproc)
[ "$maxp" -ge 2 ] || maxp=2
for p in $(seq 1 "$maxp"); do
  echo "$me: --parallel $p: copy (ceiling), then fold ..." >&2
  run "copy$p" --src bench_src --dst bench_copy --drop-dst --copy-only --parallel "$p"
  run "fold$p" --src bench_src --dst bench_fold --drop-dst --parallel "$p"
done
# --verify checks the last fold written
readbin="$build/bin/bench_index_read"
natbin="$build/bin/bench_natural_read"
[ -x "$readbin" ] || die "$readbin is not built (cmake --build $build)"
[ -x "$natbin" ] || die "$natbin is not built (cmake --build $build)"
# cpu_rss NAME CMD... -- run CMD keeping stdout in $tmp/NAME.out and "cpu_s rss_mib" in $tmp/NAME.cr
cpu_rss() {
  local name=$1; shift
  /usr/bin/time -f '%U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" || die "$* failed"
  tail -1 "$tmp/$name.time" | awk '{ printf "%.2f %.0f\n", $1 + $2, $3 / 1024 }' >"$tmp/$name.cr"
}
# verify_rounds TAG CACHE -- $rounds alternating rounds at engine cache CACHE of (two bare natural-order
# scans, the same over verify's ranges, the multiset verify, the bare index-order read, the ordered
# verify): $tmp/{nat,rng,ms,idx,ord}_TAG_R.{out|json,cr}, summed up in $tmp/rounds_TAG.json. Alternating
# rounds judged by the median of the per-round ratios: drift in the machine's load hits both sides alike.
rounds=3
verify_rounds() {
  local tag=$1 c=$2 r
  for r in $(seq 1 "$rounds"); do
    cpu_rss "nat_${tag}_$r" "$natbin" "$uri" bench_src bench_fold "$c" 2 scans
    cpu_rss "rng_${tag}_$r" "$natbin" "$uri" bench_src bench_fold "$c" 2 ranges
    cpu_rss "ms_${tag}_$r" "$fold" --uri "$uri" --cache-size "$c" "${common[@]}" \
      --json "$tmp/ms_${tag}_$r.json" --src bench_src --dst bench_fold --verify
    cpu_rss "idx_${tag}_$r" "$readbin" "$uri" bench_src bench_fold bill_id "$c"
    cpu_rss "ord_${tag}_$r" "$fold" --uri "$uri" --cache-size "$c" "${common[@]}" \
      --json "$tmp/ord_${tag}_$r.json" --src bench_src --dst bench_fold --verify=ordered
    for v in ms ord; do
      [ "$(jq -r '.verify.equal' "$tmp/${v}_${tag}_$r.json")" = true ] || die "the benchmark's fold does not verify"
    done
  done
  for r in $(seq 1 "$rounds"); do
    jq -n --argjson r "$r" --arg c "$c" --slurpfile nat "$tmp/nat_${tag}_$r.out" \
      --slurpfile rng "$tmp/rng_${tag}_$r.out" --slurpfile idx "$tmp/idx_${tag}_$r.out" \
      --slurpfile ms "$tmp/ms_${tag}_$r.json" --slurpfile ord "$tmp/ord_${tag}_$r.json" \
      --arg natcr "$(cat "$tmp/nat_${tag}_$r.cr")" --arg mscr "$(cat "$tmp/ms_${tag}_$r.cr")" \
      --arg idxcr "$(cat "$tmp/idx_${tag}_$r.cr")" --arg ordcr "$(cat "$tmp/ord_${tag}_$r.cr")" \
      '{round: $r, cache: $c,
        nat_rows_per_s: $nat[0].rows_per_s, rng_rows_per_s: $rng[0].rows_per_s, read_bytes: $nat[0].bytes,
        ms_rows_per_s: ($ms[0].verify.src_rows / $ms[0].verify.elapsed_s),
        idx_rows_per_s: $idx[0].rows_per_s,
        ord_rows_per_s: ($ord[0].verify.src_rows / $ord[0].verify.elapsed_s),
        nat_cpu_s: ($natcr | split(" ")[0] | tonumber), ms_cpu_s: ($mscr | split(" ")[0] | tonumber),
        ms_peak_rss_mib: ($mscr | split(" ")[1] | tonumber), idx_cpu_s: ($idxcr | split(" ")[0] | tonumber),
        ord_cpu_s: ($ordcr | split(" ")[0] | tonumber), ord_peak_rss_mib: ($ordcr | split(" ")[1] | tonumber)}
       | . + {ratio: (.ms_rows_per_s / .nat_rows_per_s), ratio_ranges: (.ms_rows_per_s / .rng_rows_per_s),
              ratio_ordered: (.ord_rows_per_s / .idx_rows_per_s)}'
  done | jq -s '.' >"$tmp/rounds_$tag.json"
}
echo "$me: verify by both methods against their ceilings, $rounds alternating rounds at --cache-size $cache ..." >&2
verify_rounds set "$cache"
cp "$tmp/ms_set_1.json" "$tmp/verify.json"
# The same at a cache holding both collections (1.25x the bytes the read returned) when --cache-size does
# not: with less, eviction churn adds noise of its own to both sides (embedded only: a server's cache is
# the server's).
fit_note="--cache-size holds both collections already"
[[ "$uri" == wiredtiger:* ]] || fit_note="a server: its cache is its own"
if [[ "$uri" == wiredtiger:* ]]; then
  cache_b=$(numfmt --from=iec "$(echo "$cache" | sed 's/[iI]\{0,1\}[bB]$//')" 2>/dev/null || echo 0)
  need_b=$(jq -r '.bytes * 1.25 | floor' "$tmp/nat_set_1.out")
  if [ "$need_b" -gt "$cache_b" ]; then
    fit_mib=$(((need_b + 1048575) / 1048576))
    echo "$me: ... and at --cache-size ${fit_mib}M, which holds both collections ..." >&2
    verify_rounds fit "${fit_mib}M"
    fit_note=""
  fi
fi
[ -s "$tmp/rounds_fit.json" ] || echo '[]' >"$tmp/rounds_fit.json"

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

for p in $(seq 1 "$maxp"); do
  jq -n --argjson p "$p" --slurpfile c "$tmp/copy$p.json" --slurpfile f "$tmp/fold$p.json" \
    '{p: $p, copy: $c[0], fold: $f[0]}'
done | jq -s '.' >"$tmp/byp.json"
jq -n \
  --slurpfile gen "$tmp/gen.json" \
  --slurpfile c1 "$tmp/copy1.json" --slurpfile f1 "$tmp/fold1.json" \
  --slurpfile c2 "$tmp/copy2.json" --slurpfile f2 "$tmp/fold2.json" \
  --slurpfile byp "$tmp/byp.json" \
  --slurpfile v "$tmp/verify.json" \
  --slurpfile rs "$tmp/rounds_set.json" --slurpfile rf "$tmp/rounds_fit.json" --arg fit_note "$fit_note" \
  --arg uri "$uri" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" \
  '{uri: $uri, rows: $gen[0].rows, bills: $gen[0].bills, load_after: $load,
    copy_p1: $c1[0], fold_p1: $f1[0], copy_p2: $c2[0], fold_p2: $f2[0], verify: $v[0].verify,
    ratio_p1: ($f1[0].rows_per_s / $c1[0].rows_per_s), ratio_p2: ($f2[0].rows_per_s / $c2[0].rows_per_s),
    by_workers: [$byp[0][] | {p, fold_rows_per_s: .fold.rows_per_s, copy_rows_per_s: .copy.rows_per_s,
                 fold_peak_rss_bytes: .fold.peak_rss_bytes,
                 fold_efficiency: (.fold.rows_per_s / (.p * $f1[0].rows_per_s)),
                 copy_efficiency: (.copy.rows_per_s / (.p * $c1[0].rows_per_s))}],
    verify_rounds: $rs[0], verify_rounds_fit: $rf[0], verify_fit_note: $fit_note}
   | def median: sort | if length == 0 then null else .[(length - 1) / 2 | floor] end;
     . + {verify_ratio: ([.verify_rounds[].ratio] | median),
          verify_ratio_fit: ([.verify_rounds_fit[].ratio] | median),
          verify_ratio_ranges: ([.verify_rounds[].ratio_ranges] | median),
          verify_ratio_ordered: ([.verify_rounds[].ratio_ordered] | median)}' \
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
  "fold / copy ceiling: --parallel 1 \(.ratio_p1 * 1000 | round / 10)%  (target >= 70%),  --parallel 2 \(.ratio_p2 * 1000 | round / 10)%  (target >= 70%: \(if .ratio_p2 >= 0.7 then "meets" else "MISSES" end))",
  "",
  "workers  fold rows/s  fold efficiency  copy rows/s  copy efficiency  fold peak RSS MiB",
  (.by_workers[] | "\(.p | tostring | . + "        " | .[0:7])  \(.fold_rows_per_s | k | tostring | . + "           " | .[0:11])  \(.fold_efficiency * 100 | round | tostring | . + "%               " | .[0:15])  \(.copy_rows_per_s | k | tostring | . + "           " | .[0:11])  \(.copy_efficiency * 100 | round | tostring | . + "%               " | .[0:15])  \(.fold_peak_rss_bytes | mib)"),
  "(efficiency = rows/s at N / (N x rows/s at 1))",
  "",
  "verify by both methods / their ceilings, alternating rounds (source rows/s; CPU s; peak RSS MiB):",
  (([.verify_rounds[]] + [.verify_rounds_fit[]])[]
   | "  --cache-size \(.cache) round \(.round): two natural scans \(.nat_rows_per_s | k) (\(.nat_cpu_s) s), over verify'"'"'s ranges \(.rng_rows_per_s | k), multiset verify \(.ms_rows_per_s | k) (\(.ms_cpu_s) s; \(.ms_peak_rss_mib)) = \(.ratio * 1000 | round / 10)% (\(.ratio_ranges * 1000 | round / 10)% of the ranges read); index read \(.idx_rows_per_s | k) (\(.idx_cpu_s) s), ordered verify \(.ord_rows_per_s | k) (\(.ord_cpu_s) s; \(.ord_peak_rss_mib)) = \(.ratio_ordered * 1000 | round / 10)%"),
  "multiset verify / two natural-order scans at --cache-size \(.verify_rounds[0].cache): median \(.verify_ratio * 1000 | round / 10)%  (target >= 80%: \(if .verify_ratio >= 0.8 then "meets" else "MISSES" end)); / the same threads over its ranges: \(.verify_ratio_ranges * 1000 | round / 10)%",
  "ordered verify / index-order read: median \(.verify_ratio_ordered * 1000 | round / 10)%",
  (if .verify_ratio_fit then "multiset verify / two natural-order scans at --cache-size \(.verify_rounds_fit[0].cache) (holds both collections): median \(.verify_ratio_fit * 1000 | round / 10)%  (target >= 80%: \(if .verify_ratio_fit >= 0.8 then "meets" else "MISSES" end))" else "verify at a cache holding both collections: not run (\(.verify_fit_note))" end),
  "load average after: \(.load_after)",
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
