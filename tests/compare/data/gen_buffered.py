#!/usr/bin/env python3
"""gen_buffered.py -- writes buffered-sweep.json and buffered-run.json, the golden inputs of the
"fits in memory" regime: loads read without --direct-io (config.direct_io false, mongod's
way), where an engine cache miss the OS page cache holds costs no disk read.

buffered-sweep.json has the shape of sweep.json (same data, built by gen_sweep.py's functions) at three
engine caches, one point per regime of a buffered run:
  256 MiB  the engine read the detail layout 93x, the disk 93x too: the rereads reached the disk (rereads)
  1 GiB    the engine read it 6.10x, the disk 1.02x: the page cache held it (fits in memory)
  2 GiB    the engine read it 0.99x: it fits in the engine cache (fits in cache)
buffered-run.json is the 1 GiB point alone, a single-point file (no sweep). Deterministic; run it only to
change the golden data on purpose.
"""
import copy
import json
import sys

import gen_sweep as g

MIB = g.MIB
# per point: cache, {layout: (elapsed per run, block_read_bytes per run, device read_bytes per run,
#                              avg request bytes, cache peak share, rss over cache)}
POINTS = [
    (256 * MIB, {"detail": ([171.2, 174.0], [61.2e9, 62.4e9], [60.9e9, 62.1e9], 16300, 0.95, 62e6),
                 "folded": ([1.93, 1.99], [279.1e6, 281.3e6], [296.4e6, 300.2e6], 29800, 0.93, 58e6)}),
    (1024 * MIB, {"detail": ([21.3, 22.1], [4.01e9, 4.04e9], [668.0e6, 677.0e6], 61000, 0.97, 64e6),
                  "folded": ([1.04, 1.08], [271.6e6, 272.8e6], [290.2e6, 292.4e6], 30000, 0.26, 57e6)}),
    (2048 * MIB, {"detail": ([9.02, 9.24], [652.8e6, 655.0e6], [661.2e6, 664.8e6], 61400, 0.31, 66e6),
                  "folded": ([1.00, 1.04], [270.2e6, 271.0e6], [289.5e6, 291.1e6], 30100, 0.13, 57e6)}),
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    sweep = g.experiment(POINTS, "snappy", 1, "2026-12-01T01:00:00Z", "2026-12-01T02:10:44Z")
    sweep["config"]["direct_io"] = False
    for point in sweep["sweep"]:
        for layout in ("detail", "folded"):
            rb = sorted(r["read_bytes"] for r in point["runs"] if r["layout"] == layout)
            point[layout]["disk_read_amplification"] = round((rb[0] + rb[1]) / 2 / g.on_disk(layout), 3)
    run = copy.deepcopy(sweep)
    del run["sweep"], run["sweep_reference"]
    for name, doc in (("buffered-sweep.json", sweep), ("buffered-run.json", run)):
        with open("%s/%s" % (out, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
