#!/bin/sh
# ab.sh NAME:BIN:KIND ... ; KIND burst (burst.py) or lab (weir-lab-overload weir-workers); each under flock -x
cd /work/h-burst
for spec in "$@"; do
  name=${spec%%:*}; rest=${spec#*:}; bin=${rest%%:*}; kind=${rest#*:}
  if [ "$kind" = burst ]; then
    flock -x /tmp/weir-cpu.lock sh -c "echo $name start \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) >> /tmp/hb/ab.log; .venv/bin/python lab/runs/2026-12-05-vm-overload-bursts/burst.py $bin /tmp/hb/runs/$name > /tmp/hb/runs/$name.out 2>&1"
  else
    flock -x /tmp/weir-cpu.lock sh -c "echo $name start \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) >> /tmp/hb/ab.log; OVERLOAD_ONLY=weir-workers WEIR_E2E=1 ${LAB:-/tmp/hb/lab-main} --weir $bin --out /tmp/hb/runs/$name --seconds 15 > /tmp/hb/runs/$name.out 2>&1"
  fi
done
echo done$DONE >> /tmp/hb/ab.log
