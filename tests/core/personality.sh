#!/usr/bin/env bash
# personality.sh -- the test server's personalities (scripts/mongo-test-server.sh --as mongod|replset|
# mongos), each started in its own temporary directory (not the shared fixture) and checked through
# libmongoc by test_personality (tests/core/test_personality.c says what each mode checks). For mongos it
# also restarts only the shard (restart --shard): the router keeps its pid, the shard gets a new one, and
# data written through the router is found again. Everything started here is stopped on exit.
#
# A personality that does not start is a failure, counted like every other (never a check left out in
# silence). Needs LAB_BIN_DIR (test_personality) and LAB_SOURCE_DIR; ignores LAYOUTLAB_TEST_URI (a real
# server has one personality only). A test killed by ctest's timeout leaks no server: the watchdog of
# tests/lib/private_server.sh stops them.
set -uo pipefail

P="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}/test_personality"
# S, T (the temporary directory), and an EXIT trap plus a watchdog that stop every server under T even
# when ctest kills this test (tests/lib/private_server.sh)
. "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" personality
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# start_as NAME -- start personality NAME in $T/NAME, its URI in $uri; a server that does not start fails
# the test (counted here, in this shell: a `fail` inside $(...) would be lost with its subshell).
start_as() {
  uri=$("$S" start --dir "$T/$1" --as "$1") && [ -n "$uri" ] && return 0
  fail "the test server did not start --as $1 (its error is above)"
  return 1
}

if start_as mongod; then
  "$P" mongod "$uri" || fail "mongod personality ($uri)"
  "$S" stop --dir "$T/mongod" || fail "stop mongod"
fi

if start_as replset; then
  case "$uri" in *"?replicaSet=rs0") ;; *) fail "replset URI $uri names no replicaSet" ;; esac
  "$S" status --dir "$T/replset" 2>&1 >/dev/null | grep -q 'running as replset' || fail "status does not say replset"
  "$P" replset "$uri" || fail "replset personality ($uri)"
  "$S" stop --dir "$T/replset" || fail "stop replset"
fi

if start_as mongos; then
  [ -s "$T/mongos/shard0/uri" ] || fail "no shard0/uri"
  "$S" status --dir "$T/mongos" 2>&1 >/dev/null | grep -q 'running as mongos' || fail "status does not say mongos"
  pids1=$("$P" mongos "$uri") || fail "mongos personality ($uri)"
  "$S" restart --dir "$T/mongos" --shard >/dev/null || fail "restart --shard"
  pids2=$("$P" mongos "$uri") || fail "mongos personality after restart --shard ($uri)"
  read -r router1 shard1 <<<"$pids1"
  read -r router2 shard2 <<<"$pids2"
  [ -n "$router1" ] && [ "$router1" = "$router2" ] || fail "router pid changed on restart --shard: $pids1 -> $pids2"
  [ -n "$shard1" ] && [ "$shard1" != "$shard2" ] || fail "shard pid unchanged on restart --shard: $pids1 -> $pids2"
  "$S" stop --dir "$T/mongos" || fail "stop mongos"
  "$S" status --dir "$T/mongos/shard0" >/dev/null 2>&1 && fail "stop of the router left the shard running"
fi

[ "$fails" = 0 ] || { echo "personality: $fails failure(s)" >&2; exit 1; }
echo "personality: mongod, replset and mongos OK"
