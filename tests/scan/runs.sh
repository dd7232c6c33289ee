#!/usr/bin/env bash
# runs.sh -- scancmp --runs N repeats everything measured, on the embedded store:
#   - --runs 3: the load, every workload, the load after the writes and the mix each have 3 runs per layout
#     (runs[] with run 1..3), the layouts' order alternating from run to run (order_in_run), each entry's
#     elapsed_s the median of its runs and elapsed_s_min/max their extremes;
#   - --runs 2 with appends and updates: every run writes its own rows, which stay (docs/results-schema.md
#     "Runs"): the load after the writes reads 2 x the appended rows more, the update's collection holds
#     them, every run's writes the same on every layout (rows_equal);
#   - --reference-runs 3 on a sweep: 3 runs at the reference point only, --runs at the others; without a
#     sweep it is refused (exit 2).
#
# Usage: runs.sh
# Needs LAB_BIN_DIR.
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" runs "$@"

appends=25 updates=15
expect 0 "$BIN/billgen" generate "${S[@]}" --bills 30 --seed 7 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll -q
L=(--layout detail=bill_detail:rows --layout folded=detail_coll:folded)

# the common checks of an entry's runs: run numbers, alternating order, medians, min/max, the winner
cat >"$T/check_runs.py" <<'PY'
import statistics

def check_entry(name, entry, nruns):
    lays = entry["layouts"]
    med = {}
    for l in lays:
        runs = l["runs"]
        assert l["nruns"] == nruns and len(runs) == nruns, (name, l["layout"], l.get("nruns"), len(runs))
        assert [r["run"] for r in runs] == list(range(1, nruns + 1)), (name, l["layout"], runs)
        t = [r["elapsed_s"] for r in runs]
        m = statistics.median(t)
        assert abs(l["elapsed_s"] - m) < 1e-4, (name, l["layout"], "elapsed_s", l["elapsed_s"], "median", m, t)
        assert l["elapsed_s_min"] == min(t) and l["elapsed_s_max"] == max(t), (name, l["layout"], l, t)
        med[l["layout"]] = m
    for k in range(nruns):
        orders = sorted(l["runs"][k]["order_in_run"] for l in lays)
        assert orders == list(range(1, len(lays) + 1)), (name, "run", k + 1, orders)
    # alternate: who goes first rotates from one run to the next
    first = [next(l["layout"] for l in lays if l["runs"][k]["order_in_run"] == 1) for k in range(nruns)]
    for k in range(1, nruns):
        assert first[k] != first[k - 1], (name, "the same layout went first in runs", k, k + 1, first)
    # the one rule (lab_results_rank): by median unless the paired runs rank the runner-up first
    assert entry["winner"] in med, (name, "winner", entry["winner"], med)
PY

# --runs 3: every workload (writes included) and the load after them
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,row,aggregate,append,update --row-keys 200 \
  --append-rows $appends --update-rows $updates --create-workload-indexes --parallel 2 --seed 5 --runs 3 \
  -o "$T/r3.json"
python3 - "$T/r3.json" "$T" >"$T/check" 2>&1 <<'PY' || { fail "--runs 3 workloads"; cat "$T/check" >&2; }
import json, sys
sys.path.insert(0, sys.argv[2])
from check_runs import check_entry
res = json.load(open(sys.argv[1]))
wl = {w["workload"]: w for w in res["workloads"]}
assert sorted(wl) == ["aggregate", "append", "load", "load_after_writes", "row", "update"], sorted(wl)
for name, w in wl.items():
    check_entry(name, w, 3)
    assert w["rows_equal"], name
print("ok")
PY

# --runs 2 with the writes: each run writes its own rows (fresh inputs from --seed + run - 1), which stay
expect 0 "$BIN/billgen" generate "${S[@]}" --dst w_detail --bills 30 --seed 8 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src w_detail --dst w_coll -q
expect 0 "$BIN/scancmp" "${S[@]}" --layout detail=w_detail:rows --layout folded=w_coll:folded \
  --workload load,append,update --append-rows $appends --update-rows $updates --parallel 2 --seed 5 \
  --runs 2 -o "$T/w2.json"
python3 - "$T/w2.json" "$T" "$appends" "$updates" >"$T/check" 2>&1 <<'PY' || { fail "--runs 2 writes"; cat "$T/check" >&2; }
import json, sys
sys.path.insert(0, sys.argv[2])
from check_runs import check_entry
res = json.load(open(sys.argv[1]))
appends, updates = int(sys.argv[3]), int(sys.argv[4])
wl = {w["workload"]: w for w in res["workloads"]}
for name in ("append", "update", "load_after_writes"):
    check_entry(name, wl[name], 2)
    assert wl[name]["rows_equal"], name
for name, n in (("append", appends), ("update", updates)):
    for l in wl[name]["layouts"]:
        assert [r["rows"] for r in l["runs"]] == [n, n], (name, l["layout"], l["runs"])
    # each run its own writes (drawn from --seed + run - 1), the same on every layout of the run
    dig = [[l["runs"][k]["digest"] for l in wl[name]["layouts"]] for k in range(2)]
    assert dig[0][0] == dig[0][1] and dig[1][0] == dig[1][1], (name, "layouts differ within a run", dig)
    assert dig[0][0] != dig[1][0], (name, "run 2 wrote what run 1 wrote", dig)
