#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The regression gate on run sets whose truth is known (issue 50).

    gate_sim.py CYCLESTAT [COMPARISONS] [SEED]

Seeded (default seed 50, 100 comparisons a cell). A catalogue is 64 rows;
a run is one tree, each row one result of one sample (its figure: the raw
median), drawn as V_k (1 + change) exp(sigma z), z normal, V_k 20000 to
26000 ticks. Each cell draws its comparisons, 10 runs a side, from a pool
of 200 runs (A/A) or 100 a side (A/B), and runs the real `cyclestat
compare` on each:

  A/A     sigma 0.5, 2, 5 and 20 %: every row unchanged; a comparison with
          any row slower or faster (or exit 1) is a false alarm: at most
          5 % of them.
  A/B     sigma 0.5 and 2 %: rows 0-3 +10 %, rows 4-7 +5 %, the rest
          unchanged: every +10 % row found slower in at least 95 % of
          its comparisons, and no unchanged row slower or faster in more
          than 5 % of them.

Then the edges, a comparison each, with the verdict and exit status they
must give: medians locked on a TSC step (true +8 %, every median 54 ticks:
inconclusive, not same +0.0 %); exact counts with 5 % refills 600 ticks
dearer (per op exactly 100, an interval of width 0; A/A same, +10 %
slower); a 64-row catalogue at 5 v 5 with a +50 % row (no p of 5 v 5 runs
passes 0.01 over 64 rows: not enough runs, need 8, sees none; alone, it
is slower); every row's
minimum detectable change, and the line naming the rows that cannot see
10 %; a NEW run without a row (incomplete, exit 2). The rates are printed
as TAP comments either way. Plain Python, no numpy.
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
COMPARISONS = int(sys.argv[2]) if len(sys.argv) > 2 else 100
rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 50)
ROWS, RUNS = 64, 10
BASE = [20000 + 97 * k for k in range(ROWS)]

SHM = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
top = tempfile.mkdtemp(dir=SHM)


