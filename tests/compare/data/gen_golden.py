#!/usr/bin/env python3
"""gen_golden.py -- writes the hand-tuned golden inputs of layout-report's tests (run.json, baseline.json).

The figures are realistic for the demo's default (3,000 bills x ~130 rows on the embedded store with a
64 MB cache, 4 workers) and follow docs/results-schema.md exactly. Deterministic: a fixed seed. Run it
only to change the golden data on purpose; then re-render the golden Markdown and review the diff.
"""
import json
import math
import random
import sys


def histogram(rng, n, median_ms, sigma):
    bounds = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
    counts = [0] * len(bounds)
    lat = []
    for _ in range(n):
        v = math.exp(rng.gauss(math.log(median_ms), sigma))
        lat.append(v)
        for i, b in enumerate(bounds):
            if v <= b or i == len(bounds) - 1:
                counts[i] += 1
                break
    lat.sort()
    pct = lambda p: round(lat[min(n - 1, int(p / 100.0 * n))], 2)
    return {
        "count": n, "min": round(lat[0], 2), "mean": round(sum(lat) / n, 2), "p50": pct(50),
        "p90": pct(90), "p95": pct(95), "p99": pct(99), "max": round(lat[-1], 2),
        "histogram": [{"le_ms": float(b), "count": c} for b, c in zip(bounds, counts) if c],
    }


