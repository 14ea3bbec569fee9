#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every figure cyclestat prints in JSON, against the reference (oracle.py).

    figures.py CYCLESTAT DATADIR

One TAP line per data set: "ok" when every figure cyclestat prints is the
reference's double (exact figures: the correctly rounded double, read back
from the text; sd and variances: within 2 ulps), else "not ok" with each
figure that differs. The reference is exact arithmetic (oracle.py expect),
recomputed here and checked against the committed tests/data/expected.json;
where this python has numpy, numpy's figures are checked against it too.
"""
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import oracle  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

tool, datadir = sys.argv[1], sys.argv[2]
golden_path = os.path.join(datadir, "expected.json")
with open(golden_path) as f:
    golden = json.load(f)
results = []

buf = io.StringIO()
with redirect_stdout(buf):
    oracle.expect(datadir)
ref = json.loads(buf.getvalue())
results.append((ref == golden, "figures:expected_json_is_the_oracle_output",
                "tests/data/expected.json differs from oracle.py expect: regenerate it"))
try:
    import numpy  # noqa: F401
    bad = []
    for name, xs in oracle.datasets().items():
        if max(xs) < 2**53:
            bad += ["%s %s" % (name, b) for b in oracle.numpy_agrees(xs)]
    results.append((not bad, "figures:numpy_agrees_with_the_exact_reference", "; ".join(bad[:5])))
except ImportError:
    results.append((True, "figures:numpy_agrees_with_the_exact_reference # SKIP no numpy", ""))


def run(path):
    p = subprocess.run([tool, "--format", "json", path], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("exit %d: %s" % (p.returncode, p.stderr.strip()))
    return json.loads(p.stdout, parse_float=str, parse_int=str,
                      parse_constant=str)


def diff(where, want, got, bad):
    for k, v in want.items():
        g = got.get(k)
        irr = k in oracle.IRRATIONAL
        if isinstance(v, list):
            if not isinstance(g, list) or len(v) != len(g) or \
               not all(oracle.same_figure(a, b, irr) for a, b in zip(v, g)):
                bad.append("%s.%s: expected %s, got %s" % (where, k, v[:6], (g or [])[:6]))
        elif not oracle.same_figure(v, g, irr):
            bad.append("%s.%s: expected %s, got %s" % (where, k, v, g))


for name in oracle.datasets():
    bad = []
    try:
        fr = run(os.path.join(datadir, name + ".cycles"))["inputs"][0]["fragments"][0]
        diff("raw", ref[name]["raw"], fr["raw"], bad)
    except Exception as e:  # noqa: BLE001
        bad.append(str(e))
    results.append((not bad, "figures:%s" % name, "; ".join(bad)))

try:
    tree = run(os.path.join(datadir, "tree"))["inputs"][0]["fragments"]
    byname = {fr["name"]: fr for fr in tree}
except Exception as e:  # noqa: BLE001
    byname = {}
    results.append((False, "figures:tree", str(e)))
for name in oracle.TREE:
    bad = []
    fr = byname.get(name)
    if not fr:
        bad.append("fragment missing from the output")
    else:
        for part in ("raw", "net", "per_op", "ensembles"):
            # the reference's per_op: cyclestat's net_per_op (schema 2)
            diff(part, ref["tree:" + name][part], fr["net_per_op" if part == "per_op" else part], bad)
    results.append((not bad, "figures:tree_%s" % name.replace(":", "_"), "; ".join(bad)))

for ok, name, why in results:
    tap.point(ok, name, why)
sys.exit(tap.done())
