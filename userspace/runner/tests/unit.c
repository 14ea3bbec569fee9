// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - what cyclebench-user takes for granted, checked one behaviour
 * per test: the kernel names include/cyclebench/portable.h stands in for, the setup
 * helpers, the portable tables (valid names, one per length variant, in
 * the same order), and a sampler of each kind run through the harness.
 * Prints TAP (tests/tap/tap.h); exit 1 on a failure.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "tap.h"

static void max_evaluates_each_argument_once(void)
{
	int a = 1, b = 5;
	int m = max(a++, b++);

	CHECK("max_evaluates_each_argument_once", m == 5 && a == 2 && b == 6,
	      "expected max 5, a 2, b 6; got %d, %d, %d", m, a, b);
}

static void read_once_write_once_and_array_size(void)
{
	u64 x = 0, arr[7];

	WRITE_ONCE(x, 42);
	CHECK("read_once_sees_write_once", READ_ONCE(x) == 42, "expected 42, got %llu",
	      (unsigned long long)x);
	CHECK("array_size_counts_elements", ARRAY_SIZE(arr) == 7, "expected 7, got %zu", ARRAY_SIZE(arr));
}

static void types_have_kernel_widths(void)
{
	CHECK("types_have_kernel_widths",
	      sizeof(u8) == 1 && sizeof(u16) == 2 && sizeof(u32) == 4 && sizeof(u64) == 8 &&
	      sizeof(s64) == 8 && (s64)-1 < 0,
	      "u8/u16/u32/u64/s64 are not 1/2/4/8/8 bytes");
}

static void cb_alloc_is_zeroed_and_page_aligned(void)
{
	size_t sizes[] = { 1, 4096, 4097, 1 << 20 };
	int ok = 1;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned char *p = cb_alloc(sizes[i]);

		if (!p || ((uintptr_t)p & (PAGE_SIZE - 1))) {
			ok = 0;
			break;
		}
		for (size_t j = 0; j < sizes[i]; j++)
			ok &= !p[j];
		memset(p, 0xff, sizes[i]);	/* all of it is ours */
		cb_free(p);
	}
	cb_free(NULL);
	CHECK("cb_alloc_is_zeroed_and_page_aligned", ok, "an allocation was NULL, unaligned or not zeroed");
}

static void cb_alloc_of_too_much_is_null(void)
{
	void *p = cb_alloc(~(size_t)0 - 100);

	CHECK("cb_alloc_of_too_much_is_null", !p, "expected NULL, got %p", p);
}

static void cb_random_u64_varies_in_every_bit(void)
{
	u64 or = 0, and = ~0ull, prev = cb_random_u64();
	int repeats = 0;

	for (int i = 0; i < 1000; i++) {
		u64 v = cb_random_u64();

		or |= v;
		and &= v;
		repeats += v == prev;
		prev = v;
	}
	CHECK("cb_random_u64_varies_in_every_bit", or == ~0ull && and == 0 && !repeats,
	      "or %llx and %llx repeats %d", (unsigned long long)or, (unsigned long long)and, repeats);
}

