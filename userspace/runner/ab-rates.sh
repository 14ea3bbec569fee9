#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab-rates.sh (make bench): how often does make ab's CLOCK=time verdict
# hold?  Two make ab RUNNER=user runs of RUNS (100) runs a side, A, B, A,
# B ... on this CPU, each cut into RUNS/5 comparisons of 5 v 5 runs
# (cyclestat ab, as make ab's default of 5 runs a side would give):
#
#   A/A    one build on both sides: a row called slower or faster is a
#          false alarm (every row counts, the references too)
#   +10 %  B built with -DCB_TEST_AB_ONE_MORE (tests/kmod/ab.c): ab:ten_plus
#          runs 11 adds for 10, and must be found slower; ab:ten, the same
#          code in the other build, must not be called anything
#
# Issue 43's bar: no alarm in at least 19 of 20, the +10 % found in at
# least 19 of 20.  A benchmark: it prints, it never fails on what it
# measured.
#
#   RUNS=100 CPU=0 AB_RATES_OUT=DIR sh ab-rates.sh
. "$(dirname "$0")/../../scripts/help.sh"
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CS=$top/userspace/cyclestat/cyclestat
RUNS=${RUNS:-100}
CPU=${CPU:-0}
out=${AB_RATES_OUT:-$top/build/bench-ab}
n=$((RUNS / 5))
[ "$n" -ge 1 ] || { echo "ab-rates.sh: RUNS=$RUNS: want 5 or more (comparisons of 5 v 5)" >&2; exit 2; }

# measure NAME [VAR=VALUE...]: one make ab RUNNER=user, its runs into
# $out/NAME, the builds kept in $out (A's is built once).  Its exit
# status is its verdict over all the runs: the runs are what count here.
measure() {
	name=$1
	shift
	env "$@" RUNNER=user CB_AB_ADD=tests/kmod/ab.c CB_AB_OUT="$out" CB_AB_RESULTS="$out/$name" \
		RUNS="$RUNS" PARAMS="only=ab:ten,ab:ten_plus cpu=$CPU" "$top/scripts/ab.sh" > "$out/$name.log" 2>&1
	[ -d "$out/$name/B/run$RUNS" ] ||
		{ echo "ab-rates.sh: make ab failed; see $out/$name.log" >&2; exit 1; }
}

# verdicts NAME: each comparison's rows, "k fragment verdict"
verdicts() {
	r=$out/$1
	k=0
	while [ "$k" -lt "$n" ]; do
		a='' b=''
		for j in 1 2 3 4 5; do
			a="$a $r/A/run$((5 * k + j))"
			b="$b $r/B/run$((5 * k + j))"
		done
		# shellcheck disable=SC2086 # lists of run folders
		"$CS" ab -q --clock time $a -- $b 2>/dev/null |
			awk -v k="$k" '$2 == "time" { print k, $1, $NF }'
		k=$((k + 1))
	done
}

mkdir -p "$out"
t0=$(date +%s)
measure aa BASE=HEAD NEW=HEAD
measure plus10 BASE=HEAD NEW=HEAD KCFLAGS_B=-DCB_TEST_AB_ONE_MORE
t1=$(date +%s)
verdicts aa > "$out/aa.txt"
verdicts plus10 > "$out/plus10.txt"

echo "make ab CLOCK=time rates: $n comparisons of 5 v 5 runs, cut from $RUNS interleaved"
echo "runs a side of cyclebench-user ab:ten,ab:ten_plus (cpu $CPU, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))"
awk -v n="$n" '
	FILENAME ~ /aa.txt$/ { if ($3 == "slower" || $3 == "faster") aa[$1] = 1 }
	FILENAME ~ /plus10.txt$/ && $2 == "ab:ten_plus" { if ($3 == "slower") found++; v[$3]++ }
	FILENAME ~ /plus10.txt$/ && $2 == "ab:ten" { if ($3 == "slower" || $3 == "faster") ten++ }
	END {
		for (k in aa) alarms++
		printf "%-44s %6s  %s\n", "", "this", "goal"
		printf "%-44s %3d/%-2d  >= 19/20 without\n", "A/A: comparisons with an alarm (any row)", alarms, n
		printf "%-44s %3d/%-2d  >= 19/20\n", "+10 %: ab:ten_plus found slower", found, n
		printf "%-44s %3d/%-2d  >= 19/20 without\n", "+10 %: ab:ten (unchanged) called a change", ten, n
		printf "ab:ten_plus verdicts:"
		for (w in v) printf " %s %d", w, v[w]
		printf "\n"
	}' "$out/aa.txt" "$out/plus10.txt"
echo "(measured in $((t1 - t0)) s, both builds included; each comparison: cyclestat ab -q --clock time; the runs: $out)"
