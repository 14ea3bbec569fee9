#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-op figures from cbcount.so's counts, by the cycles' two-length
differencing: (long - short) / ((R - 1) x ops), each region's counts
averaged over its runs.

usage: perop.py [--exact] COUNTS RUNS
       perop.py --tree TREE [--dump ID] [--exact] COUNTS

COUNTS: what cbcount.so wrote (out=).  RUNS: a line a result, "ID RESULT
METHOD OPS R [TICKS]": the ID of the dump that holds it, the result
(group:name[/ARG]), its method, ops and long_repeat, and optionally its
long - short TSC delta (under -icount shift=0, instructions).  A dump may
hold several results: the module names each ensemble's ARG to the plugin
(0 for a fragment without one), and a result's counts are its fragment's
regions' with its ARG.  Prints a
line a result: RESULT METHOD, then per op INSNS LOADS STORES L1D_ACC
L1D_MISS L1I_ACC L1I_MISS L2_ACC L2_MISS, and, where RUNS gave TICKS,
TICKS per op; each to 6 decimals, or with --exact as a fraction in
lowest terms (1, 0, 257/256, -3/440).

--tree: a table of every result of TREE (a result tree: each result's
info names it, its method, ops and long_repeat) that dump ID (default: the
last) counted, per op to 3 decimals, under a line naming the cache model
the plugin ran with; a result the dump did not count is named below it
(make run MEM=1).  With --exact: the model line as a "# " comment, then
a line a result, "RESULT" and the 7 figures as fractions (make ab's).

Exit status: 0, 1 when a result has no short or long region counted, 2 on
a usage error or unreadable input.
"""
import os
from fractions import Fraction
import sys

COLUMNS = "insns loads stores l1d_acc l1d_miss l1i_acc l1i_miss l2_acc l2_miss".split()


def die(msg):
    print("perop.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_counts(path):
    """COUNTS: {(ID, FRAGMENT, METHOD, REGION, ARG): (N, sums)}, the
    dump IDs in order, and the plugin's line naming its model"""
    counts, dumps, model = {}, [], ""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            if w[0] == "#":
                if line.startswith("# cbcount: ") and " regions, " in line:
                    model = line.split(" regions, ", 1)[1].strip()
                continue
            if w[1] == "end":
                dumps.append(w[0])
                continue
            if len(w) != 6 + len(COLUMNS):
                die("%s:%d: a line of %d words, want %d: %s" %
                    (path, n, len(w), 6 + len(COLUMNS), line.strip()))
            for frag in w[1].split("+"):
                counts[(w[0], frag, w[2], w[3], w[4])] = (int(w[5]), [int(x) for x in w[6:]])
    return counts, dumps, model


def per_op(counts, rid, result, method, ops, rep):
    """RESULT's figures per op in dump RID, or a reason it has none"""
    frag, _, arg = result.partition("/")

    def region(kind):
        return counts.get((rid, frag, method, kind, arg or "0"),
                          counts.get((rid, frag, method, kind, "-")))
    s, lg = region("short"), region("long")
    if not s or not lg or not s[0] or not lg[0]:
        return "no %s region counted" % ("short" if not s else "long")
    den = (rep - 1) * ops
    return [(Fraction(lg[1][i], lg[0]) - Fraction(s[1][i], s[0])) / den
            for i in range(len(COLUMNS))]


def tree_results(tree):
    """each ok result of TREE: (name, method, ops, long_repeat), by name"""
    out = []
    for d, _, files in sorted(os.walk(tree)):
        if "info" not in files or d == tree:
            continue
        k = {}
        with open(os.path.join(d, "info")) as f:
            for line in f:
                key, sep, v = line.partition(": ")
                if sep:
                    k[key] = v.strip()
        if k.get("state") != "ok" or "name" not in k:
            continue
        try:
            out.append((k["name"], k["method"], int(k["ops"]), int(k["long_repeat"])))
        except (KeyError, ValueError):
            die("%s/info: no method, ops or long_repeat" % d)
    return sorted(out)


# the columns --tree shows: COUNTS's name, the table's heading
SHOWN = [("insns", "insns"), ("loads", "loads"), ("stores", "stores"), ("l1d_acc", "L1D-acc"),
         ("l1d_miss", "L1D-miss"), ("l1i_miss", "L1I-miss"), ("l2_miss", "L2-miss")]
HEADS = [h for _, h in SHOWN]
PICK = [COLUMNS.index(c) for c, _ in SHOWN]


def table(args):
    exact = "--exact" in args
    if exact:
        args = [a for a in args if a != "--exact"]
    if len(args) not in (2, 4) or (len(args) == 4 and args[1] != "--dump"):
        die("usage: perop.py --tree TREE [--dump ID] [--exact] COUNTS")
    tree, path = args[0], args[-1]
    try:
        counts, dumps, model = read_counts(path)
        results = tree_results(tree)
    except OSError as e:
        die(str(e))
    rid = args[2] if len(args) == 4 else (dumps[-1] if dumps else None)
    if rid not in dumps:
        die("%s: no dump %s (cbmark dump ID writes one)" % (path, rid or "at all"))
    rows, missed = [], []
    for name, method, ops, rep in results:
        fig = per_op(counts, rid, name, method, ops, rep)
        if isinstance(fig, str):
            missed.append(name)
        else:
            rows.append((name, [fig[i] for i in PICK]))
    if not rows:
        die("%s: dump %s counted no result of %s" % (path, rid, tree))
    if exact:
        print("# " + model)
        for name, fig in rows:
            print(name, " ".join(str(x) for x in fig))
        return 0
    w = max(len(r[0]) for r in rows)
    print("per op, exact: the QEMU plugin cbcount.so in the timed regions; %s" % model)
    print("%-*s %s" % (w, "fragment", " ".join("%9s" % h for h in HEADS)))
    for name, fig in rows:
        print("%-*s %s" % (w, name, " ".join("%9.3f" % x for x in fig)))
    if missed:
        print("(not counted: %s)" % ", ".join(missed))
    return 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--tree":
        sys.exit(table(args[1:]))
    exact = bool(args) and args[0] == "--exact"
    if exact:
        args = args[1:]
    if len(args) != 2:
        die("usage: perop.py [--exact] COUNTS RUNS")
    try:
        counts = read_counts(args[0])[0]
        runs = [line.split() for line in open(args[1]) if line.strip()]
    except OSError as e:
        die(str(e))
    bad = 0
    print("# result method  per op: " + " ".join(COLUMNS) + " [ticks]")
    for r in runs:
        if len(r) not in (5, 6):
            die("%s: want ID RESULT METHOD OPS R [TICKS]: %s" % (args[1], " ".join(r)))
        fig = per_op(counts, r[0], r[1], r[2], int(r[3]), int(r[4]))
        if isinstance(fig, str):
            print("perop.py: %s (dump %s, %s): %s" % (r[1], r[0], r[2], fig), file=sys.stderr)
            bad = 1
            continue
        if len(r) == 6:
            fig.append(Fraction(int(r[5]), (int(r[4]) - 1) * int(r[3])))
        print(r[1], r[2], " ".join(str(x) if exact else "%.6f" % x for x in fig))
    sys.exit(bad)


if __name__ == "__main__":
    main()
