#!/usr/bin/env python3
"""gen_aged.py -- writes aged.json, the golden file of data measured after writes: mix.json (the workloads
with append, update and the load after the appends, then the user's mix) on collections that an earlier
scancmp run had already written to, as scancmp records it:

- each layout's provenance (provenance.json's billgen and fold-details records, the fold verified on the
  364,127 rows it had then) with a `writes` array: the earlier run's append (+26,000 rows) and update (3,000
  corrected) on each collection, after the verification (docs/results-schema.md "Provenance");
- the dataset counts read when this run started (390,127 = 364,127 + 26,000 rows);
- `state: {count, data_size_bytes}` in every run entry, workload layout and mix layout: the load's runs and
  the workloads before the appends on the dataset's counts, the load after the writes, the update and the
  mix on the counts this run's own 100,000 appends left (the folded layout 12 parts more).

So the report's Dataset section lists the earlier writes and the documents each measurement started on,
and the Reproduce section the earlier run's command and the fold's verification as before those writes.
Deterministic. Run it only to change the golden data on purpose; then re-render the golden Markdown
(tests/compare/golden.sh --update) and review the diff.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    doc = json.load(open(os.path.join(HERE, "mix.json")))
    prov = json.load(open(os.path.join(HERE, "provenance.json")))["dataset"]
    earlier = ["scancmp", "--uri", "wiredtiger:/srv/layoutlab-data", "--detail", "bill_detail", "--folded",
               "detail_coll", "--workload", "load,append,update", "--append-rows", "26000", "--update-rows",
               "3000", "--cold", "--out", "run.json"]
    for name, at in (("detail", ("2026-11-30T14:30:05.120Z", "2026-11-30T14:41:40.002Z")),
                     ("folded", ("2026-11-30T14:33:12.877Z", "2026-11-30T14:44:09.310Z"))):
        p = copy.deepcopy(prov[name]["provenance"])
        if name == "folded":
            p["verify"]["rows"] = 364127
        p["writes"] = [
            {"tool": "scancmp", "workload": "append", "rows_appended": 26000, "rows_updated": 0, "at": at[0],
             "command_line": earlier},
            {"tool": "scancmp", "workload": "update", "rows_appended": 0, "rows_updated": 3000, "at": at[1],
             "command_line": earlier},
        ]
        doc["dataset"][name]["provenance"] = p
    before = {n: {"count": doc["dataset"][n]["count"], "data_size_bytes": doc["dataset"][n]["data_size_bytes"]}
              for n in ("detail", "folded")}
    after = {"detail": {"count": before["detail"]["count"] + 100000,
                        "data_size_bytes": before["detail"]["data_size_bytes"] + 34120000},
             "folded": {"count": before["folded"]["count"] + 12,
                        "data_size_bytes": before["folded"]["data_size_bytes"] + 30250000}}

    def with_state(entry, state):
        # "state" right after "kind" (or "elapsed_s" of a run entry), where scancmp writes it
        out = {}
        for k, v in entry.items():
            if k == "elapsed_s" and "kind" not in entry:
                out["state"] = state
            out[k] = v
            if k == "kind":
                out["state"] = state
        return out

    doc["runs"] = [with_state(r, before[r["layout"]]) for r in doc["runs"]]
    aged = False
    for w in doc["workloads"]:
        aged = aged or w["workload"] in ("load_after_writes", "update")
        w["layouts"] = [with_state(l, (after if aged else before)[l["layout"]]) for l in w["layouts"]]
    doc["mix"]["layouts"] = [with_state(l, after[l["layout"]]) for l in doc["mix"]["layouts"]]
    with open(os.path.join(HERE, "aged.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


main()
