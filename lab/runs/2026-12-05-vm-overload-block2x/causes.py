# The access log's causes over a whole run (every level and tail): refused at once by a
# standing queue, dropped after a wait, and the drops' waits. python3 causes.py DIR...
import json, statistics, sys, glob
for d in sys.argv[1:]:
    for path in glob.glob(d + '/*-access.jsonl'):
        causes = {}
        waits = []
        for line in open(path):
            row = json.loads(line)
            cause = row['cause']
            if cause:
                causes[cause] = causes.get(cause, 0) + 1
                if cause == 'standing_drop':
                    waits.append(row['upstream_queue_time'] * 1000)
        waits.sort()
        print(f"{d}: " + ", ".join(f"{k} {v}" for k, v in sorted(causes.items()))
              + (f"; drops' wait p50 {statistics.median(waits):.0f} / max {waits[-1]:.0f} ms" if waits else ""))
