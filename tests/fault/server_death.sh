#!/usr/bin/env bash
# server_death.sh -- the test server dies in the middle of a scan, on a private test
# server started here in its own temporary directory (not the shared fixture), killed with SIGKILL:
#
#  scancmp (several runs, progress on) is loading the detail layout when the server is killed and stays
#  down. scancmp has no retry: it must end with exit 1 within its timeouts, one clear error naming the
#  server and what failed, no results file (--out is written only after every run has finished: a partial
#  comparison is never left behind to be reported), and a --json summary that records exit 1 and the same
#  error with no results, and no libmongoc log line (those go to -v). The server, started again, still
#  holds both layouts, and the same scancmp command then succeeds and writes its results file.
#
# The other half of part 3, a fold whose server is killed and stays down (retries exhausted, the error
# names the exact --resume command, which after a restart finishes and verifies), is in
# tests/etl/fold_failover.sh part 2.
#
# Needs LAB_BIN_DIR (billgen, fold-details, scancmp) and LAB_SOURCE_DIR; ignores LAYOUTLAB_TEST_URI (a
# real server cannot be killed from here).
set -uo pipefail

# the private server, the temporary directory T, die, start_server, kill_server, and a watchdog that stops
# the server when this script is killed (ctest's timeout) before its trap can run
. "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" server-death

# keys_loaded FILE -- the largest key count a progress line of run 1's detail layout shows in FILE.
keys_loaded() {
  sed 's/\x1b\[K/\n/g' "$1" | tr '\r' '\n' | sed -n 's/^run 1 detail: \([0-9]*\)\/.*/\1/p' | tail -1
}

uri=$(start_server) || exit 1
# small: FerretDB's SQLite backend loads a few keys per second under load (each key's query reads the
# collection), and the scan must still be in its first layout when the server is killed
bills=${LAB_DEATH_BILLS:-200}
t0=$(date +%s)
"$B/billgen" generate --uri "$uri" --db death --bills "$bills" --mean-rows 8 --seed 4 --drop --progress never \
  2>"$T/gen.err" || die "billgen: $(cat "$T/gen.err")"
"$B/fold-details" --uri "$uri" --db death --src bill_detail --dst detail_coll --progress never -q \
  2>"$T/fold.err" || die "fold-details: $(cat "$T/fold.err")"
echo "data: $bills bills, both layouts, in $(($(date +%s) - t0)) s"

SCAN=("$B/scancmp" --uri "$uri" --db death --parallel 1 --keys-limit 60 --progress always --out "$T/run.json"
  --json "$T/summary.json")
want=3 # keys loaded before the kill: the scan is under way, far from its end
"${SCAN[@]}" --runs 3 >"$T/scan.out" 2>"$T/scan.err" &
client_pid=$!
deadline=$(($(date +%s) + 180))
while [ "$(date +%s)" -lt "$deadline" ]; do
  n=$(keys_loaded "$T/scan.err")
  [ -n "$n" ] && [ "$n" -ge "$want" ] && break
  kill -0 "$client_pid" 2>/dev/null || die "scancmp ended before the kill: $(tr '\r' '\n' <"$T/scan.err" | tail -5)"
  sleep 0.1
done
[ -n "$n" ] && [ "$n" -ge "$want" ] || die "scancmp did not load $want keys in 180 s"
echo "killing the server after $n of 60 keys of run 1's detail layout"
kill_server
t1=$(date +%s)
wait "$client_pid"
rc=$?
client_pid=
echo "--- scancmp's log (progress lines omitted), $(($(date +%s) - t1)) s after the kill"
sed 's/\x1b\[K/\n/g' "$T/scan.err" | tr '\r' '\n' | grep -v '^run [0-9]* [a-z]*: [0-9]*/\|^$' | tee "$T/log"
[ "$rc" -eq 1 ] || die "scancmp whose server died exited $rc, wanted 1"
grep -q '^scancmp: error: ' "$T/log" || die "no 'scancmp: error:' line"
[ "$(grep -c '^scancmp: error: ' "$T/log")" -eq 1 ] || die "more than one error line"
# libmongoc's own complaints about the dead connection ("stream: Failed to buffer 4 bytes") belong to -v:
# the error line already says what failed
grep -q 'libmongoc' "$T/log" && die "libmongoc's log reached the default output: $(grep libmongoc "$T/log")"
err=$(grep '^scancmp: error: ' "$T/log")
case "$err" in *detail*bill_detail* | *bill_detail*) ;; *) die "the error does not name the layout or collection: $err" ;; esac
case "$err" in *127.0.0.1* | *server* | *connect* | *socket*) ;; *) die "the error does not say the server failed: $err" ;; esac
[ ! -e "$T/run.json" ] || die "a results file was written for a scan that failed: $(head -c 300 "$T/run.json")"
[ -s "$T/summary.json" ] || die "no --json summary for the failed scan"
grep -q '"exit_code" : 1' "$T/summary.json" || die "the summary does not record exit 1: $(cat "$T/summary.json")"
grep -q '"results"' "$T/summary.json" && die "the summary of a failed scan carries results"
[ -z "$(cat "$T/scan.out")" ] || die "a failed scan printed a table: $(cat "$T/scan.out")"

"$S" start --dir "$T/srv" >/dev/null || die "cannot start the server again"
"${SCAN[@]}" --runs 1 --keys-limit 5 --progress never >"$T/scan.out" 2>"$T/scan.err" ||
  die "the scan after the restart failed: $(cat "$T/scan.err")"
[ -s "$T/run.json" ] || die "the scan after the restart wrote no results file"
echo "server death mid-scan: exit 1, one error, no results file; after a restart the scan succeeds" \
  "($(($(date +%s) - t0)) s)"
