#!/usr/bin/env python3
"""Instructions per request by function from callgrind-ir's profiles, and old against new.
Per request is (MANY profile - FEW profile) / (MANY - FEW) for each function, so start-up and the
handshakes cancel as in the script's totals. Rust hashes (::h0123...) are dropped from names so
two builds' functions match.
Usage: cgdiff.py OUT_DIR_A [OUT_DIR_B] [--gw weir] [--path tls] [--top 40] [--filter STR]
  one dir: the top functions of A; two: the functions whose cost changed most from A to B."""
import argparse
import re
from collections import defaultdict

FEW, MANY = 2000, 12000
HASH = re.compile(r"::h[0-9a-f]{16}")


def parse(path):
    names, exclusive, inclusive_calls = {}, defaultdict(int), defaultdict(int)
    current = callee = None
    after_calls = False

    def name_of(spec):
        m = re.match(r"\((\d+)\)(?: (.*))?", spec)
        if not m:
            return HASH.sub("", spec)
        ident, name = m.groups()
        if name is not None:
            names[ident] = HASH.sub("", name)
        return names.get(ident, ident)

    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("fn="):
            current = name_of(line[3:])
        elif line.startswith("cfn="):
            callee = name_of(line[4:])
        elif line.startswith("calls="):
            after_calls = True
        elif line and (line[0].isdigit() or line[0] in "+-*"):
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
    inclusive = {n: exclusive[n] + inclusive_calls[n] for n in set(exclusive) | set(inclusive_calls)}
    return dict(exclusive), inclusive


def per_request(d, gw, what):
    ea, ia = parse(f"{d}/cg-{gw}-{what}-{FEW}")
    eb, ib = parse(f"{d}/cg-{gw}-{what}-{MANY}")
    f = lambda a, b: {n: (b.get(n, 0) - a.get(n, 0)) / (MANY - FEW) for n in set(a) | set(b)}
    return f(ea, eb), f(ia, ib)


ap = argparse.ArgumentParser()
ap.add_argument("dirs", nargs="+")
ap.add_argument("--gw", default="weir")
ap.add_argument("--path", default="tls")
ap.add_argument("--top", type=int, default=40)
ap.add_argument("--filter", default=None)
a = ap.parse_args()
sets = [per_request(d, a.gw, a.path) for d in a.dirs]
for kind, i in (("exclusive", 0), ("inclusive", 1)):
    print(f"-- {kind}, Ir per request" + (" (A, B, B-A)" if len(sets) > 1 else ""))
    if len(sets) == 1:
        rows = sorted(sets[0][i].items(), key=lambda kv: -kv[1])
        rows = [r for r in rows if not a.filter or a.filter in r[0]][: a.top]
        for n, c in rows:
            print(f"{c:9,.0f}  {n[:170]}")
    else:
        A, B = sets[0][i], sets[1][i]
        names = set(A) | set(B)
        rows = sorted(names, key=lambda n: -abs(B.get(n, 0) - A.get(n, 0)))
        rows = [n for n in rows if not a.filter or a.filter in n][: a.top]
        for n in rows:
            x, y = A.get(n, 0), B.get(n, 0)
            print(f"{x:9,.0f} {y:9,.0f} {y - x:+9,.0f}  {n[:150]}")
