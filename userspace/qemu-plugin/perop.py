#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-op figures from cbcount.so's counts, by the cycles' two-length
differencing: (long - short) / ((R - 1) x ops), each region's counts
averaged over its runs.

usage: perop.py [--exact] COUNTS RUNS
       perop.py --tree TREE [--dump ID] COUNTS
       perop.py --save TREE [--dump ID] [--source TEXT] COUNTS

COUNTS: what cbcount.so wrote (out=); its header names the counts and
their headings in a table, "-" for a count a table leaves out
(include/cyclebench/contract-mem.h).  RUNS: a line a result, "ID RESULT METHOD
OPS R [TICKS]": the ID of the dump that holds it, the result
(group:name[/ARG]), its method, ops and long_repeat, and optionally its
long - short TSC delta (under -icount shift=0, instructions).  A dump may
hold several results: the module names each ensemble's ARG to the plugin
(0 for a fragment without one), and a result's counts are its fragment's
regions' with its ARG.  Prints a line a result: RESULT METHOD, then per op
each count, and, where RUNS gave TICKS, TICKS per op; each to 6 decimals,
or with --exact as a fraction in lowest terms (1, 0, 257/256, -3/440).

--tree: each result of TREE (a result tree: each result's info names it,
its method, ops and long_repeat) that dump ID (default: the last)
counted (a slow one, which has no long region, never is), exactly: the
cache model as a "# " comment, the headings as "# columns: ...", then a
line a result, "RESULT" and the figures of the counts a table shows,
which make ab MEM=1 compares (abmem.py).

--save: the same results' sums into the tree, a memory file beside each
one's info (contract.h's CB_FILE_MEMORY), for cyclestat to show; TEXT
says where the model came from (make run MEM=1: CACHE= or this host's
caches); cyclestat names the results that have none.

Exit status: 0, 1 when a result has no short or long region counted, 2 on
a usage error or unreadable input.
"""
import os
from fractions import Fraction
import sys

# the plugin's header lines, before the names of its counts and before
# their headings; --tree's line of its columns' headings
HEADER = "# ID FRAGMENT METHOD REGION ARG N "
HEADINGS = "# headings "
COLUMNS = "# columns: "


def die(msg, prog="perop.py"):
    print(prog + ": " + msg, file=sys.stderr)
    sys.exit(2)


def read_counts(path):
    """COUNTS: {(ID, FRAGMENT, METHOD, REGION, ARG): (N, sums)}, the
    dump IDs in order, the plugin's line naming its model, the names of
    the sums (its header's) and their headings ("-": a table leaves it
    out)"""
    counts, dumps, model, names, heads = {}, [], "", None, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            if w[0] == "#":
                if line.startswith("# cbcount: ") and " regions, " in line:
                    model = line.split(" regions, ", 1)[1].strip()
                elif line.startswith(HEADER):
                    names = [x.lower() for x in line[len(HEADER):].split()]
                elif line.startswith(HEADINGS):
                    heads = line[len(HEADINGS):].split()
                continue
            if names is None:
                die("%s:%d: a count before the header that names them (%s...)" %
                    (path, n, HEADER.strip()))
            if heads and len(heads) != len(names):
                die("%s:%d: %d headings for %d counts (%s...): not one cbcount.so's header" %
                    (path, n, len(heads), len(names), HEADINGS.strip()))
            if len(w) == 2 and w[1] == "end":
                dumps.append(w[0])
                continue
            if len(w) != 6 + len(names):
                die("%s:%d: a line of %d words, want %d: %s" %
                    (path, n, len(w), 6 + len(names), line.strip()))
            try:
                sums = (int(w[5]), [int(x) for x in w[6:]])
            except ValueError:
                die("%s:%d: a count that is not a number: %s" % (path, n, line.strip()))
            for frag in w[1].split("+"):
                counts[(w[0], frag, w[2], w[3], w[4])] = sums
    return counts, dumps, model, names or [], heads


def regions(counts, rid, result, method):
    """RESULT's (short, long) sums in dump RID, or a reason it has none"""
    frag, _, arg = result.partition("/")

    def region(kind):
        return counts.get((rid, frag, method, kind, arg or "0"),
                          counts.get((rid, frag, method, kind, "-")))
    s, lg = region("short"), region("long")
    if not s or not lg or not s[0] or not lg[0]:
        return "no %s region counted" % ("short" if not s else "long")
    return s, lg


