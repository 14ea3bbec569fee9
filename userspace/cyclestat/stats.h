/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - figures from samples: exact fractions, medians, ensembles and
 * histograms (stats.c), the per-op cost and t intervals (infer.c), the
 * rank tests and Hodges-Lehmann shifts (ranks.c).
 *
 * Above counts.h, and includes only it: nothing here reads a file or
 * prints.
 */
#ifndef CS_STATS_H
#define CS_STATS_H

#include "counts.h"

/* stats.c */
int cs_cmp_ld(const void *a, const void *b);
long double cs_median_ld(long double *v, size_t n);
struct cs_q cs_counts_median(const struct cs_counts *c);
int cs_q_cmp(struct cs_q a, struct cs_q b);
struct cs_q cs_q_sub(struct cs_q a, struct cs_q b);
struct cs_q cs_q_add(struct cs_q a, struct cs_q b);
struct cs_q cs_q_div(struct cs_q a, uint64_t k);
struct cs_q cs_q_int(s128 v);
long double cs_q_ld(struct cs_q q);
int cs_ensembles(const uint64_t *v, uint64_t count, uint64_t size, struct cs_ens *e);
void cs_ens_free(struct cs_ens *e);
int cs_ensemble_one(const struct cs_counts *c, const struct cs_figs *f, uint64_t step,
		    struct cs_ens *e);
struct cs_q cs_core_of(const struct cs_counts *c, uint64_t step);
void cs_figures_of(const struct cs_counts *c, struct cs_figs *f);
void cs_histogram_of(const struct cs_counts *c, const struct cs_figs *f, uint64_t step,
		     struct cs_hist *h);
uint64_t cs_step_of(const struct cs_counts *c);
void cs_far_of(const struct cs_counts *c, struct cs_figs *f, uint64_t step);

/* infer.c */
int cs_ens_aggs(const uint64_t *v, uint64_t count, uint64_t size, uint64_t step, u128 *med2,
		uint64_t *min, struct cs_q *core);
double cs_t_quantile(double q, double df);
int cs_perop(const struct cs_q *core_s, const uint64_t *min_s, const struct cs_q *core_l,
	     const uint64_t *min_l, uint64_t n, uint64_t r, uint64_t ops,
	     struct cs_perop *p);
void cs_mean_ci(const long double *x, uint64_t n, long double *mean, long double *lo,
		long double *hi);
void cs_median_ci(long double *x, uint64_t n, long double *med, long double *lo,
		  long double *hi);
/* Student's t on two samples' means: the difference, its half-width, pooled s */
struct cs_tdiff {
	long double base;	/* BASE's mean */
	long double d, half;	/* NEW's mean less BASE's, its 95 % half-width */
	long double s;		/* the pooled standard deviation */
	int proven;		/* |d| > half */
};
int cs_student_t(const struct cs_figs *x, const struct cs_figs *y, struct cs_tdiff *r);
long double cs_est_half(const struct cs_est *e);
long double cs_perop_half(const struct cs_perop *p);
/* ticks per core cycle, where that means something: 0 under an emulator */
long double cs_core_calib(const struct cs_frag *fr);
const struct cs_q *cs_shift_of(const struct cs_input *in, const struct cs_frag *fr);
/* what a fragment's figures are shown in: enum cs_unit, cs_unit_name() */
enum cs_unit { CS_UNIT_TICKS, CS_UNIT_CORE, CS_UNIT_EMULATED };
/* a fragment's headline per-op cost: its basis, its figure in ticks, and in its unit */
struct cs_cost {
	enum cs_basis basis;
	const struct cs_est *est;	/* in ticks */
	enum cs_unit unit;
	long double scale;		/* ticks per unit: cs_core_calib(), or 1 */
	long double v, lo, hi;		/* est in the unit */
};
struct cs_cost cs_cost_of(const struct cs_frag *fr);
const char *cs_unit_name(enum cs_unit u);

/* ranks.c */
int cs_two_sample(const long double *x, size_t n, const long double *y, size_t m,
		  double conf, struct cs_shift *r);
unsigned int cs_min_reps(double alpha);
int cs_paired(const long double *d, size_t n, double conf, struct cs_shift *r);
unsigned int cs_min_pairs(double alpha);
/* z with P(Z > z) = q (P(|Z| > z) = p: cs_z_upper(p / 2)) */
double cs_z_upper(double q);

#endif /* CS_STATS_H */
