#!/usr/bin/env bash
# fold_clustered_refusal.sh -- fold-details --shape clustered is refused with its reason, before anything is
# written, on the test server (FerretDB: no clustered collections; MongoDB before 5.3 is refused the same
# way). Exit 1, a message naming the reason and --shape sorted, and no destination afterwards. The embedded
# store holds clustered collections (tests/etl/test_fold_clustered.c).
#
# Environment (set by ctest): LAB_BIN_DIR, LAB_TEST_TMP, LAYOUTLAB_TEST_URI_FILE (the test server's URI).
set -euo pipefail

bin=${LAB_BIN_DIR:?}
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/fold-clustered.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
uri=${LAYOUTLAB_TEST_URI:-$(cat "${LAYOUTLAB_TEST_URI_FILE:?}")}
db=clustered_$$
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# refused STORE_ARGS... -- a small source, then --shape clustered: exit 1, the reason, no destination
refused() {
  local what=$1 reason=$2; shift 2
  "$bin/billgen" generate "$@" --bills 30 --mean-rows 5 --drop --progress never -q
  set +e
  "$bin/fold-details" "$@" --src bill_detail --dst detail_clustered --shape clustered --progress never \
    2> "$tmp/err"
  rc=$?
  set -e
  [ $rc -eq 1 ] || fail "$what: exit $rc, wanted 1"
  grep -q -- "--shape clustered refused: .*$reason" "$tmp/err" || fail "$what: no reason '$reason': $(cat "$tmp/err")"
  grep -q -- "use --shape sorted" "$tmp/err" || fail "$what: the message does not name --shape sorted"
  "$bin/billgen" collections "$@" > "$tmp/list"
  if grep -q detail_clustered "$tmp/list"; then
    fail "$what: detail_clustered was created"
  fi
  [ $failures -eq 0 ] && echo "ok: $what: $(sed 's/^fold-details: error: //' "$tmp/err")"
  return 0
}

refused "test server" "FerretDB) has no clustered collections" --uri "$uri" --db "$db"
exit $((failures > 0))
