#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""File-level call graph of each program, and its circles.

    tests/callgraph.py [--graph] [--tap] [--top DIR]

A file calls another when one of its functions calls (NAME(...)) a
function the other defines; a function pointer handed over (a callback)
is no call.  Each program is its own graph: the module (kmod/*.c, not its
fragments, and the files of lib/ its Kbuild compiles), cyclebench-user
(userspace/runner/*.c and the files of lib/ its Makefile compiles) and
cyclestat (userspace/cyclestat/*.c).  A circle is a set of two or more
files that reach each other through such calls (a strongly connected
component): the layers are then no layers, and a change in one file can
come back to it.  Exit 1 when any program has one, naming its files and
one call for each of their arrows.

A header's inline functions are its unit's: the .c file of its name in
the program, else the header itself, a file of the graph where its
functions are called (the folders of a program's files: their *.h).

The module's files are also in layers, written in kmod/internal.h's
first comment (the words ending in .c or .h after "highest first", up to
the first blank comment line): every file of the module is there, and
every call goes from a file to one below it.  Exit 1 when one does not,
naming the call.

--graph prints every program's arrows (FILE -> FILE: function, ...);
--tap writes a TAP line per program instead of the plain report.
--top DIR reads the tree at DIR (default: this checkout).

The C is read, not compiled: comments, strings and preprocessor lines are
dropped, a definition is NAME(...) { at the top level, a call NAME( inside
a body.  A static function of the same name in two files resolves to the
caller's own.
"""
import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# the files of each program (the lib/ files: Kbuild's objects, the
# runner's SRCS)
PROGRAMS = {
    "module": lambda: sorted(glob.glob("kmod/*.c")) + module_lib(),
    "cyclebench-user": lambda: sorted(glob.glob("userspace/runner/*.c")) + runner_lib(),
    "cyclestat": lambda: sorted(glob.glob("userspace/cyclestat/*.c")),
}

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else",
            "case", "typeof", "__typeof__", "__attribute__", "defined",
            "_Alignof", "alignof", "_Static_assert", "asm", "__asm__",
            "volatile", "__volatile__", "goto"}


def module_lib():
    """The lib/*.c files Kbuild compiles into the module (lib/NAME.o)."""
    text = open("Kbuild").read()
    return sorted(set("lib/" + m + ".c" for m in re.findall(r"\blib/(\w+)\.o\b", text)))


def runner_lib():
    """The lib/*.c files userspace/runner/Makefile's SRCS names."""
    text = open("userspace/runner/Makefile").read()
    m = re.search(r"^SRCS\s*=(.*(?:\\\n.*)*)", text, re.M)
    words = m.group(1).replace("\\\n", " ").split() if m else []
    return sorted("lib/" + w.split("/")[-1] for w in words if w.startswith("$(LIB)/"))


def strip(src):
    """C without comments, string and char literals, preprocessor lines."""
    src = re.sub(r"\\\n", " ", src)
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * src.count("\n", i, j))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "\n".join(l for l in "".join(out).split("\n")
                     if not l.lstrip().startswith("#"))


TOKEN = re.compile(r"[A-Za-z_]\w*|\S")


def scan(path):
    """(functions defined, {caller: set of names called})."""
    toks = TOKEN.findall(strip(open(path).read()))
    defs, calls = set(), {}
    depth, paren, cur = 0, 0, None
    last_name, last_close = None, False
    for k, t in enumerate(toks):
        if depth == 0:
            if t == "(":
                if paren == 0 and k and re.match(r"[A-Za-z_]", toks[k - 1]):
                    last_name = toks[k - 1]
                paren += 1
            elif t == ")":
                paren -= 1
                last_close = paren == 0
            elif t == "{":
                # NAME(...) { or NAME(...) __attribute__((...)) {
                if last_close and last_name and paren == 0:
                    cur = last_name
                    defs.add(cur)
                    calls.setdefault(cur, set())
                else:
                    cur = None
                depth = 1
                last_name, last_close = None, False
            elif t in (";", "="):
                last_name, last_close = None, False
            elif paren == 0 and t != "__attribute__" and t not in ("const",):
                # anything but attributes between ) and { ends a declarator
                if last_close and not re.match(r"[A-Za-z_]", t):
                    last_close = False
        else:
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    cur = None
            elif t == "(" and cur and k and re.match(r"[A-Za-z_]", toks[k - 1]) \
                    and toks[k - 1] not in KEYWORDS:
                calls[cur].add(toks[k - 1])
    return defs, calls


def headers(files):
    """The headers beside a program's files (their folders' *.h): their
    inline functions are code of the program too."""
    return sorted(set(h for d in set(os.path.dirname(f) for f in files)
                      for h in glob.glob(os.path.join(d, "*.h"))))


def unit(h, files):
    """A header's unit: the .c of its name among the files, else itself."""
    c = h[:-2] + ".c"
    return c if c in files else h


def graph(files):
    """{file: {file: set of callee names}}, arrows between distinct files.
    A header's inline functions count as its unit's (unit())."""
    scanned = {}
    for f in files + headers(files):
        defs, calls = scan(f)
        u = unit(f, files) if f.endswith(".h") else f
        d0, c0 = scanned.setdefault(u, (set(), {}))
        d0 |= defs
        for k, v in calls.items():
            c0.setdefault(k, set()).update(v)
    owner = {}
    for f, (defs, _) in scanned.items():
        for d in defs:
            owner.setdefault(d, []).append(f)
    g = {f: {} for f in scanned}
    for f, (defs, calls) in scanned.items():
        for caller, names in calls.items():
            for name in names:
                if name in defs or name not in owner:
                    continue
                for to in owner[name]:
                    g[f].setdefault(to, set()).add(name)
    # a header is a node where its functions are called, or call
    called = set(to for a in g.values() for to in a)
    return {f: a for f, a in g.items() if not f.endswith(".h") or a or f in called}


def circles(g):
    """Strongly connected components of two or more files (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


# the program whose layers are written down, and where
LAYERS = {"module": "kmod/internal.h"}


def layers(path):
    """The file names (basenames) of PATH's layer list, highest first."""
    text = open(path).read()
    start = text.index("highest")
    block = text[start:].split("\n *\n", 2)
    return re.findall(r"\b([\w-]+\.[ch])\b", block[1] if len(block) > 1 else "")


def against_layers(prog, g):
    """A message per file missing from the layers or call up them."""
    path = LAYERS[prog]
    order = layers(path)
    rank = {name: i for i, name in enumerate(order)}
    bad = [f"{f} is not in {path}'s layers: add it where its calls put it"
           for f in sorted(g) if os.path.basename(f) not in rank]
    for f in sorted(g):
        for to in sorted(g[f]):
            a, b = rank.get(os.path.basename(f)), rank.get(os.path.basename(to))
            if a is not None and b is not None and a >= b:
                bad.append(f"{f} calls {to} ({sorted(g[f][to])[0]}), a layer above"
                           f" it in {path}: move the function down, or pass it as a callback")
    return bad


def main():
    top = sys.argv[sys.argv.index("--top") + 1] if "--top" in sys.argv else TOP
    os.chdir(top)
    show = "--graph" in sys.argv
    tap = "--tap" in sys.argv
    bad = 0
    for prog, files in PROGRAMS.items():
        g = graph(files())
        if show:
            print(f"# {prog}")
            for f in sorted(g):
                for to in sorted(g[f]):
                    print(f"{f} -> {to}: {', '.join(sorted(g[f][to]))}")
        if prog in LAYERS:
            up = against_layers(prog, g)
            if tap:
                print(("not ok" if up else "ok") +
                      f" - {prog}: every call points down {LAYERS[prog]}'s layers" +
                      "".join(f"; {m}" for m in up))
            else:
                for m in up:
                    print(f"{prog}: {m}", file=sys.stderr)
            bad += bool(up)
        found = circles(g)
        if not found:
            if tap:
                print(f"ok - {prog}: no call circle between its {len(g)} files")
            continue
        bad += 1
        why = []
        for comp in found:
            arrows = [f"{f} -> {to} ({sorted(g[f][to])[0]})"
                      for f in comp for to in sorted(g[f]) if to in comp]
            why.append(f"{{{', '.join(comp)}}}: " + "; ".join(arrows))
        msg = (f"{prog}: a call circle between files: " + " | ".join(why) +
               " - move the function to the layer it belongs to, or pass it as a callback")
        print(f"not ok - {msg}" if tap else msg, file=sys.stdout if tap else sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
