# SPDX-License-Identifier: GPL-2.0
# Guest-side helpers for the QEMU tests (busybox sh).  Each check is a TAP
# point (tests/tap/tap.sh, /tap.sh here), "ok N - NAME" or "not ok N -
# NAME: expected X, got Y", printed and kept in /out/results.txt, whose
# plan is written when the script exits; the host counts the stream with
# tests/tap/count.
CB=/sys/kernel/debug/cyclebench
. /splat.sh		# SPLAT, alloc_reports
. /tap.sh
RESULTS=/out/results.txt
TAP_LOG=$RESULTS
: > "$RESULTS"
# (a script that stops early still gets its plan; the host sees its exit
# status, /out/rc, and says it stopped)
trap 'tap_end > /dev/null' EXIT

# Each point's time since boot goes to /out/points.txt ("SECONDS NAME"),
# for the host to name the slowest stretches of a suite (a builtin read:
# no fork per point).
point_time() {
	read -r up _ < /proc/uptime
	echo "$up $*" >> /out/points.txt
}
: > /out/points.txt
point_time "(the suite starts)"
pass() { tap_ok "$*"; point_time "$*"; }
fail() { tap_not_ok "$*"; point_time "$*"; }

# check NAME EXPECTED GOT
check() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected '$2', got '$3'"; fi
}

# check_le NAME LIMIT GOT: GOT is an integer <= LIMIT
check_le() {
	if [ -n "$3" ] && [ "$3" -le "$2" ] 2>/dev/null; then pass "$1 ($3 <= $2)"
	else fail "$1: expected <= $2, got '$3'"; fi
}

# check_ge NAME LIMIT GOT
check_ge() {
	if [ -n "$3" ] && [ "$3" -ge "$2" ] 2>/dev/null; then pass "$1 ($3 >= $2)"
	else fail "$1: expected >= $2, got '$3'"; fi
}

# check_cmd NAME CMD...: passes when CMD exits 0
check_cmd() {
	name=$1
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name: '$*' failed: $out"; fi
}

# key: value lookup in an info file
info_get() { sed -n "s/^$2: //p" "$1"; }

# The errno name (or ok) of one write of $1 to the run file.
run_write() { cbpoke write "$CB/run" "$1"; }

# Seconds since boot; ms since such a reading.
now() { cut -d' ' -f1 /proc/uptime; }
elapsed_ms() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%d", (b - a) * 1000 }'; }

# The status file's first word (idle, running); wait_state STATE [TENTHS]:
# 0 once it says STATE, 1 after TENTHS tenths of a second (default 600).
state() { cut -d' ' -f1 "$CB/status"; }
wait_state() {
	t=0
	until [ "$(state)" = "$1" ]; do
		[ $t -ge "${2:-600}" ] && return 1
		sleep 0.1
		t=$((t + 1))
	done
}

# Lines of a file; 0 for a missing one.
lines() { if [ -e "$1" ]; then wc -l < "$1" | tr -d ' '; else echo missing; fi; }

# Distinct values in a file.
distinct() { sort -u "$1" | wc -l | tr -d ' '; }

# Every fragment as group/name, from the fragments file.
fragment_dirs() { cut -d' ' -f1 "$CB/fragments" | tr : /; }

# check_unload: rmmod works and takes the directory with it.
check_unload() {
	check_cmd "rmmod succeeds" rmmod cyclebench
	if [ -e "$CB" ]; then fail "rmmod removes $CB"; else pass "rmmod removes $CB"; fi
}

# kmemleak_check NAME: on a kernel with kmemleak (the debug lane; elsewhere
# nothing), scan twice (the second settles what was in flight during the
# first), keep the report in /out/kmemleak.txt and check that no leaked
# object involves cyclebench: a backtrace frame in it, its kthread, or a
# frame of a module that is gone (an unloaded module's addresses print as
# bare hex: the only module these tests load is cyclebench).
KMEMLEAK=/sys/kernel/debug/kmemleak

