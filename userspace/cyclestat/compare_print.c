// SPDX-License-Identifier: GPL-2.0
/*
 * compare_print.c - compare's verdicts as a table (80 columns), JSON (schema 2,
 * documented in cyclestat(1)), CSV or TAP (a CI gate's stdout). Calls fmt.c.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"
#include "compare.h"

static const char *pct(char *b, double v)
{
	/* into b, always: callers print b (and pct_bare cuts it) */
	if (isnan(v))
		snprintf(b, 16, "-");
	else if (isinf(v))
		snprintf(b, 16, v > 0 ? "+inf%%" : "-inf%%");
	else
		snprintf(b, 16, "%+.1f%%", v * 100);
	return b;
}

/*
 * the minimum detectable change as a cell: "3.1%"; "none" where no p these
 * runs give can pass (cs_cmp_family()); "-" where there is no interval
 */
static const char *sees(char *b, double mdc)
{
	if (isnan(mdc))
		snprintf(b, 16, "-");
	else if (isinf(mdc))
		snprintf(b, 16, "none");
	else if (mdc >= 0.9995)
		snprintf(b, 16, ">99%%");
	else
		snprintf(b, 16, "%.1f%%", mdc * 100);
	return b;
}

/* a bound of the interval in the table: percent, no sign of its own */
static const char *pct_bare(char *b, double v)
{
	pct(b, v);
	b[strcspn(b, "%")] = 0;
	return b;
}

/* an interval's level below the conf it was asked for, "90%"; "" at conf */
static const char *short_level(char *b, const struct cmp *c)
{
	*b = 0;
	if (c->basis && !isnan(c->lo) && c->t.level < CONF - 1e-9)
		snprintf(b, 16, "%.3g%%", c->t.level * 100);
	return b;
}

/* @key, then v, or null where it is no number */
static void json_num(FILE *f, const char *key, double v)
{
	char b[40];

	fputs(key, f);
	fputs(isfinite(v) ? cs_fmt_d(b, sizeof(b), v) : "null", f);
}

/* the verdict as the table shows it: the reason shortened to fit */
static const char *short_verdict(const struct cmp *c)
{
	static char b[sizeof(c->reason) + 16];
	const char *need = strstr(c->reason, "need");
	unsigned int k;

	if (!strcmp(c->verdict, "not enough runs") && need && sscanf(need, "need %u", &k) == 1)
		snprintf(b, sizeof(b), "need %u runs", k);
	else if (!strcmp(c->verdict, "not enough runs"))
		snprintf(b, sizeof(b), "%s runs", need ? need : c->reason);
	else if (!strcmp(c->verdict, "incomplete"))
		snprintf(b, sizeof(b), "incomplete (%.*s)", need ? (int)(need - 2 - c->reason) :
			 (int)strlen(c->reason), c->reason);
	else if (!strcmp(c->verdict, "inconclusive"))
		snprintf(b, sizeof(b), "inconclusive (%s)", need ? need :
			 strstr(c->reason, "step") ? "under a step" : "on the threshold");
	else
		snprintf(b, sizeof(b), "%s", c->verdict);
	return b;
}

/* a change in a TAP line: n/a where JSON has null; -0 as +0.0% (JSON has 0) */
static void tap_pct(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%+.1f%%", v == 0 ? 0 : v * 100);
	else
		fputs("n/a", f);
}

/*
 * The line that names the rows that cannot see a change of 10 % (their
 * minimum detectable change above it, or no interval at all), each with
 * the repetitions a side that might: @pre before it ("# " in TAP).
 */
