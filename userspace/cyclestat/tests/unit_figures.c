// SPDX-License-Identifier: GPL-2.0
/*
 * unit_figures.c - hand-computed cases for every figure, the sort and the exact
 * rounding; unit_io.c has the parser, the inference and the machine
 * formats. figures.py checks the same figures on larger data against an
 * exact reference; this file is where a reader sees them worked out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "report.h"
#include "tap.h"
#include "arrays.h"

#define TOP 18446744073709551615ull

static char qbuf[8][64];
static int qi;

/* q with 3 decimals, in one of a few rotating buffers */
static const char *q3(struct cs_q q)
{
	qi = (qi + 1) % 8;
	return cs_fmt_q(qbuf[qi], sizeof(qbuf[qi]), q, 3);
}

static struct cs_figs figs_of(const uint64_t *src, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct cs_figs f;

	memcpy(v, src, n * sizeof(*v));
	cs_figures(v, n, &f);
	free(v);
	return f;
}

TEST(figures_of_odd_n)
{
	/* sorted 1 3 5 7 9: median 5; p25 at h = 1 -> 3; p1 at h = .04 -> 1.08 */
	static const uint64_t v[] = { 5, 1, 9, 3, 7 };
	struct cs_figs f = figs_of(v, 5);

	EXPECT_EQ_U64(f.n, 5);
	EXPECT_EQ_U64(f.min, 1);
	EXPECT_EQ_U64(f.max, 9);
	EXPECT_STREQ(q3(f.median), "5.000");
	EXPECT_STREQ(q3(f.mean), "5.000");
	EXPECT_STREQ(q3(f.p1), "1.080");
	EXPECT_STREQ(q3(f.p25), "3.000");
	EXPECT_STREQ(q3(f.p75), "7.000");
	EXPECT_STREQ(q3(f.p99), "8.920");
	EXPECT_STREQ(q3(f.mad), "2.000");	/* |dev| 0 2 2 4 4 */
	EXPECT_TRUE(fabsl(f.sd - sqrtl(10)) < 1e-15L);	/* 40 / 4 */
	EXPECT_EQ_U64(f.far, 0);
}

TEST(figures_of_even_n)
{
	/* 4 8 15 16 23 42: median (15 + 16) / 2; mean 108 / 6 = 18 */
	static const uint64_t v[] = { 42, 4, 23, 8, 16, 15 };
	struct cs_figs f = figs_of(v, 6);

	EXPECT_STREQ(q3(f.median), "15.500");
	EXPECT_STREQ(q3(f.mean), "18.000");
	EXPECT_STREQ(q3(f.p25), "9.750");	/* h = 1.25: 8 + .25 * 7 */
	EXPECT_STREQ(q3(f.p75), "21.250");	/* h = 3.75: 16 + .75 * 7 */
	/* |dev| from 15.5: 11.5 7.5 .5 .5 7.5 26.5 -> sorted .5 .5 7.5 7.5 ... */
	EXPECT_STREQ(q3(f.mad), "7.500");
}

TEST(figures_of_one_sample)
{
	static const uint64_t v[] = { 42 };
	struct cs_figs f = figs_of(v, 1);

	EXPECT_STREQ(q3(f.median), "42.000");
	EXPECT_STREQ(q3(f.p1), "42.000");
	EXPECT_STREQ(q3(f.p99), "42.000");
	EXPECT_STREQ(q3(f.hsm), "42.000");
	EXPECT_STREQ(q3(f.mad), "0.000");
	EXPECT_TRUE(isnan(f.sd));	/* numpy: std(ddof=1) of one value is nan */
}

TEST(figures_of_two_samples)
{
	static const uint64_t v[] = { 13, 10 };
	struct cs_figs f = figs_of(v, 2);

	EXPECT_STREQ(q3(f.median), "11.500");
	EXPECT_STREQ(q3(f.hsm), "11.500");
	EXPECT_STREQ(q3(f.p5), "10.150");
	EXPECT_STREQ(q3(f.mad), "1.500");
	EXPECT_TRUE(fabsl(f.sd - sqrtl(4.5L)) < 1e-15L);
}

