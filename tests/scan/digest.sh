#!/usr/bin/env bash
# digest.sh -- scancmp's digests hash the rows' content, on the embedded store or (--server) the test
# server: billgen's data and its fold, then
#   - unchanged: --workload load,update: exit 0, every run's and every workload's digest equal across the
#     layouts and not zero, rows_equal true;
#   - one row's non-key field changed in the detail collection only, by a writer that is not layoutlab
#     (test-store-cmd / test-mongo-cmd): --workload load exits 3 naming that row's master on stderr, the
#     file written with the runs' digests different; --workload update (its written masters read back)
#     and --workload load,update exit 3 with rows_equal false for each, the file written.
#
# Usage: digest.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" digest "$@"

# the test server (FerretDB on SQLite) writes slowly and scans the collection per query: fewer masters,
# rows (20 per bill on average) and corrections there (every master is corrected at this seed, so the
# changed one is read back)
bills=12 updates=100 gen=()
[ "$where" = server ] && bills=6 updates=30 gen=(--mean-rows 20)
expect 0 "$BIN/billgen" generate "${S[@]}" --bills $bills "${gen[@]}" --seed 5 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst folded -q
L=(--layout detail=bill_detail:rows --layout folded=folded:folded)
U=(--update-rows $updates --seed 3 --parallel 2)

# check -- python's assertions on results file $1 (argv[2] on: what is wanted), body on stdin.
check () {
  local what=$1; shift
  python3 - "$@" >"$T/check" 2>&1 || { fail "$what"; cat "$T/check" >&2; }
}

# 1. the same data: equal, non-zero digests everywhere
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,update "${U[@]}" -o "$T/same.json"
check "equal digests" "$T/same.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
runs = {x["layout"]: x["digest"] for x in r["runs"]}
assert len(set(runs.values())) == 1 and "0" * 16 not in runs.values(), runs
wl = {w["workload"]: w for w in r["workloads"]}
for name in ("load", "update"):
    d = {l["layout"]: l["digest"] for l in wl[name]["layouts"]}
    assert wl[name]["rows_equal"] is True, name
    assert len(set(d.values())) == 1 and "0" * 16 not in d.values(), (name, d)
assert wl["load"]["layouts"][0]["digest"] == runs["detail"], (wl["load"]["layouts"], runs)
PY

# 2. one row's item_name changed in the detail collection only (the key and the row count unchanged)
if [ "$where" = server ]; then
  expect 0 "$BIN/test-mongo-cmd" "$URI" "$DB" \
    '{"update": "bill_detail", "updates": [{"q": {"line_no": 2}, "u": {"$set": {"item_name": "changed"}}}]}'
  run "$BIN/test-mongo-cmd" "$URI" "$DB" --dump bill_detail
else
  run "$BIN/test-store-cmd" "${S[1]}" layoutlab dump bill_detail
  row=$(grep -m1 '"line_no" : { "$numberInt" : "2" }' "$T/out" | sed 's/"item_name" : "[^"]*"/"item_name" : "changed"/')
  expect 0 "$BIN/test-store-cmd" "${S[1]}" layoutlab upsert bill_detail "$row"
  run "$BIN/test-store-cmd" "${S[1]}" layoutlab dump bill_detail
fi
master=$(grep '"changed"' "$T/out" | sed -n 's/.*"bill_id" : { "$numberLong" : "\([0-9]*\)" }.*/\1/p')
[ "$(grep -c '"changed"' "$T/out")" = 1 ] && [ -n "$master" ] || fail "one row changed: $(grep -c '"changed"' "$T/out") rows say so"

# 3. the load alone: exit 3, the master named, the file written with the runs' digests different
expect 3 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load -o "$T/load.json"
grep -q "load: layouts detail and folded returned different rows.*bill_id $master " "$T/err" ||
  fail "the load's error does not name bill_id $master"
[ -s "$T/load.json" ] || fail "no results file after the load's difference"
check "the runs' digests" "$T/load.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
runs = {x["layout"]: x["digest"] for x in r["runs"]}
assert runs["detail"] != runs["folded"], runs
assert [x["rows"] for x in r["runs"]][0] == [x["rows"] for x in r["runs"]][1]
PY

# 4. the update alone: what it wrote is the same, the masters read back are not
expect 3 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload update "${U[@]}" -o "$T/update.json"
grep -q "update: layouts detail and folded returned different rows.*bill_id $master " "$T/err" ||
  fail "the update's error does not name bill_id $master"
check "update rows_equal false" "$T/update.json" <<'PY'
import json, sys
wl = {w["workload"]: w for w in json.load(open(sys.argv[1]))["workloads"]}
assert wl["update"]["rows_equal"] is False, wl["update"]["rows_equal"]
d = {l["layout"]: l["digest"] for l in wl["update"]["layouts"]}
assert d["detail"] != d["folded"], d
PY

# 5. both: each workload says rows_equal false
expect 3 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,update "${U[@]}" -o "$T/both.json"
grep -q "bill_id $master " "$T/err" || fail "the error does not name bill_id $master"
check "rows_equal false" "$T/both.json" <<'PY'
import json, sys
wl = {w["workload"]: w for w in json.load(open(sys.argv[1]))["workloads"]}
assert wl["load"]["rows_equal"] is False and wl["update"]["rows_equal"] is False, \
    (wl["load"]["rows_equal"], wl["update"]["rows_equal"])
PY

if [ "$where" = server ]; then
  "$BIN/test-mongo-cmd" "$URI" "$DB" '{"dropDatabase": 1}' >/dev/null 2>&1
fi
[ "$fails" = 0 ] || { echo "digest.sh ($where): $fails failure(s)" >&2; exit 1; }
echo "digest.sh ($where): ok"
