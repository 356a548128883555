"""Bursts of N requests spread evenly over T ms (a new connection each, GET /work?ms=50) into weir
with workers = 4 in front of 4 sync Gunicorn workers (lab/apps/overload_app.py), each after the
queue has emptied. Usage: burst.py WEIR_BIN OUT_DIR; prints served / refused per burst."""
import asyncio, os, subprocess, sys, tempfile, time, socket
weir, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
tmp = tempfile.mkdtemp()
sock = os.path.join(tmp, 'app.sock')
app = subprocess.Popen([root + '/.venv/bin/gunicorn', '--chdir', root + '/lab/apps', '--bind', 'unix:' + sock,
                        '--log-level', 'warning', '-k', 'sync', '-w', '4', 'overload_app:wsgi'],
                       env=dict(os.environ, OVERLOAD_STATE=tmp), start_new_session=True)
s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
conf = os.path.join(tmp, 'weir.toml')
open(conf, 'w').write(f'[server]\nlisten = ["127.0.0.1:{port}"]\n[upstreams.app]\nservers = ["unix:{sock}"]\nworkers = 4\nqueue_timeout = "2s"\n[[routes]]\npath = "/"\nupstream = "app"\n')
gw = subprocess.Popen([weir, 'run', '--config', conf], stdout=subprocess.DEVNULL, stderr=open(os.path.join(out, 'weir.log'), 'w'))

async def one(delay):
    await asyncio.sleep(delay)
    try:
        r, w = await asyncio.open_connection('127.0.0.1', port)
        w.write(b'GET /work?ms=50 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
        await w.drain()
        line = await asyncio.wait_for(r.readline(), 10)
        w.close()
        return int(line.split()[1])
    except Exception:
        return 0

async def burst(n, ms):
    return await asyncio.gather(*(one(i * ms / 1000.0 / n) for i in range(n)))

async def main():
    for _ in range(100):
        try:
            _r, w = await asyncio.open_connection('127.0.0.1', port); w.close(); break
        except OSError:
            await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    # warm: learn the service time
    for _ in range(3):
        await burst(4, 0); await asyncio.sleep(0.2)
    for n, ms in [(30, 0), (60, 0), (120, 0), (60, 100), (60, 200), (60, 300), (60, 400), (120, 600)]:
        for rep in range(3):
            codes = await burst(n, ms)
            print(f"{n} over {ms} ms: served {codes.count(200)}, refused {codes.count(503)}, other {len(codes)-codes.count(200)-codes.count(503)}", flush=True)
            await asyncio.sleep(3.0)
try:
    asyncio.run(main())
finally:
    gw.terminate(); gw.wait()
    os.killpg(app.pid, 15); app.wait()
