// SPDX-License-Identifier: GPL-2.0
/*
 * grammar.c - the run request's parser (lib/grammar.c), the one the module
 * and cyclebench-user share, checked natively against a catalog of its own
 * (two groups, made-up fragments): what each request selects, in which
 * order, and the reason each bad one gives.  Prints TAP
 * (tests/tap/tap.h); exit 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "tap.h"

#include "catalog.h"

static struct cb_req req;
static char why[256];

/* parse CMD (copied) on CAT with defaults; returns the error code */
static int parse(const struct cb_catalog *cat, const char *cmd)
{
	char buf[512];

	memset(&req, 0, sizeof(req));
	req.samples = 1000;
	req.ensembles = 10;
	req.warmup = 100;
	req.max_mb = 256;
	req.pmu = true;
	why[0] = 0;
	snprintf(buf, sizeof(buf), "%s", cmd);
	return cb_req_parse(buf, cat, &req, why, sizeof(why));
}

/* the entries as "alu:add mem:chase/4096 ..." */
static const char *entries(void)
{
	static char out[1024];
	size_t n = 0;

	out[0] = 0;
	for (unsigned int i = 0; i < req.nr && n < sizeof(out); i++) {
		const struct cb_fragment *f = req.frag[i];

		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s:%s", i ? " " : "",
				      groups[req.group[i]]->name, f->name);
		if (f->nr_args && n < sizeof(out))
			n += (size_t)snprintf(out + n, sizeof(out) - n, "/%llu",
					      (unsigned long long)req.arg[i]);
	}
	return out;
}

/* CMD on CAT selects exactly WANT */
static void selects(const struct cb_catalog *cat, const char *cmd, const char *want)
{
	int ret = parse(cat, cmd);

	tap_point(!ret && !strcmp(entries(), want), "'%s' selects %s", cmd, want);
	if (ret || strcmp(entries(), want))
		printf("#   got %d '%s' (%s)\n", ret, entries(), why);
}

/* CMD on CAT is refused with RET and a reason containing WANT */
static void refuses(const struct cb_catalog *cat, const char *cmd, int want_ret, const char *want)
{
	int ret = parse(cat, cmd);

	tap_point(ret == want_ret && strstr(why, want), "'%s' refused: %s", cmd, why);
	if (ret != want_ret || !strstr(why, want))
		printf("#   expected %d and '%s', got %d '%s'\n", want_ret, want, ret, why);
}

