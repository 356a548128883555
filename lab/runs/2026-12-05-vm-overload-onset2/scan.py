"""1x only: the lab's 1x arrivals with a run's service times scaled by f (a slower machine)."""
import sys, statistics, labtrace, replay
run_dir = sys.argv[1]; specs = sys.argv[2:] or ['main', 'onset', 'least']
services = labtrace.run_services(run_dir)
base = services[0]
arr = labtrace.lab_arrivals(0, 80.0)
for f in (0.96, 0.98, 1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.08, 1.10):
    svc = [s * f for s in base]
    out = []
    for spec in specs:
        r = replay.level(arr, svc, 1, **replay.parse(spec))
        out.append("%s g=%.3f p99=%.0f late=%d once=%d j/g=%d/%d" % (spec[:8], r['good'], r['p99'], r['late'], r['once'], *r['jg']))
    print("S=%.1f ms (x%.2f)  " % (statistics.mean(svc) * 1000, f) + " | ".join(out), flush=True)
