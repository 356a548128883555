import sim, replay, sys
for spec in sys.argv[1:]:
    kw = replay.parse(spec)
    for lvl in (2, 10):
        ps = []; lates = []
        for seed in range(40):
            arr = sim.arrivals(80*lvl, seed*7 + lvl)
            sv, rf, rc = sim.run(arr, seed=seed, **kw)
            ps.append(round(sim.pct(sv, .99)*1000)); lates.append(sum(1 for t in rf if t >= 0.001))
        print(spec[-40:], lvl, "p99>106:", sum(p > 106 for p in ps), "worst", sorted(ps)[-4:], "late max", max(lates))
