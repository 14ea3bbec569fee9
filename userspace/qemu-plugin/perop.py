#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-op figures from cbcount.so's counts, by the cycles' two-length
differencing: (long - short) / ((R - 1) x ops), each region's counts
averaged over its runs.

usage: perop.py [--exact] COUNTS RUNS

COUNTS: what cbcount.so wrote (out=).  RUNS: a line a dump, "ID RESULT
METHOD OPS R [TICKS]": the dump's ID, the result it measured
(group:name[/ARG]), its method, ops and long_repeat, and optionally its
long - short TSC delta (under -icount shift=0, instructions).  Prints a
line a result: RESULT METHOD, then per op INSNS LOADS STORES L1D_ACC
L1D_MISS L1I_ACC L1I_MISS L2_ACC L2_MISS, and, where RUNS gave TICKS,
TICKS per op; each to 6 decimals, or with --exact as a fraction in
lowest terms (1, 0, 257/256, -3/440).  Exit status: 0, 1 when a result has no
short or long region counted, 2 on a usage error or unreadable input.
"""
from fractions import Fraction
import sys

COLUMNS = "insns loads stores l1d_acc l1d_miss l1i_acc l1i_miss l2_acc l2_miss".split()


def die(msg):
    print("perop.py: " + msg, file=sys.stderr)
    sys.exit(2)


def main():
    args = sys.argv[1:]
    exact = bool(args) and args[0] == "--exact"
    if exact:
        args = args[1:]
    if len(args) != 2:
        die("usage: perop.py [--exact] COUNTS RUNS")
    sys.argv[1:] = args
    counts = {}
    try:
        with open(sys.argv[1]) as f:
            for line in f:
                w = line.split()
                if not w or w[0].startswith("#") or w[1] == "end":
                    continue
                if len(w) != 5 + len(COLUMNS):
                    die("%s: a line of %d words: %s" % (sys.argv[1], len(w), line.strip()))
                for frag in w[1].split("+"):
                    counts[(w[0], frag, w[2], w[3])] = (int(w[4]), [int(x) for x in w[5:]])
        runs = [line.split() for line in open(sys.argv[2]) if line.strip()]
    except OSError as e:
        die(str(e))
    bad = 0
    print("# result method  per op: " + " ".join(COLUMNS) + " [ticks]")
    for r in runs:
        if len(r) not in (5, 6):
            die("%s: want ID RESULT METHOD OPS R [TICKS]: %s" % (sys.argv[2], " ".join(r)))
        rid, result, method, ops, rep = r[0], r[1], r[2], int(r[3]), int(r[4])
        frag = result.split("/")[0]
        s = counts.get((rid, frag, method, "short"))
        lg = counts.get((rid, frag, method, "long"))
        if not s or not lg or not s[0] or not lg[0]:
            print("perop.py: %s (dump %s, %s): no %s region counted" %
                  (result, rid, method, "short" if not s else "long"), file=sys.stderr)
            bad = 1
            continue
        den = (rep - 1) * ops
        fig = [(Fraction(lg[1][i], lg[0]) - Fraction(s[1][i], s[0])) / den
               for i in range(len(COLUMNS))]
        if len(r) == 6:
            fig.append(Fraction(int(r[5]), den))
        print(result, method, " ".join(str(x) if exact else "%.6f" % x for x in fig))
    sys.exit(bad)


if __name__ == "__main__":
    main()
