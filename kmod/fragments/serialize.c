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

/* Leaf 0 is the cheapest, and valid on every CPU. */
CB_BODY(cpuid)
{
	u32 a = 0, b, c = 0, d;

	asm volatile("cpuid"
		     : "+a" (a), "=b" (b), "+c" (c), "=d" (d)
		     :: "memory");
}

static const struct cb_fragment serialize_fragments[] = {
	CB_FRAGMENT(lfence, 1, "one LFENCE"),
	CB_FRAGMENT(cpuid, 1, "one CPUID, leaf 0 (a VM exit under a hypervisor)"),
};

CB_GROUP(serialize, serialize_fragments);
