#!/usr/bin/env bash
# bench-store.sh -- insert and sorted-stream throughput of the two store backends, side by side.
#
# Usage: scripts/bench-store.sh [--build DIR] [--embedded-docs N] [--server-docs N] [--server-uri URI]
#                               [--skip-server] [--json FILE]
#
#   Runs bin/bench_store (tests/store/bench_store.c) on the embedded WiredTiger store in a temporary
#   directory (default 1,000,000 rows of ~300 bytes) and on the MongoDB-compatible test server, which it
#   starts and stops itself with mongo-test-server.sh (default 100,000 rows: FerretDB on SQLite is one to
#   two orders of magnitude slower, so it gets fewer rows; rows/s are comparable, totals are not).
#   --server-uri (or $LAYOUTLAB_TEST_URI) uses that server instead, e.g. a real mongod.
#   --json FILE keeps both measurements as {"embedded": {...}, "server": {...}}.
#
# Examples:
#   scripts/bench-store.sh                                   # the default comparison (~2 min)
#   scripts/bench-store.sh --embedded-docs 100000 --server-docs 20000
#   scripts/bench-store.sh --server-uri mongodb://db1:27017/bench --server-docs 1000000
set -euo pipefail

me=bench-store.sh
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build"
edocs=1000000
sdocs=100000
suri=${LAYOUTLAB_TEST_URI:-}
skip_server=0
json_out=

die() { echo "$me: error: $*" >&2; exit 1; }
need() { [ $# -ge 2 ] || { echo "$me: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) need "$@"; build=$2; shift 2 ;;
    --embedded-docs) need "$@"; edocs=$2; shift 2 ;;
    --server-docs) need "$@"; sdocs=$2; shift 2 ;;
    --server-uri) need "$@"; suri=$2; shift 2 ;;
    --skip-server) skip_server=1; shift ;;
    --json) need "$@"; json_out=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$me: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
for n in "$edocs" "$sdocs"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "$me: row counts must be positive integers (got '$n')" >&2; exit 2; }
done

bench="$build/bin/bench_store"
[ -x "$bench" ] || die "$bench is missing: build first (cmake -S $here -B $build -G Ninja && cmake --build $build)"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the JSON results (scripts/setup.sh installs it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/layoutlab-bench.XXXXXX")
server_dir=
cleanup() {
  if [ -n "$server_dir" ]; then
    "$here/scripts/mongo-test-server.sh" stop --dir "$server_dir" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "$me: embedded WiredTiger store, $edocs rows ..." >&2
"$bench" --uri "wiredtiger:$work/wt" --docs "$edocs" --json "$work/embedded.json" >/dev/null

if [ "$skip_server" -eq 0 ]; then
  if [ -z "$suri" ]; then
    server_dir="$work/server"
    echo "$me: starting the FerretDB test server ..." >&2
    suri=$(env -u LAYOUTLAB_TEST_URI "$here/scripts/mongo-test-server.sh" start --dir "$server_dir")
    suri="${suri%/}/layoutlab_bench"
  fi
  echo "$me: MongoDB server, $sdocs rows ..." >&2
  "$bench" --uri "$suri" --docs "$sdocs" --json "$work/server.json" >/dev/null
fi

python3 - "$work" "$json_out" <<'EOF'
import json, os, sys
work, out = sys.argv[1], sys.argv[2]
res = {}
for name in ("embedded", "server"):
    p = os.path.join(work, name + ".json")
    if os.path.exists(p):
        with open(p) as f:
            res[name] = json.load(f)
cols = list(res)
def row(label, fmt, key):
    print(f"{label:<24}" + "".join(f"{fmt(res[c][key]):>28}" for c in cols))
print(f"{'':<24}" + "".join(f"{c:>28}" for c in cols))
print(f"{'backend':<24}" + "".join(f"{res[c]['backend']:>28}" for c in cols))
print(f"{'version':<24}" + "".join(f"{res[c]['version'][:26]:>28}" for c in cols))
row("rows", lambda v: f"{v:,}", "docs")
row("avg row bytes", lambda v: f"{v:.0f}", "avg_doc_bytes")
row("insert rows/s", lambda v: f"{v:,.0f}", "insert_rows_per_s")
row("index build s", lambda v: f"{v:.2f}", "index_s")
row("sorted stream rows/s", lambda v: f"{v:,.0f}", "sorted_rows_per_s")
row("sorted stream MB/s", lambda v: f"{v:.1f}", "sorted_mb_per_s")
if len(cols) == 2:
    e, s = res["embedded"], res["server"]
    print(f"{'insert, embedded/server':<24}{e['insert_rows_per_s'] / s['insert_rows_per_s']:>55.1f}x")
    print(f"{'sorted, embedded/server':<24}{e['sorted_rows_per_s'] / s['sorted_rows_per_s']:>55.1f}x")
if res.get("server", {}).get("docs", 0) != res.get("embedded", {}).get("docs", 0) and len(cols) == 2:
    print("note: the server ran fewer rows (FerretDB on SQLite is slow); compare rows/s, not totals.")
if out:
    with open(out, "w") as f:
        json.dump(res, f, indent=2)
EOF