static int blind(const struct cs_opts *o, const struct cmp *c, size_t n, const char *pre)
{
	FILE *f = o->out;
	size_t k = 0, col = 0;

	for (size_t i = 0; i < n; i++) {
		char b[200];
		int w;

		if (!c[i].need10)
			continue;
		if (k < 12) {
			if (c[i].need10 == UINT_MAX)
				w = snprintf(b, sizeof(b), "%s (never: a clock step is %.1Lf%%)", c[i].name,
					     c[i].quant * 100);
			else if (c[i].need10 >= 1000)
				w = snprintf(b, sizeof(b), "%s (need >999)", c[i].name);
			else
				w = snprintf(b, sizeof(b), "%s (need %u)", c[i].name, c[i].need10);
			if (!k)
				col = (size_t)fprintf(f, "%scannot see 10%%:", pre);
			else if (col + 2 + (size_t)w > 78)
				col = (size_t)fprintf(f, ",\n%s ", pre) - 2;
			else
				col += (size_t)fprintf(f, ",");
			col += (size_t)fprintf(f, " %s", b);
		}
		k++;
	}
	if (k > 12)
		fprintf(f, ",\n%s  and %zu more (--format json lists them)", pre, k - 12);
	if (k)
		fputc('\n', f);
	else if (n && *pre != '#')
		fprintf(f, "%severy row sees a change of 10%%\n", pre);
	else
		return 0;
	return 1;
}

/*
 * The plan, then one line per fragment, "not ok" exactly where it fails
 * (exit 1). scripts/ci-bare-metal.sh prints it as it comes: the wording is
 * what the gate made of the JSON before there was a TAP format, so its logs
 * read the same. Control characters in a name (JSON escapes them) are '?':
 * a line stays one line.
 */
static void print_tap(const struct cs_opts *o, const struct cmp *c, size_t n)
{
	FILE *f = o->out;

	fprintf(f, "1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s %zu - ", c[i].fails ? "not ok" : "ok", i + 1);
		for (const char *s = c[i].name; *s; s++)
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
		fprintf(f, " %s", c[i].verdict);
		if (*c[i].reason)
			fprintf(f, strcmp(c[i].verdict, "not enough runs") ? " (%s)" : ": %s",
				c[i].reason);
		if (c[i].basis && c[i].nb) {
			char p[40], lv[16];

			/* two digits, but never "0" for a p that underflowed */
			cs_fmt_p(p, sizeof(p), c[i].t.p);
			if (*p != '<' && isfinite(c[i].t.p))
				snprintf(p, sizeof(p), "%.2g", c[i].t.p);
			fputs(" (", f);
			tap_pct(f, c[i].change);
			fputs(" [", f);
			tap_pct(f, c[i].lo);
			fputs(", ", f);
			tap_pct(f, c[i].hi);
			fprintf(f, "]%s%s, p=%s, n=%zu/%zu", *short_level(lv, &c[i]) ? " " : "", lv, p,
				c[i].nb, c[i].nn);
			if (!isnan(c[i].mdc))
				fprintf(f, ", sees %s", sees(lv, c[i].mdc));
			fputc(')', f);
		} else if (!strcmp(c[i].verdict, "new")) {
			fputs(" (not in the baseline)", f);
		} else if (c[i].incomplete) {
			fputs(" (no whole pair)", f);
		} else {
			fprintf(f, " (in the baseline, not in this run%s)",
				c[i].fails ? "" : "; allowed by --allow-missing");
		}
		fputs(c[i].smi ? " [SMIs during a run: rerun before trusting this]\n" : "\n", f);
	}
	blind(o, c, n, "# ");
}

/* a median for people: 4 significant digits, never in exponent form */
static const char *fig(char *b, long double v)
{
	if (!isfinite(v))
		snprintf(b, 40, "-");
	else if (fabsl(v) >= 1e4L)
		snprintf(b, 40, "%.0Lf", v);
	else
		snprintf(b, 40, "%.4Lg", v);
	if (strchr(b, 'e'))
		snprintf(b, 40, "%.4Lf", v);
	return b;
}

/* the unit of the rows, as the heading says it */
static const char *unit_of(const struct cmp *c, size_t n)
{
	int ncal = 0, nemul = 0;

	for (size_t i = 0; i < n; i++) {
		ncal += c[i].cal;
		nemul += c[i].emul;
	}
	return nemul ? (ncal ? CB_REF_ADD " adds (emulated clock)" : "emulated ticks") :
	       !ncal ? "ticks" : (size_t)ncal == n ? "core cycles" : "ticks or core cycles";
}

