#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perop.sh CYCLESTAT INPUT...: the per-op cost cyclestat computes, one
# result a line: "NAME VALUE LO HI UNIT" (UNIT: core_cycles when the input
# holds calib:add_chain of the same run, else ticks), from its JSON output.
# LO and HI are "-" where the figure has no interval (a median of under
# six ensembles, a run whose calibration was disturbed: cyclestat(1)); a
# result without a per-op estimate is left out.
#
# perop.sh --calib CYCLESTAT DIR: TSC ticks per core cycle, what cyclestat
# divides by (calib:add_chain's per-op figure); empty when DIR has none.
. "$(dirname "$0")/../../scripts/help.sh"
set -u
if [ "${1:-}" = --calib ]; then
	"$2" -q --format json "$3" calib:add_chain |
		sed -n 's/.*"ticks_per_core_cycle": \([0-9.e+-]*\),.*/\1/p' | sed -n 1p
	exit 0
fi
cs=$1
shift
"$cs" -q --format json "$@" | awk '
	function num(key,   s) {
		s = $0
		if (!match(s, "\"per_op\": \\{\"value\": [-0-9.e+]+, \"lo\": ([-0-9.e+]+|null), \"hi\": ([-0-9.e+]+|null)"))
			return ""
		s = substr(s, RSTART, RLENGTH)
		gsub(/"per_op": \{"value": |"lo": |"hi": |,/, "", s)
		gsub(/null/, "-", s)
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
