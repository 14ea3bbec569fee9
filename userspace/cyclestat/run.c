// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - cyclestat run: write a request to the module's run file (passed
 * through as written, checked only for its keys: include/cyclebench/contract.h), show
 * the progress, name what failed, and summarise what was measured.
 *
 * Calls tree.c, fragment.c and output.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "read.h"
#include "report.h"
#include "commands.h"

/* a malformed request: the message and where to read more; exit status 2 */
static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage(const char *fmt, ...)
{
	va_list ap;

	fputs("cyclestat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see cyclestat --help)\n", stderr);
	return 2;
}


/* the run keys, the module's among them (include/cyclebench/contract.h) */
static const struct cb_key_def run_keys[CB_NR_KEYS] = CB_KEY_DEFS;

/*
 * The references every run measures beside its selection (contract.h's,
 * what the runner's references=1 adds too), from the same run.
 * references=0, cyclestat's own key, leaves them out.
 */
static const char references[] = CB_REFERENCES;

/* cyclestat's own key, never written to the run file */
static int is_references(const char *arg)
{
	return !strncmp(arg, "references=", strlen("references="));
}

/* Checks the words of a run request; *refs: what references= says (1 if absent). */
static int check_request(int argc, char **argv, int *refs)
{
	*refs = 1;
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t k;

		if (!eq) {
			if (i == 0 && !strpbrk(argv[i], " \t\n"))
				continue;
			return usage("run: '%s': the selection comes first, then key=value overrides", argv[i]);
		}
		if (is_references(argv[i])) {
			if (strcmp(eq + 1, "0") && strcmp(eq + 1, "1"))
				return usage("run: references=%s: 0 or 1 (1: also measure %s, the default)",
					     eq + 1, references);
			*refs = eq[1] == '1';
			continue;
		}
		for (k = 0; k < CB_NR_KEYS; k++)
			if ((run_keys[k].sides & CB_SIDE_MODULE) &&
			    !strncmp(argv[i], run_keys[k].name, (size_t)(eq - argv[i])) &&
			    strlen(run_keys[k].name) == (size_t)(eq - argv[i]))
				break;
		if (k == CB_NR_KEYS) {
			char keys[160];
			size_t n = 0;

			for (k = 0; k < CB_NR_KEYS; k++)
				if (run_keys[k].sides & CB_SIDE_MODULE)
					n += (size_t)snprintf(keys + n, sizeof(keys) - n, "%s ",
							      run_keys[k].name);
			return usage("run: unknown key in '%s' (keys: %sreferences)", argv[i], keys);
		}
		if (!eq[1] || strpbrk(eq + 1, " \t\n"))
			return usage("run: '%s' has no value", argv[i]);
	}
	return 0;
}

/*
 * The fragments whose body broke the rules in the run that just stopped
 * (state failed, error -EPROTO: the module's cb_sample_broken()), named.
 */
static void name_broken(const char *tree)
{
	struct cs_info ti = { 0 };
	struct cs_err err = { 0 };
	struct cs_loc *l;
	size_t n;

	if (cs_locate(tree, &l, &n, &ti, &err))
		return;
	for (size_t i = 0; i < n; i++) {
		struct cs_info fi = { 0 };
		const char *er;
		char want[16];

		if (!l[i].info || cs_read_info(l[i].info, &fi, &err))
			continue;
		er = cs_info_get(&fi, CB_INFO_error);
		snprintf(want, sizeof(want), "%d", -EPROTO);
		if (cs_state(&fi) == CB_STATE_FAILED && er && !strcmp(er, want))
			fprintf(stderr, "cyclestat: fragment %s slept, turned interrupts on or left preemption disabled in a sample: a body must not (no msleep, mutex or GFP_KERNEL); dmesg says which, and the kernel's report names the call\n",
				l[i].name);
		cs_info_free(&fi);
	}
	cs_locs_free(l, n);
	cs_info_free(&ti);
}

