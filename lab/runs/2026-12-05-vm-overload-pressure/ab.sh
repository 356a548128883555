#!/bin/bash
# bursts: B (pressure) A (main) B, then levels weir-workers B, A. Run from /work/wt-bgburst.
set -x
cd /work/wt-bgburst
B=/tmp/labA/weir-pressure; A=/tmp/labA/weir-main; L=/tmp/labA/weir-lab-overload
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $B --out /tmp/labA/bursts-B1
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $A --out /tmp/labA/bursts-A1
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $B --out /tmp/labA/bursts-B2
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $B --out /tmp/labA/levels-B1 --seconds 15
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $A --out /tmp/labA/levels-A1 --seconds 15
date
