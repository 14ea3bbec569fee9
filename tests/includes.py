#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Who may include what: the layout's rule, checked on every #include "...".

    tests/includes.py [--tap] [--top DIR]

The folders by audience (README.md, Layout), each resting on those above:

  include/cyclebench/  the wire contract          includes only itself
                       the author's API           the contract, itself
  lib/                 what no program owns       include/
  kmod/                the module                 include/, lib/
  userspace/runner/    cyclebench-user            include/, lib/
  userspace/cyclestat/ cyclestat                  the contract, lib/
  userspace/qemu-plugin/ cbcount.so, cbmark       the contract

The author's API is cyclebench.h and what it is made of (harness.h,
timing.h, portable.h), with kmod/fragments/: the module and
cyclebench-user both compile the fragments.  A quoted include is found
as the compiler finds it (the including file's folder, then the -I
folders its build gives, in the order above); one found outside what
its folder may include, or not found at all, or with ".." in its name,
is a violation; a header the build makes (GENERATED) counts as found in
its folder.  Tests (*/tests/, tests/, a fuzzer) may include
anything.  Exit 1 on a violation, naming the file, its line and the
rule.
"""
import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTRACT = "include/cyclebench"
API = {CONTRACT + "/" + h for h in ("cyclebench.h", "harness.h", "timing.h", "portable.h")}

# folder: (the -I folders its build searches, what it may include); the
# contract's own files (include/ but the API) may include only each other
RULES = {
    CONTRACT: ([], {CONTRACT, "api"}),
    "lib": ([CONTRACT], {CONTRACT, "lib", "api"}),
    "kmod": (["kmod", "lib", CONTRACT], {CONTRACT, "lib", "kmod", "api"}),
    "kmod/fragments": (["kmod", "lib", CONTRACT], {CONTRACT, "lib", "api"}),
    "userspace/runner": ([CONTRACT, "lib"], {CONTRACT, "lib", "api", "userspace/runner"}),
    "userspace/cyclestat": ([CONTRACT, "lib"], {CONTRACT, "lib", "userspace/cyclestat"}),
    "userspace/qemu-plugin": ([CONTRACT], {CONTRACT, "userspace/qemu-plugin"}),
}

# headers a build makes, so absent from a clean tree: the Makefile's rule
GENERATED = {"userspace/cyclestat/hostknobs.h"}


def kind(path):
    """What a found file counts as: the author's API, or its folder."""
    if path in API:
        return "api"
    return os.path.dirname(path)


def check(top):
    bad = []
    n = 0
    for folder, (search, may) in RULES.items():
        for f in sorted(glob.glob(os.path.join(top, folder, "*.[ch]"))):
            rel = os.path.relpath(f, top)
            # the API rests on the contract alone, the contract on itself
            allowed = {CONTRACT, "api"} if rel in API else {CONTRACT} if folder == CONTRACT else may
            for ln, line in enumerate(open(f, encoding="utf-8", errors="replace"), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                n += 1
                name = m.group(1)
                if ".." in name.split("/"):
                    bad.append(f"{rel}:{ln}: #include \"{name}\" reaches out with '..': "
                               "include by name, with the folder in the build's -I")
                    continue
                found = None
                for d in [folder] + search:
                    if os.path.exists(os.path.join(top, d, name)) or \
                            os.path.join(d, name) in GENERATED:
                        found = os.path.normpath(os.path.join(d, name))
                        break
                if found is None:
                    bad.append(f"{rel}:{ln}: #include \"{name}\" is in none of {folder}/ "
                               f"{' '.join(s + '/' for s in search)}")
                elif kind(found) not in allowed and not (folder == "kmod/fragments" and kind(found) == folder):
                    bad.append(f"{rel}:{ln}: #include \"{name}\" is {found}: {rel} may include "
                               f"{', '.join(sorted(x if x == 'api' else x + '/' for x in allowed))}"
                               " ('api': include/cyclebench/cyclebench.h and its parts)")
    return n, bad


def main():
    args = sys.argv[1:]
    top = args[args.index("--top") + 1] if "--top" in args[:-1] else TOP
    n, bad = check(top)
    if "--tap" in args:
        if bad:
            print(f"not ok - includes: {len(bad)} of {n} against the layout: " + "; ".join(bad))
        else:
            print(f"ok - includes: all {n} within the layout (tests/includes.py --help)")
    else:
        for b in bad:
            print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    if "--help" in sys.argv[1:] or "-h" in sys.argv[1:]:
        print(__doc__.strip())
        sys.exit(0)
    sys.exit(main())
