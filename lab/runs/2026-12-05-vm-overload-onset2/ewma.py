"""Each run's own arrivals and service times, with weir's learnt service time (EWMA=True: each
occupancy weighs 0.2, and every threshold and delay follows it, as in admission.rs), with and
without the slow services read as stalls (STALL=0.015), and DEPTH=True (the growth window keeps
depths, not delays): python3 ewma.py RUN_DIR... (goodput, late refusals)."""
import sys, replay, labtrace
SPECS = ['main', 'onset,JUMP=3', 'main,DEPTH=True', 'onset,JUMP=3,DEPTH=True']
print("run level |", " | ".join(SPECS))
for d in sys.argv[1:]:
    services = labtrace.run_services(d)
    for index, lvl in enumerate((1, 2, 10)):
        svc = services[index]
        arr = labtrace.lab_arrivals(index, 80.0 * lvl)
        for st in (None, 0.015):
            fig = []
            for spec in SPECS:
                kw = replay.parse(spec); kw['STALL'] = st; kw['EWMA'] = True
                r = replay.level(arr, svc, lvl, **kw)
                fig.append("%.3f, %d" % (r['good'], r['late']))
            print(d.rstrip('/').split('/')[-1], "%2dx STALL=%s |" % (lvl, st), " | ".join(fig), flush=True)
