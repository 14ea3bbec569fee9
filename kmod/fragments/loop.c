// SPDX-License-Identifier: GPL-2.0
/*
 * loop: a counted loop.  Under QEMU's icount loop:dec_jnz/ARG costs
 * exactly 2 instructions more per iteration than loop:dec_jnz/0, and
 * loop:dec_jnz_100 (the fixed 100 iterations of the first release) exactly
 * 201 more than base:empty; the QEMU tests assert both.
 */
#include "cyclebench.h"

struct loop_state {
	unsigned long n;
};

static int loop_setup(struct cb_env *env)
{
	struct loop_state *st = env->state;

	st->n = env->arg;
	return 0;
}

/* The count is copied into a register first; n = 0 runs no iteration. */
CB_BODY_STATE(dec_jnz, struct loop_state)
{
	unsigned long n = st->n;

	asm volatile("test %0, %0\n\t"
		     "jz 2f\n"
		     "1:\n\t"
		     "dec %0\n\t"
		     "jnz 1b\n"
		     "2:"
		     : "+r" (n));
}

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

static const u64 loop_counts[] = {
	0, 1, 2, 4, 8, 16, 32, 64, 100, 110, 128, 256, 512, 1024,
};

static const struct cb_fragment loop_fragments[] = {
	{
		CB_FRAGMENT_FIELDS(dec_jnz, 1, "ARG iterations of a dec/jnz loop (ops = ARG)"),
		.setup = loop_setup,
		CB_ARGS(loop_counts),
		.arg_max = 100000000,
		.ops_is_arg = true,
		.unit = "iteration",
		.arg_is_loop = true,
		.insns = 3,		/* the load, test, jz (taken at 0) */
		.insns_per_arg = 2,	/* dec, jnz */
	},
	CB_FRAGMENT_INSNS_UNIT(dec_jnz_100, 100, "iteration", 201,
			       "100 iterations of a dec/jnz loop (count in the code)"),
	{
		CB_FRAGMENT_FIELDS(dec_jnz_1m, 1000000, "1000000 iterations of a dec/jnz loop"),
		.unit = "iteration",
		.slow = true,
		.no_long = true,
	},
};

CB_GROUP(loop, loop_fragments);
