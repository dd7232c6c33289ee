#!/usr/bin/env bash
# bench-rss.sh -- peak RSS of every tool against the memory bound (the engine cache + 512 MiB,
# whatever the data size), at two data sizes a factor of ten apart, on the embedded store.
#
# Usage: scripts/bench-rss.sh [--build DIR] [--rows N] [--mean-rows N] [--cache-size SIZE] [--slack MIB]
#                             [--json FILE] [--keep]
#
#   For N/10 and N detail rows (default N 1,000,000; billgen's interleaved order, --mean-rows 130), each
#   in its own temporary embedded store with the engine cache fixed at --cache-size (default 64M, small
#   on purpose: what remains above it is the tool's own memory), runs and measures with /usr/bin/time:
#     billgen generate, fold-details (the fold), fold-details --verify, scancmp (warm, 4 workers, one
#     run; no page cache drop) and layout-report on scancmp's results file.
#   Prints one line per tool and size: tool, rows, cache, peak RSS, bound (cache + --slack, default 512
#   MiB), ok/over; then the growth of each tool's peak from the small to the large size. Exits 1 when a
#   tool is over its bound. --json FILE keeps every figure. Needs jq and GNU time (/usr/bin/time).
#
# Examples:
#   scripts/bench-rss.sh                           # 100k and 1M rows, 64 MiB cache (a few minutes)
#   scripts/bench-rss.sh --rows 200000             # a quick look (20k and 200k rows)
#   scripts/bench-rss.sh --rows 5000000 --cache-size 256M
set -euo pipefail

me=bench-rss.sh
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build"
rows=1000000
mean=130
cache=64M
slack=512
json_out=
keep=0

die() { echo "$me: error: $*" >&2; exit 1; }
need() { [ $# -ge 2 ] || { echo "$me: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) need "$@"; build=$2; shift ;;
    --rows) need "$@"; rows=$2; shift ;;
    --mean-rows) need "$@"; mean=$2; shift ;;
    --cache-size) need "$@"; cache=$2; shift ;;
    --slack) need "$@"; slack=$2; shift ;;
    --json) need "$@"; json_out=$2; shift ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$rows" =~ ^[0-9]+$ ]] && [ "$rows" -ge 10000 ] || die "--rows must be a number >= 10000"
[[ "$mean" =~ ^[0-9]+$ ]] && [ "$mean" -ge 1 ] || die "--mean-rows must be a positive number"
[[ "$slack" =~ ^[0-9]+$ ]] || die "--slack must be a number of MiB"
command -v jq >/dev/null || die "jq is needed to read the JSON summaries (apt-get install jq)"
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is needed for peak RSS (apt-get install time)"
bin="$build/bin"
for t in billgen fold-details scancmp layout-report; do
  [ -x "$bin/$t" ] || die "$bin/$t is not built (cmake --build $build)"
done
# the cache in MiB, as the tools round it (K/M/G/T suffixes, optional iB/B)
cache_mib=$(echo "$cache" | awk '
  { s = toupper($0); sub(/I?B$/, "", s); n = s + 0; u = substr(s, length(s));
    m = (u == "K") ? n / 1024 : (u == "M") ? n : (u == "G") ? n * 1024 : (u == "T") ? n * 1048576 : n / 1048576;
    printf "%d\n", (m == int(m)) ? m : int(m) + 1 }')
[ "$cache_mib" -ge 1 ] || die "--cache-size '$cache' is under 1 MiB"
bound=$((cache_mib + slack))

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-rss.XXXXXX")
cleanup() { [ "$keep" -eq 1 ] && echo "$me: kept $tmp" >&2 || rm -rf "$tmp"; }
trap cleanup EXIT
common=(--cache-size "$cache" --progress never -q)

# measure NAME ROWS CMD... -- run CMD (stdout kept in $tmp/NAME.out), append {tool, rows, peak} to lines
measure() {
  local name=$1 n=$2; shift 2
  /usr/bin/time -f '%M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" || die "$name: $* failed (exit $?)"
  jq -n --arg tool "${name%@*}" --argjson rows "$n" --argjson kib "$(tail -1 "$tmp/$name.time")" \
    '{tool: $tool, rows: $rows, peak_rss_kib: $kib}' >>"$tmp/lines.json"
}

: >"$tmp/lines.json"
for n in $((rows / 10)) "$rows"; do
  uri="wiredtiger:$tmp/data$n"
  bills=$(( (n + mean - 1) / mean ))
  echo "$me: $n rows (~$bills bills), --cache-size $cache ..." >&2
  measure "billgen generate@$n" "$n" "$bin/billgen" generate --uri "$uri" "${common[@]}" --dst bill_detail \
    --bills "$bills" --mean-rows "$mean" --seed 1 --drop
  measure "fold-details@$n" "$n" "$bin/fold-details" --uri "$uri" "${common[@]}" --src bill_detail \
    --dst detail_coll --drop-dst
  measure "fold-details --verify@$n" "$n" "$bin/fold-details" --uri "$uri" "${common[@]}" \
    --src bill_detail --dst detail_coll --verify
  measure "scancmp@$n" "$n" "$bin/scancmp" --uri "$uri" "${common[@]}" --parallel 4 --runs 1 \
    --out "$tmp/run$n.json"
  measure "layout-report@$n" "$n" "$bin/layout-report" "$tmp/run$n.json" -o "$tmp/report$n.md" --charts none
  rm -rf "$tmp/data$n"
done

jq -s --argjson cache "$cache_mib" --argjson bound "$bound" --arg load "$(cut -d' ' -f1-3 /proc/loadavg)" '
  {cache_mib: $cache, bound_mib: $bound, load_after: $load,
   runs: [.[] | . + {peak_rss_mib: (.peak_rss_kib / 1024 * 10 | round / 10),
                     ok: (.peak_rss_kib / 1024 <= $bound)}]}' "$tmp/lines.json" >"$tmp/all.json"
jq -r '
  def pad(n): tostring | . + "                          " | .[0:n];
  "peak RSS against the engine cache + \(.bound_mib - .cache_mib) MiB (load average after: \(.load_after))",
  "",
  "\("tool" | pad(24))  \("rows" | pad(9))  \("cache_MiB" | pad(9))  \("peak_RSS_MiB" | pad(12))  \("bound_MiB" | pad(9))  result",
  (.cache_mib as $c | .bound_mib as $b | .runs[] |
   "\(.tool | pad(24))  \(.rows | pad(9))  \($c | pad(9))  \(.peak_rss_mib | pad(12))  \($b | pad(9))  \(if .ok then "ok" else "OVER" end)"),
  "",
  "growth of the peak from the small to the large size (x10 rows):",
  (.runs | group_by(.tool)[] | sort_by(.rows) |
   "  \(.[0].tool | pad(24))  \(.[0].peak_rss_mib) -> \(.[-1].peak_rss_mib) MiB  (\(.[-1].peak_rss_mib - .[0].peak_rss_mib | . * 10 | round / 10) MiB)")
' "$tmp/all.json"
[ -z "$json_out" ] || cp "$tmp/all.json" "$json_out"
jq -e '[.runs[] | .ok] | all' "$tmp/all.json" >/dev/null || { echo "$me: a tool is over its bound" >&2; exit 1; }
