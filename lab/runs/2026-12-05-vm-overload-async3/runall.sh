#!/bin/bash
# This session's lab runs, under one exclusive hold of the CPU lock:
#   flock -x /tmp/weir-cpu.lock ./runall.sh SUFFIX
# weir-main = main a78a6fa's profiling build, weir-h-over9 = this branch's; weir-lab-overload
# from this branch (the lab is main's).
cd /work/h-over9
R=lab/runs/2026-12-05-vm-overload-async3
S=$1
one() { # NAME BIN ONLY
  mkdir -p $R/$1$S
  { date -u; uptime; } > $R/$1$S/lab.log
  env OVERLOAD_ONLY=$3 WEIR_E2E=1 /tmp/h-over9/weir-lab-overload --weir $2 --out $R/$1$S --seconds 15 >> $R/$1$S/lab.log 2>&1
  { date -u; uptime; } >> $R/$1$S/lab.log
}
one main-block /tmp/weir-main-a78a6fa weir-async-block
one after-block /tmp/h-over9/weir-h-over9 weir-async-block
one after-free /tmp/h-over9/weir-h-over9 weir-async
one main-free /tmp/weir-main-a78a6fa weir-async
