#!/usr/bin/env bash
# guard.sh -- what a tool may write: on collections layoutlab did not write (no _layoutlab record: made here
# through the store interface by scan-testdata, as a user's client would make them), with standard input
# not a terminal,
#   - scancmp's write workloads (append, update), a --mix holding either, --create-workload-indexes and
#     --create-index, and fold-details --create-index on such a source, each exit 2 before anything is
#     sent, naming the collection, the marked copy and --allow-writes; --yes is no override;
#   - the collections are unchanged afterwards: every document in natural order, and none of the indexes
#     the refused commands would have built (nor a record of one in _layoutlab);
#   - --allow-writes naming both collections lets the writes run, records the names in the results, and
#     the index a tool then builds on one of them is recorded in _layoutlab as built on a foreign one;
#   - marked copies (fold-details --shape copy) take the writes without a word, the original unchanged;
#   - the report names the index built on a measured collection.
#
# Usage: guard.sh [--server]
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" guard "$@"

SC="$BIN/test-store-cmd"
dburi=${URI:-wiredtiger:$T/wt}
dbname=${DB:-layoutlab}
expect 0 "$BIN/scan-testdata" "${S[@]}" --bills 30 --rows 4
# fingerprint -- both collections' documents and the indexes a refused command would build (a yes or no
# line each: bill_detail's line, ts, bill_id+line, item_code, then detail_coll's details.ts, item_code), in
# one open of the store (five fingerprints of ten opens each were half of this test's CPU time)
fingerprint () {
  local f ops=(dump bill_detail)
  export MONGOC_DISABLE_SHM=1 # no driver warning about its counters in what is compared
  for f in line ts bill_id,line item_code; do ops+=(+ has-index bill_detail "$f"); done
  ops+=(+ dump detail_coll)
  for f in details.ts item_code; do ops+=(+ has-index detail_coll "$f"); done
  "$SC" "$dburi" "$dbname" "${ops[@]}"
  "$SC" "$dburi" "$dbname" dump _layoutlab 2>/dev/null | grep -c '"\$index:\(bill_detail\|detail_coll\):' || true
}
fingerprint >"$T/before" 2>&1 || fail "fingerprint before: $(cat "$T/before" | tail -2)"
[ -s "$T/before" ] || fail "empty fingerprint"

W=(--line-field line --time-field ts --sum-field price --group-field item_code --seed 3)
refused () { # refused WHAT CMD...: exit 2, the collection named, the ways on named, stdin not a terminal
  local what=$1; shift
  run "$@" </dev/null
  [ "$rc" = 2 ] || fail "$what: exit $rc, wanted 2"
  grep -q "layoutlab did not write" "$T/err" || fail "$what: the refusal does not say why"
  grep -q -- "--allow-writes" "$T/err" || fail "$what: the refusal does not name --allow-writes"
  grep -q -- "--shape copy" "$T/err" || fail "$what: the refusal does not name the marked copy"
  grep -q -- "--uri" "$T/err" || fail "$what: the copy command does not name the store"
}
refused append "$BIN/scancmp" "${S[@]}" --workload load,append --append-rows 5 "${W[@]}"
refused update "$BIN/scancmp" "${S[@]}" --workload update --update-rows 5 "${W[@]}"
refused "mix" "$BIN/scancmp" "${S[@]}" --mix load=1,update=1 --mix-ops 10 "${W[@]}"
refused "workload indexes" "$BIN/scancmp" "${S[@]}" --workload load,range --create-workload-indexes "${W[@]}"
# two rows layouts with an unindexed key field both hold: the one missing index would be built
expect 0 "$SC" "$dburi" "$dbname" insert g_rows '{"item_code": "ITEM-00001", "line": 0}'
refused "scancmp --create-index" "$BIN/scancmp" "${S[@]}" --layout a=bill_detail:rows --layout b=g_rows:rows \
  --key item_code --create-index
refused "fold-details --create-index" "$BIN/fold-details" "${S[@]}" --src bill_detail --dst g_fold \
  --key item_code --create-index
refused "fold-details --create-index --yes" "$BIN/fold-details" "${S[@]}" --src bill_detail --dst g_fold \
  --key item_code --create-index --yes
refused "fold-details --plan --create-index" "$BIN/fold-details" "${S[@]}" --src bill_detail --dst g_fold \
  --key item_code --create-index --plan
