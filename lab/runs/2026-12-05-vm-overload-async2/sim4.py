# sim3.py's controller with the hold: after a cut by latency, no growth until HOLD more rounds
# ended within the tolerance. python3 sim4.py
exec(open('sim3.py').read().split("V=[")[0])
class H(C):
    def __init__(s,*a,hold=4,**k):
        super().__init__(*a,**k); s.hold=hold; s.calm=hold
    def record(s,lat,inflight):
        s.sat |= inflight>=s.L(); s.lat.append(lat)
        if inflight<=s.floor:
            s.cur=lat if s.cur is None else min(s.cur,lat); s.n+=1
            if s.n>=SPAN: s.prev=s.cur; s.cur=None; s.n=0
        if len(s.lat)<max(s.L(),MIN_ROUND): return
        lat=s.lat; sat=s.sat; s.lat=[]; s.sat=False
        b=s.base()
        if b is None: return
        m=sum(lat)/len(lat); tol=s.tol(s,s.limit)
        if m>b*tol: s.set(s.limit*max(b*tol/m,MAXCUT)); s.calm=0; return
        s.calm+=1
        if sat and s.calm>s.hold:
            f=min(1.0,(tol-m/b)/(tol-1.0))
            st=math.sqrt(s.limit) if s.step is None else s.step(s,s.limit)
            s.set(s.limit+max(st,1.0)*f if s.step is None else s.limit+st*f)
def dist(l):
    t=l[len(l)//2:]; c=collections.Counter(t); return " ".join("%d:%.0f%%"%(k,100*c[k]/len(t)) for k in sorted(c))
V=[("main",{"hold":0}),("near1.2",{"tol":near(1.2),"hold":0}),
   ("near1.2+hold4",{"tol":near(1.2),"hold":4}),("near1.2+hold8",{"tol":near(1.2),"hold":8}),
   ("near1.2+hold4+step1",{"tol":near(1.2),"hold":4,"step":step1}),("near1.2+hold8+step1",{"tol":near(1.2),"hold":8,"step":step1}),
   ("near1.25+hold8",{"tol":near(1.25),"hold":8})]
for name,kw in V:
    out=[name]
    for jit in (0,5000,10000,25000):
        random.seed(1); a=H(4,128,**kw); out.append("blk jit%d: %s"%(jit,dist(blocking(a,20000,jit=jit))))
    for jit in (0,5000,15000):
        random.seed(1); b=H(4,128,**kw); fl=free_app(b,20000,jit=jit)
        random.seed(1); e=H(2,16,**kw); el=free_app(e,20000,jit=jit)
        out.append("free jit%d: final %d, 70 after %s; floor2->8 after %s"%(jit,fl[-1],first(fl,70),first(el,8)))
    print("\n  ".join(out))
