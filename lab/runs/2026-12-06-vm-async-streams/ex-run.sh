#!/bin/bash
# usage: ex-run.sh CONFIG CMD...  starts gunicorn (example app) + weir CONFIG, runs CMD, prints metrics
cd /work/main
mkdir -p /tmp/weir-example; rm -f /tmp/weir-example/gunicorn.sock
${VENV:-.venv}/bin/gunicorn -k uvicorn.workers.UvicornWorker -w 2 --chdir examples --bind unix:/tmp/weir-example/gunicorn.sock fastapi_app.app:app > /tmp/ex-gun.log 2>&1 &
G=$!
for i in $(seq 50); do [ -S /tmp/weir-example/gunicorn.sock ] && break; sleep 0.1; done
CONFIG=$1; shift
target/profiling/weir run --config $CONFIG > /tmp/ex-weir.log 2>&1 &
W=$!
sleep 0.5
bash -c "$*"
curl -s http://127.0.0.1:9901/metrics | grep -E "^weir_pool_limit\{|^weir_pool_refusals_total|^weir_pool_queue" | grep -v " 0$"
kill $W; wait $W 2>/dev/null; kill -TERM $G; wait $G 2>/dev/null
grep -o "cause=[a-z_]*" /tmp/ex-weir.log | sort | uniq -c
