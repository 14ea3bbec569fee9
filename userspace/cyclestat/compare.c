// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - cyclestat compare BASE... [-- NEW...]: did anything get slower?
 *
 * The unit of comparison is a repetition, never a raw sample: samples of
 * one run share its frequency, layout and host load, so testing them as
 * independent calls every rerun "significant". Each tree (run) is one
 * repetition; a result's ensembles are repetitions only where its setup ran
 * afresh before each (setup: ensemble) and its side is a single run, or
 * with --ensembles, which the output flags: they cannot show the spread between runs (between boots,
 * where a CI baseline comes from). Per repetition the figure is the fragment's own
 * cost: the two-length per-op cost where both sides have cycles_long, else
 * the median net of base:empty from the same run and method, else the raw
 * median (base:empty itself).
 *
 * Per fragment: the Hodges-Lehmann estimate of the change (a ratio, on
 * logarithms, when every figure is positive; else a shift relative to the
 * base median) with its 95 % interval from the exact distribution of the
 * Mann-Whitney U, and U's two-sided p-value. With --paired (BASE and NEW
 * run alternately, or interleaved in one run: their k-th repetitions saw
 * the same clock), the one-sample Hodges-Lehmann estimate of the pairs'
 * differences, its interval and p from Wilcoxon's signed-rank test. The
 * verdict:
 *   slower / faster	p < alpha over all the rows (Holm, cs_cmp_family())
 *			and the whole interval beyond +-threshold
 *   same		the whole interval within +-threshold
 *   inconclusive	neither: says how many repetitions might decide it
 *   not enough runs	fewer per side than can ever reach p < alpha (over
 *			the rows, for a row beyond the threshold)
 * The interval over runs is at least one clock step either side (step_floor()),
 * and every row says the smallest change it can see (c->mdc).
 *   unpaired		--paired, but the sides have unequal repetitions
 *   missing, aborted, failed, skipped	in BASE, not (or not cleanly) in NEW
 * Exit 1 when something is slower or missing (unless --allow-missing), else
 * 2 when a row could not be compared (incomplete, an error): gate.c.
 *
 * Calls fragment.c, ranks.c and fmt.c.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "commands.h"

#include "compare.h"

/*
 * The figure of one run, or of each of its ensembles, for basis b: the cost
 * of one execution of the body in ticks (per op times ops), so that a
 * change of ops (an argument compared with another) is a change of cost,
 * and equal ops give the same ratio as per op.
 */
static size_t run_figures(const struct cs_input *in, const struct cs_frag *fr, enum cs_basis b,
			  int per_run, int cal, long double *out)
{
	long double ov = fr->net_ok ? cs_q_ld(in->overhead) : 0;
	long double sc = cal ? fr->calib : 1;

	if (per_run) {
		if (b == CS_BASIS_TWO_LENGTH)
			out[0] = cs_q_ld(fr->perop.med.value) * fr->ops / sc;
		else
			out[0] = (cs_q_ld(fr->raw.median) - (b == CS_BASIS_NET ? ov : 0)) / sc;
		return 1;
	}
	for (uint64_t e = 0; e < fr->ens.count; e++)
		out[e] = (b == CS_BASIS_TWO_LENGTH ? fr->perop.each[e] * fr->ops :
			  (long double)fr->ens.med2[e] / 2 - (b == CS_BASIS_NET ? ov : 0)) / sc;
	return fr->ens.count;
}

/*
 * Are this result's ensembles independent repetitions?  When the user says
 * so (--ensembles); or when its setup ran afresh before each (setup:
 * ensemble) and the side is one run.  With several runs the runs are the
 * unit: what is fixed for a whole run (the clock, the code's placement)
 * moves the figure more than a fresh setup does, so ten ensembles of each
 * of five unchanged runs are five repetitions, not fifty.
 */
static int ens_are_reps(const struct cs_opts *o, const struct side *s, const struct cs_frag *fr)
{
	const char *setup = cs_info_get(&fr->info, CB_INFO_setup);

	return o->ensembles || (s->n == 1 && setup && !strcmp(setup, CB_SETUP_ENSEMBLE));
}

