"""The discrete-event simulation the growth test's constants were chosen with: the lab's overload
scenario (4 workers; Poisson arrivals at 80, 160, 800 req/s for 15 s, then 3 s at 80 req/s, the
lab's tail; a 2 s deadline; goodput = requests of the level served within 2 s, per second, over
min(offered, 80); p99 of the level's served requests; rec = share of the tail's first second
served within 2 s), for two service times: 50.5 ms (an idle machine: the app's real capacity
~79 req/s) and 53 ms (the loaded one of lab/runs/2026-12-03-vm-overload: ~75 req/s, so 1x is
itself a 6% overload). Ten seeds per cell; a model, not a measurement: it leaves out the gateway,
the generator and the machine.

Rules (the queue delay is depth x service / 4, sampled at every change; S = service time):
- "codel" (c6f2dd6, the 2026-12-03 run): standing once the delay stayed above 20 S for 10 S;
  then admitted for one S of wait at most, LIFO, and waiters older than 20 S dropped.
- "growth" (this run): standing once the delay rose by G within the last window W (its value
  minus the least value in effect in the window) or by the codel test, until the queue
  empties; then LIFO, waiters older than 20 S dropped, and a newcomer whose predicted wait is
  over 20 S admitted in the place of the oldest waiter (dropped at once).
Run: python3 sim.py (about a minute).

Issue 21's next step (python3 sim.py refuse > sim-refuse.out; forty seeds, a few seconds): the
refusal time of every refused request of the level (0 when refused at once; "imm" = the share
refused at once), for
- "growth": the rule above (a newcomer to a full standing queue displaces the oldest waiter);
- "refuse": the same, but a newcomer to a full standing queue (delay over F service times) is
  refused at once, LIFO kept, waiters older than AGE service times dropped (F = AGE = 20 is the
  proposal of the growth run's README);
- "trim": while the queue stands its room is F service times of delay; a newcomer that finds
  it full is refused at once, and the waiters beyond it (queued before it stood) are dropped,
  oldest first, when a newcomer comes; served FIFO (or LIFO); it stands until it empties and
  no newcomer was refused for a full queue within HOLD service times.
"""
import heapq, random, sys
from collections import deque
C=4; DEAD=2.0; SECS=15; TAIL=3

def arrivals(rate, seed):
    rnd=random.Random(seed); t=0; arr=[]
    while True:
        t+=rnd.expovariate(rate)
        if t>=SECS: break
        arr.append(t)
    t=SECS
    while True:
        t+=rnd.expovariate(80)
        if t>=SECS+TAIL: break
        arr.append(t)
    return arr

def run(rate, seed, S, rule, W=None, G=None):
    T=20*S; I=10*S
    arr=arrivals(rate, seed)
    busy=0; q=deque(); ev=[(a,1,a) for a in arr]; heapq.heapify(ev)
    served=[]; rec=[0]; fired=[0]
    hist=deque(); st=dict(standing=False, above=None)
    def sample(now):
        if not q: st['standing']=False
        d=len(q)*S/C
        if not q or d<T: st['above']=None
        elif st['above'] is None: st['above']=now
        elif now-st['above']>=I and not st['standing']: st['standing']=True; fired[0]+=1
        if rule=='growth':
            # the value in effect when the window began stays until its successor is as old
            hist.append((now,d))
            while len(hist)>=2 and now-hist[1][0]>=W: hist.popleft()
            if q and not st['standing'] and d-min(x[1] for x in hist)>=G:
                st['standing']=True; fired[0]+=1
    while ev:
        now,kind,a=heapq.heappop(ev)
        ch=False
        while q and now-q[0]>=DEAD: q.popleft(); ch=True
        if st['standing']:
            while q and now-q[0]>T: q.popleft(); ch=True
        if ch: sample(now)
        if kind==1:
            if busy<C: busy+=1; heapq.heappush(ev,(now+S,0,a)); continue
            pred=(len(q)+1)*S/C
            if pred>DEAD: continue
            if st['standing']:
                if rule=='codel' and pred>S: continue
                if rule=='growth' and pred>T: q.popleft()
            q.append(a); sample(now)
        else:
            if a<SECS: served.append(now-a+0.001)
            elif a<SECS+1 and now-a<=2.0: rec[0]+=1
            if q:
                x=q.pop() if st['standing'] else q.popleft(); sample(now)
                heapq.heappush(ev,(now+S,0,x))
            else: busy-=1; sample(now)
    good=sum(1 for s in served if s<=2.0); served.sort()
    n_rec=sum(1 for x in arr if SECS<=x<SECS+1)
    return good/SECS/min(rate,80), served[int(len(served)*0.99)-1]*1000, rec[0]/max(n_rec,1), fired[0]

