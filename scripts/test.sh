#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make test': runs every suite, shows its output, and adds their closing
# "N passed, N failed[, N skipped]" lines into the one closing line here.
# A suite that exits non-zero without counting a failure, or prints no
# summary, counts as one failure: nothing passes by saying nothing.
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
passed=0 failed=0 skipped=0
summary=()

# suite NAME CMD...: runs CMD, counts its summary line; the time shown is
# CMD's own, or $lane_secs where the lane ran beside and CMD only shows it
suite() {
	local name=$1
	shift
	local log=build/test-$name.log t0=$SECONDS
	echo "### $name: $*"
	"$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]}
	local line p f s
	line=$(grep -E '^([A-Za-z0-9_.-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	if [ -z "$line" ]; then
		echo "FAIL - $name: printed no 'N passed, N failed' line (exit $rc)"
		failed=$((failed + 1))
		summary+=("$name: no summary (exit $rc)")
		return
	fi
	p=$(echo "$line" | sed -E 's/.*\b([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.*\b([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.*\b([0-9]+) skipped.*/\1/p')
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL - $name: exited $rc with no failed test"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + ${s:-0}))
	summary+=("$(printf '%-12s %4d passed, %d failed, %d skipped, %4d s' \
		"$name" "$p" "$f" "${s:-0}" "${lane_secs:-$((SECONDS - t0))}")")
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
				CB_KERNEL="$k" tests/e2e/run.sh > "build/test-qemu-$k.bg" 2>&1
				echo $? > "build/test-qemu-$k.rc"
				echo $((SECONDS - t0)) > "build/test-qemu-$k.secs"
			done
		) &
		slotpid[i]=$!
	done
fi
bgstart=$SECONDS
suite cyclestat make --no-print-directory -C userspace test
suite runner make --no-print-directory -C userspace/runner test
suite scripts tests/host/run.sh
for k in ${slot[0]}; do
	suite "qemu-$k" env CB_KERNEL="$k" tests/e2e/run.sh
done
for ((i = 1; i < nslots; i++)); do
	wait "${slotpid[i]}"
	echo "### beside:${slot[i]}: ended $((SECONDS - bgstart)) s after they started"
	for k in ${slot[i]}; do
		# (a lane that left no status, killed say, exits 1 here)
		lane_secs=$(cat "build/test-qemu-$k.secs" 2>/dev/null) \
			suite "qemu-$k" sh -c 'cat "$1"; exit "$(cat "$2" 2>/dev/null || echo 1)"' sh \
			"build/test-qemu-$k.bg" "build/test-qemu-$k.rc"
	done
done

echo
echo "### summary"
printf '%s\n' "${summary[@]}"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
