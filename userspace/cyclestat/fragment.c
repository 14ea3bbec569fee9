// SPDX-License-Identifier: GPL-2.0
/*
 * fragment.c - a located fragment read, checked and reduced to its figures:
 * raw figures, Paoloni's ensemble metrics, the two-length per-op cost, the
 * optional PMU counters. Whole inputs are input.c's.
 *
 * Calls tree.c, numparse.c, counts.c, stats.c and infer.c.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "stats.h"
#include "read.h"

/* ---- loading: read, validate, reduce to figures ---- */

void cs_frag_free(struct cs_frag *fr)
{
	free(fr->name);
	free(fr->path);
	free(fr->perop.each);
	cs_info_free(&fr->info);
	cs_mem_free(&fr->mem);
	cs_ens_free(&fr->ens);
	fr->name = fr->path = NULL;
	fr->perop.each = NULL;
}

/* a file beside cycles in the result directory, NULL when absent */
static char *beside(const struct cs_loc *loc, const char *name)
{
	char *p;
	struct stat st;

	if (!loc->dir || asprintf(&p, "%s/%s", loc->dir, name) < 0)
		return NULL;
	if (stat(p, &st) || S_ISDIR(st.st_mode)) {
		free(p);
		return NULL;
	}
	return p;
}

/* read a file that pairs with cycles line by line: same count or an error */
static int read_paired(const char *path, size_t n, struct cs_samples *s, struct cs_err *err)
{
	if (cs_read_cycles(path, s, err))
		return -1;
	if (s->n != n) {
		cs_seterr(err, path, 0,
			  "%zu lines, but cycles has %zu; the two are paired line by line: the copy is incomplete (save it again)",
			  s->n, n);
		return -1;
	}
	return 0;
}

/*
 * A paired file whose order no figure needs, read straight into its value
 * -> count table: memory for its distinct values, not its samples.
 */
static int read_counted(const char *path, size_t n, struct cs_counts *c, struct cs_err *err)
{
	struct cs_tally t;
	struct cs_samples s = { .tally = &t };

	memset(c, 0, sizeof(*c));
	if (cs_tally_init(&t)) {
		cs_seterr(err, path, 0, "out of memory");
		return -1;
	}
	if (read_paired(path, n, &s, err)) {
		cs_samples_free(&s);
		cs_tally_free(&t);
		return -1;
	}
	if (cs_counts_take(&s, c)) {
		cs_seterr(err, path, 0, "out of memory");
		return -1;
	}
	return 0;
}

/* the table of samples read in order (s is taken over) */
static int counted(const char *path, struct cs_samples *s, struct cs_counts *c,
		   struct cs_err *err)
{
	if (cs_counts_take(s, c)) {
		cs_seterr(err, path, 0, "out of memory");
		return -1;
	}
	return 0;
}

unsigned int cs_drop_mask;

const char *const cs_flag_names[CB_NR_SAMPLE_FLAGS] = {
	"with an NMI inside", "after an interrupt", "after a switch",
	"on another CPU", "with a counter not counting", "timed out",
	"with counters perf rewrote",
};

/* by[k] += 1 for each bit k of v */
static void count_bits(uint64_t v, uint64_t *by)
{
	for (int k = 0; k < CB_NR_SAMPLE_FLAGS; k++)
		by[k] += (v >> k) & 1;
}

/*
 * --undisturbed: the samples kept, as indices into the files, the same
 * number from each ensemble (the first m without a bit of cs_drop_mask in
 * @fl, the flags file's values, m the fewest any ensemble has), so
 * ensembles stay equal and the paired files stay paired; @by counts the
 * left-out samples' flags, *@flagged the samples with any.  Returns the
 * number kept per ensemble, 0 with *idx NULL when nothing is left out, -1
 * on error.
 */
static long long undisturbed(const struct cs_samples *fl, const char *path, uint64_t ens,
			     uint64_t size, uint64_t *by, uint64_t *flagged, size_t **idx,
			     struct cs_err *err)
{
	uint64_t m = size;
	size_t k = 0;

