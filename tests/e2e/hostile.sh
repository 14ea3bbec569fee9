# SPDX-License-Identifier: GPL-2.0
# Under icount, bodies written to break the interrupts-off bound
# (tests/kmod/hostile.c, in a module of base + hostile), and requests that
# would hold the CPU for nothing: each is stopped or refused, naming the
# fragment and the reason, and rmmod returns.
. /lib.sh

# A warm-up is in no array, so max_mb does not bound it: 10^12 warm-up
# samples at load (warmup=10^7 before each of 10^5 ensembles) are refused
# before anything runs, and insmod fails at once, naming warmup.
t0=$(now)
if insmod /cyclebench.ko only=base:empty samples=1 ensembles=100000 warmup=10000000 2> /tmp/insmod.err; then
	fail "insmod only=base:empty samples=1 ensembles=100000 warmup=10000000: refused (it loaded)"
	rmmod cyclebench
else
	pass "insmod only=base:empty samples=1 ensembles=100000 warmup=10000000: refused ($(cat /tmp/insmod.err))"
fi
expect_le "... within 2 s ($((2000 * SLOW)) ms here)" $((2000 * SLOW)) "$(elapsed_ms "$t0")"
# (busybox's insmod tries a second way when the first fails: once or twice)
expect_ge "the log says warmup x ensembles is too many" 1 \
	"$(dmesg | grep -c 'warmup=10000000 x ensembles=100000 is 1000000000000 warm-up samples an entry, over 10000000')"
expect_eq "the module is not loaded" no "$([ -e "$CB" ] && echo yes || echo no)"

# max_sample_us=1000: 10^6 ticks, instructions under icount; a dear call
# is 2 x 10^7 of them.
expect_ok "insmod (base + hostile) max_sample_us=1000" \
	insmod /cyclebench.ko run_on_load=0 max_sample_us=1000

# Dear in every other sample: never two over the bound in a row, so a
# count of the streak alone never stopped it (it ran to the end, half its
# samples over the bound).  The run's count stops it at the ninth.
expect_eq "hostile:every_other, half its samples over max_sample_us: ETIME" ETIME \
	"$(run_write "hostile:every_other samples=20 ensembles=1 warmup=0")"
expect_eq "the log names hostile:every_other, max_sample_us and how often" 1 \
	"$(dmesg | grep -c 'hostile:every_other: refused: .*max_sample_us.*or did so 9 times')"
expect_eq "hostile:every_other's result says failed, -ETIME" "failed -62" \
	"$(info_get "$CB/hostile/every_other/info" state) $(info_get "$CB/hostile/every_other/info" error)"

# One fragment over the bound stops alone: the others of its run go on,
# and at load it fails no insmod.
expect_eq "hostile:every_other beside base:empty: the write says ETIME" ETIME \
	"$(run_write "hostile:every_other,base:empty samples=20 ensembles=2 warmup=0")"
expect_eq "... and base:empty was measured: ok, 40 samples" "ok 40" \
	"$(info_get "$CB/base/empty/info" state) $(lines "$CB/base/empty/cycles")"
expect_eq "... hostile:every_other says failed, -ETIME" "failed -62" \
	"$(info_get "$CB/hostile/every_other/info" state) $(info_get "$CB/hostile/every_other/info" error)"
check_unload
expect_ok "insmod only=hostile:every_other,base:empty max_sample_us=1000 (measured at load)" \
	insmod /cyclebench.ko only=hostile:every_other,base:empty max_sample_us=1000 samples=20 ensembles=2
expect_eq "the load measured base:empty (ok) and says hostile:every_other failed" "ok failed" \
	"$(info_get "$CB/base/empty/info" state) $(info_get "$CB/hostile/every_other/info" state)"
expect_eq "the log's summary says one stopped alone" 1 \
	"$(dmesg | grep -c 'measured 2 results: .*some stopped alone (above): their state says failed')"
check_unload
expect_ok "insmod (base + hostile) max_sample_us=1000" \
	insmod /cyclebench.ko run_on_load=0 max_sample_us=1000

