#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - every host test of the scripts around cyclebench: prepare-host.sh
# and restore-host.sh (fake sysfs), ci-bare-metal.sh (fake insmod/rmmod/
# debugfs; with the real cyclestat when userspace/cyclestat is built), the
# GitHub workflow, and dkms.conf (dkms add + build against the installed
# headers: needs root, dkms and headers, else skipped). Each check prints one
# line (ok / FAIL / skip); the last line is "N passed, N failed, N skipped";
# the exit status is 1 on any failure.
#
#   tests/host/run.sh                      everything
#   CB_TEST_DKMS=0 tests/host/run.sh       all but the dkms build (-10 s)
#   tests/host/run.sh prepare-host dkms    only test-prepare-host.sh, test-dkms.sh
#   (run: scripts/run.sh refuses bad PARAMS before booting; help: every
#   script answers --help and does nothing else)
#   CB_TEST_SHELLS="bash" tests/host/run.sh     shells to run the scripts under
#                                              (default: bash busybox)
#   tests/host/test-dkms.sh                the dkms test on its own
. "$(dirname "$0")/../../scripts/help.sh"
set -u

dir=$(cd "$(dirname "$0")" && pwd)
passed=0
failed=0
skipped=0

if [ $# -eq 0 ]; then
	set -- prepare-host ci-bare-metal workflow run help splat
	if [ "${CB_TEST_DKMS:-1}" = 1 ]; then
		set -- "$@" dkms
	else
		echo "skip - dkms add and build (CB_TEST_DKMS=0)"
		skipped=1
	fi
fi
for t in "$@"; do
	f=$dir/test-$t.sh
	if [ ! -f "$f" ]; then
		echo "FAIL - no such test file: $f"
		failed=$((failed + 1))
		continue
	fi
	log=$(sh "$f" 2>&1)
	rc=$?
	last=$(printf '%s\n' "$log" | tail -n 1)
	printf '%s\n' "$log" | sed '$d'
	# "P passed, F failed, S skipped" from the file's summary
	counts=$(printf '%s\n' "$last" |
		awk 'NF == 6 && $2 == "passed," && $4 == "failed," && $6 == "skipped" { print $1, $3, $5 }')
	if [ -n "$counts" ]; then
		read -r p f s <<EOF
$counts
EOF
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + s))
		if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			echo "FAIL - test-$t.sh: expected exit 0 with no failures, got exit $rc"
			failed=$((failed + 1))
		fi
	else
		echo "$last"
		echo "FAIL - test-$t.sh: expected a summary line, got exit $rc and '$last'"
		failed=$((failed + 1))
	fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
