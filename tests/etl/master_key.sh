#!/usr/bin/env bash
# master_key.sh -- the master key field from fold-details to scancmp, on one backend (embedded or the
# test server, as $1):
#  - scancmp without --key after a fold by bill_no measures by bill_no, taken from the fold's _layoutlab
#    record (config.key, config.key_source), also beside a marked copy of the rows (--shape copy, whose
#    record is keyed by _id) with the writes, and a contradicting --key is refused naming both (exit 2);
#  - a key field no document has gets "no document of ... has a field ... (fields seen: ...)" (exit 2)
#    from scancmp and fold-details, not an index command;
#  - a source whose key holds int32 and string values is refused by fold-details (exit 2, the types and
#    their rows named, no destination afterwards), shown by --plan, and folded with --allow-mixed-key-types
#    (int 7 and string "7" two masters; the counts in --json and the marker's params).
#
# Environment (set by ctest): LAB_BIN_DIR, LAB_TEST_TMP, LAYOUTLAB_TEST_URI_FILE (server only).
set -euo pipefail

bin=${LAB_BIN_DIR:?}
backend=${1:?embedded or server}
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/master-key.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ "$backend" = server ]; then
  store=(--uri "${LAYOUTLAB_TEST_URI:-$(cat "${LAYOUTLAB_TEST_URI_FILE:?}")}" --db "masterkey_$$")
else
  store=(--uri "wiredtiger:$tmp/db")
fi
failures=0
fail() { echo "FAIL ($backend): $*" >&2; failures=$((failures + 1)); }

# run NAME CMD... -- run a tool, its stderr in $tmp/NAME.err, its exit code in $rc
run() {
  local name=$1; shift
  set +e
  "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
  rc=$?
  set -e
}

# absent COLL -- the collection does not exist
absent() {
  "$bin/billgen" collections "${store[@]}" > "$tmp/list"
  if grep -q "^$1 " "$tmp/list"; then
    fail "$1 exists: $(grep "^$1 " "$tmp/list")"
  fi
}

# 20 bills of 3 lines by bill_no (no bill_id field); the same bills with string keys for the mixed source
{ echo "bill_no.int32(),line_no.int32(),amount.double()"
  for i in $(seq 1 20); do for l in 1 2 3; do echo "$i,$l,1.5"; done; done; } > "$tmp/int.csv"
{ echo "bill_no.string(),line_no.int32(),amount.double()"
  for i in $(seq 1 20); do for l in 1 2 3; do echo "$i,$l,2.5"; done; done; } > "$tmp/str.csv"
imp=("$bin/billgen" import "${store[@]}" --key bill_no --headerline --columns-have-types --progress never -q)
"${imp[@]}" --dst user_bills --drop "$tmp/int.csv"
"${imp[@]}" --dst other_bills --drop "$tmp/int.csv"
"${imp[@]}" --dst user_mixed --drop "$tmp/int.csv"
"${imp[@]}" --dst user_mixed --append "$tmp/str.csv"

# 1. the fold's key carries over to scancmp
"$bin/fold-details" "${store[@]}" --src user_bills --dst user_fold --key bill_no --progress never -q
run scan1 "$bin/scancmp" "${store[@]}" --detail user_bills --folded user_fold --progress never -v \
  --out "$tmp/r.json"
if [ $rc -ne 0 ]; then
  fail "scancmp without --key after a fold by bill_no: exit $rc: $(tail -3 "$tmp/scan1.err")"
else
  python3 - "$tmp/r.json" > "$tmp/check" 2>&1 <<'PY' || fail "results config: $(cat "$tmp/check")"
import json, sys
c = json.load(open(sys.argv[1]))["config"]
assert c["key"] == "bill_no", c
assert c["key_source"] == "the _layoutlab record of user_fold", c
assert c["array_field"] == "details" and "user_fold" in c["array_field_source"], c
PY
  grep -q "key bill_no (the _layoutlab record of user_fold)" "$tmp/scan1.err" ||
    fail "-v does not log the key and its source"
fi
# a marked copy of the rows (keyed by _id for its own verify) beside the fold: the fold's key, and the writes
"$bin/fold-details" "${store[@]}" --shape copy --src user_bills --dst user_copy --progress never -q
run scanc "$bin/scancmp" "${store[@]}" --detail user_copy --folded user_fold --progress never \
  --workload load,append,update --append-rows 3 --update-rows 3 --line-field line_no --out "$tmp/rc.json"
if [ $rc -ne 0 ]; then
  fail "scancmp of a copy beside the fold, no --key: exit $rc: $(tail -3 "$tmp/scanc.err")"
