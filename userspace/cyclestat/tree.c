// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - where a result tree's fragments are: the fragments file, or a
 * walk of GROUP/NAME[/ARG] directories (tree version 2 puts an argument's
 * results in a subdirectory, as debugfs cannot have '/' in a name);
 * and the sysfs CPU lists that sweep=cpus and doctor read.
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

#include "model.h"
#include "read.h"

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
		free(loc[i].dir);
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
	l->cycles = dir ? join(dir, CB_FILE_CYCLES) : strdup(cycles);
	l->dir = dir ? strdup(dir) : NULL;
	if (!l->name || !l->cycles || (dir && !l->dir))
		return -1;
	if (dir) {
		info = join(dir, CB_FILE_INFO);
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

/*
 * The live tree is missing or closed: say which of the usual causes it is,
 * and that a saved run (make run's) is read without a module.
 */
#define SAVED "; or read a saved run: cyclestat build/results"
static void tree_missing(const char *path, int errnum, struct cs_err *err)
{
	int mounted = debugfs_mounted();

	if (errnum == EACCES || (geteuid() != 0 && mounted != 0))
		cs_seterr(err, path, 0,
			  "%s; debugfs is root-only: run as root (sudo cyclestat ...)%s", strerror(errnum), SAVED);
	else if (mounted == 0)
		cs_seterr(err, path, 0,
			  "%s: debugfs is not mounted; mount it: sudo mount -t debugfs none /sys/kernel/debug%s",
			  strerror(errnum), SAVED);
	else
		cs_seterr(err, path, 0,
			  "%s: the cyclebench module is not loaded; load it: sudo insmod ./cyclebench.ko (built by make at the top of the checkout; or sudo modprobe cyclebench)%s",
			  strerror(errnum), SAVED);
}

/*
 * Order of a walked tree: by group:name, then arguments numerically
 * (mem:chase/4096 before mem:chase/65536), the bare name first.
 */
static int cmp_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	const char *sx = strchr(x, '/'), *sy = strchr(y, '/');
	size_t lx = sx ? (size_t)(sx - x) : strlen(x), ly = sy ? (size_t)(sy - y) : strlen(y);
	int c = strncmp(x, y, lx < ly ? lx : ly);

	if (c || lx != ly)
		return c ? c : (lx < ly ? -1 : 1);
	if (!sx || !sy)
		return !!sx - !!sy;
	if (strspn(sx + 1, "0123456789") == strlen(sx + 1) &&
	    strspn(sy + 1, "0123456789") == strlen(sy + 1)) {
		unsigned long long vx = strtoull(sx + 1, NULL, 10), vy = strtoull(sy + 1, NULL, 10);

		if (vx != vy)
			return vx < vy ? -1 : 1;
	}
	return strcmp(sx, sy);
}

static int push_name(char ***names, size_t *nn, const char *g, const char *nm,
		     const char *arg)
{
	char *full, **p;

	if (asprintf(&full, "%s:%s%s%s", g, nm, arg ? "/" : "", arg ? arg : "") < 0)
		return -1;
	p = realloc(*names, (*nn + 1) * sizeof(**names));
	if (!p) {
		free(full);
		return -1;
	}
	*names = p;
	(*names)[(*nn)++] = full;
	return 0;
}

/* a result directory: it has a cycles or an info file (skipped ones have no data) */
static int is_result(const char *dir)
{
	char *c = join(dir, CB_FILE_CYCLES), *i = join(dir, CB_FILE_INFO);
	int yes = (c && is_file(c)) || (i && is_file(i));

	free(c);
	free(i);
	return yes;
}

/* GROUP/NAME/ARG under path, ARG only where NAME itself holds no result */
static int scan_name(const char *path, const char *g, const char *nm,
		     char ***names, size_t *nn)
{
	char *ndir;
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (asprintf(&ndir, "%s/%s/%s", path, g, nm) < 0)
		return -1;
	if (is_result(ndir)) {
		free(ndir);
		return push_name(names, nn, g, nm, NULL);
	}
	d = opendir(ndir);
	while (d && !ret && (de = readdir(d))) {
		char *adir;

		if (de->d_name[0] == '.' || !(adir = join(ndir, de->d_name)))
			continue;
		if (is_result(adir))
			ret = push_name(names, nn, g, nm, de->d_name);
		free(adir);
	}
	if (d)
		closedir(d);
	free(ndir);
	return ret;
}

/* the directory of group:name[/ARG] under path */
static char *result_dir(const char *path, const char *name)
{
	const char *colon = strchr(name, ':');
	char *dir;

	if (asprintf(&dir, "%s/%.*s/%s", path, (int)(colon - name), name, colon + 1) < 0)
		return NULL;
	return dir;
}

