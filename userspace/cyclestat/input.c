// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - a whole input (a tree, a file, stdin) loaded fragment by
 * fragment, then the figures that need more than one fragment of the same
 * run: net of base:empty, per-op net cost, ticks per core cycle from
 * calib:add_chain (also from beside a single result given by its path).
 *
 * Calls fragment.c, tree.c, numparse.c, stats.c and infer.c.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "stats.h"
#include "read.h"

/* the same info value in both, or absent from either (older trees) */
static int same_key(const struct cs_frag *a, const struct cs_frag *b, enum cb_info_key key)
{
	const char *x = cs_info_get(&a->info, key), *y = cs_info_get(&b->info, key);

	return !x || !y || !strcmp(x, y);
}

/* figures that need more than one fragment: net, per-op over ensembles, calibration */
static int finish_input(struct cs_input *in)
{
	const struct cs_frag *base = NULL, *calib = NULL;

	for (size_t i = 0; i < in->nfrag; i++) {
		if (in->frag[i].ref == CS_REF_EMPTY)
			base = &in->frag[i];
		if (in->frag[i].ref == CS_REF_ADD)
			calib = &in->frag[i];
	}
	if (base) {
		in->has_overhead = 1;
		in->overhead = base->raw.median;
	}
	for (size_t i = 0; i < in->nfrag; i++) {
		struct cs_frag *fr = &in->frag[i];
		const struct cs_ens *e = &fr->ens;
		long double *x = malloc(e->count * sizeof(*x)), m;
		struct cs_q ov = base && fr->net_ok ? in->overhead : cs_q_int(0);
		s128 sum = 0;

		if (!x)
			return -1;
		/* the overhead must come from the same run and method */
		fr->net_ok = base && same_key(fr, base, CB_INFO_run_id) && same_key(fr, base, CB_INFO_method);
		ov = fr->net_ok ? in->overhead : cs_q_int(0);
		for (uint64_t j = 0; j < e->count; j++) {
			x[j] = ((long double)e->med2[j] / 2 - cs_q_ld(ov)) / fr->ops;
			sum += (s128)e->med2[j];
		}
		fr->netop.value = cs_q_div(cs_q_sub((struct cs_q){ .num = sum, .den = 2 * e->count }, ov),
					   fr->ops);
		fr->netop.n = e->count;
		cs_mean_ci(x, e->count, &m, &fr->netop.lo, &fr->netop.hi);
		free(x);
	}
	/* ticks per core cycle: calib's per-op cost, when from the same run and method */
	if (calib) {
		long double t = calib->perop.ok ? cs_q_ld(calib->perop.med.value) :
				calib->net_ok ? cs_q_ld(calib->netop.value) : 0;

		for (size_t i = 0; i < in->nfrag && t > 0; i++)
			if (same_key(&in->frag[i], calib, CB_INFO_run_id) &&
			    same_key(&in->frag[i], calib, CB_INFO_method) &&
			    cs_info_get(&calib->info, CB_INFO_run_id))
				in->frag[i].calib = t;
	}
	return 0;
}

/* info KEY as a number, the fragment's own or else the tree's; dflt when neither */
static uint64_t info_num(const struct cs_input *in, const struct cs_frag *fr, enum cb_info_key key,
			 uint64_t dflt)
{
	struct cs_err ignored;
	uint64_t x;

	if (!cs_info_u64(&fr->info, NULL, key, &x, &ignored) ||
	    !cs_info_u64(&in->info, NULL, key, &x, &ignored))
		return x ? x : dflt;
	return dflt;
}

static int yes(const struct cs_input *in, const struct cs_frag *fr, enum cb_info_key key)
{
	const char *v = cs_info_get(&fr->info, key);

	if (!v)
		v = cs_info_get(&in->info, key);
	return v && (!strcmp(v, "yes") || !strcmp(v, "1"));
}

const struct cs_frag *cs_frag_named(const struct cs_input *in, const char *name)
{
	for (size_t i = 0; i < in->nfrag; i++)
		if (!strcmp(in->frag[i].name, name))
			return &in->frag[i];
	return NULL;
}