static void run_error(const char *tree, const char *req, int e)
{
	switch (e) {
	case EPROTO:
		name_broken(tree);
		fprintf(stderr, "cyclestat: %s/run: the run stopped: a body broke the rules of a fragment (docs/debugfs-contract.md); the previous results stay\n",
			tree);
		break;
	case EINVAL:
		fprintf(stderr, "cyclestat: %s/run: the module rejected '%s' (unknown fragment or key, or a bad value); the fragments are listed in %s/fragments\n",
			tree, req, tree);
		break;
	case EBUSY:
		fprintf(stderr, "cyclestat: %s/run: a run is already going (see %s/status); wait for it to finish\n",
			tree, tree);
		break;
	case E2BIG:
		fprintf(stderr, "cyclestat: %s/run: '%s' needs more memory than the module's max_mb; lower samples or ensembles, or reload with a larger max_mb=\n",
			tree, req);
		break;
	case ENOMEM:
		fprintf(stderr, "cyclestat: %s/run: the kernel could not allocate the run; lower samples or ensembles\n", tree);
		break;
	case EINTR:
		fprintf(stderr, "cyclestat: %s/run: interrupted; the previous results are still there\n", tree);
		break;
	case EACCES:
	case EPERM:
		fprintf(stderr, "cyclestat: %s/run: %s; debugfs is root-only: run as root (sudo cyclestat run ...)\n",
			tree, strerror(e));
		break;
	default:
		fprintf(stderr, "cyclestat: %s/run: %s\n", tree, strerror(e));
	}
}

static char *read_status(const char *tree)
{
	char *p, *buf = NULL;
	size_t len;
	struct cs_err e;

	if (asprintf(&p, "%s/status", tree) < 0)
		return NULL;
	if (cs_read_file(p, &buf, &len, 4096, &e))
		buf = NULL;
	else
		buf[strcspn(buf, "\n")] = 0;
	free(p);
	return buf;
}

static void progress(const char *st)
{
	unsigned long long done, total;
	char name[128];
	int fill;

	if (!st || sscanf(st, "running %127s %llu/%llu", name, &done, &total) != 3 || !total)
		return;
	fill = (int)(done * 30 / total);
	fprintf(stderr, "\r[%.*s%*s] %3llu%% %-40.40s", fill, "##############################",
		30 - fill, "", done * 100 / total, name);
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * Does fragment NAME belong to selection SEL (all, group, group:name,
 * lists)? As the module reads it, 'all' leaves out fragments marked slow.
 */
static int selected(const char *sel, const char *name, int slow)
{
	const char *colon = strchr(name, ':');
	size_t glen = colon ? (size_t)(colon - name) : strlen(name);

	for (const char *c = sel; *c;) {
		size_t len = strcspn(c, ",");

		if ((len == 3 && !strncmp(c, "all", 3) && !slow) ||
		    (len == glen && !strncmp(c, name, glen)) ||
		    (len == strlen(name) && !strncmp(c, name, len)))
			return 1;
		c += len;
		if (*c)
			c++;
	}
	return 0;
}

/* the line written to the run file: the selection, the references asked for, the keys */
static char *build_request(const char *sel, int refs, int argc, char **argv)
{
	size_t len = strlen("all") + (refs ? strlen(references) + 1 : 0);
	char *req;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	req = malloc(len + 2);
	if (!req)
		return NULL;
	strcpy(req, sel);
	if (refs)
		strcat(strcat(req, ","), references);
	for (int i = argc && !strchr(argv[0], '='); i < argc; i++) {
		if (!is_references(argv[i]))
			strcat(strcat(req, " "), argv[i]);
	}
	return req;
}

/* no tree at all: what cs_locate() says of it */
static void no_tree(const char *tree)
{
	struct cs_err err = { 0 };
	struct cs_info ti = { 0 };
	struct cs_loc *l;
	size_t n;

	if (!cs_locate(tree, &l, &n, &ti, &err)) {
		cs_locs_free(l, n);
		cs_info_free(&ti);
	}
	cs_perror(&err);
}

/*
 * @req written to @path by a child, as the write blocks until the run
 * ends; the parent shows the progress (*shown set when it did).  The
 * write's errno (0: the run went through), or -1 where there is no child.
 */
static int write_request(const struct cs_opts *o, const char *path, char *req, int *shown)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("cyclestat: fork");
		return -1;
	}
	if (pid == 0) {
		/* the write blocks until the run ends: do it here, watch from the parent */
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		size_t l = strlen(req);

		req[l] = '\n';
		if (fd < 0)
			_exit(errno & 0xff);
		if (write(fd, req, l + 1) != (ssize_t)(l + 1))
			_exit(errno ? errno & 0xff : EIO);
		_exit(close(fd) ? errno & 0xff : 0);
	}
	while (waitpid(pid, &status, o->tty && !o->quiet ? WNOHANG : 0) == 0) {
		char *st = read_status(o->tree);

		if (st && !strncmp(st, "running", 7)) {
			progress(st);
			*shown = 1;
		}
		free(st);
		nap(100);
	}
	if (*shown)
		fprintf(stderr, "\r%80s\r", "");
	return WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
}

