#!/usr/bin/env python3
"""gen_sweep.py -- writes sweep.json and sweep-baseline.json, the golden inputs of layout-report's
cache-sweep report.

Three points (256 MiB, 512 MiB, 2 GiB of engine cache) of the issue-11 measurement: 38,000 bills /
4.9 M rows, detail 536 MB + 123 MB of indexes on disk, folded 269 MB. The 256 MiB and 2 GiB figures are
the measured ones (detail 166.5 s vs folded 1.94 s; 9.42 s vs 1.03 s; detail read 61.8 GB at 256 MiB);
512 MiB lies between them. Two runs per layout per point, locality included, summaries computed by the
rules of lab_results_summary_append. The top level repeats the reference point (sweep_reference: the
point nearest ratio 1). sweep-baseline.json is the same data stored with zlib (smaller on disk) and
measured at 256 MiB, 1 GiB and 2 GiB, to compare two sweeps point by point. Deterministic; run it only to
change the golden data on purpose.
"""
import json
import sys

MIB = 1048576
KEYS, ROWS = 38000, 4903117
SIZES = {"snappy": (536412160, 123150336, 269344768, 1245184), "zlib": (412303360, 123150336, 198180864, 1245184)}

# per point: cache, {layout: (elapsed per run, block_read_bytes per run, device read_bytes per run,
#                              avg request bytes, cache peak share, rss over cache)}
POINTS = [
    (256 * MIB, {"detail": ([164.8, 168.2], [61.2e9, 62.4e9], [61.5e9, 62.7e9], 16300, 0.95, 62e6),
                 "folded": ([1.91, 1.97], [279.1e6, 281.3e6], [301.2e6, 305.0e6], 29800, 0.93, 58e6)}),
    (512 * MIB, {"detail": ([37.5, 38.9], [7.98e9, 8.12e9], [8.10e9, 8.26e9], 16400, 0.95, 64e6),
                 "folded": ([1.10, 1.16], [272.4e6, 274.0e6], [297.8e6, 300.1e6], 29900, 0.52, 57e6)}),
    (2048 * MIB, {"detail": ([9.31, 9.53], [654.1e6, 656.3e6], [938.0e6, 942.4e6], 61400, 0.31, 66e6),
                  "folded": ([1.01, 1.05], [270.2e6, 271.0e6], [296.5e6, 298.9e6], 30100, 0.13, 57e6)}),
]
BASELINE_POINTS = [
    (256 * MIB, {"detail": ([119.6, 122.4], [46.1e9, 47.3e9], [46.4e9, 47.6e9], 12600, 0.95, 62e6),
                 "folded": ([1.69, 1.73], [198.6e6, 199.9e6], [219.4e6, 221.0e6], 22400, 0.74, 58e6)}),
    (1024 * MIB, {"detail": ([10.1, 10.3], [512.4e6, 514.0e6], [731.8e6, 735.1e6], 47200, 0.50, 64e6),
                  "folded": ([1.04, 1.06], [198.2e6, 198.8e6], [219.0e6, 219.9e6], 22500, 0.19, 57e6)}),
    (2048 * MIB, {"detail": ([9.84, 9.96], [511.9e6, 513.2e6], [730.2e6, 733.0e6], 47300, 0.25, 66e6),
                  "folded": ([1.01, 1.03], [198.1e6, 198.6e6], [218.8e6, 219.6e6], 22500, 0.10, 57e6)}),
]
LOCALITY = {"detail": {"pages_per_master_mean": 118.4, "pages_per_master_p95": 171, "masters_sampled": 1000,
                       "method": "record_ids"},
            "folded": {"pages_per_master_mean": 1.6, "pages_per_master_p95": 3, "masters_sampled": 1000,
                       "method": "record_ids"}}


def on_disk(layout, compressor="snappy"):
    dd, di, fd, fi = SIZES[compressor]
    return dd + di if layout == "detail" else fd + fi


def run_entry(p, run, layout, order, cache, f, k, compressor):
    elapsed, block, dev, req_size, cache_share, rss_extra = f
    el, blk, rb = elapsed[k], int(block[k]), int(dev[k])
    req = int(rb / req_size)
    docs = ROWS if layout == "detail" else KEYS
    returned = ROWS * 298 if layout == "detail" else KEYS * 36400
    cache_peak = int(cache * cache_share)
    lat_scale = el / KEYS * 4 * 1000.0  # 4 workers: ms per master
    return {
        "run": run, "layout": layout, "collection": "bill_detail" if layout == "detail" else "detail_coll",
        "order_in_run": order, "started_at": "2026-11-30T1%d:%02d:00Z" % (6 + p, 10 * run + 5 * order),
        "elapsed_s": el,
        "cold": {"requested": True, "engine_restarted": True, "server_restarted": False, "caches_dropped": True,
                 "drop_caches_note": "dropped (root)", "resident_bytes_before": 0,
                 "file_bytes": on_disk(layout, compressor), "resident_pct_before": 0.0},
        "docs": docs, "rows": ROWS, "keys": KEYS, "bytes_returned": returned,
        "read_requests": req, "read_bytes": rb, "read_time_ms": int(req * 0.16), "io_ticks_ms": int(el * 960),
        "engine": {"block_reads": int(blk / (req_size * 0.97)), "block_read_bytes": blk,
                   "cache_read_bytes": int(blk * (2.7 if layout == "detail" else 5.1)),
                   "cache_pages_read": int(blk / (req_size * 0.97))},
        "rates": {"read_requests_per_s_mean": round(req / el, 1), "read_requests_per_s_peak": round(req / el * 1.2, 1),
                  "read_mb_s_mean": round(rb / el / 1e6, 2), "read_mb_s_peak": round(rb / el / 1e6 * 1.2, 2),
                  "avg_read_request_bytes": round(rb / req, 1), "read_await_ms": 0.16 if layout == "detail" else 0.4,
                  "util_pct_mean": 97.5 if el > 5 else 81.0, "docs_per_s": round(docs / el, 1),
                  "rows_per_s": round(ROWS / el, 1), "returned_mb_s": round(returned / el / 1e6, 2)},
        "memory": {"server_rss_peak_bytes": int(cache_peak + rss_extra), "cache_peak_bytes": cache_peak,
                   "cache_peak_pct": round(cache_share * 100, 1), "cache_max_bytes": cache},
        "latency_ms": {"count": KEYS, "min": round(lat_scale * 0.05, 3), "mean": round(lat_scale, 3),
                       "p50": round(lat_scale * 0.8, 3), "p90": round(lat_scale * 1.9, 3),
                       "p95": round(lat_scale * 2.4, 3), "p99": round(lat_scale * 3.9, 3),
                       "max": round(lat_scale * 12, 3)},
    }