	*idx = NULL;
	for (uint64_t e = 0; e < ens; e++) {
		uint64_t good = 0;

		for (uint64_t j = 0; j < size; j++)
			good += !(fl->v[e * size + j] & cs_drop_mask);
		m = good < m ? good : m;
	}
	if (m == size)
		return 0;
	if (m < 1) {
		cs_seterr(err, path, 0,
			  "every sample of an ensemble is flagged as disturbed: nothing is left to summarise (run again, or drop --undisturbed)");
		return -1;
	}
	*idx = malloc(ens * m * sizeof(**idx));
	if (!*idx) {
		cs_seterr(err, path, 0, "out of memory");
		return -1;
	}
	for (uint64_t e = 0; e < ens; e++) {
		uint64_t got = 0;

		for (uint64_t j = 0; j < size && got < m; j++)
			if (!(fl->v[e * size + j] & cs_drop_mask)) {
				(*idx)[k++] = e * size + j;
				got++;
			}
	}
	*flagged = 0;
	for (size_t j = 0; j < fl->n; j++) {
		count_bits(fl->v[j] & cs_drop_mask, by);
		*flagged += !!(fl->v[j] & cs_drop_mask);
	}
	return (long long)m;
}

/*
 * --undisturbed, the counter files: every sample without a bit of
 * cs_drop_mask or CS_CNT_MASK.  A counter value of such a sample is a 0
 * written for want of a count, so it is left out even where its TSC
 * figure is kept; the counters' medians are over all ensembles at once,
 * so no ensemble needs its share.  Returns the number kept, with *idx
 * NULL when that is all of them (@by: as undisturbed()).
 */
static long long counted_samples(const struct cs_samples *fl, const char *path, uint64_t *by,
				 size_t **idx, struct cs_err *err)
{
	unsigned int mask = cs_drop_mask | CS_CNT_MASK;
	size_t k = 0;

	*idx = NULL;
	for (size_t j = 0; j < fl->n; j++)
		k += !(fl->v[j] & mask);
	if (k == fl->n)
		return (long long)k;
	if (k) {
		*idx = malloc(k * sizeof(**idx));
		if (!*idx) {
			cs_seterr(err, path, 0, "out of memory");
			return -1;
		}
	}
	k = 0;
	for (size_t j = 0; j < fl->n; j++) {
		if (!(fl->v[j] & mask))
			(*idx)[k++] = j;
		count_bits(fl->v[j] & mask, by);
	}
	return (long long)k;
}

/* keep the samples idx names, in order (idx increases: in place is safe) */
static void compact(struct cs_samples *s, const size_t *idx, size_t n)
{
	if (!idx)
		return;
	for (size_t j = 0; j < n; j++)
		s->v[j] = s->v[idx[j]];
	s->n = n;
}

/*
 * cycles_long: the per-op cost per ensemble (issue 9's two-length
 * differencing). In order only when there are ensembles or samples left out.
 */
static int load_long(const struct cs_loc *loc, struct cs_frag *fr, int ordered,
		     size_t n, const size_t *idx, size_t kept, struct cs_err *err)
{
	char *path = beside(loc, CB_FILE_CYCLES_LONG);
	struct cs_samples l = { 0 };
	struct cs_counts c = { 0 };
	struct cs_figs f;
	struct cs_q *core = NULL;
	uint64_t *min = NULL, r;
	int ret = -1, rr;

	rr = cs_info_u64(&fr->info, loc->info, CB_INFO_long_repeat, &r, err);
	if (rr < 0)
		goto out;
	/* debugfs shows the file for every result; info says when it has data */
	if (rr) {
		ret = 0;
		goto out;
	}
	/* a promised long region that is not there is no net figure in disguise */
	if (!path) {
		char want[512];

		snprintf(want, sizeof(want), "%s/" CB_FILE_CYCLES_LONG, loc->dir ? loc->dir : ".");
		cs_seterr(err, want, 0,
			  "missing, but %s says 'long_repeat: %llu': without the long region there is no per-op cost (copy the whole result directory, or save the tree again)",
			  loc->info ? loc->info : CB_FILE_INFO, (unsigned long long)r);
		goto out;
	}
	if (r < 2) {
		cs_seterr(err, loc->info ? loc->info : path, 0,
			  "'long_repeat: %llu'; it says how many times the long body repeats the short one: 2 or more",
			  (unsigned long long)r);
		goto out;
	}
	min = calloc(fr->ens.count, sizeof(*min));
	core = calloc(fr->ens.count, sizeof(*core));
	if (!min || !core) {
		cs_seterr(err, path, 0, "out of memory");
		goto out;
	}
	if (ordered) {
		if (read_paired(path, n, &l, err))
			goto out;
		compact(&l, idx, kept);
		if (cs_ens_aggs(l.v, fr->ens.count, fr->ens.size, fr->step, NULL, min, core)) {
			cs_seterr(err, path, 0, "out of memory");
			goto out;
		}
	} else {
		/* one ensemble: its core and minimum are the whole file's */
		if (read_counted(path, n, &c, err))
			goto out;
		cs_figures_of(&c, &f);
		min[0] = f.min;
		core[0] = cs_core_of(&c, fr->step);
	}
	if (cs_perop(fr->ens.core, fr->ens.min, core, min, fr->ens.count, r, fr->ops, &fr->perop)) {
		cs_seterr(err, path, 0, "out of memory");
		goto out;
	}
	ret = 0;
out:
	cs_samples_free(&l);
	cs_counts_free(&c);
	free(core);
	free(min);
	free(path);
	return ret;
}

