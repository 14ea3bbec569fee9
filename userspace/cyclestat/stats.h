/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - figures from samples: the value -> count table (counts.c),
 * exact fractions, medians, ensembles and histograms (stats.c), the
 * per-op cost and t intervals (infer.c), the rank tests and
 * Hodges-Lehmann shifts (ranks.c).
 *
 * Above model.h, and includes only it: nothing here reads a file or
 * prints.
 */
#ifndef CS_STATS_H
#define CS_STATS_H

#include "model.h"

/* A value -> count hash table filled while reading (counts.c). */
struct cs_slot {
	uint64_t key, cnt;	/* cnt 0: empty */
};

struct cs_tally {
	struct cs_slot *slot;
	size_t mask;		/* slots - 1 */
	unsigned int shift;	/* 64 - log2(slots) */
	size_t used;
	/* a value not in the table yet (cs_tally_add() said so): counts.c's */
	int (*insert)(struct cs_samples *s, uint64_t v);
};

/*
 * A distribution as a sorted table: v[i] ascending, c[i] samples equal to
 * v[i], rank[i] samples below it. c and rank NULL: v is every sample
 * sorted, each counting once (too many distinct values to count).
 */
struct cs_counts {
	const uint64_t *v, *c, *rank;
	size_t len;		/* entries */
	uint64_t n;		/* samples */
	uint64_t *mem;		/* v, c and rank, when counted */
	struct cs_samples own;	/* v, when not */
};

/* counts.c */
#define CS_TALLY_MUL 0x9e3779b97f4a7c15ull	/* Fibonacci hashing: 2^64 / golden ratio */
int cs_tally_init(struct cs_tally *t);
void cs_tally_free(struct cs_tally *t);
int cs_counts_take(struct cs_samples *s, struct cs_counts *out);
int cs_counts_of(const uint64_t *v, size_t n, struct cs_counts *out);
size_t cs_counts_find(const struct cs_counts *c, uint64_t k);
uint64_t cs_counts_at(const struct cs_counts *c, uint64_t k);
void cs_counts_free(struct cs_counts *c);
void cs_sort(uint64_t *a, size_t n);

/*
 * One more sample of a tallied value: 0 when v was in the table (counted),
 * 1 when it is new (t->insert counts it). Inline: the parser calls it
 * once per sample.
 */
static inline int cs_tally_add(struct cs_tally *t, uint64_t v)
{
	size_t i = (size_t)((v * CS_TALLY_MUL) >> t->shift);

	for (;; i = (i + 1) & t->mask) {
		struct cs_slot *sl = &t->slot[i];

		if (!sl->cnt)
			return 1;
		if (sl->key == v) {
			sl->cnt++;
			return 0;
		}
	}
}

/* stats.c */
int cs_cmp_ld(const void *a, const void *b);
int cs_q_cmp(struct cs_q a, struct cs_q b);
struct cs_q cs_q_sub(struct cs_q a, struct cs_q b);
struct cs_q cs_q_div(struct cs_q a, uint64_t k);
struct cs_q cs_q_int(s128 v);
long double cs_q_ld(struct cs_q q);
int cs_ensembles(const uint64_t *v, uint64_t count, uint64_t size, struct cs_ens *e);
void cs_ens_free(struct cs_ens *e);
int cs_ensemble_one(const struct cs_counts *c, const struct cs_figs *f, struct cs_ens *e);
void cs_figures_of(const struct cs_counts *c, struct cs_figs *f);
void cs_histogram_of(const struct cs_counts *c, const struct cs_figs *f, uint64_t step,
		     struct cs_hist *h);
uint64_t cs_step_of(const struct cs_counts *c);
void cs_far_of(const struct cs_counts *c, struct cs_figs *f, uint64_t step);
double cs_mannwhitney_of(const struct cs_counts *a, const struct cs_counts *b);

/* infer.c */
int cs_ens_aggs(const uint64_t *v, uint64_t count, uint64_t size, u128 *med2, uint64_t *min);
double cs_t_quantile(double q, double df);
int cs_perop(const u128 *med_s, const uint64_t *min_s, const u128 *med_l,
	     const uint64_t *min_l, uint64_t n, uint64_t r, uint64_t ops,
	     struct cs_perop *p);
void cs_mean_ci(const long double *x, uint64_t n, long double *mean, long double *lo,
		long double *hi);

/* ranks.c */
int cs_two_sample(const long double *x, size_t n, const long double *y, size_t m,
		  double conf, struct cs_shift *r);
unsigned int cs_min_reps(double alpha);
int cs_paired(const long double *d, size_t n, double conf, struct cs_shift *r);
unsigned int cs_min_pairs(double alpha);
int cs_shift_of_tables(const struct cs_counts *x, const struct cs_counts *y, double conf,
		       struct cs_shift *r);

#endif /* CS_STATS_H */
