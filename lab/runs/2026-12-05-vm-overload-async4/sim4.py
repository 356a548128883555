# Near-floor rule variants (async3's rule and the ideas of its "What to try next") against
# ../2026-12-05-vm-overload-async2/sim3.py's apps, with a host whose slowness comes in spells
# (a loaded machine: every answer slowed by the same factor for a while), not only i.i.d. noise.
# python3 sim4.py > sim4.out
import os, math, random, collections, statistics
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'../2026-12-05-vm-overload-async2/sim3.py')).read().split("V=[")[0])
FSPAN=8; HOLD=8
class R:
    """near: None = main's rule. fstat: the floor's mean from the round means at the floor:
    'least' (async3: least of the last 8-16), 'median' (median of the last 16),
    '+skip' suffix: not counting the round after a cut. holdn: lowering cuts without gain in a
    row (no calm round over the floor between) before a hold; mingap: hold only when the cut
    round's limit was at least this over the floor."""
    def __init__(s,floor,ceil,near=1.2,fstat='least',holdn=1,mingap=1,gain=1.1):
        s.floor=floor; s.ceil=ceil; s.limit=float(floor); s.prev=None; s.cur=None; s.n=0
        s.lat=[]; s.sat=False; s.near=near; s.fstat=fstat; s.holdn=holdn; s.mingap=mingap; s.gain=gain
        s.calm=HOLD; s.fl=collections.deque(maxlen=2*FSPAN); s.fprev=None; s.fcur=None; s.fn=0
        s.after_cut=False; s.nogain=0
    def base(s):
        v=[x for x in (s.prev,s.cur) if x is not None]; return min(v) if v else None
    def fref(s):
        if s.fstat.startswith('least'):
            v=[x for x in (s.fprev,s.fcur) if x is not None]; return min(v) if v else None
        return statistics.median(s.fl) if s.fl else None
    def fadd(s,m):
        if s.fstat.endswith('+skip') and s.after_cut: return
        if s.fstat.startswith('least'):
            s.fcur=m if s.fcur is None else min(s.fcur,m); s.fn+=1
            if s.fn>=FSPAN: s.fprev=s.fcur; s.fcur=None; s.fn=0
        else: s.fl.append(m)
    def L(s): return int(s.limit)
    def record(s,lat,inflight):
        if lat is not None and inflight<=s.floor:
            s.cur=lat if s.cur is None else min(s.cur,lat); s.n+=1
            if s.n>=SPAN: s.prev=s.cur; s.cur=None; s.n=0
        s.lat.append(lat)
        s.sat |= inflight>=s.L()
        if len(s.lat)<max(s.L(),MIN_ROUND): return
        lat=s.lat; sat=s.sat; s.lat=[]; s.sat=False
        after_cut=s.after_cut; s.after_cut=False
        fails=sum(1 for x in lat if x is None)
        if fails>0.05*len(lat):
            s.set(s.limit*0.8); s.after_cut=True; return
        lat=[x for x in lat if x is not None]
        b=s.base()
        if b is None or not lat: return
        m=sum(lat)/len(lat)
        limit=s.L(); f=s.fref()
        allowed=1.5*b; ref=b
        if s.near is not None and f is not None and limit>s.floor and s.limit<2*s.floor:
            allowed=min(allowed,s.near*f); ref=f
        if s.near is not None and limit==s.floor:
            s.after_cut=after_cut; s.fadd(m); s.after_cut=False
        if m>allowed:
            s.set(s.limit*max(allowed/m,MAXCUT)); s.after_cut=True
            if s.near is not None:
                nogain = f is not None and limit/m <= s.gain*s.floor/f
                if s.L()<limit and nogain and limit-s.floor>=s.mingap:
                    s.nogain+=1
                    if s.nogain>=s.holdn: s.calm=0; s.nogain=0
            return
        if limit>s.floor: s.nogain=0
        s.calm+=1
        if sat and (s.near is None or s.calm>HOLD):
            d=min(1.0,(allowed-m)/(allowed-ref)) if allowed>ref else 0.0
            s.set(s.limit+max(math.sqrt(s.limit),1.0)*max(d,0.0))
    def set(s,v): s.limit=min(max(v,s.floor),s.ceil)