/*
 * hyperfine's and compare.py's line for each proven change: "new is 1.30×
 * slower than base", the ratio of the medians with the change's interval
 * as ratios (a faster one as base / new, so the number is above 1)
 */
static void ratios(FILE *f, const struct cmp *c, size_t n, int md)
{
	for (size_t i = 0; i < n; i++) {
		int slow = !strcmp(c[i].verdict, "slower");
		double r = 1 + c[i].change, lo = 1 + c[i].lo, hi = 1 + c[i].hi;

		if (!c[i].basis || (!slow && strcmp(c[i].verdict, "faster")) || !isfinite(r) || r <= 0)
			continue;
		if (!slow) {
			double t = hi > 0 ? 1 / hi : INFINITY;

			r = 1 / r;
			hi = lo > 0 ? 1 / lo : INFINITY;
			lo = t;
		}
		fprintf(f, md ? "- `%s`: new is **%.2f\u00d7 %s** than base" : "%s: new is %.2f\u00d7 %s than base",
			c[i].name, r, slow ? "slower" : "faster");
		if (isfinite(lo) && isfinite(hi))
			fprintf(f, " (95%% interval %.2f\u00d7..%.2f\u00d7)", lo, hi);
		fputc('\n', f);
	}
}

/* --format markdown: the table and the verdict counts for a pull request comment */
static void print_markdown(const struct cs_opts *o, const struct side *s, const struct cmp *c,
			   size_t n, unsigned int need, const size_t *cnt, char (*cell)[6][40],
			   const char *unit)
{
	FILE *f = o->out;

	fprintf(f, "**cyclestat compare**: base %zu %s, new %zu %s; %s per body run, the median of each side's repetitions\n\n",
		s[0].n, s[0].n == 1 ? "run" : "runs", s[1].n, s[1].n == 1 ? "run" : "runs", unit);
	fputs("| fragment | n | base | new | change | 95% interval | p | sees | verdict |\n"
	      "|:--|--:|--:|--:|--:|:--|--:|--:|:--|\n", f);
	for (size_t i = 0; i < n; i++) {
		char nn[48];

		fputc('|', f);
		cs_md_cell(f, c[i].name, 1);
		snprintf(nn, sizeof(nn), "%zu/%zu", c[i].nb, c[i].nn);
		cs_md_cell(f, c[i].basis ? nn : "-", 0);
		for (int k = 0; k < 6; k++) {
			static const int col[6] = { 0, 4, 1, 2, 3, 5 };

			cs_md_cell(f, c[i].basis ? cell[i][col[k]] : "-", 0);
		}
		fprintf(f, " %s%s%s |\n", c[i].fails ? "**" : "", short_verdict((struct cmp *)&c[i]),
			c[i].fails ? "**" : "");
	}
	fprintf(f, "\n%zu slower, %zu faster, %zu same, %zu inconclusive, %zu too few runs, %zu missing",
		cnt[0], cnt[1], cnt[2], cnt[3], cnt[5], cnt[4]);
	if (cnt[6])
		fprintf(f, ", %zu incomplete", cnt[6]);
	fputs("\n\n", f);
	ratios(f, c, n, 1);
	if (cnt[0] + cnt[1])
		fputc('\n', f);
	fprintf(f, "%ssame: the whole 95%% interval within \u00b1%g%%; slower, faster: also p < %g over all rows (Holm); sees: the smallest change it can call slower; need N runs: under %u repetitions a side\n",
		blind(o, c, n, "") ? "\n" : "", o->threshold * 100, o->alpha, need);
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
	fprintf(f, ", \"alpha\": %s, \"confidence\": %g, \"min_repetitions\": %u,\n  \"fragments\": [\n",
		cs_fmt_d(b, sizeof(b), o->alpha), CONF, need);
	for (size_t i = 0; i < n; i++) {
		fputs("    {\"name\": ", f);
		cs_json_str(f, c[i].name);
		fprintf(f, ", \"verdict\": \"%s\", \"reason\": ", c[i].verdict);
		cs_json_str(f, c[i].reason);
		fprintf(f, ", \"fails\": %s, \"basis\": ", c[i].fails ? "true" : "false");
		if (c[i].basis)
			fprintf(f, "\"%s\", \"repetitions\": \"%s\", \"base_n\": %zu, \"new_n\": %zu, \"base_median\": ",
				cs_basis_name(c[i].basis), c[i].reps, c[i].nb, c[i].nn);
		else
			fputs("null, \"repetitions\": null, \"base_n\": 0, \"new_n\": 0, \"base_median\": ", f);
		json_num(f, "", c[i].basis ? (double)c[i].mb : NAN);
		json_num(f, ", \"new_median\": ", c[i].basis ? (double)c[i].mn : NAN);
		json_num(f, ", \"change\": ", c[i].change);
		json_num(f, ", \"change_lo\": ", c[i].lo);
		json_num(f, ", \"change_hi\": ", c[i].hi);
		json_num(f, ", \"confidence\": ", c[i].basis && !isnan(c[i].lo) ? c[i].t.level : NAN);
		json_num(f, ", \"p_value\": ", c[i].basis ? c[i].t.p : NAN);
		json_num(f, ", \"p_adjusted\": ", c[i].p_adj);
		fputs(", \"min_detectable\": ", f);
		if (isinf(c[i].mdc))
			fputs("\"none\"", f);
		else
			json_num(f, "", c[i].mdc);
		fputs(", \"need_for_10\": ", f);
		if (!c[i].need10 || c[i].need10 == UINT_MAX)
			fputs(c[i].need10 ? "\"never\"" : "null", f);
		else
			fprintf(f, "%u", c[i].need10);
		fprintf(f, ", \"p_text\": \"%s\", \"test\": \"%s\", \"unit\": \"%s\", \"smi\": %s}%s\n",
			c[i].basis ? cs_fmt_p(b, sizeof(b), c[i].t.p) : "",
			!c[i].basis ? "" : c[i].t.exact ? "exact" : "normal",
			!c[i].basis ? "" : c[i].cal && c[i].emul ? CB_REF_ADD " adds (emulated clock)" :
			c[i].cal ? "core cycles (calibrated)" : c[i].emul ? "emulated ticks" : "ticks",
			c[i].smi ? "true" : "false", i + 1 < n ? "," : "");
	}
	fputs("  ],\n  \"only_in_base\": [", f);
	for (size_t i = 0, k = 0; i < n; i++)
		if (c[i].fails && !c[i].basis) {
			fputs(k++ ? ", " : "", f);
			cs_json_str(f, c[i].name);
		}
	fputs("], \"blind_to_10\": [", f);
	for (size_t i = 0, k = 0; i < n; i++)
		if (c[i].need10) {
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
		"\"not_enough_runs\": %zu, \"missing\": %zu, \"incomplete\": %zu}\n", cnt[0], cnt[1],
		cnt[2], cnt[3], cnt[5], cnt[4], cnt[6]);
}

