#!/usr/bin/env bash
# cold_truth.sh -- cold labels that are true, and what else ran (docs/results-schema.md "cold",
# "background", "calibration"), on the embedded store or (--server) the test server:
#   embedded  --cold runs record started_cold true and the engine's bytes of the collection after the
#             reopen (engine_cache_bytes_before); a busy loop run beside the measurement shows as other
#             processes' CPU (> 0) and the busy flag, in runs[], the workloads and the report ("the machine
#             was busy"); --calibrate records the reread probe (never-read and re-read p50/p90) and the
#             report prints it;
#   server    --cold without --restart-cmd drops the OS page cache (the test hook's file) but leaves the
#             server's process, and its engine cache, running: every runs[] entry, workloads[].layouts[]
#             entry and the mix's layouts say cold false, "OS cache dropped, engine cache warm", and the
#             report says exactly that, never "started cold".
#
# Usage: cold_truth.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" cold_truth "$@"

export LAYOUTLAB_DROP_CACHES_PATH="$T/drop_caches" # never drop the machine's page cache from a test
: >"$LAYOUTLAB_DROP_CACHES_PATH"
bills=300 gen=()
# the test server (FerretDB on SQLite) scans the collection for each key: its time grows with bills x
# rows; its checks are the cold labels, which 4 bills of 20 rows on average show as well as 20 of 130
[ "$where" = server ] && bills=4 gen=(--mean-rows 20)
expect 0 "$BIN/billgen" generate "${S[@]}" --bills $bills "${gen[@]}" --seed 7 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll -q
L=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded)

if [ "$where" = embedded ]; then
  # a busy loop beside the runs: another process using a core
  sh -c 'while :; do :; done' &
  busy=$!
  expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --cold --runs 2 --parallel 1 --workload load,row --row-keys 200 \
    --create-workload-indexes --calibrate --calibrate-size 4MiB --calibrate-time 200ms -o "$T/r.json"
  kill "$busy"
  wait "$busy" 2>/dev/null
  python3 - "$T/r.json" >"$T/check" 2>&1 <<'PY' || { fail "results check"; cat "$T/check" >&2; }
import json, sys
r = json.load(open(sys.argv[1]))
busy = False
for e in r["runs"]:
    c = e["cold"]
    assert c["started_cold"] is True and "reason" not in c, c
    assert isinstance(c.get("engine_cache_bytes_before"), int) and c["engine_cache_bytes_before"] >= 0, c
    bg = e["background"]
    for k in ("load_avg_1m_start", "load_avg_1m_end", "steal_pct", "other_cpu_s", "other_cores", "busy"):
        assert k in bg, (k, bg)
    busy = busy or bg["busy"]
assert max(e["background"]["other_cpu_s"] for e in r["runs"]) > 0, [e["background"] for e in r["runs"]]
assert busy, [e["background"] for e in r["runs"]]
row = next(w for w in r["workloads"] if w["workload"] == "row")
for l in row["layouts"]:
    assert l["cold"] is True and "cold_reason" not in l, l
    assert l["engine_cache_bytes_before"] >= 0 and "background" in l, l
    assert l["disk_bytes_per_row_source"] == "engine", l
    assert l["disk_bytes_per_row"] == round(l["engine_read_bytes"] / l["rows_returned"], 1), l
    assert "device_bytes_per_row" in l, l
c = r["calibration"]
for k in ("first_read_p50_ms", "first_read_p90_ms", "reread_p50_ms", "reread_p90_ms"):
    assert c[k] > 0, (k, c)
assert isinstance(c["rereads_cached"], bool) and c["reread_blocks"] > 0 and c["reread_source"], c
PY
  expect 0 "$BIN/layout-report" "$T/r.json" -o "$T/report.md"
  for want in 'the machine was busy' '**Warning**: the machine was busy during' 'blocks never read' 'other processes on this machine used at most' \
              'device bytes per row (the whole device: other processes and the journal too)'; do
    grep -qF -- "$want" "$T/report.md" || fail "the report does not say: $want"
  done
  # the audit's VM: rereads a hundred times faster than never-read blocks -- the report says what that means
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["calibration"].update(first_read_p50_ms=9.1, first_read_p90_ms=17.7, reread_p50_ms=0.12, reread_p90_ms=0.17, rereads_cached=True); json.dump(r, open(sys.argv[2], "w"))' "$T/r.json" "$T/cached.json"
  expect 0 "$BIN/layout-report" "$T/cached.json" -o "$T/cached.md"
  grep -qF 'a cache below this machine served re-reads: absolute times are not cold; the ratios between layouts hold' "$T/cached.md" ||
    fail "the report does not say a cache below served the rereads"
  grep -qF 'p50 9.100 ms, p90 17.700 ms; the same blocks read again: p50 0.120 ms, p90 0.170 ms' "$T/cached.md" ||
    fail "the report does not give both reread figures"
else
  expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --cold --runs 1 --workload load,row --row-keys 10 \
    --create-workload-indexes -o "$T/r.json"
  expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --cold --mix load=1,row=2 --mix-ops 12 --row-keys 10 \
    -o "$T/mix.json"
  python3 - "$T/r.json" "$T/mix.json" >"$T/check" 2>&1 <<'PY' || { fail "results check"; cat "$T/check" >&2; }
import json, sys
r, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = "OS cache dropped, engine cache warm"
for doc in (r, m):
    for e in doc["runs"]:
        c = e["cold"]
        assert c["caches_dropped"] is True, c
        assert c["started_cold"] is False and c["reason"] == want, c
        # FerretDB has no WiredTiger cache: unknown, left out
        assert isinstance(c.get("engine_cache_bytes_before", 0), int), c
for w in r["workloads"]:
    for l in w["layouts"]:
        assert l["cold"] is False and l["cold_reason"] == want, (w["workload"], l)
mx = m["mix"]
assert mx["cold"] is False and mx["cold_reason"] == want and want in mx["source"], mx
for l in mx["layouts"]:
    assert l["cold"] is False and l["cold_reason"] == want, l
PY
  for f in r mix; do
    expect 0 "$BIN/layout-report" "$T/$f.json" -o "$T/$f.md"
    grep -qF 'OS cache dropped, engine cache warm' "$T/$f.md" || fail "$f.md does not say the engine cache was warm"
    grep -qE '\*\*Not cold\*\* \([0-9]+ of [0-9]+ runs\): OS cache dropped, engine cache warm' "$T/$f.md" ||
      fail "$f.md's verdict does not say the runs were not cold"
    if grep -qiF 'started cold' "$T/$f.md" || grep -qF 'cold start' "$T/$f.md"; then
      fail "$f.md says the runs started cold"
    fi
  done
fi

[ "$fails" = 0 ] || exit 1
echo "cold_truth ($where): ok"
