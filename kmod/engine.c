// SPDX-License-Identifier: GPL-2.0
/*
 * The run engine: one run at a time, in a kthread bound to the run's CPU.
 * For each fragment: setup (once, or before every ensemble), the samples,
 * teardown.  Interrupts are off for one sample at a time (the sampler's
 * loop, in cyclebench.h); between samples the thread yields, so runs of
 * any length trip no lockup or RCU-stall detector.  A run publishes all of
 * its results together when it completes, or nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/ratelimit.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "internal.h"

/**
 * struct cb_job - a run in progress, shared by the writer and the kthread.
 * @ref: one for the writer, one for the kthread; the last put frees it.
 * @done: completed by the kthread once the run is published.
 * @ret: 0, or why the run stopped early.
 * @failed: the slot whose setup failed, or -1.
 * @req: the request, the job's own (freed with it).
 * @res: the results being filled, one per request entry.
 * @limit: the longest sample, in TSC ticks.
 * @pmu: the hardware counters, while the run counts.
 *
 * The kthread publishes the run itself, so a writer that a signal takes
 * away need not wait for it: the job outlives whichever leaves first.
 */
struct cb_job {
	struct kref ref;
	struct completion done;
	int ret;
	int failed;
	struct cb_req *req;
	struct cb_result **res;
	u64 limit;
	struct cb_pmu pmu;
};

/*
 * One mutex guards starting a run (and adding slots); cb_busy says a run
 * is in flight, from its start until its kthread has published it; the
 * store guards results.
 */
static DEFINE_MUTEX(cb_run_lock);
static atomic_t cb_busy = ATOMIC_INIT(0);

/*
 * Set to stop the run in flight (a signal to its writer, or rmmod);
 * checked between samples.  cb_gone is complete while no run's kthread
 * exists: it completes it as it exits, in core code, so whoever waits for
 * it (the module's init and exit, the next run) knows no module code
 * runs in that thread any more.
 */
static bool cb_abort;
static DECLARE_COMPLETION(cb_gone);

/* Waits until no kthread of ours runs, and leaves it said. */
static void cb_wait_gone(void)
{
	wait_for_completion(&cb_gone);
	complete(&cb_gone);
}

void cb_engine_init(void)
{
	complete(&cb_gone);
}

/* rmmod: no writer is left (their files hold the module), maybe a run. */
void cb_engine_exit(void)
{
	WRITE_ONCE(cb_abort, true);
	cb_wait_gone();
}

/* Number of the last completed run; written by the one run in flight. */
static u64 cb_run_id;

/* For the status file; written by the run's kthread. */
static atomic_t cb_status_slot = ATOMIC_INIT(-1);
static atomic64_t cb_status_done;
static atomic64_t cb_status_total;

/*
 * Setup and teardown calls since load, for the info file (a test counts
 * them), and fault_setup: make the Nth setup fail with -ENOMEM, to test
 * the failure path without a fragment written to fail.
 */
static atomic_t cb_setups = ATOMIC_INIT(0);
static atomic_t cb_teardowns = ATOMIC_INIT(0);
static unsigned int cb_fault_setup;
module_param_named(fault_setup, cb_fault_setup, uint, 0600);
MODULE_PARM_DESC(fault_setup, "testing: the Nth setup call from now fails with -ENOMEM (default 0: none)");

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

/* Rejected writes are the writer's to see (an errno), not the log's. */
DEFINE_RATELIMIT_STATE(cb_warn_rs, 5 * HZ, 3);

void cb_get_status(int *slot, u64 *done, u64 *total)
{
	*slot = atomic_read(&cb_status_slot);
	*done = atomic64_read(&cb_status_done);
	*total = atomic64_read(&cb_status_total);
}

int cb_between_samples(struct cb_ctx *ctx, u64 i)
{
	if (unlikely(READ_ONCE(cb_abort)))
		return -EINTR;
	/* kthread_bind() pins us, but CPU hotplug can still move us. */
	if (unlikely(raw_smp_processor_id() != ctx->cpu))
		return -EAGAIN;
	if (!(i & 1023) && i >= ctx->warmup)
		atomic64_set(&cb_status_done, ctx->done + i - ctx->warmup);
	/*
	 * Under PREEMPT_VOLUNTARY preempt_enable() does not reschedule; this
	 * keeps the soft lockup and RCU stall detectors quiet.
	 */
	cond_resched();
	return 0;
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
static bool cb_skipped(const struct cb_fragment *frag)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT) && frag->sleeps_on_rt;
}

