#!/usr/bin/env bash
# deploy.sh -- scancmp against real deployment shapes, each on a private test server started
# here with the personality it needs (scripts/mongo-test-server.sh --as mongod|replset|mongos) in a temp
# dir and stopped on exit -- never the shared fixture:
#   mongod   --server-disk ftdc --server-device DISK together with the local sampler on the same disk in
#            one run: per-layout read requests from getDiagnosticData agree with /proc/diskstats within
#            a few percent; the results and the report name the source. Then the same server made
#            "remote" with the test hook LAYOUTLAB_TEST_FORCE_REMOTE=1 (a loopback server otherwise counts
#            as local): --device/--dbpath/--calibrate are refused pointing to --server-device, and
#            --server-disk auto takes the figures from FTDC. The CPU time of the server's process is
#            recorded while it is local, and absent once it is "remote".
#   mongos   topology mongos naming shard0; memory figures and pids are the shard's (DIR/shard0/pid), not
#            the router's; `restart --shard` as --restart-cmd is detected as a restart of the shard.
#   replset  topology replset with set name rs0.
#
# A personality that does not start, or a scancmp run that leaves no results file, is a failure (never
# checks left out in silence). Without a disk to sample (no /sys/block entry for the temporary
# directory's disk, nor vda) the mongod part cannot run: it says SKIP with the reason, the rest runs, and
# the test exits 77 (reported as skipped) unless something failed.
# Needs LAB_BIN_DIR and LAB_SOURCE_DIR; ignores LAYOUTLAB_TEST_URI (a real server has one personality).
# A test killed by ctest's timeout leaks no server: tests/lib/private_server.sh's watchdog stops them.
set -uo pipefail

# S, B, T (the temporary directory), and an EXIT trap plus a watchdog that stop every server under T even
# when ctest kills this test (tests/lib/private_server.sh)
. "${LAB_SOURCE_DIR:?set LAB_SOURCE_DIR to the source tree}/tests/lib/private_server.sh" deploy
unset LAYOUTLAB_TEST_FORCE_REMOTE
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# start_as NAME -- start personality NAME in $T/NAME, its URI in $uri; a server that does not start fails
# the test (counted here, in this shell: a `fail` inside $(...) would be lost with its subshell).
start_as() {
  uri=$("$S" start --dir "$T/$1" --as "$1") && [ -n "$uri" ] && return 0
  fail "the test server did not start --as $1 (its error is above)"
  return 1
}

# results FILE -- the scancmp run just before wrote its results file FILE; else a failure.
results() {
  [ -s "$1" ] && return 0
  fail "no results file $1"
  return 1
}

# py -- evaluate a Python expression over the results file $1 (as r); prints its value.
py() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# the disk that holds the temp dir: the whole disk of its mount (vda on the CI machine)
disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE --target "$T" 2>/dev/null | head -1)" 2>/dev/null | head -1)
[ -n "$disk" ] && [ -e "/sys/block/$disk" ] || disk=vda
skipped=
[ -e "/sys/block/$disk" ] || skipped="no disk to sample: neither $T's disk nor vda is in /sys/block"

common=(--db deploy --parallel 2 --interval 200ms --progress never)

# ---- mongod: FTDC and the local sampler on one disk, in one run -----------------------------------
if [ -n "$skipped" ]; then
  echo "SKIP: deploy: the mongod part (FTDC against the local sampler, remote refusals): $skipped" >&2
elif start_as mongod; then
  "$B/scan-testdata" --uri "$uri" --db deploy --bills 40 --rows 6 >/dev/null || fail "scan-testdata (mongod)"
  # a cold run drops the page cache (we are root on CI; auto records it when not), so the loads read
  "$B/scancmp" --uri "$uri" "${common[@]}" --cold --server-disk ftdc --server-device "$disk" --device "$disk" \
    --out "$T/m.json" >"$T/m.txt" 2>"$T/m.err" || { cat "$T/m.err" >&2; fail "scancmp --server-disk ftdc"; }
  if results "$T/m.json"; then
    [ "$(py "$T/m.json" "r['topology']['kind']")" = standalone ] || fail "mongod topology is not standalone"
    [ "$(py "$T/m.json" "r['disk_source']['source']")" = ftdc ] || fail "disk_source.source is not ftdc"
    [ "$(py "$T/m.json" "r['disk_source']['device']")" = "$disk" ] || fail "disk_source.device is not $disk"
    for i in 0 1; do
      read -r lay loc srv dev <<<"$(py "$T/m.json" "r['runs'][$i]['layout'], r['runs'][$i].get('read_requests', -1), \
