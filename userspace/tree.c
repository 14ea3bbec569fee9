// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - where a result tree's fragments are: the fragments file, or a
 * walk of GROUP/NAME[/ARG] directories (tree version 2 puts an argument's
 * results in a subdirectory, as debugfs cannot have '/' in a name).
 *
 * Calls numparse.c only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cyclestat.h"

/* ---- locating fragments ---- */

static char *join(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		return NULL;
	return s;
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISDIR(st.st_mode);
}

int cs_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

void cs_locs_free(struct cs_loc *loc, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(loc[i].name);
		free(loc[i].cycles);
		free(loc[i].info);
	}
	free(loc);
}

static int add_loc(struct cs_loc **loc, size_t *n, const char *name,
		   const char *dir, const char *cycles)
{
	struct cs_loc *l = realloc(*loc, (*n + 1) * sizeof(**loc));
	char *info;

	if (!l)
		return -1;
	*loc = l;
	l += *n;
	memset(l, 0, sizeof(*l));
	(*n)++;
	l->name = strdup(name);
	l->cycles = dir ? join(dir, "cycles") : strdup(cycles);
	if (!l->name || !l->cycles)
		return -1;
	if (dir) {
		info = join(dir, "info");
		if (!info)
			return -1;
		if (is_file(info))
			l->info = info;
		else
			free(info);
	}
	return 0;
}

static int debugfs_mounted(void)
{
	char *buf;
	size_t len;
	struct cs_err e;
	int yes;

	if (cs_read_file("/proc/mounts", &buf, &len, 16u << 20, &e))
		return -1;
	yes = strstr(buf, " /sys/kernel/debug debugfs ") != NULL;
	free(buf);
	return yes;
}

