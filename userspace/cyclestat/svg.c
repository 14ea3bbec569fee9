// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - the figures drawn (cyclestat --format svg, or cyclestat plot):
 * one SVG document, a panel for each thing the inputs hold.
 *
 *	a fragment with arguments (mem:chase/4096 ...)	its cost against ARG,
 *		on a log axis, each point with its 95 % interval: the staircase
 *	c2c:cpuA_cpuB results (cyclebench-user --c2c)	the heat map of one-way
 *		latency, TSC ticks
 *	a sweep=cpus directory (contention.c)		each fragment's pooled
 *		cost against the number of CPUs: the contention curve
 *	the rest					each fragment's cost with
 *		its interval, one row each
 *	--hist						each fragment's histogram
 *
 * Every series is a <g class="series" data-name="NAME"> with one element
 * per point, so a test (or a browser's inspector) can count them, and has
 * an entry <g class="legend-item" data-name="NAME"> in its panel's legend,
 * in the series' own colour and marker (ten colours, six markers: no two
 * series of a panel alike up to 30); a series' points are joined by a line.
 * A y axis whose values span more than a factor of 20 is logarithmic (on a
 * linear one the smallest would lie within 5 % of the floor).  Calls fmt.c
 * for the units, stats.c for the estimates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"

#define W	720	/* a panel's width */
#define H	320	/* and height */
#define ML	90	/* margins: left, right, top, bottom */
#define MR	20
#define MT	40
#define MB	50

/* the bytes of the UTF-8 character that starts at @s, 0 if it is not one */
static int utf8_len(const unsigned char *s)
{
	int n = *s < 0x80 ? 1 : *s >= 0xf0 && *s < 0xf8 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc2 ? 2 : 0;

	for (int k = 1; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Text and attribute values: the five escapes; control bytes and what is
 * not UTF-8 (a name cut in the middle of a character) as '?'.
 */
static void xml_text(FILE *f, const char *s)
{
	while (*s) {
		int n = utf8_len((const unsigned char *)s);

		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			if (!n || (unsigned char)*s < 0x20)
				fputc('?', f);
			else
				fwrite(s, 1, (size_t)n, f);
		}
		s += n ? n : 1;
	}
}

#define LEGW	230	/* the legend's column, right of every panel */

static const char *const colour[10] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NMARK 6	/* circle, square, triangle, diamond, triangle down, cross */

/* series @i's marker at (x, y), a point of the series where @cls says so */
static void marker(FILE *f, size_t i, double x, double y, const char *cls)
{
	const char *c = colour[i % 10];
	double r = 4;

	fprintf(f, "<path class=\"%s\" fill=\"%s\" stroke=\"%s\" d=\"", cls, c, c);
	switch (i % NMARK) {
	case 0:	/* a circle, as two arcs */
		fprintf(f, "M%.1f %.1fa%.1f %.1f 0 1 0 %.1f 0a%.1f %.1f 0 1 0 %.1f 0Z",
			x - r, y, r, r, 2 * r, r, r, -2 * r);
		break;
	case 1:
		fprintf(f, "M%.1f %.1fh%.1fv%.1fh%.1fZ", x - r, y - r, 2 * r, 2 * r, -2 * r);
		break;
	case 2:
		fprintf(f, "M%.1f %.1fL%.1f %.1fL%.1f %.1fZ", x, y - r - 1, x + r + 1, y + r, x - r - 1, y + r);
		break;
	case 3:
		fprintf(f, "M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ", x, y - r - 1, x + r + 1, y, x,
			y + r + 1, x - r - 1, y);
		break;
	case 4:
		fprintf(f, "M%.1f %.1fL%.1f %.1fL%.1f %.1fZ", x, y + r + 1, x + r + 1, y - r, x - r - 1, y - r);
		break;
	default:	/* a cross: stroked, wide */
		fprintf(f, "M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke-width=\"2.5", x - r, y - r,
			x + r, y + r, x - r, y + r, x + r, y - r);
		break;
	}
	fputs("\">", f);
}

/*
 * The y axis: linear from 0, or logarithmic where every value is above 0
 * and the largest is more than 20 times the smallest.
 */
struct yaxis {
	int log;
	double lo, hi;
	double step;	/* linear: between grid lines */
};

static struct yaxis yaxis_of(double vmin, double vmax)
{
	struct yaxis a = { 0, 0, 1, 0.25 };

	/* linear: a step of 1, 2 or 5 a decade, four to eight of them */
	if (vmax > 0) {
		double u = pow(10, floor(log10(vmax * 1.05 / 4)));

		a.step = vmax * 1.05 <= 4 * u ? u : vmax * 1.05 <= 8 * u ? 2 * u :
			 vmax * 1.05 <= 20 * u ? 5 * u : 10 * u;
		a.hi = ceil(vmax * 1.05 / a.step) * a.step;
	}

	if (vmin > 0 && vmax > 20 * vmin) {
		double d = pow(10, floor(log10(vmin))), u = pow(10, floor(log10(vmax * 1.05)));

		/* the nearest 1, 2 or 5 a decade below and above */
		a.log = 1;
		a.lo = vmin >= 5 * d ? 5 * d : vmin >= 2 * d ? 2 * d : d;
		a.hi = vmax * 1.05 <= 2 * u ? 2 * u : vmax * 1.05 <= 5 * u ? 5 * u : 10 * u;
	}
	return a;
}

static double ypos(double v, const struct yaxis *a)
{
	double t;

	if (a->log)
		t = v > a->lo ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
	else
		t = a->hi > 0 ? v / a->hi : 0;
	t = t < 0 ? 0 : t > 1.02 ? 1.02 : t;
	return H - MB - t * (H - MT - MB);
}

static void ytick(FILE *f, double v, const struct yaxis *a)
{
	double y = ypos(v, a);
	char b[40];

	/* never an exponent: whole from 1000 on, else 4 significant digits */
	if (fabs(v) >= 1000)
		snprintf(b, sizeof(b), "%.0f", v);
	else
		snprintf(b, sizeof(b), "%.4g", v);
	if (strchr(b, 'e'))
		snprintf(b, sizeof(b), "%.6f", v);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
		"<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
		ML, y, W - MR, y, ML - 6, y + 4, b);
}

