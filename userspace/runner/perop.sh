#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perop.sh CYCLESTAT INPUT...: the per-op cost cyclestat computes, one
# result a line: "NAME VALUE LO HI UNIT" (UNIT: core_cycles when the input
# holds calib:add_chain of the same run, else ticks), from its JSON output.
# A result without a per-op estimate is left out.
#
# perop.sh --calib DIR: TSC ticks per core cycle, from DIR's calib:add_chain
# (median of the long region less median of the short, over (R-1) ops):
# what cyclestat divides by; empty when DIR has no such result.
. "$(dirname "$0")/../../scripts/help.sh"
set -u
if [ "${1:-}" = --calib ]; then
	d=$2/calib/add_chain
	[ -r "$d/cycles_long" ] || exit 0
	r=$(sed -n 's/^long_repeat: //p' "$d/info")
	ops=$(sed -n 's/^ops: //p' "$d/info")
	med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	awk -v l="$(med "$d/cycles_long")" -v s="$(med "$d/cycles")" -v r="$r" -v ops="$ops" \
		'BEGIN { printf "%.6f\n", (l - s) / ((r - 1) * ops) }'
	exit 0
fi
cs=$1
shift
"$cs" -q --format json "$@" | awk '
	function num(key,   s) {
		s = $0
		if (!match(s, "\"per_op\": \\{\"value\": [-0-9.e+]+, \"lo\": [-0-9.e+]+, \"hi\": [-0-9.e+]+"))
			return ""
		s = substr(s, RSTART, RLENGTH)
		gsub(/"per_op": \{"value": |"lo": |"hi": |,/, "", s)
		return s
	}
	match($0, /\{"name": "[^"]*"/) {
		name = substr($0, RSTART + 10, RLENGTH - 11)
	}
	/"cost": \{/ && name != "" {
		v = num()
		if (v == "")
			next
		unit = index($0, "\"unit\": \"core cycles") ? "core_cycles" : "ticks"
		print name, v, unit
		name = ""
	}'
