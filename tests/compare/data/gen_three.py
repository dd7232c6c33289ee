#!/usr/bin/env python3
"""gen_three.py -- writes run3.json, the golden 3-layout results file (schema version 2), from run.json.

The third layout, "buckets" (bill_buckets, at most 50 rows per document), is derived from the folded
runs with fixed factors (a master in about 2.6 documents: a little more index, slightly more reads and
time than folded, far fewer than one document per row); the runs rotate the first layout as scancmp
--order alternate does. Deterministic. Run it only to change the golden data on purpose; then re-render
the golden Markdown (tests/compare/golden.sh --update) and review the diff.
"""
import copy
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
src = json.load(open(os.path.join(here, "run.json")))

# buckets figure = folded figure x factor (time-like and read-like figures grow, document counts triple)
FACTORS = {
    "elapsed_s": 1.21, "docs": 2.6, "read_requests": 1.17, "read_bytes": 1.05, "read_time_ms": 1.2,
    "io_ticks_ms": 1.2, "bytes_returned": 1.004,
}


def scaled(v, f):
    return int(round(v * f)) if isinstance(v, int) else round(v * f, 6)


def buckets_of(folded):
    b = copy.deepcopy(folded)
    b["layout"] = "buckets"
    b["collection"] = "bill_buckets"
    for k, f in FACTORS.items():
        if k in b:
            b[k] = scaled(b[k], f)
    el = b["elapsed_s"]
    b["rates"]["docs_per_s"] = round(b["docs"] / el, 1)
    b["rates"]["rows_per_s"] = round(b["rows"] / el, 1)
    b["rates"]["read_requests_per_s_mean"] = round(b["read_requests"] / el, 1)
    b["rates"]["read_mb_s_mean"] = round(b["read_bytes"] / el / 1e6, 2)
    b["rates"]["avg_read_request_bytes"] = round(b["read_bytes"] / b["read_requests"], 1)
    b["engine"] = {k: scaled(v, 1.1) for k, v in b["engine"].items()}
    b["latency_ms"] = {k: (scaled(v, 1.15) if k not in ("count", "histogram") else v)
                       for k, v in b["latency_ms"].items()}
    for w in b.get("workers", []):
        w["docs"] = scaled(w["docs"], 2.6)
        w["elapsed_s"] = scaled(w["elapsed_s"], 1.21)
    for s in b.get("samples", []):
        s["t_s"] = scaled(s["t_s"], 1.21)
    return b


def flatten(run):
    out = {}
    for k, v in run.items():
        if k in ("run", "order_in_run"):
            continue
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[k] = v
        elif isinstance(v, dict) and k in ("rates", "memory", "engine", "latency_ms", "cold"):
            for ck, cv in v.items():
                if not isinstance(cv, (int, float)) or isinstance(cv, bool):
                    continue
                if k == "latency_ms" and ck == "count":
                    continue
                if k == "cold" and ck in ("server_pid", "server_uptime_s"):
                    continue
                out["latency_%s_ms" % ck if k == "latency_ms" else ck] = cv
    return out


def summary(runs, layout):
    vals = {}
    mine = [r for r in runs if r["layout"] == layout]
    for r in mine:
        for k, v in flatten(r).items():
            vals.setdefault(k, []).append(v)
    out = {"runs": len(mine)}
    for k, v in vals.items():
        v = sorted(v)
        n = len(v)
        med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0
        out[k] = {"median": float(med), "min": float(v[0]), "max": float(v[-1])}
    return out


def main():
    doc = copy.deepcopy(src)
    names = ["detail", "folded", "buckets"]
    by = {}
    for r in src["runs"]:
        by[(r["run"], r["layout"])] = r
    runs = []
    nruns = max(r["run"] for r in src["runs"])
    for run in range(1, nruns + 1):
        order = [names[(k + run - 1) % 3] for k in range(3)]
        for k, layout in enumerate(order):
            e = buckets_of(by[(run, "folded")]) if layout == "buckets" else copy.deepcopy(by[(run, layout)])
            e["order_in_run"] = k + 1
            runs.append(e)
    out = {"schema_version": 2}
    for k, v in doc.items():
        if k == "schema_version":
            continue
        out[k] = v
        if k == "started_at":
            out["layouts"] = [
                {"name": "detail", "collection": "bill_detail", "kind": "rows"},
                {"name": "folded", "collection": "detail_coll", "kind": "folded"},
                {"name": "buckets", "collection": "bill_buckets", "kind": "buckets"},
            ]
            out["reference_layout"] = "detail"
    del out["config"]["detail"]
    del out["config"]["folded"]
    f = doc["dataset"]["folded"]
    out["dataset"]["buckets"] = {
        "collection": "bill_buckets", "count": 7812, "avg_obj_size_bytes": 15306.4,
        "data_size_bytes": 119573357, "storage_size_bytes": int(f["storage_size_bytes"] * 1.02),
        "index_size_bytes": 319488, "nindexes": 2,
    }
    out["runs"] = runs
    out["summary"] = {n: summary(runs, n) for n in names}
    with open(os.path.join(here, "run3.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    sys.exit(main())
