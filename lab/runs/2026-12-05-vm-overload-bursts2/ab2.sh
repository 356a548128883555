#!/bin/sh
cd /work/h-burst
while ! grep -q '^done' /tmp/hb/ab.log; do sleep 5; done
run() { name=$1; shift; flock -x /tmp/weir-cpu.lock sh -c "echo $name start \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) >> /tmp/hb/ab.log; $* > /tmp/hb/runs/$name.out 2>&1"; }
run kd1 "OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers,nginx,haproxy WEIR_E2E=1 /tmp/hb/lab-burst --weir /tmp/hb/weir-disp --out /tmp/hb/runs/kd1"
run km1 "OVERLOAD_BURSTS=1 OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/hb/lab-burst --weir /tmp/hb/weir-main --out /tmp/hb/runs/km1"
run bd3 ".venv/bin/python lab/runs/2026-12-05-vm-overload-bursts/burst.py /tmp/hb/weir-disp /tmp/hb/runs/bd3"
run bm3 ".venv/bin/python lab/runs/2026-12-05-vm-overload-bursts/burst.py /tmp/hb/weir-main /tmp/hb/runs/bm3"
echo done2 >> /tmp/hb/ab.log
