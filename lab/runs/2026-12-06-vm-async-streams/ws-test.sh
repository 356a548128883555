timeout 20 .venv-standard/bin/python lab/runs/2026-12-06-vm-async-streams/ws.py &
sleep 2
for i in 1 2 3; do curl -s -o /dev/null -m 8 -w "%{http_code} %{time_total}\n" http://127.0.0.1:8080/async; done
curl -s http://127.0.0.1:9901/metrics | grep -E "^weir_pool_(limit|service)\{" 
wait