/* Setup, ensembles x samples, teardown of one request entry. */
static int cb_measure(struct cb_job *job, unsigned int i)
{
	const struct cb_req *req = job->req;
	const struct cb_fragment *frag = req->frag[i];
	struct cb_result *res = job->res[i];
	struct cb_env env = {
		.arg = req->arg[i],
		.ops = res->ops,
		.cpu = req->cpu,
	};
	struct cb_disturb dist = {
		.ev = job->pmu.ev[0] ? job->pmu.ev : NULL,
		.gp_mask = job->pmu.gp_mask,
		.fixed_mask = job->pmu.fixed_mask,
	};
	struct cb_ctx ctx = {
		.n = req->samples,
		.limit = job->limit,
		.method = res->method,
		.cpu = req->cpu,
		.env = &env,
		.job = job,
		.dist = &dist,
	};
	bool each = frag->setup_each_ensemble, set_up = false;
	int ret = 0, k;
	u32 e;

	if (frag->state_size) {
		env.state = kzalloc(frag->state_size, GFP_KERNEL);
		if (!env.state)
			return -ENOMEM;
	}
	if (frag->setup && !each) {
		ret = cb_setup(frag, &env);
		set_up = !ret;
	}
	for (e = 0; e < req->ensembles && !ret; e++) {
		if (frag->setup && each) {
			ret = cb_setup(frag, &env);
			if (ret)
				break;
		}
		ctx.out = res->cycles + (u64)e * req->samples;
		ctx.out_long = res->cycles_long ?
			       res->cycles_long + (u64)e * req->samples : NULL;
		ctx.flags = res->flags + (u64)e * req->samples;
		for (k = 0; dist.ev && k < CB_NR_PMC; k++)
			dist.pmc_out[k] = res->pmc[k] + (u64)e * req->samples;
		/* A new layout is cold again: warm it up too. */
		ctx.warmup = (!e || each) ? req->warmup : 0;
		ctx.done = (u64)i * res->n + (u64)e * req->samples;
		ret = frag->sample(&ctx);
		if (frag->teardown && each)
			cb_teardown(frag, &env);
	}
	if (frag->teardown && set_up)
		cb_teardown(frag, &env);
	kfree(env.state);
	res->pmu = job->pmu.why;
	res->pmu_err = job->pmu.err;
	res->nmi_in = dist.nmi_in;
	res->nmi_out = dist.nmi_out;
	memcpy(res->flagged, dist.flagged, sizeof(res->flagged));
	return ret;
}

static void cb_finish(struct cb_job *job);
static void cb_job_release(struct kref *ref);

static int cb_thread(void *data)
{
	struct cb_job *job = data;
	const struct cb_req *req = job->req;
	unsigned int i;
	int ret = 0;

	cb_pmu_open(&job->pmu, req, job->res);
	for (i = 0; i < req->nr && !ret; i++) {
		struct cb_result *res = job->res[i];

		atomic_set(&cb_status_slot, req->slot[i]);
		if (cb_skipped(req->frag[i]))
			continue;
		res->smi_valid = cb_read_smi(&res->smi_before);
		ret = cb_measure(job, i);
		if (res->smi_valid)
			res->smi_valid = cb_read_smi(&res->smi_after);
		if (ret && ret != -EINTR && ret != -EAGAIN && ret != -ETIME)
			job->failed = req->slot[i];
		if (ret == -ETIME)
			cb_warn("%s:%s: a sample took over max_sample_us: the body holds interrupts off too long; shorten it, or reload with a larger max_sample_us\n",
				cb_slot(req->slot[i])->group->name,
				req->frag[i]->name);
		else if (ret && job->failed >= 0)
			cb_warn("%s:%s: setup failed (%d); the previous results stay\n",
				cb_slot(req->slot[i])->group->name,
				req->frag[i]->name, ret);
	}
	/* Released on every way out: done, error, abort. */
	cb_pmu_close(&job->pmu);
	job->ret = ret;
	cb_finish(job);
	/*
	 * What the slots did not take (the old results, an aborted run's
	 * arrays) goes now: once the status file says idle, the memory is
	 * back and the next run is welcome.
	 */
	for (i = 0; i < req->nr; i++) {
		cb_result_put(job->res[i]);
		job->res[i] = NULL;
	}
	atomic_set(&cb_status_slot, -1);
	atomic_set_release(&cb_busy, 0);
	complete(&job->done);
	kref_put(&job->ref, cb_job_release);
	/* Completes and exits without returning into module text. */
	kthread_complete_and_exit(&cb_gone, 0);
}

