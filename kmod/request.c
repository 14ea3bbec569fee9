// SPDX-License-Identifier: GPL-2.0
/*
 * The module's side of a run request: the defaults from its parameters,
 * the parse (grammar.c, shared with cyclebench-user) with the reason in the
 * log, and what a request needs: its memory, checked against max_mb and
 * the memory available, and the time of a sample, against max_sample_us.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <asm/tsc.h>

#include "internal.h"

void cb_req_defaults(struct cb_req *req)
{
	struct cb_defaults d;

	cb_get_defaults(&d);
	req->nr = 0;
	req->samples = d.samples;
	req->ensembles = d.ensembles;
	req->warmup = d.warmup;
	req->method = d.method;
	req->pmu = true;
	req->interleave = CB_DEF_INTERLEAVE;
	req->cpu = d.cpu;
	req->max_mb = d.max_mb;
}

/*
 * A request written to the run file: parsed by the grammar the module
 * shares with cyclebench-user (grammar.c), against the module's catalog;
 * why it was refused goes to the log.
 */
int cb_parse_request(char *cmd, struct cb_req *req)
{
	char why[256];
	int ret;

	cb_req_defaults(req);
	ret = cb_req_parse(cmd, cb_catalog(), req, why, sizeof(why));
	if (ret)
		cb_warn("run: %s\n", why);
	return ret;
}

/*
 * Memory the run would allocate (lifecycle.c: the arrays of each entry,
 * per CPU of cpus= and with its flags, and its setups' buffers).
 * U64_MAX on overflow.
 */
u64 cb_req_bytes(const struct cb_req *req)
{
	return cb_life_bytes(req, max_t(unsigned int, hweight64(req->cpus), 1),
			     CB_LIFE_FLAG_BYTES_MODULE);
}

/* The name of the group whose table holds @frag. */
static const char *cb_group_name(const struct cb_fragment *frag)
{
	unsigned int g;

	for (g = 0; g < cb_nr_groups(); g++) {
		const struct cb_group *grp = cb_group(g);

		if (frag >= grp->fragments && frag < grp->fragments + grp->count)
			return grp->name;
	}
	return "?";
}

/* max_sample_us in TSC ticks. */
u64 cb_limit_ticks(unsigned int us)
{
	return (u64)us * (tsc_khz ? tsc_khz : 1000000) / 1000;
}

/*
 * TSC ticks per iteration of a dec/jnz loop, in 1/16 tick, on this CPU
 * now: the fastest of 5 runs of 4096 iterations (a few microseconds each
 * with interrupts off).
 */
u64 cb_loop_ticks16(void)
{
	u64 best = U64_MAX;
	unsigned long flags;
	int t;

	for (t = 0; t < 5; t++) {
		u64 t0, t1;

		local_irq_save(flags);
		t0 = rdtsc_ordered();
		cb_spin_iters(4096);
		t1 = rdtsc_ordered();
		local_irq_restore(flags);
		best = min(best, t1 - t0);
	}
	return max(best * 16 / 4096, 1ULL);
}

/*
 * A probe that said a fragment cannot fit refuses it before it runs for
 * this long: long enough that a request repeated in a loop cannot hold
 * interrupts off for that fragment's probes again and again, short enough
 * that one refused while the clock was slow (a busy host under an
 * emulator, a CPU held at its lowest frequency) runs once it is back.
 * Then the sampler's own probe decides again.
 */
#define CB_PROBE_AGE_S	10

/*
 * Whether each entry could fit one sample's interrupts-off window: any
 * fragment (at this ARG) that a run probed in the last CB_PROBE_AGE_S, by
 * what its probe took (a run at load probes them all); a fragment whose ARG counts loop
 * iterations, probed or not, by ARG of them in the short region and the
 * long one's copies, at a dec/jnz loop's speed measured now on this CPU.
 * The run goes on another, maybe at another clock, so only what would
 * take over twice the limit is refused here.  Nearer the limit the
 * sampler's probe decides, before any sample (harness.h).
 */
