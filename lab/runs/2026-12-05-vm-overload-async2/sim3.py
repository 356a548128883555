# The adaptive controller (crates/weir/src/upstream/pool/adaptive.rs at 9104aaf, damped growth)
# and variants that tighten it near the floor, against the apps of
# lab/runs/2026-12-05-vm-overload-async/sim.py: 4 blocking workers of 50 ms (one FIFO queue),
# a free-running app, and a free-running app with CPU-contention jitter. python3 sim3.py
import math, random, collections
MIN_ROUND=8; MAXCUT=0.5; SPAN=64
class C:
    """tol(limit) -> tolerance; stat: 'mean' or 'p90'; step(limit) -> growth step."""
    def __init__(s,floor,ceil,tol=lambda c,l:1.5,stat='mean',step=None):
        s.floor=floor; s.ceil=ceil; s.limit=float(floor); s.prev=None; s.cur=None; s.n=0
        s.lat=[]; s.sat=False; s.tol=tol; s.stat=stat; s.step=step
    def base(s):
        v=[x for x in (s.prev,s.cur) if x is not None]; return min(v) if v else None
    def L(s): return int(s.limit)
    def record(s,lat,inflight):
        s.sat |= inflight>=s.L(); s.lat.append(lat)
        if inflight<=s.floor:
            s.cur=lat if s.cur is None else min(s.cur,lat); s.n+=1
            if s.n>=SPAN: s.prev=s.cur; s.cur=None; s.n=0
        if len(s.lat)<max(s.L(),MIN_ROUND): return
        lat=s.lat; sat=s.sat; s.lat=[]; s.sat=False
        b=s.base()
        if b is None: return
        if s.stat=='mean': m=sum(lat)/len(lat)
        else: m=sorted(lat)[int(0.9*(len(lat)-1))]
        tol=s.tol(s,s.limit)
        if m>b*tol: s.set(s.limit*max(b*tol/m,MAXCUT)); return
        if sat:
            f=min(1.0,(tol-m/b)/(tol-1.0))
            st=math.sqrt(s.limit) if s.step is None else s.step(s,s.limit)
            s.set(s.limit+max(st,1.0)*f if s.step is None else s.limit+st*f)
    def set(s,v): s.limit=min(max(v,s.floor),s.ceil)
def blocking(a,n,W=4,S=50000,jit=0):
    free=[0]*W; fl=[]; now=0; lims=[]
    for _ in range(n):
        while len(fl)<a.L():
            w=min(range(W),key=lambda i:free[i]); st=max(free[w],now)
            sv=S+(random.randint(0,jit) if jit else 0)
            free[w]=st+sv; fl.append((st+sv,now))
        i=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[i]; now=f
        a.record(f-sent,len(fl)); fl.pop(i); lims.append(a.L())
    return lims
def free_app(a,n,S=50000,jit=0,until=None):
    fl=[]; now=0; lims=[]
    for k in range(n):
        while len(fl)<a.L():
            sv=S+(random.randint(0,jit) if jit else 0); fl.append((now+sv,now))
        i=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[i]; now=f
        a.record(f-sent,len(fl)); fl.pop(i); lims.append(a.L())
    return lims
def first(l,v):
    for i,x in enumerate(l):
        if x>=v: return i
    return None
def summ(l):
    t=sorted(l[len(l)//2:]); c=collections.Counter(t)
    return "median %d range %d-%d above4 %.0f%%"%(t[len(t)//2],t[0],t[-1],100*sum(1 for x in t if x>4)/len(t))
def near(t,span=2.0):
    return lambda c,l: t if l<span*c.floor else 1.5
def ramp(tmin,alpha=0.5):
    return lambda c,l: min(1.5,max(tmin,1+alpha*(l/c.floor-1)))
step1=lambda c,l: 1.0 if l<2*c.floor else math.sqrt(l)
V=[("main",{}),
   ("near1.2",{"tol":near(1.2)}),("near1.25",{"tol":near(1.25)}),("near1.3",{"tol":near(1.3)}),
   ("near1.2+step1",{"tol":near(1.2),"step":step1}),("near1.25+step1",{"tol":near(1.25),"step":step1}),
   ("near1.3+step1",{"tol":near(1.3),"step":step1}),
   ("ramp1.2",{"tol":ramp(1.2)}),("ramp1.2+step1",{"tol":ramp(1.2),"step":step1}),
   ("p90",{"stat":"p90"}),("p90+near1.3",{"stat":"p90","tol":near(1.3)}),
]
for name,kw in V:
    out=[name]
    for jit in (0,5000,10000,25000):
        random.seed(1); a=C(4,128,**kw); out.append("blk jit%d: %s"%(jit,summ(blocking(a,20000,jit=jit))))
    # free-running app, floor 4 ceiling 128 (the lab's weir-async) and floor 2 ceiling 16 (E2E)
    for jit in (0,5000,15000):
        random.seed(1); b=C(4,128,**kw); fl=free_app(b,20000,jit=jit)
        random.seed(1); e=C(2,16,**kw); el=free_app(e,20000,jit=jit)
        out.append("free jit%d: final %d, 70 after %s; floor2->8 after %s"%(jit,fl[-1],first(fl,70),first(el,8)))
    print("\n  ".join(out))
