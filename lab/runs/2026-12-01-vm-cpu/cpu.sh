#!/bin/bash
# Issue 9, point 1: CPU per request by counts, not time (the VM is shared and noisy, and has no
# PMU: `perf stat -e instructions` reports <not supported>, so user-space instructions come from
# valgrind's callgrind instead).
#
# For each binary given as NAME=PATH and each load, a fresh gateway, a warm-up of 1,000 requests,
# then exactly N requests by `ab -k -c 10` (ab9.sh's setup: weir-lab-ceiling on a Unix socket):
#   flood: a route limited to 1r/m by client address (every answer after the first is a 429)
#   proxy: through to the ceiling upstream
# Measures, each in its own gateway process:
#   ir:     user-space instructions per request (callgrind, counters zeroed after the warm-up,
#           dumped after the N requests; the profile is kept as cg-NAME-LOAD for cgtop.py)
#   cs:     context switches per request (`perf stat -e context-switches -p`), and user/system
#           CPU ticks per 1,000 requests from /proc/PID/stat (time: noisy, for the split only)
#   sc:     syscalls per request, by type (`strace -c -f -p`)
# Binaries: `cargo build --profile profiling -p weir-cli` (target/profiling/weir: release with
# the line tables callgrind and perf name functions by; the release profile has none).
# Usage: cpu.sh old=/path/weir head=/path/weir ...   (env: N=20000 NIR=3000 ROUNDS=1 MODES="ir cs sc")
set -u
N=${N:-20000}
NIR=${NIR:-3000}
ROUNDS=${ROUNDS:-1}
MODES=${MODES:-ir cs sc}
CEIL=${CEIL:-/tmp/cpu/ceiling}
PORT=${PORT:-18401}
D=${OUT:-/tmp/cpu-run}; mkdir -p $D; rm -f $D/up.sock
$CEIL --tcp 127.0.0.1:$((PORT + 1)) --unix $D/up.sock >/dev/null 2>&1 & UP=$!
trap 'kill $UP 2>/dev/null' EXIT
sleep 0.5
kill -0 $UP 2>/dev/null && [ -S $D/up.sock ] || { echo "the ceiling upstream did not start" >&2; exit 1; }
cat > $D/w.toml <<EOT
[server]
listen = ["127.0.0.1:$PORT"]
max_connections = 20000
[upstreams.app]
servers = ["unix:$D/up.sock"]
max_idle = 256
[limits.flood]
key = "client_ip"
rate = "1r/m"
nodelay = true
[[routes]]
path = "/flood"
upstream = "app"
limits = ["flood"]
[[routes]]
path = "/"
upstream = "app"
response_buffering = false
EOT
tck=$(getconf CLK_TCK)
wait_port() {
  for _ in $(seq 200); do
    (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
load() { # n path -> prints completed requests; a run with non-2xx answers on the proxy route
  # (or 2xx past the first on the flood route) is void; ab's "Failed requests" (the old binary
  # has a few dozen per 20,000: connections it closes) are shown
  ab -q -k -c 10 -n $1 http://127.0.0.1:$PORT$2 2>/dev/null | awk -v path=$2 -v n=$1 '
    /Complete requests/ {done = $3} /Failed requests/ {failed = $3} /Non-2xx/ {non2xx = $3}
    END {
      if ((path == "/" && non2xx > 0) || (path == "/flood" && non2xx + failed < n - 1))
        print "VOID(non2xx=" non2xx+0 ")"
      else if (failed > 0) print done "(ab-failed=" failed ")"
      else print done }'
}
ir() { # name bin load path
  local name=$1 bin=$2 what=$3 path=$4
  rm -f $D/cg.*
  valgrind --tool=callgrind --callgrind-out-file=$D/cg.%p $bin run --config $D/w.toml 2>/dev/null & local W=$!
  wait_port
  load 1000 $path >/dev/null
  callgrind_control -z $W >/dev/null
  local done_; done_=$(load $NIR $path)
  callgrind_control -d $W >/dev/null
  kill $W; wait $W 2>/dev/null
  local dump; dump=$(ls $D/cg.*.1)
  mv $dump $D/cg-$name-$what
  local total; total=$(awk '/^summary:/ {print $2}' $D/cg-$name-$what)
  printf "%-8s %-6s ir  n=%s  user instructions/req %7.0f\n" $name $what "$done_" $(echo "$total/$NIR" | bc -l)
}
cs() {
  local name=$1 bin=$2 what=$3 path=$4
  $bin run --config $D/w.toml 2>/dev/null & local W=$!
  wait_port
  load 1000 $path >/dev/null
  read -r u1 s1 < <(awk '{print $14, $15}' /proc/$W/stat)
  perf stat -x, -o $D/stat -e context-switches,task-clock -p $W -- \
    bash -c "$(declare -f load); PORT=$PORT; load $N $path" > $D/cs.out
  read -r u2 s2 < <(awk '{print $14, $15}' /proc/$W/stat)
  kill $W; wait $W 2>/dev/null
  local cs_; cs_=$(awk -F, '$3 ~ /context-switches/ {print $1}' $D/stat)
  printf "%-8s %-6s cs  n=%s  context switches/req %5.3f  CPU user %5.1f sys %5.1f ticks per 1,000 req\n" \
    $name $what "$(cat $D/cs.out)" $(echo "$cs_/$N" | bc -l) $(echo "($u2-$u1)*1000/$N" | bc -l) $(echo "($s2-$s1)*1000/$N" | bc -l)
}
sc() {
  local name=$1 bin=$2 what=$3 path=$4
  $bin run --config $D/w.toml 2>/dev/null & local W=$!
  wait_port
  load 1000 $path >/dev/null
  strace -c -f -o $D/strace-$name-$what -p $W 2>/dev/null & local S=$!
  sleep 1
  local done_; done_=$(load $N $path)
  kill -INT $S; wait $S 2>/dev/null
  kill $W; wait $W 2>/dev/null
  local per; per=$(awk -v n=$N '$1 ~ /^[0-9.]+$/ && $NF != "total" { printf "%s %.3f  ", $NF, $4 / n }' $D/strace-$name-$what)
  local total; total=$(awk -v n=$N '$NF == "total" { printf "%.3f", $4 / n }' $D/strace-$name-$what)
  printf "%-8s %-6s sc  n=%s  syscalls/req %s  (%s)\n" $name $what "$done_" "$total" "$per"
}
for round in $(seq $ROUNDS); do
  for mode in $MODES; do
    for spec in "$@"; do
      name=${spec%%=*}; bin=${spec#*=}
      $mode $name $bin flood /flood
      $mode $name $bin proxy /
    done
  done
done
