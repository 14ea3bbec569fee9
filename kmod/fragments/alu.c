// SPDX-License-Identifier: GPL-2.0
/*
 * alu: latency against throughput of simple integer operations.  On real
 * hardware add_dep costs about one cycle per add and add_indep about a
 * quarter; under QEMU's icount both count four instructions.
 */
#include "cyclebench.h"

/* Each add needs the previous result: a latency chain. */
CB_BODY(add_dep)
{
	asm volatile("add %%rax, %%rax\n\t"
		     "add %%rax, %%rax\n\t"
		     "add %%rax, %%rax\n\t"
		     "add %%rax, %%rax"
		     ::: "rax");
}

/* Four registers, no dependency between the adds: throughput. */
CB_BODY(add_indep)
{
	asm volatile("add %%rax, %%rax\n\t"
		     "add %%rcx, %%rcx\n\t"
		     "add %%rdx, %%rdx\n\t"
		     "add %%rsi, %%rsi"
		     ::: "rax", "rcx", "rdx", "rsi");
}

/* imul has a 3-cycle latency on most x86 cores. */
CB_BODY(imul_dep)
{
	asm volatile("imul %%rax, %%rax\n\t"
		     "imul %%rax, %%rax\n\t"
		     "imul %%rax, %%rax\n\t"
		     "imul %%rax, %%rax"
		     ::: "rax");
}

static const struct cb_fragment alu_fragments[] = {
	CB_FRAGMENT_INSNS_UNIT(add_dep, 4, "add", 4,
			       "4 dependent adds on one register (latency chain)"),
	CB_FRAGMENT_INSNS_UNIT(add_indep, 4, "add", 4,
			       "4 independent adds on four registers (throughput)"),
	CB_FRAGMENT_INSNS_UNIT(imul_dep, 4, "imul", 4,
			       "4 dependent imuls on one register (latency chain)"),
};

CB_GROUP(alu, alu_fragments);