r['runs'][$i]['server_disk']['servers'][0]['read_requests'], r['runs'][$i]['server_disk']['servers'][0]['device']" |
        tr -d "(),'")"
      echo "deploy: $lay: read requests local $loc, ftdc $srv ($dev)"
      [ "$dev" = "$disk" ] || fail "$lay: FTDC device $dev is not $disk"
      [ "$loc" -ge 0 ] 2>/dev/null || fail "$lay: no local read requests"
      # same disk, same interval, sampled back to back: within 5% (or 50 requests on a quiet disk)
      python3 -c "import sys; a,b=int(sys.argv[1]),int(sys.argv[2]); sys.exit(0 if abs(a-b) <= max(0.05*max(a,b), 50) else 1)" \
        "$loc" "$srv" || fail "$lay: FTDC read requests $srv disagree with the local sampler's $loc"
    done
    grep -q "disk figures: ftdc, device $disk" "$T/m.txt" || fail "scancmp output does not name the ftdc source"
    # the server runs here and its pid is known: the CPU time of its process is measured
    [ "$(py "$T/m.json" "all(e['cpu']['process_s'] > 0 and e['cpu']['cores'] >= 1 for e in r['runs'])")" = True ] ||
      fail "local server: no CPU figures of its process"
    grep -q "the table's device figures: this machine's /proc/diskstats of $disk" "$T/m.txt" ||
      fail "scancmp output does not say the table's figures are local"
    "$B/layout-report" "$T/m.json" -o "$T/m.md" --charts none 2>/dev/null || fail "layout-report (mongod)"
    grep -q "disk figures from | the server's getDiagnosticData (FTDC), device $disk" "$T/m.md" ||
      fail "the report does not name the FTDC source"
  fi

  # remote (forced): refusals, then auto -> ftdc with the entry's disk figures from the server
  for opt in "--device $disk" "--dbpath $T/mongod" "--calibrate"; do
    # shellcheck disable=SC2086
    LAYOUTLAB_TEST_FORCE_REMOTE=1 "$B/scancmp" --uri "$uri" "${common[@]}" $opt --out "$T/r.json" \
      >/dev/null 2>"$T/r.err"
    rc=$?
    [ "$rc" = 2 ] || fail "$opt against a remote server: exit $rc, not 2 (usage)"
    grep -q -- "--server-device" "$T/r.err" || fail "$opt refusal does not point to --server-device: $(cat "$T/r.err")"
  done
  LAYOUTLAB_TEST_FORCE_REMOTE=1 "$B/scancmp" --uri "$uri" "${common[@]}" --keys-limit 10 --server-device "$disk" \
    --out "$T/a.json" \
    >"$T/a.txt" 2>"$T/a.err" || { cat "$T/a.err" >&2; fail "scancmp auto against a remote server"; }
  if results "$T/a.json"; then
    [ "$(py "$T/a.json" "r['backend']['server_local']")" = False ] || fail "forced remote still local"
    [ "$(py "$T/a.json" "r['disk_source']['source']")" = ftdc ] || fail "auto on a remote server is not ftdc"
    [ "$(py "$T/a.json" "r['runs'][0]['disk_source']")" = ftdc ] || fail "runs[0].disk_source is not ftdc"
    [ "$(py "$T/a.json" "'read_requests' in r['runs'][0]")" = True ] || fail "no read_requests from FTDC"
    # a remote server's process cannot be followed: no CPU figures (never a zero)
    [ "$(py "$T/a.json" "any('cpu' in e for e in r['runs'])")" = False ] || fail "remote server: CPU figures recorded"
    # every interval's disk figures come from FTDC too (the test server answers with a fresh sample)
    echo "deploy: remote: $(py "$T/a.json" "sum(len(e['samples']) for e in r['runs'])") samples, read requests \
$(py "$T/a.json" "[e['read_requests'] for e in r['runs']]") from FTDC"
    [ "$(py "$T/a.json" "all('read_requests_per_s' in x for e in r['runs'] for x in e['samples'])")" = True ] ||
      fail "samples without FTDC disk figures"
    [ "$(py "$T/a.json" "r['disk_source']['device']")" = "$disk" ] || fail "remote: disk_source.device is not $disk"
  fi
  # --restart-drops-caches: the note says the restart command dropped them
  LAYOUTLAB_TEST_FORCE_REMOTE=1 "$B/scancmp" --uri "$uri" "${common[@]}" --keys-limit 5 --cold \
    --restart-cmd "$S restart --dir $T/mongod" --restart-drops-caches --out "$T/d.json" >/dev/null 2>"$T/d.err" ||
    { cat "$T/d.err" >&2; fail "scancmp --restart-drops-caches"; }
  if results "$T/d.json"; then
    [ "$(py "$T/d.json" "r['runs'][0]['cold']['caches_dropped']")" = True ] || fail "--restart-drops-caches not recorded"
    py "$T/d.json" "r['runs'][0]['cold']['drop_caches_note']" | grep -q "restart command" ||
      fail "drop note does not name the restart command"
    [ "$(py "$T/d.json" "r['runs'][0]['cold']['server_restarted']")" = True ] || fail "restart not detected (mongod)"
  fi
  "$S" stop --dir "$T/mongod" >/dev/null || fail "stop mongod"