static void cb_job_free(struct cb_job *job)
{
	unsigned int i;

	for (i = 0; job->res && i < job->req->nr; i++)
		cb_result_put(job->res[i]);
	kfree(job->res);
	kfree(job->req);
	kfree(job);
}

static void cb_job_release(struct kref *ref)
{
	cb_job_free(container_of(ref, struct cb_job, ref));
}

static struct cb_result *cb_result_alloc(const struct cb_req *req,
					 unsigned int i)
{
	const struct cb_fragment *frag = req->frag[i];
	u64 n = (u64)req->samples * req->ensembles;
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL;
	struct cb_result *res = kzalloc(sizeof(*res), GFP_KERNEL);

	if (!res)
		return NULL;
	kref_init(&res->ref);
	res->n = n;
	res->ensembles = req->ensembles;
	res->samples = req->samples;
	res->warmup = req->warmup;
	res->ops = cb_slot_ops(cb_slot(req->slot[i]));
	res->method = cb_method_used(req->method);
	res->cpu = req->cpu;
	res->tsc_khz = tsc_khz;
	if (cb_skipped(frag))
		return res;
	/* NOWARN, RETRY_MAYFAIL: a failure is an error code, not a splat. */
	res->cycles = __vmalloc(n * sizeof(u64), gfp);
	if (res->cycles && !frag->no_long)
		res->cycles_long = __vmalloc(n * sizeof(u64), gfp);
	res->flags = __vmalloc(n, gfp);
	if (!res->cycles || (!frag->no_long && !res->cycles_long) ||
	    !res->flags) {
		cb_result_put(res);
		return NULL;
	}
	return res;
}

/* Takes @req over: the job frees it. */
static struct cb_job *cb_job_alloc(struct cb_req *req)
{
	struct cb_defaults d;
	struct cb_job *job;
	unsigned int i;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		kfree(req);
		return NULL;
	}
	kref_init(&job->ref);
	init_completion(&job->done);
	job->req = req;
	job->failed = -1;
	cb_get_defaults(&d);
	job->limit = (u64)d.max_sample_us * (tsc_khz ? tsc_khz : 1000000) / 1000;
	job->res = kcalloc(req->nr, sizeof(*job->res), GFP_KERNEL);
	if (!job->res)
		goto free_job;
	for (i = 0; i < req->nr; i++) {
		job->res[i] = cb_result_alloc(req, i);
		if (!job->res[i])
			goto free_job;
	}
	return job;

free_job:
	cb_job_free(job);
	return NULL;
}

/*
 * Whether the writer has a signal to act on: fatal, or one it will
 * handle.  A stop (SIGSTOP, Ctrl-Z), ptrace or the freezer also wakes the
 * wait, but must not end a run: the writer stops once the write returns.
 */
static bool cb_real_signal(void)
{
	sigset_t pend;

	if (fatal_signal_pending(current))
		return true;
	if (!task_sigpending(current))
		return false;
	/*
	 * Unlocked: a signal that arrives meanwhile is seen at the next
	 * check, HZ / 50 later.
	 */
	sigorsets(&pend, &current->pending.signal,
		  &current->signal->shared_pending.signal);
	sigandnsets(&pend, &pend, &current->blocked);
	sigdelsetmask(&pend, sigmask(SIGSTOP) | sigmask(SIGTSTP) |
		      sigmask(SIGTTIN) | sigmask(SIGTTOU) | sigmask(SIGCONT));
	return !sigisemptyset(&pend);
}

/*
 * Waits for the run; a real signal to the writer aborts it.  The kthread
 * sees the abort before its next sample and publishes the run itself: the
 * writer waits for that a little (so that, as a rule, what it reads next
 * is already there; not when it is being killed), then leaves, even while
 * something starves the run's CPU.  The module's init (@may_leave false)
 * waits to the end: the thread runs module code, which a failed init
 * frees.
 */
