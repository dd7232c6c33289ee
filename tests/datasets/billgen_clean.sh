#!/usr/bin/env bash
# billgen_clean.sh -- `billgen collections` lists the indexes layoutlab built and `billgen clean` removes
# what layoutlab created, on the embedded store or (--server) on the test server. The database holds a
# user's collection (no marker) with the user's own index and an index layoutlab built on it (recorded in
# _layoutlab, on_foreign), a collection billgen wrote, the records of an index and a collection that no
# longer exist (reported and skipped); on the server also a collection whose marker
# is an earlier one's (dropped and created again by the user: its UUID differs).
#   - without --yes and stdin not a terminal: exit 2 naming --yes, nothing changed
#   - --dry-run lists both the collection and the index, exit 0, nothing changed
#   - --yes drops the layoutlab collection and the recorded index; the user's collection keeps its
#     documents and its own index exactly; the recreated collection is left alone; _layoutlab goes
#
# Usage: billgen_clean.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail
. "$(dirname "$0")/../lib/store_test.sh" billgen_clean "$@"

B="$BIN/billgen"
[ -x "$BIN/test-store-cmd" ] || { echo "SKIP: no test-store-cmd in $BIN" >&2; exit 77; }
if [ "$where" = server ]; then
  SC=("$BIN/test-store-cmd" "$URI" "$DB")
  MC=("$BIN/test-mongo-cmd" "$URI" "$DB")
else
  SC=("$BIN/test-store-cmd" "wiredtiger:$T/wt" layoutlab)
fi

# state -- a fingerprint of everything clean may touch, into $1: every collection's documents, and on the
# server the user's indexes (listIndexes) and the collection list.
state () {
  local c
  : >"$1"
  if [ "$where" = embedded ]; then
    # users, lab and _layoutlab in one open of the store (an open is most of a dump's time); one that
    # fails stops the rest, which changes the fingerprint as well
    echo "== users lab _layoutlab" >>"$1"
    "${SC[@]}" dump users + dump lab + dump _layoutlab >>"$1" 2>&1
    echo "== recreated" >>"$1"
    "${SC[@]}" dump recreated >>"$1" 2>&1
  fi
  for c in users lab _layoutlab recreated; do
    [ "$where" = server ] || break
    echo "== $c" >>"$1"
    "${MC[@]}" --dump "$c" >>"$1" 2>&1
  done
  if [ "$where" = server ]; then
    echo "== indexes" >>"$1"
    user_indexes >>"$1"
  fi
}
# user_indexes -- listIndexes of the user's collection, the cursor id left out.
user_indexes () { "${MC[@]}" '{"listIndexes": "users"}' | sed 's/"id" : {[^}]*}//'; }

# the user's collection, its own index, written by someone other than layoutlab
if [ "$where" = server ]; then
  "${MC[@]}" '{"insert": "users", "documents": [{"_id": 1, "name": "ann", "score": 3}, {"_id": 2, "name": "bo", "score": 5}]}' >/dev/null &&
    "${MC[@]}" '{"createIndexes": "users", "indexes": [{"key": {"name": 1}, "name": "name_1"}]}' >/dev/null ||
    { echo "FAIL: cannot write the user's collection" >&2; exit 1; }
  user_indexes >"$T/idx.user"
else
  "${SC[@]}" insert users '{"_id": 1, "name": "ann", "score": 3}' + insert users '{"_id": 2, "name": "bo", "score": 5}' \
    + index users name || { echo "FAIL: cannot write the user's collection" >&2; exit 1; }
fi
# a collection billgen writes, and (server) one the user recreated after billgen wrote it
expect 0 "$B" generate "${S[@]}" --dst lab --bills 3
if [ "$where" = server ]; then
  expect 0 "$B" generate "${S[@]}" --dst recreated --bills 2
  "${MC[@]}" '{"drop": "recreated"}' >/dev/null &&
    "${MC[@]}" '{"insert": "recreated", "documents": [{"_id": "mine"}]}' >/dev/null ||
    fail "cannot recreate 'recreated'"
