# SPDX-License-Identifier: GPL-2.0
# cpus= in the module (issue 20): one selection on CPUs 0 and 1 at once,
# a kthread each, meeting at a barrier before every sample.  Every CPU's
# arrays are complete and follow the contract, live and saved; and every
# way a multi-CPU run can end early ends cleanly: a CPU that does not come
# to the barrier (fault_barrier_ms), a CPU going offline, Ctrl-C, rmmod.
# Booted with -smp 3 (MTTCG: each vCPU a host thread; the third idles, and
# so costs the host nothing): a cpus= run must leave one online CPU out.
. /lib.sh
T0=$(now)
# mark WHAT: the seconds since the script began, in the figures
mark() { echo "at $(elapsed_ms "$T0") ms: $*" >> /out/figures.txt; }

# cyclebench threads left, once those that are exiting are gone: a write
# returns when the run's thread has published, a moment before it exits
# (up to 10 s, x$SLOW, for a busy host; a thread that stays is the bug
# this looks for)
threads() {
	t=0
	while n=$(grep -l '^cyclebench' /proc/[0-9]*/comm 2>/dev/null | wc -l | tr -d ' ') &&
		[ "$n" != 0 ] && [ $t -lt $((100 * SLOW)) ]; do
		sleep 0.1
		t=$((t + 1))
	done
	echo "$n"
}
calls() { echo "$(info_get $CB/info setup_calls) $(info_get $CB/info teardown_calls)"; }
contract() { sh /contract.sh "$1" 2>&1 | tail -n 3; }
L=$CB/loop/dec_jnz_1m
S=$CB/contend/atomic_inc_shared

# timeouts.c's module (run.sh boots it so): a body whose wait gives up
# flags every sample it ran in, on every CPU (issue 40, item 6)
if [ "${1:-}" = timeouts ]; then
	expect_ok "insmod" insmod /cyclebench.ko run_on_load=0
	expect_eq "timeouts on cpus=0-1, 100 samples x 2 ensembles: ok" ok \
		"$(run_write "timeouts cpus=0-1 samples=100 ensembles=2 warmup=10")"
	G=$CB/timeouts/gives_up N=$CB/timeouts/never_waits
	# timed_out FILE: its samples with the time-out bit (32), of how many
	timed_out() { awk 'int($1 / 32) % 2 { n++ } END { print n + 0 "/" NR }' "$1"; }
	expect_eq "gives_up: every sample of each CPU flagged a time-out" "200/200 200/200 200/200" \
		"$(timed_out $G/flags) $(timed_out $G/cpu0/flags) $(timed_out $G/cpu1/flags)"
	expect_eq "gives_up: info flagged_timeout counts the first CPU's" 200 \
		"$(info_get $G/info flagged_timeout)"
	expect_eq "never_waits: no sample of either CPU flagged a time-out" "0/200 0/200 0/200 0" \
		"$(timed_out $N/flags) $(timed_out $N/cpu0/flags) $(timed_out $N/cpu1/flags) $(info_get $N/info flagged_timeout)"
	expect_eq "cpu0/flags is the result's own flags" yes \
		"$(cmp -s $G/flags $G/cpu0/flags && echo yes)"
	expect_eq "on one CPU too: every sample of gives_up flagged" ok \
		"$(run_write "timeouts:gives_up samples=50 ensembles=1")"
	expect_eq "50 of 50, and cpu1/flags empty (no cpus= in this result)" "50/50 0/0" \
		"$(timed_out $G/flags) $(timed_out $G/cpu1/flags)"
	expect_eq "the tree passes the contract" ok \
		"$(contract $CB | grep -q ': ok, ' && echo ok || contract $CB)"
	check_unload
	exit 0
fi

