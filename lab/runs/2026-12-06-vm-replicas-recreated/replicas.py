"""Two replicas that Compose recreates together, on loopback: the example Flask app (2 sync
workers each) on 127.0.0.2:18700 and 127.0.0.3:18700 behind a gateway on 127.0.0.1:8080 that
knows them by the name `web`. 20 req/s of `/` for 14 s, open loop, a new connection per request;
at 4 s both Gunicorns are stopped (TERM), the name is removed (NXDOMAIN: the containers are away)
for GAP seconds (default 1), then it gives 127.0.0.4 and 127.0.0.5, where the Gunicorns start
again. Prints the statuses, when the non-200s were sent, and the latencies.

The DNS server, Gunicorn, the gateways (their configs too) and the load are those of
lab/runs/2026-12-06-vm-container-moves/move.py, imported from there.

usage (from the repository's root): .venv/bin/python lab/runs/2026-12-06-vm-replicas-recreated/replicas.py GATEWAY
GATEWAY: weir-workers | weir-plain | nginx; WEIR=binary (default target/profiling/weir).
APP=fastapi: the example FastAPI app under Uvicorn workers instead, `worker_class = "async"`.
"""

import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../2026-12-06-vm-container-moves"))
import move  # noqa: E402

if os.environ.get("APP") == "fastapi":
    move.WORKER, move.APP_MODULE = "uvicorn.workers.UvicornWorker", "fastapi_app.app:app"
    move.WEIR_WORKERS = 'workers = 2\nworker_class = "async"\n'


def main():
    kind = sys.argv[1]
    os.makedirs(f"{move.TMP}/nginx", exist_ok=True)
    open(f"{move.TMP}/gunicorn.log", "w").close()
    dns, dns_port = move.dns_start()
    move.dns_set(dns, "127.0.0.2", "127.0.0.3")
    apps = [move.gunicorn("127.0.0.2"), move.gunicorn("127.0.0.3")]
    gw = move.gateway(kind, dns_port)
    results = []
    t0 = time.time()
    loader = threading.Thread(target=move.load, args=(results, t0))
    loader.start()
    time.sleep(move.STOP_AT)
    for app in apps:
        app.terminate()
    for app in apps:
        app.wait()
    move.dns_set(dns)
    time.sleep(move.GAP)
    move.dns_set(dns, "127.0.0.4", "127.0.0.5")
    apps = [move.gunicorn("127.0.0.4"), move.gunicorn("127.0.0.5")]
    print(f"{kind}: the replicas away from {move.STOP_AT:.1f} s to {time.time() - t0:.1f} s")
    loader.join()
    move.report(results)
    gw.terminate()
    gw.wait()
    for app in apps:
        app.terminate()
        app.wait()
    dns.stdin.close()
    dns.wait()


if __name__ == "__main__":
    main()