# an --allow-writes naming another collection is no override either
refused "allow other" "$BIN/scancmp" "${S[@]}" --workload update --update-rows 5 --allow-writes other "${W[@]}"
fingerprint >"$T/after" 2>&1
cmp -s "$T/before" "$T/after" || { fail "a refused command changed a collection"; diff "$T/before" "$T/after" | head -5 >&2; }
run "$SC" "$dburi" "$dbname" dump g_fold
[ ! -s "$T/out" ] || fail "the refused fold wrote its destination"

# named explicitly: the writes run, the names are recorded, the index built is recorded as on a foreign one
expect 0 "$BIN/scancmp" "${S[@]}" --workload load,append,update --append-rows 5 --update-rows 5 \
  --allow-writes bill_detail --allow-writes detail_coll "${W[@]}" -o "$T/w.json" </dev/null
python3 - "$T/w.json" >"$T/check" 2>&1 <<'PY' || { fail "allowed run's results"; cat "$T/check" >&2; }
import json, sys
res = json.load(open(sys.argv[1]))
assert res["config"]["allow_writes"] == ["bill_detail", "detail_coll"], res["config"].get("allow_writes")
PY
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst g_fold --key item_code --create-index \
  --allow-writes bill_detail </dev/null
run "$SC" "$dburi" "$dbname" dump _layoutlab
grep '"\$index:bill_detail:item_code_1"' "$T/out" >"$T/rec"
grep -q '"on_foreign" : true' "$T/rec" || fail "no record of the index built on bill_detail as on a foreign collection"
grep -q '"tool" : "fold-details"' "$T/rec" || fail "the index record does not name the tool"
grep -q '"--allow-writes"' "$T/rec" || fail "the index record has no command line"
# billgen import --append to a collection layoutlab did not write: the rows the user named it for, and no
# index built on it (nor recorded)
printf 'item_code,line\nITEM-00002,1\nITEM-00003,2\n' >"$T/rows.csv"
expect 0 "$BIN/billgen" import "${S[@]}" --dst g_rows --append --headerline --key item_code "$T/rows.csv" </dev/null
grep -q "not building the index on 'item_code' of 'g_rows'" "$T/err" || fail "import --append did not say why it built no index"
[ "$("$SC" "$dburi" "$dbname" dump g_rows | wc -l)" = 3 ] || fail "import --append did not add its 2 rows to g_rows"
[ "$("$SC" "$dburi" "$dbname" has-index g_rows item_code)" = no ] || fail "import --append indexed g_rows"
"$SC" "$dburi" "$dbname" dump _layoutlab | grep -q '"\$index:g_rows:' && fail "an index record on g_rows"
"$SC" "$dburi" "$dbname" dump _layoutlab | grep -q '"_id" : "g_rows"' && fail "import --append marked g_rows as layoutlab's"

# the way the refusal names: marked copies, which the writes may change (the original stays as it was)
fingerprint >"$T/before-copy" 2>&1
expect 0 "$BIN/fold-details" "${S[@]}" --shape copy --src bill_detail --dst bd_copy --verify </dev/null
expect 0 "$BIN/fold-details" "${S[@]}" --shape copy --src bill_detail --dst bd_copy2 </dev/null
expect 0 "$BIN/scancmp" "${S[@]}" --layout a=bd_copy:rows --layout b=bd_copy2:rows --workload load,append,update \
  --append-rows 5 --update-rows 5 "${W[@]}" </dev/null
fingerprint >"$T/after-copy" 2>&1
cmp -s "$T/before-copy" "$T/after-copy" || { fail "writes on the copies changed the original"; diff "$T/before-copy" "$T/after-copy" | head -5 >&2; }
# the report names the index a tool built on a measured collection
expect 0 "$BIN/scancmp" "${S[@]}" --workload load -o "$T/r.json" </dev/null
expect 0 "$BIN/layout-report" "$T/r.json" --charts none -o "$T/r.md"
grep -q 'indexes layoutlab tools built on these collections.*detail `item_code_1` (fold-details, .*on a collection layoutlab did not write' "$T/r.md" ||
  fail "the report does not name the index fold-details built on bill_detail"
fingerprint >"$T/after2" 2>&1
cmp -s "$T/before" "$T/after2" && fail "the allowed writes changed nothing"

[ "$fails" -eq 0 ] || { echo "guard ($where): $fails failure(s)" >&2; exit 1; }
echo "guard ($where): ok"
