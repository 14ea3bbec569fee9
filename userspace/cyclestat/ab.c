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
 * interval at the level it has, the U test, the correction across rows),
 * A's and B's medians per op shown.
 *
 * What a run holds and the exit status are compare's (gate.c): a fragment
 * only in B is "new": listed, not compared.  One of A that B's runs lack
 * is "gone" (compare's "missing"), one that a run of B holds aborted or
 * failed (stale figures) says so: both fail (--allow-missing: listed
 * only).  A run without a row, or with a stale result of A, is named:
 * under icount that row decides nothing; under time the runs that have it
 * decide it where they can (compare's rule), else it is "incomplete".
 *
 * Where a fragment's ops differ between the sides (a body of 4 shifts
 * made 5), A and B are per op with each side's own ops, and "a copy", the
 * change and the verdict are the cost of one copy of the body, on both
 * clocks, as compare's figures are; the row says "ops 4 -> 5".
 * Exit 0 when nothing is slower (too few runs ever to decide, as
 * inconclusive, is 0), 1 when something is (or is lost), else 2 when a
 * row could not be compared (varies, a run without it, an error) or
 * nothing was: 1 wins over 2 (gate.c).
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
	long double copy;	/* B - A a copy of the body (icount: instructions); NaN: none */
	double change, clo, chi;	/* relative; NaN when none */
	double level;		/* the interval's coverage (compare's; below CONF at 3 v 3) */
	uint64_t ops[2];	/* each side's ops (its first run with the row) */
	int have;		/* 3: compared; else the row's figures are not shown */
	int fails;		/* 1 slower or lost, 2 not compared (gate.c) */
};

/* the fragment NAME of a tree, NULL when it has no clean data there */
static const struct cs_frag *ab_find(const struct cs_input *in, const char *name)
{
	const struct cs_frag *fr = cs_frag_named(in, name);

	return fr && !fr->stale ? fr : NULL;
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

/* ops of NAME in a side's first run that has it (compare's figures are per body) */
static uint64_t ops_of(const struct side *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = ab_find(&s->in[i], name);

		if (fr && fr->ops)
			return fr->ops;
	}
	return 1;
}

static void row_icount(const struct cs_opts *o, const struct side *s, struct ab_row *r)
{
	int perop = all_perop(s, r->name), ea, eb;
	long double ca, cb;

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
	/*
	 * a copy is ops operations: one instruction there is 1/ops an op; where
	 * the ops differ, each side's per op times its own ops is its copy
	 */
	ca = r->a * (perop ? (long double)r->ops[0] : 1);
	cb = r->b * (perop ? (long double)r->ops[1] : 1);
	r->copy = cb - ca;
	if (ca)
		r->change = (double)(r->copy / fabsl(ca));
	r->verdict = cb > ca ? "slower" : cb < ca ? "faster" : "same";
	r->fails = cb > ca;
}

/*
 * A row from compare's (compare.c decides it, cs_cmp_family across the
 * rows): compare's figures are the cost of a copy of the body, so per op
 * is each side's over its own ops
 */
static void row_time(const struct cmp *c, struct ab_row *r)
{
	int perop = c->basis == CS_BASIS_TWO_LENGTH;
	long double pa = perop ? (long double)r->ops[0] : 1, pb = perop ? (long double)r->ops[1] : 1;

	r->clock = "time";
	r->unit = c->cal && c->emul ? "adds" : c->cal ? "cycles" : "ticks";
	if (perop && (r->ops[0] > 1 || r->ops[1] > 1))
		r->unit = c->cal && c->emul ? "adds/op" : c->cal ? "cycles/op" : "ticks/op";
	r->a = c->mb / pa;
	r->b = c->mn / pb;
	if (r->ops[0] != r->ops[1])
		r->copy = c->mn - c->mb;
	r->change = c->change;
	r->clo = c->lo;
	r->chi = c->hi;
	r->level = c->t.level;
	r->verdict = c->verdict ? c->verdict : "error";
	r->fails = cs_gate_row(c);
}

