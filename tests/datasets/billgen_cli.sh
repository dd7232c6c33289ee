#!/usr/bin/env bash
# billgen_cli.sh -- CLI tests of billgen on the embedded store: usage errors, determinism, --drop, the
# export -> import round trip (plain, zstd, stdin), CSV edge cases through the whole tool, the three
# --parse-grace modes with exact reject-file contents, truncated/corrupt zstd refused with nothing left
# behind, --append/--parse-only, --oversize, and the committed sample.
#
# Needs LAB_BIN_DIR (ctest sets it) and LAB_SOURCE_DIR; LAB_TEST_TMP for scratch space.
set -uo pipefail

B="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}/billgen"
SRC="${LAB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/billgen-cli-XXXXXX")
trap 'rm -rf "$T"' EXIT
export LAYOUTLAB_URI="wiredtiger:$T/wt"
fails=0
ntests=0

fail () {
  echo "FAIL: $*" >&2
  echo "  --- stdout:" >&2; sed 's/^/  /' "$T/out" >&2 2>/dev/null | head -20
  echo "  --- stderr:" >&2; sed 's/^/  /' "$T/err" >&2 2>/dev/null | head -20
  fails=$((fails + 1))
}

# run CMD... -- run, keeping stdout/stderr in $T/out, $T/err and the exit code in $rc
run () { "$@" >"$T/out" 2>"$T/err"; rc=$?; ntests=$((ntests + 1)); }

# expect RC CMD... -- run and check the exit code
expect () { local want=$1; shift; run "$@"; [ "$rc" = "$want" ] || fail "exit $rc, wanted $want: $*"; }

# has FILE TEXT -- FILE contains TEXT (fixed string)
has () { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }

# json_int FILE KEY -- an integer value of the pretty JSON summary
json_int () { sed -n "s/^ *\"$2\" : \\(-\\{0,1\\}[0-9]*\\).*/\\1/p" "$1" | head -1; }

# same A B -- identical files
same () { cmp -s "$1" "$2" || { fail "$1 and $2 differ"; diff <(head -c 3000 "$1") <(head -c 3000 "$2") | head -10 >&2; }; }

# ---- usage ------------------------------------------------------------------------------------------
expect 0 "$B" --help;                      has "$T/out" "generate"
expect 0 "$B" generate --help;             has "$T/out" "Examples:"; has "$T/out" "--oversize K"
expect 0 "$B" import --help;               has "$T/out" "FILE:LINE:COL: reason"; has "$T/out" "skip-field"
expect 0 "$B" export --help;               has "$T/out" "name.type()"
expect 2 "$B";                             has "$T/err" "Usage: billgen COMMAND"
expect 2 "$B" frobnicate;                  has "$T/err" "unknown command 'frobnicate'"
expect 2 "$B" generate --dist bogus;       has "$T/err" "--dist: 'bogus' is not one of"
expect 2 "$B" generate --bills;            has "$T/err" "needs a value"
expect 2 "$B" generate --dist uniform --mean-rows 6000; has "$T/err" "--mean-rows"
expect 2 "$B" generate --key _id;          has "$T/err" "--key '_id'"
expect 2 "$B" generate --preset seed --bills 5; has "$T/err" "--preset seed sets --bills itself"
expect 2 "$B" generate --scale 0.1;         has "$T/err" "add --preset seed"
expect 2 "$B" generate --preset big;        has "$T/err" "'big' is not a preset"
expect 2 "$B" generate --preset seed --scale 0.000001; has "$T/err" "0 masters"
expect 2 "$B" import --headerline --parse-grace skip x.csv; has "$T/err" "stop, skip-row, skip-field"
expect 2 "$B" import x.csv;                has "$T/err" "--headerline or --fields"
expect 2 "$B" import --headerline --fields a,b x.csv; has "$T/err" "exclude each other"
expect 2 "$B" import --headerline;         has "$T/err" "no input"
expect 2 "$B" import --fields a.int32 --columns-have-types "$T/none.csv"; has "$T/err" "type()"
[ -e "$T/wt" ] && fail "usage errors must not create the store"

