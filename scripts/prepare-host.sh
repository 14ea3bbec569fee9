#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# prepare-host.sh - put a Linux machine into a quiet state for cyclebench, and
# put it back exactly as it was afterwards.
#
#   scripts/prepare-host.sh              apply the safe fixes, remember the old values
#   scripts/prepare-host.sh --restore    write the remembered values back
#   scripts/restore-host.sh              the same as --restore
#   scripts/prepare-host.sh --dry-run    say what would change, change nothing
#
# The safe fixes (the ones `cyclestat doctor` asks for that a reboot undoes)
# are the table in knob_table below; `cyclestat doctor` is built from it
# (userspace/cyclestat/Makefile), so a knob is one line there:
#
#   governor      .../cpu/cpufreq/policy*/scaling_governor   -> performance
#   turbo         .../cpu/intel_pstate/no_turbo               -> 1
#   boost         .../cpu/cpufreq/boost                       -> 0
#   NMI watchdog  /proc/sys/kernel/nmi_watchdog               -> 0
#   SMT           .../cpu/smt/control                         -> off
#
# A knob the machine lacks is skipped with a note. Only values this script
# changes are recorded, in a state file (default /run/cyclebench/host.state:
# /run is cleared at boot, as are the settings themselves). A second prepare
# keeps the originals already recorded, so prepare, prepare, restore still ends
# where the machine started. Restore undoes in the reverse order: SMT back on
# first, as the governor of an offline CPU's policy cannot be written.
#
# Options:
#   --restore       restore the recorded values, then remove the state file
#   --table         print the knob table (label|path|quiet value|values that
#                   need no change|what it costs|why it may be absent)
#   --dry-run       print what would change; write nothing, not even the state
#   --state FILE    the state file (default $ROOT/run/cyclebench/host.state)
#   --root DIR      prefix for every /sys and /proc path (tests point it at a
#                   fake tree); the environment variable CB_SYSROOT does the same
#   -h, --help      this text
#
# Exit status: 0 done (knobs that are absent are not errors), 1 a write
# failed (the state file is kept so that restore can be retried), 2 usage.
#
# POSIX sh only: it also runs under busybox ash, e.g. inside the QEMU guest.
set -eu

prog=prepare-host.sh

usage() {
	sed -n '3,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"
}

die_usage() {
	echo "$prog: $1 (see $prog --help)" >&2
	exit 2
}

mode=prepare
dry=0
root=${CB_SYSROOT:-}
state=

while [ $# -gt 0 ]; do
	case $1 in
	--restore) mode=restore ;;
	--dry-run) dry=1 ;;
	--table) mode=table ;;
	--state)
		[ $# -ge 2 ] || die_usage "--state needs a FILE"
		state=$2
		shift
		;;
	--state=*) state=${1#--state=} ;;
	--root)
		[ $# -ge 2 ] || die_usage "--root needs a DIR"
		root=$2
		shift
		;;
	--root=*) root=${1#--root=} ;;
	-h | --help)
		usage
		exit 0
		;;
	*) die_usage "unknown argument '$1'" ;;
	esac
	shift
done

root=${root%/}
again=
[ "$mode" = restore ] && again=--restore
[ -n "$state" ] || state=$root/run/cyclebench/host.state
if [ -n "$root" ] && [ ! -d "$root" ]; then
	die_usage "--root '$root' is not a directory"
fi

if [ -z "$root" ] && [ "$dry" = 0 ] && [ "$mode" != table ] && [ "$(id -u)" != 0 ]; then
	echo "$prog: writing /sys and /proc needs root; try: sudo $0 $again" >&2
	exit 2
fi

failed=0

note() {
	echo "$prog: $*" >&2
}

# Write $2 into $1 (absolute path); a failure is reported and counted, never
# fatal, so that the other knobs still get their turn.
put() {
	if (printf '%s\n' "$2" >"$1") 2>/dev/null; then
		return 0
	fi
	note "FAILED to write '$2' to ${1#"$root"}"
	failed=$((failed + 1))
	return 1
}

# knob_value PATH: the first line of PATH into $cur; fails when unreadable.
# Not read(1): dash and busybox read a byte at a time, and a /proc/sys
# file ends at the first byte's offset with no newline, so read fails
# on a value it has read.
knob_value() {
	cur=$(head -n 1 "$1" 2>/dev/null) || return 1
}

# Has the state file a line for this (root-relative) path?
recorded() {
	[ -f "$state" ] && awk -v p="$1" '$1 == p { f = 1 } END { exit !f }' "$state"
}

