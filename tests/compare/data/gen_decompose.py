#!/usr/bin/env python3
"""gen_decompose.py -- writes decompose.json, decompose-point.json and decompose-clustered.json, the golden cache sweep of three layouts whose load speedup
layout-report takes apart: detail (bill_detail, the rows in arrival order), sorted (detail_sorted,
the same rows in key order: its provenance says fold-details --shape sorted wrote it) and folded
(detail_coll).

The points and the detail and folded figures are those of sweep.json (gen_sweep.py); sorted is derived
from detail with per-point factors: its load time detail's / LOCALITY_GAIN (locality gives 9.95x at
256 MiB, where detail rereads its data, 1.35x at 512 MiB, 1.02x at 2 GiB, where it fits), its read
requests and bytes read detail's / READ_GAIN, its on-disk size detail's, its locality 1.7 pages per
master. decompose-point.json is its reference point alone (a single-point file), whose sorted layout
says its key order by layouts[].order "key" instead of a provenance. Every run carries the CPU of the store's process (cpu.process_s: 0.9 of the load time for
detail and sorted, 1.6 for folded). Deterministic. Run it only to change the golden data on purpose;
then re-render the golden Markdown (tests/compare/golden.sh --update) and review the diff.
"""
import copy
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import gen_sweep  # noqa: E402

NAMES = ["detail", "sorted", "folded"]
LOCALITY_GAIN = [9.95, 1.35, 1.02]  # detail load time / sorted's, per point
READ_GAIN = [12.0, 1.6, 1.0]        # detail read requests and bytes / sorted's, per point
CPU_SHARE = {"detail": 0.9, "sorted": 0.9, "folded": 1.6}
LOCALITY = {"pages_per_master_mean": 1.7, "pages_per_master_p95": 3, "masters_sampled": 1000,
            "method": "record_ids"}


def scaled(v, f):
    return int(round(v * f)) if isinstance(v, int) else round(v * f, 6)


def sorted_of(detail, gain, reads):
    s = copy.deepcopy(detail)
    s["layout"] = "sorted"
    s["collection"] = "detail_sorted"
    s["elapsed_s"] = round(s["elapsed_s"] / gain, 4)
    for k in ("read_requests", "read_bytes", "read_time_ms"):
        s[k] = scaled(s[k], 1 / reads)
    s["io_ticks_ms"] = scaled(s["io_ticks_ms"], 1 / gain)
    s["engine"] = {k: scaled(v, 1 / reads) for k, v in s["engine"].items()}
    el = s["elapsed_s"]
    r = s["rates"]
    r["docs_per_s"] = round(s["docs"] / el, 1)
    r["rows_per_s"] = round(s["rows"] / el, 1)
    r["read_requests_per_s_mean"] = round(s["read_requests"] / el, 1)
    r["read_requests_per_s_peak"] = round(s["read_requests"] / el * 1.2, 1)
    r["read_mb_s_mean"] = round(s["read_bytes"] / el / 1e6, 2)
    r["read_mb_s_peak"] = round(s["read_bytes"] / el / 1e6 * 1.2, 2)
    r["returned_mb_s"] = round(s["bytes_returned"] / el / 1e6, 2)
    s["latency_ms"] = {k: (scaled(v, 1 / gain) if k != "count" else v) for k, v in s["latency_ms"].items()}
    return s


def with_cpu(e):
    out = {}
    for k, v in e.items():
        out[k] = v
        if k == "memory":
            out["cpu"] = {"process_s": round(e["elapsed_s"] * CPU_SHARE[e["layout"]], 3), "cores": 2,
                          "busy_pct_mean": round(CPU_SHARE[e["layout"]] * 50, 1)}
    return out


