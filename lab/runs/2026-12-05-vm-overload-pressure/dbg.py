import sim, replay, random, sys
kw = replay.parse(sys.argv[1])
N, bg = int(sys.argv[2]), float(sys.argv[3])
rnd = random.Random(0); t = 0.0; arr = []
while True:
    t += rnd.expovariate(bg)
    if t >= 3: break
    arr.append(t)
# wrap ref to record
orig = sim.run
sv, rf, _ = sim.run(sorted([0.0]*N + arr), seed=0, **kw)
print("served", len(sv), "refused", len(rf))
imm = [x for x in rf if x < 0.001]; late = [x for x in rf if x >= 0.001]
print("at once", len(imm), "late", len(late), "late waits", sorted(round(x,3) for x in late)[:10], '...', sorted(round(x,3) for x in late)[-5:])
