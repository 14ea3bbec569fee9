/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - what CB_BODY() expands to, and what the core fills in: the
 * sampler's context (struct cb_ctx), the per-sample flags, the hooks the
 * module and cyclebench-user (portable.h) each define, the timed regions
 * and the sampling loop, and the switches the object-code check's test
 * modules build with.  A fragment author never includes it: cyclebench.h
 * does, after struct cb_env and before CB_BODY().
 */
#ifndef CYCLEBENCH_HARNESS_H
#define CYCLEBENCH_HARNESS_H

#ifndef CYCLEBENCH_H
#error "include cyclebench.h, the fragment API, not harness.h"
#endif

#ifdef __KERNEL__
#include <linux/percpu.h>
#endif

struct cb_job;		/* the module's run in flight (internal.h) */
struct cb_user_job;	/* cyclebench-user's, per CPU (userspace/runner/engine.c) */
struct cb_disturb;
struct cb_meet;

/*
 * A body whose wait is bounded, so that a sample stays bounded (a poll of
 * another CPU that gives up after so many reads: contend:token_ring),
 * calls cb_body_timed_out() when it gives up: the sample is flagged
 * CB_SAMPLE_TIMEOUT, and a sample of time-outs is not read as one of what
 * it waited for.  One increment of this CPU's count, on the path that
 * gave up only; the sample compares the count before and after it, with
 * interrupts off on one CPU (sample.c).  cyclebench-user keeps the count
 * (a thread's own, include/cyclebench/portable.h) and writes no flags.
 */
DECLARE_PER_CPU(u64, cb_body_timeouts);
#define cb_body_timed_out()	this_cpu_inc(cb_body_timeouts)

/**
 * struct cb_ctx - what one call of a fragment's sampler needs.
 * @out: @n deltas of the short region (one copy of the body).
 * @out_long: @n deltas of the long region, or NULL not to time it.
 * @n: samples to keep.
 * @warmup: samples run first and thrown away.
 * @limit: TSC ticks, the longest one sample (both regions) may hold
 *	interrupts off: see __CB_SAMPLE_LOOP().
 * @method: the timing method; never one that needs RDTSCP without it.
 * @cpu: the CPU the run is bound to.
 * @done: samples kept before this call, for the status file.
 * @env: setup's environment; its @state is what a stateful body gets.
 * @job: the run this belongs to (core only; cyclebench-user's own type).
 * @flags: @n CB_SAMPLE_* bits, what disturbed each kept sample, or NULL.
 * @dist: the disturbance bookkeeping (core only).
 * @meet: the module's cpus= run: this CPU's place at the barrier the
 *	CPUs meet at before each sample, or NULL (core only).
 * @probe: the short region's TSC delta in the probe's last run (0 before
 *	it ran), which the core keeps to refuse at parse time a later
 *	request that could not fit.
 * @over: the entry's samples so far that held interrupts off past @limit
 *	and were taken again, in every call of its sampler (the core carries
 *	it from one ensemble to the next); the sampler adds its own.
 * @tried: the samples (warm-up included) the entry took before this call.
 *
 * Filled by the core; a fragment author never sees it.
 */
struct cb_ctx {
	u64 *out;
	u64 *out_long;
	u64 n;
	u64 warmup;
	u64 limit;
	enum cb_method method;
	unsigned int cpu;
	u64 done;
	struct cb_env *env;
#ifdef __KERNEL__
	struct cb_job *job;
#else
	struct cb_user_job *job;
#endif
	u8 *flags;
	struct cb_disturb *dist;
	struct cb_meet *meet;
	u64 probe;
	u64 over;
	u64 tried;
};

/*
 * The samples of an entry that may hold interrupts off past the limit
 * before its run stops with -ETIME: CB_OVER_FREE, and one more for every
 * CB_OVER_SHARE it took, but never CB_OVER_FREE in a row (@row: this
 * sample's retakes so far).  The run's count, not only a streak's: a body
 * dear only every other time, or only as its state grows, is stopped
 * as soon as one dear every time, and a stall of the host now and then
 * (an NMI, an emulator's) stops no long run of a body that fits.
 */
#define CB_OVER_FREE	8
#define CB_OVER_SHARE	64
static inline bool cb_over_spent(struct cb_ctx *ctx, u64 i, unsigned int *row)
{
	return ++*row >= CB_OVER_FREE ||
	       ++ctx->over > CB_OVER_FREE + (ctx->tried + i) / CB_OVER_SHARE;
}

