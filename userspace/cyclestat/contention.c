// SPDX-License-Identifier: GPL-2.0
/*
 * contention.c - a sweep=cpus directory summarized: each fragment's cost
 * per operation at each k (the CPUs run at once), pooled over the CPUs and
 * CPU by CPU, with 95 % intervals; a CPU whose interval lies apart from
 * most other CPUs' is marked (an SMT sibling, another socket, the CPU
 * nearest the line's home).
 *
 * A CPU's figure is its own arrays (cpuN/) read as a tree of their own,
 * calibrated by its own calib:add_chain.  Pooled: for each ensemble, the
 * mean of the k CPUs' per-op costs, then the 95 % t-interval over the
 * ensembles (the CPUs of one ensemble ran together: they are averaged,
 * not counted as k times as many ensembles), never narrower than the
 * CPUs' own half-widths combined as if they were independent (the root of
 * the sum of their squares, over k).  With one CPU, the pooled figure is
 * that CPU's.
 *
 * Calls input.c, tree.c, fmt.c, infer.c and output.c (the filter).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"

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

/* a cost with its interval over n ensembles; ok = 0 where the CPU has no such result */
struct fig {
	int ok;
	double v, lo, hi;
	uint64_t n;
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

/*
 * cpus: of a step's info into @cpu: k distinct CPUs below CB_MAX_CPUS,
 * comma-separated decimals; 0, or -1 with the fix said
 */
static int parse_cpus(const char *path, const char *list, unsigned int k, unsigned int *cpu,
		      struct cs_err *err)
{
	unsigned long long seen = 0;
	unsigned int n = 0;
	const char *c = list;

	while (*c) {
		char *end;
		unsigned long v = strtoul(c, &end, 10);

		if (end == c || *c < '0' || *c > '9' || v >= CB_MAX_CPUS || (seen >> v & 1) ||
		    (*end && *end != ',') || n == CB_MAX_CPUS)
			goto bad;
		seen |= 1ULL << v;
		cpu[n++] = (unsigned int)v;
		c = *end ? end + 1 : end;
	}
	if (n == k && c > list && c[-1] != ',')
		return 0;
bad:
	cs_seterr(err, path, 0, "info's cpus: '%s' is not %u distinct CPUs below %u, comma-separated, as step k=%u needs: the sweep is damaged (run it again)",
		  list, k, CB_MAX_CPUS, k);
	return -1;
}

/* each CPU of a step's tree (its info's cpus:, else its cpu:) as a view */
static int load_step(const char *path, unsigned int k, struct step *s, struct cs_err *err)
{
	unsigned int cpu[CB_MAX_CPUS];
	struct cs_input top;
	const char *cpus;

	s->k = k;
	if (cs_load_input(path, &top, err))
		return -1;
	cpus = cs_info_get(&top.info, CB_INFO_cpus);
	if (!cpus) {
		uint64_t c = 0;
		struct cs_err ignored;

		if (k != 1) {
			cs_seterr(err, path, 0, "info has no cpus: line, but the sweep names this step k=%u: the sweep is damaged (run it again)",
				  k);
			cs_input_free(&top);
			return -1;
		}
		s->v = calloc(1, sizeof(*s->v));
		if (!s->v) {
			cs_input_free(&top);
			goto nomem;
		}
		cs_info_u64(&top.info, NULL, CB_INFO_cpu, &c, &ignored);
		s->v[0].cpu = (unsigned int)c;
		s->v[0].in = top;
		s->nv = 1;
		return 0;
	}
	if (parse_cpus(path, cpus, k, cpu, err)) {
		cs_input_free(&top);
		return -1;
	}
	cs_input_free(&top);
	s->v = calloc(k, sizeof(*s->v));
	if (!s->v)
		goto nomem;
	for (unsigned int c = 0; c < k; c++) {
		s->v[c].cpu = cpu[c];
		if (cs_load_input_cpu(path, (int)cpu[c], &s->v[c].in, err))
			return -1;
		s->nv++;
	}
	return 0;
nomem:
	cs_seterr(err, path, 0, "out of memory");
	return -1;
}

static struct fig fig_of(const struct cs_frag *fr)
{
	struct fig f = { 0 };

