#!/usr/bin/env bash
# layout_desc.sh -- each layout's descriptor (core/layout.h), written where its writer knows it and read
# back where it is used, on the embedded store or (--server) the test server:
#   - fold-details --shape folded / sorted / clustered and --bucket-rows write the destination's descriptor
#     into its _layoutlab record (params.descriptor), beside the settings older readers use;
#   - scancmp, told only NAME=COLLECTION, makes every layout's descriptor from that record (the kind and
#     the shape), its options (the key) and the store (clustered): layouts[].descriptor in the results, and
#     layout-report takes the speedup apart from them (rows in arrival order, in key order, folded).
#
# Usage: layout_desc.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" layout_desc "$@"

expect 0 "$BIN/billgen" generate "${S[@]}" --bills 20 --seed 4 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_sorted --shape sorted -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_buckets --bucket-rows 3 -q
shapes="detail folded sorted buckets"
L=(--layout detail=bill_detail --layout folded=detail_coll --layout sorted=detail_sorted
  --layout buckets=detail_buckets)
if [ "$where" = embedded ]; then # the test server has no clustered collections
  expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_clustered --shape clustered -q
  L+=(--layout clustered=detail_clustered)
  shapes="$shapes clustered"
fi
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --keys-limit 5 --runs 1 -o "$T/r.json"
expect 0 "$BIN/layout-report" "$T/r.json" -o "$T/r.md"
python3 - "$T/r.json" "$T/r.md" $shapes >"$T/check" 2>&1 <<'PY' ||
import json, sys
r, md, names = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), sys.argv[3:]
want = {  # name: (kind, shape, clustered, array field)
    "detail": ("rows", "natural", False, ""),
    "folded": ("folded", "folded", False, "details"),
    "sorted": ("rows", "sorted", False, ""),
    "buckets": ("buckets", "folded", False, "details"),
    "clustered": ("rows", "clustered", True, ""),
}
layouts = {l["name"]: l for l in r["layouts"]}
assert sorted(layouts) == sorted(names), layouts
for name in names:
    kind, shape, clustered, array = want[name]
    d = layouts[name].get("descriptor")
    assert d, (name, layouts[name])
    got = (d["kind"], d["shape"], d["clustered"], d["array_field"])
    assert got == want[name], (name, got, want[name])
    assert d["name"] == name and d["collection"] == layouts[name]["collection"] and d["key"] == "bill_id", d
    assert layouts[name]["kind"] == kind, layouts[name]
    if name == "detail":
        continue  # billgen's collection: no fold record
    rec = r["dataset"][name]["provenance"]["params"]["descriptor"]
    assert (rec["kind"], rec["shape"], rec["clustered"]) == (kind, shape, clustered), (name, rec)
    if name == "buckets":
        assert rec["bucket_rows"] == 3, rec
assert "## The speedup taken apart" in md and "--shape sorted" in md, "the chain: detail -> sorted -> folded"
print("ok")
PY
  { fail "the layouts' descriptors"; cat "$T/check" >&2; }

[ "$fails" = 0 ] || exit 1
echo "layout_desc ($where): ok"