load = {l["layout"]: l for l in wl["load"]["layouts"]}
for l in wl["load_after_writes"]["layouts"]:
    # both runs' appends stay: the load after them reads 2 x the appended rows more, in every run
    assert [r["rows"] for r in l["runs"]] == [load[l["layout"]]["rows_returned"] + 2 * appends] * 2, (l["layout"], l["runs"])
# the updates ran after both runs' appends: detail's collection (one document per row) holds them all
up = {l["layout"]: l for l in wl["update"]["layouts"]}
assert up["detail"]["state"]["count"] == load["detail"]["state"]["count"] + 2 * appends, (up["detail"]["state"], load["detail"]["state"])
print("ok")
PY
# updates alone: run 2 draws other rows than run 1 (the same draw would set each value to the one it holds)
expect 0 "$BIN/scancmp" "${S[@]}" --layout detail=w_detail:rows --layout folded=w_coll:folded \
  --workload update --update-rows $updates --parallel 2 --seed 5 --runs 2 -o "$T/u2.json"
python3 - "$T/u2.json" >"$T/check" 2>&1 <<'PY' || { fail "--runs 2 updates alone"; cat "$T/check" >&2; }
import json, sys
up = {w["workload"]: w for w in json.load(open(sys.argv[1]))["workloads"]}["update"]
dig = [[l["runs"][k]["digest"] for l in up["layouts"]] for k in range(2)]
assert dig[0][0] == dig[0][1] and dig[1][0] == dig[1][1], ("layouts differ within a run", dig)
assert dig[0][0] != dig[1][0], ("run 2 corrected the rows run 1 did", dig)
print("ok")
PY
# the same logical writes on both sides, run after run: the fold's own verification still holds
expect 0 "$BIN/fold-details" "${S[@]}" --verify --src w_detail --dst w_coll -q

# the mix, --runs 3, with writes: each run its own stream's inputs, the same on both layouts
expect 0 "$BIN/billgen" generate "${S[@]}" --dst m_detail --bills 30 --seed 9 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src m_detail --dst m_coll -q
expect 0 "$BIN/scancmp" "${S[@]}" --layout detail=m_detail:rows --layout folded=m_coll:folded \
  --mix load=2,row=2,append=1,update=1 --mix-ops 300 --create-workload-indexes --parallel 2 --seed 5 --runs 3 -o "$T/mix.json"
python3 - "$T/mix.json" "$T" >"$T/check" 2>&1 <<'PY' || { fail "--runs 3 mix"; cat "$T/check" >&2; }
import json, sys
sys.path.insert(0, sys.argv[2])
from check_runs import check_entry
res = json.load(open(sys.argv[1]))
check_entry("mix", res["mix"], 3)
assert res["mix"]["rows_equal"]
print("ok")
PY
expect 0 "$BIN/fold-details" "${S[@]}" --verify --src m_detail --dst m_coll -q

# --reference-runs on a sweep: 3 runs at the reference point (ratio 2, the nearest 1), 1 at the others
expect 0 "$BIN/scancmp" "${S[@]}" "${L[@]}" --workload load,row --row-keys 100 --cache-ratios 2,4,8 \
  --runs 1 --reference-runs 3 --parallel 2 --seed 5 -o "$T/sw.json"
python3 - "$T/sw.json" "$T" >"$T/check" 2>&1 <<'PY' || { fail "--reference-runs"; cat "$T/check" >&2; }
import json, sys
sys.path.insert(0, sys.argv[2])
from check_runs import check_entry
res = json.load(open(sys.argv[1]))
ref = res["sweep_reference"]
assert ref == 0, ref
assert res["config"]["reference_runs"] == 3, res["config"]
for i, p in enumerate(res["sweep"]):
    n = 3 if i == ref else 1
    per = {}
    for r in p["runs"]:
        per[r["layout"]] = per.get(r["layout"], 0) + 1
    assert per == {"detail": n, "folded": n}, (i, per)
    for w in p["workloads"]:
        check_entry("point %d %s" % (i, w["workload"]), w, n)
assert len(res["runs"]) == 6, len(res["runs"])
for w in res["workloads"]:
    check_entry("top " + w["workload"], w, 3)
print("ok")
PY
run "$BIN/scancmp" "${S[@]}" "${L[@]}" --reference-runs 3 -o "$T/no.json"
[ "$rc" -eq 2 ] || fail "--reference-runs without a sweep: exit $rc, not 2"
grep -qF -- "--reference-runs" "$T/err" || fail "--reference-runs without a sweep: the message does not name it"
[ ! -e "$T/no.json" ] || fail "--reference-runs without a sweep wrote a results file"

if [ "$fails" -ne 0 ]; then
  echo "runs ($where): $fails check(s) failed" >&2
  exit 1
fi
echo "runs ($where): ok"
