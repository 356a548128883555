#!/bin/bash
# usage: count.sh WEIR_BINARY : per config of the import corpus (hand-written and public), the report's counts
B=$1
cd "$(dirname "${BASH_SOURCE[0]}")/../../../crates/weir-import/tests/corpus"
tot_t=0; tot_a=0; tot_u=0; tot_l=0
for f in *.conf public/*/*; do
  case "$f" in *README*|*.md|*proxy_params|*mime.types) continue;; esac
  [ -f "$f" ] || continue
  out=$($B import "$f" -o /dev/null 2>&1)
  grep -q "^Translated" <<< "$out" || continue
  t=$(grep -oP "^Translated: \K[0-9]+" <<< "$out"); a=$(grep -oP "^Approximated \(and how\): \K[0-9]+" <<< "$out"); u=$(grep -oP "^Not supported \(and why\): \K[0-9]+" <<< "$out"); l=$(grep -oP "^!!! LESS SAFE THAN NGINX: \K[0-9]+" <<< "$out")
  echo "$f t=$t a=$a u=$u less=${l:-0}"
  tot_t=$((tot_t+t)); tot_a=$((tot_a+a)); tot_u=$((tot_u+u)); tot_l=$((tot_l+${l:-0}))
done
echo "TOTAL translated=$tot_t approximated=$tot_a unsupported=$tot_u less_safe=$tot_l"