/* every DIR/group/name[/ARG] with results, sorted, in *names (*nn of them) */
static int walk_tree(const char *path, char ***names, size_t *nn)
{
	DIR *d = opendir(path), *sd;
	struct dirent *de, *se;
	int ret = 0;

	*names = NULL;
	*nn = 0;
	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		char *gdir;

		if (de->d_name[0] == '.')
			continue;
		gdir = join(path, de->d_name);
		if (!gdir) {
			ret = -1;
			break;
		}
		sd = opendir(gdir);
		while (sd && !ret && (se = readdir(sd)))
			if (se->d_name[0] != '.')
				ret = scan_name(path, de->d_name, se->d_name, names, nn);
		if (sd)
			closedir(sd);
		free(gdir);
	}
	closedir(d);
	if (*nn)
		qsort(*names, *nn, sizeof(**names), cmp_name);
	return ret;
}

static void names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* every DIR/group/name[/ARG] with results, sorted: trees without "fragments" */
static int scan_tree(const char *path, struct cs_loc **loc, size_t *n)
{
	char **names;
	size_t nn;
	int ret = walk_tree(path, &names, &nn);

	for (size_t i = 0; !ret && i < nn; i++) {
		char *dir = result_dir(path, names[i]);

		if (!dir || add_loc(loc, n, names[i], dir, NULL))
			ret = -1;
		free(dir);
	}
	names_free(names, nn);
	return ret;
}

/* one path component: non-empty, not "." or "..", no '/' or ':' */
static int safe_part(const char *c, size_t n)
{
	return n && !memchr(c, '/', n) && !memchr(c, ':', n) &&
	       !(n <= 2 && !strncmp(c, "..", n));
}

/*
 * group:name or group:name/ARG, each part a safe component: a crafted
 * fragments file must not lead reading, or save's writing, out of the tree.
 */
int cs_safe_name(const char *c, size_t len)
{
	const char *colon = memchr(c, ':', len), *slash;
	size_t g, n;

	if (!colon)
		return 0;
	g = (size_t)(colon - c);
	n = len - g - 1;
	slash = memchr(colon + 1, '/', n);
	if (!slash)
		return safe_part(c, g) && safe_part(colon + 1, n);
	return safe_part(c, g) && safe_part(colon + 1, (size_t)(slash - colon - 1)) &&
	       safe_part(slash + 1, (size_t)(c + len - slash - 1));
}

/*
 * in the order of DIR/fragments; with gone, the names listed there that
 * have no result directory are pushed onto it instead (*loc untouched)
 */
