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
 * per point, so a test (or a browser's inspector) can count them.  Calls
 * fmt.c for the units, stats.c for the estimates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"

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

/* a panel's frame, title and y axis from 0 (or lo, on a log axis) to top */
static void frame(FILE *f, double y0, const char *title, const char *ylabel)
{
	fprintf(f, "<g transform=\"translate(0,%g)\">\n", y0);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	fputs("<text x=\"10\" y=\"24\" font-size=\"15\">", f);
	xml_text(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"14\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 14 %d)\">",
		H / 2 + 40, H / 2 + 40);
	xml_text(f, ylabel);
	fputs("</text>\n", f);
}

static double ypos(double v, double top)
{
	return H - MB - (top > 0 ? v / top : 0) * (H - MT - MB);
}

static void yticks(FILE *f, double top)
{
	for (int k = 0; k <= 4; k++) {
		double v = top * k / 4, y = ypos(v, top);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.4g</text>\n",
			ML, y, W - MR, y, ML - 6, y + 4, v);
	}
}

/* a point with its interval, where it has one */
static void point(FILE *f, double x, double v, double lo, double hi, double top, const char *tip)
{
	if (isfinite(lo) && isfinite(hi))
		fprintf(f, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\"/>",
			x, ypos(lo, top), x, ypos(hi, top));
	fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#1f77b4\"><title>",
		x, ypos(v, top));
	xml_text(f, tip);
	fputs("</title></circle>\n", f);
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

/* the staircase of the sweep that starts at in->frag[i]; the results after it of the same name */
static size_t staircase(FILE *f, const struct cs_input *in, size_t i, double *y0)
{
	size_t n = base_len(in->frag[i].name), j, m = 0;
	double top = 0, amin = 0, amax = 0, lo, hi;
	char title[160], tip[160];

	for (j = i; j < in->nfrag && in->frag[j].has_arg &&
	     base_len(in->frag[j].name) == n && !strncmp(in->frag[j].name, in->frag[i].name, n); j++) {
		double v = cs_cost(&in->frag[j], &lo, &hi), a = (double)in->frag[j].arg;

		top = fmax(top, isfinite(hi) ? fmax(v, hi) : v);
		amin = m++ ? fmin(amin, a) : a;
		amax = fmax(amax, a);
	}
	top *= 1.1;
	snprintf(title, sizeof(title), "%.*s: cost against ARG (log axis), 95 %% intervals", (int)n,
		 in->frag[i].name);
	frame(f, *y0, title, cs_unit(&in->frag[i]));
	yticks(f, top);
	amin = amin > 0 ? amin : 1;
	amax = amax > amin ? amax : amin * 2;
	{
		char *base = strndup(in->frag[i].name, n);

		fputs("<g class=\"series\" data-name=\"", f);
		xml_text(f, base ? base : "?");
		fputs("\">\n", f);
		free(base);
	}
	for (size_t k = i; k < j; k++) {
		double v = cs_cost(&in->frag[k], &lo, &hi), a = (double)in->frag[k].arg;
		double x = ML + 10 + (log2(a > 0 ? a : 1) - log2(amin)) / (log2(amax) - log2(amin)) *
			   (W - ML - MR - 20);

		snprintf(tip, sizeof(tip), "%s: %.4g [%.4g, %.4g]", in->frag[k].name, v, lo, hi);
		point(f, x, v, lo, hi, top, tip);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%llu</text>\n",
			x, H - MB + 14 + (int)(k - i) % 2 * 12, (unsigned long long)in->frag[k].arg);
	}
	fputs("</g>\n</g>\n", f);
	*y0 += H;
	return j;
}

