"""The overload levels of runs/NAME (weir-lab-overload's raw-weir-workers.csv) as README's table rows."""
import csv, sys
for run in sys.argv[1:]:
    try: rows = list(csv.DictReader(open(f'runs/{run}/raw-weir-workers.csv')))
    except FileNotFoundError: continue
    for r in rows:
        ref = int(r['refused']); once = int(r['at_once_level']) if r['at_once_level'] not in ('-','') else 0
        share = f"{once:,} / {ref:,} ({100*once/ref:.1f}%)" if ref else '-'
        print(f"| {run} | {float(r['level']):g}x | {r['goodput']} | {r['served_p99_ms']} | {share} | {r['drops_level']} | {r['recovered_after_ms']} | {r['backlog_max']} | {r['app_rps'] if r['level'].startswith('1') and float(r['level'])==1 else ''} | {r['goodput_ceiling']} |")