# ---- generate: determinism, --drop -------------------------------------------------------------------
U1="wiredtiger:$T/wt1"; U2="wiredtiger:$T/wt2"
expect 0 "$B" generate --uri "$U1" --bills 40 --seed 5 --json "$T/g1.json"
rows=$(json_int "$T/g1.json" rows)
[ "$(json_int "$T/g1.json" bills)" = 40 ] || fail "generate json: bills"
[ "${rows:-0}" -gt 2000 ] || fail "generate json: rows=$rows"
expect 0 "$B" export --uri "$U1" -o "$T/a1.csv"
[ "$(($(wc -l <"$T/a1.csv") - 1))" = "$rows" ] || fail "export rows != generated rows"
# an output that is not a regular file (a FIFO; /dev/null alike) is written in place: a temporary file
# renamed over it would replace it (once /dev/null became a regular file for the whole machine)
mkfifo "$T/fifo"
timeout 30 cat "$T/fifo" >"$T/from-fifo.csv" &
reader=$!
expect 0 "$B" export --uri "$U1" -o "$T/fifo"
[ -p "$T/fifo" ] || kill "$reader" 2>/dev/null  # replaced: the reader would wait forever
wait "$reader" 2>/dev/null
[ -p "$T/fifo" ] || fail "export -o FIFO replaced the FIFO with a file"
cmp -s "$T/from-fifo.csv" "$T/a1.csv" || fail "export -o FIFO: the reader did not get the CSV"
ls "$T"/fifo.tmp.* >/dev/null 2>&1 && fail "export -o FIFO left a temporary file"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
# export reads: a home that does not exist is an error, and stays absent (it made an empty store once)
expect 1 "$B" export --uri "wiredtiger:$T/nohome" -o "$T/nohome.csv"
has "$T/err" "WiredTiger home '$T/nohome' does not exist"
[ ! -e "$T/nohome" ] || fail "export created the missing home $T/nohome"
mkdir -p "$T/nostores"
run bash -c "cd '$T/nostores' && '$B' export --uri wiredtiger:./layoutlab-data -o x.csv"
has "$T/err" "no store is under the current directory"
# ... and names the stores it finds under the current directory, the demo's (next to run.json) said so
mkdir -p "$T/cwd/out" && cp -r "$T/wt1" "$T/cwd/out/layoutlab-data" && touch "$T/cwd/out/run.json"
run bash -c "cd '$T/cwd' && '$B' export --uri wiredtiger:./layoutlab-data -o x.csv"
[ "$rc" = 1 ] || fail "export from a missing default store: exit $rc"
has "$T/err" "WiredTiger home './layoutlab-data' does not exist (tools that write create it). Stores under the current directory: out/layoutlab-data (a scripts/demo.sh store, next to its run.json); name one with --uri wiredtiger:DIR"
has "$T/a1.csv" "_id.objectid(),bill_id.int64(),patient_id.string(),patient_name.string(),age.int32()"
has "$T/a1.csv" "qty.double(),unit_price.double(),amount.double(),charge_time.date()"
expect 0 "$B" generate --uri "$U2" --bills 40 --seed 5 --progress never
expect 0 "$B" export --uri "$U2" -o "$T/a2.csv"
same "$T/a1.csv" "$T/a2.csv"                      # same seed, same documents, same order
# the --json summary: the common header (docs/json-summary.md), then billgen's own fields
has "$T/g1.json" '"tool" : "billgen"'
has "$T/g1.json" '"subcommand" : "generate"'
has "$T/g1.json" '"command_line" : ['
has "$T/g1.json" '"started" : "20'
[ "$(json_int "$T/g1.json" exit_code)" = 0 ] || fail "generate json: exit_code"
expect 1 "$B" generate --uri "$U1" --bills 40 --seed 6 --json "$T/gfail.json"
has "$T/err" "collection 'bill_detail' already holds $rows documents: add --drop to replace it"
[ "$(json_int "$T/gfail.json" exit_code)" = 1 ] || fail "failed generate json: exit_code"
has "$T/gfail.json" '"ok" : false'
has "$T/gfail.json" "already holds $rows documents"
expect 0 "$B" export --uri "$U1" -o "$T/a1b.csv"
same "$T/a1.csv" "$T/a1b.csv"                     # the refused run changed nothing
expect 0 "$B" generate --uri "$U2" --bills 40 --seed 6 --drop
expect 0 "$B" export --uri "$U2" -o "$T/a3.csv"
cmp -s "$T/a1.csv" "$T/a3.csv" && fail "another seed gave the same data"
# clustered: the same rows, only _id (and so the order) differs
expect 0 "$B" generate --uri "$U2" --bills 40 --seed 5 --order clustered --dst clustered
expect 0 "$B" export --uri "$U2" --src clustered -o "$T/c.csv"
cmp -s "$T/a1.csv" "$T/c.csv" && fail "clustered export equals interleaved"
diff <(cut -d, -f2- "$T/a1.csv" | sort) <(cut -d, -f2- "$T/c.csv" | sort) >/dev/null ||
  fail "clustered and interleaved rows differ beyond _id"
