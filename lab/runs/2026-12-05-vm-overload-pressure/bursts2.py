"""Bursts into idle workers (sim.py's model): N at once spread over D ms (what weir sees of a
client's 'at once'), and burst.py's spread rows. python3 bursts2.py SPEC..."""
import sys, sim, replay
ROWS = [(30, 0), (60, 0), (120, 0), (120, 20), (120, 50), (120, 80), (60, 100), (60, 200), (60, 300), (60, 400), (120, 600)]
for spec in sys.argv[1:]:
    kw = replay.parse(spec)
    print("%-50s" % spec[:50], " ".join("%d/%d:%d" % (n, ms, sim.burst_spread(n, ms, **kw)) for n, ms in ROWS), flush=True)
