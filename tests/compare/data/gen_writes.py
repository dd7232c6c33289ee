#!/usr/bin/env python3
"""gen_writes.py -- writes writes.json, the golden file of the write workloads
(docs/results-schema.md, "The writes"), from workloads.json (the workloads' golden file, detail and folded).

The file gains what scancmp --workload load,...,append,update adds: "append" (detail inserts, folded pushes
onto the last part, a few new parts at the cap), "load_after_writes" (the load again after the appends:
folded's advantage smaller than before) and "update" (a $set of one amount), each layout with its "write"
object; made-up but consistent figures: engine bytes = journal + eviction + checkpoint, per write = / writes,
write amplification = engine bytes / new data bytes. Folded's checkpoint of the update is unknown (-1) to
exercise n/a, and so is its oplog (docs/mongodb-compat.md §26; the others have one, as on a replica set). Deterministic. Run it only to change the golden data on purpose; then re-render the golden
Markdown (tests/compare/golden.sh --update) and review the diff.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write_obj(writes, elapsed, docs_written, doc_bytes, parts, new_data, journal, eviction, ckpt, ckpt_s,
              disk, disk_writes, before, after, oplog=None):
    known = [x for x in (journal, eviction, ckpt) if x >= 0]
    engine = sum(known) if known else -1
    per = lambda b: round(b / writes, 1) if b >= 0 else -1
    return {"writes": writes, "writes_per_s": round(writes / elapsed, 1), "docs_written": docs_written,
            "doc_bytes_written": doc_bytes, "parts_created": parts, "new_data_bytes": new_data,
            "journal_bytes": journal, "eviction_write_bytes": eviction, "checkpoint_bytes": ckpt,
            "checkpoint_s": ckpt_s,
            "checkpoint": "forced after the writes (WT_SESSION::checkpoint), timed" if ckpt >= 0
            else "not forced: the server checkpoints on its own schedule (syncdelay, 60 s)",
            "engine_write_bytes": engine, "disk_write_bytes": disk, "disk_writes": disk_writes,
            "journal_bytes_per_write": per(journal), "checkpoint_bytes_per_write": per(ckpt),
            "engine_bytes_per_write": per(engine),
            "write_amplification": round(engine / new_data, 2) if engine >= 0 else -1,
            "avg_doc_bytes_before": before, "avg_doc_bytes_after": after,
            **oplog_obj(writes, oplog)}


def oplog_obj(writes, oplog):
    """The oplog fields (docs/mongodb-compat.md §26): oplog (bytes, entries), or None: unknown, with the
    reason an unreadable local.oplog.rs gives."""
    if oplog is None:
        return {"oplog_bytes": -1, "oplog_entries": -1, "oplog_bytes_per_write": -1,
                "oplog": "the oplog entries of lab.bill_folded: not authorized on local to execute command"}
    return {"oplog_bytes": oplog[0], "oplog_entries": oplog[1],
            "oplog_bytes_per_write": round(oplog[0] / writes, 1)}


PLANS = {("append", "rows"): "insert",
         ("append", "folded"): "IXSCAN { bill_id: 1 } + FETCH of the master's parts, $push onto the last, "
                               "replace by _id (a new part at the cap)",
         ("update", "rows"): "IXSCAN { _id: 1 } + FETCH, $set amount, replace by _id",
         ("update", "folded"): "IXSCAN { bill_id: 1 } + FETCH, $set of the element with line_no, replace by _id"}


def layout(base, kind, elapsed, rows, docs_read, doc_bytes, lat, where, write=None):
    l = {"layout": base["layout"], "collection": base["collection"], "kind": base["kind"],
         "plan": PLANS[(kind, base["kind"])], "plan_source": "the tool's writes (docs/mongodb-compat.md §21)",
         "where": where,
         "indexes": [], "elapsed_s": elapsed, "queries": rows, "rows_returned": rows, "docs_read": docs_read,
         "doc_bytes_read": doc_bytes, "disk_read_bytes": -1, "disk_reads": -1, "cpu_s": -1,
         "latency_ms": {"p50": lat[0], "p95": lat[1], "p99": lat[2], "max": lat[3], "mean": lat[4]},
         "digest": "5d1c9e0a7b3f2468", "cold": True}
    if write:
        l["write"] = write
    return l


def main():
    doc = json.load(open(os.path.join(HERE, "workloads.json")))
    wl = doc["workloads"]
    load = next(w for w in wl if w["workload"] == "load")
    det, fol = (next(l for l in load["layouts"] if l["layout"] == n) for n in ("detail", "folded"))
    appends, updates = 100_000, 10_000
    new_rows = appends * 380
    append = {"workload": "append", "title": "100000 new rows appended to the most recent masters",
              "params": {"seed": 1, "append_rows": appends, "append_to": "open", "masters": 3612},
              "rows_equal": True, "winner": "detail", "layouts": [
                  layout(det, "append", 9.8, appends, 0, new_rows, (0.05, 0.2, 0.9, 14.0, 0.08),
                         "insert of each new row through the store",
                         write_obj(appends, 9.8, appends, new_rows, 0, new_rows, 51_200_000, 0, 17_600_000,
                                   0.82, 75_300_000, 5_120, 380.0, 380.0, (appends * 492, appends))),
                  layout(fol, "append", 88.4, appends, 100_412, 2_641_000_000, (0.6, 2.9, 8.1, 61.0, 0.88),
                         "the master's last part read, the row pushed in the tool, the document replaced",
                         write_obj(appends, 88.4, 100_412, 2_641_000_000, 412, new_rows, 892_000_000, 0,
                                   38_100_000, 1.91, 960_000_000, 41_800, 26011.1, 26513.1,
                                   (100_412 * 611, 100_412))),
              ]}
    after = copy.deepcopy(load)
    after["workload"] = "load_after_writes"
    after["title"] = "each master fetched whole again, after the appends"
    for l in after["layouts"]:
        l["rows_returned"] = l["rows_returned"] + appends
        l["elapsed_s"] = round(l["elapsed_s"] * (1.02 if l["layout"] == "detail" else 1.25), 3)
        l.pop("x_vs_winner", None)
    update = {"workload": "update", "title": "10000 single-row corrections ($set amount)",
              "params": {"seed": 1, "update_rows": updates, "field": "amount", "masters": 9_870},
              "rows_equal": True, "winner": "detail", "layouts": [
                  layout(det, "update", 1.9, updates, updates, updates * 380, (0.1, 0.4, 1.3, 9.0, 0.19),
                         "the row read by _id and replaced through the store",
                         write_obj(updates, 1.9, updates, updates * 380, 0, updates * 16, 5_120_000, 0,
                                   48_200_000, 0.6, 61_000_000, 3_900, 380.0, 380.0, (updates * 171, updates))),
                  layout(fol, "update", 6.2, updates, updates, updates * 26_513, (0.4, 1.4, 3.0, 22.0, 0.62),
                         "the element set in the tool, the document replaced through the store",
                         write_obj(updates, 6.2, updates, updates * 26_513, 0, updates * 16, 74_200_000, 0,
                                   -1, -1, -1, -1, 26513.1, 26513.1)),
              ]}
    doc["workloads"] = wl + [append, after, update]
    with open(os.path.join(HERE, "writes.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


main()
