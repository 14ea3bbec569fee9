// SPDX-License-Identifier: GPL-2.0
/*
 * The run engine: one run at a time, in a kthread bound to the run's CPU.
 * For each fragment: setup (once, or before every ensemble), the samples,
 * teardown; with interleave=1, ensemble by ensemble across the fragments.
 * Interrupts are off for one sample at a time (the sampler's loop, in
 * harness.h); between samples the thread yields, so runs of
 * any length trip no lockup or RCU-stall detector.  A run publishes all of
 * its results together when it completes, or nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <asm/tsc.h>

#include "internal.h"

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
/*
 * The run to stop: its job's seq, or CB_ABORT_ALL (rmmod).  A number, not
 * a flag, so that a writer that gives up late cannot stop the next run.
 */
u64 cb_abort;
static u64 cb_seq;
static DECLARE_COMPLETION(cb_gone);
/* The last run's kthread (a reference: cb_launch() and cb_engine_exit()). */
static struct task_struct *cb_run_task;

/*
 * Waits until no kthread of ours runs, and leaves it said.  A run told to
 * stop stops at its next sample, once its CPU gives it time; a real-time
 * task that owns the CPU (RT throttling off), or a stopped vCPU, may never
 * give it any.  So after a second the thread may finish on any online CPU
 * (cb_unbind()): it sees that it moved, or the stop, before it samples
 * again, and exits.  rmmod and a killed insmod return within seconds.
 */
static void cb_wait_gone(void)
{
	while (!wait_for_completion_timeout(&cb_gone, HZ))
		if (READ_ONCE(cb_abort) && cb_run_task)
			cb_unbind(cb_run_task);
	complete(&cb_gone);
}

/* The TSC's step (cb_tsc_step_of(), timing.h), measured at load; 1 if unknown. */
unsigned int cb_tsc_step = 1;

/*
 * 4000 differences of two reads 1..97 loop iterations apart, every other
 * one a nop longer: where the TSC counts every tick the varying gap leaves
 * no common step but 1 (under QEMU's icount, where it counts instructions,
 * the nop keeps two-instruction iterations from making it 2).
 */
static void cb_measure_tsc_step(void)
{
	const unsigned int n = 4000;
	u64 *d = kvmalloc_array(n, sizeof(*d), GFP_KERNEL);
	unsigned int i;

	if (!d)
		return;
	for (i = 0; i < n; i++) {
		u64 a = rdtsc_ordered();

		cb_spin_iters(i % 97 + 1);
		if (i & 1)
			asm volatile("nop");
		d[i] = rdtsc_ordered() - a;
	}
	cb_tsc_step = cb_tsc_step_of(d, n);
	kvfree(d);
}

void cb_engine_init(void)
{
	complete(&cb_gone);
	cb_measure_tsc_step();
}

/* rmmod: no writer is left (their files hold the module), maybe a run. */
void cb_engine_exit(void)
{
	WRITE_ONCE(cb_abort, CB_ABORT_ALL);
	cb_wait_gone();
	if (cb_run_task)
		put_task_struct(cb_run_task);
	cb_run_task = NULL;
}

/* Number of the last completed run; written by the one run in flight. */
static u64 cb_run_id;

/* For the status file; written by the run's kthread. */
static atomic_t cb_status_slot = ATOMIC_INIT(-1);
static atomic64_t cb_status_done;
static atomic64_t cb_status_total;

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
	/*
	 * Under PREEMPT_VOLUNTARY preempt_enable() does not reschedule; this
	 * keeps the soft lockup and RCU stall detectors quiet.  First: what
	 * the thread finds after it (a stop, another CPU: cb_unbind()) is
	 * seen before the next sample.
	 */
	cond_resched();
	if (cb_aborted(ctx->job))
		return -EINTR;
	/* kthread_bind() pins us, but CPU hotplug can still move us. */
	if (unlikely(raw_smp_processor_id() != ctx->cpu))
		return -EAGAIN;
	/* (a cpus= run's first CPU speaks for the others) */
	if (!(i & 1023) && i >= ctx->warmup && ctx->cpu == ctx->job->req->cpu)
		atomic64_set(&cb_status_done, ctx->done + i - ctx->warmup);
	/* last: the CPUs of cpus= leave the barrier right into their samples */
	return ctx->meet ? cb_meet(ctx, i) : 0;
}

