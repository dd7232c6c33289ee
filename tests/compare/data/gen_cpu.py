#!/usr/bin/env python3
"""gen_cpu.py -- writes run-cpu.json, run.json with the CPU figures scancmp records of the store's process
(per run entry "cpu": process_s, cores, busy_pct_mean, busy_pct_peak; per sample cpu_busy_pct; their
medians in the summary), as docs/results-schema.md describes them.

The figures follow what a profile of the folded layout's cold load showed on a 2-core machine: the
folded load keeps both cores busy (~96%: snappy decompression and first-touch page faults), so its disk
rates understate the disk; the detail load waits on scattered reads (~47%). layout-report must say the
first and not the second (golden.sh). Deterministic: a fixed seed. Run it only to change the golden data
on purpose; then re-render the golden Markdown and review the diff.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
CORES = 2
# per layout, the mean share of the cores each of its runs kept busy (in the order of its runs in run.json)
BUSY = {"detail": [47.5, 46.1, 48.9], "folded": [96.4, 97.1, 95.8]}


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def with_key_after(d, after, key, value):
    """d with key: value inserted right after `after` (at the end when d has no `after`)."""
    out = {}
    for k, v in d.items():
        out[k] = v
        if k == after:
            out[key] = value
    if key not in out:
        out[key] = value
    return out


def main():
    rng = random.Random(20261201)
    with open(os.path.join(HERE, "run.json")) as f:
        d = json.load(f)
    seen = {"detail": 0, "folded": 0}
    figures = {"detail": {}, "folded": {}}
    runs = []
    for e in d["runs"]:
        layout = e["layout"]
        busy = BUSY[layout][seen[layout]]
        seen[layout] += 1
        process_s = round(busy / 100.0 * CORES * e["elapsed_s"], 2)
        busy = round(100.0 * process_s / (e["elapsed_s"] * CORES), 2)
        samples = []
        for i, s in enumerate(e.get("samples", [])):
            ramp = min(1.0, (i + 1) / 3.0)
            pct = round(min(100.0, busy * ramp * rng.uniform(0.96, 1.04)), 1)
            samples.append(with_key_after(s, "cache_bytes", "cpu_busy_pct", pct))
        cpu = {"process_s": process_s, "cores": CORES, "busy_pct_mean": busy}
        if samples:
            cpu["busy_pct_peak"] = max(s["cpu_busy_pct"] for s in samples)
            e = dict(e, samples=samples)
        runs.append(with_key_after(e, "memory", "cpu", cpu))
        for k, v in cpu.items():
            figures[layout].setdefault("cpu_" + k, []).append(v)
    d["runs"] = runs
    for layout, fig in figures.items():
        summary = d["summary"][layout]
        for name in reversed(list(fig)):
            v = fig[name]
            summary = with_key_after(summary, "cache_peak_pct", name,
                                     {"median": median(v), "min": min(v), "max": max(v)})
        d["summary"][layout] = summary
    with open(os.path.join(HERE, "run-cpu.json"), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
