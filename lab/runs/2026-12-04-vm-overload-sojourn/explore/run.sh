#!/bin/sh
cd /work/h-over2
for v in "$@"; do
  name=${v%%:*}; envs=${v#*:}
  mkdir -p /tmp/h-over2-x/$name
  echo "== $name $envs $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"
  env $envs OVERLOAD_ONLY=weir-workers WEIR_E2E=1 target/release/weir-lab-overload --weir /tmp/h-over2-weir-x --out /tmp/h-over2-x/$name --seconds 15 2>&1 | cut -d, -f1,3-4,8,11-16,23-24
done
