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
 *   slower / faster	p < alpha and the whole interval beyond +-threshold
 *   same		the whole interval within +-threshold
 *   inconclusive	neither: says how many repetitions might decide it
 *   not enough runs	fewer per side than can ever reach p < alpha
 *   unpaired		--paired, but the sides have unequal repetitions
 *   missing, aborted, failed, skipped	in BASE, not (or not cleanly) in NEW
 * Exit 1 when something is slower or missing (unless --allow-missing).
 *
 * Calls fragment.c, ranks.c and fmt.c.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "commands.h"

#include "compare.h"

static const struct cs_frag *find(const struct cs_input *in, const char *name, int any)
{
	if (any && in->nfrag == 1)
		return &in->frag[0];
	for (size_t i = 0; i < in->nfrag; i++)
		if (!strcmp(in->frag[i].name, name))
			return &in->frag[i];
	return NULL;
}

static long double median_of(long double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cs_cmp_ld);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The figure of one run, or of each of its ensembles, for basis b: the cost
 * of one execution of the body in ticks (per op times ops), so that a
 * change of ops (an argument compared with another) is a change of cost,
 * and equal ops give the same ratio as per op.
 */
static size_t figures(const struct cs_input *in, const struct cs_frag *fr, const char *b,
		      int per_run, int cal, long double *out)
{
	long double ov = fr->net_ok ? cs_q_ld(in->overhead) : 0;
	long double sc = cal ? fr->calib : 1;

	if (per_run) {
		if (!strcmp(b, "per-op"))
			out[0] = cs_q_ld(fr->perop.med.value) * fr->ops / sc;
		else
			out[0] = (cs_q_ld(fr->raw.median) - (*b == 'n' ? ov : 0)) / sc;
		return 1;
	}
	for (uint64_t e = 0; e < fr->ens.count; e++)
		out[e] = (!strcmp(b, "per-op") ? fr->perop.each[e] * fr->ops :
			  (long double)fr->ens.med2[e] / 2 - (*b == 'n' ? ov : 0)) / sc;
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

/* gather one side's repetitions of NAME; NULL when no tree has data */
static long double *gather(const struct cs_opts *o, const struct side *s, const char *name,
			   int any, const char *b, int cal, size_t *n, int *smi, int *by_ens)
{
	size_t cap = 0;
	long double *v;

	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = find(&s->in[i], name, any);

		if (fr)
			cap += ens_are_reps(o, s, fr) ? fr->ens.count : 1;
	}
	*n = 0;
	if (!cap || !(v = calloc(cap, sizeof(*v))))
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = find(&s->in[i], name, any);

		if (fr) {
			*n += figures(&s->in[i], fr, b, !ens_are_reps(o, s, fr), cal, v + *n);
			*smi |= fr->smi;
			*by_ens |= ens_are_reps(o, s, fr) && fr->ens.count > 1;
		}
	}
	return v;
}

/*
 * In core cycles when every run on both sides has a calib:add_chain of its
 * own (same run and method): a run's clock speed (turbo, governor; under
 * TCG the host's load, which moves every run of a boot alike) then cancels
 * out of each figure instead of passing for a change.
 */
static int calibrated(const struct side *s, size_t ns, const char *name, int any)
{
	int all = 1, seen = 0;

	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct cs_frag *fr = find(&s[k].in[i], name, any);

			if (!fr)
				continue;
			seen = 1;
			all &= fr->calib > 0 && strcmp(fr->name, "calib:add_chain") != 0;
		}
	return seen && all;
}

/* any run of @name measured under an emulator */
static int emulated_any(const struct side *s, size_t ns, const char *name, int any)
{
	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct cs_frag *fr = find(&s[k].in[i], name, any);

			if (fr && fr->emulated)
				return 1;
		}
	return 0;
}

/* per-op when every tree has it, net when every tree can, else raw */
static const char *basis_of(const struct side *s, size_t ns, const char *name, int any)
{
	int perop = 1, net = strcmp(name, "base:empty") != 0;

	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct cs_frag *fr = find(&s[k].in[i], name, any);

			if (!fr)
				continue;
			perop &= fr->perop.ok;
			net &= fr->net_ok;
		}
	return perop ? "per-op" : net ? "net" : "raw";
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