/* the y axis' grid and numbers: quarters, or 1, 2, 5 a decade */
static void yticks(FILE *f, const struct yaxis *a)
{
	if (!a->log) {
		for (double v = 0; v <= a->hi * 1.0001; v += a->step)
			ytick(f, v, a);
		return;
	}
	for (double d = pow(10, floor(log10(a->lo) + 1e-9)); d <= a->hi * 1.001; d *= 10)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
			if (d * m <= a->hi * 1.001 && d * m >= a->lo * 0.999)
				ytick(f, d * m, a);
}

/*
 * A panel's frame, title, axis titles (units in them) and y axis; the y
 * title says "log axis" where it is one.
 */
static void frame(FILE *f, double y0, const char *title, const char *ytitle, const char *xtitle,
		  const struct yaxis *a)
{
	fprintf(f, "<g transform=\"translate(0,%g)\">\n", y0);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	fputs("<text x=\"10\" y=\"24\" font-size=\"15\">", f);
	xml_text(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<text class=\"axis-title\" x=\"14\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 14 %d)\">", (H - MB + MT) / 2, (H - MB + MT) / 2);
	xml_text(f, ytitle);
	if (a && a->log)
		fputs(" (log axis)", f);
	fputs("</text>\n", f);
	fprintf(f, "<text class=\"axis-title\" x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">",
		(ML + W - MR) / 2, H - 6);
	xml_text(f, xtitle);
	fputs("</text>\n", f);
	if (a)
		yticks(f, a);
}

/* the legend right of the panel: one entry a series, its marker and name */
static void legend(FILE *f, const char *const *names, size_t n)
{
	double step = n ? fmin(16.0, (H - MT - 10) / (double)n) : 16;

	fputs("<g class=\"legend\">\n", f);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" font-weight=\"bold\">series</text>\n",
		W + 4, MT - 6);
	for (size_t i = 0; i < n; i++) {
		double y = MT + 6 + i * step;

		fputs("<g class=\"legend-item\" data-name=\"", f);
		xml_text(f, names[i]);
		fprintf(f, "\"><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>",
			W + 4, y, W + 28, y, colour[i % 10]);
		marker(f, i, W + 16, y, "mark");
		fprintf(f, "</path><text x=\"%d\" y=\"%.1f\" font-size=\"%.0f\">", W + 34, y + 4,
			fmin(11, step - 2));
		xml_text(f, names[i]);
		fputs("</text></g>\n", f);
	}
	fputs("</g>\n", f);
}

