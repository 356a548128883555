for i in 1 2 3 4; do timeout 30 curl -s -N -o /dev/null "http://127.0.0.1:8080/drip?chunks=20&ms=1000" & done
sleep 2
for i in 1 2 3 4 5; do curl -s -o /dev/null -m 12 -w "%{http_code} %{time_total}\n" http://127.0.0.1:8080/async; done
curl -s http://127.0.0.1:9901/metrics | grep -E "^weir_pool_(limit|in_flight|busy|service|refus)" 
