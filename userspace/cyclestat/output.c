// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - summaries for people: the table, the ensemble metrics, the
 * histograms; and cs_print, which picks the format.
 *
 * Calls export.c and fmt.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"

/* ---- table ---- */

#define NCOL 9
static const char *const heads[NCOL] = {
	"fragment", "n", "min", "median", "mean", "sd", "p99", "max", "far",
};
#define WIDTH 80	/* the table fits a terminal of this many columns */
#define CELL 160	/* a cell: a whole fragment name and its marks */

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
	fprintf(f, "\n%s: %llu samples, bins of %llu tick%s\n", fr->name,
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

/*
 * Two peaks in the histogram, each at least a quarter of the highest,
 * with a dip below half the smaller between them: the median sits in the
 * valley, and the half-sample mode says where the densest half is.
 */
static int bimodal(const struct cs_hist *h)
{
	uint64_t top = 0;

	for (unsigned int k = 0; k < h->nbins; k++)
		if (h->count[k] > top)
			top = h->count[k];
	for (unsigned int i = 0; i < h->nbins; i++) {
		uint64_t low = h->count[i];

		if (h->count[i] * 4 < top)
			continue;
		for (unsigned int j = i + 1; j < h->nbins; j++) {
			if (h->count[j] < low)
				low = h->count[j];
			if (h->count[j] * 4 >= top && low * 2 < (h->count[i] < h->count[j] ?
								h->count[i] : h->count[j]))
				return 1;
		}
	}
	return 0;
}

/*
 * v fixed with dec decimals, or whole from 1e7 on (where the decimals say
 * nothing a table can use): never in exponent form, which drops digits
 */
static const char *fixed_num(char *buf, size_t sz, long double v, int dec, int whole)
{
	if (isnan(v))
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%.*Lf", whole || fabsl(v) >= 1e7L ? 0 : dec, v);
	return buf;
}

/* one number notation per column: whole numbers for all where any is large */
static void column(char (*cell)[NCOL][CELL], size_t n, int c, const long double *v, int dec)
{
	int whole = 0;

	for (size_t j = 0; j < n; j++)
		whole |= fabsl(v[j]) >= 1e7L;
	for (size_t j = 0; j < n; j++)
		fixed_num(cell[j][c], CELL, v[j], dec, whole);
}

/*
 * The clock's resolution for one op of @fr in its table unit: a TSC step
 * over the ops a figure divides it by (the (R - 1) x ops of the two-length
 * difference, the ops of a net or raw median), over the calibration.
 */
static long double resolution(const struct cs_frag *fr, enum cs_basis basis)
{
	long double sc = cs_cost_of(fr).scale, d = fr->ops ? (long double)fr->ops : 1;

	if (basis == CS_BASIS_TWO_LENGTH && fr->perop.repeat > 1)
		d *= (long double)(fr->perop.repeat - 1);
	return (long double)fr->step / d / sc;
}

/*
 * A per-op cost and its interval as a table shows them: where the whole
 * interval lies below the clock's resolution, "<R" and "below resolution";
 * where it holds 0, "≈0" and its upper end ("<0.175"); a negative number
 * is never a cost. Returns 1 where a cell says one of those.
 */
static int cost_cells(const struct cs_frag *fr, char *cost, char *ci, size_t sz, int whole)
{
	struct cs_cost c = cs_cost_of(fr);
	const struct cs_est *e = c.est;
	long double v = c.v, lo = c.lo, hi = c.hi, res = resolution(fr, c.basis);
	char b1[48], b2[48];

	if (isnan(lo)) {
		/* a median's 95 % interval needs six ensembles (infer.c) */
		snprintf(ci, sz, fr->shared ? "- (core shared)" : e->n < 2 ? "- (one ensemble)" :
			 "- (< 6 ensembles)");
		if (v < res && res > 0) {
			snprintf(cost, sz, "<%s", fixed_num(b1, sizeof(b1), res, 3, whole));
			return 1;
		}
		fixed_num(cost, sz, v, 3, whole);
		return 0;
	}
	if (hi < res && res > 0) {
		snprintf(cost, sz, "<%s", fixed_num(b1, sizeof(b1), res, 3, whole));
		snprintf(ci, sz, "below resolution");
		return 1;
	}
	if (lo <= 0) {
		snprintf(cost, sz, "\u22480");
		snprintf(ci, sz, "<%s", fixed_num(b1, sizeof(b1), hi, 3, whole));
		return 1;
	}
	fixed_num(cost, sz, v, 3, whole);
	snprintf(ci, sz, "%s..%s", fixed_num(b1, sizeof(b1), lo, 3, whole), fixed_num(b2, sizeof(b2), hi, 3, whole));
	return 0;
}

/* the text's width in columns: a UTF-8 character is one */
static int text_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* enum cs_unit's words in a table's narrow unit column */
static const char *const unit_short[] = {
	[CS_UNIT_TICKS] = "ticks", [CS_UNIT_CORE] = "core cyc.", [CS_UNIT_EMULATED] = "emul. ticks",
};

/* ticks per core cycle of the input's calibrated figures, 0 if none */
static long double calib_factor(const struct cs_input *in)
{
	for (size_t j = 0; j < in->nfrag; j++)
		if (cs_core_calib(&in->frag[j]) > 0)
			return in->frag[j].calib;
	return 0;
}

/*
 * What the calibration's cross-check found (input.c), under a table whose
 * figures are in core cycles: a gap beyond the two chains' noise, marked;
 * intervals from a run not interleaved, said to be within-run only.
 */
static void print_calib_check(FILE *f, const struct cs_input *in)
{
	if (in->calib_gap > 0)
		fprintf(f, "! calibration disturbed: calib:add_chain reads %.4Lf ticks a core cycle,\n"
			"  calib:imul_chain %.4Lf (%.2Lf %% apart, beyond their noise): a neighbour\n"
			"  shared the core, and moves other code by more than that; no figure in\n"
			"  core cycles has an interval; rerun on an idle CPU (cyclestat doctor)\n",
			in->calib_add, in->calib_imul, 100 * in->calib_gap);
	if (in->within_run)
		fprintf(f, "! not interleaved (interleave=0): the intervals in core cycles are within-run\n"
			"  only, blind to a clock that moved between calib:add_chain and the others;\n"
			"  interleave=1 (the default) pairs every ensemble with calib's\n");
}

/*
 * The PMU counters where the module read them: per op by the two-length
 * difference where each region has its own (core cycles, instructions,
 * ref cycles and their IPC), else medians per sample and IPC over all.
 */
static void print_counters(FILE *f, const struct cs_input *in, size_t n, int w,
			   const char *bold, const char *off)
{
	char c[CS_NCOUNTERS][48], ipc[32];
	int any = 0, perop = 0, whole = 0;

	for (size_t j = 0; j < n; j++)
		any |= in->frag[j].cnt[CS_CORE].present || in->frag[j].cnt[CS_INSTR].present;
	if (!any)
		return;
	fprintf(f, "\n%s%-*s  %12s  %12s  %12s  %6s%s\n", bold, w, "PMU", "core cycles",
		"instructions", "ref cycles", "IPC", off);
	for (size_t j = 0; j < n; j++) {
		const struct cs_frag *fr = &in->frag[j];
		long double v[CS_NCOUNTERS], ipc_op;
		int per[CS_NCOUNTERS], by_op = 0;

		for (int k = 0; k < CS_NCOUNTERS; k++)
			by_op |= per[k] = cs_counter_per_op(fr, k, &v[k]);
		for (int k = 0; k < CS_NCOUNTERS; k++)
			if (by_op && per[k])
				snprintf(c[k], sizeof(c[k]), "%.3Lf/op", v[k]);
			else if (!by_op && fr->cnt[k].present)
				cs_fmt_q(c[k], sizeof(c[k]), fr->cnt[k].median, 1);
			else
				snprintf(c[k], sizeof(c[k]), "-");
		if (by_op && cs_ipc_per_op(fr, &ipc_op))
			snprintf(ipc, sizeof(ipc), "%.3Lf", ipc_op);
		else if (!by_op && fr->cnt[CS_CORE].present && fr->cnt[CS_INSTR].present &&
			 fr->cnt[CS_CORE].sum)
			snprintf(ipc, sizeof(ipc), "%.3Lf", (long double)fr->cnt[CS_INSTR].sum /
				 (long double)fr->cnt[CS_CORE].sum);
		else
			snprintf(ipc, sizeof(ipc), "-");
		perop |= by_op;
		whole |= !by_op;
		fprintf(f, "%-*s  %12s  %12s  %12s  %6s\n", w, fr->name, c[0], c[1], c[2], ipc);
	}
	if (perop)
		fprintf(f, "/op: (median around the long region - median around the short one) /\n"
			"((R - 1) x ops), each counter read at the region's timestamps; IPC of those\n");
	if (whole)
		fprintf(f, "no /op: each counter file's median per sample, the timing protocol\n"
			"included (the whole sample in trees without NAME_long files); IPC: all\n"
			"instructions / all core cycles\n");
}

/* ", 3 timed out, 1 with an NMI inside": the kinds @by counts */
static void flag_kinds(FILE *f, const uint64_t *by)
{
	for (int k = 0; k < CB_NR_SAMPLE_FLAGS; k++)
		if (by[k])
			fprintf(f, ", %llu %s", (unsigned long long)by[k], cs_flag_names[k]);
}

static int any_counter(const struct cs_frag *fr)
{
	for (int k = 0; k < CS_NCOUNTERS; k++)
		if (fr->cnt[k].present)
			return 1;
	return 0;
}

/*
 * What the flags say of a fragment's samples: with --undisturbed, what was
 * left out and why; without it, the samples that are no measurement of the
 * body (time-outs) or whose counters are no count (rewritten, not
 * counting), from info's flagged_* counts.
 */
static void print_flag_notes(FILE *f, const struct cs_frag *fr)
{
	if (fr->dropped) {
		fprintf(f, "- %s: %llu of %llu samples left out (--undisturbed; flags file)",
			fr->name, (unsigned long long)fr->dropped, (unsigned long long)fr->measured);
		flag_kinds(f, fr->dropped_by);
		if (fr->dropped_even)
			fprintf(f, ", and %llu unflagged to keep the ensembles equal",
				(unsigned long long)fr->dropped_even);
		fputc('\n', f);
	}
	if (fr->cnt_left == fr->measured && fr->measured) {
		fprintf(f, "- %s: no counter figures: every sample's counters are left out (--undisturbed; flags file)",
			fr->name);
		flag_kinds(f, fr->cnt_by);
		fputc('\n', f);
	} else if (fr->cnt_left && any_counter(fr)) {
		fprintf(f, "- %s: counter figures over %llu of %llu samples (--undisturbed; flags file)",
			fr->name, (unsigned long long)(fr->measured - fr->cnt_left),
			(unsigned long long)fr->measured);
		flag_kinds(f, fr->cnt_by);
		fputc('\n', f);
	}
	if (cs_drop_mask)
		return;
	if (fr->flagged_timeout)
		fprintf(f, "- %s: %llu of %llu samples timed out (flags 32): they time a wait given up, not the body's work; --undisturbed leaves them out\n",
			fr->name, (unsigned long long)fr->flagged_timeout,
			(unsigned long long)fr->measured);
	if ((fr->flagged_pmcreset || fr->flagged_nopmc) && any_counter(fr))
		fprintf(f, "- %s: the counter figures take as 0 the counters of %llu samples perf rewrote (flags 64) and %llu not counting (16); --undisturbed leaves those out of them\n",
			fr->name, (unsigned long long)fr->flagged_pmcreset,
			(unsigned long long)fr->flagged_nopmc);
}

/* what one op of @fr is, where its info names more than an op (contract.h) */
static const char *op_unit(const struct cs_frag *fr)
{
	const char *u = cs_info_get(&fr->info, CB_INFO_unit);

	return u && strcmp(u, CB_UNIT_DEFAULT) ? u : NULL;
}

/* the table's colours: bold headings, red marks; all "" without --color */
struct colours {
	const char *bold, *red, *off;
};

/* the columns that give way when the table is too wide, in that order */
static const int drop_order[] = { 6, 5, 4 };	/* p99, sd, mean */

/* the sample table of one input: its cells, their widths, what gave way */
struct table {
	char (*cell)[NCOL][CELL];
	int w[NCOL];
	int hide[NCOL];
	int dropped;	/* columns left out: drop_order's first ones */
	int rest;	/* the width of every column but the name's */
	const char *sep;
	int smi, stale, skew, ens, calib, emul;	/* of any fragment */
};

/* every fragment's cells and marks */
static int fill_cells(const struct cs_input *in, struct table *t)
{
	size_t n = in->nfrag;
	long double *v = calloc(n ? n : 1, sizeof(*v));

	t->cell = calloc(n ? n : 1, sizeof(*t->cell));
	if (!t->cell || !v) {
		free(v);
		return -1;
	}
	for (size_t j = 0; j < n; j++) {
		const struct cs_frag *fr = &in->frag[j];
		const struct cs_figs *g = &fr->raw;
		int sk = cs_q_cmp(g->mean, cs_q_int(0)) > 0 && g->median.num > 0 &&
			 cs_q_ld(g->mean) > 1.5L * cs_q_ld(g->median);

		snprintf(t->cell[j][0], CELL, "%.140s%s%s%s", fr->name, fr->smi ? " *" : "",
			 fr->stale ? " ~" : "", sk ? " !" : "");
		snprintf(t->cell[j][1], CELL, "%llu", (unsigned long long)g->n);
		t->smi |= fr->smi;
		t->stale |= fr->stale;
		t->skew |= sk;
		t->ens |= fr->ens.count > 1;
		t->calib |= cs_core_calib(fr) > 0;
		t->emul |= fr->emulated;
		snprintf(t->cell[j][8], 48, "%llu", (unsigned long long)g->far);
	}
#define COL(c, expr, dec) do {						\
		for (size_t j = 0; j < n; j++) {			\
			const struct cs_figs *g = &in->frag[j].raw;	\
			v[j] = (expr);					\
		}							\
		column(t->cell, n, c, v, dec);				\
	} while (0)
	COL(2, (long double)g->min, 0);
	COL(3, cs_q_ld(g->median), 1);
	COL(4, cs_q_ld(g->mean), 1);
	COL(5, g->sd, 1);
	COL(6, cs_q_ld(g->p99), 1);
	COL(7, (long double)g->max, 0);
#undef COL
	free(v);
	return 0;
}

