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
# the points (tests/tap/tap.sh's vocabulary), each one's time noted
pass() { tap_ok "$*"; point_time "$*"; }
fail() { tap_not_ok "$@"; point_time "$1"; }

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
	expect_ok "rmmod succeeds" rmmod cyclebench
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
	expect_eq "$1: kmemleak finds no leaked object of cyclebench's ($all in all)" 0 "$ours"
}

# long_minus_short DIR: the distinct cycles_long - cycles of DIR's samples,
# space-separated (one value when every sample agrees)
long_minus_short() {
	paste "$1/cycles_long" "$1/cycles" | awk '{ print $1 - $2 }' | sort -u | tr '\n' ' '
}

# LMS_AWK: the awk functions both checks below use: kv(FILE) reads an info
# file into k[]; lms(DIR) is long_minus_short's answer for DIR (the
# distinct values in the order met, each followed by a space; a line
# without its pair counts as 0).  One awk reads every result: a shell loop
# would fork a sed a file, and a debug kernel's forks are slow.
LMS_AWK='
function kv(f,   l, i) {
	delete k
	while ((getline l < f) > 0)
		if ((i = index(l, ": ")) > 0) k[substr(l, 1, i - 1)] = substr(l, i + 2)
	close(f)
}
function lms(d,   s, l, rs, rl, v, out) {
	delete seen
	out = ""
	while (1) {
		rs = (getline s < (d "/cycles")) > 0
		rl = (getline l < (d "/cycles_long")) > 0
		if (!rs && !rl) break
		v = (rl ? l : 0) - (rs ? s : 0)
		if (!(v in seen)) { seen[v] = 1; out = out v " " }
	}
	close(d "/cycles"); close(d "/cycles_long")
	return out
}
function exists(f,   x, r) { r = (getline x < f); close(f); return r >= 0 }'

# check_straight REGIONS MIN: under icount, every fragment whose paoloni
# short region is clean straight-line code in REGIONS (tests/kmod/regions.py's
# table of the loaded module) reads long - short = 15 x its instructions in
# every sample: its per-op figure is exactly its instructions / ops.  At
# least MIN such bodies, each measured (a sweep: at its ARG 4096); one
# timed once (no long region: base:empty) is left out.
check_straight() {
	out=$(awk -v cb="$CB" "$LMS_AWK"'
	$2 " " $3 " " $6 " " $7 != "paoloni short clean yes" { next }
	{
		frag = $1; insns = $5; d = frag; gsub(":", "/", d); d = cb "/" d
		if (!exists(d "/cycles")) d = d "/4096"
		# timed once (no_long: base:empty), nothing to difference
		if (exists(d "/cycles") && !exists(d "/cycles_long")) next
		if (!exists(d "/cycles_long")) { bad = bad " " frag ":no-results"; next }
		got = lms(d)
		if (got != (15 * insns) " ") bad = bad " " frag ":" got "!=15x" insns
		kv(d "/info")
		printf "straight-line %s: %s instructions a copy, ops %s: per-op %s/ops exactly\n",
			frag, insns, k["ops"], insns >> "/out/figures.txt"
		n++
	}
	END { printf "%d|%s", n, bad }' "$1")
	expect_ge "straight-line bodies checked ($1)" "$2" "${out%%|*}"
	expect_eq "every straight-line body: long - short = 15 x its instructions, every sample" "" "${out#*|}"
}

# check_declared MIN: every result that ran and whose info declares insns
# (its table line's .insns, .insns_per_arg: what the author says one run of
# the body executes): long - short = 15 x that, every sample, so its
# per-op figure is insns / ops exactly.  At least MIN of them.
check_declared() {
	out=$(find "$CB" -mindepth 3 -name info | awk "$LMS_AWK"'
	{
		kv($0)
		if (k["insns"] == "" || k["state"] != "ok") next
		got = lms(substr($0, 1, length($0) - 5))
		if (got != (15 * k["insns"]) " ") bad = bad " " k["name"] ":" got "!=15x" k["insns"]
		printf "declared %s: insns %s, ops %s: long - short = %s\n", k["name"], k["insns"],
			k["ops"], substr(got, 1, length(got) - 1) >> "/out/figures.txt"
		n++
	}
	END { printf "%d|%s", n, bad }')
	expect_ge "results with declared instructions checked" "$1" "${out%%|*}"
	expect_eq "every declared body: long - short = 15 x its declared instructions, every sample" "" "${out#*|}"
}