/*
 * The runs that have the row, in use[side][run], and how many, in runs[]:
 * a run without it (one that failed for it, another selection, a result
 * directory its fragments file does not list) is left out, never read as
 * a repetition.  --paired, with as many runs a side: the pairs whose two
 * runs both have it, since leaving out one run of a pair would pair every
 * later run with its neighbour's partner.  0, or -1 out of memory.
 */
static int runs_with(const struct cs_opts *o, const struct side *s, const char *name, int any,
		     unsigned char *use[2], size_t runs[2])
{
	for (int sd = 0; sd < 2; sd++) {
		use[sd] = calloc(s[sd].n + 1, 1);
		if (!use[sd])
			return -1;
		for (size_t i = 0; i < s[sd].n; i++) {
			const struct cs_frag *fr = cs_gate_find(&s[sd].in[i], name, any);

			/* an aborted or failed result's figures are stale (gate.c) */
			use[sd][i] = fr && !fr->stale;
		}
	}
	for (size_t i = 0; o->paired && s[0].n == s[1].n && i < s[0].n; i++)
		use[0][i] = use[1][i] = use[0][i] && use[1][i];
	for (int sd = 0; sd < 2; sd++) {
		runs[sd] = 0;
		for (size_t i = 0; i < s[sd].n; i++)
			runs[sd] += use[sd][i];
	}
	return 0;
}

/*
 * One step of the clock in the unit of the figures of basis @b: what a
 * median that locks on a step can be off by (the largest of the runs').
 * A two-length figure is (long - short) over R - 1 copies, so a step of
 * it is step / (R - 1); in core cycles, over the run's calib.  *coarse:
 * some run's clock moves in steps of 2 ticks or more (a step of 1, exact
 * counts, rounds nothing: cs_tsc_step()).
 */
static long double step_of(const struct side *s, const char *name, int any, enum cs_basis b,
			   int cal, int *coarse)
{
	long double st = 0;

	*coarse = 0;

	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++) {
			const struct cs_frag *fr = cs_gate_find(&s[sd].in[i], name, any);
			long double v;

			if (!fr)
				continue;
			v = cs_tsc_step(&s[sd].in[i], fr);
			*coarse |= v >= 2;
			if (b == CS_BASIS_TWO_LENGTH && fr->perop.repeat > 1)
				v /= fr->perop.repeat - 1;
			if (cal && fr->calib > 0)
				v /= fr->calib;
			st = fmaxl(st, v);
		}
	return st;
}

/* gather one side's repetitions of NAME from the runs @use marks; NULL when none has data */
static long double *side_figures(const struct cs_opts *o, const struct side *s,
				 const unsigned char *use, const char *name, int any,
				 enum cs_basis b, int cal, size_t *n, int *smi, int *by_ens)
{
	size_t cap = 0;
	long double *v;

	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = use[i] ? cs_gate_find(&s->in[i], name, any) : NULL;

		if (fr)
			cap += ens_are_reps(o, s, fr) ? fr->ens.count : 1;
	}
	*n = 0;
	if (!cap || !(v = calloc(cap, sizeof(*v))))
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = use[i] ? cs_gate_find(&s->in[i], name, any) : NULL;

		if (fr) {
			*n += run_figures(&s->in[i], fr, b, !ens_are_reps(o, s, fr), cal, v + *n);
			*smi |= fr->smi;
			*by_ens |= ens_are_reps(o, s, fr) && fr->ens.count > 1;
		}
	}
	return v;
}

/*
 * What every run of the row allows: two-length when every tree has it, net
 * when every tree can, else raw; in core cycles when every run has its own
 * calib:add_chain (same run and method: a run's clock speed, turbo or the
 * host's load under TCG, then cancels out); and whether any was emulated.
 */
