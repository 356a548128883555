"""60 requests evenly over 400 ms into 4 idle workers, in bursts2's model (sim.py, the current
rule): served, against the app's service time S (the model learns it as it serves).
python3 sweep.py  (run in lab/runs/2026-12-05-vm-overload-bursts2)"""
import sim, replay
SPEC = 'onset,JUMP=3,EWMA=True,DEPTH=True,DISP=1'
for S in (0.0500, 0.0505, 0.0510, 0.0515, 0.0520, 0.0525, 0.0530, 0.0540, 0.0550):
    kw = replay.parse(SPEC); kw['J'] = 0.0; kw['S'] = S
    arr = [1.0 + i * 0.4 / 60 for i in range(60)]
    sim.SECS = 5; sim.TAIL = 0
    sim.SERVED_ARR.clear()
    sim.run(arr, seed=1, **kw)
    print("S=%.1f ms served %d of 60" % (S * 1e3, len(sim.SERVED_ARR)), flush=True)