	if (fr) {
		struct cs_cost c = cs_cost_of(fr);

		f.v = (double)c.v;
		f.lo = (double)c.lo;
		f.hi = (double)c.hi;
		f.ok = isfinite(f.v);
		f.n = c.est->n;
	}
	return f;
}

/* each CPU's own figure for @name in step @s, into @f */
static void cpu_figs(const struct step *s, const char *name, struct fig *f)
{
	for (size_t c = 0; c < s->nv; c++)
		f[c] = fig_of(cs_frag_named(&s->v[c].in, name));
}

/*
 * The mean over the CPUs of @s, per ensemble, and its interval (see the
 * top of the file); ok = 0 where a CPU lacks the two-length figure per
 * ensemble or the CPUs' units differ.  @cf: each CPU's own figure.
 */
static struct fig pooled(const struct step *s, const char *name, const struct fig *cf)
{
	struct fig f = { 0 }, one;
	const struct cs_frag *fr;
	struct cs_cost cost;
	long double *x = NULL, m, lo, hi, h2 = 0, half;
	uint64_t n = 0;
	unsigned int used = 0, calibrated = 0;

	/* one CPU: its own figure, whatever its basis (base:empty has no long region) */
	if (s->nv == 1)
		return cf[0];
	for (size_t c = 0; c < s->nv; c++) {
		fr = cs_frag_named(&s->v[c].in, name);
		one = cf[c];
		if (!one.ok || !fr->perop.ok || !fr->perop.each || (used && fr->perop.med.n != n))
			goto out;
		n = fr->perop.med.n;
		if (!x && !(x = calloc(n, sizeof(*x))))
			goto out;
		cost = cs_cost_of(fr);
		calibrated += cost.unit == CS_UNIT_CORE;
		for (uint64_t j = 0; j < n; j++)
			x[j] += fr->perop.each[j] / cost.scale;
		h2 += isfinite(one.hi) ? (one.hi - one.lo) * (one.hi - one.lo) / 4 : NAN;
		used++;
		if (used == 1)
			f = one;
	}
	if (!used || (calibrated && calibrated != used))
		goto out;
	for (uint64_t j = 0; j < n; j++)
		x[j] /= used;
	cs_mean_ci(x, n, &m, &lo, &hi);
	half = fmaxl((hi - lo) / 2, sqrtl(h2) / used);
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

/*
 * Whether two CPUs' figures lie apart: further apart than one ensemble of
 * each moves. An interval's half-width is t s / sqrt(n) (or more: the TSC
 * step and the calibration widen it), so half-width x sqrt(n) is at least
 * t s, the 95 % spread of one ensemble; the gap must pass the two spreads
 * combined. Two intervals that merely do not overlap are not enough: on
 * unchanged runs CPUs differ by more than the within-run intervals allow
 * (a neighbour's load, a frequency step), which marked controls at 2 %.
 */
static int clearly_apart(struct fig a, struct fig b)
{
	double sa, sb;

	if (!a.ok || !b.ok || !isfinite(a.lo) || !isfinite(b.lo) || a.n < 2 || b.n < 2)
		return 0;
	sa = (a.hi - a.lo) / 2 * sqrt((double)a.n);
	sb = (b.hi - b.lo) / 2 * sqrt((double)b.n);
	return fabs(a.v - b.v) > sqrt(sa * sa + sb * sb);
}

/* CPU @cpu's topology file @what, the first line, from sysfs (below sysroot) */
static int topo(const struct cs_opts *o, unsigned int cpu, const char *what, char *buf, size_t sz)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u/topology/%s",
		 o->sysroot ? o->sysroot : "", cpu, what);
	f = fopen(path, "re");
	if (!f)
		return 0;
	ok = fgets(buf, (int)sz, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* @text as lines of at most 78 columns, words whole, the rest indented */
static void wrap(FILE *out, const char *text)
{
	const char *p = text;
	int width = 78;

	while (*p) {
		const char *end = p, *cut = NULL;

		while (*end && end - p < width) {
			if (*end == ' ')
				cut = end;
			end++;
		}
		if (!*end)
			cut = end;
		else if (!cut)
			cut = end;
		fprintf(out, "%.*s\n", (int)(cut - p), p);
		p = *cut ? cut + 1 : cut;
		if (*p) {
			fputs("  ", out);
			width = 76;
		}
	}
}

/*
 * What could set a CPU apart, of the causes this machine has: SMT siblings
 * among the step's CPUs (where the run's info does not say SMT was off),
 * CPUs in different packages (sysfs topology); and always the line's home
 * (a shared line starts in one CPU's cache) and a neighbour's load.
 */
static void causes(const struct cs_opts *o, FILE *out, const struct step *s, const char *smt)
{
	char buf[512];
	int sib = 0, pk = 0, known = 0;
	long first = -1;

	for (size_t c = 0; c < s->nv; c++) {
		if (topo(o, s->v[c].cpu, "thread_siblings_list", buf, sizeof(buf))) {
			known = 1;
			for (size_t d = 0; d < s->nv; d++)
				sib |= d != c && cs_in_cpulist(buf, s->v[d].cpu);
		}
		if (topo(o, s->v[c].cpu, "physical_package_id", buf, sizeof(buf))) {
			long id = strtol(buf, NULL, 10);

			pk |= first >= 0 && id != first;
			first = first < 0 ? id : first;
		}
	}
	if (smt && !strcmp(smt, "no"))
		sib = 0;
	snprintf(buf, sizeof(buf), "* apart from most other CPUs (the gap passes one ensemble's spread of each): possible causes %s%s%sthe line's home (the CPU whose cache holds it first), a neighbour's load on that CPU%s",
		 known ? "on this machine: " : "(no topology in /sys here): an SMT sibling, another package, ",
		 sib ? "SMT siblings among these CPUs, " : "", pk ? "CPUs in different packages, " : "",
		 !known || sib || pk ? "" : " (it has no SMT siblings and one package)");
	wrap(out, buf);
}

static const char *fig_cell(char *buf, size_t sz, struct fig f)
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
 * The CPUs of a step whose interval lies apart from most of the other
 * CPUs' (more than half of them), so that one dear CPU is marked and the
 * others are not; with two CPUs, only the dearer (the two would name each
 * other).  A line each into @flags.
 */
static void differs(FILE *flags, const struct step *s, const char *name, int csv,
		    const struct fig *f, char *mark)
{
	char a[64], b[64];

	memset(mark, 0, s->nv);
	for (size_t c = 0; s->nv > 1 && c < s->nv; c++) {
		size_t others = 0, away = 0, last = c;

		for (size_t d = 0; d < s->nv; d++) {
			if (d == c || !f[d].ok)
				continue;
			others++;
			if (clearly_apart(f[c], f[d])) {
				away++;
				last = d;
			}
		}
		if (!others || away * 2 <= others || (s->nv == 2 && f[c].v < f[last].v))
			continue;
		mark[c] = 1;
		if (!csv)
			fprintf(flags, "%s k=%u: cpu%u's %s lies apart from %zu of the %zu other CPUs' (cpu%u's %s)\n",
				name, s->k, s->v[c].cpu, fig_cell(a, sizeof(a), f[c]), away, others,
				s->v[last].cpu, fig_cell(b, sizeof(b), f[last]));
	}
}

/*
 * Every fragment of every step and CPU, in the order first seen, that the
 * filter keeps: the rows (a fragment absent at k=1 still has its own).
 */
static const char **row_names(const struct cs_opts *o, const struct step *s, size_t ns, size_t *n)
{
	const char **names = NULL;

	*n = 0;
	for (size_t i = 0; i < ns; i++)
		for (size_t c = 0; c < s[i].nv; c++)
			if (cs_names_add(o, &s[i].v[c].in, &names, n)) {
				free(names);
				*n = 0;
				return NULL;
			}
	return names;
}

/* the unit of @name's figures: its first result's */
static const char *unit_of(const struct step *s, size_t ns, const char *name)
{
	for (size_t i = 0; i < ns; i++)
		for (size_t c = 0; c < s[i].nv; c++) {
			const struct cs_frag *fr = cs_frag_named(&s[i].v[c].in, name);

			if (fr)
				return cs_unit_name(cs_cost_of(fr).unit);
		}
	return "";
}

/* a CSV row: the cost's value, low, high, each empty where not a number */
static void csv_row(FILE *f, const char *path, const char *name, unsigned int k, const char *cpu,
		    struct fig p, const char *unit, const char *apart)
{
	double v[3] = { p.v, p.lo, p.hi };

	cs_csv_field(f, path);
	fputc(',', f);
	cs_csv_field(f, name);
	fprintf(f, ",%u,%s,", k, cpu);
	for (int i = 0; i < 3; i++)
		if (p.ok && isfinite(v[i]))
			fprintf(f, "%.17g,", v[i]);
		else
			fputc(',', f);
	cs_csv_field(f, unit);
	fprintf(f, ",%s\n", apart);
}

/* one row of the table, its cells padded but the last */
static void line(FILE *out, const char *label, unsigned int k, struct fig p,
		 const struct step *s, const struct fig *f, size_t cols, const char *mark)
{
	char row[1024], buf[64];
	int len = snprintf(row, sizeof(row), "%-28s %3u  %-26s", label, k, fig_cell(buf, sizeof(buf), p));

	for (size_t c = 0; c < s->nv && c < cols && len > 0 && (size_t)len < sizeof(row); c++) {
		char m[80];

		snprintf(m, sizeof(m), "%s%s", fig_cell(buf, sizeof(buf), f[c]), mark[c] ? " *" : "");
		len += snprintf(row + len, sizeof(row) - (size_t)len, "  %-26s", m);
	}
	while (len > 0 && (size_t)len <= sizeof(row) - 1 && row[len - 1] == ' ')
		row[--len] = '\0';
	fprintf(out, "%s\n", row);
}

static int print_steps(const struct cs_opts *o, const char *path, const struct step *s, size_t ns,
		       const char **names, size_t nn)
{
	size_t ncpu = s[ns - 1].nv, cols = ncpu < COLS ? ncpu : COLS;
	int csv = o->format == CS_CSV;
	char *fl = NULL, mark[CB_MAX_CPUS];
	struct fig f[CB_MAX_CPUS];
	size_t fll = 0;
	FILE *flags = open_memstream(&fl, &fll);

	if (!flags) {
		fprintf(stderr, "cyclestat: out of memory\n");
		return 2;
	}
	if (csv) {
		fputs("input,fragment,k,cpu,cost,cost_lo,cost_hi,cost_unit,apart\n", o->out);
	} else {
		fprintf(o->out, "# %s: sweep=cpus, k =", path);
		for (size_t i = 0; i < ns; i++)
			fprintf(o->out, "%s %u", i ? "," : "", s[i].k);
		fprintf(o->out, "; per op, 95%% interval");
		if (60 + 28 * cols > 80)
			fprintf(o->out, "; up to %zu columns wide", 60 + 28 * cols);
		fprintf(o->out, "\n%-28s %3s  %-26s", "fragment", "k", "pooled");
		for (size_t c = 0; c < cols; c++) {
			char h[16];

			snprintf(h, sizeof(h), "cpu%u", s[ns - 1].v[c].cpu);
			fprintf(o->out, c + 1 < cols ? "  %-26s" : "  %s", h);
		}
		fputc('\n', o->out);
	}
	for (size_t j = 0; j < nn; j++) {
		const char *name = names[j], *unit = unit_of(s, ns, name);

		for (size_t i = 0; i < ns; i++) {
			struct fig p;

			cpu_figs(&s[i], name, f);
			p = pooled(&s[i], name, f);
			differs(flags, &s[i], name, csv, f, mark);
			if (!csv) {
				line(o->out, i ? "" : name, s[i].k, p, &s[i], f, cols, mark);
				continue;
			}
			csv_row(o->out, path, name, s[i].k, "all", p, unit, "");
			for (size_t c = 0; c < s[i].nv; c++) {
				char cpu[16];

				snprintf(cpu, sizeof(cpu), "%u", s[i].v[c].cpu);
				csv_row(o->out, path, name, s[i].k, cpu, f[c], unit, mark[c] ? "yes" : "no");
			}
		}
	}
	fclose(flags);
	if (!csv) {
		fprintf(o->out, "unit: %s; pooled: the CPUs' mean per ensemble,\n"
			"95%% interval: t over the ensembles; each CPU: its own arrays (cpuN/), its\n"
			"own calibration%s\n",
			unit_of(s, ns, names[0]), ncpu > cols ? "; more CPUs: --format csv" : "");
		if (fll) {
			causes(o, o->out, &s[ns - 1], cs_info_get(&s[ns - 1].v[0].in.info, CB_INFO_smt_active));
			fputs(fl, o->out);
		} else {
			fputs("no CPU lies apart from most other CPUs (by more than one ensemble's spread)\n", o->out);
		}
	}
	free(fl);
	return 0;
}

/* the contention curve: each fragment's pooled cost at each k */
static int plot_steps(const struct cs_opts *o, const struct step *s, size_t ns,
		      const char **names, size_t nn)
{
	struct cs_curve *c = calloc(nn, sizeof(*c));
	struct fig f[CB_MAX_CPUS];
	size_t n = 0;
	int ret = 0;

	for (size_t j = 0; c && j < nn; j++) {
		c[n].name = names[j];
		c[n].unit = unit_of(s, ns, names[j]);
		c[n].p = calloc(ns, sizeof(*c[n].p));
		if (!c[n].p)
			break;
		for (size_t i = 0; i < ns; i++) {
			struct fig p;

			cpu_figs(&s[i], names[j], f);
			p = pooled(&s[i], names[j], f);
			if (p.ok)
				c[n].p[c[n].n++] = (struct cs_kpoint){ s[i].k, p.v, p.lo, p.hi };
		}
		n++;
	}
	if (!c || n < nn) {
		fprintf(stderr, "cyclestat: out of memory\n");
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
	const char **names;
	size_t i, nn;
	int ret;

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
	names = row_names(o, s, n, &nn);
	if (!nn) {
		fprintf(stderr, "cyclestat: no fragment matches %s; names are group:name[/ARG], e.g. contend:atomic_inc_shared, contend\n",
			o->nfilter ? o->filter[0] : "");
		ret = 2;
	} else {
		ret = o->format == CS_SVG ? plot_steps(o, s, n, names, nn) :
					    print_steps(o, path, s, n, names, nn);
	}
	free(names);
	steps_free(s, n);
	return ret;
}