static void row_kind(const struct cs_opts *o, const struct side *s, const char *name, int any,
		     struct cmp *c)
{
	int perop = 1, net = cs_ref_of(name) != CS_REF_EMPTY, all = 1, seen = 0;

	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++) {
			const struct cs_frag *fr = cs_gate_find(&s[sd].in[i], name, any);

			if (!fr)
				continue;
			seen = 1;
			perop &= fr->perop.ok;
			net &= fr->net_ok;
			all &= fr->calib > 0 && fr->ref != CS_REF_ADD;
			c->emul |= fr->emulated;
		}
	c->basis = perop ? CS_BASIS_TWO_LENGTH : net ? CS_BASIS_NET : CS_BASIS_RAW;
	c->cal = !o->ticks && seen && all;
}

/* a shift of the figures over BASE's median: +-inf where that is 0 */
static double rel(long double v, long double base)
{
	return base ? (double)(v / fabsl(base)) : v > 0 ? INFINITY : v < 0 ? -INFINITY : 0;
}

/*
 * The change and its interval relative to BASE's median, from the shift
 * in c->t; an interval that covers with probability 0 (one repetition a
 * side) is none.
 */
static void relative(struct cmp *c, long double base)
{
	c->change = rel(c->t.est, base);
	c->lo = c->t.level > 0 ? rel(c->t.lo, base) : NAN;
	c->hi = c->t.level > 0 ? rel(c->t.hi, base) : NAN;
}

/* the unit of a row's figures, as a reason names it */
static const char *unit_word(const struct cmp *c)
{
	return !c->cal ? "ticks" : c->emul ? "adds" : "cycles";
}

/*
 * Intervals over runs carry the clock's step, as each run's does: a median
 * locked on a step can be a step off, and where every run locks on the
 * same one the repetitions agree, so their spread (and an interval of
 * width 0) cannot show it.  The interval is at least one step either side
 * of the estimate (relative to BASE's median), the larger of the two, not
 * their sum; c->locked where the step, not the spread, sets it.  Not from
 * a BASE median of 0, whose line is the step already (set_verdict()), nor on
 * an exact clock (a step of 1 tick).
 */
static void step_floor(struct cmp *c, int coarse)
{
	c->width = isnan(c->lo) ? NAN : c->hi - c->lo;
	if (!coarse || c->mb == 0 || isnan(c->lo) || !isfinite(c->change) || c->step <= 0)
		return;
	c->quant = c->step / fabsl(c->mb);
	c->locked = c->width < 2 * (double)c->quant;
	c->lo = fmin(c->lo, c->change - (double)c->quant);
	c->hi = fmax(c->hi, c->change + (double)c->quant);
}

/*
 * The verdict.  From a BASE median of 0 no relative threshold holds (any
 * change from 0 is infinite): there the line is one step of the clock in
 * the figures' own unit, and the test decides as on every other row, so
 * that medians locked on a step either side of 0 are not a change, and a
 * cost that appears in every run is.  @total: the runs each side was
 * given; where some lack the row and those that have it are too few to
 * decide, it is incomplete (exit 2): a gate never passes what it could
 * not compare.
 */
