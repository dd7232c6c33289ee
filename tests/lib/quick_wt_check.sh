#!/usr/bin/env bash
# quick_wt_check.sh -- the tests' tools resolve libwiredtiger.so.0 to the quick copy of tests/lib/quick_wt.py
# when the build made one (LD_LIBRARY_PATH from ctest), and that copy opens, writes and reopens a store.
# Skips (77) when the build found no calibration loop to shorten (its quick_wt.txt says why).
#
# Usage: quick_wt_check.sh TEST_LIB_DIR   (LAB_BIN_DIR names the tools, LAB_TEST_TMP a scratch directory)
set -euo pipefail
lib=${1:?usage: quick_wt_check.sh TEST_LIB_DIR}
bin=${LAB_BIN_DIR:?}
if [ ! -f "$lib/libwiredtiger.so.0" ]; then
  echo "SKIP: no quick libwiredtiger: $(cat "$lib/quick_wt.txt" 2>/dev/null || echo "$lib/quick_wt.txt missing")"
  exit 77
fi
got=$(LD_TRACE_LOADED_OBJECTS=1 "$bin/billgen" | awk '$1 == "libwiredtiger.so.0" {print $3}')
if [ "$got" != "$lib/libwiredtiger.so.0" ]; then
  echo "FAIL: billgen loads libwiredtiger.so.0 from '$got', not $lib (LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-})" >&2
  exit 1
fi
t=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/quick-wt-XXXXXX")
trap 'rm -rf "$t"' EXIT
"$bin/billgen" generate --uri "wiredtiger:$t/wt" --dst d --bills 3 --mean-rows 2 --seed 1 --progress never -q
n=$("$bin/test-store-cmd" "wiredtiger:$t/wt" layoutlab dump d | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: the quick library's store holds '$n' rows of d after billgen generate" >&2; exit 1; }
echo "ok: tools load $lib/libwiredtiger.so.0; a store written with it reopens ($n rows)"
