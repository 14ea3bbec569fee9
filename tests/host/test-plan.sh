#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-plan.sh - how 'make test' lays its lanes out (scripts/test.sh
# --plan, which runs nothing): every lane once; kmod first in slot 1,
# whose W=1 builds the QEMU lanes use; in a slot the userspace lanes before
# the QEMU lanes, those in KERNELS's order (the debug lane's icount
# compares with 6.1's); and --plan changes no file (of a private copy
# of the checkout: other lanes write into it meanwhile).
. "$(dirname "$0")/lib.sh"

copy=$(tracked_copy) || { fail "a private copy of the checkout"; summary; exit 1; }
cd "$copy" || exit 1
all="kmod cyclestat runner scripts qemu-6.1 qemu-6.12 qemu-6.12-rt qemu-6.1-debug"

# check_plan WHAT EXPECTED-LANES PLAN: the plan's structure
check_plan() {
	lanes=$(printf '%s\n' "$3" | sed 's/^slot [0-9]*: //; s/ (ends after about [0-9]* s)$//' | tr ' ' '\n')
	expect_eq "$1: every lane once" "$(echo "$2" | tr ' ' '\n' | sort)" "$(echo "$lanes" | sort)"
	expect_no_match "$1: no empty slot" '^slot [0-9]*: \(' "$3"
	expect_eq "$1: the slots end with an estimate" "" \
		"$(printf '%s\n' "$3" | grep -v '^slot [0-9]*: [^(]* (ends after about [0-9]* s)$')"
	bad=$(printf '%s\n' "$3" | sed 's/ (ends.*//' | awk '{
		q = 0; last = -1
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^qemu-/) {
				q = 1
				# KERNELS order: 6.1 6.12 6.12-rt 6.1-debug
				r = ($i == "qemu-6.1") ? 0 : ($i == "qemu-6.12") ? 1 : ($i == "qemu-6.12-rt") ? 2 : 3
				if (r < last) print $1 $2 " " $i " after another QEMU lane of later KERNELS order"
				last = r
			} else if ($i == "kmod" && i != 3) print $1 $2 " kmod not first"
			else if (q) print $1 $2 " " $i " after a QEMU lane"
		}
	}')
	expect_eq "$1: a slot runs kmod first, then userspace, then QEMU in KERNELS order" "" "$bad"
}

before=$(tree_state .)
unset KERNELS
p=$(CB_TEST_JOBS=2 bash scripts/test.sh --plan 2>&1)
check_plan "2 CPUs" "$all" "$p"
expect_eq "2 CPUs: two slots" 2 "$(printf '%s\n' "$p" | grep -c '^slot')"
expect_match "2 CPUs: slot 1 starts with kmod" '^slot 1: kmod( |$)' "$p"
# make test's target on two CPUs, 30 minutes on the lanes' estimates
# (scripts/test.sh's lane_s; make ab's suite in the 6.12 lane is about 5
# of them, the memcount suite and the 8-run gates in the 6.1 lane 4)
ends=$(printf '%s\n' "$p" | sed -n 's/.*ends after about \([0-9]*\) s.*/\1/p' | sort -n | tail -n 1)
expect_eq "2 CPUs: the later slot ends within 30 minutes on the estimates ($ends s)" yes \
	"$([ "${ends:-9999}" -le 1800 ] && echo yes || echo no)"

p=$(CB_TEST_JOBS=1 bash scripts/test.sh --plan 2>&1)
check_plan "1 CPU" "$all" "$p"
expect_eq "1 CPU: one slot" 1 "$(printf '%s\n' "$p" | grep -c '^slot')"

for j in 3 16; do
	p=$(CB_TEST_JOBS=$j bash scripts/test.sh --plan 2>&1)
	check_plan "$j CPUs" "$all" "$p"
	expect_match "$j CPUs: slot 1 starts with kmod" '^slot 1: kmod( |$)' "$p"
done

p=$(KERNELS=6.1 CB_TEST_JOBS=2 bash scripts/test.sh --plan 2>&1)
check_plan "KERNELS=6.1" "kmod cyclestat runner scripts qemu-6.1" "$p"

out=$(bash scripts/test.sh --bogus 2>&1) && rc=0 || rc=$?
expect_eq "an unknown argument: exit 2" 2 "$rc"
expect_match "an unknown argument: named, with what is valid" "unknown argument '--bogus' \(--plan" "$out"
out=$(CB_TEST_JOBS=0 bash scripts/test.sh --plan 2>&1) && rc=0 || rc=$?
expect_eq "CB_TEST_JOBS=0: exit 2" 2 "$rc"
expect_match "CB_TEST_JOBS=0: named" 'CB_TEST_JOBS=0' "$out"
expect_eq "--plan changed no file in the checkout" "$before" "$(tree_state .)"
cd / && rm -rf "$copy"
summary
