#!/usr/bin/env bash
# trust_server.sh -- on private test servers (never the shared fixture): what a careful DBA checks
# before pointing the tools at production.
#   mongod   the user's collections (written by someone else, test-mongo-cmd) survive every --drop and
#            --drop-dst without --yes when stdin is not a terminal (exit 2, count and content unchanged);
#            --yes drops; what layoutlab wrote is recorded in _layoutlab and scancmp copies it into
#            dataset.<layout>.provenance, the fold's --verify included; `billgen collections
#            --require-layoutlab` names the foreign ones. fold-details --plan --json carries the server's
#            own explain reply and says FerretDB sorts in memory; a sort over the (test hook's) limit stops
#            the fold (exit 2, nothing written) unless --allow-blocking-sort. --out/--json into a missing
#            directory: exit 2 before the server is even contacted. An unreachable server fails within
#            --server-timeout naming its host. A server cache sweep without --cold --restart-cmd: exit 2.
#   mongos   users on the router only (--users, as a secured cluster: its users live on the config
#            servers): scancmp stops at discovery naming --shard-uri, and runs with a --shard-uri of the
#            shard; --server-cache-sweep sends setParameter to the shard (FerretDB refuses: said so, no
#            word of a mongos), never to the router (which would answer "unrecognized parameter").
#
# Needs LAB_BIN_DIR and LAB_SOURCE_DIR; ignores LAYOUTLAB_TEST_URI (it starts its own servers).
set -uo pipefail

# S, B, T (the temporary directory), an EXIT trap and a watchdog that stop every server under T
. "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" trust
export LAYOUTLAB_DROP_CACHES_PATH="$T/drop_caches" # never drop the machine's page cache from a test
fails=0
fail() { echo "FAIL: $*" >&2; sed 's/^/  /' "$T/err" 2>/dev/null | head -8 >&2; fails=$((fails + 1)); }
run() { "$@" >"$T/out" 2>"$T/err" </dev/null; rc=$?; }
expect() { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] || fail "exit $rc, wanted $want: $*"; }
has() { grep -qF -- "$1" "$2" || fail "'$1' not in $2"; }
M() { "$B/test-mongo-cmd" "$uri" "$DB" "$@"; }
# count COLL -- its documents (the count command, outside layoutlab)
count() {
  M "{\"count\": \"$1\"}" | python3 -c 'import json,sys; n=json.load(sys.stdin)["n"]; print(int(next(iter(n.values()))) if isinstance(n, dict) else int(n))'
}
# py -- a Python expression over the JSON file $1 (as r)
py() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

uri=$("$S" start --dir "$T/mongod" --as mongod) || die "cannot start the private server"
DB=userdb
C=(--uri "$uri" --db "$DB" --progress never)

# ---- the user's collections are never dropped without the user's word --------------------------------
M '{"insert": "bill_detail", "documents": [{"_id": 1, "bill_id": 1, "x": "mine"}, {"_id": 2, "bill_id": 2}]}' >/dev/null ||
  die "cannot write the user's collection"
M '{"insert": "detail_coll", "documents": [{"_id": 1, "note": "also mine"}]}' >/dev/null || die "cannot write"
M '{"insert": "scratch", "documents": [{"_id": 1}]}' >/dev/null || die "cannot write"
M --dump bill_detail >"$T/bd.before"
M --dump detail_coll >"$T/dc.before"

expect 2 "$B/billgen" generate "${C[@]}" --dst bill_detail --bills 5 --drop
has "--yes" "$T/err"
has "2 documents" "$T/err"
has "not written by layoutlab" "$T/err"
expect 2 "$B/billgen" import "${C[@]}" --dst bill_detail --fields bill_id --drop /dev/null
has "--yes" "$T/err"
M --dump bill_detail | cmp -s - "$T/bd.before" || fail "billgen --drop changed the user's bill_detail"

# a layoutlab source to fold from, into the user's detail_coll: refused
expect 0 "$B/billgen" generate "${C[@]}" --dst src --bills 20 --mean-rows 4
expect 2 "$B/fold-details" "${C[@]}" --src src --dst detail_coll --drop-dst
has "--yes" "$T/err"
has "detail_coll" "$T/err"
M --dump detail_coll | cmp -s - "$T/dc.before" || fail "fold-details --drop-dst changed the user's detail_coll"

# the user says so: --yes drops
expect 0 "$B/billgen" generate "${C[@]}" --dst scratch --bills 3 --drop --yes
has "--yes" "$T/err"
[ "$(count scratch)" -gt 1 ] || fail "--yes did not replace scratch"

# which collections are layoutlab's
expect 2 "$B/billgen" collections "${C[@]}" --require-layoutlab
has "bill_detail" "$T/err"
has "detail_coll" "$T/err"
has "--db" "$T/err"
grep -q "^scratch .*written by layoutlab" "$T/out" || fail "scratch is not listed as layoutlab's"
grep -q "_layoutlab" "$T/out" && fail "_layoutlab is listed as a user collection"

# ---- provenance: written before the first document, updated by --verify, copied by scancmp ------------
expect 0 "$B/fold-details" "${C[@]}" --src src --dst folded --verify
M '{"find": "_layoutlab", "filter": {"_id": "folded"}}' >"$T/mark.json" || fail "no marker of folded"
has '"tool" : "fold-details"' "$T/mark.json"
has '"source" : "src"' "$T/mark.json"
has '"method" : "multiset"' "$T/mark.json" # the default method, recorded as the one that ran
has '"uuid"' "$T/mark.json"
expect 0 "$B/scancmp" "${C[@]}" --layout detail=src:rows --layout folded=folded:folded --keys-limit 5 --parallel 2 \
  --out "$T/r.json"