/* What disturbed a sample, the flags file's bits: CB_SAMPLE_* */
#include "contract.h"

/*
 * Called between two samples, with interrupts and preemption on: yields
 * the CPU when asked to, publishes progress, and returns non-zero when the
 * run must stop (a signal to the writer, or the CPU went away).
 */
int cb_between_samples(struct cb_ctx *ctx, u64 i);

#ifdef __KERNEL__
#define __cb_irq_off(flags)	do { preempt_disable(); local_irq_save(flags); } while (0)
#define __cb_irq_on(flags)	local_irq_restore(flags)
#define __cb_moved(cpu)		(smp_processor_id() != (cpu))
#define __cb_irq_done()		preempt_enable()
#define __cb_probe_begin(ctx)	cb_probe_begin(ctx)
#define __cb_probe_end(ctx)	cb_probe_end(ctx)

/*
 * Called with interrupts off, before the short region and after the long
 * one: they note NMIs, interrupts and context switches around the sample
 * and keep the counter deltas (sample.c).  Outside the timed regions.
 */
void cb_sample_begin(struct cb_ctx *ctx, u64 i);
void cb_sample_end(struct cb_ctx *ctx, u64 i);
/*
 * Then, interrupts on again: the sample is kept (or was a warm-up one),
 * or taken again; only a kept one's disturbances count (sample.c).
 */
void cb_sample_kept(struct cb_ctx *ctx, u64 i);
void cb_sample_retaken(struct cb_ctx *ctx);
/*
 * After each region, still with interrupts off: -EPROTO when the body
 * slept, turned interrupts on or left preemption disabled (sample.c says
 * which), else 0.  The probe before the first sample runs as a sample
 * does, with interrupts and preemption off: cb_probe_begin() and
 * cb_probe_end() bracket it inside __cb_irq_off() .. __cb_irq_on(), and
 * the latter is -EPROTO for the same three reasons.
 */
int cb_sample_broken(struct cb_ctx *ctx);
void cb_probe_begin(struct cb_ctx *ctx);
int cb_probe_end(struct cb_ctx *ctx);
/*
 * The hardware counters, read by each region (@at CB_PMC_SHORT or
 * CB_PMC_LONG) before its start timestamp's CPUID (or LFENCE) and (@at +
 * 1) after its stop's closing one: outside both, so a region's counter
 * delta covers more than its TSC delta, namely the two timestamps with
 * their fences and the moves around them (a CPUID alone is hundreds of
 * cycles, and a hypervisor exit).  That excess is the method's own, the
 * same in the short and the long region, so long - short cancels it as
 * it cancels the timestamps' cost in the TSC; a counter's short region
 * alone is not the body's.  @ctx is NULL for the probe, which keeps
 * nothing.
 */
void cb_pmc_read(struct cb_ctx *ctx, unsigned int at);
#define __cb_sample_begin(ctx, i)	cb_sample_begin(ctx, i)
#define __cb_sample_end(ctx, i)		cb_sample_end(ctx, i)
#define __cb_sample_kept(ctx, i)	cb_sample_kept(ctx, i)
#define __cb_sample_retaken(ctx)	cb_sample_retaken(ctx)
#define __cb_pmc_read(ctx, at)		cb_pmc_read(ctx, at)
#define __cb_sample_broken(ctx)		cb_sample_broken(ctx)
#endif
#ifndef __cb_sample_begin	/* userspace: interrupts stay on anyway */
#define __cb_sample_begin(ctx, i)	do { } while (0)
#define __cb_sample_end(ctx, i)		do { } while (0)
#define __cb_sample_kept(ctx, i)	do { } while (0)
#define __cb_sample_retaken(ctx)	((void)(ctx))
#define __cb_pmc_read(ctx, at)		((void)(ctx))
#define __cb_sample_broken(ctx)		0
#endif
#define CB_PMC_SHORT	0
#define CB_PMC_LONG	2

/*
 * Zero-size labels around the body and between the long region's copies:
 * they emit nothing and name the body's first and last instruction in the
 * object code, where tests/kmod/run.sh checks each region.  Each is also a
 * barrier: it keeps the state pointer in a register ("+r") and clobbers
 * memory and every other general-purpose register but the stack and frame
 * pointers (the state pointer stays in the one left, %r15).  So each
 * copy of the body starts as the first did: it loads what it reads and
 * builds its own constants; nothing computed in one copy
 * (a load, a product, a constant in a register) can serve the next, and
 * the short region, every copy of the long one and the reference hold the
 * same instructions.  Without it, a body such as
 *	u64 x = st->a * st->b; CB_OPAQUE(x);
 * multiplied once for all sixteen copies.
 */
