"""Issue 21, the standing queue's served p99 at twice the capacity (python3 sim.py [variant ...]).

A discrete-event model of the lab's overload scenario (lab/runs/2026-12-03-vm-overload-growth/
sim.py, whose `shrink` rule is main's): 4 workers, Poisson arrivals at 80, 160, 800 req/s for
15 s then 3 s at 80 req/s, a 2 s deadline, forty seeds. Service S = 50.5 ms plus a uniform
jitter of 0..J ms (a real sync worker's 50 ms sleep plus its accept and close: with no jitter
four workers that started together free together for ever). A model: no gateway, no
generator, no machine. Served latency = wait + service + 1 ms.

Rules (all: the growth test, W = 8 S, G = 6 S, and CoDel's interval test; LIFO while standing;
it stands until it empties and is not refusing: NREF refusals within HOLD = 8 S, 1 on main):
- main (`rule=main`): the room is F0 = 20 S of Little's-law delay when it starts standing, one S
  less per S it stands, 1 S at least; newcomers to a full room refused at once; while refusing,
  waiters older than AGE = 1 S dropped at an arrival, or at a completion if the newest is fresh.
- cap (`rule=cap,CAP=..`): main, plus: once the room is at its floor a newcomer is admitted only
  when the place it would get frees within CAP S (the places' start times + S; `fifo=True`:
  its turn first come, first served, and the queue served in that order at the floor);
  `hold_drops`: drops count as refusals for the hold; `drop_standing`: the overstayed dropped
  whenever standing, not only while refusing.
- `lifo_always=True,guard=G`: a queue that does not stand serves the newest first too, but a
  waiter that waited G seconds goes first (the oldest of those).
- `soft=..`: LIFO (only) from a smaller growth; `k`: the room's shrink rate.
The shipped rule (weir 2026-12-04, this run): rule=cap,fifo=True,hold_drops=True,lifo_always=True,
guard=0.5,CAP=0.5,NREF=8 (python3 sim.py shipped > sim-sojourn.out runs it beside main and the
steps between).

2026-12-04 (lab/runs/2026-12-04-vm-overload-collapse), parameters added to the sojourn run's model:
- `collapse=True`: while the queue refuses (NREF refusals within HOLD), its room is at its floor at
  once (and the floor's wait and first come, first served apply), whatever the time it stood. Shipped.
- `RATE=r`: the queue counts as refusing only while the arrivals of the last HOLD service times
  are r times the capacity or more (an overload's end seen from the arrivals). Not shipped.
- `LAPSE=True`: a standing queue that was refusing stops standing once it no longer refuses,
  without waiting to empty. Not shipped.
- `HARD=h`: a refusal for the floor's wait counts towards refusing only when the place would
  free over h service times away (at the app's capacity the floor's wait refuses newcomers a
  short wait would serve, and those keep the queue refusing after a spike). Not shipped.
2026-12-05 (lab/runs/2026-12-05-vm-overload-recovery), parameters added:
- `RN=n,RR=r`: the queue counts as refusing only while the last n arrivals came within n / (r x
  capacity / S) of now (at least r times as fast as the workers serve). RN=16, RR=1 shipped
  (`ARRIVALS_PER_PLACE` = 4 at 4 places).
- `IDLE=True`: a worker that freed with no waiter ends the refusing until the next refusal. Not
  shipped.
2026-12-05 (lab/runs/2026-12-05-vm-overload-onset), parameters added:
- `RESUME=True`: main's lull rule (1f653fd): a queue that stands again within HOLD of stopping
  with its room at the floor starts with its room at the floor. Main a78a6fa = S,RESUME=True.
- `JUMP=j,F0G=f`: when the queue stands by growth, the growth took D = now - the last time the
  delay was at the least of the samples after the window's minimum (weir's window deque, its
  second element); D >= j service times is gradual (an overload's onset): its room starts at
  f service times ('delay': its delay then, the target at most) rather than F0 = 20. Stands by
  the interval test count as gradual (`IGRAD`). JUMP=2,F0G='delay' shipped.
- `LEAST=l`: gradual only if the window's least delay was under l service times (an onset from
  an almost empty queue); a queue already deep (a wander near the capacity) keeps the target.
- `GLIFO=True`: a gradual queue at its floor serves newest first until it refuses. Not shipped.
- `Wn=w`: the growth window, in service times (with G: the onset detected sooner). Not shipped.
2026-12-05 (lab/runs/2026-12-05-vm-overload-onset2), parameters added for the lab's own load
(replay.py, labtrace.py):
- `SVC=[...]`: service times in the order they are started (a lab run's, from its access log);
  S is then their mean. `PHASES=[(from, to, factor)]`: a start inside a slow phase takes factor
  times as long (slow.py).
- `STALL=t`: a service over the median by more than t is read as a machine-wide stall of that
  excess: every service in flight takes that much longer and arrivals during it reach the
  gateway when it ends (stalls.py).
- `EWMA=True`: the gateway's learnt service time is weir's moving average (each occupancy weighs
  0.2), and the delay, target, interval, window, growth and room follow it, as in admission.rs
  (sim.py used the app's fixed S for them).
- `DEPTH=True`: the growth window keeps depths (waiters per place), not delays, so a rise of the
  learnt service time does not read as growth.
- `G2=g,RK=k,RR2=r,L2=l,G2J=j`: stand (gradually) already at a growth of g service times when the
  last k service times brought r times what the places serve (the arrival rate against the
  capacity), the window's least under l, the growth taking j service times or more.
2026-12-05 (lab/runs/2026-12-05-vm-overload-bursts2), parameters added:
- `DISP=d`: displacement. While the standing queue refuses, the waiters that overstayed (AGE) are
  dropped at an arrival only if the newcomer is then admitted in their stead (its room, and at
  the floor its place within CAP), and never at a completion (d = 1: shipped); d = 2 keeps the
  drops at a completion with a fresh waiter; d = 3 drops them at every arrival but never at a
  completion. `SERVED_ARR` collects the arrival time of each served request (seq.py).
2026-12-05 (lab/runs/2026-12-05-vm-overload-pressure), parameters added; main is
`onset,JUMP=3,EWMA=True,DEPTH=True,DISP=1` (replay.py's names):
- `PK=k,PR=r,PF=True`: a standing queue refuses a newcomer for its room or the floor's wait
  only while the last k service times brought r x capacity x k arrivals or more (every
  arrival, those served at once too, this one counted); otherwise it is admitted up to the
  deadline. PK=4,PR=1,PF=True shipped (`PRESSURE_SERVICES`).
- `PO=True`: the same test also serves the queue in a queue that does not stand's order. Not
  shipped (2x served p99 up in the model).
- `PKD=k,PRD=r`: displacement drops (DISP) only while the last k service times brought
  r x capacity x k arrivals (this one counted); without them, PK and PR. PKD=1,PRD=2 shipped
  (`DROP_PRESSURE`; 1.5 first, 2 once a burst on 60 req/s showed a cluster dropping it).
- `PDP=True`: the drops need the PK/PR test too. Not shipped (little gain).
- `SPAN=s`: the queue is refusing only when its counted refusals within the hold span s service
  times or more. Not shipped (no gain once PF and PKD are there).
`python3 sim.py onset > sim-onset.out` runs main and these variants; the bursts spread over 25 to
200 ms show where a burst stops counting as a jump.
`python3 sim.py recovery` runs the shipped rule of 2026-12-04 and these variants.
`python3 sim.py collapse` runs the shipped rule before and after, and the recovery variants;
`python3 tail.py SPEC` splits the refusals of the first second after the spike by rule.
"""
import bisect, heapq, random, sys
from collections import deque