static void cb_finish(struct cb_job *job);
static void cb_job_release(struct kref *ref);

static int cb_thread(void *data)
{
	struct cb_job *job = data;
	const struct cb_req *req = job->req;
	/*
	 * All ensembles of one entry, then the next; interleaved, ensemble
	 * by ensemble across the entries, so that where the clock drifts
	 * (turbo, other tenants, TCG's host) every entry sees the same clocks.
	 */
	unsigned int outer = req->interleave ? req->ensembles : req->nr;
	unsigned int inner = req->interleave ? req->nr : req->ensembles;
	unsigned int a, b, i;
	int ret = 0;

	cb_pmu_open(&job->pmu, req, job->res);
	for (a = 0; a < outer && !ret; a++) {
		for (b = 0; b < inner && !ret; b++) {
			i = req->interleave ? b : a;
			if (cb_skipped(req->frag[i]) || job->err[i])
				continue;
			atomic_set(&cb_status_slot, req->slot[i]);
			ret = cb_ensemble(job, i, req->interleave ? a : b,
					  ((u64)a * inner + b) * req->samples);
			if (ret)
				cb_entry_failed(job, i, ret);
			/* a body over the bound stops alone: the others go on */
			if (ret == -ETIME) {
				job->entry_err = job->entry_err ?: ret;
				ret = 0;
			}
		}
		/* Sequential: one entry's setup buffers at a time. */
		if (!req->interleave)
			cb_entry_end(job, a);
	}
	for (i = 0; i < req->nr; i++)
		cb_entry_end(job, i);
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
	kfree(job->fl);
	kfree(job->err);
	kvfree(job->req);
	kfree(job);
}

static void cb_job_release(struct kref *ref)
{
	cb_job_free(container_of(ref, struct cb_job, ref));
}

