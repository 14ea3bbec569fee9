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

static __printf(2, 0) void file_vprintf(void *to, const char *fmt, va_list ap)
{
	vfprintf(to, fmt, ap);
}

/* lib/info.c's lines into @f */
struct cb_sink cb_sink_of(FILE *f)
{
	return (struct cb_sink){ .vprintf = file_vprintf, .to = f };
}

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

/*
 * The top-level info; a sweep=cpus run's (@steps, @nsteps) also names the
 * sweep and its steps.
 */
static int write_top_info(const char *dir, const struct cb_run *req, const struct cb_machine *m,
			  const unsigned int *steps, unsigned int nsteps)
{
	struct cb_sink sink;
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/" CB_FILE_INFO, dir) < 0)
		return -1;
	f = fopen(path, "we");
	free(path);
	if (!f)
		return -1;
	sink = cb_sink_of(f);
	cb_info_tree(&sink, &(struct cb_tree_info){
		.mode = "user", .interrupts = "on", .kernel = m->kernel, .vendor = m->vendor,
		.family = m->family, .model = m->model, .stepping = m->stepping,
		.model_name = m->model_name, .tsc_khz = m->tsc_khz,
		.tsc_khz_source = m->tsc_khz_calibrated ? "calibrated" : NULL,
		.tsc_step = m->tsc_step, .constant_tsc = m->constant_tsc,
		.nonstop_tsc = m->nonstop_tsc, .rdtscp = m->rdtscp, .hypervisor = m->hypervisor,
		.hypervisor_vendor = m->hypervisor_vendor, .smt_active = m->smt_active,
		.method_requested = cb_method_name(req->method_requested),
		.method_used = cb_method_name(req->method), .samples = req->samples,
		.ensembles = req->ensembles, .warmup = req->warmup, .cpu = req->cpu,
		.nr_cpus = req->nr_cpus, .cpus = req->cpu_of, .max_mb = req->max_mb,
		.long_repeat = req->long_repeat, .interleave = req->interleave,
		.has_interleave = true, .nr_steps = nsteps, .steps = steps,
	});
	return close_checked(f);
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
		const struct cb_user_result *r = &req->res[i];
		struct cb_sink s = cb_sink_of(f);

		cb_info_catalog_line(&s, r->group, r->frag, r->frag->nr_args, r->arg, r->ops);
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

static int write_result(const char *dir, const struct cb_run *req,
			const struct cb_machine *m, const struct cb_user_result *r)
{
	u64 n = (u64)req->samples * req->ensembles;
	struct cb_sink sink;
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
	sink = cb_sink_of(f);
	cb_info_result(&sink, &(struct cb_result_info){
		.group = r->group, .frag = r->frag, .has_arg = r->frag->nr_args, .arg = r->arg,
		.ops = r->ops, .page_size = r->page_size, .huge_pages = r->huge_pages,
		.state = r->state, .err = r->err, .measured = r->state == CB_STATE_OK,
		.run_id = 1, .ensembles = req->ensembles, .samples = req->samples,
		.warmup = req->warmup, .method = cb_method_name(req->method), .cpu = req->cpu,
		.nr_cpus = r->pc_cycles ? req->nr_cpus : 1, .cpus = req->cpu_of,
		.spread = r->spread, .in_step = r->in_step, .interleave = req->interleave,
		.tsc_khz = m->tsc_khz, .tsc_step = m->tsc_step,
		.long_repeat = r->cycles_long ? r->repeat : 0,
	});
	if (close_checked(f))
		goto out;
	if (r->state != CB_STATE_OK) {
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
	ok = !write_top_info(tmp, req, m, NULL, 0) && !write_fragments(tmp, req);
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
	if (!ok)
		return end_tree(tmp, req->out, 0, 0);
	return end_tree(tmp, req->out, !write_top_info(tmp, req, m, steps, nsteps), 1);
}
