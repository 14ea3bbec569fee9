#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The reference implementation cyclestat's figures are checked against.

    oracle.py gen DIR       write the test data sets into DIR (deterministic)
    oracle.py expect DIR    print the expected figures of DIR's data sets as JSON

'expect' evaluates numpy's definitions (np.mean, np.median, np.std(ddof=1),
np.percentile's default "linear" method, np.var) in exact arithmetic
(fractions; sd as a 60-digit decimal), so the reference is the correctly
rounded double of every figure; numpy's own float figures (numpy_figs) are
checked against it within rounding by figures.py and random_trees.py where
numpy is installed. The half-sample mode has no numpy function: it is
written out below from Bickel's definition, as cyclestat(1) documents it.
Figures are formatted as cyclestat prints them in JSON: the shortest text
of the nearest double.
"""
import json
import math
import os
import random
import sys
from decimal import Decimal, localcontext
from fractions import Fraction

PCTS = (1, 5, 25, 75, 95, 99)

# name -> samples (run order); ensembles/ops for the tree cases come from info
def datasets():
    rnd = random.Random(20261129)
    top = 2**64 - 1
    d = {
        "n1": [42],
        "n2": [10, 13],
        "odd": [5, 1, 9, 3, 7],
        "even": [4, 8, 15, 16, 23, 42],
        "equal": [7] * 10,
        "near2_64": [top, top - 1, top - 4, top, top - 9, top - 2],
        "near2_64_odd": [top, 0, top - 1],
        "ties": [rnd.choice((30, 31, 31, 32, 32, 32, 33, 40)) for _ in range(1000)],
        "lognormal": [int(rnd.lognormvariate(5, 0.6)) + 20 for _ in range(2001)],
        "outliers": [100 + rnd.randrange(5) for _ in range(500)] + [1000, 5000, 104],
        "wide": [rnd.randrange(2**40) for _ in range(777)],
        "bimodal": [rnd.choice((50, 51, 52, 90, 91)) + rnd.randrange(2) for _ in range(1200)],
    }
    # every small n, values with many ties: the even/odd and window edge cases
    for n in range(3, 40, 3):
        d["small%02d" % n] = [rnd.randrange(12) for _ in range(n)]
    return d

TREE = {
    # name: (ops, ensembles, samples, generator, smi_before, smi_after)
    "base:empty": (1, 4, 50, lambda r: 30 + r.choice((0, 0, 0, 2, 4)), 5, 5),
    "alu:add_dep": (4, 4, 50, lambda r: 34 + r.choice((0, 0, 1, 2, 9)), 5, 7),
    "loop:dec_jnz_100": (100, 5, 40, lambda r: 230 + r.randrange(7), None, None),
}


def gen(outdir):
    os.makedirs(outdir, exist_ok=True)
    for name, xs in datasets().items():
        with open(os.path.join(outdir, name + ".cycles"), "w") as f:
            f.write("".join("%d\n" % x for x in xs))
    rnd = random.Random(7)
    tree = os.path.join(outdir, "tree")
    os.makedirs(tree, exist_ok=True)
    with open(os.path.join(tree, "info"), "w") as f:
        f.write("version: 0.1.0\nmodel_name: Test CPU\ntsc_khz: 2000000\n"
                "hypervisor: no\nmethod_used: paoloni\n")
    with open(os.path.join(tree, "fragments"), "w") as f:
        for name, (ops, *_rest) in TREE.items():
            f.write("%s %d test fragment %s\n" % (name, ops, name))
    for name, (ops, ens, size, g, sb, sa) in TREE.items():
        d = os.path.join(tree, *name.split(":"))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "cycles"), "w") as f:
            f.write("".join("%d\n" % g(rnd) for _ in range(ens * size)))
        with open(os.path.join(d, "info"), "w") as f:
            f.write("name: %s\ndescription: test\nops: %d\nstate: ok\nensembles: %d\n"
                    "samples: %d\nwarmup: 10\nmethod: paoloni\ncpu: 0\ntsc_khz: 2000000\n"
                    % (name, ops, ens, size))
            if sb is not None:
                f.write("smi_before: %d\nsmi_after: %d\n" % (sb, sa))


def fmt(v):
    """a figure as cyclestat prints it for machines: the shortest text of its
    nearest double (Python's repr is that text), so a parser reads back every
    bit a double holds. An exact Fraction from 2^53 on whose decimals end
    within 19 places prints whole, as cyclestat does: same double, every
    digit. Compare these by value (same_figure), not as strings: C's and
    Python's shortest texts can differ in notation (1e+07, 10000000.0)."""
    if v is None:
        return None
    if isinstance(v, Fraction) and abs(v) >= 2**53:
        d, twos, fives = v.denominator, 0, 0
        while d % 2 == 0:
            d, twos = d // 2, twos + 1
        while d % 5 == 0:
            d, fives = d // 5, fives + 1
        places = max(twos, fives)
        if d == 1 and places <= 19:
            q = abs(v) * 10**places
            i = q.numerator // q.denominator
            s = str(i // 10**places)
            if places:
                s += ".%0*d" % (places, i % 10**places)
            return ("-" if v < 0 else "") + s
    return repr(float(v))


def same_figure(want, got, irr=False, scale=0.0):
    """got (cyclestat's text) denotes the value want (fmt's text) denotes;
    irrational figures (sd, variances: long double in cyclestat, exact
    here) may differ from the correctly rounded double by 2 ulps, and by
    1e-15 of scale where they are differences of figures of that size (the
    variance of variances near 0: scale is the squared total variance)"""
    if want is None or got is None:
        return want == got
    try:
        if not irr:
            return Fraction(want) == Fraction(got)
        w, g = float(want), float(got)
    except (TypeError, ValueError):
        return False
    return abs(w - g) <= 2 * math.ulp(w) + 1e-15 * scale


def hsm(xs):
    """Bickel's half-sample mode of sorted xs; first shortest window on ties"""
    lo, m = 0, len(xs)
    while m > 3:
        h = (m + 1) // 2
        best, w = lo, xs[lo + h - 1] - xs[lo]
        for i in range(lo + 1, lo + m - h + 1):
            if xs[i + h - 1] - xs[i] < w:
                best, w = i, xs[i + h - 1] - xs[i]
        lo, m = best, h
    v = xs[lo:lo + m]
    if m == 1:
        return Fraction(v[0])
    if m == 2:
        return Fraction(v[0] + v[1], 2)
    if v[1] - v[0] < v[2] - v[1]:
        return Fraction(v[0] + v[1], 2)
    if v[1] - v[0] > v[2] - v[1]:
        return Fraction(v[1] + v[2], 2)
    return Fraction(v[1])


def step_of(xs):
    """the clock's step as the samples show it (cyclestat's cs_step_of()):
    the largest s up to 1000 that 90 % of the samples off the most common
    value (the smallest such on ties) are a multiple of s away from, where
    20 or more are off it; else 1"""
    count = {}
    for x in xs:
        count[x] = count.get(x, 0) + 1
    mode = min(count, key=lambda v: (-count[v], v))
    off = len(xs) - count[mode]
    if off < 20:
        return 1
    for s in range(1000, 1, -1):
        miss = 0
        for v, k in count.items():
            miss += k if abs(v - mode) % s else 0
            if miss > off // 10:
                break
        else:
            return s
    return 1


def far(xs, q1, q3, step=None):
    """samples above Q3 + 3 IQR, the IQR at least the clock's step"""
    iqr = max(q3 - q1, step_of(xs) if step is None else step)
    return sum(1 for x in xs if x > q3 + 3 * iqr)


def exact_figs(xs):
    s = sorted(xs)
    n = len(s)
    mean = Fraction(sum(s), n)
    med = Fraction(s[n // 2]) if n % 2 else Fraction(s[n // 2 - 1] + s[n // 2], 2)

    def pct(p):
        h = Fraction((n - 1) * p, 100)
        i = h.numerator // h.denominator
        fr = h - i
        return s[i] + (fr * (s[i + 1] - s[i]) if fr else 0)

    dev = sorted(abs(x - med) for x in s)
    mad = dev[n // 2] if n % 2 else (dev[n // 2 - 1] + dev[n // 2]) / 2
    m2 = sum((x - mean) ** 2 for x in s)
    sd = None
    if n > 1:
        with localcontext() as ctx:
            ctx.prec = 60
            v = m2 / (n - 1)
            sd = (Decimal(v.numerator) / Decimal(v.denominator)).sqrt()
    q1, q3 = pct(25), pct(75)
    f = {"n": n, "min": s[0], "max": s[-1], "mean": mean, "median": med, "sd": sd,
         "mad": Fraction(mad), "hsm": hsm(s),
         "far_outliers": far(s, q1, q3)}
    for p in PCTS:
        f["p%d" % p] = Fraction(pct(p))
    return f


def numpy_figs(xs):
    import numpy as np
    a = np.array(xs, dtype=np.float64)
    med = np.median(a)
    q = np.percentile(a, PCTS)
    q1, q3 = np.percentile(a, [25, 75])
    f = {"n": len(xs), "min": int(a.min()), "max": int(a.max()), "mean": np.mean(a),
         "median": med, "sd": float(np.std(a, ddof=1)) if len(xs) > 1 else None,
         "mad": np.median(np.abs(a - med)), "hsm": float(hsm(sorted(xs))),
         "far_outliers": int(np.sum(a > q3 + 3 * max(q3 - q1, step_of(xs))))}
    for p, v in zip(PCTS, q):
        f["p%d" % p] = v
    return f


def shifted(f, shift, div):
    """net (less shift) and per-op (over div) figures, as cyclestat derives them"""
    out = {}
    for k, v in f.items():
        if k in ("n", "far_outliers"):
            out[k] = v
        elif v is None:
            out[k] = None
        elif k in ("sd", "mad"):
            out[k] = v / div
        elif isinstance(v, Fraction):
            out[k] = (v - Fraction(shift)) / div
        else:
            out[k] = (v - float(shift)) / div
    return out


def show(f, ints):
    return {k: (str(v) if k in ints else fmt(v)) for k, v in f.items()}


IRRATIONAL = ("sd", "total_variance", "variance_of_variances", "variance_of_mins",
              "variance")


def numpy_agrees(xs, tol=1e-12):
    """numpy's float figures of xs against the exact ones: the differences
    beyond a relative tol (numpy rounds as it goes; nothing else may differ)"""
    exact, f = exact_figs(xs), numpy_figs(xs)
    bad = []
    for k, v in f.items():
        x = exact[k]
        if v is None or x is None:
            if v is not x:
                bad.append("%s: numpy %s, exact %s" % (k, v, x))
        elif abs(float(v) - float(x)) > tol * max(1.0, abs(float(x))):
            bad.append("%s: numpy %r, exact %s" % (k, float(v), fmt(x)))
    return bad


def pvar(v):
    m = Fraction(sum(v), len(v))
    return sum((a - m) ** 2 for a in v) / len(v)


def ensembles(xs, ens, size):
    """Paoloni's ensemble metrics, exact"""
    parts = [xs[j * size:(j + 1) * size] for j in range(ens)]
    var = [pvar(p) for p in parts]
    return {"count": str(ens), "samples": str(size),
            "total_variance": fmt(sum(var) / ens),
            "variance_of_variances": fmt(pvar(var)),
            "variance_of_mins": fmt(pvar([min(p) for p in parts])),
            "abs_max_dev": str(max(max(p) - min(p) for p in parts)),
            "variance": [fmt(v) for v in var]}


def expect(datadir):
    """the reference: exact arithmetic (numpy's float figures are checked
    against it, within rounding, by figures.py where numpy is installed)"""
    out = {}
    for name in datasets():
        with open(os.path.join(datadir, name + ".cycles")) as f:
            xs = [int(l) for l in f]
        out[name] = {"raw": show(exact_figs(xs), ("n", "min", "max", "far_outliers"))}
    tree = os.path.join(datadir, "tree")
    data = {}
    for name, (ops, ens, size, *_r) in TREE.items():
        with open(os.path.join(tree, *name.split(":"), "cycles")) as f:
            data[name] = [int(l) for l in f]
    shift = exact_figs(data["base:empty"])["median"]
    for name, (ops, ens, size, *_r) in TREE.items():
        f = exact_figs(data[name])
        out["tree:" + name] = {
            "raw": show(f, ("n", "min", "max", "far_outliers")),
            "net": show(shifted(f, shift, 1), ("n", "far_outliers")),
            "per_op": show(shifted(f, shift, ops), ("n", "far_outliers")),
            "ensembles": ensembles(data[name], ens, size),
        }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("gen", "expect"):
        sys.exit("usage: oracle.py gen|expect DIR")
    (gen if sys.argv[1] == "gen" else expect)(sys.argv[2])