/* series @i's line through its points, before them */
static void polyline(FILE *f, size_t i, const double *x, const double *y, size_t n)
{
	if (n < 2)
		return;
	fprintf(f, "<polyline class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
		colour[i % 10]);
	for (size_t k = 0; k < n; k++)
		fprintf(f, "%s%.1f,%.1f", k ? " " : "", x[k], y[k]);
	fputs("\"/>\n", f);
}

/* "[lo, hi]", or where there is none (one ensemble, or a median of under six) a word */
static const char *interval_text(char *b, size_t sz, double lo, double hi)
{
	if (isfinite(lo) && isfinite(hi))
		snprintf(b, sz, "[%.4g, %.4g]", lo, hi);
	else
		snprintf(b, sz, "(no interval)");
	return b;
}

/* a point of series @i with its interval, where it has one */
static void point(FILE *f, size_t i, double x, double v, double lo, double hi,
		  const struct yaxis *a, const char *tip)
{
	if (isfinite(lo) && isfinite(hi))
		fprintf(f, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-opacity=\"0.6\"/>",
			x, ypos(lo, a), x, ypos(hi, a), colour[i % 10]);
	marker(f, i, x, ypos(v, a), "point");
	fputs("<title>", f);
	xml_text(f, tip);
	fputs("</title></path>\n", f);
}

/* the name without /ARG: a sweep's name */
static size_t base_len(const char *name)
{
	const char *s = strchr(name, '/');

	return s ? (size_t)(s - name) : strlen(name);
}

static int is_c2c(const struct cs_frag *fr)
{
	return !strncmp(fr->name, "c2c:cpu", 7);
}

/* "cost per op, UNIT" */
/* the headline cost of @fr in its unit, as a plot's doubles */
static double cost(const struct cs_frag *fr, double *lo, double *hi)
{
	struct cs_cost c = cs_cost_of(fr);

	*lo = (double)c.lo;
	*hi = (double)c.hi;
	return (double)c.v;
}

static const char *cost_title(char *b, size_t sz, const char *unit)
{
	snprintf(b, sz, "cost per op, %s", unit);
	return b;
}

/* the staircase of the sweep that starts at in->frag[i]; the results after it of the same name */
static size_t staircase(FILE *f, const struct cs_input *in, size_t i, double *y0)
{
	size_t n = base_len(in->frag[i].name), j, m = 0;
	double vmin = INFINITY, vmax = 0, amin = 0, amax = 0, lo, hi, *xs, *ys;
	char title[160], tip[200], yt[96], ci[48], *base;
	struct yaxis ax;

	for (j = i; j < in->nfrag && in->frag[j].has_arg &&
	     base_len(in->frag[j].name) == n && !strncmp(in->frag[j].name, in->frag[i].name, n); j++) {
		double v = cost(&in->frag[j], &lo, &hi), a = (double)in->frag[j].arg;

		vmax = fmax(vmax, isfinite(hi) ? fmax(v, hi) : v);
		vmin = fmin(vmin, v);
		amin = m++ ? fmin(amin, a) : a;
		amax = fmax(amax, a);
	}
	ax = yaxis_of(vmin, vmax);
	xs = calloc(m ? m : 1, sizeof(*xs));
	ys = calloc(m ? m : 1, sizeof(*ys));
	base = strndup(in->frag[i].name, n);
	if (!xs || !ys || !base) {
		free(xs);
		free(ys);
		free(base);
		return j;
	}
	snprintf(title, sizeof(title), "%s: cost against ARG, 95 %% intervals", base);
	frame(f, *y0, title, cost_title(yt, sizeof(yt), cs_unit_name(cs_cost_of(&in->frag[i]).unit)),
	      "ARG (the fragment's argument, log axis)", &ax);
	amin = amin > 0 ? amin : 1;
	amax = amax > amin ? amax : amin * 2;
	for (size_t k = i; k < j; k++) {
		double v = cost(&in->frag[k], &lo, &hi), a = (double)in->frag[k].arg;

		xs[k - i] = ML + 10 + (log2(a > 0 ? a : 1) - log2(amin)) / (log2(amax) - log2(amin)) *
			    (W - ML - MR - 20);
		ys[k - i] = ypos(v, &ax);
	}
	fputs("<g class=\"series\" data-name=\"", f);
	xml_text(f, base);
	fputs("\">\n", f);
	polyline(f, 0, xs, ys, j - i);
	for (size_t k = i; k < j; k++) {
		double v = cost(&in->frag[k], &lo, &hi);

		snprintf(tip, sizeof(tip), "%s: %.4g %s", in->frag[k].name, v,
			 interval_text(ci, sizeof(ci), lo, hi));
		point(f, 0, xs[k - i], v, lo, hi, &ax, tip);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%llu</text>\n",
			xs[k - i], H - MB + 14 + (int)(k - i) % 2 * 12, (unsigned long long)in->frag[k].arg);
	}
	fputs("</g>\n", f);
	legend(f, (const char *const[]){ base }, 1);
	fputs("</g>\n", f);
	free(xs);
	free(ys);
	free(base);
	*y0 += H;
	return j;
}