static void set_verdict(const struct cs_opts *o, struct cmp *c, unsigned int need,
			const size_t total[2])
{
	int zero = c->mb == 0 && c->t.level > 0;
	double thr = zero ? (double)c->step : o->threshold, h, m;
	double ch = zero ? (double)c->t.est : c->change;
	double lo = zero ? (double)c->t.lo : c->lo, hi = zero ? (double)c->t.hi : c->hi;

	c->need = need;
	if (c->nb < need || c->nn < need) {
		if (c->runs_b < total[0] || c->runs_n < total[1]) {
			c->verdict = "incomplete";
			c->fails = c->incomplete = 1;
			if (o->paired && total[0] == total[1])
				snprintf(c->reason, sizeof(c->reason), "whole pairs: %zu of %zu; need %u",
					 c->runs_b, total[0], need);
			else if (c->runs_b == total[0] || c->runs_n == total[1])
				snprintf(c->reason, sizeof(c->reason), "%s: %zu of %zu runs; need %u",
					 c->runs_b < total[0] ? "BASE" : "NEW",
					 c->runs_b < total[0] ? c->runs_b : c->runs_n,
					 c->runs_b < total[0] ? total[0] : total[1], need);
			else
				snprintf(c->reason, sizeof(c->reason), "BASE: %zu of %zu runs; NEW: %zu of %zu; need %u",
					 c->runs_b, total[0], c->runs_n, total[1], need);
			return;
		}
		c->verdict = "not enough runs";
		snprintf(c->reason, sizeof(c->reason), "%zu, need %u", c->nb < c->nn ? c->nb : c->nn,
			 need);
		return;
	}
	if (c->t.p < o->alpha && lo > thr) {
		c->verdict = "slower";
		c->fails = 1;
	} else if (c->t.p < o->alpha && hi < -thr) {
		c->verdict = "faster";
	} else if (lo >= -thr && hi <= thr) {
		c->verdict = "same";
	} else {
		/* the interval narrows as 1/sqrt(n): how many might decide it */
		size_t n = c->nb < c->nn ? c->nb : c->nn;

		c->verdict = "inconclusive";
		if (c->locked && !zero) {
			/* more runs lock on the same step: they cannot decide it */
			snprintf(c->reason, sizeof(c->reason), "n = %zu; under one clock step (%.3Lg %s, %.1Lf%%)",
				 n, c->step, unit_word(c), c->quant * 100);
			return;
		}
		h = (hi - lo) / 2;
		m = fabs(ch) > thr ? fabs(ch) - thr : thr - fabs(ch);
		if (m > 1e-9 && ceil(n * (h / m) * (h / m)) <= 99)
			snprintf(c->reason, sizeof(c->reason), "n = %zu; need %.0f", n,
				 fmax(ceil(n * (h / m) * (h / m)), n + 1));
		else if (m > 1e-9)
			snprintf(c->reason, sizeof(c->reason), "n = %zu; need >99", n);
		else
			snprintf(c->reason, sizeof(c->reason), "n = %zu; on the threshold", n);
		return;
	}
	if (zero)
		snprintf(c->reason, sizeof(c->reason), "from 0: %+.3Lg [%+.3Lg, %+.3Lg] %s; a step is %.3Lg",
			 c->t.est, c->t.lo, c->t.hi, unit_word(c), c->step);
}

static void compare_one(const struct cs_opts *o, struct side *s, const char *name, int any,
			struct cmp *c, unsigned int need)
{
	long double *x = NULL, *y = NULL, *t;
	unsigned char *use[2] = { NULL, NULL };
	size_t runs[2], total[2] = { s[0].n, s[1].n };
	int pos = 1, by_ens = 0, coarse;

	row_kind(o, s, name, any, c);
	c->step = step_of(s, name, any, c->basis, c->cal, &coarse);
	c->reps = o->paired ? "paired runs" : "runs";
	c->change = c->lo = c->hi = NAN;
	if (runs_with(o, s, name, any, use, runs))
		goto error;
	c->runs_b = runs[0];
	c->runs_n = runs[1];
	if (!runs[0] || !runs[1]) {
		/* --paired: not one whole pair */
		c->mb = c->mn = NAN;
		c->t.p = NAN;
		set_verdict(o, c, need, total);
		goto out;
	}
	x = side_figures(o, &s[0], use[0], name, any, c->basis, c->cal, &c->nb, &c->smi, &by_ens);
	y = side_figures(o, &s[1], use[1], name, any, c->basis, c->cal, &c->nn, &c->smi, &by_ens);
	c->reps = by_ens ? (o->paired ? "paired ensembles" : "ensembles") :
		  o->paired ? "paired runs" : "runs";
	if (!x || !y || !(t = malloc((c->nb > c->nn ? c->nb : c->nn) * sizeof(*t))))
		goto error;
	memcpy(t, x, c->nb * sizeof(*t));
	c->mb = cs_median_ld(t, c->nb);
	memcpy(t, y, c->nn * sizeof(*t));
	c->mn = cs_median_ld(t, c->nn);
	free(t);
	for (size_t i = 0; i < c->nb; i++)
		pos &= x[i] > 0;
	for (size_t i = 0; i < c->nn; i++)
		pos &= y[i] > 0;
	if (pos) {
		for (size_t i = 0; i < c->nb; i++)
			x[i] = logl(x[i]);
		for (size_t i = 0; i < c->nn; i++)
			y[i] = logl(y[i]);
	}
	if (o->paired && c->nb != c->nn) {
		/* a gate must not pass on what it could not compare */
		c->verdict = "unpaired";
		snprintf(c->reason, sizeof(c->reason), "%zu in BASE, %zu in NEW", c->nb, c->nn);
		c->fails = 1;
		c->t.p = NAN;
		goto out;
	}
	for (size_t i = 0; o->paired && i < c->nb; i++)
		y[i] -= x[i];
	if (o->paired ? cs_paired(y, c->nb, CONF, &c->t) :
	    cs_two_sample(x, c->nb, y, c->nn, CONF, &c->t))
		goto error;
	if (pos) {
		c->change = (double)expm1l(c->t.est);
		c->lo = c->t.level > 0 ? (double)expm1l(c->t.lo) : NAN;
		c->hi = c->t.level > 0 ? (double)expm1l(c->t.hi) : NAN;
	} else {
		relative(c, c->mb);
	}
	step_floor(c, coarse);
	set_verdict(o, c, need, total);
	goto out;
error:
	c->verdict = "error";
out:
	free(x);
	free(y);
	free(use[0]);
	free(use[1]);
}

