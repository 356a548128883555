import math, sys, random
MIN_ROUND=8; TOL=1.5; MAXCUT=0.5; SPAN=64
class A:
    def __init__(s,floor,ceil,grow_gate=None,step=None):
        s.floor=floor; s.ceil=ceil; s.limit=float(floor); s.prev=None; s.cur=None; s.n=0
        s.r=[0,0,0.0,False]; s.gate=grow_gate; s.step=step
    def base(s):
        v=[x for x in (s.prev,s.cur) if x is not None]; return min(v) if v else None
    def L(s): return int(s.limit)
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
        if r[3] and (s.gate is None or mean<=b*s.gate):
            st = math.sqrt(s.limit) if s.step is None else s.step(s.limit)
            s.set(s.limit+max(st,1.0))
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
def free_app(a,n,S=50000,jit=0):
    # latency independent of concurrency
    fl=[]; now=0; lims=[]
    for _ in range(n):
        while len(fl)<a.L():
            sv=S+(random.randint(0,jit) if jit else 0); fl.append((now+sv,now))
        i=min(range(len(fl)),key=lambda i:fl[i][0]); f,sent=fl[i]; now=f
        a.record(f-sent,len(fl)); fl.pop(i); lims.append(a.L())
    return lims
def summ(l):
    t=sorted(l[len(l)//2:]); import collections
    return t[len(t)//2], min(t), max(t), collections.Counter(t).most_common(4)
random.seed(1)
for name,kw in [("main",{}),("gate1.2",{"grow_gate":1.2}),("gate1.1",{"grow_gate":1.1}),("gate1.25",{"grow_gate":1.25}),("step1",{"step":lambda l:1.0}),("gate1.2+step1",{"grow_gate":1.2,"step":lambda l:1.0})]:
    for jit in (0,5000):
        a=A(4,128,**kw); l=blocking(a,20000,jit=jit)
        b=A(4,128,**kw); fl=free_app(b,20000,jit=jit)
        print(name,"jit",jit,"blocking med/min/max",summ(l)[:3],summ(l)[3],"base",a.base(),"| free final",fl[-1])
print("----")
for name,kw in [("main",{}),("gate1.2",{"grow_gate":1.2}),("gate1.3",{"grow_gate":1.3})]:
    for jit in (10000,25000):
        for seed in (1,2):
            random.seed(seed)
            a=A(4,128,**kw); l=blocking(a,20000,jit=jit)
            b=A(4,128,**kw); fl=free_app(b,20000,jit=jit)
            print(name,"jit",jit,"blocking med/min/max",summ(l)[:3],summ(l)[3],"base",a.base(),"| free final",fl[-1], "free med", summ(fl)[:3])