/*
 * A c2c pair's one-way latency in ns, as cyclebench-user's c2c.txt prints
 * it: half the median round trip less the timestamps' own cost (info's
 * c2c_timestamps, ticks a trip; none in older trees: 0), at tsc_khz.
 * NaN without a tsc_khz; *net says whether the timestamps were taken off.
 */
static double c2c_ns(const struct cs_input *in, const struct cs_frag *fr, int *net)
{
	const char *khz = cs_info_get(&fr->info, CB_INFO_tsc_khz), *ts = cs_info_get(&fr->info, CB_INFO_c2c_timestamps);
	double rt = (double)cs_q_ld(fr->raw.median), oh = 0, k;

	if (!khz)
		khz = cs_info_get(&in->info, CB_INFO_tsc_khz);
	k = khz ? strtod(khz, NULL) : 0;
	*net = 0;
	if (ts) {
		oh = strtod(ts, NULL);
		*net = 1;
	}
	if (!(k > 0))
		return NAN;
	return (rt > oh ? rt - oh : 0) / 2 * 1e6 / k;
}

/* the c2c heat map: one cell per ordered pair, one-way ns a hand-over */
static void heatmap(FILE *f, const struct cs_input *in, double *y0)
{
	unsigned int cpu[64], ncpu = 0;
	double top = 0, cell;
	int net = 1, n1;

	for (size_t i = 0; i < in->nfrag; i++) {
		unsigned int a, b;

		if (!is_c2c(&in->frag[i]) || sscanf(in->frag[i].name, "c2c:cpu%u_cpu%u", &a, &b) != 2)
			continue;
		for (unsigned int v = 0, *p = (unsigned int[]){ a, b }; v < 2; v++) {
			unsigned int k;

			for (k = 0; k < ncpu && cpu[k] != p[v]; k++)
				;
			if (k == ncpu && ncpu < 64)
				cpu[ncpu++] = p[v];
		}
		top = fmax(top, c2c_ns(in, &in->frag[i], &n1));
		net &= n1;
	}
	if (!ncpu)
		return;
	cell = fmin(60.0, (H - MT - MB) / (double)ncpu);
	frame(f, *y0, net ? "c2c: one-way latency in ns (half a round trip less the timestamps, as c2c.txt)" :
		      "c2c: one-way latency in ns (half a round trip, timestamps included)",
	      "row: the CPU that hands over", "column: the CPU that takes the line; darker is slower", NULL);
	fputs("<g class=\"series\" data-name=\"c2c\">\n", f);
	for (size_t i = 0; i < in->nfrag; i++) {
		unsigned int a, b, ia = 0, ib = 0;
		double v;

		if (!is_c2c(&in->frag[i]) || sscanf(in->frag[i].name, "c2c:cpu%u_cpu%u", &a, &b) != 2)
			continue;
		while (ia < ncpu && cpu[ia] != a)
			ia++;
		while (ib < ncpu && cpu[ib] != b)
			ib++;
		v = c2c_ns(in, &in->frag[i], &n1);
		/* (past 64 CPUs: not drawn; a cost that is no number: no shade) */
		if (ia == ncpu || ib == ncpu || !isfinite(v))
			continue;
		for (int t = 0; t < 2; t++) {
			unsigned int r = t ? ib : ia, c = t ? ia : ib;
			int shade = 235 - (int)(top > 0 ? 200 * v / top : 0);

			fprintf(f, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"rgb(%d,%d,255)\"><title>cpu%u to cpu%u: %.1f ns</title></rect>"
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"%s\">%.1f</text>\n",
				ML + 40 + c * cell, MT + r * cell, cell, cell, shade, shade,
				t ? b : a, t ? a : b, v, ML + 40 + (c + 0.5) * cell, MT + (r + 0.5) * cell + 4,
				shade < 130 ? "white" : "black", v);
		}
	}
	for (unsigned int k = 0; k < ncpu; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">cpu%u</text>"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">cpu%u</text>\n",
			ML + 36.0, MT + (k + 0.5) * cell + 4, cpu[k],
			ML + 40 + (k + 0.5) * cell, MT + ncpu * cell + 14, cpu[k]);
	fputs("</g>\n", f);
	legend(f, (const char *const[]){ "c2c" }, 1);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">cells: one-way ns, median</text>\n", W + 4, MT + 40);
	fputs("</g>\n", f);
	*y0 += H;
}

