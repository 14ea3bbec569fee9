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
		ret = cs_save(&o, argv[1]);
	} else if (argc && !strcmp(argv[0], "compare")) {
		if (argc != 3)
			return usage("compare: expected BASE and NEW");
		ret = cs_compare(&o, argv[1], argv[2]);
	} else if (argc && !strcmp(argv[0], "run")) {
		ret = cs_run(&o, argc - 1, argv + 1);
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
