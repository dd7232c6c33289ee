#!/usr/bin/env bash
# disk_full.sh -- the embedded store on a disk that fills up or fails to read (faults on the
# embedded store). Every failing tool must exit 1 with a message naming the store's directory and its
# free space (reads: the file), the fold's source must stay intact, the store must reopen afterwards, a
# fold must resume to a verified result once space is freed, and a cold load that cannot read must write
# no results file and print no figures.
#
#  1. Real full disks, each 64 MiB tmpfs and a 512 MiB loop-mounted ext4 image (-m 0: no blocks reserved
#     for root, so df's "available" is what the store may use; the journal alone preallocates ~300 MB on
#     ext4, hence the size). Space is taken by a ballast file the test creates (fallocate), leaving
#     LAB_FAULT_FREE_KIB: billgen generate, billgen import and fold-details each fail (exit 1, "no
#     space left on device writing to DIR (N MiB free ...)"); the source's export checksum is unchanged;
#     the ballast goes, and the --resume command the fold printed (plus --verify) finishes equal.
#  2. Exact fault points with faultfs.so (LD_PRELOAD, tests/fault/faultfs.c) in a store under
#     LAB_TEST_TMP: ENOSPC after N bytes during generate, import and fold for a few N (same
#     expectations, the shim's log proves the fault was met); EIO after N reads of the collection files
#     during scancmp --cold: exit 1 naming the file, nothing on stdout, --out not created (and an older
#     --out left as it was).
#
# Mounting needs root: without it (or with LAB_FAULT_NO_MOUNT set) (or without tmpfs/loop/mkfs.ext4) part 1 says SKIP with the reason and
# the test exits 77 (ctest's SKIP_RETURN_CODE) after part 2, never 0. Needs LAB_BIN_DIR, LAB_FAULTFS.
set -uo pipefail

B="${LAB_BIN_DIR:?set LAB_BIN_DIR to the build bin directory}"
SHIM="${LAB_FAULTFS:?set LAB_FAULTFS to the built faultfs.so}"
BILLS=${LAB_FAULT_BILLS:-1000}
FREE_KIB=${LAB_FAULT_FREE_KIB:-512}
T=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/disk-full-XXXXXX")
T=$(cd "$T" && pwd -P)
mounts=()
skipped=
failures=0

cleanup() {
  local m
  for m in "${mounts[@]}"; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
die() {
  echo "FAIL: $*" >&2
  exit 1
}
ok() { echo "ok: [${SECONDS}s] $*"; }

# gen STORE COLL [args...] -- billgen generate of the test's source into STORE.
gen() {
  local store=$1 coll=$2
  shift 2
  "$B/billgen" generate --uri "wiredtiger:$store" --dst "$coll" --bills "$BILLS" --mean-rows 20 --seed 12 \
    --progress never -q "$@"
}

# checksum STORE COLL -- "<lines> rows <md5>" of the collection's CSV export (the source's fingerprint);
# the CSV stays in $T/export.csv.
checksum() {
  local sum
  "$B/billgen" export --uri "wiredtiger:$1" --src "$2" -q -o "$T/export.csv" || return 1
  sum=$(md5sum <"$T/export.csv")
  echo "$(wc -l <"$T/export.csv") rows ${sum%% *}"
}

# expect_nospace WHAT ERRFILE RC DIR -- the tool exited 1 naming DIR and its free space.
expect_nospace() {
  local what=$1 err=$2 rc=$3 dir=$4
  if [ "$rc" -ne 1 ]; then
    fail "$what: exit $rc, expected 1: $(tail -3 "$err")"
    return 1
  fi
  if ! grep -q "no space left on device writing to $dir ([0-9.]* MiB free" "$err"; then
    fail "$what: the error does not name $dir and its free space: $(tail -3 "$err")"
    return 1
  fi
  ok "$what: exit 1, $(grep -o "no space left on device writing to $dir ([0-9.]* MiB free" "$err" | head -1)"
}

# expect_reopens WHAT STORE -- the store opens again and its source still reads (WiredTiger recovery).
expect_reopens() {
  if ! "$B/billgen" export --uri "wiredtiger:$2" --src src -q -o /dev/null 2>"$T/reopen.err"; then
    fail "$1: the store does not reopen: $(cat "$T/reopen.err")"
    return 1
  fi
  ok "$1: the store reopens"
}

# fold_then_resume WHAT STORE DST SUM [ENV...] -- fold src into DST under the given environment (the
# shim, or nothing on a full disk): exit 1 naming the store and the --resume command; $FREE_HOOK (if
# set) frees space; the source unchanged; then the printed command with --verify (no fault) finishes
# equal.
fold_then_resume() {
  local what=$1 store=$2 dst=$3 sum=$4 rc cmd
  shift 4
  env "$@" "$B/fold-details" --uri "wiredtiger:$store" --src src --dst "$dst" --batch-docs 50 --progress never \
    >"$T/fold.out" 2>"$T/fold.err"
  rc=$?
  expect_nospace "$what: fold-details" "$T/fold.err" "$rc" "$store" || return 1
  cmd=$(sed -n 's/.*continue the fold from its checkpoints with: //p' "$T/fold.err" | tail -1)
  case "$cmd" in
  fold-details*--resume*) ;;
  *)
    fail "$what: the fold's error names no --resume command: $(tail -2 "$T/fold.err")"
    return 1
    ;;
  esac
  # space first: opening a store runs WiredTiger's recovery, which writes
  [ -n "${FREE_HOOK:-}" ] && $FREE_HOOK
  [ "$(checksum "$store" src)" = "$sum" ] || {
    fail "$what: the source changed after the failed fold"
    return 1
  }
  ok "$what: the source is intact ($sum)"
  if ! eval "\"$B/\"$cmd --verify" >"$T/resume.out" 2>"$T/resume.err"; then
    fail "$what: '$cmd --verify' failed: $(tail -3 "$T/resume.err")"
    return 1
  fi
  grep -q "^verify: equal" "$T/resume.out" || {
    fail "$what: the resumed fold does not verify equal: $(cat "$T/resume.out")"
    return 1
  }
  ok "$what: '$cmd --verify' finished, verify equal"
}