# SLOW: how much slower this kernel is on purpose. 10 on the debug lane
# (6.1.V-cbdebug: KASAN checks every access, kmemleak and lockdep track
# every allocation and lock; a vfree of 800 MiB takes seconds there under
# TCG), 1 elsewhere. A wall-clock bound is a plausibility limit, not a
# kernel guarantee: the tests multiply theirs by it.
case $(uname -r) in
*debug*) SLOW=10 ;;
*) SLOW=1 ;;
esac
kmemleak_check() {
	[ -w $KMEMLEAK ] || return 0
	echo scan > $KMEMLEAK
	echo scan > $KMEMLEAK
	cat $KMEMLEAK > /out/kmemleak.txt
	ours=$(awk '/^unreferenced object/ { n += hit; hit = 0 }
		/cyclebench|\] 0x[0-9a-f]+$/ { hit = 1 } END { print n + hit }' /out/kmemleak.txt)
	all=$(grep -c '^unreferenced object' /out/kmemleak.txt)
	echo "kmemleak ($1): $ours of $all unreferenced objects involve cyclebench" >> /out/figures.txt
	check "$1: kmemleak finds no leaked object of cyclebench's ($all in all)" 0 "$ours"
}

# check_straight REGIONS MIN: under icount, every fragment whose paoloni
# short region is clean straight-line code in REGIONS (tests/kmod/regions.py's
# table of the loaded module) reads long - short = 15 x its instructions in
# every sample: its per-op figure is exactly its instructions / ops.  At
# least MIN such bodies, each measured (a sweep: at its ARG 4096); one
# timed once (no long region: base:empty) is left out.
# long_minus_short DIR: the distinct cycles_long - cycles of DIR's samples,
# space-separated (one value when every sample agrees)
long_minus_short() {
	paste "$1/cycles_long" "$1/cycles" | awk '{ print $1 - $2 }' | sort -u | tr '\n' ' '
}

check_straight() {
	n=0 bad=
	while read -r frag method region copies insns verdict straight; do
		[ "$method $region $verdict $straight" = "paoloni short clean yes" ] || continue
		d=$(echo "$frag" | tr : /)
		[ -e "$CB/$d/cycles" ] || d=$d/4096
		# timed once (no_long: base:empty), nothing to difference
		[ -e "$CB/$d/cycles" ] && [ ! -e "$CB/$d/cycles_long" ] && continue
		if [ ! -e "$CB/$d/cycles_long" ]; then	# (debugfs files have no size)
			bad="$bad $frag:no-results"
			continue
		fi
		got=$(long_minus_short "$CB/$d")
		[ "$got" = "$((15 * insns)) " ] || bad="$bad $frag:$got!=15x$insns"
		echo "straight-line $frag: $insns instructions a copy, ops $(info_get $CB/$d/info ops): per-op $insns/ops exactly" >> /out/figures.txt
		n=$((n + 1))
	done < "$1"
	check_ge "straight-line bodies checked ($1)" "$2" "$n"
	check "every straight-line body: long - short = 15 x its instructions, every sample" "" "$bad"
}

# check_declared MIN: every result that ran and whose info declares insns
# (its table line's .insns, .insns_per_arg: what the author says one run of
# the body executes): long - short = 15 x that, every sample, so its
# per-op figure is insns / ops exactly.  At least MIN of them.
check_declared() {
	n=0 bad=
	for i in $(find "$CB" -mindepth 3 -name info); do
		d=${i%/info}
		insns=$(info_get "$i" insns)
		[ -n "$insns" ] && [ "$(info_get "$i" state)" = ok ] || continue
		f=$(info_get "$i" name)
		got=$(long_minus_short "$d")
		[ "$got" = "$((15 * insns)) " ] || bad="$bad $f:$got!=15x$insns"
		echo "declared $f: insns $insns, ops $(info_get "$i" ops): long - short = ${got% }" >> /out/figures.txt
		n=$((n + 1))
	done
	check_ge "results with declared instructions checked" "$1" "$n"
	check "every declared body: long - short = 15 x its declared instructions, every sample" "" "$bad"
}
