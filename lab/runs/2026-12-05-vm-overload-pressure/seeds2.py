"""sim.py's forty Poisson seeds (1x/2x/10x) and a burst of 60 on Poisson arrivals, per spec."""
import sys, sim, replay
for spec in sys.argv[1:]:
    kw = replay.parse(spec)
    print(spec, "\n  ", sim.row(**kw), "\n   60 + Poisson 40/s 3 s:", sim.burst_mixed(60, 40, **kw),
          " 120 + Poisson 40/s:", sim.burst_mixed(120, 40, **kw), " 120 + Poisson 60/s:", sim.burst_mixed(120, 60, **kw), flush=True)