TEST(figures_of_equal_samples)
{
	static const uint64_t v[] = { 7, 7, 7, 7, 7, 7, 7, 7 };
	struct cs_figs f = figs_of(v, 8);

	EXPECT_STREQ(q3(f.median), "7.000");
	EXPECT_STREQ(q3(f.hsm), "7.000");
	EXPECT_STREQ(q3(f.mad), "0.000");
	EXPECT_TRUE(f.sd == 0);
	EXPECT_EQ_U64(f.far, 0);
}

TEST(figures_near_2_64_are_exact)
{
	static const uint64_t v[] = { TOP, TOP - 1, TOP - 4, TOP };
	struct cs_figs f = figs_of(v, 4);

	/* mean (4 TOP - 5) / 4 = TOP - 1.25; median (TOP - 1 + TOP) / 2 */
	EXPECT_STREQ(q3(f.mean), "18446744073709551613.750");
	EXPECT_STREQ(q3(f.median), "18446744073709551614.500");
	EXPECT_EQ_U64(f.min, TOP - 4);
	EXPECT_EQ_U64(f.max, TOP);
	/* deviations 1.25 .25 2.75 1.25: 10.75 / 3 */
	EXPECT_TRUE(fabsl(f.sd - sqrtl(10.75L / 3)) < 1e-15L);
}

TEST(sums_of_many_maximal_values_do_not_overflow)
{
	size_t n = 100000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct cs_figs f;

	for (size_t i = 0; i < n; i++)
		v[i] = TOP - (i & 1);
	cs_figures(v, n, &f);
	free(v);
	EXPECT_STREQ(q3(f.mean), "18446744073709551614.500");
	/* n/2 at TOP, n/2 at TOP-1: sd = sqrt(.25 n / (n - 1)) */
	EXPECT_TRUE(fabsl(f.sd - sqrtl(0.25L * n / (n - 1))) < 1e-12L);
}

TEST(percentiles_interpolate_between_closest_ranks)
{
	static const uint64_t v[] = { 1, 2, 3, 4 };
	struct cs_figs f = figs_of(v, 4);

	EXPECT_STREQ(q3(f.p25), "1.750");
	EXPECT_STREQ(q3(f.p75), "3.250");
	EXPECT_STREQ(q3(f.p95), "3.850");
	EXPECT_STREQ(q3(f.p1), "1.030");
}

TEST(half_sample_mode_keeps_the_densest_half)
{
	/* 1 2 2 3 10: windows of 3: [1,2,2] w1, [2,2,3] w1, [2,3,10] -> first;
	 * then gaps 1, 0: the closer pair (2, 2) */
	static const uint64_t a[] = { 10, 2, 3, 1, 2 };
	static const uint64_t b[] = { 1, 5, 6, 20 };	/* windows of 2: [5,6] */
	static const uint64_t c[] = { 1, 3, 5 };	/* equal gaps: the middle */
	static const uint64_t d[] = { 1, 2, 9 };	/* closer pair (1, 2) */

	EXPECT_STREQ(q3(figs_of(a, 5).hsm), "2.000");
	EXPECT_STREQ(q3(figs_of(b, 4).hsm), "5.500");
	EXPECT_STREQ(q3(figs_of(c, 3).hsm), "3.000");
	EXPECT_STREQ(q3(figs_of(d, 3).hsm), "1.500");
}