# --key renames the field and indexes it
expect 0 "$B" generate --uri "$U2" --bills 5 --key master_no --dst keyed
expect 0 "$B" export --uri "$U2" --src keyed -o "$T/k.csv"
has "$T/k.csv" "_id.objectid(),master_no.int64(),"

# ---- round trip: export (zstd) -> import -> export, and plain/zstd/stdin give the same ------------------
expect 0 "$B" export --uri "$U1" -o "$T/a1.csv.zst"
[ "$(head -c 4 "$T/a1.csv.zst" | od -An -tx1 | tr -d ' ')" = "28b52ffd" ] || fail "a1.csv.zst is not zstd"
expect 0 "$B" import --uri "$U1" --dst copy_zst --headerline --columns-have-types --json "$T/i1.json" "$T/a1.csv.zst"
[ "$(json_int "$T/i1.json" rows)" = "$rows" ] || fail "import json rows"
[ "$(json_int "$T/i1.json" bills)" = 40 ] || fail "import json bills"
[ "$(json_int "$T/i1.json" rejects)" = 0 ] || fail "import json rejects"
expect 0 "$B" export --uri "$U1" --src copy_zst -o "$T/r1.csv"
same "$T/a1.csv" "$T/r1.csv"
expect 0 "$B" import --uri "$U1" --dst copy_plain --headerline --columns-have-types "$T/a1.csv"
expect 0 "$B" export --uri "$U1" --src copy_plain -o "$T/r2.csv"
same "$T/a1.csv" "$T/r2.csv"
run bash -c "cat '$T/a1.csv.zst' | '$B' import --uri '$U1' --dst copy_stdin --headerline --columns-have-types -"
[ "$rc" = 0 ] || fail "import from stdin (zstd)"
expect 0 "$B" export --uri "$U1" --src copy_stdin -o "$T/r3.csv"
same "$T/a1.csv" "$T/r3.csv"
# a named pipe (not seekable, cannot be reopened): opened once, its magic sniffed and parsed from the same
# stream (the writer is killed if the import never opens the pipe, so a regression fails instead of hanging)
mkfifo "$T/pipe"
cat "$T/a1.csv.zst" >"$T/pipe" & writer=$!
run timeout 120 "$B" import --uri "$U1" --dst copy_fifo --headerline --columns-have-types --json "$T/fifo.json" "$T/pipe"
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
[ "$rc" = 0 ] || fail "import from a named pipe: exit $rc"
[ "$(json_int "$T/fifo.json" rows)" = "$rows" ] || fail "named pipe: rows"
expect 0 "$B" export --uri "$U1" --src copy_fifo -o "$T/r5.csv"
same "$T/a1.csv" "$T/r5.csv"
# many inputs: each regular file is checked up front but held open only while it is read, so 300 inputs
# import under a 64-descriptor limit
mkdir "$T/many"
tail -n +2 "$T/a1.csv" >"$T/a1.rows"
split -n l/300 -d -a 3 "$T/a1.rows" "$T/many/part-"
[ "$(ls "$T/many" | wc -l)" = 300 ] || fail "split made $(ls "$T/many" | wc -l) parts, not 300"
run bash -c "ulimit -n 64 && '$B' import --uri '$U1' --dst copy_many --columns-have-types \
  --fields '$(head -1 "$T/a1.csv")' --json '$T/many.json' '$T'/many/part-*"