/*
 * The widths; too wide: one space between numbers, then columns give way
 * (p99, sd, mean: --format csv has them), never the name's characters.
 */
static void fit_columns(size_t n, struct table *t)
{
	t->sep = "  ";
	for (int c = 0; c < NCOL; c++) {
		t->w[c] = (int)strlen(heads[c]);
		for (size_t j = 0; j < n; j++)
			if ((int)strlen(t->cell[j][c]) > t->w[c])
				t->w[c] = (int)strlen(t->cell[j][c]);
		if (c)
			t->rest += 2 + t->w[c];
	}
	if (t->w[0] + t->rest > WIDTH) {
		t->rest -= NCOL - 1;
		t->sep = " ";
	}
	for (size_t k = 0; k < sizeof(drop_order) / sizeof(*drop_order) &&
			   t->w[0] + t->rest > WIDTH; k++) {
		t->rest -= 1 + t->w[drop_order[k]];
		t->hide[drop_order[k]] = 1;
		t->dropped++;
	}
}

/* the path on its own line (its end, if long), then what machine and how */
static void print_machine(FILE *f, const struct cs_input *in)
{
	const char *model = cs_info_get(&in->info, CB_INFO_model_name);
	const char *khz = cs_info_get(&in->info, CB_INFO_tsc_khz);
	const char *method = cs_info_get(&in->info, CB_INFO_method_used);
	const char *hyp = cs_info_get(&in->info, CB_INFO_hypervisor);
	const char *mode = cs_info_get(&in->info, CB_INFO_mode);

	fprintf(f, "# %s\n", in->path);
	if (model || khz || method || mode) {
		const char *sepr = "# ";

		if (model) {
			fprintf(f, "%s%.50s", sepr, model);
			sepr = ", ";
		}
		if (khz) {
			fprintf(f, "%stsc %s kHz", sepr, khz);
			sepr = ", ";
		}
		if (method) {
			fprintf(f, "%smethod %s", sepr, method);
			sepr = ", ";
		}
		if (mode)
			fprintf(f, "%smode %s", sepr, mode);
		fputc('\n', f);
	}
	if (hyp && !strcmp(hyp, "yes"))
		fprintf(f, "# under a hypervisor: figures are the virtual TSC's, not bare-metal ticks\n");
	if (mode && !strcmp(mode, "user"))
		fprintf(f, "# user mode: interrupts stay on; expect more far outliers than in kernel mode\n");
}