def row(S, seeds=10, **kw):
    out=[]
    for lvl in (1,2,10):
        r=[run(80*lvl,seed*7+lvl,S,**kw) for seed in range(seeds)]
        g=[x[0] for x in r]; p=[x[1] for x in r]; rc=[x[2] for x in r]; f=[x[3] for x in r]
        out.append("%dx g=%.3f (min %.3f) p99=%.0f (max %.0f) rec=%.2f standing=%.1f"%(
            lvl,sum(g)/len(g),min(g),sum(p)/len(p),max(p),sum(rc)/len(rc),sum(f)/len(f)))
    return " | ".join(out)

def run_refusals(rate, seed, S, rule, F=20, AGE=20, order='lifo', HOLD=0, WC=False, arr=None, F0=20, AGEROOM=False):
    """One level under "growth", "refuse" or "trim" (module doc): goodput, served p99 (ms),
    and the refusal times (s) of the level's refused requests."""
    W=8*S; G=6*S; T=20*S; I=10*S
    if arr is None: arr=arrivals(rate, seed)
    busy=0; q=deque(); ev=[(a,1,a) for a in arr]; heapq.heapify(ev)
    served=[]; refused=[]
    hist=deque(); st=dict(standing=False, above=None, full=-1e9, since=None)
    def room(now):
        # "shrink": F0 service times when the queue starts standing, one less per service time
        # of standing, F at least; other rules: F.
        if rule!='shrink' or st['since'] is None: return F
        return max(F, F0-(now-st['since'])/S)
    def ref(now, a):
        if a<SECS: refused.append(now-a)
    def sample(now):
        if not q and now-st['full']>=HOLD*S: st['standing']=False; st['since']=None
        d=len(q)*S/C
        if not q or d<T: st['above']=None
        elif st['above'] is None: st['above']=now
        elif now-st['above']>=I and not st['standing']: st['standing']=True; st['since']=now
        hist.append((now,d))
        while len(hist)>=2 and now-hist[1][0]>=W: hist.popleft()
        if q and not st['standing'] and d-min(x[1] for x in hist)>=G: st['standing']=True; st['since']=now
    while ev:
        now,kind,a=heapq.heappop(ev)
        ch=False
        while q and now-q[0]>=DEAD: ref(now,q.popleft()); ch=True
        age = T if rule=='growth' else AGE*S
        if AGEROOM and st['standing']: age = max(age, room(now)*S)
        # WC: drop the overstayed only while the queue refuses newcomers (one within HOLD), and
        # never so that a worker idles: at an arrival (the newcomer is fresh), or at a
        # completion when the newest waiter is fresh.
        drop = st['standing'] and (not WC or (now-st['full']<HOLD*S and (kind==1 or (q and now-q[-1]<=age))))
        if drop:
            while q and now-q[0]>age: ref(now,q.popleft()); ch=True
        if ch: sample(now)
        if kind==1:
            if busy<C: busy+=1; heapq.heappush(ev,(now+S,0,a)); continue
            pred=(len(q)+1)*S/C
            if pred>DEAD: ref(now,a); continue
            if st['standing']:
                if rule=='growth' and pred>T: ref(now,q.popleft())
                if rule in ('refuse','shrink') and pred>room(now)*S: st['full']=now; ref(now,a); continue
                if rule=='trim':
                    while q and len(q)*S/C>F*S: ref(now,q.popleft())
                    if (len(q)+1)*S/C>F*S: st['full']=now; sample(now); ref(now,a); continue
            q.append(a); sample(now)
        else:
            if a<SECS: served.append(now-a+0.001)
            if q:
                x=q.pop() if st['standing'] and order=='lifo' else q.popleft(); sample(now)
                heapq.heappush(ev,(now+S,0,x))
            else: busy-=1; sample(now)
    good=sum(1 for s in served if s<=2.0); served.sort()
    return good/SECS/min(rate,80), served[int(len(served)*0.99)-1]*1000, refused

