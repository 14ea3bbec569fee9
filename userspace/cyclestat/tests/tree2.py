#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A result tree of version 2 (docs/debugfs-contract.md), for the tests.

    tree2.py gen DIR [--run-id N] [--method M] [--scale F] [--seed S]

Writes a small deterministic tree: base:empty; calib:add_chain and
alu:add_dep with cycles_long (long_repeat 8, 0.75 ticks per core cycle);
alu:add_dep with core_cycles and instructions; loop:dec_jnz/ARG for
ARG = 0 1 2 4 100 110 (2 ticks per iteration, one spurious minimum at 4);
mem:chase/4096 with setup: ensemble; misc:gone skipped; sync:broken failed
with the previous run's data. --scale multiplies loop:dec_jnz/110's cost
(a doctored "new" side for compare tests).
"""
import os
import random
import sys

ENS, SIZE, R = 4, 25, 8
TICKS_PER_CYCLE = 0.75


def write(d, name, lines):
    with open(os.path.join(d, name), "w") as f:
        f.write("".join("%d\n" % x for x in lines))


def gen(top, run_id=1, method="paoloni", scale=1.0, seed=5):
    rnd = random.Random(seed)
    os.makedirs(top, exist_ok=True)
    with open(os.path.join(top, "info"), "w") as f:
        f.write("version: 0.2.0\nkernel: 6.1.0-test\nmodel_name: Test CPU\ntsc_khz: 2000000\n"
                "hypervisor: no\nmethod_requested: %s\nmethod_used: %s\nmode: kernel\n"
                "pmu: none (test tree)\nsamples: %d\nensembles: %d\ncpu: 0\n"
                % (method, method, SIZE, ENS))
    frags = []

    def frag(name, ops, short, long=None, extra="", state="ok", counters=False, arg=None):
        frags.append((name, ops))
        d = os.path.join(top, *name.replace(":", "/").split("/"))
        os.makedirs(d, exist_ok=True)
        info = "name: %s\ndescription: test %s\nops: %d\nslow: no\nstate: %s\n" % (name, name, ops, state)
        if state == "skipped":
            info += "reason: not on this CPU\n"
            open(os.path.join(d, "info"), "w").write(info)
            return
        if arg is not None:
            info += "arg: %d\n" % arg
        info += ("run_id: %d\nensembles: %d\nsamples: %d\nwarmup: 10\nmethod: %s\ncpu: 0\n"
                 "tsc_khz: 2000000\nsetup: %s\n" % (run_id, ENS, SIZE, method,
                                                    "ensemble" if "chase" in name else "none"))
        xs = [short(rnd) for _ in range(ENS * SIZE)]
        write(d, "cycles", xs)
        if long:
            info += "long_repeat: %d\n" % R
            write(d, "cycles_long", [long(rnd) for _ in range(ENS * SIZE)])
        if counters:
            write(d, "core_cycles", [int(x / TICKS_PER_CYCLE) for x in xs])
            write(d, "instructions", [3 + ops for _ in xs])
        open(os.path.join(d, "info"), "w").write(info + extra)

    noise = lambda r: r.choice((0, 0, 0, 1, 2, 9))  # noqa: E731
    frag("base:empty", 1, lambda r: 30 + noise(r))
    frag("calib:add_chain", 1000, lambda r: 30 + 750 + noise(r),
         lambda r: 30 + R * 750 + noise(r))
    frag("alu:add_dep", 4, lambda r: 30 + 3 + noise(r), lambda r: 30 + R * 3 + noise(r),
         counters=True)
    for a in (0, 1, 2, 4, 100, 110):
        cost = 2 * a * (scale if a == 110 else 1)
        frag("loop:dec_jnz/%d" % a, max(a, 1),
             lambda r, c=cost: int(31 + c + r.choice((0, 1, 1, 2, 5))), arg=a)
        if a == 4:
            # one sample of ensemble 0 below /2's minimum: a spurious minimum
            p = os.path.join(top, "loop", "dec_jnz", "4", "cycles")
            xs = open(p).read().split()
            xs[0] = "33"
            open(p, "w").write("".join(x + "\n" for x in xs))
    frag("mem:chase/4096", 512, lambda r: 30 + 2048 + r.randrange(40), arg=4096)
    frag("misc:gone", 1, None, state="skipped")
    frag("sync:broken", 1, lambda r: 60 + noise(r), state="failed")
    with open(os.path.join(top, "fragments"), "w") as f:
        for name, ops in frags:
            f.write("%s %d test %s\n" % (name, ops, name))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "gen":
        sys.exit(__doc__)
    args = sys.argv[3:]
    opt = dict(zip(args[::2], args[1::2]))
    gen(sys.argv[2], int(opt.get("--run-id", 1)), opt.get("--method", "paoloni"),
        float(opt.get("--scale", 1.0)), int(opt.get("--seed", 5)))