/* the per-sample table, what gave way, and the notes on its marks */
static void print_sample_table(FILE *f, const struct cs_input *in, const struct table *t,
			       const struct colours *co)
{
	size_t n = in->nfrag;
	char b[160], b2[64];

	fprintf(f, "# per sample, in TSC ticks\n%s", co->bold);
	for (int c = 0; c < NCOL; c++)
		if (!t->hide[c])
			fprintf(f, c ? "%s%*s" : "%s%-*s", c ? t->sep : "", t->w[c], heads[c]);
	fprintf(f, "%s\n", co->off);
	for (size_t j = 0; j < n; j++) {
		const struct cs_frag *fr = &in->frag[j];
		int mark = fr->smi || fr->stale;

		fprintf(f, "%s%-*s%s", mark ? co->red : "", t->w[0], t->cell[j][0],
			mark ? co->off : "");
		for (int c = 1; c < NCOL; c++)
			if (!t->hide[c])
				fprintf(f, "%s%*s", t->sep, t->w[c], t->cell[j][c]);
		fputc('\n', f);
	}
	if (t->dropped) {
		fprintf(f, "(left out to fit %d columns:", WIDTH);
		for (int k = t->dropped - 1; k >= 0; k--)
			fprintf(f, " %s", heads[drop_order[k]]);
		fprintf(f, "; --format csv has every column)\n");
	}
	if (t->w[0] + t->rest > WIDTH)
		fprintf(f, "(the table is %d columns wide: no figure is cut to fit)\n", t->w[0] + t->rest);
	if (t->smi)
		fprintf(f, "%s* SMIs occurred during this run (smi_after != smi_before): its "
			"figures\n  include SMI time; rerun it%s\n", co->red, co->off);
	if (t->stale)
		fprintf(f, "%s~ the last run of this fragment was aborted or failed; these are the\n"
			"  previous complete run's figures%s\n", co->red, co->off);
	if (t->skew)
		fprintf(f, "! mean > 1.5 x median: far outliers pull the mean; trust the median\n");
	for (size_t j = 0; j < n; j++)
		print_flag_notes(f, &in->frag[j]);
	for (size_t j = 0; j < n; j++)
		if (bimodal(&in->frag[j].hist) &&
		    fabsl(cs_q_ld(in->frag[j].raw.hsm) - cs_q_ld(in->frag[j].raw.median)) >
			    fmaxl(cs_q_ld(in->frag[j].raw.mad), in->frag[j].hist.width))
			fprintf(f, "%s looks bimodal: half-sample mode %s (the densest half), median %s\n",
				in->frag[j].name, cs_fmt_q(b2, sizeof(b2), in->frag[j].raw.hsm, 1),
				cs_fmt_q(b, sizeof(b), in->frag[j].raw.median, 1));
}

