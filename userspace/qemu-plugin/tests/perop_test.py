#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perop.py on counts whose per-op figures are known: two results of one
fragment told apart by ARG in one dump, a fragment without one, a line
the plugin wrote before arguments were named ("-"), the --tree lines of
a result tree (make ab MEM=1's), --save's memory files (make run
MEM=1's), and bad input refused with the file and
line; abmem.py (make ab MEM=1's table) on two sides whose counts are
known.  TAP."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "tap"))
import tap  # noqa: E402

PEROP = os.path.join(HERE, "..", "perop.py")
ABMEM = os.path.join(HERE, "..", "abmem.py")

# long - short per run: (R - 1) x ops x the per-op figure; R 8, ops 4:
# chase/4096: 1 load an op, no miss; chase/65536: 1 load and 1 L1D miss
# an op; alu:add_dep: 1 insn an op and nothing else
COUNTS = """\
# cbcount: 6 regions, l1d 32K:8:64, l1i 32K:8:64, l2 1M:16:64, data addresses physical, first 10 runs a region left out
# ID FRAGMENT METHOD REGION ARG N INSNS LOADS STORES L1D_ACC L1D_MISS L1I_ACC L1I_MISS L2_ACC L2_MISS
# headings insns loads stores L1D-acc L1D-miss - L1I-miss - L2-miss
1 mem:chase paoloni short 4096 10 100 40 0 40 0 100 0 0 0
1 mem:chase paoloni long 4096 10 380 320 0 320 0 380 0 0 0
1 mem:chase paoloni short 65536 5 50 20 0 20 20 50 0 20 0
1 mem:chase paoloni long 65536 5 190 160 0 160 160 190 0 160 0
1 alu:add_dep+alu:add_dep_copy paoloni short 0 4 40 0 0 0 0 40 0 0 0
1 alu:add_dep+alu:add_dep_copy paoloni long 0 4 152 0 0 0 0 152 0 0 0
1 end
2 alu:add_dep paoloni short - 2 20 0 0 0 0 20 0 0 0
2 alu:add_dep paoloni long - 2 76 0 0 0 0 76 0 0 0
2 end
"""


def run(*args, prog=PEROP):
    p = subprocess.run([sys.executable, prog] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def rows(out):
    return {w[0] + " " + w[1]: w[2:] for w in (line.split() for line in out.splitlines())
            if w and not w[0].startswith("#")}


def info(d, name, ops, state="ok"):
    os.makedirs(d)
    with open(os.path.join(d, "info"), "w") as f:
        f.write("name: %s\nops: %d\nstate: %s\nmethod: paoloni\nlong_repeat: 8\n" % (name, ops, state))


with tempfile.TemporaryDirectory() as t:
    counts = os.path.join(t, "counts")
    with open(counts, "w") as f:
        f.write(COUNTS)
    runs = os.path.join(t, "runs")
    with open(runs, "w") as f:
        f.write("1 mem:chase/4096 paoloni 4 8\n1 mem:chase/65536 paoloni 4 8 28\n"
                "1 alu:add_dep paoloni 4 8\n1 alu:add_dep_copy paoloni 4 8\n2 alu:add_dep paoloni 4 8\n")
    rc, out, err = run("--exact", counts, runs)
    r = rows(out)
    tap.point(rc == 0, "perop.py --exact: exit 0", err)
    # insns loads stores l1d_acc l1d_miss l1i_acc l1i_miss l2_acc l2_miss [ticks]
    tap.point(r.get("mem:chase/4096 paoloni") == "1 1 0 1 0 1 0 0 0".split(),
              "one dump, two ARGs of one fragment: chase/4096's own counts", out)
    tap.point(r.get("mem:chase/65536 paoloni") == "1 1 0 1 1 1 0 1 0 1".split(),
              "chase/65536's own counts, an L1D and L2 access a miss, and TICKS per op", out)
    tap.point(out.count("alu:add_dep paoloni 1 0 0 0 0 1 0 0 0") == 2,
              "a fragment without ARG: its ARG 0 in a named dump, '-' in a dump before names", out)
    tap.point("alu:add_dep_copy paoloni 1 0 0 0 0 1 0 0 0" in out,
              "regions joined by regions.py (a+b) count for each", out)

    tree = os.path.join(t, "tree")
    info(os.path.join(tree, "mem", "chase", "4096"), "mem:chase/4096", 4)
    info(os.path.join(tree, "mem", "chase", "65536"), "mem:chase/65536", 4)
    info(os.path.join(tree, "alu", "add_dep"), "alu:add_dep", 4)
    info(os.path.join(tree, "alu", "imul_dep"), "alu:imul_dep", 4)
    info(os.path.join(tree, "alu", "gone"), "alu:gone", 4, state="failed")
    info(os.path.join(tree, "loop", "slow"), "loop:slow", 4)
    with open(os.path.join(tree, "loop", "slow", "info"), "w") as f:
        f.write("name: loop:slow\nops: 4\nstate: ok\nmethod: paoloni\n")
    rc, out, err = run("--tree", tree, "--dump", "1", counts)
    lines = out.splitlines()
    tap.point(rc == 0 and lines[0].startswith("# l1d 32K:8:64, l1i 32K:8:64, l2 1M:16:64")
              and lines[1] == "# columns: insns loads stores L1D-acc L1D-miss L1I-miss L2-miss"
              and "mem:chase/65536 1 1 0 1 1 0 0" in lines and "alu:add_dep 1 0 0 0 0 0 0" in lines,
              "--tree: the model as a comment, the headings, the 7 figures a result as fractions",
              out + err)
    tap.point(not any(x.startswith(("alu:imul_dep", "alu:gone")) for x in lines),
              "--tree: a result the dump did not count, or failed, has no line", out)
    rc2, out2, _ = run("--tree", tree, counts)
    tap.point(rc2 == 0 and "alu:add_dep 1 0 0 0 0 0 0" in out2 and "mem:chase/4096" not in out2,
              "--tree without --dump: the last dump", out2)
    rc, out, err = run("--tree", tree, "--dump", "7", counts)
    tap.point(rc == 2 and "no dump 7" in err, "--tree: a dump that is not there: exit 2, said", err)

    # --save: the sums beside each counted result, in contract.h's names
    rc, out, err = run("--save", tree, "--dump", "1", "--source", "CACHE=", counts)
    mem = os.path.join(tree, "mem", "chase", "65536", "memory")
    got = open(mem).read().splitlines() if os.path.exists(mem) else []
    tap.point(rc == 0 and got[:3] == ["model: l1d 32K:8:64, l1i 32K:8:64, l2 1M:16:64, data addresses "
                                      "physical, first 10 runs a region left out",
                                      "source: CACHE=", "runs: 5 5"]
              and "l1d_miss: 20 160" in got and "insns: 50 190" in got,
              "--save: the model, its source, the runs and each sum, short then long", "\n".join(got) + err)
    tap.point(not os.path.exists(os.path.join(tree, "alu", "imul_dep", "memory"))
              and not os.path.exists(os.path.join(tree, "loop", "slow", "memory")) and not err,
              "--save: a result the dump did not count, or a slow one (no long_repeat), gets no file", err)
    contract = open(os.path.join(HERE, "..", "..", "..", "include", "cyclebench", "contract-mem.h")).read()
    table = re.findall(r'^CB_MEM\((\w+), (NULL|"[^"]+")\)$', contract, re.M)
    names = [n for n, _ in table]
    tap.point(len(names) == 9 and [line.split(":")[0] for line in got[3:]] == names,
              "--save: the counts' names are the header's, contract-mem.h's", str(names))
    heads = " ".join(h.strip('"') if h != "NULL" else "-" for _, h in table)
    tap.point("# headings " + heads + "\n" in COUNTS,
              "the test's header heads the counts as contract-mem.h does", heads)

    with open(counts, "a") as f:
        f.write("3 mem:chase paoloni short 10 1 2 3\n")
    rc, out, err = run("--exact", counts, runs)
    tap.point(rc == 2 and "counts:14: a line of 8 words, want 15" in err,
              "a malformed line: exit 2 with the file and line", err)

    with open(counts, "w") as f:
        f.write(COUNTS.replace(" L2-miss\n", "\n"))
    rc, out, err = run("--tree", tree, "--dump", "1", counts)
    tap.point(rc == 2 and "counts:4: 8 headings for 9 counts" in err,
              "--tree: a header with a heading too few: exit 2 with the file and line", err)

    with open(counts, "w") as f:
        f.write(COUNTS.replace("# headings", "# head"))
    rc, out, err = run("--tree", tree, "--dump", "1", counts)
    tap.point(rc == 2 and "no '# headings...' line" in err and "make -C userspace/qemu-plugin" in err,
              "--tree: counts without the line of headings: exit 2, how to make them again", err)

    with open(counts, "w") as f:
        f.write(COUNTS.replace("# ID FRAGMENT", "# IDS"))
    rc, out, err = run("--exact", counts, runs)
    tap.point(rc == 2 and "counts:4: a count before the header that names them" in err,
              "counts without the header that names them: exit 2 with the file and line", err)

    # make ab MEM=1: two sides of runs
    cols = "# columns: insns loads stores L1D-acc L1D-miss L1I-miss L2-miss\n"

    def sides(a, b, cols_b=cols):
        for name, runs in (("A", a), ("B", b)):
            d = os.path.join(t, "ab", name)
            os.makedirs(d, exist_ok=True)
            for k, lines in enumerate(runs, 1):
                with open(os.path.join(d, "mem%d.txt" % k), "w") as f:
                    f.write("# l1d 32K:8:64\n" + (cols if name == "A" else cols_b) +
                            "".join(x + "\n" for x in lines))
        return run(os.path.join(t, "ab", "A"), os.path.join(t, "ab", "B"), prog=ABMEM)

    same = "alu:add_dep 1 0 0 0 0 0 0"
    rc, out, err = sides([[same, "x:s 4 1 0 1 0 0 0"]] * 2, [[same, "x:s 4 1 0 1 1 0 0"]] * 2)
    tap.point(rc == 1 and "x:s L1D-miss 0.000 1.000 +1.000 slower".split() in
              [line.split() for line in out.splitlines()]
              and "every counter: alu:add_dep" in out and out.endswith("memory: slower (x:s)\n"),
              "abmem.py: a miss more an op: its row, slower, exit 1; the others named the same", out + err)
    rc, out, err = sides([[same, "x:s 4 1 0 1 1 0 0"]] * 2, [[same, "x:s 4 1 0 1 1/2 0 0"]] * 2)
    tap.point(rc == 0 and "+-0.500" not in out and "-0.500  faster" in out and "memory: faster" in out,
              "abmem.py: half the misses: faster, exit 0", out + err)
    rc, out, err = sides([[same, "x:s 4 1 0 1 0 0 0"], [same, "x:s 4 1 0 1 1/4 0 0"]],
                         [[same, "x:s 4 1 0 1 0 0 0"]] * 2)
    tap.point(rc == 0 and "(x:s: its runs differ in A (L1D-miss 0.000..0.250): not judged)" in out,
              "abmem.py: runs of a side that differ: named with their range, not judged", out + err)
    rc, out, err = sides([[same]] * 2, [[same, "y:new 1 0 0 0 0 0 0"]] * 2)
    tap.point(rc == 0 and "(y:new: in B only)" in out, "abmem.py: a result of one side: named", out)
    rc, out, err = sides([[same]] * 2, [["alu:add_dep 1 0 0 0 0 0"]] * 2,
                         cols_b=cols.replace(" L2-miss", ""))
    tap.point(rc == 2 and "A's columns are" in err and "one cbcount.so" in err,
              "abmem.py: sides counted with other columns: exit 2, said", err)
    rc, out, err = sides([[same]] * 2, [[same]] * 2, cols_b="")
    tap.point(rc == 2 and "B/mem1.txt:2: want RESULT and a figure for each" in err,
              "abmem.py: a run without its columns' line: exit 2 with the file and line", err)
    shutil.rmtree(os.path.join(t, "ab"))
    os.makedirs(os.path.join(t, "ab", "A"))
    os.makedirs(os.path.join(t, "ab", "B"))
    rc, out, err = run(os.path.join(t, "ab", "A"), os.path.join(t, "ab", "B"), prog=ABMEM)
    tap.point(rc == 2 and "has no run's counts" in err and "MEM=1" in err,
              "abmem.py: a side without counts: exit 2, with the likely cause", err)

sys.exit(tap.done())
