#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# golden.sh CYCLESTAT [--write] - whole outputs that must not change: each
# line of golden.cmds run in tests/data, its stdout, stderr and exit status
# compared byte for byte with golden/NN.out. The files were written by the
# cyclestat before figures came from value -> count tables (issue 21), so
# they pin that every printed figure stayed the same. --write rewrites them.
. "$(dirname "$0")/../../../scripts/help.sh"
set -u
CS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$here/../../../tests/tap/tap.sh"
k=0
grep -v '^#' "$here/golden.cmds" > "$T/cmds"
while read -r line; do
	k=$((k + 1))
	want=$here/golden/$(printf %02d $k).out
	# shellcheck disable=SC2086 # the line is the argument list
	(cd "$here/data" && "$CS" $line > "$T/out" 2>&1; echo "exit $?" >> "$T/out")
	if [ "${2:-}" = --write ]; then
		cp "$T/out" "$want"
	fi
	if cmp -s "$want" "$T/out"; then
		pass "$(printf %02d $k) cyclestat $line"
	else
		fail "$(printf %02d $k) cyclestat $line"
		diff "$want" "$T/out" | head -n 10 | sed 's/^/#   /'
	fi
done < "$T/cmds"
tap_end
