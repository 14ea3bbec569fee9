/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cyclebench fragment API: the one header a fragment author includes.
 *
 * A fragment is a body and one line in its group's table:
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
 * A fragment that needs memory, state or a size sweep adds a setup, a
 * teardown and an argument list (see CB_BODY_STATE() and struct
 * cb_fragment).  A new group is a new file in kmod/fragments/ plus its name
 * in kmod/fragments/groups.mk.  The same files build the userspace runner
 * (userspace/runner/) when groups.mk lists their group as portable: such a file
 * includes nothing but this header.
 */
#ifndef CYCLEBENCH_H
#define CYCLEBENCH_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/vmalloc.h>
#else
#include "portable.h"	/* the same names, outside the kernel */
#endif

#include "timing.h"

/*
 * Copies of the body in the long region.  The cycles file times one copy,
 * cycles_long CB_LONG_REPEAT copies back to back, sample by sample; their
 * difference removes the timing overhead: per op,
 * (long - short) / ((CB_LONG_REPEAT - 1) * ops).
 */
#ifndef CB_LONG_REPEAT
#define CB_LONG_REPEAT 16
#endif

/**
 * struct cb_env - what setup, teardown and a stateful body share.
 * @arg: the argument of this result (0 for a fragment without arguments).
 * @ops: operations per run of the body (the table's, or @arg with
 *	.ops_is_arg).
 * @cpu: the CPU the run executes on (a .per_cpu state's: its own CPU).
 * @rank: a .per_cpu state's place among the CPUs of a cpus= run (0: the
 *	first, the run's cpu); 0 otherwise.
 * @nr_cpus: the CPUs that run the body at once (1 without cpus=).
 * @state: the fragment's state, sizeof the type given to CB_BODY_STATE(),
 *	zeroed before the first setup, freed by the core after teardown.
 */
struct cb_env {
	u64 arg;
	u32 ops;
	unsigned int cpu;
	unsigned int rank;
	unsigned int nr_cpus;
	void *state;
};

#include "harness.h"	/* what CB_BODY() expands to: the core's, not the author's */

/**
 * CB_BODY() - define the body of fragment @name.
 * @name: the fragment's name, a C identifier.
 *
 * Follow it with the body in braces.  The body runs with preemption and
 * interrupts off: it must not sleep, print or fault, and must not touch
 * FPU/SIMD state.  It may call kernel functions that are safe with
 * interrupts off (a spinlock_t sleeps on PREEMPT_RT: set .sleeps_on_rt),
 * and allocate with GFP_ATOMIC or GFP_NOWAIT if it frees in the same body
 * (and sets .sleeps_on_rt: the slab allocator's locks sleep there).
 * Keep C code in the region with CB_OPAQUE() on its inputs and results; a
 * result nobody reads is deleted, an input the compiler can see is
 * computed once, before the loop, and a body of constants is computed at
 * build time (the object-code check refuses it as "folded to a constant").
 * Its asm may clobber any general-purpose register but %r15, %rbp and
 * %rsp: the harness keeps the state pointer in %r15, and a body that
 * clobbers it makes the compiler save and restore it inside the timed
 * window (the check names the clobber).
 *
 * It also defines cb_sample_@name(), the fragment's sampler (the body
 * inlined into one sampling loop per method), and cb_bodyref_@name(), the
 * body alone, which the object-code check compares the regions with.
 *
 * Example:
 *
 *	CB_BODY(nop)
 *	{
 *		asm volatile("nop");
 *	}
 */