/* the rest of an input: one row per fragment, its cost and interval */
static void costs(FILE *f, const struct cs_input *in, const size_t *idx, size_t n, double *y0)
{
	double vmin = INFINITY, vmax = 0, lo, hi;
	char tip[200], yt[96], ci[48];
	struct yaxis ax;

	for (size_t k = 0; k < n; k++) {
		double v = cost(&in->frag[idx[k]], &lo, &hi);

		vmax = fmax(vmax, isfinite(hi) ? fmax(v, hi) : v);
		vmin = fmin(vmin, v);
	}
	ax = yaxis_of(vmin, vmax);
	frame(f, *y0, "cost per operation, 95 % intervals", cost_title(yt, sizeof(yt), cs_unit_name(cs_cost_of(&in->frag[idx[0]]).unit)),
	      "", &ax);
	fputs("<g class=\"series\" data-name=\"costs\">\n", f);
	for (size_t k = 0; k < n; k++) {
		const struct cs_frag *fr = &in->frag[idx[k]];
		double v = cost(fr, &lo, &hi), x = ML + (k + 0.5) * (W - ML - MR) / (double)n;

		snprintf(tip, sizeof(tip), "%s: %.4g %s", fr->name, v,
			 interval_text(ci, sizeof(ci), lo, hi));
		point(f, 0, x, v, lo, hi, &ax, tip);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"end\" "
			"transform=\"rotate(-30 %.1f %d)\">", x, H - MB + 12, x, H - MB + 12);
		xml_text(f, fr->name);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
	legend(f, (const char *const[]){ "costs" }, 1);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">one point a fragment (named</text>"
		"<text x=\"%d\" y=\"%d\" font-size=\"10\">below it); bar: 95 %% interval</text>\n",
		W + 4, MT + 40, W + 4, MT + 53);
	fputs("</g>\n", f);
	*y0 += H;
}

/*
 * The contention curve: each fragment's pooled cost against k, the CPUs
 * run at once (a sweep=cpus directory's steps, contention.c), k on a
 * linear axis; a series a fragment, its points joined.
 */
static void contention(FILE *f, const struct cs_curve *c, size_t n, double *y0)
{
	unsigned int kmax = 1;
	double vmin = INFINITY, vmax = 0, *xs, *ys;
	const char **names = calloc(n ? n : 1, sizeof(*names));
	char tip[240], yt[96];
	struct yaxis ax;
	size_t most = 1;

	for (size_t i = 0; i < n; i++) {
		most = c[i].n > most ? c[i].n : most;
		for (size_t j = 0; j < c[i].n; j++) {
			const struct cs_kpoint *p = &c[i].p[j];

			kmax = p->k > kmax ? p->k : kmax;
			vmax = fmax(vmax, isfinite(p->hi) ? fmax(p->v, p->hi) : p->v);
			vmin = fmin(vmin, p->v);
		}
	}
	xs = calloc(most, sizeof(*xs));
	ys = calloc(most, sizeof(*ys));
	if (!names || !xs || !ys) {
		free(names);
		free(xs);
		free(ys);
		return;
	}
	ax = yaxis_of(vmin, vmax);
	frame(f, *y0, "contention: cost per operation against the CPUs run at once (pooled, 95 % intervals)",
	      cost_title(yt, sizeof(yt), n ? c[0].unit : ""), "k: CPUs running the fragment at once", &ax);
	for (unsigned int k = 1; k <= kmax; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">k=%u</text>\n",
			ML + 20 + (k - 1) * (W - ML - MR - 40) / (double)(kmax > 1 ? kmax - 1 : 1),
			H - MB + 16, k);
	for (size_t i = 0; i < n; i++) {
		names[i] = c[i].name;
		fputs("<g class=\"series\" data-name=\"", f);
		xml_text(f, c[i].name);
		fputs("\">\n", f);
		for (size_t j = 0; j < c[i].n; j++) {
			xs[j] = ML + 20 + (c[i].p[j].k - 1) * (W - ML - MR - 40) / (double)(kmax > 1 ? kmax - 1 : 1);
			ys[j] = ypos(c[i].p[j].v, &ax);
		}
		polyline(f, i, xs, ys, c[i].n);
		for (size_t j = 0; j < c[i].n; j++) {
			const struct cs_kpoint *p = &c[i].p[j];

			snprintf(tip, sizeof(tip), "%s, k=%u: %.4g [%.4g, %.4g]", c[i].name, p->k, p->v,
				 p->lo, p->hi);
			point(f, i, xs[j], p->v, p->lo, p->hi, &ax, tip);
		}
		fputs("</g>\n", f);
	}
	legend(f, names, n);
	fputs("</g>\n", f);
	free(names);
	free(xs);
	free(ys);
	*y0 += H;
}

