#!/usr/bin/env bash
# fold_failover.sh -- fold-details survives a server restart in the middle of a fold, on a
# private test server started here in its own temporary directory (not the shared fixture):
#
#  1. billgen writes $LAB_FAILOVER_BILLS bills (default 400) of about 20 rows (about 8,000 rows: the
#     restarts are events the script waits for, not times, so the checks hold at any size; at 40,000 rows
#     the test took 300 s of the suite's 10 minutes on a loaded 2-core machine, where FerretDB folded
#     500-1400 rows/s). FOLD_FAILOVER_ROWS=N asks for about N rows instead (N/20 bills; 100000 is the issue's
#     size: 101,759 rows passed in 2275 s, part 1 in 1011 s, with the machine's load average at 20-30,
#     folding at 220 rows/s). fold-details --verify starts (batches of 100 documents, so checkpoints come
#     often); once its progress line shows a quarter of the rows read, the server is restarted: killed
#     (SIGKILL, so the fold's open cursor breaks at once) and left down until the fold's log says its
#     range failed and will retry from its checkpoint (an event, not a time: however slowly a loaded
#     machine runs the fold, the server comes back only after the fold has seen it gone, so libmongoc's
#     own retry cannot hide the outage), then started again (same port and data). --retries 10 (1 s,
#     2 s, 4 s ... 16 s apart, each try with the 2 s server selection timeout) gives the restart minutes,
#     not seconds. Once --verify's progress shows a quarter of the source rows verified, the server is
#     restarted the same way again, back once the log says --verify will retry: the verification must
#     resume from its last verified key. The run must finish with exit 0, its log must show that the
#     range and the verification finished, and --verify must say equal over all the rows (no row lost,
#     duplicated or counted twice across either retry).
#  2. The same fold into another destination, whose server is killed mid-run and stays down: with
#     --retries 1 the run fails (exit 1) after one logged retry, naming the exact --resume command (the
#     URI as the store redacts it, --drop-dst dropped). The server is started again and that command,
#     run as printed (with --verify added), finishes the fold and verifies equal.
#
# Needs LAB_BIN_DIR (fold-details, billgen) and LAB_SOURCE_DIR; ignores LAYOUTLAB_TEST_URI (a real
# server cannot be restarted from here).
set -uo pipefail

# the private server, the temporary directory T, die, start_server, kill_server, and a watchdog that stops
# the server when this script is killed (ctest's timeout) before its trap can run
. "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" fold-failover

# rows_read FILE [WHAT] -- the largest row count the progress line WHAT ("folding", the default, or
# "verifying") has shown so far in FILE.
rows_read() {
  tr '\r' '\n' <"$1" | sed -n "s/^${2:-folding}: \([0-9]*\)\/.*/\1/p" | tail -1
}

# wait_rows FILE N PID [WHAT] -- wait until the progress in FILE shows N rows read; fail if PID ends first.
wait_rows() {
  local n
  for _ in $(seq 1 6000); do
    n=$(rows_read "$1" "${4:-folding}")
    [ -n "$n" ] && [ "$n" -ge "$2" ] && return 0
    kill -0 "$3" 2>/dev/null || die "the fold ended before reading $2 rows: $(tr '\r' '\n' <"$1" | tail -5)"
    sleep 0.2
  done
  die "the fold did not read $2 rows in 1200 s"
}

# log_count FILE TEXT -- how many lines of the log FILE (progress redraws split into lines) hold TEXT.
log_count() {
  sed 's/\x1b\[K/\n/g' "$1" | tr '\r' '\n' | grep -c -F -- "$2"
}

# wait_log FILE TEXT N PID -- wait until the log FILE holds more than N lines with TEXT; fail if PID ends
# first (the bound is only a guard against a hang, never a deadline the event could race).
wait_log() {
  for _ in $(seq 1 6000); do
    [ "$(log_count "$1" "$2")" -gt "$3" ] && return 0
    kill -0 "$4" 2>/dev/null || die "the fold ended before its log said '$2': $(tr '\r' '\n' <"$1" | tail -5)"
    sleep 0.2
  done
  die "the fold's log did not say '$2' in 1200 s"
}

# restart_when FILE TEXT -- kill the server, wait until the client's log FILE says TEXT once more (it saw
# the server gone and will retry), then start the server again.
restart_when() {
  local n
  n=$(log_count "$1" "$2")
  kill_server
  wait_log "$1" "$2" "$n" "$client_pid"
  kill -0 "$client_pid" 2>/dev/null || die "the fold ended while the server was down"
  "$S" start --dir "$T/srv" >/dev/null || die "cannot start the server again"
}

uri=$(start_server) || exit 1
bills=${LAB_FAILOVER_BILLS:-400}
if [ -n "${FOLD_FAILOVER_ROWS:-}" ]; then
  [ "$FOLD_FAILOVER_ROWS" -ge 20 ] 2>/dev/null || die "FOLD_FAILOVER_ROWS must be a number of rows >= 20"
  bills=$((FOLD_FAILOVER_ROWS / 20))
