// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - summaries for people: the table, the ensemble metrics, the
 * histograms; and cs_print, which picks the format.
 *
 * Calls export.c and fmt.c.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"

/* ---- table ---- */

#define NCOL 13
static const char *const heads[NCOL] = {
	"fragment", "n", "min", "median", "mean", "sd", "p99", "max", "mad", "far",
	"net", "net/op", "med/op",
};

static void print_hist(FILE *f, const struct cs_frag *fr)
{
	const struct cs_hist *h = &fr->hist;
	uint64_t top = h->over;
	char los[48], his[48], label[112];
	int w;

	for (unsigned int k = 0; k < h->nbins; k++)
		if (h->count[k] > top)
			top = h->count[k];
	w = (int)strlen(cs_u128_str(his + sizeof(his), (u128)h->lo + (u128)h->nbins * h->width));
	fprintf(f, "\n%s: %llu samples, bins of %llu cycle%s\n", fr->name,
		(unsigned long long)fr->raw.n, (unsigned long long)h->width,
		h->width == 1 ? "" : "s");
	for (unsigned int k = 0; k <= h->nbins; k++) {
		uint64_t c = k < h->nbins ? h->count[k] : h->over;
		u128 lo = (u128)h->lo + (u128)k * h->width;
		const char *l = cs_u128_str(los + sizeof(los), lo);
		int bar = top ? (int)((c * 50 + top - 1) / top) : 0;

		if (k == h->nbins && !c)
			break;
		if (k < h->nbins && h->width == 1)
			snprintf(label, sizeof(label), "%*s", w, l);
		else if (k < h->nbins)
			snprintf(label, sizeof(label), "[%*s, %*s)", w, l, w,
				 cs_u128_str(his + sizeof(his), lo + h->width));
		else
			snprintf(label, sizeof(label), ">= %*s", w, l);
		fprintf(f, "  %-*s %10llu |%.*s\n", h->width == 1 ? w + 3 : 2 * w + 4, label,
			(unsigned long long)c, bar,
			"##################################################");
	}
}

