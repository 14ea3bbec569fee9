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

static struct cb_req req;

/*
 * --help: the whole text on stdout, exit 0.  A usage error: what is wrong
 * and a one-line hint on stderr, exit 2.
 */
static void usage(const char *why)
{
	if (why) {
		fprintf(stderr, "cyclebench-user: %s\n"
			"usage: cyclebench-user [-o DIR [--force]] [-q] [SELECTION] [key=value ...] (--help for more)\n",
			why);
		exit(2);
	}
	printf("usage: cyclebench-user [-o DIR [--force]] [-q] [SELECTION] [key=value ...]\n"
		"       cyclebench-user --list | --help | --version\n"
		"  SELECTION  all (default; leaves out slow fragments), GROUP, GROUP:NAME,\n"
		"             GROUP:NAME/ARG, or a comma-separated list of those\n"
		"  keys       samples=N (per ensemble, default 1000), ensembles=N (10),\n"
		"             warmup=N (100), method=paoloni|lfence (lfence under a\n"
		"             hypervisor, else paoloni), cpu=N (0), args=A,B,... (the\n"
		"             arguments of the selected fragments that take one),\n"
		"             max_mb=N (256: largest sample and buffer memory),\n"
		"             long_repeat=auto|16|64|256|1024 (copies of the body in the\n"
		"             long region; auto: enough for the difference to span\n"
		"             a few hundred TSC steps), interleave=0|1 (1: ensemble by\n"
		"             ensemble across the results, so all see the same core\n"
		"             clocks where turbo moves them; 0, the module's order),\n"
		"             references=0|1 (1: base:empty and calib:add_chain run\n"
		"             whatever the selection, for net figures and core cycles)\n"
		"  -o DIR     where the result tree goes (default cyclebench-user.out,\n"
		"             replaced each run); a tree already in DIR is kept\n"
		"  --force    replace the tree in DIR\n"
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

/* decimal in [lo, hi], the whole string */
static int parse_u64(const char *s, u64 lo, u64 hi, u64 *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static u32 parse_u32_key(const char *key, const char *val, u32 lo, u32 hi)
{
	u64 v;
	char range[64];

	if (parse_u64(val, lo, hi, &v)) {
		snprintf(range, sizeof(range), "%u..%u", lo, hi);
		fprintf(stderr, "cyclebench-user: %s=%s: not a number in %s\n", key, val, range);
		exit(2);
	}
	return (u32)v;
}

/* Position of frag in table order, for sorting the request. */
static unsigned int ordinal(const struct cb_fragment *frag)
{
	unsigned int base = 0;

	for (unsigned int g = 0; g < cb_nr_user_groups; base += cb_user_groups[g]->count, g++) {
		const struct cb_group *grp = cb_user_groups[g];

		if (frag >= grp->fragments && frag < grp->fragments + grp->count)
			return base + (unsigned int)(frag - grp->fragments);
	}
	return ~0u;
}

static u32 result_ops(const struct cb_fragment *frag, u64 arg)
{
	if (frag->ops_is_arg)
		return arg ? (u32)(arg > 0xffffffffu ? 0xffffffffu : arg) : 1;
	return frag->ops;
}

/* Adds one (fragment, argument) in table order, once. */
static void add(const struct cb_group *grp, const struct cb_fragment *frag, u64 arg)
{
	unsigned int ord = ordinal(frag), i, gi = 0;

	for (i = 0; i < req.nr; i++) {
		unsigned int o = ordinal(req.res[i].frag);

		if (o == ord && req.res[i].arg == arg)
			return;
		if (o > ord || (o == ord && req.res[i].arg > arg))
			break;
	}
	if (req.nr == CB_MAX_RESULTS)
		die("more than %d results in one run; select fewer", CB_MAX_RESULTS);
	memmove(&req.res[i + 1], &req.res[i], (req.nr - i) * sizeof(req.res[0]));
	memset(&req.res[i], 0, sizeof(req.res[0]));
	while (cb_user_groups[gi] != grp)
		gi++;
	req.res[i].group = grp;
	req.res[i].frag = frag;
	req.res[i].gi = gi;
	req.res[i].fi = (unsigned int)(frag - grp->fragments);
	req.res[i].arg = arg;
	req.res[i].ops = result_ops(frag, arg);
	req.nr++;
}

static int arg_ok(const struct cb_fragment *frag, u64 arg)
{
	return arg >= frag->arg_min && (!frag->arg_max || arg <= frag->arg_max);
}

static void bad_arg(const struct cb_group *grp, const struct cb_fragment *frag, u64 arg)
{
	fprintf(stderr, "cyclebench-user: %s:%s/%llu: ", grp->name, frag->name, (unsigned long long)arg);
	if (!frag->nr_args)
		fprintf(stderr, "%s:%s takes no argument\n", grp->name, frag->name);
	else if (frag->arg_max)
		fprintf(stderr, "the argument must be in %llu..%llu\n",
			(unsigned long long)frag->arg_min, (unsigned long long)frag->arg_max);
	else
		fprintf(stderr, "the argument must be at least %llu\n", (unsigned long long)frag->arg_min);
	exit(2);
}

static void add_frag(const struct cb_group *grp, const struct cb_fragment *frag,
		     const u64 *args, unsigned int nr_args, int *used)
{
	if (!frag->nr_args) {
		add(grp, frag, 0);
		return;
	}
	if (args) {
		*used = 1;
		for (unsigned int a = 0; a < nr_args; a++) {
			if (!arg_ok(frag, args[a]))
				bad_arg(grp, frag, args[a]);
			add(grp, frag, args[a]);
		}
		return;
	}
	/* a default that takes over half of max_mb is left out, as the module does */
	for (unsigned int a = 0; a < frag->nr_args; a++)
		if (!frag->arg_bytes || frag->args[a] <= ((u64)req.max_mb << 20) / 2)
			add(grp, frag, frag->args[a]);
}

static int kernel_only(const char *group)
{
	for (const char *const *k = cb_kernel_groups; *k; k++)
		if (!strcmp(*k, group))
			return 1;
	return 0;
}

/* One item of the selection: all, GROUP, GROUP:NAME or GROUP:NAME/ARG. */
static void select_item(char *item, const u64 *args, unsigned int nr_args, int *used)
{
	char *name = strchr(item, ':'), *arg = NULL;
	int all = !strcmp(item, "all"), found = all;
	u64 v = 0;

	if (name) {
		*name++ = 0;
		arg = strchr(name, '/');
		if (arg) {
			*arg++ = 0;
			if (parse_u64(arg, 0, ~0ull, &v))
				die("%s:%s/%s: the argument after '/' must be a decimal number", item, name, arg);
		}
	}
	for (unsigned int g = 0; g < cb_nr_user_groups; g++) {
		const struct cb_group *grp = cb_user_groups[g];

		if (!all && strcmp(grp->name, item))
			continue;
		for (unsigned int f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];

			if ((all && frag->slow) || (name && strcmp(frag->name, name)))
				continue;
			if (arg && (!frag->nr_args || !arg_ok(frag, v)))
				bad_arg(grp, frag, v);
			if (arg)
				add(grp, frag, v);
			else
				add_frag(grp, frag, args, nr_args, used);
			found = 1;
		}
	}
	if (found)
		return;
	if (kernel_only(item))
		die("%s: a kernel-only group: its bodies need the kernel, so they need the module (sudo insmod cyclebench.ko only=%s, or make run); cyclebench-user --list shows what runs here",
		    item, item);
	if (name)
		die("%s:%s: no such portable fragment; cyclebench-user --list shows them (kernel-only groups need the module)",
		    item, name);
	die("%s: no such portable fragment or group; cyclebench-user --list shows them (kernel-only groups need the module)",
	    item);
}

static void parse_args(char *s, u64 *args, unsigned int *nr)
{
	char *tok, *save = NULL;

	*nr = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*nr == CB_MAX_ARGS)
			die("args=: at most %d values", CB_MAX_ARGS);
		if (parse_u64(tok, 0, ~0ull, &args[*nr]))
			die("args=%s: not a decimal number", tok);
		(*nr)++;
	}
	if (!*nr)
		die("args=: give at least one value, e.g. args=4096,65536");
}

