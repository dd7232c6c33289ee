#!/usr/bin/env bash
# server_watchdog.sh -- a test killed with SIGKILL (ctest's timeout: no trap runs) leaks no private test
# server: a stand-in test sources tests/lib/private_server.sh, starts its server and waits; its watchdog
# must be running; the stand-in is killed with SIGKILL, and once its watchdog has exited, the server must
# be stopped and the temporary directory removed. A normal exit is checked too: the trap stops the
# server, and the watchdog, seeing the directory gone, exits.
#
# No deadline decides the outcome: the test waits for events (the stand-in's file naming its server, the
# watchdog's exit, the server's exit once stopped), each with a bound of minutes that only guards against
# a hang (a watchdog that never acts fails there, it cannot pass).
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
  for _ in $(seq 1 6000); do
    [ -s "$W/dir" ] && return 0
    kill -0 "$victim" 2>/dev/null || die "the stand-in test ended before its server started: $(cat "$W/stand-in.out")"
    sleep 0.1
  done
  die "the stand-in test's server did not start in 600 s"
}

# watchdog_of DIR -- the pid of the watchdog guarding DIR (its process is "lab-watchdog OWNER SINCE DIR S",
# tests/lib/private_server.sh), empty when there is none.
watchdog_of() { pgrep -f "lab-watchdog .* $1 " | head -1; }

# until_true GUARD_S CMD... -- poll CMD every 0.1 s until it succeeds; 1 after GUARD_S seconds (a hang).
until_true() {
  local guard=$(($1 * 10))
  shift
  for _ in $(seq 1 "$guard"); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}
no_watchdog() { [ -z "$(watchdog_of "$1")" ]; }
dead() { ! kill -0 "$1" 2>/dev/null; }

# 1. killed: the watchdog stops the server and removes the directory
stand_in wait
t=$(sed -n 1p "$W/dir")
srv=$(sed -n 2p "$W/dir")
kill -0 "$srv" 2>/dev/null || die "the stand-in's server (pid $srv) is not running"
wd=$(watchdog_of "$t")
[ -n "$wd" ] || die "no watchdog guards $t"
kill -KILL "$victim"
wait "$victim" 2>/dev/null
victim=
# the event: the watchdog exits once it has stopped the server and removed the directory
until_true 600 no_watchdog "$t" || die "the watchdog (pid $wd) still runs 600 s after its test was killed"
[ ! -e "$t" ] || die "the watchdog exited and left $t"
# stopped means SIGTERM (or SIGKILL after 15 s) sent and waited for: the process is gone, or about to be
until_true 60 dead "$srv" || die "the watchdog exited and left its server (pid $srv) running"
echo "killed test: its watchdog (pid $wd) stopped the server (pid $srv) and removed $t"

# 2. a normal exit: the trap stops the server, and no watchdog stays behind
stand_in exit
t=$(sed -n 1p "$W/dir")
srv=$(sed -n 2p "$W/dir")
wd=$(watchdog_of "$t")
wait "$victim" || die "the stand-in test failed: $(cat "$W/stand-in.out")"
victim=
[ ! -e "$t" ] || die "the stand-in's trap left $t"
until_true 60 dead "$srv" || die "the stand-in's trap left its server (pid $srv) running"
# the watchdog (when it was still there after the exit) sees the directory gone and leaves
until_true 600 no_watchdog "$t" || die "the watchdog (pid $wd) of $t still runs 600 s after its test ended"
echo "normal exit: server stopped by the trap, watchdog gone"
