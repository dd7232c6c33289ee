#!/usr/bin/env bash
# writes.sh -- scancmp --workload append,update, on the embedded store or (--server) the test
# server: billgen's data folded with a small cap (so that masters are split into parts, and the appends
# continue them in new parts) and in buckets of 20 rows, then
#   - append and update on detail, folded and buckets: exit 0, the same rows written on every layout
#     (rows_equal), every write counted, new parts created on the folded layouts;
#   - fold-details --verify still finds detail and each folded layout equal (row counts, checksums, parts,
#     the cap, bucket_rows): the same logical writes landed on both;
#   - the write costs are recorded (embedded: journal and checkpoint bytes, write amplification);
#   - the folded documents grew;
#   - the load measured again after the appends (load_after_writes) reads every appended row back, --runs
#     times on every layout as the load before them;
#   - in a cache sweep the writes run at the reference point only, measured after every other point.
#
# Usage: writes.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" writes "$@"

bills=60 appends=400 updates=150 gen=()
# the test server (FerretDB on SQLite) rewrites a whole document per write and scans the collection for
# each (its time grows with the rows): fewer there, 6 bills of 20 rows on average (172 rows, not 1,110:
# a third of the server's CPU) still split masters at the cap (8 folded documents) and fill buckets, which
# the appends continue
[ "$where" = server ] && bills=6 appends=30 updates=10 gen=(--mean-rows 20)
expect 0 "$BIN/billgen" generate "${S[@]}" --bills $bills "${gen[@]}" --seed 7 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll --max-doc-bytes 8KiB -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst bill_buckets --bucket-rows 20 -q
L=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded --layout buckets=bill_buckets:buckets)

expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,append,update --append-rows $appends \
  --update-rows $updates --parallel 2 --seed 5 --cold --runs 2 -o "$T/w.json"
# the load after the appends is measured --runs times, as the load before them, each layout each run
for l in detail folded buckets; do
  for r in 1 2; do
    grep -q "load after the writes, $l, run $r of 2:" "$T/err" || fail "no run $r of the load after the writes on $l"
  done
done
python3 - "$T/w.json" "$where" "$appends" "$updates" >"$T/check" 2>&1 <<'PY' || { fail "results check"; cat "$T/check" >&2; }
import json, sys
res = json.load(open(sys.argv[1]))
where, appends, updates = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
wl = {w["workload"]: w for w in res["workloads"]}
assert sorted(wl) == ["append", "load", "load_after_writes", "update"], sorted(wl)
# the load again after the appends: every appended row is read back, on every layout (--runs 2: each run
# appended its own rows, which stay)
for l in wl["load_after_writes"]["layouts"]:
    before = next(x for x in wl["load"]["layouts"] if x["layout"] == l["layout"])
    assert l["rows_returned"] == before["rows_returned"] + 2 * appends, (l["layout"], l["rows_returned"], before["rows_returned"])
for name, n in (("append", appends), ("update", updates)):
    w = wl[name]
    assert w["rows_equal"], (name, "rows differ")
    for l in w["layouts"]:
        c = l["write"]
        assert c["writes"] == n, (name, l["layout"], c["writes"])
        if where == "embedded":
            # the test server (FerretDB) has no WiredTiger statistics: unknown there (-1)
            assert c["journal_bytes"] > 0, (name, l["layout"], "no journal bytes", c)
            assert c["checkpoint_bytes"] > 0 and c["write_amplification"] > 0, (name, l["layout"], c)
        # no oplog to read (docs/mongodb-compat.md §26): embedded, and the test server is no replica set
        why = "no oplog: a standalone engine" if where == "embedded" else "not a replica set member"
        assert c["oplog_bytes"] == -1 and c["oplog_entries"] == -1 and c["oplog_bytes_per_write"] == -1, (name, l["layout"], c)
        assert why in c.get("oplog", ""), (name, l["layout"], c.get("oplog"))
a = {l["layout"]: l["write"] for l in wl["append"]["layouts"]}
assert a["folded"]["parts_created"] > 0, "no master of the folded layout reached the 8 KiB cap"
assert a["buckets"]["parts_created"] > 0, "no bucket filled up"
assert a["detail"]["parts_created"] == 0
assert a["folded"]["avg_doc_bytes_after"] != a["folded"]["avg_doc_bytes_before"], "the folded documents did not change"
print("ok")
PY

# a sweep with writes: they change the data, so they run at the reference point only (the one nearest
# ratio 1: here 2, its ledger the file's), measured after every other point: the others read unchanged data
if [ "$where" = embedded ]; then
  expect 0 "$BIN/billgen" generate "${S[@]}" --dst sw_detail --bills 40 --seed 9 -q
  expect 0 "$BIN/fold-details" "${S[@]}" --src sw_detail --dst sw_coll -q
  expect 0 "$BIN/scancmp" "${S[@]}" --layout detail=sw_detail:rows --layout folded=sw_coll:folded \
    --workload load,append --append-rows 30 --cache-ratios 2,4,8 --seed 5 -o "$T/sw.json"
  python3 - "$T/sw.json" >"$T/check" 2>&1 <<'PY' || { fail "sweep with writes"; cat "$T/check" >&2; }
import json, sys
res = json.load(open(sys.argv[1]))
pts, ref = res["sweep"], res["sweep_reference"]
assert ref == 0, ref
rows = {}
for i, p in enumerate(pts):
    wl = {w["workload"]: w for w in p.get("workloads", [])}
    assert ("append" in wl) == (i == ref), (i, sorted(wl))
    rows[i] = {r["layout"]: r["rows"] for r in p["runs"]}
# the points after the reference (ratios 4 and 8) were measured before its appends: the same rows
assert rows[1] == rows[0] and rows[2] == rows[0], rows
after = {l["layout"]: l["rows_returned"] for l in {w["workload"]: w for w in pts[ref]["workloads"]}["load_after_writes"]["layouts"]}
assert all(after[k] == rows[0][k] + 30 for k in after), (after, rows[0])
assert [w["workload"] for w in res["workloads"]] == [w["workload"] for w in pts[ref]["workloads"]]
print("ok")
PY
  # a clustered copy: its load is a range of its _id, no key index asked for; its appends land
  # with their bill, the same rows as detail's
  expect 0 "$BIN/fold-details" "${S[@]}" --src sw_detail --dst sw_clustered --shape clustered -q
  expect 0 "$BIN/scancmp" "${S[@]}" --layout detail=sw_detail:rows --layout clustered=sw_clustered:rows \
    --workload load,append --append-rows 30 --seed 6 -o "$T/cl.json"
  python3 - "$T/cl.json" >"$T/check" 2>&1 <<'PY' || { fail "clustered load and appends"; cat "$T/check" >&2; }
import json, sys
wl = {w["workload"]: w for w in json.load(open(sys.argv[1]))["workloads"]}
for name in ("load", "append", "load_after_writes"):
    assert wl[name]["rows_equal"], name
    rows = {l["layout"]: l["rows_returned"] for l in wl[name]["layouts"]}
    assert rows["detail"] == rows["clustered"], (name, rows)
print("ok")
PY
fi

# the same logical writes on both sides: the fold's own verification still holds
expect 0 "$BIN/fold-details" "${S[@]}" --verify --src bill_detail --dst detail_coll --max-doc-bytes 8KiB -q
expect 0 "$BIN/fold-details" "${S[@]}" --verify --src bill_detail --dst bill_buckets --bucket-rows 20 -q

if [ "$fails" -ne 0 ]; then
  echo "writes ($where): $fails check(s) failed" >&2
  exit 1
fi
echo "writes ($where): ok"
