#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# golden.sh CYCLESTAT [--write] - whole outputs that must not change: each
# line of golden.cmds (NAME ARGS...) run in tests/data (and sweep.py's
# sweep=cpus directory, as sweep), its stdout, stderr
# and exit status compared byte for byte with golden/NAME.out: each
# command and format on the test trees (the gate's, summary's, plot's),
# but gbench's, which holds the date, so that a change in how they are
# written shows; --write rewrites the files (and writes a new line's).
. "$(dirname "$0")/../../../scripts/help.sh"
set -u
CS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$here/../../../tests/tap/tap.sh"
grep -v '^#' "$here/golden.cmds" > "$T/cmds"
# the commands run among tests/data's files and a sweep=cpus directory
# (sweep.py's, seeded: the same bytes every time)
mkdir "$T/data"
ln -s "$here"/data/* "$T/data/"
python3 "$here/sweep.py" gen "$T/data/sweep"
# a machine of four CPUs, no SMT, one package, for what reads /sys
for c in 0 1 2 3; do
	mkdir -p "$T/root/sys/devices/system/cpu/cpu$c/topology"
	echo $c > "$T/root/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
	echo 0 > "$T/root/sys/devices/system/cpu/cpu$c/topology/physical_package_id"
done
export CYCLESTAT_SYSROOT="$T/root"
while read -r name line; do
	want=$here/golden/$name.out
	# shellcheck disable=SC2086 # the line is the argument list
	(cd "$T/data" && "$CS" $line > "$T/out" 2>&1; echo "exit $?" >> "$T/out")
	if [ "${2:-}" = --write ]; then
		cp "$T/out" "$want"
	fi
	if [ ! -e "$want" ]; then
		fail "$name: cyclestat $line (no golden/$name.out: run golden.sh CYCLESTAT --write and read it)"
	elif cmp -s "$want" "$T/out"; then
		pass "$name: cyclestat $line"
	else
		fail "$name: cyclestat $line"
		diff "$want" "$T/out" | head -n 10 | sed 's/^/#   /'
	fi
	# a CSV is read by a program: every row has the header's fields
	case $name in csv-*)
		if python3 -c 'import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith("exit ")]
sys.exit(len({len(r) for r in rows}) != 1)' "$T/out"; then
			pass "$name: every CSV row has the header's fields"
		else
			fail "$name: every CSV row has the header's fields (a field with a comma not quoted?)"
		fi
	esac
done < "$T/cmds"
tap_end