/*
 * debugfs shows every file for every result; info says which hold data:
 * cycles_long with long_repeat, a counter's files when "pmu" names it
 * (NAME_long with long_repeat too), flags always.
 */
int cs_data_file_expected(const struct cs_info *info, const char *file)
{
	const char *pmu = cs_info_get(info, CB_INFO_pmu), *lr = cs_info_get(info, CB_INFO_long_repeat);

	if (!strcmp(file, CB_FILE_CYCLES_LONG))
		return lr != NULL;
	for (int k = 0; k < CS_NCOUNTERS; k++) {
		size_t l = strlen(cs_counter_names[k]), pl;
		const char *w;

		if (strncmp(file, cs_counter_names[k], l) || (file[l] && strcmp(file + l, "_long")))
			continue;
		if (file[l] && !lr)
			return 0;
		if (!pmu || !strncmp(pmu, "none", 4))
			return !pmu;	/* no pmu line: an old tree, the file decides */
		for (w = pmu; *w; w += pl + strspn(w + pl, " ")) {
			pl = strcspn(w, " ");
			if (pl == l && !strncmp(w, cs_counter_names[k], l))
				return 1;
		}
		return 0;
	}
	return 1;
}

int cs_counter_per_op(const struct cs_frag *fr, int k, long double *v)
{
	const struct cs_counter *c = &fr->cnt[k];

	if (!c->present || !c->has_long || !fr->perop.ok || fr->perop.repeat < 2 || !fr->ops)
		return 0;
	*v = (cs_q_ld(c->median_long) - cs_q_ld(c->median)) /
	     ((long double)(fr->perop.repeat - 1) * fr->ops);
	return 1;
}

int cs_ipc_per_op(const struct cs_frag *fr, long double *v)
{
	long double core, instr;

	if (!cs_counter_per_op(fr, CS_CORE, &core) || !cs_counter_per_op(fr, CS_INSTR, &instr) ||
	    core <= 0)
		return 0;
	*v = instr / core;
	return 1;
}

/* one counter file: its median and, when @sum, its sum */
static int load_counter(const char *path, size_t n, const size_t *idx, size_t kept,
			struct cs_q *median, u128 *sum, struct cs_err *err)
{
	struct cs_samples s = { 0 };
	struct cs_counts c;
	struct cs_figs f;
	int bad;

	/* sums and medians need no order, unless samples are left out */
	if (idx) {
		bad = read_paired(path, n, &s, err);
		if (!bad) {
			compact(&s, idx, kept);
			bad = counted(path, &s, &c, err);
		}
	} else {
		bad = read_counted(path, n, &c, err);
	}
	cs_samples_free(&s);
	if (bad)
		return -1;
	cs_figures_of(&c, &f);
	*median = f.median;
	if (sum)
		*sum = (u128)f.mean.num;	/* the mean is sum / n */
	cs_counts_free(&c);
	return 0;
}

/* the optional PMU counter files: medians per region, sums (IPC) */
static int load_counters(const struct cs_loc *loc, struct cs_frag *fr, size_t n,
			 const size_t *idx, size_t kept, struct cs_err *err)
{
	/* every sample's counters are 0 for want of a count: no figure */
	if (!kept)
		return 0;
	for (int k = 0; k < CS_NCOUNTERS; k++) {
		struct cs_counter *cn = &fr->cnt[k];
		char lname[32], *path;
		int bad;

		if (!cs_data_file_expected(&fr->info, cs_counter_names[k]))
			continue;
		path = beside(loc, cs_counter_names[k]);
		if (!path)
			continue;
		bad = load_counter(path, n, idx, kept, &cn->median, &cn->sum, err);
		free(path);
		if (bad)
			return -1;
		cn->present = 1;
		snprintf(lname, sizeof(lname), "%s_long", cs_counter_names[k]);
		if (!cs_data_file_expected(&fr->info, lname) || !(path = beside(loc, lname)))
			continue;
		bad = load_counter(path, n, idx, kept, &cn->median_long, NULL, err);
		free(path);
		if (bad)
			return -1;
		cn->has_long = 1;
	}
	return 0;
}