TEST(far_outliers_are_above_q3_plus_3_iqr)
{
	/* 1..8, 100: Q1 = 3, Q3 = 7, fence 7 + 12 = 19; a value on the fence is not far */
	static const uint64_t v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 100 };
	static const uint64_t w[] = { 1, 2, 3, 4, 5, 6, 7, 8, 19 };

	EXPECT_EQ_U64(figs_of(v, 9).far, 1);
	EXPECT_EQ_U64(figs_of(w, 9).far, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

TEST(radix_sort_matches_qsort)
{
	static const size_t sizes[] = { 0, 1, 2, 47, 48, 49, 1000, 100000 };
	static const uint64_t masks[] = { 0, 1, 0xff, 0xfff, 0xffffffff, TOP };

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (size_t m = 0; m < ARRAY_SIZE(masks); m++) {
			size_t n = sizes[s];
			uint64_t *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) * sizeof(*b));

			for (size_t i = 0; i < n; i++)
				a[i] = b[i] = (xorshift() & masks[m]) + (m == 3 ? 1ull << 40 : 0);
			cs_sort(a, n);
			qsort(b, n, sizeof(*b), cmp_u64);
			if (n && memcmp(a, b, n * sizeof(*a)))
				FAIL("n %zu mask %llx: radix sort differs from qsort", n,
				     (unsigned long long)masks[m]);
			free(a);
			free(b);
		}
	}
}

TEST(sort_of_the_full_64_bit_range)
{
	/* 0 and 2^64 - 1 together: a range of 2^64 values once wrapped to 0 */
	uint64_t v[] = { TOP, 0, TOP - 1, 5, 0, TOP, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	uint64_t w[ARRAY_SIZE(v)];

	memcpy(w, v, sizeof(v));
	cs_sort(v, ARRAY_SIZE(v));
	qsort(w, ARRAY_SIZE(w), sizeof(*w), cmp_u64);
	EXPECT_TRUE(!memcmp(v, w, sizeof(v)));
}

TEST(sort_counts_small_ranges)
{
	/* 100000 samples within 30..2029: the counting sort path */
	size_t n = 100000;
	uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));

	for (size_t i = 0; i < n; i++)
		a[i] = b[i] = 30 + xorshift() % 2000;
	cs_sort(a, n);
	qsort(b, n, sizeof(*b), cmp_u64);
	EXPECT_TRUE(!memcmp(a, b, n * sizeof(*a)));
	free(a);
	free(b);
}

TEST(mad_matches_brute_force)
{
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + xorshift() % 60;
		uint64_t v[64], dev2[64];
		struct cs_figs f;
		u128 m2, d;

		for (size_t i = 0; i < n; i++)
			v[i] = xorshift() % (round < 100 ? 10 : 1000);
		f = figs_of(v, n);
		cs_sort(v, n);
		m2 = n % 2 ? 2 * (u128)v[n / 2] : (u128)v[n / 2 - 1] + v[n / 2];
		for (size_t i = 0; i < n; i++)
			dev2[i] = (uint64_t)(2 * (u128)v[i] > m2 ? 2 * (u128)v[i] - m2 : m2 - 2 * (u128)v[i]);
		qsort(dev2, n, sizeof(*dev2), cmp_u64);
		d = (u128)dev2[(n - 1) / 2] + dev2[n / 2];
		if (cs_q_cmp(f.mad, (struct cs_q){ .num = (s128)d, .den = 4 }))
			FAIL("round %d n %zu: mad %s, brute force %s", round, n, q3(f.mad),
			     q3((struct cs_q){ .num = (s128)d, .den = 4 }));
	}
}

TEST(exact_figures_round_as_numpy_prints)
{
	char b[64];

	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 1, 8 }, 2), "0.12");
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 3, 8 }, 2), "0.38");
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 5, 2 }, 0), "2");
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 7, 2 }, 0), "4");
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 19999, 20000 }, 3), "1.000");
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ -1, 3 }, 3), "-0.333");
	/* as C and Python print -0.0001 */
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ -1, 10000 }, 3), "-0.000");
	/* a tie that binary cannot hold: 0.0125 is stored as 0.01250000000000000069 */
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 5, 400 }, 3), "0.013");
	/* a tie that it can: 0.0625 exactly, half to even */
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 1, 16 }, 3), "0.062");
	/* above 2^53, exact half to even */
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ (s128)TOP * 2 + 1, 4 }, 1),
		     "9223372036854775807.8");
	EXPECT_STREQ(cs_fmt_q(b, 64, (struct cs_q){ 2, 3 }, 1), "0.7");
}

