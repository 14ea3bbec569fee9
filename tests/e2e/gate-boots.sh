#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gate-boots.sh OUT BOOTS - the gate's error rates across boots, on the host,
# from the runs each tests/e2e/gate.sh boot left in OUT/gate[-N]/runs/r1..rR.
# Under TCG the emulated clock's speed shifts from boot to boot far more
# than within one, as page layout and firmware shift real machines between
# days; a CI baseline comes from another boot.
#
#   A/A: run k of one half of the boots against run k of the other half,
#        every split of the boots into two halves (10 splits of 6 boots,
#        three a side), every k: 100 comparisons from 6 boots of 10 runs.
#        How many report any fragment slower or faster.
#   A/B +10 %: the same sides, loop:dec_jnz/100 against /110.
#   A/B +50 %: loop:dec_jnz/100 of every boot but one against /150 of
#        every boot but another, run k (BOOTS - 1 runs a side, each from
#        its own boot): BOOTS x R comparisons.
# For cyclestat compare (runs as repetitions). Prints "# ..." lines; exit 1 when compare raises more than
# one A/A alarm, or, with 5 or more runs a side, misses one +50 % slowdown or
# calls one faster (the issue's bounds).
. "$(dirname "$0")/../../scripts/help.sh"
set -u
out=$1
boots=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
cs=${CB_CYCLESTAT:-$top/userspace/cyclestat/cyclestat}
half=$((boots / 2))
[ "$half" -ge 1 ] || { echo "# gate across boots: need 2 or more boots"; exit 1; }

dir() { [ "$1" = 1 ] && echo "$out/gate/runs" || echo "$out/gate-$1/runs"; }
runs=10
b=1
while [ "$b" -le "$boots" ]; do
	n=$(ls -d "$(dir "$b")"/r[0-9]* 2>/dev/null | wc -l | tr -d ' ')
	[ "$n" -ge 1 ] || { echo "# gate across boots: boot $b left no runs in $(dir "$b")"; exit 1; }
	[ "$n" -lt "$runs" ] && runs=$n
	b=$((b + 1))
done

# the splits: "1 2 3 | 4 5 6", each unordered split once (boot 1 on the left)
# (an odd boot count leaves one out of each split)
splits=$(awk -v n="$boots" -v h="$half" 'function rec(i, k, s,    j, r, m) {
	if (k == h) {
		r = ""
		m = 0
		for (j = 1; j <= n && m < h; j++)
			if (!((" " s " ") ~ (" " j " "))) { r = r " " j; m++ }
		print s " |" r
		return
	}
	for (j = i; j <= n; j++) rec(j + 1, k + 1, s (s == "" ? "" : " ") j)
} BEGIN { rec(2, 1, "1") }')

# paths BOOTS... RUN SUFFIX
paths() {
	p=
	for x in $1; do p="$p $(dir "$x")/r$2$3"; done
	echo "$p"
}

# counts OPTS -- compare args: "slower faster" verdicts of one compare
counts() {
	"$cs" --format json -q "$@" >"$out/gate-cmp.json" 2>"$out/gate-cmp.err"
	if [ $? -ge 2 ]; then
		echo "# gate across boots: cyclestat $*: $(tail -n 1 "$out/gate-cmp.err")" >&2
		: >"$out/gate-cmp.failed"
		echo "0 0"
		return
	fi
	echo "$(grep -c '"verdict": "slower"' "$out/gate-cmp.json") $(grep -c '"verdict": "faster"' "$out/gate-cmp.json")"
}

[ -x "$cs" ] || { echo "# gate across boots: no $cs (make -C userspace/cyclestat)"; exit 1; }
rm -f "$out/gate-cmp.failed"
rc=0
aa=0 s10=0 f10=0 n=0
k=1
while [ "$k" -le "$runs" ]; do
	echo "$splits" | while IFS='|' read -r l r; do
		# shellcheck disable=SC2046,SC2086
		set -- $(counts compare $(paths "$l" $k "") -- $(paths "$r" $k ""))
		a=$(($1 + $2 > 0))
		# shellcheck disable=SC2046,SC2086
		set -- $(counts compare $(paths "$l" $k /loop/dec_jnz/100) -- \
			$(paths "$r" $k /loop/dec_jnz/110))
		echo "$a $1 $2"
	done >"$out/gate-split.txt"
	# shellcheck disable=SC2046
	set -- $(awk '{ a += $1; s += ($2 > 0); f += ($3 > 0); n++ } END { print a + 0, s + 0, f + 0, n + 0 }' "$out/gate-split.txt")
	aa=$((aa + $1)) s10=$((s10 + $2)) f10=$((f10 + $3)) n=$((n + $4))
	k=$((k + 1))
done
# +50 %: every boot but i against every boot but i + 1
s50=0 f50=0 n50=0
k=1
while [ "$k" -le "$runs" ]; do
	i=1
	while [ "$i" -le "$boots" ]; do
		j=$((i % boots + 1))
		l=$(seq 1 "$boots" | grep -vx "$i" | tr '\n' ' ')
		r=$(seq 1 "$boots" | grep -vx "$j" | tr '\n' ' ')
		# shellcheck disable=SC2046,SC2086
		set -- $(counts compare $(paths "$l" $k /loop/dec_jnz/100) -- \
			$(paths "$r" $k /loop/dec_jnz/150))
		[ "$1" -gt 0 ] && s50=$((s50 + 1))
		[ "$2" -gt 0 ] && f50=$((f50 + 1))
		n50=$((n50 + 1))
		i=$((i + 1))
	done
	k=$((k + 1))
done
echo "# gate across $boots boots: A/A $aa alarms in $n comparisons ($half runs a side, each from its own boot); A/B +10% $s10 slower, $f10 faster in $n ($half a side); A/B +50% $s50 slower, $f50 faster in $n50 ($((boots - 1)) a side)"
[ "$aa" -le 1 ] || rc=1
if [ $((boots - 1)) -ge 5 ] && { [ "$s50" != "$n50" ] || [ "$f50" != 0 ]; }; then
	rc=1
fi
if [ -e "$out/gate-cmp.failed" ]; then
	echo "# gate across boots: some compares failed (above): these counts are not rates"
	rc=1
fi
rm -f "$out/gate-cmp.json" "$out/gate-cmp.err" "$out/gate-cmp.failed" "$out/gate-split.txt"
exit $rc
