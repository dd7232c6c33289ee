#!/usr/bin/env bash
# workloads.sh -- scancmp --workload end to end, on the embedded store or (--server) the test
# server: billgen's data folded (one document per master) and in buckets of 20 rows, then
#   - a missing workload index is refused (exit 2) naming each createIndex command, nothing measured;
#   - --workload all --create-workload-indexes on detail, folded and buckets: exit 0, every workload's
#     rows equal across the layouts; the row workload returns exactly --row-keys rows; the range workload
#     returns the rows a scan of billgen's CSV export finds in the recorded windows; the aggregate's totals
#     per group equal those computed here from the CSV; the folded range reads through a multikey index;
#   - layout-report renders the ledger with every workload, and says the documents were decoded (--decode);
#   - (--server) a row deleted from the detail collection: the layouts differ, exit 3, the file written
#     with rows_equal false.
#
# Usage: workloads.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" workloads "$@"

# the test server (FerretDB on SQLite) scans for what mongod would seek: a smaller dataset there (each
# query scans the collection: 8 bills of 20 rows on average keep every workload, window and group)
bills=60 rowk=150 gen=()
[ "$where" = server ] && bills=8 rowk=20 gen=(--mean-rows 20)
expect 0 "$BIN/billgen" generate "${S[@]}" --bills $bills "${gen[@]}" --seed 7 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst bill_buckets --bucket-rows 20 -q
expect 0 "$BIN/billgen" export "${S[@]}" --src bill_detail -o "$T/detail.csv" -q
L=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded --layout buckets=bill_buckets:buckets)
W=(--workload all --row-keys $rowk --range-windows 6 --range-window 6h --parallel 2 --seed 3)

# 1. the indexes a DBA would create are asked for, by name, before anything is measured
expect 2 "$BIN/scancmp" "${S[@]}" "${L[@]}" "${W[@]}" -o "$T/refused.json"
for want in 'db.bill_detail.createIndex({ bill_id: 1, line_no: 1 })' 'db.bill_detail.createIndex({ charge_time: 1 })' \
            'db.detail_coll.createIndex({ "details.charge_time": 1 })' 'db.bill_buckets.createIndex({ "details.charge_time": 1 })' \
            '--create-workload-indexes'; do
  grep -qF -- "$want" "$T/err" || fail "the refusal does not name: $want"
done
[ ! -e "$T/refused.json" ] || fail "a refused run wrote its results file"

# 2. every workload on every layout, cold
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" "${W[@]}" --cold --create-workload-indexes --decode objects -o "$T/wl.json"
cp "$T/out" "$T/table.txt"
python3 - "$T/wl.json" "$T/detail.csv" "$where" "$rowk" >"$T/check" 2>&1 <<'PY' || { fail "results check"; cat "$T/check" >&2; }
import csv, json, sys
from datetime import datetime, timezone

res = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
where, rowk = sys.argv[3], int(sys.argv[4])
col = lambda name: next(c for c in rows[0] if c.split(".")[0] == name)
dept, amount, t = col("dept"), col("amount"), col("charge_time")
wl = {w["workload"]: w for w in res["workloads"]}
assert res["config"]["decode"] == "objects", res["config"].get("decode")
assert sorted(wl) == ["aggregate", "load", "range", "row"], sorted(wl)

def ms(v):
    if isinstance(v, dict):
        v = v["$date"]
        if isinstance(v, dict):
            return int(v["$numberLong"])
        if isinstance(v, (int, float)):
            return int(v)
    return int(datetime.strptime(v.replace("Z", "+00:00"), "%Y-%m-%dT%H:%M:%S.%f%z" if "." in v else "%Y-%m-%dT%H:%M:%S%z").timestamp() * 1000)

for name, w in wl.items():
    assert w["rows_equal"] is True, (name, "rows differ")
    got = {l["layout"]: l["rows_returned"] for l in w["layouts"]}
    assert len(set(got.values())) == 1, (name, got)
    dig = {l["layout"]: l["digest"] for l in w["layouts"]}
    if name in ("row", "range"):
        assert len(set(dig.values())) == 1 and "0" * 16 not in dig.values(), (name, dig)
row = wl["row"]
assert all(l["rows_returned"] == rowk for l in row["layouts"]), [l["rows_returned"] for l in row["layouts"]]
assert all(l["queries"] >= 1 for l in row["layouts"])

# the range: the rows of the recorded windows, counted from the CSV (a row in two windows counts twice)
p = wl["range"]["params"]
starts = [ms(s) for s in p["window_starts"]]
assert len(starts) == 6, starts
width = int(p["range_window_s"] * 1000)
times = [ms(r[t]) if "T" in r[t] else int(r[t]) for r in rows]
want = sum(1 for s in starts for x in times if s <= x < s + width)
got = wl["range"]["layouts"][0]["rows_returned"]
assert got == want, ("range rows", got, "CSV", want)
assert want > 0, "the windows hold no row"
folded = next(l for l in wl["range"]["layouts"] if l["layout"] == "folded")
ix = folded["indexes"][0]
assert ix["name"] == "details.charge_time_1" and ix["created"] is True, ix
if where == "embedded":
    assert ix["multikey"] is True, ix
    assert "multikey" in folded["plan"], folded["plan"]
assert ix["size_bytes"] > 0 or where == "server", ix

# the aggregate against totals computed here from the CSV
tot = {}
for r in rows:
    tot[r[dept]] = tot.get(r[dept], 0.0) + float(r[amount])
agg = wl["aggregate"]
by = agg["result"]["by_group"]
names = {k.strip('"'): v for k, v in by.items()}
assert sorted(names) == sorted(tot), (sorted(names), sorted(tot))
for k, v in tot.items():
    assert abs(names[k] - v) <= 1e-6 * max(1.0, abs(v)), (k, names[k], v)
assert all(l["rows_returned"] == len(rows) for l in agg["layouts"]), [l["rows_returned"] for l in agg["layouts"]]
load = wl["load"]
assert load["winner"] in ("detail", "folded", "buckets")
print("ok: %d rows, range %d rows in %d windows, %d groups" % (len(rows), want, len(starts), len(tot)))
PY
grep -q '^What each query costs' "$T/table.txt" || fail "the terminal shows no ledger"

# 3. the report's ledger
expect 0 "$BIN/layout-report" "$T/wl.json" -o "$T/wl.md" -q --charts none
for want in '`--decode objects`' '## What each query costs' '**row**' '**range**' '**aggregate**' '**load (key order)**' 'details.charge_time_1'; do
  grep -qF -- "$want" "$T/wl.md" || fail "the report lacks: $want"
done

# 4. (server) different data in one layout: exit 3, the file kept, rows_equal false
if [ "$where" = server ]; then
  expect 0 "$BIN/test-mongo-cmd" "$URI" "$DB" '{"delete": "bill_detail", "deletes": [{"q": {"line_no": 1}, "limit": 1}]}'
  expect 3 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,aggregate --parallel 2 -o "$T/differ.json"
  grep -q 'different results' "$T/err" || fail "exit 3 without saying the layouts returned different results"
  python3 -c "import json,sys; w={x['workload']:x for x in json.load(open(sys.argv[1]))['workloads']}; assert w['aggregate']['rows_equal'] is False" \
    "$T/differ.json" 2>"$T/err" || fail "the differing run's file does not say rows_equal false"
  "$BIN/test-mongo-cmd" "$URI" "$DB" '{"dropDatabase": 1}' >/dev/null 2>&1
fi

[ "$fails" -eq 0 ] && echo "workloads ($where): all checks passed" || echo "workloads ($where): $fails failed" >&2
[ "$fails" -eq 0 ]