/* compare's rows as cells, their widths, and what the notes must say */
struct cmp_cells {
	char (*cell)[6][40];	/* base, change, interval, p, new, sees */
	/* slower, faster, same, inconclusive, missing, too few runs, incomplete */
	size_t cnt[7];
	int wn, wv, wb, wnw, wi;	/* name, verdict, base, new, interval */
	int reps_note, low;
	enum cs_basis bases[3];
};

static void fill_cmp_cells(const struct cmp *c, size_t n, struct cmp_cells *t)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = c[i].verdict;
		char l[16], h[16], lv[16] = "";
		int ww;

		t->cnt[!strcmp(v, "slower") ? 0 : !strcmp(v, "faster") ? 1 : !strcmp(v, "same") ? 2 :
		       !strcmp(v, "inconclusive") ? 3 : !strcmp(v, "not enough runs") ? 5 :
		       c[i].incomplete ? 6 : 4] += strcmp(v, "new") != 0;
		if (c[i].basis) {
			fig(t->cell[i][0], c[i].mb);
			fig(t->cell[i][4], c[i].mn);
			pct(t->cell[i][1], c[i].change);
			if (isnan(c[i].lo))
				snprintf(t->cell[i][2], 40, "-");
			else if (*short_level(lv, &c[i]))
				snprintf(t->cell[i][2], 40, "%s..%s%% (%s)", pct_bare(l, c[i].lo),
					 pct_bare(h, c[i].hi), lv);
			else
				snprintf(t->cell[i][2], 40, "%s..%s%%", pct_bare(l, c[i].lo),
					 pct_bare(h, c[i].hi));
			t->low |= *lv != 0;
			cs_fmt_p(t->cell[i][3], 40, c[i].t.p);
			if (isnan(c[i].t.p))
				snprintf(t->cell[i][3], 40, "-");
			else if (c[i].t.p < 1e-99)
				snprintf(t->cell[i][3], 40, "<1e-99");	/* never "0" for one that underflowed */
			else if (strlen(t->cell[i][3]) > 6)
				snprintf(t->cell[i][3], 40, "%.2g", c[i].t.p);
			sees(t->cell[i][5], c[i].mdc);
			for (int k = 0; k < 3; k++)
				if (!t->bases[k] || t->bases[k] == c[i].basis) {
					t->bases[k] = c[i].basis;
					break;
				}
			t->reps_note |= strstr(c[i].reps, "ensembles") != NULL;
		}
		if ((int)strlen(t->cell[i][0]) > t->wb)
			t->wb = (int)strlen(t->cell[i][0]);
		if ((int)strlen(t->cell[i][4]) > t->wnw)
			t->wnw = (int)strlen(t->cell[i][4]);
		if ((int)strlen(t->cell[i][2]) > t->wi)
			t->wi = (int)strlen(t->cell[i][2]);
		if ((int)strlen(c[i].name) > t->wn)
			t->wn = (int)strlen(c[i].name);
		ww = (int)strlen(short_verdict(&c[i]));
		if (ww > t->wv)
			t->wv = ww;
	}
}