def summary(runs):
    s = {}
    for layout in NAMES:
        rs = [gen_sweep.flatten(r) for r in runs if r["layout"] == layout]
        for r, e in zip(rs, [e for e in runs if e["layout"] == layout]):
            for k, v in e["cpu"].items():
                r["cpu_" + k] = v
        d = {"runs": len(rs)}
        for k in rs[0]:
            vals = sorted(float(r[k]) for r in rs if k in r)
            n = len(vals)
            med = vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2.0
            d[k] = {"median": med, "min": vals[0], "max": vals[-1]}
        s[layout] = d
    return s


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else here
    two = gen_sweep.experiment(gen_sweep.POINTS, "snappy", 1, "2026-12-02T09:00:00Z", "2026-12-02T13:41:07Z")
    d_disk = gen_sweep.on_disk("detail")
    for p, point in enumerate(two["sweep"]):
        by = {(r["run"], r["layout"]): r for r in point["runs"]}
        runs = []
        for run in (1, 2):
            order = [NAMES[(k + run - 1) % 3] for k in range(3)]
            for k, layout in enumerate(order):
                if layout == "sorted":
                    e = sorted_of(by[(run, "detail")], LOCALITY_GAIN[p], READ_GAIN[p])
                else:
                    e = copy.deepcopy(by[(run, layout)])
                e["order_in_run"] = k + 1
                runs.append(with_cpu(e))
        point["runs"] = runs
        point["summary"] = summary(runs)
        blocks = sorted(r["engine"]["block_read_bytes"] for r in runs if r["layout"] == "sorted")
        point["sorted"] = {"read_amplification": round((blocks[0] + blocks[1]) / 2 / d_disk, 3),
                           "locality": LOCALITY}
    out = {"schema_version": 2}
    for k, v in two.items():
        if k == "schema_version":
            continue
        out[k] = v
        if k == "started_at":
            out["layouts"] = [
                {"name": "detail", "collection": "bill_detail", "kind": "rows"},
                {"name": "sorted", "collection": "detail_sorted", "kind": "rows"},
                {"name": "folded", "collection": "detail_coll", "kind": "folded"},
            ]
            out["reference_layout"] = "detail"
    del out["config"]["detail"]
    del out["config"]["folded"]
    ds = copy.deepcopy(out["dataset"]["detail"])
    ds["collection"] = "detail_sorted"
    ds["provenance"] = {
        "layoutlab": 1, "tool": "fold-details", "version": "0.1.0", "written_at": "2026-12-02T08:31:40.118Z",
        "command_line": ["fold-details", "--uri", "wiredtiger:/srv/layoutlab-data", "--src", "bill_detail",
                         "--dst", "detail_sorted", "--shape", "sorted", "--verify"],
        "source": "bill_detail",
        "params": {"key": "bill_id", "array_field": "details", "hoist_spec": "auto", "hoist": [],
                   "max_doc_bytes": 16777216, "on_oversize": "split", "bucket_rows": 0, "bucket_by": "",
                   "shape": "sorted", "parallel": 1, "ranges": 1, "block_compressor": "snappy",
                   "copy_only": False},
        "verify": {"ok": True, "method": "multiset", "rows": gen_sweep.ROWS, "masters": gen_sweep.KEYS,
                   "checksum": "5c0e7a1d2b9f4e6a8d3c1b0a9f8e7d6c", "at": "2026-12-02T08:40:02.551Z"},
    }
    out["dataset"]["sorted"] = ds
    ref = out["sweep_reference"]
    out["runs"] = out["sweep"][ref]["runs"]
    out["summary"] = out["sweep"][ref]["summary"]
    for k in ("sweep_reference", "sweep"):
        out[k] = out.pop(k)
    with open(os.path.join(out_dir, "decompose.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    # the reference point alone, its sorted layout marked by layouts[].order "key" instead of a provenance
    point = copy.deepcopy(out)
    del point["sweep"]
    del point["sweep_reference"]
    del point["dataset"]["sorted"]["provenance"]
    point["layouts"][1]["order"] = "key"
    with open(os.path.join(out_dir, "decompose-point.json"), "w") as fh:
        json.dump(point, fh, indent=1)
        fh.write("\n")
    # the same point with a clustered collection beside sorted (fold-details --shape clustered: its
    # provenance says so): the sentence of what the rows keep unfolded; its loads 0.8 of sorted's
    four = copy.deepcopy(point)
    four["layouts"].insert(2, {"name": "clustered", "collection": "detail_clustered", "kind": "rows"})
    extra = []
    for r in four["runs"]:
        if r["layout"] == "sorted":
            c = copy.deepcopy(r)
            c["layout"], c["collection"] = "clustered", "detail_clustered"
            c["elapsed_s"] = round(r["elapsed_s"] * 0.8, 3)
            extra.append(c)
    four["runs"] += extra
    four["summary"] = summary(four["runs"])
    cds = copy.deepcopy(out["dataset"]["sorted"])
    cds["collection"] = "detail_clustered"
    cds["provenance"]["command_line"] = [a.replace("sorted", "clustered") for a in cds["provenance"]["command_line"]]
    cds["provenance"]["params"]["shape"] = "clustered"
    four["dataset"]["clustered"] = cds
    with open(os.path.join(out_dir, "decompose-clustered.json"), "w") as fh:
        json.dump(four, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    sys.exit(main())
