// SPDX-License-Identifier: GPL-2.0
/*
 * ab.c - cyclestat ab [--clock icount|time] A... -- B...: what 'make ab'
 * prints, one row per fragment (group:name), A's figure, B's, B - A and
 * the verdict.
 *
 * --clock icount: the runs were measured under QEMU's -icount shift=0,
 * where the TSC counts instructions, so a fragment's two-length per-op
 * figure is its instructions per op, exactly, the same in every ensemble
 * of every run (a fragment timed once, without a long region: its median
 * sample, the whole sample's instructions).  A row is that number for A
 * and for B, three decimals, their difference and same, slower or faster:
 * no interval and no test, there is no noise.  A side whose runs disagree
 * is not exact: the row says "varies" with the range, and it decides
 * nothing (exit 2): under icount that is a bug to find, not a tolerance.
 *
 * --clock time (the default): the clock has noise, and each row is
 * compare's (compare.c: runs as repetitions, Hodges-Lehmann change, its
 * interval, the U test), A's and B's medians per op shown.
 *
 * A fragment only in B is "new": listed, not compared.  One only in A is
 * "gone": it fails, as compare's "missing" does (--allow-missing: listed
 * only).  A run without a row is named: under icount that row decides
 * nothing; under time the runs that have it decide it where they can
 * (compare's rule), else it is "incomplete".
 * Exit 0 when nothing is slower, 1 when something is (or is gone), 2 when
 * a row could not be compared (varies, a run without it, too few runs, an
 * error) or nothing was.
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

struct ab_row {
	const char *name;
	const char *clock;	/* icount, time */
	const char *unit;
	const char *verdict;
	long double a, b;	/* per op (or per sample) */
	long double lo[2], hi[2];	/* a side's range where it varies */
	long double copy;	/* icount: B - A in instructions a copy of the body; NaN: none */
	double change, clo, chi;	/* relative; NaN when none */
	int have;		/* 1: A, 2: B, 3: both */
	int fails;		/* 1 slower, 2 not compared */
};

/* the fragment NAME of a tree, NULL when it has no clean data there */
static const struct cs_frag *ab_find(const struct cs_input *in, const char *name)
{
	for (size_t i = 0; i < in->nfrag; i++)
		if (!strcmp(in->frag[i].name, name))
			return in->frag[i].stale ? NULL : &in->frag[i];
	return NULL;
}

static int side_has(const struct side *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (ab_find(&s->in[i], name))
			return 1;
	return 0;
}

/*
 * A side's exact figure of NAME: every ensemble of every run the same.
 * Per op where every run has a long region, else the median sample.
 * Returns 0 exact (in *v), 1 when the figures differ (their range in
 * *lo, *hi), -1 when a run lacks the fragment.
 */
static int exact(const struct side *s, const char *name, int perop, long double *v,
		 long double *lo, long double *hi)
{
	int first = 1;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = ab_find(&s->in[i], name);
		uint64_t n;

		if (!fr)
			return -1;
		n = perop ? fr->ens.count : 1;
		for (uint64_t e = 0; e < n; e++) {
			long double x = perop ? fr->perop.each[e] : cs_q_ld(fr->raw.median);

			if (first)
				*v = x;
			first = 0;
			*lo = fminl(*lo, x);
			*hi = fmaxl(*hi, x);
		}
	}
	return first ? -1 : *lo != *hi;
}

/* every run of both sides has the two-length per-op figure of NAME */
static int all_perop(const struct side *s, const char *name)
{
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct cs_frag *fr = ab_find(&s[k].in[i], name);

			if (fr && (!fr->perop.ok || !fr->perop.each))
				return 0;
		}
	return 1;
}

/* ops of NAME in the first run that has it (compare's figures are per body) */
static uint64_t ops_of(const struct side *s, const char *name)
{
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n; i++) {
			const struct cs_frag *fr = ab_find(&s[k].in[i], name);

			if (fr && fr->ops)
				return fr->ops;
		}
	return 1;
}

