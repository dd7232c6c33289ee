#!/usr/bin/env python3
"""gen_mix.py -- writes mix.json, the golden file of the measured user's mix (the top-level "mix"
agreed in docs/results-schema.md between scancmp --mix and layout-report), from writes.json (the separate workloads
of the same data: load, row, range, aggregate, append, load_after_writes, update).

The mix load=5,row=60,range=5,append=25,update=5 over 100,000 operations, 4 workers, cold. Made-up but
consistent figures: each type's mean latency is its workload's cost per operation (elapsed / operations)
times the workers (the workloads ran 4 workers too) times an interference factor above 1 (the types slow
each other in one stream, the writes most); the type's busy time = ops x mean latency; the stream's elapsed
= the busy time over the workers; percentiles spread around the mean; write bytes a little above the
separate writes' engine bytes. So layout-report --mix with the same spec on this file gives an estimate
below the measured mix, by a known margin per layout. mix-far.json is the same with the folded layout's
appends and range reads slowed far more in the stream (30x and 12x, as the demo's stream slowed detail's),
so the estimate names another winner than the stream and the report says why. Deterministic. Run it only to change the golden data
on purpose; then re-render the golden Markdown (tests/compare/golden.sh --update) and review the diff.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ["load", "row", "range", "append", "update"]
WEIGHTS = {"load": 5, "row": 60, "range": 5, "append": 25, "update": 5}
OPS, WORKERS = 100_000, 4
# how much slower each type ran inside the stream than alone
INTERFERENCE = {"detail": {"load": 1.15, "row": 1.30, "range": 1.10, "append": 1.60, "update": 1.40},
                "folded": {"load": 1.20, "row": 1.25, "range": 1.08, "append": 1.30, "update": 1.20}}
ROWS_PER_OP = {"load": 130, "row": 1, "range": 1284, "append": 1, "update": 1}


def op_count(w, l):
    if w["workload"] == "row":
        return l["queries"] * w["params"].get("row_batch", 1)
    if w["workload"] in ("append", "update"):
        return l["write"]["writes"]
    return l["queries"]


# mix-far.json: the folded layout's appends and ranges slowed as the demo's stream slowed detail's
FAR = {"folded": {"append": 30.0, "range": 12.0}}


def main(out, far):
    doc = json.load(open(os.path.join(HERE, "writes.json")))
    wl = {w["workload"]: w for w in doc["workloads"]}
    total = sum(WEIGHTS.values())
    layouts = []
    for name in ("detail", "folded"):
        by_type, busy, read_bytes, engine = [], 0.0, 0.0, 0.0
        for t in TYPES:
            w = wl[t]
            l = next(x for x in w["layouts"] if x["layout"] == name)
            ops = OPS * WEIGHTS[t] // total
            slow = far.get(name, {}).get(t, INTERFERENCE[name][t])
            mean_ms = l["elapsed_s"] / op_count(w, l) * WORKERS * slow * 1000.0
            time_s = round(ops * mean_ms / 1000.0, 2)
            busy += time_s
            if l.get("disk_read_bytes", -1) >= 0:
                read_bytes += ops * l["disk_read_bytes"] / op_count(w, l)
            if t in ("append", "update"):
                engine += ops * l["write"]["engine_bytes_per_write"] * 1.12
            by_type.append({"op": t, "ops": ops, "time_s": time_s,
                            "latency_ms": {"p50": round(mean_ms * 0.8, 3), "p95": round(mean_ms * 2.2, 3),
                                           "p99": round(mean_ms * 4.0, 3), "max": round(mean_ms * 12.0, 3),
                                           "mean": round(mean_ms, 3)},
                            "rows": ops * ROWS_PER_OP[t]})
        elapsed = round(busy / WORKERS, 1)
        layouts.append({"layout": name, "collection": doc["config"][name],
                        "kind": "rows" if name == "detail" else "folded",
                        "elapsed_s": elapsed, "ops_per_s": round(OPS / elapsed, 1), "by_type": by_type,
                        "disk_read_bytes": int(read_bytes * 1.05), "disk_reads": int(read_bytes * 1.05 / 28_672),
                        "disk_write_bytes": int(engine * 1.3), "engine_write_bytes": int(engine),
                        "journal_bytes": int(engine * 0.7), "cpu_s": round(elapsed * 1.7, 1),
                        "digest": "9f3a0c1e5b7d2a40"})
    winner = min(layouts, key=lambda l: l["elapsed_s"])
    for l in layouts:
        l["x_vs_winner"] = round(l["elapsed_s"] / winner["elapsed_s"], 3)
    doc["mix"] = {"estimated": False, "spec": "load=5,row=60,range=5,append=25,update=5",
                  "proportions": WEIGHTS, "ops": OPS, "seed": 1, "workers": WORKERS, "cold": True,
                  "source": "one interleaved stream per layout, cold start", "rows_equal": True,
                  "winner": winner["layout"], "layouts": layouts}
    with open(os.path.join(HERE, out), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


main("mix.json", {})
main("mix-far.json", FAR)
