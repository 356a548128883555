"""The refusals of the first second after the spike, by the rule that made them (python3 tail.py SPEC)."""
import sys, collections
src=open('sim.py').read().replace("if __name__ == '__main__':","if False:")
src=src.replace("def ref(now, a):\n        if a < SECS: refused.append(now - a)","def ref(now, a, why='?'):\n        if a < SECS: refused.append(now - a)\n        else: TAIL_REF.append((a-SECS, why, now-a))")
src=src.replace("                    ref(now, q.pop(0)); ch = True\n                    if hold_drops", "                    ref(now, q.pop(0), 'drop'); ch = True\n                    if hold_drops")
src=src.replace("st['full'] = now; fulls.append(now); ref(now, a); continue","st['full'] = now; fulls.append(now); ref(now, a, 'room'); continue")
src=src.replace("                    ref(now, a); continue","                    ref(now, a, 'floorwait'); continue")
src=src.replace("            if (len(q)+1)*Sm/C > DEAD: ref(now, a); continue","            if (len(q)+1)*Sm/C > DEAD: ref(now, a, 'deadline'); continue")
src="TAIL_REF=[]\n"+src
exec(src)
import ast
kw={}
for part in sys.argv[1].split(','):
    k,v=part.split('='); kw[k]= v if k=='rule' else ast.literal_eval(v)
for lvl in (2,10):
    TAIL_REF.clear(); rec=0; nr=0; lost=0
    for seed in range(40):
        arr=arrivals(80*lvl, seed*7+lvl)
        sv,rf,rc=run(arr, seed=seed, **kw)
        rec+=rc; nr+=sum(1 for x in arr if SECS<=x<SECS+1)
    c=collections.Counter(w for t,w,_ in TAIL_REF if t<1)
    print(lvl, "rec", round(rec/nr,3), "sent", nr/40, "served", rec/40, "refused first s:", {k:v/40 for k,v in c.items()})
