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

#include "model.h"
#include "read.h"
#include "report.h"
#include "commands.h"

/* the help: this head, each command's lines (commands[]), then the options */
static const char usage_head[] =
	"usage: cyclestat [options] [DIR|FILE|-]...   summary of each input\n"
	"       (the default input: " CS_DEFAULT_TREE ")\n";

static const char usage_options[] =
	"  After the inputs, fragment names, groups or globs (alu:add_dep, alu,\n"
	"  'loop:*') select what is shown.\n"
	"\n"
	"  -f, --format FMT     table (default), json, csv, gbench (Google\n"
	"                       Benchmark's JSON), svg (drawn: as plot) or markdown\n"
	"                       (a pull request comment); compare also tap (a CI\n"
	"                       gate's TAP: not ok where it fails)\n"
	"      --hist           histogram per fragment (with csv: the bins as CSV)\n"
	"      --brief          one short table: per-op cost and interval, median, far\n"
	"      --sweep          Paoloni's resolution table of each argument sweep\n"
	"                       (group:name/ARG)\n"
	"      --undisturbed[=all]  leave out the samples an NMI hit or a body's wait\n"
	"                       timed out in (flags file), and from the counter\n"
	"                       figures those whose counters perf rewrote or that\n"
	"                       did not count; =all: also the samples right after\n"
	"                       an interrupt or switch\n"
	"  -o, --output FILE    write results to FILE instead of stdout\n"
	"  -d, --tree DIR       the cyclebench debugfs tree (default: as above)\n"
	"  -t, --threshold PCT  compare: changes within PCT% are 'same' (default 2)\n"
	"  -a, --alpha A        compare: significance level (default 0.01)\n"
	"  -c, --cpu N          doctor: the CPU to check (default 0)\n"
	"      --strict         doctor: exit 1 on a problem; compare: mismatched\n"
	"                       runs are an error; compare, summary: inputs that\n"
	"                       leave out what was asked for are an error\n"
	"      --allow-missing  compare: a fragment missing from NEW does not fail\n"
	"      --ensembles      compare: one run's ensembles as repetitions (the\n"
	"                       spread within a run only)\n"
	"      --ticks          compare: TSC ticks, even where every run has its\n"
	"                       calib:add_chain\n"
	"      --paired         compare: BASE's k-th repetition with NEW's k-th (run\n"
	"                       alternately, or interleaved in one run): Wilcoxon\n"
	"                       signed-rank\n"
	"      --clock C        ab: icount (the runs counted instructions: exact\n"
	"                       rows, no interval) or time (default: compare's rows)\n"
	"      --sysroot DIR    doctor: read /proc, /sys, /dev below DIR\n"
	"                       ($CYCLESTAT_SYSROOT)\n"
	"      --color WHEN     auto (default), always or never\n"
	"  -q, --quiet          no warnings, no progress bar\n"
	"  -h, --help           this help;  -V, --version  the version\n"
	"\n"
	"SPEC: all, a group, group:name, or a comma-separated list of those;\n"
	"keys: samples= ensembles= warmup= method=paoloni|lfence cpu= args= pmu=on|off\n"
	"interleave=0|1 references=0|1.  See cyclestat(1).\n";

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
	/* the error, then one line: the whole text is --help's */
	fputs("usage: cyclestat [options] [DIR|FILE|-]... | save DIR | compare BASE NEW | run | doctor\n"
	      "       (cyclestat --help: every option)\n", stderr);
	return 2;
}

enum { OPT_HIST = 256, OPT_BRIEF, OPT_STRICT, OPT_SYSROOT, OPT_COLOR, OPT_ALLOW_MISSING, OPT_SWEEP,
       OPT_ENSEMBLES, OPT_UNDISTURBED, OPT_TICKS, OPT_PAIRED,
       OPT_CLOCK };