const char *cs_absent_state(const struct cs_input *in, const char *name)
{
	for (size_t i = 0; i < in->nabsent; i++)
		if (!strcmp(in->absent[i].name, name))
			return in->absent[i].state;
	return NULL;
}

int cs_names_add(const struct cs_opts *o, const struct cs_input *in, const char ***names,
		 size_t *n)
{
	for (size_t j = 0; j < in->nfrag; j++) {
		const char *name = in->frag[j].name, **more;
		size_t k;

		for (k = 0; k < *n && strcmp((*names)[k], name); k++)
			;
		if (k < *n || !cs_match(o, name))
			continue;
		more = realloc(*names, (*n + 2) * sizeof(*more));
		if (!more)
			return -1;
		*names = more;
		more[(*n)++] = name;
		more[*n] = NULL;
	}
	return 0;
}

/*
 * one TSC step in per-op ticks: what the median's long - short can be off
 * by.  A region's median is a whole number of steps, locked (when the
 * noise is narrower than a step) on the step nearest its true centre, up
 * to half a step away; long - short adds two such errors, up to a whole
 * step, and every ensemble shares them, so their spread cannot show them.
 * The step info records (tsc_step: 26 ticks on this project's EPYC), or
 * where that is 1 or absent the one the samples show (cs_step_of()); a
 * step of 1 (icount's exact instruction counts) adds nothing.
 */
uint64_t cs_tsc_step(const struct cs_input *in, const struct cs_frag *fr)
{
	uint64_t step = info_num(in, fr, CB_INFO_tsc_step, 1);

	return step < 2 ? fr->step : step;	/* else what the samples show */
}

static long double quantum(const struct cs_input *in, const struct cs_frag *fr)
{
	uint64_t step = cs_tsc_step(in, fr);

	return step < 2 ? 0 : (long double)step /
			      ((long double)(fr->perop.repeat - 1) * fr->ops);
}

/*
 * The per-op interval carries what the figure carries (cyclestat(1),
 * "intervals"):
 *  - the spread over ensembles: infer.c's order-statistic interval of
 *    their median (none under six ensembles);
 *  - the TSC's resolution: no half-width under one step of (R - 1) ops
 *    (quantum()).  The larger of the two, not their sum: a core's mean is
 *    dithered across the step by each sample's phase against it, and where
 *    the noise is narrower than a step too few phases may have been seen
 *    for the spread to show the rounding left; the step bounds it;
 *  - the calibration's own error, for a figure in core cycles: with
 *    interleave (calib:add_chain's ensemble e ran beside this one's), the
 *    figure is the median of the per-ensemble ratios and its interval
 *    theirs, which carries both spreads and cancels the clock's drift
 *    across ensembles; else the calibration's relative half-width added
 *    to the figure's.  Either way no narrower than both
 *    quanta.  Where calib:imul_chain of the same run disagrees with it
 *    beyond their noise (cross_check()), no figure in core cycles has
 *    an interval.
 * Kept in ticks (lo, hi), so that a division by calib gives the interval
 * in core cycles wherever it is shown.
 */

/* imul r64, r64: 3 core cycles on every x86 core since the Pentium Pro */
#define CS_IMUL_LATENCY 3

/*
 * Whether @fr's ensembles can be divided one by one by @calib's: the two
 * interleaved (ensemble e of each ran beside the other's), as many, and
 * calib's all positive.
 */
static int paired_with(const struct cs_input *in, const struct cs_frag *fr,
		       const struct cs_frag *calib)
{
	int ok = calib && calib->perop.ok && fr->perop.ok &&
		 calib->perop.med.n == fr->perop.med.n &&
		 yes(in, fr, CB_INFO_interleave) && yes(in, calib, CB_INFO_interleave);

	for (uint64_t j = 0; ok && j < fr->perop.med.n; j++)
		ok = calib->perop.each[j] > 0;
	return ok;
}

/*
 * The median of @fr's per-ensemble figures over @calib's beside them, with
 * its interval (paired_with() holds; NaN ends under six ensembles); 0, or
 * -1 out of memory.
 */