def row_refusals(S, seeds=40, **kw):
    def pct(xs, p):
        xs=sorted(xs); return xs[min(len(xs)-1,int(len(xs)*p))] if xs else 0
    out=[]
    for lvl in (1,2,10):
        r=[run_refusals(80*lvl,seed*7+lvl,S,**kw) for seed in range(seeds)]
        refs=[t for x in r for t in x[2]]
        imm=sum(1 for t in refs if t<0.001)/len(refs) if refs else 1.0
        out.append("%dx g=%.4f p99=%.0f (max %.0f) refused=%d imm=%.2f wait p50/p99=%.0f/%.0f"%(
            lvl,sum(x[0] for x in r)/seeds,sum(x[1] for x in r)/seeds,max(x[1] for x in r),
            len(refs)/seeds,imm,pct(refs,.5)*1000,pct(refs,.99)*1000))
    return " | ".join(out)

def main_refuse():
    for S in (0.0505, 0.053):
        print("S = %.1f ms" % (S*1000))
        print("  growth (shipped)             ", row_refusals(S, rule='growth'), flush=True)
        for F,AGE in ((20,20),(4,20),(1,20),(1,4)):
            print("  refuse F=%2d AGE=%2d LIFO       "%(F,AGE), row_refusals(S, rule='refuse', F=F, AGE=AGE), flush=True)
        for F,order,HOLD in ((1,'lifo',4),(2,'fifo',0),(1,'fifo',0),(1,'fifo',8),(0.5,'fifo',4),(2,'fifo',4),(1,'fifo',4)):
            print("  trim F=%-3g %s HOLD=%d%s"%(F,order.upper(),HOLD," (chosen)" if (F,order,HOLD)==(1,'fifo',4) else "         "),
                  row_refusals(S, rule='trim', F=F, order=order, HOLD=HOLD), flush=True)

def burst(N, S, **kw):
    """N requests at once into an idle app (the service time known): served, refused."""
    g,p,refs=run_refusals(80, 0, S, arr=[0.0]*N, **kw)
    return N-len(refs), len(refs)

def main_lifo_room():
    for S in (0.0505, 0.053):
        print("S = %.1f ms" % (S*1000))
        print("  growth (shipped)             ", row_refusals(S, rule='growth'), flush=True)
        print("  trim F=1   FIFO HOLD=4 (12-04)", row_refusals(S, rule='trim', F=1, order='fifo', HOLD=4), flush=True)
        for F,AGE,HOLD in ((1,1,0),(1,0.5,0),(1,2,0),(1,1,4),(1,1,8),(1,1,16),(1,0.5,8),(2,1,0),(2,1,8),(2,2,0)):
            tag={(1,1,0):" (brief)",(1,1,8):" (12-04 lab)"}.get((F,AGE,HOLD),"")
            print("  refuse F=%g AGE=%-3g HOLD=%-2d LIFO%-12s"%(F,AGE,HOLD,tag),
                  row_refusals(S, rule='refuse', F=F, AGE=AGE, HOLD=HOLD), flush=True)
        print("  refuse F=1 AGE=1   HOLD=8  LIFO WC (chosen) ", row_refusals(S, rule='refuse', F=1, AGE=1, HOLD=8, WC=True), flush=True)
    # A burst into an idle app: main's rule serves what a short wait can serve; the room of one
    # service time refuses the burst's tail once it stands, and without WC drops the rest.
    S=0.0505
    for N in (10, 30, 60, 120):
        print("burst of %3d at once: growth (shipped) served/refused %d/%d | refuse F=1 AGE=1 HOLD=8 %d/%d | with WC %d/%d"%(
            (N,)+burst(N,S,rule='growth')+burst(N,S,rule='refuse',F=1,AGE=1,HOLD=8)+burst(N,S,rule='refuse',F=1,AGE=1,HOLD=8,WC=True)), flush=True)

