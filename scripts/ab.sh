#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make ab': A against B in one command, and the gate's exit status: 0 when
# nothing got slower, 1 when something did, 2 when it could not compare
# (this script's; make turns any failure into 2, so the last line says it:
# "verdict: slower (exit 1 from scripts/ab.sh)").
#
#   make ab BASE=REV [NEW=REV]          two builds of the module: git
#                                       revisions of this tree (NEW: the
#                                       working tree), interleaved in one
#                                       boot (AB BA ... insmod/rmmod)
#   make ab KERNEL_A=6.1 KERNEL_B=6.12  two kernels (6.1, 6.12, 6.12-rt,
#                                       6.1-debug), a module built for each,
#                                       a boot each
#   make ab KERNEL_A=6.1 KERNEL_B=~/linux/arch/x86/boot/bzImage KDIR_B=~/linux
#                                       a kernel of your own: its image and
#                                       the tree it was built in (KDIR_A,
#                                       KDIR_B), which the module is built
#                                       against
#   make ab CMDLINE_A= CMDLINE_B=mitigations=off   one kernel, two command
#                                       lines, a boot each
#   make ab BASE=REV RUNNER=user        two builds of cyclebench-user: the
#                                       portable fragments on this host's
#                                       real CPU, from userspace (CLOCK=time;
#                                       no module loads)
#
#   The runs go in rounds of one a side, turned round every round: AB BA
#   AB BA ... (scripts/ab-order.sh; ab.txt records it), so that a drift
#   across them moves both sides alike.
#
#   CLOCK=icount  exact instructions per op: the guest boots with -icount
#                 shift=0, where the TSC counts instructions (the default
#                 under emulation); CLOCK=time: ticks, each run over its own
#                 calib:add_chain (the default natively); CLOCK=both:
#                 under QEMU, an icount boot and a time boot (each its own
#                 table, each row naming its clock; the exit status 1
#                 over 2 over 0, as cyclestat's across rows)
#   PARAMS="only=alu,loop"   module parameters, as make run takes them
#                 (under icount samples=20 ensembles=2 warmup=2 come first:
#                 every sample is the same there; PARAMS' own win); an
#                 only= item one side's build lacks is left out of that
#                 side's runs: B's row "new" (A's "gone")
#   RUNS=N        runs a side (default 2 under icount, where the second
#                 proves the first exact; 8 under time: an even number of
#                 rounds balances a linear drift exactly, and 8 a side
#                 decide up to 64 rows over Holm's correction), on each clock
#   OPTS="-t 5"   cyclestat's options (cyclestat ab, as compare's)
#   KCFLAGS_A=, KCFLAGS_B=   compiler flags of one side's build (the
#                 module's, or cyclebench-user's with RUNNER=user)
#   KERNEL=K      both sides' kernel where they share one (default 6.1)
#   MEM=1         under icount, loads, stores and cache misses per op too,
#                 from the TCG plugin (docs/memcount.md; CACHE= the model,
#                 default this host's caches): a table after the clock's,
#                 a result whose counts grew slower, as one whose
#                 instructions did
#
# Both sides' results stay in build/ab/results/{A,B}/runN (CB_AB_OUT moves
# build/ab, CB_AB_RESULTS the results), with ab.txt saying what each side
# was (CLOCK=both: results/icount/{A,B} and results/time/{A,B}); compare
# them again with
#   userspace/cyclestat/cyclestat ab --clock icount build/ab/results/A/run* -- build/ab/results/B/run*
# or with cyclestat compare.  CB_AB_ADD="FILE..." adds fragment groups
# (tests/kmod/ab.c: the tests') to both sides' builds.
. "$(dirname "$0")/help.sh"
. "$(dirname "$0")/console.sh"
# shellcheck disable=SC2034 # side.sh names us in its messages
side_who=ab
. "$(dirname "$0")/side.sh"
# shellcheck disable=SC2034 # memcount.sh names us in its messages
mem_who=ab
# shellcheck source=scripts/memcount.sh
. "$(dirname "$0")/memcount.sh"
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}
out=${CB_AB_OUT:-$top/build/ab}
PARAMS=${PARAMS:-}
OPTS=${OPTS:-}

