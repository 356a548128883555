#!/bin/sh
# Runs weir-workers alone with each named binary in turn: NAME:BINARY ... (results in /tmp/h-over6/runs/NAME)
for v in "$@"; do
  name=${v%%:*}; bin=${v#*:}
  mkdir -p /tmp/h-over6/runs/$name
  echo "== $name $bin $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"
  OVERLOAD_ONLY=weir-workers WEIR_E2E=1 /tmp/h-over6/bin/lab --weir $bin --out /tmp/h-over6/runs/$name --seconds 15 2>&1 | grep -v "^weir-workers,"
done
echo "== end $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"
