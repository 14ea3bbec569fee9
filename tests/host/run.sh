#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - every host test of the scripts around cyclebench: prepare-host.sh
# and restore-host.sh (fake sysfs), side.sh (the native side: fake
# insmod/rmmod), ci-bare-metal.sh (fake insmod/rmmod/
# debugfs; with the real cyclestat when userspace/cyclestat/cyclestat is built), the
# GitHub workflow, and dkms.conf (dkms add + build against the installed
# headers: needs root, dkms and headers, else skipped). Each test file is one
# TAP stream, kept in $TAP_DIR (default build/tap-host) and counted by
# tests/tap/count, whose last line is "N passed, N failed[, N skipped]";
# the exit status is 1 on any failure.
#
#   tests/host/run.sh                      everything
#   CB_TEST_DKMS=0 tests/host/run.sh       all but the dkms build
#   tests/host/run.sh prepare-host dkms    only test-prepare-host.sh, test-dkms.sh
#   (run: scripts/run.sh refuses bad PARAMS before booting; ab: make ab
#   refuses what it cannot compare before building; help: every
#   script answers --help and does nothing else; readme: README.md is
#   short, undated, and every command it shows exists; guide: the README's
#   commands run where they can and do what their comments say, make help,
#   and make run's progress and selection)
#   CB_TEST_SHELLS="bash" tests/host/run.sh     shells to run the scripts under
#                                              (default: bash busybox)
#   tests/host/test-dkms.sh                the dkms test on its own
. "$(dirname "$0")/../../scripts/help.sh"
set -u

dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
. "$top/tests/tap/tap.sh"
tap_lane run "$top/build/tap-host"

if [ $# -eq 0 ]; then
	set -- prepare-host side ci-bare-metal workflow run help plan splat ab readme guide perop
	if [ "${CB_TEST_DKMS:-1}" = 1 ]; then
		set -- "$@" dkms
	else
		tap_skip "dkms add and build" "CB_TEST_DKMS=0"
	fi
fi
for t in "$@"; do
	f=$dir/test-$t.sh
	if [ -f "$f" ]; then
		tap_run "test-$t" sh "$f"
	else
		fail "no such test file: $f"
	fi
done
tap_end > /dev/null
"$top/tests/tap/count" "$TAP_DIR"
