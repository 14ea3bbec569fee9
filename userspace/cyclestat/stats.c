// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - every figure cyclestat prints, computed exactly where it can be.
 *
 * Definitions (the man page repeats them):
 *   median	middle value; mean of the two middle values when n is even
 *   pN		linear interpolation between closest ranks ("type 7", numpy's
 *		default): h = (n-1)N/100, x[floor h] + frac(h)(x[floor h+1] - x[floor h])
 *   sd		sample standard deviation (n - 1), NaN when n = 1
 *   mad	median of |x - median|, unscaled
 *   hsm	Bickel's half-sample mode: repeatedly keep the ceil(m/2) consecutive
 *		sorted samples of smallest range (the first such on ties) until
 *		three or fewer remain; then 1: it, 2: their mean, 3: the mean of
 *		the closer pair, or the middle one when both gaps are equal
 *   far	samples above Q3 + 3 IQR (p75 + 3 max(p75 - p25, step)), step
 *		the TSC's (cs_far_of(); 1 tick where none is known)
 *
 * Sums are taken in 128 bits (and the sum of squares in 192), so no 64-bit
 * input overflows them. The figures of a distribution are read from its
 * sorted value -> count table (struct cs_counts, counts.c): each walks the
 * distinct values, or the sorted samples when there were too many to
 * count, and reaches the same exact numbers either way. Only the ensemble
 * metrics read samples in run order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"

/* ---- exact rationals ---- */

struct cs_q cs_q_int(s128 v)
{
	return (struct cs_q){ .num = v, .den = 1 };
}

struct cs_q cs_q_sub(struct cs_q a, struct cs_q b)
{
	if (a.den == b.den)
		return (struct cs_q){ .num = a.num - b.num, .den = a.den };
	return (struct cs_q){ .num = a.num * (s128)b.den - b.num * (s128)a.den,
			      .den = a.den * b.den };
}