static int list_tree(const char *path, const char *buf, struct cs_loc **loc, size_t *n,
		     char ***gone)
{
	const char *c = buf;

	while (*c) {
		const char *eol = strchrnul(c, '\n'), *sp = memchr(c, ' ', (size_t)(eol - c));
		size_t len = (size_t)((sp ? sp : eol) - c);
		char *name, *dir = NULL;
		int bad;

		if (cs_safe_name(c, len)) {
			name = strndup(c, len);
			if (!name || !(dir = result_dir(path, name))) {
				free(name);
				return -1;
			}
			if (!gone) {
				bad = is_result(dir) && add_loc(loc, n, name, dir, NULL);
			} else {
				/* push_name joins group and name again at the colon */
				*strchr(name, ':') = 0;
				bad = !is_result(dir) &&
				      push_name(gone, n, name, name + strlen(name) + 1, NULL);
			}
			free(dir);
			free(name);
			if (bad)
				return -1;
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

		if (!strcmp(base, CB_FILE_CYCLES)) {
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
	p = join(path, CB_FILE_CYCLES);
	if (!p)
		goto nomem;
	if (is_file(p)) {
		free(p);
		if (add_loc(loc, n, path, path, NULL))
			goto nomem;
		return 0;
	}
	free(p);
	p = join(path, CB_FILE_INFO);
	if (!p)
		goto nomem;
	if (is_file(p) && cs_read_info(p, top, err)) {
		free(p);
		return -1;
	}
	free(p);
	p = join(path, CB_FILE_FRAGMENTS);
	if (!p)
		goto nomem;
	if (is_file(p)) {
		if (cs_read_file(p, &buf, &len, CS_INFO_MAX, err)) {
			free(p);
			goto fail;
		}
		ret = list_tree(path, buf, loc, n, NULL);
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

/* does the fragments file @buf list @name (the first word of a line)? */
static int lists(const char *buf, const char *name)
{
	size_t len = strlen(name);
	const char *c = buf;

	while (*c) {
		if (!strncmp(c, name, len) && (c[len] == ' ' || c[len] == '\n' || !c[len]))
			return 1;
		c = strchrnul(c, '\n');
		c += *c == '\n';
	}
	return 0;
}

/*
 * What PATH/fragments and PATH's result directories disagree on: the
 * fragments it lists with no result directory there (a copy made by hand,
 * a directory deleted), in *gone (*ngone), and the result directories it
 * does not list (results of another run or selection left in the
 * directory; a fragments file cut short), in *extra (*nextra).  None
 * where PATH is no tree with a fragments file.
 */
int cs_tree_disagrees(const char *path, char ***gone, size_t *ngone, char ***extra,
		      size_t *nextra)
{
	char *p = join(path, CB_FILE_FRAGMENTS), *buf, **all = NULL;
	struct cs_err ignored;
	size_t len, nall = 0;
	int ret = 0;

	*gone = *extra = NULL;
	*ngone = *nextra = 0;
	if (!p)
		return -1;
	if (cs_is_dir(path) && is_file(p) && !cs_read_file(p, &buf, &len, CS_INFO_MAX, &ignored)) {
		ret = list_tree(path, buf, NULL, ngone, gone);
		if (!ret)
			ret = walk_tree(path, &all, &nall);
		for (size_t i = 0; !ret && i < nall; i++) {
			char **e;

			if (lists(buf, all[i]))
				continue;
			e = realloc(*extra, (*nextra + 1) * sizeof(*e));
			if (!e) {
				ret = -1;
				break;
			}
			*extra = e;
			e[(*nextra)++] = all[i];
			all[i] = NULL;
		}
		names_free(all, nall);
		free(buf);
	}
	free(p);
	if (ret) {
		names_free(*gone, *ngone);
		names_free(*extra, *nextra);
		*gone = *extra = NULL;
		*ngone = *nextra = 0;
	}
	return ret;
}

/*
 * A sweep=cpus directory (cyclebench-user): DIR/info says "sweep: cpus"
 * and "steps: 1,2,4"; each step's tree is DIR/kK.  *n = 0 where PATH is no
 * sweep; -1 said where it claims one but is not whole.
 */
int cs_sweep_steps(const char *path, char ***steps, unsigned int **k, size_t *n,
		   struct cs_err *err)
{
	struct cs_info info = { 0 };
	const char *sw, *st;
	char *p = join(path, CB_FILE_INFO);
	int ret = -1;

	*steps = NULL;
	*k = NULL;
	*n = 0;
	if (!p || !cs_is_dir(path) || !is_file(p) || cs_read_info(p, &info, err)) {
		ret = p && (!cs_is_dir(path) || !is_file(p)) ? 0 : -1;
		free(p);
		return ret;
	}
	sw = cs_info_get(&info, CB_INFO_sweep);
	st = cs_info_get(&info, CB_INFO_steps);
	if (!sw) {
		ret = 0;
		goto out;
	}
	if (strcmp(sw, "cpus") || !st || !*st) {
		cs_seterr(err, p, 0, "sweep: '%s' with steps '%s': this cyclestat reads sweep=cpus with its steps (cyclebench-user ... cpus=LIST sweep=cpus)",
			  sw, st ? st : "");
		goto out;
	}
	while (*st) {
		char *end, *dir, **ns;
		unsigned int *nk;
		unsigned long v = strtoul(st, &end, 10);

		if (end == st || v < 1 || v > 4096 || (*end && *end != ',')) {
			cs_seterr(err, p, 0, "steps: '%s' is not a list of CPU counts (1,2,4 ...)",
				  cs_info_get(&info, CB_INFO_steps));
			goto out;
		}
		st = *end ? end + 1 : end;
		if (asprintf(&dir, "%s/k%lu", path, v) < 0)
			goto nomem;
		if (!cs_is_dir(dir)) {
			cs_seterr(err, dir, 0, "missing: %s names step k=%lu; the sweep is not whole (run it again)",
				  p, v);
			free(dir);
			goto out;
		}
		ns = realloc(*steps, (*n + 1) * sizeof(*ns));
		nk = ns ? realloc(*k, (*n + 1) * sizeof(*nk)) : NULL;
		if (ns)
			*steps = ns;
		if (nk)
			*k = nk;
		if (!ns || !nk) {
			free(dir);
			goto nomem;
		}
		(*steps)[*n] = dir;
		(*k)[(*n)++] = (unsigned int)v;
	}
	ret = 0;
	goto out;
nomem:
	cs_seterr(err, path, 0, "out of memory");
out:
	if (ret) {
		for (size_t i = 0; i < *n; i++)
			free((*steps)[i]);
		free(*steps);
		free(*k);
		*steps = NULL;
		*k = NULL;
		*n = 0;
	}
	cs_info_free(&info);
	free(p);
	return ret;
}

/* is cpu in a cpulist such as "0-3,8,10-11"? */
int cs_in_cpulist(const char *list, unsigned int cpu)
{
	const char *c = list;

	while (*c && *c != '\n') {
		char *e;
		unsigned long a, b;

		errno = 0;
		a = strtoul(c, &e, 10);
		if (e == c || errno)
			return 0;
		b = a;
		if (*e == '-') {
			c = e + 1;
			b = strtoul(c, &e, 10);
			if (e == c || errno)
				return 0;
		}
		if (cpu >= a && cpu <= b)
			return 1;
		c = *e == ',' ? e + 1 : e;
		if (*e != ',')
			break;
	}
	return 0;
}
