#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""schema.py SCHEMA JSON...: each JSON file against the JSON Schema SCHEMA.

The subset docs/cyclestat.schema.json uses (type, required, properties,
additionalProperties, items, enum, const, anyOf, $ref to #/$defs), with no
library: CI machines start bare. Prints each violation with its path; exit 1
when there is one.
"""
import json
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def is_type(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def check(v, s, root, path, bad):
    if "$ref" in s:
        s = root["$defs"][s["$ref"].split("/")[-1]]
    if "anyOf" in s:
        if not any(not check(v, alt, root, path, []) for alt in s["anyOf"]):
            bad.append("%s: matches none of anyOf" % path)
        return bad
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            bad.append("%s: %r is not %s" % (path, v, "|".join(ts)))
            return bad
    if "const" in s and v != s["const"]:
        bad.append("%s: %r is not %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        bad.append("%s: %r is not one of %s" % (path, v, s["enum"]))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                bad.append("%s: no key %r" % (path, k))
        for k, x in v.items():
            if k in s.get("properties", {}):
                check(x, s["properties"][k], root, "%s.%s" % (path, k), bad)
            elif isinstance(s.get("additionalProperties"), dict):
                check(x, s["additionalProperties"], root, "%s.%s" % (path, k), bad)
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(x, s["items"], root, "%s[%d]" % (path, i), bad)
    return bad


def main():
    schema = json.load(open(sys.argv[1]))
    bad = []
    for f in sys.argv[2:]:
        bad += ["%s: %s" % (f, b) for b in check(json.load(open(f)), schema, schema, "$", [])]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