static u128 gcd(u128 a, u128 b)
{
	while (b) {
		u128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* a + b in lowest terms, so that a median of two stays in range */
struct cs_q cs_q_add(struct cs_q a, struct cs_q b)
{
	u128 g = gcd(a.den, b.den), k;
	struct cs_q r = { .num = a.num * (s128)(b.den / g) + b.num * (s128)(a.den / g),
			  .den = a.den / g * b.den };

	k = gcd((u128)(r.num < 0 ? -r.num : r.num), r.den);
	if (k > 1) {
		r.num /= (s128)k;
		r.den /= k;
	}
	return r;
}

struct cs_q cs_q_div(struct cs_q a, uint64_t k)
{
	return (struct cs_q){ .num = a.num, .den = a.den * k };
}

int cs_q_cmp(struct cs_q a, struct cs_q b)
{
	s128 l = a.num * (s128)b.den, r = b.num * (s128)a.den;

	return (l > r) - (l < r);
}

long double cs_q_ld(struct cs_q q)
{
	return (long double)q.num / (long double)q.den;
}

/* ---- sums ---- */

/* 192-bit unsigned accumulator */
struct acc192 {
	u128 lo;
	uint64_t hi;
};

static void acc_add(struct acc192 *a, u128 v)
{
	a->lo += v;
	if (a->lo < v)
		a->hi++;
}

/*
 * Sum of squared deviations from the mean, sum (x - sum/n)^2, from exact
 * integer sums: with q = floor(mean), r = sum - n q and d = x - q,
 * M2 = sum d^2 - r^2/n. |d| < 2^64, so d^2 fits in 128 bits and the sum of
 * up to 2^64 of them in 192.
 */
static long double m2_of(const uint64_t *v, size_t n, u128 sum)
{
	uint64_t q = (uint64_t)(sum / n);
	u128 r = sum - (u128)q * n;
	struct acc192 acc = { 0, 0 };
	long double s;

	for (size_t i = 0; i < n; i++) {
		uint64_t d = v[i] >= q ? v[i] - q : q - v[i];

		acc_add(&acc, (u128)d * d);
	}
	s = (long double)acc.hi * 0x1p128L + (long double)acc.lo;
	s -= (long double)r * (long double)r / (long double)n;
	return s < 0 ? 0 : s;
}

/* a += k x, exactly: x < 2^128, k < 2^64, in two 64 x 64 products */
static void acc_addmul(struct acc192 *a, u128 x, uint64_t k)
{
	u128 lo = (u128)(uint64_t)x * k, hi = (u128)(uint64_t)(x >> 64) * k;

	acc_add(a, lo);
	acc_add(a, (u128)(uint64_t)hi << 64);
	a->hi += (uint64_t)(hi >> 64);
}

/* ---- reading a value -> count table ---- */

/* samples in entry i */
static inline uint64_t cnt(const struct cs_counts *c, size_t i)
{
	return c->c ? c->c[i] : 1;
}

/* samples below entry i (i < c->len) */
static inline uint64_t rank_of(const struct cs_counts *c, size_t i)
{
	return c->c ? c->rank[i] : i;
}

static u128 sum_of(const struct cs_counts *c)
{
	u128 s = 0;

	for (size_t i = 0; i < c->len; i++)
		s += (u128)c->v[i] * cnt(c, i);
	return s;
}

/* m2_of over a table: the same exact sum, k equal terms at a time */
static long double m2_counts(const struct cs_counts *c, u128 sum)
{
	uint64_t q = (uint64_t)(sum / c->n);
	u128 r = sum - (u128)q * c->n;
	struct acc192 acc = { 0, 0 };
	long double s;

	for (size_t i = 0; i < c->len; i++) {
		uint64_t d = c->v[i] >= q ? c->v[i] - q : q - c->v[i];

		acc_addmul(&acc, (u128)d * d, cnt(c, i));
	}
	s = (long double)acc.hi * 0x1p128L + (long double)acc.lo;
	s -= (long double)r * (long double)r / (long double)c->n;
	return s < 0 ? 0 : s;
}

/* ---- Paoloni's ensemble metrics, on samples in run order ---- */

static int ens_alloc(uint64_t count, uint64_t size, struct cs_ens *e)
{
	memset(e, 0, sizeof(*e));
	e->count = count;
	e->size = size;
	e->min = calloc(count, sizeof(*e->min));
	e->max = calloc(count, sizeof(*e->max));
	e->var = calloc(count, sizeof(*e->var));
	e->med2 = calloc(count, sizeof(*e->med2));
	e->core = calloc(count, sizeof(*e->core));
	if (!e->min || !e->max || !e->var || !e->med2 || !e->core) {
		cs_ens_free(e);
		return -1;
	}
	return 0;
}

/* the metrics over ensembles, from each one's min, max and variance */
static void ens_finish(struct cs_ens *e)
{
	long double mv = 0, vv = 0;
	u128 msum = 0;

	for (uint64_t j = 0; j < e->count; j++) {
		if (e->max[j] - e->min[j] > e->abs_max_dev)
			e->abs_max_dev = e->max[j] - e->min[j];
		mv += e->var[j] - e->var[0];
		msum += e->min[j];
	}
	/* the mean as var[0] plus the mean offset: equal variances give exactly 0 */
	mv = e->var[0] + mv / e->count;
	for (uint64_t j = 0; j < e->count; j++)
		vv += (e->var[j] - mv) * (e->var[j] - mv);
	e->total_var = mv;
	e->var_of_vars = vv / e->count;
	e->var_of_mins = m2_of(e->min, e->count, msum) / e->count;
}

int cs_ensembles(const uint64_t *v, uint64_t count, uint64_t size, struct cs_ens *e)
{
	if (ens_alloc(count, size, e))
		return -1;
	for (uint64_t j = 0; j < count; j++) {
		const uint64_t *x = v + j * size;
		uint64_t lo = x[0], hi = x[0];
		u128 sum = 0;

		for (uint64_t i = 0; i < size; i++) {
			if (x[i] < lo)
				lo = x[i];
			if (x[i] > hi)
				hi = x[i];
			sum += x[i];
		}
		e->min[j] = lo;
		e->max[j] = hi;
		e->var[j] = m2_of(x, size, sum) / size;
	}
	ens_finish(e);
	return 0;
}

/*
 * A run of one ensemble, from its table and figures f: what cs_ensembles
 * and cs_ens_aggs give for it, without the samples in order.
 */
int cs_ensemble_one(const struct cs_counts *c, const struct cs_figs *f, uint64_t step,
		    struct cs_ens *e)
{
	u128 sum = sum_of(c);

	if (ens_alloc(1, c->n, e))
		return -1;
	e->min[0] = f->min;
	e->max[0] = f->max;
	e->var[0] = m2_counts(c, sum) / c->n;
	e->med2[0] = (u128)f->median.num;
	e->core[0] = cs_core_of(c, step);
	ens_finish(e);
	return 0;
}

void cs_ens_free(struct cs_ens *e)
{
	free(e->min);
	free(e->max);
	free(e->var);
	free(e->med2);
	free(e->core);
	e->med2 = NULL;
	e->core = NULL;
	e->min = e->max = NULL;
	e->var = NULL;
}

/* ---- figures of one distribution ---- */

/* type 7 percentile P (in %), over 100 so comparisons stay exact */
static struct cs_q pct(const struct cs_counts *c, unsigned int p)
{
	u128 h = (u128)(c->n - 1) * p;
	uint64_t i = (uint64_t)(h / 100), vi = cs_counts_at(c, i);
	unsigned int fr = (unsigned int)(h % 100);
	s128 num = (s128)vi * 100;

	if (fr)
		num += (s128)fr * (s128)(cs_counts_at(c, i + 1) - vi);
	return (struct cs_q){ .num = num, .den = 100 };
}

/* The first entry with scale * v > t (c->len when none). */
static size_t first_above(const struct cs_counts *c, unsigned int scale, s128 t)
{
	size_t lo = 0, hi = c->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((s128)c->v[mid] * scale > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The mean of the core: the samples within 1.5 steps of the lower median,
 * exact.  A latency's truth is the core's own cost; a median is a whole
 * number of steps and sits up to half a step off it in every run alike,
 * where each sample's phase against the step dithers the core's mean onto
 * it (docs/peers.md).  The tail of disturbed samples is outside the core.
 */
struct cs_q cs_core_of(const struct cs_counts *c, uint64_t step)
{
	uint64_t m = cs_counts_at(c, (c->n - 1) / 2), w = step * 3 / 2;
	u128 sum = 0, n = 0;

	for (size_t i = first_above(c, 1, (s128)m - w - 1); i < c->len && c->v[i] <= m + w; i++) {
		sum += (u128)c->v[i] * cnt(c, i);
		n += cnt(c, i);
	}
	return (struct cs_q){ .num = (s128)sum, .den = n };
}

/*
 * Median absolute deviation: in doubled units (2x - 2 median is an
 * integer), the deviations left of the median grow walking down and those
 * right of it walking up, so merging the two runs outward from the middle
 * visits the deviations in increasing order, an entry's samples at once.
 */
static struct cs_q mad_of(const struct cs_counts *c, u128 m2)
{
	uint64_t k = 0, want1 = (c->n - 1) / 2, want2 = c->n / 2;
	size_t r = first_above(c, 2, (s128)m2);	/* first entry with 2 v > m2 */
	size_t j = r;		/* next on the left is v[j - 1] */
	size_t i = r;		/* next on the right is v[i] */
	u128 d1 = 0, d2 = 0;

	while (k <= want2) {
		u128 dl = j > 0 ? m2 - (u128)c->v[j - 1] * 2 : 0;
		u128 dr = i < c->len ? (u128)c->v[i] * 2 - m2 : 0;
		uint64_t m;
		u128 d;

		if (j > 0 && (i >= c->len || dl <= dr)) {
			d = dl;
			m = cnt(c, --j);
		} else {
			d = dr;
			m = cnt(c, i++);
		}
		/* deviations k .. k + m - 1 are d */
		if (want1 >= k && want1 - k < m)
			d1 = d;
		if (want2 >= k && want2 - k < m)
			d2 = d;
		k += m;
	}
	return (struct cs_q){ .num = (s128)(d1 + d2), .den = 4 };
}

/*
 * Of the windows of h consecutive sorted samples starting at ranks lo ..
 * last, the first of smallest range: a window that starts inside an entry
 * has the same low end as one starting at the entry's first sample and a
 * high end no lower, so only ranks that start an entry (and lo) compete.
 */
static uint64_t densest(const struct cs_counts *c, uint64_t lo, uint64_t h, uint64_t last)
{
	size_t g = cs_counts_find(c, lo), e = cs_counts_find(c, lo + h - 1);
	uint64_t w = c->v[e] - c->v[g], best = lo;

	for (g++; g < c->len && rank_of(c, g) <= last; g++) {
		uint64_t i = rank_of(c, g);

		while (e + 1 < c->len && rank_of(c, e + 1) <= i + h - 1)
			e++;
		if (c->v[e] - c->v[g] < w) {
			w = c->v[e] - c->v[g];
			best = i;
		}
	}
	return best;
}

static struct cs_q hsm_of(const struct cs_counts *c)
{
	uint64_t lo = 0, m = c->n, v0, v1, v2;

	while (m > 3) {
		uint64_t h = (m + 1) / 2;

		lo = densest(c, lo, h, lo + m - h);
		m = h;
	}
	v0 = cs_counts_at(c, lo);
	if (m == 1)
		return cs_q_int(v0);
	v1 = cs_counts_at(c, lo + 1);
	if (m == 2)
		return (struct cs_q){ .num = (s128)v0 + v1, .den = 2 };
	v2 = cs_counts_at(c, lo + 2);
	if (v1 - v0 < v2 - v1)
		return (struct cs_q){ .num = (s128)v0 + v1, .den = 2 };
	if (v1 - v0 > v2 - v1)
		return (struct cs_q){ .num = (s128)v1 + v2, .den = 2 };
	return cs_q_int(v1);
}

/* the figures of a distribution, from its table (c->n >= 1) */
void cs_figures_of(const struct cs_counts *c, struct cs_figs *f)
{
	uint64_t n = c->n;
	u128 sum = sum_of(c);

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->mean = (struct cs_q){ .num = (s128)sum, .den = n };
	f->sd = n > 1 ? sqrtl(m2_counts(c, sum) / (n - 1)) : NAN;
	f->min = c->v[0];
	f->max = c->v[c->len - 1];
	f->median = cs_counts_median(c);
	f->p1 = pct(c, 1);
	f->p5 = pct(c, 5);
	f->p25 = pct(c, 25);
	f->p75 = pct(c, 75);
	f->p95 = pct(c, 95);
	f->p99 = pct(c, 99);
	f->mad = mad_of(c, (u128)f->median.num);
	f->hsm = hsm_of(c);
	cs_far_of(c, f, 1);
}

/*
 * far: samples above Q3 + 3 IQR, the IQR at least @step ticks: where most
 * samples share one step of a TSC that moves in 27s the IQR is 0, and
 * every sample one step up would be "far".  In hundredths, as p25 and p75.
 */
void cs_far_of(const struct cs_counts *c, struct cs_figs *f, uint64_t step)
{
	s128 iqr = f->p75.num - f->p25.num;
	size_t above;

	if (iqr < (s128)step * 100)
		iqr = (s128)step * 100;
	above = first_above(c, 100, f->p75.num + 3 * iqr);
	f->far = above < c->len ? c->n - rank_of(c, above) : 0;
}

/*
 * The clock's step as the samples show it: the largest s (2 to 1000, as
 * cb_tsc_step_of() tries) that at least 90 % of the samples off the most
 * common value are a multiple of s away from it, where at least 20 are off
 * it; else 1.  Every sample is a difference of two reads, so a TSC that
 * moves in steps of 27 leaves them all multiples of 27 apart, while the
 * step recorded at load (90 % of 4000 back-to-back reads) can miss it when
 * the machine is busy.  A wrong candidate fails within its first tenth.
 * The step must also divide the most common value itself (a difference of
 * two reads of such a clock is a whole number of steps) and hold samples
 * one step from it: a cluster of equal outliers (a batch refilled in 5 %
 * of the calls, 600 ticks dearer, on exact counts) is every sample off the
 * mode at one distance, but neither a divisor of the mode nor a
 * neighbour of it.
 */
uint64_t cs_step_of(const struct cs_counts *c)
{
	size_t mode = 0;
	uint64_t off;

	for (size_t i = 1; i < c->len; i++)
		if (cnt(c, i) > cnt(c, mode))
			mode = i;
	off = c->n - cnt(c, mode);
	if (off < 20)
		return 1;
	for (uint64_t s = 1000; s > 1; s--) {
		uint64_t miss = 0;
		int next = 0;

		if (c->v[mode] % s)
			continue;
		for (size_t i = 0; i < c->len && miss <= off / 10; i++) {
			uint64_t d = c->v[i] > c->v[mode] ? c->v[i] - c->v[mode] : c->v[mode] - c->v[i];

			if (d % s)
				miss += cnt(c, i);
			next |= d == s;
		}
		if (miss <= off / 10 && next)
			return s;
	}
	return 1;
}

/*
 * Histogram: integer bins from the minimum, Freedman-Diaconis width
 * (2 IQR / cbrt n, at least one tick), a multiple of the clock's step
 * (step ticks: the TSC moves in steps of 26 on some AMD cores, and a
 * finer bin is a sawtooth of empty ones), at most CS_HIST_MAX bins, and
 * everything above p99 folded into one overflow bin.
 */
void cs_histogram_of(const struct cs_counts *c, const struct cs_figs *f, uint64_t step,
		     struct cs_hist *h)
{
	u128 top = (u128)((f->p99.num + 99) / 100);	/* ceil(p99) */
	u128 range = top - f->min + 1;
	long double iqr = cs_q_ld(f->p75) - cs_q_ld(f->p25);
	u128 w = (u128)ceill(2 * iqr / cbrtl((long double)c->n));
	uint64_t binned = 0;
	size_t i = 0;

	memset(h, 0, sizeof(*h));
	if (step < 1)
		step = 1;
	if (w < 1)
		w = 1;
	if ((range + w - 1) / w > CS_HIST_MAX)
		w = (range + CS_HIST_MAX - 1) / CS_HIST_MAX;
	w = (w + step - 1) / step * step;
	h->lo = f->min;
	h->width = (uint64_t)w;
	h->nbins = (unsigned int)((range + w - 1) / w);
	for (unsigned int b = 0; b < h->nbins; b++) {
		u128 end = (u128)h->lo + (u128)(b + 1) * w;

		for (; i < c->len && c->v[i] < end; i++)
			h->count[b] += cnt(c, i);
		binned += h->count[b];
	}
	h->over = c->n - binned;
}

/* qsort's comparison for long doubles, ascending */
int cs_cmp_ld(const void *a, const void *b)
{
	long double x = *(const long double *)a, y = *(const long double *)b;

	return (x > y) - (x < y);
}

/* the median of v[0..n), n >= 1, which it leaves sorted */
long double cs_median_ld(long double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cs_cmp_ld);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the median of a table (c->n >= 1), exact */
struct cs_q cs_counts_median(const struct cs_counts *c)
{
	uint64_t n = c->n;
	u128 m2 = n % 2 ? (u128)cs_counts_at(c, n / 2) * 2 :
		  (u128)cs_counts_at(c, n / 2 - 1) + cs_counts_at(c, n / 2);

	return (struct cs_q){ .num = (s128)m2, .den = 2 };
}
