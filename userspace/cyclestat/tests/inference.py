#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cyclestat's inference against a Python reference: the two-length per-op
cost (each ensemble's core means, their median) and its order-statistic
interval, and compare's Hodges-Lehmann change, its exact
interval, the Mann-Whitney p-value and the verdict rules.

    inference.py CYCLESTAT [SEED]

The reference is written here from the definitions in cyclestat(1), in
plain Python (statistics, fractions); where scipy is installed, Student's t
quantile and the exact Mann-Whitney p-value come from scipy instead, and
the plain values are checked against it. One TAP line per property.
"""
import itertools
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from fractions import Fraction
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

tool = sys.argv[1]
rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 12)
try:
    from scipy import stats as sst
except ImportError:
    sst = None

# t(0.975, df), df = 1..30, from the tables (checked against scipy when present)
T975 = [12.7062047362, 4.30265272975, 3.18244630528, 2.7764451052, 2.57058183564,
        2.44691185114, 2.36462425159, 2.30600413520, 2.26215716280, 2.22813885196,
        2.20098516009, 2.17881282966, 2.16036865646, 2.14478668792, 2.13144954556,
        2.11990529922, 2.10981557783, 2.10092204024, 2.09302405441, 2.08596344727,
        2.07961384473, 2.07387306790, 2.06865761042, 2.06389856163, 2.05953855275,
        2.05552943864, 2.05183051648, 2.04840714180, 2.04522964213, 2.04227245630]


def t975(df):
    if sst is not None:
        return float(sst.t.ppf(0.975, df))
    return T975[df - 1]


results = []


def check(ok, name, why=""):
    results.append((ok, name, why))


def close(a, b, rel):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= rel * max(1.0, abs(b))


def run(*args):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    if p.returncode > 1:
        raise RuntimeError("exit %d: %s" % (p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def frag_dir(top, name, ens, size, short, long=None, repeat=8, ops=4):
    d = os.path.join(top, *name.replace(":", "/").split("/"))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "cycles"), "w") as f:
        f.write("".join("%d\n" % x for x in short))
    info = "name: %s\nops: %d\nstate: ok\nensembles: %d\nsamples: %d\nrun_id: 1\nmethod: paoloni\n" % (
        name, ops, ens, size)
    if long is not None:
        info += "long_repeat: %d\n" % repeat
        with open(os.path.join(d, "cycles_long"), "w") as f:
            f.write("".join("%d\n" % x for x in long))
    with open(os.path.join(d, "info"), "w") as f:
        f.write(info)


top = tempfile.mkdtemp()
try:
    # ---- t quantile: the table against scipy ----
    if sst is not None:
        bad = [df for df in range(1, 31) if not close(T975[df - 1], float(sst.t.ppf(0.975, df)), 1e-9)]
        check(not bad, "inference:t_table_matches_scipy", "df %s" % bad)

    # ---- per-op cost: value and interval against the reference ----
    def core(x):
        """the samples within 1.5 steps (one tick: step 1) of the lower median, their mean"""
        m = statistics.median_low(x)
        return statistics.mean(Fraction(v) for v in x if abs(v - m) <= 1)

    def order_k(n):
        """the largest k with P(Binomial(n, 1/2) < k) <= 2.5 %, 0 when none"""
        k = 0
        while sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n <= 0.025:
            k += 1
        return k

    bad, covered, with_ci, trials = [], 0, 0, 120
    for it in range(trials):
        ens, size, ops, r = rnd.randint(2, 12), rnd.randint(3, 41), rnd.choice((1, 4, 8)), rnd.choice((2, 8, 16))
        cost = rnd.choice((0.5, 1.0, 2.5, 3.0))
        sd = rnd.choice((1, 5, 20))
        over = 1000
        short = [over + round(ops * cost + rnd.gauss(0, sd)) for _ in range(ens * size)]
        long = [over + round(r * ops * cost + rnd.gauss(0, sd)) for _ in range(ens * size)]
        d = os.path.join(top, "p%d" % it)
        frag_dir(d, "alu:x", ens, size, short, long, r, ops)
        got = run("--format", "json", d)["inputs"][0]["fragments"][0]["cost"]
        e = sorted((core(long[j * size:(j + 1) * size]) - core(short[j * size:(j + 1) * size]))
                   / ((r - 1) * ops) for j in range(ens))
        m = statistics.median(e)
        k = order_k(ens)
        # shown symmetric: the farther order statistic on both sides
        h = max(m - e[k - 1], e[ens - k] - m) if k else None
        lo, hi = (m, m) if e[0] == e[-1] else (m - h, m + h) if k else (None, None)
        g = got["per_op"]
        if got["basis"] != "two-length" or not close(g["value"], m, 1e-12) or \
                not close(g["lo"], lo, 1e-6) or not close(g["hi"], hi, 1e-6) or g["n"] != ens:
            bad.append("tree %d: want %s [%s, %s], got %s" % (it, m, lo, hi, g))
        if k:
            covered += g["lo"] <= cost <= g["hi"]
            with_ci += 1
        mins = [(min(long[j * size:(j + 1) * size]) - min(short[j * size:(j + 1) * size])) /
                ((r - 1) * ops) for j in range(ens)]
        if not close(got["per_op_min"]["value"], statistics.mean(mins), 1e-12):
            bad.append("tree %d: min aggregate want %.9g, got %s" % (it, statistics.mean(mins), got["per_op_min"]))
    check(not bad, "inference:per_op_cost_and_interval_match_the_reference (%d trees)" % trials,
          "; ".join(bad[:5]))
    # 95 % intervals: the true cost inside about 95 % of the time (six ensembles or more)
    check(with_ci >= trials / 3 and covered >= 0.85 * with_ci,
          "inference:per_op_interval_covers_the_true_cost (%d of %d)" % (covered, with_ci),
          "expected about 95%%, got %d of %d" % (covered, with_ci))

    # ---- icount: identical samples give the exact cost, zero width ----
    d = os.path.join(top, "icount")
    frag_dir(d, "alu:add_dep", 5, 10, [1003] * 50, [1003 + 7 * 4] * 50, 8, 4)
    p = subprocess.run([tool, "--format", "json", d], capture_output=True, text=True)
    txt = p.stdout
    g = json.loads(txt)["inputs"][0]["fragments"][0]["cost"]["per_op"]
    check('"per_op": {"value": 1, "lo": 1, "hi": 1, "n": 5}' in txt,
          "inference:icount_per_op_is_exactly_1_with_zero_width", "got %s" % g)

    # ---- intervals that hold: the TSC step's floor and the calibration's error ----
    def add_info(d, name, text):
        with open(os.path.join(d, *name.replace(":", "/").split("/"), "info"), "a") as f:
            f.write(text)

    def cost_of(d, name):
        frs = run("--format", "json", d)["inputs"][0]["fragments"]
        return {f["name"]: f for f in frs}[name]["cost"]["per_op"]

    # every ensemble agrees (the step makes them): each median may be half a
    # step off, long - short a whole step of ops (quantised.py measures it)
    d = os.path.join(top, "step")
    frag_dir(d, "alu:x", 5, 10, [1000] * 50, [1000 + 26 * 30] * 50, 8, 4)
    add_info(d, "alu:x", "tsc_step: 26\n")
    g, q = cost_of(d, "alu:x"), 26 / (7 * 4)
    check(close(g["value"], 26 * 30 / 28, 1e-12) and close(g["hi"] - g["value"], q, 1e-9) and
          close(g["value"] - g["lo"], q, 1e-9),
          "inference:identical_ensembles_are_known_to_a_whole_tsc_step", "want +-%.6g, got %s" % (q, g))
    # a tree that records a step of 1 (a busy machine fools the measurement
    # at load) where every sample moves in 27s: the samples' step holds
    short = [1080 + 27 * (k % 10 < 3) for k in range(100)]
    long = [1890 + 27 * (k % 10 < 3) for k in range(100)]
    frag_dir(d, "alu:z", 5, 20, short, long, 8, 4)
    add_info(d, "alu:z", "tsc_step: 1\n")
    g, q27 = cost_of(d, "alu:z"), 27 / (7 * 4)
    check(close(g["hi"] - g["value"], q27, 1e-9) and close(g["value"] - g["lo"], q27, 1e-9),
          "inference:a_recorded_step_of_1_yields_to_the_step_in_the_samples",
          "want +-%.6g, got %s" % (q27, g))
    # a net figure (no long region) is a difference of two medians, each a
    # whole number of steps: known to a whole step over ops, not exactly
    d = os.path.join(top, "netstep")
    frag_dir(d, "base:empty", 5, 10, [1000] * 50, ops=1)
    frag_dir(d, "alu:x", 5, 10, [1026] * 50, ops=4)
    for n_ in ("base:empty", "alu:x"):
        add_info(d, n_, "tsc_step: 26\n")
    c = run("--format", "json", d)["inputs"][0]["fragments"]
    g = {f["name"]: f for f in c}["alu:x"]["cost"]
    check(g["basis"] == "net" and close(g["per_op"]["value"], 6.5, 1e-12) and
          close(g["per_op"]["hi"] - 6.5, 6.5, 1e-9) and close(6.5 - g["per_op"]["lo"], 6.5, 1e-9),
          "inference:net_interval_carries_a_whole_tsc_step", "want net 6.5 +- 6.5, got %s" % g)
    # a spread wider than the step keeps its interval: 7 ensembles, the
    # order statistics x(1) and x(7) (P(B < 1) = 1/128 <= 2.5 % < P(B < 2)),
    # the farther from the median on both sides
    long = [1000 + 26 * 30 + 26 * 4 * (j % 2) for j in range(7) for _ in range(10)]
    frag_dir(d, "alu:y", 7, 10, [1000] * 70, long, 8, 4)
    add_info(d, "alu:y", "tsc_step: 26\n")
    e = [(long[j * 10] - 1000) / 28 for j in range(7)]
    h = max(e) - statistics.median(e)
    g = cost_of(d, "alu:y")
    check(h > q and close(g["hi"] - g["value"], h, 1e-9) and close(g["value"] - g["lo"], h, 1e-9),
          "inference:a_spread_wider_than_the_step_keeps_its_interval", "want +%.6g, got %s" % (h, g))
    # the core's mean between steps: 12 of 20 samples on X, 6 one step up,
    # 2 in a far tail (a disturbed sample); the median reads X, the core's
    # mean X + 6/18 of a step, the tail left out
    X = 1000 + 26 * 30
    lv = [X] * 12 + [X + 26] * 6 + [X + 26 * 10] * 2
    frag_dir(d, "alu:v", 6, 20, [1000] * 120, lv * 6, 8, 4)
    add_info(d, "alu:v", "tsc_step: 26\n")
    g = cost_of(d, "alu:v")
    want = (26 * 30 + 26 * 6 / 18) / 28
    check(close(g["value"], want, 1e-12) and close(g["hi"] - g["value"], q, 1e-9),
          "inference:the_core_mean_lies_between_steps_and_leaves_the_tail_out",
          "want %.9g +- %.6g, got %s" % (want, q, g))

    # under six ensembles a median has no 95 % interval: none is shown
    frag_dir(d, "alu:w", 5, 10, [1000] * 50, long[:50], 8, 4)
    g = cost_of(d, "alu:w")
    check(g["lo"] is None and g["hi"] is None and g["n"] == 5,
          "inference:five_ensembles_give_a_median_but_no_interval", "got %s" % g)

    # calibrated: the calibration's own half-width is carried (not divided out as exact)
    def cal_tree(sub, inter, cal_long, x_long):
        d = os.path.join(top, sub)
        n = len(cal_long)
        frag_dir(d, "calib:add_chain", n, 5, [500] * 5 * n,
                 [500 + v for v in cal_long for _ in range(5)], 8, 64)
        frag_dir(d, "loop:x", n, 5, [600] * 5 * n, [600 + v for v in x_long for _ in range(5)], 8, 100)
        for n in ("calib:add_chain", "loop:x"):
            add_info(d, n, "interleave: %s\n" % ("yes" if inter else "no"))
        return d

    # seven ensembles: the interval of a median is min..max (k = 1)
    cal_l, x_l = [336, 352, 344, 360, 340, 356, 348], [1050, 1102, 1075, 1124, 1060, 1110, 1090]
    c_e = [v / (7 * 64) for v in cal_l]
    x_e = [v / (7 * 100) for v in x_l]
    c, x = statistics.median(c_e), statistics.median(x_e)
    hc = max(c - min(c_e), max(c_e) - c)
    hx = max(x - min(x_e), max(x_e) - x)
    g = cost_of(cal_tree("cal-apart", False, cal_l, x_l), "loop:x")
    want = hx / c + (x / c) * hc / c
    check(close(g["value"], x / c, 1e-9) and close(g["hi"] - g["value"], want, 1e-9) and
          close(g["value"] - g["lo"], want, 1e-9),
          "inference:calibrated_interval_adds_the_calibrations_relative_error",
          "want %.6g +- %.6g, got %s" % (x / c, want, g))
    # interleaved: ensemble e of both ran together: the ratios' median and its interval
    g = cost_of(cal_tree("cal-paired", True, cal_l, x_l), "loop:x")
    r = [a / b for a, b in zip(x_e, c_e)]
    mr = statistics.median(r)
    want = max(mr - min(r), max(r) - mr)
    check(close(g["value"], mr, 1e-9) and close(g["hi"] - g["value"], want, 1e-9) and
          want < hx / c + (x / c) * hc / c,
          "inference:interleaved_calibration_pairs_ensembles_and_cancels_the_drift",
          "want +-%.6g, got %s" % (want, g))

    # the calibration checked ensemble by ensemble: the clock moves 4 % over
    # the ensembles (both chains alike), and a neighbour makes imul read
    # 2.94 adds in every one; beside each other the gap shows, figure
    # against figure the drift hides it
    def check_tree(sub, inter):
        d = os.path.join(top, sub)
        f = [1.00, 1.02, 0.99, 1.04, 1.01, 0.98, 1.03]
        n = len(f)
        frag_dir(d, "calib:add_chain", n, 5, [500] * 5 * n,
                 [500 + round(7 * 64 * 100 * x) for x in f for _ in range(5)], 8, 64)
        frag_dir(d, "calib:imul_chain", n, 5, [500] * 5 * n,
                 [500 + round(7 * 64 * 294 * x) for x in f for _ in range(5)], 8, 64)
        for name in ("calib:add_chain", "calib:imul_chain"):
            add_info(d, name, "interleave: %s\n" % ("yes" if inter else "no"))
        return run("--format", "json", d)["inputs"][0]["calibration_check"]

    cc = check_tree("check-paired", True)
    check(cc and cc["disturbed"] and close(cc["gap"], 0.06 / 2.94, 1e-3) and
          close(cc["imul_chain"] / cc["add_chain"], 0.98, 1e-3),
          "inference:interleaved_calibration_check_sees_a_gap_the_drift_hides", "got %s" % cc)
    cc = check_tree("check-apart", False)
    check(cc and not cc["disturbed"], "inference:apart_the_drift_hides_the_gap", "got %s" % cc)

    # ---- compare: HL, interval and p against the reference ----
    def counts(n, m):
        # number of ways to get U = k (no ties): c(n, m, k) = c(n-1, m, k-m) + c(n, m-1, k)
        c = [[[0] * (n * m + 1) for _ in range(m + 1)] for _ in range(n + 1)]
        for i in range(n + 1):
            for j in range(m + 1):
                if i == 0 or j == 0:
                    c[i][j][0] = 1
                    continue
                for k in range(i * j + 1):
                    c[i][j][k] = (c[i - 1][j][k - j] if k >= j else 0) + c[i][j - 1][k]
        return c[n][m]

    def reference(x, y):
        n, m = len(x), len(y)
        lx, ly = [math.log(v) for v in x], [math.log(v) for v in y]
        dd = sorted(b - a for a in lx for b in ly)
        nm = n * m
        est = dd[nm // 2] if nm % 2 else (dd[nm // 2 - 1] + dd[nm // 2]) / 2
        c = counts(n, m)
        tot = sum(c)
        cdf = lambda k: sum(c[:k + 1]) / tot if k >= 0 else 0.0  # noqa: E731
        u = sum(1 for a in x for b in y if b > a) + 0.5 * sum(1 for a in x for b in y if b == a)
        p = min(1.0, 2 * cdf(math.floor(min(u, nm - u))))
        k = 0
        while k < nm and cdf(k) < 0.025:
            k += 1
        k = max(k, 1)
        return math.expm1(est), math.expm1(dd[k - 1]), math.expm1(dd[nm - k]), p, 1 - 2 * cdf(k - 1)

    def write_runs(side, vals):
        paths = []
        for i, v in enumerate(vals):
            d = os.path.join(top, "%s%d" % (side, i))
            os.makedirs(os.path.join(d, "g", "f"), exist_ok=True)
            with open(os.path.join(d, "g", "f", "cycles"), "w") as f:
                f.write("%d\n" % v)
            with open(os.path.join(d, "g", "f", "info"), "w") as f:
                f.write("name: g:f\nops: 1\nstate: ok\nensembles: 1\nsamples: 1\n")
            paths.append(d)
        return paths

    bad = []
    for it in range(40):
        n, m = rnd.randint(2, 12), rnd.randint(2, 12)
        shift = rnd.choice((1.0, 1.0, 1.03, 1.2, 0.8))
        x = rnd.sample(range(10000, 20000), n)
        y = [int(v * shift) + rnd.randrange(-300, 300) for v in rnd.sample(range(10000, 20000), m)]
        if len(set(x + y)) < n + m:
            continue
        shutil.rmtree(os.path.join(top, "cmp"), ignore_errors=True)
        bx = write_runs("cmp/b", x)
        ny = write_runs("cmp/n", y)
        got = run("--format", "json", "compare", *bx, "--", *ny)["fragments"][0]
        ch, lo, hi, p, level = reference(x, y)
        if not close(got.get("confidence"), level, 1e-12):
            bad.append("case %d (n %d, m %d): the interval covers %.6g, labelled %s"
                       % (it, n, m, level, got.get("confidence")))
        if sst is not None:
            sp = float(sst.mannwhitneyu(y, x, alternative="two-sided", method="exact").pvalue)
            if not close(p, sp, 1e-9):
                bad.append("case %d: reference p %.12g but scipy %.12g" % (it, p, sp))
        if not (close(got["change"], ch, 1e-9) and close(got["change_lo"], lo, 1e-9) and
                close(got["change_hi"], hi, 1e-9) and close(got["p_value"], p, 1e-9) and
                got["base_n"] == n and got["new_n"] == m and got["repetitions"] == "runs"):
            bad.append("case %d (n %d, m %d): want %.9g [%.9g, %.9g] p %.9g, got %s %s %s p %s"
                       % (it, n, m, ch, lo, hi, p, got["change"], got["change_lo"],
                          got["change_hi"], got["p_value"]))
    check(not bad, "inference:hodges_lehmann_interval_and_exact_p_match_the_reference",
          "; ".join(bad[:4]))
    # 3 v 3: min..max of the nine differences, which covers 1 - 2/20 = 90 %
    shutil.rmtree(os.path.join(top, "cmp"), ignore_errors=True)
    p3 = subprocess.run([tool, "--format", "json", "compare", *write_runs("cmp/b", [100, 110, 120]), "--",
                         *write_runs("cmp/n", [105, 115, 125])], capture_output=True, text=True)
    got = json.loads(p3.stdout)
    f3 = got["fragments"][0]
    check(f3.get("confidence") == 0.9 and got["confidence"] == 0.95,
          "inference:three_runs_a_side_interval_is_labelled_90_percent",
          "want 0.9 (asked 0.95), got %s (asked %s)" % (f3.get("confidence"), got["confidence"]))

    # ties (a TSC in steps makes them): p from the permutation distribution of
    # the midranks (scipy's mannwhitneyu(method=PermutationMethod())), checked
    # by enumerating every split of the pooled runs
    def midranks(vals):
        order = sorted(vals)
        rank = {}
        i = 0
        while i < len(order):
            j = i
            while j < len(order) and order[j] == order[i]:
                j += 1
            rank[order[i]] = (i + 1 + j) / 2
            i = j
        return rank

    def tied_reference(x, y):
        pool = x + y
        rk = midranks(pool)
        obs = sum(rk[v] for v in y)
        lo = hi = tot = 0
        for pick in itertools.combinations(range(len(pool)), len(y)):
            s = sum(rk[pool[i]] for i in pick)
            tot += 1
            lo += s <= obs + 1e-9
            hi += s >= obs - 1e-9
        return min(1.0, 2 * min(lo, hi) / tot)

    bad, tied_cases = [], 0
    for it in range(30):
        n, m = rnd.randint(3, 7), rnd.randint(3, 7)
        x = [rnd.choice((1000, 1026, 1052, 1078)) for _ in range(n)]
        y = [rnd.choice((1026, 1052, 1078, 1104)) for _ in range(m)]
        if len(set(x + y)) == n + m:
            continue
        tied_cases += 1
        shutil.rmtree(os.path.join(top, "cmp"), ignore_errors=True)
        got = run("--format", "json", "compare", *write_runs("cmp/b", x), "--",
                  *write_runs("cmp/n", y))["fragments"][0]
        want = tied_reference(x, y)
        if not close(got["p_value"], want, 1e-9):
            bad.append("case %d %s vs %s: want p %.9g, got %s" % (it, x, y, want, got["p_value"]))
    check(not bad and tied_cases >= 20,
          "inference:tied_runs_p_is_the_exact_permutation_p (%d cases)" % tied_cases, "; ".join(bad[:3]))

    # ---- compare --paired: signed-rank p, one-sample HL and its interval ----
    def signed_rank_counts(ranks):
        top = sum(ranks)
        c = [0] * (top + 1)
        c[0] = 1
        for r in ranks:
            for k in range(top, r - 1, -1):
                c[k] += c[k - r]
        return c

    def walsh(x, y):
        # the pairs' nonzero log differences, their sorted Walsh averages, the median
        d = [math.log(b) - math.log(a) for a, b in zip(x, y)]
        d = [v for v in d if v != 0]
        m = len(d)
        w = sorted((d[i] + d[j]) / 2 for i in range(m) for j in range(i, m))
        nw = len(w)
        return d, w, (w[nw // 2] if nw % 2 else (w[nw // 2 - 1] + w[nw // 2]) / 2)

    def paired_reference(x, y):
        d, w, est = walsh(x, y)
        m, nw = len(d), len(w)
        order = sorted(range(m), key=lambda i: abs(d[i]))
        rank = {i: k + 1 for k, i in enumerate(order)}   # no ties in these cases
        wp = sum(rank[i] for i in range(m) if d[i] > 0)
        c = signed_rank_counts(list(range(1, m + 1)))
        tot = 2 ** m
        cdf = lambda k: sum(c[:k + 1]) / tot if k >= 0 else 0.0  # noqa: E731
        p = min(1.0, 2 * cdf(min(wp, nw - wp)))
        k = 0
        while k < nw and cdf(k) < 0.025:
            k += 1
        k = max(k, 1)
        return math.expm1(est), math.expm1(w[k - 1]), math.expm1(w[nw - k]), p, 1 - 2 * cdf(k - 1)

    bad = []
    for it in range(40):
        n = rnd.randint(2, 14)
        shift = rnd.choice((1.0, 1.0, 1.03, 1.2, 0.8))
        x = rnd.sample(range(10000, 20000), n)
        y = [int(v * shift) + rnd.randrange(-300, 300) for v in x]
        dd = [abs(math.log(b) - math.log(a)) for a, b in zip(x, y)]
        if len(set(dd)) < n or 0 in dd:
            continue
        shutil.rmtree(os.path.join(top, "cmp"), ignore_errors=True)
        got = run("--format", "json", "--paired", "compare", *write_runs("cmp/b", x), "--",
                  *write_runs("cmp/n", y))["fragments"][0]
        ch, lo, hi, p, level = paired_reference(x, y)
        if not close(got.get("confidence"), level, 1e-12):
            bad.append("case %d (n %d): the interval covers %.6g, labelled %s"
                       % (it, n, level, got.get("confidence")))
        if sst is not None:
            sp = float(sst.wilcoxon([math.log(b) - math.log(a) for a, b in zip(x, y)],
                                    method="exact").pvalue)
            if not close(p, sp, 1e-9):
                bad.append("case %d: reference p %.12g but scipy %.12g" % (it, p, sp))
        if not (close(got["change"], ch, 1e-9) and close(got["change_lo"], lo, 1e-9) and
                close(got["change_hi"], hi, 1e-9) and close(got["p_value"], p, 1e-9) and
                got["base_n"] == n and got["repetitions"] == "paired runs"):
            bad.append("case %d (n %d): want %.9g [%.9g, %.9g] p %.9g, got %s %s %s p %s"
                       % (it, n, ch, lo, hi, p, got["change"], got["change_lo"],
                          got["change_hi"], got["p_value"]))
    check(not bad, "inference:paired_hodges_lehmann_interval_and_signed_rank_p_match_the_reference",
          "; ".join(bad[:4]))

    # over 50 pairs: normal, continuity-corrected (and tie-corrected), as
    # scipy.stats.wilcoxon(method="approx", correction=True); the interval's
    # ends are the k-th Walsh averages, k = floor(mu - z(0.975) sd)
    bad = []
    ran = 0
    for it in range(6):
        n = rnd.randint(70, 90)
        x = [rnd.randrange(10000, 20000) for _ in range(n)]
        y = [round(v * rnd.choice((1.0, 1.01, 1.05))) + rnd.choice((0, 0, 10, -10, 20)) for v in x]
        if sum(a != b for a, b in zip(x, y)) <= 50:
            continue
        ran += 1
        shutil.rmtree(os.path.join(top, "cmp"), ignore_errors=True)
        got = run("--format", "json", "--paired", "compare", *write_runs("cmp/b", x), "--",
                  *write_runs("cmp/n", y))["fragments"][0]
        d = [math.log(b) - math.log(a) for a, b in zip(x, y)]
        dz, w, est = walsh(x, y)
        m, nw = len(dz), len(w)
        k = max(1, math.floor(nw / 2 - statistics.NormalDist().inv_cdf(0.975) *
                              math.sqrt(m * (m + 1) * (2 * m + 1) / 24)))
        want = (math.expm1(est), math.expm1(w[k - 1]), math.expm1(w[nw - k]))
        if not (close(got["change"], want[0], 1e-9) and close(got["change_lo"], want[1], 1e-9) and
                close(got["change_hi"], want[2], 1e-9) and got["test"] == "normal"):
            bad.append("case %d (n %d): want %s, got %s %s %s %s" % (it, n, want, got["change"],
                       got["change_lo"], got["change_hi"], got["test"]))
        if sst is not None:
            sp = float(sst.wilcoxon(d, method="approx", correction=True).pvalue)
            if not close(got["p_value"], sp, 1e-9):
                bad.append("case %d: p %s but scipy %.12g" % (it, got["p_value"], sp))
    check(not bad and ran >= 3, "inference:paired_over_50_pairs_is_normal_as_scipy (%d cases)" % ran,
          "; ".join(bad[:4]) or "only %d cases over 50 pairs" % ran)

    # ---- verdict rules ----
    def verdict(x, y, *opts):
        shutil.rmtree(os.path.join(top, "cmp"), ignore_errors=True)
        p = subprocess.run([tool, "--format", "json", *opts, "compare", *write_runs("cmp/b", x), "--",
                            *write_runs("cmp/n", y)], capture_output=True, text=True)
        f = json.loads(p.stdout)["fragments"][0]
        return f["verdict"], f["reason"], p.returncode

    base = [10000, 10010, 10020, 10030, 10040, 10050, 10060, 10070]
    cases = [
        ("significant_but_inside_the_threshold_is_same", base, [v * 1.01 for v in base], (), "same", 0),
        ("whole_interval_beyond_the_threshold_is_slower", base, [v * 1.10 for v in base], (), "slower", 1),
        ("faster_is_exit_0", base, [v * 0.90 for v in base], (), "faster", 0),
        ("interval_straddling_the_threshold_is_inconclusive", base,
         [v * 1.02 + d for v, d in zip(base, (-150, 160, -140, 170, -130, 150, -160, 140))], (),
         "inconclusive", 0),
        ("four_runs_per_side_are_not_enough", base[:4], [v * 1.5 for v in base[:4]], (),
         "not enough runs", 0),
        ("threshold_option_moves_the_line", base, [v * 1.10 for v in base], ("--threshold", "15"),
         "same", 0),
        # no relative threshold holds a change from nothing: the test and one
        # step of the clock (1 tick here) decide it, as on every other row
        ("from_zero_to_nonzero_fails_the_gate", [0] * 6, [5, 6, 5, 7, 6, 5], (), "slower", 1),
        ("from_zero_in_one_run_a_side_is_not_enough_runs_as_any_row", [0], [5], (),
         "not enough runs", 0),
        ("from_zero_within_one_step_is_same", [0] * 6, [0, 1, 0, 1, 1, 0], (), "same", 0),
    ]
    for name, x, y, opts, want, rc in cases:
        v, why, got_rc = verdict(x, [round(a) for a in y], *opts)
        check(v == want and got_rc == rc, "inference:" + name,
              "expected %s (exit %d), got %s (%s) exit %d" % (want, rc, v, why, got_rc))
    # paired: the pairs' differences, not the spread between runs
    drift = [10000, 10500, 11000, 11500, 12000, 12500, 13000, 13500]
    for name, x, y, opts, want, rc in [
            ("paired_10_percent_under_drift_is_slower", drift,
             [v * 1.10 + d for v, d in zip(drift, (5, -7, 9, -3, 4, -8, 6, -2))], ("--paired",), "slower", 1),
            ("unpaired_the_same_runs_are_inconclusive", drift,
             [v * 1.10 + d for v, d in zip(drift, (5, -7, 9, -3, 4, -8, 6, -2))], (), "inconclusive", 0),
            ("paired_seven_pairs_are_not_enough", drift[:7], [v * 1.5 for v in drift[:7]], ("--paired",),
             "not enough runs", 0),
            ("paired_unequal_sides_are_unpaired_and_fail", drift, drift[:7], ("--paired",), "unpaired", 1),
            ("paired_identical_is_same", drift, drift, ("--paired",), "same", 0)]:
        v, why, got_rc = verdict(x, [round(a) for a in y], *opts)
        check(v == want and got_rc == rc, "inference:" + name,
              "expected %s (exit %d), got %s (%s) exit %d" % (want, rc, v, why, got_rc))
    v, why, _ = verdict(base[:4], base[:4])
    check(why == "4, need 5", "inference:not_enough_runs_says_how_many", "got '%s'" % why)
    v, why, _ = verdict(base, [round(a * 1.02 + d) for a, d in zip(base, (-150, 160, -140, 170, -130, 150, -160, 140))])
    check(why.startswith("n = 8; need "), "inference:inconclusive_says_n_and_what_might_decide",
          "got '%s'" % why)

    # ---- calibrated compare: a run's clock speed cancels out ----
    # Each run: calib:add_chain (64 ops, s ticks per core cycle) and loop:x
    # (100 ops, c core cycles each, so c * s ticks), both measured in the
    # same run; s is the run's clock (1 or 1.45: a boot under TCG, a day on
    # a machine), jittered by +-0.5 %.
    def cal_runs(sub, speeds, cost, run_id=True):
        out = []
        for i, sp in enumerate(speeds):
            d = os.path.join(top, sub, "r%d" % i)
            j = 1 + rnd.uniform(-0.005, 0.005)
            frag_dir(d, "calib:add_chain", 4, 5, [500] * 20, [500 + round(7 * 64 * sp * j)] * 20, 8, 64)
            frag_dir(d, "loop:x", 4, 5, [600] * 20,
                     [600 + round(7 * 100 * cost * sp * rnd.uniform(0.995, 1.005))] * 20, 8, 100)
            if not run_id:
                info = os.path.join(d, "calib", "add_chain", "info")
                txt = open(info).read().replace("run_id: 1", "run_id: 2")
                open(info, "w").write(txt)
            out.append(d)
        return out

    def cal_verdict(x, y, *opts, frag=""):
        p = subprocess.run([tool, "--format", "json", "-q", *opts, "compare",
                            *[d + frag for d in x], "--", *[d + frag for d in y]],
                           capture_output=True, text=True)
        f = {g["name"]: g for g in json.loads(p.stdout)["fragments"]}
        g = f.get("loop:x") or list(f.values())[0]
        return g["verdict"], g.get("unit"), g["change"]

    shutil.rmtree(os.path.join(top, "cal"), ignore_errors=True)
    fast, slow = [1.0] * 6, [1.45] * 6
    a_fast = cal_runs("cal/af", fast, 1.0)
    a_slow = cal_runs("cal/as", slow, 1.0)
    b_fast = cal_runs("cal/bf", fast, 1.5)
    v = cal_verdict(a_fast, a_slow)
    check(v[0] == "same" and v[1] == "core cycles (calibrated)",
          "inference:calibrated_runs_on_a_slower_clock_are_the_same", "got %s" % (v,))
    v = cal_verdict(a_fast, a_slow, "--ticks")
    check(v[0] == "slower" and v[1] == "ticks" and close(v[2], 0.45, 0.02),
          "inference:the_same_runs_in_ticks_show_the_clock", "got %s" % (v,))
    v = cal_verdict(a_slow, b_fast)
    check(v[0] == "slower" and close(v[2], 0.5, 0.02),
          "inference:calibrated_50_percent_slowdown_seen_through_a_faster_clock", "got %s" % (v,))
    v = cal_verdict(a_slow, b_fast, frag="/loop/x")
    check(v[0] == "slower" and v[1] == "core cycles (calibrated)",
          "inference:a_result_directory_takes_its_trees_calibration", "got %s" % (v,))
    other = cal_runs("cal/other", slow, 1.0, run_id=False)
    v = cal_verdict(a_fast, other)
    check(v[1] == "ticks", "inference:a_calibration_from_another_run_is_not_used", "got %s" % (v,))
finally:
    shutil.rmtree(top)

for ok, name, why in results:
    tap.point(ok, name, why)
sys.exit(tap.done())