static void print_cmp_csv(FILE *f, const struct cmp *c, size_t n)
{
	fputs("fragment,verdict,reason,basis,base_n,new_n,base_median,new_median,change,change_lo,change_hi,p_value,confidence,p_adjusted,min_detectable\n", f);
	for (size_t i = 0; i < n; i++) {
		/* a name or a reason may hold a comma ("1, need 5"): quoted */
		cs_csv_field(f, c[i].name);
		fprintf(f, ",%s,", c[i].verdict);
		cs_csv_field(f, c[i].reason);
		fprintf(f, ",%s,%zu,%zu,", cs_basis_name(c[i].basis), c[i].nb, c[i].nn);
		if (c[i].basis) {
			char b[9][40];

			fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", cs_fmt_d(b[0], 40, (double)c[i].mb),
				cs_fmt_d(b[1], 40, (double)c[i].mn), cs_fmt_d(b[2], 40, c[i].change),
				cs_fmt_d(b[3], 40, c[i].lo), cs_fmt_d(b[4], 40, c[i].hi),
				cs_fmt_p(b[5], 40, c[i].t.p),
				isnan(c[i].lo) ? "" : cs_fmt_d(b[6], 40, c[i].t.level),
				isnan(c[i].p_adj) ? "" : cs_fmt_p(b[7], 40, c[i].p_adj),
				isnan(c[i].mdc) ? "" : isinf(c[i].mdc) ? "none" : cs_fmt_d(b[8], 40, c[i].mdc));
		} else {
			fputs(",,,,,,,,\n", f);
		}
	}
}