static void decide(const struct cs_opts *o, struct cmp *c, unsigned int need)
{
	double thr = o->threshold, h, m;

	/* from nothing to something: no relative threshold can call it same */
	if (c->mb == 0 && c->mn != 0) {
		c->verdict = c->mn > 0 ? "slower" : "faster";
		c->fails = c->mn > 0;
		snprintf(c->reason, sizeof(c->reason), "from 0 to %.4Lg", c->mn);
		return;
	}
	if (c->nb < need || c->nn < need) {
		c->verdict = "not enough runs";
		snprintf(c->reason, sizeof(c->reason), "%zu, need %u", c->nb < c->nn ? c->nb : c->nn,
			 need);
		return;
	}
	if (c->t.p < o->alpha && c->lo > thr) {
		c->verdict = "slower";
		c->fails = 1;
	} else if (c->t.p < o->alpha && c->hi < -thr) {
		c->verdict = "faster";
	} else if (c->lo >= -thr && c->hi <= thr) {
		c->verdict = "same";
	} else {
		/* the interval narrows as 1/sqrt(n): how many might decide it */
		size_t n = c->nb < c->nn ? c->nb : c->nn;

		c->verdict = "inconclusive";
		h = (c->hi - c->lo) / 2;
		m = fabs(c->change) > thr ? fabs(c->change) - thr : thr - fabs(c->change);
		if (m > 1e-9 && ceil(n * (h / m) * (h / m)) <= 99)
			snprintf(c->reason, sizeof(c->reason), "n = %zu; need %.0f", n,
				 fmax(ceil(n * (h / m) * (h / m)), n + 1));
		else if (m > 1e-9)
			snprintf(c->reason, sizeof(c->reason), "n = %zu; need >99", n);
		else
			snprintf(c->reason, sizeof(c->reason), "n = %zu; on the threshold", n);
	}
}

/*
 * every sample of NAME on one side, pooled into one table (the old test):
 * the raw samples, or with @r (per-op) each sample's long - short, as
 * 2^63 + the difference (it may be negative; only order and differences
 * are used)
 */
static int pool(const struct side *s, const char *name, int any, int perop,
		struct cs_counts *out)
{
	struct cs_tally t;
	struct cs_samples all = { .tally = &t };
	struct cs_err err;

	if (cs_tally_init(&t))
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = find(&s->in[i], name, any);
		struct cs_samples sh = { 0 }, lg = { 0 };
		char *lp = NULL;
		int bad = 0;

		if (!fr)
			continue;
		if (!perop) {
			bad = cs_read_cycles(fr->path, &all, &err);
		} else if (asprintf(&lp, "%.*scycles_long", (int)(strlen(fr->path) - strlen("cycles")),
				    fr->path) < 0) {
			cs_seterr(&err, fr->path, 0, "out of memory");
			bad = 1;
		} else {
			bad = cs_read_cycles(fr->path, &sh, &err) || cs_read_cycles(lp, &lg, &err);
			for (size_t j = 0; !bad && j < sh.n && j < lg.n; j++)
				bad = cs_samples_push(&all, (uint64_t)1 << 63 ^ (lg.v[j] - sh.v[j]));
		}
		cs_samples_free(&sh);
		cs_samples_free(&lg);
		free(lp);
		if (bad) {
			cs_perror(&err);
			cs_samples_free(&all);
			cs_tally_free(&t);
			return -1;
		}
	}
	if (!all.n) {
		cs_tally_free(&t);
		return -1;
	}
	return cs_counts_take(&all, out);
}

static long double median(const struct cs_counts *c)
{
	if (c->n % 2)
		return cs_counts_at(c, c->n / 2);
	return ((long double)cs_counts_at(c, c->n / 2 - 1) + cs_counts_at(c, c->n / 2)) / 2;
}

/* per-op per sample where every tree has cycles_long with one R and ops */
static int samples_per_op(const struct side *s, const char *name, int any, uint64_t *r)
{
	const struct cs_frag *first = NULL;

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct cs_frag *fr = find(&s[k].in[i], name, any);

			if (!fr)
				continue;
			if (!first)
				first = fr;
			if (!fr->perop.ok || fr->perop.repeat != first->perop.repeat ||
			    fr->ops != first->ops || strcmp(fr->path + strlen(fr->path) -
							    strlen("/cycles"), "/cycles"))
				return 0;
		}
	*r = first ? first->perop.repeat : 0;
	return first != NULL;
}

/*
 * --per-sample: the test compare used before repetitions, kept to measure
 * what it got wrong: Mann-Whitney U over every sample as if they were
 * independent, and the Hodges-Lehmann shift with its interval (normal
 * approximation). The figure is what the per-run table shows where every
 * tree has a long region: each sample's long - short over R - 1 (the
 * two-length cost of the body; the short region alone would hide a change
 * of the body in the overhead); else the raw sample.
 */
static void compare_samples(const struct cs_opts *o, struct side *s, const char *name, int any,
			    struct cmp *c)
{
	struct cs_counts x = { 0 }, y = { 0 };
	uint64_t r = 0;
	int perop = samples_per_op(s, name, any, &r);
	long double off = perop ? 0x1p63L : 0, per = perop ? r - 1 : 1;

	c->basis = perop ? "per-op" : "raw";
	c->reps = "samples";
	c->change = c->lo = c->hi = NAN;
	if (pool(&s[0], name, any, perop, &x) || pool(&s[1], name, any, perop, &y) ||
	    cs_shift_of_tables(&x, &y, CONF, &c->t)) {
		c->verdict = "error";
		goto out;
	}
	c->nb = x.n;
	c->nn = y.n;
	c->mb = (median(&x) - off) / per;
	c->mn = (median(&y) - off) / per;
	c->t.p = cs_mannwhitney_of(&x, &y);
	relative(c, c->mb * per);
	decide(o, c, 1);
out:
	cs_counts_free(&x);
	cs_counts_free(&y);
}

