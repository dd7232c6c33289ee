#!/usr/bin/env bash
# mix_agree.sh -- scancmp --mix and layout-report --mix accept and refuse the same specs (one grammar,
# core/mix_spec.c): every spec of mix_specs.txt given to both. A refused spec exits 2 naming the item
# (the words the list gives); an accepted one gets past the option check (scancmp then fails to open a
# store that does not exist, layout-report a results file that does not exist: exit 1, nothing --mix).
#
# Needs LAB_BIN_DIR (set by ctest).
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
bin=${LAB_BIN_DIR:-$src/build/bin}
tmp=$(mktemp -d "${LAB_TEST_TMP:-/tmp}/mix-agree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0 n=0
fail () { echo "FAIL: $*" >&2; failed=1; }
for b in scancmp layout-report; do
  [ -x "$bin/$b" ] || { echo "SKIP: no $bin/$b" >&2; exit 77; }
done

# judge TOOL SPEC -- "good", or "bad" with the message in $tmp/err; any other outcome is its own word
judge () {
  local tool=$1 spec=$2 rc
  if [ "$tool" = scancmp ]; then
    "$bin/scancmp" --uri "wiredtiger:$tmp/none" --mix "$spec" >/dev/null 2>"$tmp/err"
  else
    "$bin/layout-report" "$tmp/none.json" --mix "$spec" >/dev/null 2>"$tmp/err"
  fi
  rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "--mix '" "$tmp/err"; then echo bad
  elif [ $rc -eq 1 ] && ! grep -qF -- "--mix" "$tmp/err"; then echo good
  else echo "exit $rc: $(head -c 200 "$tmp/err")"; fi
}

while read -r want spec words; do
  case $want in good|bad) ;; *) continue ;; esac
  [ "$spec" = - ] && spec=
  n=$((n + 1))
  s=$(judge scancmp "$spec"); cp "$tmp/err" "$tmp/err.scan"
  r=$(judge layout-report "$spec")
  [ "$s" = "$r" ] || fail "'$spec': scancmp says $s, layout-report says $r"
  [ "$s" = "$want" ] || fail "'$spec': scancmp says $s, the list says $want"
  [ "$r" = "$want" ] || fail "'$spec': layout-report says $r, the list says $want"
  if [ "$want" = bad ]; then
    for e in "$tmp/err.scan" "$tmp/err"; do
      grep -qF -- "$words" "$e" || fail "'$spec': no \"$words\" in: $(cat "$e")"
    done
  fi
done < "$(dirname "$0")/mix_specs.txt"
[ $n -ge 20 ] || fail "only $n specs read from mix_specs.txt"
[ $failed -eq 0 ] && echo "ok: $n specs judged alike by scancmp and layout-report"
exit $failed
