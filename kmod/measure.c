// SPDX-License-Identifier: GPL-2.0
/*
 * What the run engine (engine.c) does for one request entry: its result's
 * arrays, one ensemble at a time (its state, setup, warm-up, samples and
 * teardown by lifecycle.c's rules, which cyclebench-user shares, with the
 * module's hooks: counted setups, fault_setup), and what the entry saw
 * once it is done with.  In the run's kthread, except cb_result_alloc()
 * (the writer, before the run).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kmemleak.h>
#include <linux/lockdep.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "internal.h"
#include "mark.h"

/*
 * Setup and teardown calls since load, for the info file (a test counts
 * them), and fault_setup: make the Nth setup fail with -ENOMEM, to test
 * the failure path without a fragment written to fail.
 */
static atomic_t cb_setups = ATOMIC_INIT(0);
static atomic_t cb_teardowns = ATOMIC_INIT(0);
static unsigned int cb_fault_setup;
#ifdef CB_TEST_HOOKS	/* the tests' build only (Kbuild) */
module_param_named(fault_setup, cb_fault_setup, uint, 0600);
MODULE_PARM_DESC(fault_setup, "testing: the Nth setup call from now fails with -ENOMEM (default 0: none)");
#endif

void cb_get_setup_counts(unsigned int *setups, unsigned int *teardowns)
{
	*setups = atomic_read(&cb_setups);
	*teardowns = atomic_read(&cb_teardowns);
}

static int cb_setup(const struct cb_fragment *frag, struct cb_env *env)
{
	unsigned int n = READ_ONCE(cb_fault_setup);

	if (n && !--n) {
		WRITE_ONCE(cb_fault_setup, 0);
		return -ENOMEM;
	}
	if (n)
		WRITE_ONCE(cb_fault_setup, n);
	atomic_inc(&cb_setups);
	return frag->setup(env);
}

static void cb_teardown(const struct cb_fragment *frag, struct cb_env *env)
{
	atomic_inc(&cb_teardowns);
	frag->teardown(env);
}

/*
 * MSR_SMI_COUNT exists on Intel since Nehalem.  Under a hypervisor it
 * counts the guest's own SMIs, not the host's that stall the samples:
 * better absent than a reassuring zero.
 */
static bool cb_read_smi(u64 *count)
{
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return false;
	return !rdmsrl_safe(MSR_SMI_COUNT, count);
}

/* A spinlock_t sleeps on PREEMPT_RT: such a body cannot run irqs-off. */
bool cb_skipped(const struct cb_fragment *frag)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT) && frag->sleeps_on_rt;
}

static void *cb_state_zalloc(size_t size)
{
	return kzalloc(size, GFP_KERNEL);
}

static void cb_state_free(void *p)
{
	kfree(p);
}

/* The module's hooks of an entry's life (lifecycle.c): counted setups. */
static const struct cb_life_hooks cb_life_hooks = {
	.zalloc = cb_state_zalloc,
	.free = cb_state_free,
	.setup = cb_setup,
	.teardown = cb_teardown,
};

/*
 * One ensemble of request entry @i (lifecycle.c: state, setup, warm-up,
 * the ensemble's place in the arrays, teardown), with what the module
 * adds: the SMI count and the counters' arrays.  @done: samples of the
 * run before this call, for the status file.
 */