/* Both sides' inputs loaded (compare's, ab's): 0, or -1 with *err said */
int cs_sides_load(struct side s[2], struct cs_err *err)
{
	for (int sd = 0; sd < 2; sd++) {
		s[sd].in = calloc(s[sd].n, sizeof(*s[sd].in));
		if (!s[sd].in) {
			cs_seterr(err, NULL, 0, "out of memory");
			return -1;
		}
		for (size_t i = 0; i < s[sd].n; i++)
			if (cs_load_input(s[sd].path[i], &s[sd].in[i], err))
				return -1;
	}
	return 0;
}

/*
 * The fragments both sides name, A's in A's order, then B's own (*na: how
 * many are A's), each once and only those the filter selects (@any: the
 * first alone): an array of *n names, NULL out of memory.
 */
const char **cs_side_names(const struct cs_opts *o, const struct side s[2], int any, size_t *n,
			   size_t *na)
{
	const char **names = calloc(1, sizeof(*names));

	*n = *na = 0;
	for (int sd = 0; sd < 2; sd++) {
		for (size_t i = 0; names && i < s[sd].n; i++)
			if (cs_names_add(o, &s[sd].in[i], &names, n)) {
				free(names);
				names = NULL;
			}
		if (!sd)
			*na = *n;
	}
	if (names && any && *n > 1) {	/* the first alone */
		*n = 1;
		*na = *na > 0;
		names[1] = NULL;
	}
	return names;
}

/* What the two sides' inputs hold (compare's, ab's), loaded or not. */
void cs_sides_free(struct side s[2])
{
	for (int sd = 0; sd < 2; sd++) {
		for (size_t i = 0; s[sd].in && i < s[sd].n; i++)
			cs_input_free(&s[sd].in[i]);
		free(s[sd].in);
	}
}

/* the smallest p a row's sizes can give: the exact tests' 2 / C(n + m, n) and 2 / 2^n */
static double min_p_of(const struct cs_opts *o, const struct cmp *c)
{
	double lc = 0;

	if (!c->t.exact)
		return 0;
	if (o->paired)
		return ldexp(2, -(int)c->nb);
	for (size_t i = 1; i <= c->nn; i++)
		lc += log((double)(c->nb + i) / (double)i);
	return 2 * exp(-lc);
}

/* the fewest repetitions a side at which the exact test can give p < level */
static unsigned int reps_for(const struct cs_opts *o, double level)
{
	return o->paired ? cs_min_pairs(level) : cs_min_reps(level);
}

/*
 * The repetitions a side at which a row whose p is @p at @n might pass
 * @level: the test's z grows as sqrt(n), and the exact test must reach it
 */