die() { echo "ab: $*" >&2; exit 2; }
# step WORDS: a progress line on stderr, with the seconds since the start
# (quiet under CI=true, as make run's)
step() { [ "${CI:-}" = true ] || printf 'ab: [%4d s] %s\n' "$SECONDS" "$*" >&2; }

# the last line, on every way out: the verdict and this script's exit
# status, which make reports as 2 whatever it was
# shellcheck disable=SC2317 # called from the EXIT trap
verdict_line() {
	local v
	case $1 in
	0) v="nothing slower" ;;
	1) v=slower ;;
	*) v="could not compare" ;;
	esac
	echo "verdict: $v (exit $1 from scripts/ab.sh)"
}
trap 'verdict_line $?' EXIT

# revisions: a REV names a commit; none is the working tree
rev_a=${BASE:-} rev_b=${NEW:-}
for v in rev_a rev_b; do
	r=${!v}
	[ -z "$r" ] && continue
	git -C "$top" rev-parse -q --verify "$r^{commit}" > /dev/null ||
		die "'$r' is no commit of this repository (git log --oneline shows them)"
done
ker_a=${KERNEL_A:-${KERNEL:-6.1}} ker_b=${KERNEL_B:-${KERNEL:-6.1}}
cmd_a=${CMDLINE_A:-} cmd_b=${CMDLINE_B:-}
if [ -z "${BASE:-}${NEW:-}${KERNEL_A:-}${KERNEL_B:-}${CMDLINE_A:-}${CMDLINE_B:-}${KCFLAGS_A:-}${KCFLAGS_B:-}" ]; then
	die "say what to compare: BASE=REV [NEW=REV] (two builds), KERNEL_A=K KERNEL_B=K (two kernels) or CMDLINE_A=.. CMDLINE_B=.. (scripts/ab.sh --help lists them)"
fi
# one boot where the sides share kernel and command line: interleaved
one_boot=0
[ "$ker_a" = "$ker_b" ] && [ "$cmd_a" = "$cmd_b" ] && one_boot=1

# RUNNER=module (the default): cyclebench.ko, natively where this host
# loads modules as root (CB_QEMU=1: QEMU anyway), else under QEMU.
# RUNNER=user: cyclebench-user on this CPU, in this host's kernel.
RUNNER=${RUNNER:-module}
native=0
case $RUNNER in
module)
	if [ "${CB_QEMU:-0}" != 1 ] && [ -z "$(side_native_why_not)" ]; then
		native=1
	fi ;;
user)
	[ -z "${KERNEL_A:-}${KERNEL_B:-}${KERNEL:-}${CMDLINE_A:-}${CMDLINE_B:-}" ] ||
		die "RUNNER=user runs in this host's kernel ($(uname -r)): two kernels or command lines need the module, RUNNER=module (under QEMU)"
	case ${CLOCK:-time} in
	time) ;;
	icount | both) die "CLOCK=$CLOCK counts instructions in QEMU's emulator; RUNNER=user times this CPU: CLOCK=time, or RUNNER=module CLOCK=$CLOCK" ;;
	esac
	native=1 ;;
*) die "RUNNER=$RUNNER: want module (cyclebench.ko) or user (cyclebench-user, this CPU from userspace)" ;;
esac
if [ $native = 1 ] && { [ -n "${KERNEL_A:-}${KERNEL_B:-}" ] || [ $one_boot = 0 ]; }; then
	die "two kernels or command lines natively need a reboot between the sides; under QEMU one command does both: CB_QEMU=1 make ab ..."
fi
CLOCK=${CLOCK:-$([ $native = 1 ] && echo time || echo icount)}
case $CLOCK in
icount | both)
	[ $native = 0 ] || die "CLOCK=$CLOCK counts instructions in QEMU's emulator: CB_QEMU=1 make ab CLOCK=$CLOCK ..., or CLOCK=time here" ;;