/*
 * The table: 80 columns: p, then the base and new medians give way (the
 * verdict already says what p decided; the change and its interval are
 * the statistics); never the name
 */
static void print_cmp_table(const struct cs_opts *o, const struct side *s, const struct cmp *c,
			    size_t n, const struct cmp_cells *t, const char *unit)
{
	FILE *f = o->out;
	int rest = 2 + 5 + 2 + t->wb + 2 + t->wnw + 2 + 7 + 2 + t->wi + 2 + 5 + 2 + 6 + 2 + t->wv;
	int show_p = t->wn + rest <= 80, show_base = t->wn + rest - 8 <= 80;
	int wide = t->wn + rest - (show_base ? 0 : 2 + t->wb + 2 + t->wnw) - (show_p ? 0 : 8);

	fprintf(f, "# base: %zu %s, new: %zu %s; base, new = median of each side's repetitions,\n# %s per body run\n",
		s[0].n, s[0].n == 1 ? "tree" : "trees", s[1].n, s[1].n == 1 ? "tree" : "trees", unit);
	fprintf(f, "%-*s  %5s%s%*s%s%*s  %7s  %-*s  %5s%s%*s  %s\n", t->wn, "fragment", "n",
		show_base ? "  " : "", show_base ? t->wb : 0, show_base ? "base" : "",
		show_base ? "  " : "", show_base ? t->wnw : 0, show_base ? "new" : "",
		"change", t->wi, "95% interval", "sees", show_p ? "  " : "", show_p ? 6 : 0,
		show_p ? "p" : "", "verdict");
	for (size_t i = 0; i < n; i++) {
		const char *col = "", *off = "";
		char nn[16];

		if (o->color && (c[i].fails || !strcmp(c[i].verdict, "faster"))) {
			col = c[i].fails ? "\033[31m" : "\033[32m";
			off = "\033[0m";
		}
		snprintf(nn, sizeof(nn), "%zu/%zu", c[i].nb, c[i].nn);
		fprintf(f, "%-*s  %5s%s%*s%s%*s  %7s  %-*s  %5s%s%*s  %s%s%s\n",
			t->wn, c[i].name, c[i].basis ? nn : "-", show_base ? "  " : "",
			show_base ? t->wb : 0, !show_base ? "" : c[i].basis ? t->cell[i][0] : "-",
			show_base ? "  " : "", show_base ? t->wnw : 0,
			!show_base ? "" : c[i].basis ? t->cell[i][4] : "-",
			c[i].basis ? t->cell[i][1] : "-", t->wi, c[i].basis ? t->cell[i][2] : "-",
			c[i].basis ? t->cell[i][5] : "-", show_p ? "  " : "", show_p ? 6 : 0, !show_p ? "" : c[i].basis ? t->cell[i][3] : "-",
			col, short_verdict(&c[i]), off);
	}
	if (!show_p || !show_base)
		fprintf(f, "(left out to fit 80 columns:%s%s%s; --format csv has them)\n",
			show_p ? "" : " p", show_p || show_base ? "" : ",",
			show_base ? "" : " base, new");
	if (wide > 80)
		fprintf(f, "(the table is %d columns wide: a fragment's name is never cut)\n", wide);
}

