#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel-side tests: boots Debian's kernel under QEMU in each
# configuration, runs a guest script there, and checks what comes back.
# Every boot also checks the kernel log for splats and that the results
# came back at all.  Each guest's results are a TAP stream of their own,
# the host's checks another (tests/tap/tap.sh), all kept in $TAP_DIR
# (default build/e2e-SERIES/tap); tests/tap/count counts them and prints
# the last line, "N passed, N failed".
#
#   tests/e2e/run.sh [SUITE...]     suites: icount copies max qemu64
#                                   reliability rt nmi lfence lifetime ab
#                                   sleepy cpus probe, ci-gate and gate (the
#                                   regression gate's logic and rates),
#                                   stress (the soak), debug (fault
#                                   injection, kmemleak), irqsoff (the
#                                   irqsoff tracer against max_sample_us,
#                                   under icount), memcount (loads,
#                                   stores and cache misses per op from
#                                   the TCG plugin cbcount.so, under
#                                   icount); without any, the
#                                   kernel's lane ("What each lane runs"
#                                   below)
#
# CB_KERNEL picks the kernel series (default 6.1; scripts/deps.sh --kernel
# 6.12 sets up 6.12, --kernel 6.12-rt Debian's PREEMPT_RT 6.12, --kernel
# 6.1-debug a 6.1 built with KASAN, kmemleak, lockdep and fault injection);
# the module is built for it by scripts/build-ko.sh.
# Needs: scripts/deps.sh done, build/cbpoke and userspace/cyclestat/cyclestat.static
# built (make test does both).
. "$(dirname "$0")/../../scripts/help.sh"
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
series=${CB_KERNEL:-6.1}
out=${CB_E2E_OUT:-$top/build/e2e-$series}
. "$top/tests/tap/tap.sh"
. "$top/scripts/console.sh"
tap_lane host "$out/tap"
# the last lines: the plan of the host's checks, then every stream counted
finish() {
	tap_end > /dev/null
	"$top/tests/tap/count" "$TAP_DIR"
}

mkdir -p "$top/build"
# The guest's tools: cbpoke (every write's errno) and a static cyclestat.
# (and the native one, that counts the gate's rates here)
if ! make -s -C "$top" build/cbpoke build/failnth cyclestat-static userspace > "$top/build/e2e-tools.log" 2>&1; then
	fail "the guest tools build (make build/cbpoke build/failnth cyclestat-static userspace): $(tail -n3 "$top/build/e2e-tools.log")"
	finish
	exit 1
fi

# The module and kernel of every boot: each qemu-run.sh call gets
# --kernel "$abi" --ko "$ko".
# (the tests' build: with the fault_* hooks, which a product build lacks)
if ! ko=$("$top/scripts/build-ko.sh" --test-hooks "$series"); then
	fail "cyclebench.ko builds for $series (scripts/build-ko.sh --test-hooks $series)"
	finish
	exit 1
