#!/usr/bin/env python3
"""quick_wt.py -- a copy of the system's libwiredtiger.so.0 for the test suite, its clock calibration shortened.

WiredTiger 3.2's wiredtiger_open calibrates the TSC against the wall clock once per process: three tries of an
empty loop of 100,000,000 iterations, about 0.7 s of CPU (measured: a bare open and close of an empty home took
0.69 s of user time, 0.07 s with this copy). Every tool a test runs pays it, and the suite runs hundreds of them:
two thirds of test_guard_embedded's CPU time was this loop. The copy runs the same three tries of 10,000,000
iterations (the ratio from ~20 ms per try instead of ~200 ms: WiredTiger uses it only to turn its clock ticks
into durations for its statistics), every other byte the system's. The tests load it through LD_LIBRARY_PATH
(tests/CMakeLists.txt, LAB_TEST_QUICK_WT); the demo tests, and every user, run the system's library.

The loop is found by its code: `cmp $99999999,%rax` twice, between two rdtsc instructions. A library where it is
not found exactly once (another WiredTiger build) is not copied: the tests then use the system's, only slower.

Usage: quick_wt.py SYSTEM_LIB OUT_DIR   (writes OUT_DIR/libwiredtiger.so.0 and OUT_DIR/quick_wt.txt)
"""
import os
import re
import sys

LOOP_END = 100_000_000 - 1  # WiredTiger's 100 * WT_MILLION, compared as `i <= 99999999`
SHORT_END = 10_000_000 - 1
CMP = b"\x48\x3d" + LOOP_END.to_bytes(4, "little")  # cmp $imm32,%rax
RDTSC = b"\x0f\x31"


def find_loop(lib):
    """The offsets of the two compares of the calibration loop, or a reason it was not found once."""
    hits = []
    for m in re.finditer(re.escape(CMP), lib):
        first = m.start()
        # the loop: rdtsc, (a few moves), cmp; ja out; the body; cmp; jbe back; rdtsc
        second = lib.find(CMP, first + len(CMP), first + 48)
        if second < 0 or RDTSC not in lib[max(0, first - 32):first]:
            continue
        if lib[second + 6] != 0x76 or lib[second + 8:second + 10] != RDTSC:
            continue
        hits.append((first, second))
    if len(hits) != 1:
        return None, "the calibration loop was found %d times, not once" % len(hits)
    return hits[0], None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: quick_wt.py SYSTEM_LIB OUT_DIR")
    src, out = os.path.realpath(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    dst = os.path.join(out, "libwiredtiger.so.0")
    note = os.path.join(out, "quick_wt.txt")
    for stale in (dst, note):
        if os.path.exists(stale):
            os.remove(stale)
    lib = bytearray(open(src, "rb").read())
    offsets, why = find_loop(lib)
    if why:
        msg = "quick_wt: %s in %s: the tests use the system's library (each tool start ~0.7 s slower)" % (why, src)
        print(msg)
        open(note, "w").write(msg + "\n")
        return
    for off in offsets:
        lib[off + 2:off + 6] = SHORT_END.to_bytes(4, "little")
    open(dst, "wb").write(lib)
    msg = "quick_wt: %s with its clock calibration loop at 0x%x shortened 10x" % (src, offsets[0])
    print(msg)
    open(note, "w").write(msg + "\n")


if __name__ == "__main__":
    main()