def result(run, name, short, info="", long=None, repeat=16, ops=1, ens=1):
    """one result directory of run: its cycles (and cycles_long) and info"""
    d = os.path.join(run, *name.replace(":", "/").split("/"))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "cycles"), "w") as f:
        f.write("".join("%d\n" % v for v in short))
    if long is not None:
        with open(os.path.join(d, "cycles_long"), "w") as f:
            f.write("".join("%d\n" % v for v in long))
        info += "long_repeat: %d\n" % repeat
    with open(os.path.join(d, "info"), "w") as f:
        f.write("name: %s\nops: %d\nstate: ok\nensembles: %d\nsamples: %d\nrun_id: 1\nmethod: paoloni\n%s"
                % (name, ops, ens, len(short) // ens, info))


def catalogue_run(path, sigma, change):
    """one run of the whole catalogue: row k at BASE[k] (1 + change[k]), spread sigma"""
    for k in range(ROWS):
        v = BASE[k] * (1 + change[k]) * math.exp(rnd.gauss(0, sigma))
        result(path, "sim:r%02d" % k, [round(v)])


def compare(base, new, *opts):
    p = subprocess.run([tool, "--format", "json", "-q", *opts, "compare", *base, "--", *new],
                       capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        j = {"fragments": [], "error": p.stderr.strip()}
    return j, p.returncode


def pool(cell, sigma, change, n):
    """n runs of the whole catalogue, each one tree"""
    out = []
    for i in range(n):
        out.append(os.path.join(top, cell, "r%03d" % i))
        catalogue_run(out[-1], sigma, change)
    return out


def rows(j):
    return {f["name"]: f for f in j["fragments"]}


def side(path, sigma, change, runs=None):
    """one side of a comparison: a tree whose every row holds RUNS ensembles
    of one sample, each a repetition (--ensembles), and with runs, the same
    figures as that many trees of one sample a row (the run-level input)"""
    vals = [[round(BASE[k] * (1 + change[k]) * math.exp(rnd.gauss(0, sigma))) for _ in range(RUNS)]
            for k in range(ROWS)]
    for k in range(ROWS):
        result(path, "sim:r%02d" % k, vals[k], ens=RUNS)
        for i in range(runs or 0):
            result("%s.%d" % (path, i), "sim:r%02d" % k, [vals[k][i]])
    return path


def verdicts(j):
    return [(f["name"], f["verdict"]) for f in j["fragments"]]


def both(cell, i, sigma, cb, cn, runs):
    """one comparison: the fast input (--ensembles), and every `runs`-th as runs as well"""
    a = side(os.path.join(top, cell, "a%d" % i), sigma, cb, RUNS if runs else None)
    b = side(os.path.join(top, cell, "b%d" % i), sigma, cn, RUNS if runs else None)
    j, rc = compare([a], [b], "--ensembles")
    same = True
    if runs:
        jr, rcr = compare(["%s.%d" % (a, k) for k in range(RUNS)], ["%s.%d" % (b, k) for k in range(RUNS)])
        same = verdicts(jr) == verdicts(j) and rcr == rc and len(jr["fragments"]) == ROWS
    shutil.rmtree(os.path.join(top, cell))
    return j, rc, same


try:
    # ---- A/A: false alarms per comparison, whatever the spread ----
    none = [0.0] * ROWS
    for sigma in (0.005, 0.02, 0.05, 0.20):
        cell = "aa%g" % (sigma * 100)
        alarms, exit1, bad, differ = 0, 0, [], 0
        for i in range(COMPARISONS):
            j, rc, same = both(cell, i, sigma, none, none, i < 2 and sigma >= 0.05)
            moved = [f["name"] for f in j["fragments"] if f["verdict"] in ("slower", "faster")]
            alarms += bool(moved)
            exit1 += rc == 1
            differ += not same
            if rc > 1 or len(j["fragments"]) != ROWS:
                bad.append("exit %d, %d rows: %s" % (rc, len(j["fragments"]), j.get("error", "")))
        limit = COMPARISONS * 5 // 100
        tap.point(not bad and alarms <= limit and exit1 <= limit,
                  "gate_sim:aa_sigma_%g_percent_false_alarms_at_most_5_in_100 (%d of %d, %d exit 1)"
                  % (sigma * 100, alarms, COMPARISONS, exit1),
                  bad[:3] or ["expected at most %d comparisons with a slower or faster row, got %d"
                              % (limit, alarms)])
        if sigma >= 0.05:
            tap.point(not differ, "gate_sim:aa_sigma_%g_percent_runs_decide_as_ensembles" % (sigma * 100),
                      "%d of 2 comparisons differ as runs" % differ)

    # ---- A/B: +10 % found where the spread is at most 2 % ----
    change = [0.10] * 4 + [0.05] * 4 + [0.0] * (ROWS - 8)
    for sigma in (0.005, 0.02):
        cell = "ab%g" % (sigma * 100)
        found, five, alarms, exit1, differ = 0, 0, 0, 0, 0
        for i in range(COMPARISONS):
            j, rc, same = both(cell, i, sigma, none, change, i < 2 and sigma >= 0.02)
            r = rows(j)
            found += sum(r.get("sim:r%02d" % k, {}).get("verdict") == "slower" for k in range(4))
            five += sum(r.get("sim:r%02d" % k, {}).get("verdict") == "slower" for k in range(4, 8))
            alarms += any(r.get("sim:r%02d" % k, {}).get("verdict") in ("slower", "faster")
                          for k in range(8, ROWS))
            exit1 += rc == 1
            differ += not same
        print("# sigma %g %%: +10 %% rows found slower %d of %d, +5 %% rows %d of %d; "
              "comparisons with an unchanged row moved %d of %d; exit 1 in %d"
              % (sigma * 100, found, 4 * COMPARISONS, five, 4 * COMPARISONS, alarms,
                 COMPARISONS, exit1))
        tap.point(found >= 0.95 * 4 * COMPARISONS and exit1 >= 0.95 * COMPARISONS,
                  "gate_sim:ab_sigma_%g_percent_finds_plus_10_percent_in_95_of_100 (%d of %d)"
                  % (sigma * 100, found, 4 * COMPARISONS),
                  "expected at least %d of %d, got %d (exit 1 in %d)"
                  % (math.ceil(0.95 * 4 * COMPARISONS), 4 * COMPARISONS, found, exit1))
        tap.point(alarms <= COMPARISONS * 5 // 100,
                  "gate_sim:ab_sigma_%g_percent_moves_no_unchanged_row (%d of %d)"
                  % (sigma * 100, alarms, COMPARISONS),
                  "expected at most %d comparisons with an unchanged row slower or faster, got %d"
                  % (COMPARISONS * 5 // 100, alarms))
        if sigma >= 0.02:
            tap.point(not differ, "gate_sim:ab_sigma_%g_percent_runs_decide_as_ensembles" % (sigma * 100),
                      "%d of 2 comparisons differ as runs" % differ)

    # ---- medians locked on a TSC step: a change under a step is inconclusive ----
    def stepped(mean, sd, s, n):
        out = []
        for _ in range(n):
            d = rnd.gauss(mean, sd) / s
            k = math.floor(d)
            out.append(s * (k + (rnd.random() < d - k)))
        return out

    side = {}
    for sd_, mean in (("b", 59.9), ("n", 64.8)):
        side[sd_] = []
        for i in range(RUNS):
            p = os.path.join(top, "step", sd_ + str(i))
            result(p, "time:tsc", stepped(mean, 3, 27, 200), "tsc_step: 27\n")
            side[sd_].append(p)
    j, rc = compare(side["b"], side["n"])
    f = j["fragments"][0]
    tap.point(f["base_median"] == 54 and f["new_median"] == 54 and f["verdict"] == "inconclusive" and rc == 0
              and f["change_lo"] <= -0.49 and f["change_hi"] >= 0.49,
              "gate_sim:medians_locked_on_a_step_are_inconclusive_not_same",
              "expected medians 54, inconclusive over at least +-one step (27/54), exit 0; got %s %s "
              "[%s, %s] (%s) exit %d" % (f["base_median"], f["verdict"], f["change_lo"], f["change_hi"],
                                         f["reason"], rc))
    # the same runs in a tree that says nothing of the step: the samples show it
    j2, rc2 = compare([os.path.join(p, "time", "tsc") for p in side["b"]],
                      [os.path.join(p, "time", "tsc") for p in side["n"]])
    tap.point(j2["fragments"][0]["verdict"] == "inconclusive" and rc2 == 0,
              "gate_sim:step_locked_result_directories_are_inconclusive_too",
              "got %s exit %d" % (j2["fragments"][0]["verdict"], rc2))

    # ---- exact counts with refills: no step, exact per op, exact verdicts ----
    def exact(path, per_op, v=1003, n=400):
        short = [v + (600 if i % 20 == 7 else 0) for i in range(n)]
        long = [v + 15 * per_op + (600 if i % 20 == 11 else 0) for i in range(n)]
        result(path, "alu:exact", short, long=long, ens=10)

    ex = {}
    for sd_, per_op in (("a", 100), ("a2", 100), ("b", 110)):
        ex[sd_] = []
        for i in range(RUNS):
            ex[sd_].append(os.path.join(top, "exact", sd_ + str(i)))
            exact(ex[sd_][-1], per_op)
    p = subprocess.run([tool, "--format", "json", ex["a"][0]], capture_output=True, text=True)
    g = json.loads(p.stdout)["inputs"][0]["fragments"][0]["cost"]["per_op"]
    tap.point(g["value"] == 100 and g["lo"] == 100 and g["hi"] == 100,
              "gate_sim:exact_counts_with_refills_are_exact_not_a_600_tick_step",
              "expected per op 100 [100, 100], got %s" % g)
    j, rc = compare(ex["a"], ex["a2"])
    f = j["fragments"][0]
    tap.point(f["verdict"] == "same" and rc == 0 and f["change"] == 0,
              "gate_sim:exact_counts_a_a_is_same", "got %s %s exit %d" % (f["verdict"], f["change"], rc))
    j, rc = compare(ex["a"], ex["b"])
    f = j["fragments"][0]
    tap.point(f["verdict"] == "slower" and rc == 1 and abs(f["change"] - 0.10) < 1e-9,
              "gate_sim:exact_counts_plus_10_percent_is_slower",
              "got %s %s exit %d" % (f["verdict"], f["change"], rc))

    # ---- 60 rows at 5 v 5: no p can pass 0.01 over 60 rows ----
    big = [0.5] + [0.0] * (ROWS - 1)
    a = pool("five/a", 0.005, none, 5)
    b = pool("five/b", 0.005, big, 5)
    j, rc = compare(a, b)
    f = rows(j)["sim:r00"]
    tap.point(f["verdict"] == "not enough runs" and f.get("min_detectable") == "none" and
              "need 8 " in f["reason"] and rc != 1 and f["p_value"] < 0.01 <= f.get("p_adjusted", 0),
              "gate_sim:five_runs_a_side_over_64_rows_cannot_decide_and_say_how_many",
              "expected not enough runs (need 8), sees none, not exit 1; got %s (%s), sees %s, p %s, "
              "adjusted %s, exit %d" % (f["verdict"], f["reason"], f.get("min_detectable"), f["p_value"],
                                        f.get("p_adjusted"), rc))
    # the same +50 % alone: a family of one, 5 v 5 decide it
    j, rc = compare([os.path.join(x, "sim", "r00") for x in a], [os.path.join(x, "sim", "r00") for x in b])
    tap.point(j["fragments"][0]["verdict"] == "slower" and rc == 1,
              "gate_sim:the_same_row_alone_at_five_runs_is_slower",
              "got %s exit %d" % (j["fragments"][0]["verdict"], rc))
    # the minimum detectable change, and the rows that cannot see 10 %
    mixed = []
    for i in range(2 * RUNS):
        mixed.append(os.path.join(top, "mixed", "r%d" % i))
        for k in range(ROWS):
            s_ = 0.005 if k % 2 else 0.08
            result(mixed[-1], "sim:r%02d" % k, [round(BASE[k] * math.exp(rnd.gauss(0, s_)))])
    j, rc = compare(mixed[:RUNS], mixed[RUNS:])
    bad = []
    for f in j["fragments"]:
        want = 0.02 + f["change_hi"] - f["change_lo"]
        if not isinstance(f.get("min_detectable"), float) or abs(f["min_detectable"] - want) > 1e-9:
            bad.append("%s: sees %s, want %.6g" % (f["name"], f.get("min_detectable"), want))
        elif f["verdict"] == "same" and f["min_detectable"] > 0.10:
            bad.append("%s: same but sees only %s" % (f["name"], f["min_detectable"]))
    blind = set(j.get("blind_to_10", []))
    want_blind = {f["name"] for f in j["fragments"] if isinstance(f.get("min_detectable"), float) and
                  f["min_detectable"] > 0.10}
    quiet = {f["name"] for f in j["fragments"] if int(f["name"][-2:]) % 2}
    tap.point(not bad and blind == want_blind and blind and not blind & quiet,
              "gate_sim:every_row_says_its_minimum_detectable_change (%d of %d blind to 10 %%)"
              % (len(blind), ROWS),
              bad[:3] + ["blind_to_10 %s, want %s" % (sorted(blind)[:4], sorted(want_blind)[:4])])
    p = subprocess.run([tool, "-q", "compare", *mixed[:RUNS], "--", *mixed[RUNS:]],
                       capture_output=True, text=True)
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("cannot see 10%:")]
    tap.point(len(line) == 1 and "sim:r00 (need" in line[0] and "sim:r01" not in p.stdout.split("cannot see")[1]
              and " sees " in p.stdout.splitlines()[2],
              "gate_sim:the_table_names_the_rows_that_cannot_see_10_percent",
              "got %s" % (line or p.stdout.splitlines()[:4]))

    # ---- a NEW run without a row, and too few left: incomplete, exit 2 ----
    a = pool("lack/a", 0.005, none, 5)
    b = pool("lack/b", 0.005, [0.5] + [0.0] * (ROWS - 1), 5)
    shutil.rmtree(os.path.join(b[2], "sim", "r00"))
    j, rc = compare(a, b)
    f = rows(j)["sim:r00"]
    tap.point(f["verdict"] == "incomplete" and rc == 2, "gate_sim:a_run_without_the_row_is_incomplete_exit_2",
              "got %s (%s) exit %d" % (f["verdict"], f["reason"], rc))
finally:
    shutil.rmtree(top)

sys.exit(tap.done())
