#!/usr/bin/env bash
# export_sizes.sh -- billgen export of collections of 0, 1, 3 and more than --sample documents, on the
# embedded store or (--server) on the test server: every non-empty one exports all its rows with exit 0
# and round-trips through import; an empty one is refused (exit 1) with no output file. The small sizes
# end the sorted stream inside export's header sample: export must not read a finished cursor again
# (on a server that failed with "Cannot advance a completed or failed cursor").
#
# Usage: export_sizes.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

B="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}/billgen"
T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/export-sizes-XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

if [ "${1:-}" = "--server" ]; then
  . "$(dirname "$0")/../lib/fixture_uri.sh"
  URI=$(fixture_uri export_sizes) || exit 1
  S=(--uri "$URI" --db "export_sizes_$$_$RANDOM")
  where=server
else
  S=(--uri "wiredtiger:$T/wt")
  where=embedded
fi

fail () {
  echo "FAIL ($where): $*" >&2
  sed 's/^/  /' "$T/err" >&2 2>/dev/null | head -10
  fails=$((fails + 1))
}
run () { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
expect () { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] || fail "exit $rc, wanted $want: $*"; }

# csv N -- a CSV of N rows (bill_id, item, qty)
csv () {
  local n=$1 i
  echo "bill_id,item,qty"
  for ((i = 1; i <= n; i++)); do echo "$((i % 7 + 1)),item$i,$i.5"; done
}

# --sample 5 keeps "more than --sample" small: 12 documents are read past the sample on the same cursor;
# with the default --sample (1000) every size ends inside the sample
for n in 1 3 12; do
  csv "$n" >"$T/in$n.csv"
  expect 0 "$B" import "${S[@]}" --dst e$n --drop --headerline "$T/in$n.csv"
  expect 0 "$B" export "${S[@]}" --src e$n --sample 5 -o "$T/out$n.csv"
  rows=$(($(cat "$T/out$n.csv" 2>/dev/null | wc -l) - 1))
  [ "$rows" = "$n" ] || fail "export of $n documents (--sample 5) wrote $rows rows"
  expect 0 "$B" export "${S[@]}" --src e$n -o -
  cmp -s "$T/out" "$T/out$n.csv" || fail "export of $n documents to stdout (--sample 1000) differs"
done
# the round trip: import the export, export again, the same CSV
expect 0 "$B" import "${S[@]}" --dst r3 --drop --headerline --columns-have-types "$T/out3.csv"
expect 0 "$B" export "${S[@]}" --src r3 -o "$T/back3.csv"
cmp -s "$T/back3.csv" "$T/out3.csv" || fail "round trip of 3 documents differs"

# 0 documents: no header can be known; refused, nothing written
csv 0 >"$T/in0.csv"
expect 0 "$B" import "${S[@]}" --dst e0 --drop --headerline "$T/in0.csv"
expect 1 "$B" export "${S[@]}" --src e0 -o "$T/out0.csv"
grep -qF "collection 'e0' is empty: nothing to export" "$T/err" || fail "empty collection: message"
[ ! -e "$T/out0.csv" ] || fail "empty collection: an output file was left"

echo "export_sizes ($where): $fails failures"
[ "$fails" = 0 ]
