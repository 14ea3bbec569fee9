#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab-rates.sh (make bench): how often does make ab's CLOCK=time verdict
# hold?  Two make ab RUNNER=user runs of RUNS (160) runs a side, AB BA ...
# on this CPU, each cut into RUNS/PER comparisons of PER v PER runs (8,
# make ab's default), each judged by cyclestat ab as make ab judges it:
#
#   A/A    one build on both sides: a row called slower or faster is a
#          false alarm (every row counts, the references too)
#   +10 %  B built with -DCB_TEST_AB_ONE_MORE (tests/kmod/ab.c): ab:ten_plus
#          runs 11 adds for 10, and must be found slower; so must the
#          build's other changes (ab:adds one add more, ab:shl ops 4 -> 5;
#          ab:only_b is new); every other row, its source the same in
#          both builds, must not be called anything
#
# SEL is the selection (only=): ab:ten,ab:ten_plus by default; the whole
# catalogue with SEL=all,ab,mem:chase/4096,...  Issue 50's bar: an alarm
# in at most 1 comparison of 20, the +10 % found in at least 19 of 20.
# A benchmark: it prints, it never fails on what it measured.
#
#   RUNS=160 PER=8 SEL=LIST CPU=0 AB_RATES_OUT=DIR sh ab-rates.sh
#   JUDGE_ONLY=1 ...   judge the runs already in DIR again, measure nothing
. "$(dirname "$0")/../../scripts/help.sh"
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CS=$top/userspace/cyclestat/cyclestat
RUNS=${RUNS:-160}
PER=${PER:-8}
SEL=${SEL:-ab:ten,ab:ten_plus}
CPU=${CPU:-0}
out=${AB_RATES_OUT:-$top/build/bench-ab}
case $PER in '' | *[!0-9]* | 0*) echo "ab-rates.sh: PER=$PER: want runs a side per comparison, >= 1" >&2; exit 2 ;; esac
n=$((RUNS / PER))
[ "$n" -ge 1 ] || { echo "ab-rates.sh: RUNS=$RUNS: want $PER or more (comparisons of $PER v $PER)" >&2; exit 2; }

# measure NAME [VAR=VALUE...]: one make ab RUNNER=user, its runs into
# $out/NAME, the builds kept in $out (A's is built once).  Its exit
# status is its verdict over all the runs: the runs are what count here.
measure() {
	name=$1
	shift
	env "$@" RUNNER=user CB_AB_ADD=tests/kmod/ab.c CB_AB_OUT="$out" CB_AB_RESULTS="$out/$name" \
		RUNS="$RUNS" PARAMS="only=$SEL cpu=$CPU" "$top/scripts/ab.sh" > "$out/$name.log" 2>&1
	[ -d "$out/$name/B/run$RUNS" ] ||
		{ echo "ab-rates.sh: make ab failed; see $out/$name.log" >&2; exit 1; }
}

# verdicts NAME: each comparison's rows, "k fragment verdict"; runs
# k*PER+1 .. (k+1)*PER of each side, so each comparison's runs are in
# the order make ab gave them (AB BA ...)
verdicts() {
	r=$out/$1
	k=0
	while [ "$k" -lt "$n" ]; do
		a='' b='' j=1
		while [ "$j" -le "$PER" ]; do
			a="$a $r/A/run$((PER * k + j))"
			b="$b $r/B/run$((PER * k + j))"
			j=$((j + 1))
		done
		# shellcheck disable=SC2086 # lists of run folders
		# the verdict: the last word, or the one before "(ops 4 → 5)"
		"$CS" ab -q --clock time $a -- $b 2>/dev/null |
			awk -v k="$k" '$2 == "time" {
				v = $NF
				if (index($0, "(ops")) { n = split(substr($0, 1, index($0, "(ops") - 1), w, " "); v = w[n] }
				print k, $1, v }'
		k=$((k + 1))
	done
}

mkdir -p "$out"
t0=$(date +%s)
if [ "${JUDGE_ONLY:-0}" != 1 ]; then
	measure aa BASE=HEAD NEW=HEAD
	measure plus10 BASE=HEAD NEW=HEAD KCFLAGS_B=-DCB_TEST_AB_ONE_MORE
fi
t1=$(date +%s)
verdicts aa > "$out/aa.txt"
verdicts plus10 > "$out/plus10.txt"

rows=$(awk '$1 == 0' "$out/aa.txt" | wc -l)
echo "make ab CLOCK=time rates: $n comparisons of $PER v $PER runs, cut from $RUNS interleaved"
echo "runs a side of cyclebench-user, $rows rows (only=$SEL; cpu $CPU, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))"
awk -v n="$n" '
	function alarm(w) { return w == "slower" || w == "faster" }
	function row(what, name) {
		if (seen[name])
			printf "%-50s %3d/%-2d  at least 19/20\n", what, more[name], n
		else
			printf "%-50s %6s  (not in only=)\n", what, "-"
	}
	FILENAME ~ /aa.txt$/ { if (alarm($3)) { aa[$1] = 1; who[$2 " " $3]++ } }
	FILENAME ~ /plus10.txt$/ && $2 == "ab:ten_plus" { if ($3 == "slower") found++; v[$3]++ }
	FILENAME ~ /plus10.txt$/ && ($2 == "ab:adds" || $2 == "ab:shl") { seen[$2] = 1; if ($3 == "slower") more[$2]++ }
	FILENAME ~ /plus10.txt$/ && $2 !~ /^ab:(ten_plus|adds|shl|only_b)$/ {
		if (alarm($3)) { other[$1] = 1; who2[$2 " " $3]++ } }
	END {
		for (k in aa) alarms++
		for (k in other) moved++
		printf "%-50s %6s  %s\n", "", "this", "goal"
		printf "%-50s %3d/%-2d  at most 1/20\n", "A/A: comparisons with an alarm (any row)", alarms, n
		printf "%-50s %3d/%-2d  at least 19/20\n", "+10 %: ab:ten_plus found slower", found, n
		row("+10 %: ab:adds (one add more) found slower", "ab:adds")
		row("+10 %: ab:shl (ops 4 -> 5) found slower", "ab:shl")
		printf "%-50s %3d/%-2d  at most 1/20\n", "+10 %: comparisons where an unchanged row moved", moved, n
		printf "ab:ten_plus verdicts:"
		for (w in v) printf " %s %d", w, v[w]
		printf "\n"
		for (w in who) printf "A/A alarm: %s in %d\n", w, who[w]
		for (w in who2) printf "+10 %% other row: %s in %d\n", w, who2[w]
	}' "$out/aa.txt" "$out/plus10.txt"
if [ "${JUDGE_ONLY:-0}" = 1 ]; then
	echo "(the runs in $out judged again; each comparison: cyclestat ab -q --clock time)"
else
	echo "(measured in $((t1 - t0)) s, both builds included; each comparison: cyclestat ab -q --clock time; the runs: $out)"
fi
