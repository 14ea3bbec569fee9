# SPDX-License-Identifier: GPL-2.0
# PREEMPT_RT.  There a spinlock_t or a local_lock is a sleeping lock, so a
# fragment that takes one cannot run with interrupts off: it is skipped,
# with the reason in its info, and every other fragment runs.  On other
# kernels nothing is skipped.  Debian's RT kernel has no
# DEBUG_ATOMIC_SLEEP: one that ran anyway would pass silently there (seen:
# both below, unskipped, ran 10^5 samples without a word in the log), so
# the skip itself is what this checks.
. /lib.sh

# The fragments that take a sleeping lock on RT (kmod/fragments: sync.c's
# and contend.c's spinlock_t, misc.c's get_random_u32() batch local_lock),
# sorted as the check sorts them.
SLEEPERS="contend/spin_lock_shared misc/get_random_u32 sync/spin_lock_unlock"

expect_ok "insmod" insmod /cyclebench.ko run_on_load=0
case $(uname -r) in *-rt-*) rt=yes ;; *) rt=no ;; esac
expect_eq "info: preempt_rt says whether the kernel is PREEMPT_RT" "$rt" "$(info_get $CB/info preempt_rt)"
expect_eq "a run of every fragment but the slow ones" ok "$(run_write "all samples=20 ensembles=1 warmup=0")"
skipped=
for d in $(fragment_dirs); do
	[ "$(info_get "$CB/$d/info" state)" = skipped ] && skipped="$skipped $d"
done
skipped=$(echo "$skipped" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')
if [ $rt = yes ]; then
	expect_eq "PREEMPT_RT: exactly the fragments that take a sleeping lock are skipped" \
		"$SLEEPERS" "$skipped"
	for d in $SLEEPERS; do
		if grep -q '^reason: .*PREEMPT_RT' "$CB/$d/info"; then
			pass "PREEMPT_RT: $d's info gives the reason"
		else
			fail "PREEMPT_RT: $d's info gives the reason: got '$(grep -E '^(state|reason):' "$CB/$d/info" | tr '\n' ' ')'"
		fi
		# asked for by name, it is still skipped, and the run succeeds
		expect_eq "PREEMPT_RT: $d asked for by name: the run succeeds" ok \
			"$(run_write "$(echo "$d" | sed 's|/|:|') samples=20 ensembles=1")"
		expect_eq "PREEMPT_RT: $d asked for by name: still skipped" skipped \
			"$(info_get "$CB/$d/info" state)"
	done
else
	expect_eq "not PREEMPT_RT: no fragment is skipped" "" "$skipped"
fi
check_unload
