"""burst.py's sequence in sim.py's model: each burst kind three times, 3 s apart, in one run
(the learnt service time and the rest carried from burst to burst); served of each burst.
python3 seq.py SPEC...  (S 51.5 ms, jitter J 0 / 2 / 4 ms)"""
import sys, sim, replay
ROWS = [(30, 0), (60, 0), (120, 0), (60, 100), (60, 200), (60, 300), (60, 400), (120, 600)]
for spec in sys.argv[1:]:
    for J in (0.0, 0.002, 0.004):
        kw = replay.parse(spec); kw['J'] = J; kw['S'] = 0.0515
        arr = []; t = 1.0; bursts = []
        for n, ms in ROWS:
            for _ in range(3):
                bursts.append((t, t + 2.5)); arr += [t + i*ms/1000/n for i in range(n)]; t += 3.0 + ms/1000
        sim.SECS = t + 10; sim.TAIL = 0
        sim.SERVED_ARR.clear()
        sim.run(arr, seed=1, **kw)
        got = [sum(1 for a in sim.SERVED_ARR if t0 <= a < t1) for t0, t1 in bursts]
        print("%-40s J=%.3f" % (spec[-40:], J), " | ".join(" ".join(str(x) for x in got[i:i+3]) for i in range(0, len(got), 3)), flush=True)
