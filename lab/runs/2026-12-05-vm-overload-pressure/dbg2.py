import sim, replay, random, sys
kw = replay.parse(sys.argv[1])
N, bg, spread = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
for seed in range(int(sys.argv[5]) if len(sys.argv) > 5 else 5):
    rnd = random.Random(seed); t = 0.0; arr = []
    while True:
        t += rnd.expovariate(bg)
        if t >= 3: break
        arr.append(t)
    b = [i*spread/1000/N for i in range(N)]
    sim.SERVED_ARR.clear()
    sv, rf, _ = sim.run(sorted(b + arr), seed=seed, **kw)
    bs = sum(1 for a in sim.SERVED_ARR if a < spread/1000 + 1e-9 and a in set(b))
    late = [x for x in rf if x >= 0.001]
    print(seed, "served", len(sv), "burst served", bs, "refused", len(rf), "late", len(late))
