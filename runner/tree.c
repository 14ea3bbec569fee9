// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - the results, laid out as the module's debugfs tree
 * (docs/debugfs-contract.md), so that cyclestat reads, saves and compares
 * them unchanged: DIR/info, DIR/fragments, DIR/<group>/<name>[/ARG]/{cycles,
 * cycles_long,info}.  Written into DIR.new-PID and renamed over DIR at the
 * end: a reader never sees half a run, and a failed write leaves the
 * previous results.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

/*
 * The info keys' emitters, one per key of contract.h's CB_INFO_KEYS:
 * put_info_KEY(f, value) writes "KEY: value" in the form the table gives (a
 * CB_T_LIST key's "KEY:" only: the caller writes the rest of the line).
 * This program writes through PUT(f, TREE or RESULT, KEY, value), which
 * also checks that the table gives cyclebench-user that key there.
 */
#define PUT_FN(k, t, tree, result) PUT_##t(k)
#define PUT_ONE(k, type, fmt, ...)					\
	static inline void put_info_##k(FILE *f, type v)			\
	{								\
		fprintf(f, #k ": " fmt "\n", __VA_ARGS__);		\
	}
#define PUT_U32(k)	PUT_ONE(k, unsigned int, "%u", v)
#define PUT_U64(k)	PUT_ONE(k, unsigned long long, "%llu", v)
#define PUT_INT(k)	PUT_ONE(k, int, "%d", v)
#define PUT_YESNO(k)	PUT_ONE(k, int, "%s", yes(v))
#define PUT_WORD(k)	PUT_ONE(k, const char *, "%s", v)
#define PUT_TEXT(k)	PUT_ONE(k, const char *, "%s", v)
/* 0: auto, each result its own */
#define PUT_REPEAT(k)							\
	static inline void put_info_##k(FILE *f, unsigned int v)		\
	{								\
		if (v)							\
			fprintf(f, #k ": %u\n", v);			\
		else							\
			fputs(#k ": auto\n", f);			\
	}
#define PUT_LIST(k)							\
	static inline void put_info_##k(FILE *f)				\
	{								\
		fputs(#k ":", f);					\
	}
CB_INFO_KEYS(PUT_FN)

#define PUT(f, scope, k, ...)						\
	do {								\
		CB_INFO_MINE(CB_SIDE_RUNNER, scope, k);			\
		put_info_##k(f, ##__VA_ARGS__);				\
	} while (0)

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int rm_rf(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdir_p(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdir(path, 0755) && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

/* fclose() that also reports a write error seen earlier */
static int close_checked(FILE *f)
{
	int bad = ferror(f);

	return fclose(f) || bad ? -1 : 0;
}

/* cpus=: the rest of the line "cpus: 0,1" */
static void put_cpu_list(FILE *f, const struct cb_run *req)
{
	for (unsigned int t = 0; t < req->nr_cpus; t++)
		fprintf(f, "%s%u", t ? "," : " ", req->cpu_of[t]);
	fputc('\n', f);
}

static int write_top_info(const char *dir, const struct cb_run *req, const struct cb_machine *m)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/" CB_FILE_INFO, dir) < 0)
		return -1;
	f = fopen(path, "we");
	free(path);
	if (!f)
		return -1;
	PUT(f, TREE, version, CB_VERSION);
	PUT(f, TREE, kernel, m->kernel);
	PUT(f, TREE, vendor, m->vendor);
	PUT(f, TREE, family, m->family);
	PUT(f, TREE, model, m->model);
	PUT(f, TREE, stepping, m->stepping);
	PUT(f, TREE, model_name, m->model_name);
	PUT(f, TREE, tsc_khz, m->tsc_khz);
	if (m->tsc_khz_calibrated)
		PUT(f, TREE, tsc_khz_source, "calibrated");
	PUT(f, TREE, constant_tsc, m->constant_tsc);
	PUT(f, TREE, nonstop_tsc, m->nonstop_tsc);
	PUT(f, TREE, rdtscp, m->rdtscp);
	PUT(f, TREE, hypervisor, m->hypervisor);
	PUT(f, TREE, hypervisor_vendor, m->hypervisor_vendor);
	PUT(f, TREE, smt_active, m->smt_active);
	PUT(f, TREE, method_requested, cb_method_name(req->method_requested));
	PUT(f, TREE, method_used, cb_method_name(req->method));
	PUT(f, TREE, samples, req->samples);
	PUT(f, TREE, ensembles, req->ensembles);
	PUT(f, TREE, warmup, req->warmup);
	PUT(f, TREE, cpu, req->cpu);
	if (req->nr_cpus > 1) {
		PUT(f, TREE, cpus);
		put_cpu_list(f, req);
	}
	PUT(f, TREE, max_mb, req->max_mb);
	PUT(f, TREE, long_repeat, req->long_repeat);
	PUT(f, TREE, tsc_step, m->tsc_step);
	PUT(f, TREE, interleave, req->interleave);
	PUT(f, TREE, mode, "user");
	PUT(f, TREE, interrupts, "on");
	return close_checked(f);
}

static void put_name(FILE *f, const struct cb_result *r)
{
	fprintf(f, "%s:%s", r->group->name, r->frag->name);
	if (r->frag->nr_args)
		fprintf(f, "/%llu", (unsigned long long)r->arg);
}

static int write_fragments(const char *dir, const struct cb_run *req)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/" CB_FILE_FRAGMENTS, dir) < 0)
		return -1;
	f = fopen(path, "we");
	free(path);
	if (!f)
		return -1;
	for (unsigned int i = 0; i < req->nr; i++) {
		put_name(f, &req->res[i]);
		fprintf(f, " %u %s\n", req->res[i].ops, req->res[i].frag->desc);
	}
	return close_checked(f);
}

static int write_array(const char *rdir, const char *file, const u64 *v, u64 n)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/%s", rdir, file) < 0)
		return -1;
	f = fopen(path, "we");
	free(path);
	if (!f)
		return -1;
	for (u64 i = 0; i < n; i++)
		fprintf(f, "%llu\n", (unsigned long long)v[i]);
	return close_checked(f);
}

static const char *setup_name(const struct cb_fragment *frag)
{
	if (!frag->setup)
		return CB_SETUP_NONE;
	return frag->setup_each_ensemble ? CB_SETUP_ENSEMBLE : CB_SETUP_RUN;
}

static int write_result(const char *dir, const struct cb_run *req,
			const struct cb_machine *m, const struct cb_result *r)
{
	static const char *const states[] = {
		[CB_R_NONE] = "none", [CB_R_OK] = "ok",
		[CB_R_FAILED] = "failed", [CB_R_SKIPPED] = "skipped",
	};
	u64 n = (u64)req->samples * req->ensembles;
	char *rdir, *path;
	FILE *f;
	int ret = -1;

	if (asprintf(&rdir, "%s/%s/%s", dir, r->group->name, r->frag->name) < 0)
		return -1;
	if (r->frag->nr_args) {
		char *a;

		if (asprintf(&a, "%s/%llu", rdir, (unsigned long long)r->arg) < 0)
			goto out;
		free(rdir);
		rdir = a;
	}
	if (mkdir_p(rdir) || asprintf(&path, "%s/" CB_FILE_INFO, rdir) < 0)
		goto out;
	f = fopen(path, "we");
	free(path);
	if (!f)
		goto out;
	PUT(f, RESULT, name);
	fputc(' ', f);
	put_name(f, r);
	fputc('\n', f);
	PUT(f, RESULT, description, r->frag->desc);
	if (r->frag->nr_args)
		PUT(f, RESULT, arg, (unsigned long long)r->arg);
	PUT(f, RESULT, ops, r->ops);
	PUT(f, RESULT, unit, r->frag->unit ? r->frag->unit : CB_UNIT_DEFAULT);
	PUT(f, RESULT, slow, r->frag->slow);
	PUT(f, RESULT, setup, setup_name(r->frag));
	if (r->page_size) {
		PUT(f, RESULT, page_size, (unsigned long long)r->page_size);
		PUT(f, RESULT, huge_pages, r->huge_pages);
	}
	PUT(f, RESULT, state, states[r->state]);
	if (r->state == CB_R_FAILED)
		PUT(f, RESULT, error, r->err);
	if (r->state == CB_R_OK) {
		PUT(f, RESULT, run_id, 1);
		PUT(f, RESULT, ensembles, req->ensembles);
		PUT(f, RESULT, samples, req->samples);
		PUT(f, RESULT, warmup, req->warmup);
		PUT(f, RESULT, method, cb_method_name(req->method));
		PUT(f, RESULT, cpu, req->cpu);
		if (r->pc_cycles) {
			PUT(f, RESULT, cpus);
			put_cpu_list(f, req);
			PUT(f, RESULT, barrier, "sample");
			PUT(f, RESULT, start_spread, (unsigned long long)r->spread);
			PUT(f, RESULT, samples_in_step, (unsigned long long)r->in_step);
			PUT(f, RESULT, state_per_cpu, r->frag->per_cpu);
		}
		PUT(f, RESULT, tsc_khz, m->tsc_khz);
		PUT(f, RESULT, tsc_step, m->tsc_step);
		PUT(f, RESULT, interleave, req->interleave);
		if (r->cycles_long)
			PUT(f, RESULT, long_repeat, r->repeat);
	}
	if (close_checked(f))
		goto out;
	if (r->state != CB_R_OK) {
		ret = 0;
		goto out;
	}
	if (write_array(rdir, CB_FILE_CYCLES, r->cycles, n) ||
	    (r->cycles_long && write_array(rdir, CB_FILE_CYCLES_LONG, r->cycles_long, n)))
		goto out;
	/* cpus=: each CPU's own, cpuN/ (the first CPU's are also the above) */
	for (unsigned int t = 0; r->pc_cycles && t < req->nr_cpus; t++) {
		char *c;
		int bad;

		if (asprintf(&c, "%s/" CB_FILE_CPU_DIR, rdir, req->cpu_of[t]) < 0)
			goto out;
		bad = mkdir_p(c) || write_array(c, CB_FILE_CYCLES, r->pc_cycles[t], n) ||
		      (r->pc_cycles_long &&
		       write_array(c, CB_FILE_CYCLES_LONG, r->pc_cycles_long[t], n));
		free(c);
		if (bad)
			goto out;
	}
	ret = 0;
out:
	free(rdir);
	return ret;
}

/* Does dir look like a tree this program (or cyclestat save) wrote? */
int cb_is_tree(const char *dir)
{
	char *p;
	int ok;

	if (asprintf(&p, "%s/" CB_FILE_INFO, dir) < 0)
		return 0;
	ok = !access(p, F_OK);
	free(p);
	return ok;
}

/*
 * A tree is written beside @out (@out.new-PID) and put in its place when
 * whole, so that a reader never sees half of one: 0 with *tmp made, or -1
 * said.  @out must be a tree already (replaced), empty or absent.
 */
static int begin_tree(const char *out, char **tmp)
{
	struct stat st;

	*tmp = NULL;
	if (!stat(out, &st) && (!S_ISDIR(st.st_mode) ||
	    (!cb_is_tree(out) && rmdir(out) && errno != ENOENT))) {
		fprintf(stderr, "cyclebench-user: %s exists and is not a results tree; name another with -o DIR, or remove it\n",
			out);
		return -1;
	}
	if (asprintf(tmp, "%s.new-%d", out, (int)getpid()) < 0) {
		*tmp = NULL;
		return -1;
	}
	if (mkdir_p(*tmp)) {
		fprintf(stderr, "cyclebench-user: cannot create %s: %s\n", *tmp, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return 0;
}

/*
 * @tmp in @out's place (the old tree removed): 0.  Else @tmp is removed
 * and -1 returned, said where writing failed (@ok is 0 and errno says why
 * where @say is set; a run that stopped said why itself).
 */
static int end_tree(char *tmp, const char *out, int ok, int say)
{
	char *old = NULL;
	struct stat st;
	int ret = -1;

	if (!ok && !say) {
		rm_rf(tmp);
		free(tmp);
		return -1;
	}
	if (!ok || asprintf(&old, "%s.old-%d", out, (int)getpid()) < 0) {
		old = NULL;
		goto fail;
	}
	if (!stat(out, &st) && rename(out, old))
		goto fail;
	if (rename(tmp, out)) {
		rename(old, out);
		goto fail;
	}
	rm_rf(old);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "cyclebench-user: writing %s: %s\n", out, strerror(errno));
	rm_rf(tmp);
out:
	free(tmp);
	free(old);
	return ret;
}

int cb_write_tree(const struct cb_run *req, const struct cb_machine *m)
{
	char *tmp;
	int ok;

	if (begin_tree(req->out, &tmp))
		return -1;
	ok = !write_top_info(tmp, req, m) && !write_fragments(tmp, req);
	for (unsigned int i = 0; ok && i < req->nr; i++)
		ok = !write_result(tmp, req, m, &req->res[i]);
	return end_tree(tmp, req->out, ok, 1);
}

int cb_sweep_begin(const char *out, char **tmp)
{
	return begin_tree(out, tmp);
}

/*
 * sweep=cpus: @tmp holds a tree per step (k1/, k2/ ...); its info is the
 * run's (cpus: all of them) with the sweep and its steps, and no fragments
 * file: a reader that knows no sweep finds no results there.
 */
int cb_sweep_end(char *tmp, const struct cb_run *req, const struct cb_machine *m,
		 const unsigned int *steps, unsigned int nsteps, int ok)
{
	char *path = NULL;
	FILE *f = NULL;

	if (!ok)
		return end_tree(tmp, req->out, 0, 0);
	if (!write_top_info(tmp, req, m) && asprintf(&path, "%s/" CB_FILE_INFO, tmp) >= 0)
		f = fopen(path, "ae");
	free(path);
	if (f) {
		PUT(f, TREE, sweep, "cpus");
		PUT(f, TREE, steps);
		for (unsigned int s = 0; s < nsteps; s++)
			fprintf(f, "%s%u", s ? "," : " ", steps[s]);
		fputc('\n', f);
	}
	return end_tree(tmp, req->out, f && !close_checked(f), 1);
}
