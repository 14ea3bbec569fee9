// SPDX-License-Identifier: GPL-2.0
/*
 * cyclestat - read, summarise, save, compare and run cyclebench results.
 *
 *   cyclestat                          summary of the live tree
 *   cyclestat DIR|FILE|- ...           summary of saved trees, cycles files, stdin
 *   cyclestat save DIR                 copy the live results into DIR
 *   cyclestat compare BASE NEW         exit 1 when something got slower
 *   cyclestat run [SPEC] [key=value]   run fragments, then print their summary
 *   cyclestat doctor [--cpu N]         is this machine fit to measure on?
 *
 * Options -> read -> compute -> print, like ministat: all input is read and
 * checked before the first byte of output, so an error never leaves half a
 * table behind. Exit 0 ok, 1 compare found something slower (or doctor
 * --strict found a problem), 2 usage or input error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cyclestat.h"

static const char usage_text[] =
	"usage: cyclestat [options] [DIR|FILE|-]...      summary (default: " CS_DEFAULT_TREE ")\n"
	"       cyclestat [options] save DIR              copy the tree's results into DIR\n"
	"       cyclestat [options] compare BASE NEW      exit 1 if something got slower\n"
	"       cyclestat [options] run [SPEC] [key=value]...  run, then summarise\n"
	"       cyclestat [options] doctor                check this machine\n"
	"\n"
	"  -f, --format FMT     table (default), json, csv or gbench (Google Benchmark JSON)\n"
	"      --hist           histogram per fragment (with csv: the bins as CSV)\n"
	"  -o, --output FILE    write results to FILE instead of stdout\n"
	"  -d, --tree DIR       the cyclebench debugfs tree (default " CS_DEFAULT_TREE ")\n"
	"  -t, --threshold PCT  compare: changes within PCT% are 'same' (default 2)\n"
	"  -a, --alpha A        compare: significance level (default 0.01)\n"
	"  -c, --cpu N          doctor: the CPU to check (default 0)\n"
	"      --strict         doctor: exit 1 when a problem is found\n"
	"      --sysroot DIR    doctor: read /proc, /sys, /dev below DIR ($CYCLESTAT_SYSROOT)\n"
	"      --color WHEN     auto (default), always or never\n"
	"  -q, --quiet          no warnings, no progress bar\n"
	"  -h, --help           this help;  -V, --version  the version\n"
	"\n"
	"SPEC: all, a group, group:name, or a comma-separated list of those;\n"
	"keys: samples= ensembles= warmup= method=paoloni|lfence cpu=.  See cyclestat(1).\n";

static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage(const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fputs("cyclestat: ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputs("\n", stderr);
	}
	fputs(usage_text, stderr);
	return 2;
}

enum { OPT_HIST = 256, OPT_STRICT, OPT_SYSROOT, OPT_COLOR };

static const struct option long_options[] = {
	{ "format",	required_argument,	NULL, 'f' },
	{ "hist",	no_argument,		NULL, OPT_HIST },
	{ "output",	required_argument,	NULL, 'o' },
	{ "tree",	required_argument,	NULL, 'd' },
	{ "threshold",	required_argument,	NULL, 't' },
	{ "alpha",	required_argument,	NULL, 'a' },
	{ "cpu",	required_argument,	NULL, 'c' },
	{ "strict",	no_argument,		NULL, OPT_STRICT },
	{ "sysroot",	required_argument,	NULL, OPT_SYSROOT },
	{ "color",	required_argument,	NULL, OPT_COLOR },
	{ "quiet",	no_argument,		NULL, 'q' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 },
};

static int parse_double(const char *opt, const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (!*s || *end || errno || !(*v >= lo && *v <= hi)) {
		fprintf(stderr, "cyclestat: %s: '%s' is not a number in [%g, %g]\n", opt, s, lo, hi);
		return -1;
	}
	return 0;
}

static int parse_uint(const char *opt, const char *s, unsigned long long max,
		      unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-' || *s == '+' || *v > max) {
		fprintf(stderr, "cyclestat: %s: '%s' is not an integer in [0, %llu]\n", opt, s, max);
		return -1;
	}
	return 0;
}

/* ---- summary ---- */

static int summary(const struct cs_opts *o, char **paths, int n)
{
	struct cs_input *in = calloc((size_t)n, sizeof(*in));
	struct cs_err err = { 0 };
	int i, ret = 0;

	if (!in) {
		fprintf(stderr, "cyclestat: out of memory\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (cs_load_input(paths[i], &in[i], &err)) {
			cs_perror(&err);
			ret = 2;
			break;
		}
	}
	if (!ret)
		cs_print(o, in, (size_t)n);
	while (i-- > 0)
		cs_input_free(&in[i]);
	free(in);
	return ret;
}

/* ---- save ---- */

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

