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
result is slower, 2 when a side has no counts or a malformed line (with
the file and line), else 0.
"""
from fractions import Fraction
import glob
import os
import sys

from perop import COLUMNS, die


def judged(c):
    """whether counter C makes a result slower or faster: not the
    instructions (the clock's table judges them) nor an access count
    (loads and stores again)"""
    return c != "insns" and not c.endswith("-acc")


def side(d):
    """{result: [figures of each run]}, the model, the runs, the
    counters (the columns' headings)"""
    runs, model, out, cols = sorted(glob.glob(os.path.join(d, "mem*.txt"))), "", {}, None
    for path in runs:
        with open(path) as f:
            mine = None
            for n, line in enumerate(f, 1):
                w = line.split()
                if not w:
                    continue
                if line.startswith(COLUMNS):
                    mine = w[2:]
                    if cols not in (None, mine):
                        die("%s:%d: columns %s, where the side's first run has %s" %
                            (path, n, " ".join(mine), " ".join(cols)), "abmem.py")
                    cols = mine
                    continue
                if w[0] == "#":
                    model = line[2:].strip()
                    continue
                if mine is None or len(w) != 1 + len(mine):
                    die("%s:%d: want RESULT and a figure for each of the '%s...' line before it: %s"
                        % (path, n, COLUMNS.strip(), line.strip()), "abmem.py")
                out.setdefault(w[0], []).append([Fraction(x) for x in w[1:]])
    return out, model, len(runs), cols or []


def fig(x):
    return "%.3f" % x


def main():
    if len(sys.argv) != 3:
        print("usage: abmem.py A_DIR B_DIR", file=sys.stderr)
        return 2
    (a, model, na, counters), (b, _, nb, cb) = side(sys.argv[1]), side(sys.argv[2])
    if not na or not nb:
        print("abmem.py: %s has no run's counts (mem*.txt): was it measured with MEM=1?" %
              sys.argv[1 if not na else 2], file=sys.stderr)
        return 2
    if counters != cb:
        print("abmem.py: A's columns are %s, B's %s: count both sides with one cbcount.so" %
              (" ".join(counters), " ".join(cb)), file=sys.stderr)
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
                     for i, c in enumerate(counters)
                     if len({x[i] for x in a[r] + b[r]}) > 1]
            notes.append("%s: its runs differ in %s (%s): not judged" %
                         (r, " and ".join(varies), ", ".join(lo_hi)))
            continue
        fa, fb = a[r][0], b[r][0]
        moved = [(c, fa[i], fb[i]) for i, c in enumerate(counters) if fa[i] != fb[i]]
        if not moved:
            same.append(r)
            continue
        up = any(judged(c) and y > x for c, x, y in moved)
        down = any(judged(c) and y < x for c, x, y in moved)
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