time) ;;
*) die "CLOCK=$CLOCK: want icount, time or both" ;;
esac
clocks=$([ "$CLOCK" = both ] && echo "icount time" || echo "$CLOCK")
MEM=${MEM:-0}
case $MEM in
0) ;;
1) [ "$CLOCK" != time ] && [ $native = 0 ] ||
	die "MEM=1 counts in QEMU's emulator, under icount: CB_QEMU=1 make ab CLOCK=icount MEM=1 ..." ;;
*) die "MEM=$MEM: want 1 (loads, stores and cache misses per op, under icount) or 0" ;;
esac
[[ ${RUNS:-1} =~ ^[1-9][0-9]*$ ]] || die "RUNS=$RUNS: want a number of runs a side, >= 1"

# runs CLOCK: runs a side on CLOCK
runs() { echo "${RUNS:-$([ "$1" = icount ] && echo 2 || echo 8)}"; }

# order CLOCK [SIDE]: the rounds of CLOCK's runs, AB BA ... (one side: A A ...)
order() { "$top/scripts/ab-order.sh" "$(runs "$1")" "${2:-AB}"; }

# the only= selection of PARAMS (empty: none), and of each side's runs:
# what that side's build holds of it (side_selections)
only=
for w in $PARAMS; do
	case $w in only=*) only=${w#only=} ;; esac
done
declare -A only_of=([A]="$only" [B]="$only")

# params CLOCK [SIDE]: the module parameters on CLOCK (of SIDE's runs: its
# only=).  Under icount a few samples (each one the same count); under
# time a selection with only= also runs calib:add_chain, which divides
# each run's clock out of its figures.
params() {
	local sel=$only p=$PARAMS
	if [ -n "${2:-}" ] && [ -n "$only" ]; then
		sel=${only_of[$2]}
		p=${PARAMS/only=$only/only=$sel}
	fi
	if [ "$1" = icount ]; then
		echo "samples=20 ensembles=2 warmup=2${p:+ $p}"
		return
	fi
	if [ -n "$sel" ] && [[ ,$sel, != *,calib,* ]] && [[ ,$sel, != *,calib:add_chain,* ]]; then
		echo "${p/only=$sel/only=$sel,calib:add_chain}"
	else
		echo "$p"
	fi
}
[ "$(params time)" = "$PARAMS" ] || [[ " $clocks " != *" time "* ]] ||
	echo "ab: CLOCK=time: its only= runs calib:add_chain too (each run's clock divided out)"

# PARAMS' keys: the module's (run.sh's check, one definition)
eval "$(sed -n '/^check_params() {/,/^}/p' "$top/scripts/run.sh")"

# a kernel given by its image (a path) needs the tree it was built in
for s in A B; do
	k=ker_$s d=KDIR_$s
	k=${k,,}
	case ${!k} in
	*/*)
		[ -f "${!k}" ] && [ -r "${!k}" ] ||
			die "KERNEL_$s=${!k}: no such image; give a bzImage (arch/x86/boot/bzImage in its build tree) or a series (6.1 6.12 6.12-rt 6.1-debug)"
		[ -n "${!d:-}" ] ||
			die "KERNEL_$s=${!k} is an image of your own: name the tree it was built in, KDIR_$s=DIR, to build the module against"
		[ -f "${!d}/Makefile" ] && [ -f "${!d}/Module.symvers" ] ||
			die "KDIR_$s=${!d}: no kernel build tree there (a Makefile and Module.symvers: build the kernel, or 'make modules_prepare' in it)"
		;;
	esac
done

# kdir SIDE KERNEL: the build tree for KERNEL (natively: the running one)
kdir() {
	local d=KDIR_$1
	if [ -n "${!d:-}" ]; then
		echo "${!d}"
	elif [ $native = 1 ]; then
		echo "/lib/modules/$(uname -r)/build"
	elif ! "$top/scripts/kdir.sh" --kernel "$2"; then
		die "side $1: no headers for kernel '$2' (the kernels: 6.1 6.12 6.12-rt 6.1-debug; sudo scripts/deps.sh --kernel $2)"
	fi
}

# srcs REV: the sources of a side's build in REV (a commit from before
# lib/ and include/ held some of them has only Kbuild and kmod/)
srcs() {
	local d
	for d in $("$top/scripts/ko-sources.sh" --roots) $([ "$RUNNER" = user ] && echo userspace/runner); do
		if git -C "$top" cat-file -e "$1:$d" 2>/dev/null; then echo "$d"; fi
	done
}

# tree_id REV: REV's trees of a side's sources (empty for the working
# tree): a commit that changed none of them builds as its parent did
tree_id() {
	[ -z "$1" ] || srcs "$1" | sed "s|^|$1:|" | xargs git -C "$top" rev-parse
}

# stage REV TMP: REV's sources (git archive; none: the working tree's)
# into TMP, the tests' groups of CB_AB_ADD among the fragments; prints
# the groups a build compiles
stage() {
	local rev=$1 tmp=$2 groups f
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if [ -n "$rev" ]; then
		# shellcheck disable=SC2046 # a list of paths
		git -C "$top" archive "$rev" $(srcs "$rev") | tar -x -C "$tmp"
	else
		"$top/scripts/ko-sources.sh" --copy "$tmp"
		[ "$RUNNER" != user ] ||
			(cd "$top" && find userspace/runner -maxdepth 1 -type f \( -name '*.[ch]' -o -name Makefile \) -print0 |
				cpio -0pdm --quiet "$tmp")
	fi
	# the groups: kmod/fragments/groups.mk's (a tree from before it: Kbuild's)
	groups=$(cat "$tmp/kmod/fragments/groups.mk" "$tmp/Kbuild" 2>/dev/null | sed -n 's/^CB_GROUPS := //p')
	for f in ${CB_AB_ADD:-}; do
		cp "$top/$f" "$tmp/kmod/fragments/"
		groups="$groups $(basename "$f" .c)"
	done
	echo "$groups"
}

# sync_tree TMP DIR: DIR becomes TMP file by file (what did not change keeps
# its time stamp: make rebuilds only what changed since the last make ab)
sync_tree() {
	local tmp=$1 dir=$2 f
	(cd "$tmp" && find . -type f) | while read -r f; do
		cmp -s "$tmp/$f" "$dir/$f" || { mkdir -p "$(dirname "$dir/$f")"; cp "$tmp/$f" "$dir/$f"; }
	done
	{ "$top/scripts/ko-sources.sh" --in "$dir"
	  (cd "$dir" && find userspace/runner -maxdepth 1 -type f -name '*.[ch]' 2>/dev/null || true); } |
		while read -r f; do
			[ -e "$tmp/$f" ] || rm -f "$dir/$f" "$dir/${f%.c}.o"
		done
}

# build SIDE REV KERNEL KCFLAGS: SIDE's module, from REV's
# module sources (scripts/ko-sources.sh; git archive, none: the working tree's), to
# $out/ko/SIDE.ko.  The copy is synced file by file, so kbuild rebuilds
# only what changed since the last make ab.
build() {
	local side=$1 rev=$2 ker=$3 kc=$4 dir tmp kd groups
	# a build directory per kernel, sources (REV's trees of them: a
	# commit that changed none shares it), flags and added groups,
	# kept: the next make ab of the same rebuilds only what changed
	kd=KDIR_$side
	dir=$out/build/${ker##*/}-$(echo "$(tree_id "$rev")|$kc|${CB_AB_ADD:-}|$ker|${!kd:-}" |
		sha1sum | cut -c1-10)
	tmp=$out/$side.new
	mkdir -p "$dir" "$out/ko"
	groups=$(stage "$rev" "$tmp")
	sync_tree "$tmp" "$dir"
	# the same sources, kernel, groups and flags as A's: A's module
	key=$( (cd "$tmp" && find . -type f | LC_ALL=C sort | xargs sha1sum;
		echo "$ker|$groups|$kc") | sha1sum)
	rm -rf "$tmp"
	if [ "$side" = B ] && [ "$key" = "$(cat "$out/A.key" 2>/dev/null)" ]; then
		cp "$out/ko/A.ko" "$out/ko/B.ko"
		echo "ab: B's sources, kernel and flags are A's: one build"
		return
	fi
	kd=$(kdir "$side" "$ker")
	# (kbuild rebuilds an object whose command line changed: KCFLAGS too)
	if ! make -C "$kd" M="$dir" CB_GROUPS="$groups" KCFLAGS="$kc" -j"$(nproc)" modules \
		> "$dir/build.log" 2>&1; then
		grep -E 'error|Error' "$dir/build.log" | head -n 20 >&2 || tail -n 20 "$dir/build.log" >&2
		die "side $side (${rev:-working tree}, kernel $ker): the build failed; see $dir/build.log"
	fi
	cp "$dir/cyclebench.ko" "$out/ko/$side.ko"
	echo "$key" > "$out/$side.key"
}