else
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; assert c["key"] == "bill_no", c' \
    "$tmp/rc.json" || fail "the copy beside the fold was not measured by bill_no"
fi
run scan2 "$bin/scancmp" "${store[@]}" --detail user_bills --folded user_fold --key bill_id --progress never
[ $rc -eq 2 ] || fail "a contradicting --key: exit $rc, wanted 2"
grep -q -- "--key bill_id, but user_fold was folded by bill_no (its _layoutlab record): drop --key or pass --key bill_no" \
  "$tmp/scan2.err" || fail "the contradicting --key's message: $(cat "$tmp/scan2.err")"

# 2. a key field no document has: the fields seen, not an index command
run scan3 "$bin/scancmp" "${store[@]}" --detail user_bills --folded other_bills --progress never
[ $rc -eq 2 ] || fail "scancmp, a key no document has: exit $rc, wanted 2"
grep -q "no document of user_bills has a field bill_id (fields seen: bill_no, line_no, amount" "$tmp/scan3.err" ||
  fail "scancmp's fields seen: $(cat "$tmp/scan3.err")"
if grep -q createIndex "$tmp/scan3.err"; then
  fail "scancmp still advises an index on a field no document has"
fi
run fold1 "$bin/fold-details" "${store[@]}" --src user_bills --dst fold_bill_id --progress never
[ $rc -eq 2 ] || fail "fold-details, a key no document has: exit $rc, wanted 2"
grep -q "no document of user_bills has a field bill_id (fields seen: bill_no, line_no, amount" "$tmp/fold1.err" ||
  fail "fold-details' fields seen: $(cat "$tmp/fold1.err")"
absent fold_bill_id
run fold1b "$bin/fold-details" "${store[@]}" --src user_bills --dst fold_bill_id --create-index --progress never
[ $rc -eq 2 ] || fail "fold-details --create-index, a key no document has: exit $rc, wanted 2"
grep -q "no document of user_bills has a field bill_id (fields seen: bill_no" "$tmp/fold1b.err" ||
  fail "fold-details --create-index's fields seen: $(cat "$tmp/fold1b.err")"
absent fold_bill_id

# 3. int32 and string keys: refused, planned, allowed
run fold2 "$bin/fold-details" "${store[@]}" --src user_mixed --dst mixed_fold --key bill_no --progress never
[ $rc -eq 2 ] || fail "mixed key types: exit $rc, wanted 2"
grep -q "the key bill_no has 2 BSON types: int32 (60 rows), string (60 rows): .*--allow-mixed-key-types folds them as different masters" \
  "$tmp/fold2.err" || fail "the mixed key types' message: $(cat "$tmp/fold2.err")"
absent mixed_fold
absent mixed_fold.fold_state
run plan "$bin/fold-details" "${store[@]}" --src user_mixed --dst mixed_fold --key bill_no --progress never \
  --plan --json "$tmp/plan.json"
[ $rc -eq 0 ] || fail "--plan of a mixed key: exit $rc: $(cat "$tmp/plan.err")"
grep -q "^key types: .*2 BSON type classes" "$tmp/plan.out" || fail "--plan does not show the key types"
python3 - "$tmp/plan.json" > "$tmp/check" 2>&1 <<'PY' || fail "--plan --json: $(cat "$tmp/check")"
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
kt = p["source"]["key_types"]
assert kt["rows"] == {"int32": 60, "string": 60}, kt
assert kt["refused"] is True and p["refused"] is True, p
PY
run fold3 "$bin/fold-details" "${store[@]}" --src user_mixed --dst mixed_fold --key bill_no --progress never \
  --allow-mixed-key-types --json "$tmp/fold.json"
[ $rc -eq 0 ] || fail "--allow-mixed-key-types: exit $rc: $(cat "$tmp/fold3.err")"
"$bin/billgen" collections "${store[@]}" --json "$tmp/colls.json" > /dev/null
python3 - "$tmp/fold.json" "$tmp/colls.json" > "$tmp/check" 2>&1 <<'PY' || fail "the allowed fold: $(cat "$tmp/check")"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["masters"] == 40, s["masters"]  # 20 int keys and 20 string keys: two masters each
assert s["key_types"]["rows"] == {"int32": 60, "string": 60}, s["key_types"]
params = json.load(open(sys.argv[2]))["collections"]["mixed_fold"]["provenance"]["params"]
assert params["key_types"]["allowed"] is True and params["key_types"]["rows"]["string"] == 60, params
PY

[ $failures -eq 0 ] && echo "ok: master key ($backend): from the fold's record, fields seen, mixed types"
exit $((failures > 0))
