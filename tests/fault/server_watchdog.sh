#!/usr/bin/env bash
# server_watchdog.sh -- a test killed with SIGKILL (ctest's timeout: no trap runs) leaks no private test
# server: a stand-in test sources tests/lib/private_server.sh, starts its server and waits; it is killed
# with SIGKILL, and within 30 s its watchdog must have stopped the server and removed its temporary
# directory. A normal exit is checked too: the trap stops the server and the watchdog leaves.
#
# Needs LAB_SOURCE_DIR (and LAB_BIN_DIR, which the helper requires); ignores LAYOUTLAB_TEST_URI.
set -uo pipefail

: "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}" "${LAB_BIN_DIR:?set LAB_BIN_DIR}"
W=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/server-watchdog-XXXXXX")
victim=
cleanup() {
  [ -n "$victim" ] && kill -KILL "$victim" 2>/dev/null
  # whatever the stand-ins left (only after a failure here): stop it, so this test leaks nothing either
  for d in "$W"/T/*/srv; do
    [ -e "$d/pid" ] && "$LAB_SOURCE_DIR/scripts/mongo-test-server.sh" stop --dir "$d" >/dev/null 2>&1
  done
  rm -rf "$W"
}
trap cleanup EXIT
die() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$W/T"

# stand_in MODE -- run a stand-in test in the background (MODE wait: it waits to be killed; exit: it
# exits once its server is up); it writes its temporary directory and its server's pid to $W/dir.
stand_in() {
  rm -f "$W/dir"
  LAB_TEST_TMP="$W/T" bash -c '
    . "$LAB_SOURCE_DIR/tests/lib/private_server.sh" stand-in
    start_server >/dev/null || exit 1
    printf "%s\n%s\n" "$T" "$(cat "$T/srv/pid")" >"'"$W"'/dir.tmp" && mv "'"$W"'/dir.tmp" "'"$W"'/dir"
    [ "$1" = exit ] && exit 0
    sleep 600' stand-in "$1" </dev/null >"$W/stand-in.out" 2>&1 &
  victim=$!
  for _ in $(seq 1 1200); do
    [ -s "$W/dir" ] && return 0
    kill -0 "$victim" 2>/dev/null || die "the stand-in test ended before its server started: $(cat "$W/stand-in.out")"
    sleep 0.1
  done
  die "the stand-in test's server did not start in 120 s"
}

# gone PID DIR -- wait up to 30 s until process PID and directory DIR are both gone.
gone() {
  for _ in $(seq 1 300); do
    if ! kill -0 "$1" 2>/dev/null && [ ! -e "$2" ]; then return 0; fi
    sleep 0.1
  done
  return 1
}

# 1. killed: the watchdog stops the server and removes the directory
stand_in wait
t=$(sed -n 1p "$W/dir")
srv=$(sed -n 2p "$W/dir")
kill -0 "$srv" 2>/dev/null || die "the stand-in's server (pid $srv) is not running"
kill -KILL "$victim"
wait "$victim" 2>/dev/null
victim=
gone "$srv" "$t" || die "30 s after the test was killed, its server (pid $srv) or $t is still there"
echo "killed test: its server (pid $srv) and $t are gone"

# 2. a normal exit: the trap stops the server, and no watchdog stays behind
stand_in exit
t=$(sed -n 1p "$W/dir")
srv=$(sed -n 2p "$W/dir")
wait "$victim" || die "the stand-in test failed: $(cat "$W/stand-in.out")"
victim=
[ ! -e "$t" ] || die "the stand-in's trap left $t"
gone "$srv" "$t" || die "the stand-in's trap left its server (pid $srv) running"
for _ in $(seq 1 50); do
  pgrep -f "lab-watchdog .* $t " >/dev/null || break
  sleep 0.1
done
pgrep -f "lab-watchdog .* $t " >/dev/null && die "the watchdog of $t is still running after the test ended"
echo "normal exit: server stopped by the trap, watchdog gone"
