// SPDX-License-Identifier: GPL-2.0
/*
 * contention.c - a sweep=cpus directory summarized: each fragment's cost
 * per operation at each k (the CPUs run at once), pooled over the CPUs and
 * CPU by CPU, with 95 % intervals; a CPU whose interval lies apart from
 * the typical CPU's is flagged (an SMT sibling, another socket, the CPU
 * nearest the line's home).
 *
 * A CPU's figure is its own arrays (cpuN/) read as a tree of their own,
 * calibrated by its own calib:add_chain.  Pooled: for each ensemble, the
 * mean of the k CPUs' per-op costs, then the 95 % t-interval over the
 * ensembles (the CPUs of one ensemble ran together: they are averaged,
 * not counted as k times as many ensembles), never narrower than the
 * CPUs' own half-widths averaged as if they were independent.  With one
 * CPU, the pooled figure is that CPU's.
 *
 * Calls input.c, tree.c, fmt.c, infer.c and output.c (the filter).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"

/* CPU columns the table shows; more go to --format csv */
#define COLS 8

struct view {
	unsigned int cpu;
	struct cs_input in;
};

struct step {
	unsigned int k;
	struct view *v;
	size_t nv;
};

/* a cost with its interval; ok = 0 where the CPU has no such result */
struct fig {
	int ok;
	double v, lo, hi;
};

static void steps_free(struct step *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		for (size_t c = 0; c < s[i].nv; c++)
			cs_input_free(&s[i].v[c].in);
		free(s[i].v);
	}
	free(s);
}

/* each CPU of a step's tree (its info's cpus:, else its cpu:) as a view */
static int load_step(const char *path, unsigned int k, struct step *s, struct cs_err *err)
{
	struct cs_input top;
	const char *cpus;
	char *list, *c, *save = NULL;

	s->k = k;
	if (cs_load_input(path, &top, err))
		return -1;
	cpus = cs_info_get(&top.info, "cpus");
	if (!cpus) {
		uint64_t cpu = 0;
		struct cs_err ignored;

		s->v = calloc(1, sizeof(*s->v));
		if (!s->v) {
			cs_input_free(&top);
			goto nomem;
		}
		cs_info_u64(&top.info, NULL, "cpu", &cpu, &ignored);
		s->v[0].cpu = (unsigned int)cpu;
		s->v[0].in = top;
		s->nv = 1;
		return 0;
	}
	list = strdup(cpus);
	cs_input_free(&top);
	if (!list)
		goto nomem;
	for (c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
		struct view *nv = realloc(s->v, (s->nv + 1) * sizeof(*nv));

		if (!nv) {
			free(list);
			goto nomem;
		}
		s->v = nv;
		s->v[s->nv].cpu = (unsigned int)strtoul(c, NULL, 10);
		if (cs_load_input_cpu(path, (int)s->v[s->nv].cpu, &s->v[s->nv].in, err)) {
			free(list);
			return -1;
		}
		s->nv++;
	}
	free(list);
	return 0;
nomem:
	cs_seterr(err, path, 0, "out of memory");
	return -1;
}

static const struct cs_frag *find(const struct cs_input *in, const char *name)
{
	for (size_t i = 0; i < in->nfrag; i++)
		if (!strcmp(in->frag[i].name, name))
			return &in->frag[i];
	return NULL;
}

static struct fig fig_of(const struct cs_frag *fr)
{
	struct fig f = { 0 };

	if (fr) {
		f.v = cs_cost(fr, &f.lo, &f.hi);
		f.ok = isfinite(f.v);
	}
	return f;
}

/*
 * The mean over the CPUs of @s whose bit in @use is set, per ensemble,
 * and its interval (see the top of the file); ok = 0 where a CPU lacks
 * the two-length figure per ensemble or the CPUs' units differ.
 */
static struct fig pooled(const struct step *s, const char *name, const unsigned char *use)
{
	struct fig f = { 0 }, one;
	const struct cs_frag *fr;
	long double *x = NULL, m, lo, hi, halves = 0, half;
	uint64_t n = 0;
	unsigned int used = 0, calibrated = 0;

