// SPDX-License-Identifier: GPL-2.0
/*
 * infer.c - statements about more than one number from one result:
 * per-ensemble aggregates, the two-length per-op cost with its t-interval,
 * Student's t quantile, and a mean's t-interval. The rank tests of
 * compare are in ranks.c.
 *
 * Definitions (cyclestat(1) repeats them):
 *   per-op cost	per ensemble e, (agg_e(long) - agg_e(short)) / ((R - 1) ops),
 *		agg = median (the headline) or minimum; the figure is the mean
 *		over ensembles, exact; its 95 % interval is mean +- t(0.975, E-1)
 *		s / sqrt(E) with s the sample sd over ensembles (none for E = 1)
 *
 * A leaf: calls stats.c's sort only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"

/* ---- per-ensemble aggregates, on samples in run order ---- */

/* twice the median and the minimum of each ensemble; v is not changed */
int cs_ens_aggs(const uint64_t *v, uint64_t count, uint64_t size, u128 *med2, uint64_t *min)
{
	uint64_t *t = malloc(size * sizeof(*t));

	if (!t)
		return -1;
	for (uint64_t j = 0; j < count; j++) {
		memcpy(t, v + j * size, size * sizeof(*t));
		cs_sort(t, size);
		min[j] = t[0];
		med2[j] = size % 2 ? (u128)t[size / 2] * 2 : (u128)t[size / 2 - 1] + t[size / 2];
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

/* ---- the two-length per-op cost ---- */

/*
 * One aggregate: d[e] = agg_e(long) - agg_e(short), in units of 1/den2 of
 * a tick (den2 = 2 for medians, 1 for minimums); per op divides by
 * (R - 1) ops. Mean exact, interval in long double.
 */
static void perop_one(const s128 *d, uint64_t n, u128 den2, uint64_t r, uint64_t ops,
		      struct cs_est *est, long double *each)
{
	s128 sum = 0;
	u128 den = den2 * (u128)(r - 1) * ops;
	long double m, ss = 0;
	int same = 1;

	for (uint64_t e = 0; e < n; e++) {
		sum += d[e];
		same &= d[e] == d[0];
		if (each)
			each[e] = (long double)d[e] / (long double)den;
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

int cs_perop(const u128 *med_s, const uint64_t *min_s, const u128 *med_l,
	     const uint64_t *min_l, uint64_t n, uint64_t r, uint64_t ops,
	     struct cs_perop *p)
{
	s128 *d = calloc(n, sizeof(*d));

	if (!d)
		return -1;
	p->each = malloc(n * sizeof(*p->each));
	if (!p->each) {
		free(d);
		return -1;
	}
	p->repeat = r;
	for (uint64_t e = 0; e < n; e++)
		d[e] = (s128)med_l[e] - (s128)med_s[e];
	perop_one(d, n, 2, r, ops, &p->med, p->each);
	for (uint64_t e = 0; e < n; e++)
		d[e] = (s128)min_l[e] - (s128)min_s[e];
	perop_one(d, n, 1, r, ops, &p->min, NULL);
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
