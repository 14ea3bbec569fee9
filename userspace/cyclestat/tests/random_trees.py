#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Differential test: random trees, every printed figure against numpy.

    random_trees.py CYCLESTAT [TREES] [SEED]

Builds TREES (default 150) random trees of three fragments (base:empty and
two others, 1-5 ensembles of 1-40 samples, values below 2^32 with spans from
1 to 10^6, ops from 1 to 100), runs 'cyclestat --format json' on each, and
compares raw, net, per-op and ensemble figures with oracle.py's exact
reference: every exact figure must read back as its correctly rounded double
(sd and variances within 2 ulps), and numpy's figures of the same samples
must agree with that reference within rounding. Needs numpy; prints one TAP
line (a skip without numpy).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

tool = sys.argv[1]
trees = int(sys.argv[2]) if len(sys.argv) > 2 else 150
rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
try:
    import numpy  # noqa: F401
except ImportError:
    tap.skip("figures:random_trees_vs_numpy", "no numpy in this python")
    sys.exit(tap.done())


top = tempfile.mkdtemp()
checked = 0
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
        shift = oracle.exact_figs(frs["base:empty"][0])["median"]
        for name, (xs, ens, size, ops) in frs.items():
            x = oracle.exact_figs(xs)
            bad += ["tree %d %s numpy %s" % (it, name, b) for b in oracle.numpy_agrees(xs)]
            parts = (("raw", x, ("n", "min", "max", "far_outliers")),
                     ("net", oracle.shifted(x, shift, 1), ("n", "far_outliers")),
                     ("per_op", oracle.shifted(x, shift, ops), ("n", "far_outliers")))
            for part, xx, ints in parts:
                for k, v in oracle.show(xx, ints).items():
                    checked += 1
                    g = got[name]["net_per_op" if part == "per_op" else part].get(k)
                    if not oracle.same_figure(v, g, k in oracle.IRRATIONAL):
                        bad.append("tree %d %s %s.%s: exact %s, cyclestat %s"
                                   % (it, name, part, k, v, g))
            want = oracle.ensembles(xs, ens, size)
            for k, v in want.items():
                checked += 1
                g = got[name]["ensembles"].get(k)
                irr = k in oracle.IRRATIONAL
                sc = float(want["total_variance"]) ** 2 if k == "variance_of_variances" else 0
                if isinstance(v, list):
                    same = isinstance(g, list) and len(g) == len(v) and \
                        all(oracle.same_figure(a, b, irr) for a, b in zip(v, g))
                else:
                    same = oracle.same_figure(v, g, irr, sc)
                if not same:
                    bad.append("tree %d %s ensembles.%s: exact %s, cyclestat %s"
                               % (it, name, k, v, g))
finally:
    shutil.rmtree(top)

name = "figures:random_trees_vs_exact_and_numpy (%d trees, %d figures)" % (trees, checked)
tap.point(not bad, name, bad[:20])
sys.exit(tap.done())