/* whether load_counters() finds a counter file with data */
static int has_counters(const struct cs_loc *loc, const struct cs_info *info)
{
	for (int k = 0; k < CS_NCOUNTERS; k++) {
		char *path;
		int found;

		if (!cs_data_file_expected(info, cs_counter_names[k]))
			continue;
		path = beside(loc, cs_counter_names[k]);
		found = path != NULL;
		free(path);
		if (found)
			return 1;
	}
	return 0;
}

/*
 * Returns 0 with fr filled; 1 when there is no data (state none, skipped,
 * or aborted or failed with no earlier run), with fr->nodata saying which;
 * -1 on error.
 *
 * The samples are kept in run order only where a figure needs it: several
 * ensembles, or samples left out by --undisturbed. A run of one ensemble
 * (and any bare file) is read straight into its value -> count table.
 */
/* the reference fragment that @name names, CS_REF_NONE where none */
enum cs_ref cs_ref_of(const char *name)
{
	static const char *const names[CS_NR_REFS] = {
		[CS_REF_EMPTY] = CB_REF_EMPTY, [CS_REF_ADD] = CB_REF_ADD, [CS_REF_IMUL] = CB_REF_IMUL,
	};

	for (int r = CS_REF_EMPTY; r < CS_NR_REFS; r++)
		if (!strcmp(name, names[r]))
			return (enum cs_ref)r;
	return CS_REF_NONE;
}

/* a result's keys: its name and path, ops, argument, SMIs, flagged counts */
static int frag_keys(const struct cs_loc *loc, struct cs_frag *fr, struct cs_err *err)
{
	const char *name, *slash;
	int rb, ra, rg;

	name = cs_info_get(&fr->info, CB_INFO_name);
	fr->name = strdup(name ? name : loc->name);
	fr->path = strdup(strcmp(loc->cycles, "-") ? loc->cycles : "<stdin>");
	if (!fr->name || !fr->path) {
		cs_seterr(err, loc->cycles, 0, "out of memory");
		return -1;
	}
	fr->ref = cs_ref_of(fr->name);
	if (cs_info_u64(&fr->info, loc->info, CB_INFO_ops, &fr->ops, err) < 0)
		return -1;
	if (!fr->ops) {
		cs_seterr(err, loc->info, 0, "'ops: 0'; ops counts operations per sample, at least 1");
		return -1;
	}
	rg = cs_info_u64(&fr->info, loc->info, CB_INFO_arg, &fr->arg, err);
	if (rg < 0)
		return -1;
	slash = strchr(fr->name, '/');
	fr->has_arg = !rg || (slash && slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1));
	if (rg && fr->has_arg)
		fr->arg = strtoull(slash + 1, NULL, 10);
	rb = cs_info_u64(&fr->info, loc->info, CB_INFO_smi_before, &fr->smi_before, err);
	ra = cs_info_u64(&fr->info, loc->info, CB_INFO_smi_after, &fr->smi_after, err);
	if (rb < 0 || ra < 0)
		return -1;
	fr->smi = !rb && !ra && fr->smi_after != fr->smi_before;
	if (cs_info_u64(&fr->info, loc->info, CB_INFO_flagged_timeout, &fr->flagged_timeout, err) < 0 ||
	    cs_info_u64(&fr->info, loc->info, CB_INFO_flagged_pmcreset, &fr->flagged_pmcreset, err) < 0 ||
	    cs_info_u64(&fr->info, loc->info, CB_INFO_flagged_nopmc, &fr->flagged_nopmc, err) < 0)
		return -1;
	return 0;
}

/*
 * ensembles x samples as the info says (@known), checked against the @n
 * samples read; else one ensemble of them all
 */