[ "$rc" = 0 ] || { fail "import of 300 files under ulimit -n 64: exit $rc"; cat "$T/err" >&2; }
[ "$(json_int "$T/many.json" rows)" = "$rows" ] || fail "300 files: rows"
expect 0 "$B" export --uri "$U1" --src copy_many -o "$T/r6.csv"
same "$T/a1.csv" "$T/r6.csv"
# a file whose name says nothing: detected by its magic bytes
cp "$T/a1.csv.zst" "$T/noext"
expect 0 "$B" import --uri "$U1" --dst copy_noext --headerline --columns-have-types "$T/noext"
expect 0 "$B" export --uri "$U1" --src copy_noext -o "$T/r4.csv"
same "$T/a1.csv" "$T/r4.csv"

# ---- CSV edge cases through the tool: BOM, CRLF, quoted commas/quotes/newlines, empty fields --------
printf '\xef\xbb\xbf_id.objectid(),id.int32(),name.string(),price.double(),when.date(),ok.boolean(),big.int64(),m.decimal()\r\n' >"$T/edge.csv"
printf '000000000000000000000001,1,"Smith, John",1.5,2024-03-05T08:15:00Z,true,9007199254740993,12.50\r\n' >>"$T/edge.csv"
printf '000000000000000000000002,2,"say ""hi""",2,2024-03-05,false,-1,0.1\r\n' >>"$T/edge.csv"
printf '000000000000000000000003,3,"two\r\nlines",3.25,2024-03-05T08:15:00.5+08:00,1,0,-0\r\n' >>"$T/edge.csv"
printf '000000000000000000000004,4,,4,,,,\r\n' >>"$T/edge.csv"
printf '000000000000000000000005,5,"",5,2024-01-01T00:00:00Z,f,5,1E+3\r\n' >>"$T/edge.csv"
printf '000000000000000000000006,6,张伟 住院,0.1,2024-01-01T00:00:00Z,F,6,7' >>"$T/edge.csv"   # no final newline
expect 0 "$B" import --uri "$U1" --dst edge --no-index --headerline --columns-have-types "$T/edge.csv"
expect 0 "$B" export --uri "$U1" --src edge -o "$T/edge.out"
{
  printf '_id.objectid(),id.int32(),name.string(),price.double(),when.date(),ok.boolean(),big.int64(),m.decimal()\n'
  printf '000000000000000000000001,1,"Smith, John",1.5,2024-03-05T08:15:00Z,true,9007199254740993,12.50\n'
  printf '000000000000000000000002,2,"say ""hi""",2,2024-03-05T00:00:00Z,false,-1,0.1\n'
  printf '000000000000000000000003,3,"two\r\nlines",3.25,2024-03-05T00:15:00.500Z,true,0,-0\n'
  printf '000000000000000000000004,4,,4,,,,\n'
  printf '000000000000000000000005,5,"",5,2024-01-01T00:00:00Z,false,5,1E+3\n'
  printf '000000000000000000000006,6,张伟 住院,0.1,2024-01-01T00:00:00Z,false,6,7\n'
} >"$T/edge.want"
same "$T/edge.want" "$T/edge.out"
# untyped header: mongoimport's auto typing, and --fields for headerless files (files without the key:
# --no-index, see "the key column" below)
printf 'a,b,c\n1,2.5,x\n-7,-3.5,\n' >"$T/auto.csv"
expect 0 "$B" import --uri "$U1" --dst auto --no-index --headerline "$T/auto.csv"
expect 0 "$B" export --uri "$U1" --src auto -o "$T/auto.out"
head -1 "$T/auto.out" | grep -q '^_id.objectid(),a.int32(),b.double(),c.string()$' || fail "auto types: $(head -1 "$T/auto.out")"
has "$T/auto.out" ",-7,-3.5,"
# an auto column that holds int32 and int64 cannot be one typed CSV column: refused, no file left
printf 'a\n1\n4294967296\n' >"$T/mixed.csv"
expect 0 "$B" import --uri "$U1" --dst mixed --no-index --headerline "$T/mixed.csv"
expect 1 "$B" export --uri "$U1" --src mixed -o "$T/mixed.out"
has "$T/err" "field 'a' is int64 here but int32 in earlier documents"
expect 1 "$B" export --uri "$U1" --src mixed --sample 1 -o "$T/mixed.out"
has "$T/err" "field 'a' is int64 here but int32 in the header"
[ -e "$T/mixed.out" ] && fail "a failed export left its file"
ls "$T" | grep -q 'mixed.out.tmp' && fail "a failed export left its temporary file"
printf '1,x\n2,y\n' >"$T/nohead.csv"
expect 0 "$B" import --uri "$U1" --dst nohead --no-index --fields n,s "$T/nohead.csv"
expect 0 "$B" export --uri "$U1" --src nohead -o "$T/nohead.out"
[ "$(wc -l <"$T/nohead.out")" = 3 ] || fail "--fields import row count"

