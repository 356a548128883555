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
"""
import heapq, random
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

if __name__=='__main__':
    for S in (0.0505, 0.053):
        print("S = %.1f ms" % (S*1000))
        print("  codel (2026-12-03)         ", row(S, rule='codel'), flush=True)
        for Wm,Gm in ((6,3.6),(6,4.8),(8,4.8),(8,6),(8,6.4),(10,8)):
            print("  growth W=%2dS G=%.1fS%s" % (Wm,Gm," (chosen)" if (Wm,Gm)==(8,6) else "         "),
                  row(S, rule='growth', W=Wm*S, G=Gm*S), flush=True)
