#!/usr/bin/env bash
# kill_trials.sh -- SIGKILL at random points of `billgen import` and of `fold-details` on the embedded
# store, each trial seeded so a failure names what reproduces it.
#
# What the tools promise after a SIGKILL, and what each trial checks:
#
#  import  One store is reused by every trial: each trial runs `billgen import --drop` of the same CSV
#          over what the previous trial left, and is killed. Afterwards
#            - the store reopens (WiredTiger recovery): `billgen export` of the collection succeeds, or
#              says the collection does not exist (the kill came before it was created) or is empty
#              (the kill came before its first transaction committed);
#            - the collection is a consistent prefix of the input: its export is exactly the CSV's first
#              K rows (the CSV is in _id order, export writes _id order), K ending on a transaction:
#              the embedded store writes an insert batch (--batch-docs) in transactions of at most 64
#              documents, as mongod does (internalInsertMaxBatchSize, store/wt_private.h WT_GROUP_DOCS),
#              so K = whole batches + whole groups of 64 of the next batch, or every row;
#            - when every row is there, the key index is either absent (fold-details refuses the source
#              for its missing index) or complete (a fold through it reads every row);
#          a killed import keeps its partial collection (a kill leaves no chance to drop it): the remedy
#          is to run the import again with --drop, which every next trial does and which must end,
#          after the last trial, with the full count and an export identical to the CSV.
#  fold    One source is folded by every trial with --drop-dst (--parallel 1 or 2 by trial, each into
#          its own destination; small write batches so checkpoints are frequent), killed; then
#          `fold-details --resume --verify` with the same settings must exit 0 and say "verify: equal".
#          (Each --parallel has its own destination because a kill that lands before --drop-dst has
#          dropped the last trial's finished fold leaves that fold's settings, and --resume refuses
#          other settings than those of the fold it finds, with exit 2.)
#
# Kill points are events of the tool's own output, never times: each trial runs the tool with
# --progress always and sends SIGKILL the moment its stderr shows the trial's point -- "start" (the tool
# has been exec'd: before the store is open), "rows N" (the progress line shows at least N rows written:
# mid-write; N = the total is the line after the last row, once the index is built), or "summary" (the
# tool's closing line: the store is being closed and checkpointed; the tool may end first, exit 0). The
# point of trial t of N is drawn from the seed, stratified over the run: x = (t + u) / N, u in [0, 1)
# from the seed and t; x < 5% start, x < 92.5% rows (x - 5%) / 87.5% of the total, else summary. So the
# kills spread over the whole run whatever the seed, and however slowly a loaded machine runs the tool,
# every trial before the summary kills it mid-run: at least a third of each tool's trials must have been
# killed (exit 137), else the test could not fail and says so. Reproduce a failure with the --seed and
# --trial it prints.
#
# Usage: kill_trials.sh [--seed S] [--trials N] [--bills N] [--only import|fold] [--trial T] [--keep]
# Needs LAB_BIN_DIR (billgen, fold-details); LAB_TEST_TMP for scratch space.
set -uo pipefail

B="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}"
seed=${LAB_KILL_SEED:-$(((RANDOM << 15) | RANDOM))}
trials=20
bills=600
only=
one=
keep=
while [ $# -gt 0 ]; do
  case "$1" in
  --seed) seed=$2; shift 2 ;;
  --trials) trials=$2; shift 2 ;;
  --bills) bills=$2; shift 2 ;;
  --only) only=$2; shift 2 ;;
  --trial) one=$2; shift 2 ;;
  --keep) keep=1; shift ;;
  -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "kill_trials.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/kill-trials-XXXXXX")
mkfifo "$T/pause"
exec 7<>"$T/pause" # run_killed's pause (read -t on a FIFO nobody writes to)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  if [ -n "$keep" ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
fails=0
CACHE=(--cache-size 64MiB)
BATCH=500 # import's --batch-docs
GROUP=64  # documents per write transaction within a batch (WT_GROUP_DOCS)

echo "kill_trials: seed $seed, $trials trials per tool, $bills bills (reproduce: $0 --seed $seed)"

