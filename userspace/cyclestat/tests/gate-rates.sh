#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gate-rates.sh CYCLESTAT DIR - the regression gate's error rates on runs
# saved from one boot (or one machine, one day): DIR/r1 ... DIR/rN, N >= 10,
# each a `cyclestat save` of "base,calib,loop:dec_jnz args=100,110" (calib:
# compare then works in core cycles; without it, in ticks). POSIX sh:
# tests/e2e/run.sh gate runs it on the runs of a TCG guest
# (tests/e2e/gate.sh), make bench on whatever runs it is given.
#
#   A/A: every pair of single runs (45), and 20 random splits five runs
#        against five: how many compares report anything slower or faster.
#   A/B: loop:dec_jnz/110 against /100 (10 % more work), five runs a side
#        (one with --ensembles), 20 pairs: how many say
#        slower, faster; and of them the 10 whose two sides come from the
#        same runs (each run measured /100 and /110 side by side), where a
#        clock that moved between runs moved both sides alike.
#   Paired (where the runs ran interleave=1 with 16 or more ensembles):
#        each run's ensembles side by side (--ensembles --paired); A/A even
#        against odd ensembles, A/B /110 against /100 (see below).
#
# For cyclestat compare as it is (runs are repetitions) and with
# --ensembles. Prints
# one line per figure, then shell assignments (aa_runs=0 ...) for a caller.
. "$(dirname "$0")/../../../scripts/help.sh"
set -u
cs=$1
dir=$2
runs=$(ls -d "$dir"/r[0-9]* 2>/dev/null | wc -l | tr -d ' ')
[ "$runs" -ge 10 ] || { echo "gate-rates: $dir has $runs runs (r1 ...), need 10" >&2; exit 2; }
runs=10
tmp=${TMPDIR:-/tmp}/gate-rates.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# verdicts ARGS...: "slower faster" counts of one compare
verdicts() {
	"$cs" --format json -q "$@" >"$tmp/cmp.json" 2>/dev/null
	echo "$(grep -c '"verdict": "slower"' "$tmp/cmp.json") $(grep -c '"verdict": "faster"' "$tmp/cmp.json")"
}

awk -v n="$runs" 'BEGIN { srand(7); for (s = 0; s < 20; s++) {
	for (i = 1; i <= n; i++) p[i] = i
	for (i = n; i > 1; i--) { j = int(rand() * i) + 1; t = p[i]; p[i] = p[j]; p[j] = t }
	l = ""; for (i = 1; i <= n; i++) l = l " " p[i] (i == 5 ? " --" : "")
	print l } }' >"$tmp/splits"

vars=
for mode in runs ensembles; do
	v=$mode
	opt=
	[ "$mode" = runs ] || opt=--$mode
	pairs=0
	alarms=0
	i=1
	while [ "$i" -le "$runs" ]; do
		j=$((i + 1))
		while [ "$j" -le "$runs" ]; do
			# shellcheck disable=SC2086
			set -- $(verdicts $opt compare "$dir/r$i" "$dir/r$j")
			pairs=$((pairs + 1))
			[ "$(($1 + $2))" = 0 ] || alarms=$((alarms + 1))
			j=$((j + 1))
		done
		i=$((i + 1))
	done
	echo "A/A, $mode: $alarms alarms in $pairs pairs of single runs"
	vars="$vars aa_$v=$alarms"
	# five runs a side only where a run is one repetition: five runs'
	# ensembles (1000 a side of 200) cost a million differences a
	# fragment, minutes in a TCG guest, to show what the pairs show
	if [ "$mode" = runs ]; then
		alarms=0
		while read -r split; do
			a=
			for r in $split; do
				[ "$r" = -- ] && a="$a --" || a="$a $dir/r$r"
			done
			# shellcheck disable=SC2086
			set -- $(verdicts $opt compare $a)
			[ "$(($1 + $2))" = 0 ] || alarms=$((alarms + 1))
		done <"$tmp/splits"
		echo "A/A, $mode: $alarms alarms in 20 splits of five runs a side"
		vars="$vars aa_split_$v=$alarms"
	fi
	slower=0
	faster=0
	same_slower=0
	same_faster=0
	n=0
	i=0
	while [ "$i" -lt 10 ]; do
		for shift in 0 5; do
			a=
			b=
			k=0
			while [ "$k" -lt 5 ]; do
				a="$a $dir/r$(((i + k) % runs + 1))/loop/dec_jnz/100"
				b="$b $dir/r$(((i + k + shift) % runs + 1))/loop/dec_jnz/110"
				k=$((k + 1))
			done
			if [ "$mode" != runs ]; then
				set -- $a
				a=$1
				set -- $b
				b=$1
				set -- $(verdicts $opt compare "$a" "$b")
			else
				# shellcheck disable=SC2086
				set -- $(verdicts $opt compare $a -- $b)
			fi
			slower=$((slower + $1))
			faster=$((faster + $2))
			if [ "$shift" = 0 ]; then
				same_slower=$((same_slower + $1))
				same_faster=$((same_faster + $2))
			fi
			n=$((n + 1))
		done
		i=$((i + 1))
	done
	[ "$mode" = runs ] && k="five runs" || k="one run"
	echo "A/B +10% work, $mode: $slower slower, $faster faster in $n pairs ($k a side); of them, both sides from the same runs: $same_slower slower, $same_faster faster in $((n / 2))"
	vars="$vars ab_slow_$v=$slower ab_fast_$v=$faster ab_slow_same_$v=$same_slower ab_fast_same_$v=$same_faster"
