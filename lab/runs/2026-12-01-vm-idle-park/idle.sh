#!/bin/bash
# Issue 9 point 2: RSS per idle keep-alive connection, 5,000 connections opened one after another
# (one GET each, as the lab's idle-connections scenario), measured 1 s after the last, on a fresh
# process per measurement. Upstream: weir-lab-ceiling on a Unix socket.
#   before        weir at 50dfc45 (the codec; idle connections wait in their tasks)
#   before+nothp  the same with MIMALLOC_ALLOW_THP=0 (transparent huge pages off for its heap)
#   park          parking (h1/park.rs), THP left on (WEIR_KEEP_THP=1 is not a thing: a build of
#                 67b4b56 without the prctl line)
#   head          parking (table in 512-slot chunks) and THP off (the prctl in weir-cli's main)
#   nginx tuned   worker_processes auto, upstream keepalive 64
set -u
BEFORE=${BEFORE:?weir at 50dfc45}; PARK=${PARK:?weir with parking, without the prctl}; HEAD=${HEAD:?weir at HEAD}
CEIL=${CEIL:-/work/main/target/release/weir-lab-ceiling}
D=$(mktemp -d); chmod 755 $D; here=$(dirname "$0")
$CEIL --tcp 127.0.0.1:18320 --unix $D/up.sock >/dev/null 2>&1 & UP=$!
sleep 0.5
cat > $D/w.toml <<EOT
[server]
listen = ["127.0.0.1:18321"]
max_connections = 20000
[upstreams.app]
servers = ["unix:$D/up.sock"]
max_idle = 256
[[routes]]
path = "/"
upstream = "app"
EOT
cat > $D/nginx.conf <<EOT
worker_processes auto;
worker_rlimit_nofile 30000;
pid $D/nginx.pid;
error_log $D/error.log;
events { worker_connections 20000; }
http {
  access_log off;
  upstream app { server unix:$D/up.sock; keepalive 64; }
  server {
    listen 127.0.0.1:18321;
    keepalive_timeout 75s;
    keepalive_requests 100000;
    location / { proxy_pass http://app; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
EOT
one() { # label command...
  local label=$1; shift
  "$@" >/dev/null 2>&1 & local W=$!
  python3 $here/idle_seq.py 127.0.0.1 18321 5000 $W "$label" 1
  kill $W; wait $W 2>/dev/null
}
for round in 1 2 3; do
  echo "round $round"
  one "before" $BEFORE run --config $D/w.toml
  one "before+nothp" env MIMALLOC_ALLOW_THP=0 $BEFORE run --config $D/w.toml
  one "park" $PARK run --config $D/w.toml
  one "head (park+nothp)" $HEAD run --config $D/w.toml
  one "nginx tuned" /usr/sbin/nginx -c $D/nginx.conf -g "daemon off;"
done
kill $UP
