"""Each run's own arrivals and service times, with the slow services read as machine-wide stalls
(sim.py STALL=t: a service over the median by more than t is a stall of that excess, which
lengthens every service in flight and holds the arrivals that come during it until it ends):
python3 stalls.py RUN_DIR... (figures: goodput, late refusals; main / fa542ae / JUMP = 3)."""
import sys, replay, labtrace
for d in sys.argv[1:]:
    services = labtrace.run_services(d)
    for index, lvl in enumerate((1, 2, 10)):
        svc = services[index]
        arr = labtrace.lab_arrivals(index, 80.0 * lvl)
        out = []
        for st in (None, 0.015, 0.010):
            fig = []
            for spec in ('main', 'onset', 'onset,JUMP=3'):
                kw = replay.parse(spec); kw['STALL'] = st
                r = replay.level(arr, svc, lvl, **kw)
                fig.append("%.3f, %d" % (r['good'], r['late']))
            out.append("STALL=%s: %s" % (st, " / ".join(fig)))
        print(d.rstrip('/').split('/')[-1], "%2dx" % lvl, " | ".join(out), flush=True)