static void print_table(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	FILE *f = o->out;
	const char *bold = o->color ? "\033[1m" : "", *red = o->color ? "\033[31m" : "";
	const char *off = o->color ? "\033[0m" : "";

	for (size_t i = 0; i < nin; i++) {
		const struct cs_q *sh = in[i].has_overhead ? &in[i].overhead : NULL;
		char (*cell)[NCOL][48] = calloc(in[i].nfrag, sizeof(*cell));
		int w[NCOL] = { 0 }, smi = 0, stale = 0, ens = 0;
		const char *model = cs_info_get(&in[i].info, "model_name");
		const char *khz = cs_info_get(&in[i].info, "tsc_khz");
		const char *method = cs_info_get(&in[i].info, "method_used");
		const char *hyp = cs_info_get(&in[i].info, "hypervisor");
		char b[64];

		if (!cell)
			return;
		for (int c = 0; c < NCOL; c++)
			w[c] = (int)strlen(heads[c]);
		for (size_t j = 0; j < in[i].nfrag; j++) {
			const struct cs_frag *fr = &in[i].frag[j];
			const struct cs_figs *g = &fr->raw;

			snprintf(cell[j][0], 48, "%.42s%s%s", fr->name, fr->smi ? " *" : "",
				 fr->stale ? " ~" : "");
			snprintf(cell[j][1], 48, "%llu", (unsigned long long)g->n);
			snprintf(cell[j][2], 48, "%llu", (unsigned long long)g->min);
			cs_fmt_q(cell[j][3], 48, g->median, 1);
			cs_fmt_q(cell[j][4], 48, g->mean, 1);
			snprintf(cell[j][5], 48, "%.47s", isnan(g->sd) ? "-" : cs_lds(b, g->sd, 1));
			cs_fmt_q(cell[j][6], 48, g->p99, 1);
			snprintf(cell[j][7], 48, "%llu", (unsigned long long)g->max);
			cs_fmt_q(cell[j][8], 48, g->mad, 1);
			snprintf(cell[j][9], 48, "%llu", (unsigned long long)g->far);
			if (sh) {
				cs_fmt_q(cell[j][10], 48, cs_adj(g->median, sh, 1), 1);
				cs_fmt_q(cell[j][11], 48, cs_adj(g->median, sh, fr->ops), 2);
			} else {
				cs_fmt_q(cell[j][12], 48, cs_adj(g->median, NULL, fr->ops), 2);
			}
			for (int c = 0; c < NCOL; c++)
				if ((int)strlen(cell[j][c]) > w[c])
					w[c] = (int)strlen(cell[j][c]);
			smi |= fr->smi;
			stale |= fr->stale;
			ens |= fr->ens.count > 1;
		}
		if (i)
			fputc('\n', f);
		fprintf(f, "# %s", in[i].path);
		if (model)
			fprintf(f, ": %s", model);
		if (khz)
			fprintf(f, ", tsc %s kHz", khz);
		if (method)
			fprintf(f, ", method %s", method);
		fputc('\n', f);
		if (hyp && !strcmp(hyp, "yes"))
			fprintf(f, "# under a hypervisor: figures are the virtual TSC's, not bare-metal cycles\n");
		fputs(bold, f);
		for (int c = 0; c < NCOL; c++) {
			if ((c == 10 || c == 11) && !sh)
				continue;
			if (c == 12 && sh)
				continue;
			fprintf(f, c ? "  %*s" : "%-*s", w[c], heads[c]);
		}
		fprintf(f, "%s\n", off);
		for (size_t j = 0; j < in[i].nfrag; j++) {
			const struct cs_frag *fr = &in[i].frag[j];

			for (int c = 0; c < NCOL; c++) {
				if ((c == 10 || c == 11) && !sh)
					continue;
				if (c == 12 && sh)
					continue;
				if (!c)
					fprintf(f, "%s%-*s%s", fr->smi || fr->stale ? red : "",
						w[c], cell[j][c], fr->smi || fr->stale ? off : "");
				else
					fprintf(f, "  %*s", w[c], cell[j][c]);
			}
			fputc('\n', f);
		}
		if (sh)
			fprintf(f, "net = median - median of base:empty (%s cycles); net/op = net / ops\n",
				cs_fmt_q(b, sizeof(b), *sh, 1));
		else
			fprintf(f, "med/op = median / ops; no base:empty in this input, so no net figures\n");
		if (smi)
			fprintf(f, "%s* SMIs occurred during this run (smi_after != smi_before): its "
				"figures include SMI time; rerun it%s\n", red, off);
		if (stale)
			fprintf(f, "%s~ the last run of this fragment was aborted; these are the "
				"previous complete run's figures%s\n", red, off);
		if (ens) {
			int nw = w[0];

			fprintf(f, "\n%s%-*s  %7s  %8s  %12s  %12s  %12s  %11s%s\n", bold, nw,
				"ensembles", "count", "samples", "total var", "var of vars",
				"var of mins", "abs max dev", off);
			for (size_t j = 0; j < in[i].nfrag; j++) {
				const struct cs_ens *e = &in[i].frag[j].ens;
				char v1[64], v2[64], v3[64];

				if (e->count < 2)
					continue;
				fprintf(f, "%-*s  %7llu  %8llu  %12s  %12s  %12s  %11llu\n", nw,
					cell[j][0], (unsigned long long)e->count,
					(unsigned long long)e->size, cs_lds(v1, e->total_var, 1),
					cs_lds(v2, e->var_of_vars, 1), cs_lds(v3, e->var_of_mins, 1),
					(unsigned long long)e->abs_max_dev);
			}
		}
		if (o->hist)
			for (size_t j = 0; j < in[i].nfrag; j++)
				print_hist(f, &in[i].frag[j]);
		free(cell);
	}
}

void cs_print(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	switch (o->format) {
	case CS_JSON:
		cs_print_json(o, in, nin);
		break;
	case CS_CSV:
		cs_print_csv(o, in, nin);
		break;
	case CS_GBENCH:
		cs_print_gbench(o, in, nin);
		break;
	default:
		print_table(o, in, nin);
		break;
	}
}

/*
 * Is NAME selected by the filter? A pattern selects its exact name, a
 * group (alu), every argument of a fragment (mem:chase), or a glob.
 */
int cs_match(const struct cs_opts *o, const char *name)
{
	if (!o->nfilter)
		return 1;
	for (size_t i = 0; i < o->nfilter; i++) {
		const char *p = o->filter[i];
		size_t l = strlen(p);

		if (!fnmatch(p, name, 0) ||
		    (!strncmp(name, p, l) && (name[l] == ':' || name[l] == '/') && !strchr(p, '/') &&
		     (name[l] == '/' || !strchr(p, ':'))))
			return 1;
	}
	return 0;
}
