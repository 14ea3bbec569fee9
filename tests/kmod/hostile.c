// SPDX-License-Identifier: GPL-2.0
/*
 * Bodies written to break the interrupts-off bound, built only by
 * tests/e2e/run.sh (the hostile suite, tests/e2e/hostile.sh) into a module
 * of base + hostile.  Each counts its calls in its state and is dear
 * (DEAR_ITERS dec/jnz iterations, 2 x 10^7 instructions: ticks under
 * icount) only in some: a sample is the short region's call and the long
 * region's CB_LONG_REPEAT, 17 calls, and the sampler's probe makes the
 * first call, so call 17k + 2 is the second of sample k's long region.
 *
 * every_other: dear in every other sample's long region: no two samples
 *	over the bound in a row, half of them over it all the same.
 * rare: dear in one sample of RARE_EVERY: a body that fits, stalled now
 *	and then; the run completes, its retakes counted.
 * heavy: every call WARM_ITERS iterations: a sample fits, a warm-up of
 *	many would not.
 * moody: every call moody_iters iterations, a parameter of the test
 *	module (/sys/module/cyclebench/parameters/moody_iters): as slow as
 *	a body under a slow clock, then fast again.
 * preempt_leak: calls preempt_disable() once, in sample 1's long
 *	region, and never the preempt_enable() that pairs with it.
 * lock_leak: takes a raw spinlock of its state in the same call and
 *	never releases it (raw: a spinning lock on PREEMPT_RT too); its
 *	teardown would take it again, so it says if it is ever called.
 */
#include <linux/moduleparam.h>
#include <linux/spinlock.h>

#include "cyclebench.h"

#define DEAR_ITERS	10000000UL
#define WARM_ITERS	100000UL
#define RARE_EVERY	200
#define LEAK_CALL	(CB_LONG_REPEAT + 1 + 5)

struct hostile_state {
	u64 calls;
};

static __always_inline void hostile_spin(unsigned long n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n));
}

CB_BODY_STATE(every_other, struct hostile_state)
{
	hostile_spin(st->calls++ % (2 * (CB_LONG_REPEAT + 1)) == 2 ? DEAR_ITERS : 1);
}

CB_BODY_STATE(rare, struct hostile_state)
{
	hostile_spin(st->calls++ % (RARE_EVERY * (CB_LONG_REPEAT + 1)) == 2 ?
		     DEAR_ITERS : 1);
}

CB_BODY(heavy)
{
	hostile_spin(WARM_ITERS);
}

static unsigned long moody_iters = 1;
module_param(moody_iters, ulong, 0600);
MODULE_PARM_DESC(moody_iters, "testing: hostile:moody's iterations a call (default 1)");

CB_BODY(moody)
{
	hostile_spin(READ_ONCE(moody_iters));
}

CB_BODY_STATE(preempt_leak, struct hostile_state)
{
	if (st->calls++ == LEAK_CALL)
		preempt_disable();
}

struct hostile_lock {
	u64 calls;
	raw_spinlock_t lock;
};

static unsigned int lock_teardowns;
module_param(lock_teardowns, uint, 0444);
MODULE_PARM_DESC(lock_teardowns, "testing: hostile:lock_leak's teardowns (it must have none)");

static int lock_setup(struct cb_env *env)
{
	struct hostile_lock *st = env->state;

	raw_spin_lock_init(&st->lock);
	return 0;
}

static void lock_teardown(struct cb_env *env)
{
	struct hostile_lock *st = env->state;

	WRITE_ONCE(lock_teardowns, lock_teardowns + 1);
	raw_spin_lock(&st->lock);
	raw_spin_unlock(&st->lock);
}

CB_BODY_STATE(lock_leak, struct hostile_lock)
{
	if (st->calls++ == LEAK_CALL)
		raw_spin_lock(&st->lock);
}

static const struct cb_fragment hostile_fragments[] = {
	CB_FRAGMENT(every_other, 1, "dear in every other sample's long region"),
	CB_FRAGMENT(rare, 1, "dear in one sample of 200"),
	CB_FRAGMENT(heavy, 1, "10^5 iterations a call"),
	CB_FRAGMENT(moody, 1, "moody_iters iterations a call"),
	CB_FRAGMENT(preempt_leak, 1, "one preempt_disable() not paired"),
	{
		CB_FRAGMENT_FIELDS(lock_leak, 1, "one raw_spin_lock() not released"),
		.setup = lock_setup,
		.teardown = lock_teardown,
	},
};

CB_GROUP(hostile, hostile_fragments);
