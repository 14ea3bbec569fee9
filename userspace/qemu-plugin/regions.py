#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The timed regions of a cyclebench module, as cbcount.so reads them.

usage: regions.py MODULE.ko > REGIONS

One line a region: START STOP FRAGMENT METHOD REGION, START the offset in
the module's .text of the region's start RDTSC (the one after CPUID or
LFENCE in cb_short_TAG_NAME or cb_long_TAG_NAME), STOP of the first
RDTSC(P) after the body's end label (cb_be_N, cb_le_N: include/cyclebench/harness.h),
as tests/kmod/regions.py reads a region; FRAGMENT group:name from the
module's .note.cyclebench, METHOD the method's name, REGION short or
long.  Bodies the compiler folded into one function (mem:chase and
mem:chase_huge) share a line: FRAGMENT names them all, joined by '+'.
Exit status: 0, 1 when a region function has no region, 2 on a usage
error or unreadable input.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import cbnote  # noqa: E402
from cbnote import TAGS, REGION_FN  # noqa: E402

END = re.compile(r"^cb_(be|le)_\d+$")


def die(msg, code=2):
    print("regions.py: " + msg, file=sys.stderr)
    sys.exit(code)


def run(cmd):
    return cbnote.run(cmd, die)


def listed(ko):
    """body identifier -> group:name (scripts/cbnote.py)."""
    try:
        return cbnote.listed(ko)
    except OSError as e:
        die("objdump failed: %s" % e)


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        die("usage: regions.py MODULE.ko")
    ko = sys.argv[1]
    names = listed(ko)
    funcs, ends, starts = {}, [], set()
    for line in run(["objdump", "-t", "-j", ".text", ko]).splitlines():
        f = line.split()
        if len(f) < 5 or not re.fullmatch(r"[0-9a-f]{8,16}", f[0]):
            continue
        at, sym = int(f[0], 16), f[-1]
        if "F" in f[1:-3]:
            starts.add(at)
        m = REGION_FN.match(sym)
        if m:
            funcs.setdefault(at, []).append(m.groups())
            starts.add(at)
        elif END.match(sym):
            ends.append(at)
    if not funcs:
        die("%s: no region functions (cb_short_*, cb_long_*) in .text" % ko, 1)
    insns = []
    pat = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)")
    for line in run(["objdump", "-d", "--no-show-raw-insn", "-j", ".text", ko]).splitlines():
        m = pat.match(line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2)))
    ends.sort()
    bounds = sorted(starts)
    out, bad = [], 0
    for at, groups in sorted(funcs.items()):
        nxt = next((b for b in bounds if b > at), float("inf"))
        body = [(a, op) for a, op in insns if at <= a < nxt]
        start = next((body[i][0] for i in range(1, len(body))
                      if body[i][1] == "rdtsc" and body[i - 1][1] in ("cpuid", "lfence")), None)
        end = next((e for e in ends if start is not None and start < e < nxt), None)
        stop = next((a for a, op in body if end is not None and a >= end
                     and op in ("rdtsc", "rdtscp")), None)
        kind, tag, _ = groups[0]
        frag = "+".join(sorted({names.get(g[2], "?:" + g[2]) for g in groups}))
        if stop is None:
            print("regions.py: %s %s %s: no start timestamp, end label and stop timestamp found"
                  % (frag, TAGS[tag], kind), file=sys.stderr)
            bad = 1
            continue
        out.append("%x %x %s %s %s" % (start, stop, frag, TAGS[tag], kind))
    print("# START STOP FRAGMENT METHOD REGION (offsets in .text of %s)" % ko.split("/")[-1])
    print("\n".join(out))
    sys.exit(bad)


if __name__ == "__main__":
    main()
