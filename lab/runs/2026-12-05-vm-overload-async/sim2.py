exec(open('sim.py').read().split("random.seed(1)")[0])
import random
class P(A):
    def record(s,lat,inflight):
        lim=s.L(); r=s.r; r[0]+=1; r[3]|= inflight>=lim
        r[1]+=1; r[2]+=lat
        if inflight<=s.floor:
            s.cur=lat if s.cur is None else min(s.cur,lat); s.n+=1
            if s.n>=SPAN: s.prev=s.cur; s.cur=None; s.n=0
        if r[0]<max(s.L(),MIN_ROUND): return
        s.r=[0,0,0.0,False]
        b=s.base()
        if b is None: return
        mean=r[2]/r[1]; allowed=b*TOL
        if mean>allowed:
            s.set(s.limit*max(allowed/mean,MAXCUT)); return
        if r[3]:
            f=(TOL-mean/b)/(TOL-1.0); f=min(1.0,max(0.0,f))
            s.set(s.limit+max(math.sqrt(s.limit),1.0)*f)
def noisy_free(a,n,S=50000,extra=0.3):
    # free app whose latency is 1+extra times S at any concurrency (CPU contention), jitter 10%
    fl=[]; now=0; lims=[]
    for i in range(n):
        while len(fl)<a.L():
            k = 1.0 if i<2000 else 1.0+extra
            sv=int(S*k)+random.randint(0,S//10); fl.append((now+sv,now))
        j=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[j]; now=f
        a.record(f-sent,len(fl)); fl.pop(j); lims.append(a.L())
    return lims
for name,cls,kw in [("gate1.2",A,{"grow_gate":1.2}),("gate1.3",A,{"grow_gate":1.3}),("prop",P,{})]:
    for jit in (0,5000,10000,25000):
        random.seed(1)
        a=cls(4,128,**kw); l=blocking(a,20000,jit=jit)
        b=cls(4,128,**kw); fl=free_app(b,20000,jit=jit)
        print(name,"jit",jit,"blocking",summ(l)[:3],summ(l)[3][:3],"| free final",fl[-1])
    for extra in (0.25,0.4):
        random.seed(2); c=cls(2,16,**kw); nl=noisy_free(c,6000,extra=extra); print(name,"free app 2->16 after slowdown",extra,"limit at 2000:",nl[1999],"final",nl[-1])
