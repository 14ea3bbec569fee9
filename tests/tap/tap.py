# SPDX-License-Identifier: GPL-2.0
"""tap.py - the Python test harness: one TAP point per check, the plan
last, as tests/tap/tap.sh and tap.h print them; tests/tap/count counts.

    import tap
    tap.point(ok, "name", ["why it failed", ...])
    tap.skip("name", "why")
    sys.exit(tap.done())
"""
import sys

_n = 0
_failed = 0


def point(ok, name, why=()):
    """ok N - NAME, or not ok N - NAME then each line of WHY as a comment"""
    global _n, _failed
    _n += 1
    _failed += not ok
    # '#' escaped (a bare one starts a directive: "# TODO" passes a
    # failure), newlines folded: one point, one line
    print("%s %d - %s" % ("ok" if ok else "not ok", _n,
                          name.replace("#", "\\#").replace("\n", "|")))
    if not ok:
        for w in ([why] if isinstance(why, str) else why):
            print("#   " + w.replace("\n", "|"))
    sys.stdout.flush()


def skip(name, why):
    global _n
    _n += 1
    print("ok %d - %s # SKIP %s" % (_n, name, why))


def done():
    """the plan; the exit status, 1 on a failure"""
    print("1..%d" % _n)
    return 1 if _failed else 0
