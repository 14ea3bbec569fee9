#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-ab.sh - scripts/ab.sh ('make ab') refuses what it cannot compare
# before it builds or boots anything, exit 2 with a line naming the fix:
# nothing to compare, a revision that is no commit, an unknown clock, a
# number of runs that is none; and (natively) two kernels, which need a
# reboot.  The comparisons themselves boot QEMU: tests/e2e/ab.sh.
. "$(dirname "$0")/lib.sh"

# ab VAR=VALUE...: scripts/ab.sh's output, its exit status in $rc
ab() {
	out=$(cd "$top" && env -u BASE -u NEW -u KERNEL_A -u KERNEL_B -u CMDLINE_A \
		-u CMDLINE_B -u KCFLAGS_A -u KCFLAGS_B -u CLOCK -u RUNS CB_QEMU=1 \
		CB_AB_OUT="$T/ab" "$@" timeout 60 scripts/ab.sh 2>&1) && rc=0 || rc=$?
}
T=$(mktemp -d)
ab
expect_eq "make ab with nothing to compare: exit 2" 2 "$rc"
expect_match "make ab with nothing to compare: says BASE=, KERNEL_A=, CMDLINE_A=" \
	'say what to compare: BASE=REV .*KERNEL_A=K KERNEL_B=K.*CMDLINE_A' "$out"
ab BASE=no-such-rev
expect_eq "BASE=no-such-rev: exit 2" 2 "$rc"
expect_match "BASE=no-such-rev: names it, and where the commits are" \
	"'no-such-rev' is no commit of this repository \\(git log" "$out"
ab BASE=HEAD CLOCK=tsc
expect_eq "CLOCK=tsc: exit 2" 2 "$rc"
expect_match "CLOCK=tsc: says the clocks" 'CLOCK=tsc: want icount or time' "$out"
ab BASE=HEAD RUNS=0
expect_eq "RUNS=0: exit 2" 2 "$rc"
expect_match "RUNS=0: says what it wants" 'RUNS=0: want a number of runs a side, >= 1' "$out"
expect_eq "refused before building: no build directory" no "$([ -d "$T/ab/ko" ] && echo yes || echo no)"
rm -rf "$T"
summary
