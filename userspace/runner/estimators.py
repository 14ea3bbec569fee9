#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where the run-to-run spread of a per-op figure comes from: the same
saved runs re-read with other estimators of a region's cost.

    estimators.py DIR...

Each DIR is one cyclebench-user run of alu:add_dep, alu:imul_dep and
mem:chase (args=4096[,262144]) with the references (peers.sh keeps them).
A region's cost in an ensemble is estimated four ways: its median
(cyclestat's), the mean of the samples within 1.5 TSC steps of the
median (the core; the lower median, a sample, when the count is even),
the mean of those at most one step above it (the low side), and the
grouped median (the median interpolated within its step); the
per-op figure is (long - short) / ((R - 1) ops) per ensemble, then the
mean over the ensembles or their median, over the run's own
calib:add_chain figured the same way; or each ensemble's figure over
calib's beside it, then their mean or median (cyclestat's: the core
mean, the ratios' median).  Prints each pair's spread of
the calibration and each figure's mean (sd) over the runs: a median
snaps to the TSC's step, so its figure can sit a fraction of a step off
the truth in every run alike, where a mean of the core does not (the
phase of each sample against the step dithers it); a mean over the
ensembles moves with one disturbed ensemble, where their median does not.
Python's standard library only.
"""
import os
import statistics
import sys


def load(d, name):
    p = os.path.join(d, name)
    info = dict(line.split(": ", 1) for line in open(os.path.join(p, "info")).read().splitlines()
                if ": " in line)
    s = [int(x) for x in open(os.path.join(p, "cycles")).read().split()]
    lg = [int(x) for x in open(os.path.join(p, "cycles_long")).read().split()]
    return (s, lg, int(info["ops"]), int(info["long_repeat"]), int(info["ensembles"]),
            int(info.get("tsc_step", "1")))


def median(x, step):
    return statistics.median(x)


def core(x, step):
    m = statistics.median_low(x)
    return statistics.fmean(v for v in x if m - 1.5 * step <= v <= m + 1.5 * step)


def low(x, step):
    m = statistics.median_low(x)
    return statistics.fmean(v for v in x if v <= m + step)


def grouped(x, step):
    m = statistics.median(x)
    below = sum(v < m for v in x)
    at = sum(v == m for v in x)
    return m if not at else m - step / 2 + step * (len(x) / 2 - below) / at


ESTIMATORS = [("median", median), ("core mean", core), ("low mean", low), ("grouped median", grouped)]
FIGURES = [("add", "alu/add_dep", 1), ("imul", "alu/imul_dep", 3), ("L1", "mem/chase/4096", None),
           ("L2", "mem/chase/262144", None)]


def each(d, name, est):
    s, lg, ops, r, e, step = load(d, name)
    n = len(s) // e
    return [(est(lg[k * n:(k + 1) * n], step) - est(s[k * n:(k + 1) * n], step)) / ((r - 1) * ops)
            for k in range(e)]


def perop(d, name, est, over):
    return over(each(d, name, est))


def paired(d, name, est, over):
    """over the ensembles of each one's ratio to calib's beside it (interleave=1)"""
    return over(a / b for a, b in zip(each(d, name, est), each(d, "calib/add_chain", est)))


def main():
    runs = sys.argv[1:]
    if len(runs) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    figs = [f for f in FIGURES if all(os.path.isdir(os.path.join(d, f[1])) for d in runs)]
    print(f"per op, core cycles, mean (sd) over {len(runs)} runs, by the estimator of a region's"
          " cost in an ensemble and of the figure over the ensembles")
    print(f"{'region':<15} {'ensembles':<10} {'calib sd':>8}  " +
          "  ".join(f"{k:<17}" for k, _, _ in figs))
    for en, est in ESTIMATORS:
        for on, over in (("mean", statistics.fmean), ("median", statistics.median)):
            cal = [perop(d, "calib/add_chain", est, over) for d in runs]
            cells = []
            for _, path, _ in figs:
                v = [perop(d, path, est, over) / c for d, c in zip(runs, cal)]
                cells.append(f"{statistics.fmean(v):8.4f} ({statistics.stdev(v):.4f})")
            print(f"{en:<15} {on:<10} {100 * statistics.stdev(cal) / statistics.fmean(cal):7.3f}%  " +
                  "  ".join(cells))
        # each ensemble over calib's beside it, then over the ensembles
        for on, over in (("ratio mean", statistics.fmean), ("ratio med.", statistics.median)):
            cells = []
            for _, path, _ in figs:
                v = [paired(d, path, est, over) for d in runs]
                cells.append(f"{statistics.fmean(v):8.4f} ({statistics.stdev(v):.4f})")
            print(f"{en:<15} {on:<10} {'-':>8}  " + "  ".join(cells))
    print("cyclestat's: core mean, ratio med. (with interleave=1; without it, core mean, median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
