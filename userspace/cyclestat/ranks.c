// SPDX-License-Identifier: GPL-2.0
/*
 * ranks.c - the rank tests of compare: two samples (exact Mann-Whitney
 * distribution, Hodges-Lehmann shift and its interval) and paired
 * repetitions (Wilcoxon signed-rank, one-sample Hodges-Lehmann), with the
 * fewest repetitions at which each can decide at all.
 *
 * Definitions (cyclestat(1) repeats them):
 *   HL shift	median of the n m differences new_j - base_i; its interval
 *		[D(k), D(nm + 1 - k)] with k from the exact null distribution
 *		of U (R's wilcox.test(conf.int = TRUE)), the normal
 *		approximation above 50 per side
 *   paired	the median of the Walsh averages (d_i + d_j) / 2 of the
 *		differences, its interval from the exact signed-rank
 *		distribution up to 50 pairs (R's wilcox.test(paired = TRUE,
 *		conf.int = TRUE)), the normal approximation with ties beyond
 *
 * A leaf: calls nothing of cyclestat's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"

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

/* z with P(Z > z) = q: the standard normal CDF inverted at 1 - q, by bisection */
double cs_z_upper(double q)
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
	/* R's correction: z - sign(z) / 2, so |z| < 1/2 crosses zero, not clamps */
	double z = sd > 0 && stat != mu ? fabs(fabs(stat - mu) - 0.5) / sd : 0;

	r->p = sd > 0 ? erfc(z / M_SQRT2) : 1;
	r->min_p = 0;
	r->level = conf;
	return (size_t)fmax(0, floor(mu - cs_z_upper((1 - conf) / 2) * sd0));
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

/* sum of t^3 - t over the pooled sample's runs of t equal values; -1: no memory */
static double pooled_ties(const long double *x, size_t n, const long double *y, size_t m)
{
	long double *all = malloc((n + m) * sizeof(*all));
	double ties = 0;

	if (!all)
		return -1;
	memcpy(all, x, n * sizeof(*x));
	memcpy(all + n, y, m * sizeof(*y));
	qsort(all, n + m, sizeof(*all), cs_cmp_ld);
	for (size_t i = 0, j; i < n + m; i = j) {
		for (j = i; j < n + m && all[j] == all[i]; j++)
			;
		ties += pow((double)(j - i), 3) - (double)(j - i);
	}
	free(all);
	return ties;
}

/*
 * The two-sided p of y's rank sum given the ties: every choice of m of
 * the n + m pooled values alike, each value at its midrank (half units:
 * a tie over ranks i+1 .. j counts i + 1 + j).  cnt[k][s]: the ways k
 * chosen values sum to s, over the values so far.  p = twice the smaller
 * tail, at most 1.
 */
static int tied_p(const long double *x, size_t n, const long double *y, size_t m, double *p)
{
	size_t nn = n + m, top = nn * (nn + 1), obs = 0;
	long double *all = malloc(nn * sizeof(*all));
	double *cnt = calloc((m + 1) * (top + 1), sizeof(*cnt)), lo = 0, hi = 0, total = 0;

	if (!all || !cnt) {
		free(all);
		free(cnt);
		return -1;
	}
	memcpy(all, x, n * sizeof(*x));
	memcpy(all + n, y, m * sizeof(*y));
	qsort(all, nn, sizeof(*all), cs_cmp_ld);
	cnt[0] = 1;
	for (size_t i = 0, j; i < nn; i = j) {
		for (j = i; j < nn && all[j] == all[i]; j++)
			;
		for (size_t t = i; t < j; t++) {
			size_t h = i + 1 + j;

			for (size_t k = m; k >= 1; k--)
				for (size_t s = top; s >= h; s--)
					cnt[k * (top + 1) + s] += cnt[(k - 1) * (top + 1) + s - h];
		}
		for (size_t v = 0; v < m; v++)
			obs += y[v] == all[i] ? i + 1 + j : 0;
	}
	for (size_t s = 0; s <= top; s++) {
		double c = cnt[m * (top + 1) + s];

		total += c;
		lo += s <= obs ? c : 0;
		hi += s >= obs ? c : 0;
	}
	*p = fmin(1, 2 * fmin(lo, hi) / total);
	free(all);
	free(cnt);
	return 0;
}

/*
 * base x[0..n), new y[0..m): the two-sided Mann-Whitney p-value (exact up
 * to CS_EXACT_MAX per side, over the midranks where there are ties; else
 * normal with tie and continuity corrections, R's wilcox.test), and the
 * Hodges-Lehmann shift of y against x with its interval at level conf.
 */
int cs_two_sample(const long double *x, size_t n, const long double *y, size_t m,
		  double conf, struct cs_shift *r)
{
	size_t nm = n * m, k;
	long double *d = malloc(nm * sizeof(*d));
	double u = 0, ties;

	if (!d)
		return -1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++) {
			d[i * m + j] = y[j] - x[i];
			u += y[j] > x[i] ? 1 : y[j] == x[i] ? 0.5 : 0;
		}
	r->est = cs_median_ld(d, nm);
	ties = pooled_ties(x, n, y, m);
	if (ties < 0) {
		free(d);
		return -1;
	}
	/*
	 * exact up to CS_EXACT_MAX a side; with ties, p from the permutation
	 * distribution of the midranks (scipy's mannwhitneyu(method=
	 * PermutationMethod()), coin's exact test), not the tie-free one
	 */
	r->exact = n <= CS_EXACT_MAX && m <= CS_EXACT_MAX;
	if (r->exact && ties > 0 && tied_p(x, n, y, m, &r->p)) {
		free(d);
		return -1;
	}
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
		if (ties == 0)
			r->p = 2 * u_cdf(c, nm, total, (long long)floorl(lo_u));
		/* k: qwilcox((1 - conf) / 2), at least 1 */
		for (k = 0; k < nm && u_cdf(c, nm, total, (long long)k) < (1 - conf) / 2; k++)
			;
		/*
		 * [D(k), D(nm + 1 - k)] covers with 1 - 2 P(U <= k - 1): at
		 * least conf, but below it where k = 1 is the widest there is
		 * (3 v 3: min..max of the nine differences, 90 %)
		 */
		r->level = 1 - 2 * u_cdf(c, nm, total, (long long)(k ? k : 1) - 1);
		r->min_p = 2 * c[0] / total;
		free(c);
	} else {
		double mu = nm / 2.0;
		double s = sqrt(n * m / 12.0 * ((n + m + 1) - ties / ((double)(n + m) * (n + m - 1))));

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
	r->level = 1;	/* every difference 0: the interval [0, 0] is certain */
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
	r->est = cs_median_ld(w, nw);
	/*
	 * exact up to CS_EXACT_MAX pairs: the permutation distribution of the
	 * midranks, zeros dropped (scipy's wilcoxon(zero_method="wilcox",
	 * method=PermutationMethod()), coin's exact test), so ties cost no power
	 */
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
		/* its coverage, 1 - 2 P(W <= k - 1), as for two samples */
		cum = 0;
		for (size_t i = 0; i < (k ? k : 1); i++)
			cum += c[i];
		r->level = 1 - 2 * cum / total;
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