# set_knob LABEL PATH WANT: set PATH, whose value prepare_knob read into
# $cur, to WANT, recording the old value the first time this script changes it.
set_knob() {
	label=$1 path=$2 want=$3
	rel=${path#"$root"}
	if [ "$cur" = "$want" ]; then
		echo "$label: $want (already)"
		return 0
	fi
	if [ "$dry" = 1 ]; then
		echo "$label: $cur -> $want (dry run: not changed)"
		return 0
	fi
	if ! recorded "$rel"; then
		mkdir -p "$(dirname "$state")"
		printf '%s %s\n' "$rel" "$cur" >>"$state"
	fi
	if put "$path" "$want"; then
		echo "$label: $cur -> $want"
	fi
}

# The knobs, in the order prepare sets them (restore undoes in reverse):
# governors and turbo before SMT, since turning SMT off takes the siblings'
# policies offline and an offline policy refuses writes.  A '*' in a path
# is any of several files (each named by its folder); '-' is none.
knob_table() {
	cat <<'EOF'
governor|/sys/devices/system/cpu/cpufreq/policy*/scaling_governor|performance|-|the clock moves during a run|no cpufreq policies (no cpufreq driver, e.g. in a VM)
turbo|/sys/devices/system/cpu/intel_pstate/no_turbo|1|-|the core clock leaves the TSC's as it heats and cools|not intel_pstate
boost|/sys/devices/system/cpu/cpufreq/boost|0|-|the core clock leaves the TSC's as it heats and cools|the driver has no boost switch (in a VM the host decides)
NMI watchdog|/proc/sys/kernel/nmi_watchdog|0|-|its NMIs land inside measurements|no NMI watchdog in this kernel
SMT|/sys/devices/system/cpu/smt/control|off|forceoff notsupported notimplemented|the sibling thread shares the measured core|kernel without SMT control
EOF
}

# prepare_knob LABEL PATH WANT FINE ABSENT: every file PATH matches
prepare_knob() {
	found=0
	for f in "$root"$2; do
		[ -e "$f" ] || continue
		found=1
		label=$1 d=${f%/*}
		case $2 in *'*'*) label="$1 ${d##*/}" ;; esac
		if [ "$1" = governor ] && [ -r "$d/scaling_available_governors" ] &&
			! grep -qw "$3" "$d/scaling_available_governors"; then
			note "skip $label: '$3' is not in scaling_available_governors (driver $(cat "$d/scaling_driver" 2>/dev/null || echo unknown))"
			continue
		fi
		if ! knob_value "$f"; then
			note "skip $label: cannot read ${f#"$root"}"
			continue
		fi
		case " $4 " in
		*" $cur "*) echo "$label: $cur (nothing to change)" ;;
		*) set_knob "$label" "$f" "$3" ;;
		esac
	done
	[ "$found" = 1 ] || note "skip $1: $5 (no $2)"
}

prepare() {
	# shellcheck disable=SC2034 # (why: doctor's column)
	while IFS='|' read -r label path want fine why absent; do
		prepare_knob "$label" "$path" "$want" "$fine" "$absent"
	done <<EOF
$(knob_table)
EOF
	if [ "$dry" = 0 ] && [ -f "$state" ]; then
		note "previous values recorded in $state; undo with: scripts/restore-host.sh${root:+ --root $root}"
	fi
}

# restore_line REL VALUE
restore_line() {
	path=$root$1
	if [ ! -e "$path" ]; then
		note "cannot restore $1: it no longer exists"
		failed=$((failed + 1))
		return 0
	fi
	knob_value "$path" || cur='?'
	if [ "$dry" = 1 ]; then
		echo "$1: $cur -> $2 (dry run: not changed)"
	elif put "$path" "$2"; then
		echo "$1: $cur -> $2"
	fi
}

restore() {
	if [ ! -f "$state" ]; then
		echo "nothing to restore: no $state (prepare-host.sh changed nothing, or it was restored already)"
		return 0
	fi
	# the reverse of the order recorded: SMT (siblings back online) first
	while read -r rel val; do
		restore_line "$rel" "$val"
	done <<EOF
$(sed -n '1!G;h;$p' "$state")
EOF
	if [ "$dry" = 0 ] && [ "$failed" = 0 ]; then
		rm -f "$state"
	fi
}

case $mode in
table) knob_table ;;
prepare) prepare ;;
restore) restore ;;
esac

if [ "$failed" != 0 ]; then
	note "$failed write(s) failed; the state file $state is kept: fix the cause (root? a knob locked by firmware?) and run $prog $again again"
	exit 1
fi
exit 0
