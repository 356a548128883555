#!/bin/bash
# Issue 9, point 4: peak RSS (and CPU per request) with 100 clients fetching 1 MB responses.
# Upstream: weir-lab-ceiling serving a 1 MB file on a Unix socket. Load: wrk -t2 -c100 -d5s
# after a 1 s warm-up, a fresh gateway process per measurement (VmHWM is a lifetime peak).
# Peak RSS = sum of VmHWM over the gateway's processes (nginx: master + workers), read after the
# load while the gateway still runs. CPU = utime+stime over the tree during the 5 s load.
# Usage: big.sh [ROUNDS] [GATEWAYS...]   gateways: nginx weir weir-nobuf weir-before (the binary
# $WEIR_BEFORE with response_buffering on) weir-splice weir-copy (see README)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${ROOT:-$(cd "$HERE/../../.." && pwd)}
WEIR=${WEIR:-$ROOT/target/release/weir}
CEIL=${CEIL:-$ROOT/target/release/weir-lab-ceiling}
ROUNDS=${1:-3}; shift || true
GATEWAYS=${*:-nginx weir weir-nobuf}
D=$(mktemp -d /tmp/weir-big.XXXXXX); chmod 755 $D  # nginx workers run as nobody
head -c 1000000 /dev/urandom > $D/body
$CEIL --tcp 127.0.0.1:0 --unix $D/up.sock --body-file $D/body >/dev/null 2>&1 & UP=$!
for _ in $(seq 50); do [ -S $D/up.sock ] && break; sleep 0.1; done
PORT=18611
weir_config() { # response_buffering
  cat > $D/weir-$1.toml <<EOT
[server]
listen = ["127.0.0.1:$PORT"]
max_connections = 20000
[upstreams.app]
servers = ["unix:$D/up.sock"]
[[routes]]
path = "/"
upstream = "app"
response_buffering = $1
EOT
}
weir_config true; weir_config false
mkdir -p $D/nginx
cat > $D/nginx/nginx.conf <<EOT
worker_processes auto;
pid $D/nginx/nginx.pid;
error_log stderr;
events { worker_connections 10000; use epoll; }
http {
  access_log off;
  tcp_nodelay on;
  client_body_temp_path $D/nginx/client_body;
  proxy_temp_path $D/nginx/proxy;
  fastcgi_temp_path $D/nginx/fastcgi;
  uwsgi_temp_path $D/nginx/uwsgi;
  scgi_temp_path $D/nginx/scgi;
  upstream app {
    server unix:$D/up.sock;
    keepalive 64;
    keepalive_requests 100000;
  }
  server {
    listen 127.0.0.1:$PORT;
    keepalive_requests 100000;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
EOT
tck=$(getconf CLK_TCK)
tree() { # pid: the pid and its descendants
  local all=$1 frontier=$1 next
  while [ -n "$frontier" ]; do
    next=""
    for p in $frontier; do next="$next $(cat /proc/$p/task/*/children 2>/dev/null)"; done
    frontier=$(echo $next); all="$all $frontier"
  done
  echo $all
}
sum_status() { # field pids...
  local field=$1 total=0 v; shift
  for p in "$@"; do v=$(awk -v f="$field:" '$1==f {print $2}' /proc/$p/status 2>/dev/null); total=$((total + ${v:-0})); done
  echo $total
}
sum_cpu() { local total=0 u s; for p in "$@"; do read -r u s < <(awk '{print $14+$16, $15+$17}' /proc/$p/stat); total=$((total+u+s)); done; echo $total; }
measure() { # gateway round
  local gw=$1 round=$2 G
  case $gw in
    nginx) /usr/sbin/nginx -c $D/nginx/nginx.conf -p $D/nginx -g 'daemon off;' 2>/dev/null & G=$! ;;
    weir) $WEIR run --config $D/weir-true.toml 2>/dev/null & G=$! ;;
    weir-nobuf) $WEIR run --config $D/weir-false.toml 2>/dev/null & G=$! ;;
    weir-before) $WEIR_BEFORE run --config $D/weir-true.toml 2>/dev/null & G=$! ;;
    weir-splice) WEIR_SPLICE=1 $WEIR run --config $D/weir-false.toml 2>/dev/null & G=$! ;;
    weir-copy) WEIR_SPLICE=0 $WEIR run --config $D/weir-false.toml 2>/dev/null & G=$! ;;
  esac
  for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$PORT/ && break; sleep 0.1; done
  wrk -t2 -c100 -d1s http://127.0.0.1:$PORT/ >/dev/null
  local pids c1 c2 out reqs rps hwm rss
  pids=$(tree $G)
  c1=$(sum_cpu $pids)
  out=$(wrk -t2 -c100 -d5s http://127.0.0.1:$PORT/)
  pids=$(tree $G)
  c2=$(sum_cpu $pids)
  hwm=$(sum_status VmHWM $pids); rss=$(sum_status VmRSS $pids)
  reqs=$(echo "$out" | awk '/requests in/ {print $1}')
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  local errs; errs=$(echo "$out" | awk '/Socket errors|Non-2xx/ {printf "%s ", $0}')
  printf "%-11s round %d: %8s req/s  peak RSS %7d KiB  RSS after %7d KiB  CPU %7.1f us/req  procs %d %s\n" \
    $gw $round $rps $hwm $rss $(echo "($c2-$c1)*1000000/$tck/$reqs" | bc -l) $(echo $pids | wc -w) "$errs"
  kill $G; wait $G 2>/dev/null
  sleep 0.5
}
echo "# $(date -u +%FT%TZ) $(uname -r) nproc=$(nproc) load: $(cut -d' ' -f1-3 /proc/loadavg) weir=$WEIR"
for round in $(seq $ROUNDS); do
  for gw in $GATEWAYS; do measure $gw $round; done
done
kill $UP; wait $UP 2>/dev/null
rm -rf $D
