#!/bin/bash
# usage: down.sh [CONFIG] (SECS=25): the example app stopped at 2 s for good, 20 req/s of /async for SECS s; prints
# the statuses, the causes in the access log and the 502s' times at weir (rt=). Uses target/profiling/weir.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE/../../.."
mkdir -p /tmp/weir-restart
S=/tmp/weir-example/gunicorn.sock
mkdir -p /tmp/weir-example; rm -f $S
.venv/bin/gunicorn -k uvicorn.workers.UvicornWorker -w 2 --chdir examples --bind unix:$S fastapi_app.app:app > /tmp/weir-restart/gun.log 2>&1 & G=$!
for i in $(seq 50); do [ -S $S ] && break; sleep 0.1; done
target/profiling/weir run --config ${1:-examples/weir.toml} > /tmp/weir-restart/weir.log 2>&1 & W=$!
sleep 0.5
.venv/bin/python $HERE/load.py 20 ${SECS:-12} /async > /tmp/weir-restart/load.out & L=$!
sleep 2; kill -TERM $G; wait $G; sleep 2; curl -s 127.0.0.1:9901/metrics | grep -E "^weir_pool_(limit|open|waiting|in_use)" ; curl -s 127.0.0.1:9901/metrics | grep -E "^weir_pool" | grep -v " 0$" | head -30
wait $L; cat /tmp/weir-restart/load.out
kill $W; wait $W
grep -o "cause=[a-z_]*" /tmp/weir-restart/weir.log | sort | uniq -c
awk '/ 50[23] /{for(i=1;i<=NF;i++) if($i ~ /^rt=/) print substr($i,4)}' /tmp/weir-restart/weir.log | sort -n | awk '{a[NR]=$1} END{print "non-2xx rt: n",NR," p50",a[int(NR/2)+1]," max",a[NR]}'
