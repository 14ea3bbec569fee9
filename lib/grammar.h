/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grammar.h - the run request's parser (grammar.c), one for the module and
 * cyclebench-user: "SELECTION [key=value ...]" against a side's catalog of
 * fragments into a struct cb_req, or an error code and the reason.
 */
#ifndef CYCLEBENCH_GRAMMAR_H
#define CYCLEBENCH_GRAMMAR_H

#include "cyclebench.h"
#include "contract.h"

/**
 * struct cb_req - one run: what to measure and how.
 * @frag: for each entry, the fragment (table order, then argument order).
 * @group: for each entry, its group's index in the catalog.
 * @arg: for each entry, the argument (0 for a fragment without).
 * @nr: entries.
 * @samples: samples per ensemble.
 * @ensembles: ensembles.
 * @warmup: warm-up samples.
 * @method: method requested.
 * @cpu: CPU to run on.
 * @interleave: ensemble by ensemble across the entries, not entry by entry.
 * @pmu: the module: read the hardware counters where there are some.
 * @max_mb: the most the run's arrays and buffers may take, in MiB (the
 *	module's comes from its parameter); default arguments over half of
 *	it are left out of a selection.
 * @long_repeat: cyclebench-user: copies in the long region, 0: auto.
 * @references: cyclebench-user: base:empty and calib:add_chain run too.
 * @sweep_cpus: cyclebench-user: the run on the first 1, 2, 4 ... CPUs of
 *	@cpus in turn, then on all of them (sweep=cpus).
 * @given: bit CB_KEY_x set where the request named key x.
 * @slot: the module's engine: each entry's result slot (the runner's
 *	results are its own).
 *
 * The caller sets the keys' defaults, cb_req_parse() what the request says.
 */
struct cb_req {
	const struct cb_fragment *frag[CB_MAX_SLOTS];
	unsigned short group[CB_MAX_SLOTS];
	u64 arg[CB_MAX_SLOTS];
	unsigned int nr;
	u32 samples;
	u32 ensembles;
	u32 warmup;
	enum cb_method method;
	unsigned int cpu;
	u64 cpus;
	bool interleave;
	bool pmu;
	u32 max_mb;
	u32 long_repeat;
	bool references;
	bool sweep_cpus;
	unsigned int given;
	unsigned int slot[CB_MAX_SLOTS];
};

/**
 * struct cb_catalog - what one side runs, and how it says so.
 * @groups: the fragment groups, in table order.
 * @nr_groups: how many.
 * @elsewhere: names of groups only the other side runs, NULL-terminated
 *	(or NULL): the runner's kernel-only groups, refused by name.
 * @side: CB_SIDE_MODULE or CB_SIDE_RUNNER: which keys are taken.
 * @list_hint: where the names are listed, for "no fragment" messages.
 * @cpu_ok: whether cpu=N may be asked for here; NULL: any number (the
 *	caller checks it later).
 */
struct cb_catalog {
	const struct cb_group *const *groups;
	unsigned int nr_groups;
	const char *const *elsewhere;
	unsigned int side;
	const char *list_hint;
	bool (*cpu_ok)(unsigned int cpu);
};

int cb_req_parse(char *cmd, const struct cb_catalog *cat, struct cb_req *req,
		 char *why, size_t len);
int cb_req_select(char *spec, const u64 *args, unsigned int nr_args,
		  const struct cb_catalog *cat, struct cb_req *req,
		  char *why, size_t len);
bool cb_default_arg_fits(const struct cb_fragment *frag, u64 arg,
			 unsigned int max_mb);
const char *cb_method_name(enum cb_method m);
int cb_method_parse(const char *s, enum cb_method *m);

/* A key's words, for a message; NULL for a number (struct cb_key_def). */
const char *cb_key_help(enum cb_run_key k);

/*
 * Why a value was refused, the same for a run request and a module
 * parameter: key, value, then the range or cb_key_help()'s words.
 */
#define CB_WHY_RANGE "%s=%.32s: not a number in %u..%u"
#define CB_WHY_WORD "%s=%.32s: not a valid value (%s)"

#endif /* CYCLEBENCH_GRAMMAR_H */
