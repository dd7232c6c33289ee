#!/usr/bin/env bash
# write_record.sh -- what scancmp's writes leave behind, on the embedded store or (--server) the test server:
#   - after --workload load,append,update the folded and detail collections' _layoutlab markers hold one
#     `writes` entry per write workload (tool, workload, rows appended / corrected, at, command_line with
#     the URI redacted), and the fold's `verify` is still there; a later scancmp copies them into
#     dataset.<layout>.provenance.writes;
#   - the results file records each layout's state (documents, data size) at the start of every
#     measurement: the load's runs and the load after the writes differ by the rows appended (detail), the
#     append entry's state is the load's, the update entry's the appended one;
#   - a mix that writes adds a `mix` entry with its appends and corrections, and its state is the aged data;
#   - a run that fails after its writes (the load after them differs: exit 3) has recorded them all the same.
#
# Usage: write_record.sh [--server]
# Needs LAB_BIN_DIR; with --server LAYOUTLAB_TEST_URI or LAYOUTLAB_TEST_URI_FILE (the ctest fixture).
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" write_record "$@"

bills=30 appends=40 updates=15 gen=()
# the test server (FerretDB on SQLite) scans the collection for each query and write, its time following
# the rows: 6 bills of 20 rows on average there (127 rows, not 1,338), each check the same
[ "$where" = server ] && bills=6 appends=12 updates=5 gen=(--mean-rows 20)
expect 0 "$BIN/billgen" generate "${S[@]}" --bills $bills "${gen[@]}" --seed 3 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll --verify -q
L=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded)

expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,append,update --append-rows $appends \
  --update-rows $updates --seed 5 --runs 1 -o "$T/w.json"
# a second measurement reads the markers back (both backends) into its dataset's provenance
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,row --row-keys 5 --seed 6 --mix row=50,append=30,update=20 \
  --mix-ops 40 --create-workload-indexes -o "$T/m.json"
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --keys-limit 3 -o "$T/r.json"
python3 - "$T/w.json" "$T/m.json" "$T/r.json" "$appends" "$updates" "$where" >"$T/check" 2>&1 <<'PY' ||
import json, sys
w, m, r = (json.load(open(f)) for f in sys.argv[1:4])
appends, updates, where = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]

# 1. the markers: the first run's two write workloads, then the mix, on both collections; verify kept
mix_ops = m["mix"]["layouts"][0]["by_type"]
mix_n = {t["op"]: t["ops"] for t in mix_ops}
for name in ("detail", "folded"):
    prov = r["dataset"][name]["provenance"]
    ws = prov.get("writes")
    assert ws and len(ws) == 3, (name, ws)
    a, u, x = ws
    assert (a["tool"], a["workload"], a["rows_appended"], a["rows_updated"]) == ("scancmp", "append", appends, 0), a
    assert (u["workload"], u["rows_appended"], u["rows_updated"]) == ("update", 0, updates), u
    assert (x["workload"], x["rows_appended"], x["rows_updated"]) == ("mix", mix_n["append"], mix_n["update"]), (x, mix_n)
    assert a["at"] <= u["at"] <= x["at"] and a["at"].endswith("Z"), ws
    assert a["command_line"][0].endswith("scancmp") and "--append-rows" in a["command_line"], a["command_line"]
    assert not any("failed" in e for e in ws), ws
    if where == "server":
        assert not any("mongodb://" in c and "@" in c for c in a["command_line"] if "***" not in c), a["command_line"]
    if name == "folded":
        assert prov["verify"]["ok"] is True and prov["tool"] == "fold-details", prov
    # the measurement before the mix saw the first run's two entries
    assert [e["workload"] for e in m["dataset"][name]["provenance"]["writes"]] == ["append", "update"], name

# 2. the state of every measurement: the load before and after the appends differ by them (detail: rows)
wl = {x["workload"]: x for x in w["workloads"]}
st = lambda entry, name: next(l for l in entry["layouts"] if l["layout"] == name)["state"]["count"]
run1 = {e["layout"]: e["state"]["count"] for e in w["runs"] if e["run"] == 1}
for name in ("detail", "folded"):
    assert st(wl["load"], name) == run1[name], name
    assert st(wl["append"], name) == run1[name], name
assert run1["detail"] == w["dataset"]["detail"]["count"], (run1, w["dataset"]["detail"])
assert st(wl["load_after_writes"], "detail") == run1["detail"] + appends, (st(wl["load_after_writes"], "detail"), run1)
assert st(wl["update"], "detail") == run1["detail"] + appends
assert all("data_size_bytes" in e["state"] for e in w["runs"])
# 3. the mix ran on the data its own workloads and the first run left: state recorded per layout
for l in m["mix"]["layouts"]:
    assert l["state"]["count"] > 0, l
mixd = next(l for l in m["mix"]["layouts"] if l["layout"] == "detail")["state"]["count"]
assert mixd == run1["detail"] + appends, (mixd, run1)
print("ok")
PY
  { fail "the writes' record"; cat "$T/check" >&2; }

# a collection without a marker: written to, recorded in the results only (no marker made for it)
if [ "$where" = embedded ]; then
  :
fi

# recorded right after the writes, also when the run fails later: bill_detail gets rows detail_coll lacks
# (appended with a copy as the other layout), so the next run's layouts differ (exit 3): its load, its
# appends' masters read back, then the load after them
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst bill_copy --shape sorted -q
expect 0 "$BIN/scancmp" "${S[@]}" --layout detail=bill_detail:rows --layout copy=bill_copy:rows --workload append \
  --append-rows 7 --seed 8 -o "$T/a.json"
expect 3 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,append --append-rows 5 --seed 9 -o "$T/b.json"
grep -q "append: layouts detail and folded returned different rows" "$T/err" || fail "the run did not fail after its writes"
# the layouts still differ (exit 3), the file written all the same: its provenance
expect 3 "$BIN/scancmp" "${S[@]}" "${L[@]}" --keys-limit 3 -o "$T/r2.json"
python3 - "$T/r2.json" >"$T/check" 2>&1 <<'PY' ||
import json, sys
ds = json.load(open(sys.argv[1]))["dataset"]
got = {n: [(w["workload"], w["rows_appended"]) for w in ds[n]["provenance"]["writes"]] for n in ("detail", "folded")}
assert got["detail"][-2:] == [("append", 7), ("append", 5)], got
assert got["folded"][-1] == ("append", 5) and ("append", 7) not in got["folded"], got
assert ds["folded"]["provenance"]["verify"]["ok"] is True
print("ok")
PY
  { fail "the writes of a run that failed after them"; cat "$T/check" >&2; }

if [ "$fails" -ne 0 ]; then
  echo "write_record ($where): $fails check(s) failed" >&2
  exit 1
fi
echo "write_record ($where): ok"
