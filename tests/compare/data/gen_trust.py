#!/usr/bin/env python3
"""gen_trust.py -- writes the golden inputs of the reports whose figures cannot claim what a cold mongod
run claims, derived from run.json and run3.json (gen_golden.py):

  ferretdb.json  run.json as the test server (FerretDB v1.24 on SQLite) answered it: backend.product
                 "ferretdb", no restart, the data files 99.8% resident before the runs: the verdict says
                 the figures are not mongod's and gives the ratio without bold
  warm3.json     run3.json with one run of one layout started with 45% of its data files resident: the
                 N-layout verdict gives its factor without bold, saying so

Deterministic; run it only to change the golden data on purpose, then re-render and review the diff.
"""
import copy
import json
import sys


def load(name):
    with open(name) as f:
        return json.load(f)


def dump(doc, name):
    with open(name, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


def ferretdb():
    d = load("run.json")
    d["backend"] = {"name": "mongodb", "version": "7.0.42", "product": "ferretdb",
                    "uri": "mongodb://127.0.0.1:39935/", "db": "layoutlab", "server_local": True,
                    "server_host": "127.0.0.1:39935"}
    d["config"]["dbpath"] = "/tmp/ts-ferret/data"
    for e in d["runs"]:
        c = e["cold"]
        c["engine_restarted"] = False
        c["server_restarted"] = False
        c["caches_dropped"] = False
        c["drop_caches_note"] = "not dropped (no permission)"
        c["resident_bytes_before"] = int(c["file_bytes"] * 0.998)
        c["resident_pct_before"] = 99.8
        e.pop("engine", None)
    return d


def warm3():
    d = load("run3.json")
    for e in d["runs"]:
        if e["run"] == 2 and e["layout"] == d["runs"][0]["layout"]:
            e["cold"]["resident_bytes_before"] = int(e["cold"]["file_bytes"] * 0.45)
            e["cold"]["resident_pct_before"] = 45.0
    return d


if __name__ == "__main__":
    dump(ferretdb(), "ferretdb.json")
    dump(warm3(), "warm3.json")
    sys.exit(0)