def per_op(counts, rid, result, method, ops, rep):
    """RESULT's figures per op in dump RID, or a reason it has none"""
    r = regions(counts, rid, result, method)
    if isinstance(r, str):
        return r
    s, lg = r
    den = (rep - 1) * ops
    return [(Fraction(lg[1][i], lg[0]) - Fraction(s[1][i], s[0])) / den
            for i in range(len(s[1]))]


def tree_results(tree):
    """each ok result of TREE with two lengths: (name, method, ops,
    long_repeat, its directory), by name (a slow fragment times no long
    region: it has no long_repeat, and no per-op counts)"""
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
        if k.get("state") != "ok" or "name" not in k or "long_repeat" not in k:
            continue
        try:
            out.append((k["name"], k["method"], int(k["ops"]), int(k["long_repeat"]), d))
        except (KeyError, ValueError):
            die("%s/info: no method or ops, or a long_repeat that is no number" % d)
    return sorted(out)


def tree_args(args, opts):
    """TREE, the dump's ID, the counts and each option of OPTS given
    ([--dump ID] [--OPT VALUE] ... COUNTS after TREE)"""
    if len(args) < 2 or len(args) % 2:
        return None
    got = dict(zip(args[1:-1:2], args[2:-1:2]))
    if any(k not in ("--dump",) + opts for k in got):
        return None
    tree, path = args[0], args[-1]
    try:
        counts, dumps, model, names, heads = read_counts(path)
        results = tree_results(tree)
    except OSError as e:
        die(str(e))
    rid = got.get("--dump", dumps[-1] if dumps else None)
    if rid not in dumps:
        die("%s: no dump %s (cbmark dump ID writes one)" % (path, rid or "at all"))
    return tree, path, counts, rid, model, names, heads, results, got


def table(args):
    a = tree_args(args, ())
    if not a:
        die("usage: perop.py --tree TREE [--dump ID] COUNTS")
    tree, path, counts, rid, model, _, heads, results, _ = a
    pick = [i for i, h in enumerate(heads) if h != "-"]
    if not pick:
        die("%s: no '%s...' line that heads the counts a table shows (from a cbcount.so"
            " older than perop.py? make -C userspace/qemu-plugin, and count again)"
            % (path, HEADINGS.strip()))
    rows = []
    for name, method, ops, rep, _ in results:
        fig = per_op(counts, rid, name, method, ops, rep)
        if not isinstance(fig, str):
            rows.append((name, [fig[i] for i in pick]))
    if not rows:
        die("%s: dump %s counted no result of %s" % (path, rid, tree))
    print("# " + model)
    print(COLUMNS + " ".join(heads[i] for i in pick))
    for name, fig in rows:
        print(name, " ".join(str(x) for x in fig))
    return 0


def save(args):
    a = tree_args(args, ("--source",))
    if not a:
        die("usage: perop.py --save TREE [--dump ID] [--source TEXT] COUNTS")
    tree, path, counts, rid, model, names, _, results, got = a
    saved = 0
    for name, method, _, _, d in results:
        r = regions(counts, rid, name, method)
        if isinstance(r, str):
            continue
        s, lg = r
        with open(os.path.join(d, "memory"), "w") as f:
            f.write("model: %s\n" % model)
            if "--source" in got:
                f.write("source: %s\n" % got["--source"])
            f.write("runs: %d %d\n" % (s[0], lg[0]))
            for i, n in enumerate(names):
                f.write("%s: %d %d\n" % (n, s[1][i], lg[1][i]))
        saved += 1
    if not saved:
        die("%s: dump %s counted no result of %s" % (path, rid, tree))
    return 0


def main():
    args = sys.argv[1:]
    if args and args[0] == "--tree":
        sys.exit(table(args[1:]))
    if args and args[0] == "--save":
        sys.exit(save(args[1:]))
    exact = bool(args) and args[0] == "--exact"
    if exact:
        args = args[1:]
    if len(args) != 2:
        die("usage: perop.py [--exact] COUNTS RUNS")
    try:
        counts, _, _, names, _ = read_counts(args[0])
        runs = [line.split() for line in open(args[1]) if line.strip()]
    except OSError as e:
        die(str(e))
    bad = 0
    print("# result method  per op: " + " ".join(names) + " [ticks]")
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
