// SPDX-License-Identifier: GPL-2.0
/*
 * Bodies whose memory accesses are known, for cbcount.so's truth tests
 * (tests/e2e/memcount.sh), built only by tests/e2e/run.sh's memcount suite
 * (CB_GROUPS="base memops ..."), never shipped.  Each asm names its
 * accesses: the state pointer is the one register the harness keeps
 * (%r15, include/cyclebench/harness.h), so no body loads it.
 *
 * memops:load4, store4, rmw4 and alu4: 4 ops a body, each op 1 load,
 * 1 store, 1 load and 1 store (an add to memory), or none.
 * memops:sweep/ARG: one load from each of ARG consecutive 64-byte lines
 * (ops = lines), after 2 loads of the state (the count, the buffer):
 * 1 + 2/ARG loads an op.  ARG 256 is 16 KiB (half a 32 KiB L1D), 1024 is
 * 64 KiB (twice it).
 */
#include "cyclebench.h"

struct memops_state {
	u64 w[4];
	unsigned long n;
	u8 *buf;
};

CB_BODY_STATE(load4, struct memops_state)
{
	asm volatile("mov 0(%0), %%rax\n\t"
		     "mov 8(%0), %%rax\n\t"
		     "mov 16(%0), %%rax\n\t"
		     "mov 24(%0), %%rax"
		     : : "r" (st) : "rax", "memory");
}

CB_BODY_STATE(store4, struct memops_state)
{
	/* (the state's own address: stores of immediates alone read as a
	 * folded body to tests/kmod/regions.py) */
	asm volatile("mov %0, 0(%0)\n\t"
		     "mov %0, 8(%0)\n\t"
		     "mov %0, 16(%0)\n\t"
		     "mov %0, 24(%0)"
		     : : "r" (st) : "memory");
}

CB_BODY_STATE(rmw4, struct memops_state)
{
	asm volatile("addq $1, 0(%0)\n\t"
		     "addq $1, 8(%0)\n\t"
		     "addq $1, 16(%0)\n\t"
		     "addq $1, 24(%0)"
		     : : "r" (st) : "memory");
}

CB_BODY(alu4)
{
	asm volatile("add %%rax, %%rax\n\t"
		     "add %%rax, %%rax\n\t"
		     "add %%rax, %%rax\n\t"
		     "add %%rax, %%rax" ::: "rax");
}

static int sweep_setup(struct cb_env *env)
{
	struct memops_state *st = env->state;

	st->n = env->arg;
	st->buf = cb_alloc(env->arg * 64);
	return st->buf ? 0 : -ENOMEM;
}

static void sweep_teardown(struct cb_env *env)
{
	struct memops_state *st = env->state;

	cb_free(st->buf);
	st->buf = NULL;
}

CB_BODY_STATE(sweep, struct memops_state)
{
	asm volatile("mov %c1(%0), %%rcx\n\t"
		     "mov %c2(%0), %%rax\n"
		     "1:\n\t"
		     "mov (%%rax), %%rdx\n\t"
		     "add $64, %%rax\n\t"
		     "dec %%rcx\n\t"
		     "jnz 1b"
		     : : "r" (st), "i" (offsetof(struct memops_state, n)),
		       "i" (offsetof(struct memops_state, buf))
		     : "rax", "rcx", "rdx", "memory");
}

static const u64 sweep_lines[] = { 256, 1024 };

static const struct cb_fragment memops_fragments[] = {
	CB_FRAGMENT_UNIT(load4, 4, "load", "4 loads of the state"),
	CB_FRAGMENT_UNIT(store4, 4, "store", "4 stores to the state"),
	CB_FRAGMENT_UNIT(rmw4, 4, "add", "4 adds to the state in memory (a load and a store each)"),
	CB_FRAGMENT_UNIT(alu4, 4, "add", "4 register adds: no memory access"),
	{
		CB_FRAGMENT_FIELDS(sweep, 1, "one load from each of ARG 64-byte lines (ops = lines)"),
		.setup = sweep_setup,
		.teardown = sweep_teardown,
		CB_ARGS(sweep_lines),
		.arg_min = 1,
		.arg_max = 1 << 16,
		.ops_is_arg = true,
		.unit = "line",
	},
};

CB_GROUP(memops, memops_fragments);
