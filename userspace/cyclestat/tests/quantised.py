#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Does the per-op interval hold on a clock that moves in steps?

    quantised.py CYCLESTAT [TRIALS] [SEED]

A seeded simulation (default 1000 trials, seed 40): each trial one
two-length result of 10 ensembles of 200 samples, 4 ops, R = long_repeat,
true cost c per op (uniform in 0.5..5 ticks) over an overhead (40..120
ticks). A sample is its true duration D plus Gaussian noise (sd 3 or 10
ticks), read by a TSC that moves in steps of s ticks (21 or 26) from a
random phase: floor or ceil of D/s steps, ceil with probability frac(D/s),
so E[sample] = D. Samples are drawn from that exact distribution (the
noise's density smoothed by a triangle one step wide, at each step);
each ensemble then gets 0-2 large disturbances (20 to 800 steps). The tree
records tsc_step; cyclestat reads all TRIALS results in one run, then
again with every info saying tsc_step: 1 (a step the samples must show).

Passes when the 95 % per-op intervals contain c in at least 94 % of all
trials and 90 % of each cell (step x R x noise), and no cell's median
half-width is over two steps per op. The coverage table is printed as TAP
comments either way. Plain Python, no numpy.
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

tool = sys.argv[1]
trials = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 40)
STEPS, REPEATS, NOISE = (21, 26), (16, 64), (3, 10)
OPS, ENS, SIZE = 4, 10, 200


def ramp_mean(m, sd):
    """E[max(Y, 0)] for Y ~ N(m, sd^2)"""
    z = m / sd
    return m * 0.5 * (1 + math.erf(z / math.sqrt(2))) + sd * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)


def stepped(d, s, sd):
    """the values and cumulative weights of one step-read sample of N(d, sd^2)"""
    m, t = d / s, sd / s
    ks = range(max(0, math.floor(m - 8 * t) - 1), math.ceil(m + 8 * t) + 2)
    # P(k steps) = E[tri(D/s - k)], tri = ramp(u + 1) - 2 ramp(u) + ramp(u - 1)
    w = [max(0.0, ramp_mean(m - k + 1, t) - 2 * ramp_mean(m - k, t) + ramp_mean(m - k - 1, t)) for k in ks]
    cw, acc = [], 0.0
    for x in w:
        acc += x
        cw.append(acc)
    return [k * s for k in ks], cw


def region(d, s, sd):
    vals, cw = stepped(d, s, sd)
    out = []
    for _ in range(ENS):
        xs = rnd.choices(vals, cum_weights=cw, k=SIZE)
        for _ in range(rnd.choice((0, 0, 1, 1, 2))):
            xs[rnd.randrange(SIZE)] += s * rnd.randrange(20, 800)
        out += xs
    return out


