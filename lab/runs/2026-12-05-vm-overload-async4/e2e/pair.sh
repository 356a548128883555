#!/bin/bash
# pair.sh LABEL BESIDE(none|release) BRANCH_BIN [MAIN_BIN]
# Runs the two adaptive E2E tests of main's and the branch's `it` binaries at once, from crates/weir.
label=$1; beside=$2; bin=$3; mainbin=${4:-/tmp/h-floor-it-main-93d9648}
out=/tmp/h-floor-pairs/$label; mkdir -p $out
cd /work/h-floor/crates/weir
echo "start $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" > $out/info
if [ "$beside" = release ]; then
  touch /tmp/h-floor-relsrc/crates/weir/src/lib.rs
  ( cd /tmp/h-floor-relsrc && s=$(date +%s); CARGO_TARGET_DIR=/tmp/h-floor-reltarget flock -s /tmp/weir-cpu.lock cargo build --release -p weir-cli > $out/build.log 2>&1; echo "build rc $? $(( $(date +%s)-s ))s" >> $out/info ) &
  bpid=$!
  sleep 3
fi
WEIR_E2E=1 flock -s /tmp/weir-cpu.lock $mainbin an_async_apps_limit > $out/main.log 2>&1 &
m=$!
WEIR_E2E=1 flock -s /tmp/weir-cpu.lock $bin an_async_apps_limit > $out/branch.log 2>&1 &
b=$!
wait $m; echo "main rc $?" >> $out/info
wait $b; echo "branch rc $?" >> $out/info
echo "end $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/info
[ -n "$bpid" ] && wait $bpid
echo "done $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/info
for f in main branch; do echo "$f: $(grep -E '^test result|^test .* \.\.\. ' $out/$f.log | tr '\n' ' ')"; grep -o "waited [^\"]*" $out/$f.log | head -3; done
cat $out/info