fi
abi=$(basename "$(dirname "$ko")")
abi=${abi#ko-}
abi=${abi%+hooks}
echo "# e2e-$series: kernel $abi, module $ko"

# What must never appear in a guest's kernel log (SPLAT, alloc_reports)
. "$top/tests/e2e/splat.sh"
# the debug lane's additions
. "$top/tests/e2e/debug-lane.sh"
# the memcount suite (userspace/qemu-plugin's cbcount.so)
. "$top/tests/e2e/memcount-host.sh"
log_filter='cat'

# test_module NAME FILE...: a module of base and the test groups FILE...
# (tests/kmod/GROUP.c, each group named after its file) for this series,
# in $out/NAME-ko.
test_module() {
	local dir=$out/$1-ko groups=base f
	rm -rf "$dir"
	mkdir -p "$dir"
	"$top/scripts/ko-sources.sh" --copy "$dir"
	rm -f "$dir"/kmod/fragments/*.c
	cp "$top/kmod/fragments/base.c" "$dir"/kmod/fragments/
	shift
	for f in "$@"; do	# each FILE's group is named after it
		cp "$top/$f" "$dir"/kmod/fragments/
		groups="$groups $(basename "$f" .c)"
	done
	if ! make -C "$("$top/scripts/kdir.sh" --kernel "$series")" M="$dir" \
		CB_GROUPS="$groups" CB_TEST_HOOKS=y modules > "$dir/build.log" 2>&1; then
		fail "$1: the test module builds (see $dir/build.log)"
		return 1
	fi
}

# The guests' CPU, unless a suite names another (qemu64, EPYC): QEMU's
# max without ERMS and FSRM.  With them the kernel's memcpy, memset,
# clear_page and copy_to_user are `rep movsb`/`rep stosb`, which TCG runs
# a byte an iteration, several times slower than rep movsq and unrolled
# loops (docs/measurements.md), and the defaults' run of
# mem:memcpy/65536 and memset/65536 was most of the max suite.  The harness uses neither; make run keeps plain max.
cpu_max=max,-erms,-fsrm

# qemu_boot DIR [qemu-run options] SCRIPT: qemu-run.sh into DIR (this
# lane's kernel, module and CPU; a later --ko or --cpu wins), its exit
# status.  When the kernel died or hung booting, before /init, nothing of ours
# had run (seen once in 30 boots of 6.12-rt under TCG: an int3 of the
# kernel's own text patching; once in the debug kernel: KASAN in an
# interrupt during identify_cpu; once the debug kernel hung silently
# after SeaBIOS, which qemu-run.sh's boot watchdog now stops after 300 s):
# one more boot, said out loud, and only
# the second boot's messages shown (console.sh's cb_boot).  Every boot of
# the lanes goes through here.
qemu_boot() {
	local dir=$1
	shift
	mkdir -p "$(dirname "$dir")"
	cb_boot "e2e $(basename "$dir")" '' "$dir/console.log" "$top/scripts/qemu-run.sh" --quiet \
		--kernel "$abi" --ko "$ko" --cpu "$cpu_max" --out "$dir" "$@"
}

# gate_rates DIR: the regression gate's error rates over the runs one gate
# boot left in DIR/runs (userspace/cyclestat/tests/gate-rates.sh, with the native
# cyclestat), into DIR/figures.txt and the console, checked against the
# issue's bounds: at most 1 A/A alarm in 45 pairs of runs; +10 % never
# called faster where both sides come from the same runs; paired, at most
# 1 A/A alarm in 20, at least 19 of 20 slower and none faster.  Where the
# sides come from different runs, runs as repetitions cannot promise even
# that: TCG's clock can move a dec/jnz loop 40 % between runs of a boot
# while the add chain that calibrates them moves 4 % (seen: the last five
# runs of a boot against its first five, /110 "faster"), so those are
# figures, not checks.
gate_rates() {
	local d=$1 r="$1/rates.txt" v
	if ! sh "$top/userspace/cyclestat/tests/gate-rates.sh" "$top/userspace/cyclestat/cyclestat" "$1/runs" > "$r" 2>&1; then
		fail "gate: the rates of $1/runs count (userspace/cyclestat/tests/gate-rates.sh: $(tail -n 1 "$r"))"
		return
	fi
	grep -v '^ aa_' "$r" | sed 's/^/within one boot: /' > "$1/figures.txt"
	sed 's/^/# gate: /' "$1/figures.txt"
	v=$(tail -n 1 "$r")
	# rate KEY: its count in gate-rates.sh's last line (-1 when missing)
	rate() { local x; x=$(echo "$v" | tr ' ' '\n' | sed -n "s/^$1=//p"); echo "${x:--1}"; }
	# within NAME LO HI KEY: LO <= the count <= HI
	within() {
		local n
		n=$(rate "$4")
		if [ "$n" -ge "$2" ] && [ "$n" -le "$3" ]; then pass "$1 ($n)"
		else fail "$1: $n, not in $2..$3 (see $d/figures.txt)"; fi
	}
	within "gate A/A within one boot: alarms in 45 pairs (runs as repetitions)" 0 1 aa_runs
	within "gate A/B +10% within one boot, runs as repetitions, both sides from the same runs: never faster" 0 0 ab_fast_same_runs
	within "gate A/A within one boot, paired ensembles: alarms in 20" 0 1 aa_paired
	within "gate A/B +10% within one boot, paired ensembles: slower in 20 pairs" 19 20 ab_slow_paired
	within "gate A/B +10% within one boot, paired ensembles: never faster" 0 0 ab_fast_paired
}

# boot NAME [qemu-run options] SCRIPT: one boot; the guest's TAP stream
# goes to $TAP_DIR/NAME.tap, its failures shown here as they come.
boot() {
	local name=$1
	shift
	local dir=$out/$name
	rm -rf "$dir"
	local t0=$SECONDS rc=0
	qemu_boot "$dir" "$@" || rc=$?
	if [ $rc != 0 ]; then
		fail "$name: the guest sent results back (see $dir/console.log)"
		return
	fi
	echo "# $name: booted and ran in $((SECONDS - t0)) s"
	# where the guest's time went: the three longest stretches between
	# points (the guest's clock; each ends with the point named)
	[ -s "$dir/points.txt" ] && awk 'NR > 1 { printf "%.1f %s\n", $1 - t, substr($0, index($0, " ") + 1) } { t = $1 }' \
		"$dir/points.txt" | sort -rn | head -n 3 | cut -c1-90 | sed "s/^\([^ ]*\) /# $name: \1 s up to: /"
	# A guest script that stopped before its end (a shell error, a
	# missing file) ran fewer checks and failed none of them: its exit
	# status says so (every suite ends with 0).
	local grc
	grc=$(cat "$dir/rc" 2>/dev/null)
	if [ "${grc:-none}" != 0 ]; then
		fail "$name: the guest script exited ${grc:-without a status} before its end (see $dir/log.txt: $(tail -n 2 "$dir/log.txt" 2>/dev/null | tr '\n' '|'))"
	fi
	if [ -s "$dir/results.txt" ]; then
		cp "$dir/results.txt" "$TAP_DIR/$name.tap"
		sed -n "s/^not ok [0-9]* - /# $name: not ok - /p" "$dir/results.txt"
	else
		fail "$name: the guest's results came back (see $dir/log.txt)"
	fi
	local hits
	# (the boot's own CPU-vulnerability notices are not splats)
	hits=$($log_filter < "$dir/dmesg.txt" | grep -v -e 'Command line' -e 'hw-vuln' | grep -E "$SPLAT")
	if [ -z "$hits" ]; then
		pass "$name: kernel log clean"
	else
		fail "$name: kernel log has: $(echo "$hits" | head -n3)"
	fi
}

# What each lane runs (make test runs all four; a suite named on the
# command line runs on any lane):
#  - 6.1, Debian 12's kernel: every suite, at full size (max's defaults,
#    reliability's 10^8 samples, icount twice to compare the boots), and
#    what is not a kernel's: a CPU model's (qemu64: no RDTSCP, the
#    fallback methods; lfence: an EPYC model's LFENCE), the gate's rates
#    and the gate script's logic (ci-gate, gate): the harness's; and
#    memcount (the TCG plugin's counts: the emulator's, not a kernel's).
#  - 6.12-rt: every suite but those and copies (the object-code
#    checker's own bodies: 6.1's), the big runs at a tenth: what differs
#    between kernels is the paths (kernel APIs, PREEMPT_RT's locks), which
#    both sizes take.
#  - 6.12: what the preemption model changes on that kernel (icount of
#    its own build, rt's non-RT side, nmi, lifetime, sleepy, cpus), and
#    make ab (tests/e2e/ab.sh: against 6.1, the lanes' shortest); max
#    and reliability take the same 6.12 APIs on 6.12-rt, the stricter
#    model (every fragment of max also runs in rt's run here).
#  - 6.1-debug: the suites whose paths KASAN, lockdep, kmemleak and fault
#    injection check (max, reliability, nmi, lifetime, cpus), then its
#    own (debug, irqsoff), and icount compared with 6.1's.  The others
#    take the same module paths there as on 6.1: qemu64 and lfence test a
#    CPU model, rt a PREEMPT_RT kernel, copies the object-code checker,
#    sleepy the host's report of a dead guest (the debug suite's bite
#    checks DEBUG_ATOMIC_SLEEP's report itself); they cost 150 s there.
suites=${*:-icount max reliability rt nmi lifetime sleepy cpus hostile}
case $series in
6.12) suites=${*:-icount rt nmi lifetime sleepy cpus hostile ab} ;;
*-debug) suites=${*:-max reliability nmi lifetime cpus hostile debug irqsoff icount} ;;
6.1) suites=${*:-icount copies max qemu64 reliability rt nmi lfence lifetime sleepy cpus hostile probe ci-gate gate memcount} ;;
esac
# the big runs in full on one lane (max.sh, reliability.sh)
size=light
[ "$series" = 6.1 ] && size=full
for s in $suites; do
	case $s in
	icount)
		# every region's instructions, read from this very module: the
		# guest checks every straight-line body's per-op figure against them
		# (on the debug lane, lockdep and DEBUG_PREEMPT put calls and spills
		# into some C bodies, e.g. rcu_read_lock: said, not failed; the
		# straight-line check then leaves those bodies out)
		mkdir -p "$out"
		if ! python3 "$top/tests/kmod/regions.py" --table "$out/regions.txt" "$ko" \
			"$top"/kmod/fragments/*.c > "$out/regions.out" 2>&1; then
			case $series in
			*-debug) sed 's/^/# icount: (debug kernel) /' "$out/regions.out" ;;
			*)	# the point, then a line per problem under it
				mapfile -t lines < "$out/regions.out"
				fail "icount: the module's regions are clean (tests/kmod/regions.py)" "${lines[@]}" ;;
			esac
		fi
		boot icount-a --icount --add "$out/regions.txt" "$top/tests/e2e/icount.sh"
		[ -e "$out/icount-a/figures.txt" ] && sed 's/^/# icount: /' "$out/icount-a/figures.txt"
		# the debug lane: the same counts as the production kernel's boot
		# of this very build (its lane ran icount first: make test runs
		# the debug lane's icount last); without one, a second boot
		if [[ $series == *-debug ]] && icount_vs_base; then
			continue
		fi
		# the same counts on a second boot: the emulator's and the
		# harness's determinism, not a kernel's (6.1's lane)
		[ $size = light ] && [[ $series != *-debug ]] && continue
		boot icount-b --icount --add "$out/regions.txt" "$top/tests/e2e/icount.sh"
		for f in "$out"/icount-a/*.cycles; do
			[ -e "$f" ] || { fail "icount: no cycles files came back"; break; }
			b=$out/icount-b/$(basename "$f")
			if cmp -s "$f" "$b"; then
				pass "icount: $(basename "$f" .cycles) identical across two boots"
			else
				fail "icount: $(basename "$f" .cycles) differs between boots: $(head -n1 "$f") vs $(head -n1 "$b" 2>/dev/null)"
			fi
		done
		;;
	# the sizes in full on 6.1 only (tests/e2e/max.sh says why)
	max)
		boot max --smp 3 --mem 1024 --timeout 1800 \
			--add "$top/tests/contract/contract.sh" \
			--add "$top/tests/contract/requests.txt" "$top/tests/e2e/max.sh" $size ;;
	qemu64) boot qemu64 --cpu qemu64 --smp 2 "$top/tests/e2e/qemu64.sh" ;;
	rt) boot rt --smp 2 --mem 1024 "$top/tests/e2e/rt.sh" ;;
	lfence)
		boot lfence --cpu EPYC --smp 1 "$top/tests/e2e/lfence.sh"
		# (under icount: the regions' exact instruction counts)
		boot lfence-nordtscp --cpu EPYC,-rdtscp --icount "$top/tests/e2e/lfence.sh" nordtscp
		;;
	lifetime) boot lifetime --smp 2 "$top/tests/e2e/lifetime.sh" ;;
	cpus)
		# (the debug kernel takes several times as long: KASAN, lockdep)
		tmo=600
		case $series in *-debug) tmo=1800 ;; esac
		boot cpus --smp 3 --mem 1024 --timeout $tmo \
			--add "$top/tests/contract/contract.sh" "$top/tests/e2e/cpus.sh"
		sed "s/^/# cpus: /" "$out/cpus/figures.txt" 2>/dev/null
		# each CPU's flags of a body that gives up its wait
		# (tests/kmod/timeouts.c): every sample a time-out
		test_module timeouts tests/kmod/timeouts.c || continue
		boot cpus-timeouts --smp 3 --ko "$out/timeouts-ko/cyclebench.ko" \
			--add "$top/tests/contract/contract.sh" "$top/tests/e2e/cpus.sh" timeouts
		;;
	irqsoff)
		boot irqsoff --icount --mem 2048 "$top/tests/e2e/irqsoff.sh"
		sed "s/^/# irqsoff: /" "$out/irqsoff/figures.txt" 2>/dev/null
		;;
	nmi)
		# NMIs through QEMU's monitor while the guest samples
		# (tests/e2e/nmi.sh); 8 of them, 500 ms apart: QEMU's main
		# thread stalled on a busy host handles queued commands back to
		# back, two NMIs in one sample or, three close, one latched away
		# (4 s of the run's 12)
		mon=$out/nmi-monitor
		mkdir -p "$out"
		rm -rf "$out/nmi" "$mon.in" "$mon.out"
		mkfifo "$mon.in" "$mon.out"
		(
			for _ in $(seq 1 1200); do
				grep -qs cb-nmi-ready "$out/nmi/console.log" && break
				sleep 0.1
			done
			exec 3<> "$mon.in"
			for _ in 1 2 3 4 5 6 7 8; do
				echo nmi >&3
				sleep 0.5
			done
			sleep 5
		) &
		inj=$!
		# QEMU echoes each command: keep the pipe drained
		cat "$mon.out" > /dev/null &
		drain=$!
		boot nmi --smp 2 --monitor "$mon" "$top/tests/e2e/nmi.sh" 8
		kill $inj $drain 2>/dev/null
		wait $inj $drain 2>/dev/null
		rm -f "$mon.in" "$mon.out"
		sed "s/^/# nmi: /" "$out/nmi/figures.txt" 2>/dev/null
		;;
	ci-gate)
		# The bare-metal CI gate, played by an icount guest: passes against
		# its own baseline, fails naming the one doctored fragment.
		# Eight runs per gate invocation (repetitions): give icount time,
		# and room for their saved trees (about 40, in the guest's memory)
		boot ci-gate --icount --mem 1024 --timeout 1500 --add "$top/scripts/ci-bare-metal.sh" \
			"$top/tests/host/ci-gate-guest.sh" alu:imul_dep
		;;
	gate)
		# The gate's error rates under TCG: the runs of one boot
		# (tests/e2e/gate.sh), counted here; with CB_GATE_BOOTS=N
		# (N >= 2) also across boots.
		boot gate "$top/tests/e2e/gate.sh"
		gate_rates "$out/gate"
		b=2
		while [ "$b" -le "${CB_GATE_BOOTS:-1}" ]; do
			boot "gate-$b" "$top/tests/e2e/gate.sh"
			b=$((b + 1))
		done
		if [ "${CB_GATE_BOOTS:-1}" -ge 2 ]; then
			if "$top/tests/e2e/gate-boots.sh" "$out" "$CB_GATE_BOOTS"; then
				pass "gate across $CB_GATE_BOOTS boots: rates within the issue's bounds"
			else
				fail "gate across $CB_GATE_BOOTS boots: rates outside the issue's bounds (see above)"
			fi
		fi
		;;
	reliability|stress)
		scale=$size
		[ "$s" = stress ] && scale=soak
		# (the debug kernel's KASAN shadow takes an eighth of the
		# memory and of every vmalloc'd array: 5's 10^8 samples, 1.7 GB of
		# arrays, do not fit in 2 GB there)
		mem=2048
		case $series in *-debug) mem=3072 ;; esac
		# (its load cycles meet a race of the kernel's own, named in
		# splat.sh: that one warning is left out of the log check)
		log_filter=debugfs_race_reports boot "$s" --smp 2 --mem $mem --timeout 1800 \
			"$top/tests/e2e/reliability.sh" $scale
		sed "s/^/# $s: /" "$out/$s/figures.txt" "$out/$s/times.txt" 2>/dev/null
		;;
	copies)
		# the object-code check's own bodies, under icount, and a body
		# whose long region overruns the interrupts-off bound
		if test_module copies tests/kmod/copies.c tests/kmod/overrun.c; then
			python3 "$top/tests/kmod/regions.py" --table "$out/copies-ko/regions.txt" \
				"$out/copies-ko/cyclebench.ko" "$out"/copies-ko/kmod/fragments/*.c \
				> "$out/copies-ko/regions.out" 2>&1
			boot copies --icount --ko "$out/copies-ko/cyclebench.ko" \
				--add "$out/copies-ko/regions.txt" "$top/tests/e2e/copies.sh"
		fi
		;;
	hostile)
		# bodies written to break the interrupts-off bound, and requests
		# that would hold the CPU for nothing (tests/kmod/hostile.c)
		test_module hostile tests/kmod/hostile.c || continue
		# (lock_leak leaves a lock held on purpose: lockdep's report of
		# it, in splat.sh, is left out of the log check)
		log_filter=held_lock_reports boot hostile --icount \
			--ko "$out/hostile-ko/cyclebench.ko" "$top/tests/e2e/hostile.sh"
		;;
	probe)
		# the probe runs the body with interrupts off, as the samples do
		# (tests/kmod/irqs.c counts its runs with them on)
		test_module irqs tests/kmod/irqs.c || continue
		boot probe --ko "$out/irqs-ko/cyclebench.ko" "$top/tests/e2e/probe.sh"
		;;
	sleepy)
		# A body that sleeps with interrupts off (tests/kmod/sleepy.c) kills
		# the guest; qemu-run.sh must name the fragment and the kernel's
		# reason, and must not call it a death while booting.
		test_module sleepy tests/kmod/sleepy.c || continue
		sdir=$out/sleepy-ko
		rm -rf "$out/sleepy"
		srun=0
		serr=$(qemu_boot "$out/sleepy" --ko "$sdir/cyclebench.ko" \
			--timeout 300 "$top/tests/e2e/sleepy.sh" 2>&1 >/dev/null) || srun=$?
		echo "$serr" | sed 's/^/# sleepy: /'
		if [ $srun = 1 ]; then pass "sleepy: the guest died (qemu-run.sh exit 1)"
		else fail "sleepy: the guest died: qemu-run.sh exit 1 expected, got $srun"; fi
		if echo "$serr" | grep -qE "fragment sleepy:msleep_1 killed the guest: .*(scheduling while atomic|sleeping function called from invalid context)"; then
			pass "sleepy: the host names sleepy:msleep_1 and the kernel's reason"
		else
			fail "sleepy: the host names sleepy:msleep_1 and the kernel's reason: got '$serr'"
		fi
		# (qemu-run.sh's verdict on the boot that counted: a boot that
		# died before /init was booted again, and cb_boot's note of that
		# retry is not the verdict)
		if echo "$serr" | grep '^qemu-run.sh: ' | grep -q "before /init"; then
			fail "sleepy: not called a death while booting"
		else
			pass "sleepy: not called a death while booting"
		fi
		# The same body where the kernel survives it (the guest turns
		# panic_on_warn off, as production kernels run): the module stops
		# the run, cyclestat run names the fragment.  The kernel's report
		# of the sleep is expected there; any other splat still fails.
		log_filter=sleep_reports boot sleepy-survive --ko "$sdir/cyclebench.ko" \
			"$top/tests/e2e/sleepy.sh" survive
		# A kernel that never reaches /init (here: given 1 s to) is
		# stopped by qemu-run.sh's boot watchdog and called a death while
		# booting (exit 3, which qemu_boot retries), not left to the
		# suite's timeout.
		t0=$SECONDS hrc=0
		herr=$("$top/scripts/qemu-run.sh" --quiet --kernel "$abi" --ko "$ko" --cpu "$cpu_max" \
			--boot-timeout 1 --out "$out/boot-hang" "$top/tests/e2e/sleepy.sh" 2>&1 >/dev/null) || hrc=$?
		if [ $hrc = 3 ] && echo "$herr" | grep -q "did not reach /init in 1 s: it hung while booting"; then
			pass "boot watchdog: a kernel not at /init in --boot-timeout is stopped, exit 3 ($((SECONDS - t0)) s)"
		else
			fail "boot watchdog: expected exit 3 and 'did not reach /init in 1 s', got exit $hrc: $herr"
		fi
		;;
	debug) debug_suite ;;
	memcount) memcount_suite ;;
	ab)
		# make ab end to end, on the host: A/A and a one-instruction
		# change under icount on this kernel, this kernel against
		# another twice (6.1; on 6.1's lane, 6.12)
		o=6.1
		[ "$series" = 6.1 ] && o=6.12
		tap_run ab "$top/tests/e2e/ab.sh" "$series" "$o" | grep -E '^not ok|^# [0-9]+ passed'
		;;
	*) fail "unknown suite '$s' (known: icount copies max qemu64 ci-gate reliability rt nmi lfence lifetime sleepy cpus hostile probe gate stress debug irqsoff ab memcount)" ;;
	esac
done

finish
