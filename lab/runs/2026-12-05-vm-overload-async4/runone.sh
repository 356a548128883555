#!/bin/bash
# One lab run, under its own exclusive hold of the CPU lock:
#   flock -x /tmp/weir-cpu.lock ./runone.sh NAME BIN ONLY
# weir-main = main 93d9648's profiling build (its weir sources are those of 82a15a0, built
# 08:33), copied to /tmp/h-floor-weir-main; weir-gap2 = this branch's, /tmp/h-floor-weir-gap2;
# weir-lab-overload is main's (/tmp/h-floor-lab-main).
cd /work/h-floor
R=lab/runs/2026-12-05-vm-overload-async4
mkdir -p $R/$1
{ date -u; uptime; } > $R/$1/lab.log
env OVERLOAD_ONLY=$3 WEIR_E2E=1 /tmp/h-floor-lab-main --weir $2 --out $R/$1 --seconds 15 >> $R/$1/lab.log 2>&1
{ date -u; uptime; } >> $R/$1/lab.log
