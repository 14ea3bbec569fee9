// SPDX-License-Identifier: GPL-2.0
/*
 * mem: load-to-use latency.  A pointer chase through eight cache lines
 * (512 bytes, well inside any L1d): each load's address is the previous
 * load's result, so the loads cannot overlap.
 */
#include <linux/cache.h>

#include "cyclebench.h"

struct cb_line {
	struct cb_line *next;
} __aligned(64);

/* A ring built at compile time: no setup, nothing allocated. */
static struct cb_line cb_chase[8] = {
	{ &cb_chase[1] }, { &cb_chase[2] }, { &cb_chase[3] }, { &cb_chase[4] },
	{ &cb_chase[5] }, { &cb_chase[6] }, { &cb_chase[7] }, { &cb_chase[0] },
};

/* One lea to start the chain, then eight dependent loads. */
CB_BODY(load_l1)
{
	struct cb_line *p;

	asm volatile("lea %1, %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0\n\t"
		     "mov (%0), %0"
		     : "=&r" (p)
		     : "m" (cb_chase)
		     : "memory");
}

static const struct cb_fragment mem_fragments[] = {
	CB_FRAGMENT(load_l1, 8, "8 dependent loads chasing pointers in L1 (load-to-use latency)"),
};

CB_GROUP(mem, mem_fragments);
