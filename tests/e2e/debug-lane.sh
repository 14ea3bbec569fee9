# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154,SC2034 # run.sh's variables
# The debug lane's host side, sourced by tests/e2e/run.sh (bash): what a
# 6.1-debug run adds to the QEMU suites.  Uses run.sh's top, out, series,
# abi, SPLAT, alloc_reports (tests/e2e/splat.sh), pass and fail.

# icount_vs_base: the debug kernel's instrumentation stays out of the timed
# code (Kbuild), so the icount suite's counts are the production kernel's,
# to the tick: compare with what CB_KERNEL=6.1 brought back from this
# build's module (a boot older than this lane's module is another build's:
# not compared).  1 where there is nothing to compare with.
icount_vs_base() {
	local b=${series%-debug} base f
	base=${CB_E2E_OUT_BASE:-$top/build/e2e-$b}/icount-a
	if [ ! -e "$base/figures.txt" ] || [ "$base/figures.txt" -ot "$ko" ]; then
		echo "# icount: no $b figures from this build in $base to compare with (CB_KERNEL=$b tests/e2e/run.sh icount brings them): a second boot instead"
		return 1
	fi
	for f in "$out"/icount-a/*.cycles; do
		if cmp -s "$f" "$base/$(basename "$f")"; then
			pass "icount: $(basename "$f" .cycles) identical on $series and $b"
		else
			fail "icount: $(basename "$f" .cycles) differs on $series from $b: $(head -n1 "$f") vs $(head -n1 "$base/$(basename "$f")" 2>/dev/null)"
		fi
	done
}

# debug_suite: fault injection and kmemleak (tests/e2e/debug.sh), then the
# checkers bite: a test build with a setup that leaks and a body that may
# sleep with irqs off (tests/e2e/bite/) fails the guest's kmemleak check
# and the kernel log check.
debug_suite() {
	log_filter=alloc_reports
	boot debug --smp 2 --mem 1024 --timeout 1800 --add "$top/build/failnth" \
		"$top/tests/e2e/debug.sh"
	log_filter='cat'
	sed "s/^/# debug: /" "$out/debug/figures.txt" 2>/dev/null

	local d=$top/build/ko-bite-$abi dir=$out/bite kdir
	if ! kdir=$("$top/scripts/kdir.sh" --kernel "$series"); then
		fail "bite: no headers for $series"
		return
	fi
	rm -rf "$d" "$dir"
	mkdir -p "$d"
	"$top/scripts/ko-sources.sh" --copy "$d"
	cp "$top"/tests/e2e/bite/*.c "$d"/kmod/fragments/
	if ! make -C "$kdir" M="$d" CB_EXTRA_GROUPS="leak sleep" modules > "$d.log" 2>&1; then
		fail "bite: the test build with the leak and sleep groups builds: $(grep -m2 error "$d.log")"
		return
	fi
	local t0=$SECONDS
	if ! qemu_boot "$dir" --ko "$d/cyclebench.ko" \
		--smp 2 --timeout 900 "$top/tests/e2e/debug.sh" bite; then
		fail "bite: the guest sent results back (see $dir/console.log)"
		return
	fi
	echo "# bite: booted and ran in $((SECONDS - t0)) s"
	if grep -q '^not ok [0-9]* - bite: kmemleak finds no leaked object' "$dir/results.txt"; then
		pass "checkers bite: kmemleak reports the leaking build, and the suite's check fails ($(sed -n 's/^kmemleak (bite): //p' "$dir/figures.txt"))"
	else
		fail "checkers bite: kmemleak did not report the leaking build (see $dir/kmemleak.txt, $dir/log.txt)"
	fi
	if grep -E "$SPLAT" "$dir/dmesg.txt" | grep -q 'sleeping function called from invalid context'; then
		pass "checkers bite: DEBUG_ATOMIC_SLEEP reports the body that may sleep with irqs off, and the kernel log check fails on it"
	else
		fail "checkers bite: no 'sleeping function called from invalid context' for the sleep group (see $dir/dmesg.txt)"
	fi
	if grep -E "$SPLAT" "$dir/dmesg.txt" | grep -q 'suspected memory leak'; then
		pass "checkers bite: the kernel log check fails on kmemleak's report too"
	else
		fail "checkers bite: no 'suspected memory leak' in the kernel log (see $dir/dmesg.txt)"
	fi
	# the bite guest's other points count as usual, here (its stream has
	# one failure by design), and its script must have reached its end
	local l grc
	grc=$(cat "$dir/rc" 2>/dev/null)
	if [ "${grc:-none}" = 0 ] && grep -q '^1\.\.[1-9]' "$dir/results.txt"; then
		pass "bite: the guest script ran to its end and planned its points"
	else
		fail "bite: the guest script exited ${grc:-without a status} before its end (see $dir/log.txt)"
	fi
	while read -r l; do
		case $l in
		"not ok "*" - bite: kmemleak finds no leaked object"*) ;;
		"ok "*" - "*) pass "${l#ok * - }" ;;
		"not ok "*" - "*) fail "${l#not ok * - }" ;;
		esac
	done < "$dir/results.txt"
}
