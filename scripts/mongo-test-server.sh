#!/usr/bin/env bash
# mongo-test-server.sh -- start/stop layoutlab's MongoDB-compatible test server: FerretDB v1.24.2 with its
# SQLite backend, run by our own small Go wrapper (tests/mongo-server/; see DESIGN.md for why a wrapper).
#
# Usage: scripts/mongo-test-server.sh start|stop|restart|status --dir DIR [--port N]
#
#   start    build the wrapper once (cached in ~/.cache/layoutlab/, keyed by a hash of its sources), start
#            it in the background with its data in DIR/data on 127.0.0.1 (a free port, or --port N, or the
#            port it had before in DIR), wait until it answers {ping: 1}, write DIR/pid and DIR/uri and
#            print the URI. Already running: prints the URI.
#   stop     graceful stop (SIGTERM, then SIGKILL after 15 s); idempotent.
#   restart  stop + start, keeping the data and the port (a new pid).
#   status   print the URI and exit 0 when running, else say so and exit 1.
#
# With LAYOUTLAB_TEST_URI set (a real mongod), start only writes that URI to DIR/uri and stop does nothing.
#
# Examples:
#   scripts/mongo-test-server.sh start --dir /tmp/ts          # prints mongodb://127.0.0.1:PORT/
#   uri=$(scripts/mongo-test-server.sh status --dir /tmp/ts)
#   scripts/mongo-test-server.sh restart --dir /tmp/ts        # same port, same data, new process
#   scripts/mongo-test-server.sh stop --dir /tmp/ts
set -euo pipefail

me=mongo-test-server.sh
here=$(cd "$(dirname "$0")/.." && pwd)
src="$here/tests/mongo-server"

die() { echo "$me: error: $*" >&2; exit 1; }
usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

cmd=${1:-}
[ -n "$cmd" ] || { usage >&2; exit 2; }
shift
dir=
port=
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || { echo "$me: --dir needs a value" >&2; exit 2; }; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    --port) [ $# -ge 2 ] || { echo "$me: --port needs a value" >&2; exit 2; }; port=$2; shift 2 ;;
    --port=*) port=${1#--port=}; shift ;;
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
mkdir -p "$dir" || die "cannot create the directory '$dir'"
dir=$(cd "$dir" && pwd)

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
  hash=$( (cat "$src/go.mod" "$src/go.sum" "$src/main.go"; echo "$v") | sha256sum | cut -c1-16)
  bin="$cache/ferretdb-test-server-$hash"
  if [ ! -x "$bin" ]; then
    exec 9>"$cache/build.lock"
    flock 9 2>/dev/null || true # another start may be building the same binary
    if [ ! -x "$bin" ]; then
      echo "$me: building the FerretDB test server (first time only, ~2 min) into $bin" >&2
      tmp="$bin.tmp.$$"
      if ! (cd "$src" && GOFLAGS="-mod=readonly -buildvcs=false" go build -trimpath -o "$tmp" .) \
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
    return 0
  fi
  echo "$me: no test server is running for $dir" >&2
  return 1
}

do_start() {
  local bin pid deadline addr uri
  if [ -n "${LAYOUTLAB_TEST_URI:-}" ]; then
    (umask 077; printf '%s\n' "$LAYOUTLAB_TEST_URI" >"$dir/uri")
    echo "$LAYOUTLAB_TEST_URI" | sed -E 's#(://)[^/@]*@#\1***@#'
    return 0
  fi
  pid=$(running_pid)
  if [ -n "$pid" ] && [ -r "$dir/uri" ]; then
    cat "$dir/uri"
    return 0
  fi
  bin=$(build_server)
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
  mkdir -p "$dir/data"
  # setsid + redirections: the server outlives this script and holds none of the caller's pipes (ctest
  # waits for those to close).
  setsid "$bin" -dir "$dir/data" -listen "$addr" -log "$dir/ferretdb.log" \
    </dev/null >>"$dir/server.out" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"
  echo "$port" >"$dir/port"
  deadline=$((SECONDS + 60))
  until "$bin" -ping "$addr" -timeout 2s >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$dir/pid"
      tail -n 20 "$dir/server.out" >&2 || true
      die "the test server exited at start (output: $dir/server.out, log: $dir/ferretdb.log)"
    fi
    if [ $SECONDS -ge $deadline ]; then
      kill -TERM "$pid" 2>/dev/null || true
      rm -f "$dir/pid"
      die "the test server did not answer ping on $addr within 60 s (log: $dir/ferretdb.log)"
    fi
    sleep 0.2
  done
  uri="mongodb://$addr/"
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
}

case "$cmd" in
  start) do_start ;;
  stop) do_stop ;;
  restart) do_stop; do_start ;;
  status) do_status ;;
esac