# ---- parse grace and the reject file ---------------------------------------------------------------
{
  printf 'id.int32(),qty.double(),name.string()\n'
  printf '1,1.5,ok\n'
  printf '2,abc,bad-double\n'
  printf '3,2.5,ab"c\n'
  printf '4,3.5,x,extra\n'
  printf '5,4.5,\xffbad\n'
  printf '6,5.5,fine\n'
  printf '7,6.5\n'
} >"$T/bad.csv"
BAD="$T/bad.csv"
expect 1 "$B" import --uri "$U1" --dst g_stop --no-index --headerline --columns-have-types --reject "$T/stop.rej" "$BAD"
has "$T/err" "$BAD:3:3: field 2 'qty': 'abc' is not a valid double (--parse-grace stop)"
has "$T/err" "collection 'g_stop' dropped"
printf '%s:3:3: field 2 '"'"'qty'"'"': '"'"'abc'"'"' is not a valid double\n2,abc,bad-double\n' "$BAD" >"$T/stop.want"
same "$T/stop.want" "$T/stop.rej"
expect 1 "$B" export --uri "$U1" --src g_stop -o "$T/x.csv"
has "$T/err" "collection 'g_stop' does not exist"

expect 0 "$B" import --uri "$U1" --dst g_row --no-index --headerline --columns-have-types --parse-grace skip-row \
  --reject "$T/row.rej" --json "$T/row.json" "$BAD"
{
  printf '%s:3:3: field 2 '"'"'qty'"'"': '"'"'abc'"'"' is not a valid double\n2,abc,bad-double\n' "$BAD"
  printf '%s:4:9: a quote inside an unquoted field (quote the whole field and double the quote: "a""b")\n3,2.5,ab"c\n' "$BAD"
  printf '%s:5:9: row has 4 fields, the header has 3\n4,3.5,x,extra\n' "$BAD"
  printf '%s:6:7: field 3 '"'"'name'"'"': invalid UTF-8 or NUL byte (0xff) in a string value\n5,4.5,\xffbad\n' "$BAD"
  printf '%s:8:6: row has 2 fields, the header has 3\n7,6.5\n' "$BAD"
} >"$T/row.want"
same "$T/row.want" "$T/row.rej"
[ "$(json_int "$T/row.json" rows)" = 2 ] || fail "skip-row rows"
[ "$(json_int "$T/row.json" rows_read)" = 7 ] || fail "skip-row rows_read"
[ "$(json_int "$T/row.json" rejects)" = 5 ] || fail "skip-row rejects"
expect 0 "$B" export --uri "$U1" --src g_row -o "$T/row.out"
[ "$(cut -d, -f2- "$T/row.out" | tr '\n' '|')" = "id.int32(),qty.double(),name.string()|1,1.5,ok|6,5.5,fine|" ] ||
  fail "skip-row kept the wrong rows: $(cat "$T/row.out")"

