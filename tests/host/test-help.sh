#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-help.sh - every script a user may run (not the sourced help.sh,
# console.sh, side.sh and memcount.sh, nor the guest's guest-run.sh)
# answers -h and --help with its
# usage on stdout and exit 0, and does nothing else: every file of a
# private copy of the checkout, where they run, is the same afterwards.
. "$(dirname "$0")/lib.sh"

copy=$(tracked_copy) || { fail "a private copy of the checkout"; summary; exit 1; }
cd "$copy" || exit 1
scripts=$(ls scripts/*.sh tests/e2e/run.sh tests/e2e/gate-boots.sh tests/kmod/run.sh \
	tests/host/run.sh userspace/runner/*.sh userspace/cyclestat/tests/bench.sh \
	userspace/cyclestat/tests/gate-rates.sh userspace/cyclestat/tests/golden.sh userspace/cyclestat/tests/run.sh .ci/run |
	grep -v -e '/help\.sh$' -e '/console\.sh$' -e '/side\.sh$' -e '/memcount\.sh$' -e '/guest-run\.sh$')
before=$(tree_state .)
for s in $scripts; do
	for opt in -h --help; do
		out=$(timeout 20 bash "$s" $opt 2>/dev/null) && rc=0 || rc=$?
		expect_eq "$s $opt: exit 0" 0 "$rc"
		expect_match "$s $opt: prints its usage (2 lines or more)" '.' "$(printf '%s\n' "$out" | sed -n 2p)"
	done
done
expect_eq "--help changed no file in the checkout" "$before" "$(tree_state .)"
cd / && rm -rf "$copy"
summary
