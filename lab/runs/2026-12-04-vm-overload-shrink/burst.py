"""Bursts into an idle app: N requests at once (each on a connection of its own, released
together by a barrier) into 4 sync Gunicorn workers of lab/apps/overload_app.py (`/work?ms=50`)
behind weir with the lab's `weir-workers` upstream (`workers = 4`, `queue_timeout = "2s"`);
counts the 200s and 503s of each burst. Before the bursts, 20 sequential requests teach weir the
service time; between bursts the app idles 3 s (the queue empties, its hold ends).

Run from the repository root: python3 lab/runs/2026-12-04-vm-overload-shrink/burst.py
target/release/weir [ROUNDS] [N ...]   (defaults: 5 rounds of 30, 60, 120)."""
import http.client, os, socket, subprocess, sys, tempfile, threading, time

weir = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
sizes = [int(n) for n in sys.argv[3:]] or [30, 60, 120]
root = os.getcwd()
tmp = tempfile.mkdtemp(prefix="weir-burst-")
sock = os.path.join(tmp, "app.sock")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

app = subprocess.Popen([os.path.join(root, ".venv/bin/gunicorn"), "--chdir", os.path.join(root, "lab/apps"),
                        "--bind", "unix:" + sock, "--log-level", "warning", "-k", "sync", "-w", "4",
                        "overload_app:wsgi"], stdin=subprocess.DEVNULL)
port = free_port()
config = os.path.join(tmp, "weir.toml")
open(config, "w").write(f"""[server]
listen = ["127.0.0.1:{port}"]
max_connections = 20000
[upstreams.app]
servers = ["unix:{sock}"]
workers = 4
queue_timeout = "2s"
[[routes]]
path = "/"
upstream = "app"
""")
gateway = subprocess.Popen([weir, "run", "--config", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def get(path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse(); response.read()
        return response.status
    except Exception as error:
        return repr(error)
    finally:
        connection.close()

try:
    deadline = time.time() + 30
    while True:
        try:
            if get("/work?ms=1") == 200:
                break
        except Exception:
            pass
        if time.time() > deadline:
            raise SystemExit("the gateway or the app did not answer")
        time.sleep(0.1)
    for _ in range(20):
        get("/work?ms=50")
    time.sleep(1)
    print("burst into 4 idle sync workers of 50 ms (weir workers = 4, queue_timeout 2s): served / refused (other)")
    for n in sizes:
        results = []
        for _ in range(rounds):
            statuses = [None] * n
            barrier = threading.Barrier(n)
            def one(i):
                barrier.wait()
                statuses[i] = get("/work?ms=50")
            threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
            for t in threads: t.start()
            for t in threads: t.join()
            ok = sum(1 for s in statuses if s == 200)
            refused = sum(1 for s in statuses if s == 503)
            results.append("%d/%d%s" % (ok, refused, "" if ok + refused == n else " (%d other: %s)" % (
                n - ok - refused, sorted(set(str(s) for s in statuses if s not in (200, 503))))))
            time.sleep(3)
        print("  %3d at once: %s" % (n, ", ".join(results)), flush=True)
finally:
    gateway.terminate(); app.terminate()
    gateway.wait(); app.wait()
