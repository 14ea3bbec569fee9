#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-ab.sh - scripts/ab.sh ('make ab') refuses what it cannot compare
# before it builds or boots anything, exit 2 with a line naming the fix:
# nothing to compare, a revision that is no commit, an unknown clock, a
# number of runs that is none, a kernel image without the tree it was
# built in; and (natively) two kernels, which need a reboot.  The comparisons themselves boot QEMU: tests/e2e/ab.sh.
. "$(dirname "$0")/lib.sh"

# ab VAR=VALUE...: scripts/ab.sh's output, its exit status in $rc
ab() {
	out=$(cd "$top" && env -u BASE -u NEW -u KERNEL_A -u KERNEL_B -u CMDLINE_A \
		-u CMDLINE_B -u KCFLAGS_A -u KCFLAGS_B -u CLOCK -u RUNS -u KDIR_A -u KDIR_B CB_QEMU=1 \
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
expect_match "CLOCK=tsc: says the clocks" 'CLOCK=tsc: want icount, time or both' "$out"
ab BASE=HEAD RUNS=0
expect_eq "RUNS=0: exit 2" 2 "$rc"
expect_match "RUNS=0: says what it wants" 'RUNS=0: want a number of runs a side, >= 1' "$out"
# a kernel of one's own: its image, and the tree the module builds against
ab KERNEL_A=6.1 KERNEL_B="$T/no/bzImage"
expect_eq "KERNEL_B=a path that is no file: exit 2" 2 "$rc"
expect_match "KERNEL_B=a path that is no file: says what to give" \
	"KERNEL_B=$T/no/bzImage: no such image; give a bzImage" "$out"
mkdir -p "$T/linux/arch/x86/boot"
: > "$T/linux/arch/x86/boot/bzImage"
ab KERNEL_A=6.1 KERNEL_B="$T/linux/arch/x86/boot/bzImage"
expect_eq "KERNEL_B=an image, no KDIR_B: exit 2" 2 "$rc"
expect_match "KERNEL_B=an image, no KDIR_B: asks for the tree it was built in" \
	"is an image of your own: name the tree it was built in, KDIR_B=DIR" "$out"
ab KERNEL_A=6.1 KERNEL_B="$T/linux/arch/x86/boot/bzImage" KDIR_B="$T/linux"
expect_eq "KDIR_B=a directory with no build tree: exit 2" 2 "$rc"
expect_match "KDIR_B=a directory with no build tree: says what it lacks" \
	"KDIR_B=$T/linux: no kernel build tree there \\(a Makefile and Module.symvers" "$out"
expect_eq "refused before building: no build directory" no "$([ -d "$T/ab/ko" ] && echo yes || echo no)"
rm -rf "$T"
summary