# build_user SIDE REV CFLAGS: SIDE's cyclebench-user from REV's sources
# (the runner, the fragments, lib/ and include/), the groups of CB_AB_ADD
# among its portable ones, to $out/user/SIDE
build_user() {
	local side=$1 rev=$2 fl=$3 dir tmp=$out/$1.new extra f
	[ -z "$rev" ] || git -C "$top" cat-file -e "$rev:userspace/runner/Makefile" 2>/dev/null ||
		die "side $side: $rev has no userspace/runner/ (it predates that layout); RUNNER=user compares revisions that have it"
	# a build directory per sources, flags and added groups, as build()'s:
	# make tracks no flags, so other flags are another directory
	dir=$out/user-build/$(echo "$(tree_id "$rev")|$fl|${CB_AB_ADD:-}" |
		sha1sum | cut -c1-10)
	mkdir -p "$dir" "$out/user"
	stage "$rev" "$tmp" > /dev/null
	sync_tree "$tmp" "$dir"
	rm -rf "$tmp"
	extra=
	for f in ${CB_AB_ADD:-}; do extra="$extra $(basename "$f" .c)"; done
	# (the environment's CFLAGS: the Makefile adds its warnings to them)
	if ! CFLAGS="-O2${fl:+ $fl}" make -C "$dir/userspace/runner" CB_EXTRA_GROUPS="${extra# }" \
		-j"$(nproc)" cyclebench-user > "$dir/build.log" 2>&1; then
		grep -E 'error|Error' "$dir/build.log" | head -n 20 >&2 || tail -n 20 "$dir/build.log" >&2
		die "side $side (${rev:-working tree}): cyclebench-user's build failed; see $dir/build.log"
	fi
	cp "$dir/userspace/runner/cyclebench-user" "$out/user/$side"
}

