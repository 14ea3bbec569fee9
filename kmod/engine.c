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
 * @done: completed by the kthread as it exits.
 * @abort: set by the writer on a signal; checked between samples.
 * @ret: 0, or why the run stopped early.
 * @failed: the slot whose setup failed, or -1.
 * @req: the request (the writer's, alive until @done).
 * @res: the results being filled, one per request entry.
 * @limit: the longest sample, in TSC ticks.
 */
struct cb_job {
	struct completion done;
	bool abort;
	int ret;
	int failed;
	const struct cb_req *req;
	struct cb_result **res;
	u64 limit;
};

/* One mutex guards runs (and adding slots); the store guards results. */
static DEFINE_MUTEX(cb_run_lock);

/* Number of the last completed run, under cb_run_lock. */
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
static DEFINE_RATELIMIT_STATE(cb_warn_rs, 5 * HZ, 3);
#define cb_warn(fmt, ...)						\
	do {								\
		if (__ratelimit(&cb_warn_rs))				\
			pr_warn(fmt, ##__VA_ARGS__);			\
	} while (0)

void cb_get_status(int *slot, u64 *done, u64 *total)
{
	*slot = atomic_read(&cb_status_slot);
	*done = atomic64_read(&cb_status_done);
	*total = atomic64_read(&cb_status_total);
}

int cb_between_samples(struct cb_ctx *ctx, u64 i)
{
	if (unlikely(READ_ONCE(ctx->job->abort)))
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
	struct cb_ctx ctx = {
		.n = req->samples,
		.limit = job->limit,
		.method = res->method,
		.cpu = req->cpu,
		.env = &env,
		.job = job,
	};
	bool each = frag->setup_each_ensemble, set_up = false;
	int ret = 0;
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
	return ret;
}

static int cb_thread(void *data)
{
	struct cb_job *job = data;
	const struct cb_req *req = job->req;
	unsigned int i;
	int ret = 0;

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
	job->ret = ret;
	/* Completes and exits without returning into module text. */
	kthread_complete_and_exit(&job->done, 0);
}

static void cb_job_free(struct cb_job *job)
{
	unsigned int i;

	for (i = 0; job->res && i < job->req->nr; i++)
		cb_result_put(job->res[i]);
	kfree(job->res);
	kfree(job);
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
	if (!res->cycles || (!frag->no_long && !res->cycles_long)) {
		cb_result_put(res);
		return NULL;
	}
	return res;
}

static struct cb_job *cb_job_alloc(const struct cb_req *req)
{
	struct cb_defaults d;
	struct cb_job *job;
	unsigned int i;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return NULL;
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
 * Memory the run would allocate: the sample arrays, plus the largest
 * buffer one setup allocates (setups run one at a time).  U64_MAX on
 * overflow.
 */
u64 cb_req_bytes(const struct cb_req *req)
{
	u64 per = (u64)req->samples * req->ensembles * sizeof(u64);
	u64 bytes = 0, buf = 0, b;
	unsigned int i;

	for (i = 0; i < req->nr; i++) {
		const struct cb_fragment *frag = req->frag[i];

		if (check_mul_overflow(per, (u64)(frag->no_long ? 1 : 2), &b) ||
		    check_add_overflow(bytes, b, &bytes))
			return U64_MAX;
		if (frag->arg_bytes)
			buf = max(buf, req->arg[i]);
	}
	if (check_add_overflow(bytes, buf, &bytes))
		return U64_MAX;
	return bytes;
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

/* Waits for the kthread; a real signal to the writer aborts the run. */
static void cb_wait(struct cb_job *job)
{
	long left;

	/* A successful wait consumes the completion: keep what it said. */
	do {
		left = wait_for_completion_killable_timeout(&job->done, HZ / 50);
	} while (!left && !cb_real_signal());
	if (left <= 0) {
		WRITE_ONCE(job->abort, true);
		/* The thread sees @abort before its next sample. */
		wait_for_completion(&job->done);
	}
}

static int cb_check(const struct cb_req *req)
{
	u64 bytes = cb_req_bytes(req);
	struct cb_defaults d;

	cb_get_defaults(&d);
	if (!req->nr)
		return -EINVAL;
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
	if (!cpu_online(req->cpu)) {
		cb_warn("cpu %u is offline: pick an online cpu=\n", req->cpu);
		return -EINVAL;
	}
	return 0;
}

static int cb_run_locked(struct cb_req *req)
{
	struct task_struct *task;
	struct cb_job *job;
	unsigned int i;
	int ret;

	ret = cb_check(req);
	if (ret)
		return ret;
	for (i = 0; i < req->nr; i++) {
		ret = cb_slot_find(req->frag[i], req->arg[i], true);
		if (ret < 0)
			return ret;
		req->slot[i] = ret;
	}
	job = cb_job_alloc(req);
	if (!job)
		return -ENOMEM;

	task = kthread_create(cb_thread, job, "cyclebench/%u", req->cpu);
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
		goto free_job;
	}
	kthread_bind(task, req->cpu);
	atomic64_set(&cb_status_done, 0);
	atomic64_set(&cb_status_total, (u64)req->nr * job->res[0]->n);
	atomic_set(&cb_status_slot, req->slot[0]);
	wake_up_process(task);
	cb_wait(job);
	atomic_set(&cb_status_slot, -1);
	ret = job->ret;
	if (ret == -EAGAIN)
		cb_warn("cpu %u went offline during the run; results discarded\n",
			req->cpu);

	/* All or nothing: readers never see part of a run. */
	if (!ret)
		cb_run_id++;
	for (i = 0; i < req->nr; i++)
		job->res[i]->run_id = cb_run_id;
	for (i = 0; i < req->nr; i++)
		if (job->res[i] && !job->res[i]->cycles) {
			cb_result_put(job->res[i]);	/* skipped: no data */
			job->res[i] = NULL;
		}
	cb_publish(req->slot, job->res, req->nr,
		   ret ? CB_STATE_ABORTED : CB_STATE_OK, job->failed, ret);
free_job:
	cb_job_free(job);
	return ret;
}

int cb_run(struct cb_req *req)
{
	int ret;

	if (!mutex_trylock(&cb_run_lock))
		return -EBUSY;
	ret = cb_run_locked(req);
	mutex_unlock(&cb_run_lock);
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
	if (!ret)
		ret = cb_run(req);
	kfree(req);
	return ret;
}
