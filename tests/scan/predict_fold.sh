#!/usr/bin/env bash
# predict_fold.sh -- the prediction's folded layout from its sample fold, against the real fold of the same
# small data (embedded): billgen generate, scancmp --predict (before folding: the sample fold reads a few
# masters' rows and folds them in memory, hoisting as fold-details does), then fold-details and the real
# folded collection's sizes (a one-point scancmp of a few keys records them). The predicted folded data
# size and size on disk must be within 15% of the real ones (the model without the sample fold, the rows'
# BSON with nothing hoisted, was 45-95% high), and the file must say they were measured.
#
# Usage: predict_fold.sh BIN_DIR
set -uo pipefail
bin=${1:?usage: predict_fold.sh BIN_DIR}
command -v jq >/dev/null || { echo "SKIP: jq is needed"; exit 77; }
t=$(mktemp -d "${TMPDIR:-/tmp}/predict-fold.XXXXXX")
trap 'rm -rf "$t"' EXIT
uri=wiredtiger:$t/data
fail() { echo "FAIL: $*"; exit 1; }
q=(--progress never -q)

"$bin/billgen" generate --uri "$uri" --dst bill_detail --bills 300 --mean-rows 40 --seed 11 --drop "${q[@]}" ||
  fail "billgen"
"$bin/scancmp" --uri "$uri" --predict --cache-sizes 8MiB "${q[@]}" --out "$t/pred.json" >/dev/null ||
  fail "scancmp --predict"
"$bin/fold-details" --uri "$uri" --src bill_detail --dst detail_coll "${q[@]}" || fail "fold-details"
"$bin/scancmp" --uri "$uri" --keys-limit 5 --cache-sizes 8MiB "${q[@]}" --out "$t/meas.json" >/dev/null ||
  fail "scancmp (the real fold's sizes)"

src=$(jq -r '.prediction.model.folded_bytes_source' "$t/pred.json")
case "$src" in measured:*) echo "ok: the folded size is measured ($src)" ;; *) fail "folded_bytes_source: $src" ;; esac
[ "$(jq '.prediction.model.fold_sample_masters > 0 and .prediction.model.fold_sample_rows > 0' "$t/pred.json")" = true ] ||
  fail "no sample fold recorded"
for f in data_size_bytes storage_size_bytes; do
  p=$(jq ".dataset.folded.$f" "$t/pred.json")
  m=$(jq ".dataset.folded.$f" "$t/meas.json")
  err=$(jq -n "($p - $m) / $m * 100 | . * 10 | round / 10")
  echo "folded $f: predicted $p, real $m: ${err}%"
  jq -e -n "($p - $m) / $m | fabs <= 0.15" >/dev/null || fail "folded $f off by ${err}% (more than 15%)"
done
echo "ok: the sample fold's folded layout is within 15% of the real fold"