# fail TOOL TRIAL MSG -- record a failure with what reproduces it.
fail() {
  echo "FAIL [$1 trial $2, seed $seed, kill at ${point:-?}]: $3" >&2
  echo "  reproduce: $0 --seed $seed --only $1 --trial $2 --bills $bills --trials $trials" >&2
  fails=$((fails + 1))
}

# now_ms -- wall clock in milliseconds (reported, never decisive).
now_ms() { date +%s%3N; }

# frac SEED TRIAL -- a number in [0, 1000) mixed from the seed and the trial (splitmix64's finaliser).
frac() {
  local x=$(($1 * 6364136223846793005 + ($2 + 1) * 1442695040888963407))
  x=$(((x ^ ((x >> 30) & 0x3ffffffff)) * -4658895280553007687))
  x=$(((x ^ ((x >> 27) & 0x1fffffffff)) * -7723592293110705685))
  x=$((x ^ ((x >> 31) & 0x1ffffffff)))
  echo $(((x % 1000 + 1000) % 1000))
}

# point_of TRIAL -- the trial's kill point (see the top), from the seed: start, rows N or summary.
point_of() {
  local x=$((($1 * 1000 + $(frac "$seed" "$1")) * 1000 / (trials * 1000))) # per mille of the run
  if [ "$x" -lt 50 ]; then
    echo start
  elif [ "$x" -lt 925 ]; then
    echo "rows $(((x - 50) * (total - 1) / 875 + 1))"
  else
    echo summary
  fi
}

# alive PID -- process PID runs (a zombie, ended and not yet waited for, does not). No fork: the watch
# loops below poll it as fast as the shell can.
alive() {
  local st
  { read -r st <"/proc/$1/stat"; } 2>/dev/null || return 1
  st=${st##*) } # the command name, in parentheses, may hold spaces
  [ "${st%% *}" != Z ]
}

# hit POINT LABEL SUMMARY TEXT -- TEXT (output lines, progress redraws split at carriage returns) shows
# POINT: a progress line "LABEL: N ..." with at least N rows, or a line starting with SUMMARY.
hit() {
  local line n
  while IFS= read -r line; do
    case "$1" in
    rows*)
      [[ "$line" == "$2: "[0-9]* ]] || continue
      n=${line#"$2: "}
      n=${n%%[!0-9]*}
      [ "$n" -ge "${1#rows }" ] && return 0
      ;;
    summary) [[ "$line" == "$3"* ]] && return 0 ;;
    esac
  done <<<"${4//$'\r'/$'\n'}"
  return 1
}

# shows POINT LABEL SUMMARY -- the whole output of the last run ($T/run.err, $T/run.out) shows POINT.
shows() { hit "$1" "$2" "$3" "$(cat "$T/run.err" "$T/run.out")"; }

# run_killed POINT LABEL SUMMARY CMD... -- start CMD (stdout line-buffered, so its summary line shows when
# printed; stdout/stderr to $T/run.out, $T/run.err) and SIGKILL it the moment it reaches POINT (see hit;
# start: once CMD has been exec'd), unless it ended first; $rc is its exit status (137 when killed). The
# watch reads the output as it grows, without forking, so the kill follows the event closely.
run_killed() {
  local point=$1 label=$2 summary=$3 exe=$4 chunk text=
  shift 3
  : >"$T/run.out"
  : >"$T/run.err"
  exec 5<"$T/run.err" 6<"$T/run.out"
  stdbuf -oL "$@" >"$T/run.out" 2>"$T/run.err" &
  pid=$!
  while alive "$pid"; do
    if [ "$point" = start ]; then
      [ "/proc/$pid/exe" -ef "$exe" ] && break
      continue
    fi
    # what was written since the last look (at the end of a file, read returns what it got)
    chunk=
    IFS= read -r -d '' chunk <&5
    text+=$chunk
    chunk=
    IFS= read -r -d '' chunk <&6
    text+=$chunk
    hit "$point" "$label" "$summary" "$text" && break
    read -r -t 0.002 -u 7 # a 2 ms pause without a fork: nothing is ever written to this FIFO
  done
  exec 5<&- 6<&-
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null # (not the shell's "Killed" notice)
  rc=$?
  pid=
}

