"""Opens N keep-alive connections to HOST:PORT, one GET / on each (answer read whole), then holds
them idle and prints the RSS growth of PID per connection."""
import asyncio, sys, time

host, port, n, pid, label = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]

def rss_kib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

async def one(conns):
    r, w = await asyncio.open_connection(host, port)
    w.write(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    await w.drain()
    head = await r.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    await r.readexactly(length)
    conns.append((r, w))

async def main():
    # Warm up the allocator and the pool with a first round that is closed again.
    warm = []
    await asyncio.gather(*(one(warm) for _ in range(200)))
    for _, w in warm:
        w.close()
    await asyncio.sleep(0.5)
    before = rss_kib()
    conns = []
    for start in range(0, n, 500):
        await asyncio.gather(*(one(conns) for _ in range(min(500, n - start))))
    await asyncio.sleep(1.0)
    after = rss_kib()
    print(f"idle   {label}: {n} idle connections, RSS {before} -> {after} KiB: {(after - before) * 1024 / n:.0f} B per connection")
    for _, w in conns:
        w.close()

asyncio.run(main())