def flatten(run):
    """The figures lab_results_summary_append keeps, under their flat names."""
    out = {}
    for k, v in run.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in ("run", "order_in_run"):
            out[k] = v
        elif isinstance(v, dict):
            for ck, cv in v.items():
                if not isinstance(cv, (int, float)) or isinstance(cv, bool):
                    continue
                if k == "latency_ms":
                    if ck != "count":
                        out["latency_%s_ms" % ck] = cv
                elif k == "cold":
                    if ck not in ("server_pid", "server_uptime_s"):
                        out[ck] = cv
                elif k in ("rates", "memory", "engine"):
                    out[ck] = cv
    return out


def summary(runs):
    s = {}
    for layout in ("detail", "folded"):
        rs = [flatten(r) for r in runs if r["layout"] == layout]
        d = {"runs": len(rs)}
        for k in rs[0]:
            vals = sorted(float(r[k]) for r in rs if k in r)
            n = len(vals)
            med = vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2.0
            d[k] = {"median": med, "min": vals[0], "max": vals[-1]}
        s[layout] = d
    return s


def experiment(points, compressor, ref, started, finished):
    dd, di, fd, fi = SIZES[compressor]
    sweep = []
    for p, (cache, figures) in enumerate(points):
        runs = []
        for run in (1, 2):
            first = "detail" if run == 1 else "folded"
            for order, layout in enumerate((first, "folded" if first == "detail" else "detail"), start=1):
                runs.append(run_entry(p, run, layout, order, cache, figures[layout], run - 1, compressor))
        point = {"cache_size_bytes": cache, "cache_ratio": round(cache / on_disk("detail", compressor), 4),
                 "runs": runs, "summary": summary(runs)}
        for layout in ("detail", "folded"):
            blocks = sorted(figures[layout][1])
            point[layout] = {"read_amplification": round((blocks[0] + blocks[1]) / 2 / on_disk(layout, compressor), 3),
                             "locality": LOCALITY[layout]}
        sweep.append(point)
    ref_cache = points[ref][0]
    return {
        "schema_version": 1, "tool": "scancmp", "tool_version": "0.1.0",
        "started_at": started, "finished_at": finished,
        "host": {"hostname": "lab-db-01", "kernel": "Linux 6.1.0-27-amd64 x86_64",
                 "cpu_model": "Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz", "cores": 2, "ram_bytes": 25769803776},
        "backend": {"name": "wiredtiger", "version": "3.2.1 (block_compressor=%s)" % compressor,
                    "uri": "wiredtiger:/srv/layoutlab-data", "db": "layoutlab", "server_local": True,
                    "cache_max_bytes": ref_cache},
        "config": {"detail": "bill_detail", "folded": "detail_coll", "key": "bill_id", "array_field": "details",
                   "cold": True, "parallel": 4, "runs": 2, "order": "alternate", "keys_limit": 0,
                   "keys_file": None, "restart_cmd": None, "drop_caches": "auto", "dbpath": "/srv/layoutlab-data",
                   "device": "vda", "interval_s": 1.0, "direct_io": True, "cache_size_bytes": ref_cache,
                   "cache_ratio": sweep[ref]["cache_ratio"]},
        "device": {"name": "vda", "sector_bytes": 512},
        "dataset": {
            "keys": KEYS,
            "detail": {"collection": "bill_detail", "count": ROWS, "avg_obj_size_bytes": 298.4,
                       "data_size_bytes": 1463090113, "storage_size_bytes": dd,
                       "index_size_bytes": di, "nindexes": 2},
            "folded": {"collection": "detail_coll", "count": KEYS, "avg_obj_size_bytes": 36400.2,
                       "data_size_bytes": 1383207600, "storage_size_bytes": fd,
                       "index_size_bytes": fi, "nindexes": 2},
        },
        "runs": sweep[ref]["runs"],
        "summary": sweep[ref]["summary"],
        "sweep_reference": ref,
        "sweep": sweep,
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, doc in (("sweep.json", experiment(POINTS, "snappy", 1, "2026-11-30T16:00:00Z", "2026-11-30T18:41:07Z")),
                      ("sweep-baseline.json", experiment(BASELINE_POINTS, "zlib", 1, "2026-11-29T16:00:00Z",
                                                                "2026-11-29T17:52:30Z"))):
        with open("%s/%s" % (out, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
