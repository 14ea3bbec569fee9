#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ci-gate-guest.sh - the QEMU proof of the bare-metal CI gate: a guest plays
# the bare-metal runner and runs scripts/ci-bare-metal.sh, unchanged, four
# times in one boot:
#   1. --update-baseline            records a baseline from this build
#                                   (CB_RUNS runs, default 8: repetitions);
#   2. against that baseline        must pass: exit 0, every verdict ok;
#   3. against a copy doctored 30% faster for one fragment (default
#      alu:imul_dep; cycles and cycles_long of every run scaled)
#                                   must fail: exit 1, exactly one "not ok",
#                                   naming that fragment;
#   3b. --ab with this build as the base too: an A/A session, 10 pairs,
#      compare --paired: must pass, every verdict ok;
#   4. SIGTERM in the middle of a run  exit 143, module unloaded.
# After each, the module must be unloaded. With -icount shift=0 the figures
# are exact: every run is identical, so 2 gives "same" with a zero-width
# interval, and 3 is detected at p = 2/C(16,8) = 0.00016 with 8 runs: under
# 0.01 over the rows (Holm's correction; 5 runs, 2/C(10,5) = 0.0079, decide
# a single row only).
#
# From the host (scripts/qemu-run.sh puts the module at /cyclebench.ko and
# cyclestat in PATH, side.sh beside them; --add copies the gate script to /):
#
#   scripts/qemu-run.sh --icount --out build/e2e/ci-gate \
#       --add scripts/ci-bare-metal.sh tests/host/ci-gate-guest.sh [FRAGMENT]
#
# Checks are TAP points (tests/tap/tap.sh, /tap.sh in the guest) kept in
# /out/results.txt, as the tests/e2e guests keep theirs; each run's
# artifacts and TAP to /out/ci-*/.
# CB_CI, CB_KO, CB_OUT, CB_CYCLESTAT, CB_FRAGMENTS and CB_PARAMS override the
# guest paths and the run; with ci-bare-metal.sh's test hooks (CB_SYSROOT,
# CB_INSMOD, CB_RMMOD, ...) tests/host runs this script on the host.
set -u

ci=${CB_CI:-/ci-bare-metal.sh}
ko=${CB_KO:-/cyclebench.ko}
out=${CB_OUT:-/out}
cyclestat=${CB_CYCLESTAT:-$(command -v cyclestat)}
fragments=${CB_FRAGMENTS:-base,alu}
params=${CB_PARAMS:-samples=200 ensembles=5 warmup=20}
runs=${CB_RUNS:-8}
victim=${1:-alu:imul_dep}
results=$out/results.txt
work=${TMPDIR:-/tmp}/ci-gate.$$
mkdir -p "$out" "$work"
: >"$results"

# (tap.sh: /tap.sh in the guest, beside this file's folder on the host)
tap=/tap.sh
[ -r "$tap" ] || tap=$(dirname "$0")/../tap/tap.sh
# shellcheck source=../tap/tap.sh
. "$tap"
TAP_LOG=$results

# gate NAME ARGS...: one run of the gate; sets $rc and $tap.
gate() {
	name=$1
	shift
	rc=0
	sh "$ci" --ko "$ko" --cyclestat "$cyclestat" --fragments "$fragments" \
		--params "$params" --runs "$runs" --out "$out/ci-$name" "$@" >"$work/$name.tap" 2>"$out/ci-$name.log" || rc=$?
	tap=$(cat "$work/$name.tap")
	printf '%s\n' "$tap" | sed "s/^/# $name: /"
	if [ -e "${CB_SYSROOT:-}/sys/module/cyclebench" ]; then
		fail "gate $name: module unloaded afterwards"
		"${CB_RMMOD:-rmmod}" cyclebench
	else
		pass "gate $name: module unloaded afterwards"
	fi
}

gate baseline --update-baseline --baseline "$work/base"
expect_eq "gate --update-baseline: exit 0" 0 "$rc"
n=$(printf '%s\n' "$tap" | grep -c '^ok ' || true)
expect_eq "gate --update-baseline: the baseline has $victim" yes \
	"$([ -s "$work/base/run-1/${victim%%:*}/${victim#*:}/cycles" ] && echo yes || echo no)"

gate same --baseline "$work/base"
expect_eq "gate against a baseline from the same build: exit 0" 0 "$rc"
expect_eq "gate against a baseline from the same build: $n fragments, none slower" "$n 0" \
	"$(printf '%s\n' "$tap" | grep -c '^ok ' || true) $(printf '%s\n' "$tap" | grep -c '^not ok' || true)"

cp -R "$work/base" "$work/doctored"
for r in "$work/base"/run-*; do
	for file in cycles cycles_long; do
		f=$r/${victim%%:*}/${victim#*:}/$file
		[ -f "$f" ] || continue
		awk '{ printf "%d\n", $1 * 0.7 + 0.5 }' "$f" \
			>"$work/doctored/${r##*/}/${victim%%:*}/${victim#*:}/$file"
	done
done
gate doctored --baseline "$work/doctored"
expect_eq "gate against a baseline doctored 30% faster for $victim: exit 1" 1 "$rc"
expect_eq "gate against the doctored baseline: exactly $victim is not ok" "$victim slower" \
	"$(printf '%s\n' "$tap" | sed -n 's/^not ok [0-9]* - \([^ ]*\) \([a-z]*\) .*/\1 \2/p')"

# 3b. --ab with this build on both sides: an A/A session, pair by pair
# (exact under icount: every difference 0, "same").
gate ab --ab "$ko" --runs 10
expect_eq "gate --ab, this build against itself: exit 0" 0 "$rc"
expect_eq "gate --ab: $n fragments, none slower" "$n 0" \
	"$(printf '%s\n' "$tap" | grep -c '^ok ' || true) $(printf '%s\n' "$tap" | grep -c '^not ok' || true)"
if [ "${CB_GUEST_INTERRUPT:-1}" = 1 ]; then
	expect_eq "gate --ab: 10 pairs for every fragment (4 rows' fewest), compared paired, each seeing 2 %" "$n paired" \
		"$(printf '%s\n' "$tap" | grep -c 'n=10/10, sees 2.0%)') $(grep -o '"repetitions": "paired runs"' "$out/ci-ab/compare.json" | head -n 1 | sed 's/.*"paired runs"/paired/')"
fi
# 4. SIGTERM in the middle of a run (what a CI runner sends on cancel; a
# background job here cannot get SIGINT, which the gate traps the same way):
# exit 143, the run abandoned, the module unloaded. Needs the real module's
# status file, so only in the guest.
if [ "${CB_GUEST_INTERRUPT:-1}" = 1 ]; then
	sh "$ci" --ko "$ko" --cyclestat "$cyclestat" --fragments alu \
		--params "samples=20000 ensembles=50 warmup=20" --baseline "$work/base" \
		--out "$out/ci-interrupted" >/dev/null 2>"$out/ci-interrupted.log" &
	pid=$!
	st=
	i=0
	while [ $i -lt 600 ]; do
		st=$(cat /sys/kernel/debug/cyclebench/status 2>/dev/null || true)
		case $st in running*) break ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "gate signalled mid-run: the run was going when the signal came" running "${st%% *}"
	expect_eq "gate signalled mid-run (SIGTERM): exit 143" 143 "$rc"
	if [ -e /sys/module/cyclebench ]; then
		fail "gate signalled mid-run: module unloaded afterwards"
		rmmod cyclebench
	else
		pass "gate signalled mid-run: module unloaded afterwards"
	fi
fi

rm -rf "$work"
tap_end > /dev/null