static int cb_req_check_window(const struct cb_req *req, unsigned int us)
{
	u64 limit = cb_limit_ticks(us), per = 0, t;
	unsigned int i;

	for (i = 0; i < req->nr; i++) {
		const struct cb_fragment *frag = req->frag[i];
		u64 copies = frag->no_long ? 1 : CB_LONG_REPEAT + 1;
		int s = cb_slot_find(frag, req->arg[i], false);
		u64 probe = s >= 0 ? READ_ONCE(cb_slot(s)->probe) : 0;
		unsigned long at = s >= 0 ? READ_ONCE(cb_slot(s)->probe_at) : 0;
		long age = (long)(jiffies - at) / HZ;

		/* a fragment a run probed lately: what its probe took */
		if (probe && age < CB_PROBE_AGE_S &&
		    (check_mul_overflow(probe, copies, &t) || t > 2 * limit)) {
			char arg[24] = "";

			if (frag->nr_args)
				snprintf(arg, sizeof(arg), "/%llu", req->arg[i]);
			cb_warn("run: %s:%s%s: refused before it runs: its probe %ld s ago took %llu TSC ticks, so one sample (the body and %llu copies) would hold interrupts off for over twice max_sample_us=%u (%llu ticks); shorten the body or its ARG, or reload with a larger max_sample_us (at most %u); it is probed again after %u s\n",
				cb_group_name(frag), frag->name, arg, age,
				probe, copies - 1, us, 2 * limit, CB_MAX_SAMPLE_US,
				CB_PROBE_AGE_S);
			return -ETIME;
		}
		if (!frag->arg_is_loop)
			continue;
		per = per ?: cb_loop_ticks16();
		if (check_mul_overflow(req->arg[i], per * copies, &t) || t / 16 > 2 * limit) {
			cb_warn("run: %s:%s/%llu: refused before it runs: it cannot fit max_sample_us=%u: %llu copies of %llu iterations at %llu.%02llu TSC ticks each here would hold interrupts off for over %llu us; the largest ARG that fits is about %llu (or reload with a larger max_sample_us, at most %u)\n",
				cb_group_name(frag), frag->name, req->arg[i], us,
				copies, req->arg[i], per / 16, per % 16 * 100 / 16,
				2ULL * us, div64_u64(limit * 16, per * copies),
				CB_MAX_SAMPLE_US);
			return -ETIME;
		}
	}
	return 0;
}

/*
 * The warm-up is in no array, so max_mb does not bound it as it bounds
 * the samples kept: an entry's warm-up samples (warmup= in each of its
 * ensembles) are bounded here, by their count, and by the time its last
 * probe says they would take: CB_MAX_WARMUP_S at most.  A warm-up brings
 * the caches, the predictors and the clock to where the samples find
 * them; a longer one warms nothing more, and would keep insmod (a run at
 * load) or the writer waiting for nothing.
 */
#define CB_MAX_WARMUP_S	60
static int cb_req_check_warmup(const struct cb_req *req)
{
	u64 w = (u64)req->warmup * req->ensembles, t;
	unsigned int i;

	if (w > CB_MAX_WARMUP) {
		cb_warn("run: warmup=%u x ensembles=%u is %llu warm-up samples an entry, over %u: lower warmup (it is taken before every ensemble)\n",
			req->warmup, req->ensembles, w, CB_MAX_WARMUP);
		return -E2BIG;
	}
	for (i = 0; i < req->nr; i++) {
		const struct cb_fragment *frag = req->frag[i];
		u64 copies = frag->no_long ? 1 : CB_LONG_REPEAT + 1;
		int s = cb_slot_find(frag, req->arg[i], false);
		u64 probe = s >= 0 ? READ_ONCE(cb_slot(s)->probe) : 0;

		if (!probe || !tsc_khz)
			continue;
		if (check_mul_overflow(w, probe * copies, &t) ||
		    t / tsc_khz > CB_MAX_WARMUP_S * 1000ULL) {
			cb_warn("run: %s:%s: warmup=%u x ensembles=%u would hold interrupts off for over %u s before its samples (its last probe took %llu TSC ticks, and %llu copies follow): lower warmup\n",
				cb_group_name(frag), frag->name, req->warmup,
				req->ensembles, CB_MAX_WARMUP_S, probe,
				copies - 1);
			return -E2BIG;
		}
	}
	return 0;
}