C = 4; DEAD = 2.0; SECS = 15; TAIL = 3

def arrivals(rate, seed):
    rnd = random.Random(seed); t = 0; arr = []
    while True:
        t += rnd.expovariate(rate)
        if t >= SECS: break
        arr.append(t)
    t = SECS
    while True:
        t += rnd.expovariate(80)
        if t >= SECS + TAIL: break
        arr.append(t)
    return arr

def run(arr, S=0.0505, J=0.0, rule='main', k=1.0, G=6, CAP=None, AGE=1.0, HOLD=8, F0=20, fifo=False,
        drop_standing=False, lifo_always=False, cap_holds=True, soft=None, soft_end='empty', hold_drops=False, guard=None, NREF=1, seed=0, collapse=False, RATE=None, LAPSE=False, HARD=None, RN=None, RR=1.0, IDLE=False, RESUME=False, JUMP=None, F0G=1.0, Wn=8, IGRAD=True, GLIFO=False, LEAST=None, SVC=None, PHASES=(), G2=None, RK=4, RR2=1.5, L2=None, G2J=0.0, STALL=None, EWMA=False, DEPTH=False, DISP=0, PK=None, PR=1.0, PF=False, PO=False, PKD=None, SPAN=None, PRD=None, PDP=False):
    rnd = random.Random(seed ^ 0x5eed)
    W = Wn*S; T = 20*S; I = 10*S
    Sm = S + J/2  # the service time the gateway has learnt
    S0 = S  # the app's (S follows the learnt one with EWMA)
    svc_at = [0]
    def service():
        # SVC: the lab's service times, in the order the lab completed them, one per start
        if SVC is None: return S0 + rnd.random()*J
        x = SVC[min(svc_at[0], len(SVC)-1)]; svc_at[0] += 1
        if STALL is not None and x - MED > STALL:
            # a machine-wide stall (the lab's 2 shared cores): every service in flight takes
            # longer by it, and arrivals during it reach the gateway when it ends; placed in
            # the middle of this service, unless one already covers it
            now = clock[0]
            if not any(t0 < now + x and now < t0 + d for t0, d in stalls):
                stalls.append((now + MED/2, x - MED))
            x = MED
        # PHASES: (from, to, factor): a start inside a slow phase takes factor times as long
        for t0, t1, f in PHASES:
            if t0 <= clock[0] < t1: x *= f
        return x
    ev = [(a, 1, a) for a in arr]; heapq.heapify(ev)
    busy = 0; starts = deque(maxlen=C)  # start times of the last C places taken
    q = []  # arrival times, oldest first
    served = []; refused = []; rec = [0]
    st = dict(standing=False, above=None, full=-1e9, since=None, soft=False, f0=F0, lapsed=None, jumps=0, grads=0)
    hist = deque()
    arr2 = deque()
    def room(now):
        if st['since'] is None: return F0*S
        if collapse and refusing(now): return 1*S
        return max(1*S, st['f0']*S - k*(now - st['since']))
    def at_floor(now):
        if collapse and st['since'] is not None and refusing(now): return True
        return st['since'] is not None and st['f0']*S - k*(now - st['since']) <= 1*S
    def stand(now, grown_in):
        GROWN.append(grown_in)
        st['standing'] = True; st['since'] = now
        st['f0'] = F0
        if RESUME and st['lapsed'] is not None and now - st['lapsed'] < HOLD*S: st['f0'] = 1.0
        elif JUMP is not None and (grown_in is None and IGRAD or grown_in is not None and grown_in >= JUMP*S):
            st['f0'] = F0G if F0G != 'delay' else min(F0, max(1.0, len(q)*Sm/C/S))
            st['grads'] += 1
        else:
            st['jumps'] += 1
    def sample(now):
        if not q and not refusing(now):
            if st['standing'] and RESUME: st['lapsed'] = now if at_floor(now) else None
            st['standing'] = False; st['since'] = None
        if LAPSE and st['standing'] and st.get('refused') and not refusing(now): st['standing'] = False; st['since'] = None; st['refused'] = False
        if st['standing'] and refusing(now): st['refused'] = True
        d = len(q)*Sm/C
        if not q or d < T: st['above'] = None
        elif st['above'] is None: st['above'] = now
        elif now - st['above'] >= I and not st['standing']: stand(now, None)
        # DEPTH: the window keeps depths (waiters per place), so that its growth is judged in
        # service times of the service time now, not of the one each sample had (a slow
        # request raises the learnt service time, and a deep queue's delay with it)
        hv = len(q)/C if DEPTH else d
        hist.append((now, hv))
        while len(hist) >= 2 and now - hist[1][0] >= W: hist.popleft()
        least = min(x[1] for x in hist)
        growth = (hv - least)*S if DEPTH else d - least
        if G2 is not None and q and not st['standing'] and G2*S <= growth < G*S and (L2 is None or least < L2*S):
            # an onset told from a wander by the arrivals: the last RK service times brought
            # RR2 times what the places serve in them
            while arr2 and now - arr2[0] >= RK*S: arr2.popleft()
            i = max(j for j in range(len(hist)) if hist[j][1] == least)
            after = list(hist)[i+1:]
            second = min(x[1] for x in after)
            took = now - max(x[0] for x in after if x[1] == second)
            # G2J: the growth took G2J service times or more (not a burst)
            if len(arr2) >= RR2*C*RK and took >= G2J*S: stand(now, took)
        if q and not st['standing'] and growth >= G*S:
            # as weir's window deque: the growth began when the delay was last at the least of the
            # samples after the window's minimum (the deque's second element)
            i = max(j for j in range(len(hist)) if hist[j][1] == least)
            after = list(hist)[i+1:]
            second = min(x[1] for x in after)
            stand(now, now - max(x[0] for x in after if x[1] == second) if LEAST is None or least < LEAST*S else 0.0)
        if not q: st['soft'] = False
        elif soft is not None:
            if growth >= soft*S: st['soft'] = True
            elif soft_end == 'growth' and growth < soft*S/2: st['soft'] = False
    def ref(now, a):
        if a < SECS: refused.append(now - a)
    def predicted(now):
        # the next place to free (LIFO: the newcomer is served first), after the `len(q)` ones
        # promised to the waiters when FIFO
        ahead = len(q) if fifo else 0
        s = sorted(starts)
        if len(s) < C: return 0.0
        f = s[ahead % C] + Sm*(1 + ahead//C)
        return max(0.0, f - now)
    def admitted_behind(now, n):
        # a newcomer behind n waiters passes the standing queue's room (and the floor's wait)
        if busy < C: return True
        if (n+1)*Sm/C > DEAD: return False
        if (n+1)*Sm/C > room(now): return False
        if rule == 'cap' and CAP is not None and at_floor(now):
            ahead = n if fifo else 0
            s = sorted(starts)
            if len(s) >= C and max(0.0, s[ahead % C] + Sm*(1 + ahead//C) - now) > CAP*S: return False
        return True
    fulls = deque()
    last = deque(maxlen=RN or 1)
    arrs = []
    def refusing(now):
        while fulls and now - fulls[0] >= HOLD*S: fulls.popleft()
        if RATE is not None:
            if len(arrs) - bisect.bisect_left(arrs, now - HOLD*S) < RATE*C*HOLD: return False
        if RN is not None:
            if len(last) < RN or RN < RR*C/Sm*(now - last[0]): return False
        if IDLE and st.get('idle') is not None and (not fulls or st['idle'] > fulls[-1]): return False
        if SPAN is not None and (not fulls or fulls[-1] - fulls[0] < SPAN*S): return False
        return len(fulls) >= NREF
    clock = [0.0]
    MED = sorted(SVC)[len(SVC)//2] if SVC else S
    stalls = []; started = {}
    while ev:
        now, kind, a = heapq.heappop(ev)
        if kind == 1 and stalls:
            hit = [t0 + d for t0, d in stalls if t0 <= now < t0 + d]
            if hit: heapq.heappush(ev, (max(hit), 1, max(hit))); continue
        if kind == 0:
            s, applied = started[(now, a)].pop()
            if not started[(now, a)]: del started[(now, a)]
            ext = [(i, d) for i, (t0, d) in enumerate(stalls) if i >= applied and s <= t0 < now]
            if ext:
                c = now + sum(d for _, d in ext)
                started.setdefault((c, a), []).append((s, len(stalls))); heapq.heappush(ev, (c, 0, a)); continue
            if EWMA:
                # EWMA: weir's learnt service time (each occupancy weighs 0.2), which every
                # threshold and delay follows, as in admission.rs
                S = S + 0.2*((now - s) - S); Sm = S; W = Wn*S; T = 20*S; I = 10*S
        clock[0] = now
        ch = False
        while q and now - q[0] >= DEAD: ref(now, q.pop(0)); ch = True
        if st['standing']:
            dropping = (refusing(now) or (rule == 'cap' and drop_standing))
            fresh = kind == 1 or (q and now - q[-1] <= AGE*S)
            if DISP and dropping and fresh:
                # DISP: displacement. At an arrival, the overstayed go only if the newcomer is
                # then admitted in their stead (DISP 1, 2); at a completion, none (1, 3) or as
                # before (2)
                k = 0
                while k < len(q) and now - q[k] > AGE*S: k += 1
                if kind == 1:
                    go = DISP == 3 or (k > 0 and admitted_behind(now, len(q) - k))
                    if go and PK is not None:
                        # PRESS=(K, R): only while the last K service times brought R times
                        # what the places serve in them (this newcomer counted)
                        K, R = (PKD or PK), (PRD or PR)
                        n = len(arrs) - bisect.bisect_right(arrs, now - K*S) + 1
                        go = n >= R*C*K
                        if go and PDP:
                            # PDP: the pressing test (PK, PR) too
                            go = len(arrs) - bisect.bisect_right(arrs, now - PK*S) + 1 >= PR*C*PK
                else:
                    go = DISP == 2
                if not go: k = 0
                for _ in range(k):
                    ref(now, q.pop(0)); ch = True
                    if hold_drops: st['full'] = now; fulls.append(now)
            elif dropping and fresh:
                while q and now - q[0] > AGE*S:
                    ref(now, q.pop(0)); ch = True
                    if hold_drops: st['full'] = now; fulls.append(now)
        if ch: sample(now)
        if kind == 1:
            arrs.append(now); last.append(now); arr2.append(now)
            if busy < C:
                busy += 1; starts.append(now)
                nst = len(stalls); c = now + service(); started.setdefault((c, a), []).append((now, nst)); heapq.heappush(ev, (c, 0, a)); continue
            if (len(q)+1)*Sm/C > DEAD: ref(now, a); continue
            if st['standing'] and not (PF and PK is not None and len(arrs) - bisect.bisect_right(arrs, now - PK*S) < PR*C*PK):
                if (len(q)+1)*Sm/C > room(now): st['full'] = now; fulls.append(now); ref(now, a); continue
                if rule == 'cap' and CAP is not None and at_floor(now) and predicted(now) > CAP*S:
                    if cap_holds and (HARD is None or predicted(now) > HARD*S): st['full'] = now; fulls.append(now)
                    ref(now, a); continue
            q.append(a); sample(now)
        else:
            if a < SECS: served.append(now - a + 0.001); SERVED_ARR.append(a)
            elif a < SECS + 1 and now - a <= 2.0: rec[0] += 1
            if q:
                slack = PO and PK is not None and len(arrs) - bisect.bisect_right(arrs, now - PK*S) < PR*C*PK
                stands = st['standing'] and not slack
                lifo = (stands or lifo_always or st['soft']) and not (stands and fifo and at_floor(now) and not (GLIFO and not refusing(now)))
                if lifo and guard is not None and not stands and now - q[0] >= guard: lifo = False
                x = q.pop() if lifo else q.pop(0); sample(now)
                starts.append(now)
                nst = len(stalls); c = now + service(); started.setdefault((c, x), []).append((now, nst)); heapq.heappush(ev, (c, 0, x))
            else:
                busy -= 1; st['idle'] = now; sample(now)
    STATS.append((st['jumps'], st['grads']))
    return served, refused, rec[0]

STATS = []
GROWN = []
SERVED_ARR = []  # the arrival time of each served request (seq.py)

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs)-1, max(0, int(len(xs)*p + 0.999999) - 1))] if xs else 0.0

def row(seeds=40, **kw):
    out = []
    for lvl in (1, 2, 10):
        g = []; p = []; imm = []; late = []; recs = []; nref = 0
        del STATS[:]
        for seed in range(seeds):
            arr = arrivals(80*lvl, seed*7 + lvl)
            sv, rf, rc = run(arr, seed=seed, **kw)
            n = sum(1 for x in arr if x < SECS)
            g.append(sum(1 for s in sv if s <= 2.0)/SECS/min(n/SECS, 80))
            p.append(pct(sv, .99)*1000)
            imm += [t for t in rf if t < 0.001]; late += [t for t in rf if t >= 0.001]
            nref += len(rf)
            nr = sum(1 for x in arr if SECS <= x < SECS+1)
            recs.append(rc/max(nr, 1))
        share = len(imm)/nref if nref else 1.0
        out.append("%dx g=%.3f (min %.3f) p99=%.0f (max %.0f) imm=%.3f late/seed=%.1f p99=%.0f rec=%.3f (min %.2f) j/g=%.1f/%.1f" % (
            lvl, sum(g)/seeds, min(g), sum(p)/seeds, max(p), share, len(late)/seeds, pct(late, .99)*1000,
            sum(recs)/seeds, min(recs), sum(x[0] for x in STATS)/seeds, sum(x[1] for x in STATS)/seeds))
    return "\n   ".join(out)

def burst(N, **kw):
    sv, rf, _ = run([0.0]*N, **kw)
    return len(sv), len(rf)

def burst_spread(N, spread_ms, **kw):
    sv, rf, _ = run([i*spread_ms/1000/N for i in range(N)], **kw)
    return len(sv)

def burst_mixed(N, bg, seeds=20, **kw):
    tot = [0, 0]
    for seed in range(seeds):
        rnd = random.Random(seed); t = 0.0; arr = []
        while True:
            t += rnd.expovariate(bg)
            if t >= 3: break
            arr.append(t)
        sv, rf, _ = run(sorted([0.0]*N + arr), seed=seed, **kw)
        tot[0] += len(sv); tot[1] += len(rf)
    return "%.1f/%.1f" % (tot[0]/seeds, tot[1]/seeds)

VARIANTS = {
    'main': dict(rule='main'),
}

SHIPPED = "rule=cap,fifo=True,hold_drops=True,lifo_always=True,guard=0.5,CAP=0.5,NREF=8"
STEPS = ["rule=main", "rule=main,lifo_always=True,guard=0.5",
         "rule=cap,fifo=True,hold_drops=True,CAP=0.5",
         "rule=cap,fifo=True,hold_drops=True,lifo_always=True,guard=0.5,CAP=0.5",
         "rule=cap,fifo=True,hold_drops=True,CAP=0.5,NREF=8",
         SHIPPED, SHIPPED + ",CAP=1", SHIPPED + ",drop_standing=True",
         "rule=main,J=0.002", SHIPPED + ",J=0.002"]

if __name__ == '__main__':
    import ast
    COLLAPSE = [SHIPPED, SHIPPED + ",collapse=True", SHIPPED + ",collapse=True,RATE=1.25",
                SHIPPED + ",collapse=True,RATE=1.25,LAPSE=True", SHIPPED + ",collapse=True,NREF=4,HOLD=4",
                SHIPPED + ",collapse=True,NREF=6,HOLD=4", SHIPPED + ",collapse=True,NREF=16,HOLD=16",
                SHIPPED + ",collapse=True,HARD=1.0"]
    S5 = SHIPPED + ",collapse=True"
    RECOVERY = [S5, S5 + ",RN=16", S5 + ",RN=16,LAPSE=True", S5 + ",RN=8", S5 + ",RN=12",
                S5 + ",RN=12,RR=0.9", S5 + ",RN=16,RR=1.1", S5 + ",RN=16,RR=1.25",
                S5 + ",RN=20,RR=1.2", S5 + ",RN=24,RR=1.25", S5 + ",IDLE=True",
                S5 + ",J=0.002", S5 + ",J=0.002,RN=16"]
    M = S5 + ",RESUME=True"   # main a78a6fa: the lull rule (1f653fd) too
    ONSET = [M, M + ",JUMP=2,F0G='delay'", M + ",JUMP=1,F0G='delay'", M + ",JUMP=0.5,F0G='delay'",
             M + ",JUMP=2", M + ",JUMP=2,F0G=6", M + ",JUMP=2,GLIFO=True",
             M + ",JUMP=2,G=3,Wn=4", M + ",JUMP=2,F0G='delay',G=5", M + ",JUMP=2,F0G='delay',G=4",
             M + ",JUMP=2,F0G='delay',G=5,Wn=6",
             M + ",J=0.002", M + ",JUMP=2,F0G='delay',J=0.002"]
    specs = (ONSET if sys.argv[1:] == ['onset'] else RECOVERY if sys.argv[1:] == ['recovery'] else
             STEPS if sys.argv[1:] == ['shipped'] else COLLAPSE if sys.argv[1:] == ['collapse']
             else sys.argv[1:] or ['rule=main'])
    for spec in specs:
        kw = {}
        for part in spec.split(','):
            key, value = part.split('=')
            kw[key] = value if key == 'rule' else ast.literal_eval(value)
        print(spec.replace(SHIPPED+",collapse=True", "S"), "\n  ", row(**kw), flush=True)
        print("   bursts 30/60/120 into idle:", [burst(n, **kw) for n in (30, 60, 120)],
              "| 60 + Poisson 40/s 3 s:", burst_mixed(60, 40, **kw),
              "| 60 spread over 25/50/100/200 ms, served:", [burst_spread(60, ms, **kw) for ms in (25, 50, 100, 200)], flush=True)
