# SPDX-License-Identifier: GPL-2.0
"""The module's .note.cyclebench, read from its object code: which group
and name each timed body has (include/cyclebench/harness.h's __CB_LISTED(): kbuild's name
of the body's file, the group).  Read by tests/kmod/regions.py (the
object-code check) and userspace/qemu-plugin/regions.py (the plugin's
regions), so that a body whose source is not found is still named.
"""
import re
import subprocess

# the methods' tags in a region function's name, cb_short_TAG_BODY (harness.h)
TAGS = {"p": "paoloni", "l": "lfence", "pn": "paoloni-nordtscp",
        "ln": "lfence-nordtscp", "cn": "cpuid-nordtscp"}
REGION_FN = re.compile(r"^cb_(short|long)_(%s)_(\w+)$" % "|".join(TAGS))


def run(cmd, die):
    """@cmd's standard output; die(message) when it cannot run or fails."""
    try:
        return subprocess.run(cmd, check=True, capture_output=True,
                              text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s failed: %s" % (" ".join(cmd), e))


def listed(ko):
    """body identifier -> group:name; OSError when objdump cannot run."""
    dump = subprocess.run(["objdump", "-s", "-j", ".note.cyclebench", ko],
                          capture_output=True, text=True).stdout
    raw = bytearray()
    for line in dump.splitlines():
        m = re.match(r"^ [0-9a-f]+ ((?:[0-9a-f]{2,8} ?){1,4})", line)
        if m:
            raw += bytes.fromhex(m.group(1).replace(" ", ""))
    out, i = {}, 0
    while i + 12 <= len(raw):
        namesz = int.from_bytes(raw[i:i + 4], "little")
        descsz = int.from_bytes(raw[i + 4:i + 8], "little")
        name = raw[i + 12:i + 12 + namesz].rstrip(b"\0")
        j = i + 12 + (namesz + 3) // 4 * 4
        desc = raw[j:j + descsz].rstrip(b"\0").decode("ascii", "replace")
        if name == b"cyclebench" and ":" in desc:
            out[desc.split(":", 1)[1]] = desc
        i = j + (descsz + 3) // 4 * 4
    return out
