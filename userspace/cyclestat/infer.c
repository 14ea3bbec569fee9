// SPDX-License-Identifier: GPL-2.0
/*
 * infer.c - statements about more than one number from one result:
 * per-ensemble aggregates, the two-length per-op cost with its interval,
 * Student's t quantile, a mean's t-interval and a median's order-statistic
 * interval; and ministat's t-test of two results' means.  The rank tests
 * of compare are in ranks.c.
 *
 * Definitions (cyclestat(1) repeats them):
 *   per-op cost	per ensemble e, (agg_e(long) - agg_e(short)) / ((R - 1) ops).
 *		The headline: agg = the mean of the core (cs_core_of()), the
 *		figure the median over ensembles, exact; its 95 % interval the
 *		order statistics x(k) and x(E + 1 - k), k the largest with
 *		P(Binomial(E, 1/2) < k) <= 2.5 % (none for E < 6: such an
 *		interval needs six ensembles).  agg = the minimum: the mean over
 *		ensembles, mean +- t(0.975, E-1) s / sqrt(E) (none for E = 1).
 *
 * The headline (cs_cost_of()): which of a fragment's figures is its cost
 * and in which unit, decided here for every output.
 *
 * A leaf: calls stats.c's sorts and exact rationals only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"

/* ---- per-ensemble aggregates, on samples in run order ---- */

/*
 * twice the median (where @med2 is not NULL), the minimum and the mean of
 * the core (cs_core_of(), the TSC's step @step) of each ensemble; v is
 * not changed
 */
int cs_ens_aggs(const uint64_t *v, uint64_t count, uint64_t size, uint64_t step, u128 *med2,
		uint64_t *min, struct cs_q *core)
{
	uint64_t *t = malloc(size * sizeof(*t));

	if (!t)
		return -1;
	for (uint64_t j = 0; j < count; j++) {
		struct cs_counts c = { .v = t, .len = size, .n = size };

		memcpy(t, v + j * size, size * sizeof(*t));
		cs_sort(t, size);
		min[j] = t[0];
		if (med2)
			med2[j] = size % 2 ? (u128)t[size / 2] * 2 : (u128)t[size / 2 - 1] + t[size / 2];
		core[j] = cs_core_of(&c, step);
	}
	free(t);
	return 0;
}

/* ---- Student's t ---- */

/* continued fraction of the regularized incomplete beta (Lentz) */
static double betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
		c = 1 + aa / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
		c = 1 + aa / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* P(T > t) for t >= 0, df degrees of freedom */
static double t_sf(double t, double df)
{
	return 0.5 * ibeta(df / 2, 0.5, df / (df + t * t));
}

