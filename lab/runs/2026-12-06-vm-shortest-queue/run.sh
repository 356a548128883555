# usage: jsq-run.sh BIN ; two sync Gunicorns of 2 workers; ab -c 6 of 20 ms requests while a 1 s request comes every 0.4 s
cd /work/main
rm -f /tmp/jsq-a.sock /tmp/jsq-b.sock
.venv/bin/gunicorn -w 2 --chdir lab/apps --bind unix:/tmp/jsq-a.sock overload_app:wsgi > /tmp/jsq-a.log 2>&1 &
A=$!
.venv/bin/gunicorn -w 2 --chdir lab/apps --bind unix:/tmp/jsq-b.sock overload_app:wsgi > /tmp/jsq-b.log 2>&1 &
B=$!
sleep 1.5
$1 run --config lab/runs/2026-12-06-vm-shortest-queue/weir.toml > /tmp/jsq-weir.log 2>&1 &
W=$!; sleep 0.5
( for i in $(seq 25); do curl -s -o /dev/null "http://127.0.0.1:18082/work?ms=1000&id=long$i" & sleep 0.4; done; wait ) &
L=$!
ab -q -c 6 -n 1500 "http://127.0.0.1:18082/work?ms=20" 2>&1 | grep -E "Requests per second|Failed|Non-2xx|  50%|  90%|  99%|100%"
wait $L
kill $W; kill $A $B; wait $W $A $B 2>/dev/null