done
# Paired, within each run: with interleave=1, ensemble e of every result
# ran side by side, so --ensembles --paired pairs what saw the same clock.
# Each result's even and odd ensembles make two halves (tests/e2e/gate.sh
# takes 200 ensembles: 100 pairs a comparison; 8 pairs can reach p < 0.01). A/A:
# the even against the odd ensembles of /100, and of /110 (20); A/B: /110
# against /100, even against even and odd against odd (20).
# half RESULT PARITY OUT: the even (0) or odd (1) ensembles of RESULT
half() {
	s=$(sed -n 's/^samples: //p' "$1/info")
	e=$(sed -n 's/^ensembles: //p' "$1/info")
	mkdir -p "$3"
	for f in cycles cycles_long; do
		awk -v s="$s" -v p="$2" 'int((NR - 1) / s) % 2 == p' "$1/$f" >"$3/$f"
	done
	sed "s/^ensembles: .*/ensembles: $((e / 2))/" "$1/info" >"$3/info"
}
e=$(sed -n 's/^ensembles: //p' "$dir/r1/loop/dec_jnz/100/info" 2>/dev/null)
# (the module says interleave in each result's info, cyclebench-user in the tree's)
if cat "$dir/r1/loop/dec_jnz/100/info" "$dir/r1/info" 2>/dev/null | grep -qx 'interleave: yes' &&
	[ "${e:-0}" -ge 16 ]; then
	alarms=0
	slower=0
	faster=0
	i=1
	while [ "$i" -le "$runs" ]; do
		h=$tmp/h$i
		for a in 100 110; do
			half "$dir/r$i/loop/dec_jnz/$a" 0 "$h/$a.0"
			half "$dir/r$i/loop/dec_jnz/$a" 1 "$h/$a.1"
			set -- $(verdicts --ensembles --paired compare "$h/$a.0" "$h/$a.1")
			[ "$(($1 + $2))" = 0 ] || alarms=$((alarms + 1))
		done
		for p in 0 1; do
			set -- $(verdicts --ensembles --paired compare "$h/100.$p" "$h/110.$p")
			slower=$((slower + $1))
			faster=$((faster + $2))
		done
		rm -rf "$h"
		i=$((i + 1))
	done
	echo "A/A, paired ensembles: $alarms alarms in $((2 * runs)) comparisons (even against odd ensembles of one result)"
	echo "A/B +10% work, paired ensembles: $slower slower, $faster faster in $((2 * runs)) pairs"
	vars="$vars aa_paired=$alarms ab_slow_paired=$slower ab_fast_paired=$faster"
fi
echo "$vars"
