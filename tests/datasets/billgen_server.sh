#!/usr/bin/env bash
# billgen_server.sh -- billgen against the MongoDB-compatible test server (or $LAYOUTLAB_TEST_URI):
# generate gives the very same documents as on the embedded store (compared through export), and
# export -> import (zstd) -> export reproduces the collection exactly, _id and types included.
#
# Needs LAB_BIN_DIR, and LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest server fixture).
set -uo pipefail

B="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}/billgen"
. "$(dirname "$0")/../lib/fixture_uri.sh"
URI=$(fixture_uri billgen_server) || exit 1
T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/billgen-server-XXXXXX")
trap 'rm -rf "$T"' EXIT
DB="billgen_test_$$_$RANDOM"
fails=0

fail () {
  echo "FAIL: $*" >&2
  sed 's/^/  /' "$T/err" >&2 2>/dev/null | head -20
  fails=$((fails + 1))
}
run () { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
expect () { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] || fail "exit $rc, wanted $want: $*"; }
same () { cmp -s "$1" "$2" || fail "$1 and $2 differ"; }
json_int () { sed -n "s/^ *\"$2\" : \\(-\\{0,1\\}[0-9]*\\).*/\\1/p" "$1" | head -1; }

M=(--uri "$URI" --db "$DB")
W=(--uri "wiredtiger:$T/wt")

# the same seed gives the same documents on both backends
expect 0 "$B" generate "${M[@]}" --bills 30 --seed 77 --json "$T/gm.json"
expect 0 "$B" generate "${W[@]}" --bills 30 --seed 77 --json "$T/gw.json"
[ "$(json_int "$T/gm.json" rows)" = "$(json_int "$T/gw.json" rows)" ] || fail "row counts differ between backends"
expect 0 "$B" export "${M[@]}" -o "$T/m.csv"
expect 0 "$B" export "${W[@]}" -o "$T/w.csv"
same "$T/m.csv" "$T/w.csv"
# the refusal without --drop holds on the server too
expect 1 "$B" generate "${M[@]}" --bills 30 --seed 77
grep -qF "already holds" "$T/err" || fail "no 'already holds' on the server"

# round trip through zstd on the server
expect 0 "$B" export "${M[@]}" -o "$T/m.csv.zst"
expect 0 "$B" import "${M[@]}" --dst copy --headerline --columns-have-types --json "$T/im.json" "$T/m.csv.zst"
[ "$(json_int "$T/im.json" rows)" = "$(json_int "$T/gm.json" rows)" ] || fail "import rows on the server"
[ "$(json_int "$T/im.json" bills)" = 30 ] || fail "import bills on the server"
expect 0 "$B" export "${M[@]}" --src copy -o "$T/m2.csv"
same "$T/m.csv" "$T/m2.csv"

# --block-compressor: sent as create's storageEngine.wiredTiger.configString; the summary says what the
# server did with it (FerretDB accepts it and keeps nothing: "ignored by the server", also on stderr)
expect 0 "$B" generate "${M[@]}" --dst zc --bills 5 --block-compressor zstd --json "$T/zc.json"
grep -qF '"block_compressor" : "zstd"' "$T/zc.json" || fail "no block_compressor in the summary"
if grep -qF "ignored by the server" "$T/zc.json"; then
  grep -qF "ignored by the server" "$T/err" || fail "FerretDB: stderr does not say the compressor was ignored"
else
  grep -qF "kept in the collection's options" "$T/zc.json" || fail "mongod: the compressor is not in the options"
fi
expect 2 "$B" generate "${M[@]}" --dst zc --bills 5 --drop --block-compressor lz4
grep -qF "none, snappy, zlib, zstd" "$T/err" || fail "an unknown compressor is not named"

# grace skip-row on the server: a duplicate _id is refused by the server and reported with its line
head -3 "$T/m.csv" >"$T/dup.csv"
sed -n 2p "$T/m.csv" >>"$T/dup.csv"
expect 0 "$B" import "${M[@]}" --dst dup --headerline --columns-have-types --parse-grace skip-row \
  --reject "$T/dup.rej" --json "$T/dup.json" "$T/dup.csv"
[ "$(json_int "$T/dup.json" rows)" = 2 ] || fail "duplicate: rows"
[ "$(json_int "$T/dup.json" rejects)" = 1 ] || fail "duplicate: rejects"
grep -qF "dup.csv:4:1: refused by the store:" "$T/dup.rej" || fail "duplicate: reject file: $(cat "$T/dup.rej")"

echo "billgen_server: $fails failures (db $DB)"
[ "$fails" = 0 ]
