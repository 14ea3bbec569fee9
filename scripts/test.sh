#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make test': runs every suite, shows its output, and adds their closing
# "N passed, N failed[, N skipped]" lines into the one closing line here.
# A suite that exits non-zero without counting a failure, or prints no
# summary, counts as one failure: nothing passes by saying nothing.
#
#   KERNELS="6.1" scripts/test.sh     (default: "6.1 6.12 6.12-rt 6.1-debug")
#   CB_TEST_JOBS=2 scripts/test.sh    the last QEMU lane (the debug one, half
#                                     the time) boots beside the others: each
#                                     TCG guest is mostly one host thread.
#                                     Its output is shown when it ends.
#                                     Default 1 (one after another), until
#                                     five full runs in a row prove that no
#                                     timing check minds the neighbour.
. "$(dirname "$0")/help.sh"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
mkdir -p build
passed=0 failed=0 skipped=0
summary=()

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
		"$name" "$p" "$f" "${s:-0}" $((SECONDS - t0)))")
}

suite cyclestat make --no-print-directory -C userspace test
suite runner make --no-print-directory -C userspace/runner test
suite scripts tests/host/run.sh
suite kmod tests/kmod/run.sh
read -r -a lanes <<< "${KERNELS:-6.1 6.12 6.12-rt 6.1-debug}"
bg=
if [ "${CB_TEST_JOBS:-1}" -ge 2 ] && [ "${#lanes[@]}" -ge 2 ]; then
	bg=${lanes[-1]}
	unset 'lanes[-1]'
	# the guest tools every lane makes first: made once, before two lanes race
	make -s build/cbpoke build/failnth cyclestat-static > build/e2e-tools.log 2>&1
	bgstart=$SECONDS
	echo "### qemu-$bg: beside the other lanes (CB_TEST_JOBS=${CB_TEST_JOBS}), shown when it ends"
	( CB_KERNEL="$bg" tests/e2e/run.sh > "build/test-qemu-$bg.bg" 2>&1
	  echo $? > "build/test-qemu-$bg.rc" ) &
	bgpid=$!
fi
for k in "${lanes[@]}"; do
	suite "qemu-$k" env CB_KERNEL="$k" tests/e2e/run.sh
done
if [ -n "$bg" ]; then
	wait "$bgpid"
	echo "### qemu-$bg ran $((SECONDS - bgstart)) s beside the others"
	suite "qemu-$bg" sh -c 'cat "$1"; exit "$(cat "$2")"' sh \
		"build/test-qemu-$bg.bg" "build/test-qemu-$bg.rc"
fi

echo
echo "### summary"
printf '%s\n' "${summary[@]}"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