def main_shrink():
    """Issue 21, the next step (python3 sim.py shrink > sim-shrink.out): the standing queue's
    room shrinks with how long it has stood: F0 service times (main's 20) when it starts
    standing, one service time less per service time of standing, to a floor of F (1); it
    resets when the queue stops standing (empties with no newcomer refused within HOLD).
    The rest is the branch's rule: LIFO, newcomers to a full room refused at once, waiters
    over AGE service times dropped while it refuses newcomers and never so that a worker idles
    (WC); AGEROOM: the sojourn cap is the room while that is longer."""
    for S in (0.0505, 0.053):
        print("S = %.1f ms" % (S*1000))
        print("  growth (main)                          ", row_refusals(S, rule='growth'), flush=True)
        print("  refuse F=1 AGE=1 HOLD=8 WC (branch)    ", row_refusals(S, rule='refuse', F=1, AGE=1, HOLD=8, WC=True), flush=True)
        for F0,AGE,HOLD,AR in ((20,1,8,False),(20,1,8,True),(20,1,4,False),(20,1,16,False),(12,1,8,False)):
            tag=" (chosen)" if (F0,AGE,HOLD,AR)==(20,1,8,False) else ""
            print("  shrink F0=%d AGE=%g%s HOLD=%-2d WC%-9s"%(F0,AGE," room" if AR else "",HOLD,tag),
                  row_refusals(S, rule='shrink', F=1, F0=F0, AGE=AGE, HOLD=HOLD, WC=True, AGEROOM=AR), flush=True)
    S=0.0505
    for N in (10, 30, 60, 120):
        print("burst of %3d at once into 4 idle workers (S=50.5 ms), served/refused: main %d/%d | branch %d/%d | shrink %d/%d"%(
            (N,)+burst(N,S,rule='growth')+burst(N,S,rule='refuse',F=1,AGE=1,HOLD=8,WC=True)
            +burst(N,S,rule='shrink',F=1,F0=20,AGE=1,HOLD=8,WC=True)), flush=True)
    # A burst on top of a load below the capacity: it drains at the spare capacity only, while
    # the room shrinks at one service time per service time.
    def mixed(N, bg, seed, **kw):
        rnd=random.Random(seed); t=0.0; arr=[]
        while True:
            t+=rnd.expovariate(bg)
            if t>=3: break
            arr.append(t)
        g,p,refs=run_refusals(80, 0, S, arr=sorted([0.0]*N+arr), **kw)
        return len(arr)+N-len(refs), len(refs)
    for bg in (20, 40, 60):
        for N in (30, 60):
            res=[]
            for kw in (dict(rule='growth'), dict(rule='refuse',F=1,AGE=1,HOLD=8,WC=True),
                       dict(rule='shrink',F=1,F0=20,AGE=1,HOLD=8,WC=True)):
                r=[mixed(N,bg,seed,**kw) for seed in range(20)]
                res.append("%.1f/%.1f"%(sum(x[0] for x in r)/20, sum(x[1] for x in r)/20))
            print("burst of %d at 0 s, then Poisson %d req/s for 3 s (20 seeds), served/refused: main %s | branch %s | shrink %s"%(
                (N,bg)+tuple(res)), flush=True)

if __name__=='__main__' and sys.argv[1:]==['refuse']:
    main_refuse()
elif __name__=='__main__' and sys.argv[1:]==['lifo-room']:
    main_lifo_room()
elif __name__=='__main__' and sys.argv[1:]==['shrink']:
    main_shrink()
elif __name__=='__main__':
    for S in (0.0505, 0.053):
        print("S = %.1f ms" % (S*1000))
        print("  codel (2026-12-03)         ", row(S, rule='codel'), flush=True)
        for Wm,Gm in ((6,3.6),(6,4.8),(8,4.8),(8,6),(8,6.4),(10,8)):
            print("  growth W=%2dS G=%.1fS%s" % (Wm,Gm," (chosen)" if (Wm,Gm)==(8,6) else "         "),
                  row(S, rule='growth', W=Wm*S, G=Gm*S), flush=True)