# the bound on a sample x$SLOW: the debug kernel's contended locks under
# TCG came near the default 50 ms, and on a busy host (the emulated clock
# follows host time) 8 samples in a row went past it (ETIME); 500 ms stays
# far under the lockup detectors' 10 s.  max.sh tests the bound itself.
expect_ok "insmod" insmod /cyclebench.ko run_on_load=0 max_sample_us=$((50000 * SLOW))
# every online CPU at once is refused: the machine needs one to run on
# while the samples hold interrupts off, and an IPI would wait for all
# (first here: the log's refusals are rate-limited, 3 in 5 s)
expect_eq "cpus=0-2, every online CPU: EINVAL" EINVAL \
	"$(run_write "contend:atomic_inc_shared cpus=0-2 samples=10 ensembles=1")"
expect_eq "the log says to leave one out" 1 \
	"$(dmesg | grep -c 'cpus=: names every online CPU: leave one out')"
expect_eq "contend on cpus=0-1, 200 samples x 2 ensembles: ok" ok \
	"$(run_write "contend cpus=0-1 samples=200 ensembles=2 warmup=20")"

# every fragment that ran: both CPUs' arrays, the first CPU's the result's own
n=0 bad=
for d in $CB/contend/*; do
	[ "$(info_get $d/info state)" = ok ] || continue
	n=$((n + 1))
	f=$(basename $d)
	got="$(info_get $d/info cpus)|$(info_get $d/info barrier)|$(lines $d/cpu0/cycles)|$(lines $d/cpu1/cycles)|$(lines $d/cpu1/cycles_long)|$(lines $d/cpu0/flags)|$(lines $d/cpu1/flags)"
	[ "$got" = "0,1|sample|400|400|400|400|400" ] || bad="$bad $f:$got"
	cmp -s $d/cycles $d/cpu0/cycles || bad="$bad $f:cpu0-is-not-cycles"
	cmp -s $d/flags $d/cpu0/flags || bad="$bad $f:cpu0-flags-are-not-flags"
	# every CPU's flags are the contract's bits (8 is retired)
	awk '$1 !~ /^[0-9]+$/ || $1 > 63 || int($1 / 8) % 2 { bad = 1 } END { exit bad }' \
		$d/cpu1/flags || bad="$bad $f:cpu1-flags-bits"
	# (the first CPU's time-outs, counted in its info)
	to=$(awk 'int($1 / 32) % 2 { n++ } END { print n + 0 }' $d/flags)
	[ "$to" = "$(info_get $d/info flagged_timeout)" ] || bad="$bad $f:flagged_timeout"
	in_step=$(info_get $d/info samples_in_step)
	[ "$in_step" -ge 1 ] 2>/dev/null && [ "$in_step" -le 400 ] || bad="$bad $f:in_step=$in_step"
	spread=$(info_get $d/info start_spread)
	case $spread in '' | *[!0-9]*) bad="$bad $f:spread=$spread" ;; esac
	echo "$f: start_spread $spread TSC ticks over $in_step of 400 samples in step; per_cpu $(info_get $d/info state_per_cpu)" >> /out/figures.txt
done
# (6.12-rt skips the spinlock_t body: it sleeps there)
expect_ge "contend fragments that ran on both CPUs" 8 "$n"
expect_eq "each: cpus 0,1, barrier, 400 samples and flags per CPU in both regions, cpu0's = cycles and flags, in-step count and spread numbers, flagged_timeout" "" "$bad"
expect_eq "state_per_cpu: yes for a .per_cpu fragment, no for a shared one" "yes no" \
	"$(info_get $CB/contend/atomic_inc_private/info state_per_cpu) $(info_get $S/info state_per_cpu)"
# setups: a shared state's once a run, on CPU 0 (the two locks, and the
# three .per_cpu bodies' own there), a helper's own in each ensemble on its
# CPU (3 x 2): 11, 10 where spin_lock_shared is skipped (none has a teardown)
want=11
[ "$(info_get $CB/contend/spin_lock_shared/info state)" = skipped ] && want=10
expect_eq "setups: once a run for shared states and CPU 0, each ensemble for CPU 1's own" "$want 0" "$(calls)"
expect_eq "the live tree passes the contract, cpuN/ included" ok \
	"$(contract $CB | grep -q ': ok, ' && echo ok || contract $CB)"
# (cyclestat's copy: not on the debug lane, as in max.sh)
if [ "$SLOW" = 1 ]; then
	cyclestat save /tmp/saved > /tmp/save.out 2>&1
	expect_eq "cyclestat save copies it, cpuN/ included" "0 400" \
		"$? $(lines /tmp/saved/contend/atomic_inc_shared/cpu1/cycles)"
	expect_eq "and the saved copy passes the contract" ok \
		"$(contract /tmp/saved | grep -q ': ok, ' && echo ok || contract /tmp/saved)"
fi
expect_eq "no helper thread is left after the run" 0 "$(threads)"

mark "contend on both CPUs checked"
# token_ring: on two CPUs an op waits for the other's hand-over, alone it
# never waits (a load, a compare and a store): its long region's median at
# k=2 is well above k=1's (under TCG a hand-over is a host thread's store
# seen by another, hundreds of ns; alone, 16 copies of a few instructions)
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
T=$CB/contend/token_ring
k2=$(median $T/cycles_long)
to2=$(info_get $T/info flagged_timeout)
expect_eq "token_ring alone: ok" ok "$(run_write "contend:token_ring samples=200 ensembles=2 warmup=20")"
k1=$(median $T/cycles_long)
echo "token_ring: median long region (16 laps) $k2 ticks at k=2, $k1 at k=1" >> /out/figures.txt
echo "token_ring: at k=2, samples with a time-out: $to2 of CPU 0's 400" >> /out/figures.txt
expect_ge "token_ring: k=2's median long region over twice k=1's ($k2 vs $k1)" $((2 * k1)) "$k2"

mark "token_ring checked"
# a later run on one CPU: cpuN/ stays, empty; the info has no cpus
expect_eq "atomic_inc_shared on one CPU afterwards: ok" ok "$(run_write "contend:atomic_inc_shared samples=50 ensembles=1")"
expect_eq "its info has no cpus:, its cpu1/cycles is empty" "|0" \
	"$(info_get $S/info cpus)|$(lines $S/cpu1/cycles)"
expect_eq "and the tree still passes the contract" ok \
	"$(contract $CB | grep -q ': ok, ' && echo ok || contract $CB)"

# refusals, each with nothing run
for w in "contend cpus=0-5" "contend cpus=1-0" "contend cpu=0 cpus=0-1" \
	"contend cpus=0-1 sweep=cpus" "contend cpus=0,,1" "contend cpus=64"; do
	expect_eq "write '$w': EINVAL" EINVAL "$(run_write "$w")"
done
expect_eq "the last result stands: 50 samples" 50 "$(lines $S/cycles)"
# every online CPU at once: refused, since the machine needs one to run on
# while the samples hold interrupts off (and an IPI would wait for all)
expect_eq "write 'contend cpus=0-2' (every online CPU): EINVAL" EINVAL "$(run_write "contend cpus=0-2")"

mark "refusals checked"
# A CPU that does not come: barrier_ms=1000, CPU 1 held away for 3 s
expect_ok "rmmod" rmmod cyclebench
expect_ok "insmod barrier_ms=1000" insmod /cyclebench.ko run_on_load=0 barrier_ms=1000
expect_eq "a first run on both CPUs" ok "$(run_write "contend:atomic_inc_shared cpus=0-1 samples=100 ensembles=1")"
echo 3000 > /sys/module/cyclebench/parameters/fault_barrier_ms
dmesg -c > /dev/null
expect_eq "CPU 1 away 3 s, barrier_ms=1000: the run stops with ETIMEDOUT" ETIMEDOUT \
	"$(run_write "contend:atomic_inc_shared cpus=0-1 samples=100 ensembles=1")"
echo 0 > /sys/module/cyclebench/parameters/fault_barrier_ms
expect_eq "the kernel log names the CPU and the fix" 1 \
	"$(dmesg | grep -c 'contend:atomic_inc_shared: cpu 1 did not come to the barrier .*barrier_ms')"
expect_eq "state aborted, the previous 100 samples on both CPUs stay" "aborted 100 100" \
	"$(info_get $S/info state) $(lines $S/cycles) $(lines $S/cpu1/cycles)"
expect_eq "and the next run works" ok "$(run_write "contend:atomic_inc_private cpus=0-1 samples=100 ensembles=1")"

mark "barrier timeout checked"
# CPU 1's own setup fails (fault_setup: the 2nd setup from now, CPU 0's
# being the 1st): the run fails, named, and nothing else changes
echo 2 > /sys/module/cyclebench/parameters/fault_setup
expect_eq "CPU 1's setup fails: ENOMEM" ENOMEM \
	"$(run_write "contend:store_own_line cpus=0-1 samples=100 ensembles=1")"
expect_eq "state failed, error -12" "failed -12" \
	"$(info_get $CB/contend/store_own_line/info state) $(info_get $CB/contend/store_own_line/info error)"
expect_eq "no thread left" 0 "$(threads)"

mark "setup failure checked"
# CPU 1 goes offline mid-run: the run stops (EAGAIN), the log says which
taskset -c 0 cbpoke write "$CB/run" "loop:dec_jnz_1m cpus=0-1 samples=100000 ensembles=1 warmup=0" > /tmp/w1 &
pid=$!
wait_state running
sleep 0.5
dmesg -c > /dev/null
echo 0 > /sys/devices/system/cpu/cpu1/online
wait $pid
expect_eq "CPU 1 offline mid-run: the write returns EAGAIN" EAGAIN "$(cat /tmp/w1)"
expect_eq "the log says cpu 1 went offline" 1 "$(dmesg | grep -c 'cpu 1 went offline during the run')"
expect_eq "status idle, state aborted, no thread left" "idle aborted 0" \
	"$(state) $(info_get $L/info state) $(threads)"
expect_eq "cpus=0-1 with CPU 1 offline: EINVAL" EINVAL "$(run_write "contend:atomic_inc_shared cpus=0-1")"
expect_eq "cpus=0,2 with CPU 1 offline, every online CPU: EINVAL" EINVAL \
	"$(run_write "contend:atomic_inc_shared cpus=0,2 samples=10 ensembles=1")"
echo 1 > /sys/devices/system/cpu/cpu1/online
expect_eq "CPU 1 back: a cpus=0-1 run works" ok "$(run_write "contend:atomic_inc_shared cpus=0-1 samples=100 ensembles=1")"

mark "offline checked"
# Ctrl-C (SIGINT to the writer) mid-run: EINTR, aborted, old data kept
taskset -c 0 cbpoke write "$CB/run" "contend:atomic_inc_shared cpus=0-1 samples=100000000 ensembles=1" > /tmp/w2 &
wait $!
expect_eq "cpus=0-1 needs each CPU's arrays: 10^8 samples is over max_mb, refused before it starts (E2BIG)" E2BIG "$(cat /tmp/w2)"
taskset -c 0 cbpoke write "$CB/run" "loop:dec_jnz_1m cpus=0-1 samples=100000 ensembles=1 warmup=0" > /tmp/w3 &
pid=$!
wait_state running
sleep 0.5
t0=$(now)
kill -INT $pid
wait $pid
ms=$(elapsed_ms "$t0")
echo "SIGINT to a cpus=0-1 writer: gone in $ms ms" >> /out/figures.txt
wait_state idle
expect_eq "Ctrl-C mid-run: status idle, state aborted, no thread left" "idle aborted 0" \
	"$(state) $(info_get $L/info state) $(threads)"
expect_eq "the contend result is untouched" "ok 100" "$(info_get $S/info state) $(lines $S/cycles)"

mark "Ctrl-C checked"
# rmmod while a writer-less cpus=0-1 run is in flight
taskset -c 0 cbpoke write "$CB/run" "loop:dec_jnz_1m cpus=0-1 samples=100000 ensembles=1 warmup=0" > /tmp/w4 &
pid=$!
wait_state running
sleep 0.5
kill -KILL $pid
wait $pid 2>/dev/null
rmmod cyclebench
expect_eq "rmmod with a cpus=0-1 run in flight succeeds" 0 "$?"
expect_eq "and leaves no directory, no module, no thread" "no no 0" \
	"$([ -e $CB ] && echo yes || echo no) $(grep -q '^cyclebench ' /proc/modules && echo yes || echo no) $(threads)"
expect_ok "insmod again" insmod /cyclebench.ko run_on_load=0
expect_eq "and a cpus=0-1 run works" ok "$(run_write "contend:atomic_inc_shared cpus=0-1 samples=100 ensembles=1")"
mark "rmmod checked"

# rmmod while a SCHED_FIFO hog owns CPU 1, RT throttling off: a run's
# thread there never gets the CPU back to see the stop.  A second after
# the stop it may finish on CPU 0 (kmod/cpus.c, cb_unbind()), so the
# module's threads are gone within seconds; before, they waited as long as
# the hog.  rmmod itself may take longer: the unload waits for an RCU grace
# period, which CPU 1's softirqs, starved by the hog, can hold up (the
# kernel's wait, as for any module): the hog stops once the threads are
# gone, and rmmod's time is noted, not bounded.
#
# starved_rmmod NAME REQUEST: the writer of REQUEST killed with CPU 1
# hogged, then rmmod; the module's threads gone within 3 s (x SLOW, 10 s
# at most) of the kill
starved_rmmod() {
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	taskset -c 0 cbpoke write "$CB/run" "$2" > /tmp/w5 &
	pid=$!
	wait_state running
	# (15 s at most: under RCU's 21 s stall report, which a CPU the hog
	# holds that long would raise; the bound below stays under it)
	cbpoke hog 1 15 > /tmp/hog &
	hog=$!
	sleep 0.5
	t0=$(now)
	kill -KILL $pid
	wait $pid 2>/dev/null
	taskset -c 0 rmmod cyclebench &
	rm_pid=$!
	n=0
	while grep -qs '^cyclebench' /proc/[0-9]*/comm && [ $n -lt 150 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	gone=$(elapsed_ms "$t0")
	hog_said=$(cat /tmp/hog)
	kill $hog 2>/dev/null
	wait $hog 2>/dev/null
	echo "$rt" > /proc/sys/kernel/sched_rt_runtime_us
	wait $rm_pid
	rc=$?
	ms=$(elapsed_ms "$t0")
	echo "$1, CPU 1 owned by a SCHED_FIFO hog: writer killed, threads gone in $gone ms, rmmod done at $ms ms (the hog stopped once they were)" >> /out/figures.txt
	expect_eq "$1: the hog ran as SCHED_FIFO (no error)" "" "$hog_said"
	# (about 1 s of it is cb_wait_gone()'s own wait before it moves the
	# thread; the rest runs beside the hog's vCPU on a 2-core host: the
	# bound is the hog's 15 s less a margin, not a speed)
	lim=10000
	expect_le "$1, CPU 1 owned by a real-time hog: the module's threads are gone within $lim ms of the kill (the hog holds it 15 s)" \
		$lim "$gone"
	expect_eq "$1: rmmod succeeds, leaving no module" "0 no" \
		"$rc $(grep -q '^cyclebench ' /proc/modules && echo yes || echo no)"
	expect_ok "insmod again" insmod /cyclebench.ko run_on_load=0
}
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
starved_rmmod "a cpus=0-1 run (its helper on CPU 1)" \
	"loop:dec_jnz_1m cpus=0-1 samples=100000 ensembles=1 warmup=0"
# (the log says so where the helper was starved; on PREEMPT_RT it left
# within the bound without being moved: a figure, not a point)
echo "helpers moved to finish elsewhere: $(dmesg | grep -c 'cyclebench/1: kept from running on its CPU after the run stopped')" >> /out/figures.txt
starved_rmmod "a cpu=1 run" "loop:dec_jnz_1m samples=100000 ensembles=1 warmup=0 cpu=1"
mark "rmmod with a starved run checked"
kmemleak_check cpus
check_unload
mark "done"