#if defined(CONFIG_FRAME_POINTER) || defined(CB_FRAME_POINTER)
#define __CB_CLOBBER_BP
#else
#define __CB_CLOBBER_BP	"rbp",
#endif
#define __CB_CLOBBER_ALL __CB_CLOBBER_BP "rax", "rbx", "rcx", "rdx", "rsi",	\
	"rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "memory"
#define __CB_MARK(what, st)						\
	({ asm volatile("cb_" what "_%=:" : : "r" (st) : __CB_CLOBBER_ALL); })
/* The same barrier without a label, before the start timestamp. */
#define __CB_PIN(st)	({ asm volatile("" : : "r" (st) : __CB_CLOBBER_ALL); })

/*
 * One timed region, a function of its own per method: the state pointer
 * is all that is live in it (in %r15, which no timestamp clobbers),
 * so nothing of the sampling loop is kept, moved or spilled around the
 * body.  Called with interrupts off; the call and return, and the counter
 * reads around the timestamps, sit outside them.  Returns the region's TSC
 * delta.
 */
#define __CB_M_p	CB_PAOLONI
#define __CB_M_l	CB_LFENCE
#define __CB_M_pn	CB_PAOLONI_NORDTSCP
#define __CB_M_ln	CB_LFENCE_NORDTSCP
#define __CB_M_cn	CB_CPUID_NORDTSCP
#define __CB_PMC_short	CB_PMC_SHORT
#define __CB_PMC_long	CB_PMC_LONG
#define __CB_REGION(kind, tag, suffix, body)				\
static noinline notrace u64 cb_##kind##_##tag##suffix(void *st,	\
						    struct cb_ctx *ctx)	\
{									\
	const enum cb_method __m = __CB_M_##tag;			\
	u32 h0, l0, h1, l1, aux;	/* RDTSCP's TSC_AUX, unused */	\
									\
	__cb_pmc_read(ctx, __CB_PMC_##kind);				\
	__CB_PIN(st);							\
	cb_start(__m, &h0, &l0);					\
	__CB_TEST_SPILL();						\
	body;								\
	cb_stop(__m, &h1, &l1, &aux);					\
	__cb_pmc_read(ctx, __CB_PMC_##kind + 1);			\
	return cb_tsc(h1, l1) - cb_tsc(h0, l0);				\
}

/*
 * Expanded once per method inside each fragment's sampler.  Interrupts
 * and preemption are off for one sample (short and long region) at a
 * time, never longer, and never longer than ctx->limit: the long region
 * runs only when (1 + CB_LONG_REPEAT) times the short one fits, and a
 * sample whose two regions together took longer than ctx->limit (copies
 * dearer than the body alone) is not kept; either way the sample is taken
 * again, and counted: past the entry's allowance (cb_over_spent()) the
 * run stops with -ETIME.  Before the first sample the short region alone runs,
 * up to 3 times, to refuse a body that could not fit at all (the first
 * run of new code can be slow: an emulator translates it).  The probe
 * runs the body as a sample does, interrupts and preemption off: a body
 * may take a lock a hard-interrupt handler takes, or assert that
 * interrupts are off, in every run of it.  So the probe holds interrupts
 * off for one run of the body, a (1 + CB_LONG_REPEAT)th of a sample: for
 * a fragment whose ARG counts iterations, the request check bounded that
 * before the run (request.c).
 */
#define __CB_SAMPLE_LOOP(ctx, tag, suffix)				\
({									\
	struct cb_ctx *__ctx = (ctx);					\
	const u64 __copies = __ctx->out_long ? CB_LONG_REPEAT + 1 : 1;	\
	u64 __i, __end = __ctx->warmup + __ctx->n, __t = 0;		\
	unsigned int __row = 0;						\
	int __ret = 0;							\
									\
	for (__i = 0, __ret = -ETIME; __i < 3 && __ret == -ETIME; __i++) { \
		unsigned long __flags;					\
									\
		__cb_irq_off(__flags);					\
		if (unlikely(__cb_moved(__ctx->cpu))) {			\
			/* hotplug moved the thread: time no other CPU */ \
			__cb_irq_on(__flags);				\
			__cb_irq_done();				\
			__ret = -EAGAIN;				\
			break;						\
		}							\
		__cb_probe_begin(__ctx);				\
		__ctx->probe = cb_short_##tag##suffix(st, NULL);	\
		if (__ctx->probe <= __ctx->limit / __copies)		\
			__ret = 0;					\
		__ret = __cb_probe_end(__ctx) ?: __ret;			\
		__cb_irq_on(__flags);					\
		__cb_irq_done();					\
	}								\
	for (__i = 0; !__ret && __i < __end; __i++) {			\
		unsigned long __flags;					\
		u64 __d, __dl = 0;					\
									\
		__ret = cb_between_samples(__ctx, __i);			\
		if (__ret)						\
			break;						\
		__t++;							\
		__cb_irq_off(__flags);					\
		__cb_sample_begin(__ctx, __i);				\
		__d = cb_short_##tag##suffix(st, __ctx);	\
		__ret = __cb_sample_broken(__ctx);			\
		if (unlikely(__ret)) {					\
			__cb_irq_on(__flags);				\
			__cb_irq_done();				\
			break;						\
		}							\
		if (__d > __ctx->limit / __copies) {			\
			__cb_irq_on(__flags);				\
			__cb_irq_done();				\
			/* not an NMI or an emulator's stall: too long */ \
			if (cb_over_spent(__ctx, __t, &__row)) {		\
				__ret = -ETIME;				\
				break;					\
			}						\
			__i--;						\
			continue;					\
		}							\
		if (__ctx->out_long)					\
			__dl = cb_long_##tag##suffix(st, __ctx); \
		__cb_sample_end(__ctx, __i);				\
		__ret = __cb_sample_broken(__ctx);			\
		__cb_irq_on(__flags);					\
		if (unlikely(__ret || __cb_moved(__ctx->cpu))) {	\
			__cb_irq_done();				\
			__ret = __ret ?: -EAGAIN;			\
			break;						\
		}							\
		__cb_irq_done();					\
		if (__d + __dl > __ctx->limit) {			\
			/* held them off too long: counted, taken again */ \
			__cb_sample_retaken(__ctx);			\
			if (cb_over_spent(__ctx, __t, &__row)) {		\
				__ret = -ETIME;				\
				break;					\
			}						\
			__i--;						\
			continue;					\
		}							\
		__row = 0;						\
		__cb_sample_kept(__ctx, __i);				\
		if (__i >= __ctx->warmup) {				\
			__ctx->out[__i - __ctx->warmup] = __d;		\
			if (__ctx->out_long)				\
				__ctx->out_long[__i - __ctx->warmup] = __dl; \
		}							\
	}								\
	__ret;								\
})

/*
 * Broken harnesses, built only by tests/kmod/run.sh to show that the
 * object-code check catches them: a body called through a pointer, a
 * register spilled to the stack inside the region, and a long region whose
 * copies are not kept apart (the mark between them no barrier, so the
 * compiler may share a load between copies).  Never loaded.
 */
#ifdef CB_TEST_BROKEN_HARNESS_POINTER
#define __CB_SHORT(direct, ptr)	READ_ONCE((ptr))(st)
#define __CB_PTR(ptr, ref)	static void (*(ptr))(void *) = ref
#else
#define __CB_SHORT(direct, ptr)	direct(st)
#define __CB_PTR(ptr, ref)	struct cb_ctx
#endif
#ifdef CB_TEST_BROKEN_HARNESS_MERGE
#define __CB_COPY_MARK(st)	({ asm volatile("cb_lc_%=:" : : "r" (st)); })
#else
#define __CB_COPY_MARK(st)	__CB_MARK("lc", st)
#endif
#ifdef CB_TEST_BROKEN_HARNESS_SPILL
#define __CB_TEST_SPILL()	({ asm volatile("mov %%rbx, 8(%%rsp)" ::: "memory"); })
#else
#define __CB_TEST_SPILL()	do { } while (0)
#endif

/*
 * Each body's "group:name" (kbuild's KBUILD_BASENAME: the file's name, its
 * group's) as an ELF note of the module's file, owner "cyclebench", which
 * is never loaded (no "a" flag): scripts/fragments.sh reads the names
 * from a built module, so a selection is checked before anything boots.
 */
#ifdef KBUILD_BASENAME
#define __CB_LISTED(name)						\
	asm(".pushsection .note.cyclebench,\"\",@note\n\t"		\
	    ".balign 4\n\t"						\
	    ".long 2f - 1f, 4f - 3f, 1\n"				\
	    "1:\t.asciz \"cyclebench\"\n"				\
	    "2:\t.balign 4\n"						\
	    "3:\t.asciz \"" KBUILD_BASENAME ":" #name "\"\n"		\
	    "4:\t.balign 4\n\t"					\
	    ".popsection")
#else
#define __CB_LISTED(name) asm("")
#endif

/*
 * The long region: CB_LONG_REPEAT (2, 4, 8, ... 1024) copies of the body,
 * no loop counter: cb_body<N>_<name>() is two calls of
 * cb_body<N/2>_<name>() with a barrier between them, all inlined.
 */
#define __CB_DOUBLE(twice, ...)						\
static __always_inline void twice(void *st)				\
{									\
	__VA_ARGS__(st);						\
	__CB_COPY_MARK(st);						\
	__VA_ARGS__(st);						\
}

#define ___CB_LONG(n, suffix)	cb_body##n##suffix
#define __CB_LONG(n, suffix)	___CB_LONG(n, suffix)

/*
 * The two regions of a fragment for the method whose tag is @tag; @suffix
 * is _NAME.
 */
#define __CB_SHORT_REGION(tag, suffix)					\
	__CB_REGION(short, tag, suffix,					\
		({ __CB_MARK("bb", st);					\
		   __CB_SHORT(cb_body_##suffix, cb_ptr##suffix);	\
		   __CB_MARK("be", st); }))
#define __CB_LONG_REGION(tag, suffix)					\
	__CB_REGION(long, tag, suffix,					\
		({ __CB_MARK("lb", st);					\
		   cb_bodylong##suffix(st);				\
		   __CB_MARK("le", st); }))

/*
 * The body alone between the same marks (what the short region must
 * hold, and each copy of the long one), CB_LONG_REPEAT copies of it
 * (1024 at most) for the long region, the two regions per method, and
 * the sampler: one sampling loop per method.
 */
#define __CB_SAMPLER(name)						\
__CB_LISTED(name);							\
static noinline notrace __used void cb_bodyref_##name(void *st)	\
{									\
	__CB_PIN(st);							\
	__CB_MARK("rb", st);						\
	cb_body__##name(st);						\
	__CB_MARK("re", st);						\
}									\
__CB_PTR(cb_ptr_##name, cb_bodyref_##name);				\
__CB_DOUBLE(cb_body2_##name, cb_body__##name)				\
__CB_DOUBLE(cb_body4_##name, cb_body2_##name)				\
__CB_DOUBLE(cb_body8_##name, cb_body4_##name)				\
__CB_DOUBLE(cb_body16_##name, cb_body8_##name)				\
__CB_DOUBLE(cb_body32_##name, cb_body16_##name)				\
__CB_DOUBLE(cb_body64_##name, cb_body32_##name)				\
__CB_DOUBLE(cb_body128_##name, cb_body64_##name)			\
__CB_DOUBLE(cb_body256_##name, cb_body128_##name)			\
__CB_DOUBLE(cb_body512_##name, cb_body256_##name)			\
__CB_DOUBLE(cb_body1024_##name, cb_body512_##name)			\
static __always_inline void cb_bodylong_##name(void *st)		\
{									\
	__CB_LONG(CB_LONG_REPEAT, _##name)(st);				\
}									\
__CB_SHORT_REGION(p, _##name)						\
__CB_LONG_REGION(p, _##name)						\
__CB_SHORT_REGION(l, _##name)						\
__CB_LONG_REGION(l, _##name)						\
__CB_SHORT_REGION(pn, _##name)						\
__CB_LONG_REGION(pn, _##name)						\
__CB_SHORT_REGION(ln, _##name)						\
__CB_LONG_REGION(ln, _##name)						\
__CB_SHORT_REGION(cn, _##name)						\
__CB_LONG_REGION(cn, _##name)						\
static noinline notrace int cb_sample_##name(struct cb_ctx *ctx)	\
{									\
	void *st = ctx->env->state;					\
									\
	switch (ctx->method) {						\
	case CB_PAOLONI:						\
		return __CB_SAMPLE_LOOP(ctx, p, _##name); \
	case CB_LFENCE:							\
		return __CB_SAMPLE_LOOP(ctx, l, _##name); \
	case CB_PAOLONI_NORDTSCP:					\
		return __CB_SAMPLE_LOOP(ctx, pn, _##name); \
	case CB_LFENCE_NORDTSCP:					\
		return __CB_SAMPLE_LOOP(ctx, ln, _##name); \
	case CB_CPUID_NORDTSCP:						\
		return __CB_SAMPLE_LOOP(ctx, cn, _##name); \
	default:	/* never guess: a wrong guess could run RDTSCP */	\
		return -EINVAL;						\
	}								\
}

#endif /* CYCLEBENCH_HARNESS_H */