TEST(net_and_per_op_are_exact_fractions)
{
	struct cs_q med = { 69, 2 }, empty = { 61, 2 };	/* 34.5 - 30.5 */
	char b[64];

	EXPECT_STREQ(cs_fmt_q(b, 64, cs_q_sub(med, empty), 3), "4.000");
	EXPECT_STREQ(cs_fmt_q(b, 64, cs_q_div(cs_q_sub(med, empty), 3), 3), "1.333");
	EXPECT_STREQ(cs_fmt_q(b, 64, cs_q_sub(empty, med), 1), "-4.0");
	EXPECT_TRUE(cs_q_cmp(med, empty) > 0);
}

TEST(paoloni_ensemble_metrics)
{
	/* ensembles {1, 3} {2, 2} {4, 8}: variances 1, 0, 4; mins 1, 2, 4 */
	static const uint64_t v[] = { 1, 3, 2, 2, 4, 8 };
	struct cs_ens e;

	EXPECT_TRUE(cs_ensembles(v, 3, 2, &e) == 0);
	EXPECT_TRUE(e.var[0] == 1 && e.var[1] == 0 && e.var[2] == 4);
	EXPECT_TRUE(fabsl(e.total_var - 5.0L / 3) < 1e-15L);
	/* var(1, 0, 4) = (1 + 0 + 16) / 3 - (5/3)^2 = 26/9 */
	EXPECT_TRUE(fabsl(e.var_of_vars - 26.0L / 9) < 1e-15L);
	/* var(1, 2, 4) = 21/3 - (7/3)^2 = 14/9 */
	EXPECT_TRUE(fabsl(e.var_of_mins - 14.0L / 9) < 1e-15L);
	EXPECT_EQ_U64(e.abs_max_dev, 4);
	cs_ens_free(&e);
}

TEST(histogram_counts_every_sample_once)
{
	uint64_t v[5000];
	struct cs_figs f;
	struct cs_hist h;
	uint64_t sum;

	for (size_t i = 0; i < 5000; i++)
		v[i] = 100 + xorshift() % 50 + (i % 100 == 0 ? 10000 : 0);
	cs_figures(v, 5000, &f);
	cs_histogram(v, 5000, &f, &h);
	sum = h.over;
	for (unsigned int b = 0; b < h.nbins; b++)
		sum += h.count[b];
	EXPECT_EQ_U64(sum, 5000);
	EXPECT_TRUE(h.nbins >= 1 && h.nbins <= CS_HIST_MAX);
	EXPECT_EQ_U64(h.lo, 100);
	EXPECT_TRUE(h.over >= 1);	/* the 10000s fold into the overflow bin */
}

/* a TSC in steps of 26: bins a multiple of it, none empty inside the range */
TEST(histogram_bins_are_a_multiple_of_the_tsc_step)
{
	uint64_t v[3000];
	struct cs_counts c;
	struct cs_figs f;
	struct cs_hist h;

	for (size_t i = 0; i < 3000; i++)
		v[i] = 26 * (40 + xorshift() % 8);
	EXPECT_TRUE(cs_counts_of(v, 3000, &c) == 0);
	cs_figures_of(&c, &f);
	cs_histogram_of(&c, &f, 26, &h);
	EXPECT_TRUE(h.width % 26 == 0);
	for (unsigned int b = 0; b + 1 < h.nbins; b++)
		EXPECT_TRUE(h.count[b] > 0);
	cs_counts_free(&c);
}

