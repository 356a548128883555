# Reads the DIAG lines of an instrumented weir's stderr: standing episodes of each level.
import sys, statistics
ev = []
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) < 3 or p[0] != 'DIAG':
        continue
    ev.append((int(p[1]), p[2], l))
# Levels: runs of admits separated by gaps of > 1.5 s.
levels = []
last = None
for t, k, l in ev:
    if last is None or t - last > 1500:
        levels.append([])
    levels[-1].append((t, k, l))
    last = t
for level in levels:
    eps = []
    cur = None
    unstand_after_growth = unstand = 0
    prev = None
    for t, k, l in level:
        if k == 'stand':
            cur = {'drops': 0}
            eps.append(cur)
        elif k == 'drop' and cur is not None:
            cur['drops'] += 1
        elif k == 'unstand':
            unstand += 1
            if prev and prev[1] == 'cap' and int(prev[2].split('-> ')[1].split()[0]) > int(prev[2].split()[3]):
                unstand_after_growth += 1
        if k in ('cap', 'unstand', 'stand'):
            prev = (t, k, l)
    waits = [int(l.split('waited_ms=')[1].split()[0]) for t, k, l in level if k == 'drop']
    grants = [int(l.split('waited_ms=')[1].split()[0]) for t, k, l in level if k == 'grant']
    print(f"{level[0][0]/1000:6.1f}-{level[-1][0]/1000:6.1f} s: stood {len(eps)} times, unstood {unstand} "
          f"({unstand_after_growth} right after a growth of the limit); drops {len(waits)} "
          f"(in the first episode {eps[0]['drops'] if eps else 0}), their wait p50 "
          f"{statistics.median(waits) if waits else '-'} ms; grants {len(grants)}, wait p99 "
          f"{sorted(grants)[int(len(grants)*0.99)] if grants else '-'} ms")
