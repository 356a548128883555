#!/bin/bash
# Issue 9, point 1: weir before the codec (a9d348f, hyper server and client) vs after (the codec),
# same config, interleaved rounds, gateway CPU from /proc/PID/stat. Loads:
#   flood:  wrk -t2 -c100 on a route limited to 1r/m by client_ip (all 429 after the first)
#   proxy:  wrk -t2 -c100 through to weir-lab-ceiling on a Unix socket
#   single: wrk -t1 -c1, same upstream
#   idle:   5,000 keep-alive connections after one request each; RSS growth per connection
set -u
OLD=${OLD:-/work/wt-old/target/release/weir}
NEW=${NEW:-/work/main/target/release/weir}
CEIL=${CEIL:-/work/main/target/release/weir-lab-ceiling}
D=/tmp/ab9; mkdir -p $D; rm -f $D/up.sock
$CEIL --tcp 127.0.0.1:18300 --unix $D/up.sock >/dev/null 2>&1 & UP=$!
sleep 0.5
cat > $D/w.toml <<EOT
[server]
listen = ["127.0.0.1:18301"]
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
load() { # name wrk-args path
  local name=$1 args=$2 path=$3 bin=$4 v=$5 round=$6
  $bin run --config $D/w.toml 2>/dev/null & local W=$!
  sleep 0.5
  wrk $args -d1s http://127.0.0.1:18301$path >/dev/null
  read -r u1 s1 < <(awk '{print $14, $15}' /proc/$W/stat)
  local out; out=$(wrk $args -d5s --latency http://127.0.0.1:18301$path)
  read -r u2 s2 < <(awk '{print $14, $15}' /proc/$W/stat)
  local reqs rps p99 non2xx errs cpu_us
  reqs=$(echo "$out" | awk '/requests in/ {print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  errs=$(echo "$out" | awk '/Socket errors/ {print $0}')
  cpu_us=$(echo "($u2-$u1+$s2-$s1)*1000000/$tck/$reqs" | bc -l)
  printf "%-6s %-3s round %d: %9s req/s  p99 %8s  CPU %6.2f us/req (user %4d sys %4d ticks)  non2xx=%s %s\n" \
    $name $v $round $rps $p99 $cpu_us $((u2-u1)) $((s2-s1)) "${non2xx:-0}" "$errs"
  kill $W; wait $W 2>/dev/null
}
idle() {
  local bin=$1 v=$2 round=$3
  $bin run --config $D/w.toml 2>/dev/null & local W=$!
  sleep 0.5
  python3 $(dirname "$0")/idle.py 127.0.0.1 18301 5000 $W "$v round $round"
  kill $W; wait $W 2>/dev/null
}
for round in 1 2 3; do
  for v in old new; do
    bin=$OLD; [ $v = new ] && bin=$NEW
    load flood "-t2 -c100" /flood $bin $v $round
    load proxy "-t2 -c100" / $bin $v $round
    load single "-t1 -c1" / $bin $v $round
    idle $bin $v $round
  done
done
kill $UP