/*
 * A fragment whose body once left preemption disabled or a lock held
 * (sample.c) may hold that lock still, in its kept state or anywhere:
 * run again, its first sample could spin on it with interrupts off.
 */
static int cb_req_check_held(const struct cb_req *req)
{
	unsigned int i, s;

	for (i = 0; i < req->nr; i++)
		for (s = 0; s < cb_nr_slots(); s++)
			if (cb_slot(s)->frag == req->frag[i] &&
			    READ_ONCE(cb_slot(s)->held)) {
				cb_warn("run: %s:%s: refused: an earlier run of it left preemption disabled or a lock held (the log said so then), which may be held still; fix the body, then rmmod cyclebench and load the module again\n",
					cb_group_name(req->frag[i]),
					req->frag[i]->name);
				return -EPROTO;
			}
	return 0;
}

/* Whether the machine can take the run: memory, max_mb, time. */
int cb_req_check(const struct cb_req *req)
{
	u64 bytes = cb_req_bytes(req);
	struct cb_defaults d;
	int ret;

	cb_get_defaults(&d);
	if (!req->nr)
		return -EINVAL;
	ret = cb_req_check_held(req) ?:
	      cb_req_check_window(req, d.max_sample_us) ?:
	      cb_req_check_warmup(req);
	if (ret)
		return ret;
	if (bytes > (u64)d.max_mb << 20) {
		cb_warn("a run of %u results x %u ensembles x %u samples needs %llu MiB, over max_mb=%u: lower samples, ensembles or the arguments, or reload with a larger max_mb\n",
			req->nr, req->ensembles, req->samples,
			DIV_ROUND_UP_ULL(bytes, 1 << 20), d.max_mb);
		return -E2BIG;
	}
	if (bytes >> PAGE_SHIFT > si_mem_available() / 2) {
		cb_warn("a run needing %llu MiB would take over half of the available memory: lower samples or ensembles\n",
			DIV_ROUND_UP_ULL(bytes, 1 << 20));
		return -ENOMEM;
	}
	return 0;
}

/*
 * Whether the run's CPUs are online, and cpus= leaves one out: a cpus=
 * sample holds interrupts off on every CPU it names at once, up to
 * max_sample_us, and a synchronous IPI (a TLB shootdown, stop_machine())
 * sent meanwhile waits for all of them; on every online CPU, nothing in
 * the machine would be left to run.  Called with cpus_read_lock() held
 * until the run's thread is bound (engine.c), so that none goes away in
 * between.
 */
int cb_req_check_cpus(const struct cb_req *req)
{
	unsigned int i, left = 0;

	if (!cpu_online(req->cpu)) {
		cb_warn("cpu %u is offline: pick an online cpu=\n", req->cpu);
		return -EINVAL;
	}
	for (i = 0; i < CB_MAX_CPUS; i++) {
		if ((req->cpus & BIT_ULL(i)) && !cpu_online(i)) {
			cb_warn("cpus=: cpu %u is offline: name online CPUs (cat /sys/devices/system/cpu/online)\n",
				i);
			return -EINVAL;
		}
	}
	for_each_online_cpu(i)
		left += i >= CB_MAX_CPUS || !(req->cpus & BIT_ULL(i));
	if (req->cpus && !left) {
		cb_warn("cpus=: names every online CPU: leave one out (its samples hold interrupts off on every CPU named at once, and the machine needs one to run on meanwhile)\n");
		return -EINVAL;
	}
	return 0;
}