static int paired_median(const struct cs_frag *fr, const struct cs_frag *calib,
			 long double *m, long double *lo, long double *hi)
{
	uint64_t n = fr->perop.med.n;
	long double *x = malloc(n * sizeof(*x));

	if (!x)
		return -1;
	for (uint64_t j = 0; j < n; j++)
		x[j] = fr->perop.each[j] / calib->perop.each[j];
	cs_median_ci(x, n, m, lo, hi);
	free(x);
	return 0;
}

/*
 * The calibration checked against a second clock of the same run: a chain
 * of imuls (3 core cycles each, another port) beside the chain of adds
 * (one cycle).  A neighbour sharing the core slows the two unequally (the
 * 1-cycle add chain more); where their ticks per core cycle differ by more
 * than the noise, in->calib_gap is that gap, relative.  It does not bound
 * the error: the same neighbour moves other code by several times the gap
 * (an L1 load 1-6 times it, docs/peers.md), so such a run's figures in
 * core cycles are given without an interval (hold_intervals()).  Where
 * the two ran interleaved, ensemble by ensemble: the median of imul's over
 * 3 adds' beside it, against its interval (no narrower than both TSC
 * steps), so that a clock that moved between ensembles, which moves both
 * alike, does not hide the gap; else the two figures against both
 * intervals together.  Only for a real core clock (not an emulator's).
 */
static int cross_check(struct cs_input *in, const struct cs_frag *calib)
{
	const struct cs_frag *imul = NULL;
	long double c1, c2, h1, h2, m, lo, hi, h;

	for (size_t i = 0; i < in->nfrag; i++)
		if (in->frag[i].ref == CS_REF_IMUL)
			imul = &in->frag[i];
	if (!calib || !imul || !calib->perop.ok || !imul->perop.ok ||
	    calib->perop.med.n < 2 || imul->perop.med.n < 2 ||
	    cs_core_calib(calib) <= 0 || cs_core_calib(imul) <= 0 ||
	    !same_key(calib, imul, CB_INFO_run_id) || !same_key(calib, imul, CB_INFO_method))
		return 0;
	c1 = cs_q_ld(calib->perop.med.value);
	c2 = cs_q_ld(imul->perop.med.value) / CS_IMUL_LATENCY;
	if (c1 <= 0 || c2 <= 0)
		return 0;
	in->calib_add = c1;
	in->calib_imul = c2;
	in->calib_checked = 1;
	if (paired_with(in, imul, calib)) {
		if (paired_median(imul, calib, &m, &lo, &hi))
			return -1;
		if (!isnan(lo)) {
			m /= CS_IMUL_LATENCY;
			h = fmaxl(fmaxl(m - lo / CS_IMUL_LATENCY, hi / CS_IMUL_LATENCY - m),
				  quantum(in, calib) / c1 + quantum(in, imul) / (CS_IMUL_LATENCY * c2));
			in->calib_imul = c1 * m;
			if (fabsl(m - 1) > h)
				in->calib_gap = fabsl(m - 1) / fminl(m, 1);
			return 0;
		}
	}
	h1 = cs_perop_half(&calib->perop);
	h2 = cs_perop_half(&imul->perop) / CS_IMUL_LATENCY;
	/* relative to the smaller: a figure over c1 then reaches the one over c2 */
	if (fabsl(c1 - c2) > sqrtl(h1 * h1 + h2 * h2))
		in->calib_gap = fabsl(c1 - c2) / fminl(c1, c2);
	return 0;
}

/* a figure no longer a fraction of whole ticks, as one: to 2^-40 of a tick */
static struct cs_q q_of(long double x)
{
	return (struct cs_q){ .num = (s128)(x * 0x1p40L), .den = (u128)1 << 40 };
}

