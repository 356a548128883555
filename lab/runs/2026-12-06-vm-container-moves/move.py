"""A container that Compose recreates, on loopback: the example Flask app (2 sync workers) on
127.0.0.2:18700 behind a gateway on 127.0.0.1:8080 that knows it by the name `web`, from a DNS
server on loopback (weir-testkit's server.py, TTL 600 s as Docker's). 20 req/s of `/` for 14 s,
open loop, a new connection per request; at 4 s Gunicorn is stopped (TERM), the name is removed
(NXDOMAIN: the container is away) for GAP seconds (default 1), then it gives 127.0.0.3, where
Gunicorn starts again. Prints the statuses, when the non-200s were sent, and the latencies.

usage (from the repository's root): .venv/bin/python lab/runs/2026-12-06-vm-container-moves/move.py GATEWAY
GATEWAY: weir-workers | weir-plain | nginx; WEIR=binary (default target/profiling/weir).
"""

import collections
import http.client
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../.."))
TMP = "/tmp/weir-move"
GAP = float(os.environ.get("GAP", "1"))
RATE, SECS, STOP_AT = 20.0, 14.0, 4.0
# The app: Gunicorn's worker class and the app's module, and what goes beside `workers = 2` in
# weir's config (replicas.py's APP=fastapi sets them to Uvicorn's).
WORKER, APP_MODULE, WEIR_WORKERS = "sync", "flask_app.app:app", "workers = 2\n"


def dns_start():
    server = subprocess.Popen(
        [f"{ROOT}/.venv/bin/python", f"{ROOT}/crates/weir-testkit/src/dns/server.py"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split()[1])
    return server, port


def dns_set(server, *addrs):
    server.stdin.write(f"set web 600 {' '.join(addrs)}\n")
    server.stdin.flush()
    assert server.stdout.readline().strip() == "ok"


def gunicorn(ip):
    log = open(f"{TMP}/gunicorn.log", "a")
    process = subprocess.Popen(
        [f"{ROOT}/.venv/bin/gunicorn", "-k", WORKER, "-w", "2", "--chdir", f"{ROOT}/examples",
         "--bind", f"{ip}:18700", APP_MODULE], stdout=log, stderr=log)
    for _ in range(100):
        try:
            http.client.HTTPConnection(ip, 18700, timeout=1).request("GET", "/")
            return process
        except OSError:
            time.sleep(0.05)
    return process


def gateway(kind, dns_port):
    template = open(f"{HERE}/{kind.split('-')[0]}.{'conf' if kind == 'nginx' else 'toml'}").read()
    text = template.replace("DNSPORT", str(dns_port))
    if kind == "weir-plain":
        text = text.replace("workers = 2\n", "")
    else:
        text = text.replace("workers = 2\n", WEIR_WORKERS)
    path = f"{TMP}/{kind}.{'conf' if kind == 'nginx' else 'toml'}"
    open(path, "w").write(text)
    log = open(f"{TMP}/{kind}.log", "w")
    if kind == "nginx":
        command = ["nginx", "-c", path]
    else:
        command = [os.environ.get("WEIR", f"{ROOT}/target/profiling/weir"), "run", "--config", path]
    process = subprocess.Popen(command, stdout=log, stderr=log)
    time.sleep(0.5)
    return process


def load(results, t0):
    def one():
        sent = time.time()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", 8080, timeout=40)
            connection.request("GET", "/")
            response = connection.getresponse()
            response.read()
            status = response.status
        except Exception as error:
            status = type(error).__name__
        results.append((sent - t0, status, time.time() - sent))

    threads = []
    for index in range(int(RATE * SECS)):
        delay = t0 + index / RATE - time.time()
        if delay > 0:
            time.sleep(delay)
        thread = threading.Thread(target=one)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()


def report(results):
    counts = collections.Counter(status for _, status, _ in results)
    print("statuses", dict(counts))
    bad = sorted((round(at, 2), status) for at, status, _ in results if status != 200)
    if bad:
        print(f"non-200 sent from {bad[0][0]} s to {bad[-1][0]} s")
    served = sorted(latency for _, status, latency in results if status == 200)
    if served:
        print("200 latency p50 %.0f ms p99 %.0f max %.0f" % (
            served[len(served) // 2] * 1000, served[int(len(served) * .99)] * 1000,
            served[-1] * 1000))


def main():
    kind = sys.argv[1]
    os.makedirs(f"{TMP}/nginx", exist_ok=True)
    open(f"{TMP}/gunicorn.log", "w").close()
    dns, dns_port = dns_start()
    dns_set(dns, "127.0.0.2")
    app = gunicorn("127.0.0.2")
    gw = gateway(kind, dns_port)
    results = []
    t0 = time.time()
    loader = threading.Thread(target=load, args=(results, t0))
    loader.start()
    time.sleep(STOP_AT)
    app.terminate()
    app.wait()
    dns_set(dns)
    time.sleep(GAP)
    dns_set(dns, "127.0.0.3")
    app = gunicorn("127.0.0.3")
    print(f"{kind}: the app away from {STOP_AT:.1f} s to {time.time() - t0:.1f} s")
    loader.join()
    report(results)
    gw.terminate()
    gw.wait()
    app.terminate()
    app.wait()
    dns.stdin.close()
    dns.wait()


if __name__ == "__main__":
    main()
