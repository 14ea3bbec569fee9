// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - a located fragment read, checked and reduced to its figures:
 * raw figures, Paoloni's ensemble metrics, the two-length per-op cost, the
 * optional PMU counters; and whole inputs (a tree, a file, stdin).
 *
 * Calls tree.c, numparse.c, stats.c and infer.c.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cyclestat.h"

/* ---- loading: read, validate, reduce to figures ---- */

void cs_frag_free(struct cs_frag *fr)
{
	free(fr->name);
	free(fr->path);
	cs_info_free(&fr->info);
	cs_ens_free(&fr->ens);
}

/*
 * Returns 0 with fr filled (and the sorted samples in *keep when keep is
 * not NULL), 1 when the fragment was never measured (info "state: none"),
 * -1 on error.
 */
int cs_load_frag(const struct cs_loc *loc, struct cs_frag *fr,
		 struct cs_samples *keep, struct cs_err *err)
{
	struct cs_samples s = { 0 };
	const char *state, *name;
	uint64_t ens = 0, size = 0;
	int re, rs, rb, ra;

	memset(fr, 0, sizeof(*fr));
	fr->ops = 1;
	if (loc->info && cs_read_info(loc->info, &fr->info, err))
		return -1;
	state = cs_info_get(&fr->info, "state");
	if (state && !strcmp(state, "none")) {
		cs_info_free(&fr->info);
		return 1;
	}
	fr->stale = state && !strcmp(state, "aborted");
	/* aborted with no earlier complete run: no keys, no data, like none */
	if (fr->stale && !cs_info_get(&fr->info, "samples")) {
		cs_info_free(&fr->info);
		return 1;
	}
	name = cs_info_get(&fr->info, "name");
	fr->name = strdup(name ? name : loc->name);
	fr->path = strdup(strcmp(loc->cycles, "-") ? loc->cycles : "<stdin>");
	if (!fr->name || !fr->path) {
		cs_seterr(err, loc->cycles, 0, "out of memory");
		goto fail;
	}
	if (cs_info_u64(&fr->info, loc->info, "ops", &fr->ops, err) < 0)
		goto fail;
	if (!fr->ops) {
		cs_seterr(err, loc->info, 0, "'ops: 0'; ops counts operations per sample, at least 1");
		goto fail;
	}
	rb = cs_info_u64(&fr->info, loc->info, "smi_before", &fr->smi_before, err);
	ra = cs_info_u64(&fr->info, loc->info, "smi_after", &fr->smi_after, err);
	if (rb < 0 || ra < 0)
		goto fail;
	fr->smi = !rb && !ra && fr->smi_after != fr->smi_before;
	re = cs_info_u64(&fr->info, loc->info, "ensembles", &ens, err);
	rs = cs_info_u64(&fr->info, loc->info, "samples", &size, err);
	if (re < 0 || rs < 0)
		goto fail;
	if (cs_read_cycles(loc->cycles, &s, err))
		goto fail;
	if (re == 0 && rs == 0) {
		if (!ens || !size || ens > s.n / size || ens * size != s.n) {
			cs_seterr(err, loc->cycles, 0,
				  "%zu samples, but %s says ensembles x samples = %llu x %llu; the file is truncated or belongs to another run (read it again, or cyclestat save it once more)",
				  s.n, loc->info, (unsigned long long)ens, (unsigned long long)size);
			goto fail;
		}
	} else {
		ens = 1;
		size = s.n;
	}
	if (cs_ensembles(s.v, ens, size, &fr->ens)) {
		cs_seterr(err, loc->cycles, 0, "out of memory");
		goto fail;
	}
	cs_figures(s.v, s.n, &fr->raw);
	cs_histogram(s.v, s.n, &fr->raw, &fr->hist);
	if (keep)
		*keep = s;
	else
		cs_samples_free(&s);
	return 0;
fail:
	cs_samples_free(&s);
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
	const char *state;
	uint64_t ens, size, ops;
	int re, rs, ret = -1;

	if (loc->info && cs_read_info(loc->info, &info, err))
		return -1;
	state = cs_info_get(&info, "state");
	if (state && (!strcmp(state, "none") ||
		      (!strcmp(state, "aborted") && !cs_info_get(&info, "samples")))) {
		ret = 1;
		goto out;
	}
	re = cs_info_u64(&info, loc->info, "ensembles", &ens, err);
	rs = cs_info_u64(&info, loc->info, "samples", &size, err);
	if (re < 0 || rs < 0 || cs_info_u64(&info, loc->info, "ops", &ops, err) < 0 ||
	    cs_read_cycles(loc->cycles, &s, err))
		goto out;
	s.n += s.dropped;
	if (re == 0 && rs == 0 && (!ens || !size || ens > s.n / size || ens * size != s.n)) {
		cs_seterr(err, loc->cycles, 0,
			  "%zu samples, but %s says ensembles x samples = %llu x %llu; the file is truncated or belongs to another run (read it again, or cyclestat save it once more)",
			  s.n, loc->info, (unsigned long long)ens, (unsigned long long)size);
		goto out;
	}
	ret = 0;
out:
	cs_samples_free(&s);
	cs_info_free(&info);
	return ret;
}

void cs_input_free(struct cs_input *in)
{
	for (size_t i = 0; i < in->nfrag; i++)
		cs_frag_free(&in->frag[i]);
	free(in->frag);
	free(in->path);
	cs_info_free(&in->info);
	memset(in, 0, sizeof(*in));
}

int cs_load_input(const char *path, struct cs_input *in,
		  struct cs_err *err)
{
	struct cs_loc *loc;
	size_t n;

	memset(in, 0, sizeof(*in));
	if (cs_locate(path, &loc, &n, &in->info, err))
		return -1;
	in->path = strdup(path);
	in->frag = calloc(n, sizeof(*in->frag));
	if (!in->path || !in->frag) {
		cs_seterr(err, path, 0, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		struct cs_frag *fr = &in->frag[in->nfrag];
		int r = cs_load_frag(&loc[i], fr, NULL, err);

		if (r < 0)
			goto fail;
		if (r > 0)
			continue;
		in->nfrag++;
		if (!strcmp(fr->name, "base:empty")) {
			in->has_overhead = 1;
			in->overhead = fr->raw.median;
		}
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

