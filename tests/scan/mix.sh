#!/usr/bin/env bash
# mix.sh -- scancmp --mix (the user's mix), on the embedded store or (--server) the test server:
# billgen's data folded with a small cap (appends continue masters in new parts) and copied row for row
# (--shape sorted), then
#   - bad --mix values exit 2 naming the bad part (aggregate refused with its reason);
#   - a mix of loads, rows, windows, appends and corrections on detail and folded with 2 workers: exit 0,
#     the "mix" object as docs/results-schema.md "The mix" says, rows_equal and the same digest on both
#     layouts, per-type counts as the proportions, the write costs known (embedded), the verdict printed;
#   - the closed loop says so (mode closed, rate null, latency = service time), with the CPU of the client
#     and the store;
#   - --mix-rate: bad values exit 2; an open loop at a rate the machine sustains records mode open, its
#     rate, latencies from the intended starts no lower than the service times (per percentile, the same
#     counts), an achieved rate no higher than asked; at 10^7 ops/s it is flagged behind; percentiles of
#     fewer ops than they need (p50 2, p95 20, p99 100) are null in the file and n/a on the terminal;
#   - fold-details --verify still finds detail and folded equal: the same logical writes landed on both;
#   - the copy taken before the mix no longer holds detail's rows: a read-only mix over detail and the
#     copy exits 3, the file kept with rows_equal false.
#
# Usage: mix.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" mix "$@"

bills=60 ops=3000 dops=200 dmix=load=1,range=1 gen=()
# the test server (FerretDB on SQLite) rewrites a whole document per write and scans for a window: fewer
# (every op's cost there grows with the collection: 6 bills of 20 rows on average, 172 rows, and 60 ops
# keep every op type and check, masters split at the cap)
[ "$where" = server ] && bills=6 ops=60 dops=30 dmix=load=1 gen=(--mean-rows 20)
expect 0 "$BIN/billgen" generate "${S[@]}" --bills $bills "${gen[@]}" --seed 7 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll --max-doc-bytes 8KiB -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst bill_copy --shape sorted -q
L=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded)
MIX=load=5,row=60,range=5,append=25,update=5

# 1. bad values: exit 2, the bad part named
bad () {
  local want=$1; shift
  expect 2 "$BIN/scancmp" "${S[@]}" "${L[@]}" "$@"
  grep -qF -- "$want" "$T/err" || fail "--mix $*: no '$want' in the message"
}
bad "--mix 'load=5,aggregate=1': item 2 'aggregate=1': one aggregate is a scan of the whole collection; measure it alone with --workload aggregate" \
  --mix load=5,aggregate=1
bad "item 2 'rows=3': unknown type 'rows'" --mix load=1,rows=3
bad "item 1 'row=x': the weight of row must be a number from 0 to 1000000" --mix row=x
bad "item 2 'load=1': 'load' is given twice" --mix load=1,load=1
bad "item 1 'row': not TYPE=WEIGHT" --mix row
bad "every weight is 0" --mix row=0
bad "--mix is measured at one cache" --mix row=1 --cache-ratios 0.5,1
bad "--mix-ops" --mix row=1 --mix-ops 0
bad "--mix-rate '0': give the operations per second" --mix row=1 --mix-rate 0
bad "--mix-rate '-5': give the operations per second" --mix row=1 --mix-rate -5
bad "--mix-rate 'fast': give the operations per second" --mix row=1 --mix-rate fast
bad "--mix-rate paces the stream of --mix" --mix-rate 100

# 2. the mix on detail and folded
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --mix $MIX --mix-ops $ops --parallel 2 --seed 5 --cold \
  --create-workload-indexes -o "$T/m.json"
grep -q "^Under this mix (load 5%, row 60%, range 5%, append 25%, update 5%) the .* layout is .*x faster overall than" "$T/out" ||
  fail "no verdict in the terminal summary"
