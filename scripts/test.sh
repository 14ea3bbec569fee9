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
#   CB_TEST_JOBS=N scripts/test.sh    QEMU lanes at once (default: the
#                                     number of CPUs).  Each TCG guest is
#                                     mostly one host thread, so on two
#                                     cores the debug lane (the longest)
#                                     boots beside the others.  A lane run
#                                     beside is shown when it ends.
. "$(dirname "$0")/help.sh"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
mkdir -p build
tap=$top/build/tap
rm -rf "$tap"
lanes_run=() times=()

# suite NAME CMD...: runs CMD with TAP_DIR=build/tap/NAME, shows its
# output, keeps its exit status there; the time shown is CMD's own, or
# $lane_secs where the lane ran beside and CMD only shows it
suite() {
	local name=$1 t0=$SECONDS
	shift
	echo "### $name: $*"
	mkdir -p "$tap/$name"
	TAP_DIR=$tap/$name "$@" 2>&1 | tee "build/test-$name.log"
	echo "${PIPESTATUS[0]}" > "$tap/$name/exit.rc"
	lanes_run+=("$tap/$name")
	times+=("$(printf '%-14s %5d s' "$name" "${lane_secs:-$((SECONDS - t0))}")")
}

# The kmod lane first, alone: it builds the module for every kernel, which
# the QEMU lanes then use (build-ko.sh finds nothing to do).
suite kmod tests/kmod/run.sh
read -r -a lanes <<< "${KERNELS:-6.1 6.12 6.12-rt 6.1-debug}"
jobs=${CB_TEST_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || { echo "test.sh: CB_TEST_JOBS=$jobs: want a number >= 1" >&2; exit 2; }
# Lanes to slots, longest first, each to the least loaded slot (seconds
# measured on the 2-core development machine; slot 0 is this shell, which
# also runs the userspace lanes).
lane_s() { case $1 in *-debug) echo 1500 ;; 6.1) echo 800 ;; *) echo 600 ;; esac; }
nslots=$((jobs < ${#lanes[@]} ? jobs : ${#lanes[@]}))
[ "$nslots" -ge 1 ] || nslots=1
load=(350) slot=()
for ((i = 1; i < nslots; i++)); do load[i]=0; slot[i]=; done
slot[0]=
for k in $(for k in "${lanes[@]}"; do echo "$(lane_s "$k") $k"; done | sort -rn | cut -d' ' -f2); do
	best=0
	for ((i = 1; i < nslots; i++)); do
		[ "${load[i]}" -lt "${load[best]}" ] && best=$i
	done
	load[best]=$((load[best] + $(lane_s "$k")))
	slot[best]="${slot[best]} $k"
done
if [ "$nslots" -ge 2 ]; then
	# the guest tools every lane makes first: made once, before lanes race
	make -s build/cbpoke build/failnth cyclestat-static > build/e2e-tools.log 2>&1
	for ((i = 1; i < nslots; i++)); do
		echo "### beside (CB_TEST_JOBS=$jobs):${slot[i]}; each shown when it ends"
		(
			for k in ${slot[i]}; do
				rm -f "build/test-qemu-$k.rc" "build/test-qemu-$k.secs"
				t0=$SECONDS
				TAP_DIR=$tap/qemu-$k CB_KERNEL="$k" tests/e2e/run.sh > "build/test-qemu-$k.bg" 2>&1
				echo $? > "build/test-qemu-$k.rc"
				echo $((SECONDS - t0)) > "build/test-qemu-$k.secs"
			done
		) &
		slotpid[i]=$!
	done
fi
bgstart=$SECONDS
suite cyclestat make --no-print-directory -C userspace test
suite runner make --no-print-directory -C runner test
suite scripts tests/host/run.sh
for k in ${slot[0]}; do
	suite "qemu-$k" env CB_KERNEL="$k" tests/e2e/run.sh
done
for ((i = 1; i < nslots; i++)); do
	wait "${slotpid[i]}"
	echo "### beside:${slot[i]}: ended $((SECONDS - bgstart)) s after they started"
	for k in ${slot[i]}; do
		# (its streams are in build/tap/qemu-$k already; a lane that left
		# no status, killed say, exits 1 here)
		lane_secs=$(cat "build/test-qemu-$k.secs" 2>/dev/null) \
			suite "qemu-$k" sh -c 'cat "$1"; exit "$(cat "$2" 2>/dev/null || echo 1)"' sh \
			"build/test-qemu-$k.bg" "build/test-qemu-$k.rc"
	done
done

echo
echo "### summary: each lane's time, then its points (tests/tap/count)"
printf '%s\n' "${times[@]}"
tests/tap/count "${lanes_run[@]}"