static void list(void)
{
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
			printf(" %u %s%s\n", frag->ops, frag->desc, frag->slow ? " [slow]" : "");
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out",	required_argument,	NULL, 'o' },
		{ "force",	no_argument,		NULL, 'f' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "list",	no_argument,		NULL, 'l' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum { K_SAMPLES, K_ENSEMBLES, K_WARMUP, K_METHOD, K_CPU, K_ARGS, K_MAX_MB,
	       K_LONG_REPEAT, K_INTERLEAVE, K_REFERENCES, K_NR };
	static const char *const keys[K_NR] = {
		"samples", "ensembles", "warmup", "method", "cpu", "args", "max_mb",
		"long_repeat", "interleave", "references",
	};
	struct cb_machine m;
	u64 args[CB_MAX_ARGS];
	unsigned int nr_args = 0, seen = 0;
	char *sel = NULL, why[256], *item, *save = NULL;
	int c, used = 0, method_given = 0, ret, named_out = 0, force = 0, references = 1;
	u64 bytes, biggest = 0;
	cpu_set_t set;

	req.samples = 1000;
	req.ensembles = 10;
	req.warmup = 100;
	req.max_mb = 256;
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
			return 0;
		case 'h':
			usage(NULL);
			break;
		case 'V':
			printf("cyclebench-user %s\n", CB_USER_VERSION);
			return 0;
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
	for (int i = optind; i < argc; i++) {
		char *val = strchr(argv[i], '=');
		int k;

		if (!val) {
			if (sel)
				die("'%s' after the selection '%s': one selection (a comma-separated list), then key=value words", argv[i], sel);
			sel = argv[i];
			continue;
		}
		*val++ = 0;
		for (k = 0; k < K_NR && strcmp(keys[k], argv[i]); k++)
			;
		if (k == K_NR)
			die("unknown key '%s'; keys: samples ensembles warmup method cpu args max_mb long_repeat interleave references", argv[i]);
		if (seen & (1u << k))
			die("%s= given twice", argv[i]);
		seen |= 1u << k;
		switch (k) {
		case K_SAMPLES:
			req.samples = parse_u32_key("samples", val, 1, 100000000);
			break;
		case K_ENSEMBLES:
			req.ensembles = parse_u32_key("ensembles", val, 1, 100000);
			break;
		case K_WARMUP:
			req.warmup = parse_u32_key("warmup", val, 0, 10000000);
			break;
		case K_METHOD:
			if (!strcmp(val, "paoloni"))
				req.method_requested = CB_PAOLONI;
			else if (!strcmp(val, "lfence"))
				req.method_requested = CB_LFENCE;
			else
				die("method=%s: not a method; paoloni or lfence (the -nordtscp variants are chosen when the CPU lacks RDTSCP)", val);
			method_given = 1;
			break;
		case K_CPU:
			req.cpu = parse_u32_key("cpu", val, 0, 0xffffffffu);
			break;
		case K_ARGS:
			parse_args(val, args, &nr_args);
			break;
		case K_MAX_MB:
			req.max_mb = parse_u32_key("max_mb", val, 1, 65536);
			break;
		case K_INTERLEAVE:
			req.interleave = (int)parse_u32_key("interleave", val, 0, 1);
			break;
		case K_REFERENCES:
			references = (int)parse_u32_key("references", val, 0, 1);
			break;
		default:
			if (strcmp(val, "auto")) {
				unsigned int j;
				u64 v = 0;

				for (j = 0; j < CB_NR_REPEATS; j++)
					if (!parse_u64(val, 0, ~0u, &v) && v == cb_repeats[j])
						break;
				if (j == CB_NR_REPEATS)
					die("long_repeat=%s: auto, or one of 16 64 256 1024 (copies of the body in the long region)", val);
				req.long_repeat = (unsigned int)v;
			}
			break;
		}
	}
	if (cb_cpu_usable(req.cpu, why, sizeof(why)))
		die("%s", why);

	req.selection = sel ? sel : "all";
	if (!*req.selection || strstr(req.selection, ",,") || req.selection[0] == ',' ||
	    req.selection[strlen(req.selection) - 1] == ',')
		die("'%s': an empty item in the selection", req.selection);
	sel = strdup(req.selection);
	if (!sel)
		return 1;
	for (item = strtok_r(sel, ",", &save); item; item = strtok_r(NULL, ",", &save))
		select_item(item, nr_args ? args : NULL, nr_args, &used);
	free(sel);
	if (nr_args && !used)
		die("args=: no selected fragment takes an argument; cyclebench-user --list shows ARG where one does");
	if (!req.nr)
		die("'%s' selects nothing that runs here", req.selection);
	/*
	 * The references every figure leans on, whatever the selection: the
	 * timing overhead (net figures) and the core clock (core cycles).
	 */
	if (references) {
		char base[] = "base:empty", calib[] = "calib:add_chain";
		int unused = 0;

		select_item(base, NULL, 0, &unused);
		select_item(calib, NULL, 0, &unused);
	}

	/*
	 * The module's memory check: samples of every result, plus the biggest
	 * buffer a setup allocates - interleaved, plus every buffer set up for
	 * the whole run, as they are alive together.
	 */
	bytes = 0;
	for (unsigned int i = 0; i < req.nr; i++) {
		const struct cb_result *r = &req.res[i];

		bytes += (u64)req.samples * req.ensembles * 8 * (r->frag->no_long ? 1 : 2);
		if (!r->frag->arg_bytes)
			continue;
		if (req.interleave && r->frag->setup && !r->frag->setup_each_ensemble)
			bytes += r->arg;
		else if (r->arg > biggest)
			biggest = r->arg;
	}
	if (bytes + biggest > (u64)req.max_mb << 20) {
		fprintf(stderr, "cyclebench-user: the run needs %llu MiB, over max_mb=%u: lower samples=, ensembles= or the arguments, or raise max_mb=\n",
			(unsigned long long)((bytes + biggest + (1 << 20) - 1) >> 20), req.max_mb);
		return 2;
	}

	cb_catch_signals();
	/* pinned before anything is measured, the TSC calibration included */
	CPU_ZERO(&set);
	CPU_SET(req.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "cyclebench-user: cannot pin to cpu %u: %s\n", req.cpu, strerror(errno));
		return 2;
	}
	if (cb_machine_read(&m)) {
		fprintf(stderr, "cyclebench-user: cannot tell the TSC frequency\n");
		return 1;
	}
	if (!method_given)
		req.method_requested = m.hypervisor ? CB_LFENCE : CB_PAOLONI;
	req.method = req.method_requested;
	if (!m.rdtscp)	/* RDTSCP would be an invalid opcode */
		req.method = req.method == CB_LFENCE ? CB_LFENCE_NORDTSCP : CB_PAOLONI_NORDTSCP;
	lock_memory(bytes + biggest);
	req.tty = isatty(2);

	cb_spin_warm(200);
	ret = cb_run_all(&req, &m);
	if (ret == -EINTR)
		return 130;
	if (ret)
		return 1;
	if (cb_write_tree(&req, &m))
		return 1;
	ret = 0;
	for (unsigned int i = 0; i < req.nr; i++)
		if (req.res[i].state == CB_R_FAILED)
			ret = 1;
	if (!req.quiet)
		fprintf(stderr, "cyclebench-user: %u result%s in %s%s; summary: cyclestat %s\n", req.nr,
			req.nr == 1 ? "" : "s", req.out, ret ? " (some failed: see above)" : "", req.out);
	return ret;
}