int cb_ensemble(struct cb_job *job, unsigned int i, u32 e, u64 done)
{
	const struct cb_req *req = job->req;
	const struct cb_fragment *frag = req->frag[i];
	struct cb_result *res = job->res[i];
	struct cb_flight *fl = &job->fl[i];
	struct cb_env env = {
		.arg = req->arg[i],
		.ops = res->ops,
		.cpu = req->cpu,
		.nr_cpus = res->nr_cpus,
	};
	struct cb_ctx ctx = {
		.n = req->samples,
		.limit = job->limit,
		.method = res->method,
		.cpu = req->cpu,
		.env = &fl->life.env,
		.job = job,
		.dist = &fl->dist,
		.done = done,
		.over = fl->over,
		.tried = fl->tried,
	};
	int ret, k, r;

	if (!fl->life.started) {
		fl->dist.pmu = job->pmu.open ? &job->pmu : NULL;
		res->dist.smi_valid = cb_read_smi(&res->dist.smi_before);
	}
	ret = cb_life_ensemble_begin(&fl->life, frag, &env, &cb_life_hooks);
	if (ret)
		return ret;
	ctx.out = cb_life_at(res->cycles, e, req->samples);
	ctx.out_long = cb_life_at(res->cycles_long, e, req->samples);
	ctx.flags = cb_life_at(res->flags, e, req->samples);
	for (r = 0; r < CB_NR_REGIONS; r++)
		for (k = 0; k < CB_NR_PMC; k++)
			fl->dist.pmc_out[r][k] = cb_life_at(res->pmc[r][k], e,
							    req->samples);
	ctx.warmup = cb_life_warmup(frag, e, req->interleave, req->warmup);
	/*
	 * NOPs that name the argument to the TCG plugin, which tells the
	 * results of one run apart by it where they share their code
	 * (mark.h); outside the timed regions, a few hundred cycles an
	 * ensemble anywhere else.
	 */
	cb_mark_send(CB_MARK_ARG, env.arg);
	ret = res->nr_cpus > 1 ?
	      cb_on_cpus(job, i, &ctx, e, &cb_life_hooks) : frag->sample(&ctx);
	if (ctx.probe) {
		WRITE_ONCE(cb_slot(req->slot[i])->probe_at, jiffies);
		WRITE_ONCE(cb_slot(req->slot[i])->probe, ctx.probe);
	}
	fl->over = ctx.over;
	fl->tried += ctx.warmup + ctx.n;
	fl->measured += !ret;
	cb_life_ensemble_end(&fl->life, frag, &cb_life_hooks);
	return ret;
}

/*
 * Whether entry @i's body left preemption disabled or a lock held
 * (sample.c): its state may hold that lock, so it is neither torn down
 * (its teardown may take the lock) nor freed, ever, and its slot refuses
 * the fragment from now on (request.c).
 */
static bool cb_entry_held(struct cb_job *job, unsigned int i)
{
	void *state = job->fl[i].life.env.state;

	if (job->fl[i].dist.broke != cb_broke_held)
		return false;
	WRITE_ONCE(cb_slot(job->req->slot[i])->held, true);
	if (state)
		kmemleak_not_leak(state);
	return true;
}

/* Entry @i is done with (or the run stopped): teardown, what it saw. */
void cb_entry_end(struct cb_job *job, unsigned int i)
{
	const struct cb_fragment *frag = job->req->frag[i];
	struct cb_result *res = job->res[i];
	struct cb_flight *fl = &job->fl[i];

	if (!fl->life.started)
		return;
	if (!cb_entry_held(job, i))
		cb_life_entry_end(&fl->life, frag, &cb_life_hooks);
	if (res->dist.smi_valid)
		res->dist.smi_valid = cb_read_smi(&res->dist.smi_after);
	res->dist.pmc_open = job->pmu.open;
	memcpy(res->dist.pmc_why, job->pmu.why, sizeof(res->dist.pmc_why));
	memcpy(res->dist.pmc_err, job->pmu.err, sizeof(res->dist.pmc_err));
	res->dist.nmi_in = fl->dist.nmi_in;
	res->dist.nmi_out = fl->dist.nmi_out;
	memcpy(res->dist.flagged, fl->dist.flagged, sizeof(res->dist.flagged));
	res->dist.retaken = fl->dist.retaken;
	cb_cpus_spread(res, fl->measured == res->ensembles);
	memset(fl, 0, sizeof(*fl));
}

/*
 * Why entry @i stopped, where the log should hear of it, and whether it
 * failed on its own (its setup, its body), to be published as failed:
 * the run's end (-EINTR, -EAGAIN, -ETIMEDOUT) is no entry's failure.
 */