static int hold_intervals(struct cs_input *in)
{
	const struct cs_frag *calib = NULL;
	long double cq = 0;

	for (size_t i = 0; i < in->nfrag; i++) {
		struct cs_frag *fr = &in->frag[i];
		struct cs_est *e = &fr->perop.med;
		long double v = cs_q_ld(e->value), h;

		if (!fr->perop.ok || e->n < 2)
			continue;
		if (fr->ref == CS_REF_ADD) {
			calib = fr;
			cq = quantum(in, fr) / v;
		}
		if (isnan(e->lo))
			continue;
		h = fmaxl(cs_est_half(e), quantum(in, fr));
		e->lo = v - h;
		e->hi = v + h;
	}
	if (cross_check(in, calib))
		return -1;
	for (size_t i = 0; i < in->nfrag; i++) {
		struct cs_frag *fr = &in->frag[i];
		struct cs_est *e = &fr->perop.med;
		long double c = fr->calib, v = cs_q_ld(e->value), vc = v / c, h, floor;

		/* calib's relative half-width, where it has ensembles (n >= 2) */
		if (calib && fr->calib > 0 && cs_q_ld(calib->perop.med.value) > 0)
			fr->calib_rel = cs_perop_half(&calib->perop) /
					cs_q_ld(calib->perop.med.value);
		/* a shared core (cross_check()): no figure in core cycles has an interval */
		fr->shared = in->calib_gap > 0 && cs_core_calib(fr) > 0 && fr != calib;
		if (cs_core_calib(fr) > 0 && fr != calib && fr->netop.n >= 2 && !isnan(fr->netop.lo)) {
			/* net and raw figures: the calibration's error added */
			struct cs_est *n = &fr->netop;
			long double nv = cs_q_ld(n->value) / c;

			h = (n->hi - n->lo) / 2 / c + fabsl(nv) * fr->calib_rel;
			n->lo = fr->shared ? NAN : (nv - h) * c;
			n->hi = fr->shared ? NAN : (nv + h) * c;
			/* the clock may have moved between calib's ensembles and these */
			in->within_run += !yes(in, fr, CB_INFO_interleave);
		}
		if (!fr->perop.ok || e->n < 2 || isnan(e->lo) || cs_core_calib(fr) <= 0 ||
		    fr == calib)
			continue;
		floor = quantum(in, fr) / c + fabsl(vc) * cq;
		if (paired_with(in, fr, calib)) {
			long double m, lo, hi;

			if (paired_median(fr, calib, &m, &lo, &hi))
				return -1;
			/* the figure too: the ratios' median, in ticks at calib's rate */
			vc = m;
			e->value = q_of(m * c);
			h = fmaxl(fmaxl(vc - lo, hi - vc), floor);
		} else {
			h = fmaxl(cs_est_half(e) / c + fabsl(vc) * fr->calib_rel, floor);
			/* the clock may have moved between calib's ensembles and these */
			in->within_run += !yes(in, fr, CB_INFO_interleave);
		}
		e->lo = fr->shared ? NAN : (vc - h) * c;
		e->hi = fr->shared ? NAN : (vc + h) * c;
	}
	return 0;
}

void cs_input_free(struct cs_input *in)
{
	for (size_t i = 0; i < in->nfrag; i++)
		cs_frag_free(&in->frag[i]);
	free(in->frag);
	for (size_t i = 0; i < in->nabsent; i++)
		free(in->absent[i].name);
	free(in->absent);
	free(in->path);
	cs_info_free(&in->info);
	memset(in, 0, sizeof(*in));
}

/*
 * A tree measured under an emulator (QEMU's TCG: CPUID's hypervisor
 * signature TCGTCGTCGTCG, or, in trees from before that key, its CPU
 * model's name): its TSC follows the host's clock, not any core's, so its
 * ticks are "emulated ticks", and nothing is shown in core cycles
 * (cs_core_calib()).  compare still divides each run by its own
 * calib:add_chain there, as a normaliser of the emulated clock, and says so.
 */
static int emulated(const struct cs_info *info)
{
	const char *hv = cs_info_get(info, CB_INFO_hypervisor_vendor);
	const char *model = cs_info_get(info, CB_INFO_model_name);

	if (hv)
		return !strncmp(hv, "TCG", 3);
	return model && strstr(model, "QEMU TCG") != NULL;
}

static void mark_emulated(struct cs_frag *fr)
{
	fr->emulated = 1;
}

