// SPDX-License-Identifier: GPL-2.0
/*
 * infer.c - statements about more than one number: per-ensemble
 * aggregates, the two-length per-op cost with its t-interval, Student's t
 * quantile, and the two-sample tests of compare (exact Mann-Whitney
 * distribution, Hodges-Lehmann shift and its interval).
 *
 * Definitions (cyclestat(1) repeats them):
 *   per-op cost	per ensemble e, (agg_e(long) - agg_e(short)) / ((R - 1) ops),
 *		agg = median (the headline) or minimum; the figure is the mean
 *		over ensembles, exact; its 95 % interval is mean +- t(0.975, E-1)
 *		s / sqrt(E) with s the sample sd over ensembles (none for E = 1)
 *   HL shift	median of the n m differences new_j - base_i; its interval
 *		[D(k), D(nm + 1 - k)] with k from the exact null distribution
 *		of U (R's wilcox.test(conf.int = TRUE)), the normal
 *		approximation above 50 per side
 *
 * A leaf: calls stats.c's sort only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"

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

/* ---- two samples: exact U distribution, Mann-Whitney, Hodges-Lehmann ---- */

#define CS_EXACT_MAX 50

/*
 * Counts of U = 0 .. nm under H0 for sizes n, m (no ties): the
 * coefficients of the Gaussian binomial [n+m choose n]_q, built as the
 * product over i = 1..n of (1 - q^(m+i)) / (1 - q^i). Doubles: C(100, 50)
 * is 1e29, exact enough for probabilities.
 */
static double *u_counts(size_t n, size_t m)
{
	size_t top = n * m;
	double *c = calloc(top + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= n; i++) {
		/* multiply by (1 - q^(m+i)) */
		for (size_t k = top; k >= m + i; k--)
			c[k] -= c[k - m - i];
		/* divide by (1 - q^i): c[k] += c[k - i] */
		for (size_t k = i; k <= top; k++)
			c[k] += c[k - i];
	}
	return c;
}

/* P(U <= k) under H0; cum is filled from counts */
static double u_cdf(const double *c, size_t top, double total, long long k)
{
	double s = 0;

	if (k < 0)
		return 0;
	for (size_t i = 0; i <= top && (long long)i <= k; i++)
		s += c[i];
	return s / total;
}

static int cmp_ld(const void *a, const void *b)
{
	long double x = *(const long double *)a, y = *(const long double *)b;

	return (x > y) - (x < y);
}

/* inverse of the standard normal CDF at 1 - q, for small q (Acklam) */
static double z_upper(double q)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / M_SQRT2) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The normal approximation of a rank statistic: the two-sided p of stat
 * (mean mu, sd with ties, continuity-corrected), and the rank k of the
 * interval's ends from sd0, the sd without ties.
 */
static size_t normal_approx(double stat, double mu, double sd, double sd0, double conf,
			    struct cs_shift *r)
{
	double z = sd > 0 ? (fabs(stat - mu) - 0.5) / sd : 0;

	r->p = sd > 0 ? erfc(fmax(z, 0) / M_SQRT2) : 1;
	r->min_p = 0;
	return (size_t)fmax(0, floor(mu - z_upper((1 - conf) / 2) * sd0));
}

/* p at most 1; the interval: the k-th (at least the 1st) of sorted v[0..nv) from each end */
static void interval(struct cs_shift *r, const long double *v, size_t nv, size_t k)
{
	if (r->p > 1)
		r->p = 1;
	if (k < 1)
		k = 1;
	r->lo = v[k - 1];
	r->hi = v[nv - k];
}

/*
 * base x[0..n), new y[0..m): the two-sided Mann-Whitney p-value (exact up
 * to CS_EXACT_MAX per side, else normal with tie correction), and the
 * Hodges-Lehmann shift of y against x with its interval at level conf.
 */
int cs_two_sample(const long double *x, size_t n, const long double *y, size_t m,
		  double conf, struct cs_shift *r)
{
	size_t nm = n * m, k;
	long double *d = malloc(nm * sizeof(*d));
	double u = 0;

	if (!d)
		return -1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++) {
			d[i * m + j] = y[j] - x[i];
			u += y[j] > x[i] ? 1 : y[j] == x[i] ? 0.5 : 0;
		}
	qsort(d, nm, sizeof(*d), cmp_ld);
	r->est = nm % 2 ? d[nm / 2] : (d[nm / 2 - 1] + d[nm / 2]) / 2;
	r->exact = n <= CS_EXACT_MAX && m <= CS_EXACT_MAX;
	if (r->exact) {
		double *c = u_counts(n, m), total = 0;
		long double lo_u;

		if (!c) {
			free(d);
			return -1;
		}
		for (size_t i = 0; i <= nm; i++)
			total += c[i];
		/* U is symmetric about nm/2: the tail of the smaller side, twice */
		lo_u = u < nm - u ? u : nm - u;
		r->p = 2 * u_cdf(c, nm, total, (long long)floorl(lo_u));
		/* k: qwilcox((1 - conf) / 2), at least 1 */
		for (k = 0; k < nm && u_cdf(c, nm, total, (long long)k) < (1 - conf) / 2; k++)
			;
		r->min_p = 2 * c[0] / total;
		free(c);
	} else {
		double mu = nm / 2.0, s = sqrt(nm * (n + m + 1) / 12.0);
		double ties = 0;

		/* tie correction over the pooled sample */
		{
			long double *all = malloc((n + m) * sizeof(*all));

			if (!all) {
				free(d);
				return -1;
			}
			memcpy(all, x, n * sizeof(*x));
			memcpy(all + n, y, m * sizeof(*y));
			qsort(all, n + m, sizeof(*all), cmp_ld);
			for (size_t i = 0, j; i < n + m; i = j) {
				for (j = i; j < n + m && all[j] == all[i]; j++)
					;
				ties += pow((double)(j - i), 3) - (double)(j - i);
			}
			free(all);
			s = sqrt(n * m / 12.0 * ((n + m + 1) - ties / ((double)(n + m) * (n + m - 1))));
		}
		k = normal_approx(u, mu, s, sqrt(nm * (n + m + 1) / 12.0), conf, r);
	}
	interval(r, d, nm, k);
	free(d);
	return 0;
}