# ballast DIR -- fill the filesystem of DIR up to FREE_KIB free with DIR/ballast.
ballast() {
  local avail
  avail=$(df --output=avail -k "$1" | tail -1 | tr -d ' ')
  [ "$avail" -gt "$FREE_KIB" ] || die "$1 has only $avail KiB free before the ballast"
  fallocate -l "$((avail - FREE_KIB))K" "$1/ballast" ||
    dd if=/dev/zero of="$1/ballast" bs=1K count="$((avail - FREE_KIB))" status=none 2>/dev/null
}

# on_full_disk NAME MOUNTPOINT -- part 1 on one mounted filesystem.
on_full_disk() {
  local name=$1 mnt=$2 store=$2/store rc sum
  FREE_HOOK=
  # generate fills the disk
  ballast "$mnt"
  gen "$store" src 2>"$T/gen.err"
  rc=$?
  expect_nospace "$name: billgen generate" "$T/gen.err" "$rc" "$store"
  rm -f "$mnt/ballast"
  # the store reopens and the failed collection reads, or is gone (billgen drops what it created), or is
  # empty (generate's tables are not journaled since a run that fails before its closing
  # checkpoint leaves the last checkpoint's rows, none here): never a catalog naming a table that no
  # longer exists
  if ! "$B/billgen" export --uri "wiredtiger:$store" --src src -q -o /dev/null 2>"$T/reopen.err" &&
    ! grep -q "collection 'src' does not exist\|collection 'src' is empty" "$T/reopen.err"; then
    fail "$name: after the failed generate, the collection cannot be read: $(cat "$T/reopen.err")"
  fi
  # the source is written again with space, and fingerprinted
  gen "$store" src --drop 2>"$T/gen.err" || {
    fail "$name: the store does not reopen after a full disk: $(cat "$T/gen.err")"
    return
  }
  ok "$name: the store reopens and takes the source ($BILLS bills)"
  sum=$(checksum "$store" src) || {
    fail "$name: cannot export the source"
    return
  }
  cp "$T/export.csv" "$T/src.csv"
  # import fills the disk
  ballast "$mnt"
  "$B/billgen" import --uri "wiredtiger:$store" --dst imp --headerline --columns-have-types --progress never -q \
    "$T/src.csv" 2>"$T/imp.err"
  rc=$?
  expect_nospace "$name: billgen import" "$T/imp.err" "$rc" "$store"
  rm -f "$mnt/ballast"
  expect_reopens "$name: after import" "$store"
  # fold fills the disk; freeing it lets the printed --resume finish
  ballast "$mnt"
  FREE_HOOK="rm -f $mnt/ballast"
  fold_then_resume "$name" "$store" fd "$sum"
  FREE_HOOK=
  rm -f "$mnt/ballast"
}