	for (size_t c = 0; c < s->nv; c++) {
		if (!use[c])
			continue;
		fr = find(&s->v[c].in, name);
		one = fig_of(fr);
		if (!one.ok || !fr->perop.ok || !fr->perop.each || (used && fr->perop.med.n != n))
			goto out;
		n = fr->perop.med.n;
		if (!x && !(x = calloc(n, sizeof(*x))))
			goto out;
		calibrated += cs_core_calib(fr) > 0;
		for (uint64_t j = 0; j < n; j++)
			x[j] += fr->perop.each[j] / (cs_core_calib(fr) > 0 ? cs_core_calib(fr) : 1);
		halves += isfinite(one.hi) ? (one.hi - one.lo) / 2 : NAN;
		used++;
		if (used == 1)
			f = one;
	}
	if (!used || (calibrated && calibrated != used))
		goto out;
	if (used == 1) {
		free(x);
		return f;
	}
	for (uint64_t j = 0; j < n; j++)
		x[j] /= used;
	cs_mean_ci(x, n, &m, &lo, &hi);
	half = fmaxl((hi - lo) / 2, halves / used / sqrtl((long double)used));
	f.ok = 1;
	f.v = (double)m;
	f.lo = (double)(m - half);
	f.hi = (double)(m + half);
	free(x);
	return f;
out:
	free(x);
	f.ok = 0;
	return f;
}

/* whether two intervals are both there and lie apart */
static int apart(struct fig a, struct fig b)
{
	return a.ok && b.ok && isfinite(a.lo) && isfinite(b.lo) && (a.hi < b.lo || b.hi < a.lo);
}

static const char *cell(char *buf, size_t sz, struct fig f)
{
	if (!f.ok)
		snprintf(buf, sz, "-");
	else if (!isfinite(f.lo))
		snprintf(buf, sz, "%.4g (1 ensemble)", f.v);
	else
		snprintf(buf, sz, "%.4g [%.4g, %.4g]", f.v, f.lo, f.hi);
	return buf;
}

/*
 * The CPUs of a step whose figure lies apart from the typical CPU's:
 * the typical ones are the middle one or two by cost, and a CPU is marked
 * where its interval lies apart from each of those but itself (so that
 * one dear CPU does not make the others look cheap); with two CPUs, only
 * the dearer is.  A line each into @flags.
 */
static void differs(FILE *flags, const struct step *s, const char *name, int csv, char *mark)
{
	size_t *by = calloc(s->nv, sizeof(*by)), m = 0;
	struct fig *f = calloc(s->nv, sizeof(*f));
	char a[64], b[64];

	memset(mark, 0, s->nv);
	for (size_t c = 0; by && f && c < s->nv; c++) {
		f[c] = fig_of(find(&s->v[c].in, name));
		if (f[c].ok)
			by[m++] = c;
	}
	/* by cost, few enough to sort by insertion */
	for (size_t i = 1; by && f && i < m; i++)
		for (size_t j = i; j > 0 && f[by[j]].v < f[by[j - 1]].v; j--) {
			size_t t = by[j];

			by[j] = by[j - 1];
			by[j - 1] = t;
		}
	for (size_t i = 0; by && f && m > 1 && i < m; i++) {
		size_t c = by[i], lo = by[(m - 1) / 2], hi = by[m / 2], ref = lo != c ? lo : hi;

		if (ref == c || (m == 2 && i == 0) || !apart(f[c], f[ref]) ||
		    (hi != c && !apart(f[c], f[hi])))
			continue;
		mark[c] = 1;
		if (!csv)
			fprintf(flags, "%s k=%u: cpu%u's %s lies apart from the typical CPU's (cpu%u) %s\n",
				name, s->k, s->v[c].cpu, cell(a, sizeof(a), f[c]), s->v[ref].cpu,
				cell(b, sizeof(b), f[ref]));
	}
	free(by);
	free(f);
}

/* one row of the table, its cells padded but the last */
static void line(FILE *out, const char *label, unsigned int k, struct fig p,
		 const struct step *s, const char *name, size_t cols, const char *mark)
{
	char row[1024], buf[64];
	int len = snprintf(row, sizeof(row), "%-28s %3u  %-26s", label, k, cell(buf, sizeof(buf), p));

	for (size_t c = 0; c < s->nv && c < cols && len > 0 && (size_t)len < sizeof(row); c++) {
		char m[80];

		snprintf(m, sizeof(m), "%s%s", cell(buf, sizeof(buf), fig_of(find(&s->v[c].in, name))),
			 mark[c] ? " *" : "");
		len += snprintf(row + len, sizeof(row) - (size_t)len, "  %-26s", m);
	}
	while (len > 0 && (size_t)len <= sizeof(row) - 1 && row[len - 1] == ' ')
		row[--len] = '\0';
	fprintf(out, "%s\n", row);
}

