#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make test': runs every lane, shows its output, and counts what they
# printed: each lane keeps its TAP streams in build/tap/LANE (TAP_DIR), and
# tests/tap/count counts them all at the end, a line per lane and last
# "N passed, N failed[, N skipped]".  A lane that exits non-zero without a
# failed point, or prints no TAP, counts as one failure: nothing passes by
# saying nothing.
#
#   KERNELS="6.1" scripts/test.sh     (default: "6.1 6.12 6.12-rt 6.1-debug")
#   CB_TEST_JOBS=N scripts/test.sh    lanes at once (default: the number
#                                     of CPUs).  Each TCG guest is mostly
#                                     one host thread, so on two cores the
#                                     debug lane (the longest) boots beside
#                                     the others.  A lane run beside is
#                                     shown when it ends.
. "$(dirname "$0")/help.sh"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
mkdir -p build
tap=$top/build/tap
rm -rf "$tap"
lanes_run=() times=()

# Each lane's CPU time (user + sys, its children's included) goes to
# build/test-LANE.cpu, in TIMEFORMAT's words, for the summary
TIMEFORMAT='%U %S'
cpu_s() { awk '{ printf "%d", $1 + $2 + 0.5 }' "build/test-$1.cpu" 2>/dev/null || echo '?'; }

# show NAME CMD...: CMD with TAP_DIR=build/tap/NAME, its output shown and
# kept in build/test-NAME.log, its exit status in build/tap/NAME/exit.rc
show() {
	local name=$1
	shift
	TAP_DIR=$tap/$name "$@" 2>&1 | tee "build/test-$name.log"
	echo "${PIPESTATUS[0]}" > "$tap/$name/exit.rc"
}

# suite NAME CMD...: runs CMD with TAP_DIR=build/tap/NAME, shows its
# output, keeps its exit status there; the times shown are CMD's own, or,
# where the lane ran beside and CMD only shows it, the lane's ($lane_secs
# and its .cpu file)
suite() {
	local name=$1 t0=$SECONDS
	shift
	echo "### $name: $*"
	mkdir -p "$tap/$name"
	if [ -n "${lane_secs:-}" ]; then
		show "$name" "$@"
	else
		# (in a subshell: this shell's children's times would take in a
		# lane beside that ended meanwhile)
		( { time show "$name" "$@"; } 2> "build/test-$name.cpu" )
	fi
	lanes_run+=("$tap/$name")
	times+=("$(printf '%-14s %5d s %6s CPU-s' "$name" "${lane_secs:-$((SECONDS - t0))}" "$(cpu_s "$name")")")
}

# The lanes: kmod (the static checks; its W=1 builds make every kernel's
# module, which build-ko.sh then finds made), cyclestat, runner and
# scripts (userspace), and a QEMU lane per kernel, which needs kmod's
# module.  Slot 0 is this shell; with CB_TEST_JOBS >= 2, slot 1 starts
# with kmod while slot 0 runs the userspace lanes, and the QEMU lanes go,
# longest first, each to the least loaded slot; one in slot 0 waits for
# kmod's end.  The estimates (load, lane_s) are seconds measured on the
# 2-core development machine, warm, each lane beside another.
read -r -a lanes <<< "${KERNELS:-6.1 6.12 6.12-rt 6.1-debug}"
jobs=${CB_TEST_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || { echo "test.sh: CB_TEST_JOBS=$jobs: want a number >= 1" >&2; exit 2; }
lane_s() { case $1 in *-debug) echo 980 ;; 6.1) echo 670 ;; *) echo 300 ;; esac; }
nslots=$((jobs < ${#lanes[@]} + 1 ? jobs : ${#lanes[@]} + 1))
[ "$nslots" -ge 1 ] || nslots=1
# the userspace lanes, then kmod's
load=(530) slot=()
for ((i = 1; i < nslots; i++)); do load[i]=0; slot[i]=; done
slot[0]=
if [ "$nslots" -ge 2 ]; then slot[1]=kmod load[1]=160; fi
for k in $(for l in "${lanes[@]}"; do echo "$(lane_s "$l") $l"; done | sort -rn | cut -d' ' -f2); do
	best=0
	for ((i = 1; i < nslots; i++)); do
		[ "${load[i]}" -lt "${load[best]}" ] && best=$i
	done
	load[best]=$((load[best] + $(lane_s "$k")))
	slot[best]="${slot[best]} qemu-$k"
done
# lane NAME: its command
lane() {
	case $1 in
	kmod) tests/kmod/run.sh ;;
	qemu-*) CB_KERNEL="${1#qemu-}" tests/e2e/run.sh ;;
	esac
}
rm -f build/test-*.rc build/test-*.secs build/test-*.cpu
if [ "$nslots" -ge 2 ]; then
	# the guest tools every lane makes first: made once, before lanes race
	make -s build/cbpoke build/failnth cyclestat-static > build/e2e-tools.log 2>&1
	for ((i = 1; i < nslots; i++)); do
		echo "### beside (CB_TEST_JOBS=$jobs):${slot[i]}; each shown when it ends"
		(
			for k in ${slot[i]}; do
				t0=$SECONDS
				{ time TAP_DIR=$tap/$k lane "$k" > "build/test-$k.bg" 2>&1; } 2> "build/test-$k.cpu"
				rc=$?
				echo $((SECONDS - t0)) > "build/test-$k.secs"
				echo $rc > "build/test-$k.rc"
			done
		) &
		slotpid[i]=$!
	done
else
	suite kmod lane kmod
fi
bgstart=$SECONDS
suite cyclestat make --no-print-directory -C userspace test
suite runner make --no-print-directory -C runner test
suite scripts tests/host/run.sh
for k in ${slot[0]}; do
	# kmod's builds first (slot 1's first lane)
	while [ "$nslots" -ge 2 ] && [ ! -e build/test-kmod.rc ] && kill -0 "${slotpid[1]}" 2>/dev/null; do
		sleep 1
	done
	suite "$k" lane "$k"
done
for ((i = 1; i < nslots; i++)); do
	wait "${slotpid[i]}"
	echo "### beside:${slot[i]}: ended $((SECONDS - bgstart)) s after they started"
	for k in ${slot[i]}; do
		# (its streams are in build/tap/$k already; a lane that left no
		# status, killed say, exits 1 here)
		lane_secs=$(cat "build/test-$k.secs" 2>/dev/null) \
			suite "$k" sh -c 'cat "$1"; exit "$(cat "$2" 2>/dev/null || echo 1)"' sh \
			"build/test-$k.bg" "build/test-$k.rc"
	done
done

echo
echo "### summary: each lane's time (wall, then CPU), then its points (tests/tap/count)"
printf '%s\n' "${times[@]}"
# the whole run's CPU: this shell's children, the prelude's build included
# (times in this shell: in a pipe or $(...) it would report a subshell's)
times > build/test-times.txt
awk -v w="$SECONDS" -v n="$(nproc)" 'function sec(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
	NR == 2 { c = sec($1) + sec($2); printf "%-14s %5d s %6d CPU-s (%.2f of %d CPUs busy)\n",
		"all", w, c, c / (w ? w : 1), n }' build/test-times.txt
tests/tap/count "${lanes_run[@]}"
