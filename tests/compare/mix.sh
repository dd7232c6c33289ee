#!/usr/bin/env bash
# mix.sh -- layout-report's user's mix (the "mix" of docs/results-schema.md): the verdict sentences of a
# measured mix, of an estimate (--mix SPEC from the file's separate workloads) and of both, pinned beyond
# the goldens (golden.sh: mix, mix-estimated, mix-beside); and the refusals: a bad SPEC or a type of the
# mix with no measured workload is a usage error (exit 2), a malformed "mix" in the file an invalid results
# file (exit 1, as a malformed "workloads"), each with a clear message and no report written.
#
# Environment (set by ctest): LAB_BIN_DIR, LAB_SOURCE_DIR, LAB_TEST_TMP.
set -euo pipefail

src=${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LAB_BIN_DIR:-$src/build/bin}
data=$src/tests/compare/data
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/compare-mix.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
report=$bin/layout-report
spec=load=5,row=60,range=5,append=25,update=5
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# contains NAME FILE TEXT [ARGS...] -- layout-report's report of FILE (extra args after) contains TEXT
contains() {
  local name=$1 file=$2 text=$3; shift 3
  if ! (cd "$data" && "$report" "$file" --charts none "$@") > "$tmp/out.md" 2>"$tmp/err"; then
    fail "$name: layout-report failed: $(cat "$tmp/err")"; return
  fi
  if grep -qF -- "$text" "$tmp/out.md"; then echo "ok: $name"; else fail "$name: the report of $file lacks: $text"; fi
}
# not_contains NAME FILE TEXT [ARGS...] -- the report of FILE lacks TEXT
not_contains() {
  local name=$1 file=$2 text=$3; shift 3
  if ! (cd "$data" && "$report" "$file" --charts none "$@") > "$tmp/out.md" 2>"$tmp/err"; then
    fail "$name: layout-report failed: $(cat "$tmp/err")"; return
  fi
  if grep -qF -- "$text" "$tmp/out.md"; then fail "$name: the report of $file says: $text"; else echo "ok: $name"; fi
}
# refused CODE MESSAGE ARGS... -- layout-report must exit CODE, say MESSAGE on stderr, write no report
refused() {
  local code=$1 message=$2; shift 2
  local rc=0
  rm -f "$tmp/bad.md"
  (cd "$tmp" && "$report" "$@" --charts none -o "$tmp/bad.md") >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" -ne "$code" ]; then fail "'$*': exit $rc, want $code ($(cat "$tmp/err"))"; return; fi
  if ! grep -qF -- "$message" "$tmp/err"; then fail "'$*': stderr lacks '$message': $(cat "$tmp/err")"; return; fi
  if [ -e "$tmp/bad.md" ]; then fail "'$*': wrote a report despite the error"; return; fi
  echo "ok: refused $* -> $code"
}

# the verdicts (docs/results-schema.md's sentence), measured and estimated
contains "measured verdict" mix.json \
  "Under this mix (load 5%, row 60%, range 5%, append 25%, update 5%) the folded layout is 1.9x faster overall than detail (1 run: no spread): it wins load (2.2x) and range (2.0x), loses row (3.1x), append (7.3x) and update (2.8x) and writes 6.1x the bytes."
contains "estimated verdict" writes.json \
  "Estimated from separate runs: under this mix (load 5%, row 60%, range 5%, append 25%, update 5%) the folded layout is 1.9x faster overall than detail: it wins load (2.3x) and range (2.0x), loses row (3.2x), append (11.0x) and update (3.3x) and writes 6.1x the bytes." \
  --mix "$spec"
contains "verdict's line: the measured mix" mix.json \
  "- **The user's mix**: Under this mix (load 5%, row 60%, range 5%, append 25%, update 5%) the folded layout is 1.9x" \
  --mix "$spec"
contains "verdict's line: the estimate without a measured mix" writes.json \
  "- **The user's mix**: Estimated from separate runs: under this mix (load 5%" --mix "$spec"
contains "estimate says what it ignores" writes.json "It ignores the interference between op types" --mix "$spec"
contains "estimate beside the measured mix: error per layout" mix.json "| detail | 3,582 s | 3,243 s | -9% |" --mix "$spec"
# the same shares in other numbers are the same mix
contains "same shares, other weights" mix.json "| folded | 1,866 s | 1,703 s | -9% |" \
  --mix update=1,append=5,range=1,row=12,load=1