static const struct option long_options[] = {
	{ "format",	required_argument,	NULL, 'f' },
	{ "hist",	no_argument,		NULL, OPT_HIST },
	{ "brief",	no_argument,		NULL, OPT_BRIEF },
	{ "sweep",	no_argument,		NULL, OPT_SWEEP },
	{ "undisturbed", optional_argument,	NULL, OPT_UNDISTURBED },
	{ "output",	required_argument,	NULL, 'o' },
	{ "tree",	required_argument,	NULL, 'd' },
	{ "threshold",	required_argument,	NULL, 't' },
	{ "alpha",	required_argument,	NULL, 'a' },
	{ "cpu",	required_argument,	NULL, 'c' },
	{ "strict",	no_argument,		NULL, OPT_STRICT },
	{ "allow-missing", no_argument,		NULL, OPT_ALLOW_MISSING },
	{ "ensembles",	no_argument,		NULL, OPT_ENSEMBLES },
	{ "ticks",	no_argument,		NULL, OPT_TICKS },
	{ "paired",	no_argument,		NULL, OPT_PAIRED },
	{ "clock",	required_argument,	NULL, OPT_CLOCK },
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

/*
 * Inputs that are sweep=cpus directories (cyclebench-user), each by itself
 * (cs_print_contention): a table, CSV, or the contention curve drawn.
 * -1 where none is a sweep.
 */
static int sweeps(const struct cs_opts *o, char **paths, int n)
{
	char ***steps = calloc((size_t)n, sizeof(*steps));
	unsigned int **k = calloc((size_t)n, sizeof(*k));
	size_t *ns = calloc((size_t)n, sizeof(*ns));
	struct cs_err err = { 0 };
	int i, nsweep = 0, ret = 2;

	if (!steps || !k || !ns) {
		fprintf(stderr, "cyclestat: out of memory\n");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (cs_sweep_steps(paths[i], &steps[i], &k[i], &ns[i], &err)) {
			cs_perror(&err);
			goto out;
		}
		nsweep += ns[i] > 0;
	}
	ret = -1;
	if (!nsweep)
		goto out;
	ret = 2;
	for (int w = 0; w < n; w++)	/* a sweep, to name */
		if (ns[w])
			for (i = 0; i < n; i++)
				if (!ns[i]) {
					fprintf(stderr, "cyclestat: %s is a sweep=cpus directory: summarize it by itself (or %s beside a step of it, e.g. %s)\n",
						paths[w], paths[i], steps[w][ns[w] - 1]);
					goto out;
				}
	if ((o->format != CS_TABLE && o->format != CS_CSV && o->format != CS_SVG) || o->sweep ||
	    o->hist || o->brief || (o->format == CS_SVG && n > 1)) {
		fprintf(stderr, "cyclestat: %s is a sweep=cpus directory: it prints as a table, --format csv or svg (plot, one sweep a drawing), without --sweep, --hist or --brief; one step of it takes them all: %s\n",
			paths[0], steps[0][ns[0] - 1]);
		goto out;
	}
	for (i = 0, ret = 0; i < n && !ret; i++)
		ret = cs_print_contention(o, paths[i], steps[i], k[i], ns[i]);
out:
	for (i = 0; steps && k && ns && i < n; i++) {
		for (size_t s = 0; s < ns[i]; s++)
			free(steps[i][s]);
		free(steps[i]);
		free(k[i]);
	}
	free(steps);
	free(k);
	free(ns);
	return ret;
}

static int summary(const struct cs_opts *o, char **paths, int n)
{
	struct cs_input *in;
	struct cs_err err = { 0 };
	size_t shown = 0;
	int i, ret = sweeps(o, paths, n);

	if (ret >= 0)
		return ret;
	ret = 0;
	in = calloc((size_t)n, sizeof(*in));
	if (!in) {
		fprintf(stderr, "cyclestat: out of memory\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (cs_load_input(paths[i], &in[i], &err)) {
			cs_perror(&err);
			/* a mistyped path reads as a filter; say so where no input was given */
			if (o->nfilter && !strcmp(paths[i], o->tree) && !cs_is_dir(o->tree))
				fprintf(stderr, "cyclestat: (no file or directory '%s' here: a word that names none is read as a fragment filter on %s)\n",
					o->filter[0], o->tree);
			ret = 2;
			break;
		}
	}
	if (!ret && cs_inputs_refused(o, in, (size_t)n, NULL, 0))
		ret = 2;
	/* the filter: figures were computed with every fragment (net needs base:empty) */
	for (int k = 0; !ret && k < n; k++) {
		size_t m = 0;

		for (size_t j = 0; j < in[k].nfrag; j++) {
			if (cs_match(o, in[k].frag[j].name))
				in[k].frag[m++] = in[k].frag[j];
			else
				cs_frag_free(&in[k].frag[j]);
		}
		in[k].nfrag = m;
		shown += m;
	}
	if (!ret && !shown) {
		fprintf(stderr, "cyclestat: no fragment matches %s%s; names are group:name[/ARG], e.g. alu:add_dep, alu, 'loop:*'\n",
			o->filter[0], o->nfilter > 1 ? " ..." : "");
		ret = 2;
	}
	if (!ret && o->sweep) {
		int k = cs_print_sweeps(o, in, (size_t)n);

		if (k <= 0) {
			fprintf(stderr, "cyclestat: --sweep: no fragment with two or more arguments (group:name/ARG) here\n");
			ret = 2;
		}
	} else if (!ret) {
		cs_print(o, in, (size_t)n);
	}
	while (i-- > 0)
		cs_input_free(&in[i]);
	free(in);
	return ret;
}

/*
 * The options only some commands take (set[] of struct cli says which
 * were given): compare's (and ab's), doctor's, and --strict, which
 * check_options() judges itself.
 */
enum bound_opt {
	B_THRESHOLD, B_ALPHA, B_CPU, B_STRICT, B_ALLOW_MISSING, B_SYSROOT,
	B_ENSEMBLES, B_TICKS, B_PAIRED, NR_BOUND
};

enum { FOR_COMPARE = 1, FOR_DOCTOR };

static const struct {
	const char *name;
	int only;	/* FOR_*, 0: judged apart */
} bound_opts[NR_BOUND] = {
	[B_THRESHOLD] = { "--threshold", FOR_COMPARE },
	[B_ALPHA] = { "--alpha", FOR_COMPARE },
	[B_CPU] = { "--cpu", FOR_DOCTOR },
	[B_STRICT] = { "--strict", 0 },
	[B_ALLOW_MISSING] = { "--allow-missing", FOR_COMPARE },
	[B_SYSROOT] = { "--sysroot", FOR_DOCTOR },
	[B_ENSEMBLES] = { "--ensembles", FOR_COMPARE },
	[B_TICKS] = { "--ticks", FOR_COMPARE },
	[B_PAIRED] = { "--paired", FOR_COMPARE },
};

/* cyclestat's commands, commands[]'s rows; CMD_SUMMARY: none named, the words are inputs */
enum cmd_id { CMD_SAVE, CMD_COMPARE, CMD_AB, CMD_RUN, CMD_DOCTOR, CMD_PLOT, CMD_HELP, CMD_SUMMARY };

/* an option the command @id (its word @cmd) would ignore is an error, not silence */
static int check_options(const struct cs_opts *o, enum cmd_id id, const char *cmd, const int *set)
{
	int compare = id == CMD_COMPARE || id == CMD_AB, doctor = id == CMD_DOCTOR;
	int writes = id == CMD_SAVE || id == CMD_RUN;

	/* compare's first, then doctor's: one message, the same whatever the order given */
	for (int k = 0; k < NR_BOUND; k++)
		if (set[k] && bound_opts[k].only == FOR_COMPARE && !compare)
			return usage("%s is for compare only", bound_opts[k].name);
	for (int k = 0; k < NR_BOUND; k++)
		if (set[k] && bound_opts[k].only == FOR_DOCTOR && !doctor)
			return usage("%s is for doctor only", bound_opts[k].name);
	if (o->clock && id != CMD_AB)
		return usage("--clock is for ab only");
	if (set[B_STRICT] && writes)
		return usage("--strict is for summaries, compare and doctor");
	if (o->format == CS_TAP && !compare)
		return usage("--format tap is compare's format (its verdicts as TAP): use it with compare, not with %s",
			     doctor || writes ? cmd : "a summary");
	if (o->format == CS_SVG && (compare || doctor || writes))
		return usage("--format svg (plot) draws a summary: not with %s", cmd);
	if (o->format == CS_MARKDOWN && (doctor || writes))
		return usage("--format markdown is for a summary or compare (a pull request comment): not with %s", cmd);
	if (o->hist && o->format == CS_MARKDOWN)
		return usage("--hist with --format markdown: the histograms are the table's (--hist) or csv's");
	if (o->hist && o->format == CS_GBENCH)
		return usage("--hist with --format gbench: Google Benchmark JSON has no histograms; use --hist alone, or with json or csv");
	if (o->sweep && (o->format != CS_TABLE || o->hist || compare || doctor || writes))
		return usage("--sweep is a table of a summary: no --format, --hist or command with it");
	if (o->hist && (doctor || id == CMD_SAVE))
		return usage("--hist has no meaning for %s", cmd);
	if (o->brief && (o->format != CS_TABLE || o->hist || o->sweep || compare || doctor ||
			 id == CMD_SAVE))
		return usage("--brief is the short table of a summary: no --format, --hist, --sweep or command with it");
	return 0;
}

/*
 * Words after the inputs that are no path but a fragment name, group or
 * glob become the filter; returns the new argc. argv[0] is the command
 * (or a placeholder) and stays.
 */
static int take_filters(struct cs_opts *o, int argc, char **argv)
{
	struct stat st;
	int k = 1;

	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (strcmp(w, "-") && stat(w, &st) && w[0] != '/' && w[0] != '.' &&
		    strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:/*?[]-") == strlen(w)) {
			char **f = realloc(o->filter, (o->nfilter + 1) * sizeof(*f));

			if (!f)
				return argc;
			o->filter = f;
			o->filter[o->nfilter++] = argv[i];
		} else {
			argv[k++] = argv[i];
		}
	}
	return k;
}

/* no-color.org: NO_COLOR set to a non-empty value turns colour off */
static int no_color(void)
{
	const char *v = getenv("NO_COLOR");

	return v && *v;
}

/* ---- the commands ---- */

/*
 * The words after the options: argv[0] is the command (or the first
 * input), and what followed "--" stands apart in tail.
 */
struct words {
	int argc;
	char **argv;
	char **tail;
	int ntail;
	int dashdash;
	int misused;	/* misuse(): main returns at once */
};

/*
 * A command's usage error returns from main() at once, as it always has:
 * -o's file stays as it was opened (an input error's is removed).
 */
static int misuse(struct words *w, int ret)
{
	w->misused = 1;
	return ret;
}

static int cmd_save(struct cs_opts *o, struct words *w)
{
	if (w->argc != 2)
		return misuse(w, usage("save: expected one directory, got %s",
				       w->argc < 2 ? "none" : "more"));
	return cs_save(o, w->argv[1]);
}

static int cmd_compare(struct cs_opts *o, struct words *w)
{
	int argc = take_filters(o, w->argc, w->argv);

	if (w->dashdash && (argc < 2 || w->ntail < 1))
		return misuse(w, usage("compare: expected BASE... -- NEW..."));
	if (w->dashdash)
		return cs_compare(o, w->argv + 1, (size_t)argc - 1, w->tail,
				  (size_t)take_filters(o, w->ntail + 1, w->tail - 1) - 1);
	if (argc != 3 && o->nfilter && argc < 3)
		return misuse(w, usage("compare: expected BASE and NEW; '%s' is no file or directory (a word that names none is a fragment filter)",
			     o->filter[0]));
	if (argc != 3)
		return misuse(w, usage("compare: expected BASE and NEW (or BASE... -- NEW...)"));
	return cs_compare(o, w->argv + 1, 1, w->argv + 2, 1);
}

static int cmd_ab(struct cs_opts *o, struct words *w)
{
	int argc = take_filters(o, w->argc, w->argv);

	if (!w->dashdash || argc < 2 || w->ntail < 1)
		return misuse(w, usage("ab: expected A... -- B... (each side's runs)"));
	return cs_ab(o, w->argv + 1, (size_t)argc - 1, w->tail,
		     (size_t)take_filters(o, w->ntail + 1, w->tail - 1) - 1);
}

static int cmd_run(struct cs_opts *o, struct words *w)
{
	return cs_run(o, w->argc - 1, w->argv + 1);
}

static int cmd_doctor(struct cs_opts *o, struct words *w)
{
	if (w->argc != 1)
		return misuse(w, usage("doctor: unexpected '%s' (use --cpu N)", w->argv[1]));
	return cs_doctor(o);
}

/* no command: a summary of the inputs, or of the tree */
static int cmd_summary(struct cs_opts *o, struct words *w)
{
	char *def[] = { (char *)o->tree };
	char **all;
	int argc, ret;

	if (!w->argc && !w->ntail)
		return summary(o, def, 1);
	/* "--" ends the options only: what follows is more inputs */
	all = calloc((size_t)(w->argc + w->ntail) + 1, sizeof(*all));
	if (!all)
		return misuse(w, 2);
	all[0] = "summary";
	memcpy(all + 1, w->argv, (size_t)w->argc * sizeof(*all));
	if (w->ntail)
		memcpy(all + 1 + w->argc, w->tail, (size_t)w->ntail * sizeof(*all));
	argc = take_filters(o, w->argc + w->ntail + 1, all);
	ret = argc > 1 ? summary(o, all + 1, argc - 1) : summary(o, def, 1);
	free(all);
	return ret;
}

/*
 * Each command: its name, what runs it, its lines of the help.  plot and
 * help are main()'s own (before the options are checked and the output
 * opened): no handler.  The order is the typo check's.
 */
static const struct command {
	const char *name;
	int (*run)(struct cs_opts *o, struct words *w);
	const char *usage;
} commands[] = {
	[CMD_SAVE] = { "save",		cmd_save,
	  "       cyclestat [options] save DIR           copy the tree's results to DIR\n" },
	[CMD_COMPARE] = { "compare",	cmd_compare,
	  "       cyclestat [options] compare BASE NEW   exit 1 if something got slower\n"
	  "       cyclestat [options] compare BASE... -- NEW...   several runs a side\n" },
	[CMD_AB] = { "ab",		cmd_ab,
	  "       cyclestat [options] ab [--clock icount|time] A... -- B...   make ab's\n"
	  "                       table: exact instructions per op under icount\n" },
	[CMD_RUN] = { "run",		cmd_run,
	  "       cyclestat [options] run [SPEC] [key=value]...   run, then summarise\n" },
	[CMD_DOCTOR] = { "doctor",	cmd_doctor,
	  "       cyclestat [options] doctor             check this machine\n" },
	[CMD_PLOT] = { "plot",		NULL,
	  "       cyclestat [options] plot [DIR|FILE]... the summary drawn (SVG)\n" },
	[CMD_HELP] = { "help",		NULL,
	  "       cyclestat help                         this text\n" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* the command named by the first word; CMD_SUMMARY: none, the words are inputs */
static enum cmd_id command_of(const struct words *w)
{
	for (size_t i = 0; w->argc && i < NCOMMANDS; i++)
		if (!strcmp(w->argv[0], commands[i].name))
			return (enum cmd_id)i;
	return CMD_SUMMARY;
}

static int help(void)
{
	fputs(usage_head, stdout);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fputs(commands[i].usage, stdout);
	fputs(usage_options, stdout);
	return 0;
}

/* Damerau-Levenshtein distance of two short words (at most 31 bytes) */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), d[32][32];

	if (la > 31 || lb > 31)
		return 99;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int c = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + c;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* a word that is no path and nearly a command: say which one */
static int is_typo(const char *w)
{
	struct stat st;

	if (strpbrk(w, ":/.*?[") || !stat(w, &st))
		return 0;
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(w, commands[i].name))
			return 0;
		/* (a two-letter command, ab, is near any short word: one edit) */
		if (distance(w, commands[i].name) <= (strlen(commands[i].name) < 3 ? 1 : 2)) {
			fprintf(stderr, "cyclestat: unknown command '%s' (did you mean %s?)\n", w,
				commands[i].name);
			return 1;
		}
	}
	return 0;
}

/* ---- options ---- */

/*
 * What main() needs beyond struct cs_opts: -o's file, --color, and which
 * command-bound options were given (enum bound_opt).
 */
struct cli {
	const char *outfile;
	const char *color;
	int set[NR_BOUND];
};

static const struct {
	const char *name;
	enum cs_format format;
} formats[] = {
	{ "table", CS_TABLE }, { "json", CS_JSON }, { "csv", CS_CSV }, { "gbench", CS_GBENCH },
	{ "tap", CS_TAP }, { "svg", CS_SVG }, { "markdown", CS_MARKDOWN }, { "md", CS_MARKDOWN },
};

static int parse_format(const char *name, enum cs_format *format)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(name, formats[i].name)) {
			*format = formats[i].format;
			return 0;
		}
	return usage("--format: '%s' is not table, json, csv, gbench, svg or markdown (or tap, for compare)",
		     name);
}

