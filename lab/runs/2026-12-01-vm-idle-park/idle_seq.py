"""As the lab's idle-connections scenario: N connections opened one after another, one GET each
(answer read whole), held idle; after WAIT seconds prints the RSS growth per connection of PID and
its children (nginx: master and workers)."""
import os, socket, sys, time

host, port, n, pid, label, wait = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], float(sys.argv[6])

def tree(root):
    pids = [root]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == root:
                pids.append(int(entry))
    return pids

def rss_kib():
    total = 0
    for p in tree(pid):
        for line in open(f"/proc/{p}/status"):
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total

time.sleep(0.5)
before = rss_kib()
conns = []
for i in range(n):
    s = socket.create_connection((host, port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nUser-Agent: weir-lab\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    while len(body) < length:
        body += s.recv(4096)
    conns.append(s)
time.sleep(wait)
after = rss_kib()
print(f"{label:<28} {n} connections, RSS {before} -> {after} KiB: {(after - before) * 1024 / n:6.0f} B per connection")
