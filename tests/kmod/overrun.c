// SPDX-License-Identifier: GPL-2.0
/*
 * A body whose long region costs far more than 16 of its short one: built
 * only by tests/e2e/run.sh (the copies suite), to show that the
 * interrupts-off bound holds for the whole sample, not only for the short
 * region the sampler checks before the long one.  Of every 17 calls (a
 * sample: the short region, then 16 copies) the third loops OVERRUN_ITERS
 * times, the others once: the sampler's probe makes the first call, so
 * each sample's short region is cheap and its long region holds the dear
 * call.  The phase holds when a sample is taken again (17 calls again).
 */
#include "cyclebench.h"

#define OVERRUN_ITERS	10000000UL

struct overrun_state {
	u64 calls;
};

CB_BODY_STATE(long_dear, struct overrun_state)
{
	unsigned long n = st->calls++ % (CB_LONG_REPEAT + 1) == 2 ? OVERRUN_ITERS : 1;

	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n));
}

static const struct cb_fragment overrun_fragments[] = {
	CB_FRAGMENT(long_dear, 1, "cheap alone, one dear call in every long region"),
};

CB_GROUP(overrun, overrun_fragments);