static void row_icount(const struct cs_opts *o, const struct side *s, struct ab_row *r)
{
	int perop = all_perop(s, r->name), ea, eb;

	r->clock = "icount";
	r->unit = perop ? "insns/op" : "insns";
	r->change = r->clo = r->chi = NAN;
	r->copy = NAN;
	ea = exact(&s[0], r->name, perop, &r->a, &r->lo[0], &r->hi[0]);
	eb = exact(&s[1], r->name, perop, &r->b, &r->lo[1], &r->hi[1]);
	if (ea < 0 || eb < 0) {
		r->verdict = "missing in a run";
		r->fails = 2;
		cs_say_lacking(o, s, r->name, 1, 1,
			       "under icount every run counts the same instructions, so that row decides nothing; measure it there again");
		return;
	}
	if (ea || eb) {
		r->verdict = "varies";
		r->fails = 2;
		return;
	}
	if (r->a)
		r->change = (double)((r->b - r->a) / fabsl(r->a));
	/* a copy is ops operations: one instruction there is 1/ops an op */
	r->copy = (r->b - r->a) * (perop ? (long double)ops_of(s, r->name) : 1);
	r->verdict = r->b > r->a ? "slower" : r->b < r->a ? "faster" : "same";
	r->fails = r->b > r->a;
}

static void row_time(const struct cs_opts *o, struct side *s, struct ab_row *r)
{
	struct cmp c = { .name = r->name };
	long double per;

	cs_cmp_row(o, s, r->name, &c);
	r->clock = "time";
	per = c.basis && !strcmp(c.basis, "per-op") ? (long double)ops_of(s, r->name) : 1;
	r->unit = c.cal && c.emul ? "adds" : c.cal ? "cycles" : "ticks";
	if (per != 1)
		r->unit = c.cal && c.emul ? "adds/op" : c.cal ? "cycles/op" : "ticks/op";
	r->a = c.mb / per;
	r->b = c.mn / per;
	r->change = c.change;
	r->clo = c.lo;
	r->chi = c.hi;
	r->verdict = c.verdict ? c.verdict : "error";
	cs_say_row_lacking(o, s, &c);
	if (c.incomplete)
		r->fails = 2;
	else if (c.fails)
		r->fails = 1;
	else if (!strcmp(r->verdict, "error") || !strcmp(r->verdict, "not enough runs"))
		r->fails = 2;
}

static void print_rows(const struct cs_opts *o, const struct side *s, const struct ab_row *r,
		       size_t n, int icount)
{
	FILE *f = o->out;
	int w = (int)strlen("fragment");

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(r[i].name) > w)
			w = (int)strlen(r[i].name);
	fprintf(f, "A: %zu run%s, B: %zu run%s; %s\n", s[0].n, s[0].n == 1 ? "" : "s", s[1].n,
		s[1].n == 1 ? "" : "s",
		icount ? "clock icount: instructions, exact (the same in every ensemble of every run)" :
			 "clock time: medians of the runs, compare's change and 95% interval");
	fprintf(f, "%-*s  %-6s  %-9s %12s %12s %12s %6s  %-24s %s\n", w, "fragment", "clock",
		"unit", "A", "B", "B - A", "a copy", "change", "verdict");
	for (size_t i = 0; i < n; i++) {
		char ch[64] = "", va[32] = "", vb[32] = "", d[32] = "", cp[32] = "";

		if (r[i].have == 3 && strcmp(r[i].verdict, "varies") &&
		    strcmp(r[i].verdict, "missing in a run")) {
			snprintf(va, sizeof(va), "%.3Lf", r[i].a);
			snprintf(vb, sizeof(vb), "%.3Lf", r[i].b);
			snprintf(d, sizeof(d), "%+.3Lf", r[i].b - r[i].a);
		} else if (r[i].have == 3 && !strcmp(r[i].verdict, "varies")) {
			for (int k = 0; k < 2; k++)
				snprintf(k ? vb : va, sizeof(va), r[i].lo[k] == r[i].hi[k] ? "%.3Lf" :
					 "%.3Lf..%.3Lf", r[i].lo[k], r[i].hi[k]);
		}
		if (!isnan(r[i].copy))
			snprintf(cp, sizeof(cp), fabsl(r[i].copy - roundl(r[i].copy)) < 1e-9 ?
				 "%+.0Lf" : "%+.3Lf", r[i].copy);
		if (!isnan(r[i].change) && !isnan(r[i].clo))
			snprintf(ch, sizeof(ch), "%+.2f%% [%+.2f, %+.2f]", 100 * r[i].change,
				 100 * r[i].clo, 100 * r[i].chi);
		else if (!isnan(r[i].change))
			snprintf(ch, sizeof(ch), "%+.2f%%", 100 * r[i].change);
		fprintf(f, "%-*s  %-6s  %-9s %12s %12s %12s %6s  %-24s %s\n", w, r[i].name,
			r[i].have == 3 ? r[i].clock : "-", r[i].have == 3 ? r[i].unit : "-",
			va, vb, d, cp, ch, r[i].verdict);
	}
}

