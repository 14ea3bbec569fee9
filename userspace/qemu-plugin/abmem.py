#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make ab MEM=1's memory table: each side's runs (perop.py --tree's
memK.txt in A/ and B/), per op, exactly, side by side.

usage: abmem.py A_DIR B_DIR

A result's counts are the same in every run of a side under icount (a
result whose runs differ is named, with its range, and judged on no
counter).  A row a counter that moved: A, B, B - A per op; a result
whose loads, stores or misses per op grew is slower, one whose only
fell is faster, as make ab judges instructions.  Exit status 1 when a
result is slower, 2 when a side has no counts, else 0.
"""
from fractions import Fraction
import glob
import os
import sys

from perop import HEADS as COUNTERS  # perop.py --tree's columns
# what makes a result slower or faster (instructions are the clock's table's)
JUDGED = ["loads", "stores", "L1D-miss", "L1I-miss", "L2-miss"]


def side(d):
    """{result: [figures of each run]}, the model, the runs"""
    runs, model, out = sorted(glob.glob(os.path.join(d, "mem*.txt"))), "", {}
    for path in runs:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                w = line.split()
                if not w:
                    continue
                if w[0] == "#":
                    model = line[2:].strip()
                    continue
                if len(w) != 1 + len(COUNTERS):
                    sys.exit("abmem.py: %s:%d: want RESULT and %d figures: %s" %
                             (path, n, len(COUNTERS), line.strip()))
                out.setdefault(w[0], []).append([Fraction(x) for x in w[1:]])
    return out, model, len(runs)


def fig(x):
    return "%.3f" % x


def main():
    if len(sys.argv) != 3:
        print("usage: abmem.py A_DIR B_DIR", file=sys.stderr)
        return 2
    (a, model, na), (b, _, nb) = side(sys.argv[1]), side(sys.argv[2])
    if not na or not nb:
        print("abmem.py: %s has no run's counts (mem*.txt): was it measured with MEM=1?" %
              sys.argv[1 if not na else 2], file=sys.stderr)
        return 2
    print("per op, exact, %d run%s of A and %d of B: %s" % (na, "s" * (na > 1), nb, model))
    rows, same, verdicts, notes = [], [], {}, []
    for r in sorted(set(a) | set(b)):
        if r not in a or r not in b:
            notes.append("%s: in %s only" % (r, "A" if r in a else "B"))
            continue
        varies = [s for s, runs in (("A", a[r]), ("B", b[r])) if any(x != runs[0] for x in runs)]
        if varies:
            lo_hi = ["%s %s..%s" % (c, fig(min(x[i] for x in a[r] + b[r])),
                                    fig(max(x[i] for x in a[r] + b[r])))
                     for i, c in enumerate(COUNTERS)
                     if len({x[i] for x in a[r] + b[r]}) > 1]
            notes.append("%s: its runs differ in %s (%s): not judged" %
                         (r, " and ".join(varies), ", ".join(lo_hi)))
            continue
        fa, fb = a[r][0], b[r][0]
        moved = [(c, fa[i], fb[i]) for i, c in enumerate(COUNTERS) if fa[i] != fb[i]]
        if not moved:
            same.append(r)
            continue
        up = any(c in JUDGED and y > x for c, x, y in moved)
        down = any(c in JUDGED and y < x for c, x, y in moved)
        v = "slower" if up else "faster" if down else "same"
        verdicts[r] = v
        for c, x, y in moved:
            rows.append((r, c, fig(x), fig(y), "%+.3f" % (y - x), v))
    if rows:
        w = max(len(r[0]) for r in rows)
        print("%-*s %-9s %10s %10s %10s  %s" % (w, "fragment", "counter", "A", "B", "B - A", "verdict"))
        for r in rows:
            print("%-*s %-9s %10s %10s %10s  %s" % (w, *r))
    print("the same in A and B, every counter: %s" % (", ".join(same) if same else "none"))
    for n in notes:
        print("(%s)" % n)
    slower = sorted(r for r, v in verdicts.items() if v == "slower")
    print("memory: %s" % ("slower (%s)" % ", ".join(slower) if slower else
                          "faster" if "faster" in verdicts.values() else "same"))
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