static int cb_wait(struct cb_job *job, bool may_leave)
{
	long left;

	/* A successful wait consumes the completion: keep what it said. */
	do {
		left = wait_for_completion_killable_timeout(&job->done, HZ / 50);
	} while (!left && !cb_real_signal());
	if (left <= 0)
		WRITE_ONCE(cb_abort, true);
	if (!may_leave) {
		cb_wait_gone();
		return job->ret;
	}
	if (left > 0 || (!fatal_signal_pending(current) &&
			 wait_for_completion_timeout(&job->done, HZ / 20)))
		return job->ret;
	return -EINTR;
}

/* In the kthread, when the run is over: all or nothing, never part of it. */
static void cb_finish(struct cb_job *job)
{
	const struct cb_req *req = job->req;
	unsigned int i;

	if (job->ret == -EAGAIN)
		cb_warn("cpu %u went offline during the run; results discarded\n",
			req->cpu);
	if (!job->ret)
		cb_run_id++;
	for (i = 0; i < req->nr; i++)
		job->res[i]->run_id = cb_run_id;
	for (i = 0; i < req->nr; i++)
		if (!job->res[i]->cycles) {
			cb_result_put(job->res[i]);	/* skipped: no data */
			job->res[i] = NULL;
		}
	cb_publish(req->slot, job->res, req->nr,
		   job->ret ? CB_STATE_ABORTED : CB_STATE_OK, job->failed, job->ret);
}

/* Under cb_run_lock, with cb_busy set: the job and its kthread. */
static int cb_launch(struct cb_req *req, struct cb_job **jobp)
{
	struct task_struct *task;
	struct cb_job *job;
	unsigned int i;
	int ret;

	ret = cb_req_check(req);
	for (i = 0; i < req->nr && !ret; i++) {
		ret = cb_slot_find(req->frag[i], req->arg[i], true);
		req->slot[i] = ret;
		ret = min(ret, 0);
	}
	if (ret) {
		kfree(req);
		return ret;
	}
	job = cb_job_alloc(req);
	if (!job)
		return -ENOMEM;
	/* The last run's thread is gone, or about to be: busy was clear. */
	cb_wait_gone();
	reinit_completion(&cb_gone);
	task = kthread_create(cb_thread, job, "cyclebench/%u", req->cpu);
	if (IS_ERR(task)) {
		complete(&cb_gone);
		cb_job_free(job);
		return PTR_ERR(task);
	}
	kthread_bind(task, req->cpu);
	WRITE_ONCE(cb_abort, false);
	kref_get(&job->ref);
	atomic64_set(&cb_status_done, 0);
	atomic64_set(&cb_status_total, (u64)req->nr * job->res[0]->n);
	atomic_set(&cb_status_slot, req->slot[0]);
	*jobp = job;
	wake_up_process(task);
	return 0;
}

/*
 * Runs @req, which it takes over (and frees).  -EBUSY while another run
 * is in flight, including one whose writer has gone.
 */
int cb_run(struct cb_req *req, bool may_leave)
{
	struct cb_job *job;
	int ret;

	if (!mutex_trylock(&cb_run_lock)) {
		kfree(req);
		return -EBUSY;
	}
	if (atomic_cmpxchg_acquire(&cb_busy, 0, 1)) {
		mutex_unlock(&cb_run_lock);
		kfree(req);
		return -EBUSY;
	}
	ret = cb_launch(req, &job);
	if (ret)
		atomic_set(&cb_busy, 0);
	mutex_unlock(&cb_run_lock);
	if (ret)
		return ret;
	ret = cb_wait(job, may_leave);
	kref_put(&job->ref, cb_job_release);
	return ret;
}

/* A line written to the run file; @cmd is NUL-terminated and writable. */
int cb_run_command(char *cmd)
{
	struct cb_req *req = kmalloc(sizeof(*req), GFP_KERNEL);
	int ret;

	if (!req)
		return -ENOMEM;
	ret = cb_parse_request(cmd, req);
	if (ret) {
		kfree(req);
		return ret;
	}
	return cb_run(req, true);
}
