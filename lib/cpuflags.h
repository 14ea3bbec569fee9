/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpuflags.h - what the CPU says of a feature (CPUID) and what the kernel
 * decided (a /proc/cpuinfo flags line), for cyclestat doctor and
 * cyclebench-user (userspace/runner/machine.c): the bit positions live here only.
 */
#ifndef CPUFLAGS_H
#define CPUFLAGS_H

#include <string.h>

/* 1 if the word f is in flags (a cpuinfo flags line, spaces between). */
static inline int cpu_has_flag(const char *flags, const char *f)
{
	size_t n = strlen(f);

	for (const char *c = flags; c && (c = strstr(c, f)); c += n)
		if ((c == flags || c[-1] == ' ') && (c[n] == ' ' || !c[n] || c[n] == '\n'))
			return 1;
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define CPUID_LIVE 1
/* bit of register reg (0 EAX .. 3 EDX) of leaf, subleaf 0; 0 past the max */
static inline int cpuid_bit(unsigned int leaf, int reg, int bit)
{
	unsigned int r[4];

	if ((unsigned int)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf)
		return 0;
	__cpuid_count(leaf, 0, r[0], r[1], r[2], r[3]);
	return (r[reg] >> bit) & 1;
}
#else
#define CPUID_LIVE 0
static inline int cpuid_bit(unsigned int leaf, int reg, int bit)
{
	(void)leaf;
	(void)reg;
	(void)bit;
	return 0;
}
#endif

/* 80000007h EDX[8]: the TSC ticks at a constant rate through P- and C-states */
static inline int cpuid_invariant_tsc(void) { return cpuid_bit(0x80000007u, 3, 8); }
/* 80000001h EDX[27]: RDTSCP */
static inline int cpuid_rdtscp(void) { return cpuid_bit(0x80000001u, 3, 27); }
/* 1 ECX[31]: running under a hypervisor */
static inline int cpuid_hypervisor(void) { return cpuid_bit(1, 2, 31); }

#endif