#define CB_BODY(name)							\
static __always_inline void cb_body__##name(void *st);			\
enum { cb_size_##name = 0 };						\
__CB_SAMPLER(name)							\
static __always_inline void cb_body__##name(__maybe_unused void *st)

/**
 * CB_BODY_STATE() - define the body of a fragment with state.
 * @name: the fragment's name, a C identifier.
 * @type: the state's type; the core allocates one, zeroed, per run.
 *
 * Setup fills the state (env->state, a @type *) outside the timed region;
 * the body reads it through the pointer st (a @type *).
 *
 * Example:
 *
 *	struct loop_state { unsigned long n; };
 *
 *	CB_BODY_STATE(dec_jnz, struct loop_state)
 *	{
 *		unsigned long n = st->n;
 *
 *		asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n));
 *	}
 */
#define CB_BODY_STATE(name, type)					\
static __always_inline void cb_state_##name(typeof(type) *st);			\
static __always_inline void cb_body__##name(void *st)			\
{									\
	cb_state_##name(st);						\
}									\
enum { cb_size_##name = sizeof(type) };					\
__CB_SAMPLER(name)							\
static __always_inline void cb_state_##name(typeof(type) *st)

/**
 * CB_OPAQUE() - make @x opaque to the optimiser, in place.
 * @x: an lvalue that fits a register: a body's input or result.
 *
 * A volatile asm that may change @x: the compiler can neither compute what
 * follows from @x ahead of time (hoisting it out of the sampling loop) nor
 * drop what produced @x.  On a local, which lives in a register, it costs
 * no instruction; on an lvalue in memory (a state field, a global) it
 * costs a load before and a store after, which are then timed too.
 * OPTIMIZER_HIDE_VAR() is not volatile: a body whose result is unused is
 * deleted with it.
 */
#define CB_OPAQUE(x)	({ asm volatile("" : "+r" (x)); })

/**
 * struct cb_fragment - one measured code fragment.
 * @name: name within its group; [a-z0-9_], unique in the group.
 * @desc: one line saying what it measures (and, with arguments, what ARG is).
 * @ops: operations one run of the body performs, so results can be shown
 *	per operation (4 for four adds).
 * @unit: what one of those operations is, singular ("add", "byte",
 *	"iteration"), which the result's info and cyclestat's per-op
 *	column say; NULL: CB_UNIT_DEFAULT, "op".
 * @sample: the sampler CB_BODY() generated.
 * @state_size: size of the state CB_BODY_STATE() declared (0 for none).
 * @slow: not run by "all", only when its group or its name is asked for.
 * @no_long: do not time the long region (a body whose copies would hold
 *	interrupts off too long, or for which a repeat means nothing).
 * @setup_each_ensemble: run setup (and teardown) around every ensemble
 *	rather than once per run: a new layout for each ensemble makes
 *	ensembles independent.
 * @sleeps_on_rt: takes a lock that sleeps on PREEMPT_RT; skipped there.
 * @arg_bytes: setup allocates about ARG bytes: counted against max_mb.
 * @ops_is_arg: a run of the body performs ARG operations (bytes copied,
 *	loop iterations), not @ops; at least 1.
 * @insns: the instructions one run of the body executes, where the author
 *	knows them (0: not declared); with @insns_per_arg, @insns +
 *	@insns_per_arg x ARG.  The result's info says it, and under QEMU's
 *	icount (where the TSC counts instructions) tests/e2e/icount.sh
 *	requires long - short = (long_repeat - 1) x that in every sample:
 *	the per-op figure is then exactly @insns / ops.
 * @insns_per_arg: the instructions each unit of ARG adds.
 * @arg_is_loop: each unit of ARG costs at least one iteration of a
 *	dec/jnz loop: a run whose ARG could not fit max_sample_us at the
 *	speed such a loop has when the run is asked for is refused then
 *	(-ETIME), before anything runs.
 * @per_cpu: run on several CPUs at once (cpus=), each CPU gets a state
 *	and a setup of its own (env->cpu is that CPU; in the module the
 *	other CPUs' are set up and torn down in each ensemble, on that CPU);
 *	without it, one state and setup all the CPUs share.  On one CPU the
 *	two are the same.
 * @args: the default argument list, or NULL; one result per value, named
 *	group:name/ARG.
 * @arg_min: the smallest argument a run may name.
 * @arg_max: the largest (0: no limit but max_mb).
 * @nr_args: its length.
 * @setup: optional; process context on the run's CPU, interrupts on, may
 *	sleep and allocate; a non-zero return (-ENOMEM, ...) fails the run.
 * @teardown: optional; undoes a successful setup.
 *
 * The body runs with preemption and interrupts off: see CB_BODY().
 * Tables are const; results live in the core.
 *
 * Example (a stateful body swept over sizes):
 *
 *	static const u64 chase_sizes[] = { 4096, 65536, 1048576 };
 *
 *	static const struct cb_fragment mem_fragments[] = {
 *		{
 *			CB_FRAGMENT_FIELDS(chase, 64, "64 dependent loads, ARG bytes"),
 *			.setup = chase_setup,
 *			.teardown = chase_teardown,
 *			CB_ARGS(chase_sizes),
 *			.arg_bytes = true,
 *		},
 *	};
 */
struct cb_fragment {
	const char *name;
	const char *desc;
	unsigned int ops;
	const char *unit;
	int (*sample)(struct cb_ctx *ctx);
	size_t state_size;
	bool slow;
	bool no_long;
	bool setup_each_ensemble;
	bool sleeps_on_rt;
	bool arg_bytes;
	bool ops_is_arg;
	bool arg_is_loop;
	bool per_cpu;
	unsigned int insns;
	unsigned int insns_per_arg;
	const u64 *args;
	unsigned int nr_args;
	u64 arg_min;
	u64 arg_max;
	int (*setup)(struct cb_env *env);
	void (*teardown)(struct cb_env *env);
};

/**
 * CB_FRAGMENT_FIELDS() - the fields every table entry has, for an entry
 *	written out with designated initialisers.
 * @_name: the same identifier as in CB_BODY() or CB_BODY_STATE().
 * @_ops: operations per run of the body.
 * @_desc: one-line description.
 */
#define CB_FRAGMENT_FIELDS(_name, _ops, _desc)				\
	.name = #_name,							\
	.desc = _desc,							\
	.ops = _ops,							\
	.sample = cb_sample_##_name,					\
	.state_size = cb_size_##_name

/**
 * CB_ARGS() - the argument list of a table entry.
 * @_array: a const u64 array, declared where the table can see its length:
 *	a pointer does not compile (__must_be_array(), as in ARRAY_SIZE()),
 *	where sizeof would silently give one argument.
 */
#define CB_ARGS(_array)							\
	.args = _array,							\
	.nr_args = sizeof(_array) / sizeof((_array)[0]) +		\
		   __must_be_array(_array)

/**
 * CB_FRAGMENT() - a table entry for the fragment whose body is CB_BODY(@_name).
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_desc: one-line description.
 */
#define CB_FRAGMENT(_name, _ops, _desc)					\
	{ CB_FRAGMENT_FIELDS(_name, _ops, _desc) }

/**
 * CB_FRAGMENT_UNIT() - CB_FRAGMENT() with the unit of its ops named.
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_unit: what one operation is, singular: "add", "byte", "load".
 * @_desc: one-line description.
 *
 * An entry written out with CB_FRAGMENT_FIELDS() names it as .unit.
 */
#define CB_FRAGMENT_UNIT(_name, _ops, _unit, _desc)			\
	{ CB_FRAGMENT_FIELDS(_name, _ops, _desc), .unit = (_unit) }

/**
 * CB_FRAGMENT_INSNS() - a table entry that also declares the instructions
 *	one run of the body executes (@insns in struct cb_fragment).
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_insns: instructions per run of the body.
 * @_desc: one-line description.
 */
#define CB_FRAGMENT_INSNS(_name, _ops, _insns, _desc)			\
	{ CB_FRAGMENT_FIELDS(_name, _ops, _desc), .insns = (_insns) }

/**
 * CB_FRAGMENT_INSNS_UNIT() - CB_FRAGMENT_INSNS() with the unit of its
 *	ops named, as CB_FRAGMENT_UNIT().
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_unit: what one operation is, singular.
 * @_insns: instructions per run of the body.
 * @_desc: one-line description.
 */
#define CB_FRAGMENT_INSNS_UNIT(_name, _ops, _unit, _insns, _desc)	\
	{ CB_FRAGMENT_FIELDS(_name, _ops, _desc), .unit = (_unit), .insns = (_insns) }

/**
 * CB_FRAGMENT_SLOW() - like CB_FRAGMENT(), for a fragment that "all" skips.
 * @_name: the same identifier as in CB_BODY().
 * @_ops: operations per run of the body.
 * @_desc: one-line description.
 *
 * For bodies that take milliseconds: a default run of every fragment
 * should stay quick.  Asking for the group or for group:name runs it.
 * Such a body is timed once per sample (no long region).
 */
#define CB_FRAGMENT_SLOW(_name, _ops, _desc)				\
	{ CB_FRAGMENT_FIELDS(_name, _ops, _desc), .slow = true, .no_long = true }

/**
 * struct cb_group - a file's table of fragments.
 * @name: the group name, the first half of "group:name".
 * @fragments: the table.
 * @count: its length.
 *
 * Example (the last lines of kmod/fragments/alu.c, with alu in CB_GROUPS
 * and CB_PORTABLE_GROUPS in kmod/fragments/groups.mk):
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
 * @_name: the group name, the file's name; add it to CB_GROUPS in
 *	kmod/fragments/groups.mk, and to CB_PORTABLE_GROUPS there when the
 *	file needs no kernel (then cyclebench-user runs it too).
 * @_table: the const array of CB_FRAGMENT() entries.
 */
/*
 * Every group's table, declared where each is defined (sparse) and where
 * the list is read; CB_GROUP_LIST comes from kmod/fragments/groups.mk.
 */
#ifdef CB_GROUP_LIST
#define CB_G_DECL(_name, _) cb_group_##_name,
#define CB_ALL_GROUP_TABLES CB_GROUP_LIST(CB_G_DECL, CB_G_DECL, 0)
extern const struct cb_group CB_ALL_GROUP_TABLES cb_group_end_of_list;
#endif

#define CB_GROUP(_name, _table)						\
	const struct cb_group cb_group_##_name = {			\
		.name = #_name,						\
		.fragments = _table,					\
		.count = sizeof(_table) / sizeof((_table)[0]),		\
	}

#ifdef __KERNEL__
/*
 * What a portable setup may call; include/cyclebench/portable.h
 * defines the same.  Allocations are vmalloc'ed, NOWARN: a failure is an
 * error code, not a splat.
 */
static inline void *cb_alloc(size_t size)
{
	return __vmalloc(size, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
			 __GFP_RETRY_MAYFAIL);
}

static inline void cb_free(void *p)
{
	vfree(p);
}

/* A long setup loop calls this now and then. */
static inline void cb_yield(void)
{
	cond_resched();
}

u64 cb_random_u64(void);
#endif

#endif /* CYCLEBENCH_H */