fi
# an index layoutlab builds on the user's collection (under --allow-writes), and its record; the record of
# the index billgen built on its own collection; and of what no longer exists: the record of an index
# dropped since, the marker of a collection dropped since (the five writes in one open of the store)
NOW=2026-12-06T12:00:00.000Z
"${SC[@]}" index users score \
  + upsert _layoutlab '{"_id": "$index:users:score_1", "layoutlab": 1, "kind": "index", "collection": "users", "name": "score_1", "keys": ["score"], "size_bytes": {"$numberLong": "4096"}, "created_at": "'$NOW'", "tool": "scancmp", "command_line": ["scancmp", "--allow-writes", "--detail", "users"], "on_foreign": true}' \
  + upsert _layoutlab '{"_id": "$index:lab:bill_id_1", "layoutlab": 1, "kind": "index", "collection": "lab", "name": "bill_id_1", "keys": ["bill_id"], "size_bytes": {"$numberLong": "-1"}, "created_at": "'$NOW'", "tool": "billgen generate", "command_line": ["billgen", "generate", "--dst", "lab"], "on_foreign": false}' \
  + upsert _layoutlab '{"_id": "$index:users:gone_1", "layoutlab": 1, "kind": "index", "collection": "users", "name": "gone_1", "keys": {"gone": 1}, "size_bytes": {"$numberLong": "-1"}, "created_at": "'$NOW'", "tool": "scancmp", "command_line": ["scancmp"], "on_foreign": true}' \
  + upsert _layoutlab '{"_id": "vanished", "layoutlab": 1, "tool": "fold-details", "written_at": "'$NOW'"}' ||
  fail "cannot build the index on the user's collection, its record, the second index record or the records of what is gone"
"${SC[@]}" dump users >"$T/users.before" || fail "cannot dump users"

# collections lists the indexes layoutlab built, marking the one on the user's collection
expect 0 "$B" collections "${S[@]}" --json "$T/coll.json"
grep -E '^users +score_1 \{score: 1\}, 4.00 KiB, built at 2026-12-06T12:00:00.000Z by: scancmp --allow-writes --detail users  \(on a collection layoutlab did not write\)$' "$T/out" >/dev/null ||
  fail "collections does not list the index on the user's collection: $(cat "$T/out")"
grep -E '^lab +bill_id_1 \{bill_id: 1\}, size unknown, built at .* by: billgen generate --dst lab$' "$T/out" >/dev/null ||
  fail "collections does not list the index on layoutlab's collection"
grep -F '"on_foreign" : true' "$T/coll.json" >/dev/null || fail "collections --json: no on_foreign index"
grep -F '"name" : "score_1"' "$T/coll.json" >/dev/null || fail "collections --json: no score_1"

state "$T/s0"

# no --yes, stdin not a terminal: exit 2 naming --yes, nothing changed
expect 2 "$B" clean "${S[@]}" </dev/null
grep -F -- "--yes" "$T/err" >/dev/null || fail "the refusal does not name --yes"
state "$T/s1"
cmp -s "$T/s0" "$T/s1" || fail "clean without --yes changed something: $(diff "$T/s0" "$T/s1" | head -5)"

# on a terminal (script(1) gives one), an answer other than yes: exit 2, nothing changed
if command -v script >/dev/null 2>&1; then
  echo n | script -qec "$(printf '%q ' "$B" clean "${S[@]}")" /dev/null >"$T/out" 2>&1
  rc=$?
  [ "$rc" = 2 ] || fail "answering n on a terminal: exit $rc, wanted 2"
  grep -F "? [y/N]" "$T/out" >/dev/null || fail "no question on a terminal: $(cat "$T/out")"
  state "$T/s1"
  cmp -s "$T/s0" "$T/s1" || fail "answering n changed something: $(diff "$T/s0" "$T/s1" | head -5)"
else
  echo "note: no script(1): the question on a terminal is not tested" >&2
fi

