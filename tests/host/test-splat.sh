#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-splat.sh - the kernel-log filters of tests/e2e/splat.sh on logs in
# the kernel's own format: debugfs_race_reports leaves out exactly the
# kernel's debugfs open/rmmod race warning, and every other splat still
# matches SPLAT.
. "$(dirname "$0")/lib.sh"
. "$top/tests/e2e/splat.sh"

# warn MESSAGE FILE:LINE FUNCTION: a WARN() as 6.1 prints it on x86
warn() {
	cat <<LOG
[   61.204310] ------------[ cut here ]------------
[   61.204355] $1
[   61.206120] WARNING: CPU: 1 PID: 2417 at $2 $3+0x1d5/0x240
[   61.206902] Modules linked in: cyclebench(O)
[   61.207431] CPU: 1 PID: 2417 Comm: cat Tainted: G           O       6.1.0-57-cloud-amd64 #1  Debian 6.1.158-1
[   61.208011] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[   61.208530] RIP: 0010:$3+0x1d5/0x240
[   61.212245] Call Trace:
[   61.212371]  <TASK>
[   61.212502]  do_dentry_open+0x1e3/0x410
[   61.212890]  path_openat+0xb15/0x1240
[   61.213120]  do_sys_openat2+0x97/0x150
[   61.213390]  entry_SYSCALL_64_after_hwframe+0x64/0xce
[   61.213602]  </TASK>
[   61.213688] ---[ end trace 0000000000000000 ]---
LOG
}
quiet='[   60.100000] cyclebench: loaded
[   62.300000] cyclebench: unloaded'
race=$(warn "debugfs file owner did not clean up at exit: info" \
	fs/debugfs/file.c:334 full_proxy_open)

# splats LOG: the lines of LOG, through debugfs_race_reports, that SPLAT
# matches
splats() {
	printf '%s\n' "$1" | debugfs_race_reports 2>/dev/null | grep -E "$SPLAT"
}

expect_eq "the race's warning alone is a splat before filtering" yes \
	"$(printf '%s\n' "$race" | grep -qE "$SPLAT" && echo yes || echo no)"
expect_eq "debugfs_race_reports: the race's warning, twice, between other lines: no splat left" "" \
	"$(splats "$quiet
$race
$quiet
$race")"
expect_eq "debugfs_race_reports: the two left out are counted (stderr)" \
	"# 2 of the kernel's debugfs open/rmmod race warnings (fs/debugfs/file.c) left out of the check" \
	"$(printf '%s\n' "$race" "$race" | debugfs_race_reports 2>&1 >/dev/null)"
expect_eq "debugfs_race_reports: the lines around it are kept" \
	"$quiet" "$(printf '%s\n' "$quiet
$race" | debugfs_race_reports 2>/dev/null | grep cyclebench | grep -v Modules)"
got=$(splats "$race
$(warn "cyclebench: a warning of the module's own" kmod/results.c:88 cb_publish)")
expect_eq "debugfs_race_reports: another warning after it still matches SPLAT" \
	"[   61.206120] WARNING: CPU: 1 PID: 2417 at kmod/results.c:88 cb_publish+0x1d5/0x240" \
	"$(printf '%s\n' "$got" | grep WARNING)"
expect_eq "debugfs_race_reports: and its trace too" 1 \
	"$(printf '%s\n' "$got" | grep -c 'Call Trace')"
expect_eq "debugfs_race_reports: the same words warned from elsewhere are not left out" \
	"[   61.206120] WARNING: CPU: 1 PID: 2417 at kmod/debugfs.c:40 cb_open+0x1d5/0x240" \
	"$(splats "$(warn "debugfs file owner did not clean up at exit: info" \
		kmod/debugfs.c:40 cb_open)" | grep WARNING)"
expect_eq "debugfs_race_reports: a kernel BUG is not left out" \
	"[   70.000000] BUG: unable to handle page fault for address: ffffc90000a3c000" \
	"$(splats "$race
[   70.000000] BUG: unable to handle page fault for address: ffffc90000a3c000")"
summary