fi

# ---- mongos: the shard's figures and the shard's restart -------------------------------------------
if start_as mongos; then
  "$B/scan-testdata" --uri "$uri" --db deploy --bills 20 --rows 4 >/dev/null || fail "scan-testdata (mongos)"
  router=$(cat "$T/mongos/pid")
  "$B/scancmp" --uri "$uri" "${common[@]}" --cold --drop-caches no --restart-cmd "$S restart --dir $T/mongos --shard" \
    --shard-uri "shard0=$(cat "$T/mongos/shard0/uri")" --out "$T/s.json" >"$T/s.txt" 2>"$T/s.err" ||
    { cat "$T/s.err" >&2; fail "scancmp through mongos"; }
  shard=$(cat "$T/mongos/shard0/pid")
  if results "$T/s.json"; then
    [ "$(py "$T/s.json" "r['topology']['kind']")" = mongos ] || fail "topology is not mongos"
    [ "$(py "$T/s.json" "r['topology']['shards'][0]['name']")" = shard0 ] || fail "shard0 not named"
    [ "$(py "$T/s.json" "r['topology']['shards'][0]['uri']")" = "$(cat "$T/mongos/shard0/uri")" ] ||
      fail "--shard-uri shard0=URI not used"
    # the last run's process is the shard as it runs now; never the router
    [ "$(py "$T/s.json" "r['runs'][-1]['cold']['server_pid']")" = "$shard" ] || fail "server_pid is not the shard's ($shard)"
    [ "$(py "$T/s.json" "r['runs'][-1]['cold']['shards'][0]['server_pid']")" = "$shard" ] ||
      fail "cold.shards[0].server_pid is not the shard's"
    [ "$(py "$T/s.json" "r['runs'][-1]['cold']['server_pid']")" != "$router" ] || fail "server_pid is the router's"
    [ "$(py "$T/s.json" "all(e['cold']['shards'][0]['restarted'] and e['cold']['server_restarted'] for e in r['runs'])")" = True ] ||
      fail "restart --shard not detected as a restart of the shard"
    [ "$(py "$T/s.json" "'server_rss_peak_bytes' in r['runs'][0]['memory']")" = True ] || fail "no memory figure from the shard"
    grep -q "topology: mongos, shards: shard0" "$T/s.txt" || fail "scancmp output does not name the topology"
    "$B/layout-report" "$T/s.json" -o "$T/s.md" --charts none 2>/dev/null || fail "layout-report (mongos)"
    grep -q "| topology | mongos, shards: shard0 |" "$T/s.md" || fail "the report does not name the topology"
  fi
  "$S" stop --dir "$T/mongos" >/dev/null || fail "stop mongos"
fi

# ---- replset: the set name -------------------------------------------------------------------------
if start_as replset; then
  "$B/scan-testdata" --uri "$uri" --db deploy --bills 10 --rows 3 >/dev/null || fail "scan-testdata (replset)"
  "$B/scancmp" --uri "$uri" "${common[@]}" --out "$T/p.json" >"$T/p.txt" 2>"$T/p.err" ||
    { cat "$T/p.err" >&2; fail "scancmp on a replica set"; }
  if results "$T/p.json"; then
    [ "$(py "$T/p.json" "r['topology']['kind']")" = replset ] || fail "topology is not replset"
    [ "$(py "$T/p.json" "r['topology']['set_name']")" = rs0 ] || fail "set name is not rs0"
    py "$T/p.json" "r['topology']['note']" | grep -q "directConnection=true" || fail "no directConnection advice"
  fi
  "$S" stop --dir "$T/replset" >/dev/null || fail "stop replset"
fi

[ "$fails" = 0 ] || { echo "deploy: $fails failure(s)" >&2; exit 1; }
if [ -n "$skipped" ]; then
  echo "deploy: mongos shard figures, replset OK; the mongod part was skipped ($skipped)" >&2
  exit 77
fi
echo "deploy: mongod (ftdc vs local), remote refusals, mongos shard figures, replset OK"
