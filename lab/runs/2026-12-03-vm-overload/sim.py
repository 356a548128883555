"""The discrete-event simulation the standing-queue constants were chosen with (c6f2dd6): the lab's
overload scenario (4 workers of 53 ms, the service time measured unloaded; Poisson arrivals at 80,
160, 800 req/s for 15 s; a 2 s deadline; goodput = served within 2 s per second over min(offered,
80)), with the queue delay judged as depth x service / 4 (measure="depth") or as the oldest
waiter's age ("age"), a target T and interval I in service times, the cut while standing (one
service time, or T), and the drop at the head of waiters older than T (headdrop). Run:
python3 sim.py (about a minute). Ten seeds per cell; a model, not a measurement: it leaves out
the gateway, the generator and a loaded machine.
"""
import heapq, random
S=0.053; C=4; DEAD=2.0; SECS=15
def run(rate, seed, T, I, cut, headdrop, measure):
    rnd=random.Random(seed); t=0; arr=[]
    while True:
        t+=rnd.expovariate(rate)
        if t>=SECS: break
        arr.append(t)
    busy=0; q=[]; ev=[(a,1,a) for a in arr]; heapq.heapify(ev)
    served=[]; shed=0
    st=dict(fired=False, above=None)
    def sample(now):
        if not q: st['fired']=False; st['above']=None; return
        d = len(q)*S/C if measure=='depth' else now-q[0]
        if d<T: st['above']=None
        elif st['above'] is None: st['above']=now
    def fired(now):
        if st['above'] is not None and now-st['above']>=I: st['fired']=True
        return st['fired']
    while ev:
        now,kind,a=heapq.heappop(ev)
        exp=[x for x in q if now-x>=DEAD or (headdrop and fired(now) and now-x>T)]
        for x in exp: q.remove(x)
        if exp: sample(now)
        if kind==1:
            if busy<C: busy+=1; heapq.heappush(ev,(now+S,0,a)); continue
            sample(now)
            pred=(len(q)+1)*S/C
            if pred>DEAD or (fired(now) and pred>cut): continue
            q.append(a); sample(now)
        else:
            served.append(now-a+0.001)
            if q:
                x=q.pop() if fired(now) else q.pop(0); sample(now)
                heapq.heappush(ev,(now+S,0,x))
            else: busy-=1
    good=sum(1 for s in served if s<=2.0); served.sort()
    return good/SECS/min(rate,80), served[int(len(served)*0.99)-1]*1000
def row(**kw):
    out=[]
    for lvl in (1,2,10):
        r=[run(80*lvl,seed*7+lvl,**kw) for seed in range(10)]
        gs=sorted(x[0] for x in r); ps=sorted(x[1] for x in r)
        out.append("%dx g=%.3f(min %.3f) p99=%.0f(max %.0f)"%(lvl,sum(gs)/len(gs),gs[0],sum(ps)/len(ps),ps[-1]))
    return " | ".join(out)
# The 12-02 rule: standing once the queue has not been empty for 100 ms (a target of 0), cut
# to one service time, no drop; and the one chosen.
print("old rule (100 ms)", row(T=0, I=0.1, cut=S, headdrop=0, measure='depth'), flush=True)
print("chosen depth hd=1 T=20S I=10S cut=1", row(T=20*S, I=10*S, cut=S, headdrop=1, measure='depth'), flush=True)
for m in ('depth','age'):
 for hd in (0,1):
  for Tm,Im in ((5,5),(5,10),(10,5),(10,10),(10,20),(15,10),(20,20)):
   for Km in (1,'T'):
     cut=Tm*S if Km=='T' else Km*S
     print("%s hd=%d T=%dS I=%dS cut=%s"%(m,hd,Tm,Im,Km), row(T=Tm*S,I=Im*S,cut=cut,headdrop=hd,measure=m),flush=True)
