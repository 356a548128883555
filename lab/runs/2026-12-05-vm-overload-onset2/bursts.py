"""Bursts into idle workers (sim.py's): 30/60/120 at once, 60 spread over 25/50/100/200 ms."""
import sys, sim, replay
for spec in sys.argv[1:]:
    kw = replay.parse(spec)
    print("%-45s at once 30/60/120 served/refused: %s | 60 spread over 25/50/100/200 ms, served: %s" % (
        spec, [sim.burst(n, **kw) for n in (30, 60, 120)], [sim.burst_spread(60, ms, **kw) for ms in (25, 50, 100, 200)]))
