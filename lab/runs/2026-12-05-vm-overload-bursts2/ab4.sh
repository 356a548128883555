#!/bin/sh
cd /work/h-burst
run() { name=$1; shift; flock -x /tmp/weir-cpu.lock sh -c "echo $name start \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) >> /tmp/hb/ab.log; $* > /tmp/hb/runs/$name.out 2>&1"; }
run kd2 "OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/hb/lab-burst --weir /tmp/hb/weir-disp --out /tmp/hb/runs/kd2"
run km2 "OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/hb/lab-burst --weir /tmp/hb/weir-main --out /tmp/hb/runs/km2"
echo done4 >> /tmp/hb/ab.log