static int save(const struct cs_opts *o, const char *dir)
{
	struct cs_loc *loc;
	struct cs_info top = { 0 }, check = { 0 };
	struct cs_err err = { 0 };
	size_t n, measured = 0;
	char *p;
	int ret = 2;

	if (cs_locate(o->tree, &loc, &n, &top, &err)) {
		cs_perror(&err);
		return 2;
	}
	if (mkdirs(dir)) {
		cs_seterr(&err, dir, 0, "cannot create directory: %s", strerror(errno));
		goto fail;
	}
	if (asprintf(&p, "%s/info", o->tree) >= 0) {
		if (!access(p, F_OK) && copy_file(p, dir, "info", &err)) {
			free(p);
			goto fail;
		}
		free(p);
	}
	if (asprintf(&p, "%s/fragments", o->tree) >= 0) {
		if (!access(p, F_OK) && copy_file(p, dir, "fragments", &err)) {
			free(p);
			goto fail;
		}
		free(p);
	}
	for (size_t i = 0; i < n; i++) {
		char *colon = strchr(loc[i].name, ':'), *fd;

		if (!colon) {
			cs_seterr(&err, loc[i].cycles, 0, "not inside a cyclebench tree; save copies a tree (--tree DIR)");
			goto fail;
		}
		if (asprintf(&fd, "%s/%.*s/%s", dir, (int)(colon - loc[i].name), loc[i].name,
			     colon + 1) < 0)
			goto fail;
		if (mkdirs(fd) || copy_file(loc[i].cycles, fd, "cycles", &err) ||
		    (loc[i].info && copy_file(loc[i].info, fd, "info", &err))) {
			if (!err.msg[0])
				cs_seterr(&err, fd, 0, "cannot create directory: %s", strerror(errno));
			free(fd);
			goto fail;
		}
		free(fd);
	}
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

/* ---- run ---- */

static const char *const run_keys[] = { "samples", "ensembles", "warmup", "method", "cpu" };

static int check_request(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t k;

		if (!eq) {
			if (i == 0 && !strpbrk(argv[i], " \t\n"))
				continue;
			return usage("run: '%s': the selection comes first, then key=value overrides", argv[i]);
		}
		for (k = 0; k < sizeof(run_keys) / sizeof(run_keys[0]); k++)
			if (!strncmp(argv[i], run_keys[k], (size_t)(eq - argv[i])) &&
			    strlen(run_keys[k]) == (size_t)(eq - argv[i]))
				break;
		if (k == sizeof(run_keys) / sizeof(run_keys[0]))
			return usage("run: unknown key in '%s' (keys: samples ensembles warmup method cpu)",
				     argv[i]);
		if (!eq[1] || strpbrk(eq + 1, " \t\n"))
			return usage("run: '%s' has no value", argv[i]);
	}
	return 0;
}