# names SIDE: the fragments SIDE's build holds, group:name a line
names() {
	if [ "$RUNNER" = user ]; then
		"$out/user/$1" --list | awk '!/^#/ && NF { n = $1; sub(/\/.*/, "", n); print n }'
	else
		"$top/scripts/fragments.sh" "$out/ko/$1.ko"
	fi
}

# holds NAMES ITEM: ITEM of an only= list (all, GROUP, GROUP:NAME,
# GROUP:NAME/ARG: its argument is the build's to check) names something
# in NAMES
holds() {
	[ "$2" = all ] && return 0
	awk -v it="${2%%/*}" '$0 == it || index($0, it ":") == 1 { f = 1 } END { exit !f }' <<< "$1"
}

# side_selections: each side's only=, the items its build holds: one that
# names a fragment of one side alone is left out of the other side's runs
# (B's own: its row is "new"; A's own: "gone"), one that names nothing of
# either is refused with the closest names
side_selections() {
	local na nb it a b s
	[ -n "$only" ] || return 0
	na=$(names A)
	nb=$(names B)
	only_of=([A]='' [B]='')
	for it in ${only//,/ }; do
		a=0 b=0
		holds "$na" "$it" && a=1
		holds "$nb" "$it" && b=1
		if [ $a = 0 ] && [ $b = 0 ]; then
			[ "$RUNNER" = user ] || "$top/scripts/fragments.sh" "$out/ko/B.ko" "$it" || true
			die "PARAMS: only=$it names no fragment of A's build or B's; $([ "$RUNNER" = user ] &&
				echo "$out/user/B --list" || echo "scripts/fragments.sh $out/ko/B.ko") lists B's"
		fi
		[ $a = 0 ] || only_of[A]+=${only_of[A]:+,}$it
		[ $b = 0 ] || only_of[B]+=${only_of[B]:+,}$it
		[ $a != $b ] || continue
		echo "ab: only=$it: only $([ $a = 1 ] && echo A || echo B)'s build has it; $([ $a = 1 ] && echo B || echo A)'s runs leave it out (its row: $([ $a = 1 ] && echo gone || echo new))"
	done
	# a side that holds none of it measures its reference alone
	for s in A B; do
		[ -n "${only_of[$s]}" ] || only_of[$s]=base
	done
}

