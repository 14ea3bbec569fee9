#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a cyclebench module's object code and check every timed region.

usage: regions.py [--table FILE] [--repeat R] MODULE.ko SOURCE.c...

MODULE.ko may be any relocatable object that holds the fragment files'
code: the module, or fragment objects joined with `ld -r` (make check's
own tests of this checker).

CB_BODY() gives each fragment NAME, per method TAG (p paoloni, l lfence,
pn paoloni-nordtscp, ln lfence-nordtscp, cn cpuid-nordtscp), two region
functions, cb_short_TAG_NAME and cb_long_TAG_NAME, and cb_bodyref_NAME,
the body alone.  Zero-size labels mark the body: cb_bb_/cb_be_ (short region),
cb_lb_/cb_le_ (long region, cb_lc_ between its copies), cb_rb_/cb_re_
(reference).  A region opens at the start RDTSC (after CPUID or LFENCE)
and closes at the next RDTSC(P) after the body.

What must hold, and what is said when it does not (one line a problem,
naming the fragment as group:name, the region, the method, the
instruction and the fix):
  - outside the body, only the protocol: at most 4 instructions, no call,
    return, push, pop or stack access but the start timestamp's 2 stores;
  - the short region holds exactly the reference's instructions (the same
    mnemonics, in order, each operand of the same kind: register, memory,
    immediate or target; the registers themselves may differ, but a memory
    operand is the same only with the same displacement and base: the
    state pointer %r15, %rip, the stack, or any other register; a stack
    slot's displacement is the frame's, which differs from function to
    function);
  - the long region holds R copies, each the short region's instructions
    (every copy that differs is named: a load that a copy shares with the
    one before it becomes a register move, the same mnemonic; a stack
    access that one body lacks is named as a spill, as in the short one);
  - no body is empty but base:empty's (an empty one was deleted);
  - no body is folded, whatever its source looks like (C, raw asm
    barriers, a wrapper macro): judged from the object code, a body whose
    work depends on no input, nothing but immediate moves (and zeroing
    xors) and stores of them, was computed at build time; nor does a
    straight one hold fewer instructions than its table line declares
    (.insns);
  - every body's CB_BODY() or CB_BODY_STATE() line is found in the sources
    (at the start of a line, as the table's checks need it): one made by a
    wrapper macro is a problem, named by its group:name from the module's
    .note.cyclebench;
  - no body calls a kernel function known to sleep (msleep, mutex_lock,
    schedule_timeout, vmalloc, ...: SLEEPERS below);
  - no two bodies share a C name, in one group or two (each body's
    sampler and regions are named after it alone).
A problem around a body whose asm clobbers %r15, %rbp or %rsp (registers
the harness keeps) names that clobber as its cause.
A body that calls out-of-line code of a kernel option (CONFIG_DEBUG_LIST's
__list_add_valid, KCOV, ftrace) gets a "note:" line, not a problem: that
code is timed with it; and a problem of such a body names the option as
its cause, since around the call the compiler places the body's values as
it likes, per copy.

--table FILE writes one line a region:
  FRAGMENT METHOD REGION COPIES INSNS VERDICT STRAIGHT
(REGION short|long; COPIES 1 or R; INSNS the body's instructions, all
copies together; VERDICT clean or the problems' kinds, comma-separated;
STRAIGHT yes when the body has no jump, call, return, rep prefix or nop
(an alternative's padding, patched at load), so that it executes exactly
INSNS instructions: tests/e2e/icount.sh then
asserts long - short = (R - 1) x INSNS / COPIES under QEMU's icount).
Exit status: 0 clean, 1 problems, 2 usage or unreadable input.
"""
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import cbnote  # noqa: E402
from cbnote import TAGS, REGION_FN  # noqa: E402

MARK = re.compile(r"^cb_(bb|be|lb|le|lc|rb|re)_\d+$")
# calls a kernel option puts into C code, out of line
OPTION_CALLS = {
    "__list_add_valid": "CONFIG_DEBUG_LIST",
    "__list_del_entry_valid": "CONFIG_DEBUG_LIST",
    "__list_add_valid_or_report": "CONFIG_DEBUG_LIST",
    "__list_del_entry_valid_or_report": "CONFIG_DEBUG_LIST",
    "__sanitizer_cov_trace_pc": "CONFIG_KCOV",
    "__fentry__": "ftrace (a function not marked notrace)",
}
# kernel functions that may sleep, which a body (interrupts off) must not
# call: found by name, from the call's relocation; the list is what a body
# is likely to reach for, not every sleeping function (kmalloc(GFP_KERNEL)
# cannot be told from kmalloc(GFP_ATOMIC) here: the debug lane's
# DEBUG_ATOMIC_SLEEP and the module's run-time check see those)
SLEEPERS = set("""
msleep msleep_interruptible ssleep usleep_range_state schedule
schedule_timeout schedule_timeout_interruptible schedule_timeout_killable
schedule_timeout_uninterruptible schedule_hrtimeout_range io_schedule
mutex_lock mutex_lock_interruptible mutex_lock_killable mutex_lock_nested
down down_interruptible down_killable down_read down_write
wait_for_completion wait_for_completion_timeout
wait_for_completion_interruptible wait_for_completion_killable
__might_sleep __might_resched __cond_resched vmalloc vzalloc vfree
synchronize_rcu synchronize_net rcu_barrier flush_work cancel_work_sync
_copy_from_user _copy_to_user kthread_stop
""".split())


def die(msg):
    print("regions.py: " + msg, file=sys.stderr)
    sys.exit(2)


def run(cmd):
    return cbnote.run(cmd, die)


def body_source(text, at):
    """The C between the braces of the body whose CB_BODY() line ends at
    @at (comments already out)."""
    i = text.find("{", at)
    if i < 0:
        return ""
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1:j]
    return text[i + 1:]


def declared_insns(text):
    """body -> (insns, insns_per_arg), where its table line declares them
    (CB_FRAGMENT_INSNS(), CB_FRAGMENT_INSNS_UNIT() or .insns = N after CB_FRAGMENT_FIELDS())."""
    out = {}
    for m in re.finditer(r"CB_FRAGMENT_INSNS(?:_UNIT\(\s*(\w+)\s*,[^,]+,\s*\"[^\"]*\"|\(\s*(\w+)\s*,[^,]+)"
                         r"\s*,\s*(\d+)\s*,", text):
        out[m.group(1) or m.group(2)] = (int(m.group(3)), 0)
    for m in re.finditer(r"CB_FRAGMENT_FIELDS\(\s*(\w+)\s*,", text):
        entry = text[m.end():]
        end = re.search(r"CB_FRAGMENT|^\};", entry, re.M)
        entry = entry[:end.start()] if end else entry
        n = re.search(r"\.insns\s*=\s*\(?\s*(\d+)", entry)
        per = re.search(r"\.insns_per_arg\s*=\s*\(?\s*(\d+)", entry)
        if n:
            out[m.group(1)] = (int(n.group(1)), int(per.group(1)) if per else 0)
    return out


class Body:
    """What the source says of one body: its first definition's group:name,
    every definition [(group:name, file)], the registers its asm clobbers
    that the harness needs, and its declared instructions (None: not
    declared)."""

    def __init__(self):
        self.defs, self.clobbers, self.insns = [], [], None

    @property
    def name(self):
        return self.defs[0][0]


# the registers the harness keeps for itself inside a region (harness.h:
# the state pointer in %r15, the frame and stack pointers)
HARNESS_REGS = ("r15", "rbp", "rsp")


def read_bodies(sources):
    """(body identifier -> Body, file name without .c -> (group, path)),
    from the sources' CB_BODY() lines and tables; a body defined twice is
    named by its first definition."""
    bodies, files = {}, {}
    for path in sources:
        try:
            text = open(path).read()
        except OSError as e:
            die("%s: %s" % (path, e.strerror))
        text = re.sub(r"//[^\n]*", " ", re.sub(r"/\*.*?\*/", " ", text, flags=re.S))
        g = re.search(r"^CB_(?:PORTABLE_)?GROUP\((\w+),", text, re.M)
        group = g.group(1) if g else "?"
        files[re.sub(r"\.c$", "", path.rsplit("/", 1)[-1])] = (group, path)
        insns = declared_insns(text)
        for m in re.finditer(r"^CB_BODY(?:_STATE)?\((\w+)[^\n]*", text, re.M):
            b = bodies.setdefault(m.group(1), Body())
            b.defs.append(("%s:%s" % (group, m.group(1)), path))
            if len(b.defs) > 1:
                continue
            src = body_source(text, m.end())
            b.clobbers = [r for r in HARNESS_REGS if re.search(r'"%%?%s"' % r, src)]
            b.insns = insns.get(m.group(1))
    return bodies, files


def listed(ko):
    """body identifier -> group:name (scripts/cbnote.py)."""
    try:
        return cbnote.listed(ko)
    except OSError as e:
        die("objdump failed: %s" % e)


def symbols(ko):
    """(section, address) -> [names], for text symbols and marks."""
    at = {}
    for line in run(["objdump", "-t", ko]).splitlines():
        f = line.split()
        if len(f) < 5 or not re.fullmatch(r"[0-9a-f]{8,16}", f[0]):
            continue
        name, sect = f[-1], f[-3]
        if not sect.startswith(".text") and not sect.startswith(".noinstr"):
            continue
        at.setdefault((sect, int(f[0], 16)), []).append(name)
    return at


def functions(ko, at):
    """name -> [(address, mnemonic, operands, marks at that address)]."""
    funcs, cur, sect = {}, None, None
    insn = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
    reloc = re.compile(r"^\s*[0-9a-f]+:\s+R_X86_64_\w+\s+([\w.]+)")
    for line in run(["objdump", "-dr", "--no-show-raw-insn", ko]).splitlines():
        if line.startswith("Disassembly of section "):
            sect = line[len("Disassembly of section "):].rstrip(":")
            continue
        r = reloc.match(line)
        if r:
            # a call's target in a module is a relocation: name it
            # (__list_add_valid, a thunk), unless it is one of our marks
            for f in cur or []:
                a, op, rest, marks = funcs[f][-1]
                if op.startswith(("call", "jmp")) and not MARK.match(r.group(1)):
                    funcs[f][-1] = (a, op, r.group(1), marks)
            continue
        m = insn.match(line)
        if not m or sect is None:
            continue
        addr = int(m.group(1), 16)
        names = at.get((sect, addr), [])
        fn = [n for n in names if not MARK.match(n)]
        if fn:
            # two bodies alike (mem:chase, mem:chase_huge) may share one
            # function (the compiler folds identical code): each name gets it
            cur = fn
            for f in fn:
                funcs.setdefault(f, [])
        if cur is None:
            continue
        op = m.group(2)
        rest = m.group(3).split("#")[0].strip()
        if op in ("rep", "repz", "repnz", "lock", "notrack", "bnd", "ds", "cs"):
            parts = rest.split(None, 1)
            if parts:
                op = op + " " + parts[0]
                rest = parts[1] if len(parts) > 1 else ""
        if op.startswith(("call", "jmp")) and re.match(r"[0-9a-f]+ <cb_\w+_\d+", rest):
            rest = "(a target the loader fills in)"
        for f in cur:
            funcs[f].append((addr, op, rest, [n for n in names if MARK.match(n)]))
    return funcs


def kinds(marks):
    return [MARK.match(n).group(1) for n in marks]


def reference(insns):
    """The instructions between cb_rb_ and cb_re_."""
    out, inside = [], False
    for _, op, arg, marks in insns:
        k = kinds(marks)
        if "re" in k:
            inside = False
        if "rb" in k:
            inside = True
        if "re" in k and "rb" in k:   # empty: rb and re at one address
            inside = False
        if inside:
            out.append((op, arg))
    return out


def region(insns):
    """(outside, copies) of a region function, or None if no region."""
    start = None
    for i, (_, op, _, _) in enumerate(insns):
        if op == "rdtsc" and i > 0 and insns[i - 1][1] in ("cpuid", "lfence"):
            start = i
            break
    if start is None:
        return None
    outside, copies, inside, ended = [], [], False, False
    for _, op, arg, marks in insns[start + 1:]:
        k = kinds(marks)
        for kind in sorted(k, key=lambda x: x not in ("bb", "lb")):
            if kind in ("bb", "lb"):
                inside = True
                copies.append([])
            elif kind == "lc" and inside:
                copies.append([])
            elif kind in ("be", "le"):
                inside, ended = False, True
        if not inside and op in ("rdtsc", "rdtscp") and (ended or not copies):
            break
        if inside:
            copies[-1].append((op, arg))
        else:
            outside.append((op, arg))
    return outside, copies


def operands(arg):
    """An instruction's operands, in AT&T order (sources, then the
    destination)."""
    parts, depth, cur = [], 0, ""
    for ch in arg:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p for p in (x.strip().lstrip("*") for x in parts) if p]


def reg64(p):
    """The 64-bit register an operand names (%eax, %al -> rax; %r8d -> r8),
    or None for an operand that is not a register."""
    m = re.fullmatch(r"%([re]?([abcd])[xlh]|[re]?(si|di|bp|sp)l?|(r\d+)[dwb]?|rip)", p)
    if not m:
        return None
    if m.group(2):
        return "r%sx" % m.group(2)
    if m.group(3):
        return "r" + m.group(3)
    return m.group(4) or m.group(1)


# the bases a memory operand keeps whatever the copy: the state pointer
# (harness.h keeps it in %r15), %rip (a global) and the stack pointer; any
# other base is a register the compiler picks, per copy
FIXED_BASES = ("r15", "rip", "rsp")
MEM = re.compile(r"(?:(%\w+):)?(-?(?:0x[0-9a-f]+|\d+))?"
                 r"(?:\((%\w+)?(?:,(%\w+)(?:,(\d+))?)?\))?$")


def memory(p):
    """What tells a memory operand from another: its segment, displacement
    and base (%r15, %rip, the stack or another register), and whether it
    is indexed, by what scale.  A stack slot's displacement is the frame's,
    whatever the body, so it is left out."""
    m = MEM.match(p)
    if not m:
        return ("m", p)
    seg, disp, base, index, scale = m.groups()
    base = reg64(base) if base else ""
    base = base if base in FIXED_BASES or not base else "reg"
    if base == "rsp":
        disp = None
    else:
        disp = int(disp, 0) if disp else 0
    return ("m", seg or "", disp, base, "reg" if index else "", scale or "")


def operand_kinds(op, arg):
    """Each operand's kind: i immediate, r register, t a jump's or call's
    target, or a memory operand (memory(): base and displacement)."""
    if op.startswith(("j", "call", "loop")):
        return ("t",)
    out = []
    for p in operands(arg):
        if p.startswith("$"):
            out.append("i")
        elif p.startswith("%") and ":" not in p:
            out.append("r")
        else:
            out.append(memory(p))	# (%r15), 0x8(%rsp), %gs:0x0, an address
    return tuple(out)


def shapes(seq):
    """What two copies of a body must share: the mnemonics in order and
    each operand's kind (a load merged into a register move keeps its
    mnemonic, mov, but not its memory operand).  Registers may differ."""
    return [(op, operand_kinds(op, arg)) for op, arg in seq]


def constant(seq):
    """Whether nothing in @seq depends on an input: each instruction moves
    an immediate (or a register that holds one) into a register or stores
    it, or zeroes a register (xor or sub of itself).  A load, a register
    the body did not set (the state pointer, a value from before), any
    arithmetic, fence, call or jump is work on an input."""
    consts = set()
    for op, arg in seq:
        ops = operands(arg)
        if len(ops) != 2:
            return False
        src, dst = ops
        if re.fullmatch(r"mov(abs)?[bwlq]?", op) and \
                (src.startswith("$") or reg64(src) in consts):
            if dst.startswith("%"):
                consts.add(reg64(dst))
            continue	# a store: of a value known at build time
        if re.fullmatch(r"(xor|sub)[bwlq]?", op) and src == dst and reg64(src):
            consts.add(reg64(src))
            continue
        return False
    return True


def folded(ref, b):
    """What a body's reference shows the compiler computed at build time,
    or None: all of it (its work depends on no input: constant()), or part
    of it (fewer instructions than the table declares, for a straight
    body).  Judged from the object code alone: a barrier written as raw
    asm, or a body a macro made, is folded as a C body is."""
    if not ref:
        return None
    if constant(ref):
        return "folded to a constant: the compiler computed it at build time, so the " \
               "regions time nothing; it holds only `%s`" % show(ref)
    straight = all(not re.match(r"(j|call|ret|loop|rep)", op) for op, _ in ref)
    if b.insns and not b.insns[1] and straight and len(ref) < b.insns[0]:
        return "partly folded: the compiler computed some of it at build time; it " \
               "holds %d instructions where its table line declares %d (.insns): `%s`" % (
                   len(ref), b.insns[0], show(ref[:4]))
    return None


def spans(ks):
    """[2, 3, 4, 7] -> '2-4, 7'"""
    out, i = [], 0
    while i < len(ks):
        j = i
        while j + 1 < len(ks) and ks[j + 1] == ks[j] + 1:
            j += 1
        out.append(str(ks[i]) if i == j else "%d-%d" % (ks[i], ks[j]))
        i = j + 1
    return ", ".join(out)


def show(seq):
    return "; ".join((op + " " + arg).strip() for op, arg in seq)


def diff_words(got, want):
    """What got has that want lacks, and what it lacks, as instructions."""
    extra, missing = [], []
    sm = difflib.SequenceMatcher(a=shapes(want), b=shapes(got),
                                 autojunk=False)
    for tag, a0, a1, b0, b1 in sm.get_opcodes():
        if tag in ("replace", "insert"):
            extra += got[b0:b1]
        if tag in ("replace", "delete"):
            missing += want[a0:a1]
    return extra, missing


def swapped(extra, missing):
    """Whether a region differs from the body alone only in the memory its
    instructions address: the same mnemonics, one for one, each operand of
    the same kind, a memory operand's base or displacement aside."""
    def loose(seq):
        return [(op, tuple(k if isinstance(k, str) else "m" for k in operand_kinds(op, arg)))
                for op, arg in seq]
    return bool(extra) and loose(extra) == loose(missing)


def stack(seq):
    return [x for x in seq if re.search(r"%[re]sp\b", x[1])
            or x[0].startswith(("push", "pop"))]


def check_outside(outside):
    bad, stores = [], 0
    for op, arg in outside:
        if re.match(r"(call|ret|jmp|int3|push|pop|leave|enter)", op) or \
                re.search(r"thunk|__fentry__", arg):
            bad.append((op, arg))
        elif re.search(r"%[re]sp\b", arg):
            if re.match(r"%e[ad]x,(0x[0-9a-f]+)?\(%rsp\)$", arg) and \
                    op == "mov" and stores < 2:
                stores += 1
            else:
                bad.append((op, arg))
    return bad


def main(argv):
    table, repeat, args = None, 16, []
    it = iter(argv)
    for a in it:
        if a == "--table":
            table = next(it, None)
        elif a == "--repeat":
            try:
                repeat = int(next(it, ""))
            except ValueError:
                die("--repeat needs a number of copies, e.g. --repeat 16")
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            args.append(a)
    if len(args) < 2 or table == "":
        die("usage: regions.py [--table FILE] [--repeat R] MODULE.ko SOURCE.c...")
    ko, sources = args[0], args[1:]
    bodies, files = read_bodies(sources)
    # a body the sources do not show: named as the module lists it (its
    # file's name, then its own), by its file's group where that file is here
    names = {}
    for body, name in listed(ko).items():
        stem = name.split(":", 1)[0]
        if stem in files:
            names[body] = ("%s:%s" % (files[stem][0], body), files[stem][1])
        else:
            names[body] = (name, stem + ".c")
    funcs = functions(ko, symbols(ko))
    refs = {fn[len("cb_bodyref_"):]: reference(ins)
            for fn, ins in funcs.items() if fn.startswith("cb_bodyref_")}
    problems, rows, seen = [], [], set()

    def say(frag, where, what, fix):
        problems.append((frag, where, what, fix))

    def blame(b, fix):
        """The fix, or the body's own clobber of a harness register where it
        has one: then the compiler saves and reloads that register inside
        the timed window, which reads like a broken harness."""
        if not b.clobbers:
            return fix
        return ("the body's asm clobbers %s, which the harness keeps for itself (the "
                "state pointer, the frame and stack pointers), so the compiler saves and "
                "restores it inside the timed window: use another register"
                % ", ".join("%" + r for r in b.clobbers))

    # The samplers, regions and marks are named after the body's C name
    # alone, as are this check's table and the host's crash report
    # (scripts/qemu-run.sh): two bodies of one name would be read as one.
    for body, b in sorted(bodies.items()):
        if len(b.defs) > 1:
            say(b.name, "its name",
                "%s share the C name %s" % (" and ".join("%s (%s)" % d for d in b.defs), body),
                "a body's name is a C name, one per module, whatever its group: rename all but one")

    # fragment -> {call: kernel option} for the out-of-line calls of a kernel
    # option found in its regions: said once, and beside its problems,
    # since around a call the compiler places (or spills) the body's own
    # values as it likes, which can differ from copy to copy
    optcalls = {}

    for fn in sorted(funcs):
        m = REGION_FN.match(fn)
        if not m:
            continue
        kind, tag, body = m.groups()
        seen.add(body)
        b = bodies.get(body, Body())
        frag = b.name if b.defs else names.get(body, ("?:" + body,))[0]
        where = "%s region (%s)" % (kind, TAGS[tag])
        r = region(funcs[fn])
        verdict = []
        if not b.defs:
            # what the source says (its table line's .insns, its clobbers,
            # its group) would go unchecked: a problem, not a guess
            verdict.append("nosource")
            path = names.get(body, (None, "the sources"))[1]
            say(frag, "its source", "no line of %s starts with CB_BODY(%s) or "
                "CB_BODY_STATE(%s) (a body a wrapper macro makes is not found), so its "
                "table line and its asm's clobbers go unchecked" % (path, body, body),
                "write CB_BODY(%s) at the start of a line of its group's file, and name "
                "that file to this check" % body)
        if r is None:
            say(frag, where, "no start timestamp found in %s" % fn,
                "the harness is broken, not your body: report it")
            rows.append((frag, TAGS[tag], kind, 0, 0, "noregion", "no"))
            continue
        outside, copies = r
        ins = [x for c in copies for x in c]
        bad = check_outside(outside)
        if bad:
            verdict.append("harness")
            say(frag, where, "the harness put `%s` next to the body" % show(bad[:3]),
                blame(b, "the sampler is broken, not your body (tests/kmod/run.sh builds "
                      "such harnesses on purpose)"))
        elif len(outside) > 4:
            verdict.append("outside")
            say(frag, where, "%d protocol instructions around the body, at most 4: `%s`"
                % (len(outside), show(outside)), blame(b, "the sampler is broken, not your body"))
        ref = refs.get(body)
        want = 1 if kind == "short" else repeat
        if ref is None:
            verdict.append("noref")
            say(frag, where, "no cb_bodyref_%s in the object code" % body,
                "rebuild; CB_BODY() defines it")
        elif len(copies) != want:
            verdict.append("copies")
            say(frag, where, "%d copies of the body, expected %d" % (len(copies), want),
                "the sampler is broken, not your body")
        elif not ref and body != "empty":
            verdict.append("deleted")
            say(frag, "its body", "the compiler deleted it (no instruction between the marks)",
                "the result is unused: CB_OPAQUE(result) after computing it")
        elif folded(ref, b):
            verdict.append("folded")
            say(frag, "its body", folded(ref, b),
                "CB_OPAQUE() its inputs before computing (and its result after), "
                "so the work is done at run time, in the region")
        elif kind == "short" and shapes(copies[0]) != shapes(ref):
            extra, missing = diff_words(copies[0], ref)
            verdict.append("moved")
            spills = stack(extra)
            calls = [x for x in extra if x[0].startswith("call")]
            if spills:
                say(frag, where, "stack access `%s`, not in the body alone" % show(spills[:2]),
                    blame(b, "the compiler spilled a register: use fewer live values or clobbers"))
            elif calls:
                say(frag, where, "a call `%s` the body alone does not make" % show(calls[:2]),
                    "the body went through a pointer or out of line: keep it __always_inline")
            elif swapped(extra, missing):
                say(frag, where, "`%s` where the body alone has `%s`: other memory"
                    % (show(extra[:3]), show(missing[:3])),
                    "the region must address what the body alone does: CB_OPAQUE() the "
                    "pointer (or index) it reads through")
            elif extra:
                say(frag, where, "`%s` is in the region but not in the body alone"
                    % show(extra[:3]),
                    "the compiler moved work in from outside: CB_OPAQUE() the value it computes")
            if missing and not calls and not spills and not swapped(extra, missing):
                say(frag, where, "`%s` of the body alone is not in the region" % show(missing[:3]),
                    "the compiler computed it before the region (hoisted): CB_OPAQUE() its inputs")
        elif kind == "long":
            # every copy that differs, those that differ alike in one line
            short, odd = shapes(ref), {}
            for k, c in enumerate(copies):
                if shapes(c) == short:
                    continue
                extra, missing = diff_words(c, ref)
                key = (show(extra[:3]), show(missing[:3]), show(stack(extra)[:2]),
                       swapped(extra, missing))
                odd.setdefault(key, []).append(k + 1)
            if odd:
                verdict.append("copies")
            for (extra, missing, spills, other), ks in odd.items():
                one = len(ks) == 1
                which = "%s %s of %d" % ("copy" if one else "copies", spans(ks), len(copies))
                hold, lack = ("holds", "lacks") if one else ("hold", "lack")
                if spills:
                    say(frag, where, "%s %s stack access `%s`, not in the body alone"
                        % (which, hold, spills),
                        blame(b, "the compiler spilled a register: use fewer live values "
                              "or clobbers"))
                elif missing and extra and other:
                    say(frag, where, "%s %s `%s` where one body has `%s`: other memory"
                        % (which, hold, extra, missing),
                        "each copy must address what the body alone does: CB_OPAQUE() the "
                        "pointer (or index) it reads through")
                elif missing and extra:
                    say(frag, where, "%s %s `%s` where one body has `%s`"
                        % (which, hold, extra, missing),
                        "the copies shared work (merged): CB_OPAQUE() its inputs and result")
                elif missing:
                    say(frag, where, "%s %s `%s`" % (which, lack, missing),
                        "the copies shared work (merged): CB_OPAQUE() its inputs and result")
                else:
                    say(frag, where, "%s %s `%s` that one body lacks" % (which, hold, extra),
                        "the compiler moved work between copies: CB_OPAQUE() the value")
        sleeps = sorted({x[1] for x in ins if x[0].startswith(("call", "jmp"))
                         and x[1] in SLEEPERS})
        if sleeps and kind == "short":
            verdict.append("sleeps")
            say(frag, "its body", "calls %s, which may sleep" % ", ".join(sleeps),
                "a body runs with interrupts off and must not sleep: do that in setup, "
                "or time something that does not sleep")
        elif sleeps:
            verdict.append("sleeps")
        for x in ins:
            if x[0].startswith("call"):
                for sym, opt in OPTION_CALLS.items():
                    if re.search(r"\b%s\b" % re.escape(sym), x[1]):
                        optcalls.setdefault(frag, {})[sym] = opt
        # (a nop may be an alternative's padding, patched at load)
        straight = all(not re.match(r"(j|call|ret|loop|rep|int|nop|xchg)", op) and
                       "thunk" not in arg for op, arg in ins)
        rows.append((frag, TAGS[tag], kind, len(copies), len(ins),
                     ",".join(dict.fromkeys(verdict)) or "clean",
                     "yes" if straight else "no"))
    for body, b in sorted(bodies.items()):
        if body not in seen:
            say(b.name, "the object code", "no sampler for this body",
                "is it in its group's table, and its group in CB_GROUPS in kmod/fragments/groups.mk?")
    if table:
        with open(table, "w") as f:
            f.write("# fragment method region copies insns verdict straight\n")
            for r in rows:
                f.write("%s %s %s %d %d %s %s\n" % r)
    # one line a problem: the same one in several methods' regions is named once
    merged = {}
    for frag, where, what, fix in problems:
        m = re.match(r"(\w+ region) \(([\w-]+)\)$", where)
        key = (frag, m.group(1) if m else where, what, fix)
        merged.setdefault(key, [])
        if m:
            merged[key].append(m.group(2))
    def options(frag):
        calls = optcalls[frag]
        return "the body calls %s: out-of-line code of %s, timed with it" % (
            ", ".join(sorted(calls)), ", ".join(sorted(set(calls.values()))))

    for frag in sorted(optcalls):
        print("note: %s: %s" % (frag, options(frag)))
    for (frag, where, what, fix), methods in merged.items():
        if methods:
            where = "%s (%s)" % (where, ", ".join(methods))
        if frag in optcalls:
            # the cause, rather than the generic fix
            fix = ("the cause is the kernel's option, not the body: %s; around the call "
                   "the compiler places the body's values as it likes, per copy; a kernel "
                   "without that option, or a body without the call, avoids it" % options(frag))
        print("%s: %s: %s; %s" % (frag, where, what, fix))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
