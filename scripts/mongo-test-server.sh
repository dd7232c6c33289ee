#!/usr/bin/env bash
# mongo-test-server.sh -- start/stop layoutlab's MongoDB-compatible test server: FerretDB v1.24.2 with its
# SQLite backend, run by our own small Go wrapper (tests/mongo-server/; see DESIGN.md for why a wrapper).
#
# Usage: scripts/mongo-test-server.sh start|stop|restart|status --dir DIR [--port N]
#                                      [--as mongod|replset|mongos] [--shard] [--users U:P,...]
#
#   start    build the wrapper once (cached in ~/.cache/layoutlab/, keyed by a hash of its sources), start
#            it in the background with its data in DIR/data on 127.0.0.1 (a free port, or --port N, or the
#            port it had before in DIR), wait until it answers {ping: 1}, write DIR/pid and DIR/uri and
#            print the URI. Already running: prints the URI.
#   stop     graceful stop (SIGTERM, then SIGKILL after 15 s); idempotent. Stops a mongos's shard too.
#   restart  stop + start, keeping the data, the port and the personality (a new pid). With --shard
#            (mongos only): restart only the shard instance; the router keeps running.
#   status   print the URI and exit 0 when running, else say so and exit 1; the personality goes to stderr.
#
# Personalities (--as; default mongod; restart keeps the one DIR/personality records), each answering what
# FerretDB lacks the way mongod/mongos do (tests/mongo-server/proxy.go names the mongod sources):
#   mongod   FerretDB plus getDiagnosticData (systemMetrics.disks from /proc/diskstats); URI
#            mongodb://127.0.0.1:PORT/
#   replset  a one-member replica set "rs0" whose primary is this instance: hello with setName, hosts, me
#            = 127.0.0.1:PORT, replSetGetStatus; DIR/uri is mongodb://127.0.0.1:PORT/?replicaSet=rs0
#   mongos   a router (hello msg "isdbgrid", listShards, its own serverStatus) forwarding everything to a
#            second instance, the shard, started as mongod in DIR/shard0 (its URI in DIR/shard0/uri)
#
# --users U:P[,U:P...] (start; restart keeps it) turns on authentication as the proxy emulates it (PLAIN only,
# tests/mongo-server/proxy.go): these users log in, any other is refused with 18 AuthenticationFailed. For
# mongos the users are the router's (a cluster's users live on its config servers) and the shard has none
# of them: a direct connection to the shard with the router's credentials is refused, as on a real
# secured cluster.
#
# With LAYOUTLAB_TEST_URI set (a real mongod), start only writes that URI to DIR/uri and stop does nothing.
#
# Examples:
#   scripts/mongo-test-server.sh start --dir /tmp/ts          # prints mongodb://127.0.0.1:PORT/
#   uri=$(scripts/mongo-test-server.sh status --dir /tmp/ts)
#   scripts/mongo-test-server.sh restart --dir /tmp/ts        # same port, same data, new process
#   scripts/mongo-test-server.sh stop --dir /tmp/ts
#   scripts/mongo-test-server.sh start --dir /tmp/cl --as mongos      # router URI; shard in /tmp/cl/shard0
#   scripts/mongo-test-server.sh restart --dir /tmp/cl --shard        # only the shard restarts
set -euo pipefail

me=mongo-test-server.sh
here=$(cd "$(dirname "$0")/.." && pwd)
src="$here/tests/mongo-server"

die() { echo "$me: error: $*" >&2; exit 1; }
usage() { sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'; }

cmd=${1:-}
[ -n "$cmd" ] || { usage >&2; exit 2; }
shift
dir=
port=
as=
shard_only=
users=-
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || { echo "$me: --dir needs a value" >&2; exit 2; }; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    --port) [ $# -ge 2 ] || { echo "$me: --port needs a value" >&2; exit 2; }; port=$2; shift 2 ;;
    --port=*) port=${1#--port=}; shift ;;
    --as) [ $# -ge 2 ] || { echo "$me: --as needs a value" >&2; exit 2; }; as=$2; shift 2 ;;
    --as=*) as=${1#--as=}; shift ;;
    --shard) shard_only=1; shift ;;
    --users) [ $# -ge 2 ] || { echo "$me: --users needs a value" >&2; exit 2; }; users=$2; shift 2 ;;
    --users=*) users=${1#--users=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "$me: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
case "$cmd" in
  start|stop|restart|status) ;;
  -h|--help) usage; exit 0 ;;
  *) echo "$me: unknown command '$cmd': use start, stop, restart or status (try --help)" >&2; exit 2 ;;
esac
[ -n "$dir" ] || { echo "$me: --dir DIR is required" >&2; exit 2; }
if [ -n "$port" ] && ! [[ "$port" =~ ^[0-9]+$ && "$port" -ge 1 && "$port" -le 65535 ]]; then
  echo "$me: --port '$port' is not a TCP port (1..65535)" >&2
  exit 2