# trial_list -- the trials to run: all, or the one of --trial.
trial_list() { if [ -n "$one" ]; then echo "$one"; else seq 0 $((trials - 1)); fi; }

# enough_killed TOOL KILLED -- the trials must have cut runs short, else they tested nothing.
enough_killed() {
  [ -n "$one" ] && return 0
  if [ "$2" -lt $(((trials + 2) / 3)) ]; then
    echo "FAIL [$1]: only $2 of $trials runs were killed before they ended: the trials test nothing" >&2
    fails=$((fails + 1))
  fi
}

# ---- the data: a store with the source, and its CSV ------------------------------------------------
SRC="wiredtiger:$T/src"
t0=$(now_ms)
"$B/billgen" generate --uri "$SRC" "${CACHE[@]}" --bills "$bills" --mean-rows 12 --seed 7 --drop \
  --progress never 2>"$T/gen.err" || { cat "$T/gen.err" >&2; exit 1; }
"$B/billgen" export --uri "$SRC" "${CACHE[@]}" --src bill_detail -o "$T/bills.csv" --progress never -q \
  2>"$T/exp.err" || { cat "$T/exp.err" >&2; exit 1; }
total=$(($(wc -l <"$T/bills.csv") - 1))
echo "data: $total rows, $(($(stat -c %s "$T/bills.csv") / 1024)) KiB of CSV, made in $(($(now_ms) - t0)) ms"

# ---- import -----------------------------------------------------------------------------------------
IMP="wiredtiger:$T/imp"
IMPORT=("$B/billgen" import --uri "$IMP" "${CACHE[@]}" --headerline --columns-have-types --drop
  --batch-docs "$BATCH" --progress always "$T/bills.csv")

# check_import TRIAL -- the collection left by a killed import is a consistent prefix (see the top);
# $rows is how many rows it holds (0: no collection, -1: the store did not open).
check_import() {
  local t=$1 out
  if ! "$B/billgen" export --uri "$IMP" "${CACHE[@]}" --src bill_detail -o "$T/imp.csv" --progress never -q \
    2>"$T/chk.err"; then
    # no collection (killed before it was created), or an empty one (killed before its first
    # transaction committed): a prefix of 0 rows
    if grep -q -e "collection 'bill_detail' does not exist" -e "collection 'bill_detail' is empty" "$T/chk.err"; then
      rows=0
      return 0
    fi
    fail import "$t" "the store does not reopen after the kill: $(cat "$T/chk.err")"
    rows=-1
    return 1
  fi
  rows=$(($(wc -l <"$T/imp.csv") - 1))
  if [ "$rows" -gt 0 ] && ! head -n $((rows + 1)) "$T/bills.csv" | cmp -s - "$T/imp.csv"; then
    fail import "$t" "the $rows rows left are not the input's first $rows rows: $(head -n $((rows + 1)) \
      "$T/bills.csv" | cmp - "$T/imp.csv" 2>&1)"
  elif [ "$rows" -ne "$total" ] && [ $((rows % BATCH % GROUP)) -ne 0 ]; then
    fail import "$t" "$rows rows left: not whole $BATCH-row batches plus whole $GROUP-document transactions (a torn transaction)"
  elif [ "$rows" -eq "$total" ]; then
    # all rows are in: the key index is absent or complete
    out=$("$B/fold-details" --uri "$IMP" "${CACHE[@]}" --src bill_detail --dst killchk --drop-dst \
      --hoist none --progress never 2>&1)
    case "$?:$out" in
    0:*"folded $total rows"*) ;;
    *"index"*"missing"* | *"no index"* | *"--create-index"*) ;;
    *) fail import "$t" "all $total rows are in but the fold through the key index says: $out" ;;
    esac
  fi
}

