#!/bin/bash
set -x
cd /work/main
C=/tmp/labA/weir-pressure2; L=/work/main/target/profiling/weir-lab-overload
date; uptime
flock -x /tmp/weir-cpu.lock env OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $C --out /tmp/labA/bursts-C1
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_BURSTS=bg OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir /tmp/labA/weir-main --out /tmp/labA/bursts-A2
date
flock -x /tmp/weir-cpu.lock env OVERLOAD_BURSTS=bg OVERLOAD_ONLY=weir-workers WEIR_E2E=1 $L --weir $C --out /tmp/labA/bursts-C2
date
flock -x /tmp/weir-cpu.lock env WEIR_E2E=1 $L --weir $C --out /tmp/labA/all-C --seconds 15
date; uptime