# Where the kernel has the irqsoff tracer (the debug lane), it measures
# the longest interrupts-off window of what follows: bodies that go past
# the bound in some samples, and a probe of one that is too slow.  No
# code can cut a body short, so a window may hold one dear call (2 x 10^7
# instructions: 20 ms under icount) and the sample's bookkeeping, never
# more: not two dear calls, nor two samples.
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
tracer=no
if grep -qw irqsoff $T/available_tracers 2>/dev/null; then
	tracer=yes
	echo irqsoff > $T/current_tracer
	echo 0 > $T/tracing_max_latency
	echo 1 > $T/tracing_on
fi

# Dear in one sample of 200: a body that fits, stalled now and then.  Its
# 1000 samples take 6 again (the dear samples 0, 200, ... 1000 of the
# 1006 taken), within the run's allowance (8, and 1 in 64): the run ends,
# and the info counts the retakes apart from the kept samples.
expect_eq "hostile:rare, 1 sample in 200 over max_sample_us: ok" ok \
	"$(run_write "hostile:rare samples=1000 ensembles=1 warmup=0")"
R=$CB/hostile/rare
expect_eq "hostile:rare: info retaken 6" 6 "$(info_get $R/info retaken)"
expect_eq "hostile:rare: 1000 samples kept" 1000 "$(lines $R/cycles)"
expect_eq "hostile:rare: no kept sample over the bound" 0 \
	"$(paste $R/cycles $R/cycles_long | awk '$1 + $2 > 1000000' | wc -l)"
# the flagged_* counts are the kept samples' flags (a retaken sample's
# are not counted; the interrupt its long window held off marks the next)
expect_eq "hostile:rare: flagged_nmi, _irq, _switch count the kept samples' flags" \
	"$(awk '{ for (b = 1; b <= 4; b *= 2) if (int($1 / b) % 2) n[b]++ }
		END { printf "%d %d %d", n[1], n[2], n[4] }' $R/flags)" \
	"$(info_get $R/info flagged_nmi) $(info_get $R/info flagged_irq) $(info_get $R/info flagged_switch)"

# A probe that found a body too slow (here: moody_iters=10^7, as a body
# under a slow clock) refuses it at once after, without running it again;
# once the body is fast again, that refusal ends: after 10 s the sampler
# probes it again, and it runs.  (It was refused until rmmod.)
P=/sys/module/cyclebench/parameters
echo 10000000 > $P/moody_iters
expect_eq "hostile:moody, 2 x 10^7 ticks a call: ETIME (its probe)" ETIME \
	"$(run_write "hostile:moody samples=5 ensembles=1 warmup=0")"
echo 1 > $P/moody_iters
expect_eq "hostile:moody, fast again, right after: ETIME (the probe's refusal holds)" ETIME \
	"$(run_write "hostile:moody samples=5 ensembles=1 warmup=0")"
expect_eq "the log says when it is probed again" 1 \
	"$(dmesg | grep -c 'hostile:moody: refused before it runs: its probe [0-9]* s ago .* it is probed again after 10 s')"
sleep 11
expect_eq "hostile:moody, 11 s later: probed again, ok" ok \
	"$(run_write "hostile:moody samples=5 ensembles=1 warmup=0")"
if [ $tracer = yes ]; then
	echo 0 > $T/tracing_on
	max=$(cat $T/tracing_max_latency)
	cp $T/trace /out/irqsoff-trace.txt
	echo nop > $T/current_tracer
	echo "max_sample_us=1000, a dear call 20000 us: the longest interrupts-off window $max us" >> /out/figures.txt
	grep -m2 -E '=> started at|=> ended at' /out/irqsoff-trace.txt >> /out/figures.txt
	expect_le "the longest interrupts-off window holds one dear call and its sample's bookkeeping: <= 20500 us" \
		20500 "$max"
	expect_ge "... and the tracer saw the dear call's window (>= 19000 us)" 19000 "$max"
else
	skip "the longest interrupts-off window, by the irqsoff tracer" "this kernel has no irqsoff tracer (the debug lane's has)"