static void print_steps(const struct cs_opts *o, const char *path, const struct step *s, size_t ns)
{
	const struct cs_input *first = &s[0].v[0].in;
	size_t ncpu = s[ns - 1].nv, cols = ncpu < COLS ? ncpu : COLS;
	int csv = o->format == CS_CSV;
	char *fl = NULL, mark[4096];
	size_t fll = 0;
	FILE *flags = open_memstream(&fl, &fll);
	unsigned char all[4096];

	if (!flags)
		return;
	memset(all, 1, sizeof(all));
	if (csv) {
		fputs("input,fragment,k,cpu,cost,cost_lo,cost_hi,cost_unit,apart\n", o->out);
	} else {
		fprintf(o->out, "# %s: sweep=cpus, k =", path);
		for (size_t i = 0; i < ns; i++)
			fprintf(o->out, "%s %u", i ? "," : "", s[i].k);
		fprintf(o->out, "; per op, 95 %% intervals\n%-28s %3s  %-26s", "fragment", "k", "pooled");
		for (size_t c = 0; c < cols; c++) {
			char h[16];

			snprintf(h, sizeof(h), "cpu%u", s[ns - 1].v[c].cpu);
			fprintf(o->out, c + 1 < cols ? "  %-26s" : "  %s", h);
		}
		fputc('\n', o->out);
	}
	for (size_t j = 0; j < first->nfrag; j++) {
		const char *name = first->frag[j].name;

		if (!cs_match(o, name))
			continue;
		for (size_t i = 0; i < ns; i++) {
			struct fig p = pooled(&s[i], name, all);

			if (s[i].nv > sizeof(mark))
				break;
			differs(flags, &s[i], name, csv, mark);
			if (csv) {
				fprintf(o->out, "%s,%s,%u,all,", path, name, s[i].k);
				fprintf(o->out, p.ok ? "%.17g,%.17g,%.17g," : ",,,", p.v, p.lo, p.hi);
				fprintf(o->out, "%s,\n", cs_unit(&first->frag[j]));
				for (size_t c = 0; c < s[i].nv; c++) {
					struct fig f = fig_of(find(&s[i].v[c].in, name));

					fprintf(o->out, "%s,%s,%u,%u,", path, name, s[i].k, s[i].v[c].cpu);
					fprintf(o->out, f.ok ? "%.17g,%.17g,%.17g," : ",,,", f.v, f.lo, f.hi);
					fprintf(o->out, "%s,%s\n", cs_unit(&first->frag[j]), mark[c] ? "yes" : "no");
				}
				continue;
			}
			line(o->out, i ? "" : name, s[i].k, p, &s[i], name, cols, mark);
		}
	}
	fclose(flags);
	if (!csv) {
		fprintf(o->out, "unit: %s; pooled: the CPUs' mean per ensemble, t-interval over the\n"
			"ensembles; each CPU: its own arrays (cpuN/), its own calibration%s\n",
			cs_unit(&first->frag[0]), ncpu > cols ? "; more CPUs: --format csv" : "");
		if (fll)
			fprintf(o->out, "* apart from the typical CPU (an SMT sibling? another socket? the line's home?):\n%s", fl);
		else
			fputs("no CPU's interval lies apart from the typical CPU's\n", o->out);
	}
	free(fl);
}

/* the contention curve: each fragment's pooled cost at each k */
static int plot_steps(const struct cs_opts *o, const struct step *s, size_t ns)
{
	const struct cs_input *first = &s[0].v[0].in;
	struct cs_curve *c = calloc(first->nfrag + 1, sizeof(*c));
	unsigned char all[4096];
	size_t n = 0;
	int ret = 0;

	memset(all, 1, sizeof(all));
	for (size_t j = 0; c && j < first->nfrag; j++) {
		const char *name = first->frag[j].name;

		if (!cs_match(o, name))
			continue;
		c[n].name = name;
		c[n].unit = cs_unit(&first->frag[j]);
		c[n].p = calloc(ns, sizeof(*c[n].p));
		if (!c[n].p)
			break;
		for (size_t i = 0; i < ns; i++) {
			struct fig p = pooled(&s[i], name, all);

			if (p.ok)
				c[n].p[c[n].n++] = (struct cs_kpoint){ s[i].k, p.v, p.lo, p.hi };
		}
		n++;
	}
	if (!n) {
		fprintf(stderr, "cyclestat: no fragment matches %s; names are group:name[/ARG], e.g. contend:atomic_inc_shared, contend\n",
			o->nfilter ? o->filter[0] : "");
		ret = 2;
	} else {
		cs_svg_curves(o, c, n);
	}
	for (size_t j = 0; c && j < n; j++)
		free(c[j].p);
	free(c);
	return ret;
}

int cs_print_contention(const struct cs_opts *o, const char *path, char **steps,
			const unsigned int *k, size_t n)
{
	struct step *s = calloc(n, sizeof(*s));
	struct cs_err err = { 0 };
	size_t i;

	if (!s) {
		fprintf(stderr, "cyclestat: out of memory\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (load_step(steps[i], k[i], &s[i], &err)) {
			cs_perror(&err);
			steps_free(s, i + 1);
			return 2;
		}
	if (o->format == CS_SVG) {
		int ret = plot_steps(o, s, n);

		steps_free(s, n);
		return ret;
	}
	print_steps(o, path, s, n);
	steps_free(s, n);
	return 0;
}
