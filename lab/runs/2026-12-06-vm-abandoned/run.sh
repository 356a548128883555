# usage: abort-run.sh BIN ; sync overload app (2 workers), clients that give up after 0.3 s
cd /work/main
mkdir -p /tmp/ovs && rm -f /tmp/ovs/*
rm -f /tmp/ovs.sock; OVERLOAD_STATE=/tmp/ovs .venv/bin/gunicorn -w 2 --chdir lab/apps --bind unix:/tmp/ovs.sock --backlog 64 overload_app:wsgi > /tmp/ovs-gun.log 2>&1 &
G=$!; sleep 1.5
$1 run --config lab/runs/2026-12-06-vm-abandoned/weir.toml > /tmp/ovs-weir.log 2>&1 &
W=$!; sleep 0.5
( for i in $(seq 40); do curl -s -o /dev/null -m 0.3 "http://127.0.0.1:18081/work?ms=1000&id=$i" & sleep 0.1; done; wait ) &
L=$!
most=0; while kill -0 $L 2>/dev/null; do b=$(ss -xl | awk '/ovs.sock/ {print $3}'); [ "$b" -gt "$most" ] && most=$b; sleep 0.05; done
echo "backlog max $most"
sleep 4; b=0; for i in $(seq 60); do b=$(ss -xl | awk '/ovs.sock/ {print $3}'); c=$(cut -d' ' -f1 /tmp/ovs/count); [ "$b" = 0 ] && [ "$c" = 0 ] && break; sleep 0.5; done
echo "app saw $(wc -l < /tmp/ovs/seen) of 40 (all clients gave up); count $(cat /tmp/ovs/count)"
curl -s http://127.0.0.1:19902/metrics | grep -E "^weir_pool_refusals_total" | grep -v " 0$"
kill $W; kill $G; wait $W $G 2>/dev/null
