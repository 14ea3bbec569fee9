#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-readme.sh - the README is a user's guide whose commands are real:
# short, no dated diary; the two commands exactly; every make target,
# script option, program option, run key and module parameter it shows
# exists; every docs/ file it points to is there; and its picture of
# 'make run' carries the banners scripts/run.sh prints.  (What was
# measured lives in docs/, with the date and the machine.)
. "$(dirname "$0")/lib.sh"

readme=$top/README.md
if [ ! -f "$readme" ]; then
	fail "README.md exists"
	summary
	exit 1
fi

lines=$(wc -l < "$readme")
if [ "$lines" -le 320 ]; then
	pass "README.md is a guide, not a notebook: $lines lines (at most 320)"
else
	fail "README.md is a guide, not a notebook: expected at most 320 lines, got $lines (move records to docs/)"
fi
expect_no_match "README.md carries no dates (records with dates belong in docs/)" \
	'20[0-9][0-9]-[01][0-9]-[0-3][0-9]' "$(cat "$readme")"
expect_no_match "README.md carries no measured durations (docs/measurements.md does)" \
	'[0-9] ?(min|minutes|seconds)\b|[0-9] s\b|took [0-9]' "$(cat "$readme")"

expect_match "the first command: make run" \
	'^make run +# measure every fragment' "$(cat "$readme")"
expect_match "the second command: make test, and its last line" \
	'^make test +# every test; ends with "N passed, N failed"' "$(cat "$readme")"

# every 'make TARGET' (top level, no -C) as a command: at a line's start,
# in backquotes, after PARAMS="..." - is a target of the Makefile
for t in $(grep -oE '(^|`|" )make [a-z][a-z_-]*' "$readme" | sed 's/.*make //' | sort -u); do
	if grep -Eq "^$t:" "$top/Makefile"; then
		pass "make $t: a target of the Makefile"
	elif [ "$t" = ab ] && [ ! -e "$top/scripts/ab.sh" ]; then
		tap_skip "make ab: a target of the Makefile" "scripts/ab.sh is not in this tree yet"
	else
		fail "make $t: expected a target '$t:' in the Makefile, got none"
	fi
done
# 'make -C DIR [TARGET]': a target of DIR's Makefile (none: its default)
for dt in $(grep -oE 'make -C [a-z/]+( [a-z][a-z_-]*)?' "$readme" | sed 's/^make -C //; s/ /:/' | sort -u); do
	d=${dt%%:*} t=${dt#*:}
	if [ "$t" = "$dt" ]; then
		expect_eq "make -C $d: $d has a Makefile" yes "$([ -f "$top/$d/Makefile" ] && echo yes)"
	else
		expect_eq "make -C $d $t: a target of $d/Makefile" yes \
			"$(grep -Eq "^$t:" "$top/$d/Makefile" && echo yes)"
	fi
done

# cmd_lines WORD: the README's lines that run WORD, each with the lines a
# trailing backslash continues it on
cmd_lines() {
	awk -v w="$1" 'cont { print; cont = /\\$/; next }
		index($0, w) { print; cont = /\\$/ }' "$readme"
}

# every option given to a script is in that script's --help
for s in ci-bare-metal prepare-host; do
	help=$(bash "$top/scripts/$s.sh" --help 2>&1)
	for o in $(cmd_lines "scripts/$s.sh " | sed "s,.*scripts/$s.sh,," | grep -oE -- '(^| )--[a-z][a-z-]*' | sort -u); do
		expect_match "scripts/$s.sh $o: in its --help" "(^|[ ,])$o( |,|$)" "$help"
	done
done

# cyclebench-user's options and keys, from its usage text (the source:
# no build needed)
usage=$(sed -n '/^static void usage/,/^}/p' "$top/userspace/runner/main.c")
for o in $(grep -E '^userspace/runner/cyclebench-user|cyclebench-user -o' "$readme" | grep -oE -- ' --?[a-z][a-z0-9-]*' | sort -u); do
	expect_match "cyclebench-user$o: in its usage" "[^a-z]$o[^a-z]" "$usage"
done
for k in $(grep -E '^userspace/runner/cyclebench-user' "$readme" | grep -oE '[a-z_]+=' | sort -u); do
	expect_match "cyclebench-user $k: a key in its usage" "[ (]$k" "$usage"
done

# cyclestat's options, from its --help where it is built
if [ -x "$top/userspace/cyclestat/cyclestat" ]; then
	help=$("$top/userspace/cyclestat/cyclestat" --help 2>&1)
	# on a cyclestat command line, and in the prose of "Compare a change"
	opts=$( (cmd_lines 'userspace/cyclestat/cyclestat ' | grep -oE -- ' --?[a-z][a-z-]*'
		sed -n '/^## Compare a change/,/^## /p' "$readme" | grep -oE -- '`--[a-z][a-z-]*' |
			tr -d '`' | sed 's/^/ /') | sort -u)
	for o in $opts; do
		expect_match "cyclestat$o: in its --help" "[ ,]$o[ ,=]|^ *$o" "$help"
	done
else
	tap_skip "cyclestat's options in its --help" "userspace/cyclestat/cyclestat is not built"
fi

# PARAMS= and insmod words are module parameters
params=$(grep -ohE 'module_param(_named|_cb)?\([a-z_]+' "$top"/kmod/*.c | sed 's/.*(//')
for k in $(grep -oE 'PARAMS="[^"]*"' "$readme" | grep -oE '[a-z_]+=' | tr -d = | sort -u); do
	expect_match "PARAMS $k=: a module parameter" "^$k\$" "$params"
done

# every docs link is a file
for f in $(grep -oE '\]\([^)#]+\)' "$readme" | sed 's/^](//; s/)$//' | sort -u); do
	case $f in http*) continue ;; esac
	expect_eq "link $f: the file exists" yes "$([ -e "$top/$f" ] && echo yes)"
done

# the picture of 'make run' carries the banners run.sh prints
for b in "EMULATED: QEMU without KVM. These are emulated TSC ticks that follow host" \
	"REAL CPU, USERSPACE, INTERRUPTS ON: cyclebench-user on this host"; do
	expect_eq "run.sh prints: $b" yes "$(grep -qF "$b" "$top/scripts/run.sh" && echo yes)"
	expect_eq "the README's make run shows: $b" yes "$(grep -qF "$b" "$readme" && echo yes)"
done

summary
