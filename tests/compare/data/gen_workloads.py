#!/usr/bin/env python3
"""gen_workloads.py -- writes workloads.json, workloads3.json and workloads-sweep.json, the golden files of the workloads'
"workloads" (docs/results-schema.md, "Workloads"), from run.json (detail and folded) and run3.json (detail,
folded, buckets).

Each file gains the array scancmp --workload load,row,range,aggregate writes: load derived from each
layout's median run (as scancmp does), then row, range and aggregate with made-up but consistent figures:
folded wins load and range and loses row and aggregate (the ledger's trade-off sentence). Unknown figures
(-1) and an absent "where" exercise n/a. In workloads3.json buckets wins aggregate (a loss names its winner)
and the range workload's layouts returned different rows (rows_equal false: the ledger's warning).
workloads-sweep.json is sweep.json with the workloads at every point (each point's load from its own runs; at
the largest cache folded also wins aggregate) and the reference point's at the top: the report's table of
the workloads at each cache.
Deterministic. Run it only to change the golden data on purpose; then re-render the golden Markdown
(tests/compare/golden.sh --update) and review the diff.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

INDEX_SIZES = {"bill_id_1": 18_100_000, "bill_id_1_line_no_1": 21_400_000, "charge_time_1": 9_800_000,
               "lines.charge_time_1": 7_600_000, "buckets.charge_time_1": 7_900_000}


def index(name, keys, multikey=False, created=False, size=None):
    return {"name": name, "keys": keys, "multikey": multikey,
            "size_bytes": INDEX_SIZES[name] if size is None else size, "created": created}


def median_run(runs, layout):
    mine = sorted((r for r in runs if r["layout"] == layout), key=lambda r: r["elapsed_s"])
    return mine[(len(mine) - 1) // 2]


def entry(layout, coll, kind, plan, where, indexes, elapsed, queries, rows, docs, doc_bytes, disk_bytes,
          disk_reads, cpu, lat, digest):
    e = {"layout": layout, "collection": coll, "kind": kind, "plan": plan, "plan_source": "planner table"}
    if where:
        e["where"] = where
    e.update({"indexes": indexes, "elapsed_s": elapsed, "queries": queries, "rows_returned": rows,
              "docs_read": docs, "doc_bytes_read": doc_bytes, "disk_read_bytes": disk_bytes,
              "disk_reads": disk_reads, "cpu_s": cpu,
              "latency_ms": dict(zip(("p50", "p95", "p99", "max", "mean"), lat)),
              "docs_per_row": round(docs / rows, 6),
              "disk_bytes_per_row": round(disk_bytes / rows, 1) if disk_bytes >= 0 else -1,
              "digest": digest, "cold": True})
    return e


def finish(w):
    best = min(w["layouts"], key=lambda l: l["elapsed_s"])
    w["winner"] = best["layout"]
    for l in w["layouts"]:
        l["x_vs_winner"] = round(l["elapsed_s"] / best["elapsed_s"], 4)
    return w


def load_of(d, layouts):
    out = []
    for name, coll, kind in layouts:
        r = median_run(d["runs"], name)
        lat = [r["latency_ms"][k] for k in ("p50", "p95", "p99", "max", "mean")]
        # the key index is far smaller where a master is one document (folded) or a few (buckets)
        idx = [index("bill_id_1", {"bill_id": 1}, size={"rows": None, "folded": 143_000, "buckets": 371_000}[kind])]
        out.append(entry(name, coll, kind, "IXSCAN { bill_id: 1 } + FETCH", None, idx, r["elapsed_s"], r["keys"],
                         r["rows"], r["docs"], r["bytes_returned"], r["read_bytes"], r["read_requests"], -1, lat,
                         "5be1c0de00a1b2c3"))
    return finish({"workload": "load", "title": "each master fetched whole by bill_id",
                   "params": {"seed": 1}, "rows_equal": True, "layouts": out})


WHERE_TOOL = "filter and projection in the tool (mongod does them in the server)"


def row_of(layouts):
    out = []
    for name, coll, kind in layouts:
        if kind == "rows":
            out.append(entry(name, coll, kind, "IXSCAN { bill_id: 1, line_no: 1 } + FETCH", None,
                             [index("bill_id_1_line_no_1", {"bill_id": 1, "line_no": 1})], 4.1, 10000, 10000,
                             10000, 3_410_000, 41_000_000, 10000, 3.1, (0.38, 1.1, 2.4, 9.0, 0.41),
                             "9f3a0c1e5b7d2a40"))
        else:
            docs, per = (10000, 39_800) if kind == "folded" else (10000, 15_400)
            el = 13.12 if kind == "folded" else 6.3
            out.append(entry(name, coll, kind, "IXSCAN { bill_id: 1 } + FETCH", WHERE_TOOL,
                             [index("bill_id_1", {"bill_id": 1})], el, 10000, 10000, docs, docs * per,
                             118_000_000 if kind == "folded" else 64_000_000, 14100, 9.8 if kind == "folded" else 5.2,
                             (1.2, 3.4, 5.9, 21.5, 1.31), "9f3a0c1e5b7d2a40"))
    return finish({"workload": "row", "title": "one row fetched by (bill_id, line_no)",
                   "params": {"seed": 1, "row_keys": 10000, "row_batch": 1, "line_field": "line_no"},
                   "rows_equal": True, "layouts": out})


def range_of(layouts, rows_equal):
    out = []
    for name, coll, kind in layouts:
        if kind == "rows":
            out.append(entry(name, coll, kind, "IXSCAN { charge_time: 1 } + FETCH", None,
                             [index("charge_time_1", {"charge_time": 1})], 30.6, 50, 64_200, 64_200,
                             21_900_000, 262_000_000, 64_100, 11.4, (480.0, 905.0, 1010.0, 1122.0, 612.0),
                             "1c0ffee0badcafe1"))
        else:
            key = "lines.charge_time" if kind == "folded" else "buckets.charge_time"
            el = 15.3 if kind == "folded" else 17.9
            digest = "1c0ffee0badcafe1" if rows_equal or kind == "folded" else "1c0ffee0badcafe7"
            rows = 64_200 if rows_equal or kind == "folded" else 64_180
            out.append(entry(name, coll, kind, "IXSCAN { %s: 1 } + FETCH" % key, WHERE_TOOL,
                             [index(key + "_1", {key: 1}, multikey=True, created=True)], el, 50, rows,
                             2_950 if kind == "folded" else 4_100, 117_000_000, 121_000_000, 3_900, -1,
                             (240.0, 420.0, 505.0, 560.0, 306.0), digest))
    return finish({"workload": "range", "title": "every row of a time window, across masters",
                   "params": {"seed": 1, "range_windows": 50, "range_window_s": 3600,
                              "time_field": "charge_time"},
                   "rows_equal": rows_equal, "layouts": out})


GROUPS = {"ICU": 41_233_517.25, "Cardiology": 18_920_400.5, "Radiology": 12_004_871.0, "Pharmacy": 9_771_302.75,
          "Emergency": 8_650_118.0, "Oncology": 7_412_993.5}


def aggregate_of(layouts, buckets_win):
    out = []
    times = {"rows": 58.0, "folded": 81.2, "buckets": 52.4 if buckets_win else 88.0}
    for name, coll, kind in layouts:
        plan = "COLLSCAN" if kind == "rows" else "COLLSCAN + $unwind"
        disk = 171_000_000 if kind == "rows" else 54_000_000
        out.append(entry(name, coll, kind, plan, WHERE_TOOL if kind != "rows" else None, [], times[kind], 1,
                         390_127, 390_127 if kind == "rows" else (3000 if kind == "folded" else 7800),
                         133_000_000 if kind == "rows" else 119_400_000, disk if kind != "folded" else -1,
                         42_800 if kind == "rows" else (-1 if kind == "folded" else 2_700),
                         -1 if kind == "folded" else 40.2, (times[kind] * 1000,) * 4 + (times[kind] * 1000,),
                         "77aa00ff11ee2233"))
    w = finish({"workload": "aggregate", "title": "the sum of amount per dept over the whole collection",
                "params": {"group_field": "dept", "sum_field": "amount"}, "rows_equal": True, "layouts": out})
    w["result"] = {"groups": len(GROUPS), "total": round(sum(GROUPS.values()), 2), "by_group": GROUPS}
    return w


def write(src, dst, layouts, three):
    d = json.load(open(os.path.join(HERE, src)))
    d = copy.deepcopy(d)
    d["workloads"] = [load_of(d, layouts), row_of(layouts), range_of(layouts, not three),
                      aggregate_of(layouts, three)]
    with open(os.path.join(HERE, dst), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


def write_sweep(src, dst, layouts):
    d = copy.deepcopy(json.load(open(os.path.join(HERE, src))))
    for i, p in enumerate(d["sweep"]):
        last = i == len(d["sweep"]) - 1
        p["workloads"] = [load_of(p, layouts), row_of(layouts), range_of(layouts, True),
                          aggregate_of(layouts, False)]
        if last:
            # the cache holds everything: the aggregate's scan of fewer, larger documents wins
            agg = p["workloads"][3]
            for l in agg["layouts"]:
                l["elapsed_s"] = 9.0 if l["layout"] == "folded" else 11.7
            finish(agg)
    d["workloads"] = copy.deepcopy(d["sweep"][d.get("sweep_reference", 0)]["workloads"])
    with open(os.path.join(HERE, dst), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


def main():
    two = [("detail", "bill_detail", "rows"), ("folded", "detail_coll", "folded")]
    write("run.json", "workloads.json", two, False)
    write_sweep("sweep.json", "workloads-sweep.json", two)
    write("run3.json", "workloads3.json", two + [("buckets", "bill_buckets", "buckets")], True)


if __name__ == "__main__":
    main()
