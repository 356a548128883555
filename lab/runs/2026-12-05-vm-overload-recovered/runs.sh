#!/bin/sh
# Under `flock -x /tmp/weir-cpu.lock ./runs.sh` from this folder, the worktree's release build.
# Two runs of sync workers, one of the Uvicorn app in its block mode; access logs removed.
set -e
root=../../..
for run in W1:weir-workers W2:weir-workers B1:weir-async-block; do
    dir=${run%%:*}; only=${run#*:}
    echo "$dir $only start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    env OVERLOAD_ONLY=$only WEIR_E2E=1 $root/target/release/weir-lab-overload \
        --weir $root/target/release/weir --out $dir --seconds 15 2> $dir.log || echo "$dir failed"
    echo "$dir $only end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    rm -f $dir/*.jsonl
done
