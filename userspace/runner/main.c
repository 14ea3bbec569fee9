// SPDX-License-Identifier: GPL-2.0
/*
 * cyclebench-user - the portable cyclebench fragments, timed in a process.
 *
 * Where the module cannot load (no module support, a container, Secure
 * Boot lockdown, no root) the fragments that need no kernel still measure
 * real silicon from userspace: the same bodies, compiled from the same
 * kmod/fragments/ files, the same timing methods and run request, and the
 * same result tree as debugfs, with "mode: user" and "interrupts: on" in
 * its info.  cyclestat reads it unchanged:
 *
 *	cyclebench-user -o out alu,mem samples=10000 cpu=1
 *	cyclestat out
 *
 * The process pins itself to cpu= (sched_setaffinity), locks its memory
 * (mlockall) so no page fault lands in a sample, spins a while so the core
 * leaves its idle clock, then runs ensembles x samples with warm-up.
 * Interrupts stay on: a sample an interrupt lands in is an outlier that
 * the median and the minimum ignore.
 *
 * Exit: 0 done, 1 a run or write error, 2 a usage error, 130 interrupted.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdarg.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runner.h"

static struct cb_run req;
/* the request as parsed (lib/grammar.c), before it becomes the run's */
static struct cb_req parsed;

/*
 * --help: the whole text on stdout, exit 0.  A usage error: what is wrong
 * and a one-line hint on stderr, exit 2.
 */
/* "|16" ...: a long_repeat= the runner takes, for its usage */
#define REPEAT_WORD(r) "|" #r

