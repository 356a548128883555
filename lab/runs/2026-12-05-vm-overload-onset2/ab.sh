#!/bin/sh
# Runs weir-workers alone with each named binary in turn, one exclusive hold of the CPU lock per
# run: NAME:BINARY ... (results, access logs included, in /tmp/h-onset2/runs/NAME).
for v in "$@"; do
  name=${v%%:*}; bin=${v#*:}
  while [ ! -x $bin ]; do sleep 5; done
  mkdir -p /tmp/h-onset2/runs/$name
  flock -x /tmp/weir-cpu.lock sh -c "echo \"== $name $bin \$(md5sum < $bin | cut -c1-8) \$(date -u +%T) \$(cut -d' ' -f1-3 /proc/loadavg)\";
    OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/h-onset2/bin/lab --weir $bin --out /tmp/h-onset2/runs/$name --seconds 15 2>&1 | grep -v '^weir-workers,'; echo \"== done $name \$(date -u +%T) \$(cut -d' ' -f1-3 /proc/loadavg)\""
done
