# Variants of the near-floor rule against the apps of ../2026-12-05-vm-overload-async2/sim3.py, and against a noisy free app
# (the E2E test's: floor 2, ceiling 16, a debug build on a loaded machine) restarting at the
# floor after its failures. python3 sim.py
import os
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'../2026-12-05-vm-overload-async2/sim3.py')).read().split("V=[")[0])
FSPAN=8
class R:
    """near: tolerance vs the floor's own round mean under near_span x floor (None: off);
    ref: 'least' (least sample, the last session's patch) or 'floormean' (least round mean at
    the floor); hold: rounds without growth after a cut that lowered the limit."""
    def __init__(s,floor,ceil,near=1.2,ref='floormean',hold=8,hold_any=False,damp='base',span=2.0,gain=None,above=False,ramp=False,intcut=False):
        s.floor=floor; s.ceil=ceil; s.limit=float(floor); s.prev=None; s.cur=None; s.n=0
        s.lat=[]; s.sat=False; s.near=near; s.ref=ref; s.hold=hold; s.calm=hold; s.hold_any=hold_any
        s.fprev=None; s.fcur=None; s.fn=0; s.damp=damp; s.span=span; s.gain=gain; s.above=above; s.ramp=ramp; s.intcut=intcut
    def base(s):
        v=[x for x in (s.prev,s.cur) if x is not None]; return min(v) if v else None
    def fref(s):
        v=[x for x in (s.fprev,s.fcur) if x is not None]; return min(v) if v else None
    def L(s): return int(s.limit)
    def record(s,lat,inflight):
        if lat is not None:
            s.lat.append(lat)
            if inflight<=s.floor:
                s.cur=lat if s.cur is None else min(s.cur,lat); s.n+=1
                if s.n>=SPAN: s.prev=s.cur; s.cur=None; s.n=0
        else: s.lat.append(None)
        s.sat |= inflight>=s.L()
        if len(s.lat)<max(s.L(),MIN_ROUND): return
        lat=s.lat; sat=s.sat; s.lat=[]; s.sat=False
        fails=sum(1 for x in lat if x is None)
        if fails>0.05*len(lat):
            s.set(s.limit*0.8); return
        lat=[x for x in lat if x is not None]
        b=s.base()
        if b is None or not lat: return
        m=sum(lat)/len(lat)
        atfloor = s.L()==s.floor
        allowed=1.5*b; ref=b
        if s.near is not None and s.limit<s.span*s.floor and not (s.above and atfloor):
            if s.ref=='least': allowed=s.near*b
            else:
                f=s.fref()
                if f is not None: allowed=min(allowed,(max(s.near,s.L()/(s.gain*s.floor)) if s.ramp else s.near)*f); ref=min(f,b) if s.damp=='base' else f
        if atfloor:
            s.fcur=m if s.fcur is None else min(s.fcur,m); s.fn+=1
            if s.fn>=FSPAN: s.fprev=s.fcur; s.fcur=None; s.fn=0
        if m>allowed:
            before=s.limit; s.set(s.limit*max(allowed/m,MAXCUT))
            f=s.fref()
            nogain = s.gain is None or (f is not None and s.L()/m <= s.gain*s.floor/f) if False else None
            if s.gain is not None:
                nogain = f is not None and int(before)/m <= s.gain*s.floor/f
            else: nogain=True
            if ((int(s.limit)<int(before) if s.intcut else s.limit<before) and nogain) or s.hold_any: s.calm=0
            return
        s.calm+=1
        if sat and s.calm>s.hold:
            d=min(1.0,(allowed-m)/(allowed-ref)) if allowed>ref else 0.0
            s.set(s.limit+max(math.sqrt(s.limit),1.0)*max(d,0.0))
    def set(s,v): s.limit=min(max(v,s.floor),s.ceil)
def dist(l):
    t=l[len(l)//2:]; c=collections.Counter(t); return " ".join("%d:%.0f%%"%(k,100*c[k]/len(t)) for k in sorted(c))
def noisy(base_ms=50.0,mean_over=4.0,spike=0.05,spike_ms=40.0):
    def f():
        x=base_ms*1000+random.expovariate(1/(mean_over*1000))
        if random.random()<spike: x+=random.uniform(0,spike_ms*1000)
        return x
    return f
def e2e(a,quiet,loud,n_fail=200,n_after=20000):
    """Free app: rise to 8 on a quiet machine, failures cut to the floor, recover on a loud one.
    Returns completions after recovery until the limit is 8 again (None: never)."""
    fl=[]; now=0
    def run(n,lat,failing=False,until=None):
        nonlocal now,fl
        for k in range(n):
            while len(fl)<a.L():
                sv=lat(); fl.append((now+sv,now))
            i=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[i]; now=f
            a.record(None if failing else f-sent,len(fl)); fl.pop(i)
            if until is not None and a.L()>=until: return k
        return None
    if run(20000,quiet,until=8) is None: return "never rose"
    run(n_fail,quiet,failing=True)
    assert a.L()==a.floor, a.L()
    return run(n_after,loud,until=8)
V=[("main (a78a6fa)",{"near":None}),
   ("async2's patch: 1.2 x least sample under 2 x floor, hold 8 after any cut",{"ref":"least","hold_any":True}),
   ("A: 1.2 x floor's mean, hold 8 after a lowering cut without gain (1.1)",{"damp":"floor","gain":1.1,"above":True}),
   ("B (shipped): A, the hold only when the whole limit fell",{"damp":"floor","gain":1.1,"above":True,"intcut":True}),
   ("C: B with tolerance max(1.2, limit / (1.1 x floor)) x floor's mean",{"damp":"floor","gain":1.1,"above":True,"intcut":True,"ramp":True}),
]
for name,kw in V:
    out=[name]
    for jit in (0,5000,10000,25000):
        random.seed(1); a=R(4,128,**kw); out.append("blk jit%d: %s"%(jit,dist(blocking(a,20000,jit=jit))))
    for jit in (0,15000):
        random.seed(1); b=R(4,128,**kw); fl=free_app(b,20000,jit=jit)
        random.seed(1); e=R(2,16,**kw); el=free_app(e,20000,jit=jit)
        out.append("free jit%d: final %d, 70 after %s; floor2->8 after %s"%(jit,fl[-1],first(fl,70),first(el,8)))
    res=[]
    for seed in range(10):
        for over,spike in ((4,0.05),(10,0.1),(20,0.2)):
            random.seed(seed); a=R(2,16,**kw)
            res.append(e2e(a,noisy(mean_over=1,spike=0),noisy(mean_over=over,spike=spike)))
    out.append("e2e recover to 8 (completions; 10 seeds x over 4/10/20 ms): %s"%res)
    print("\n  ".join(out),flush=True)
