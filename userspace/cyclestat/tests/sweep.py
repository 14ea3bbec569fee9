#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A sweep=cpus directory (docs/debugfs-contract.md), for the tests.

    sweep.py gen DIR

Steps k = 1, 2, 4 on CPUs 0-3, each a tree of version 2 with the per-CPU
arrays (cpuN/cycles, cpuN/cycles_long), long_repeat 8, 0.75 TSC ticks per
core cycle on every CPU (calib:add_chain, 64 adds).  Known costs per op,
in core cycles: contend:shared 8 x k on every CPU; contend:private 4 on
every CPU, but 8 on cpu3 at k = 4 (the one a reader must flag).  Each
sample is the exact figure plus 0..2 ticks of noise, seeded.
"""
import os
import random
import sys

ENS, SIZE, R = 6, 25, 8
TICKS_PER_CYCLE = 0.75
CPUS = [0, 1, 2, 3]


def write(d, name, xs):
    with open(os.path.join(d, name), "w") as f:
        f.write("".join("%d\n" % x for x in xs))


def cost(name, k, cpu):
    """core cycles per op"""
    if name == "calib:add_chain":
        return 1
    if name == "contend:shared":
        return 8 * k
    return 8 if (k == 4 and cpu == 3) else 4


def ops(name):
    return 64 if name == "calib:add_chain" else 1


def step(top, k, rnd):
    cpus = CPUS[:k]
    os.makedirs(top, exist_ok=True)
    head = ("version: 0.2.0\nkernel: 6.1.0-test\nmodel_name: Test CPU\ntsc_khz: 2000000\n"
            "hypervisor: no\nmethod_requested: paoloni\nmethod_used: paoloni\nmode: user\n"
            "samples: %d\nensembles: %d\ncpu: 0\n" % (SIZE, ENS))
    if k > 1:
        head += "cpus: %s\n" % ",".join(map(str, cpus))
    open(os.path.join(top, "info"), "w").write(head)
    names = ["calib:add_chain", "contend:shared", "contend:private"]
    with open(os.path.join(top, "fragments"), "w") as f:
        f.write("".join("%s %d test %s\n" % (n, ops(n), n) for n in names))
    for n in names:
        d = os.path.join(top, *n.split(":"))
        os.makedirs(d, exist_ok=True)
        info = ("name: %s\ndescription: test %s\nops: %d\nslow: no\nsetup: none\nstate: ok\n"
                "run_id: 1\nensembles: %d\nsamples: %d\nwarmup: 10\nmethod: paoloni\ncpu: 0\n"
                % (n, n, ops(n), ENS, SIZE))
        if k > 1:
            info += ("cpus: %s\nbarrier: sample\nstart_spread: 40\nsamples_in_step: %d\n"
                     "state_per_cpu: no\n" % (",".join(map(str, cpus)), ENS * SIZE))
        info += "tsc_khz: 2000000\ntsc_step: 1\ninterleave: no\nlong_repeat: %d\n" % R
        open(os.path.join(d, "info"), "w").write(info)
        for cpu in cpus:
            extra = round((R - 1) * ops(n) * cost(n, k, cpu) * TICKS_PER_CYCLE)
            short = [200 + rnd.randint(0, 2) for _ in range(ENS * SIZE)]
            long = [200 + extra + rnd.randint(0, 2) for _ in range(ENS * SIZE)]
            for where in ([d] if cpu == cpus[0] else []) + ([os.path.join(d, "cpu%d" % cpu)] if k > 1 else []):
                os.makedirs(where, exist_ok=True)
                write(where, "cycles", short)
                write(where, "cycles_long", long)


def gen(top):
    rnd = random.Random(7)
    os.makedirs(top, exist_ok=True)
    steps = [1, 2, 4]
    for k in steps:
        step(os.path.join(top, "k%d" % k), k, rnd)
    open(os.path.join(top, "info"), "w").write(
        "version: 0.2.0\nkernel: 6.1.0-test\ntsc_khz: 2000000\nmode: user\ncpu: 0\n"
        "cpus: 0,1,2,3\nsweep: cpus\nsteps: %s\n" % ",".join(map(str, steps)))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "gen":
        sys.exit("usage: sweep.py gen DIR")
    gen(sys.argv[2])