static void usage(const char *why)
{
	if (why) {
		fprintf(stderr, "cyclebench-user: %s\n"
			"usage: cyclebench-user [-o DIR [--force]] [-q] [SELECTION] [key=value ...] (--help for more)\n",
			why);
		exit(2);
	}
	printf("usage: cyclebench-user [-o DIR [--force]] [-q] [SELECTION] [key=value ...]\n"
		"       cyclebench-user --c2c [-o DIR [--force]] [-q] cpus=LIST [samples=N ...]\n"
		"       cyclebench-user --list | --help | --version\n"
		"  SELECTION  all (default; leaves out slow fragments), GROUP, GROUP:NAME,\n"
		"             GROUP:NAME/ARG, or a comma-separated list of those\n"
		"  keys       samples=N (per ensemble, default " CB_STR(CB_DEF_SAMPLES)
		"), ensembles=N (" CB_STR(CB_DEF_ENSEMBLES) "),\n"
		"             warmup=N (" CB_STR(CB_DEF_WARMUP)
		"), method=paoloni|lfence (lfence under a\n"
		"             hypervisor, else paoloni), cpu=N (0), cpus=LIST (e.g.\n"
		"             0-3: run on those CPUs at once, started together each\n"
		"             sample; each CPU's samples kept), args=A,B,... (the\n"
		"             arguments of the selected fragments that take one),\n"
		"             max_mb=N (" CB_STR(CB_DEF_MAX_MB)
		": largest sample and buffer memory),\n"
		"             long_repeat=auto" CB_LONG_REPEAT_LIST(REPEAT_WORD)
		" (copies of the body in the\n"
		"             long region; auto: enough for the difference to span\n"
		"             a few hundred TSC steps), interleave=0|1 (1, the default:\n"
		"             ensemble by ensemble across the results, so all see the\n"
		"             same core clocks where turbo or a busy host moves them;\n"
		"             0: each result's ensembles in a row),\n"
		"             references=0|1 (1: base:empty and the calib chains run\n"
		"             whatever the selection, for net figures and core cycles),\n"
		"             sweep=cpus (with cpus=: the run on the first 1, 2, 4 ...\n"
		"             of them in turn and on all; a tree each, DIR/k1 ...)\n"
		"  -o DIR     where the result tree goes (default cyclebench-user.out,\n"
		"             replaced each run); a tree already in DIR is kept\n"
		"  --force    replace the tree in DIR\n"
		"  --c2c      the core-to-core matrix: for each pair of cpus=, a cache\n"
		"             line's round trips (c2c:cpuA_cpuB), one-way ns printed\n"
		"             and kept in DIR/c2c.txt beside c2clat's method\n"
		"  -q         no progress line\n");
	exit(0);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A usage error: what is wrong and, where there is one, the fix; exit 2. */
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("cyclebench-user: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static u32 result_ops(const struct cb_fragment *frag, u64 arg)
{
	if (frag->ops_is_arg)
		return arg ? (u32)(arg > 0xffffffffu ? 0xffffffffu : arg) : 1;
	return frag->ops;
}

/* What cyclebench-user runs, for the request parser (lib/grammar.c). */
static const struct cb_catalog catalog = {
	.side = CB_SIDE_RUNNER,
	.list_hint = "cyclebench-user --list shows them; kernel-only groups need the module",
};

/*
 * The words after the options, as one request in the module's grammar:
 * the selection first (the first word without '=', wherever it stands on
 * the command line, or "all" where there is none: the runner's default),
 * then the other words in their order.
 */
static char *join_words(int argc, char **argv, int first)
{
	size_t len = sizeof("all");
	int sel = -1;
	char *cmd, *p;

	for (int i = first; i < argc; i++) {
		len += strlen(argv[i]) + 1;
		if (sel < 0 && !strchr(argv[i], '='))
			sel = i;
	}
	cmd = malloc(len);
	if (!cmd)
		die("out of memory");
	p = cmd + sprintf(cmd, "%s", sel < 0 ? "all" : argv[sel]);
	for (int i = first; i < argc; i++)
		if (i != sel)
			p += sprintf(p, " %s", argv[i]);
	return cmd;
}

static void list(void)
{
	printf("# group:name[/ARG (its values)]  ops per run (ARG: the argument's)  what one run does\n");
	for (unsigned int g = 0; g < cb_nr_user_groups; g++) {
		const struct cb_group *grp = cb_user_groups[g];

		for (unsigned int f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];

			printf("%s:%s", grp->name, frag->name);
			if (frag->nr_args) {
				printf("/ARG (");
				for (unsigned int a = 0; a < frag->nr_args; a++)
					printf("%s%llu", a ? "," : "", (unsigned long long)frag->args[a]);
				printf(")");
			}
			if (frag->ops_is_arg)
				printf(" ARG");
			else
				printf(" %u", frag->ops);
			printf(" %s%s\n", frag->desc, frag->slow ? " [slow]" : "");
		}
	}
	if (cb_kernel_groups[0]) {
		printf("kernel-only (need the module):");
		for (const char *const *k = cb_kernel_groups; *k; k++)
			printf(" %s", *k);
		printf("\n");
	}
}

/*
 * Locks the process's memory so no page fault lands in a sample.  Future
 * mappings too (the sample arrays, a chase's buffer) where the lock limit
 * allows them: else a big allocation would fail against it.  Without, the
 * arrays and buffers are still touched before they are timed.
 */
static void lock_memory(u64 need)
{
	struct rlimit rl;
	int future = geteuid() == 0 ||
		     (!getrlimit(RLIMIT_MEMLOCK, &rl) &&
		      (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need + (64u << 20)));

	if (!mlockall(MCL_CURRENT | (future ? MCL_FUTURE : 0)) && future)
		return;
	if (!req.quiet)
		fprintf(stderr, "cyclebench-user: note: cannot lock %llu MiB (ulimit -l): pages are touched before they are timed, but may be paged out; run as root or raise ulimit -l\n",
			(unsigned long long)((need >> 20) + 64));
}

/* --c2c: the pairs measured, the tree written, the matrix shown and kept */
static int c2c_main(struct cb_run *run, const struct cb_machine *m)
{
	char *path;
	FILE *f;
	int ret = cb_c2c(run);

	if (ret == -EINTR) {
		fprintf(stderr, "cyclebench-user: interrupted; nothing written\n");
		return 130;
	}
	if (ret) {
		fprintf(stderr, "cyclebench-user: --c2c: %s\n", strerror(-ret));
		return 1;
	}
	if (cb_write_tree(run, m) || cb_c2c_note(run) || asprintf(&path, "%s/c2c.txt", run->out) < 0)
		return 1;
	f = fopen(path, "we");
	free(path);
	if (!f || cb_c2c_print(run, m, f) || fclose(f) || cb_c2c_print(run, m, stdout))
		return 1;
	if (!run->quiet)
		fprintf(stderr, "cyclebench-user: %u pair%s in %s (the matrix: %s/c2c.txt); cyclestat %s\n",
			run->nr, run->nr == 1 ? "" : "s", run->out, run->out, run->out);
	return 0;
}

/*
 * sweep=cpus: the run on the first k CPUs of cpus= at once, for k = 1, 2,
 * 4 ... and all of them, one after another; each step's tree is DIR/kK
 * (k1 is a run on the first CPU alone), DIR/info names the steps.  All
 * steps or nothing: an interruption leaves DIR as it was.
 */
static int sweep_main(struct cb_run *run, const struct cb_machine *m)
{
	unsigned int all = run->nr_cpus, k = 1, steps[CB_MAX_CPUS], ns = 0;
	const char *out = run->out;
	int ret = 0, failed = 0;
	char *tmp, *dir;

	if (cb_sweep_begin(out, &tmp))
		return 1;
	for (;;) {
		run->nr_cpus = k > 1 ? k : 0;
		if (!run->quiet)
			fprintf(stderr, "cyclebench-user: sweep=cpus: k=%u of %u\n", k, all);
		ret = cb_run_all(run, m);
		if (!ret && asprintf(&dir, "%s/k%u", tmp, k) < 0)
			ret = -ENOMEM;
		if (!ret) {
			run->out = dir;
			ret = cb_write_tree(run, m) ? -EIO : 0;
			run->out = out;
			free(dir);
		}
		for (unsigned int i = 0; i < run->nr; i++)
			failed |= run->res[i].state == CB_STATE_FAILED;
		cb_results_reset(run, k);
		steps[ns++] = k;
		if (ret || k == all)
			break;
		k = k * 2 < all ? k * 2 : all;
	}
	run->nr_cpus = all;
	if (cb_sweep_end(tmp, run, m, steps, ns, !ret))
		return ret == -EINTR ? 130 : 1;
	if (!run->quiet)
		fprintf(stderr, "cyclebench-user: %u result%s on k = 1 .. %u CPUs in %s/k1 .. k%u%s; summary: cyclestat %s\n",
			run->nr, run->nr == 1 ? "" : "s", all, out, all,
			failed ? " (some failed: see above)" : "", out);
	return failed;
}

/*
 * The options: the output directory into req, --c2c returned; --list,
 * --help and --version exit here, as does a usage error.
 */
static int parse_options(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out",	required_argument,	NULL, 'o' },
		{ "force",	no_argument,		NULL, 'f' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "list",	no_argument,		NULL, 'l' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ "c2c",	no_argument,		NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	int c, named_out = 0, force = 0, c2c = 0;

	req.out = "cyclebench-user.out";
	opterr = 0;	/* usage() says it, once */
	while ((c = getopt_long(argc, argv, "o:fqlhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			req.out = optarg;
			named_out = 1;
			break;
		case 'f':
			force = 1;
			break;
		case 'q':
			req.quiet = 1;
			break;
		case 'l':
			list();
			exit(0);
		case 'h':
			usage(NULL);
			break;
		case 'V':
			printf("cyclebench-user %s\n", CB_VERSION);
			exit(0);
		case 'c':
			c2c = 1;
			break;
		default: {
			char bad[96];

			snprintf(bad, sizeof(bad), "unknown option '%s'", argv[optind - 1]);
			usage(bad);
		}
		}
	}
	if (!*req.out)
		usage("-o: an empty directory name");
	/* a named tree is never replaced unasked (the default one is scratch) */
	if (named_out && !force && cb_is_tree(req.out))
		die("%s holds results already; replace them with --force, or name another directory with -o",
		    req.out);
	return c2c;
}

/* the words after the options parsed into parsed (lib/grammar.c); dies on an error */
static void parse_request(int argc, char **argv)
{
	struct cb_catalog cat = catalog;
	char why[256], *cmd;

	/* the request, with the defaults the module's parameters start at */
	parsed.samples = CB_DEF_SAMPLES;
	parsed.ensembles = CB_DEF_ENSEMBLES;
	parsed.warmup = CB_DEF_WARMUP;
	parsed.max_mb = CB_DEF_MAX_MB;
	parsed.interleave = CB_DEF_INTERLEAVE;
	parsed.references = true;
	cat.groups = cb_user_groups;
	cat.nr_groups = cb_nr_user_groups;
	cat.elsewhere = cb_kernel_groups;
	cmd = join_words(argc, argv, optind);
	req.selection = strndup(cmd, strcspn(cmd, " \t\n"));
	if (!req.selection)
		die("out of memory");
	if (cb_req_parse(cmd, &cat, &parsed, why, sizeof(why)))
		die("%s", why);
	free(cmd);
	if (!parsed.nr)
		die("'%s' selects nothing that runs here", req.selection);
	/*
	 * The references every figure leans on, whatever the selection: the
	 * timing overhead (net figures) and the core clock (core cycles).
	 */
	if (parsed.references) {
		char refs[] = CB_REFERENCES;

		if (cb_req_select(refs, NULL, 0, &cat, &parsed, why, sizeof(why)))
			die("%s", why);
	}
}

/* cpu= and cpus= usable, cpus= the run's (its first the run's own); dies where not */
static void take_cpus(int c2c)
{
	char why[256];

	if (cb_cpu_usable(parsed.cpu, why, sizeof(why)))
		die("%s", why);
	/* cpus=: every CPU usable, the first one the run's own */
	for (unsigned int cn = 0; cn < CB_MAX_CPUS; cn++) {
		if (!(parsed.cpus & (1ULL << cn)))
			continue;
		if (cb_cpu_usable(cn, why, sizeof(why)))
			die("cpus=: %s", why);
		req.cpu_of[req.nr_cpus++] = cn;
	}
	if (c2c && parsed.sweep_cpus)
		die("--c2c measures every pair of cpus= already: drop sweep=cpus");
	if (c2c && req.nr_cpus < 2)
		die("--c2c: name two CPUs or more with cpus= (e.g. cpus=0-1)");
	if (c2c && req.nr_cpus * (req.nr_cpus - 1) / 2 > CB_MAX_SLOTS)
		die("--c2c: %u CPUs make more than %u pairs; name fewer with cpus=", req.nr_cpus,
		    CB_MAX_SLOTS);
}

/* the parsed request becomes the run's: its keys and one result per slot */
static void fill_run(void)
{
	req.samples = parsed.samples;
	req.ensembles = parsed.ensembles;
	req.warmup = parsed.warmup;
	req.method_requested = parsed.method;
	req.cpu = parsed.cpu;
	req.max_mb = parsed.max_mb;
	req.long_repeat = parsed.long_repeat;
	req.interleave = parsed.interleave;
	for (unsigned int i = 0; i < parsed.nr; i++) {
		struct cb_user_result *r = &req.res[i];

		r->gi = parsed.group[i];
		r->group = cb_user_groups[r->gi];
		r->frag = parsed.frag[i];
		r->fi = (unsigned int)(r->frag - r->group->fragments);
		r->arg = parsed.arg[i];
		r->ops = result_ops(r->frag, r->arg);
	}
	req.nr = parsed.nr;
}

/*
 * The module's memory check, and its estimate (lib/lifecycle.c): the
 * bytes the run needs in *bytes, 0; 2 where that is over max_mb= (said).
 */
static int check_memory(int c2c, u64 *bytes)
{
	if (c2c) {
		/* a pair's round trips each, not the selection's results */
		if (strcmp(req.selection, "all"))
			die("--c2c times no fragment: drop '%s' (its keys: samples=, ensembles=, warmup=, cpus=)",
			    req.selection);
		req.nr = 0;
		*bytes = (u64)req.samples * req.ensembles * 8 * req.nr_cpus * (req.nr_cpus - 1) / 2;
	} else {
		*bytes = cb_life_bytes(&parsed, req.nr_cpus, CB_LIFE_FLAG_BYTES_RUNNER);
	}
	if (*bytes > (u64)req.max_mb << 20) {
		u64 mib = *bytes / (1 << 20) + !!(*bytes % (1 << 20));

		fprintf(stderr, "cyclebench-user: the run needs %llu MiB, over max_mb=%u: lower samples=, ensembles= or the arguments, or raise max_mb=\n",
			(unsigned long long)mib, req.max_mb);
		return 2;
	}
	return 0;
}

/*
 * Pinned before anything is measured (the TSC calibration included), the
 * machine read, the method chosen, the memory locked: 0, else the exit
 * status (2: cannot pin, 1: no TSC frequency).
 */
static int prepare(struct cb_machine *m, u64 bytes)
{
	int method_given = !!(parsed.given & (1u << CB_KEY_METHOD));
	cpu_set_t set;

	cb_catch_signals();
	CPU_ZERO(&set);
	CPU_SET(req.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "cyclebench-user: cannot pin to cpu %u: %s\n", req.cpu, strerror(errno));
		return 2;
	}
	if (cb_machine_read(m)) {
		fprintf(stderr, "cyclebench-user: cannot tell the TSC frequency\n");
		return 1;
	}
	if (!method_given)
		req.method_requested = m->hypervisor ? CB_LFENCE : CB_PAOLONI;
	req.method = req.method_requested;
	if (!m->rdtscp)	/* RDTSCP would be an invalid opcode */
		req.method = req.method == CB_LFENCE ? CB_LFENCE_NORDTSCP : CB_PAOLONI_NORDTSCP;
	lock_memory(bytes);
	req.tty = isatty(2);
	return 0;
}

/* the selection run and its tree written; 1 where a result failed */
static int run_main(const struct cb_machine *m)
{
	int ret = cb_run_all(&req, m);

	if (ret == -EINTR)
		return 130;
	if (ret)
		return 1;
	if (cb_write_tree(&req, m))
		return 1;
	ret = 0;
	for (unsigned int i = 0; i < req.nr; i++)
		if (req.res[i].state == CB_STATE_FAILED)
			ret = 1;
	if (!req.quiet)
		fprintf(stderr, "cyclebench-user: %u result%s in %s%s; summary: cyclestat %s\n", req.nr,
			req.nr == 1 ? "" : "s", req.out, ret ? " (some failed: see above)" : "", req.out);
	return ret;
}

int main(int argc, char **argv)
{
	struct cb_machine m;
	int c2c, ret;
	u64 bytes;

	c2c = parse_options(argc, argv);
	parse_request(argc, argv);
	take_cpus(c2c);
	fill_run();
	ret = check_memory(c2c, &bytes);
	if (ret)
		return ret;
	ret = prepare(&m, bytes);
	if (ret)
		return ret;
	cb_spin_warm(200);
	if (c2c)
		return c2c_main(&req, &m);
	if (parsed.sweep_cpus)
		return sweep_main(&req, &m);
	return run_main(&m);
}
