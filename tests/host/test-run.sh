#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-run.sh - scripts/run.sh ('make run') refuses what it cannot pass on,
# before it loads or boots anything: a PARAMS word whose key the module
# does not have (a typo) exits 2 naming the key and the module's keys.
# Needs the module's build tree (scripts/deps.sh); skipped without one.
. "$(dirname "$0")/lib.sh"

kdir=$("$top/scripts/kdir.sh" 2>/dev/null)
if [ ! -e "$kdir/Makefile" ]; then
	skip "scripts/run.sh PARAMS checks (no kernel headers: sudo scripts/deps.sh)"
	summary
	exit $?
fi
for bad in sample=100 "samples=100 max_sample=5"; do
	out=$(cd "$top" && CB_QEMU=1 CB_USER=0 PARAMS="$bad" timeout 600 scripts/run.sh 2>&1) && rc=0 || rc=$?
	key=$(echo "$bad" | tr ' ' '\n' | grep -v '^samples=' | sed 's/=.*//')
	expect_eq "run.sh PARAMS='$bad': exit 2 before booting" 2 "$rc"
	expect_match "run.sh PARAMS='$bad': names the key '$key' and the module's" \
		"unknown parameter '$key' \\(the module's: .*samples.*\\)" "$out"
	if echo "$out" | grep -q 'EMULATED\|QEMU'; then
		fail "run.sh PARAMS='$bad': booted nothing (its output mentions QEMU)"
	else
		pass "run.sh PARAMS='$bad': booted nothing"
	fi
done
summary
