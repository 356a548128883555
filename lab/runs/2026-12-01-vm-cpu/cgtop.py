#!/usr/bin/env python3
"""Top functions of a callgrind profile by exclusive and inclusive Ir (instructions), per request.
callgrind_annotate 3.19 lumps this binary's whole profile into one function, so this reads the
format itself. Usage: cgtop.py FILE REQUESTS [TOP] [FILTER]"""
import re
import sys
from collections import defaultdict

path, requests = sys.argv[1], int(sys.argv[2])
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
only = sys.argv[4] if len(sys.argv) > 4 else None
names = {}
exclusive = defaultdict(int)
inclusive_calls = defaultdict(int)
current = None
callee = None
after_calls = False
total = 0


def name_of(spec):
    match = re.match(r"\((\d+)\)(?: (.*))?", spec)
    if not match:
        return spec
    ident, name = match.groups()
    if name is not None:
        names[ident] = name
    return names.get(ident, ident)


for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("fn="):
        current = name_of(line[3:])
        continue
    if line.startswith("cfn="):
        callee = name_of(line[4:])
        continue
    if line.startswith("calls="):
        after_calls = True
        continue
    if line.startswith("summary:"):
        total = int(line.split()[1])
        continue
    if not line or not (line[0].isdigit() or line[0] in "+-*"):
        continue
    parts = line.split()
    if len(parts) < 2:
        continue
    cost = int(parts[1])
    if after_calls:
        if callee != current:
            inclusive_calls[current] += cost
        after_calls = False
    else:
        exclusive[current] += cost

print(f"total {total:,} Ir, {total / requests:,.0f} per request")
print("-- exclusive, Ir per request")
for name, cost in sorted(exclusive.items(), key=lambda kv: -kv[1])[:top]:
    if only and only not in name:
        continue
    print(f"{cost / requests:9,.0f}  {name[:160]}")
print("-- inclusive, Ir per request")
inclusive = {name: exclusive[name] + inclusive_calls[name] for name in set(exclusive) | set(inclusive_calls)}
for name, cost in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]:
    if only and only not in name:
        continue
    print(f"{cost / requests:9,.0f}  {name[:160]}")
