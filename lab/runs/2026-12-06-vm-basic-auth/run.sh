#!/bin/bash
# usage: run.sh WEIR_BINARY [HTPASSWD_FLAG]
# basic_auth side by side: nginx (auth_basic, tuned: worker_processes auto, upstream keepalive,
# access_log off) and weir (basic_auth), the same htpasswd file (HTPASSWD_FLAG: -B, bcrypt at
# htpasswd's default cost, 5, the default; -m, htpasswd's own default, $apr1$), in front of one
# ceiling upstream (nginx `return 200`), all on loopback.
#   A  the right password, wrk -t2 -c32 -d10s: requests/s and gateway CPU per request
#   B  a flood of wrong passwords (wrk -t1 -c32) and, beside it, /health (no password,
#      wrk -t1 -c4 --latency): what the flood leaves to other requests
# Each gateway runs alone. Prints one line per measurement.
set -eu
WEIR=$1
FLAG=${2:--B}
D=$(mktemp -d)
trap 'for p in $(cat $D/pids 2>/dev/null); do kill $p 2>/dev/null || true; done; sleep 0.5; rm -rf $D' EXIT
touch $D/pids
htpasswd -cb $FLAG "$D/htpasswd" alice secret 2>/dev/null
# nginx's workers run as nobody: they must be able to read the file.
chmod 755 "$D"; chmod 644 "$D/htpasswd"
RIGHT="Authorization: Basic $(printf alice:secret | base64)"
WRONG="Authorization: Basic $(printf alice:guess | base64)"

start_nginx() { # NAME CONF
  mkdir -p "$D/$1/logs"
  printf '%s' "$2" > "$D/$1/nginx.conf"
  /usr/sbin/nginx -p "$D/$1" -c "$D/$1/nginx.conf" -e "$D/$1/logs/error.log"
  sleep 0.5
  cat "$D/$1/logs/nginx.pid" >> $D/pids
}
start_nginx up "pid logs/nginx.pid; worker_processes 1; events { worker_connections 4096; } http { access_log off; server { listen 127.0.0.1:18901 backlog=4096; location / { return 200 \"ok\n\"; } } }"

cpu_of() { # PIDS: utime+stime in clock ticks, summed
  local total=0
  for p in "$@"; do
    set -- $(cut -d')' -f2 /proc/$p/stat); total=$((total + ${12} + ${13}))
  done
  echo $total
}

measure() { # NAME PORT PIDS...
  local name=$1 port=$2; shift 2
  local pids="$*"
  curl -s -o /dev/null -H "$RIGHT" "http://127.0.0.1:$port/" # first request: checked, then remembered
  local before=$(cpu_of $pids)
  local a=$(wrk -t2 -c32 -d10s -H "$RIGHT" "http://127.0.0.1:$port/" 2>&1)
  local after=$(cpu_of $pids)
  local rps=$(grep -oP 'Requests/sec:\s+\K[0-9.]+' <<< "$a")
  local total=$(grep -oP '^\s+\K[0-9]+(?= requests in)' <<< "$a")
  local non2xx=$(grep -oP 'Non-2xx or 3xx responses: \K[0-9]+' <<< "$a" || echo 0)
  local us=$(awk -v t=$((after - before)) -v n=$total 'BEGIN { printf "%.1f", t * 10000 / n }')
  echo "$name A right-password req/s=$rps cpu_us_per_req=$us non2xx=${non2xx:-0}"
  sleep 1
  wrk -t1 -c32 -d10s -H "$WRONG" "http://127.0.0.1:$port/" > $D/flood.txt 2>&1 &
  local flood=$!
  sleep 1
  local h=$(wrk -t1 -c4 -d8s --latency "http://127.0.0.1:$port/health" 2>&1)
  wait $flood
  local frps=$(grep -oP 'Requests/sec:\s+\K[0-9.]+' $D/flood.txt)
  local hrps=$(grep -oP 'Requests/sec:\s+\K[0-9.]+' <<< "$h")
  local p50=$(grep -oP '^\s+50%\s+\K\S+' <<< "$h")
  local p99=$(grep -oP '^\s+99%\s+\K\S+' <<< "$h")
  local fnon2xx=$(grep -oP 'Non-2xx or 3xx responses: \K[0-9]+' $D/flood.txt || echo 0)
  local ftotal=$(grep -oP '^\s+\K[0-9]+(?= requests in)' $D/flood.txt)
  echo "$name B flood wrong-password answers/s=$frps (non-2xx $fnon2xx of $ftotal); beside it /health req/s=$hrps p50=$p50 p99=$p99"
  if [ -n "${ADMIN:-}" ]; then
    curl -s "http://$ADMIN/metrics" | grep -E '^weir_requests_total\{.*status="(401|503)"' | sed "s/^/$name B   /"
  fi
}

start_nginx gw "pid logs/nginx.pid; worker_processes auto; events { worker_connections 4096; } http { access_log off; upstream up { server 127.0.0.1:18901; keepalive 32; } server { listen 127.0.0.1:18902 backlog=4096; proxy_http_version 1.1; proxy_set_header Connection \"\"; location / { auth_basic \"Staff\"; auth_basic_user_file $D/htpasswd; proxy_pass http://up; } location = /health { proxy_pass http://up; } } }"
master=$(cat $D/gw/logs/nginx.pid)
measure "nginx $(/usr/sbin/nginx -v 2>&1 | cut -d/ -f2) htpasswd $FLAG" 18902 $(pgrep -P $master)
kill $master; sleep 1

cat > $D/weir.toml <<TOML
[server]
listen = ["127.0.0.1:18903"]
backlog = 4096
[admin]
listen = "127.0.0.1:18904"
[upstreams.up]
servers = ["127.0.0.1:18901"]
[[routes]]
path = "/"
upstream = "up"
basic_auth = { realm = "Staff", user_file = "$D/htpasswd" }
[[routes]]
path = "/health"
exact = true
upstream = "up"
TOML
"$WEIR" run --config $D/weir.toml 2> $D/weir.log &
echo $! >> $D/pids
sleep 1
ADMIN=127.0.0.1:18904 measure "weir $(git -C "$(dirname "$0")" rev-parse --short HEAD) htpasswd $FLAG" 18903 $(tail -1 $D/pids)