/* the c2c heat map: one cell per ordered pair, one-way ticks a hand-over */
static void heatmap(FILE *f, const struct cs_input *in, double *y0)
{
	unsigned int cpu[64], ncpu = 0;
	double top = 0, lo, hi, cell;

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
		top = fmax(top, cs_cost(&in->frag[i], &lo, &hi));
	}
	if (!ncpu)
		return;
	cell = fmin(60.0, (H - MT - MB) / (double)ncpu);
	frame(f, *y0, "c2c: one-way latency (a round trip's cost per hand-over), darker is slower",
	      cs_unit(&in->frag[0]));
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
		v = cs_cost(&in->frag[i], &lo, &hi);
		/* (past 64 CPUs: not drawn; a cost that is no number: no shade) */
		if (ia == ncpu || ib == ncpu || !isfinite(v))
			continue;
		for (int t = 0; t < 2; t++) {
			unsigned int r = t ? ib : ia, c = t ? ia : ib;
			int shade = 235 - (int)(top > 0 ? 200 * v / top : 0);

			fprintf(f, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"rgb(%d,%d,255)\"><title>cpu%u to cpu%u: %.4g</title></rect>"
				"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"%s\">%.4g</text>\n",
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
	fputs("</g>\n</g>\n", f);
	*y0 += H;
}

/* the rest of an input: one row per fragment, its cost and interval */
static void costs(FILE *f, const struct cs_input *in, const size_t *idx, size_t n, double *y0)
{
	double top = 0, lo, hi;
	char tip[160];

	for (size_t k = 0; k < n; k++) {
		double v = cs_cost(&in->frag[idx[k]], &lo, &hi);

		top = fmax(top, isfinite(hi) ? fmax(v, hi) : v);
	}
	top *= 1.1;
	frame(f, *y0, "cost per operation, 95 % intervals", cs_unit(&in->frag[idx[0]]));
	yticks(f, top);
	fputs("<g class=\"series\" data-name=\"costs\">\n", f);
	for (size_t k = 0; k < n; k++) {
		const struct cs_frag *fr = &in->frag[idx[k]];
		double v = cs_cost(fr, &lo, &hi), x = ML + (k + 0.5) * (W - ML - MR) / (double)n;

		snprintf(tip, sizeof(tip), "%s: %.4g [%.4g, %.4g]", fr->name, v, lo, hi);
		point(f, x, v, lo, hi, top, tip);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"end\" "
			"transform=\"rotate(-30 %.1f %d)\">", x, H - MB + 12, x, H - MB + 12);
		xml_text(f, fr->name);
		fputs("</text>\n", f);
	}
	fputs("</g>\n</g>\n", f);
	*y0 += H;
}

/*
 * The contention curve: each fragment's pooled cost against k, the CPUs
 * run at once (a sweep=cpus directory's steps, contention.c), k on a
 * linear axis.
 */
static void contention(FILE *f, const struct cs_curve *c, size_t n, double *y0)
{
	unsigned int kmax = 1;
	double top = 0;
	char tip[240];

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].n; j++) {
			const struct cs_kpoint *p = &c[i].p[j];

			kmax = p->k > kmax ? p->k : kmax;
			top = fmax(top, isfinite(p->hi) ? fmax(p->v, p->hi) : p->v);
		}
	top = top > 0 ? top * 1.1 : 1;
	frame(f, *y0, "contention: cost per operation against the CPUs run at once (pooled, 95 % intervals)",
	      n ? c[0].unit : "");
	yticks(f, top);
	for (unsigned int k = 1; k <= kmax; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">k=%u</text>\n",
			ML + 20 + (k - 1) * (W - ML - MR - 40) / (double)(kmax > 1 ? kmax - 1 : 1),
			H - MB + 16, k);
	for (size_t i = 0; i < n; i++) {
		fputs("<g class=\"series\" data-name=\"", f);
		xml_text(f, c[i].name);
		fputs("\">\n", f);
		for (size_t j = 0; j < c[i].n; j++) {
			const struct cs_kpoint *p = &c[i].p[j];
			double x = ML + 20 + (p->k - 1) * (W - ML - MR - 40) / (double)(kmax > 1 ? kmax - 1 : 1);

			snprintf(tip, sizeof(tip), "%s, k=%u: %.4g [%.4g, %.4g]", c[i].name, p->k, p->v,
				 p->lo, p->hi);
			point(f, x, p->v, p->lo, p->hi, top, tip);
		}
		fputs("</g>\n", f);
	}
	fputs("</g>\n", f);
	*y0 += H;
}

/* --hist: a panel per fragment, its bins as bars */
static void histograms(FILE *f, const struct cs_input *in, double *y0)
{
	for (size_t i = 0; i < in->nfrag; i++) {
		const struct cs_hist *h = &in->frag[i].hist;
		uint64_t most = 1;
		char title[160];

		if (!h->nbins)
			continue;
		for (unsigned int b = 0; b < h->nbins; b++)
			most = h->count[b] > most ? h->count[b] : most;
		snprintf(title, sizeof(title), "%s: samples per %llu-tick bin from %llu", in->frag[i].name,
			 (unsigned long long)h->width, (unsigned long long)h->lo);
		frame(f, *y0, title, "samples");
		yticks(f, (double)most);
		fputs("<g class=\"series\" data-name=\"", f);
		xml_text(f, in->frag[i].name);
		fputs("\">\n", f);
		for (unsigned int b = 0; b < h->nbins; b++) {
			double bw = (W - ML - MR) / (double)h->nbins, y = ypos((double)h->count[b], (double)most);

			fprintf(f, "<rect class=\"bin\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"#1f77b4\"><title>%llu: %llu</title></rect>\n",
				ML + b * bw, y, bw * 0.9, H - MB - y,
				(unsigned long long)(h->lo + b * h->width), (unsigned long long)h->count[b]);
		}
		fputs("</g>\n</g>\n", f);
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
		W, h, W, h, d->body ? d->body : "");
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
