#!/usr/bin/env bash
# sanitizer_set.sh -- tests/sanitizer-set.txt agrees with the build's test list: its header says when and
# from which commit scripts/sanitizer-set.sh computed it; every test it names exists; every test the
# sanitizer pass could run (labels unit, embedded, server or cli; not slow, demo or fault; not the
# fixture's start and stop) is named exactly once, chosen or "left out: NAME -- why"; a chosen test is such
# a test and carries the label san (tests/CMakeLists.txt sets it at configure time), and no other test but
# a fault test (outside the choice: server_death's label is written by hand) carries it. A test added since
# the file was computed turns this red: re-run scripts/sanitizer-set.sh.
#
# Usage: tests/style/sanitizer_set.sh BUILD_DIR [SET_FILE]
set -euo pipefail

bdir=${1:?usage: sanitizer_set.sh BUILD_DIR [SET_FILE]}
set_file=${2:-$(cd "$(dirname "$0")/../.." && pwd)/tests/sanitizer-set.txt}
[ -r "$set_file" ] || { echo "FAIL: cannot read $set_file"; exit 1; }
json=$(ctest --test-dir "$bdir" --show-only=json-v1) || { echo "FAIL: ctest --show-only in $bdir"; exit 1; }
python3 - "$set_file" <(printf '%s' "$json") <<'PY'
import json, re, sys

set_file, json_file = sys.argv[1], sys.argv[2]
tests = {}
for t in json.load(open(json_file))["tests"]:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    tests[t["name"]] = (set(props.get("LABELS", [])), "FIXTURES_SETUP" in props or "FIXTURES_CLEANUP" in props)
eligible = set(n for n, (labels, fixture) in tests.items()
               if not fixture and labels & {"unit", "embedded", "server", "cli"}
               and not labels & {"slow", "demo", "fault"})

bad = []
chosen, left, seen, header = [], [], {}, ""
for i, line in enumerate(open(set_file), 1):
    line = line.rstrip("\n")
    if not line.strip():
        continue
    if line.startswith("#"):
        header += line + "\n"
        continue
    m = re.match(r"left out: (\S+) -- \S", line)
    if m:
        name = m.group(1)
        left.append(name)
    else:
        m = re.match(r"([A-Za-z0-9_]+)( +#.*)?$", line)
        if not m:
            bad.append("%s:%d: neither a test name nor 'left out: NAME -- why': %r" % (set_file, i, line))
            continue
        name = m.group(1)
        chosen.append(name)
    if name in seen:
        bad.append("%s:%d: %s named again (first on line %d)" % (set_file, i, name, seen[name]))
    seen.setdefault(name, i)
    if name not in tests:
        bad.append("%s:%d: no test %s in the build (removed or renamed?)" % (set_file, i, name))

m = re.search(r"^# computed (\d{4}-\d\d-\d\d \d\d:\d\d UTC) from commit ([0-9a-f]{7,40})", header, re.M)
if not m:
    bad.append("%s: the header has no '# computed DATE from commit SHA' line" % set_file)
for n in sorted(eligible - set(seen)):
    bad.append("%s: the sanitizer-eligible test %s is neither chosen nor left out" % (set_file, n))
for n in chosen:
    if n in tests and n not in eligible:
        bad.append("%s: the chosen test %s is not one the sanitizer pass may run (labels %s)"
                   % (set_file, n, " ".join(sorted(tests[n][0]))))
    if n in tests and "san" not in tests[n][0]:
        bad.append("%s: the chosen test %s has no label san (reconfigure the build)" % (set_file, n))
# a fault test may carry san by hand (server_death); any other must be chosen here
for n, (labels, _) in sorted(tests.items()):
    if "san" in labels and n not in chosen and "fault" not in labels:
        bad.append("the test %s is labelled san but not chosen in %s" % (n, set_file))
for b in bad:
    print("FAIL: " + b)
if bad:
    print("re-run scripts/sanitizer-set.sh (docs/testing.md) after adding, renaming or removing a test")
    sys.exit(1)
print("sanitizer set: %d chosen, %d left out, %d eligible tests, %s from commit %s"
      % (len(chosen), len(left), len(eligible), m.group(1), m.group(2)))
PY
