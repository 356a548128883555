import sim, replay, random, sys
# burst N spread over SP ms on Poisson bg for 3 s, 20 seeds: mean served, burst served, late
def mix(kw, N, bg, sp, seeds=20):
    tot = [0, 0, 0, 0]
    for seed in range(seeds):
        rnd = random.Random(seed); t = 0.0; arr = []
        while True:
            t += rnd.expovariate(bg)
            if t >= 3: break
            arr.append(t)
        b = set(i*sp/1000/N + 1e-9*(i+1) for i in range(N))
        sim.SERVED_ARR.clear()
        sv, rf, _ = sim.run(sorted(list(b) + arr), seed=seed, **kw)
        tot[0] += len(sv); tot[1] += sum(1 for a in sim.SERVED_ARR if a in b); tot[2] += sum(1 for x in rf if x >= 0.001); tot[3] += len(arr) + N
    return "%.0f/%.0f (burst %.0f, late %.1f)" % (tot[0]/seeds, tot[3]/seeds, tot[1]/seeds, tot[2]/seeds)
for spec in sys.argv[1:]:
    kw = replay.parse(spec)
    print(spec[-60:], "|", " | ".join("%d+%d/%dms: %s" % (n, bg, sp, mix(kw, n, bg, sp)) for n, bg, sp in ((60, 40, 0), (120, 40, 0), (120, 60, 0), (120, 60, 80), (120, 40, 80))), flush=True)