/*
 * The step in the samples: 27s with a +1 now and then (under a tenth of
 * those off the mode), as a busy EPYC VM gives; a TSC that counts every
 * tick; too few samples off the mode to say.
 */
TEST(the_samples_show_the_tsc_step)
{
	uint64_t v[3000];
	struct cs_counts c;

	for (size_t i = 0; i < 3000; i++)
		v[i] = 27 * (98 + xorshift() % 3) + (i % 20 == 0);
	EXPECT_TRUE(cs_counts_of(v, 3000, &c) == 0);
	EXPECT_EQ_U64(cs_step_of(&c), 27);
	cs_counts_free(&c);
	for (size_t i = 0; i < 3000; i++)
		v[i] = 1000 + xorshift() % 50;
	EXPECT_TRUE(cs_counts_of(v, 3000, &c) == 0);
	EXPECT_EQ_U64(cs_step_of(&c), 1);
	cs_counts_free(&c);
	for (size_t i = 0; i < 3000; i++)
		v[i] = i < 19 ? 81 : 54;
	EXPECT_TRUE(cs_counts_of(v, 3000, &c) == 0);
	EXPECT_EQ_U64(cs_step_of(&c), 1);
	cs_counts_free(&c);
}

/*
 * Exact counts (icount) with 5 % of the calls refilling a batch, 600 ticks
 * dearer: every sample off the mode at one distance, which a step of 600
 * (or of a divisor of the mode and 600) would explain, but the mode is no
 * multiple of it, or no sample lies one step from it: no step.  A clock in
 * steps of 27 locked on one value, a few samples a step up: 27.
 */
TEST(a_cluster_of_equal_outliers_is_not_the_tsc_step)
{
	static const uint64_t modes[] = { 1003, 1000, 1500 };
	uint64_t v[3000];
	struct cs_counts c;

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (size_t i = 0; i < 3000; i++)
			v[i] = modes[m] + (i % 20 == 7 ? 600 : 0);
		EXPECT_TRUE(cs_counts_of(v, 3000, &c) == 0);
		EXPECT_EQ_U64(cs_step_of(&c), 1);
		cs_counts_free(&c);
	}
	for (size_t i = 0; i < 3000; i++)
		v[i] = 27 * 40 + (i % 20 == 7 ? 27 : 0) + (i % 500 == 3 ? 27 * 300 : 0);
	EXPECT_TRUE(cs_counts_of(v, 3000, &c) == 0);
	EXPECT_EQ_U64(cs_step_of(&c), 27);
	cs_counts_free(&c);
}

/*
 * far on a TSC in steps of 27: 8000 samples at 54, 2000 one step up at 81,
 * one disturbance at 20000.  p25 = p75 = 54, so the IQR is 0; with the IQR
 * taken as at least one step the fence is 54 + 3 x 27 = 135: far is the
 * disturbance alone.  With a step of 1 tick the fence is 57.
 */
TEST(far_takes_the_iqr_as_at_least_one_step)
{
	static uint64_t v[10001];
	struct cs_counts c;
	struct cs_figs f;

	for (size_t i = 0; i < 10001; i++)
		v[i] = i < 8000 ? 54 : i < 10000 ? 81 : 20000;
	EXPECT_TRUE(cs_counts_of(v, 10001, &c) == 0);
	cs_figures_of(&c, &f);
	EXPECT_STREQ(q3(f.p25), "54.000");
	EXPECT_STREQ(q3(f.p75), "54.000");
	EXPECT_EQ_U64(f.far, 2001);
	cs_far_of(&c, &f, 27);
	EXPECT_EQ_U64(f.far, 1);
	cs_counts_free(&c);
}

