#!/bin/sh
# Runs weir-workers alone with each named binary in turn, one exclusive hold of the CPU lock per
# run: NAME:BINARY ... (results in /tmp/h-onset/runs/NAME). Run from the worktree's root.
for v in "$@"; do
  name=${v%%:*}; bin=${v#*:}
  mkdir -p /tmp/h-onset/runs/$name
  flock -x /tmp/weir-cpu.lock sh -c "echo \"== $name $bin \$(date -u +%T) \$(cut -d' ' -f1-3 /proc/loadavg)\";
    OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/h-onset/bin/lab --weir $bin --out /tmp/h-onset/runs/$name --seconds 15 2>&1 | grep -v '^weir-workers,'"
done
echo "== end $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"
