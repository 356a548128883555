"""sim.py's forty Poisson seeds (not the lab's one draw) with a lab-like service time."""
import sys, sim, replay
S = float(sys.argv[1]); J = float(sys.argv[2])
for spec in sys.argv[3:]:
    kw = replay.parse(spec); kw['S'] = S - J / 2; kw['J'] = J
    print(spec, "S=%.1f ms J=%.1f ms\n   " % (S * 1000, J * 1000), sim.row(**kw), flush=True)
