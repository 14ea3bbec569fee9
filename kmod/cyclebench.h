/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cyclebench fragment API: the one header a fragment author includes.
 *
 * A fragment is a body of C or inline asm and one line in its group's table:
 *
 *	CB_BODY(add_dep)
 *	{
 *		asm volatile("add %%rax, %%rax\n\t"
 *			     "add %%rax, %%rax" ::: "rax");
 *	}
 *
 *	static const struct cb_fragment alu_fragments[] = {
 *		CB_FRAGMENT(add_dep, 2, "2 dependent adds (latency chain)"),
 *	};
 *	CB_GROUP(alu, alu_fragments);
 *
 * A new group is a new file in kmod/fragments/ (Kbuild picks it up) plus
 * one CB_GROUP_ENTRY() line in kmod/groups.h.
 */
#ifndef CYCLEBENCH_H
#define CYCLEBENCH_H

#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>

#include "timing.h"

struct cb_job;

/**
 * struct cb_ctx - what one fragment's sampler needs for one run.
 * @out: ensembles * samples deltas, written in run order.
 * @n: number of samples to keep (the length of @out).
 * @warmup: samples run and thrown away before the first kept one.
 * @method: the timing method; never one that needs RDTSCP on a CPU without it.
 * @cpu: the CPU the run is bound to.
 * @done: samples kept before this fragment, for the status file.
 * @job: the run this belongs to (core only).
 *
 * Filled by the core for each fragment of a run; a fragment author never
 * sees it: CB_BODY() passes it from the sampler to the loop.
 */
struct cb_ctx {
	u64 *out;
	u64 n;
	u64 warmup;
	enum cb_method method;
	unsigned int cpu;
	u64 done;
	struct cb_job *job;
};

/*
 * Called between two samples, with interrupts and preemption on: yields the
 * CPU when asked to, publishes progress, and returns non-zero when the run
 * must stop (a signal to the writer, or the CPU went away).
 */
int cb_between_samples(struct cb_ctx *ctx, u64 i);

/*
 * The sampling loop, expanded once per method inside each fragment's
 * sampler so that @body is inlined between the two timestamps.  Interrupts
 * and preemption are off for one sample at a time, never longer.
 */
#define __CB_SAMPLE_LOOP(ctx, m, body)					\
({									\
	struct cb_ctx *__ctx = (ctx);					\
	const enum cb_method __m = (m);					\
	u64 __i, __end = __ctx->warmup + __ctx->n;			\
	int __ret = 0;							\
									\
	for (__i = 0; __i < __end; __i++) {				\
		unsigned long __flags;					\
		u32 __hi0, __lo0, __hi1, __lo1;				\
									\
		__ret = cb_between_samples(__ctx, __i);			\
		if (__ret)						\
			break;						\
		preempt_disable();					\
		local_irq_save(__flags);				\
		cb_start(__m, &__hi0, &__lo0);				\
		body;							\
		cb_stop(__m, &__hi1, &__lo1);				\
		local_irq_restore(__flags);				\
		if (unlikely(smp_processor_id() != __ctx->cpu)) {	\
			preempt_enable();				\
			__ret = -EAGAIN;				\
			break;						\
		}							\
		preempt_enable();					\
		if (__i >= __ctx->warmup)				\
			__ctx->out[__i - __ctx->warmup] =		\
				cb_tsc(__hi1, __lo1) - cb_tsc(__hi0, __lo0); \
	}								\
	__ret;								\
})

/**
 * CB_BODY() - define the body of fragment @name.
 * @name: the fragment's name, a C identifier.
 *
 * Follow it with the body in braces.  The body runs with preemption and
 * interrupts off: it must not sleep, allocate, print, fault or touch
 * FPU/SIMD state, and it should be short (a sample longer than a few
 * milliseconds delays interrupts by that much).  Use asm volatile, or
 * OPTIMIZER_HIDE_VAR(), so that the compiler cannot move C code out of the
 * region or delete it.  It may clobber any general-purpose register: the
 * start timestamp is stored to memory, never kept in a register the body
 * could force the compiler to spill inside the region.
 *
 * It also defines cb_sample_@name(), the fragment's sampler: the body
 * inlined into one sampling loop per method.  notrace, and called once per
 * run, so no ftrace hook, call or thunk sits between the timestamps.
 *
 * Example:
 *
 *	CB_BODY(nop)
 *	{
 *		asm volatile("nop");
 *	}
 */
