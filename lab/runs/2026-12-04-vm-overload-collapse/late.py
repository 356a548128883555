"""The 503s that took over 1 ms at the gateway, by second of their level, from weir's JSON access
log (request_time; the line's time is the answer's, whole seconds), beside the waiters dropped by
second from DIR/series.csv (weir_pool_refusals_total every 100 ms). Levels are told apart by
pauses of 2 s or more, as in lab/runs/2026-12-03-vm-overload-growth/access.py.
Run: python3 late.py DIR (reads DIR/weir-workers-access.jsonl and DIR/series*.csv)."""
import csv, glob, json, sys
from collections import Counter
from datetime import datetime

def levels(path):
    rows = [json.loads(line) for line in open(path)]
    segs = [[]]; last = None
    for r in rows:
        t = datetime.fromisoformat(r['time']).timestamp()
        if last is not None and t - last >= 2: segs.append([])
        segs[-1].append((t, r)); last = t
    return segs

def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs)-1, int(len(xs)*p))] if xs else float('nan')

d = sys.argv[1]
segs = levels(d + '/weir-workers-access.jsonl')
series = [r for f in glob.glob(d + '/series*.csv') for r in csv.DictReader(open(f))
          if r['gateway'] == 'weir-workers']
for name, seg in zip(["1x", "2x", "10x"], segs):
    t0 = seg[0][0]
    r503 = [(t - t0, r['request_time']*1000) for t, r in seg if r['status'] == 503]
    late = [(s, ms) for s, ms in r503 if ms > 1]
    served_q = [r['upstream_queue_time']*1000 for t, r in seg if r['status'] == 200 and r['upstream_queue_time'] is not None]
    print(f"{name}: {len(r503)} 503s, {len(late)} over 1 ms ({100*len(late)/max(1,len(r503)):.1f}%), "
          f"over 10 ms {sum(1 for _, ms in r503 if ms > 10)}; late p50 {pct([m for _, m in late], .5):.0f} ms, "
          f"p99 {pct([m for _, m in late], .99):.0f} ms; served queue time (the level and its tail) p99 {pct(served_q, .99):.0f} ms, max {max(served_q or [0]):.0f} ms")
    by_s = Counter(int(s) for s, _ in late)
    print("   late 503s by second of the level (answer time):", dict(sorted(by_s.items())))
    lvl = {"1x": "1", "2x": "2", "10x": "10"}[name]
    rows = [r for r in series if r['level'] in (lvl, lvl + '.0')]
    if rows:
        drops = Counter(); prev = None
        for r in rows:
            v = int(r['standing_drop'])
            if prev is not None: drops[int(r['at_ms']) // 1000] += v - prev
            prev = v
        print("   waiters dropped by second (metrics):", {k: v for k, v in sorted(drops.items()) if v})
        first, last = rows[0], rows[-1]
        tot = {k: int(last[k]) - int(first[k]) for k in ('predicted_wait', 'standing_queue', 'queue_full', 'standing_drop')}
        print("   refusals by reason, level and tail:", tot)