/*
 * The cost of one operation, each with its interval and what it is; too
 * wide for a whole name: the ens, then the basis column give way.  -1
 * where there is no memory for it.
 */
static int print_cost_table(FILE *f, const struct cs_input *in, int w0,
			    const struct colours *co)
{
	size_t n = in->nfrag;
	char (*pc)[2][112] = calloc(n ? n : 1, sizeof(*pc));
	int wc = 6, wi = 12, line, clipped = 0, show_ens, show_basis;

	if (!pc)
		return -1;
	for (size_t j = 0; j < n; j++) {
		int shown = in->frag[j].ref != CS_REF_EMPTY || !in->has_overhead;

		clipped |= cost_cells(&in->frag[j], pc[j][0], pc[j][1], sizeof(pc[j][0]), 0) && shown;
		if (text_cols(pc[j][0]) > wc)
			wc = text_cols(pc[j][0]);
		if (text_cols(pc[j][1]) > wi)
			wi = text_cols(pc[j][1]);
	}
	/* name, basis, per op, interval, ens, unit (11) */
	line = w0 + 2 + 10 + 2 + wc + 2 + wi + 2 + 3 + 2 + 11;
	show_ens = line <= WIDTH;
	show_basis = line - 5 - 12 <= WIDTH;
	line -= (show_ens ? 0 : 5) + (show_basis ? 0 : 12);
	fprintf(f, "\n%s%-*s%s%-*s  %*s  %-*s%s%*s  %s%s\n", co->bold, w0, "fragment",
		show_basis ? "  " : "", show_basis ? 10 : 0, show_basis ? "basis" : "", wc,
		"per op", wi, "95% interval", show_ens ? "  " : "", show_ens ? 3 : 0,
		show_ens ? "ens" : "", "unit", co->off);
	for (size_t j = 0; j < n; j++) {
		const struct cs_frag *fr = &in->frag[j];
		struct cs_cost c = cs_cost_of(fr);
		char en[24];

		/* the overhead itself has no cost per op: its line below says it */
		if (fr->ref == CS_REF_EMPTY && in->has_overhead)
			continue;
		snprintf(en, sizeof(en), "%llu", (unsigned long long)c.est->n);
		/* (printf pads bytes: a cell with a UTF-8 character is padded by hand) */
		fprintf(f, "%-*s%s%-*s  %*s%s  %s%*s%s%*s  %s%s%s\n", w0, fr->name,
			show_basis ? "  " : "", show_basis ? 10 : 0, show_basis ? cs_basis_name(c.basis) : "",
			wc - text_cols(pc[j][0]), "", pc[j][0], pc[j][1], wi - text_cols(pc[j][1]), "",
			show_ens ? "  " : "", show_ens ? 3 : 0, show_ens ? en : "",
			unit_short[c.unit],
			op_unit(fr) ? "/" : "", op_unit(fr) ? op_unit(fr) : "");
	}
	free(pc);
	if (!show_basis || !show_ens)
		fprintf(f, "(left out to fit %d columns:%s%s; --format json has them)\n", WIDTH,
			show_basis ? "" : " basis", show_ens ? "" : " ens");
	if (line > WIDTH)
		fprintf(f, "(the table is %d columns wide: a fragment's name is never cut)\n", line);
	fprintf(f, "two-length: (long - short) / ((R-1) ops) of each ensemble's core mean (within\n"
		"1.5 TSC steps of its median), their median; net: (median - base:empty's of the\n"
		"same run) / ops; raw: median / ops; 95%% interval: over the ensembles (a\n"
		"median's, or t), widened by the TSC step and the calibration (cyclestat(1))%s\n",
		in->has_overhead ? "" : "\nno base:empty here, so no net figures");
	if (clipped)
		fprintf(f, "\u22480: the interval holds 0 (<X: its upper end); <X and below resolution:\n"
			"the whole interval lies below one TSC step per op (X): no cost is resolved\n");
	return 0;
}