python3 - "$T/m.json" "$where" "$ops" >"$T/check" 2>&1 <<'PY' || { fail "results check"; cat "$T/check" >&2; }
import json, sys
res = json.load(open(sys.argv[1]))
where, ops = sys.argv[2], int(sys.argv[3])
m = res["mix"]
# "cold_reason" only when not cold (a server without --restart-cmd keeps its engine cache)
assert list(m) == ["estimated", "spec", "proportions", "ops", "seed", "workers", "cold"] + \
    (["cold_reason"] if "cold_reason" in m else []) + ["source", "mode", "rate_ops_s", "behind", "saturated",
                                                       "rows_equal", "winner", "same", "rule", "layouts"], list(m)
assert m["mode"] == "closed" and m["rate_ops_s"] is None and m["behind"] is False, m
assert m["estimated"] is False and m["spec"] == "load=5,row=60,range=5,append=25,update=5", m["spec"]
assert m["proportions"] == {"load": 5, "row": 60, "range": 5, "append": 25, "update": 5}, m["proportions"]
assert m["ops"] == ops and m["seed"] == 5 and m["workers"] == 2, m
assert m["rows_equal"] is True, "rows differ"
assert m["winner"] in ("detail", "folded")
want = {"load": ops * 5 // 100, "row": ops * 60 // 100, "range": ops * 5 // 100, "append": ops * 25 // 100,
        "update": ops * 5 // 100}
keys = ["layout", "collection", "kind", "state", "elapsed_s", "ops_per_s", "x_vs_winner", "latency_s", "cpu",
        "by_type", "disk_read_bytes",
        "disk_reads", "disk_write_bytes", "engine_write_bytes", "journal_bytes", "oplog_bytes", "oplog_entries",
        "oplog_bytes_per_write", "oplog", "cpu_s", "digest"]
runkeys = ["nruns", "elapsed_s_min", "elapsed_s_max", "runs"]
digests = set()
for l in m["layouts"]:
    # "oplog" (why the oplog is unknown) only when it is: always here, no replica set (mongodb-compat.md §26)
    # then the cold verdict and what else ran: "cold" always, the others when known / not cold
    # then the cold verdict and what else ran ("cold" always, the others when known / not cold), then the runs
    assert list(l)[:len(keys)] == keys and list(l)[len(keys)] == "cold", list(l)
    assert list(l)[-len(runkeys):] == runkeys, list(l)
    assert set(list(l)[len(keys) + 1:-len(runkeys)]) <= {"cold_reason", "engine_cache_bytes_before", "background"}, list(l)
    why = "no oplog: a standalone engine" if where == "embedded" else "not a replica set member"
    assert l["oplog_bytes"] == -1 and l["oplog_entries"] == -1 and l["oplog_bytes_per_write"] == -1, l
    assert why in l["oplog"], l["oplog"]
    got = {t["op"]: t["ops"] for t in l["by_type"]}
    assert got == want, (l["layout"], got, want)
    assert [t["op"] for t in l["by_type"]] == ["load", "row", "range", "append", "update"]
    c = l["cpu"]
    assert c["client_s"] >= 0 and c["client_cores"] >= 0 and c["machine_cores"] >= 1, c
    if where == "embedded":
        assert c["store_s"] == c["client_s"] and "same process" in c["store"], c
    for t in l["by_type"]:
        # a closed loop: an op's latency is its service time
        assert t["latency_ms"] == t["service_ms"] and t["latency_ms"]["count"] == t["ops"], t
        assert t["time_s"] > 0 and t["latency_ms"]["p50"] >= 0 and t["latency_ms"]["max"] >= t["latency_ms"]["p50"], t
        assert t["rows"] >= (t["ops"] if t["op"] in ("row", "append", "update", "load") else 0), t
        if t["op"] in ("append", "update"):
            assert t["rows"] == t["ops"], t
    assert l["elapsed_s"] > 0 and l["ops_per_s"] > 0 and l["x_vs_winner"] >= 1, l
    if where == "embedded":
        assert l["journal_bytes"] > 0 and l["engine_write_bytes"] >= l["journal_bytes"], l
    digests.add(l["digest"])
assert len(digests) == 1, digests
win = next(l for l in m["layouts"] if l["layout"] == m["winner"])
assert win["x_vs_winner"] == 1, win
print("ok")
PY

# 3. the open loop: at a rate the machine sustains, then at one it cannot, with too few ops for some
# percentiles (the checks are invariants, never timings)
rate=200 rops=200
[ "$where" = server ] && rate=20 rops=60
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --mix $MIX --mix-ops $rops --mix-rate $rate --parallel 2 --seed 6 \
  --create-workload-indexes -o "$T/open.json"
grep -q "open loop at $rate ops/s" "$T/out" || fail "the open loop's summary does not say its mode and rate"
grep -q "svc p50" "$T/out" || fail "the open loop's summary has no service times"
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --mix $MIX --mix-ops 30 --mix-rate 1e7 --parallel 2 --seed 6 \
  --create-workload-indexes -o "$T/behind.json"
grep -q "BEHIND SCHEDULE" "$T/out" || fail "a rate the machine cannot sustain is not flagged behind"
grep -q " n/a " "$T/out" || fail "the terminal shows percentiles of too few ops"
python3 - "$T/open.json" "$T/behind.json" "$rate" "$rops" >"$T/check" 2>&1 <<'PY' || { fail "open loop check"; cat "$T/check" >&2; }
import json, sys
need = {"p50": 2, "p95": 20, "p99": 100}
def check(path, rate, ops):
    m = json.load(open(path))["mix"]
    assert m["mode"] == "open" and m["rate_ops_s"] == rate and m["ops"] == ops, m
    for l in m["layouts"]:
        s = l["schedule"]
        assert s["rate_ops_s"] == rate and 0 < s["achieved_ops_s"] <= rate and s["max_lag_ms"] >= s["mean_lag_ms"] >= 0, s
        assert list(l["cpu"]) == ["elapsed_s", "client_s", "client_cores", "store_s", "store_cores", "store",
                                  "machine_busy_cores", "machine_cores", "saturated"], l["cpu"]
        assert sum(t["ops"] for t in l["by_type"]) == ops
        c = l["cpu"]  # whose the store's CPU is, and a figure that matches it
        if "same process" in c["store"]:
            assert c["store_s"] == c["client_s"] >= 0, c
        elif "server's process" in c["store"]:
            assert c["store_s"] >= 0 and c["store_cores"] >= 0, c
        else:
            assert c["store_s"] == -1 and c["store"].startswith("unknown"), c
        for t in l["by_type"]:
            lat, svc = t["latency_ms"], t["service_ms"]
            assert lat["count"] == svc["count"] == t["ops"], t
            for p, n in need.items():
                # too few ops: null, in both; else the latency from the intended start >= the service time
                assert (lat[p] is None) == (svc[p] is None) == (t["ops"] < n), (p, t)
                assert lat[p] is None or lat[p] >= svc[p], (p, t)
            assert lat["max"] >= svc["max"] and lat["mean"] >= svc["mean"], t
    return m
m = check(sys.argv[1], float(sys.argv[3]), int(sys.argv[4]))
b = check(sys.argv[2], 1e7, 30)
assert b["behind"] is True and all(l["schedule"]["behind"] for l in b["layouts"]), b
assert any(t["latency_ms"]["p95"] is None for l in b["layouts"] for t in l["by_type"])
print("ok")
PY

# 4. the same logical writes on both sides: the fold's own verification still holds
expect 0 "$BIN/fold-details" "${S[@]}" --verify --src bill_detail --dst detail_coll --max-doc-bytes 8KiB -q

# 5. the copy taken before the mix lacks its appends: a read-only mix over detail and the copy differs
expect 3 "$BIN/scancmp" "${S[@]}" --layout detail=bill_detail:rows --layout copy=bill_copy:rows \
  --mix $dmix --mix-ops $dops --parallel 2 --seed 5 --create-workload-indexes -o "$T/d.json"
grep -q "RESULTS DIFFER" "$T/out" || fail "the differing mix's summary does not say so"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["mix"]; assert m["rows_equal"] is False, m' \
  "$T/d.json" 2>"$T/err" || fail "the differing mix's file does not say rows_equal false"

if [ "$fails" -ne 0 ]; then
  echo "mix ($where): $fails check(s) failed" >&2
  exit 1
fi
echo "mix ($where): ok"
