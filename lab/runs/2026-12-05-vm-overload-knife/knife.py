"""Per 60-over-400 ms burst of a diag run: when the queue stood (ms after the burst's first
queued request), its depth then, the arrivals after it (refused, or admitted), the refusal that
made it refusing, and the drops.  python3 knife.py DIR (DIR/weir-workers.log of a diag build,
or its .gz as kept in runs/)."""
import gzip, os, sys
path = sys.argv[1] + '/weir-workers.log'
log = open(path) if os.path.exists(path) else gzip.open(path + '.gz', 'rt')
lines = [l for l in log if l.startswith('DIAG')]
groups, prev = [], None
for l in lines:
    t = int(l.split()[1])
    if prev is None or t - prev > 1500:
        groups.append([])
    groups[-1].append(l)
    prev = t
# The bursts' order: 30/0, 60/0, 120/0, 60/100, 60/200, 60/300, 60/400, 120/600, three each
# (the 100 unloaded requests queue nothing, so they leave no group).
names = [k for k in ['30/0', '60/0', '120/0', '60/100', '60/200', '60/300', '60/400', '120/600'] for _ in range(3)]
for name, g in zip(names, groups):
    if name not in ('60/300', '60/400'):
        continue
    t0 = int(g[0].split()[1])
    stand = next((int(l.split()[1]) - t0, l.split()[3]) for l in g if l.split()[2] == 'stand')
    after = [l for l in g if int(l.split()[1]) - t0 >= stand[0] and l.split()[2] in ('refuse', 'admit')]
    last_arrival = max(int(l.split()[1]) - t0 for l in g if l.split()[2] in ('refuse', 'admit'))
    refusing_at = next((int(l.split()[1]) - t0 for l in g if l.split()[2] == 'refuse' and 'refusing=true' in l), None)
    kinds = [l.split()[2] for l in g]
    print(f"{name}: stood at {stand[0]} ms ({stand[1]}), last arrival {last_arrival} ms, "
          f"arrivals after the stand {len(after)} (refused {kinds.count('refuse')}), "
          f"refusing from {refusing_at} ms, dropped {kinds.count('drop')}, granted {kinds.count('grant')}")
