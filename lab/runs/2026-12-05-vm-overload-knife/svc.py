"""Mean upstream_response_time less upstream_queue_time (ms) of the served requests of each 60-over-400 ms burst, and the
served, refused at once and dropped, from an access log of weir-lab-overload's burst mode.
python3 svc.py DIR..."""
import json, sys
for run in sys.argv[1:]:
    L = [json.loads(l) for l in open(run + '/weir-workers-access.jsonl')]
    # 100 unloaded, then 30/0, 60/0, 120/0, 60/100, 60/200, 60/300 three each: 1270 lines.
    for r in range(3):
        b = L[1270 + 60 * r:1270 + 60 * (r + 1)]
        ok = [(x['upstream_response_time'] - (x['upstream_queue_time'] or 0)) * 1e3 for x in b if x['status'] == 200]
        print(f"{run} round {r + 1}: served {len(ok)}, refused at once "
              f"{sum(x['cause'] == 'standing_queue' for x in b)}, dropped "
              f"{sum(x['cause'] == 'standing_drop' for x in b)}, app's time of the served "
              f"mean {sum(ok) / len(ok):.1f} ms, max {max(ok):.1f} ms")
