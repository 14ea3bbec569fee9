/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - what compare.c decides and compare_print.c prints: one row per
 * fragment; comparable.c checks the runs are comparable; ab.c asks compare.c
 * for its time rows; gate.c holds what compare and ab share as a gate (what
 * NEW's runs hold, the exit status). Private to the five.
 */
#ifndef CS_COMPARE_H
#define CS_COMPARE_H

#include "model.h"

/* the level every interval of compare aims at; each says the level it has */
#define CONF 0.95

struct side {
	char **path;
	size_t n;
	struct cs_input *in;
};

struct cmp {
	const char *name;
	enum cs_basis basis;	/* CS_BASIS_NONE: not compared */
	const char *reps;	/* runs, ensembles */
	int cal;		/* in core cycles: each run's ticks over its calib:add_chain */
	int emul;		/* ... of an emulated clock: calib:add_chain adds, not cycles */
	size_t nb, nn;
	size_t runs_b, runs_n;	/* the runs compared (--paired: whole pairs): those with the row */
	long double mb, mn;	/* median of the repetitions' figures */
	long double step;	/* the clock's step in the unit of t (the line from a BASE median of 0) */
	double change, lo, hi;	/* relative; NaN when not compared */
	struct cs_shift t;
	const char *verdict;
	char reason[96];
	int fails, smi;
	int incomplete;		/* runs lack the row, and those that have it cannot decide: exit 2 */
	unsigned int need;	/* the fewest repetitions a side that can decide */
	long double quant;	/* one clock step over |BASE's median|: the interval's floor (0: none) */
	int locked;		/* the step, not the spread, sets the interval (medians on a step) */
	double width;		/* the interval's width before the step's floor (relative) */
	double p_adj;		/* Holm's p over the comparison's rows (cs_cmp_family); NaN: none */
	double mdc;		/* the smallest change it can call slower or faster; NaN: no
				 * interval, or from 0; INFINITY: no p these runs give passes */
	unsigned int need10;	/* repetitions a side that might see 10 %: 0 it does; UINT_MAX never */
};

void cs_cmp_family(const struct cs_opts *o, struct cmp *c, size_t n);
void cs_cmp_row(const struct cs_opts *o, struct side *s, const char *name, struct cmp *c);
void cs_say_lacking(const struct cs_opts *o, const struct side s[2], const char *name,
		    int stale_lacks, int error, const char *why);
void cs_say_row_lacking(const struct cs_opts *o, const struct side s[2], const struct cmp *c);
int cs_cmp_mismatches(const struct cs_opts *o, const struct side *s);
int cs_sides_load(struct side s[2], struct cs_err *err);
const char **cs_side_names(const struct cs_opts *o, const struct side s[2], int any, size_t *n,
			   size_t *na);
void cs_sides_free(struct side s[2]);
void cs_print_cmp(const struct cs_opts *o, const struct side *s, struct cmp *c, size_t n,
		  unsigned int need);

/* gate.c: what compare and ab share as a gate */
const struct cs_frag *cs_gate_find(const struct cs_input *in, const char *name, int any);
const char *cs_gate_lost(const struct side *nw, const char *name, int any);
int cs_gate_row(const struct cmp *c);
int cs_gate_worse(int a, int b);

#endif /* CS_COMPARE_H */
