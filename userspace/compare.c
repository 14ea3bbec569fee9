// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - cyclestat compare BASE... [-- NEW...]: did anything get slower?
 *
 * The unit of comparison is a repetition, never a raw sample: samples of
 * one run share its frequency, layout and host load, so testing them as
 * independent calls every rerun "significant". With several trees on a
 * side, each tree (run) is one repetition; with one tree per side, its
 * ensembles are (Paoloni's), and the output says that they cannot show
 * the spread between runs. Per repetition the figure is the fragment's own
 * cost: the two-length per-op cost where both sides have cycles_long, else
 * the median net of base:empty from the same run and method, else the raw
 * median (base:empty itself).
 *
 * Per fragment: the Hodges-Lehmann estimate of the change (a ratio, on
 * logarithms, when every figure is positive; else a shift relative to the
 * base median) with its 95 % interval from the exact distribution of the
 * Mann-Whitney U, and U's two-sided p-value. The verdict:
 *   slower / faster	p < alpha and the whole interval beyond +-threshold
 *   same		the whole interval within +-threshold
 *   inconclusive	neither: says how many repetitions might decide it
 *   not enough runs	fewer per side than can ever reach p < alpha
 *   missing, aborted, failed, skipped	in BASE, not (or not cleanly) in NEW
 * Exit 1 when something is slower or missing (unless --allow-missing).
 *
 * Calls load.c, infer.c and fmt.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"

#define CONF 0.95

struct side {
	char **path;
	size_t n;
	struct cs_input *in;
};

struct cmp {
	const char *name;
	const char *basis;	/* per-op, net, raw */
	const char *reps;	/* runs, ensembles */
	size_t nb, nn;
	long double mb, mn;	/* median of the repetitions' figures */
	double change, lo, hi;	/* relative; NaN when not compared */
	struct cs_shift t;
	const char *verdict;
	char reason[64];
	int fails, smi;
};

static const struct cs_frag *find(const struct cs_input *in, const char *name, int any)
{
	if (any && in->nfrag == 1)
		return &in->frag[0];
	for (size_t i = 0; i < in->nfrag; i++)
		if (!strcmp(in->frag[i].name, name))
			return &in->frag[i];
	return NULL;
}

static int cmp_ld(const void *a, const void *b)
{
	long double x = *(const long double *)a, y = *(const long double *)b;

	return (x > y) - (x < y);
}

static long double median_of(long double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_ld);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the figure of one run, or of each of its ensembles, for basis b */
static size_t figures(const struct cs_input *in, const struct cs_frag *fr, const char *b,
		      int per_run, long double *out)
{
	long double ov = fr->net_ok ? cs_q_ld(in->overhead) : 0;

	if (per_run) {
		if (!strcmp(b, "per-op"))
			out[0] = cs_q_ld(fr->perop.med.value);
		else
			out[0] = (cs_q_ld(fr->raw.median) - (*b == 'n' ? ov : 0)) / fr->ops;
		return 1;
	}
	for (uint64_t e = 0; e < fr->ens.count; e++)
		out[e] = !strcmp(b, "per-op") ? fr->perop.each[e] :
			 ((long double)fr->ens.med2[e] / 2 - (*b == 'n' ? ov : 0)) / fr->ops;
	return fr->ens.count;
}

/* gather one side's repetitions of NAME; NULL when no tree has data */
static long double *gather(const struct side *s, const char *name, int any, const char *b,
			   size_t *n, int *smi)
{
	size_t cap = 0;
	long double *v;

	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = find(&s->in[i], name, any);

		if (fr)
			cap += s->n > 1 ? 1 : fr->ens.count;
	}
	*n = 0;
	if (!cap || !(v = calloc(cap, sizeof(*v))))
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct cs_frag *fr = find(&s->in[i], name, any);

		if (fr) {
			*n += figures(&s->in[i], fr, b, s->n > 1, v + *n);
			*smi |= fr->smi;
		}
	}
	return v;
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