# --dry-run lists the collection and the index, changes nothing
expect 0 "$B" clean "${S[@]}" --dry-run --json "$T/dry.json" </dev/null
grep -E "^  drop collection 'lab' \(" "$T/out" >/dev/null || fail "--dry-run does not list 'lab': $(cat "$T/out")"
grep -E "^  drop index score_1 \{score: 1\} of 'users' \(.*\): built by scancmp at .* on a collection layoutlab did not write$" "$T/out" >/dev/null ||
  fail "--dry-run does not list the index on the user's collection"
grep -E "^  drop index bill_id_1 \{bill_id: 1\} of 'lab' .*goes with its collection$" "$T/out" >/dev/null ||
  fail "--dry-run: the index of 'lab' does not go with its collection"
grep -F "'users'" "$T/out" | grep -v -E "index (score|gone)_1" >/dev/null && fail "--dry-run lists the user's collection itself"
grep -E "^  skip index gone_1 \{gone: 1\} of 'users' .*the index no longer exists: skipped" "$T/out" >/dev/null ||
  fail "--dry-run does not report the index that no longer exists"
grep -E "^  skip collection 'vanished': written by fold-details at .*no longer exists: skipped" "$T/out" >/dev/null ||
  fail "--dry-run does not report the collection that no longer exists"
if [ "$where" = server ]; then
  grep -E "^  keep collection 'recreated': its marker is for an earlier collection" "$T/out" >/dev/null ||
    fail "--dry-run does not keep the recreated collection"
fi
grep -F '"dry_run" : true' "$T/dry.json" >/dev/null || fail "--dry-run --json: no dry_run"
state "$T/s2"
cmp -s "$T/s0" "$T/s2" || fail "--dry-run changed something: $(diff "$T/s0" "$T/s2" | head -5)"

# --yes: the layoutlab collection and the recorded index go, nothing of the user's
expect 0 "$B" clean "${S[@]}" --yes --json "$T/yes.json" </dev/null
grep -F '"to_remove" : 3' "$T/yes.json" >/dev/null && grep -F '"removed" : 3' "$T/yes.json" >/dev/null ||
  fail "--yes did not remove the 3 items (lab, score_1, _layoutlab): $(grep -E '"(to_remove|removed)"' "$T/yes.json")"
"${SC[@]}" dump users >"$T/users.after" || fail "cannot dump users after"
cmp -s "$T/users.before" "$T/users.after" || fail "the user's documents changed"
run "${SC[@]}" has-index users score
[ "$(cat "$T/out")" = no ] || fail "the index layoutlab built on the user's collection is still there"
run "${SC[@]}" has-index users name
[ "$(cat "$T/out")" = yes ] || fail "the user's own index is gone"
run "${SC[@]}" dump lab
[ -s "$T/out" ] && fail "'lab' still holds documents"
expect 0 "$B" collections "${S[@]}"
grep -E '^(lab|_layoutlab) ' "$T/out" >/dev/null && fail "'lab' or _layoutlab is still listed: $(cat "$T/out")"
grep -E '^users ' "$T/out" >/dev/null || fail "the user's collection is no longer listed"
grep -F "indexes layoutlab built" "$T/out" >/dev/null && fail "index records are left"
if [ "$where" = server ]; then
  user_indexes >"$T/idx.after"
  cmp -s "$T/idx.user" "$T/idx.after" || fail "the user's indexes changed: $(diff "$T/idx.user" "$T/idx.after")"
  "${MC[@]}" --dump users >"$T/u.after"
  sed -n '/^== users$/,/^== lab$/p' "$T/s0" | sed '1d;$d' >"$T/u.before"
  cmp -s "$T/u.before" "$T/u.after" || fail "the user's documents changed (server dump)"
  "${MC[@]}" --dump recreated >"$T/r.after"
  [ "$(cat "$T/r.after")" = '{ "_id" : "mine" }' ] || fail "the recreated collection changed: $(cat "$T/r.after")"
fi

# nothing left: clean says so and exits 0
expect 0 "$B" clean "${S[@]}" </dev/null
grep -F "nothing layoutlab created" "$T/err" >/dev/null || fail "a second clean does not say nothing is left"

[ "$fails" = 0 ] || { echo "$fails failure(s) ($where)" >&2; exit 1; }
echo "billgen_clean ($where): ok"