# ---- 1. real full disks ----------------------------------------------------------------------------
t0=$(date +%s)
if [ -n "${LAB_FAULT_NO_MOUNT:-}" ]; then
  skipped="LAB_FAULT_NO_MOUNT is set"
elif [ "$(id -u)" -ne 0 ]; then
  skipped="mounting a small filesystem needs root (running as uid $(id -u))"
else
  mkdir -p "$T/tmpfs"
  if mount -t tmpfs -o size=64m faulttmpfs "$T/tmpfs" 2>"$T/mount.err"; then
    mounts+=("$T/tmpfs")
    on_full_disk tmpfs "$T/tmpfs"
  else
    skipped="cannot mount a tmpfs: $(cat "$T/mount.err")"
  fi
  # an 8 MiB tmpfs that 4000 bills fill at generate's final checkpoint (ENOSPC there, no panic; 3000 did
  # while generate's tables were journaled), after
  # which billgen's clean-up drop once left the catalog naming a dropped _id index: the store opened,
  # the collection never did
  mkdir -p "$T/small"
  if [ -z "$skipped" ] && mount -t tmpfs -o size=8m faulttmpfs "$T/small" 2>"$T/mount.err"; then
    mounts+=("$T/small")
    "$B/billgen" generate --uri "wiredtiger:$T/small/store" --dst src --bills 4000 --mean-rows 20 --seed 12 \
      --progress never -q 2>"$T/gen.err"
    rc=$?
    expect_nospace "tmpfs 8 MiB: billgen generate" "$T/gen.err" "$rc" "$T/small/store"
    mount -o remount,size=64m "$T/small" || fail "cannot remount $T/small larger"
    if ! "$B/billgen" export --uri "wiredtiger:$T/small/store" --src src -q -o /dev/null 2>"$T/reopen.err" &&
      ! grep -q "collection 'src' does not exist\|collection 'src' is empty" "$T/reopen.err"; then
      fail "tmpfs 8 MiB: after the failed generate, the collection cannot be read: $(cat "$T/reopen.err")"
    else
      ok "tmpfs 8 MiB: the store reopens, the failed collection reads, is gone or is empty"
    fi
  fi
  if [ -z "$skipped" ]; then
    mkdir -p "$T/ext4"
    if ! command -v mkfs.ext4 >/dev/null; then
      skipped="no mkfs.ext4 to make an ext4 image"
    elif ! truncate -s 512M "$T/ext4.img" || ! mkfs.ext4 -q -F -m 0 "$T/ext4.img" >"$T/mkfs.err" 2>&1; then
      skipped="cannot make an ext4 image: $(cat "$T/mkfs.err")"
    elif ! mount -o loop "$T/ext4.img" "$T/ext4" 2>"$T/mount.err"; then
      skipped="cannot loop-mount an ext4 image: $(cat "$T/mount.err")"
    else
      mounts+=("$T/ext4")
      on_full_disk ext4 "$T/ext4"
    fi
  fi
fi
[ -n "$skipped" ] && echo "SKIP: full-disk part: $skipped"
echo "full disks: $(($(date +%s) - t0)) s"

# ---- 2. exact fault points: faultfs.so -------------------------------------------------------------
t0=$(date +%s)
[ -f "$SHIM" ] || die "no shim at $SHIM"
S="$T/shim"
mkdir -p "$S"
gen "$S" src 2>"$T/gen.err" || die "billgen generate: $(cat "$T/gen.err")"
sum=$(checksum "$S" src) || die "cannot export the source"
cp "$T/export.csv" "$T/src.csv"

# shim ENV... -- the environment that arms faultfs on the store (a fresh log each time).
shim() {
  rm -f "$T/faultfs.log"
  echo "LD_PRELOAD=$SHIM" "FAULTFS_DIR=$S" "FAULTFS_LOG=$T/faultfs.log" "$@"
}
# met WHAT KIND -- the shim's log shows the fault was injected.
met() {
  grep -q "^faultfs: $2 " "$T/faultfs.log" 2>/dev/null || {
    fail "$1: the shim never injected $2 (the fault point was not reached)"
    return 1
  }
}