expect 0 "$B" import --uri "$U1" --dst g_field --no-index --headerline --columns-have-types --parse-grace skip-field \
  --reject "$T/field.rej" --json "$T/field.json" "$BAD"
{
  printf '%s:3:3: field left out (skip-field): field 2 '"'"'qty'"'"': '"'"'abc'"'"' is not a valid double\n2,abc,bad-double\n' "$BAD"
  printf '%s:4:9: a quote inside an unquoted field (quote the whole field and double the quote: "a""b")\n3,2.5,ab"c\n' "$BAD"
  printf '%s:5:9: row has 4 fields, the header has 3\n4,3.5,x,extra\n' "$BAD"
  printf '%s:6:7: field left out (skip-field): field 3 '"'"'name'"'"': invalid UTF-8 or NUL byte (0xff) in a string value\n5,4.5,\xffbad\n' "$BAD"
  printf '%s:8:6: row has 2 fields, the header has 3\n7,6.5\n' "$BAD"
} >"$T/field.want"
same "$T/field.want" "$T/field.rej"
[ "$(json_int "$T/field.json" rows)" = 4 ] || fail "skip-field rows"
[ "$(json_int "$T/field.json" rejects)" = 3 ] || fail "skip-field rejects"
[ "$(json_int "$T/field.json" fields_skipped)" = 2 ] || fail "skip-field fields_skipped"
expect 0 "$B" export --uri "$U1" --src g_field -o "$T/field.out"
[ "$(cut -d, -f2- "$T/field.out" | tr '\n' '|')" = "id.int32(),qty.double(),name.string()|1,1.5,ok|2,,bad-double|5,4.5,|6,5.5,fine|" ] ||
  fail "skip-field kept the wrong rows: $(cat "$T/field.out")"

# ---- truncated / corrupt zstd, missing input: refused, nothing left --------------------------------------
size=$(stat -c %s "$T/a1.csv.zst")
head -c $((size / 2)) "$T/a1.csv.zst" >"$T/cut.csv.zst"
expect 1 "$B" import --uri "$U1" --dst cut --headerline --columns-have-types "$T/cut.csv.zst"
has "$T/err" "cut.csv.zst' is a truncated zstd stream"
expect 1 "$B" export --uri "$U1" --src cut -o "$T/x.csv"; has "$T/err" "does not exist"
cp "$T/a1.csv.zst" "$T/corrupt.csv.zst"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$T/corrupt.csv.zst" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
expect 1 "$B" import --uri "$U1" --dst corrupt --headerline --columns-have-types "$T/corrupt.csv.zst"
has "$T/err" "corrupt zstd data"
expect 1 "$B" export --uri "$U1" --src corrupt -o "$T/x.csv"; has "$T/err" "does not exist"
expect 1 "$B" import --uri "$U1" --dst missing --headerline "$T/a1.csv" "$T/no-such.csv"
has "$T/err" "cannot open input '$T/no-such.csv'"
expect 1 "$B" export --uri "$U1" --src missing -o "$T/x.csv"; has "$T/err" "does not exist"
printf 'a.int32(),b.string()\n1,x\n' >"$T/h1.csv"; printf 'a.int32(),c.string()\n2,y\n' >"$T/h2.csv"
expect 1 "$B" import --uri "$U1" --dst hdr --no-index --headerline --columns-have-types "$T/h1.csv" "$T/h2.csv"
has "$T/err" "header differs from the first file's"