/* what the figures are in: the overhead, the calibration, an emulator's clock */
static void print_clock_notes(FILE *f, const struct cs_input *in, const struct table *t)
{
	char b2[64];

	if (in->has_overhead)
		fprintf(f, "overhead (base:empty median): %s ticks\n",
			cs_fmt_q(b2, sizeof(b2), in->overhead, 1));
	if (t->calib)
		fprintf(f, "core cyc.: core cycles (calibrated), 1 core cycle = %.4Lf ticks by\n"
			"calib:add_chain of the same run, one core cycle per add%s\n", calib_factor(in),
			in->calib_checked && !in->calib_gap ? "; calib:imul_chain\n(3 a cycle) agrees" : "");
	print_calib_check(f, in);
	if (t->emul)
		fprintf(f, "emul. ticks: measured under an emulator (QEMU TCG), whose TSC follows the\n"
			"host's clock: not any core's cycles, so nothing is calibrated\n");
}

/* Paoloni's ensemble metrics of each fragment with two or more ensembles */
static void print_ensembles(FILE *f, const struct cs_input *in, int w0, const struct colours *co)
{
	fprintf(f, "\n%s%-*s  %5s  %7s  %9s  %9s  %9s  %7s%s\n", co->bold, w0,
		"ensembles", "count", "samples", "total var", "var vars", "var mins",
		"max dev", co->off);
	for (size_t j = 0; j < in->nfrag; j++) {
		const struct cs_ens *e = &in->frag[j].ens;
		char v1[64], v2[64], v3[64];

		if (e->count < 2)
			continue;
		snprintf(v1, sizeof(v1), e->total_var < 1e7L ? "%.1Lf" : "%.0Lf", e->total_var);
		snprintf(v2, sizeof(v2), e->var_of_vars < 1e7L ? "%.1Lf" : "%.0Lf", e->var_of_vars);
		snprintf(v3, sizeof(v3), e->var_of_mins < 1e7L ? "%.1Lf" : "%.0Lf", e->var_of_mins);
		fprintf(f, "%-*s  %5llu  %7llu  %9s  %9s  %9s  %7llu\n", w0, in->frag[j].name,
			(unsigned long long)e->count, (unsigned long long)e->size, v1, v2, v3,
			(unsigned long long)e->abs_max_dev);
	}
	fprintf(f, "Paoloni's ensemble metrics: mean variance, variance of the variances and of\n"
		"the minimums across ensembles, and the largest max - min within one (ticks)\n");
}