/* -t, -a, -c: a number checked and stored; 2 where it is none */
static int parse_number(struct cs_opts *o, struct cli *c, int opt)
{
	unsigned long long u;
	double d;

	switch (opt) {
	case 't':
		c->set[B_THRESHOLD] = 1;
		if (parse_double("--threshold", optarg, 0, 1e6, &d))
			return 2;
		o->threshold = d / 100;
		return 0;
	case 'a':
		c->set[B_ALPHA] = 1;
		if (parse_double("--alpha", optarg, 0, 1, &d))
			return 2;
		/* at 0 nothing is ever significant, at 1 everything is */
		if (d <= 0 || d >= 1)
			return usage("--alpha: '%s' must lie strictly between 0 and 1 (e.g. 0.01)", optarg);
		o->alpha = d;
		return 0;
	case 'c':
		c->set[B_CPU] = 1;
		if (parse_uint("--cpu", optarg, 65535, &u))
			return 2;
		o->cpu = (unsigned int)u;
		return 0;
	}
	return 0;
}

/*
 * The options into @o and @c: -1 to go on, else the exit status (2 for a
 * bad option, 0 after --help or --version).
 */
static int parse_options(struct cs_opts *o, struct cli *c, int argc, char **argv)
{
	int opt;

	opterr = 0;	/* getopt's own messages would not start with "cyclestat:" */
	while ((opt = getopt_long(argc, argv, ":f:o:d:t:a:c:qhV", long_options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (parse_format(optarg, &o->format))
				return 2;
			break;
		case OPT_HIST:
			o->hist = 1;
			break;
		case OPT_BRIEF:
			o->brief = 1;
			break;
		case OPT_SWEEP:
			o->sweep = 1;
			break;
		case OPT_UNDISTURBED:
			if (optarg && strcmp(optarg, "all"))
				return usage("--undisturbed: '%s' is not 'all' (or nothing)", optarg);
			cs_drop_mask = optarg ? CS_DROP_ALL : CS_DROP_DEFAULT;
			break;
		case 'o':
			c->outfile = optarg;
			break;
		case 'd':
			o->tree = optarg;
			break;
		case 't':
		case 'a':
		case 'c':
			if (parse_number(o, c, opt))
				return 2;
			break;
		case OPT_STRICT:
			o->strict = 1;
			c->set[B_STRICT] = 1;
			break;
		case OPT_ALLOW_MISSING:
			o->allow_missing = 1;
			c->set[B_ALLOW_MISSING] = 1;
			break;
		case OPT_ENSEMBLES:
			o->ensembles = 1;
			c->set[B_ENSEMBLES] = 1;
			break;
		case OPT_TICKS:
			o->ticks = 1;
			c->set[B_TICKS] = 1;
			break;
		case OPT_PAIRED:
			o->paired = 1;
			c->set[B_PAIRED] = 1;
			break;
		case OPT_CLOCK:
			if (strcmp(optarg, "icount") && strcmp(optarg, "time"))
				return usage("--clock: '%s' is not icount or time", optarg);
			o->clock = optarg;
			break;
		case OPT_SYSROOT:
			c->set[B_SYSROOT] = 1;
			o->sysroot = optarg;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
				return usage("--color: '%s' is not auto, always or never", optarg);
			c->color = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			return help();
		case 'V':
			printf("cyclestat " CS_VERSION "\n");
			return 0;
		case ':':
			return usage("%s needs an argument", argv[optind - 1]);
		default:
			if (optopt > 0 && optopt < OPT_HIST)
				return usage("unknown option -%c", optopt);
			if (optopt)	/* a long option's value, which it does not take */
				return usage("%s: this option takes no value", argv[optind - 1]);
			return usage("unknown option %s (or an ambiguous abbreviation)", argv[optind - 1]);
		}
	}
	if (o->sysroot && !*o->sysroot)
		o->sysroot = NULL;
	return -1;
}

/* ---- output ---- */

/* colour, the progress bar's TTY and -o's file: 0, or 2 where it cannot be created */
static int open_output(struct cs_opts *o, const struct cli *c)
{
	o->tty = isatty(2);
	o->color = !strcmp(c->color, "always") ||
		   (!strcmp(c->color, "auto") && !c->outfile && isatty(1) && !no_color());
	if (c->outfile) {
		o->out = fopen(c->outfile, "w");
		if (!o->out) {
			fprintf(stderr, "cyclestat: %s: cannot create: %s\n", c->outfile, strerror(errno));
			return 2;
		}
	}
	return 0;
}

/* the output flushed and closed; an input error (@ret 2) leaves no file behind */
static int close_output(const struct cs_opts *o, const struct cli *c, int ret)
{
	if (c->outfile && ret == 2) {
		/* nothing half-written: an input error leaves no output file */
		fclose(o->out);
		unlink(c->outfile);
		return ret;
	}
	if (fflush(o->out) || ferror(o->out) || (c->outfile && fclose(o->out))) {
		fprintf(stderr, "cyclestat: %s: write error: %s\n", c->outfile ? c->outfile : "stdout",
			strerror(errno));
		return 2;
	}
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
	struct cli c = { .color = "auto" };
	struct words w = { 0 };
	enum cmd_id id;
	int ret;

	/* "BASE... -- NEW...": getopt would swallow the "--"; split first */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			w.tail = argv + i + 1;
			w.ntail = argc - i - 1;
			argc = i;
			w.dashdash = 1;
			break;
		}
	o.sysroot = getenv("CYCLESTAT_SYSROOT");
	ret = parse_options(&o, &c, argc, argv);
	if (ret >= 0)
		return ret;
	w.argv = argv + optind;
	w.argc = argc - optind;
	id = command_of(&w);
	if (id == CMD_HELP)
		return help();
	if (w.argc && is_typo(w.argv[0]))
		return 2;
	/* plot: the summary drawn, --format svg */
	if (id == CMD_PLOT) {
		if (o.format != CS_TABLE && o.format != CS_SVG)
			return usage("plot draws SVG: no --format with it");
		o.format = CS_SVG;
		w.argv++;
		w.argc--;
		id = command_of(&w);
	}
	ret = check_options(&o, id, w.argc ? w.argv[0] : "", c.set);
	if (ret)
		return ret;
	ret = open_output(&o, &c);
	if (ret)
		return ret;
	ret = id < CMD_SUMMARY && commands[id].run ? commands[id].run(&o, &w) : cmd_summary(&o, &w);
	if (w.misused)
		return ret;
	free(o.filter);
	return close_output(&o, &c, ret);
}