fi
case "$as" in
  ''|mongod|replset|mongos) ;;
  *) echo "$me: --as '$as': use mongod, replset or mongos" >&2; exit 2 ;;
esac
if [ -n "$shard_only" ] && [ "$cmd" != restart ]; then
  echo "$me: --shard goes with restart (restart only a mongos's shard instance)" >&2
  exit 2
fi
mkdir -p "$dir" || die "cannot create the directory '$dir'"
dir=$(cd "$dir" && pwd)
set_name=rs0

# recorded_as -- the personality DIR/personality records (mongod when none is recorded).
recorded_as() {
  local p
  p=$(cat "$dir/personality" 2>/dev/null || true)
  case "$p" in mongod|replset|mongos) echo "$p" ;; *) echo mongod ;; esac
}

# running_pid -- the pid in DIR/pid when that process is alive and is our server, else nothing.
running_pid() {
  local pid
  [ -r "$dir/pid" ] || return 0
  pid=$(cat "$dir/pid" 2>/dev/null || true)
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'ferretdb-test-server' || return 0
  echo "$pid"
}

# port_busy -- something accepts connections on 127.0.0.1:PORT.
port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# build_server -- print the path of the wrapper binary, building it first when the cache lacks it.
build_server() {
  local cache hash bin tmp v maj min rest
  command -v go >/dev/null 2>&1 ||
    die "Go is not installed; the test server is built from the Go module proxy. Run scripts/setup.sh (installs golang-go) or install Go >= 1.24."
  v=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
  maj=${v%%.*}; rest=${v#*.}; min=${rest%%.*}; min=${min%%[!0-9]*}
  if ! { [ "${maj:-0}" -gt 1 ] || { [ "${maj:-0}" -eq 1 ] && [ "${min:-0}" -ge 24 ]; }; }; then
    die "Go $v is too old: FerretDB v1.24.2 needs Go >= 1.24 (run scripts/setup.sh or install a newer Go)"
  fi
  cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/layoutlab
  mkdir -p "$cache" || die "cannot create the build cache '$cache'"
  hash=$( (cat "$src/go.mod" "$src/go.sum" "$src"/*.go; echo "$v") | sha256sum | cut -c1-16)
  bin="$cache/ferretdb-test-server-$hash"
  if [ ! -x "$bin" ]; then
    exec 9>"$cache/build.lock"
    flock 9 2>/dev/null || true # another start may be building the same binary
    if [ ! -x "$bin" ]; then
      echo "$me: building the FerretDB test server (first time only, ~2 min) into $bin" >&2
      tmp="$bin.tmp.$$"
      # the compiler and linker collect garbage 4x less often than by default (a faster build), whatever
      # the caller gave the server: GOGC=off under a GOMEMLIMIT (the tests') could make the linker thrash
      if ! (cd "$src" && GOGC=400 GOMEMLIMIT=off GOFLAGS="-mod=readonly -buildvcs=false" \
        go build -trimpath -o "$tmp" .) \
        >"$cache/build.log" 2>&1; then
        rm -f "$tmp"
        tail -n 20 "$cache/build.log" >&2
        die "building the test server failed (full log: $cache/build.log). It needs the Go module proxy (GOPROXY=$(go env GOPROXY)). If the wrapper cannot be built at all, DESIGN.md describes the fallback: build ./cmd/ferretdb of v1.24.2 with build/version/version.txt written."
      fi
      mv -f "$tmp" "$bin"
    fi
    exec 9>&-
  fi
  echo "$bin"
}

do_status() {
  local pid
  if [ -n "${LAYOUTLAB_TEST_URI:-}" ]; then
    echo "$LAYOUTLAB_TEST_URI" | sed -E 's#(://)[^/@]*@#\1***@#'
    return 0
  fi
  pid=$(running_pid)
  if [ -n "$pid" ] && [ -r "$dir/uri" ]; then
    cat "$dir/uri"
    if [ "$(recorded_as)" = mongos ] && [ -r "$dir/shard0/uri" ]; then
      echo "$me: $dir: running as mongos (pid $pid), shard0 $(cat "$dir/shard0/uri")" >&2
    else
      echo "$me: $dir: running as $(recorded_as) (pid $pid)" >&2
    fi
    return 0
  fi
  echo "$me: no test server is running for $dir" >&2
  return 1
}

do_start() {
  local bin pid deadline addr uri shard_addr
  if [ -n "${LAYOUTLAB_TEST_URI:-}" ]; then
    (umask 077; printf '%s\n' "$LAYOUTLAB_TEST_URI" >"$dir/uri")
    echo "$LAYOUTLAB_TEST_URI" | sed -E 's#(://)[^/@]*@#\1***@#'
    return 0
  fi
  pid=$(running_pid)
  if [ -z "$as" ]; then
    # restart, or a start finding the server running, keeps the recorded personality
    if [ "$cmd" = restart ] || [ -n "$pid" ]; then as=$(recorded_as); else as=mongod; fi
  fi
  if [ -n "$pid" ] && [ -r "$dir/uri" ]; then
    [ "$(recorded_as)" = "$as" ] ||
      die "the test server in $dir runs as $(recorded_as), not $as; stop it first"
    cat "$dir/uri"
    return 0
  fi
  bin=$(build_server)
  # authentication: --users given now, else what DIR/users recorded (restart keeps it)
  if [ "$users" = - ]; then
    users=$(cat "$dir/users" 2>/dev/null || echo -)
  fi
  if [ "$users" = - ]; then rm -f "$dir/users"; else (umask 077; printf '%s\n' "$users" >"$dir/users"); fi
  auth=()
  [ "$users" = - ] || auth=(-auth -users "$users")
  if [ "$as" = mongos ]; then
    # the shard first: the router forwards every command to it and pings through it. A secured cluster's
    # shard knows none of the router's users.
    shard_users=()
    [ "$users" = - ] || shard_users=(--users "")
    "$0" "$cmd" --dir "$dir/shard0" --as mongod "${shard_users[@]}" >/dev/null ||
      die "the shard instance did not start"
    shard_addr="127.0.0.1:$(cat "$dir/shard0/port")"
  fi
  if [ -z "$port" ] && [ -r "$dir/port" ]; then
    port=$(cat "$dir/port")
    # a plain start may move when something else took the old port; restart must keep it (clients hold
    # the URI), so there the server's own "cannot listen" error is the answer
    if [ "$cmd" = start ] && port_busy "$port"; then
      echo "$me: port $port of the previous run is taken; choosing another" >&2
      port=
    fi
  fi
  if [ -z "$port" ]; then
    port=$("$bin" -free-port) || die "cannot find a free TCP port on 127.0.0.1"
  fi
  addr="127.0.0.1:$port"
  rm -f "$dir/uri" "$dir/pid"
  [ "$as" = mongos ] || mkdir -p "$dir/data"
  echo "$as" >"$dir/personality"
  # setsid + redirections: the server outlives this script and holds none of the caller's pipes (ctest
  # waits for those to close).
  if [ "$as" = mongos ]; then
    setsid "$bin" -as mongos -listen "$addr" -shard "$shard_addr" -log "$dir/ferretdb.log" "${auth[@]}" \
      </dev/null >>"$dir/server.out" 2>&1 &
  else
    setsid "$bin" -as "$as" -set "$set_name" -dir "$dir/data" -listen "$addr" -log "$dir/ferretdb.log" \
      "${auth[@]}" </dev/null >>"$dir/server.out" 2>&1 &
  fi
  pid=$!
  echo "$pid" >"$dir/pid"
  echo "$port" >"$dir/port"
  deadline=$((SECONDS + 60))
  until "$bin" -ping "$addr" -timeout 2s >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$dir/pid"
      tail -n 20 "$dir/server.out" >&2 || true
      stop_shard
      die "the test server exited at start (output: $dir/server.out, log: $dir/ferretdb.log)"
    fi
    if [ $SECONDS -ge $deadline ]; then
      kill -TERM "$pid" 2>/dev/null || true
      rm -f "$dir/pid"
      stop_shard
      die "the test server did not answer ping on $addr within 60 s (log: $dir/ferretdb.log)"
    fi
    sleep 0.2
  done
  uri="mongodb://$addr/"
  [ "$as" != replset ] || uri="mongodb://$addr/?replicaSet=$set_name"
  echo "$uri" >"$dir/uri"
  echo "$uri"
}

do_stop() {
  local pid deadline
  [ -z "${LAYOUTLAB_TEST_URI:-}" ] || return 0
  pid=$(running_pid)
  rm -f "$dir/uri"
  if [ -z "$pid" ]; then
    rm -f "$dir/pid"
    stop_shard
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + 15))
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
      echo "$me: the test server (pid $pid) ignored SIGTERM for 15 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  rm -f "$dir/pid"
  stop_shard
}

# stop_shard -- stop a mongos's shard instance (DIR/shard0), after the router.
stop_shard() {
  if [ -e "$dir/shard0/pid" ] || [ -e "$dir/shard0/uri" ]; then
    "$0" stop --dir "$dir/shard0"
  fi
}

# do_restart_shard -- restart only the shard of a running mongos (same port, same data, new pid).
do_restart_shard() {
  [ -z "${LAYOUTLAB_TEST_URI:-}" ] || return 0
  [ "$(recorded_as)" = mongos ] && [ -d "$dir/shard0" ] ||
    die "restart --shard needs a test server started with --as mongos in $dir"
  "$0" restart --dir "$dir/shard0" --as mongod >/dev/null
  cat "$dir/shard0/uri"
}

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  restart) if [ -n "$shard_only" ]; then do_restart_shard; else do_stop; do_start; fi ;;
  status) do_status ;;
esac