/* ---- paired repetitions: Wilcoxon signed-rank, one-sample Hodges-Lehmann ---- */

/*
 * Counts of the signed-rank sum under H0 (every sign + or - alike) for the
 * ranks r[0..n) (in half units where ties make midranks): the polynomial
 * product of (1 + q^r[i]). 2^n <= 2^50: exact in doubles.
 */
static double *w_counts(const size_t *r, size_t n, size_t top)
{
	double *c = calloc(top + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = top; k >= r[i]; k--)
			c[k] += c[k - r[i]];
	return c;
}

static int cmp_abs(const void *a, const void *b)
{
	long double x = fabsl(*(const long double *)a), y = fabsl(*(const long double *)b);

	return (x > y) - (x < y);
}

/*
 * d[0..n): the differences of paired repetitions (NEW - BASE, of logarithms
 * where the caller took them). Zeros are dropped, as Wilcoxon does. The
 * two-sided signed-rank p-value: exact given the ranks (ties included) up
 * to CS_EXACT_MAX pairs, else normal with tie correction. The shift: the
 * median of the Walsh averages, its interval at level conf from the
 * no-tie distribution: what R's wilcox.test(conf.int = TRUE) gives.
 */
int cs_paired(const long double *d, size_t n, double conf, struct cs_shift *r)
{
	long double *a = malloc((n ? n : 1) * sizeof(*a)), *w = NULL;
	size_t *rk = NULL, m = 0, nw, top, k = 0;
	double *c = NULL, total, wp = 0, ties = 0, cum = 0;
	int ret = -1;

	if (!a)
		return -1;
	memset(r, 0, sizeof(*r));
	r->p = r->min_p = 1;
	r->exact = 1;
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0)
			a[m++] = d[i];
	if (!m) {
		free(a);
		return 0;
	}
	qsort(a, m, sizeof(*a), cmp_abs);
	nw = m * (m + 1) / 2;
	rk = malloc(m * sizeof(*rk));
	w = malloc(nw * sizeof(*w));
	if (!rk || !w)
		goto out;
	/* ranks in half units: a tie over ranks i+1 .. j shares i + 1 + j */
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i; j < m && fabsl(a[j]) == fabsl(a[i]); j++)
			;
		for (size_t t = i; t < j; t++) {
			rk[t] = i + 1 + j;
			wp += a[t] > 0 ? (double)rk[t] : 0;
		}
		ties += pow((double)(j - i), 3) - (double)(j - i);
	}
	top = m * (m + 1);
	for (size_t i = 0; i < m; i++)
		for (size_t j = i; j < m; j++)
			w[k++] = (a[i] + a[j]) / 2;
	qsort(w, nw, sizeof(*w), cmp_ld);
	r->est = nw % 2 ? w[nw / 2] : (w[nw / 2 - 1] + w[nw / 2]) / 2;
	r->exact = m <= CS_EXACT_MAX;
	if (r->exact) {
		double lo = wp < top - wp ? wp : top - wp;

		c = w_counts(rk, m, top);
		if (!c)
			goto out;
		total = ldexp(1, (int)m);
		for (size_t s = 0; s <= top && s <= lo; s++)
			cum += c[s];
		r->p = 2 * cum / total;
		r->min_p = 2 / total;
		free(c);
		/* the interval: whole ranks 1..m, no ties */
		for (size_t i = 0; i < m; i++)
			rk[i] = i + 1;
		c = w_counts(rk, m, nw);
		if (!c)
			goto out;
		cum = c[0];
		for (k = 0; k < nw && cum / total < (1 - conf) / 2; k++)
			cum += c[k + 1];
	} else {
		double mu = nw / 2.0, sd = sqrt(m * (m + 1) * (2.0 * m + 1) / 24 - ties / 48);

		k = normal_approx(wp / 2, mu, sd, sqrt(m * (m + 1) * (2.0 * m + 1) / 24), conf, r);
	}
	interval(r, w, nw, k);
	ret = 0;
out:
	free(c);
	free(rk);
	free(w);
	free(a);
	return ret;
}

/* The fewest pairs at which the two-sided exact test can reach p < alpha: 2 / 2^n < alpha. */
unsigned int cs_min_pairs(double alpha)
{
	for (unsigned int n = 1; n < 64; n++)
		if (ldexp(2, -(int)n) < alpha)
			return n;
	return 64;
}

/*
 * The smallest equal n per side at which the two-sided exact test can
 * reach p < alpha at all: 2 / C(2n, n) < alpha.
 */
unsigned int cs_min_reps(double alpha)
{
	double c = 2;	/* C(2, 1) */

	for (unsigned int n = 1; n < 64; n++) {
		if (2 / c < alpha)
			return n;
		/* C(2n+2, n+1) = C(2n, n) (2n+1)(2n+2) / (n+1)^2 */
		c = c * (2.0 * n + 1) * (2.0 * n + 2) / ((n + 1.0) * (n + 1.0));
	}
	return 64;
}
