#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Differential test: random trees, every printed figure against numpy.

    random_trees.py CYCLESTAT [TREES] [SEED]

Builds TREES (default 150) random trees of three fragments (base:empty and
two others, 1-5 ensembles of 1-40 samples, values below 2^32 with spans from
1 to 10^6, ops from 1 to 100), runs 'cyclestat --format json' on each, and
compares raw, net, per-op and ensemble figures with oracle.py's numpy
reference. A difference is allowed in one case only: the exact value lies
exactly halfway between two printable values (0.0125 at three decimals),
where numpy's own float rounding decides which way it prints; such cases are
counted, checked against exact arithmetic, and reported. Needs numpy; prints
one TAP line (a skip without numpy).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

tool = sys.argv[1]
trees = int(sys.argv[2]) if len(sys.argv) > 2 else 150
rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
try:
    import numpy  # noqa: F401
except ImportError:
    print("ok 1 - figures:random_trees_vs_numpy # SKIP no numpy in this python")
    sys.exit(0)


def is_tie(v):
    q = Fraction(v) * 1000
    return q - q.numerator // q.denominator == Fraction(1, 2)


def pvar(v):
    m = Fraction(sum(v), len(v))
    return sum((a - m) ** 2 for a in v) / len(v)


top = tempfile.mkdtemp()
checked = ties = 0
bad = []
try:
    for it in range(trees):
        d = os.path.join(top, "t%d" % it)
        frs = {}
        for name in ("base:empty", "a:x", "b:y"):
            ens, size = rnd.randint(1, 5), rnd.randint(1, 40)
            lo = rnd.choice((0, 20, 1000, 2**31))
            span = rnd.choice((1, 3, 10, 100, 10**6))
            xs = [lo + rnd.randrange(span) for _ in range(ens * size)]
            ops = rnd.choice((1, 2, 3, 4, 7, 8, 100))
            frs[name] = (xs, ens, size, ops)
            p = os.path.join(d, *name.split(":"))
            os.makedirs(p)
            with open(os.path.join(p, "cycles"), "w") as f:
                f.write("".join("%d\n" % x for x in xs))
            with open(os.path.join(p, "info"), "w") as f:
                f.write("name: %s\nops: %d\nstate: ok\nensembles: %d\nsamples: %d\n"
                        % (name, ops, ens, size))
        r = subprocess.run([tool, "--format", "json", d], capture_output=True, text=True)
        if r.returncode:
            bad.append("tree %d: exit %d: %s" % (it, r.returncode, r.stderr.strip()))
            continue
        got = {f["name"]: f for f in json.loads(r.stdout, parse_float=str,
                                                 parse_int=str)["inputs"][0]["fragments"]}
        shift = oracle.figs(frs["base:empty"][0])["median"]
        xshift = oracle.exact_figs(frs["base:empty"][0])["median"]
        for name, (xs, ens, size, ops) in frs.items():
            f, x = oracle.figs(xs), oracle.exact_figs(xs)
            parts = (("raw", f, x, ("n", "min", "max", "far_outliers")),
                     ("net", oracle.shifted(f, shift, 1), oracle.shifted(x, xshift, 1),
                      ("n", "far_outliers")),
                     ("per_op", oracle.shifted(f, shift, ops), oracle.shifted(x, xshift, ops),
                      ("n", "far_outliers")))
            for part, ff, xx, ints in parts:
                for k, v in oracle.show(ff, ints).items():
                    checked += 1
                    g = got[name][part].get(k)
                    if v == g:
                        continue
                    if isinstance(xx[k], Fraction) and is_tie(xx[k]):
                        ties += 1
                        continue
                    bad.append("tree %d %s %s.%s: numpy %s, cyclestat %s"
                               % (it, name, part, k, v, g))
            ev = [pvar(xs[j * size:(j + 1) * size]) for j in range(ens)]
            exact = {"variance": ev, "total_variance": sum(ev) / ens,
                     "variance_of_variances": pvar(ev),
                     "variance_of_mins": pvar([min(xs[j * size:(j + 1) * size])
                                               for j in range(ens)])}
            for k, v in oracle.ensembles(xs, ens, size).items():
                checked += 1
                g = got[name]["ensembles"].get(k)
                if v == g:
                    continue
                e = exact.get(k)
                if isinstance(e, list) and all(a == b or is_tie(c) for a, b, c in zip(v, g, e)):
                    ties += 1
                    continue
                if isinstance(e, Fraction) and is_tie(e):
                    ties += 1
                    continue
                bad.append("tree %d %s ensembles.%s: numpy %s, cyclestat %s" % (it, name, k, v, g))
finally:
    shutil.rmtree(top)

name = "figures:random_trees_vs_numpy (%d trees, %d figures, %d exact ties)" % (trees, checked, ties)
print("%s 1 - %s" % ("not ok" if bad else "ok", name))
for b in bad[:20]:
    print("#   " + b)
