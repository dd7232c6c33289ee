# store_test.sh -- the scaffolding of a shell test that runs the tools on the embedded store, or with
# --server on the test server of ctest's fixture (tests/scan/workloads.sh, tests/scan/writes.sh). Sourced,
# not run:
#
#   . "$(dirname "$0")/../lib/store_test.sh" NAME "$@"
#
# It sets BIN (LAB_BIN_DIR), T (a new temporary directory $LAB_TEST_TMP/NAME-XXXXXX, removed on exit),
# where (embedded or server), S (the tools' --uri options: a store in $T, or the fixture's server with a
# database of its own, DB), URI (the server's), fails (0), and defines fail, run and expect:
#   fail MSG            count a failure, with the last lines of the last command's stderr
#   run CMD...          run it, its stdout in $T/out, its stderr in $T/err, its status in $rc
#   expect N CMD...     run it and fail unless it exits N
# No test server with --server is a failure (fixture_uri.sh), never a skip. LAB_TEST_TIMES=1: run also
# prints each command's wall time and the fixture server's CPU ticks meanwhile on stderr (where the time of
# a server test goes: mostly the server's).

BIN="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}"
T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/${1:?store_test.sh: name the test}-XXXXXX") ||
  { echo "FAIL: cannot create a temporary directory in ${LAB_TEST_TMP:-/tmp}" >&2; exit 1; }
trap 'rm -rf "$T"' EXIT
fails=0
URI=
DB=

if [ "${2:-}" = "--server" ]; then
  . "$(dirname "${BASH_SOURCE[0]}")/fixture_uri.sh"
  URI=$(fixture_uri "$1") || exit 1
  DB="${1}_$$_$RANDOM"
  S=(--uri "$URI" --db "$DB")
  where=server
else
  S=(--uri "wiredtiger:$T/wt")
  where=embedded
fi

# fail -- count a failure, saying where and with the last stderr lines.
fail () {
  echo "FAIL ($where): $*" >&2
  sed 's/^/  /' "$T/err" 2>/dev/null | tail -8 >&2
  fails=$((fails + 1))
}
# run -- the command's outputs in $T/out and $T/err, its status in $rc.
run () {
  local t0 c0 c1 pidf
  if [ -n "${LAB_TEST_TIMES:-}" ]; then
    pidf=$(dirname "${LAYOUTLAB_TEST_URI_FILE:-/nonexistent/x}")/pid
    c0=$(awk '{print $14+$15}' "/proc/$(cat "$pidf" 2>/dev/null)/stat" 2>/dev/null || echo 0); t0=$EPOCHREALTIME
  fi
  "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ -n "${LAB_TEST_TIMES:-}" ]; then
    c1=$(awk '{print $14+$15}' "/proc/$(cat "$pidf" 2>/dev/null)/stat" 2>/dev/null || echo 0)
    echo "TIME $(echo "$EPOCHREALTIME - $t0" | bc) s, server cpu $(( (c1 - c0) )) ticks: ${*:0:6}" >&2
  fi
}
# expect -- run, and fail unless the status is the one wanted.
expect () { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] || fail "exit $rc, wanted $want: $*"; }
