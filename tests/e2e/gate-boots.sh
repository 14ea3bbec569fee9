#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gate-boots.sh OUT BOOTS - the gate's error rates across boots, on the host,
# from the runs each tests/e2e/gate.sh boot left in OUT/gate[-N]/runs/.
# Under TCG the emulated clock's speed shifts from boot to boot far more
# than within one, as page layout and firmware shift real machines between
# days; a CI baseline comes from another boot.
#
#   A/A: run k of every boot, the boots split in two halves (boot i on one
#        side, boot BOOTS/2 + i on the other), k = 1..10, and the halves
#        swapped: 20 comparisons with BOOTS/2 runs a side.
#   A/B: the same sides, loop:dec_jnz/110 on the new side against /100:
#        10 % more work.
# Prints "# ..." figures for cyclestat compare and, beside it, --per-sample
# on the same data; exit 1 when compare (runs as repetitions) raises more
# than one A/A alarm, or with 5 or more runs a side misses an A/B slowdown
# or calls one faster.
set -u
out=$1
boots=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cs=${CB_CYCLESTAT:-$top/userspace/cyclestat}
half=$((boots / 2))
[ "$half" -ge 1 ] || { echo "# gate across boots: need 2 or more boots"; exit 1; }

dir() { [ "$1" = 1 ] && echo "$out/gate" || echo "$out/gate-$1"; }

# side FIRST_BOOT RUN SUFFIX: the run of boots FIRST..FIRST+half-1
side() {
	b=$1
	while [ "$b" -lt $(($1 + half)) ]; do
		printf ' %s/runs/r%s%s' "$(dir "$b")" "$2" "$3"
		b=$((b + 1))
	done
}

# count OPTS -- compare args: 1 when any verdict is slower/faster; "S F" of a fragment
alarm() {
	"$cs" --format json -q "$@" 2>/dev/null | grep -Ec '"verdict": "(slower|faster)"'
}

rc=0
for mode in runs per-sample; do
	opt=
	[ "$mode" = runs ] || opt=--per-sample
	aa=0
	ab_slow=0
	ab_fast=0
	n=0
	for k in 1 2 3 4 5 6 7 8 9 10; do
		for swap in 0 1; do
			if [ "$swap" = 0 ]; then a=1 b=$((half + 1)); else a=$((half + 1)) b=1; fi
			# shellcheck disable=SC2046,SC2086
			[ "$(alarm $opt compare $(side $a $k "") -- $(side $b $k ""))" = 0 ] || aa=$((aa + 1))
			# shellcheck disable=SC2046,SC2086
			"$cs" --format json -q $opt compare $(side $a $k /loop/dec_jnz/100) -- \
				$(side $b $k /loop/dec_jnz/110) >"$out/gate-ab.json" 2>/dev/null
			grep -q '"verdict": "slower"' "$out/gate-ab.json" && ab_slow=$((ab_slow + 1))
			grep -q '"verdict": "faster"' "$out/gate-ab.json" && ab_fast=$((ab_fast + 1))
			n=$((n + 1))
		done
	done
	echo "# gate across $boots boots, $mode ($half runs a side): A/A $aa alarms in $n comparisons; A/B +10% $ab_slow slower, $ab_fast faster in $n"
	if [ "$mode" = runs ]; then
		[ "$aa" -le 1 ] || rc=1
		if [ "$half" -ge 5 ] && { [ "$ab_slow" -lt "$n" ] || [ "$ab_fast" != 0 ]; }; then
			rc=1
		fi
	fi
done
exit $rc