fi
t0=$(date +%s)

# ---- 1. restart in the middle of the fold ----------------------------------------------------------
"$B/billgen" generate --uri "$uri" --db failover --dst bd --bills "$bills" --mean-rows 20 --seed 3 --drop \
  --progress never 2>"$T/gen.err" || die "billgen: $(cat "$T/gen.err")"
total=$(sed -n 's/.*generated \([0-9]*\) rows.*/\1/p' "$T/gen.err")
[ -n "$total" ] && [ "$total" -gt 0 ] || die "billgen said: $(cat "$T/gen.err")"
echo "generated $total rows in $(($(date +%s) - t0)) s"

"$B/fold-details" --uri "$uri" --db failover --src bd --dst fd --verify --batch-docs 100 --cursor-batch 100 \
  --retries 10 --progress always \
  --json "$T/fold.json" \
  >"$T/fold.out" 2>"$T/fold.err" &
client_pid=$!
wait_rows "$T/fold.err" $((total / 4)) "$client_pid"
echo "restarting the server after $(rows_read "$T/fold.err") of $total rows read"
# killed, not stopped: a graceful stop lets open connections drain for up to 3 s, in which a fast machine
# finishes the fold and the restart lands in --verify instead; SIGKILL cuts the fold's cursor at once
restart_when "$T/fold.err" 'retry: range 0 failed with a transient error'
# and once more in the middle of --verify
wait_rows "$T/fold.err" $((total / 4)) "$client_pid" verifying
echo "restarting the server after $(rows_read "$T/fold.err" verifying) of $total rows verified"
restart_when "$T/fold.err" 'retry: verify failed with a transient error'
wait "$client_pid"
rc=$?
client_pid=
echo "--- fold log (progress lines omitted)"
sed 's/\x1b\[K/\n/g' "$T/fold.err" | tr '\r' '\n' | grep -v '^folding: \|^verifying: \|^$'
cat "$T/fold.out"
[ "$rc" -eq 0 ] || die "fold-details --verify after a restart exited $rc"
grep -q 'retry: range 0 failed with a transient error' "$T/fold.err" || die "the log shows no retry: the restart missed the fold"
grep -q 'range 0: finished after' "$T/fold.err" || die "the log does not say the retried range finished"
grep -q 'retry: verify failed with a transient error' "$T/fold.err" || die "the log shows no --verify retry"
grep -q 'verify: finished after' "$T/fold.err" || die "the log does not say the verification finished"
grep -q '"equal" : true' "$T/fold.json" || die "--verify did not say equal: $(cat "$T/fold.json")"
grep -q "verify: equal: $total source rows" "$T/fold.out" || die "--verify did not read the $total source rows"
echo "part 1 (restart mid-fold and mid-verify, $total rows) passed after $(($(date +%s) - t0)) s"

# ---- 2. the server stays down: give up, name the --resume command, which then finishes -------------
"$B/fold-details" --uri "$uri" --db failover --src bd --dst fs --drop-dst --retries 1 --cursor-batch 100 \
  --batch-docs 50 --progress always \
  >"$T/down.out" 2>"$T/down.err" &
client_pid=$!
wait_rows "$T/down.err" $((total / 4)) "$client_pid"
kill_server
wait "$client_pid"
rc=$?
client_pid=
sed 's/\x1b\[K/\n/g' "$T/down.err" | tr '\r' '\n' | grep -v '^folding: \|^$'
[ "$rc" -eq 1 ] || die "a fold whose server stayed down exited $rc, wanted 1"
grep -q 'retry: range 0 failed with a transient error' "$T/down.err" || die "no retry was logged"
cmd=$(sed -n 's/.*continue it from its checkpoints with: \(fold-details .*\)$/\1/p' "$T/down.err")
[ -n "$cmd" ] || die "the error names no --resume command"
case "$cmd" in *" --resume"*) ;; *) die "the command '$cmd' has no --resume" ;; esac
case "$cmd" in *"--drop-dst"*) die "the command '$cmd' keeps --drop-dst (it would start over)" ;; esac
case "$cmd" in *"--uri "*) ;; *) die "the command '$cmd' names no --uri" ;; esac
"$S" start --dir "$T/srv" >/dev/null || die "cannot start the server again"
eval "\"$B/\"$cmd --verify" >"$T/resume.out" 2>"$T/resume.err" ||
  die "the printed command failed: $cmd: $(cat "$T/resume.err")"
cat "$T/resume.out"
grep -q '^verify: equal' "$T/resume.out" || die "the resumed fold does not verify equal"
echo "part 2 (server down, --resume as printed) passed; total $(($(date +%s) - t0)) s"