int cs_ab(const struct cs_opts *o, char **a, size_t na, char **b, size_t nb)
{
	struct side s[2] = { { a, na, NULL }, { b, nb, NULL } };
	struct cs_opts co = *o;
	struct ab_row *r = NULL;
	struct cs_err err = { 0 };
	unsigned char *hit = NULL;
	const char **names = NULL;
	size_t n = 0, of_a;
	int ret = 2, icount = o->clock && !strcmp(o->clock, "icount"), slower = 0, bad = 0, gone = 0;

	if (o->format != CS_TABLE) {
		fprintf(stderr, "cyclestat: ab prints a table; for json, csv or tap use cyclestat compare on the same runs\n");
		return 2;
	}
	/* runs of one side are repetitions; A's k-th and B's k-th interleaved */
	co.paired = 0;
	if (cs_sides_load(s, &err))
		goto fail;
	hit = calloc(o->nfilter + 1, 1);
	if (!hit)
		goto nomem;
	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++) {
			cs_input_warn(o, &s[sd].in[i]);
			cs_filter_hits(o, &s[sd].in[i], hit);
		}
	if (cs_filter_misses(o, hit))
		goto out;
	names = cs_side_names(o, s, 0, &n, &of_a);
	r = calloc(n + 1, sizeof(*r));
	if (!names || !r)
		goto nomem;
	for (size_t k = 0; k < n; k++) {
		r[k].name = names[k];
		r[k].change = r[k].clo = r[k].chi = NAN;
		r[k].copy = NAN;
		r[k].have = side_has(&s[0], names[k]) | side_has(&s[1], names[k]) << 1;
		if (r[k].have == 1) {
			/* as compare's "missing": a gate never passes what B lost */
			r[k].verdict = "gone";
			r[k].fails = !o->allow_missing;
		} else if (r[k].have == 2)
			r[k].verdict = "new";
		else if (!r[k].have)
			r[k].verdict = "no clean data";
		else if (icount)
			row_icount(o, s, &r[k]);
		else
			row_time(&co, s, &r[k]);
	}
	if (!n) {
		cs_seterr(&err, NULL, 0, "ab: no fragment to compare%s",
			  o->filter ? " (none matches the filter)" : "");
		goto fail;
	}
	print_rows(o, s, r, n, icount);
	for (size_t i = 0; i < n; i++) {
		slower |= r[i].fails == 1;
		bad |= r[i].fails == 2 || !r[i].have;
		gone |= r[i].have == 1 && r[i].fails;
	}
	ret = slower ? 1 : bad ? 2 : 0;
	if (gone && !o->quiet)
		fprintf(stderr, "cyclestat: ab: a fragment of A is gone from B: it fails, as compare's missing does (--allow-missing lets it pass)\n");
	if (bad && !o->quiet)
		fprintf(stderr, "cyclestat: ab: %s\n", icount ?
			"a row's figures differ between the runs of one side (varies) or are missing: under icount every run counts the same instructions; that row decides nothing" :
			"a row could not be compared (a run without it, too few runs, or an error): it decides nothing");
	goto out;
nomem:
	cs_seterr(&err, NULL, 0, "out of memory");
fail:
	cs_perror(&err);
out:
	cs_sides_free(s);
	free(hit);
	free(names);
	free(r);
	return ret;
}