int main(void)
{
	/* selections: table order, arguments ascending, no duplicates */
	selects(&module, "all", "alu:add alu:mul mem:chase/4096 mem:chase/65536 mem:copy/4096 mem:copy/65536");
	selects(&module, "mem:copy,alu:mul,alu", "alu:add alu:mul alu:huge_loop mem:copy/4096 mem:copy/65536");
	selects(&module, "alu:huge_loop", "alu:huge_loop");
	selects(&module, "mem:chase/200,mem:chase/150,mem:chase/200", "mem:chase/150 mem:chase/200");
	refuses(&module, "mem:chase/200 args=300", -EINVAL, "args= given, but no selected fragment takes");
	selects(&module, "mem args=300,200,300", "mem:chase/200 mem:chase/300 mem:copy/200 mem:copy/300");
	selects(&module, "  alu:add\t samples=5\n", "alu:add");
	/* a default over half of max_mb is left out; named, it is the caller's to check */
	CHECK("max_mb= is not the module's key", parse(&module, "mem:chase max_mb=4096") == -EINVAL,
	      "got %s", why);
	selects(&runner, "mem:chase max_mb=4096", "mem:chase/4096 mem:chase/65536 mem:chase/1073741824");
	selects(&runner, "mem:chase/1073741824", "mem:chase/1073741824");

	/* the keys: values set, defaults kept, given recorded */
	CHECK("keys set their values",
	      !parse(&module, "alu samples=7 ensembles=3 warmup=0 method=lfence cpu=3 pmu=off interleave=1") &&
	      req.samples == 7 && req.ensembles == 3 && req.warmup == 0 && req.method == CB_LFENCE &&
	      req.cpu == 3 && !req.pmu && req.interleave,
	      "%s", why);
	CHECK("unnamed keys keep the caller's defaults",
	      !parse(&module, "alu") && req.samples == 1000 && req.ensembles == 10 &&
	      req.warmup == 100 && req.pmu && !req.given, "%s", why);
	CHECK("given marks the named keys",
	      !parse(&runner, "alu long_repeat=64 references=0") &&
	      req.given == ((1U << CB_KEY_LONG_REPEAT) | (1U << CB_KEY_REFERENCES)) &&
	      req.long_repeat == 64 && !req.references, "given %#x, %s", req.given, why);
	CHECK("long_repeat=auto is 0", !parse(&runner, "alu long_repeat=auto") && !req.long_repeat,
	      "%s", why);
	CHECK("the bounds are the contract's",
	      !parse(&module, "alu samples=100000000 ensembles=100000 warmup=10000000"), "%s", why);

	/* what is refused, and why */
	refuses(&module, "", -EINVAL, "an empty request");
	refuses(&module, " \t", -EINVAL, "an empty request");
	refuses(&module, "alu,,mem", -EINVAL, "an empty item in the selection");
	refuses(&module, ",alu", -EINVAL, "an empty item");
	refuses(&module, "alu,", -EINVAL, "an empty item");
	refuses(&module, "alu mem", -EINVAL, "'mem' after the selection is not key=value");
	refuses(&module, "nosuch", -EINVAL, "no fragment 'nosuch' (cat fragments lists them)");
	refuses(&module, "alu:nosuch", -EINVAL, "no fragment 'alu:nosuch'");
	refuses(&module, "ALU", -EINVAL, "no fragment 'ALU'");
	refuses(&module, "sync", -EINVAL, "no fragment 'sync'");
	refuses(&runner, "sync", -EINVAL, "sync: a kernel-only group");
	refuses(&runner, "sync:spin", -EINVAL, "sync: a kernel-only group");
	refuses(&module, "alu:add/4", -EINVAL, "alu:add takes no ARG (drop /4)");
	refuses(&module, "mem:chase/64", -EINVAL, "mem:chase/64: ARG out of its range (at least 128)");
	refuses(&module, "mem:copy/2000000", -EINVAL, "mem:copy/2000000: ARG out of its range 1..1048576");
	refuses(&module, "mem:copy/x", -EINVAL, "mem:copy/x: ARG is not a decimal number");
	refuses(&module, "mem:copy/+5", -EINVAL, "ARG is not a decimal number");
	refuses(&module, "mem:copy/18446744073709551616", -EINVAL, "ARG is not a decimal number");
	refuses(&module, "mem:copy args=0", -EINVAL, "mem:copy/0: ARG out of its range");
	refuses(&module, "alu args=4", -EINVAL, "args= given, but no selected fragment takes an argument");
	refuses(&module, "mem args=64,abc", -EINVAL, "args=: 'abc' is not a decimal number");
	refuses(&module, "mem args=", -EINVAL, "args=: '' is not a decimal number");
	refuses(&module, "mem args=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65",
		-EINVAL, "args=: more than 64 values");
	refuses(&module, "alu samples=0", -EINVAL, "samples=0: not a number in 1..100000000");
	refuses(&module, "alu samples=100000001", -EINVAL, "not a number in 1..100000000");
	refuses(&module, "alu samples=ten", -EINVAL, "samples=ten: not a number");
	refuses(&module, "alu samples=+5", -EINVAL, "samples=+5: not a number");
	refuses(&module, "alu samples=-1", -EINVAL, "samples=-1: not a number");
	refuses(&module, "alu samples=", -EINVAL, "samples=: not a number");
	refuses(&module, "alu samples=99999999999999999999", -EINVAL, "not a number in 1..");
	refuses(&module, "alu ensembles=100001", -EINVAL, "ensembles=100001: not a number in 1..100000");
	refuses(&module, "alu interleave=2", -EINVAL, "interleave=2: not a number in 0..1");
	refuses(&module, "alu method=rdtsc", -EINVAL, "method=rdtsc: not a valid value (paoloni or lfence)");
	refuses(&module, "alu method=paoloni-nordtscp", -EINVAL, "not a valid value");
	refuses(&module, "alu method=cpuid-nordtscp", -EINVAL, "not a valid value");
	refuses(&module, "alu cpu=4", -EINVAL, "cpu=4: not a valid value (an online CPU)");
	refuses(&module, "alu cpu=-1", -EINVAL, "cpu=-1: not a valid value");
	refuses(&module, "alu pmu=yes", -EINVAL, "pmu=yes: not a valid value (on or off)");
	refuses(&module, "alu samples=5 samples=6", -EINVAL, "samples= given twice");
	refuses(&module, "alu sample=5", -EINVAL,
		"unknown key 'sample' (keys: samples ensembles warmup method cpu cpus args pmu interleave)");
	refuses(&runner, "alu pmu=on", -EINVAL,
		"unknown key 'pmu' (keys: samples ensembles warmup method cpu cpus args interleave max_mb long_repeat references sweep)");
	refuses(&module, "alu long_repeat=16", -EINVAL, "unknown key 'long_repeat'");
	refuses(&runner, "alu long_repeat=7", -EINVAL, "long_repeat=7: not a valid value (auto or one of { 16, 64, 256, 1024 })");
	refuses(&runner, "alu max_mb=0", -EINVAL, "max_mb=0: not a number in 1..65536");
	refuses(&module, "alu =5", -EINVAL, "unknown key ''");

	/* cpus=: a list of CPUs, both sides'; cpu becomes its first */
	CHECK("cpus=0-1 is CPUs 0 and 1, cpu 0",
	      !parse(&runner, "alu cpus=0-1") && req.cpus == 3 && req.cpu == 0, "%s", why);
	CHECK("cpus=5,2-3 is CPUs 2, 3 and 5, cpu 2",
	      !parse(&runner, "alu cpus=5,2-3") && req.cpus == 0x2c && req.cpu == 2, "%s", why);
	CHECK("cpus=63 is the last CPU a run may name",
	      !parse(&runner, "alu cpus=63") && req.cpus == 1ULL << 63 && req.cpu == 63, "%s", why);
	CHECK("a request without cpus= has none", !parse(&runner, "alu") && !req.cpus, "%s", why);
	refuses(&runner, "alu cpus=64", -EINVAL, "cpus=64: not a valid value (online CPUs below 64");
	refuses(&runner, "alu cpus=1-0", -EINVAL, "cpus=1-0: not a valid value");
	refuses(&runner, "alu cpus=0,,1", -EINVAL, "cpus=0,,1: not a valid value");
	refuses(&runner, "alu cpus=", -EINVAL, "cpus=: not a valid value");
	/* sweep=cpus: the runner's, over two CPUs or more of cpus= */
	CHECK("sweep=cpus with cpus=0-3 sweeps",
	      !parse(&runner, "alu cpus=0-3 sweep=cpus") && req.sweep_cpus && req.cpus == 0xf, "%s", why);
	CHECK("a request without sweep= sweeps nothing",
	      !parse(&runner, "alu cpus=0-1") && !req.sweep_cpus, "%s", why);
	refuses(&runner, "alu sweep=cpus", -EINVAL, "sweep=cpus: name two CPUs or more with cpus=");
	refuses(&runner, "alu cpus=2 sweep=cpus", -EINVAL, "sweep=cpus: name two CPUs or more");
	refuses(&runner, "alu cpus=0-1 sweep=args", -EINVAL, "sweep=args: not a valid value (cpus: ");
	refuses(&module, "alu sweep=cpus", -EINVAL, "unknown key 'sweep'");
	refuses(&runner, "alu cpus=-1", -EINVAL, "cpus=-1: not a valid value");
	refuses(&runner, "alu cpus=0-1,", -EINVAL, "cpus=0-1,: not a valid value");
	refuses(&runner, "alu cpus=0x1", -EINVAL, "cpus=0x1: not a valid value");
	refuses(&runner, "alu cpus=99999999999999999999999", -EINVAL, "not a valid value");
	refuses(&runner, "alu cpus=0-1 cpu=1", -EINVAL, "cpu= and cpus= both given");
	CHECK("the module takes cpus= too",
	      !parse(&module, "alu cpus=1-2") && req.cpus == 6 && req.cpu == 1, "%s", why);

	/* no runner cpu check: the caller says why (an offline CPU by name) */
	CHECK("the runner's cpu= is any number", !parse(&runner, "alu cpu=4000") && req.cpu == 4000,
	      "%s", why);
	CHECK("method names", !strcmp(cb_method_name(CB_PAOLONI), "paoloni") &&
	      !strcmp(cb_method_name(CB_LFENCE_NORDTSCP), "lfence-nordtscp") &&
	      !strcmp(cb_method_name(CB_CPUID_NORDTSCP), "cpuid-nordtscp") &&
	      !strcmp(cb_method_name(CB_NR_METHODS), "?"), "wrong names");
	return tap_done();
}
