#!/bin/bash
# This session's lab runs, under one exclusive hold of the CPU lock:
#   flock -x /tmp/weir-cpu.lock ./runall.sh
cd /work/h-over7
R=lab/runs/2026-12-05-vm-overload-async2
one() { # NAME BIN ONLY
  mkdir -p $R/$1
  { date -u; uptime; } > $R/$1/lab.log
  env OVERLOAD_ONLY=$3 WEIR_E2E=1 /tmp/h-over7/weir-lab-overload --weir $2 --out $R/$1 --seconds 15 >> $R/$1/lab.log 2>&1
  { date -u; uptime; } >> $R/$1/lab.log
}
one before-block /tmp/h-over7/weir-before weir-async-block
one after-block /tmp/h-over7/weir-after weir-async-block
one after-free /tmp/h-over7/weir-after weir-async
one before-free /tmp/h-over7/weir-before weir-async