/*
 * A result given by its own directory (TREE/loop/dec_jnz/100) is one
 * fragment, but its run's calib:add_chain is beside it in the tree: take
 * the ticks per core cycle from there, under the same rule (same run_id
 * and method), so that one argument compared with another is calibrated
 * as the whole tree would be. Nothing when there is no such fragment.
 */
static void calib_from_tree(const char *path, struct cs_frag *fr)
{
	char *root = strdup(path), *cal = NULL;
	size_t len, up = strchr(fr->name, '/') ? 3 : 2;
	struct cs_loc *loc = NULL;
	struct cs_info info = { 0 };
	struct cs_frag c = { 0 };
	struct cs_err e;
	size_t n = 0;

	if (!root)
		return;
	len = strlen(root);
	if (len > strlen("/" CB_FILE_CYCLES) &&
	    !strcmp(root + len - strlen("/" CB_FILE_CYCLES), "/" CB_FILE_CYCLES))
		root[len -= strlen("/" CB_FILE_CYCLES)] = 0;
	while (up--) {
		while (len > 1 && root[len - 1] == '/')
			root[--len] = 0;
		while (len && root[len - 1] != '/')
			root[--len] = 0;
	}
	/* its directory: CB_REF_ADD, group/name */
	if (!len || asprintf(&cal, "%s" CB_REF_ADD, root) < 0) {
		cal = NULL;
		goto out;
	}
	*strchr(cal + len, ':') = '/';
	if (!cs_is_dir(cal))
		goto out;
	/* root ends in '/': its info is the whole tree's */
	cal[len] = 0;
	strcat(cal, CB_FILE_INFO);
	if (!cs_read_info(cal, &info, &e) && emulated(&info))
		mark_emulated(fr);
	cs_info_free(&info);
	memset(&info, 0, sizeof(info));
	strcpy(cal + len, CB_REF_ADD);
	*strchr(cal + len, ':') = '/';
	if (cs_locate(cal, &loc, &n, &info, &e) || n != 1)
		goto out;
	if (cs_load_frag(&loc[0], &c, &e) == 0) {
		if (c.perop.ok && cs_q_ld(c.perop.med.value) > 0 &&
		    cs_info_get(&c.info, CB_INFO_run_id) && same_key(fr, &c, CB_INFO_run_id) &&
		    same_key(fr, &c, CB_INFO_method)) {
			struct cs_input one = { .info = info, .frag = &c, .nfrag = 1 };
			long double v = cs_q_ld(c.perop.med.value);

			fr->calib = v;
			/* its relative half-width, no narrower than its quantum */
			fr->calib_rel = c.perop.med.n < 2 ? 0 :
					fmaxl(cs_perop_half(&c.perop), quantum(&one, &c)) / v;
		}
		cs_frag_free(&c);
	}
out:
	if (loc)
		cs_locs_free(loc, n);
	cs_info_free(&info);
	free(cal);
	free(root);
}

/*
 * A cpus= tree seen from one of its CPUs: each result's cpuN/cycles (and
 * the files beside it) in place of its own, its info the result's.  A
 * result without cpuN/ keeps its own (a run on that CPU alone).
 */
static int on_cpu(struct cs_loc *loc, size_t n, int cpu)
{
	for (size_t i = 0; cpu >= 0 && i < n; i++) {
		char *dir, *cycles;

		if (!loc[i].dir)
			continue;
		if (asprintf(&dir, "%s/cpu%d", loc[i].dir, cpu) < 0)
			return -1;
		if (asprintf(&cycles, "%s/cycles", dir) < 0) {
			free(dir);
			return -1;
		}
		if (access(cycles, F_OK)) {
			free(dir);
			free(cycles);
			continue;
		}
		free(loc[i].dir);
		free(loc[i].cycles);
		loc[i].dir = dir;
		loc[i].cycles = cycles;
	}
	return 0;
}

/*
 * The net figure's interval carries the TSC step as the per-op one does:
 * it is the difference of two medians (the result's, base:empty's), each a
 * whole number of steps, so it is known to a whole step over ops at best,
 * however alike the ensembles are.
 */