# 2000 files, 40 MB: in memory where there is a tmpfs (a third of the time)
SHM = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
top = tempfile.mkdtemp(dir=SHM)
truth = {}
try:
    for it in range(trials):
        s, r, sd = STEPS[it % 2], REPEATS[it // 2 % 2], NOISE[it // 4 % 2]
        c, over = rnd.uniform(0.5, 5), rnd.uniform(40, 120)
        name = "q:t%04d" % it
        truth[name] = (c, (s, r, sd))
        d = os.path.join(top, "q", "t%04d" % it)
        os.makedirs(d)
        with open(os.path.join(d, "cycles"), "w") as f:
            f.write("\n".join(map(str, region(over + OPS * c, s, sd))) + "\n")
        with open(os.path.join(d, "cycles_long"), "w") as f:
            f.write("\n".join(map(str, region(over + r * OPS * c, s, sd))) + "\n")
        with open(os.path.join(d, "info"), "w") as f:
            f.write("name: %s\nops: %d\nstate: ok\nensembles: %d\nsamples: %d\nrun_id: 1\n"
                    "method: lfence\nlong_repeat: %d\ntsc_step: %d\n" % (name, OPS, ENS, SIZE, r, s))
    p = subprocess.run([tool, "--format", "json", top], capture_output=True, text=True)
    if p.returncode:
        tap.point(False, "quantised:cyclestat_reads_the_simulated_tree",
                  "exit %d: %s" % (p.returncode, p.stderr.strip()[:300]))
        sys.exit(tap.done())
    got = {f["name"]: f["cost"]["per_op"] for f in json.loads(p.stdout)["inputs"][0]["fragments"]}
    # the same tree recording a step of 1, as cyclebench-user's measurement
    # at load gives on a busy EPYC VM: the step must come from the samples
    for name in truth:
        info = os.path.join(top, *name.split(":"), "info")
        with open(info) as f:
            txt = f.read()
        with open(info, "w") as f:
            f.write(txt[:txt.index("tsc_step:")] + "tsc_step: 1\n")
    p = subprocess.run([tool, "--format", "json", top], capture_output=True, text=True)
    got1 = {} if p.returncode else \
        {f["name"]: f["cost"]["per_op"] for f in json.loads(p.stdout)["inputs"][0]["fragments"]}
finally:
    shutil.rmtree(top)

cells = {}
missing = [n for n in truth if n not in got]
for name, (c, cell) in truth.items():
    g = got.get(name)
    if g is None or g["lo"] is None:
        continue
    k = cells.setdefault(cell, [0, 0, []])
    k[0] += 1
    k[1] += g["lo"] <= c <= g["hi"]
    s, r, _ = cell
    k[2].append((g["hi"] - g["lo"]) / 2 / (s / ((r - 1) * OPS)))

print("# per-op 95 %% intervals on a stepped TSC, %d trials (seed %s): covered / trials," % (
    trials, sys.argv[3] if len(sys.argv) > 3 else 40))
print("# median half-width in steps per op (one step = s / ((R - 1) ops) ticks)")
print("# %5s %4s %6s %10s %6s %10s" % ("step", "R", "noise", "covered", "%", "half-width"))
total = hits = 0
bad = []
for cell in sorted(cells):
    n, h, w = cells[cell]
    w.sort()
    med = w[len(w) // 2] if len(w) % 2 else (w[len(w) // 2 - 1] + w[len(w) // 2]) / 2
    total, hits = total + n, hits + h
    print("# %5d %4d %6d %5d/%-4d %6.1f %10.2f" % (*cell, h, n, 100 * h / n, med))
    if h < 0.90 * n:
        bad.append("step %d R %d noise %d: %d of %d covered, want >= 90 %%" % (*cell, h, n))
    if med > 2:
        bad.append("step %d R %d noise %d: median half-width %.2f steps, want <= 2" % (*cell, med))
print("# %5s %4s %6s %5d/%-4d %6.1f" % ("all", "", "", hits, total, 100 * hits / max(total, 1)))
if missing or total < trials:
    bad.append("%d of %d trials without an interval" % (trials - total, trials))
if hits < 0.94 * trials:
    bad.append("%d of %d intervals contain the true cost, want >= 94 %%" % (hits, trials))
tap.point(not bad, "quantised:per_op_interval_covers_on_a_stepped_tsc (%d of %d)" % (hits, trials), bad)
hits1 = sum(1 for name, (c, _) in truth.items()
            if name in got1 and got1[name]["lo"] is not None and got1[name]["lo"] <= c <= got1[name]["hi"])
print("# the same trees recording tsc_step: 1: %d/%d covered" % (hits1, trials))
tap.point(hits1 >= 0.94 * trials,
          "quantised:a_recorded_step_of_1_yields_to_the_step_in_the_samples (%d of %d)" % (hits1, trials),
          "%d of %d intervals contain the true cost, want >= 94 %%" % (hits1, trials))

# far: a base:empty as the busy EPYC gives it, 8000 samples at 2 steps, 2000
# one step up, one interrupt; the IQR is 0, and a sample one step up is no
# outlier.  Recorded step and the samples' step alike; the brief says of n.
top = tempfile.mkdtemp(dir=SHM)
try:
    xs = [54] * 8000 + [81] * 2000 + [20000]
    rnd.shuffle(xs)
    for sub, step in (("rec", "tsc_step: 27\n"), ("none", "")):
        d = os.path.join(top, sub, "base", "empty")
        os.makedirs(d)
        with open(os.path.join(d, "cycles"), "w") as f:
            f.write("\n".join(map(str, xs)) + "\n")
        with open(os.path.join(d, "info"), "w") as f:
            f.write("name: base:empty\nops: 1\nstate: ok\nensembles: 1\nsamples: 10001\n" + step)
    for sub in ("rec", "none"):
        p = subprocess.run([tool, "--format", "json", os.path.join(top, sub)], capture_output=True, text=True)
        g = json.loads(p.stdout)["inputs"][0]["fragments"][0]["raw"] if not p.returncode else {}
        tap.point(g.get("far_outliers") == 1,
                  "quantised:far_is_no_sample_one_step_up (%s)" % ("tsc_step: 27" if sub == "rec" else
                                                                   "the samples' step"),
                  "want far_outliers 1 of 10001, got %s" % g.get("far_outliers", p.stderr.strip()))
    p = subprocess.run([tool, "--brief", os.path.join(top, "rec")], capture_output=True, text=True)
    tap.point(any(line.startswith("base:empty") and line.split()[-1] == "1/10001"
                  for line in p.stdout.splitlines()),
              "quantised:brief_shows_far_of_n", "want far/n 1/10001, got: %s" % p.stdout.strip())
finally:
    shutil.rmtree(top)
sys.exit(tap.done())
