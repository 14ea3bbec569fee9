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
 */
#include <linux/moduleparam.h>

#include "cyclebench.h"

#define DEAR_ITERS	10000000UL
#define WARM_ITERS	100000UL
#define RARE_EVERY	200

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

static const struct cb_fragment hostile_fragments[] = {
	CB_FRAGMENT(every_other, 1, "dear in every other sample's long region"),
	CB_FRAGMENT(rare, 1, "dear in one sample of 200"),
	CB_FRAGMENT(heavy, 1, "10^5 iterations a call"),
	CB_FRAGMENT(moody, 1, "moody_iters iterations a call"),
};

CB_GROUP(hostile, hostile_fragments);