[ "$(py "$T/r.json" "r['dataset']['detail']['provenance']['tool']")" = "billgen generate" ] ||
  fail "dataset.detail.provenance.tool"
[ "$(py "$T/r.json" "r['dataset']['folded']['provenance']['verify']['ok']")" = True ] ||
  fail "dataset.folded.provenance.verify.ok"
[ "$(py "$T/r.json" "'_id' in r['dataset']['folded']['provenance']")" = False ] || fail "provenance keeps _id"
[ "$(py "$T/r.json" "r['runs'][0]['cold']['member'] != ''")" = True ] || fail "no member in runs[].cold"
# a collection dropped and created again by someone else is not layoutlab's any more (its UUID changed)
M '{"drop": "scratch"}' >/dev/null && M '{"insert": "scratch", "documents": [{"_id": 9}]}' >/dev/null
expect 2 "$B/billgen" generate "${C[@]}" --dst scratch --bills 3 --drop
has "dropped and created again" "$T/err"

# ---- --plan observes the server's own plan ------------------------------------------------------------
expect 0 "$B/fold-details" "${C[@]}" --src src --dst planned --plan --json "$T/plan.json"
[ "$(py "$T/plan.json" "r['plan']['ranges'][0]['read']['explain']['ok']")" = 1.0 ] || fail "no explain reply in --plan --json"
[ "$(py "$T/plan.json" "r['plan']['ranges'][0]['read']['observed']['servers'][0]['engine']")" = ferretdb ] ||
  fail "the plan does not say FerretDB answered"
[ "$(py "$T/plan.json" "r['plan']['blocking_sort']")" = True ] || fail "the plan misses FerretDB's in-memory sort"
py "$T/plan.json" "r['plan']['sort']" | grep -q "sort about .* documents .* in memory" ||
  fail "the plan does not say the server sorts in memory"
[ "$(count planned)" = 0 ] || fail "--plan wrote something"
# the refusal (the limit lowered by the test hook: the test server's collections stay under a million)
LAYOUTLAB_TEST_BLOCKING_SORT_DOCS=10 expect 2 "$B/fold-details" "${C[@]}" --src src --dst refused
has "--allow-blocking-sort" "$T/err"
has "refuses to start" "$T/err"
M '{"listCollections": 1, "filter": {"name": "refused"}, "nameOnly": true}' | grep -q '"name" : "refused"' &&
  fail "a refused fold created its destination"
LAYOUTLAB_TEST_BLOCKING_SORT_DOCS=10 expect 0 "$B/fold-details" "${C[@]}" --src src --dst refused --allow-blocking-sort

# ---- fail before measuring, and fail fast -------------------------------------------------------------
expect 2 "$B/scancmp" "${C[@]}" --layout detail=src:rows --layout folded=folded:folded --out "$T/no/such/run.json"
has "--out" "$T/err"
has "does not exist" "$T/err"
grep -q "keys to load" "$T/err" && fail "scancmp measured before refusing --out"
expect 2 "$B/scancmp" --uri mongodb://127.0.0.1:1/ --json "$T/no/such/s.json"
has "--json" "$T/err"
expect 2 "$B/layout-report" "$T/r.json" -o "$T/no/such/report.md"
has "-o" "$T/err"
# an unreachable server: within --server-timeout, naming the host
expect 1 "$B/billgen" generate --uri mongodb://127.0.0.1:1/ --server-timeout 300ms --bills 1
has "127.0.0.1:1" "$T/err"
has "0.3 s" "$T/err"
# a server sweep without --cold --restart-cmd keeps the last point's cache: refused before anything
expect 2 "$B/scancmp" "${C[@]}" --cache-sizes 64MiB,128MiB --server-cache-sweep --cold
has "--restart-cmd" "$T/err"
"$S" stop --dir "$T/mongod" >/dev/null || fail "stop mongod"

# ---- a secured cluster: the router's users are not the shard's ------------------------------------------
if curi=$("$S" start --dir "$T/cl" --as mongos --users lab:pw); then
  R="mongodb://lab:pw@${curi#mongodb://}"
  R="${R%/}/trustdb?authMechanism=PLAIN"
  shard=$(cat "$T/cl/shard0/uri")
  expect 0 "$B/billgen" generate --uri "$R" --bills 10 --mean-rows 3
  expect 0 "$B/fold-details" --uri "$R" --src bill_detail --dst detail_coll
  expect 1 "$B/scancmp" --uri "$R" --keys-limit 3 --progress never
  has "shard0" "$T/err"
  has "refused the router's credentials" "$T/err"
  has "--shard-uri shard0=" "$T/err"
  grep -q "pw" "$T/err" && fail "the password reached stderr"
  expect 0 "$B/scancmp" --uri "$R" --keys-limit 3 --progress never --shard-uri "shard0=${shard}?directConnection=true"
  # the cache sweep goes to the shard (FerretDB: no such parameter), never to the router
  expect 1 "$B/scancmp" --uri "$R" --keys-limit 3 --progress never --shard-uri "shard0=${shard}?directConnection=true" \
    --cache-sizes 64MiB,128MiB --server-cache-sweep --cold --restart-cmd true
  has "shard shard0" "$T/err"
  has "FerretDB" "$T/err"
  grep -q "unrecognized parameter" "$T/err" && fail "setParameter was sent to the router"
  "$S" stop --dir "$T/cl" >/dev/null || fail "stop the cluster"
else
  fail "cannot start the mongos cluster with --users"
fi

[ "$fails" = 0 ] || { echo "trust: $fails failure(s)" >&2; exit 1; }
echo "trust: drops refused, provenance recorded, plans observed, outputs checked, shard credentials named"
