// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - cyclestat compare BASE NEW: did anything get slower?
 *
 * Fragments are paired by name (two single-fragment inputs pair whatever
 * their names). Per pair: both medians, the relative change of the median,
 * the two-sided Mann-Whitney U p-value, and a verdict:
 *   slower  p < alpha and change >  threshold
 *   faster  p < alpha and change < -threshold
 *   same    otherwise ("no difference proven", as ministat would say)
 * Exit 0 when nothing is slower, 1 when something is, 2 on error, so a CI
 * job gates on the status. Only two fragments' samples are in memory at once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"

struct cmp {
	const char *name;
	struct cs_q base_med, new_med;
	uint64_t base_n, new_n;
	int base_smi, new_smi;
	double change, p;
	const char *verdict;
};

static const char *verdict_of(const struct cs_opts *o, double change, double p)
{
	if (p < o->alpha && change > o->threshold)
		return "slower";
	if (p < o->alpha && change < -o->threshold)
		return "faster";
	return "same";
}

static double change_of(struct cs_q b, struct cs_q n)
{
	long double lb = cs_q_ld(b), ln = cs_q_ld(n);

	if (lb == 0)
		return ln == 0 ? 0 : INFINITY;
	return (double)((ln - lb) / lb);
}

static void num(FILE *f, double v, int g)
{
	if (isfinite(v))
		fprintf(f, g ? "%.6g" : "%.6f", v);
	else
		fputs("null", f);
}

static void print_cmp(const struct cs_opts *o, const char *base, const char *new,
		      struct cmp *c, size_t n, struct cs_loc *lb, size_t nb,
		      struct cs_loc *ln, size_t nn, const char *const *used)
{
	FILE *f = o->out;
	size_t cnt[3] = { 0 };
	char b1[64], b2[64];
	int w = 8;

	for (size_t i = 0; i < n; i++) {
		cnt[c[i].verdict[0] == 's' && c[i].verdict[1] == 'l' ? 0 :
		    c[i].verdict[0] == 'f' ? 1 : 2]++;
		if ((int)strlen(c[i].name) + 2 > w)
			w = (int)strlen(c[i].name) + 2;
	}
	if (o->format == CS_JSON) {
		fputs("{\"cyclestat\": \"" CS_VERSION "\", \"schema\": 1, \"base\": ", f);
		cs_json_str(f, base);
		fputs(", \"new\": ", f);
		cs_json_str(f, new);
		fprintf(f, ", \"threshold\": %g, \"alpha\": %g,\n  \"fragments\": [\n",
			o->threshold, o->alpha);
		for (size_t i = 0; i < n; i++) {
			fputs("    {\"name\": ", f);
			cs_json_str(f, c[i].name);
			fprintf(f, ", \"base_median\": %s, \"new_median\": %s, \"change\": ",
				cs_fmt_q(b1, sizeof(b1), c[i].base_med, 3),
				cs_fmt_q(b2, sizeof(b2), c[i].new_med, 3));
			num(f, c[i].change, 0);
			fputs(", \"p_value\": ", f);
			num(f, c[i].p, 1);
			fprintf(f, ", \"verdict\": \"%s\", \"base_n\": %llu, \"new_n\": %llu, "
				"\"base_smi\": %s, \"new_smi\": %s}%s\n", c[i].verdict,
				(unsigned long long)c[i].base_n, (unsigned long long)c[i].new_n,
				c[i].base_smi ? "true" : "false", c[i].new_smi ? "true" : "false",
				i + 1 < n ? "," : "");
		}
		fputs("  ],\n  \"only_in_base\": [", f);
		for (size_t i = 0, k = 0; i < nb; i++) {
			if (used[i])
				continue;
			fputs(k++ ? ", " : "", f);
			cs_json_str(f, lb[i].name);
		}
		fputs("], \"only_in_new\": [", f);
		for (size_t i = 0, k = 0; i < nn; i++) {
			int found = 0;

			for (size_t j = 0; j < n; j++)
				found |= c[j].name == ln[i].name;
			if (found)
				continue;
			fputs(k++ ? ", " : "", f);
			cs_json_str(f, ln[i].name);
		}
		fprintf(f, "],\n  \"slower\": %zu, \"faster\": %zu, \"same\": %zu}\n",
			cnt[0], cnt[1], cnt[2]);
		return;
	}
	if (o->format == CS_CSV) {
		fputs("fragment,base_median,new_median,change,p_value,verdict,base_n,new_n\n", f);
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "%s,%s,%s,", c[i].name,
				cs_fmt_q(b1, sizeof(b1), c[i].base_med, 3),
				cs_fmt_q(b2, sizeof(b2), c[i].new_med, 3));
			if (isfinite(c[i].change))
				fprintf(f, "%.6f", c[i].change);
			fprintf(f, ",%.6g,%s,%llu,%llu\n", c[i].p, c[i].verdict,
				(unsigned long long)c[i].base_n, (unsigned long long)c[i].new_n);
		}
		return;
	}
	fprintf(f, "# base %s\n# new  %s\n", base, new);
	fprintf(f, "%-*s  %12s  %12s  %8s  %9s  %s\n", w, "fragment", "base median",
		"new median", "change", "p-value", "verdict");
	for (size_t i = 0; i < n; i++) {
		const char *col = "";

		if (o->color)
			col = c[i].verdict[1] == 'l' ? "\033[31m" :
			      c[i].verdict[0] == 'f' ? "\033[32m" : "";
		snprintf(b1, sizeof(b1), "%s%s", c[i].name,
			 c[i].base_smi || c[i].new_smi ? " *" : "");
		fprintf(f, "%-*s  %12s  ", w, b1, cs_fmt_q(b2, sizeof(b2), c[i].base_med, 1));
		fprintf(f, "%12s  ", cs_fmt_q(b2, sizeof(b2), c[i].new_med, 1));
		if (isfinite(c[i].change))
			fprintf(f, "%+7.1f%%", c[i].change * 100);
		else
			fprintf(f, "%8s", "inf");
		fprintf(f, "  %9.3g  %s%s%s\n", c[i].p, col, c[i].verdict,
			*col ? "\033[0m" : "");
	}
	fprintf(f, "%zu slower, %zu faster, %zu same (same: no change beyond %g%% proven at alpha %g)\n",
		cnt[0], cnt[1], cnt[2], o->threshold * 100, o->alpha);
	for (size_t i = 0; i < n; i++)
		if (c[i].base_smi || c[i].new_smi) {
			fprintf(f, "* SMIs occurred during one of these runs: rerun before trusting the verdict\n");
			break;
		}
}