def run_entry(rng, run, layout, order, elapsed, docs, keys, req, rbytes, rss_peak, cache_max, with_samples,
              lat_median):
    returned = docs * (341 if layout == "detail" else 39800)
    returned = int(returned)
    samples = []
    if with_samples:
        n = int(elapsed)
        rss = 60e6
        for t in range(1, n + 1):
            ramp = min(1.0, t / 4.0)
            r_s = req / elapsed * ramp * rng.uniform(0.85, 1.15)
            mb_s = rbytes / elapsed / 1e6 * ramp * rng.uniform(0.85, 1.15)
            rss = min(rss_peak, rss + (rss_peak - 60e6) / max(1, n / 3))
            samples.append({
                "t_s": float(t), "read_requests_per_s": round(r_s, 1), "read_mb_s": round(mb_s, 2),
                "read_await_ms": round(rng.uniform(0.8, 1.6), 2), "util_pct": round(min(100, 90 * ramp + rng.uniform(0, 9)), 1),
                "server_rss_bytes": int(rss), "cache_bytes": int(min(cache_max * 0.95, rss - 55e6)),
                "docs_per_s": round(docs / elapsed * ramp, 1), "returned_mb_s": round(returned / elapsed / 1e6 * ramp, 2),
                "keys_done": int(min(keys, keys * t / elapsed)),
            })
    peak_req = max([s["read_requests_per_s"] for s in samples], default=req / elapsed * 1.3)
    peak_mb = max([s["read_mb_s"] for s in samples], default=rbytes / elapsed / 1e6 * 1.3)
    lat = histogram(rng, keys, lat_median, 0.55)
    resident = int(rng.choice([0, 0, 4096, 12288]))
    file_bytes = 79304704 if layout == "detail" else 52510720
    e = {
        "run": run, "layout": layout, "collection": "bill_detail" if layout == "detail" else "detail_coll",
        "order_in_run": order,
        "started_at": "2026-11-30T15:%02d:%02dZ" % (10 + 5 * run + order, 7 * order),
        "elapsed_s": elapsed,
        "cold": {"requested": True, "engine_restarted": True, "server_restarted": False, "caches_dropped": True,
                 "drop_caches_note": "dropped (root)", "resident_bytes_before": resident, "file_bytes": file_bytes,
                 "resident_pct_before": round(resident * 100.0 / file_bytes, 3)},
        "docs": docs, "rows": 390127, "keys": keys, "bytes_returned": returned,
        "read_requests": req, "read_bytes": rbytes, "read_time_ms": int(req * 1.2), "io_ticks_ms": int(elapsed * 950),
        "engine": {"block_reads": int(req * 0.97), "block_read_bytes": int(rbytes * 0.98),
                   "cache_read_bytes": int(rbytes * (2.6 if layout == "detail" else 2.2)),
                   "cache_pages_read": int(req * 0.96)},
        "rates": {"read_requests_per_s_mean": round(req / elapsed, 1), "read_requests_per_s_peak": peak_req,
                  "read_mb_s_mean": round(rbytes / elapsed / 1e6, 2), "read_mb_s_peak": peak_mb,
                  "avg_read_request_bytes": round(rbytes / req, 1), "read_await_ms": round(rng.uniform(1.0, 1.4), 2),
                  "util_pct_mean": round(rng.uniform(88, 97), 1), "docs_per_s": round(docs / elapsed, 1),
                  "rows_per_s": round(390127 / elapsed, 1),
                  "returned_mb_s": round(returned / elapsed / 1e6, 2)},
        "memory": {"server_rss_peak_bytes": int(rss_peak), "cache_peak_bytes": int(min(cache_max * 0.95, rss_peak - 55e6)),
                   "cache_peak_pct": round(min(cache_max * 0.95, rss_peak - 55e6) * 100.0 / cache_max, 1)},
        "latency_ms": lat,
        "workers": [{"worker": w, "keys": keys // 4, "docs": docs // 4, "elapsed_s": round(elapsed - rng.uniform(0, 1.5), 2)}
                    for w in range(4)],
        "samples": samples,
    }
    return e


def flatten(run):
    out = {}
    for k, v in run.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in ("run", "order_in_run"):
            out[k] = v
    for sub, rename in (("rates", None), ("memory", None), ("engine", None)):
        for k, v in run.get(sub, {}).items():
            out[k] = v
    for k in ("p50", "p90", "p95", "p99", "max", "mean"):
        if k in run.get("latency_ms", {}):
            out["latency_%s_ms" % k] = run["latency_ms"][k]
    return out


def summary(runs):
    s = {}
    for layout in ("detail", "folded"):
        rs = [flatten(r) for r in runs if r["layout"] == layout]
        d = {"runs": len(rs)}
        for k in rs[0]:
            vals = sorted(r[k] for r in rs if k in r)
            n = len(vals)
            med = vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2.0
            d[k] = {"median": med, "min": vals[0], "max": vals[-1]}
        s[layout] = d
    return s


def experiment(seed, nruns, compressor, elapsed_d, elapsed_f, with_samples, with_summary, with_calibration):
    rng = random.Random(seed)
    cache_max = 64 * 1048576
    keys, rows = 3000, 390127
    runs = []
    for run in range(1, nruns + 1):
        first = "detail" if run % 2 == 1 else "folded"
        for order, layout in enumerate((first, "folded" if first == "detail" else "detail"), start=1):
            if layout == "detail":
                runs.append(run_entry(rng, run, "detail", order, elapsed_d[run - 1], rows, keys,
                                      rng.randint(41000, 43500), rng.randint(168000000, 172000000),
                                      rng.uniform(128e6, 134e6), cache_max, with_samples, 120.0))
            else:
                runs.append(run_entry(rng, run, "folded", order, elapsed_f[run - 1], keys, keys,
                                      rng.randint(2250, 2400), rng.randint(53500000, 55000000),
                                      rng.uniform(119e6, 123e6), cache_max, with_samples, 52.0))
    doc = {
        "schema_version": 1, "tool": "scancmp", "tool_version": "0.1.0",
        "started_at": "2026-11-30T15:10:00Z", "finished_at": "2026-11-30T15:%02d:41Z" % (15 + 5 * nruns),
        "host": {"hostname": "lab-db-01", "kernel": "Linux 6.1.0-27-amd64 x86_64",
                 "cpu_model": "Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz", "cores": 2, "ram_bytes": 25769803776},
        "backend": {"name": "wiredtiger", "version": "3.2.1 (block_compressor=%s)" % compressor,
                    "uri": "wiredtiger:/srv/layoutlab-data", "db": "layoutlab", "server_local": True,
                    "cache_max_bytes": cache_max},
        "config": {"detail": "bill_detail", "folded": "detail_coll", "key": "bill_id", "array_field": "details",
                   "cold": True, "parallel": 4, "runs": nruns, "order": "alternate", "keys_limit": 0,
                   "keys_file": None, "restart_cmd": None, "drop_caches": "auto", "dbpath": "/srv/layoutlab-data",
                   "device": "vda", "interval_s": 1.0, "cache_size_bytes": cache_max},
        "device": {"name": "vda", "sector_bytes": 512},
        "dataset": {
            "keys": keys,
            "detail": {"collection": "bill_detail", "count": rows, "avg_obj_size_bytes": 341.2,
                       "data_size_bytes": 133111332, "storage_size_bytes": 61202432 if compressor == "snappy" else 44511232,
                       "index_size_bytes": 18104320, "nindexes": 2},
            "folded": {"collection": "detail_coll", "count": keys, "avg_obj_size_bytes": 39817.5,
                       "data_size_bytes": 119452500, "storage_size_bytes": 52367360 if compressor == "snappy" else 37756928,
                       "index_size_bytes": 143360, "nindexes": 2},
        },
        "runs": runs,
    }
    if with_calibration:
        doc["calibration"] = {"seq_read_mb_s": 812.4, "rand_read_4k_iops": 15432.0, "file_bytes": 1073741824,
                              "elapsed_s": 12.3}
    if with_summary:
        doc["summary"] = summary(runs)
    return doc


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    run = experiment(11, 3, "snappy", [93.2, 90.4, 95.1], [41.3, 43.0, 40.2], True, True, True)
    base = experiment(7, 2, "zlib", [101.6, 98.9], [44.8, 45.5], False, False, False)
    for name, doc in (("run.json", run), ("baseline.json", base)):
        with open("%s/%s" % (out, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
