#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-prepare-host.sh - scripts/prepare-host.sh and restore-host.sh against a
# fake sysfs/procfs tree in a temp dir (--root), under bash and busybox sh.
# Never touches the real /sys or /proc.
set -eu
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prep=$top/scripts/prepare-host.sh
rest=$top/scripts/restore-host.sh
cpu=sys/devices/system/cpu

# mk_tree DIR: a two-policy intel_pstate machine with every knob "wrong".
mk_tree() {
	for p in 0 1; do
		mkdir -p "$1/$cpu/cpufreq/policy$p"
		echo "performance powersave" >"$1/$cpu/cpufreq/policy$p/scaling_available_governors"
		echo intel_pstate >"$1/$cpu/cpufreq/policy$p/scaling_driver"
	done
	echo powersave >"$1/$cpu/cpufreq/policy0/scaling_governor"
	echo schedutil >"$1/$cpu/cpufreq/policy1/scaling_governor"
	mkdir -p "$1/$cpu/intel_pstate" "$1/$cpu/smt" "$1/proc/sys/kernel"
	echo 0 >"$1/$cpu/intel_pstate/no_turbo"
	echo 1 >"$1/$cpu/cpufreq/boost"
	echo on >"$1/$cpu/smt/control"
	echo 1 >"$1/proc/sys/kernel/nmi_watchdog"
}

# snapshot DIR: every knob file with its content, one line each (not /run).
snapshot() {
	(cd "$1" && find sys proc -type f | sort | while read -r f; do
		printf '%s=%s\n' "$f" "$(cat "$f")"
	done)
}

knobs() {
	printf '%s ' "$(cat "$1/$cpu/cpufreq/policy0/scaling_governor")" \
		"$(cat "$1/$cpu/cpufreq/policy1/scaling_governor")" \
		"$(cat "$1/$cpu/intel_pstate/no_turbo")" "$(cat "$1/$cpu/cpufreq/boost")" \
		"$(cat "$1/$cpu/smt/control")" "$(cat "$1/proc/sys/kernel/nmi_watchdog")"
}

for sh in $(test_shells); do
	t=$tmp/$sh
	r=$t/root
	mk_tree "$r"
	orig=$(snapshot "$r")

	out=$(run_sh "$sh" "$prep" --root "$r" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] prepare exits 0" 0 "$rc"
	expect_eq "[$sh] prepare sets performance, no_turbo=1, boost=0, SMT off, NMI watchdog 0" \
		"performance performance 1 0 off 0 " "$(knobs "$r")"
	expect_eq "[$sh] prepare records the six old values in the state file" \
		"/$cpu/cpufreq/policy0/scaling_governor powersave