static void run_error(const char *tree, const char *req, int e)
{
	switch (e) {
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

static int run(const struct cs_opts *o, int argc, char **argv)
{
	const char *sel = argc && !strchr(argv[0], '=') ? argv[0] : "all";
	char *req = NULL, *path, *st;
	size_t len = 0;
	struct cs_input in;
	struct cs_err err = { 0 };
	struct stat sb;
	int status, e, shown = 0;
	size_t k = 0;
	pid_t pid;

	if (check_request(argc, argv))
		return 2;
	if (!argc || strchr(argv[0], '='))
		len = strlen("all");
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	req = malloc(len + 2);
	if (!req)
		return 2;
	strcpy(req, argc && !strchr(argv[0], '=') ? "" : "all");
	for (int i = 0; i < argc; i++) {
		if (*req)
			strcat(req, " ");
		strcat(req, argv[i]);
	}
	if (stat(o->tree, &sb)) {
		struct cs_info ti = { 0 };
		struct cs_loc *l;
		size_t n;

		/* for the diagnosis of a missing tree */
		if (!cs_locate(o->tree, &l, &n, &ti, &err)) {
			cs_locs_free(l, n);
			cs_info_free(&ti);
		}
		cs_perror(&err);
		free(req);
		return 2;
	}
	if (asprintf(&path, "%s/run", o->tree) < 0) {
		free(req);
		return 2;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("cyclestat: fork");
		free(req);
		free(path);
		return 2;
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
		st = read_status(o->tree);
		if (st && !strncmp(st, "running", 7)) {
			progress(st);
			shown = 1;
		}
		free(st);
		nap(100);
	}
	if (shown)
		fprintf(stderr, "\r%80s\r", "");
	e = WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
	if (e) {
		if (e == ENOENT)
			cs_seterr(&err, path, 0, "no run file: is %s a cyclebench tree? (the module makes it)", o->tree), cs_perror(&err);
		else
			run_error(o->tree, req, e);
		free(req);
		free(path);
		return 2;
	}
	/* the module is idle when the write returns; a stand-in may lag */
	for (int i = 0; i < 600; i++) {
		st = read_status(o->tree);
		e = !st || strncmp(st, "running", 7);
		if (!e && o->tty && !o->quiet) {
			progress(st);
			shown = 1;
		}
		free(st);
		if (e)
			break;
		nap(100);
	}
	if (shown)
		fprintf(stderr, "\r%80s\r", "");
	free(path);
	if (cs_load_input(o->tree, &in, &err)) {
		cs_perror(&err);
		free(req);
		return 2;
	}
	/* print only what was asked for; the net figures already used base:empty */
	for (size_t i = 0; i < in.nfrag; i++) {
		const char *slow = cs_info_get(&in.frag[i].info, "slow");

		if (selected(sel, in.frag[i].name, slow && !strcmp(slow, "yes"))) {
			struct cs_frag t = in.frag[k];

			in.frag[k++] = in.frag[i];
			in.frag[i] = t;
		}
	}
	for (size_t j = k; j < in.nfrag; j++)
		cs_frag_free(&in.frag[j]);
	in.nfrag = k;
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

int main(int argc, char **argv)
{
	struct cs_opts o = {
		.format = CS_TABLE,
		.threshold = 0.02,
		.alpha = 0.01,
		.tree = CS_DEFAULT_TREE,
		.out = stdout,
	};
	const char *outfile = NULL, *color = "auto";
	unsigned long long u;
	double d;
	int c, ret;

	o.sysroot = getenv("CYCLESTAT_SYSROOT");
	while ((c = getopt_long(argc, argv, "f:o:d:t:a:c:qhV", long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "table"))
				o.format = CS_TABLE;
			else if (!strcmp(optarg, "json"))
				o.format = CS_JSON;
			else if (!strcmp(optarg, "csv"))
				o.format = CS_CSV;
			else if (!strcmp(optarg, "gbench"))
				o.format = CS_GBENCH;
			else
				return usage("--format: '%s' is not table, json, csv or gbench", optarg);
			break;
		case OPT_HIST:
			o.hist = 1;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'd':
			o.tree = optarg;
			break;
		case 't':
			if (parse_double("--threshold", optarg, 0, 1e6, &d))
				return 2;
			o.threshold = d / 100;
			break;
		case 'a':
			if (parse_double("--alpha", optarg, 0, 1, &d))
				return 2;
			o.alpha = d;
			break;
		case 'c':
			if (parse_uint("--cpu", optarg, 65535, &u))
				return 2;
			o.cpu = (unsigned int)u;
			break;
		case OPT_STRICT:
			o.strict = 1;
			break;
		case OPT_SYSROOT:
			o.sysroot = optarg;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
				return usage("--color: '%s' is not auto, always or never", optarg);
			color = optarg;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("cyclestat " CS_VERSION "\n");
			return 0;
		default:
			return usage(NULL);
		}
	}
	if (o.sysroot && !*o.sysroot)
		o.sysroot = NULL;
	argv += optind;
	argc -= optind;
	o.tty = isatty(2);
	o.color = !strcmp(color, "always") ||
		  (!strcmp(color, "auto") && !outfile && isatty(1) && getenv("NO_COLOR") == NULL);
	if (outfile) {
		o.out = fopen(outfile, "w");
		if (!o.out) {
			fprintf(stderr, "cyclestat: %s: cannot create: %s\n", outfile, strerror(errno));
			return 2;
		}
	}
	if (argc && !strcmp(argv[0], "save")) {
		if (argc != 2)
			return usage("save: expected one directory, got %s", argc < 2 ? "none" : "more");
		ret = save(&o, argv[1]);
	} else if (argc && !strcmp(argv[0], "compare")) {
		if (argc != 3)
			return usage("compare: expected BASE and NEW");
		ret = cs_compare(&o, argv[1], argv[2]);
	} else if (argc && !strcmp(argv[0], "run")) {
		ret = run(&o, argc - 1, argv + 1);
	} else if (argc && !strcmp(argv[0], "doctor")) {
		if (argc != 1)
			return usage("doctor: unexpected '%s' (use --cpu N)", argv[1]);
		ret = cs_doctor(&o);
	} else if (argc) {
		ret = summary(&o, argv, argc);
	} else {
		char *def[] = { (char *)o.tree };

		ret = summary(&o, def, 1);
	}
	if (outfile && ret == 2) {
		/* nothing half-written: an input error leaves no output file */
		fclose(o.out);
		unlink(outfile);
		return ret;
	}
	if (fflush(o.out) || ferror(o.out) || (outfile && fclose(o.out))) {
		fprintf(stderr, "cyclestat: %s: write error: %s\n", outfile ? outfile : "stdout",
			strerror(errno));
		return 2;
	}
	return ret;
}