mkdir -p "$out"
rm -f "$out/A.key"
t0=$SECONDS
what=$([ "$RUNNER" = user ] && echo cyclebench-user || echo "kernel $ker_a")
echo "ab: building A (${rev_a:-working tree}, $what${KCFLAGS_A:+, KCFLAGS=$KCFLAGS_A}) and B (${rev_b:-working tree}, ${what/$ker_a/$ker_b}${KCFLAGS_B:+, KCFLAGS=$KCFLAGS_B})"
if [ "$RUNNER" = user ]; then
	build_user A "$rev_a" "${KCFLAGS_A:-}"
	build_user B "$rev_b" "${KCFLAGS_B:-}"
else
	build A "$rev_a" "$ker_a" "${KCFLAGS_A:-}"
	build B "$rev_b" "$ker_b" "${KCFLAGS_B:-}"
	for clk in $clocks; do
		PARAMS=$(params "$clk") check_params "$out/ko/A.ko"
		PARAMS=$(params "$clk") check_params "$out/ko/B.ko"
	done
fi
side_selections
if [ "$MEM" = 1 ]; then
	step "building cbcount.so, the TCG plugin that counts loads, stores and cache misses"
	mem_setup
	for s in A B; do mem_regions "$out/ko/$s.ko" "$out/ko/$s.regions"; done
fi
if ! make -s -C "$top" userspace cyclestat-static > "$out/make.log" 2>&1; then
	cat "$out/make.log" >&2
	die "cyclestat does not build (above)"
fi

top_res=${CB_AB_RESULTS:-$out/results}
rm -rf "$top_res"

# about CLOCK RES: RES/ab.txt, what the two sides were
about() {
	local s r k c f
	echo "clock: $1"
	echo "runs: $(runs "$1")"
	echo "order: $(order "$1")"
	echo "params: $(params "$1")"
	[ "${only_of[A]}" = "${only_of[B]}" ] ||
		echo "params A: $(params "$1" A)"$'\n'"params B: $(params "$1" B)"
	echo "interleaved: $([ "$RUNNER" = user ] && echo "yes, one process a run" ||
		{ [ $one_boot = 1 ] && echo "yes, one boot" || echo "no, a boot a side"; })"
	for s in A B; do
		r=rev_$s k=ker_$s c=cmd_$s f=KCFLAGS_$s
		r=${r,,} k=${k,,} c=${c,,}
		echo "$s: ${!r:-working tree}$([ -n "${!r}" ] && echo " ($(git -C "$top" rev-parse --short "${!r}"))"), $([ "$RUNNER" = user ] &&
			echo "cyclebench-user in kernel $(uname -r)" || echo "kernel ${!k}")${!c:+, cmdline ${!c}}${!f:+, KCFLAGS ${!f}}"
	done
	echo "host: $(uname -n), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
}