/* Takes @req over: the job frees it. */
static struct cb_job *cb_job_alloc(struct cb_req *req)
{
	struct cb_defaults d;
	struct cb_job *job;
	unsigned int i;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		kvfree(req);
		return NULL;
	}
	kref_init(&job->ref);
	init_completion(&job->done);
	job->req = req;
	job->lost_cpu = req->cpu;
	cb_get_defaults(&d);
	job->limit = cb_limit_ticks(d.max_sample_us);
	job->res = kcalloc(req->nr, sizeof(*job->res), GFP_KERNEL);
	job->fl = kcalloc(req->nr, sizeof(*job->fl), GFP_KERNEL);
	job->err = kcalloc(req->nr, sizeof(*job->err), GFP_KERNEL);
	if (!job->res || !job->fl || !job->err)
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
 * handle.  A stop (SIGSTOP, Ctrl-Z) or ptrace also wakes the wait, but
 * must not end a run: the writer stops once the write returns.  (The
 * freezer's wake-up is no signal either: cb_wait() sees it by freezing().)
 */
static bool cb_real_signal(void)
{
	struct sighand_struct *sh;
	sigset_t pend;

	if (fatal_signal_pending(current))
		return true;
	if (!task_sigpending(current))
		return false;
	/*
	 * The pending sets change under siglock (a sender's, another
	 * thread's).  A task's own sighand changes only in its own exec.
	 */
	sh = rcu_dereference_protected(current->sighand, 1);
	spin_lock_irq(&sh->siglock);
	sigorsets(&pend, &current->pending.signal,
		  &current->signal->shared_pending.signal);
	sigandnsets(&pend, &pend, &current->blocked);
	spin_unlock_irq(&sh->siglock);
	sigdelsetmask(&pend, sigmask(SIGSTOP) | sigmask(SIGTSTP) |
		      sigmask(SIGTTIN) | sigmask(SIGTTOU) | sigmask(SIGCONT));
	return !sigisemptyset(&pend);
}

/*
 * Waits for the run; a real signal to the writer aborts it.  The kthread
 * sees the abort before its next sample and publishes the run itself: the
 * writer waits for that a little (so that, as a rule, what it reads next
 * is already there; not when it is being killed), then leaves, even while
 * something starves the run's CPU.  The freezer abandons the run too,
 * and the write is restarted once thawed.  The module's init (@may_leave
 * false) waits to the end: the thread runs module code, which a failed
 * init frees.
 */
static int cb_wait(struct cb_job *job, bool may_leave)
{
	bool freeze = false;
	long left;

	/* A successful wait consumes the completion: keep what it said. */
	do {
		left = wait_for_completion_killable_timeout(&job->done, HZ / 50);
		freeze = !left && may_leave && freezing(current);
	} while (!left && !freeze && !cb_real_signal());
	if (left <= 0)
		WRITE_ONCE(cb_abort, job->seq);
	if (!may_leave) {
		cb_wait_gone();
		return job->ret;
	}
	if (left > 0)
		return job->ret;
	if (freeze) {
		/*
		 * The freezer (suspend, hibernation, a frozen cgroup) wants
		 * the writer: the run is abandoned, and the write, restarted
		 * once thawed, starts a new one.  Not frozen in here: the VFS
		 * holds sb_writers around a write, and a task must not freeze
		 * holding a lock.  The run publishes first, so that the
		 * restarted write is not refused as busy.
		 */
		wait_for_completion_timeout(&job->done, HZ);
		return signal_pending(current) ? -ERESTARTSYS : -EINTR;
	}
	if (!fatal_signal_pending(current) &&
	    wait_for_completion_timeout(&job->done, HZ / 20))
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
			job->lost_cpu);
	if (!job->ret)
		cb_run_id++;
	for (i = 0; i < req->nr; i++)
		job->res[i]->run_id = cb_run_id;
	for (i = 0; i < req->nr; i++)
		if (!job->res[i]->cycles) {
			cb_result_put(job->res[i]);	/* skipped: no data */
			job->res[i] = NULL;
		}
	cb_publish(req->slot, job->res, job->err, req->nr,
		   job->ret ? CB_STATE_ABORTED : CB_STATE_OK);
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
		kvfree(req);
		return ret;
	}
	job = cb_job_alloc(req);
	if (!job)
		return -ENOMEM;
	/* The last run's thread is gone, or about to be: busy was clear. */
	cb_wait_gone();
	/* no CPU of the run goes offline between its check and the bind */
	cpus_read_lock();
	ret = cb_req_check_cpus(req);
	task = ret ? ERR_PTR(ret) :
	       kthread_create(cb_thread, job, "cyclebench/%u", req->cpu);
	if (IS_ERR(task)) {
		cpus_read_unlock();
		cb_job_free(job);
		return PTR_ERR(task);
	}
	reinit_completion(&cb_gone);
	kthread_bind(task, req->cpu);
	cpus_read_unlock();
	if (cb_run_task)
		put_task_struct(cb_run_task);
	cb_run_task = get_task_struct(task);
	job->seq = ++cb_seq;
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
 * is in flight, including one whose writer has gone.  0 when the run went
 * to its end, where an entry may have stopped alone (a body over the
 * bound): then *@entry_err says why (else 0), and the slot says failed.
 */
int cb_run(struct cb_req *req, bool may_leave, int *entry_err)
{
	struct cb_job *job;
	int ret;

	*entry_err = 0;
	if (!mutex_trylock(&cb_run_lock)) {
		kvfree(req);
		return -EBUSY;
	}
	if (atomic_cmpxchg_acquire(&cb_busy, 0, 1)) {
		mutex_unlock(&cb_run_lock);
		kvfree(req);
		return -EBUSY;
	}
	ret = cb_launch(req, &job);
	if (ret)
		atomic_set(&cb_busy, 0);
	mutex_unlock(&cb_run_lock);
	if (ret)
		return ret;
	ret = cb_wait(job, may_leave);
	if (!ret)
		*entry_err = job->entry_err;
	kref_put(&job->ref, cb_job_release);
	return ret;
}

/* A line written to the run file; @cmd is NUL-terminated and writable. */
int cb_run_command(char *cmd)
{
	struct cb_req *req = kvzalloc(sizeof(*req), GFP_KERNEL);
	int ret, entry_err;

	if (!req)
		return -ENOMEM;
	ret = cb_parse_request(cmd, req);
	if (ret) {
		kvfree(req);
		return ret;
	}
	/* the others' results are published: the write says one stopped */
	ret = cb_run(req, true, &entry_err);
	return ret ?: entry_err;
}