/* the quantile t(1 - q, df), 0 < q < 0.5, by bisection to 1e-12 */
double cs_t_quantile(double q, double df)
{
	double lo = 0, hi = 1;

	while (t_sf(hi, df) > q && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (t_sf(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* ---- a median's interval ---- */

/*
 * The distribution-free 95 % interval of a median of n: x(k) and
 * x(n + 1 - k) of the sorted x, k the largest with P(B < k) <= 2.5 %,
 * B ~ Binomial(n, 1/2).  0 when n < 6: no such k.
 */
static uint64_t order_k(uint64_t n)
{
	double p = ldexp(1, -(int)(n < 1000 ? n : 1000)), cdf = 0;
	uint64_t k = 0;

	if (n < 6)
		return 0;
	if (n >= 1000)	/* the normal approximation, a sample either way */
		return (uint64_t)floor(n / 2.0 - 1.96 * sqrt((double)n) / 2);
	/* cdf = P(B <= k), p = P(B = k) */
	for (cdf = p; cdf <= 0.025; k++) {
		p = p * (double)(n - k) / (double)(k + 1);
		cdf += p;
	}
	return k;
}

/*
 * the median of x with its 95 % interval (order_k()); x is sorted in
 * place; lo = hi = NaN when n < 6, lo = hi = the median when every x is
 * the same
 */
void cs_median_ci(long double *x, uint64_t n, long double *med, long double *lo,
		  long double *hi)
{
	uint64_t k = order_k(n);

	*med = cs_median_ld(x, n);
	if (x[0] == x[n - 1]) {
		*lo = *hi = *med;
		return;
	}
	*lo = k ? x[k - 1] : NAN;
	*hi = k ? x[n - k] : NAN;
}

/*
 * Student's t on two samples' means, as ministat: NEW's mean (@y) less
 * BASE's (@x), its 95 % half-width over the pooled standard deviation,
 * and whether the difference is proven.  -1 with under two samples a side.
 */
int cs_student_t(const struct cs_figs *x, const struct cs_figs *y, struct cs_tdiff *r)
{
	long double s2;
	double t;

	if (x->n < 2 || y->n < 2)
		return -1;
	r->base = cs_q_ld(x->mean);
	r->d = cs_q_ld(y->mean) - r->base;
	s2 = ((long double)(x->n - 1) * x->sd * x->sd + (long double)(y->n - 1) * y->sd * y->sd) /
	     (long double)(x->n + y->n - 2);
	t = cs_t_quantile(0.025, (double)(x->n + y->n - 2));
	r->s = sqrtl(s2);
	r->half = (long double)t * r->s * sqrtl(1.0L / x->n + 1.0L / y->n);
	r->proven = fabsl(r->d) > r->half;
	return 0;
}

/* the farther of an interval's ends from its figure */
long double cs_est_half(const struct cs_est *e)
{
	long double v = cs_q_ld(e->value);

	return fmaxl(v - e->lo, e->hi - v);
}

/*
 * How far the per-op cost may be off, for the calibration's error carried
 * into other figures: its interval's farther end; under six ensembles,
 * where a median has no 95 % interval, the farthest ensemble (the interval
 * k = 1 would give, covering 1 - 2^(1 - E) of the time); 0 for one.
 */
long double cs_perop_half(const struct cs_perop *p)
{
	long double v = cs_q_ld(p->med.value), h = 0;

	if (!isnan(p->med.lo))
		return cs_est_half(&p->med);
	for (uint64_t e = 0; p->med.n >= 2 && e < p->med.n; e++)
		h = fmaxl(h, fabsl(p->each[e] - v));
	return h;
}

/* ---- the two-length per-op cost ---- */

/*
 * The minimum's: d[e] = min_e(long) - min_e(short) in ticks; per op
 * divides by (R - 1) ops. Mean exact, interval in long double.
 */
static void perop_min(const s128 *d, uint64_t n, uint64_t r, uint64_t ops, struct cs_est *est)
{
	s128 sum = 0;
	u128 den = (u128)(r - 1) * ops;
	long double m, ss = 0;
	int same = 1;

	for (uint64_t e = 0; e < n; e++) {
		sum += d[e];
		same &= d[e] == d[0];
	}
	est->value = (struct cs_q){ .num = sum, .den = den * n };
	est->n = n;
	m = cs_q_ld(est->value);
	for (uint64_t e = 0; e < n; e++) {
		long double x = (long double)d[e] / (long double)den - m;

		ss += x * x;
	}
	if (n < 2) {
		est->lo = est->hi = NAN;
		return;
	}
	/* identical ensembles (icount): exactly no spread, not rounding noise */
	if (same) {
		est->lo = est->hi = m;
		return;
	}
	{
		long double half = cs_t_quantile(0.025, (double)(n - 1)) *
				   sqrtl(ss / (n - 1)) / sqrtl((long double)n);

		est->lo = m - half;
		est->hi = m + half;
	}
}

static int q_cmp(const void *a, const void *b)
{
	return cs_q_cmp(*(const struct cs_q *)a, *(const struct cs_q *)b);
}

/*
 * The headline: per ensemble (core_l - core_s) / ((R - 1) ops), exact;
 * their median, exact, with its order-statistic interval.
 */
static int perop_core(const struct cs_q *core_s, const struct cs_q *core_l, uint64_t n,
		      uint64_t r, uint64_t ops, struct cs_perop *p)
{
	struct cs_q *q = malloc(n * sizeof(*q));
	long double *x = malloc(n * sizeof(*x)), m;

	if (!q || !x) {
		free(q);
		free(x);
		return -1;
	}
	for (uint64_t e = 0; e < n; e++) {
		q[e] = cs_q_div(cs_q_sub(core_l[e], core_s[e]), (r - 1) * ops);
		p->each[e] = x[e] = cs_q_ld(q[e]);
	}
	qsort(q, n, sizeof(*q), q_cmp);
	p->med.value = n % 2 ? q[n / 2] : cs_q_div(cs_q_add(q[n / 2 - 1], q[n / 2]), 2);
	p->med.n = n;
	cs_median_ci(x, n, &m, &p->med.lo, &p->med.hi);
	if (n < 2)
		p->med.lo = p->med.hi = NAN;
	free(q);
	free(x);
	return 0;
}

int cs_perop(const struct cs_q *core_s, const uint64_t *min_s, const struct cs_q *core_l,
	     const uint64_t *min_l, uint64_t n, uint64_t r, uint64_t ops,
	     struct cs_perop *p)
{
	s128 *d = calloc(n, sizeof(*d));

	if (!d)
		return -1;
	p->each = malloc(n * sizeof(*p->each));
	if (!p->each || perop_core(core_s, core_l, n, r, ops, p)) {
		free(d);
		return -1;
	}
	p->repeat = r;
	for (uint64_t e = 0; e < n; e++)
		d[e] = (s128)min_l[e] - (s128)min_s[e];
	perop_min(d, n, r, ops, &p->min);
	free(d);
	p->ok = 1;
	return 0;
}

/*
 * mean of x with its 95 % t-interval; lo = hi = NaN for n < 2, lo = hi =
 * the mean when every x is the same
 */
void cs_mean_ci(const long double *x, uint64_t n, long double *mean, long double *lo,
		long double *hi)
{
	long double m = 0, ss = 0, half;
	int same = 1;

	for (uint64_t i = 0; i < n; i++) {
		m += x[i];
		same &= x[i] == x[0];
	}
	m /= n;
	*mean = same ? x[0] : m;
	if (n < 2) {
		*lo = *hi = NAN;
		return;
	}
	if (same) {
		*lo = *hi = *mean;
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	half = cs_t_quantile(0.025, (double)(n - 1)) * sqrtl(ss / (n - 1)) / sqrtl((long double)n);
	*lo = m - half;
	*hi = m + half;
}

/* ---- the headline: which figure a fragment's cost is, in which unit ---- */

/* ticks per core cycle, where that means something: 0 under an emulator */
long double cs_core_calib(const struct cs_frag *fr)
{
	return fr->emulated ? 0 : fr->calib;
}

/* the overhead a fragment's figures are net of, or NULL (raw) */
const struct cs_q *cs_shift_of(const struct cs_input *in, const struct cs_frag *fr)
{
	return in->has_overhead && fr->net_ok ? &in->overhead : NULL;
}

/*
 * The headline per-op cost of a fragment, the one every output shows: the
 * two-length figure, else net of base:empty, else raw; in core cycles
 * where its run calibrated a real clock, else in ticks.
 */
struct cs_cost cs_cost_of(const struct cs_frag *fr)
{
	struct cs_cost c;
	long double cal = cs_core_calib(fr);

	c.basis = fr->perop.ok ? CS_BASIS_TWO_LENGTH : fr->net_ok ? CS_BASIS_NET : CS_BASIS_RAW;
	c.est = c.basis == CS_BASIS_TWO_LENGTH ? &fr->perop.med : &fr->netop;
	c.unit = fr->emulated ? CS_UNIT_EMULATED : cal > 0 ? CS_UNIT_CORE : CS_UNIT_TICKS;
	c.scale = cal > 0 ? cal : 1;
	c.v = cs_q_ld(c.est->value) / c.scale;
	c.lo = c.est->lo / c.scale;
	c.hi = c.est->hi / c.scale;
	return c;
}

/* enum cs_unit's words, in every output */
const char *cs_unit_name(enum cs_unit u)
{
	static const char *const names[] = {
		[CS_UNIT_TICKS] = "ticks", [CS_UNIT_CORE] = "core cycles (calibrated)",
		[CS_UNIT_EMULATED] = "emulated ticks",
	};

	return names[u];
}
