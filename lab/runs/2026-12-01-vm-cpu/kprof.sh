#!/bin/bash
# Where the gateway's kernel time goes, per request: `perf record -e cpu-clock -g` (no PMU on
# this VM: cpu-clock is a software timer, sampling only while the gateway's threads are on a CPU)
# around exactly N proxied requests (`ab -k -c 10`): CPU per request from the sample count, the
# kernel's share, and the share under the main kernel paths. Time-based, so noisy on a shared
# VM: for shares and differences in shape, not for ratios of a few percent.
# Binaries: `cargo build --profile profiling -p weir-cli` (target/profiling/weir, with line tables).
# Usage: kprof.sh NAME=PATH ...   (env: N=50000 URLPATH=/ FREQ=4000; run cpu.sh's setup first:
# it reads /tmp/cpu-run/w.toml and needs the ceiling upstream running, see cpu.sh)
set -u
N=${N:-50000}
URLPATH=${URLPATH:-/}
FREQ=${FREQ:-4000}
PORT=${PORT:-18401}
D=${OUT:-/tmp/cpu-run}
for spec in "$@"; do
  name=${spec%%=*}; bin=${spec#*=}
  $bin run --config $D/w.toml 2>/dev/null & W=$!
  for _ in $(seq 200); do (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
  ab -q -k -c 10 -n 2000 http://127.0.0.1:$PORT$URLPATH >/dev/null 2>&1
  perf record -q -F $FREQ -e cpu-clock -g -o $D/kprof-$name.data -p $W -- \
    ab -q -k -c 10 -n $N http://127.0.0.1:$PORT$URLPATH >/dev/null 2>&1
  kill $W; wait $W 2>/dev/null
  samples=$(perf script -i $D/kprof-$name.data -F tid 2>/dev/null | grep -c .)
  kernel=$(perf report -i $D/kprof-$name.data --no-children --sort dso -q 2>/dev/null | \
    awk '/kernel.kallsyms/ {gsub("%", "", $1); print $1}')
  echo "== $name: $samples samples for $N requests ($((1000000 / FREQ)) us each): \
$(echo "scale=2; $samples * 1000000 / $FREQ / $N" | bc) us on CPU per request, ${kernel}% of it in the kernel"
  echo "-- share of the gateway's samples under each kernel function (children included)"
  perf report -i $D/kprof-$name.data --children --sort sym -q --percent-limit 3 2>/dev/null | \
    grep -E "\[k\] (do_syscall_64|sock_write_iter|__x64_sys_(epoll_wait|recvfrom|writev|write)|schedule|tcp_v4_rcv|unix_stream_(sendmsg|recvmsg)|eventfd_write|ep_poll_callback|try_to_wake_up)$" | \
    awk '{printf "  %7s  %s\n", $1, $NF}'
done
