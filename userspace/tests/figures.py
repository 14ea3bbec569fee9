#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every figure cyclestat prints in JSON, against the reference (oracle.py).

    figures.py CYCLESTAT DATADIR

One TAP line per data set: "ok" when every figure matches the reference to
the last printed digit, else "not ok" with each figure that differs. The
reference is computed here with numpy when this python has it, and is also
checked against the committed tests/data/expected.json; without numpy the
committed file (made by 'oracle.py expect') is the reference.
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

tool, datadir = sys.argv[1], sys.argv[2]
golden_path = os.path.join(datadir, "expected.json")
with open(golden_path) as f:
    golden = json.load(f)
results = []

try:
    import numpy  # noqa: F401
    buf = io.StringIO()
    with redirect_stdout(buf):
        oracle.expect(datadir)
    live = json.loads(buf.getvalue())
    results.append((live == golden, "figures:expected_json_is_numpy_output",
                    "tests/data/expected.json differs from oracle.py expect: regenerate it"))
    ref = live
except ImportError:
    ref = golden


def run(path):
    p = subprocess.run([tool, "--format", "json", path], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("exit %d: %s" % (p.returncode, p.stderr.strip()))
    return json.loads(p.stdout, parse_float=str, parse_int=str,
                      parse_constant=str)


def diff(where, want, got, bad):
    for k, v in want.items():
        g = got.get(k)
        if isinstance(v, list):
            if v != g:
                bad.append("%s.%s: expected %s, got %s" % (where, k, v[:6], (g or [])[:6]))
        elif v != g:
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
            diff(part, ref["tree:" + name][part], fr[part], bad)
    results.append((not bad, "figures:tree_%s" % name.replace(":", "_"), "; ".join(bad)))

for i, (ok, name, why) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        print("#   " + why)