static int frag_shape(const struct cs_loc *loc, size_t n, int known, uint64_t *ens,
		      uint64_t *size, struct cs_err *err)
{
	if (!known) {
		*ens = 1;
		*size = n;
		return 0;
	}
	if (!*ens || !*size || *ens > n / *size || *ens * *size != n) {
		cs_seterr(err, loc->cycles, 0,
			  "%zu samples, but %s says ensembles x samples = %llu x %llu; the file is truncated or belongs to another run (read it again, or cyclestat save it once more)",
			  n, loc->info, (unsigned long long)*ens, (unsigned long long)*size);
		return -1;
	}
	return 0;
}

/* the TSC's step the tree records (tsc_step), or 0 */
static uint64_t recorded_step(const struct cs_frag *fr)
{
	struct cs_err ignored;
	uint64_t step;

	if (cs_info_u64(&fr->info, NULL, CB_INFO_tsc_step, &step, &ignored) || step < 2)
		return 0;
	return step;
}

/* the step, for samples in run order before they are counted: else a copy's */
static int step_of_ordered(struct cs_frag *fr, const struct cs_samples *s)
{
	struct cs_counts c;

	fr->step = recorded_step(fr);
	if (fr->step)
		return 0;
	if (cs_counts_of(s->v, s->n, &c))
		return -1;
	fr->step = cs_step_of(&c);
	cs_counts_free(&c);
	return 0;
}

/*
 * The figures of the samples @s, read into the table @c: raw figures,
 * the TSC step, far outliers, histogram, and the one ensemble where the
 * samples' order was not kept.
 */
static int frag_figures(const struct cs_loc *loc, struct cs_frag *fr, struct cs_samples *s,
			struct cs_counts *c, int ordered, struct cs_err *err)
{
	if (counted(loc->cycles, s, c, err))
		return -1;
	cs_figures_of(c, &fr->raw);
	/* the step the tree records, else the samples' (cs_step_of()) */
	if (!fr->step)
		fr->step = recorded_step(fr) ?: cs_step_of(c);
	cs_far_of(c, &fr->raw, fr->step);
	cs_histogram_of(c, &fr->raw, fr->step, &fr->hist);
	if (!ordered && cs_ensemble_one(c, &fr->raw, fr->step, &fr->ens)) {
		cs_seterr(err, loc->cycles, 0, "out of memory");
		return -1;
	}
	return 0;
}

int cs_load_frag(const struct cs_loc *loc, struct cs_frag *fr, struct cs_err *err)
{
	struct cs_tally t = { 0 };
	struct cs_samples s = { 0 };
	struct cs_counts c = { 0 };
	enum cb_state state;
	uint64_t ens = 0, size = 0;
	struct cs_samples fl = { 0 };
	size_t *idx = NULL, *cidx = NULL, n, kept;
	char *flags = NULL;
	long long m, ck;
	int re, rs, ordered;

	memset(fr, 0, sizeof(*fr));
	fr->ops = 1;
	if (loc->info && cs_read_info(loc->info, &fr->info, err))
		return -1;
	state = cs_state(&fr->info);
	fr->stale = state == CB_STATE_ABORTED || state == CB_STATE_FAILED;
	if (state == CB_STATE_NONE || state == CB_STATE_SKIPPED ||
	    (fr->stale && !cs_info_get(&fr->info, CB_INFO_samples))) {
		/* no data: no keys after state (none), or a reason (skipped) */
		fr->nodata = cs_state_names[state];
		cs_info_free(&fr->info);
		return 1;
	}
	if (frag_keys(loc, fr, err))
		goto fail;
	re = cs_info_u64(&fr->info, loc->info, CB_INFO_ensembles, &ens, err);
	rs = cs_info_u64(&fr->info, loc->info, CB_INFO_samples, &size, err);
	if (re < 0 || rs < 0)
		goto fail;
	flags = cs_drop_mask ? beside(loc, CB_FILE_FLAGS) : NULL;
	fr->unflagged = cs_drop_mask && !flags;
	ordered = (re == 0 && rs == 0 && ens != 1) || flags;
	if (!ordered) {
		if (cs_tally_init(&t)) {
			cs_seterr(err, loc->cycles, 0, "out of memory");
			goto fail;
		}
		s.tally = &t;
	}
	if (cs_read_cycles(loc->cycles, &s, err))
		goto fail;
	if (frag_shape(loc, s.n, re == 0 && rs == 0, &ens, &size, err))
		goto fail;
	n = s.n;
	fr->measured = n;
	if (flags && read_paired(flags, n, &fl, err))
		goto fail;
	if (ordered) {
		uint64_t flagged = 0;

		m = flags ? undisturbed(&fl, flags, ens, size, fr->dropped_by, &flagged, &idx, err) : 0;
		if (m < 0)
			goto fail;
		if (m) {
			compact(&s, idx, ens * (uint64_t)m);
			fr->dropped = n - s.n;
			fr->dropped_even = fr->dropped - flagged;
			size = (uint64_t)m;
		}
		if (step_of_ordered(fr, &s) || cs_ensembles(s.v, ens, size, &fr->ens) ||
		    cs_ens_aggs(s.v, ens, size, fr->step, fr->ens.med2, fr->ens.min, fr->ens.core)) {
			cs_seterr(err, loc->cycles, 0, "out of memory");
			goto fail;
		}
	}
	if (frag_figures(loc, fr, &s, &c, ordered, err))
		goto fail;
	kept = c.n;
	cs_counts_free(&c);
	if (load_long(loc, fr, ordered, n, idx, kept, err))
		goto fail;
	if (flags && has_counters(loc, &fr->info)) {
		ck = counted_samples(&fl, flags, fr->cnt_by, &cidx, err);
		if (ck < 0 || load_counters(loc, fr, n, cidx, (size_t)ck, err))
			goto fail;
		fr->cnt_left = n - (size_t)ck;
	} else if (load_counters(loc, fr, n, idx, kept, err)) {
		goto fail;
	}
	if (cs_load_memory(loc->dir, fr, err))
		goto fail;
	cs_samples_free(&fl);
	free(flags);
	free(cidx);
	free(idx);
	return 0;
fail:
	cs_samples_free(&fl);
	free(flags);
	free(cidx);
	free(idx);
	cs_samples_free(&s);
	cs_tally_free(&t);
	cs_counts_free(&c);
	cs_frag_free(fr);
	return -1;
}