if [ -z "$only" ] || [ "$only" = import ]; then
  t0=$(now_ms)
  "${IMPORT[@]}" >"$T/run.out" 2>"$T/run.err" || { cat "$T/run.err" >&2; exit 1; }
  # the events the kills wait for must be in the tool's output, else every trial would run to its end
  shows "rows $total" importing "billgen: imported" && shows summary importing "billgen: imported" ||
    { echo "FAIL: the import's output lacks the progress or summary lines the kills wait for:" >&2; tr '\r' '\n' <"$T/run.err" | tail -5 >&2; exit 1; }
  echo "import: a whole run took $(($(now_ms) - t0)) ms"
  killed=0
  for t in $(trial_list); do
    point=$(point_of "$t")
    run_killed "$point" importing "billgen: imported" "${IMPORT[@]}"
    if [ "$rc" -ne 137 ] && [ "$rc" -ne 0 ]; then
      fail import "$t" "the import exited $rc by itself: $(tail -3 "$T/run.err")"
      continue
    fi
    [ "$rc" -eq 137 ] && killed=$((killed + 1))
    check_import "$t"
    printf 'import trial %2d: kill at %-10s exit %3d, %6s rows left\n' "$t" "$point," "$rc" "$rows"
  done
  enough_killed import "$killed"
  # the remedy: the import again with --drop over whatever the last kill left
  if "${IMPORT[@]}" >"$T/run.out" 2>"$T/run.err" &&
    "$B/billgen" export --uri "$IMP" "${CACHE[@]}" --src bill_detail -o "$T/imp.csv" --progress never -q \
      2>"$T/chk.err" && cmp -s "$T/bills.csv" "$T/imp.csv"; then
    echo "import: the import again with --drop gives all $total rows, identical"
  else
    fail import end "the import again with --drop: $(cat "$T/run.err" "$T/chk.err")"
  fi
fi

# ---- fold -------------------------------------------------------------------------------------------
# fold_cmd TRIAL -- the fold of this trial (parallel 1 or 2 by trial), without --drop-dst/--resume.
fold_cmd() {
  local par=$(($1 % 2 + 1))
  FOLD=("$B/fold-details" --uri "$SRC" "${CACHE[@]}" --src bill_detail --dst "killfold$par" --batch-docs 40
    --parallel "$par")
}

if [ -z "$only" ] || [ "$only" = fold ]; then
  fold_cmd 0
  t0=$(now_ms)
  "${FOLD[@]}" --drop-dst --progress always >"$T/run.out" 2>"$T/run.err" || { cat "$T/run.err" >&2; exit 1; }
  # the events the kills wait for must be in the tool's output, else every trial would run to its end
  shows "rows $total" folding "folded " && shows summary folding "folded " ||
    { echo "FAIL: the fold's output lacks the progress or summary lines the kills wait for:" >&2; tr '\r' '\n' <"$T/run.err" | tail -5 >&2; exit 1; }
  echo "fold: a whole run took $(($(now_ms) - t0)) ms"
  killed=0
  for t in $(trial_list); do
    point=$(point_of "$t")
    fold_cmd "$t"
    run_killed "$point" folding "folded " "${FOLD[@]}" --drop-dst --progress always
    if [ "$rc" -ne 137 ] && [ "$rc" -ne 0 ]; then
      fail fold "$t" "the fold exited $rc by itself: $(tail -3 "$T/run.err")"
      continue
    fi
    [ "$rc" -eq 137 ] && killed=$((killed + 1))
    "${FOLD[@]}" --resume --verify --progress never >"$T/res.out" 2>"$T/res.err"
    rrc=$?
    if [ "$rrc" -ne 0 ] || ! grep -q "^verify: equal: $total source rows" "$T/res.out"; then
      fail fold "$t" "--resume --verify after the kill exited $rrc: $(cat "$T/res.out") $(tail -5 "$T/res.err")"
    fi
    # how far the killed run had come: the rows the resumed run still had to fold
    left=$(sed -n 's/^folded \([0-9]*\) rows.*/\1/p' "$T/res.out")
    printf 'fold trial %2d: kill at %-10s exit %3d, --resume --verify exit %d after folding %s of %d rows\n' \
      "$t" "$point," "$rc" "$rrc" "${left:-?}" "$total"
  done
  enough_killed fold "$killed"
fi

if [ "$fails" -gt 0 ]; then
  echo "kill_trials: $fails failure(s), seed $seed" >&2
  exit 1
fi
echo "kill_trials: passed, seed $seed"
