#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-run.sh - scripts/run.sh ('make run') refuses what it cannot pass on,
# before it loads or boots anything: a PARAMS word whose key the module
# does not have (a typo) exits 2 naming the key and the module's keys; an
# only= item that names no fragment exits 2 with the closest names; a
# refused load shows the module's words from the kernel log; MEM=,
# CACHE= and KERNEL= it could not use are refused before it boots.
# Needs the module's build tree (scripts/deps.sh); skipped without one.
. "$(dirname "$0")/lib.sh"

# What make run shows of a refused load: the module's words from the kernel
# log, without the kernel's notices about an unsigned out-of-tree module.
eval "$(sed -n '/^kernel_says() {/,/^}/p' "$top/scripts/run.sh")"
log=$(mktemp)
cat > "$log" <<'LOG'
[    4.72] cyclebench: loading out-of-tree module taints kernel.
[    4.73] cyclebench: module verification failed: signature and/or required key missing - tainting kernel
[    4.74] cyclebench: `ten' invalid for parameter `samples'
[    4.75] other: not ours
LOG
expect_eq "kernel_says: the module's own line, not the taint notices" \
	"cyclebench: \`ten' invalid for parameter \`samples'" "$(kernel_says "$log" 2>&1)"
rm -f "$log"

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

# A mistyped selection: refused from the built module's own list
out=$(cd "$top" && CB_QEMU=1 CB_USER=0 PARAMS="only=alu,mem:chsae,tme" timeout 600 scripts/run.sh 2>&1) && rc=0 || rc=$?
expect_eq "run.sh only=alu,mem:chsae,tme: exit 2 before booting" 2 "$rc"
expect_match "run.sh only=mem:chsae: the closest name" \
	"only=: no fragment or group 'mem:chsae' \\(did you mean mem:chase\\?\\)" "$out"
expect_match "run.sh only=tme: the closest group" \
	"only=: no fragment or group 'tme' \\(did you mean time\\?\\)" "$out"
if echo "$out" | grep -q "'alu'\|EMULATED\|QEMU"; then
	fail "run.sh only=alu,mem:chsae,tme: alu passes, nothing booted: $out"
else
	pass "run.sh only=alu,mem:chsae,tme: alu passes, nothing booted"
fi
# MEM=1's words: a MEM that is not 0 or 1, and a cache model the plugin
# would refuse at boot, are refused before anything boots
out=$(cd "$top" && MEM=2 timeout 60 scripts/run.sh 2>&1) && rc=0 || rc=$?
expect_eq "run.sh MEM=2: exit 2" 2 "$rc"
expect_match "run.sh MEM=2: says what MEM takes" "MEM=2: want 1 .* or 0" "$out"
out=$(cd "$top" && CB_USER=0 MEM=1 CACHE=l1d=32K,l2=1M:16:64 PARAMS=only=alu:add_dep \
	timeout 600 scripts/run.sh 2>&1) && rc=0 || rc=$?
expect_eq "run.sh MEM=1 CACHE=l1d=32K: exit 2 before booting" 2 "$rc"
expect_match "run.sh MEM=1 CACHE=l1d=32K: says the form, and where this host's comes from" \
	"CACHE=l1d=32K,l2=1M:16:64: want l1d=SIZE:WAYS:LINE.*host-caches.sh" "$out"
if echo "$out" | grep -q "booting\|EMULATED\|ICOUNT"; then
	fail "run.sh MEM=1 CACHE=l1d=32K: nothing booted: $out"
else
	pass "run.sh MEM=1 CACHE=l1d=32K: nothing booted"
fi
# KERNEL= names a series deps.sh set up; another is refused, with the fix
out=$(cd "$top" && CB_USER=0 KERNEL=5.99 timeout 60 scripts/run.sh 2>&1) && rc=0 || rc=$?
expect_eq "run.sh KERNEL=5.99: exit 2" 2 "$rc"
expect_match "run.sh KERNEL=5.99: names the series and the command that sets it up" \
	"no headers for kernel '5.99'.*try: sudo scripts/deps.sh --kernel 5.99" "$out"
# the list is the module's: every fragment of its table, the kernel-only too
names=$("$top/scripts/fragments.sh" "$top/cyclebench.ko")
expect_match "fragments.sh: the built module names time:ktime_get_ns" '^time:ktime_get_ns$' "$names"
expect_eq "fragments.sh: the module's groups, in groups.mk's order" \
	"$(printf 'all:\n\t@echo $(CB_GROUPS)\n' | make -s -f "$top/kmod/fragments/groups.mk" -f - all)" \
	"$(echo "$names" | sed 's/:.*//' | uniq | tr '\n' ' ' | sed 's/ $//')"
summary