void cb_entry_failed(struct cb_job *job, unsigned int i, int ret)
{
	const struct cb_req *req = job->req;
	char arg[24] = "";

	if (req->frag[i]->nr_args)
		snprintf(arg, sizeof(arg), "/%llu", req->arg[i]);
	if (ret != -EINTR && ret != -EAGAIN && ret != -ETIMEDOUT)
		job->err[i] = ret;
	if (ret == -ETIME)
		cb_warn("%s:%s%s: refused: one sample (the body, and %u copies after it) would hold interrupts off over max_sample_us (%llu TSC ticks), or did so %llu times (%u in a row may, or %u and 1 in %u samples in all); shorten the body or its ARG, or reload with a larger max_sample_us (at most %u); the run's other fragments go on\n",
			cb_slot(req->slot[i])->group->name, req->frag[i]->name,
			arg, CB_LONG_REPEAT, job->limit, job->fl[i].over,
			CB_OVER_FREE - 1, CB_OVER_FREE, CB_OVER_SHARE,
			CB_MAX_SAMPLE_US);
	else if (ret == -ETIMEDOUT)
		cb_warn("%s:%s%s: cpu %u did not come to the barrier the CPUs of cpus= meet at before each sample within barrier_ms: something kept it from running (a real-time task, an interrupt storm, a stopped vCPU); the run stopped, the previous results stay; free that CPU, or reload with a larger barrier_ms\n",
			cb_slot(req->slot[i])->group->name, req->frag[i]->name,
			arg, job->lost_cpu);
	else if (ret == -EPROTO && job->fl[i].dist.broke == cb_broke_held) {
		cb_warn("%s:%s%s: the body left preemption disabled or a lock held: it took a lock (or called preempt_disable()) and did not release it; the run stopped, the previous results stay; its state is kept, neither torn down nor freed, and the fragment is refused until the module is reloaded; release what the body takes\n",
			cb_slot(req->slot[i])->group->name, req->frag[i]->name,
			arg);
		if (lockdep_depth(current))
			debug_show_held_locks(current);
	} else if (ret == -EPROTO)
		cb_warn("%s:%s%s: the body %s with preemption off: a body must not sleep (msleep, a mutex, GFP_KERNEL), turn interrupts on or leave preemption disabled; the kernel's report above names the call; the run stopped, the previous results stay\n",
			cb_slot(req->slot[i])->group->name, req->frag[i]->name,
			arg, job->fl[i].dist.broke);
	else if (job->err[i])
		cb_warn("%s:%s: setup failed (%d); the previous results stay\n",
			cb_slot(req->slot[i])->group->name, req->frag[i]->name,
			ret);
}

/* The result entry @i of @req fills; arrays and all, or NULL. */
struct cb_result *cb_result_alloc(const struct cb_req *req, unsigned int i)
{
	const struct cb_fragment *frag = req->frag[i];
	u64 n = (u64)req->samples * req->ensembles;
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL;
	struct cb_result *res = kzalloc(sizeof(*res), GFP_KERNEL);

	if (!res)
		return NULL;
	kref_init(&res->ref);
	res->nr_cpus = 1;
	res->n = n;
	res->ensembles = req->ensembles;
	res->samples = req->samples;
	res->warmup = req->warmup;
	res->ops = cb_slot_ops(cb_slot(req->slot[i]));
	res->method = cb_method_used(req->method);
	res->cpu = req->cpu;
	res->interleave = req->interleave;
	res->tsc_khz = tsc_khz;
	if (cb_skipped(frag))
		return res;
	/* NOWARN, RETRY_MAYFAIL: a failure is an error code, not a splat. */
	res->cycles = __vmalloc(n * sizeof(u64), gfp);
	if (res->cycles && !frag->no_long)
		res->cycles_long = __vmalloc(n * sizeof(u64), gfp);
	res->flags = __vmalloc(n, gfp);
	if (!res->cycles || (!frag->no_long && !res->cycles_long) ||
	    !res->flags || cb_cpus_alloc(res, req->cpus, gfp)) {
		cb_result_put(res);
		return NULL;
	}
	return res;
}
