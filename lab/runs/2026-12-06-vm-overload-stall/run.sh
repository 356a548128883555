#!/bin/bash
# alternated: main, stall4, main, stall4 (levels), then bg bursts for each
cd /work/main
for r in 1 2; do
for b in main stall4; do
  env OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/lab-main --weir /tmp/weir-$b --out /tmp/stall/L-$b-$r --seconds 15 > /tmp/stall/L-$b-$r.log 2>&1
done
done
for b in main stall4; do
  env OVERLOAD_BURSTS=bg OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/lab-main --weir /tmp/weir-$b --out /tmp/stall/B-$b --seconds 15 > /tmp/stall/B-$b.log 2>&1
done
echo done > /tmp/stall/run.done
