#!/bin/bash
# A/B: weir at 1ac3368 (before this session) vs HEAD, same config, behind weir-lab-ceiling on a UDS.
set -u
D=/tmp/ab; mkdir -p $D; rm -f $D/up.sock
/work/main/target/release/weir-lab-ceiling --tcp 127.0.0.1:18200 --unix $D/up.sock >/dev/null 2>&1 & UP=$!
sleep 0.5
cat > $D/w.toml <<EOT
[server]
listen = ["127.0.0.1:18201"]
[upstreams.app]
servers = ["unix:$D/up.sock"]
[[routes]]
path = "/"
upstream = "app"
response_buffering = false
EOT
tck=$(getconf CLK_TCK)
for round in 1 2 3; do
  for v in old new; do
    bin=/work/wt-old/target/release/weir; [ $v = new ] && bin=/work/main/target/release/weir
    $bin run --config $D/w.toml 2>/dev/null & W=$!
    sleep 0.5
    wrk -t2 -c100 -d1s http://127.0.0.1:18201/ >/dev/null
    read -r u1 s1 < <(awk '{print $14, $15}' /proc/$W/stat)
    out=$(wrk -t2 -c100 -d5s --latency http://127.0.0.1:18201/)
    read -r u2 s2 < <(awk '{print $14, $15}' /proc/$W/stat)
    reqs=$(echo "$out" | awk '/requests in/ {print $1}')
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p99=$(echo "$out" | awk '$1=="99%" {print $2}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
    errs=$(echo "$out" | awk '/Socket errors/ {print $0}')
    cpu_us=$(echo "($u2-$u1+$s2-$s1)*1000000/$tck/$reqs" | bc -l)
    printf "%s round %d: %s req/s, p99 %s, CPU %.2f us/req (user %d sys %d ticks) non2xx=%s %s\n" $v $round $rps $p99 $cpu_us $((u2-u1)) $((s2-s1)) "${non2xx:-0}" "$errs"
    kill $W; wait $W 2>/dev/null
  done
done
kill $UP