static int name_ok(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

static void portable_tables_are_well_formed(void)
{
	int ok = 1;
	char why[256] = "";

	for (unsigned int g = 0; g < cb_nr_user_groups && ok; g++) {
		const struct cb_group *grp = cb_user_groups[g];

		if (!name_ok(grp->name) || !grp->count) {
			snprintf(why, sizeof(why), "group '%s' has a bad name or no fragment", grp->name);
			ok = 0;
		}
		for (unsigned int f = 0; f < grp->count && ok; f++) {
			const struct cb_fragment *fr = &grp->fragments[f];

			if (!name_ok(fr->name) || !fr->desc || !*fr->desc || !fr->sample ||
			    (!fr->ops && !fr->ops_is_arg) || (!fr->nr_args != !fr->args) ||
			    (fr->teardown && !fr->setup)) {
				snprintf(why, sizeof(why), "%s:%s: bad name, description, ops, args or setup",
					 grp->name, fr->name);
				ok = 0;
			}
			for (unsigned int o = 0; o < f && ok; o++)
				if (!strcmp(grp->fragments[o].name, fr->name)) {
					snprintf(why, sizeof(why), "%s:%s twice", grp->name, fr->name);
					ok = 0;
				}
		}
	}
	CHECK("portable_tables_are_well_formed", ok, "%s", why);
}

static void every_length_variant_has_the_same_tables(void)
{
	int ok = 1;

	for (unsigned int k = 1; k < CB_NR_REPEATS; k++)
		for (unsigned int g = 0; g < cb_nr_user_groups; g++) {
			const struct cb_group *a = cb_user_groups[g], *b = cb_user_variants[k][g];

			ok &= !strcmp(a->name, b->name) && a->count == b->count;
			for (unsigned int f = 0; ok && f < a->count; f++)
				ok &= !strcmp(a->fragments[f].name, b->fragments[f].name) &&
				      a->fragments[f].sample != b->fragments[f].sample;
		}
	CHECK("every_length_variant_has_the_same_tables", ok,
	      "a variant differs in names or order, or shares a sampler with the shortest");
	CHECK("there_are_portable_groups", cb_nr_user_groups > 0, "expected at least one, got 0");
	CHECK("the_kernel_group_list_ends", cb_kernel_groups[0] == NULL || cb_kernel_groups[0][0],
	      "an empty name in cb_kernel_groups");
}

static const struct cb_fragment *find(const char *group, const char *name, unsigned int k)
{
	for (unsigned int g = 0; g < cb_nr_user_groups; g++)
		if (!strcmp(cb_user_variants[k][g]->name, group))
			for (unsigned int f = 0; f < cb_user_variants[k][g]->count; f++)
				if (!strcmp(cb_user_variants[k][g]->fragments[f].name, name))
					return &cb_user_variants[k][g]->fragments[f];
	return NULL;
}

/* cb_ctx.job points to the engine's struct; a zeroed one of ample size */
static u64 fake_job[32];

static int sample(const struct cb_fragment *fr, u64 *s, u64 *l, u64 n, enum cb_method m)
{
	struct cb_env env = { .ops = fr->ops, .cpu = (unsigned int)sched_getcpu() };
	struct cb_ctx ctx = {
		.out = s, .out_long = l, .n = n, .warmup = 2, .limit = ~0ull,
		.method = m, .cpu = env.cpu, .env = &env, .job = (struct cb_user_job *)fake_job,
	};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(env.cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	return fr->sample(&ctx);
}

static void a_sampler_fills_both_regions_and_the_long_one_is_longer(void)
{
	const struct cb_fragment *fr = find("calib", "add_chain", CB_NR_REPEATS - 1);
	u64 s[64] = { 0 }, l[64] = { 0 };
	int ret, longer = 0;

	if (!fr) {
		CHECK("calib_add_chain_is_portable", 0, "calib:add_chain not linked");
		return;
	}
	/* LFENCE; RDTSC only: runs on every x86-64, RDTSCP or not */
	ret = sample(fr, s, l, 64, CB_LFENCE_NORDTSCP);
	for (int i = 0; i < 64; i++)
		longer += l[i] > s[i] && s[i] > 0;
	/* 1023 x 64 adds against 64: longer in every sample but a disturbed few */
	CHECK("a_sampler_fills_both_regions_and_the_long_one_is_longer", !ret && longer > 48,
	      "expected 0 and > 48 of 64 samples longer, got %d and %d", ret, longer);
}

static void a_runaway_body_is_refused_with_etime(void)
{
	const struct cb_fragment *fr = find("calib", "add_chain", 0);
	u64 s[8], l[8];
	struct cb_env env = { .ops = 64, .cpu = (unsigned int)sched_getcpu() };
	struct cb_ctx ctx = {
		.out = s, .out_long = l, .n = 8, .warmup = 0, .limit = 1,
		.method = CB_LFENCE_NORDTSCP, .cpu = env.cpu, .env = &env,
		.job = (struct cb_user_job *)fake_job,
	};
	int ret = fr ? fr->sample(&ctx) : 0;

	CHECK("a_runaway_body_is_refused_with_etime", ret == -ETIME, "expected %d, got %d", -ETIME, ret);
}

static void a_sampler_on_the_wrong_cpu_stops_with_eagain(void)
{
	const struct cb_fragment *fr = find("base", "empty", 0);
	u64 s[8];
	struct cb_env env = { .ops = 1 };
	struct cb_ctx ctx = {
		.out = s, .n = 8, .limit = ~0ull, .method = CB_LFENCE_NORDTSCP,
		.env = &env, .job = (struct cb_user_job *)fake_job,
	};
	cpu_set_t set;
	int ret;

	/* pinned here, told it should be on the next CPU */
	CPU_ZERO(&set);
	CPU_SET(sched_getcpu(), &set);
	sched_setaffinity(0, sizeof(set), &set);
	ctx.cpu = (unsigned int)sched_getcpu() + 1;
	ret = fr ? fr->sample(&ctx) : 0;

	CHECK("a_sampler_on_the_wrong_cpu_stops_with_eagain", ret == -EAGAIN,
	      "expected %d, got %d", -EAGAIN, ret);
}

static void an_unknown_method_is_einval(void)
{
	const struct cb_fragment *fr = find("base", "empty", 0);
	u64 s[4];
	int ret = fr ? sample(fr, s, NULL, 4, CB_NR_METHODS) : 0;

	CHECK("an_unknown_method_is_einval", ret == -EINVAL, "expected %d, got %d", -EINVAL, ret);
}

static void a_stop_request_ends_the_sampler_with_eintr(void)
{
	const struct cb_fragment *fr = find("base", "empty", 0);
	u64 s[4];
	int ret;

	cb_stop_requested = 1;
	ret = fr ? sample(fr, s, NULL, 4, CB_LFENCE_NORDTSCP) : 0;
	cb_stop_requested = 0;
	CHECK("a_stop_request_ends_the_sampler_with_eintr", ret == -EINTR,
	      "expected %d, got %d", -EINTR, ret);
}

static void the_machine_is_described(void)
{
	struct cb_machine m;
	int ret = cb_machine_read(&m);

	CHECK("the_machine_is_described", !ret && m.tsc_khz > 100000 && m.vendor[0] &&
	      m.tsc_step >= 1 && m.family > 0,
	      "ret %d tsc_khz %u vendor '%s' step %u family %u", ret, m.tsc_khz, m.vendor,
	      m.tsc_step, m.family);
}

static void an_offline_cpu_is_not_usable(void)
{
	char why[256] = "";

	CHECK("an_offline_cpu_is_not_usable", cb_cpu_usable(4000, why, sizeof(why)) && strstr(why, "cpu 4000"),
	      "expected a reason naming cpu 4000, got '%s'", why);
	CHECK("the_cpu_we_are_on_is_usable", !cb_cpu_usable((unsigned int)sched_getcpu(), why, sizeof(why)),
	      "got '%s'", why);
}

/*
 * cpus=0-1: the barrier holds every CPU at each meeting until all are
 * there.  Told by the result's own record: for each sample j both CPUs
 * took at consecutive meetings, CPU a left meeting j only after CPU b had
 * finished sample j - 1 (its short region and its long one: released at
 * release[b][j-1], its short region alone took cycles[b][j-1]).  A CPU
 * let go early would start sample j during the other's sample j - 1.
 * Exact, with no tolerance: the stamps are ordered reads of a TSC the
 * kernel keeps in step across CPUs (an unordered RDTSC could stamp a
 * release before the load that saw it, and failed this 1 run in 150).
 * Then the results reset (for the next step of sweep=cpus) leak nothing
 * (the -san build).
 */
static void the_cpus_of_a_run_meet_before_every_sample(void)
{
	static struct cb_run run;
	struct cb_user_result *r = &run.res[0];
	struct cb_machine m;
	char why[256];
	u64 n, checked = 0, early = 0, in_step = 0, worst = 0;
	cpu_set_t set;
	int ret;

	/* the tests before pinned this process to one CPU */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (cb_cpu_usable(0, why, sizeof(why)) || cb_cpu_usable(1, why, sizeof(why))) {
		tap_skip("the_cpus_of_a_run_meet_before_every_sample", "CPUs 0 and 1 are not both online");
		return;
	}
	for (unsigned int g = 0; g < cb_nr_user_groups; g++)
		if (!strcmp(cb_user_groups[g]->name, "contend")) {
			r->gi = g;
			r->group = cb_user_groups[g];
		}
	r->frag = r->group ? find("contend", "atomic_inc_shared", 0) : NULL;
	if (!r->frag || cb_machine_read(&m)) {
		CHECK("the_cpus_of_a_run_meet_before_every_sample", 0, "no contend:atomic_inc_shared or no TSC");
		return;
	}
	r->fi = (unsigned int)(r->frag - r->group->fragments);
	r->ops = r->frag->ops;
	run.nr = 1;
	run.samples = 200;
	run.ensembles = 3;
	run.warmup = 10;
	run.method = m.rdtscp ? CB_LFENCE : CB_LFENCE_NORDTSCP;
	run.cpu = 0;
	run.nr_cpus = 2;
	run.cpu_of[0] = 0;
	run.cpu_of[1] = 1;
	run.max_mb = 64;
	run.long_repeat = 16;
	run.quiet = 1;
	run.selection = "contend:atomic_inc_shared";
	/* this thread is the first CPU's, as in cyclebench-user */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	ret = cb_run_all(&run, &m);
	n = (u64)run.samples * run.ensembles;
	for (u64 j = 1; !ret && r->state == CB_STATE_OK && j < n; j++)
		for (unsigned int a = 0; a < 2; a++) {
			unsigned int b = !a;
			u64 after = r->release[b][j - 1] + r->pc_cycles[b][j - 1];

			if (r->round[a][j] != r->round[b][j] || r->round[b][j - 1] + 1 != r->round[a][j])
				continue;
			checked++;
			if (r->release[a][j] < after) {
				early++;
				worst = max(worst, after - r->release[a][j]);
			}
		}
	for (u64 j = 0; !ret && r->state == CB_STATE_OK && j < n; j++)
		in_step += r->round[0][j] == r->round[1][j];
	CHECK("the_cpus_of_a_run_meet_before_every_sample",
	      !ret && r->state == CB_STATE_OK && checked > n && !early && in_step * 10 >= n * 9,
	      "ret %d state %d: %llu of %llu checked samples left early (by up to %llu ticks), %llu of %llu in step",
	      ret, (int)r->state, (unsigned long long)early, (unsigned long long)checked,
	      (unsigned long long)worst,
	      (unsigned long long)in_step, (unsigned long long)n);
	cb_results_reset(&run, 2);
	CHECK("reset_results_are_unmeasured", r->state == CB_STATE_NONE && !r->cycles && !r->pc_cycles &&
	      !r->release && !r->repeat, "state %d", (int)r->state);
}

/* AMD's 26-tick steps with a +1 bump now and then; a TSC of single ticks. */
static void the_tsc_step_is_the_dominant_granularity(void)
{
	static u64 d[1000];
	unsigned int amd, fine, none;

	for (unsigned int i = 0; i < 1000; i++)
		d[i] = i % 20 == 7 ? 1 : 26 * (1 + i % 3);
	amd = cb_tsc_step_of(d, 1000);
	for (unsigned int i = 0; i < 1000; i++)
		d[i] = 24 + i % 97;
	fine = cb_tsc_step_of(d, 1000);
	none = cb_tsc_step_of(d, 0);
	CHECK("the_tsc_step_is_the_dominant_granularity", amd == 26 && fine == 1 && none == 1,
	      "expected 26 (AMD-like), 1 (every tick), 1 (no data); got %u, %u, %u",
	      amd, fine, none);
}

/* lib/lifecycle.c's rules, with hooks that count what they are asked */
static int life_setups, life_teardowns, life_allocs, life_frees, life_fail_at;

static void *life_zalloc(size_t size)
{
	life_allocs++;
	return calloc(1, size);
}

static void life_free(void *p)
{
	life_frees += !!p;
	free(p);
}

static int life_setup(const struct cb_fragment *frag, struct cb_env *env)
{
	(void)frag;
	(void)env;
	return ++life_setups == life_fail_at ? -ENOMEM : 0;
}

static void life_teardown(const struct cb_fragment *frag, struct cb_env *env)
{
	(void)frag;
	(void)env;
	life_teardowns++;
}

static int life_nop_setup(struct cb_env *env)
{
	(void)env;
	return 0;
}

static void life_nop_teardown(struct cb_env *env)
{
	(void)env;
}

static const struct cb_life_hooks life_hooks = {
	.zalloc = life_zalloc, .free = life_free,
	.setup = life_setup, .teardown = life_teardown,
};

/* @ens ensembles of @frag; the setups, teardowns, allocations and frees counted */
static void life_run(const struct cb_fragment *frag, unsigned int ens, int fail_at, int *got)
{
	struct cb_life life = { 0 };
	const struct cb_env env = { .arg = 7, .cpu = 0 };

	life_setups = life_teardowns = life_allocs = life_frees = 0;
	life_fail_at = fail_at;
	for (unsigned int e = 0; e < ens; e++) {
		if (cb_life_ensemble_begin(&life, frag, &env, &life_hooks))
			break;
		if (life.env.arg != 7 || (frag->state_size && !life.env.state))
			got[4] = 1;
		cb_life_ensemble_end(&life, frag, &life_hooks);
	}
	cb_life_entry_end(&life, frag, &life_hooks);
	got[0] = life_setups;
	got[1] = life_teardowns;
	got[2] = life_allocs;
	got[3] = life_frees;
	got[5] = life.started || life.env.state;
}

static void an_entrys_life_follows_the_rules(void)
{
	struct cb_fragment once = {
		.name = "once", .state_size = 64,
		.setup = life_nop_setup, .teardown = life_nop_teardown,
	};
	struct cb_fragment each = once;
	int got[6];

	each.setup_each_ensemble = true;
	memset(got, 0, sizeof(got));
	life_run(&once, 3, 0, got);
	CHECK("life_setup_once_a_run", got[0] == 1 && got[1] == 1 && got[2] == 1 && got[3] == 1 &&
	      !got[4] && !got[5],
	      "3 ensembles: expected 1 setup, 1 teardown, 1 state; got %d, %d, %d (freed %d, env %d, left %d)",
	      got[0], got[1], got[2], got[3], got[4], got[5]);
	memset(got, 0, sizeof(got));
	life_run(&each, 3, 0, got);
	CHECK("life_setup_each_ensemble", got[0] == 3 && got[1] == 3 && got[2] == 1 && got[3] == 1 &&
	      !got[4] && !got[5],
	      "3 ensembles: expected 3 setups, 3 teardowns, 1 state; got %d, %d, %d (freed %d, env %d, left %d)",
	      got[0], got[1], got[2], got[3], got[4], got[5]);
	memset(got, 0, sizeof(got));
	life_run(&once, 3, 1, got);
	CHECK("life_failed_setup_is_not_torn_down", got[0] == 1 && got[1] == 0 && got[3] == 1 && !got[5],
	      "expected 1 setup, no teardown, the state freed; got %d, %d (freed %d, left %d)",
	      got[0], got[1], got[3], got[5]);
	memset(got, 0, sizeof(got));
	life_run(&each, 3, 2, got);
	CHECK("life_failed_setup_of_an_ensemble_stops_there", got[0] == 2 && got[1] == 1 && got[3] == 1,
	      "expected 2 setups, 1 teardown (the first ensemble's), the state freed; got %d, %d (freed %d)",
	      got[0], got[1], got[3]);
	CHECK("life_warmup_where_the_caches_may_be_cold",
	      cb_life_warmup(&once, 0, false, 5) == 5 && cb_life_warmup(&once, 1, false, 5) == 0 &&
	      cb_life_warmup(&once, 1, true, 5) == 5 && cb_life_warmup(&each, 1, false, 5) == 5,
	      "expected 5, 0, 5, 5");
}

static void a_runs_bytes_are_its_arrays_and_its_biggest_buffer(void)
{
	struct cb_fragment plain = { .name = "plain" }, buf = plain, nolong = plain;
	struct cb_req req = { .samples = 10, .ensembles = 2, .nr = 3 };
	u64 n = 20, want1, want4;

	buf.arg_bytes = true;
	buf.setup = life_nop_setup;
	nolong.no_long = true;
	req.frag[0] = &plain;
	req.frag[1] = &buf;
	req.frag[2] = &nolong;
	req.arg[1] = 4096;
	/* 1 CPU: 2 + 2 + 1 u64 per sample, a flag byte each, the buffer */
	want1 = n * (5 * 8 + 3) + 4096;
	/* 4 CPUs: each CPU's arrays and flags, and its release and round */
	want4 = n * 4 * (5 * 8 + 3 + 3 * 12) + 4096;
	CHECK("life_bytes_on_one_cpu", cb_life_bytes(&req, 1, 1) == want1,
	      "expected %llu, got %llu", (unsigned long long)want1,
	      (unsigned long long)cb_life_bytes(&req, 1, 1));
	CHECK("life_bytes_on_four_cpus", cb_life_bytes(&req, 4, 1) == want4,
	      "expected %llu, got %llu", (unsigned long long)want4,
	      (unsigned long long)cb_life_bytes(&req, 4, 1));
	/* a second buffer, set up per ensemble: alone, only the biggest counts */
	nolong.arg_bytes = true;
	req.arg[2] = 1000;
	CHECK("life_bytes_count_the_biggest_buffer", cb_life_bytes(&req, 1, 0) == n * 5 * 8 + 4096,
	      "expected %llu, got %llu", (unsigned long long)(n * 5 * 8 + 4096),
	      (unsigned long long)cb_life_bytes(&req, 1, 0));
	/* interleaved, the run-long one lives beside the others */
	req.interleave = true;
	CHECK("life_bytes_interleaved_keep_every_run_long_buffer",
	      cb_life_bytes(&req, 1, 0) == n * 5 * 8 + 4096 + 1000,
	      "expected %llu, got %llu", (unsigned long long)(n * 5 * 8 + 5096),
	      (unsigned long long)cb_life_bytes(&req, 1, 0));
	req.samples = 1u << 31;
	req.ensembles = 1u << 31;
	req.arg[1] = ~0ull;
	CHECK("life_bytes_overflow_is_u64_max", cb_life_bytes(&req, 64, 1) == U64_MAX,
	      "expected U64_MAX, got %llu", (unsigned long long)cb_life_bytes(&req, 64, 1));
}

int main(void)
{
	max_evaluates_each_argument_once();
	read_once_write_once_and_array_size();
	types_have_kernel_widths();
	cb_alloc_is_zeroed_and_page_aligned();
	cb_alloc_of_too_much_is_null();
	cb_random_u64_varies_in_every_bit();
	portable_tables_are_well_formed();
	every_length_variant_has_the_same_tables();
	a_sampler_fills_both_regions_and_the_long_one_is_longer();
	a_runaway_body_is_refused_with_etime();
	a_sampler_on_the_wrong_cpu_stops_with_eagain();
	an_unknown_method_is_einval();
	a_stop_request_ends_the_sampler_with_eintr();
	the_machine_is_described();
	the_tsc_step_is_the_dominant_granularity();
	an_offline_cpu_is_not_usable();
	the_cpus_of_a_run_meet_before_every_sample();
	an_entrys_life_follows_the_rules();
	a_runs_bytes_are_its_arrays_and_its_biggest_buffer();
	return tap_done();
}