/* under the table: the ratios, the counts, and what each figure is */
static void print_cmp_notes(const struct cs_opts *o, const struct cmp *c, size_t n,
			    const struct cmp_cells *t, unsigned int need)
{
	FILE *f = o->out;

	ratios(f, c, n, 0);
	fprintf(f, "%zu slower, %zu faster, %zu same, %zu inconclusive, %zu too few runs, %zu missing%s",
		t->cnt[0], t->cnt[1], t->cnt[2], t->cnt[3], t->cnt[5], t->cnt[4],
		o->paired ? " or unpaired" : "");
	if (t->cnt[6])
		fprintf(f, ", %zu incomplete", t->cnt[6]);
	fputc('\n', f);
	blind(o, c, n, "");
	fprintf(f, "same: whole 95%% interval within +-%g%%; need N runs: under %u repetitions per side\n"
		"sees: the smallest change the row can call slower or faster (the threshold\nplus its interval's width); none: no p its runs give passes %g over %s\n",
		o->threshold * 100, need, o->alpha, n == 1 ? "the row" : "all rows (Holm)");
	if (t->cnt[6])
		fprintf(f, "incomplete: runs lack the row (stderr names them), and those with it are\ntoo few to decide: it decides nothing, and compare exits 2\n");
	for (size_t i = 0; i < n; i++)
		if (c[i].basis && c[i].mb == 0 && strcmp(c[i].verdict, "not enough runs")) {
			fprintf(f, "from a base median of 0 no percentage holds: slower, faster and same are\nbeyond or within one step of the clock (the TAP and JSON reason: how far)\n");
			break;
		}
	if (t->low)
		fprintf(f, "(N%%): that interval's level; too few repetitions for a 95%% one, it is the\nwidest the rank test has (3 v 3: min..max of the nine differences, 90%%)\n");
	for (size_t i = 0; i < n; i++)
		if (c[i].cal && c[i].emul) {
			fprintf(f, "emulated clock: each run's figure over its own calib:add_chain (same run\nand method), a normaliser of the emulator's speed, not core cycles\n");
			break;
		} else if (c[i].cal) {
			fprintf(f, "in core cycles: each run's figure over its own calib:add_chain (ticks per\ncore cycle, same run and method), so a run's clock speed cancels out\n");
			break;
		}
	for (int k = 0; k < 3 && t->bases[k]; k++)
		fprintf(f, "%s\n", t->bases[k] == CS_BASIS_TWO_LENGTH ?
			"compared: the two-length cost (cycles_long): (long - short) / (R - 1)" :
			t->bases[k] == CS_BASIS_NET ?
			"compared: median less base:empty's (same run and method)" :
			"compared: the raw median (no overhead of the same run)");
	if (o->paired)
		fprintf(f, "change: Hodges-Lehmann estimate and interval over the pairs' differences\n(Wilcoxon signed-rank; --paired: BASE's k-th repetition with NEW's k-th);\nslower and faster also need p < %g and the whole interval beyond the threshold\n",
			o->alpha);
	else
		fprintf(f, "change: Hodges-Lehmann estimate and interval (exact Mann-Whitney); slower and\nfaster also need p < %g and the whole interval beyond the threshold\n",
			o->alpha);
	if (t->reps_note)
		fprintf(f, "repetitions include ensembles of one run (setup: ensemble, or --ensembles):\nthey cannot show the spread between runs, nor between boots\n");
	for (size_t i = 0; i < n; i++)
		if (c[i].smi) {
			fprintf(f, "* SMIs occurred during one of these runs: rerun before trusting the verdict\n");
			break;
		}
}

void cs_print_cmp(const struct cs_opts *o, const struct side *s, struct cmp *c, size_t n,
		  unsigned int need)
{
	struct cmp_cells t = { .wn = 8, .wv = 7, .wb = 4, .wnw = 3, .wi = 12 };
	const char *unit;

	t.cell = calloc(n, sizeof(*t.cell));
	if (!t.cell)
		return;
	fill_cmp_cells(c, n, &t);
	if (o->format == CS_JSON) {
		print_json(o, s, c, n, need, t.cnt);
	} else if (o->format == CS_TAP) {
		print_tap(o, c, n);
	} else {
		unit = unit_of(c, n);
		if (o->format == CS_MARKDOWN) {
			print_markdown(o, s, c, n, need, t.cnt, t.cell, unit);
		} else if (o->format == CS_CSV) {
			print_cmp_csv(o->out, c, n);
		} else {
			print_cmp_table(o, s, c, n, &t, unit);
			print_cmp_notes(o, c, n, &t, need);
		}
	}
	free(t.cell);
}