static void print_rows(const struct cs_opts *o, const struct side *s, const struct ab_row *r,
		       size_t n, int icount)
{
	FILE *f = o->out;
	int w = (int)strlen("fragment");
	size_t ndiff = 0;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(r[i].name) > w)
			w = (int)strlen(r[i].name);
	fprintf(f, "A: %zu run%s, B: %zu run%s; %s\n", s[0].n, s[0].n == 1 ? "" : "s", s[1].n,
		s[1].n == 1 ? "" : "s",
		icount ? "clock icount: instructions, exact (the same in every ensemble of every run)" :
			 "clock time: medians of the runs, compare's change and 95% interval (a lower level where a row says one)");
	fprintf(f, "%-*s  %-6s  %-9s %12s %12s %12s %6s  %-24s %s\n", w, "fragment", "clock",
		"unit", "A", "B", "B - A", "a copy", "change", "verdict");
	for (size_t i = 0; i < n; i++) {
		char ch[80] = "", va[32] = "", vb[32] = "", d[32] = "", cp[32] = "", lv[16] = "";
		char ops[64] = "";

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
		/* an interval says its own level where it is not the 95 % asked for */
		if (!isnan(r[i].clo) && r[i].level > 0 && r[i].level < CONF - 1e-9)
			snprintf(lv, sizeof(lv), " %.3g%%", 100 * r[i].level);
		if (!isnan(r[i].change) && !isnan(r[i].clo))
			snprintf(ch, sizeof(ch), "%+.2f%% [%+.2f, %+.2f]%s", 100 * r[i].change,
				 100 * r[i].clo, 100 * r[i].chi, lv);
		else if (!isnan(r[i].change))
			snprintf(ch, sizeof(ch), "%+.2f%%", 100 * r[i].change);
		if (r[i].have == 3 && r[i].ops[0] != r[i].ops[1])
			snprintf(ops, sizeof(ops), " (ops %llu \u2192 %llu)",
				 (unsigned long long)r[i].ops[0], (unsigned long long)r[i].ops[1]);
		fprintf(f, "%-*s  %-6s  %-9s %12s %12s %12s %6s  %-24s %s%s\n", w, r[i].name,
			r[i].have == 3 ? r[i].clock : "-", r[i].have == 3 ? r[i].unit : "-",
			va, vb, d, cp, ch, r[i].verdict, ops);
		ndiff += r[i].have == 3 && r[i].ops[0] != r[i].ops[1];
	}
	if (ndiff)
		fprintf(f, "ops A \u2192 B: the body counts other ops in B; A and B are per op with each side's own,\n"
			"B - A a copy, the change and the verdict the cost of one copy of the body\n");
}

int cs_ab(const struct cs_opts *o, char **a, size_t na, char **b, size_t nb)
{
	struct side s[2] = { { a, na, NULL }, { b, nb, NULL } };
	struct cs_opts co = *o;
	struct ab_row *r = NULL;
	struct cs_err err = { 0 };
	const char **names = NULL;
	size_t n = 0, of_a, nc = 0;
	struct cmp *c = NULL;
	int ret = 0, icount = o->clock && !strcmp(o->clock, "icount"), bad = 0, lost = 0;

	if (o->format != CS_TABLE) {
		fprintf(stderr, "cyclestat: ab prints a table; for json, csv or tap use cyclestat compare on the same runs\n");
		return 2;
	}
	/* runs of one side are repetitions; A's k-th and B's k-th interleaved */
	co.paired = 0;
	if (cs_sides_load(s, &err))
		goto fail;
	if (cs_inputs_refused(o, s[0].in, s[0].n, s[1].in, s[1].n)) {
		ret = 2;
		goto out;
	}
	names = cs_side_names(o, s, 0, &n, &of_a);
	r = calloc(n + 1, sizeof(*r));
	c = calloc(n + 1, sizeof(*c));
	if (!names || !r || !c)
		goto nomem;
	/* the rows as compare reads them (fill_rows): new, lost, else compared */
	for (size_t k = 0; k < n; k++) {
		const char *gone = k < of_a ? cs_gate_lost(&s[1], names[k], 0) : NULL;

		r[k].name = names[k];
		r[k].change = r[k].clo = r[k].chi = NAN;
		r[k].copy = NAN;
		r[k].ops[0] = ops_of(&s[0], names[k]);
		r[k].ops[1] = ops_of(&s[1], names[k]);
		if (k >= of_a) {
			r[k].verdict = "new";
		} else if (gone) {
			/* as compare's: a gate never passes what B lost (missing: "gone") */
			r[k].verdict = !strcmp(gone, "missing") ? "gone" : gone;
			r[k].fails = !o->allow_missing;
			lost |= r[k].fails;
		} else if (icount) {
			r[k].have = 3;
			row_icount(o, s, &r[k]);
		} else {
			r[k].have = 3;
			c[nc].name = names[k];
			cs_cmp_row(&co, s, names[k], &c[nc]);
			cs_say_row_lacking(&co, s, &c[nc]);
			nc++;
		}
	}
	if (!n) {
		cs_seterr(&err, NULL, 0, "ab: no fragment to compare%s",
			  o->filter ? " (none matches the filter)" : "");
		goto fail;
	}
	/* compare's correction across the rows it tested, then each row */
	cs_cmp_family(&co, c, nc);
	for (size_t k = 0, j = 0; !icount && k < n; k++)
		if (r[k].have == 3)
			row_time(&c[j++], &r[k]);
	print_rows(o, s, r, n, icount);
	for (size_t i = 0; i < n; i++) {
		ret = cs_gate_worse(ret, r[i].fails);
		bad |= r[i].fails == 2;
	}
	if (lost && !o->quiet)
		fprintf(stderr, "cyclestat: ab: a fragment of A is gone from B or aborted or failed in a run of B: it fails, as compare's missing does (--allow-missing lets it pass)\n");
	if (bad && !o->quiet)
		fprintf(stderr, "cyclestat: ab: %s\n", icount ?
			"a row's figures differ between the runs of one side (varies) or are missing: under icount every run counts the same instructions; that row decides nothing" :
			"a row could not be compared (a run without it, or an error): it decides nothing; measure it again (RUNS= more runs)");
	goto out;
nomem:
	cs_seterr(&err, NULL, 0, "out of memory");
fail:
	cs_perror(&err);
	ret = 2;
out:
	cs_sides_free(s);
	free(names);
	free(r);
	free(c);
	return ret;
}