# watch_guest LOG PID: until PID (the boot) ends, ab-guest.sh's progress
# lines from the guest's console ("ab SIDE K N")
watch_guest() {
	[ "${CI:-}" = true ] && return 0
	cb_follow "$1" "$2" ab_progress
}
ab_progress() {
	case $1 in
	started) step "the guest has booted" ;;
	ab) step "side $2, run $3 of $4" ;;
	esac
}

# guest CLOCK RES SIDES KERNEL CMDLINE DIR: one boot that runs SIDES ("A
# B", or one) on CLOCK in order (AB BA ...), their results into RES
guest() {
	local clock=$1 res=$2 sides=$3 ker=$4 cl=$5 dir=$6 s rc=0
	local -a sp=()
	for s in $sides; do sp+=("$s=$(params "$clock" "$s")"); done
	# (the guest keeps every run's results in its RAM until the end:
	# CB_AB_MEM MiB, for many runs)
	local -a opt=(--quiet --kernel "$ker" --ko "$out/ko/${sides%% *}.ko" --timeout "${CB_AB_TIMEOUT:-1800}"
		--mem "${CB_AB_MEM:-512}")
	[ "$clock" = icount ] && opt+=(--icount)
	if [ "$clock" = icount ] && [ "$MEM" = 1 ]; then
		# shellcheck disable=SC2046 # a regions file a side
		mem_opts "$dir/counts.txt" "$(mem_warmup "$out/ko/${sides%% *}.ko" "$(params icount)")" \
			$(for s in $sides; do echo "$out/ko/$s.regions"; done)
		opt+=("${mem_opt[@]}")
	fi
	[ -n "$cl" ] && opt+=(--append "$cl")
	for s in $sides; do opt+=(--add "$out/ko/$s.ko"); done
	# (a kernel that died or hung booting is booted again: seen under TCG
	# on a loaded host, "IO-APIC + timer doesn't work")
	rm -rf "$dir"
	cb_boot ab watch_guest "$dir/console.log" scripts/qemu-run.sh "${opt[@]}" --out "$dir" \
		scripts/ab-guest.sh "$(order "$clock" "${sides// /}")" "${sp[@]}" || rc=$?
	if [ $rc != 0 ] || [ "$(cat "$dir/rc" 2>/dev/null)" != 0 ]; then
		cat "$dir/log.txt" >&2 2>/dev/null || true
		grep -E '(^|\] )cyclebench: ' "$dir/dmesg.txt" 2>/dev/null | head -n 10 >&2 || true
		die "the boot of side(s) $sides failed (kernel $ker; console: $dir/console.log)"
	fi
	for s in $sides; do cp -r "$dir/results/$s" "$res/"; done
	[ "$clock" = icount ] && [ "$MEM" = 1 ] || return 0
	# each run's counts per op, exact, beside it (memK.txt)
	local id k
	for s in $sides; do
		for id in "$res/$s"/mem*.id; do
			[ -e "$id" ] || die "side $s: no run told the plugin its counts (MEM=1; console: $dir/console.log)"
			k=${id##*/mem}
			k=${k%.id}
			python3 "$top/userspace/qemu-plugin/perop.py" --tree "$res/$s/run$k" --dump "$(cat "$id")" \
				"$dir/counts.txt" > "$res/$s/mem$k.txt" ||
				die "side $s, run $k: the plugin's counts could not be read (perop.py, above)"
		done
	done
}

# in_order FN: FN SIDE K for each run here (CLOCK=time), round by round
# in order (AB BA ...), each with its progress line
in_order() {
	local k=0 s round
	for round in $(order time); do
		k=$((k + 1))
		for s in ${round:0:1} ${round:1:1}; do
			step "side $s, run $k of $(runs time)"
			"$1" "$s" "$k"
		done
	done
}

# native_runs RES: AB BA ... insmod/rmmod here (CLOCK=time)
native_runs() {
	local res=$1
	side_refuse_loaded || die "cyclebench is already loaded; unload it first: sudo rmmod cyclebench"
	trap 'rc=$?; side_cleanup; verdict_line $rc' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	# native_run SIDE K: one run of SIDE's module, its results saved
	native_run() {
		# shellcheck disable=SC2046 # params is a list of key=value words
		side_load "$out/ko/$1.ko" $(params time "$1") || die "side $1, run $2: insmod failed (dmesg says why)"
		userspace/cyclestat/cyclestat -q save "$res/$1/run$2"
		side_unload || die "side $1, run $2: the module did not unload"
	}
	in_order native_run
	trap 'verdict_line $?' EXIT
	trap - INT TERM
}

# user_runs RES: AB BA ... cyclebench-user here (RUNNER=user); only= is
# its selection, the other words its keys
user_runs() {
	local res=$1 s w
	local -A sel=([A]=all [B]=all)
	local -a keys=()
	for s in A B; do
		# shellcheck disable=SC2046 # params is a list of key=value words
		for w in $(params time "$s"); do
			case $w in
			only=*) sel[$s]=${w#only=} ;;
			*) [ "$s" = B ] || keys+=("$w") ;;
			esac
		done
	done
	# user_run SIDE K: one run of SIDE's cyclebench-user into its tree
	user_run() {
		"$out/user/$1" -q -o "$res/$1/run$2" "${sel[$1]}" "${keys[@]}" ||
			die "side $1, run $2: cyclebench-user failed (above; PARAMS=\"$PARAMS\")"
	}
	in_order user_run
}

# res CLOCK: where CLOCK's results go (CLOCK=both: a folder each)
res() { if [ "$CLOCK" = both ]; then echo "$top_res/$1"; else echo "$top_res"; fi; }

t1=$SECONDS
for clk in $clocks; do
	r=$(res "$clk")
	mkdir -p "$r"
	about "$clk" > "$r/ab.txt"
	if [ "$RUNNER" = user ]; then
		echo "ab: cyclebench-user on this CPU, $(runs "$clk") runs each, in the order $(order "$clk")"
		user_runs "$r"
	elif [ $native = 1 ]; then
		native_runs "$r"
	elif [ $one_boot = 1 ]; then
		echo "ab: one boot of $ker_a${cmd_a:+ ($cmd_a)}, CLOCK=$clk: $(runs "$clk") runs each, in the order $(order "$clk")"
		guest "$clk" "$r" "A B" "$ker_a" "$cmd_a" "$out/boot"
	else
		echo "ab: a boot a side, CLOCK=$clk: A on $ker_a${cmd_a:+ ($cmd_a)}, B on $ker_b${cmd_b:+ ($cmd_b)}, $(runs "$clk") runs each"
		guest "$clk" "$r" A "$ker_a" "$cmd_a" "$out/boot-A"
		guest "$clk" "$r" B "$ker_b" "$cmd_b" "$out/boot-B"
	fi
done
echo "ab: built in $((t1 - t0)) s, measured in $((SECONDS - t1)) s; results in $top_res"
sed -n 's/^\([AB]\): /ab: \1 = /p' "$(res "${clocks%% *}")/ab.txt"
# a table a clock; the exit status as cyclestat's across rows (gate.c):
# 1 (slower) over 2 (could not compare) over 0
worst=0
for clk in $clocks; do
	r=$(res "$clk")
	echo
	rc=0
	# shellcheck disable=SC2086 # OPTS is a list of options
	userspace/cyclestat/cyclestat ab --clock "$clk" $OPTS "$r"/A/run* -- "$r"/B/run* || rc=$?
	[ $rc -gt 2 ] && rc=2
	if [ $rc = 1 ] || [ $worst = 1 ]; then worst=1; elif [ $rc = 2 ]; then worst=2; fi
	if [ "$clk" = icount ] && [ "$MEM" = 1 ]; then
		echo
		echo "MEMORY: the model is $mem_from."
		rc=0
		python3 userspace/qemu-plugin/abmem.py "$r/A" "$r/B" || rc=$?
		[ $rc -gt 2 ] && rc=2
		if [ $rc = 1 ] || [ $worst = 1 ]; then worst=1; elif [ $rc = 2 ]; then worst=2; fi
	fi
done
exit $worst