static unsigned int reps_to_pass(const struct cs_opts *o, double p, size_t n, double level)
{
	double z = cs_z_upper(p / 2), zl = cs_z_upper(level / 2);
	double need = z > 0 ? ceil((double)n * pow(zl / z, 2)) : 1000;

	return (unsigned int)fmax(fmin(need, 1000), fmax((double)n + 1, reps_for(o, level)));
}

/* a row the rank test decided on its p: one of the family Holm's correction spans */
static int tested(const struct cmp *c)
{
	return c->basis && isfinite(c->t.p) && c->t.level > 0 &&
	       (!strcmp(c->verdict, "slower") || !strcmp(c->verdict, "faster") ||
		!strcmp(c->verdict, "same") || !strcmp(c->verdict, "inconclusive"));
}

/*
 * What a comparison of many rows may say of each (docs/ab.md, "many
 * rows").  Each row's p is a chance: 60 rows at p < 0.01 raise a false
 * alarm in up to 38 % of comparisons of unchanged code where the spread
 * between runs is wide.  Holm's step-down over the rows that were tested:
 * the k-th smallest p (from 0) must be under alpha / (m - k), and every
 * smaller one too; a slower or faster row whose adjusted p is not under
 * alpha is inconclusive, with the runs a side at which it could be.  So
 * the chance of any false slower or faster in a comparison is at most
 * alpha, whatever the rows' number and spread (rows under the fewest
 * runs for p < alpha are no hypotheses: they cannot reject).  Where no p
 * its runs can give passes its bound (5 v 5 runs: 2/252 against 0.01 over
 * two rows), the row says "not enough runs" and how many would, as a row
 * under the fewest runs does: never "same" on a change it could not test.
 *
 * Then each row's minimum detectable change (c->mdc): the threshold plus
 * its interval's width, the change whose interval, as wide as this one,
 * lies wholly beyond the threshold in about 39 of 40 trials; INFINITY
 * where no p these runs can give passes alpha / m.  c->need10: the
 * repetitions a side that might see 10 %, the spread's share of the width
 * narrowing as 1 / sqrt(n), the clock step's not at all.
 */
void cs_cmp_family(const struct cs_opts *o, struct cmp *c, size_t n)
{
	size_t m = 0, *ix = calloc(n + 1, sizeof(*ix));
	double run = 0, level;

	for (size_t i = 0; i < n; i++) {
		c[i].p_adj = NAN;
		c[i].mdc = NAN;
		c[i].need10 = 0;
		if (ix && tested(&c[i]))
			ix[m++] = i;
	}
	/* insertion sort by p: a catalogue is a few hundred rows */
	for (size_t a = 1; a < m; a++)
		for (size_t b = a; b > 0 && c[ix[b]].t.p < c[ix[b - 1]].t.p; b--) {
			size_t t = ix[b];

			ix[b] = ix[b - 1];
			ix[b - 1] = t;
		}
	level = o->alpha / (double)(m ? m : 1);
	for (size_t k = 0; k < m; k++) {
		struct cmp *r = &c[ix[k]];

		run = fmax(run, fmin(1, (double)(m - k) * r->t.p));
		r->p_adj = run;
		if (run < o->alpha || (strcmp(r->verdict, "slower") && strcmp(r->verdict, "faster")))
			continue;
		r->fails = 0;
		if (min_p_of(o, r) >= o->alpha / (double)(m - k)) {
			/* as a row under the fewest runs for p < alpha: these runs never could */
			r->verdict = "not enough runs";
			r->need = reps_for(o, o->alpha / (double)(m - k));
			snprintf(r->reason, sizeof(r->reason), "%zu, need %u (p < %.2g: %g over %zu rows)",
				 r->nb < r->nn ? r->nb : r->nn, r->need, o->alpha / (double)(m - k),
				 o->alpha, m - k);
			continue;
		}
		r->verdict = "inconclusive";
		snprintf(r->reason, sizeof(r->reason), "n = %zu; p = %.2g is %.2g over %zu rows; need %u",
			 r->nb < r->nn ? r->nb : r->nn, r->t.p, run, m,
			 reps_to_pass(o, r->t.p, r->nb < r->nn ? r->nb : r->nn, o->alpha / (double)(m - k)));
	}
	free(ix);
	for (size_t i = 0; i < n; i++) {
		struct cmp *r = &c[i];
		double room = 0.10 - o->threshold, stat, nn;

		if (!r->basis || isnan(r->lo) || !isfinite(r->change) || r->mb == 0) {
			if (r->basis && r->mb != 0)
				r->need10 = reps_for(o, level);
			continue;
		}
		r->mdc = min_p_of(o, r) >= level ? INFINITY : o->threshold + (r->hi - r->lo);
		if (r->mdc <= 0.10)
			continue;
		nn = (double)(r->nb < r->nn ? r->nb : r->nn);
		stat = isnan(r->width) ? r->hi - r->lo : r->width;
		if (room <= 2 * (double)r->quant) {
			r->need10 = UINT_MAX;
			continue;
		}
		nn = ceil(nn * (stat / room) * (stat / room));
		r->need10 = nn > 999 ? 1000 : (unsigned int)fmax(nn, r->nb < r->nn ? r->nb + 1 : r->nn + 1);
		if (r->need10 < reps_for(o, level))
			r->need10 = reps_for(o, level);
	}
}

