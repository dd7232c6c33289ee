#!/usr/bin/env bash
# log_extend_check.sh -- the tests' journal files (LAB_WT_LOG_EXTEND=0 from ctest) grow as written, a store
# opened without the variable gets mongod's, extended to WiredTiger's 100 MB at creation, a store written
# one way reopens the other, and a value that is not a byte count is refused (exit 2, naming it).
#
# Usage: log_extend_check.sh   (LAB_BIN_DIR names the tools, LAB_TEST_TMP a scratch directory)
set -euo pipefail
bin=${LAB_BIN_DIR:?}
[ "${LAB_WT_LOG_EXTEND:-}" = 0 ] || { echo "FAIL: ctest did not set LAB_WT_LOG_EXTEND=0 (got '${LAB_WT_LOG_EXTEND:-}')" >&2; exit 1; }
t=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/log-extend-XXXXXX")
trap 'rm -rf "$t"' EXIT
# newest_log DIR -- the byte size of the store's newest journal file
newest_log() { stat -c %s "$(ls "$1"/journal/WiredTigerLog.* | sort | tail -1)"; }

"$bin/billgen" generate --uri "wiredtiger:$t/wt" --dst d --bills 3 --mean-rows 2 --seed 1 --progress never -q
n=$(newest_log "$t/wt")
[ "$n" -lt 1048576 ] || { echo "FAIL: with LAB_WT_LOG_EXTEND=0 the newest journal file holds $n bytes" >&2; exit 1; }
env -u LAB_WT_LOG_EXTEND "$bin/billgen" collections --uri "wiredtiger:$t/wt" >/dev/null
m=$(newest_log "$t/wt")
[ "$m" -eq 104857600 ] || { echo "FAIL: without LAB_WT_LOG_EXTEND the newest journal file holds $m bytes, not mongod's 100 MB" >&2; exit 1; }
rows=$("$bin/test-store-cmd" "wiredtiger:$t/wt" layoutlab dump d | wc -l)
[ "$rows" -gt 0 ] || { echo "FAIL: the store reopened with 0 rows of d" >&2; exit 1; }
set +e
err=$(LAB_WT_LOG_EXTEND=1MB "$bin/billgen" collections --uri "wiredtiger:$t/wt" 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "LAB_WT_LOG_EXTEND=1MB: not a byte count" <<<"$err" ||
  { echo "FAIL: LAB_WT_LOG_EXTEND=1MB gave exit $rc, '$err'" >&2; exit 1; }
echo "ok: journal files $n bytes with LAB_WT_LOG_EXTEND=0, $m without; $rows rows reopened; 1MB refused"