/* one input's summary: the machine, the samples, the cost per op, the notes */
static void print_one(const struct cs_opts *o, struct cs_input *in, int first)
{
	FILE *f = o->out;
	const struct colours co = {
		.bold = o->color ? "\033[1m" : "",
		.red = o->color ? "\033[31m" : "",
		.off = o->color ? "\033[0m" : "",
	};
	struct table t = { 0 };

	if (fill_cells(in, &t)) {
		free(t.cell);
		return;
	}
	fit_columns(in->nfrag, &t);
	if (!first)
		fputc('\n', f);
	print_machine(f, in);
	print_sample_table(f, in, &t, &co);
	free(t.cell);
	if (print_cost_table(f, in, t.w[0], &co))
		return;
	print_clock_notes(f, in, &t);
	print_counters(f, in, in->nfrag, t.w[0], co.bold, co.off);
	cs_print_memory(f, in, t.w[0], co.bold, co.off);
	if (t.ens)
		print_ensembles(f, in, t.w[0], &co);
	if (o->hist)
		for (size_t j = 0; j < in->nfrag; j++)
			print_hist(f, &in->frag[j]);
}

/*
 * --brief: one short table an input, what a first look needs: the per-op
 * cost with its interval (its unit in the heading), the median sample and
 * the far outliers; the full summary is a command away.
 */
