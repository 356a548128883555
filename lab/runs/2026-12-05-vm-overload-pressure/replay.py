"""Issue 21, the onset rule against the lab's own load: sim.py's model driven by weir-lab-overload's
arrivals (its xorshift draw, labtrace.lab_arrivals) and a run's service times (its access log:
upstream_response_time - upstream_queue_time of each 2xx, in completion order, one per start).

python3 replay.py RUN_DIR [RUN_DIR ...] -- SPEC [SPEC ...]   (SPEC as sim.py's: key=value,...)
Prints, per run and spec, each level's goodput (2xx within 2 s over min(offered, 80), as the lab),
served p99, refusals at once / after a wait, and the standing count (jumps/gradual)."""
import ast, sys, statistics
import sim, labtrace

M = sim.SHIPPED + ",collapse=True,RESUME=True"      # main (82a15a0 = a78a6fa's rules)
NAMED = {'main': M, 'onset': M + ",JUMP=2,F0G='delay'", 'least': M + ",JUMP=2,F0G='delay',LEAST=1"}

def parse(spec):
    head, _, rest = spec.partition(',')
    spec = NAMED.get(head, head) + (',' + rest if rest else '') if head in NAMED else spec
    kw = {}
    for part in spec.split(','):
        key, value = part.split('=', 1)
        kw[key] = value if key == 'rule' else ast.literal_eval(value)
    return kw

def level(arr, svc, lvl, **kw):
    kw = dict(kw)
    kw.setdefault('S', statistics.mean(svc))
    sim.STATS.clear()
    served, refused, rec = sim.run(arr, SVC=svc, **kw)
    n = sum(1 for a in arr if a < sim.SECS)
    good = sum(1 for s in served if s <= 2.0) / sim.SECS / min(n / sim.SECS, 80)
    late = [t for t in refused if t >= 0.001]
    return dict(good=good, p99=sim.pct(served, .99) * 1000, once=len(refused) - len(late),
                late=len(late), jg=sim.STATS[-1], S=kw['S'])

if __name__ == '__main__':
    args = sys.argv[1:]
    cut = args.index('--') if '--' in args else len(args)
    runs, specs = args[:cut], args[cut + 1:] or ['main', 'onset']
    for run_dir in runs:
        services = labtrace.run_services(run_dir)
        import csv
        with open(run_dir + '/raw-weir-workers.csv') as f:
            rd = list(csv.DictReader(f))
        for index, lvl in enumerate((1, 2, 10)):
            arr = labtrace.lab_arrivals(index, 80.0 * lvl)
            svc = services[index]
            lab = rd[index]
            print("%s %2dx lab: g=%s p99=%s once=%s late=%s | S=%.1f ms" % (
                run_dir.rstrip('/').split('/')[-1], lvl, lab['goodput'], lab['served_p99_ms'],
                lab['at_once_level'], lab['drops_level'], statistics.mean(svc) * 1000))
            for spec in specs:
                r = level(arr, svc, lvl, **parse(spec))
                print("      %-12s g=%.3f p99=%.0f once=%d late=%d jumps/grad=%d/%d" % (
                    spec[:12], r['good'], r['p99'], r['once'], r['late'], *r['jg']))