static void compare_one(const struct cs_opts *o, struct side *s, const char *name, int any,
			struct cmp *c, unsigned int need)
{
	if (o->per_sample) {
		compare_samples(o, s, name, any, c);
		return;
	}
	long double *x, *y, *t;
	int pos = 1, by_ens = 0;

	c->basis = basis_of(s, 2, name, any);
	c->cal = !o->ticks && calibrated(s, 2, name, any);
	c->emul = emulated_any(s, 2, name, any);
	x = gather(o, &s[0], name, any, c->basis, c->cal, &c->nb, &c->smi, &by_ens);
	y = gather(o, &s[1], name, any, c->basis, c->cal, &c->nn, &c->smi, &by_ens);
	c->reps = by_ens ? (o->paired ? "paired ensembles" : "ensembles") :
		  o->paired ? "paired runs" : "runs";
	c->change = c->lo = c->hi = NAN;
	if (!x || !y || !(t = malloc((c->nb > c->nn ? c->nb : c->nn) * sizeof(*t)))) {
		free(x);
		free(y);
		c->verdict = "error";
		return;
	}
	memcpy(t, x, c->nb * sizeof(*t));
	c->mb = median_of(t, c->nb);
	memcpy(t, y, c->nn * sizeof(*t));
	c->mn = median_of(t, c->nn);
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
		free(x);
		free(y);
		return;
	}
	for (size_t i = 0; o->paired && i < c->nb; i++)
		y[i] -= x[i];
	if (o->paired ? cs_paired(y, c->nb, CONF, &c->t) :
	    cs_two_sample(x, c->nb, y, c->nn, CONF, &c->t)) {
		c->verdict = "error";
	} else if (pos) {
		c->change = (double)expm1l(c->t.est);
		c->lo = c->t.level > 0 ? (double)expm1l(c->t.lo) : NAN;
		c->hi = c->t.level > 0 ? (double)expm1l(c->t.hi) : NAN;
	} else {
		relative(c, c->mb);
	}
	free(x);
	free(y);
	if (strcmp(c->verdict ? c->verdict : "", "error"))
		decide(o, c, need);
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
	size_t cap = 0;
	const char **names;

	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++)
			cap += s[sd].in[i].nfrag;
	names = calloc(cap + 1, sizeof(*names));
	if (!names)
		return NULL;
	*n = *na = 0;
	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++)
			for (size_t j = 0; j < s[sd].in[i].nfrag; j++) {
				const char *name = s[sd].in[i].frag[j].name;
				size_t k;

				for (k = 0; k < *n && strcmp(names[k], name); k++)
					;
				if (k < *n || (any && *n) || !cs_match(o, name))
					continue;
				names[(*n)++] = name;
				*na += !sd;
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

/* one row as compare decides it (cyclestat ab's rows under --clock time) */
void cs_cmp_row(const struct cs_opts *o, struct side *s, const char *name, struct cmp *c)
{
	compare_one(o, s, name, 0, c, o->paired ? cs_min_pairs(o->alpha) : cs_min_reps(o->alpha));
}

/* a tree of the side with NAME's data, preferring a stale (aborted, failed) one */
static const struct cs_frag *side_has(const struct side *s, const char *name, int any)
{
	const struct cs_frag *got = NULL;

	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = find(&s->in[i], name, any);

		if (fr && (!got || fr->stale))
			got = fr;
	}
	return got;
}

/* what NEW says about a fragment it has no clean data for */
static const char *absent_state(const struct side *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->in[i].nabsent; j++)
			if (!strcmp(s->in[i].absent[j].name, name))
				return s->in[i].absent[j].state;
	return "missing";
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
 * What an input left out that was asked for, and filter words that select
 * nothing: said; 1 where compare stops there (exit 2)
 */
static int inputs_refused(const struct cs_opts *o, const struct side *s)
{
	unsigned char *hit = calloc(o->nfilter + 1, 1);
	int warned = 0, refused;

	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++) {
			warned += cs_input_warn(o, &s[sd].in[i]);
			if (hit)
				cs_filter_hits(o, &s[sd].in[i], hit);
		}
	refused = !hit || cs_filter_misses(o, hit) || (warned && o->strict);
	free(hit);
	return refused;
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
		const struct cs_frag *st = side_has(&s[1], name, any);

		c[k].name = name;
		if (k >= na && !any) {
			c[k].verdict = "new";
			c[k].change = c[k].lo = c[k].hi = NAN;
		} else if (!st || st->stale) {
			c[k].verdict = st ? cs_info_get(&st->info, CB_INFO_state) : absent_state(&s[1], name);
			c[k].change = c[k].lo = c[k].hi = NAN;
			c[k].fails = !o->allow_missing;
		} else {
			compare_one(o, s, name, any, &c[k], need);
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
	if (inputs_refused(o, s))
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
	cs_print_cmp(o, s, c, n, need);
	ret = 0;
	for (size_t i = 0; i < n; i++)
		ret |= c[i].fails;
	goto out;
fail:
	cs_perror(&err);
out:
	cs_sides_free(s);
	free(c);
	return ret;
}

