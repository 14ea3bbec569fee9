/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timestamp primitives for cyclebench.
 *
 * Each helper is one short asm block, __always_inline, so that nothing but
 * the fragment body sits between the two timestamps: no call, no retpoline
 * or return thunk, no ftrace nop.
 *
 * Why the fences sit where they sit (Paoloni, "How to Benchmark Code
 * Execution Times on Intel IA-32 and IA-64 Instruction Set Architectures",
 * Intel, 2010):
 *
 *  - RDTSC is not ordered: the CPU may execute it before earlier
 *    instructions finish or after later ones start.  At the start we put a
 *    full serialising CPUID *before* it, so everything preceding the region
 *    has retired before the clock is read.
 *  - RDTSCP waits until all earlier instructions have executed before it
 *    reads the clock, so at the stop it cannot run ahead of the body.  It
 *    does not stop *later* instructions from starting early, hence the CPUID
 *    after it: the code following the region cannot leak into it.
 *  - Both RDTSC and RDTSCP return the count in EDX:EAX; CPUID clobbers EAX,
 *    EBX, ECX and EDX.  The two halves are copied out inside the same asm
 *    block and combined only after the stop, so the shift and the OR that
 *    join them execute outside the region.  At the start they are stored
 *    to memory: in registers, a body that clobbers many would make the
 *    compiler spill them inside the region, for some methods and not
 *    others.
 *
 * Where CPUID is a hypervisor exit (about 1.3k cycles on KVM, with a large
 * variance) the "lfence" method replaces it with LFENCE, which on Intel and
 * on AMD with the LFENCE_RDTSC setting the kernel enables waits for all
 * earlier instructions to complete locally and keeps later ones from
 * starting (the libjxl / highway timer sequence).
 *
 * Without RDTSCP (QEMU's qemu64 model, some VMs) RDTSCP must never execute:
 * it is an invalid opcode there.  The "-nordtscp" variants use LFENCE; RDTSC
 * at the stop, which gives the same ordering guarantee where LFENCE
 * orders RDTSC.  Where it does not (AMD with DE_CFG bit 1 clear, as the
 * module reads it at load), "cpuid-nordtscp" stops with CPUID; RDTSC, as
 * Paoloni's first protocol does: CPUID waits for the body to retire, at
 * the price of its own cost (a hypervisor exit in a VM) inside the region.
 */
#ifndef CYCLEBENCH_TIMING_H
#define CYCLEBENCH_TIMING_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

/**
 * enum cb_method - how a sample is timed.
 * @CB_PAOLONI: CPUID; RDTSC ... RDTSCP; CPUID (the default).
 * @CB_LFENCE: LFENCE; RDTSC; LFENCE ... RDTSCP; LFENCE.
 * @CB_PAOLONI_NORDTSCP: CPUID; RDTSC ... LFENCE; RDTSC; CPUID.
 * @CB_LFENCE_NORDTSCP: LFENCE; RDTSC; LFENCE ... LFENCE; RDTSC; LFENCE.
 * @CB_CPUID_NORDTSCP: CPUID; RDTSC ... CPUID; RDTSC; CPUID: no RDTSCP, and
 *	LFENCE does not order RDTSC (the module only).
 * @CB_NR_METHODS: number of methods.
 */
enum cb_method {
	CB_PAOLONI,
	CB_LFENCE,
	CB_PAOLONI_NORDTSCP,
	CB_LFENCE_NORDTSCP,
	CB_CPUID_NORDTSCP,
	CB_NR_METHODS
};

/* Serialise, then read the TSC: nothing before the region leaks into it. */
static __always_inline void cb_start_cpuid(u32 *hi, u32 *lo)
{
	u32 a = 0, c = 0;

	asm volatile("cpuid\n\t"
		     "rdtsc\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1"
		     : "=m" (*hi), "=m" (*lo), "+a" (a), "+c" (c)
		     :
		     : "rbx", "rdx", "memory");
}

/*
 * LFENCE before RDTSC: earlier instructions have completed.  LFENCE after
 * it: the body does not start before the clock is read.
 */
static __always_inline void cb_start_lfence(u32 *hi, u32 *lo)
{
	asm volatile("lfence\n\t"
		     "rdtsc\n\t"
		     "lfence\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1"
		     : "=m" (*hi), "=m" (*lo)
		     :
		     : "rax", "rdx", "memory");
}

/*
 * RDTSCP waits for the body; CPUID keeps what follows out of the region.
 * RDTSCP also loads TSC_AUX into ECX, which Linux sets to the CPU number
 * (and node): *aux says which CPU's TSC was read.
 */
static __always_inline void cb_stop_rdtscp_cpuid(u32 *hi, u32 *lo, u32 *aux)
{
	asm volatile("rdtscp\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1\n\t"
		     "mov %%ecx, %2\n\t"
		     "xor %%eax, %%eax\n\t"
		     "cpuid"
		     : "=r" (*hi), "=r" (*lo), "=r" (*aux)
		     :
		     : "rax", "rbx", "rcx", "rdx", "memory");
}

/* RDTSCP waits for the body; LFENCE keeps what follows out of the region. */
static __always_inline void cb_stop_rdtscp_lfence(u32 *hi, u32 *lo, u32 *aux)
{
	asm volatile("rdtscp\n\t"
		     "lfence\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1\n\t"
		     "mov %%ecx, %2"
		     : "=r" (*hi), "=r" (*lo), "=r" (*aux)
		     :
		     : "rax", "rcx", "rdx", "memory");
}

/* No RDTSCP: LFENCE waits for the body, then RDTSC, then CPUID. */
static __always_inline void cb_stop_lfence_cpuid(u32 *hi, u32 *lo)
{
	asm volatile("lfence\n\t"
		     "rdtsc\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1\n\t"
		     "xor %%eax, %%eax\n\t"
		     "cpuid"
		     : "=r" (*hi), "=r" (*lo)
		     :
		     : "rax", "rbx", "rcx", "rdx", "memory");
}

/*
 * No RDTSCP, and LFENCE does not order RDTSC: CPUID waits for the body to
 * retire, then RDTSC; the second CPUID keeps what follows out of the
 * region.  EAX is 0 for both CPUIDs: leaf 0, the cheapest to emulate.
 */
static __always_inline void cb_stop_cpuid_cpuid(u32 *hi, u32 *lo)
{
	asm volatile("xor %%eax, %%eax\n\t"
		     "cpuid\n\t"
		     "rdtsc\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1\n\t"
		     "xor %%eax, %%eax\n\t"
		     "cpuid"
		     : "=r" (*hi), "=r" (*lo)
		     :
		     : "rax", "rbx", "rcx", "rdx", "memory");
}

/* No RDTSCP: LFENCE waits for the body, then RDTSC, then LFENCE. */
static __always_inline void cb_stop_lfence_lfence(u32 *hi, u32 *lo)
{
	asm volatile("lfence\n\t"
		     "rdtsc\n\t"
		     "lfence\n\t"
		     "mov %%edx, %0\n\t"
		     "mov %%eax, %1"
		     : "=r" (*hi), "=r" (*lo)
		     :
		     : "rax", "rdx", "memory");
}

/*
 * @m is a compile-time constant at every call site (the sampler switches on
 * the method once, outside the loop), so each switch folds to one asm block.
 */
static __always_inline void cb_start(const enum cb_method m, u32 *hi, u32 *lo)
{
	if (m == CB_LFENCE || m == CB_LFENCE_NORDTSCP)
		cb_start_lfence(hi, lo);
	else
		cb_start_cpuid(hi, lo);
}

/* Without RDTSCP there is no TSC_AUX: *aux is CB_NO_AUX. */
#define CB_NO_AUX	0xffffffffU

static __always_inline void cb_stop(const enum cb_method m, u32 *hi, u32 *lo,
				    u32 *aux)
{
	switch (m) {
	case CB_LFENCE:
		cb_stop_rdtscp_lfence(hi, lo, aux);
		break;
	case CB_PAOLONI_NORDTSCP:
		cb_stop_lfence_cpuid(hi, lo);
		*aux = CB_NO_AUX;
		break;
	case CB_LFENCE_NORDTSCP:
		cb_stop_lfence_lfence(hi, lo);
		*aux = CB_NO_AUX;
		break;
	case CB_CPUID_NORDTSCP:
		cb_stop_cpuid_cpuid(hi, lo);
		*aux = CB_NO_AUX;
		break;
	default:
		cb_stop_rdtscp_cpuid(hi, lo, aux);
		break;
	}
}

static __always_inline u64 cb_tsc(u32 hi, u32 lo)
{
	return (u64)hi << 32 | lo;
}

/*
 * The TSC's granularity from @n differences of two reads: the largest step
 * (up to 1000) that at least 90 % of them are multiples of.  Recent AMD
 * cores (and their VMs) count in steps of 21, 26, ... ticks, with a +1 now
 * and then to keep the counter monotonic: the smallest difference (1)
 * says nothing; most differences say 26.  Where the TSC counts every tick,
 * differences of reads a varying amount of work apart leave no step but 1.
 * The module (engine.c) and cyclebench-user (machine.c) both use it.
 */
static inline unsigned int cb_tsc_step_of(const u64 *d, unsigned int n)
{
	unsigned int s, i, k;

	for (s = 1000; s > 1; s--) {
		for (k = 0, i = 0; i < n; i++)
			k += d[i] && d[i] % s == 0;
		if (n && k >= n - n / 10)
			return s;
	}
	return 1;
}

/*
 * A hardware counter's advance from @start to @end, for a counter @mask
 * wide (GENMASK_ULL(width - 1, 0)): right across one wrap, and RDPMC's
 * bits above the width do not matter.  tests/kmod/pmc.c checks it.
 */
static __always_inline u64 cb_counter_delta(u64 start, u64 end, u64 mask)
{
	return (end - start) & mask;
}

/*
 * Whether that advance can be a region's.  perf programs a counting
 * event to overflow every so many events (2^31 - 1 on many Intel PMUs)
 * and, in its overflow interrupt, rewrites the counter to minus that
 * period: a sample the interrupt lands in reads the counter before and
 * after the rewrite, and the masked difference is nearly the whole range.
 * Any rewrite that moves a counter back does the same.  No region of one
 * sample (interrupts off for at most a second) counts half of a 40-bit
 * or wider counter, so an advance over half the range is a rewrite, not
 * a count.  tests/kmod/pmc.c checks it.
 */
static __always_inline bool cb_counter_sane(u64 start, u64 end, u64 mask)
{
	return cb_counter_delta(start, end, mask) <= mask >> 1;
}

#endif /* CYCLEBENCH_TIMING_H */
