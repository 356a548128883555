"""The gateway's own time of its 503s, from weir's JSON access log (request_time, microseconds):
by level. Levels are told apart by the pauses (at least 2 s) between them: the 100 unloaded
requests run straight into 1x. Run: python3 access.py NAME-access.jsonl ..."""
import json, sys
from datetime import datetime
def pct(xs, p):
    xs=sorted(xs); return xs[min(len(xs)-1,int(len(xs)*p))] if xs else float('nan')
for path in sys.argv[1:]:
    rows=[json.loads(l) for l in open(path)]
    tkey=[k for k in rows[0] if 'time' in k and k not in ('request_time','upstream_header_time','upstream_response_time','upstream_queue_time')]
    print(path, len(rows), "lines; time key", tkey)
    def ts(r):
        v=r[tkey[0]]
        try: return datetime.fromisoformat(v).timestamp()
        except Exception: return datetime.strptime(v, "%d/%b/%Y:%H:%M:%S %z").timestamp()
    # segments by gaps >= 2 s
    segs=[[]]; last=None
    for r in rows:
        t=ts(r)
        if last is not None and t-last>=2: segs.append([])
        segs[-1].append(r); last=t
    names=["1x (and the 100 unloaded before it)","2x","10x"]
    for i,s in enumerate(segs):
        all503=[r['request_time']*1000 for r in s if r['status']==503]
        if not all503:
            print("  %s: no 503"%names[i]); continue
        print("  %s (with its tail): %d 503s at the gateway: p50 %.3f ms, p99 %.3f ms, min %.3f ms; <= 1 ms: %.1f%%, <= 10 ms: %.1f%%"%(
            names[i],len(all503),pct(all503,.5),pct(all503,.99),min(all503),
            100*sum(1 for x in all503 if x<=1)/len(all503),100*sum(1 for x in all503 if x<=10)/len(all503)))