#define CB_BODY(name)							\
static __always_inline void cb_body_##name(void);			\
static noinline notrace int cb_sample_##name(struct cb_ctx *ctx)	\
{									\
	switch (ctx->method) {						\
	case CB_PAOLONI:						\
		return __CB_SAMPLE_LOOP(ctx, CB_PAOLONI, cb_body_##name()); \
	case CB_LFENCE:							\
		return __CB_SAMPLE_LOOP(ctx, CB_LFENCE, cb_body_##name()); \
	case CB_PAOLONI_NORDTSCP:					\
		return __CB_SAMPLE_LOOP(ctx, CB_PAOLONI_NORDTSCP,	\
					cb_body_##name());		\
	case CB_LFENCE_NORDTSCP:					\
		return __CB_SAMPLE_LOOP(ctx, CB_LFENCE_NORDTSCP,	\
					cb_body_##name());		\
	default:	/* never guess: a wrong guess could run RDTSCP */	\
		return -EINVAL;						\
	}								\
}									\
static __always_inline void cb_body_##name(void)

/**
 * struct cb_fragment - one measured code fragment.
 * @name: name within its group; [a-z0-9_], unique in the group.
 * @desc: one line saying what it measures.
 * @ops: operations one run of the body performs, so results can be shown
 *	per operation (4 for four adds).
 * @sample: the sampler CB_BODY() generated.
 * @slow: not run by "all", only when its group or its name is asked for;
 *	for fragments whose samples take milliseconds.
 *
 * Tables of fragments are const; results live in the core.
 *
 * Example:
 *
 *	static const struct cb_fragment alu_fragments[] = {
 *		CB_FRAGMENT(add_dep, 4, "4 dependent adds (latency chain)"),
 *	};
 */
struct cb_fragment {
	const char *name;
	const char *desc;
	unsigned int ops;
	int (*sample)(struct cb_ctx *ctx);
	bool slow;
};

/* The initializer both table macros share. */
#define __CB_FRAGMENT(_name, _ops, _desc, _slow)			\
	{								\
		.name = #_name,						\
		.desc = _desc,						\
		.ops = _ops,						\
		.sample = cb_sample_##_name,				\
		.slow = _slow,						\
	}

/**
 * CB_FRAGMENT() - a table entry for the fragment whose body is CB_BODY(@_name).
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_desc: one-line description.
 */
#define CB_FRAGMENT(_name, _ops, _desc)					\
	__CB_FRAGMENT(_name, _ops, _desc, false)

/**
 * CB_FRAGMENT_SLOW() - like CB_FRAGMENT(), for a fragment that "all" skips.
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_desc: one-line description.
 *
 * For bodies that take milliseconds: a default run of every fragment
 * should stay quick.  Asking for the group or for group:name runs it.
 */
#define CB_FRAGMENT_SLOW(_name, _ops, _desc)				\
	__CB_FRAGMENT(_name, _ops, _desc, true)

/**
 * struct cb_group - a file's table of fragments.
 * @name: the group name, the first half of "group:name".
 * @fragments: the table.
 * @count: its length.
 *
 * Example (the last lines of kmod/fragments/alu.c, with
 * CB_GROUP_ENTRY(alu) in kmod/groups.h):
 *
 *	static const struct cb_fragment alu_fragments[] = {
 *		CB_FRAGMENT(add_dep, 4, "4 dependent adds (latency chain)"),
 *	};
 *
 *	CB_GROUP(alu, alu_fragments);
 */
struct cb_group {
	const char *name;
	const struct cb_fragment *fragments;
	unsigned int count;
};

/**
 * CB_GROUP() - declare a file's table as group @_name.
 * @_name: the group name; also add CB_GROUP_ENTRY(@_name) to kmod/groups.h.
 * @_table: the const array of CB_FRAGMENT() entries.
 */
#define CB_GROUP(_name, _table)						\
	const struct cb_group cb_group_##_name = {			\
		.name = #_name,						\
		.fragments = _table,					\
		.count = sizeof(_table) / sizeof((_table)[0]) +		\
			 __must_be_array(_table),			\
	}

/* Declares every group in groups.h, as one comma-separated declaration. */
#define CB_GROUP_ENTRY(_name) cb_group_##_name,
extern const struct cb_group
#include "groups.h"
	cb_group_end_of_list;
#undef CB_GROUP_ENTRY

#endif /* CYCLEBENCH_H */
