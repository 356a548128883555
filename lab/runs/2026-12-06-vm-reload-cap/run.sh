#!/bin/bash
# usage: run.sh (WEIR=binary): the example Flask app under 2 sync workers on 127.0.0.1:18700, weir with a.toml (workers = 2);
# ab -c 8 of /slow?ms=100 for 8 s; at 3 s weir reloads with b.toml (queue_timeout changed: a changed upstream table);
# the app socket's listen backlog sampled every 50 ms.
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE/../../.."
mkdir -p /tmp/weir-reload-cap
.venv/bin/gunicorn -k sync -w 2 --chdir examples --bind 127.0.0.1:18700 flask_app.app:app > /tmp/weir-reload-cap/gun.log 2>&1 & G=$!
until curl -s -o /dev/null 127.0.0.1:18700/; do sleep 0.05; done
cp $HERE/a.toml /tmp/weir-reload-cap/cur.toml
${WEIR:-target/profiling/weir} run --config /tmp/weir-reload-cap/cur.toml > /tmp/weir-reload-cap/weir.log 2>&1 & W=$!
sleep 0.5
ab -q -c 8 -t 8 "http://127.0.0.1:8080/slow?ms=100" > /tmp/weir-reload-cap/ab.out 2>&1 & A=$!
( for i in $(seq 160); do ss -ltn "sport = :18700" | awk 'NR>1{print $2}'; sleep 0.05; done ) > /tmp/weir-reload-cap/backlog.txt & S=$!
sleep 3
cp $HERE/b.toml /tmp/weir-reload-cap/cur.toml; kill -HUP $W
wait $A; wait $S
echo "backlog max $(sort -n /tmp/weir-reload-cap/backlog.txt | tail -1), samples>0: $(awk '$1>0' /tmp/weir-reload-cap/backlog.txt | wc -l)"
grep -E "Complete requests|Non-2xx|Requests per second" /tmp/weir-reload-cap/ab.out
kill $W; wait $W 2>/dev/null; kill -TERM $G; wait $G