static void print_brief(const struct cs_opts *o, const struct cs_input *in, int first)
{
	FILE *f = o->out;
	int w = 8, wc = 6, wi = 12, wf = 5, clipped = 0, line;
	const char *unit = NULL;
	long double factor = calib_factor(in);
	char (*pc)[4][112] = calloc(in->nfrag ? in->nfrag : 1, sizeof(*pc));
	int wm = 6;

	if (!pc)
		return;
	for (size_t j = 0; j < in->nfrag; j++) {
		const struct cs_frag *fr = &in->frag[j];
		enum cs_basis basis = cs_cost_of(fr).basis;

		if ((int)strlen(fr->name) > w)
			w = (int)strlen(fr->name);
		if (!unit)
			unit = cs_unit_name(cs_cost_of(fr).unit);
		else if (strcmp(unit, cs_unit_name(cs_cost_of(fr).unit)))
			unit = "mixed units";
		if (fr->ref == CS_REF_EMPTY && in->has_overhead) {
			snprintf(pc[j][0], sizeof(pc[j][0]), "-");
			snprintf(pc[j][1], sizeof(pc[j][1]), "-");
		} else {
			clipped |= cost_cells(fr, pc[j][0], pc[j][1], sizeof(pc[j][0]), 0);
			/* a figure that is not the two-length cost says what it is */
			if (basis != CS_BASIS_TWO_LENGTH)
				snprintf(pc[j][1] + strlen(pc[j][1]), sizeof(pc[j][1]) - strlen(pc[j][1]),
					 " %s", cs_basis_name(basis));
		}
		snprintf(pc[j][2], sizeof(pc[j][2]), "%llu/%llu", (unsigned long long)fr->raw.far,
			 (unsigned long long)fr->raw.n);
		cs_fmt_q(pc[j][3], sizeof(pc[j][3]), fr->raw.median, 1);
		if ((int)strlen(pc[j][3]) > wm)
			wm = (int)strlen(pc[j][3]);
		if (text_cols(pc[j][0]) > wc)
			wc = text_cols(pc[j][0]);
		if (text_cols(pc[j][1]) > wi)
			wi = text_cols(pc[j][1]);
		if ((int)strlen(pc[j][2]) > wf)
			wf = (int)strlen(pc[j][2]);
	}
	fprintf(f, "%s# %s\n# per op in %s, 95%% interval", first ? "" : "\n", in->path,
		unit ? unit : "ticks");
	if (factor > 0)
		fprintf(f, "; 1 core cycle = %.4Lf ticks", factor);
	fputc('\n', f);
	line = w + 2 + wc + 2 + wi + 2 + wm + 2 + wf;
	fprintf(f, "%-*s  %*s  %-*s  %*s  %*s\n", w, "fragment", wc, "per op", wi, "95% interval",
		wm, "median", wf, "far/n");
	for (size_t j = 0; j < in->nfrag; j++)
		fprintf(f, "%-*s  %*s%s  %s%*s  %*s  %*s\n", w, in->frag[j].name, wc - text_cols(pc[j][0]), "",
			pc[j][0], pc[j][1], wi - text_cols(pc[j][1]), "", wm, pc[j][3], wf, pc[j][2]);
	free(pc);
	if (line > WIDTH)
		fprintf(f, "(the table is %d columns wide: a fragment's name is never cut)\n", line);
	print_calib_check(f, in);
	if (clipped)
		fprintf(f, "\u22480: the interval holds 0 (<X: its upper end); <X, below resolution: the\n"
			"whole interval lies below one TSC step per op (X)\n");
	fprintf(f, "median: ticks a sample; far/n: of n samples, those above Q3 + 3 IQR, the IQR\n"
		"at least one TSC step\n");
	cs_print_memory(f, in, w, "", "");
	fprintf(f, "all figures: cyclestat %s\n", in->path);
}

/* --brief's rows marked net or raw: what those are (two-length is unmarked) */
static void brief_bases(const struct cs_opts *o, const struct cs_input *in)
{
	int net = 0, raw = 0;

	for (size_t j = 0; j < in->nfrag; j++) {
		enum cs_basis basis = cs_cost_of(&in->frag[j]).basis;

		if (in->frag[j].ref != CS_REF_EMPTY || !in->has_overhead) {
			net |= basis == CS_BASIS_NET;
			raw |= basis == CS_BASIS_RAW;
		}
	}
	if (net || raw)
		fprintf(o->out, "%s%s%s\n", net ? "net: no long region, (median - base:empty's) / ops" : "",
			net && raw ? "; " : "", raw ? "raw: median / ops" : "");
}

/*
 * ministat's verdict for two inputs: each later input's fragment against
 * the first input's of the same name (or the one fragment of each, for two
 * files of samples): the difference of the means per sample with Student's
 * t over the pooled standard deviation, or that none is proven.
 */
