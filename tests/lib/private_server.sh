# private_server.sh -- the scaffolding of a test that runs its own private test server (never the shared
# fixture's) because it kills it, restarts it, or needs a personality (replset, mongos) the fixture's
# server does not have: sourced, not run, by tests/fault/server_death.sh, tests/etl/fold_failover.sh,
# tests/scan/deploy.sh and tests/core/personality.sh (tests/fault/server_watchdog.sh checks the watchdog
# below). Each of them still declares the server fixture (SERVER in its CMakeLists.txt): the fixture
# builds the server binary once, before them, so a build that fails shows there and they are not run
# (ctest reports them failed); they never talk to the fixture's server. A private server that does not
# start is a failure of the test (start_server dies), never a skip or a pass.
#
#   . "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" NAME
#
# It sets S (scripts/mongo-test-server.sh), B (LAB_BIN_DIR) and T (a new temporary directory
# $LAB_TEST_TMP/NAME-XXXXXX), unsets LAYOUTLAB_TEST_URI (a real server cannot be killed from here),
# defines die, start_server, kill_server, and installs an EXIT trap that kills $client_pid (the tool
# under test, when the test sets it), stops the servers under T and removes T.
#
# A trap does not run when the test itself is killed (ctest's timeout sends SIGKILL), so a watchdog,
# detached from the test's process tree and session, polls the test's pid once a second and, once that
# process is gone, stops every server under T and removes T: a killed test leaks no server for longer
# than about a second plus the server's graceful stop.

S="${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/scripts/mongo-test-server.sh"
B="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}"
unset LAYOUTLAB_TEST_URI
T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/${1:?private_server.sh: name the test}-XXXXXX") ||
  { echo "FAIL: cannot create a temporary directory in ${LAB_TEST_TMP:-/tmp}" >&2; exit 1; }
client_pid=

# die -- fail the test with a message.
die() { echo "FAIL: $*" >&2; exit 1; }

# lab_proc_start PID -- the start time of process PID (field 22 of /proc/PID/stat), empty when it is gone;
# a pid and its start time name one process even after the pid is reused.
lab_proc_start() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  stat=${stat##*) } # the command name, in parentheses, may hold spaces
  set -- $stat
  echo "${20}"
}

# lab_stop_servers DIR S -- stop every test server started in a subdirectory of DIR (a mongos stops its
# shard too).
lab_stop_servers() {
  local d
  for d in "$1"/*/; do
    if [ -e "$d/pid" ] || [ -e "$d/shard0/pid" ]; then
      "$2" stop --dir "$d" >/dev/null 2>&1
    fi
  done
}

# lab_watch OWNER SINCE DIR S -- the watchdog: wait while process OWNER (started at SINCE) lives and DIR
# exists; when OWNER is gone and DIR is still there (its trap did not run), stop DIR's servers and remove it.
lab_watch() {
  while [ -d "$3" ] && [ "$(lab_proc_start "$1")" = "$2" ]; do
    sleep 1
  done
  [ -d "$3" ] || return 0
  lab_stop_servers "$3" "$4"
  rm -rf "$3"
}

# start_server [SUB] -- start a private server in T/SUB (default srv) and print its URI with short server
# selection and connect timeouts (a server that is down is noticed in 2 s, not 30).
start_server() {
  local uri sep
  uri=$("$S" start --dir "$T/${1:-srv}") || die "cannot start a private test server in $T/${1:-srv}"
  case "$uri" in *\?*) sep='&' ;; *) sep='?' ;; esac
  echo "${uri}${sep}serverSelectionTimeoutMS=2000&connectTimeoutMS=2000"
}

# kill_server [SUB] -- SIGKILL the private server in T/SUB (default srv) and wait until it is gone (its
# pid file stays; start copes).
kill_server() {
  local srv_pid
  srv_pid=$(cat "$T/${1:-srv}/pid") || die "no pid file in $T/${1:-srv}"
  kill -KILL "$srv_pid" || die "cannot kill the server (pid $srv_pid)"
  while kill -0 "$srv_pid" 2>/dev/null; do sleep 0.1; done
}

# lab_private_cleanup -- the EXIT trap: the tool under test, the servers, the temporary directory.
lab_private_cleanup() {
  [ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null
  lab_stop_servers "$T" "$S"
  rm -rf "$T"
}
trap lab_private_cleanup EXIT

# The watchdog: setsid puts it in a session of its own and the subshell that starts it exits at once, so
# it is reparented away from the test; ctest's kill of the test's process tree or group does not reach it.
# It holds none of the test's pipes (ctest waits for those to close).
(setsid bash -c "$(declare -f lab_proc_start lab_stop_servers lab_watch); lab_watch \"\$@\"" lab-watchdog \
  "$$" "$(lab_proc_start $$)" "$T" "$S" </dev/null >/dev/null 2>&1 &)