contains "measured layout table" mix.json "| **folded** | 1,866 s | 53.6/s | winner | 302 MB | 13.5 GB |"
contains "measured op table" mix.json "| append | 25% | 25,000 | **0.627 ms** | 4.60 ms | 0.502 ms / 1.38 ms / 2.51 ms |"
not_contains "no mix, no section" writes.json "The user's mix"
not_contains "measured alone, no estimate" mix.json "Estimated from separate runs"
# only reads in the mix: nothing written, no bytes clause; a type of weight 0 is left out
contains "reads only: no bytes clause" writes.json \
  "under this mix (load 50%, row 50%) the folded layout is 2.1x faster overall than detail: it wins load (2.3x) and loses row (3.2x)." \
  --mix load=1,row=1,append=0

# three layouts: one clause per other layout (workloads3.json has no writes: reads only)
contains "three layouts: a clause per other layout" workloads3.json \
  "under this mix (load 50%, range 50%) the folded layout is 2.0x faster overall than detail: it wins load (2.3x) and range (2.0x); 1.2x faster than buckets: it wins load (1.1x)." \
  --mix load=1,range=1

# for scripts (--json): the measured mix, the estimate and its error per layout
(cd "$data" && "$report" mix.json --charts none -o "$tmp/j.md" --json - -q --mix "$spec") > "$tmp/j.json"
if python3 - "$tmp/j.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m, e = d["mix"], d["mix_estimate"]
assert not m["estimated"] and e["estimated"] and m["winner"] == e["winner"] == "folded", (m, e)
assert m["layouts"]["detail"]["elapsed_s"] == 3581.9 and "error" not in m["layouts"]["detail"]
det = e["layouts"]["detail"]
assert abs(det["error"] - (det["elapsed_s"] / 3581.9 - 1)) < 1e-12 and -0.10 < det["error"] < -0.09
assert e["layouts"]["folded"]["by_type"]["append"]["ops"] == 25000 and "read_bytes" not in det
PY
then echo "ok: --json mix and mix_estimate"; else fail "--json mix: $(head -c 300 "$tmp/j.json")"; fi
(cd "$data" && "$report" run.json --charts none -o "$tmp/r.md" --json - -q) > "$tmp/r.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert 'mix' not in d and 'mix_estimate' not in d" \
  "$tmp/r.json" && echo "ok: --json without a mix" || fail "--json without a mix has one"

# refusals: bad specs (exit 2)
refused 2 "--mix 'lod=5': item 1 'lod=5': unknown type 'lod' (types: load, row, range, append, update)" "$data/writes.json" --mix lod=5
refused 2 "one aggregate is a scan of the whole collection; measure it alone with --workload aggregate" \
  "$data/writes.json" --mix load=5,aggregate=1
refused 2 "item 2 'row=x': the weight of row must be a number from 0 to 1000000" "$data/writes.json" --mix load=5,row=x
refused 2 "item 1 'row=-1': the weight of row must be a number from 0 to 1000000" "$data/writes.json" --mix row=-1
refused 2 "item 2 'row=2': 'row' is given twice" "$data/writes.json" --mix row=1,row=2
refused 2 "item 1 'load': not TYPE=WEIGHT" "$data/writes.json" --mix load
refused 2 "every weight is 0" "$data/writes.json" --mix load=0
refused 2 "--mix-ops needs --mix SPEC" "$data/writes.json" --mix-ops 10
# a type with no measured workload (exit 2), naming the type, the layout and the file
python3 - "$data/writes.json" "$data/mix.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
def write(name, doc):
    with open("%s/%s" % (sys.argv[3], name), "w") as f:
        json.dump(doc, f)
r = copy.deepcopy(d); r["workloads"] = [w for w in r["workloads"] if w["workload"] != "range"]
write("no-range.json", r)
u = copy.deepcopy(d)
for w in u["workloads"]:
    if w["workload"] == "update":
        w["layouts"] = [l for l in w["layouts"] if l["layout"] != "folded"]
write("update-detail-only.json", u)
n = copy.deepcopy(d)
for w in n["workloads"]:
    if w["workload"] == "append":
        w["layouts"][0]["write"]["writes"] = -1
write("append-no-writes.json", n)
# a malformed measured mix (exit 1, as a malformed "workloads"): each names the entry and the field
m = json.load(open(sys.argv[2]))
def bad(name, f):
    doc = copy.deepcopy(m); f(doc["mix"]); write(name, doc)