/* The live tree is missing or closed: say which of the usual causes it is. */
static void tree_missing(const char *path, int errnum, struct cs_err *err)
{
	int mounted = debugfs_mounted();

	if (errnum == EACCES || (geteuid() != 0 && mounted != 0))
		cs_seterr(err, path, 0,
			  "%s; debugfs is root-only: run as root (sudo cyclestat ...)", strerror(errnum));
	else if (mounted == 0)
		cs_seterr(err, path, 0,
			  "%s: debugfs is not mounted; mount it: sudo mount -t debugfs none /sys/kernel/debug",
			  strerror(errnum));
	else
		cs_seterr(err, path, 0,
			  "%s: the cyclebench module is not loaded; load it: sudo insmod kmod/cyclebench.ko (or sudo modprobe cyclebench)",
			  strerror(errnum));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every DIR/group/name with a cycles file, sorted: trees without "fragments" */
static int scan_tree(const char *path, struct cs_loc **loc, size_t *n)
{
	char **names = NULL;
	size_t nn = 0;
	DIR *d = opendir(path), *sd;
	struct dirent *de, *se;
	int ret = 0;

	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		char *gdir;

		if (de->d_name[0] == '.')
			continue;
		gdir = join(path, de->d_name);
		if (!gdir)
			break;
		sd = opendir(gdir);
		while (sd && !ret && (se = readdir(sd))) {
			char *full, **p;

			if (se->d_name[0] == '.')
				continue;
			if (asprintf(&full, "%s:%s", de->d_name, se->d_name) < 0) {
				ret = -1;
				break;
			}
			p = realloc(names, (nn + 1) * sizeof(*names));
			if (!p) {
				free(full);
				ret = -1;
				break;
			}
			names = p;
			names[nn++] = full;
		}
		if (sd)
			closedir(sd);
		free(gdir);
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof(*names), cmp_str);
	for (size_t i = 0; i < nn; i++) {
		char *dir, *cyc;

		if (!ret && asprintf(&dir, "%s/%.*s/%s", path,
				     (int)(strchr(names[i], ':') - names[i]), names[i],
				     strchr(names[i], ':') + 1) >= 0) {
			cyc = join(dir, "cycles");
			if (cyc && is_file(cyc) && add_loc(loc, n, names[i], dir, NULL))
				ret = -1;
			free(cyc);
			free(dir);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

/*
 * group:name, each part non-empty, neither "." nor "..", no '/': a crafted
 * fragments file must not lead reading, or save's writing, out of the tree.
 */
static int safe_name(const char *c, size_t len, const char *colon)
{
	size_t g, n;

	if (!colon || colon >= c + len || memchr(c, '/', len))
		return 0;
	g = (size_t)(colon - c);
	n = len - g - 1;
	return !memchr(colon + 1, ':', n) && g && n && !(g <= 2 && !strncmp(c, "..", g)) &&
	       !(n <= 2 && !strncmp(colon + 1, "..", n));
}

/* in the order of DIR/fragments */
static int list_tree(const char *path, const char *buf, struct cs_loc **loc, size_t *n)
{
	const char *c = buf;

	while (*c) {
		const char *eol = strchrnul(c, '\n'), *sp = memchr(c, ' ', (size_t)(eol - c));
		const char *colon = memchr(c, ':', (size_t)(eol - c));
		size_t len = (size_t)((sp ? sp : eol) - c);
		char *name, *dir, *cyc;

		if (safe_name(c, len, colon)) {
			name = strndup(c, len);
			if (!name)
				return -1;
			if (asprintf(&dir, "%s/%.*s/%s", path, (int)(colon - c), c,
				     name + (colon - c) + 1) < 0) {
				free(name);
				return -1;
			}
			cyc = join(dir, "cycles");
			if (cyc && is_file(cyc) && add_loc(loc, n, name, dir, NULL)) {
				free(cyc);
				free(dir);
				free(name);
				return -1;
			}
			free(cyc);
			free(dir);
			free(name);
		}
		c = *eol ? eol + 1 : eol;
	}
	return 0;
}

/*
 * What PATH holds: "-" (stdin), a cycles file, a fragment directory (with a
 * cycles file), or a tree (live or saved). Fills *top from DIR/info.
 */
int cs_locate(const char *path, struct cs_loc **loc, size_t *n,
	      struct cs_info *top, struct cs_err *err)
{
	struct stat st;
	char *p, *buf;
	size_t len;
	int ret;

	*loc = NULL;
	*n = 0;
	if (!strcmp(path, "-"))
		return add_loc(loc, n, "-", NULL, "-") ? cs_seterr(err, path, 0, "out of memory"), -1 : 0;
	if (stat(path, &st)) {
		int e = errno;

		if (!strncmp(path, "/sys/kernel/debug", 17))
			tree_missing(path, e, err);
		else
			cs_seterr(err, path, 0, "%s", strerror(e));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		/* X/cycles: its info is X/info */
		const char *slash = strrchr(path, '/');
		const char *base = slash ? slash + 1 : path;

		if (!strcmp(base, "cycles")) {
			char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");

			ret = dir ? add_loc(loc, n, path, dir, NULL) : -1;
			free(dir);
		} else {
			ret = add_loc(loc, n, path, NULL, path);
		}
		if (ret)
			cs_seterr(err, path, 0, "out of memory");
		return ret;
	}
	p = join(path, "cycles");
	if (!p)
		goto nomem;
	if (is_file(p)) {
		free(p);
		if (add_loc(loc, n, path, path, NULL))
			goto nomem;
		return 0;
	}
	free(p);
	p = join(path, "info");
	if (!p)
		goto nomem;
	if (is_file(p) && cs_read_info(p, top, err)) {
		free(p);
		return -1;
	}
	free(p);
	p = join(path, "fragments");
	if (!p)
		goto nomem;
	if (is_file(p)) {
		if (cs_read_file(p, &buf, &len, CS_INFO_MAX, err)) {
			free(p);
			goto fail;
		}
		ret = list_tree(path, buf, loc, n);
		free(buf);
	} else {
		ret = scan_tree(path, loc, n);
	}
	free(p);
	if (ret)
		goto nomem;
	if (!*n) {
		cs_seterr(err, path, 0,
			  "no fragments here (no GROUP/NAME/cycles files); is this a cyclebench tree? (%s or a copy made by cyclestat save)",
			  CS_DEFAULT_TREE);
		goto fail;
	}
	return 0;
nomem:
	cs_seterr(err, path, 0, "out of memory");
fail:
	cs_locs_free(*loc, *n);
	*loc = NULL;
	*n = 0;
	cs_info_free(top);
	return -1;
}

