#!/usr/bin/env python3
"""gen_newcomer.py -- writes the golden inputs of the newcomer's report cases, each derived from run.json
(gen_golden.py) in schema version 3 (the header named as the --json summaries name it):

  reread-point.json  one point at a 6 MiB cache, 1.57x the detail layout's size on disk, where the engine
                     read the detail layout 66x its size: measured rereads, not "fits in cache"
  near-tie.json      one run per layout, loads of 0.012 s and 0.011 s sampled every 0.1 s: no winner
  short-load.json    one run per layout sampled every 0.1 s: detail over 31 samples, folded over 2: the
                     time charts show totals instead
  provenance.json    run.json with the provenance billgen and fold-details record (docs/results-schema.md,
                     dataset.<layout>.provenance) and scancmp's command line: the Reproduce section

Deterministic; run it only to change the golden data on purpose, then re-render and review the diff.
"""
import copy
import json
import sys

import gen_golden as g

MIB = 1048576


def v3(doc, argv):
    """the schema 3 header: version, started, finished, command_line"""
    doc["schema_version"] = 3
    doc["version"] = doc.pop("tool_version")
    doc["started"] = doc.pop("started_at")
    doc["finished"] = doc.pop("finished_at")
    doc["command_line"] = argv
    return doc


def one_run_each(doc):
    """the first run's two entries only"""
    doc["runs"] = [e for e in doc["runs"] if e["run"] == 1]
    doc["config"]["runs"] = 1
    return doc


def samples_every(entry, interval, n):
    """n samples interval apart, the entry's rates spread over them"""
    entry["samples"] = [dict(s, t_s=round(interval * (k + 1), 3)) for k, s in enumerate(entry["samples"][:n])]


def reread_point(run):
    d = v3(copy.deepcopy(run), ["scancmp", "--cold", "--direct-io", "--cache-size", "6MiB", "--runs", "3",
                                "--out", "reread-point.json"])
    d["backend"]["cache_max_bytes"] = 6 * MIB
    d["config"]["cache_size_bytes"] = 6 * MIB
    d["config"]["direct_io"] = True
    # 6 MiB is 1.57x the detail layout's 4.0 MB on disk (data + indexes)
    d["dataset"]["detail"]["storage_size_bytes"] = 3000000
    d["dataset"]["detail"]["index_size_bytes"] = 1007232
    for e in d["runs"]:
        if e["layout"] == "detail":
            e["engine"]["block_read_bytes"] = int(4007232 * 66 * (1 + 0.001 * e["run"]))
    d["summary"] = g.summary(d["runs"])
    return d


def one_run_sampled(run, name, loads):
    """one run per layout sampled every 0.1 s; loads: {layout: (elapsed_s, samples)}"""
    d = one_run_each(v3(copy.deepcopy(run), ["scancmp", "--cold", "--interval", "100ms", "--out", name]))
    d["config"]["interval_s"] = 0.1
    for e in d["runs"]:
        e["elapsed_s"], n = loads[e["layout"]]
        samples_every(e, 0.1, n)
    d["summary"] = g.summary(d["runs"])
    return d


def near_tie(run):
    return one_run_sampled(run, "near-tie.json", {"detail": (0.012, 1), "folded": (0.011, 1)})


def short_load(run):
    return one_run_sampled(run, "short-load.json", {"detail": (3.1, 31), "folded": (0.15, 2)})


def provenance(run):
    d = v3(copy.deepcopy(run), ["scancmp", "--uri", "wiredtiger:/srv/layoutlab-data", "--cold", "--runs", "3",
                                "--calibrate", "--out", "run.json"])
    d["dataset"]["detail"]["provenance"] = {
        "layoutlab": 1, "tool": "billgen generate", "version": "0.1.0", "written_at": "2026-11-30T14:02:11Z",
        "command_line": ["/usr/local/bin/billgen", "generate", "--uri", "wiredtiger:/srv/layoutlab-data",
                         "--bills", "3000", "--seed", "7", "--drop"],
        "params": {"bills": 3000, "mean_rows": 130.0, "dist": "lognormal", "seed": "7", "order": "interleaved",
                   "key": "bill_id"},
    }
    d["dataset"]["folded"]["provenance"] = {
        "layoutlab": 1, "tool": "fold-details", "version": "0.1.0", "written_at": "2026-11-30T14:09:40Z",
        "uuid": "3f0c2a8e-6b1d-4c55-9a1e-0d2b7c4e9f10", "source": "bill_detail",
        "command_line": ["fold-details", "--uri", "wiredtiger:/srv/layoutlab-data", "--src", "bill_detail",
                         "--dst", "detail_coll", "--drop-dst", "--verify", "--reject", "it's rejected.jsonl"],
        "params": {"key": "bill_id", "array_field": "details", "hoist": "auto", "max_doc_bytes": 16777216,
                   "bucket_rows": 0},
        "verify": {"ok": True, "method": "ordered", "rows": 390127, "masters": 3000,
                   "checksum": "9c1f0b4e2a7d66e1c0ffee1234567890", "at": "2026-11-30T14:11:02Z"},
    }
    return d


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    run = json.load(open("%s/run.json" % out))
    for name, make in (("reread-point.json", reread_point), ("near-tie.json", near_tie),
                       ("short-load.json", short_load), ("provenance.json", provenance)):
        with open("%s/%s" % (out, name), "w") as f:
            json.dump(make(run), f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
