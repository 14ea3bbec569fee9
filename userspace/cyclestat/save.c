// SPDX-License-Identifier: GPL-2.0
/*
 * save.c - cyclestat save: copy a tree's results (the live debugfs tree or
 * a copy), then read the copy back, so what was saved is known to parse.
 *
 * Calls tree.c, fragment.c and numparse.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"
#include "read.h"
#include "commands.h"

static int mkdirs(const char *path)
{
	char *p = strdup(path), *s;
	int ret = 0;

	if (!p)
		return -1;
	for (s = p + 1; !ret; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			ret = -1;
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

static int copy_file(const char *from, const char *dir, const char *name, struct cs_err *err)
{
	char *to, buf[65536];
	int in, out, ret = -1;
	ssize_t got;

	if (asprintf(&to, "%s/%s", dir, name) < 0) {
		cs_seterr(err, dir, 0, "out of memory");
		return -1;
	}
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		cs_seterr(err, from, 0, "cannot open: %s%s", strerror(errno),
			  errno == EACCES ? "; debugfs is root-only: run as root" : "");
		goto free_to;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		cs_seterr(err, to, 0, "cannot create: %s", strerror(errno));
		goto close_in;
	}
	while ((got = read(in, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cs_seterr(err, from, 0, "read error: %s", strerror(errno));
			goto close_out;
		}
		if (write(out, buf, (size_t)got) != got) {
			cs_seterr(err, to, 0, "write error: %s", strerror(errno));
			goto close_out;
		}
	}
	ret = 0;
close_out:
	if (close(out) && !ret) {
		cs_seterr(err, to, 0, "write error: %s", strerror(errno));
		ret = -1;
	}
close_in:
	close(in);
free_to:
	free(to);
	return ret;
}

/*
 * A cpus= result's cpuN/cycles, cpuN/cycles_long and (the module's)
 * cpuN/flags, for each CPU its info's cpus: names (a live tree keeps cpuN/
 * of earlier runs, empty).  Each is copied where it is: cyclebench-user
 * writes no flags.
 */
static int copy_cpus(const char *from, const char *info, const char *to, struct cs_err *err)
{
	struct cs_info in = { 0 };
	const char *cpus;
	int ret = -1;

	if (cs_read_info(info, &in, err))
		return -1;
	cpus = cs_info_get(&in, CB_INFO_cpus);
	for (const char *c = cpus; c && *c; c += strcspn(c, ","), c += *c == ',') {
		static const char *const files[] = { CB_FILE_CYCLES, CB_FILE_CYCLES_LONG, CB_FILE_FLAGS };
		int len = (int)strcspn(c, ",");
		char *src, *dst;

		if (!len || strspn(c, "0123456789") != (size_t)len) {
			cs_seterr(err, info, 0, "cpus: '%s' is not a comma-separated list of CPU numbers: the tree is damaged (run it again)",
				  cpus);
			goto out;
		}

		if (asprintf(&dst, "%s/cpu%.*s", to, len, c) < 0)
			goto out;
		if (mkdirs(dst)) {
			cs_seterr(err, dst, 0, "cannot create directory: %s", strerror(errno));
			free(dst);
			goto out;
		}
		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
			int bad;

			if (asprintf(&src, "%s/cpu%.*s/%s", from, len, c, files[k]) < 0) {
				free(dst);
				goto out;
			}
			bad = !access(src, F_OK) && copy_file(src, dst, files[k], err);
			free(src);
			if (bad) {
				free(dst);
				goto out;
			}
		}
		free(dst);
	}
	ret = 0;
out:
	cs_info_free(&in);
	return ret;
}

/* the tree's own file @name copied into @dir, where the tree has one */
static int copy_top(const char *tree, const char *name, const char *dir, struct cs_err *err)
{
	char *p;
	int ret = 0;

	if (asprintf(&p, "%s/%s", tree, name) >= 0) {
		if (!access(p, F_OK) && copy_file(p, dir, name, err))
			ret = -1;
		free(p);
	}
	return ret;
}

/* one result's files copied into DIR/GROUP/NAME */
static int save_result(const struct cs_loc *l, const char *dir, struct cs_err *err)
{
	char *colon = strchr(l->name, ':'), *fd;

	if (!colon) {
		cs_seterr(err, l->cycles, 0, "not inside a cyclebench tree; save copies a tree (--tree DIR)");
		return -1;
	}
	if (asprintf(&fd, "%s/%.*s/%s", dir, (int)(colon - l->name), l->name, colon + 1) < 0)
		return -1;
	if (mkdirs(fd)) {
		cs_seterr(err, fd, 0, "cannot create directory: %s", strerror(errno));
		free(fd);
		return -1;
	}
	/* the data files that exist (a skipped result has none), info last */
	for (size_t k = 0; k < sizeof(cs_data_files) / sizeof(cs_data_files[0]); k++) {
		char *from;

		if (!l->dir || asprintf(&from, "%s/%s", l->dir, cs_data_files[k]) < 0)
			continue;
		if (!access(from, F_OK) && copy_file(from, fd, cs_data_files[k], err)) {
			free(from);
			free(fd);
			return -1;
		}
		free(from);
	}
	if (l->dir && l->info && copy_cpus(l->dir, l->info, fd, err)) {
		free(fd);
		return -1;
	}
	if (l->info && copy_file(l->info, fd, CB_FILE_INFO, err)) {
		free(fd);
		return -1;
	}
	free(fd);
	return 0;
}

int cs_save(const struct cs_opts *o, const char *dir)
{
	struct cs_loc *loc;
	struct cs_info top = { 0 }, check = { 0 };
	struct cs_err err = { 0 };
	size_t n, measured = 0;
	int ret = 2;

	if (cs_locate(o->tree, &loc, &n, &top, &err)) {
		cs_perror(&err);
		return 2;
	}
	if (mkdirs(dir)) {
		cs_seterr(&err, dir, 0, "cannot create directory: %s", strerror(errno));
		goto fail;
	}
	if (copy_top(o->tree, CB_FILE_INFO, dir, &err) ||
	    copy_top(o->tree, CB_FILE_FRAGMENTS, dir, &err))
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (save_result(&loc[i], dir, &err))
			goto fail;
	/*
	 * Read the copy back: what was saved must be complete and consistent.
	 * Streamed, so saving a 10^8-sample run needs no 800 MB.
	 */
	cs_locs_free(loc, n);
	if (cs_locate(dir, &loc, &n, &check, &err))
		goto fail_nolocs;
	for (size_t i = 0; i < n; i++) {
		int r = cs_check_frag(&loc[i], &err);

		if (r < 0)
			goto fail;
		measured += !r;
	}
	if (!o->quiet)
		fprintf(stderr, "cyclestat: saved %zu fragment%s (%zu with results) to %s\n", n,
			n == 1 ? "" : "s", measured, dir);
	ret = 0;
	goto out;
fail:
	cs_perror(&err);
out:
	cs_locs_free(loc, n);
	cs_info_free(&top);
	cs_info_free(&check);
	return ret;
fail_nolocs:
	cs_perror(&err);
	cs_info_free(&top);
	return ret;
}
