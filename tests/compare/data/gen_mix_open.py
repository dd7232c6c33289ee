#!/usr/bin/env python3
"""gen_mix_open.py -- writes mix-open.json, the golden file of an open-loop mix (scancmp --mix-rate): mix.json
with its mix run at 40 ops/s over 400 operations (so the rare types hold fewer ops than p95 and p99 need:
n/a), each op's latency from its intended start beside its service time (the latency never below it), the
schedule kept by folded and fallen behind on detail, the client's and the store's CPU (embedded: one
process), detail's stream saturating the machine. folded's percentiles are all numbers, as a file written before the
rule on counts held them: the report shows those of too few ops n/a all the same. Made-up but consistent figures; deterministic. Run it
only to change the golden data on purpose, then tests/compare/golden.sh --update and review the diff.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = {"load": 5, "row": 60, "range": 5, "append": 25, "update": 5}
OPS, RATE = 400, 40.0
NEED = {"p50": 2, "p95": 20, "p99": 100}
SERVICE_MS = {"detail": {"load": 9.0, "row": 0.4, "range": 30.0, "append": 0.7, "update": 1.1},
              "folded": {"load": 1.2, "row": 1.1, "range": 14.0, "append": 4.6, "update": 3.0}}
ROWS_PER_OP = {"load": 130, "row": 1, "range": 1284, "append": 1, "update": 1}
QUEUE_MS = {"detail": 85.0, "folded": 0.6}  # what an op waited past its intended start, on average


def lat(ops, mean, all_numbers=False):
    d = {"count": ops}
    for p, f in (("p50", 0.8), ("p95", 2.2), ("p99", 4.0)):
        d[p] = round(mean * f, 3) if ops >= NEED[p] or all_numbers else None
    d["max"], d["mean"] = round(mean * 12.0, 3), round(mean, 3)
    return d


def main():
    doc = json.load(open(os.path.join(HERE, "mix.json")))
    total = sum(WEIGHTS.values())
    layouts = []
    for src in doc["mix"]["layouts"]:
        name = src["layout"]
        by_type, busy, latency = [], 0.0, 0.0
        for t, w in WEIGHTS.items():
            ops = OPS * w // total
            svc = SERVICE_MS[name][t]
            by_type.append({"op": t, "ops": ops, "time_s": round(ops * svc / 1e3, 4),
                            "latency_ms": lat(ops, svc + QUEUE_MS[name], name == "folded"),
                            "service_ms": lat(ops, svc, name == "folded"),
                            "rows": ops * ROWS_PER_OP[t]})
            busy += ops * svc / 1e3
            latency += ops * (svc + QUEUE_MS[name]) / 1e3
        behind = name == "detail"
        elapsed = 12.4 if behind else 10.02
        layouts.append(dict(src, elapsed_s=elapsed, ops_per_s=round(OPS / elapsed, 1), latency_s=round(latency, 4),
                            schedule={"rate_ops_s": RATE, "achieved_ops_s": 32.3 if behind else 40.0,
                                      "max_lag_ms": 2380.5 if behind else 1.9, "mean_lag_ms": 80.2 if behind else 0.3,
                                      "behind": behind},
                            cpu={"elapsed_s": elapsed, "client_s": round(elapsed * (1.9 if behind else 0.6), 3),
                                 "client_cores": 1.9 if behind else 0.6, "store_s": round(elapsed * (1.9 if behind else 0.6), 3),
                                 "store_cores": 1.9 if behind else 0.6,
                                 "store": "the same process as the client (embedded): its CPU is the client's",
                                 "machine_busy_cores": 1.97 if behind else 0.8, "machine_cores": 2, "saturated": behind},
                            by_type=by_type))
    winner = min(layouts, key=lambda l: l["latency_s"])
    for l in layouts:
        l["x_vs_winner"] = round(l["latency_s"] / winner["latency_s"], 3)
    m = doc["mix"]
    m.update(ops=OPS, workers=2, mode="open", rate_ops_s=RATE, behind=True, saturated=True,
             winner=winner["layout"], layouts=layouts)
    keys = ["estimated", "spec", "proportions", "ops", "seed", "workers", "cold", "source", "mode", "rate_ops_s",
            "behind", "saturated", "rows_equal", "winner", "layouts"]
    doc["mix"] = {k: m[k] for k in keys}
    with open(os.path.join(HERE, "mix-open.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


main()