/$cpu/cpufreq/policy1/scaling_governor schedutil
/$cpu/intel_pstate/no_turbo 0
/$cpu/cpufreq/boost 1
/proc/sys/kernel/nmi_watchdog 1
/$cpu/smt/control on" "$(cat "$r/run/cyclebench/host.state" 2>&1)"
	expect_match "[$sh] prepare says what it changed" "governor policy0: powersave -> performance" "$out"

	prepared=$(snapshot "$r")
	out=$(run_sh "$sh" "$prep" --root "$r" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] a second prepare exits 0" 0 "$rc"
	expect_eq "[$sh] a second prepare changes nothing" "$prepared" "$(snapshot "$r")"
	expect_eq "[$sh] a second prepare keeps the recorded originals" 6 \
		"$(wc -l <"$r/run/cyclebench/host.state" | tr -d ' ')"
	expect_match "[$sh] a second prepare says the knobs are set already" "SMT: off \(already\)" "$out"

	out=$(run_sh "$sh" "$prep" --root "$r" --restore 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] restore exits 0" 0 "$rc"
	expect_eq "[$sh] prepare, prepare, restore leaves every file as it was" "$orig" "$(snapshot "$r")"
	expect_eq "[$sh] restore turns SMT on before touching governors" \
		"/$cpu/smt/control: off -> on" "$(printf '%s\n' "$out" | head -n 1)"
	[ -e "$r/run/cyclebench/host.state" ] && v=present || v=removed
	expect_eq "[$sh] restore removes the state file" removed "$v"

	out=$(run_sh "$sh" "$rest" --root "$r" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] restore without a state file exits 0" 0 "$rc"
	expect_match "[$sh] restore without a state file says there is nothing to do" "^nothing to restore" "$out"

	# A changed-by-someone-else value between prepare and restore is still
	# put back to the original, and restore-host.sh is the same as --restore.
	run_sh "$sh" "$prep" --root "$r" >/dev/null 2>&1
	echo ondemand >"$r/$cpu/cpufreq/policy1/scaling_governor"
	run_sh "$sh" "$rest" --root "$r" >/dev/null 2>&1 && rc=0 || rc=$?
	expect_eq "[$sh] restore-host.sh restores exactly, whatever was written since" \
		"0 $orig" "$rc $(snapshot "$r")"

	# --dry-run: says, does not do.
	out=$(run_sh "$sh" "$prep" --root "$r" --dry-run 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] --dry-run changes nothing" "0 $orig" "$rc $(snapshot "$r")"
	[ -e "$r/run/cyclebench/host.state" ] && v=present || v=absent
	expect_eq "[$sh] --dry-run writes no state file" absent "$v"
	expect_match "[$sh] --dry-run prints what it would change" \
		"^SMT: on -> off \(dry run: not changed\)" "$out"

	# CB_SYSROOT works like --root; --state picks the file.
	CB_SYSROOT=$r run_sh "$sh" "$prep" --state "$t/my.state" >/dev/null 2>&1 && rc=0 || rc=$?
	expect_eq "[$sh] CB_SYSROOT and --state are honoured" "0 6" \
		"$rc $(wc -l <"$t/my.state" 2>/dev/null | tr -d ' ')"
	CB_SYSROOT=$r run_sh "$sh" "$rest" --state "$t/my.state" >/dev/null 2>&1 || true
	expect_eq "[$sh] ... and restore from that file" "$orig" "$(snapshot "$r")"

	# A machine with only the NMI watchdog: the rest is skipped with notes.
	m=$t/min
	mkdir -p "$m/proc/sys/kernel"
	echo 1 >"$m/proc/sys/kernel/nmi_watchdog"
	out=$(run_sh "$sh" "$prep" --root "$m" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] missing knobs are not an error" "0 0" "$rc $(cat "$m/proc/sys/kernel/nmi_watchdog")"
	expect_match "[$sh] missing governor noted" "skip governor: no cpufreq policies" "$out"
	expect_match "[$sh] missing turbo noted" "skip turbo" "$out"
	expect_match "[$sh] missing boost noted" "skip boost" "$out"
	expect_match "[$sh] missing SMT control noted" "skip SMT" "$out"

	# No 'performance' governor, SMT not supported: left alone, with a reason.
	n=$t/nope
	mk_tree "$n"
	echo "schedutil powersave" >"$n/$cpu/cpufreq/policy0/scaling_available_governors"
	echo notsupported >"$n/$cpu/smt/control"
	out=$(run_sh "$sh" "$prep" --root "$n" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] a policy without 'performance' is left alone" "0 powersave" \
		"$rc $(cat "$n/$cpu/cpufreq/policy0/scaling_governor")"
	expect_match "[$sh] ... with a note naming the driver" "not in scaling_available_governors \(driver intel_pstate\)" "$out"
	expect_eq "[$sh] SMT 'notsupported' is left alone" notsupported "$(cat "$n/$cpu/smt/control")"

	# A restore that cannot write keeps the state for a retry and exits 1.
	f=$t/fail
	mk_tree "$f"
	mkdir -p "$f/run/cyclebench" "$f/$cpu/bogus"
	printf '/%s/bogus 1\n/proc/sys/kernel/nmi_watchdog 0\n' "$cpu" >"$f/run/cyclebench/host.state"
	out=$(run_sh "$sh" "$rest" --root "$f" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] a failed restore write exits 1" 1 "$rc"
	expect_eq "[$sh] ... still restores the others" 0 "$(cat "$f/proc/sys/kernel/nmi_watchdog")"
	[ -e "$f/run/cyclebench/host.state" ] && v=kept || v=removed
	expect_eq "[$sh] ... and keeps the state file" kept "$v"
	expect_match "[$sh] ... and says what failed" "FAILED to write '1' to /$cpu/bogus" "$out"

	out=$(run_sh "$sh" "$prep" --frobnicate 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] an unknown option exits 2" 2 "$rc"
	expect_match "[$sh] ... and names it" "unknown argument '--frobnicate'" "$out"
	out=$(run_sh "$sh" "$prep" --help 2>&1) && rc=0 || rc=$?
	expect_match "[$sh] --help documents --restore" "^  --restore" "$out"
	out=$(run_sh "$sh" "$prep" --table 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] --table: five knobs of six fields each" "0 5" \
		"$rc $(printf '%s\n' "$out" | awk -F'|' 'NF == 6' | wc -l | tr -d ' ')"
done

# The real /proc/sys: its files end at the first byte's offset with no
# newline, where dash's and busybox's read(1), a byte at a time, fail on
# a value they have read. --dry-run writes nothing.
if [ -r /proc/sys/kernel/nmi_watchdog ]; then
	for sh in dash $(test_shells); do
		command -v "${sh%% *}" >/dev/null || continue
		out=$(run_sh "$sh" "$prep" --dry-run 2>&1)
		expect_match "[$sh] the real /proc/sys/kernel/nmi_watchdog is read" \
			"^NMI watchdog: $(cat /proc/sys/kernel/nmi_watchdog)( \(already\)| -> 0 \(dry run)" "$out"
	done
else
	tap_skip "the real /proc/sys/kernel/nmi_watchdog is read" "no such file here"
fi

summary
