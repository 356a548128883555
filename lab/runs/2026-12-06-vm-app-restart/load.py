# open-loop: RATE req/s of PATH for SECS s, a new connection per request; prints status counts and latencies
import sys, time, threading, http.client, collections
rate=float(sys.argv[1]); secs=float(sys.argv[2]); path=sys.argv[3]; port=int(sys.argv[4]) if len(sys.argv)>4 else 8080
res=[]; lock=threading.Lock()
def one(t0):
    s=time.time()
    try:
        c=http.client.HTTPConnection("127.0.0.1",port,timeout=40); c.request("GET",path); r=c.getresponse(); r.read(); st=r.status
    except Exception as e: st=type(e).__name__
    with lock: res.append((s-t0, st, time.time()-s))
t0=time.time(); th=[]
n=int(rate*secs)
for i in range(n):
    d=t0+i/rate-time.time()
    if d>0: time.sleep(d)
    t=threading.Thread(target=one,args=(t0,)); t.start(); th.append(t)
for t in th: t.join()
c=collections.Counter(st for _,st,_ in res); print("statuses",dict(c))
bad=[(round(a,2),st) for a,st,_ in sorted(res) if st!=200]
print("non-200 at", bad[:5], "...", bad[-3:] if bad else "")
lat=sorted(l for _,st,l in res if st==200); 
if lat: print("200 latency p50 %.0f ms p99 %.0f max %.0f"%(lat[len(lat)//2]*1000, lat[int(len(lat)*.99)]*1000, lat[-1]*1000))