/* one row as compare decides it (cyclestat ab's rows under --clock time) */
void cs_cmp_row(const struct cs_opts *o, struct side *s, const char *name, struct cmp *c)
{
	compare_one(o, s, name, 0, c, o->paired ? cs_min_pairs(o->alpha) : cs_min_reps(o->alpha));
}

/*
 * Name each run of either side without a result for NAME (with
 * @stale_lacks, also one that holds an aborted or failed run's stale
 * figures), and what that did to its row (@why): an error where the row
 * decides nothing, else a warning (-q: none).
 */
void cs_say_lacking(const struct cs_opts *o, const struct side s[2], const char *name,
		    int stale_lacks, int error, const char *why)
{
	if (!error && o->quiet)
		return;
	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++) {
			const struct cs_input *in = &s[sd].in[i];
			const struct cs_frag *fr = cs_gate_find(in, name, 0);
			const char *state = fr ? cs_info_get(&fr->info, CB_INFO_state) :
					    cs_absent_state(in, name);

			if (fr && !(stale_lacks && fr->stale))
				continue;
			if (!fr && !state)
				state = "not in this run";
			fprintf(stderr, "cyclestat: %s: %s: no %sresult for %s (%s): %s\n",
				error ? "error" : "warning", s[sd].path[i], fr ? "clean " : "", name,
				state, why);
		}
}

/* a row that some runs lack: which, and whether the others decided it */
void cs_say_row_lacking(const struct cs_opts *o, const struct side s[2], const struct cmp *c)
{
	int pairs = o->paired && s[0].n == s[1].n;
	char why[200];

	if (c->runs_b == s[0].n && c->runs_n == s[1].n)
		return;
	if (c->incomplete && pairs)
		snprintf(why, sizeof(why), "the whole pairs left, %zu, are too few to decide (%u): the row is incomplete; measure it there again",
			 c->runs_b, c->need);
	else if (c->incomplete)
		snprintf(why, sizeof(why), "the runs that have it, %zu v %zu, are too few to decide (%u a side): the row is incomplete; measure it there again",
			 c->runs_b, c->runs_n, c->need);
	else if (pairs)
		snprintf(why, sizeof(why), "its row compares the other whole pairs, %zu", c->runs_b);
	else
		snprintf(why, sizeof(why), "its row compares the other runs, %zu v %zu", c->runs_b,
			 c->runs_n);
	cs_say_lacking(o, s, c->name, 1, c->incomplete, why);
}

/*
 * Single-fragment inputs are paired whatever their names (two cycles
 * files have none but their paths); where a tree's info names two
 * different fragments, say so (--strict: refuse).  Returns how many differ.
 */