/* the module is idle when the write returns; a stand-in may lag */
static void wait_idle(const struct cs_opts *o, int shown)
{
	for (int i = 0; i < 600; i++) {
		char *st = read_status(o->tree);
		int idle = !st || strncmp(st, "running", 7);

		if (!idle && o->tty && !o->quiet) {
			progress(st);
			shown = 1;
		}
		free(st);
		if (idle)
			break;
		nap(100);
	}
	if (shown)
		fprintf(stderr, "\r%80s\r", "");
}

/* only what was asked for kept; the net figures already used base:empty */
static void keep_selected(struct cs_input *in, const char *sel)
{
	size_t k = 0;

	for (size_t i = 0; i < in->nfrag; i++) {
		const char *slow = cs_info_get(&in->frag[i].info, CB_INFO_slow);

		if (selected(sel, in->frag[i].name, slow && !strcmp(slow, "yes"))) {
			struct cs_frag t = in->frag[k];

			in->frag[k++] = in->frag[i];
			in->frag[i] = t;
		}
	}
	for (size_t j = k; j < in->nfrag; j++)
		cs_frag_free(&in->frag[j]);
	in->nfrag = k;
}

int cs_run(const struct cs_opts *o, int argc, char **argv)
{
	const char *sel = argc && !strchr(argv[0], '=') ? argv[0] : "all";
	char *req, *path;
	struct cs_input in;
	struct cs_err err = { 0 };
	struct stat sb;
	int e, shown = 0, refs;

	if (check_request(argc, argv, &refs))
		return 2;
	/* 'all' holds the references already */
	refs &= strcmp(sel, "all") != 0;
	req = build_request(sel, refs, argc, argv);
	if (!req)
		return 2;
	if (stat(o->tree, &sb)) {
		/* for the diagnosis of a missing tree */
		no_tree(o->tree);
		free(req);
		return 2;
	}
	if (asprintf(&path, "%s/run", o->tree) < 0) {
		free(req);
		return 2;
	}
	e = write_request(o, path, req, &shown);
	if (e) {
		if (e == ENOENT)
			cs_seterr(&err, path, 0, "no run file: is %s a cyclebench tree? (the module makes it)", o->tree), cs_perror(&err);
		else if (e > 0)
			run_error(o->tree, req, e);
		free(req);
		free(path);
		return 2;
	}
	wait_idle(o, shown);
	free(path);
	if (cs_load_input(o->tree, &in, &err)) {
		cs_perror(&err);
		free(req);
		return 2;
	}
	keep_selected(&in, sel);
	if (!in.nfrag) {
		fprintf(stderr, "cyclestat: %s: the run of '%s' left no results\n", o->tree, req);
		cs_input_free(&in);
		free(req);
		return 2;
	}
	cs_print(o, &in, 1);
	cs_input_free(&in);
	free(req);
	return 0;
}