bad("mix-time.json", lambda x: x["layouts"][0]["by_type"][1].update(time_s="slow"))
bad("mix-nospec.json", lambda x: x.pop("spec"))
bad("mix-notime.json", lambda x: x["layouts"][1]["by_type"][0].pop("time_s"))
bad("mix-noelapsed.json", lambda x: x["layouts"][0].pop("elapsed_s"))
bad("mix-noops.json", lambda x: x["layouts"][0]["by_type"][3].update(ops=None))
bad("mix-op.json", lambda x: x["layouts"][1]["by_type"][2].update(op="aggregate"))
bad("mix-layout.json", lambda x: x["layouts"][0].update(layout="stacked"))
bad("mix-ops.json", lambda x: x.update(ops=0))
bad("mix-notype.json", lambda x: x["layouts"][0].pop("by_type"))
bad("mix-twice.json", lambda x: x["layouts"][0]["by_type"][1].update(op="load"))
bad("mix-prop.json", lambda x: x["proportions"].update(scan=3))
bad("mix-winner.json", lambda x: x.update(winner="stacked"))
bad("mix-flag.json", lambda x: x.update(rows_equal="yes"))
doc = copy.deepcopy(m); doc["mix"] = [1]; write("mix-array.json", doc)
bad("mix-mode.json", lambda x: x.update(mode="sideways"))
bad("mix-norate.json", lambda x: x.update(mode="open", rate_ops_s=None))
# --mix-file: a mix measured on other collections than the run's layouts
doc = copy.deepcopy(m)
doc["mix"]["layouts"][1]["collection"] = "other_coll"
for l in doc.get("layouts", []):
    if l.get("layout") == "folded":
        l["collection"] = "other_coll"
doc["config"]["folded"] = "other_coll"
write("mix-othercoll.json", doc)
PY
refused 2 '--mix: no-range.json has no range workload measured on layout "detail"' no-range.json --mix "$spec"
refused 2 '--mix: update-detail-only.json has no update workload measured on layout "folded"' \
  update-detail-only.json --mix "$spec"
refused 2 'the append workload on layout "detail" does not say how many operations it ran (write.writes)' \
  append-no-writes.json --mix "$spec"
# ... but a mix without the missing type is estimated
contains "a mix without the missing type" "$tmp/no-range.json" "Estimated from separate runs: under this mix (load 50%, row 50%)" \
  --mix load=1,row=1
refused 2 'run.json has no "workloads" to estimate the mix from' "$data/run.json" --mix "$spec"
refused 2 "holds a measured mix of other proportions (load=5,row=60,range=5,append=25,update=5)" \
  "$data/mix.json" --mix load=1,row=1
refused 1 'mix-time.json: mix: layouts[0] (detail): by_type[1]: "time_s" must be a number of at least 0' mix-time.json
refused 1 'mix-nospec.json: mix: no "spec", which every mix carries' mix-nospec.json
refused 1 'mix-mode.json: mix: "mode" "sideways" is neither "open" nor "closed"' mix-mode.json
refused 1 'mix-norate.json: mix: an open loop ("mode": "open") without its "rate_ops_s"' mix-norate.json
refused 1 'mix-notime.json: mix: layouts[1] (folded): by_type[0]: no "time_s", which every mix carries' mix-notime.json
refused 1 'mix-noelapsed.json: mix: layouts[0] (detail): no "elapsed_s", which every mix carries' mix-noelapsed.json
refused 1 'mix-noops.json: mix: layouts[0] (detail): by_type[3]: no "ops", which every mix carries' mix-noops.json
refused 1 'mix-op.json: mix: layouts[1] (folded): by_type[2]: "op" "aggregate" is none of load, row, range, append, update' mix-op.json
refused 1 "mix-layout.json: mix: layouts[0]: layout \"stacked\" is none of the file's layouts" mix-layout.json
refused 1 'mix-ops.json: mix: "ops" must be above 0' mix-ops.json
refused 1 'mix-notype.json: mix: layouts[0] (detail): "by_type" is missing or not an array' mix-notype.json
refused 1 'mix-twice.json: mix: layouts[0] (detail): by_type[1]: op "load" appears twice' mix-twice.json
refused 1 'mix-prop.json: mix: proportions: "scan" is none of load, row, range, append, update' mix-prop.json
refused 1 'mix-winner.json: mix: "winner" "stacked" is none of its layouts' mix-winner.json
refused 1 'mix-flag.json: mix: "rows_equal" must be true or false' mix-flag.json
refused 1 'mix-array.json: "mix" is missing or not an object' mix-array.json
# --mix-file: the stream measured in another file of the same collections; refused when that file holds no
# mix, when the run holds one of its own, when a layout of the mix is on another collection
refused 2 "--mix-file $data/run.json holds no measured mix: give the file of scancmp --mix ... --out FILE" \
  "$data/writes.json" --mix-file "$data/run.json"
refused 2 "--mix-file $data/mix.json: mix.json holds a measured mix of its own" \
  "$data/mix.json" --mix-file "$data/mix.json"
refused 2 "its layout 'folded' (collection other_coll) is detail_coll in writes.json: not the same data" \
  "$data/writes.json" --mix-file mix-othercoll.json
refused 1 "--mix-file: " "$data/writes.json" --mix-file no-such-file.json

if [ $failures -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "all mix checks passed"
