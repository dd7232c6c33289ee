#!/usr/bin/env bash
# load_order.sh -- scancmp --load-order on the embedded store: billgen's data folded, then
#   - key and random order load the same keys: the same rows, documents and keys per layout; the results
#     name the order (config.load_order, runs[].load_order) and random's seed (config.load_seed);
#   - random order with the same --seed deals the keys to the workers alike (-v's debug lines), another seed
#     differently;
#   - both: the headline in key order and the workloads' rows load (key order) and load_random (random,
#     its rows equal to the key order's), named so in scancmp's ledger and layout-report's; with a cache
#     sweep, every point has both and both sweep tables a random-order speedup column;
#   - a bad value, and random with --predict, are refused (exit 2) naming the option.
#
# Usage: load_order.sh
# Needs LAB_BIN_DIR.
set -uo pipefail

. "$(dirname "$0")/../lib/store_test.sh" load_order "$@"

expect 0 "$BIN/billgen" generate "${S[@]}" --bills 40 --mean-rows 20 --seed 7 -q
expect 0 "$BIN/fold-details" "${S[@]}" --src bill_detail --dst detail_coll -q
C=(--detail bill_detail --folded detail_coll --parallel 3 --cold)

# 1. key and random order: the same keys, the order recorded
expect 0 "$BIN/scancmp" "${S[@]}" "${C[@]}" -o "$T/key.json"
expect 0 "$BIN/scancmp" "${S[@]}" "${C[@]}" --load-order random --seed 5 -v -o "$T/r5.json"
grep 'random order (seed 5): worker' "$T/err" | sed 's/^.*random order/random order/' | sort -u >"$T/deal5a"
grep -qF 'load order: random' "$T/out" || fail "scancmp's table does not name the random order"
expect 0 "$BIN/scancmp" "${S[@]}" "${C[@]}" --load-order random --seed 5 -v -o "$T/r5b.json"
grep 'random order (seed 5): worker' "$T/err" | sed 's/^.*random order/random order/' | sort -u >"$T/deal5b"
expect 0 "$BIN/scancmp" "${S[@]}" "${C[@]}" --load-order random --seed 6 -v -o "$T/r6.json"
grep 'random order (seed 6): worker' "$T/err" | sed 's/^.*random order (seed 6)/random order (seed 5)/' |
  sort -u >"$T/deal6"
[ "$(wc -l <"$T/deal5a")" -eq 3 ] || fail "no line per worker of the random order's deal: $(cat "$T/deal5a")"
cmp -s "$T/deal5a" "$T/deal5b" || fail "the same seed dealt the keys differently: $(diff "$T/deal5a" "$T/deal5b")"
cmp -s "$T/deal5a" "$T/deal6" && fail "seeds 5 and 6 dealt the keys alike: $(cat "$T/deal6")"
python3 - "$T/key.json" "$T/r5.json" >"$T/check" 2>&1 <<'PY' || { fail "key vs random results"; cat "$T/check" >&2; }
import json, sys
key, rnd = (json.load(open(p)) for p in sys.argv[1:3])
assert key["config"]["load_order"] == "key" and "load_seed" not in key["config"], key["config"]
assert rnd["config"]["load_order"] == "random" and rnd["config"]["load_seed"] == 5, rnd["config"]
assert {r["load_order"] for r in key["runs"]} == {"key"}, [r["load_order"] for r in key["runs"]]
assert {r["load_order"] for r in rnd["runs"]} == {"random"}, [r["load_order"] for r in rnd["runs"]]
for l in ("detail", "folded"):
    k = next(r for r in key["runs"] if r["layout"] == l)
    r = next(r for r in rnd["runs"] if r["layout"] == l)
    for f in ("keys", "docs", "rows", "bytes_returned"):
        assert k[f] == r[f], (l, f, k[f], r[f])
    assert sum(w["keys"] for w in r["workers"]) == r["keys"] == 40, r["workers"]
print("ok")
PY

# 2. both, with a cache sweep: every point has the random-order load beside the headline
expect 0 "$BIN/scancmp" "${S[@]}" "${C[@]}" --load-order both --cache-sizes 1MiB,4MiB -o "$T/both.json"
cp "$T/out" "$T/both.txt"
python3 - "$T/both.json" "$T/key.json" >"$T/check" 2>&1 <<'PY' || { fail "both: results"; cat "$T/check" >&2; }
import json, sys
both, key = (json.load(open(p)) for p in sys.argv[1:3])
assert both["config"]["load_order"] == "both", both["config"]
assert {r["load_order"] for r in both["runs"]} == {"key"}, [r["load_order"] for r in both["runs"]]
rows = {r["layout"]: r["rows"] for r in key["runs"]}
assert len(both["sweep"]) == 2
for p in both["sweep"]:
    w = {x["workload"]: x for x in p["workloads"]}
    assert w["load"]["load_order"] == "key" and w["load_random"]["load_order"] == "random", sorted(w)
    assert w["load_random"]["rows_equal"] is True
    for l in w["load_random"]["layouts"]:
        assert l["rows_returned"] == rows[l["layout"]], (l["layout"], l["rows_returned"], rows)
        assert l["elapsed_s"] > 0
print("ok")
PY
grep -qE '^  load \(key order\) +detail' "$T/both.txt" || fail "scancmp's ledger has no row 'load (key order)'"
grep -qE '^  load \(random order\) +detail' "$T/both.txt" || fail "scancmp's ledger has no row 'load (random order)'"
grep -qF 'random order' <(grep -A1 '^engine cache' "$T/both.txt") || fail "scancmp's sweep table has no random-order column"
expect 0 "$BIN/layout-report" "$T/both.json" -o "$T/both.md" -q --charts none
for want in '| **load (key order)**' '| **load (random order)**' 'speedup (random order, detail ÷ folded)' \
            'detail load time (key order)' 'In random order the folded layout loads'; do
  grep -qF -- "$want" "$T/both.md" || fail "the report lacks: $want"
done

# 3. refusals
expect 2 "$BIN/scancmp" "${S[@]}" "${C[@]}" --load-order sideways -o "$T/bad.json"
grep -q -- '--load-order' "$T/err" && grep -q 'sideways' "$T/err" || fail "the refusal does not name --load-order and its value"
[ ! -e "$T/bad.json" ] || fail "a refused run wrote its results file"
expect 2 "$BIN/scancmp" "${S[@]}" --detail bill_detail --predict --load-order random --cache-ratios 1
grep -q -- '--load-order random with --predict' "$T/err" || fail "--predict with random order not refused by name"

[ "$fails" -eq 0 ] && echo "load_order ($where): all checks passed" || echo "load_order ($where): $fails failed" >&2
[ "$fails" -eq 0 ]