# ---- existing collections: --drop, --append; --parse-only writes nothing ---------------------------------
expect 1 "$B" import --uri "$U1" --dst copy_plain --headerline --columns-have-types "$T/a1.csv"
has "$T/err" "already holds $rows documents: add --drop to replace it or --append to add to it"
printf '_id.objectid(),bill_id.int64()\n' >"$T/one.csv"
printf '0000000000000000000000ff,1\n' >>"$T/one.csv"
expect 0 "$B" import --uri "$U1" --dst copy_plain --append --headerline --columns-have-types --json "$T/app.json" "$T/one.csv"
[ "$(json_int "$T/app.json" rows)" = 1 ] || fail "--append rows"
# a duplicate _id is refused by the store and reported with its line
expect 0 "$B" import --uri "$U1" --dst copy_plain --append --headerline --columns-have-types --parse-grace skip-row \
  --reject "$T/dup.rej" --json "$T/dup.json" "$T/one.csv"
[ "$(json_int "$T/dup.json" rejects)" = 1 ] || fail "duplicate _id not refused"
has "$T/dup.rej" "one.csv:2:1: refused by the store:"
has "$T/dup.rej" "0000000000000000000000ff,1"
expect 0 "$B" import --uri "$U1" --dst never --headerline --columns-have-types --parse-only --json "$T/po.json" "$T/a1.csv.zst"
[ "$(json_int "$T/po.json" rows)" = "$rows" ] || fail "--parse-only rows"
expect 1 "$B" export --uri "$U1" --src never -o "$T/x.csv"; has "$T/err" "does not exist"

# ---- the key column: a CSV without it is refused before the collection is touched -----------
printf 'a,b\n1,x\n' >"$T/nokey.csv"
expect 2 "$B" import --uri "$U1" --dst copy_plain --drop --headerline "$T/nokey.csv"
has "$T/err" "nokey.csv: the header has no field 'bill_id' (the master key, --key's default)"
has "$T/err" "--no-index"
expect 0 "$B" export --uri "$U1" --src copy_plain -o "$T/still.csv"   # --drop did not drop it
[ "$(($(wc -l <"$T/still.csv") - 1))" = "$((rows + 1))" ] || fail "a refused import changed copy_plain"
expect 2 "$B" import --uri "$U1" --dst nk --key item --fields a,b "$T/nokey.csv"
has "$T/err" "--fields has no field 'item' (--key)"
expect 0 "$B" import --uri "$U1" --dst nk --key a --headerline --json "$T/nk.json" "$T/nokey.csv"
[ "$(json_int "$T/nk.json" bills)" = 1 ] || fail "--key a: bills"

# ---- -o/--out: the file of the commands that write one; refused where the output is a collection --------
expect 2 "$B" generate --uri "$U1" -o "$T/g.out"; has "$T/err" "writes a collection, not a file: name it with --dst"
expect 2 "$B" import --uri "$U1" --out "$T/g.out" --headerline "$T/one.csv"; has "$T/err" "--out: this command writes a collection"
expect 0 "$B" export --uri "$U1" --src nk --output "$T/nk-output.csv"   # the old spelling, kept
expect 0 "$B" export --uri "$U1" --src nk --out "$T/nk-out.csv"
same "$T/nk-output.csv" "$T/nk-out.csv"
expect 2 "$B" export --uri "$U1" --src nk --ouput x.csv; has "$T/err" "unknown option '--ouput' (did you mean --output?"

# ---- mongoimport's spellings, --parallel ----------------------------------------------------------------
expect 0 "$B" import --uri "$U1" -c mi --drop --type csv --headerline --columnsHaveTypes -j 2 --file "$T/a1.csv"
expect 0 "$B" export --uri "$U1" --src mi -o "$T/mi.csv"
same "$T/a1.csv" "$T/mi.csv"
expect 0 "$B" import --uri "$U1" --collection mi2 -d ignored_by_wt --numInsertionWorkers 1 --type=csv --headerline \
  --columns-have-types "$T/a1.csv"