/*
 * What cs_load_frag checks, in constant memory: the file parses, is not
 * empty, and has ensembles x samples lines. 1 for a never-measured fragment.
 */
int cs_check_frag(const struct cs_loc *loc, struct cs_err *err)
{
	struct cs_samples s = { .window = 1 };
	struct cs_info info = { 0 };
	enum cb_state state;
	uint64_t ens, size, ops;
	int re, rs, ret = -1;

	if (loc->info && cs_read_info(loc->info, &info, err))
		return -1;
	state = cs_state(&info);
	if (state == CB_STATE_NONE || state == CB_STATE_SKIPPED ||
	    ((state == CB_STATE_ABORTED || state == CB_STATE_FAILED) &&
	     !cs_info_get(&info, CB_INFO_samples))) {
		ret = 1;
		goto out;
	}
	re = cs_info_u64(&info, loc->info, CB_INFO_ensembles, &ens, err);
	rs = cs_info_u64(&info, loc->info, CB_INFO_samples, &size, err);
	if (re < 0 || rs < 0 || cs_info_u64(&info, loc->info, CB_INFO_ops, &ops, err) < 0 ||
	    cs_read_cycles(loc->cycles, &s, err))
		goto out;
	s.n += s.dropped;
	if (re == 0 && rs == 0 && (!ens || !size || ens > s.n / size || ens * size != s.n)) {
		cs_seterr(err, loc->cycles, 0,
			  "%zu samples, but %s says ensembles x samples = %llu x %llu; the file is truncated or belongs to another run (read it again, or cyclestat save it once more)",
			  s.n, loc->info, (unsigned long long)ens, (unsigned long long)size);
		goto out;
	}
	/* the files paired with cycles have as many lines */
	for (size_t k = 1; k < sizeof(cs_data_files) / sizeof(cs_data_files[0]); k++) {
		char *p = beside(loc, cs_data_files[k]);
		struct cs_samples o = { .window = 1 };
		int bad;

		if (!p)
			continue;
		if (!cs_data_file_expected(&info, cs_data_files[k])) {
			free(p);	/* an empty cycles_long or counter file: no such data */
			continue;
		}
		bad = cs_read_cycles(p, &o, err);
		o.n += o.dropped;
		if (!bad && o.n != s.n) {
			cs_seterr(err, p, 0,
				  "%zu lines, but cycles has %zu; the two are paired line by line: the copy is incomplete (save it again)",
				  o.n, s.n);
			bad = 1;
		}
		cs_samples_free(&o);
		free(p);
		if (bad)
			goto out;
	}
	ret = 0;
out:
	cs_samples_free(&s);
	cs_info_free(&info);
	return ret;
}
