#!/bin/bash
# usage: run.sh CONFIG  (from anywhere): the example FastAPI app under Gunicorn (2 Uvicorn workers, a Unix socket), weir CONFIG
# (or GWCMD, another gateway on :8080), 20 req/s of $P (/async) for 12 s, a new connection each; Gunicorn stopped (TERM) at 4 s
# and started again at once (GAP=s later; SLOWMS=N: a /slow?ms=N request in flight as it stops). WEIR=binary.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE/../../.."
mkdir -p /tmp/weir-restart/nginx
S=/tmp/weir-example/gunicorn.sock
# TCP=1: the example Flask app under 2 sync workers on 127.0.0.1:18700 instead (run-tcp.sh).
if [ -n "$TCP" ]; then
    APP="-k sync -w 2 --chdir examples --bind 127.0.0.1:18700 flask_app.app:app"
    listening() { curl -s -o /dev/null 127.0.0.1:18700/; }
else
    APP="-k uvicorn.workers.UvicornWorker -w 2 --chdir examples --bind unix:$S fastapi_app.app:app"
    listening() { [ -S $S ]; }
fi
start_gun() { ${VENV:-.venv}/bin/gunicorn $APP >> /tmp/weir-restart/gun.log 2>&1 & G=$!; }
mkdir -p /tmp/weir-example; rm -f $S; : > /tmp/weir-restart/gun.log
start_gun
for i in $(seq 50); do listening && break; sleep 0.1; done
${GWCMD:-${WEIR:-target/profiling/weir} run --config $1} > /tmp/weir-restart/weir.log 2>&1 &
W=$!
sleep 0.5
.venv/bin/python $HERE/load.py ${RATE:-20} 12 ${P:-/async} > /tmp/weir-restart/load.out &
L=$!
sleep 4
[ -n "$SLOWMS" ] && { curl -s -o /dev/null -w "slow: %{http_code} %{time_total}s\n" "127.0.0.1:8080/slow?ms=$SLOWMS" > /tmp/weir-restart/slow.out & sleep 0.2; }
T0=$(date +%s.%N); kill -TERM $G; wait $G; sleep ${GAP:-0}; start_gun
for i in $(seq 100); do listening && break; sleep 0.05; done
T1=$(date +%s.%N); echo "socket gone for $(echo "$T1-$T0"|bc) s"
wait $L; cat /tmp/weir-restart/load.out; cat /tmp/weir-restart/slow.out 2>/dev/null; rm -f /tmp/weir-restart/slow.out
kill $W; wait $W 2>/dev/null; kill -TERM $G; wait $G 2>/dev/null
