#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-ab.sh - scripts/ab.sh ('make ab') refuses what it cannot compare
# before it builds or boots anything, exit 2 with a line naming the fix:
# nothing to compare, a revision that is no commit, an unknown clock, a
# number of runs that is none, a kernel image without the tree it was
# built in; and (natively) two kernels, which need a reboot; RUNNER=user
# with a kernel, a command line or the icount clock.  The module's
# comparisons boot QEMU: tests/e2e/ab.sh.  RUNNER=user's run here, on this
# CPU: two builds of cyclebench-user with the tests' group, B's ab:adds
# and ab:ten_plus one add more a copy, ab:shl one shift more and ops 5 for
# 4 (per op each side's own, the change a copy's), and ab:only_b its own,
# named in only= (A's runs leave it out); the runs in the order AB BA AB;
# every way out ends with the line "verdict: ... (exit N from scripts/ab.sh)".
. "$(dirname "$0")/lib.sh"

# ab VAR=VALUE...: scripts/ab.sh's output, its exit status in $rc
ab() {
	out=$(cd "$top" && env -u BASE -u NEW -u KERNEL_A -u KERNEL_B -u CMDLINE_A \
		-u CMDLINE_B -u KCFLAGS_A -u KCFLAGS_B -u CLOCK -u RUNS -u KDIR_A -u KDIR_B -u RUNNER -u PARAMS \
		-u CB_AB_ADD CB_QEMU=1 CB_AB_OUT="$T/ab" "$@" timeout "${AB_TIMEOUT:-60}" scripts/ab.sh 2>&1) &&
		rc=0 || rc=$?
}
T=$(mktemp -d)
ab
expect_eq "make ab with nothing to compare: exit 2" 2 "$rc"
expect_match "make ab with nothing to compare: says BASE=, KERNEL_A=, CMDLINE_A=" \
	'say what to compare: BASE=REV .*KERNEL_A=K KERNEL_B=K.*CMDLINE_A' "$out"
expect_eq "make ab with nothing to compare: the last line says the verdict and the exit" \
	"verdict: could not compare (exit 2 from scripts/ab.sh)" "$(printf '%s\n' "$out" | tail -n 1)"
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
ab BASE=HEAD RUNNER=user KERNEL_B=6.12
expect_eq "RUNNER=user KERNEL_B=6.12: exit 2" 2 "$rc"
expect_match "RUNNER=user KERNEL_B=6.12: says two kernels need the module" \
	"RUNNER=user runs in this host's kernel .*need the module, RUNNER=module" "$out"
ab BASE=HEAD RUNNER=user CLOCK=icount
expect_eq "RUNNER=user CLOCK=icount: exit 2" 2 "$rc"
expect_match "RUNNER=user CLOCK=icount: says icount is QEMU's" \
	"CLOCK=icount counts instructions in QEMU's emulator; RUNNER=user times this CPU: CLOCK=time" "$out"
ab BASE=HEAD RUNNER=kmod
expect_eq "RUNNER=kmod: exit 2" 2 "$rc"
expect_match "RUNNER=kmod: says the runners" "RUNNER=kmod: want module \\(cyclebench.ko\\) or user" "$out"
expect_eq "refused before building: no build directory" no \
	"$([ -d "$T/ab/ko" ] || [ -d "$T/ab/user" ] && echo yes || echo no)"

# RUNNER=user, 3 runs a side: the table, the runs, ab.txt
AB_TIMEOUT=1200 ab BASE=HEAD RUNNER=user RUNS=3 CB_AB_ADD=tests/kmod/ab.c \
	KCFLAGS_B=-DCB_TEST_AB_ONE_MORE PARAMS=only=ab:adds,ab:same,ab:ten,ab:ten_plus,ab:shl,ab:only_b
expect_le "RUNNER=user: exit 0, 1 or 2 (the verdict; no failure)" 2 "$rc"
expect_eq "RUNNER=user: the last line says the verdict and the exit status" \
	"verdict: $(case $rc in 0) echo nothing slower ;; 1) echo slower ;; *) echo could not compare ;; esac) (exit $rc from scripts/ab.sh)" \
	"$(printf '%s\n' "$out" | tail -n 1)"
expect_match "RUNNER=user: only= naming B's own fragment: said, and A's runs leave it out" \
	"only=ab:only_b: only B's build has it; A's runs leave it out \\(its row: new\\)" "$out"
expect_match "RUNNER=user: the runs in the order AB BA AB" "in the order AB BA AB" "$out"
expect_match "RUNNER=user: ab.txt records the order" "order: AB BA AB" \
	"$(cat "$T/ab/results/ab.txt" 2>/dev/null)"
expect_match "RUNNER=user: ab.txt records each side's selection" "params A: only=ab:adds,ab:same,ab:ten,ab:ten_plus,ab:shl,calib:add_chain" \
	"$(cat "$T/ab/results/ab.txt" 2>/dev/null)"
expect_match "RUNNER=user: every row on the time clock" \
	"ab:ten +time +cycles/op" "$out"
expect_match "RUNNER=user: ab:only_b, in B alone, listed new" 'ab:only_b +- +- +new' "$out"
# (11 dependent adds for 10 and 5 for 4: a chain of adds is one cycle
# each on any x86 core, and each run is over its own calib:add_chain, so
# B's median per op is 1.10 and 1.25 times A's; more than 1.05 holds
# however busy the host, and fails where B was built the same as A)
for fr in adds ten_plus; do
	expect_match "RUNNER=user: ab:$fr dearer in B by more than 5 % (one add more a copy)" yes \
		"$(echo "$out" | awk -v f="ab:$fr" '$1 == f { print ($5 > 1.05 * $4 ? "yes" : "no: " $0) }')"
done
# (a shift is one cycle, as an add: per op with each side's own ops the
# sides agree within 5 %, and a copy of 5 costs more than 1.2 of 4)
expect_match "RUNNER=user: ab:shl says its ops changed, per op each side's own, a copy 20 % dearer or more" yes \
	"$(echo "$out" | awk '$1 == "ab:shl" { print ($5 < 1.05 * $4 && $4 < 1.05 * $5 && $8 + 0 >= 20 &&
		/\(ops 4 → 5\)$/ ? "yes" : "no: " $0) }')"
n=$(ls -d "$T"/ab/results/A/run* "$T"/ab/results/B/run* 2>/dev/null | wc -l)
expect_eq "RUNNER=user: 3 runs a side kept" 6 "$n"
expect_match "RUNNER=user: ab.txt says how they ran" "interleaved: yes, one process a run" \
	"$(cat "$T/ab/results/ab.txt" 2>/dev/null)"

# an only= item neither build has: refused before a run, with the fix
rm -rf "$T/ab/results"
AB_TIMEOUT=600 ab BASE=HEAD RUNNER=user RUNS=3 CB_AB_ADD=tests/kmod/ab.c \
	KCFLAGS_B=-DCB_TEST_AB_ONE_MORE PARAMS=only=ab:nope
expect_eq "RUNNER=user only=ab:nope: exit 2" 2 "$rc"
expect_match "RUNNER=user only=ab:nope: names it, and where the names are" \
	"only=ab:nope names no fragment of A's build or B's; .*/user/B --list lists B's" "$out"
expect_eq "RUNNER=user only=ab:nope: nothing ran" no "$([ -d "$T/ab/results/A" ] && echo yes || echo no)"
rm -rf "$T"
summary
