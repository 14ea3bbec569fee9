/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - what the parts of cyclebench-user share.
 *
 *	main.c (options, selection) -> engine.c (the run) -> tree.c (output)
 *	main.c -> c2c.c (--c2c: the core-to-core matrix) -> tree.c
 *	machine.c (CPUID, TSC frequency, CPUs) is read by all three.
 */
#ifndef CB_RUNNER_H
#define CB_RUNNER_H

#include <stdio.h>

#include "cyclebench.h"
#include "grammar.h"	/* the request's parser, shared with the module */
#include "lifecycle.h"	/* an entry's life in a run, likewise */
#include "info.h"	/* a result's info, likewise */

/*
 * The portable groups, linked in from kmod/fragments/ (groups.c), once per
 * long-region length: cb_user_variants[k] at cb_repeats[k] copies, in the
 * same order; cb_user_groups is cb_user_variants[0], the shortest.
 */
#define __CB_ONE_REPEAT(r) + 1
#define CB_NR_REPEATS (0 CB_LONG_REPEAT_LIST(__CB_ONE_REPEAT))
extern const unsigned int cb_repeats[CB_NR_REPEATS];
extern const struct cb_group *const *const cb_user_variants[CB_NR_REPEATS];
#define cb_user_groups (cb_user_variants[0])
extern const unsigned int cb_nr_user_groups;
/* Groups the module has that need the kernel: names only. */
extern const char *const cb_kernel_groups[];

struct cb_machine {
	char kernel[128];
	char vendor[16];
	unsigned int family, model, stepping;
	char model_name[64];
	unsigned int tsc_khz;
	int tsc_khz_calibrated;
	unsigned int tsc_step;	/* the TSC's granularity: cb_tsc_step_of(), timing.h */
	int constant_tsc, nonstop_tsc, rdtscp, hypervisor, smt_active;
	char hypervisor_vendor[16];	/* CPUID 0x40000000's signature, or none */
};

/* One result: a fragment, or one argument of it. */
struct cb_user_result {
	const struct cb_group *group;
	const struct cb_fragment *frag;
	unsigned int gi, fi;		/* group and table index */
	unsigned int repeat;		/* long-region copies used, 0: none */
	u64 arg;
	u32 ops;
	enum cb_state state;
	int err;
	u64 *cycles;
	u64 *cycles_long;
	u64 page_size;			/* cb_alloc_huge()'s pages, 0: none */
	/* cpus=: each CPU's samples, [0] the first CPU's (= cycles) */
	u64 **pc_cycles;
	u64 **pc_cycles_long;
	u64 **release;			/* when each CPU left the barrier */
	unsigned int **round;		/* and at which meeting */
	u64 spread;			/* their median spread, TSC ticks */
	u64 in_step;			/* samples all CPUs took at one meeting */
	const char *huge_pages;		/* "thp" or "hugetlb": how */
};

/* The run: the request (SELECTION key=value ..., lib/grammar.c) and the command line. */
struct cb_run {
	struct cb_user_result res[CB_MAX_SLOTS];
	unsigned int nr;
	u32 samples, ensembles, warmup;
	enum cb_method method_requested, method;
	unsigned int cpu;		/* the first of cpus= */
	unsigned int nr_cpus;		/* cpus=: the CPUs run at once, 0: cpu alone */
	unsigned int cpu_of[CB_MAX_CPUS];
	unsigned int max_mb;
	unsigned int long_repeat;	/* 0: auto, per result */
	int interleave;			/* ensembles round the results */
	const char *selection;
	const char *out;
	int quiet;
	int tty;
};

/* machine.c */
int cb_machine_read(struct cb_machine *m);
int cb_cpu_usable(unsigned int cpu, char *why, size_t len);
void cb_spin_warm(unsigned int ms);

/* engine.c */
extern volatile int cb_stop_requested;
void cb_catch_signals(void);
int cb_run_all(struct cb_run *req, const struct cb_machine *m);
void cb_results_reset(struct cb_run *req, unsigned int k);

/* c2c.c */
int cb_c2c(struct cb_run *req);
int cb_c2c_print(const struct cb_run *req, const struct cb_machine *m, FILE *out);
int cb_c2c_note(const struct cb_run *req);
struct cb_sink cb_sink_of(FILE *f);

/* tree.c */
int cb_is_tree(const char *dir);
int cb_write_tree(const struct cb_run *req, const struct cb_machine *m);
int cb_sweep_begin(const char *out, char **tmp);
int cb_sweep_end(char *tmp, const struct cb_run *req, const struct cb_machine *m,
		 const unsigned int *steps, unsigned int nsteps, int ok);

#endif /* CB_RUNNER_H */
