"""1x (and 2x) with slow phases: the lab's arrivals and a run's service times, each service that
starts inside a slow phase multiplied by its factor (the machine's other work starves the app's
workers for a while: M1's 2x level had one, ~1 s of services at 90-215 ms, 09:51:03-04).
Phases: Poisson, RATE a second, lasting U(DMIN, DMAX) s, factor U(FMIN, FMAX); SEEDS draws.
python3 slow.py RUN_DIR LEVEL RATE DMIN DMAX FMIN FMAX SEEDS SCALE SPEC..."""
import sys, random, statistics, labtrace, replay

def phases(seed, rate, dmin, dmax, fmin, fmax, secs=18.0):
    rnd = random.Random(seed); t = 0.0; out = []
    while True:
        t += rnd.expovariate(rate) if rate > 0 else 1e9
        if t >= secs: return out
        out.append((t, t + rnd.uniform(dmin, dmax), rnd.uniform(fmin, fmax)))

class Slowed(list):
    """A service-time list whose k-th item is scaled by the phase in effect at the k-th start:
    sim.run reads SVC[k] at the start's time, which it passes through `now` (set by a hook)."""

def run_level(arr, base, lvl, ph, scale, spec):
    import sim
    svc = [s * scale for s in base]
    # sim.run calls service() at a start; wrap by patching heapq.heappush's time via a clock hook
    kw = replay.parse(spec)
    kw.setdefault('S', statistics.mean(svc))
    sim.STATS.clear()
    served, refused, _ = sim.run(arr, SVC=svc, PHASES=ph, **kw)
    n = sum(1 for a in arr if a < sim.SECS)
    good = sum(1 for s in served if s <= 2.0) / sim.SECS / min(n / sim.SECS, 80)
    late = sum(1 for t in refused if t >= 0.001)
    return good, late, len(refused) - late, sim.pct(served, .99) * 1000, sim.STATS[-1]

if __name__ == '__main__':
    run_dir, lvl = sys.argv[1], int(sys.argv[2])
    rate, dmin, dmax, fmin, fmax = map(float, sys.argv[3:8]); seeds = int(sys.argv[8]); scale = float(sys.argv[9])
    specs = sys.argv[10:] or ['main', 'onset']
    index = (1, 2, 10).index(lvl)
    services = labtrace.run_services(run_dir)
    base = services[index]
    arr = labtrace.lab_arrivals(index, 80.0 * lvl)
    tot = {s: [] for s in specs}
    for seed in range(seeds):
        ph = phases(seed, rate, dmin, dmax, fmin, fmax)
        line = []
        for spec in specs:
            r = run_level(arr, base, lvl, ph, scale, spec)
            tot[spec].append(r)
            line.append("%s %.3f/%d/%d" % (spec[:6], r[0], r[1], r[2]))
        if any(x[0] < 0.98 for x in [tot[s][-1] for s in specs]) or '-v' in sys.argv:
            print("seed %2d %d phases: " % (seed, len(ph)) + " | ".join(line))
    for spec in specs:
        g = [r[0] for r in tot[spec]]
        print("%-10s %dx mean g=%.3f min %.3f, runs under 0.98: %d/%d, late/run %.1f, at once/run %.1f, p99 mean %.0f" % (
            spec[:10], lvl, statistics.mean(g), min(g), sum(x < 0.98 for x in g), seeds,
            statistics.mean(r[1] for r in tot[spec]), statistics.mean(r[2] for r in tot[spec]),
            statistics.mean(r[3] for r in tot[spec])))
