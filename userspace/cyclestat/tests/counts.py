#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Figures from value -> count tables against numpy (issue 21).

    counts.py CYCLESTAT DATADIR

cyclestat reads a bare file (or a run of one ensemble) straight into a
value -> count table, and falls back to the sorted samples when there are
too many distinct values to count. One TAP line per data set: every raw
figure of 'cyclestat --format json' against numpy's of the same samples:
1 distinct value, 2, 20000 (counted, 50 samples each), 10^6 (the sorted
fallback), and every fragment of the real trees in DATADIR (tree, tree2),
both as a tree and as a bare cycles file. Needs numpy (a skip without it).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

tool, datadir = sys.argv[1], sys.argv[2]
try:
    import numpy as np
except ImportError:
    tap.skip("counts:vs_numpy", "no numpy in this python")
    sys.exit(tap.done())

PCTS = (1, 5, 25, 75, 95, 99)


def hsm(a):
    """Bickel's half-sample mode of sorted a, first shortest window on ties"""
    lo, m = 0, len(a)
    while m > 3:
        h = (m + 1) // 2
        w = a[lo + h - 1:lo + m] - a[lo:lo + m - h + 1]
        lo, m = lo + int(np.argmin(w)), h
    v = a[lo:lo + m].astype(np.float64)
    if m == 1:
        return v[0]
    if m == 2 or v[1] - v[0] < v[2] - v[1]:
        return (v[0] + v[1]) / 2
    if v[1] - v[0] > v[2] - v[1]:
        return (v[1] + v[2]) / 2
    return v[1]


def step_of(a):
    """oracle.step_of() in numpy, for a million distinct values"""
    v, k = np.unique(a, return_counts=True)
    mode = v[np.argmax(k)]
    off = len(a) - k.max()
    if off < 20:
        return 1
    d = np.abs(v - mode)
    for s in range(1000, 1, -1):
        if k[d % s != 0].sum() <= off // 10:
            return s
    return 1


def numpy_figs(xs):
    a = np.sort(np.asarray(xs, dtype=np.int64))
    f = a.astype(np.float64)
    med = np.median(f)
    q1, q3 = np.percentile(f, [25, 75])
    r = {"n": len(a), "min": int(a[0]), "max": int(a[-1]), "mean": np.mean(f),
         "median": med, "sd": float(np.std(f, ddof=1)) if len(a) > 1 else None,
         "mad": np.median(np.abs(f - med)), "hsm": hsm(a),
         "far_outliers": int(np.sum(f > q3 + 3 * max(q3 - q1, step_of(a))))}
    for p, v in zip(PCTS, np.percentile(f, PCTS)):
        r["p%d" % p] = v
    return r


def differ(want, got):
    bad = []
    for k, v in want.items():
        g = got.get(k)
        if v is None or g is None:
            if v is not None or g is not None:
                bad.append("%s: numpy %s, cyclestat %s" % (k, v, g))
        elif k in ("n", "min", "max", "far_outliers"):
            if int(g) != v:
                bad.append("%s: numpy %s, cyclestat %s" % (k, v, g))
        elif abs(float(g) - float(v)) > 1e-12 * max(1.0, abs(float(v))):
            bad.append("%s: numpy %r, cyclestat %s" % (k, float(v), g))
    return bad


def run(path):
    p = subprocess.run([tool, "--format", "json", path], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("exit %d: %s" % (p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)["inputs"][0]["fragments"]


def read(path):
    with open(path) as f:
        return [int(line) for line in f if line.strip()]


rnd = random.Random(21)
sets = {
    "1_distinct_value": [4242] * 100001,
    "2_distinct_values": [100] * 30001 + [126] * 69999,
    "2_distinct_values_even_split": [10] * 50000 + [13] * 50000,
    "20000_distinct_values_counted": [1000 + 26 * (i % 20000) for i in range(10**6)],
    "10e6_distinct_values_sorted_fallback":
        [1000 + 26 * i + i % 7 for i in range(10**6) for _ in range(1 + i % 3)],
}
results = []
top = tempfile.mkdtemp()
try:
    for name, xs in sets.items():
        rnd.shuffle(xs)
        path = os.path.join(top, name)
        with open(path, "w") as f:
            f.write("\n".join(map(str, xs)) + "\n")
        try:
            bad = differ(numpy_figs(xs), run(path)[0]["raw"])
        except Exception as e:  # noqa: BLE001
            bad = [str(e)]
        results.append((not bad, "counts:%s_%d_samples" % (name, len(xs)), bad))
    for tree in ("tree", "tree2"):
        root = os.path.join(datadir, tree)
        try:
            byname = {fr["name"]: fr for fr in run(root)}
        except Exception as e:  # noqa: BLE001
            results.append((False, "counts:%s" % tree, [str(e)]))
            continue
        bad, checked = [], 0
        for d, _dirs, files in sorted(os.walk(root)):
            if "cycles" not in files or os.path.getsize(os.path.join(d, "cycles")) == 0:
                continue
            cyc = os.path.join(d, "cycles")
            want = numpy_figs(read(cyc))
            name = os.path.relpath(d, root).replace(os.sep, ":", 1)
            fr = byname.get(name)
            if fr:
                bad += ["%s (tree): %s" % (name, b) for b in differ(want, fr["raw"])]
            bad += ["%s (file): %s" % (name, b) for b in differ(want, run(cyc)[0]["raw"])]
            checked += 1
        results.append((not bad and checked > 0,
                        "counts:real_%s_fragments_vs_numpy (%d)" % (tree, checked),
                        bad or ["no fragment checked"]))
finally:
    shutil.rmtree(top)

for ok, name, why in results:
    tap.point(ok, name, why[:5])
sys.exit(tap.done())
