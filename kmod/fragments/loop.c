// SPDX-License-Identifier: GPL-2.0
/*
 * loop: a counted loop.  Under QEMU's icount its delta against base:empty
 * is exactly 1 + 2 * 100 instructions (the mov and 100 dec/jnz pairs),
 * which the QEMU tests assert.
 */
#include "cyclebench.h"

CB_BODY(dec_jnz_100)
{
	unsigned long n;

	asm volatile("mov $100, %0\n\t"
		     "1:\n\t"
		     "dec %0\n\t"
		     "jnz 1b"
		     : "=r" (n));
}

/*
 * A sample that takes about a millisecond on hardware (tens under TCG): the
 * reliability tests use it to show that long samples trip no lockup or
 * RCU stall detector.  Slow, so "all" leaves it out.
 */
CB_BODY(dec_jnz_1m)
{
	unsigned long n;

	asm volatile("mov $1000000, %0\n\t"
		     "1:\n\t"
		     "dec %0\n\t"
		     "jnz 1b"
		     : "=r" (n));
}

static const struct cb_fragment loop_fragments[] = {
	CB_FRAGMENT(dec_jnz_100, 100, "100 iterations of a dec/jnz loop"),
	CB_FRAGMENT_SLOW(dec_jnz_1m, 1000000, "1000000 iterations of a dec/jnz loop"),
};

CB_GROUP(loop, loop_fragments);