class Host:
    """A loaded host: the slowness factor changes at exponential intervals of `spell` µs
    (1 with probability `calm`, else uniform 1-`worst`)."""
    def __init__(s,calm=0.5,worst=2.5,spell=300000):
        s.calm=calm; s.worst=worst; s.spell=spell; s.until=0; s.f=1.0
    def at(s,now):
        while now>=s.until:
            s.until+=random.expovariate(1/s.spell)
            s.f=1.0 if random.random()<s.calm else random.uniform(1,s.worst)
        return s.f
def blocking_h(a,n,host,W=4,S=50000):
    free=[0]*W; fl=[]; now=0; lims=[]
    for _ in range(n):
        while len(fl)<a.L():
            w=min(range(W),key=lambda i:free[i]); st=max(free[w],now)
            sv=S*(host.at(st) if host else 1)
            free[w]=st+sv; fl.append((st+sv,now))
        i=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[i]; now=f
        a.record(f-sent,len(fl)); fl.pop(i); lims.append(a.L())
    return lims
def e2e(a,host,n_fail=200,n_after=20000,S=50000):
    """The E2E test's app (free, floor 2, ceiling 16): rise to 8 on a quiet host, failures cut
    it to the floor, then rise to 8 again on `host`. Completions until 8 (None: never)."""
    fl=[]; now=0
    def run(n,h,failing=False,until=None):
        nonlocal now,fl
        for k in range(n):
            while len(fl)<a.L():
                sv=S*(h.at(now) if h else 1)+random.expovariate(1/1000); fl.append((now+sv,now))
            i=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[i]; now=f
            a.record(None if failing else f-sent,len(fl)); fl.pop(i)
            if until is not None and a.L()>=until: return k
        return None
    if run(20000,None,until=8) is None: return "never rose"
    run(n_fail,None,failing=True)
    return run(n_after,host,until=8)
def dist(l):
    t=l[len(l)//2:]; c=collections.Counter(t); return " ".join("%d:%.0f%%"%(k,100*c[k]/len(t)) for k in sorted(c) if c[k]*100>=len(t))
V=[("main",{"near":None}),
   ("async3 (least of floor rounds, hold after 1 no-gain cut)",{}),
   ("median of floor rounds",{"fstat":"median"}),
   ("least, skip round after cut",{"fstat":"least+skip"}),
   ("median, skip round after cut",{"fstat":"median+skip"}),
   ("least, hold after 2 no-gain cuts",{"holdn":2}),
   ("median, hold after 2",{"fstat":"median","holdn":2}),
   ("median+skip, hold after 2",{"fstat":"median+skip","holdn":2}),
   ("least, hold only if cut round >= floor+2",{"mingap":2}),
   ("median, hold only if >= floor+2",{"fstat":"median","mingap":2}),
]
hosts=[("quiet",None),("spells 1-1.5",lambda:Host(0.5,1.5)),("spells 1-2.5",lambda:Host(0.5,2.5)),("spells 1-4",lambda:Host(0.3,4.0))]
for name,kw in V:
    out=[name]
    for hn,h in hosts:
        random.seed(1); a=R(4,128,**kw); out.append("blk %s: %s"%(hn,dist(blocking_h(a,20000,h() if h else None))))
    random.seed(1); b=R(4,128,**kw); fl=free_app(b,20000,jit=15000)
    out.append("free jit15ms: final %d, 70 after %s"%(fl[-1],first(fl,70)))
    for hn,h in hosts[1:]:
        res=[]
        for seed in range(10):
            random.seed(seed); a=R(2,16,**kw); res.append(e2e(a,h()))
        ok=[r for r in res if isinstance(r,int)]
        out.append("e2e rise again %s: never %d/10, completions median %s max %s"%(hn,len(res)-len(ok),statistics.median(ok) if ok else None,max(ok) if ok else None))
    print("\n  ".join(out),flush=True)