int cs_compare(const struct cs_opts *o, const char *base, const char *new)
{
	struct cs_loc *lb = NULL, *ln = NULL;
	struct cs_info ib = { 0 }, in = { 0 };
	size_t nb = 0, nn = 0, n = 0;
	struct cmp *c = NULL;
	const char **used = NULL;	/* base fragments compared, for only_in_base */
	char *matched = NULL;		/* base fragments the new side lists too */
	struct cs_err err = { 0 };
	int ret = 2, slower = 0;

	if (o->format == CS_GBENCH) {
		fprintf(stderr, "cyclestat: compare: --format gbench is for summaries; use table, json or csv (google/benchmark's compare.py compares two 'cyclestat --format gbench' files itself)\n");
		return 2;
	}
	if (cs_locate(base, &lb, &nb, &ib, &err) || cs_locate(new, &ln, &nn, &in, &err))
		goto fail;
	c = calloc(nn, sizeof(*c));
	used = calloc(nb, sizeof(*used));
	matched = calloc(nb, 1);
	if (!c || !used || !matched) {
		cs_seterr(&err, NULL, 0, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nn; i++) {
		struct cs_samples sb = { 0 }, sn = { 0 };
		struct cs_frag fb, fn;
		size_t j = 0;
		int rb, rn;

		if (!(nb == 1 && nn == 1))
			for (j = 0; j < nb && strcmp(lb[j].name, ln[i].name); j++)
				;
		if (j == nb)
			continue;
		rb = cs_load_frag(&lb[j], &fb, &sb, &err);
		if (rb < 0)
			goto fail;
		rn = cs_load_frag(&ln[i], &fn, &sn, &err);
		if (rn < 0) {
			if (!rb) {
				cs_samples_free(&sb);
				cs_frag_free(&fb);
			}
			goto fail;
		}
		matched[j] = 1;
		if (!o->quiet && rb != rn)
			fprintf(stderr, "cyclestat: %s: measured only in %s, not compared\n",
				ln[i].name, rb ? new : base);
		if (!rb && !rn) {
			used[j] = ln[i].name;
			c[n].name = ln[i].name;
			c[n].base_med = fb.raw.median;
			c[n].new_med = fn.raw.median;
			c[n].base_n = fb.raw.n;
			c[n].new_n = fn.raw.n;
			c[n].base_smi = fb.smi;
			c[n].new_smi = fn.smi;
			c[n].p = cs_mannwhitney(sb.v, sb.n, sn.v, sn.n);
			c[n].change = change_of(fb.raw.median, fn.raw.median);
			c[n].verdict = verdict_of(o, c[n].change, c[n].p);
			slower |= c[n].verdict[1] == 'l';
			n++;
		}
		if (!rb) {
			cs_samples_free(&sb);
			cs_frag_free(&fb);
		}
		if (!rn) {
			cs_samples_free(&sn);
			cs_frag_free(&fn);
		}
	}
	if (!n) {
		cs_seterr(&err, NULL, 0,
			  "compare: no fragment with results in both %s and %s; were they measured with the same selection?",
			  base, new);
		goto fail;
	}
	/* Fragments one side does not list at all; unmeasured ones were said above. */
	if (!o->quiet) {
		for (size_t i = 0; i < nb; i++)
			if (!matched[i])
				fprintf(stderr, "cyclestat: %s: only in %s, not compared\n",
					lb[i].name, base);
		for (size_t i = 0; i < nn; i++) {
			size_t j = 0;

			if (!(nb == 1 && nn == 1))
				for (j = 0; j < nb && strcmp(lb[j].name, ln[i].name); j++)
					;
			if (j == nb)
				fprintf(stderr, "cyclestat: %s: only in %s, not compared\n",
					ln[i].name, new);
		}
	}
	print_cmp(o, base, new, c, n, lb, nb, ln, nn, used);
	ret = slower;
	goto out;
fail:
	cs_perror(&err);
out:
	free(c);
	free(used);
	free(matched);
	cs_locs_free(lb, nb);
	cs_locs_free(ln, nn);
	cs_info_free(&ib);
	cs_info_free(&in);
	return ret;
}