static void hold_net_step(struct cs_input *in)
{
	for (size_t i = 0; i < in->nfrag; i++) {
		struct cs_frag *fr = &in->frag[i];
		struct cs_est *n = &fr->netop;
		uint64_t step = cs_tsc_step(in, fr);
		long double v = cs_q_ld(n->value), h;

		if (step < 2 || n->n < 2 || isnan(n->lo))
			continue;
		h = fmaxl((n->hi - n->lo) / 2, (long double)step / fr->ops);
		n->lo = v - h;
		n->hi = v + h;
	}
}

/* push each of @names onto in->absent as @state (the names it takes): 0, or -1 */
static int push_absent(struct cs_input *in, char **names, size_t n, const char *state)
{
	struct cs_absent *a = n ? realloc(in->absent, (in->nabsent + n) * sizeof(*a)) : in->absent;

	for (size_t i = 0; i < n; i++) {
		if (a) {
			a[in->nabsent].name = names[i];
			a[in->nabsent++].state = state;
		} else {
			free(names[i]);
		}
	}
	free(names);
	if (!a && n)
		return -1;
	in->absent = a;
	return 0;
}

/*
 * The fragments the tree lists without a result directory: absent,
 * "missing"; the result directories it does not list: absent, "unlisted"
 * (not read: what its fragments file leaves out is not this run's).
 */
static int tree_absent(const char *path, struct cs_input *in)
{
	char **gone, **extra;
	size_t ngone, nextra;

	if (cs_tree_disagrees(path, &gone, &ngone, &extra, &nextra))
		return -1;
	if (push_absent(in, gone, ngone, "missing")) {
		for (size_t i = 0; i < nextra; i++)
			free(extra[i]);
		free(extra);
		return -1;
	}
	return push_absent(in, extra, nextra, "unlisted");
}

/*
 * Say what the input dropped that its user asked for (--strict: as an
 * error): a fragment its fragments file lists but that has no results
 * there, a result directory it does not list, and --undisturbed where
 * there is no flags file to go by.
 */