expect 0 "$B" export --uri "$U1" --src mi2 -o "$T/mi2.csv"
same "$T/a1.csv" "$T/mi2.csv"
expect 2 "$B" import --uri "$U1" --dst x --type tsv --headerline "$T/a1.csv"; has "$T/err" "--type: 'tsv' is not one of csv"
expect 2 "$B" import --uri "$U1" --dst x --numInsertionWorker 2 --headerline "$T/a1.csv"
has "$T/err" "did you mean --numInsertionWorkers?"
expect 2 "$B" import --uri "$U1" --dst copy_plain --append --parallel 2 --headerline "$T/one.csv"
has "$T/err" "--append adds after the rows already there"
# --parallel 3 with batches of 50: the rows land where one writer puts them (same export, same order),
# refused rows and all (skip-row: positions follow the rows kept)
expect 0 "$B" import --uri "$U1" --dst p1 --headerline --columns-have-types --batch-docs 50 "$T/a1.csv"
expect 0 "$B" import --uri "$U1" --dst p3 --headerline --columns-have-types --batch-docs 50 --parallel 3 \
  --json "$T/p3.json" "$T/a1.csv"
[ "$(json_int "$T/p3.json" rows)" = "$rows" ] || fail "--parallel 3: rows"
expect 0 "$B" export --uri "$U1" --src p1 -o "$T/p1.csv"
expect 0 "$B" export --uri "$U1" --src p3 -o "$T/p3.csv"
same "$T/p1.csv" "$T/p3.csv"
expect 0 "$B" import --uri "$U1" --dst p3b --no-index --headerline --columns-have-types --batch-docs 2 --parallel 3 \
  --parse-grace skip-row "$BAD"
expect 0 "$B" export --uri "$U1" --src p3b -o "$T/p3b.csv"
[ "$(cut -d, -f2- "$T/p3b.csv" | tr '\n' '|')" = "id.int32(),qty.double(),name.string()|1,1.5,ok|6,5.5,fine|" ] ||
  fail "--parallel 3 skip-row kept the wrong rows: $(cat "$T/p3b.csv")"

# ---- sizes: one meaning per unit, 1024-based however spelt ------------------------------------------------
expect 2 "$B" generate --uri "$U1" --dst sz --bills 1 --cache-size 1023KB; has "$T/err" "below WiredTiger's minimum of 1MiB"
expect 0 "$B" generate --uri "$U1" --dst sz --bills 1 --cache-size 1024KB   # = 1 MiB (1,024,000 B once)

# ---- oversize bills ------------------------------------------------------------------------------------
expect 0 "$B" generate --uri "$U2" --bills 2 --oversize 1 --seed 3 --dst big --json "$T/big.json"
per=$(json_int "$T/big.json" oversize_rows_per_bill)
total=$(json_int "$T/big.json" rows)
[ "${per:-0}" -gt 50000 ] || fail "oversize rows per bill: $per"
[ "$total" -gt "$per" ] || fail "oversize: total rows $total"
[ "$(json_int "$T/big.json" oversize_bills)" = 1 ] || fail "oversize bills"

# ---- the committed sample ------------------------------------------------------------------------------
SAMPLE="$SRC/datasets/sample/bills-300.csv.zst"
expect 0 "$B" import --uri "$U2" --dst sample --headerline --columns-have-types --json "$T/s.json" "$SAMPLE"
[ "$(json_int "$T/s.json" rows)" = 34067 ] || fail "sample rows (README says 34067)"
[ "$(json_int "$T/s.json" bills)" = 300 ] || fail "sample bills (README says 300)"
expect 0 "$B" export --uri "$U2" --src sample -o "$T/s.csv"
zstd -qdc "$SAMPLE" >"$T/s.want"
same "$T/s.want" "$T/s.csv"
# and the README's command makes it again
expect 0 "$B" generate --uri "wiredtiger:$T/wt-sample" --bills 300 --seed 20261130
expect 0 "$B" export --uri "wiredtiger:$T/wt-sample" -o "$T/s2.csv"
same "$T/s.want" "$T/s2.csv"

echo "billgen_cli: $ntests commands, $fails failures"
[ "$fails" = 0 ]