for n in 1048576; do
  env $(shim FAULTFS_WRITE_LIMIT=$n) "$B/billgen" generate --uri "wiredtiger:$S" --dst gen$n --bills "$BILLS" \
    --mean-rows 20 --seed 12 --progress never -q 2>"$T/gen.err"
  rc=$?
  expect_nospace "shim: generate, ENOSPC after $n bytes" "$T/gen.err" "$rc" "$S" &&
    met "shim: generate after $n bytes" ENOSPC
  expect_reopens "shim: generate after $n bytes" "$S"
done

n=524288
env $(shim FAULTFS_WRITE_LIMIT=$n) "$B/billgen" import --uri "wiredtiger:$S" --dst imp --headerline \
  --columns-have-types --progress never -q "$T/src.csv" 2>"$T/imp.err"
rc=$?
expect_nospace "shim: import, ENOSPC after $n bytes" "$T/imp.err" "$rc" "$S" && met "shim: import" ENOSPC
# (recovery after the import's panic writes: without this reopen the next fold would fail at its open)
expect_reopens "shim: import after $n bytes" "$S"

FREE_HOOK=
# the first points fall in the fold's creates (the checkpoint collection, the destination, their indexes
# and markers): 36,864 stopped an unlogged table's create before any checkpoint, whose ident the next run
# reused; then a batch, then the middle of the fold
for n in 65536 32768 36864 40960 45056 1572864; do
  fold_then_resume "shim: fold, ENOSPC after $n bytes" "$S" fd$n "$sum" $(shim FAULTFS_WRITE_LIMIT=$n) &&
    met "shim: fold after $n bytes" ENOSPC
done

# a cold load whose reads fail: exit 1 naming the file, no figures, no results file (the folded layout
# is the first fold above, resumed and verified)
# N = 0: the first read of a collection file fails; N = 40: a read in the middle of the load. The
# second run's --out is an older results file, which must be left as it was.
echo '{"older": true}' >"$T/old.json"
for n in 0 40; do
  what="shim: scancmp --cold, EIO after $n reads"
  out="$T/run-$n.json"
  [ "$n" -eq 40 ] && out="$T/old.json"
  env $(shim FAULTFS_READ_LIMIT=$n FAULTFS_READ_MATCH=collection-) "$B/scancmp" --uri "wiredtiger:$S" --detail src \
    --folded fd65536 --cold --runs 2 --parallel 2 --keys-limit 100 --out "$out" --progress never \
    >"$T/scan.out" 2>"$T/scan.err"
  rc=$?
  met "$what" EIO
  [ "$rc" -eq 1 ] || fail "$what: exit $rc, expected 1: $(tail -2 "$T/scan.err")"
  grep -q "error:.*$S/collection-[0-9]*-layoutlab.wt.*Input/output error" "$T/scan.err" ||
    fail "$what: the error does not name the file: $(tail -2 "$T/scan.err")"
  [ -s "$T/scan.out" ] && fail "$what: figures on stdout: $(head -3 "$T/scan.out")"
  if [ "$out" = "$T/old.json" ]; then
    [ "$(cat "$out")" = '{"older": true}' ] || fail "$what: the older --out now holds: $(head -c 200 "$out")"
  else
    [ -e "$out" ] && fail "$what: a results file was written: $out"
  fi
  ok "$what: exit $rc, $(grep -o "$S/collection-[0-9]*-layoutlab.wt" "$T/scan.err" | head -1) named, no figures"
done
expect_reopens "shim: after the read faults" "$S"
echo "fault points: $(($(date +%s) - t0)) s"

if [ "$failures" -gt 0 ]; then
  echo "disk_full: $failures failure(s)"
  exit 1
fi
# the exports above write to /dev/null: it must still be the device (not a file renamed over it)
[ -c /dev/null ] || { echo "FAIL: /dev/null is no longer a character device after billgen export -o /dev/null" >&2; exit 1; }
if [ -n "$skipped" ]; then
  echo "disk_full: the fault points passed; SKIP the full disks: $skipped"
  exit 77
fi
echo "disk_full: all passed"
