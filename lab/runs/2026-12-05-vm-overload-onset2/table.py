"""The lab runs' table (raw-weir-workers.csv) with, per level, the run's mean service time (access
log) and the trace-driven model's figures for each rule on that run's own arrivals and service
times, with weir's learnt service time (EWMA=True): python3 table.py RUN_DIR... (the rules: main,
onset with JUMP = 3 (jump3.patch), and that with the growth judged in depths (depth-jump3.patch))."""
import csv, sys, statistics, labtrace, replay
RULES = [('main', 'main,EWMA=True'), ('j3', 'onset,JUMP=3,EWMA=True'), ('dj3', 'onset,JUMP=3,EWMA=True,DEPTH=True')]
print("| run | level | goodput | served p99 ms | 503s at once / all | drops | recovered after, ms | backlog max | S ms | model: main / JUMP=3 / JUMP=3 + depth (goodput, late) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for run_dir in sys.argv[1:]:
    rows = list(csv.DictReader(open(run_dir + '/raw-weir-workers.csv')))
    services = labtrace.run_services(run_dir)
    for index, (lvl, row) in enumerate(zip((1, 2, 10), rows)):
        svc = services[index]
        arr = labtrace.lab_arrivals(index, 80.0 * lvl)
        model = []
        for _, spec in RULES:
            r = replay.level(arr, svc, lvl, **replay.parse(spec))
            model.append("%.3f, %d" % (r['good'], r['late']))
        once, drops = int(row['at_once_level']), int(row['drops_level'])
        share = "%d / %d (%.1f%%)" % (once, int(row['refused']), 100.0 * once / int(row['refused'])) if int(row['refused']) else "-"
        print("| %s | %dx | %s | %s | %s | %d | %s | %s | %.1f | %s |" % (
            run_dir.rstrip('/').split('/')[-1], lvl, row['goodput'], row['served_p99_ms'], share, drops,
            row['recovered_after_ms'], row['backlog_max'], statistics.mean(svc) * 1000, " / ".join(model)))
