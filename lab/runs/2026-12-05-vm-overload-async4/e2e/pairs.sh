#!/bin/bash
# pairs.sh LABEL BRANCH_BIN [MAIN_BIN]: touches weir's lib.rs in a scratch copy of main's source,
# runs `cargo build --release -p weir-cli` there (its own target dir), and while it runs, pairs
# of the two adaptive E2E tests (main's and the branch's `it` binaries at once), back to back.
label=$1; bin=$2; mainbin=${3:-/tmp/h-floor-it-main-93d9648}
out=/tmp/h-floor-pairs/$label; mkdir -p $out
cd /work/h-floor/crates/weir
touch /tmp/h-floor-relsrc/crates/weir/src/lib.rs
echo "build start $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" > $out/info
( cd /tmp/h-floor-relsrc && s=$(date +%s); CARGO_TARGET_DIR=/tmp/h-floor-reltarget flock -s /tmp/weir-cpu.lock cargo build --release -p weir-cli > $out/build.log 2>&1; echo "build rc $? $(( $(date +%s)-s ))s" >> $out/info; touch $out/build.done ) &
sleep 2
i=0
while [ ! -e $out/build.done ]; do
  i=$((i+1))
  s="$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"
  WEIR_E2E=1 flock -s /tmp/weir-cpu.lock $mainbin an_async_apps_limit > $out/main$i.log 2>&1 & m=$!
  WEIR_E2E=1 flock -s /tmp/weir-cpu.lock $bin an_async_apps_limit > $out/branch$i.log 2>&1 & b=$!
  wait $m; mr=$?; wait $b; br=$?
  r() { grep -q "falls_toward.*ok" $1 && echo -n "block ok" || echo -n "block FAIL"; grep -q "fails_and_rises_again ... ok" $1 && echo -n ", fail ok" || echo -n ", fail FAIL"; echo -n " ($(grep -o 'finished in [0-9.]*s' $1 | cut -d' ' -f3); $(grep -o 'waited 60s for [^"]*' $1 | sort | uniq -c | tr -s ' ' | tr '\n' ';'))"; }
  echo "pair $i start $s | main: $(r $out/main$i.log) | branch: $(r $out/branch$i.log) | end $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a $out/info
done
wait
cat $out/info
