/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info.h - the info files and a catalog line, written once (info.c)
 * for the module and cyclebench-user: each side fills a struct
 * cb_result_info with what it knows and hands a sink, seq_file's printf
 * in the module, stdio's in the runner.  The keys, their forms and who may
 * write which are contract-info.h's; tests/contract/contract.sh holds each
 * side's trees to that.
 */
#ifndef CYCLEBENCH_INFO_H
#define CYCLEBENCH_INFO_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/stdarg.h>
#include <linux/types.h>
#else
#include <stdarg.h>
#include <stdbool.h>
#endif

#include "cyclebench.h"
#include "contract.h"

/**
 * struct cb_sink - where the lines go.
 * @vprintf: seq_vprintf() or vfprintf(), as the side has it.
 * @to: its first argument.
 */
struct cb_sink {
	__printf(2, 0) void (*vprintf)(void *to, const char *fmt, va_list ap);
	void *to;
};

/**
 * struct cb_disturbed - the module's: what disturbed a result's samples.
 * @smi_valid: the SMI count was read (MSR_SMI_COUNT), before and after.
 * @smi_before: SMIs before the run.
 * @smi_after: and after it.
 * @flagged: samples with each flag bit set (CB_SAMPLE_*, by bit number).
 * @pmc_open: bit k: counter k (CB_PMC_NAMES) counted.
 * @pmc_why: for a counter that did not, why (NULL: not asked for).
 * @pmc_err: and its error, 0 for none.
 * @nmi_in: NMIs that arrived inside samples.
 * @nmi_out: and elsewhere in the run.
 * @retaken: samples taken again, over the time limit.
 */
struct cb_disturbed {
	bool smi_valid;
	u64 smi_before, smi_after;
	u64 flagged[CB_NR_SAMPLE_FLAGS];
	unsigned int pmc_open;
	const char *pmc_why[CB_NR_PMC];
	int pmc_err[CB_NR_PMC];
	u64 nmi_in, nmi_out, retaken;
};

/*
 * struct cb_tree_info - the top-level info, as its side knows it: the
 * keys of contract-info.h's TREE column, a field each.  A string NULL,
 * max_sample_us or nr_steps 0, or nr_cpus below 2: that key is not
 * written.
 */
struct cb_tree_info {
	const char *mode;		/* "kernel" or "user" */
	const char *interrupts;		/* the runner's: "on" */
	const char *kernel, *vendor;
	unsigned int family, model, stepping;
	const char *model_name;
	unsigned int tsc_khz;
	const char *tsc_khz_source;	/* the runner's: "calibrated" */
	unsigned int tsc_step;
	bool constant_tsc, nonstop_tsc, rdtscp, hypervisor;
	const char *hypervisor_vendor;
	bool smt_active;
	const char *method_requested, *method_used;
	const char *lfence;		/* the module's: what LFENCE orders here */
	unsigned int samples, ensembles, warmup, cpu;	/* the module's: its defaults */
	unsigned int nr_cpus;		/* the runner's cpus=: 2 and more writes @cpus */
	const unsigned int *cpus;
	unsigned int max_mb;
	unsigned int max_sample_us;	/* the module's */
	unsigned int long_repeat;	/* 0: each result its own, "auto" */
	bool interleave, has_interleave;	/* the runner's */
	const struct cb_tree_module *module;
	unsigned int nr_steps;		/* the runner's sweep=cpus: its steps */
	const unsigned int *steps;
};

/**
 * struct cb_tree_module - the module's own top-level keys.
 * @preempt_rt: the kernel is PREEMPT_RT.
 * @setup_calls: fragment setups run since load.
 * @teardown_calls: and teardowns.
 */
struct cb_tree_module {
	bool preempt_rt;
	unsigned int setup_calls, teardown_calls;
};

/**
 * struct cb_result_info - one result's info, as its side knows it.
 * @group: the fragment's group.
 * @frag: the fragment.
 * @has_arg: @frag takes an argument, @arg.
 * @arg: the argument.
 * @ops: operations a run of the body performs.
 * @insns: instructions a run of the body retires, 0: not said.
 * @page_size: the runner's: the page size of the fragment's memory, 0: none.
 * @huge_pages: and how it got huge pages ("thp", "hugetlb", both).
 * @state: the result's state.
 * @err: the error of a CB_STATE_FAILED run.
 * @reason: why a CB_STATE_SKIPPED fragment was skipped.
 * @measured: the run's keys follow (the rest below).
 * @run_id: which run of the module made it (1 in the runner).
 * @ensembles: ensembles.
 * @samples: samples an ensemble.
 * @warmup: warm-up samples.
 * @method: the timing method's name.
 * @cpu: the CPU it ran on (the first of @cpus).
 * @nr_cpus: CPUs of a cpus= run; 2 and more: the CPU scope's keys.
 * @cpus: those CPUs, in the order written.
 * @spread: the CPUs' median start spread, in ticks.
 * @in_step: samples every CPU took at the same meeting.
 * @interleave: ensemble by ensemble across the run's entries.
 * @tsc_khz: the TSC's rate.
 * @tsc_step: the runner's: the TSC's step, 0: not written here.
 * @long_repeat: copies in the long region, 0: there is none.
 * @dist: the module's disturbances; NULL: none of their keys.
 */
struct cb_result_info {
	const struct cb_group *group;
	const struct cb_fragment *frag;
	bool has_arg;
	u64 arg;
	unsigned int ops;
	u64 insns;
	u64 page_size;
	const char *huge_pages;
	enum cb_state state;
	int err;
	const char *reason;
	bool measured;
	u64 run_id;
	unsigned int ensembles, samples, warmup;
	const char *method;
	unsigned int cpu;
	unsigned int nr_cpus;
	const unsigned int *cpus;
	u64 spread, in_step;
	bool interleave;
	unsigned int tsc_khz, tsc_step, long_repeat;
	const struct cb_disturbed *dist;
};

void cb_info_name(const struct cb_sink *s, const struct cb_group *group,
		  const struct cb_fragment *frag, bool has_arg, u64 arg);
void cb_info_catalog_line(const struct cb_sink *s, const struct cb_group *group,
			  const struct cb_fragment *frag, bool has_arg, u64 arg,
			  unsigned int ops);
void cb_info_tree(const struct cb_sink *s, const struct cb_tree_info *ti);
void cb_info_result(const struct cb_sink *s, const struct cb_result_info *ri);
void cb_info_c2c_timestamps(const struct cb_sink *s, u64 ticks);

#endif /* CYCLEBENCH_INFO_H */