static void decide(const struct cs_opts *o, struct cmp *c, unsigned int need)
{
	double thr = o->threshold, h, m;

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

static void compare_one(const struct cs_opts *o, struct side *s, const char *name, int any,
			struct cmp *c, unsigned int need)
{
	long double *x, *y, *t;
	int pos = 1;

	c->basis = basis_of(s, 2, name, any);
	c->reps = s[0].n > 1 || s[1].n > 1 ? "runs" : "ensembles";
	x = gather(&s[0], name, any, c->basis, &c->nb, &c->smi);
	y = gather(&s[1], name, any, c->basis, &c->nn, &c->smi);
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
	if (cs_two_sample(x, c->nb, y, c->nn, CONF, &c->t)) {
		c->verdict = "error";
	} else if (pos) {
		c->change = (double)expm1l(c->t.est);
		c->lo = (double)expm1l(c->t.lo);
		c->hi = (double)expm1l(c->t.hi);
	} else {
		long double d = fabsl(c->mb);

		c->change = d ? (double)(c->t.est / d) : c->t.est ? INFINITY : 0;
		c->lo = d ? (double)(c->t.lo / d) : c->t.lo ? -INFINITY : 0;
		c->hi = d ? (double)(c->t.hi / d) : c->t.hi ? INFINITY : 0;
	}
	free(x);
	free(y);
	if (strcmp(c->verdict ? c->verdict : "", "error"))
		decide(o, c, need);
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

/* ---- mismatches ---- */

static const char *const top_keys[] = {
	"method_used", "kernel", "model_name", "tsc_khz", "hypervisor", "mode", "cpu",
	"samples", "ensembles",
};

static int mismatches(const struct cs_opts *o, struct side *s)
{
	int found = 0;

	for (size_t k = 0; k < sizeof(top_keys) / sizeof(top_keys[0]); k++) {
		const char *first = NULL, *fpath = NULL;

		for (int sd = 0; sd < 2; sd++)
			for (size_t i = 0; i < s[sd].n; i++) {
				const char *v = cs_info_get(&s[sd].in[i].info, top_keys[k]);

				if (!v)
					continue;
				if (!first) {
					first = v;
					fpath = s[sd].path[i];
				} else if (strcmp(first, v) && found >= 0) {
					found++;
					if (!o->quiet || o->strict)
						fprintf(stderr, "cyclestat: %s: %s '%s' in %s but '%s' in %s: these runs are not comparable%s\n",
							o->strict ? "error" : "warning", top_keys[k], first,
							fpath, v, s[sd].path[i],
							o->strict ? " (--strict)" : "; --strict refuses them");
					first = v;
					fpath = s[sd].path[i];
					sd = 2;
					break;
				}
			}
	}
	/* the argument list of each swept fragment */
	for (size_t i = 0; i < s[0].in[0].nfrag; i++) {
		const struct cs_frag *fr = &s[0].in[0].frag[i];
		const char *slash = strchr(fr->name, '/');

		if (!slash || (i && !strncmp(s[0].in[0].frag[i - 1].name, fr->name,
					    (size_t)(slash - fr->name + 1))))
			continue;
		for (size_t t = 0; t < s[1].n; t++) {
			size_t cb = 0, cn = 0;

			for (size_t j = 0; j < s[0].in[0].nfrag; j++)
				cb += !strncmp(s[0].in[0].frag[j].name, fr->name,
					       (size_t)(slash - fr->name + 1));
			for (size_t j = 0; j < s[1].in[t].nfrag; j++)
				cn += !strncmp(s[1].in[t].frag[j].name, fr->name,
					       (size_t)(slash - fr->name + 1));
			if (cb != cn) {
				found++;
				if (!o->quiet || o->strict)
					fprintf(stderr, "cyclestat: %s: the argument list of %.*s differs: %zu arguments in %s, %zu in %s\n",
						o->strict ? "error" : "warning",
						(int)(slash - fr->name), fr->name, cb, s[0].path[0], cn,
						s[1].path[t]);
				break;
			}
		}
	}
	return found;
}

/* ---- output ---- */

static void print_cmp(const struct cs_opts *o, const struct side *s, struct cmp *c, size_t n,
		      unsigned int need);

int cs_compare(const struct cs_opts *o, char **base, size_t nbase, char **new, size_t nnew)
{
	struct side s[2] = { { base, nbase, NULL }, { new, nnew, NULL } };
	struct cmp *c = NULL;
	struct cs_err err = { 0 };
	size_t n = 0, cap;
	int ret = 2, any = nbase == 1 && nnew == 1;
	unsigned int need = cs_min_reps(o->alpha);

	if (o->format == CS_GBENCH) {
		fprintf(stderr, "cyclestat: compare: --format gbench is for summaries; use table, json or csv (google/benchmark's compare.py compares two 'cyclestat --format gbench' files itself)\n");
		return 2;
	}
	if (o->hist) {
		fprintf(stderr, "cyclestat: compare: --hist has no meaning here; draw the histograms with cyclestat --hist BASE NEW\n");
		return 2;
	}
	for (int sd = 0; sd < 2; sd++) {
		s[sd].in = calloc(s[sd].n, sizeof(*s[sd].in));
		if (!s[sd].in)
			goto nomem;
		for (size_t i = 0; i < s[sd].n; i++)
			if (cs_load_input(s[sd].path[i], &s[sd].in[i], &err))
				goto fail;
	}
	/* two single fragments pair whatever their names */
	any = any && s[0].in[0].nfrag == 1 && s[1].in[0].nfrag == 1;
	if (mismatches(o, s) && o->strict) {
		ret = 2;
		goto out;
	}
	cap = 0;
	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++)
			cap += s[sd].in[i].nfrag + s[sd].in[i].nabsent;
	c = calloc(cap + 1, sizeof(*c));
	if (!c)
		goto nomem;
	/* every name of BASE, in its order, then NEW's own */
	for (int sd = 0; sd < 2; sd++)
		for (size_t i = 0; i < s[sd].n; i++)
			for (size_t j = 0; j < s[sd].in[i].nfrag; j++) {
				const char *name = s[sd].in[i].frag[j].name;
				size_t k;

				for (k = 0; k < n && strcmp(c[k].name, name); k++)
					;
				if (k < n || (any && n))
					continue;
				if (!cs_match(o, name))
					continue;
				c[n].name = name;
				if (sd == 1 && !any) {
					c[n].verdict = "new";
					c[n].change = c[n].lo = c[n].hi = NAN;
				} else if (!side_has(&s[1], name, any) || side_has(&s[1], name, any)->stale) {
					const struct cs_frag *st = side_has(&s[1], name, any);

					c[n].verdict = st ? cs_info_get(&st->info, "state") : absent_state(&s[1], name);
					c[n].change = c[n].lo = c[n].hi = NAN;
					c[n].fails = !o->allow_missing;
				} else {
					compare_one(o, s, name, any, &c[n], need);
				}
				n++;
			}
	if (!n) {
		cs_seterr(&err, NULL, 0, "compare: no fragment to compare%s",
			  o->filter ? " (none matches the filter)" : "");
		goto fail;
	}
	print_cmp(o, s, c, n, need);
	ret = 0;
	for (size_t i = 0; i < n; i++)
		ret |= c[i].fails;
	goto out;
nomem:
	cs_seterr(&err, NULL, 0, "out of memory");
fail:
	cs_perror(&err);
out:
	for (int sd = 0; sd < 2; sd++) {
		for (size_t i = 0; s[sd].in && i < s[sd].n; i++)
			cs_input_free(&s[sd].in[i]);
		free(s[sd].in);
	}
	free(c);
	return ret;
}

static const char *pct(char *b, double v)
{
	if (isnan(v))
		return "-";
	if (isinf(v))
		return v > 0 ? "+inf%" : "-inf%";
	snprintf(b, 16, "%+.1f%%", v * 100);
	return b;
}

/* a bound of the interval in the table: percent, no sign of its own */
static const char *pct_bare(char *b, double v)
{
	pct(b, v);
	b[strcspn(b, "%")] = 0;
	return b;
}

static void json_num(FILE *f, double v)
{
	char b[40];

	fputs(isfinite(v) ? cs_fmt_d(b, sizeof(b), v) : "null", f);
}

/* the verdict as the table shows it: the reason shortened to fit */
static const char *short_verdict(struct cmp *c)
{
	static char b[80];
	const char *need = strstr(c->reason, "need");

	if (!strcmp(c->verdict, "not enough runs"))
		snprintf(b, sizeof(b), "%s runs", need ? need : c->reason);
	else if (!strcmp(c->verdict, "inconclusive"))
		snprintf(b, sizeof(b), "inconclusive (%s)", need ? need : "on the threshold");
	else
		snprintf(b, sizeof(b), "%s", c->verdict);
	return b;
}

static void print_json(const struct cs_opts *o, const struct side *s, struct cmp *c, size_t n,
		       unsigned int need, const size_t *cnt)
{
	FILE *f = o->out;
	char b[40];

	fputs("{\"cyclestat\": \"" CS_VERSION "\", \"schema\": 2", f);
	for (int sd = 0; sd < 2; sd++) {
		fputs(sd ? ", \"new\": [" : ", \"base\": [", f);
		for (size_t i = 0; i < s[sd].n; i++) {
			fputs(i ? ", " : "", f);
			cs_json_str(f, s[sd].path[i]);
		}
		fputc(']', f);
	}
	fprintf(f, ", \"threshold\": %s", cs_fmt_d(b, sizeof(b), o->threshold));
	fprintf(f, ", \"alpha\": %s, \"confidence\": 0.95, \"min_repetitions\": %u,\n  \"fragments\": [\n",
		cs_fmt_d(b, sizeof(b), o->alpha), need);
	for (size_t i = 0; i < n; i++) {
		fputs("    {\"name\": ", f);
		cs_json_str(f, c[i].name);
		fprintf(f, ", \"verdict\": \"%s\", \"reason\": ", c[i].verdict);
		cs_json_str(f, c[i].reason);
		fprintf(f, ", \"fails\": %s, \"basis\": ", c[i].fails ? "true" : "false");
		if (c[i].basis)
			fprintf(f, "\"%s\", \"repetitions\": \"%s\", \"base_n\": %zu, \"new_n\": %zu, \"base_median\": ",
				c[i].basis, c[i].reps, c[i].nb, c[i].nn);
		else
			fputs("null, \"repetitions\": null, \"base_n\": 0, \"new_n\": 0, \"base_median\": ", f);
		json_num(f, c[i].basis ? (double)c[i].mb : NAN);
		fputs(", \"new_median\": ", f);
		json_num(f, c[i].basis ? (double)c[i].mn : NAN);
		fputs(", \"change\": ", f);
		json_num(f, c[i].change);
		fputs(", \"change_lo\": ", f);
		json_num(f, c[i].lo);
		fputs(", \"change_hi\": ", f);
		json_num(f, c[i].hi);
		fputs(", \"p_value\": ", f);
		json_num(f, c[i].basis ? c[i].t.p : NAN);
		fprintf(f, ", \"p_text\": \"%s\", \"test\": \"%s\", \"smi\": %s}%s\n",
			c[i].basis ? cs_fmt_p(b, sizeof(b), c[i].t.p) : "",
			!c[i].basis ? "" : c[i].t.exact ? "exact" : "normal",
			c[i].smi ? "true" : "false", i + 1 < n ? "," : "");
	}
	fputs("  ],\n  \"only_in_base\": [", f);
	for (size_t i = 0, k = 0; i < n; i++)
		if (c[i].fails && !c[i].basis) {
			fputs(k++ ? ", " : "", f);
			cs_json_str(f, c[i].name);
		}
	fputs("], \"only_in_new\": [", f);
	for (size_t i = 0, k = 0; i < n; i++)
		if (!strcmp(c[i].verdict, "new")) {
			fputs(k++ ? ", " : "", f);
			cs_json_str(f, c[i].name);
		}
	fprintf(f, "],\n  \"slower\": %zu, \"faster\": %zu, \"same\": %zu, \"inconclusive\": %zu, "
		"\"not_enough_runs\": %zu, \"missing\": %zu}\n", cnt[0], cnt[1], cnt[2], cnt[3], cnt[5], cnt[4]);
}

static void print_cmp(const struct cs_opts *o, const struct side *s, struct cmp *c, size_t n,
		      unsigned int need)
{
	FILE *f = o->out;
	size_t cnt[6] = { 0 };
	int wn = 8, wv = 7, wb = 4, ww = 3, wi = 9, reps_note = 0;
	char (*cell)[4][40] = calloc(n, sizeof(*cell));
	const char *bases[3] = { 0 };

	if (!cell)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *v = c[i].verdict;
		char l[16], h[16];

		cnt[!strcmp(v, "slower") ? 0 : !strcmp(v, "faster") ? 1 : !strcmp(v, "same") ? 2 :
		    !strcmp(v, "inconclusive") ? 3 : !strcmp(v, "not enough runs") ? 5 : 4] +=
			strcmp(v, "new") != 0;
		if (c[i].basis) {
			snprintf(cell[i][0], 40, "%.4Lg", c[i].mb);
			pct(cell[i][1], c[i].change);
			snprintf(cell[i][2], 40, "%s..%s", pct_bare(l, c[i].lo), pct_bare(h, c[i].hi));
			cs_fmt_p(cell[i][3], 40, c[i].t.p);
			if (strlen(cell[i][3]) > 6)
				snprintf(cell[i][3], 40, "%.2g", c[i].t.p);
			for (int k = 0; k < 3; k++)
				if (!bases[k] || bases[k] == c[i].basis) {
					bases[k] = c[i].basis;
					break;
				}
			reps_note |= !strcmp(c[i].reps, "ensembles");
		}
		if ((int)strlen(cell[i][0]) > wb)
			wb = (int)strlen(cell[i][0]);
		if ((int)strlen(cell[i][2]) > wi)
			wi = (int)strlen(cell[i][2]);
		if ((int)strlen(c[i].name) > wn)
			wn = (int)strlen(c[i].name);
		ww = (int)strlen(short_verdict(&c[i]));
		if (ww > wv)
			wv = ww;
	}
	if (o->format == CS_JSON) {
		print_json(o, s, c, n, need, cnt);
		free(cell);
		return;
	}
	if (o->format == CS_CSV) {
		fputs("fragment,verdict,reason,basis,base_n,new_n,base_median,new_median,change,change_lo,change_hi,p_value\n", f);
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "%s,%s,%s,%s,%zu,%zu,", c[i].name, c[i].verdict, c[i].reason,
				c[i].basis ? c[i].basis : "", c[i].nb, c[i].nn);
			if (c[i].basis) {
				char b[6][40];

				fprintf(f, "%s,%s,%s,%s,%s,%s\n", cs_fmt_d(b[0], 40, (double)c[i].mb),
					cs_fmt_d(b[1], 40, (double)c[i].mn), cs_fmt_d(b[2], 40, c[i].change),
					cs_fmt_d(b[3], 40, c[i].lo), cs_fmt_d(b[4], 40, c[i].hi),
					cs_fmt_p(b[5], 40, c[i].t.p));
			} else {
				fputs(",,,,,\n", f);
			}
		}
		free(cell);
		return;
	}
	/* 80 columns: the name gives way, visibly */
	{
		int rest = 2 + 5 + 2 + wb + 2 + 7 + 2 + wi + 2 + 6 + 2 + wv;

		if (wn + rest > 80)
			wn = 80 - rest < 12 ? 12 : 80 - rest;
	}
	fprintf(f, "# base: %zu %s, new: %zu %s; base = median of the repetitions, ticks per op\n",
		s[0].n, s[0].n == 1 ? "tree" : "trees", s[1].n, s[1].n == 1 ? "tree" : "trees");
	fprintf(f, "%-*s  %5s  %*s  %7s  %-*s  %6s  %s\n", wn, "fragment", "n", wb, "base",
		"change", wi, "95% CI, %", "p", "verdict");
	for (size_t i = 0; i < n; i++) {
		const char *col = "", *off = "";
		char name[128], nn[16];
		int x;

		if (o->color && (c[i].fails || !strcmp(c[i].verdict, "faster"))) {
			col = c[i].fails ? "\033[31m" : "\033[32m";
			off = "\033[0m";
		}
		cs_fit(name, sizeof(name), c[i].name, wn, &x);
		snprintf(nn, sizeof(nn), "%zu/%zu", c[i].nb, c[i].nn);
		/* the ellipsis is 3 bytes, 1 column */
		fprintf(f, "%-*s  %5s  %*s  %7s  %-*s  %6s  %s%s%s\n",
			wn + x, name, c[i].basis ? nn : "-",
			wb, c[i].basis ? cell[i][0] : "-", c[i].basis ? cell[i][1] : "-", wi,
			c[i].basis ? cell[i][2] : "-", c[i].basis ? cell[i][3] : "-", col,
			short_verdict(&c[i]), off);
	}
	fprintf(f, "%zu slower, %zu faster, %zu same, %zu inconclusive, %zu too few runs, %zu missing\n",
		cnt[0], cnt[1], cnt[2], cnt[3], cnt[5], cnt[4]);
	fprintf(f, "same: whole 95%% interval within +-%g%%; need N runs: under %u repetitions per side\n",
		o->threshold * 100, need);
	for (int k = 0; k < 3 && bases[k]; k++)
		fprintf(f, "%s\n", !strcmp(bases[k], "per-op") ?
			"compared: the two-length per-op cost (cycles_long), ticks per op" :
			!strcmp(bases[k], "net") ?
			"compared: median less base:empty's (same run and method), ticks per op" :
			"compared: the raw median (no overhead of the same run), ticks per op");
	fprintf(f, "change: Hodges-Lehmann estimate and interval (exact Mann-Whitney); slower and\nfaster also need p < %g and the whole interval beyond the threshold\n",
		o->alpha);
	if (reps_note)
		fprintf(f, "repetitions are the ensembles of one run: they cannot show the spread between\nruns; for a verdict across boots give several runs per side: BASE... -- NEW...\n");
	for (size_t i = 0; i < n; i++)
		if (c[i].smi) {
			fprintf(f, "* SMIs occurred during one of these runs: rerun before trusting the verdict\n");
			break;
		}
	free(cell);
}