fi
check_unload

# A warm-up whose time the probe knows: hostile:heavy's sample (17 calls
# of 2 x 10^5 instructions) fits; 10^5 warm-up samples of it would hold
# interrupts off for over 300 s (virtual: icount's) before the first kept
# one, and are refused at once, once a run has probed it.
expect_ok "insmod (base + hostile)" insmod /cyclebench.ko run_on_load=0
expect_eq "hostile:heavy, a short run: ok" ok \
	"$(run_write "hostile:heavy samples=5 ensembles=1 warmup=1")"
t0=$(now)
expect_eq "hostile:heavy warmup=10000 ensembles=10: E2BIG" E2BIG \
	"$(run_write "hostile:heavy samples=5 ensembles=10 warmup=10000")"
expect_le "... within 2 s ($((2000 * SLOW)) ms here)" $((2000 * SLOW)) "$(elapsed_ms "$t0")"
expect_eq "the log names hostile:heavy, the warm-up and its bound" 1 \
	"$(dmesg | grep -c 'run: hostile:heavy: warmup=10000 x ensembles=10 would hold interrupts off for over 60 s')"
expect_eq "hostile:heavy's earlier result stays" ok "$(info_get "$CB/hostile/heavy/info" state)"
check_unload

# A body that returns with preemption disabled (one preempt_disable(), or
# a raw spinlock of its state, not released in sample 1's long region):
# the run stops at that sample, naming the fragment and what it left; the
# module writes no preemption count, gives the levels back by the calls
# that took them, and never tears down or frees the state (its teardown
# would take the lock again: hostile.c counts its calls), and refuses the
# fragment until it is reloaded.  Sound bodies run after it, and rmmod
# returns.
expect_ok "insmod (base + hostile)" insmod /cyclebench.ko run_on_load=0
for f in preempt_leak lock_leak; do
	sleep 5	# cb_warn says 3 things in 5 s at most: the log checks need 2
	expect_eq "hostile:$f, a level not released: EPROTO" EPROTO \
		"$(run_write "hostile:$f samples=20 ensembles=1 warmup=0")"
	expect_eq "hostile:$f's result says failed, -EPROTO" "failed -71" \
		"$(info_get "$CB/hostile/$f/info" state) $(info_get "$CB/hostile/$f/info" error)"
	expect_eq "the log names hostile:$f and what it left" 1 \
		"$(dmesg | grep -c "hostile:$f: the body left preemption disabled or a lock held: .*its state is kept, neither torn down nor freed")"
	expect_eq "hostile:$f again: refused, EPROTO" EPROTO \
		"$(run_write "hostile:$f samples=5 ensembles=1 warmup=0")"
	expect_eq "... the log says why and how to run it again" 1 \
		"$(dmesg | grep -c "run: hostile:$f: refused: an earlier run of it left preemption disabled or a lock held.*load the module again")"
	expect_eq "a sound body runs after hostile:$f" ok \
		"$(run_write "base:empty samples=100 ensembles=1")"
done
expect_eq "hostile:lock_leak's teardown was never called" 0 \
	"$(cat /sys/module/cyclebench/parameters/lock_teardowns)"
if [ -e /proc/lockdep ]; then
	# lockdep names the lock the module cannot: it lists the run's
	# thread's held lock with the body's region (debug_show_held_locks),
	# and reports it once more when the thread, ending, takes a mutex
	# with it held ("Invalid wait context"; or "still has locks held")
	expect_ge "lockdep lists hostile:lock_leak's lock as held by the run's thread" 1 \
		"$(dmesg | grep -c '#0: .*(&st->lock).*, at: cb_')"
	t=0
	while [ $t -lt 50 ] && ! dmesg | grep -qE 'Invalid wait context|still has locks held'; do
		sleep 0.1
		t=$((t + 1))
	done
	expect_eq "lockdep reports it once as the thread ends (splat.sh leaves that report out)" 1 \
		"$(dmesg | grep -cE 'Invalid wait context|still has locks held')"
fi
check_unload
