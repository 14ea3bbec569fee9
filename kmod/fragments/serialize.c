// SPDX-License-Identifier: GPL-2.0
/*
 * serialize: the cost of the fences the timing protocol itself uses, so a
 * reader can see what CPUID (a VM exit under a hypervisor) and LFENCE cost
 * on this machine.
 */
#include "cyclebench.h"

CB_BODY(lfence)
{
	asm volatile("lfence" ::: "memory");
}

/* Leaf 0 is the cheapest, and valid on every CPU; the xors select it. */
CB_BODY(cpuid)
{
	asm volatile("xor %%eax, %%eax\n\t"
		     "xor %%ecx, %%ecx\n\t"
		     "cpuid"
		     ::: "rax", "rbx", "rcx", "rdx", "memory");
}

static const struct cb_fragment serialize_fragments[] = {
	CB_FRAGMENT(lfence, 1, "one LFENCE"),
	CB_FRAGMENT(cpuid, 1, "one CPUID, leaf 0, after two xors (a VM exit under a hypervisor)"),
};

CB_GROUP(serialize, serialize_fragments);