/* --hist: a panel per fragment, its bins as bars */
static void histograms(FILE *f, const struct cs_input *in, double *y0)
{
	for (size_t i = 0; i < in->nfrag; i++) {
		const struct cs_hist *h = &in->frag[i].hist;
		uint64_t most = 1;
		char title[160], xt[96];
		struct yaxis ax;

		if (!h->nbins)
			continue;
		for (unsigned int b = 0; b < h->nbins; b++)
			most = h->count[b] > most ? h->count[b] : most;
		ax = yaxis_of(0, (double)most);
		snprintf(title, sizeof(title), "%s: samples per %llu-tick bin from %llu", in->frag[i].name,
			 (unsigned long long)h->width, (unsigned long long)h->lo);
		snprintf(xt, sizeof(xt), "ticks a sample, %llu to %llu", (unsigned long long)h->lo,
			 (unsigned long long)(h->lo + h->nbins * h->width));
		frame(f, *y0, title, "samples in the bin", xt, &ax);
		fputs("<g class=\"series\" data-name=\"", f);
		xml_text(f, in->frag[i].name);
		fputs("\">\n", f);
		for (unsigned int b = 0; b < h->nbins; b++) {
			double bw = (W - ML - MR) / (double)h->nbins, y = ypos((double)h->count[b], &ax);

			fprintf(f, "<rect class=\"bin\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%llu: %llu</title></rect>\n",
				ML + b * bw, y, bw * 0.9, H - MB - y, colour[0],
				(unsigned long long)(h->lo + b * h->width), (unsigned long long)h->count[b]);
		}
		fputs("</g>\n", f);
		legend(f, (const char *const[]){ in->frag[i].name }, 1);
		fputs("</g>\n", f);
		*y0 += H;
	}
}

/* the panels go to memory first: the document's height is their sum */
struct svg_doc {
	char *body;
	size_t len;
	FILE *f;
	double y0;
};

static int doc_open(struct svg_doc *d)
{
	memset(d, 0, sizeof(*d));
	d->f = open_memstream(&d->body, &d->len);
	return d->f ? 0 : -1;
}

/* the document around the panels, to o->out */
static void doc_close(const struct cs_opts *o, struct svg_doc *d)
{
	double h = d->y0 > 0 ? d->y0 : H;

	fclose(d->f);
	fprintf(o->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n%s</svg>\n",
		W + LEGW, h, W + LEGW, h, d->body ? d->body : "");
	free(d->body);
}

void cs_svg_curves(const struct cs_opts *o, const struct cs_curve *c, size_t n)
{
	struct svg_doc d;

	if (doc_open(&d))
		return;
	contention(d.f, c, n, &d.y0);
	doc_close(o, &d);
}

void cs_print_svg(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	struct svg_doc d;
	FILE *f;

	if (doc_open(&d))
		return;
	f = d.f;
	if (o->hist) {
		for (size_t i = 0; i < nin; i++)
			histograms(f, &in[i], &d.y0);
	} else {
		for (size_t i = 0; i < nin; i++) {
			size_t *rest = calloc(in[i].nfrag + 1, sizeof(*rest)), nrest = 0;

			if (!rest)
				break;
			heatmap(f, &in[i], &d.y0);
			for (size_t j = 0; j < in[i].nfrag;) {
				if (is_c2c(&in[i].frag[j])) {
					j++;
				} else if (in[i].frag[j].has_arg) {
					j = staircase(f, &in[i], j, &d.y0);
				} else {
					rest[nrest++] = j++;
				}
			}
			if (nrest)
				costs(f, &in[i], rest, nrest, &d.y0);
			free(rest);
		}
	}
	doc_close(o, &d);
}
