#!/bin/bash
# All of this session's lab runs under one exclusive hold of the CPU lock.
cd /work/h-over4
R=lab/runs/2026-12-05-vm-overload-async
one() { # NAME BIN ONLY
  mkdir -p $R/$1
  { date -u; uptime; } > $R/$1/lab.log
  env OVERLOAD_ONLY=$3 WEIR_E2E=1 /tmp/h-over4/weir-lab-overload --weir $2 --out $R/$1 --seconds 15 >> $R/$1/lab.log 2>&1
  { date -u; uptime; } >> $R/$1/lab.log
}
one C-damped /tmp/h-over4/weir-C weir-async-block
one C-damped-workers /tmp/h-over4/weir-C weir-workers
one C-damped-free /tmp/h-over4/weir-C weir-async
one A-undamped /tmp/h-over4/weir-A weir-async-block