static int input_warn(const struct cs_opts *o, const struct cs_input *in)
{
	const char *what = o->strict ? "error" : "warning", *first = NULL;
	int found = 0, say = !o->quiet || o->strict;
	size_t unflagged = 0;

	for (size_t i = 0; i < in->nabsent; i++)
		if (!strcmp(in->absent[i].state, "missing")) {
			found++;
			if (say)
				fprintf(stderr, "cyclestat: %s: %s/fragments lists %s, but it has no result directory there: the copy is incomplete (save the tree again)%s\n",
					what, in->path, in->absent[i].name,
					o->strict ? " (--strict)" : "");
		} else if (!strcmp(in->absent[i].state, "unlisted")) {
			found++;
			if (say)
				fprintf(stderr, "cyclestat: %s: %s/fragments does not list %s, but it has a result directory there: left out, as not this run's (remove the directory, or measure into an empty one)%s\n",
					what, in->path, in->absent[i].name,
					o->strict ? " (--strict)" : "");
		}
	for (size_t i = 0; i < in->nfrag; i++)
		if (in->frag[i].unflagged && !unflagged++)
			first = in->frag[i].name;
	if (unflagged) {
		found++;
		if (say)
			fprintf(stderr, "cyclestat: %s: %s: --undisturbed, but %zu of %zu results (%s%s) have no flags file: none of their samples is left out (measure with a module that writes flags)%s\n",
				what, in->path, unflagged, in->nfrag, first, unflagged > 1 ? ", ..." : "",
				o->strict ? " (--strict)" : "");
	}
	return found;
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

/* hit[k] set where filter word k selects a fragment of @in, with data or not */
static void filter_hits(const struct cs_opts *o, const struct cs_input *in, unsigned char *hit)
{
	struct cs_opts one = *o;

	one.nfilter = 1;
	for (size_t k = 0; k < o->nfilter; k++) {
		one.filter = &o->filter[k];
		for (size_t i = 0; i < in->nfrag && !hit[k]; i++)
			hit[k] = (unsigned char)cs_match(&one, in->frag[i].name);
		for (size_t i = 0; i < in->nabsent && !hit[k]; i++)
			hit[k] = (unsigned char)cs_match(&one, in->absent[i].name);
	}
}

/*
 * A word after the inputs that names no file is read as a filter: one
 * that selects nothing anywhere is a mistyped path or name, never silence.
 * Returns how many there are, each said.
 */
static int filter_misses(const struct cs_opts *o, const unsigned char *hit)
{
	int n = 0;

	for (size_t k = 0; k < o->nfilter; k++)
		if (!hit[k] && ++n)
			fprintf(stderr, "cyclestat: no fragment matches %s, and no file or directory is named so; names are group:name[/ARG], e.g. alu:add_dep, alu, 'loop:*'\n",
				o->filter[k]);
	return n;
}

int cs_inputs_refused(const struct cs_opts *o, const struct cs_input *a, size_t na,
		      const struct cs_input *b, size_t nb)
{
	unsigned char *hit = calloc(o->nfilter + 1, 1);
	int warned = 0, refused;

	if (!hit) {
		fprintf(stderr, "cyclestat: out of memory\n");
		return 1;
	}

	for (size_t i = 0; i < na + nb; i++) {
		const struct cs_input *in = i < na ? &a[i] : &b[i - na];

		warned += input_warn(o, in);
		filter_hits(o, in, hit);
	}
	refused = filter_misses(o, hit) || (warned && o->strict);
	free(hit);
	return refused;
}

int cs_load_input(const char *path, struct cs_input *in, struct cs_err *err)
{
	return cs_load_input_cpu(path, -1, in, err);
}

int cs_load_input_cpu(const char *path, int cpu, struct cs_input *in, struct cs_err *err)
{
	struct cs_loc *loc;
	size_t n;

	memset(in, 0, sizeof(*in));
	if (cs_locate(path, &loc, &n, &in->info, err))
		return -1;
	if (on_cpu(loc, n, cpu)) {
		cs_seterr(err, path, 0, "out of memory");
		cs_locs_free(loc, n);
		cs_info_free(&in->info);
		return -1;
	}
	in->path = strdup(path);
	in->frag = calloc(n, sizeof(*in->frag));
	if (!in->path || !in->frag) {
		cs_seterr(err, path, 0, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		struct cs_frag *fr = &in->frag[in->nfrag];
		int r = cs_load_frag(&loc[i], fr, err);

		if (r < 0)
			goto fail;
		if (r > 0) {
			struct cs_absent *a = realloc(in->absent, (in->nabsent + 1) * sizeof(*a));

			if (!a || !(a[in->nabsent].name = strdup(loc[i].name))) {
				if (a)
					in->absent = a;
				cs_seterr(err, path, 0, "out of memory");
				goto fail;
			}
			in->absent = a;
			a[in->nabsent++].state = fr->nodata ? fr->nodata : cs_state_names[CB_STATE_NONE];
			continue;
		}
		in->nfrag++;
	}
	if (tree_absent(path, in) || finish_input(in)) {
		cs_seterr(err, path, 0, "out of memory");
		goto fail;
	}
	hold_net_step(in);
	if (n == 1 && in->nfrag == 1 && in->frag[0].calib <= 0 && in->frag[0].ref != CS_REF_ADD)
		calib_from_tree(path, &in->frag[0]);
	for (size_t i = 0; i < in->nfrag && emulated(&in->info); i++)
		mark_emulated(&in->frag[i]);
	if (hold_intervals(in)) {
		cs_seterr(err, path, 0, "out of memory");
		goto fail;
	}
	if (!in->nfrag) {
		if (n == 1 && !cs_is_dir(path))
			cs_seterr(err, path, 0,
				  "never measured (info says state: none); measure it: cyclestat run FRAGMENT");
		else
			cs_seterr(err, path, 0,
				  "no fragment has results yet (every info says state: none); measure some: cyclestat run all");
		goto fail;
	}
	cs_locs_free(loc, n);
	return 0;
fail:
	cs_locs_free(loc, n);
	cs_input_free(in);
	return -1;
}

