"""burst.py's outputs (runs/NAME.out) side by side: served of each burst, per run.
python3 bursttab.py bm1 bd1 ..."""
import re, sys
runs = sys.argv[1:]
table = {}
for run in runs:
    for line in open(f'runs/{run}.out'):
        m = re.match(r'(\d+ over \d+ ms): served (\d+)', line)
        if m:
            table.setdefault(m.group(1), {}).setdefault(run, []).append(m.group(2))
print('| burst | ' + ' | '.join(runs) + ' |')
print('|---|' + '---|' * len(runs))
for kind, by_run in table.items():
    print(f'| {kind} | ' + ' | '.join(' '.join(by_run.get(run, [])) for run in runs) + ' |')
