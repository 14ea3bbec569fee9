#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fragments.sh - the fragments a built module holds, read from its file
# (each body's "group:name" note, include/cyclebench/harness.h), so that a selection is
# checked where it is typed: before anything is loaded or booted.
#
#   scripts/fragments.sh MODULE.ko              the names, one a line
#   scripts/fragments.sh MODULE.ko SELECTION    exit 0 when each item of
#                                               SELECTION (only='s form:
#                                               all, GROUP, GROUP:NAME,
#                                               GROUP:NAME/ARG, commas
#                                               between) names something
#                                               there; else exit 2, with
#                                               the closest names
#
# (An ARG is the module's to check: its list depends on max_mb.)
. "$(dirname "$0")/help.sh"
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: scripts/fragments.sh MODULE.ko [SELECTION]" >&2
	exit 2
fi
ko=$1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if ! objcopy --dump-section .note.cyclebench="$tmp" "$ko" /dev/null 2>/dev/null; then
	echo "fragments.sh: $ko holds no fragment names (not a cyclebench.ko, or one built before they were kept: rebuild it with make)" >&2
	exit 2
fi
names=$(tr '\0' '\n' < "$tmp" | grep ':')
if [ $# = 1 ]; then
	echo "$names"
	exit 0
fi

# The items that name nothing, each with its closest names (edit
# distance, at most a third of the item's length, 2 at least)
echo "$names" | awk -v sel="$2" '
function dist(a, b,    i, j, la, lb, d, c, x) {
	la = length(a); lb = length(b)
	for (j = 0; j <= lb; j++) d[0, j] = j
	for (i = 1; i <= la; i++) {
		d[i, 0] = i
		for (j = 1; j <= lb; j++) {
			c = substr(a, i, 1) != substr(b, j, 1)
			x = d[i - 1, j - 1] + c
			if (d[i - 1, j] + 1 < x) x = d[i - 1, j] + 1
			if (d[i, j - 1] + 1 < x) x = d[i, j - 1] + 1
			d[i, j] = x
		}
	}
	return d[la, lb]
}
{ known[$0] = 1; split($0, p, ":"); known[p[1]] = 1 }
END {
	n = split(sel, items, ",")
	for (k = 1; k <= n; k++) {
		it = items[k]; sub(/\/.*/, "", it)
		if (it == "all" || it in known) continue
		best = ""; bd = length(it) / 3; if (bd < 2) bd = 2
		for (c in known) {
			# a name is compared with names, a group with groups
			if ((index(c, ":") > 0) != (index(it, ":") > 0)) continue
			e = dist(it, c)
			if (e < bd) { bd = e; best = c } else if (e == bd && best != "") best = best " or " c
			else if (e == bd) best = c
		}
		printf "no fragment or group \047%s\047%s\n", it,
			best != "" ? " (did you mean " best "?)" : " (scripts/fragments.sh cyclebench.ko lists them)" > "/dev/stderr"
		bad = 1
	}
	exit bad ? 2 : 0
}'
