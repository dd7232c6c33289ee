#!/usr/bin/env bash
# golden.sh -- layout-report's CLI golden tests: committed results files render to committed Markdown,
# byte for byte (with and without a baseline, with missing optional fields and Markdown-special names),
# and bad input is refused with a clear message, a non-zero exit code and no output file.
#
# Usage: golden.sh [--update]   (--update rewrites the expected files: review the diff before committing)
# Environment (set by ctest): LAB_BIN_DIR, LAB_SOURCE_DIR, LAB_TEST_TMP.
set -euo pipefail

src=${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${LAB_BIN_DIR:-$src/build/bin}
data=$src/tests/compare/data
expected=$src/tests/compare/expected
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/compare-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
update=0
[ "${1:-}" = "--update" ] && update=1
report=$bin/layout-report
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# golden NAME ARGS... -- run layout-report from the data directory (relative paths, as a user would)
golden() {
  local name=$1; shift
  if ! (cd "$data" && "$report" "$@" -o "$tmp/$name.md" -q); then
    fail "$name: layout-report exited non-zero"; return
  fi
  if [ $update -eq 1 ]; then
    cp "$tmp/$name.md" "$expected/$name.md"; echo "updated $expected/$name.md"
  elif ! cmp -s "$tmp/$name.md" "$expected/$name.md"; then
    fail "$name: output differs from $expected/$name.md"
    diff -u "$expected/$name.md" "$tmp/$name.md" | head -40 >&2 || true
  else
    echo "ok: $name"
  fi
}

golden run run.json --charts none
golden run-vs-baseline run.json --baseline baseline.json --charts none --title 'snappy vs zlib: bill_detail folding'
golden minimal minimal.json --charts none

# the same bytes on stdout as in a file
(cd "$data" && "$report" run.json --charts none) > "$tmp/stdout.md"
cmp -s "$tmp/stdout.md" "$expected/run.md" && echo "ok: stdout" || fail "stdout rendering differs from the file"

# the example scancmp itself committed (the real writer's shape) renders without a complaint
example=$src/tests/scan/data/example-run.json
if [ -f "$example" ]; then
  if "$report" "$example" --charts none > "$tmp/example.md" 2>"$tmp/example.err" &&
     grep -q '^## Verdict' "$tmp/example.md" && ! grep -q '(null)' "$tmp/example.md"; then
    echo "ok: tests/scan/data/example-run.json"
  else
    fail "tests/scan/data/example-run.json does not render: $(cat "$tmp/example.err")"
  fi
fi

# refused -- layout-report must exit with CODE, say MESSAGE on stderr, and write no report
refused() {
  local code=$1 message=$2; shift 2
  local rc=0
  rm -f "$tmp/bad.md"
  (cd "$tmp" && "$report" "$@" -o "$tmp/bad.md") >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" -ne "$code" ]; then fail "'$*': exit $rc, want $code ($(cat "$tmp/err"))"; return; fi
  if ! grep -qF -- "$message" "$tmp/err"; then fail "'$*': stderr lacks '$message': $(cat "$tmp/err")"; return; fi
  if [ -e "$tmp/bad.md" ]; then fail "'$*': wrote a report despite the error"; return; fi
  echo "ok: refused $* -> $code"
}

head -c 5000 "$data/run.json" > "$tmp/truncated.json"
printf '{"schema_version": 1,\n "runs": [\n  {"run": 1, "layout": detail}\n]}\n' > "$tmp/invalid.json"
printf '' > "$tmp/empty.json"
printf '{"schema_version": 1, "runs": [{"run": 1, "layout": "detail", "elapsed_s": 1, "docs": 1, "bytes_returned": 1}]}' > "$tmp/onelayout.json"
refused 1 "truncated.json: invalid JSON (Incomplete JSON): the file is truncated" truncated.json
refused 1 "invalid.json: line 3, column" invalid.json
refused 1 "empty.json: empty file" empty.json
refused 1 "a comparison needs at least one of each" onelayout.json
refused 1 "cannot open results file missing.json" missing.json
refused 1 "--baseline: truncated.json" "$data/run.json" --baseline truncated.json
refused 2 "no results file given" --charts none
refused 2 "unknown option '--colour'" "$data/run.json" --colour
refused 2 "--charts: 'png' is not one of svg, none" "$data/run.json" --charts png
refused 2 "one results file at a time" "$data/run.json" "$data/baseline.json"
rc=0; "$report" "$data/run.json" --json - >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -qF "cannot both go to standard output" "$tmp/err" && echo "ok: --json - with the report on stdout" || fail "--json - with the report on stdout: exit $rc"
(cd "$data" && "$report" run.json --charts none -o "$tmp/j.md" --json - -q) > "$tmp/j.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d['metrics']; assert d['tool']=='layout-report' and d['exit_code']==0 and d['ok'] and d['command_line'][1]=='run.json' and d['started'].endswith('Z') and 'elapsed_s' in d; assert m['read_requests']['better']=='folded' and m['elapsed_s']['detail']['runs']==3 and 'ratio_folded_to_detail' in m['elapsed_s']" "$tmp/j.json" \
  && echo "ok: --json comparison" || fail "--json comparison is wrong: $(head -c 300 "$tmp/j.json")"

rc=0; "$report" --charts svg "$data/run.json" >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -qF "needs -o" "$tmp/err" && echo "ok: --charts svg without -o" || fail "--charts svg without -o: exit $rc"
"$report" --help | grep -q "Examples:" && echo "ok: --help" || fail "--help lacks examples"

if [ $failures -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "all golden checks passed"
