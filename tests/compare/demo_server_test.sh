#!/usr/bin/env bash
# demo_server_test.sh -- scripts/demo.sh against a MongoDB server whose URI names the user's own database,
# which already holds a bill_detail and a detail_coll (written here outside layoutlab, test-mongo-cmd):
# the demo runs in its own database (layoutlab_demo), twice (the second replaces what the first wrote,
# without asking), and the user's collections keep their count and content. Pointed at the user's
# database itself (--db), it refuses before writing anything (exit 2), naming the collections and --db.
# A private test server (tests/lib/private_server.sh); a reduced size; the page cache is never dropped.
set -uo pipefail

. "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" demo-server
export LAYOUTLAB_DROP_CACHES_PATH="$T/drop_caches"
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

uri=$("$S" start --dir "$T/srv") || die "cannot start the private server"
M() { "$B/test-mongo-cmd" "$uri" hospital "$@"; }
M '{"insert": "bill_detail", "documents": [{"_id": 1, "bill_id": 7, "amount": 12.5}, {"_id": 2, "bill_id": 7}]}' \
  >/dev/null || die "cannot write the user's bill_detail"
M '{"insert": "detail_coll", "documents": [{"_id": "a", "details": [1, 2]}]}' >/dev/null || die "cannot write"
M --dump bill_detail >"$T/bd.before"
M --dump detail_coll >"$T/dc.before"

demo=("$LAB_SOURCE_DIR/scripts/demo.sh" --uri "${uri%/}/hospital" --bills 20 --mean-rows 6 --runs 1 --parallel 2
      --interval 100ms --bin "$B")
for pass in 1 2; do
  if ! "${demo[@]}" --out "$T/out$pass" >"$T/demo$pass.out" 2>"$T/demo$pass.err" </dev/null; then
    tail -20 "$T/demo$pass.err" >&2
    fail "the demo (pass $pass) failed"
    continue
  fi
  [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backend"]["db"])' "$T/out$pass/run.json")" = \
    layoutlab_demo ] || fail "pass $pass: the demo measured another database than layoutlab_demo"
  [ -s "$T/out$pass/report.md" ] || fail "pass $pass: no report"
done
"$B/test-mongo-cmd" "$uri" layoutlab_demo '{"count": "detail_coll"}' | grep -q '"n" : { "$numberInt" : "20" }' ||
  fail "layoutlab_demo.detail_coll does not hold the 20 folded bills"
M --dump bill_detail | cmp -s - "$T/bd.before" || fail "the demo changed the user's bill_detail"
M --dump detail_coll | cmp -s - "$T/dc.before" || fail "the demo changed the user's detail_coll"

# the user's own database: refused before anything is written
if "${demo[@]}" --db hospital --out "$T/out3" >"$T/demo3.out" 2>"$T/demo3.err" </dev/null; then
  fail "the demo wrote into a database holding the user's collections"
else
  rc=$?
  [ "$rc" = 2 ] || fail "the refusal exits $rc, not 2"
  for w in bill_detail detail_coll --db; do
    grep -qF -- "$w" "$T/demo3.err" || fail "the refusal does not name $w"
  done
fi
[ ! -e "$T/out3/run.json" ] || fail "the refused demo measured"
M --dump bill_detail | cmp -s - "$T/bd.before" || fail "the refused demo changed bill_detail"
M '{"listCollections": 1, "nameOnly": true}' | grep -q '"_layoutlab"' && fail "the refused demo wrote a marker"

[ "$fails" = 0 ] || { echo "demo_server: $fails failure(s)" >&2; exit 1; }
echo "demo_server: the demo ran twice in layoutlab_demo; the user's collections are untouched; --db hospital refused"