static int other_names(const struct cs_opts *o, const struct side *s)
{
	const char *first = NULL, *fpath = NULL;
	int found = 0;

	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++) {
			const char *v = cs_info_get(&s[sd].in[i].frag[0].info, CB_INFO_name);

			if (v && !first) {
				first = v;
				fpath = s[sd].path[i];
			}
			if (!v || !strcmp(v, first))
				continue;
			found++;
			if (!o->quiet || o->strict)
				fprintf(stderr, "cyclestat: %s: %s holds %s, but %s holds %s: one fragment an input, they are compared as one%s\n",
					o->strict ? "error" : "warning", fpath, first, s[sd].path[i], v,
					o->strict ? " (--strict)" : "; --strict refuses them");
		}
	return found;
}

/*
 * One row per name, every name of BASE in its order, then NEW's own (@any:
 * inputs of one fragment each pair whatever their names), in *cp: how
 * many, or 0 with *err said
 */
static size_t fill_rows(const struct cs_opts *o, struct side *s, int any, struct cmp **cp,
			unsigned int need, struct cs_err *err)
{
	size_t n, na;
	const char **names = cs_side_names(o, s, any, &n, &na);
	struct cmp *c = names ? calloc(n + 1, sizeof(*c)) : NULL;

	*cp = c;
	if (!c) {
		free(names);
		cs_seterr(err, NULL, 0, "out of memory");
		return 0;
	}
	for (size_t k = 0; k < n; k++) {
		const char *name = names[k];
		const char *lost = cs_gate_lost(&s[1], name, any);

		c[k].name = name;
		if (k >= na && !any) {
			c[k].verdict = "new";
			c[k].change = c[k].lo = c[k].hi = NAN;
		} else if (lost) {
			c[k].verdict = lost;
			c[k].change = c[k].lo = c[k].hi = NAN;
			c[k].fails = !o->allow_missing;
		} else {
			compare_one(o, s, name, any, &c[k], need);
			if (!any)
				cs_say_row_lacking(o, s, &c[k]);
		}
	}
	free(names);
	if (!n)
		cs_seterr(err, NULL, 0, "compare: no fragment to compare%s",
			  o->filter ? " (none matches the filter)" : "");
	return n;
}

int cs_compare(const struct cs_opts *o, char **base, size_t nbase, char **new, size_t nnew)
{
	struct side s[2] = { { base, nbase, NULL }, { new, nnew, NULL } };
	struct cmp *c = NULL;
	struct cs_err err = { 0 };
	size_t n = 0;
	int ret = 2, any = 1;
	unsigned int need = o->paired ? cs_min_pairs(o->alpha) : cs_min_reps(o->alpha);

	if (o->format == CS_GBENCH) {
		fprintf(stderr, "cyclestat: compare: --format gbench is for summaries; use table, json, csv or tap (google/benchmark's compare.py compares two 'cyclestat --format gbench' files itself)\n");
		return 2;
	}
	if (o->hist) {
		fprintf(stderr, "cyclestat: compare: --hist has no meaning here; draw the histograms with cyclestat --hist BASE NEW\n");
		return 2;
	}
	if (cs_sides_load(s, &err))
		goto fail;
	if (cs_inputs_refused(o, s[0].in, s[0].n, s[1].in, s[1].n))
		goto out;
	/* inputs that are each one fragment pair whatever their names */
	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++)
			any &= s[sd].in[i].nfrag == 1 && !s[sd].in[i].nabsent;
	if ((cs_cmp_mismatches(o, s) + (any ? other_names(o, s) : 0)) && o->strict) {
		ret = 2;
		goto out;
	}
	n = fill_rows(o, s, any, &c, need, &err);
	if (!n)
		goto fail;
	cs_cmp_family(o, c, n);
	cs_print_cmp(o, s, c, n, need);
	/* ab's exit status (gate.c): a change to act on 1, else a row not compared 2 */
	ret = 0;
	for (size_t i = 0; i < n; i++)
		ret = cs_gate_worse(ret, cs_gate_row(&c[i]));
	goto out;
fail:
	cs_perror(&err);
out:
	cs_sides_free(s);
	free(c);
	return ret;
}