/* every figure of a counted table equals the one of the sorted samples */
static void expect_same_figures(int *_failed, const uint64_t *src, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct cs_counts c;
	struct cs_figs a, b;
	struct cs_hist ha, hb;

	memcpy(v, src, n * sizeof(*v));
	EXPECT_TRUE(cs_counts_of(src, n, &c) == 0);
	cs_figures(v, n, &a);
	cs_histogram(v, n, &a, &ha);
	cs_figures_of(&c, &b);
	cs_histogram_of(&c, &b, 1, &hb);
	EXPECT_EQ_U64(b.n, a.n);
	EXPECT_EQ_U64(b.min, a.min);
	EXPECT_EQ_U64(b.max, a.max);
	EXPECT_EQ_U64(b.far, a.far);
	EXPECT_STREQ(q3(b.mean), q3(a.mean));
	EXPECT_STREQ(q3(b.median), q3(a.median));
	EXPECT_STREQ(q3(b.p1), q3(a.p1));
	EXPECT_STREQ(q3(b.p25), q3(a.p25));
	EXPECT_STREQ(q3(b.p99), q3(a.p99));
	EXPECT_STREQ(q3(b.mad), q3(a.mad));
	EXPECT_STREQ(q3(b.hsm), q3(a.hsm));
	EXPECT_TRUE(b.sd == a.sd || (isnan(b.sd) && isnan(a.sd)));
	EXPECT_TRUE(memcmp(&ha, &hb, sizeof(ha)) == 0);
	cs_counts_free(&c);
	free(v);
}

TEST(counted_figures_equal_the_sorted_samples_figures)
{
	static uint64_t v[20000];

	for (size_t n = 1; n <= 60; n++) {
		for (size_t i = 0; i < n; i++)
			v[i] = 30 + xorshift() % 5;
		expect_same_figures(_failed, v, n);
	}
	for (size_t i = 0; i < 20000; i++)	/* lognormal-like: a body and a tail */
		v[i] = 26 * (6 + xorshift() % 4 + (xorshift() % 16 == 0 ? xorshift() % 300 : 0));
	expect_same_figures(_failed, v, 20000);
	for (size_t i = 0; i < 20000; i++)	/* one value, near 2^64 */
		v[i] = TOP - 3;
	expect_same_figures(_failed, v, 20000);
	for (size_t i = 0; i < 20000; i++)	/* two values, the widest gap */
		v[i] = i % 3 ? TOP : 0;
	expect_same_figures(_failed, v, 20000);
}

TEST(a_table_holds_each_distinct_value_once_in_order)
{
	static const uint64_t v[] = { 52, 26, 52, 78, 26, 52 };
	struct cs_counts c;

	EXPECT_TRUE(cs_counts_of(v, ARRAY_SIZE(v), &c) == 0);
	EXPECT_EQ_U64(c.len, 3);
	EXPECT_EQ_U64(c.n, 6);
	EXPECT_TRUE(c.c != NULL);
	EXPECT_TRUE(c.v[0] == 26 && c.v[1] == 52 && c.v[2] == 78);
	EXPECT_TRUE(c.c[0] == 2 && c.c[1] == 3 && c.c[2] == 1);
	EXPECT_TRUE(c.rank[0] == 0 && c.rank[1] == 2 && c.rank[2] == 5);
	EXPECT_EQ_U64(cs_counts_at(&c, 4), 52);
	cs_counts_free(&c);
}

TEST(too_many_distinct_values_fall_back_to_the_sorted_samples)
{
	size_t n = 300000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct cs_counts c;

	for (size_t i = 0; i < n; i++)	/* all distinct, in no order */
		v[i] = (i * 2654435761u) % n * 26;
	EXPECT_TRUE(cs_counts_of(v, n, &c) == 0);
	EXPECT_TRUE(c.c == NULL);
	EXPECT_EQ_U64(c.len, n);
	EXPECT_EQ_U64(c.v[0], 0);
	EXPECT_EQ_U64(c.v[n - 1], (n - 1) * 26);
	cs_counts_free(&c);
	expect_same_figures(_failed, v, n);
	free(v);
}

int main(void)
{
	return tap_main();
}