static void print_differences(const struct cs_opts *o, const struct cs_input *in, size_t nin)
{
	FILE *f = o->out;
	int md = o->format == CS_MARKDOWN, any = 0;

	for (size_t i = 1; i < nin; i++)
		for (size_t j = 0; j < in[i].nfrag; j++) {
			const struct cs_frag *b, *a = &in[i].frag[j];
			struct cs_tdiff t;

			b = in[0].nfrag == 1 && in[i].nfrag == 1 ? &in[0].frag[0] :
			    cs_frag_named(&in[0], a->name);
			if (!b)
				continue;
			if (!any++)
				fprintf(f, md ? "\n**Difference at 95%% confidence** (ministat: Student's t on the samples, ticks a sample; each input against %s)\n\n"
					: "\n# each input against the first (%s), as ministat: the means per\n"
					  "# sample, Student's t over the pooled standard deviation, ticks a sample\n",
					in[0].path);
			if (cs_student_t(&b->raw, &a->raw, &t)) {
				fprintf(f, md ? "- `%s`: too few samples for a t-test (n = %llu, %llu)\n" :
					"%s: too few samples for a t-test (n = %llu, %llu)\n",
					a->name, (unsigned long long)b->raw.n, (unsigned long long)a->raw.n);
				continue;
			}
			if (in[0].nfrag == 1 && in[i].nfrag == 1)
				fprintf(f, md ? "- `%s` against `%s`: " : "%s against %s:\n", in[i].path, in[0].path);
			else
				fprintf(f, md ? "- `%s`, %s against %s: " : "%s, %s against %s:\n", a->name,
					in[i].path, in[0].path);
			if (!t.proven) {
				fprintf(f, md ? "No difference proven at 95%% confidence (%.4Lg +/- %.4Lg ticks)\n" :
					"  No difference proven at 95%% confidence (%.4Lg +/- %.4Lg ticks)\n",
					t.d, t.half);
				continue;
			}
			fprintf(f, md ? "**Difference at 95%% confidence**: %+.4Lg +/- %.4Lg ticks" :
				"  Difference at 95%% confidence\n    %+.4Lg +/- %.4Lg ticks\n", t.d, t.half);
			if (t.base > 0)
				fprintf(f, md ? ", %+.3Lg%% +/- %.3Lg%%" : "    %+.3Lg%% +/- %.3Lg%%\n",
					100 * t.d / t.base, 100 * t.half / t.base);
			fprintf(f, md ? " (Student's t, pooled s = %.4Lg)\n" : "    (Student's t, pooled s = %.4Lg)\n",
				t.s);
		}
}

/* a cost for a markdown cell: its interval, or what it is instead */
static void md_row(FILE *f, const struct cs_input *in, const struct cs_frag *fr)
{
	struct cs_cost cost = cs_cost_of(fr);
	char b1[48], b2[112], b3[112];

	fputc('|', f);
	cs_md_cell(f, fr->name, 1);
	fputc(' ', f);
	if (fr->ref == CS_REF_EMPTY && in->has_overhead) {
		fputs("- | overhead |", f);
	} else {
		cost_cells(fr, b2, b3, sizeof(b2), 0);
		fprintf(f, "%s | %s |", b2, b3);
	}
	fprintf(f, " %s | %s | %s | %llu/%llu |\n", cs_basis_name(cost.basis), cs_unit_name(cost.unit),
		cs_fmt_q(b1, sizeof(b1), fr->raw.median, 1), (unsigned long long)fr->raw.far,
		(unsigned long long)fr->raw.n);
}

/* --format markdown: the short table of each input, for a pull request comment */
static void print_markdown(const struct cs_opts *o, const struct cs_input *in, size_t nin)
{
	FILE *f = o->out;

	for (size_t i = 0; i < nin; i++) {
		const char *model = cs_info_get(&in[i].info, CB_INFO_model_name);

		fprintf(f, "%s**%s**%s%s\n\n", i ? "\n" : "", in[i].path, model ? ": " : "", model ? model : "");
		fputs("| fragment | per op | 95% interval | basis | unit | median (ticks) | far/n |\n"
		      "|:--|--:|:--|:--|:--|--:|--:|\n", f);
		for (size_t j = 0; j < in[i].nfrag; j++)
			md_row(f, &in[i], &in[i].frag[j]);
		cs_markdown_memory(f, &in[i]);
	}
	print_differences(o, in, nin);
}

static void print_table(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	for (size_t i = 0; i < nin; i++)
		if (o->brief) {
			print_brief(o, &in[i], !i);
			brief_bases(o, &in[i]);
		} else {
			print_one(o, &in[i], !i);
		}
	print_differences(o, in, nin);
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
	case CS_SVG:
		cs_print_svg(o, in, nin);
		break;
	case CS_MARKDOWN:
		print_markdown(o, in, nin);
		break;
	default:
		print_table(o, in, nin);
		break;
	}
}
