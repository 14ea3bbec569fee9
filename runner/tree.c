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

/* cpus=: the line "cpus: 0,1" */
static void put_cpus(FILE *f, const struct cb_run *req)
{
	fputs("cpus:", f);
	for (unsigned int t = 0; t < req->nr_cpus; t++)
		fprintf(f, "%s%u", t ? "," : " ", req->cpu_of[t]);
	fputc('\n', f);
}

static int write_top_info(const char *dir, const struct cb_run *req, const struct cb_machine *m)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/info", dir) < 0)
		return -1;
	f = fopen(path, "we");
	free(path);
	if (!f)
		return -1;
	fprintf(f, "version: %s\n", CB_VERSION);
	fprintf(f, "kernel: %s\n", m->kernel);
	fprintf(f, "vendor: %s\n", m->vendor);
	fprintf(f, "family: %u\n", m->family);
	fprintf(f, "model: %u\n", m->model);
	fprintf(f, "stepping: %u\n", m->stepping);
	fprintf(f, "model_name: %s\n", m->model_name);
	fprintf(f, "tsc_khz: %u\n", m->tsc_khz);
	if (m->tsc_khz_calibrated)
		fprintf(f, "tsc_khz_source: calibrated\n");
	fprintf(f, "constant_tsc: %s\n", yes(m->constant_tsc));
	fprintf(f, "nonstop_tsc: %s\n", yes(m->nonstop_tsc));
	fprintf(f, "rdtscp: %s\n", yes(m->rdtscp));
	fprintf(f, "hypervisor: %s\n", yes(m->hypervisor));
	fprintf(f, "hypervisor_vendor: %s\n", m->hypervisor_vendor);
	fprintf(f, "smt_active: %s\n", yes(m->smt_active));
	fprintf(f, "method_requested: %s\n", cb_method_name(req->method_requested));
	fprintf(f, "method_used: %s\n", cb_method_name(req->method));
	fprintf(f, "samples: %u\n", req->samples);
	fprintf(f, "ensembles: %u\n", req->ensembles);
	fprintf(f, "warmup: %u\n", req->warmup);
	fprintf(f, "cpu: %u\n", req->cpu);
	if (req->nr_cpus > 1)
		put_cpus(f, req);
	fprintf(f, "max_mb: %u\n", req->max_mb);
	if (req->long_repeat)
		fprintf(f, "long_repeat: %u\n", req->long_repeat);
	else
		fprintf(f, "long_repeat: auto\n");
	fprintf(f, "tsc_step: %u\n", m->tsc_step);
	fprintf(f, "interleave: %s\n", yes(req->interleave));
	fprintf(f, "mode: user\n");
	fprintf(f, "interrupts: on\n");
	return close_checked(f);
}

static void put_name(FILE *f, const struct cb_user_result *r)
{
	fprintf(f, "%s:%s", r->group->name, r->frag->name);
	if (r->frag->nr_args)
		fprintf(f, "/%llu", (unsigned long long)r->arg);
}

static int write_fragments(const char *dir, const struct cb_run *req)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/fragments", dir) < 0)
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
			const struct cb_machine *m, const struct cb_user_result *r)
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
	if (mkdir_p(rdir) || asprintf(&path, "%s/info", rdir) < 0)
		goto out;
	f = fopen(path, "we");
	free(path);
	if (!f)
		goto out;
	fputs("name: ", f);
	put_name(f, r);
	fprintf(f, "\ndescription: %s\n", r->frag->desc);
	if (r->frag->nr_args)
		fprintf(f, "arg: %llu\n", (unsigned long long)r->arg);
	fprintf(f, "ops: %u\n", r->ops);
	fprintf(f, "slow: %s\n", yes(r->frag->slow));
	fprintf(f, "setup: %s\n", setup_name(r->frag));
	if (r->page_size)
		fprintf(f, "page_size: %llu\nhuge_pages: %s\n",
			(unsigned long long)r->page_size, r->huge_pages);
	fprintf(f, "state: %s\n", states[r->state]);
	if (r->state == CB_R_FAILED)
		fprintf(f, "error: %d\n", r->err);
	if (r->state == CB_R_OK) {
		fprintf(f, "run_id: 1\n");
		fprintf(f, "ensembles: %u\n", req->ensembles);
		fprintf(f, "samples: %u\n", req->samples);
		fprintf(f, "warmup: %u\n", req->warmup);
		fprintf(f, "method: %s\n", cb_method_name(req->method));
		fprintf(f, "cpu: %u\n", req->cpu);
		if (r->pc_cycles) {
			put_cpus(f, req);
			fprintf(f, "barrier: sample\n");
			fprintf(f, "start_spread: %llu\n", (unsigned long long)r->spread);
			fprintf(f, "samples_in_step: %llu\n", (unsigned long long)r->in_step);
			fprintf(f, "state_per_cpu: %s\n", yes(r->frag->per_cpu));
		}
		fprintf(f, "tsc_khz: %u\n", m->tsc_khz);
		fprintf(f, "tsc_step: %u\n", m->tsc_step);
		fprintf(f, "interleave: %s\n", yes(req->interleave));
		if (r->cycles_long)
			fprintf(f, "long_repeat: %u\n", r->repeat);
	}
	if (close_checked(f))
		goto out;
	if (r->state != CB_R_OK) {
		ret = 0;
		goto out;
	}
	if (write_array(rdir, "cycles", r->cycles, n) ||
	    (r->cycles_long && write_array(rdir, "cycles_long", r->cycles_long, n)))
		goto out;
	/* cpus=: each CPU's own, cpuN/ (the first CPU's are also the above) */
	for (unsigned int t = 0; r->pc_cycles && t < req->nr_cpus; t++) {
		char *c;
		int bad;

		if (asprintf(&c, "%s/cpu%u", rdir, req->cpu_of[t]) < 0)
			goto out;
		bad = mkdir_p(c) || write_array(c, "cycles", r->pc_cycles[t], n) ||
		      (r->pc_cycles_long && write_array(c, "cycles_long", r->pc_cycles_long[t], n));
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

	if (asprintf(&p, "%s/info", dir) < 0)
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
	if (!write_top_info(tmp, req, m) && asprintf(&path, "%s/info", tmp) >= 0)
		f = fopen(path, "ae");
	free(path);
	if (f) {
		fputs("sweep: cpus\nsteps:", f);
		for (unsigned int s = 0; s < nsteps; s++)
			fprintf(f, "%s%u", s ? "," : " ", steps[s]);
		fputc('\n', f);
	}
	return end_tree(tmp, req->out, f && !close_checked(f), 1);
}
