// SPDX-License-Identifier: GPL-2.0
/*
 * A run on several CPUs at once (cpus=0-3): for each ensemble, a kthread
 * bound to each CPU of cpus= but the first (where the run's own thread
 * samples), each sampler into its own arrays.  Before every sample the
 * CPUs meet at a spin barrier and leave it together, so that their samples
 * overlap; interrupts are off only inside each CPU's own sample, as on one
 * CPU: the barrier spins with them on and yields when asked.
 *
 * The run stops, and publishes nothing, when one CPU's sampler fails, when
 * a CPU goes offline, when one has not come to the barrier within
 * barrier_ms (-ETIMEDOUT: something kept it from running), and on the
 * abort of a signal or rmmod.  The run's thread waits for every helper to
 * have left module code before it goes itself: cb_gone (engine.c) then
 * covers them all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kmemleak.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/tsc.h>

#include "internal.h"

/*
 * fault_barrier_ms (testing): the last CPU of the next cpus= runs sleeps
 * this long before its samples, as a CPU something else holds would stay
 * away: with more than barrier_ms the others give up (-ETIMEDOUT).
 */
static unsigned int cb_fault_barrier_ms;
#ifdef CB_TEST_HOOKS	/* the tests' build only (Kbuild) */
module_param_named(fault_barrier_ms, cb_fault_barrier_ms, uint, 0600);
MODULE_PARM_DESC(fault_barrier_ms, "testing: the last CPU of a cpus= run sleeps this long before its samples (default 0)");
#endif

/**
 * struct cb_barrier - where the CPUs of a cpus= run meet before each sample.
 * @k: the CPUs that meet.
 * @count: how many are there now.
 * @gen: the meeting's number; the last to come bumps it and all go.
 * @arrived: the CPUs there now (bit N: CPU N), to name one that is not.
 * @left: a CPU's sampler is done: the others no longer wait for it.
 * @err: the first error that stopped a CPU (the run's), or 0.
 * @err_cpu: the CPU @err is about.
 * @broke: with -EPROTO, what that CPU's body did.
 * @timeout: barrier_ms, in jiffies.
 * @lock: guards @err, @err_cpu and @broke.
 */
struct cb_barrier {
	unsigned int k;
	atomic_t count;
	atomic_t gen;
	atomic64_t arrived;
	atomic_t left;
	int err;
	unsigned int err_cpu;
	const char *broke;
	unsigned long timeout;
	spinlock_t lock;	/* guards err, err_cpu, broke */
};

/**
 * struct cb_meet - one CPU's place at the barrier.
 * @bar: the barrier.
 * @cpu: the CPU.
 * @release: where it notes the TSC as it leaves, per kept sample.
 * @round: and the meeting's number (U32_MAX: it met no one).
 * @next: the first sample index it has not met the others for yet.
 */
struct cb_meet {
	struct cb_barrier *bar;
	unsigned int cpu;
	u64 *release;
	u32 *round;
	u64 next;
};

/**
 * struct cb_helper - the kthread of one CPU but the first, for an ensemble.
 * @done: completed as it exits, in core code (kthread_complete_and_exit()).
 * @task: the thread.
 * @frag: the fragment.
 * @ctx: its sampler's context: its own arrays, its CPU.
 * @meet: its place at the barrier.
 * @dist: its disturbance bookkeeping: its samples' flags go to its
 *	cpuN/flags; the flagged_* counts, counters and NMI figures published
 *	are the first CPU's.
 * @env: a .per_cpu fragment's argument, CPU and rank, for @life.
 * @life: that fragment's own state and setup, made on its CPU for this
 *	ensemble (lifecycle.c, with @hooks).
 * @hooks: the module's hooks of an entry's life (measure.c).
 * @per_cpu: @ctx's env is @life's.
 * @sleep_ms: fault_barrier_ms, for the last CPU.
 */
struct cb_helper {
	struct completion done;
	struct task_struct *task;
	const struct cb_fragment *frag;
	struct cb_ctx ctx;
	struct cb_meet meet;
	struct cb_disturb dist;
	struct cb_env env;
	struct cb_life life;
	const struct cb_life_hooks *hooks;
	bool per_cpu;
	unsigned int sleep_ms;
};

/*
 * A thread of a run that was told to stop, kept from running on its CPU
 * (harness.h: between two samples, interrupts on): it may finish on any
 * online CPU.  Once moved it samples no more (cb_between_samples()).  One
 * that waits (for its helpers, in cb_on_cpus()) is not kept from anything.
 */
void cb_unbind(struct task_struct *task)
{
	if (task_is_running(task) &&
	    set_cpus_allowed_ptr(task, cpu_online_mask) == 0)
		cb_warn("%s: kept from running on its CPU after the run stopped (a real-time task?): it finishes elsewhere\n",
			task->comm);
}

/* The first error stops every CPU; later ones (their -ECANCELED) are not news. */
static void cb_bar_fail(struct cb_barrier *b, unsigned int cpu, int err,
			const char *broke)
{
	spin_lock(&b->lock);
	if (!b->err) {
		WRITE_ONCE(b->err_cpu, cpu);
		WRITE_ONCE(b->broke, broke);
		WRITE_ONCE(b->err, err);
	}
	spin_unlock(&b->lock);
}

/* Done sampling, or stopped: nobody waits for this CPU any more. */
static void cb_bar_leave(struct cb_barrier *b, unsigned int cpu, int ret,
			 const char *broke)
{
	if (ret && ret != -ECANCELED)
		cb_bar_fail(b, cpu, ret, broke);
	atomic_set_release(&b->left, 1);
}

/*
 * Before sample @i, after cb_between_samples()' other checks: waits for
 * the other CPUs and notes when it left.  -ECANCELED when another CPU
 * stopped the run, -EINTR on the abort, -ETIMEDOUT when one did not come.
 * A sample taken again (the sampler's retake, over the time limit) is
 * taken alone, out of step: every CPU meets the others once per sample
 * index, so sample j of each CPU's arrays ran beside the others' sample j.
 */
int cb_meet(struct cb_ctx *ctx, u64 i)
{
	struct cb_meet *mt = ctx->meet;
	struct cb_barrier *b = mt->bar;
	int gen = atomic_read_acquire(&b->gen);
	u32 round = U32_MAX;
	unsigned long deadline;

	if (READ_ONCE(b->err))
		return -ECANCELED;
	if (i < mt->next || atomic_read_acquire(&b->left))
		goto out;
	mt->next = i + 1;
	atomic64_or(BIT_ULL(mt->cpu), &b->arrived);
	if (atomic_inc_return(&b->count) == b->k) {
		/* the others cannot come again before gen moves */
		atomic_set(&b->count, 0);
		atomic64_set(&b->arrived, 0);
		atomic_set_release(&b->gen, gen + 1);
		round = gen;
		goto out;
	}
	deadline = jiffies + b->timeout;
	while (atomic_read_acquire(&b->gen) == gen) {
		if (READ_ONCE(b->err))
			return -ECANCELED;
		if (atomic_read_acquire(&b->left))
			goto out;
		if (cb_aborted(ctx->job))
			return -EINTR;
		if (time_after(jiffies, deadline)) {
			u64 here = atomic64_read_acquire(&b->arrived);
			u64 away = ctx->job->req->cpus & ~here;

			/*
			 * All there, or this CPU's bit gone: the meeting is
			 * over, and gen is about to move.
			 */
			if (!away || !(here & BIT_ULL(mt->cpu)) ||
			    atomic_read(&b->gen) != gen)
				continue;
			cb_bar_fail(b, __ffs64(away), -ETIMEDOUT, NULL);
			return -ETIMEDOUT;
		}
		cond_resched();
		cpu_relax();
	}
	round = gen;
out:
	if (i >= ctx->warmup) {
		mt->release[i - ctx->warmup] = rdtsc_ordered();
		mt->round[i - ctx->warmup] = round;
	}
	return 0;
}

static int cb_helper_fn(void *data)
{
	struct cb_helper *h = data;
	const struct cb_fragment *frag = h->frag;
	bool began = false;
	unsigned int ms;
	int ret = 0;

	/* fault_barrier_ms: away, until the others give up or the run stops */
	for (ms = 0; ms < h->sleep_ms && !READ_ONCE(h->meet.bar->err) &&
	     !cb_aborted(h->ctx.job); ms += 20)
		msleep(20);
	if (h->per_cpu) {
		ret = cb_life_ensemble_begin(&h->life, frag, &h->env, h->hooks);
		began = !ret;
	}
	if (!ret)
		ret = frag->sample(&h->ctx);
	cb_bar_leave(h->meet.bar, h->meet.cpu, ret, h->dist.broke);
	if (began)
		cb_life_ensemble_end(&h->life, frag, h->hooks);
	/* a lock the body left held may be in its state (measure.c) */
	if (h->dist.broke != cb_broke_held)
		cb_life_entry_end(&h->life, frag, h->hooks);
	else if (h->life.env.state)
		kmemleak_not_leak(h->life.env.state);
	kthread_complete_and_exit(&h->done, 0);
}

/*
 * Ensemble @e of request entry @i on every CPU of cpus= at once: @ctx is
 * the first CPU's (this thread's), set up as for one CPU.  The helpers'
 * .per_cpu states are made and torn down in each ensemble, on their CPUs,
 * with the caller's @hooks.
 */
int cb_on_cpus(struct cb_job *job, unsigned int i, struct cb_ctx *ctx, u32 e,
	       const struct cb_life_hooks *hooks)
{
	const struct cb_fragment *frag = job->req->frag[i];
	struct cb_result *res = job->res[i];
	u64 at = (u64)e * res->samples, cpus = res->cpus;
	unsigned int k = res->nr_cpus, t, made;
	struct cb_barrier bar = {
		.k = k,
		.count = ATOMIC_INIT(0),
		.gen = ATOMIC_INIT(0),
		.arrived = ATOMIC64_INIT(0),
		.left = ATOMIC_INIT(0),
	};
	struct cb_defaults d;
	struct cb_helper *h;
	int ret = 0;

	h = kcalloc(k, sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	spin_lock_init(&bar.lock);
	cb_get_defaults(&d);
	bar.timeout = msecs_to_jiffies(d.barrier_ms);
	for (t = 0; t < k; t++, cpus &= cpus - 1) {
		h[t].meet.bar = &bar;
		h[t].meet.cpu = __ffs64(cpus);
		h[t].meet.release = res->release[t] + at;
		h[t].meet.round = res->round[t] + at;
	}
	ctx->meet = &h[0].meet;
	/* no CPU of the run goes offline between its check and its bind */
	cpus_read_lock();
	for (made = 1; made < k; made++) {
		struct cb_helper *w = &h[made];
		struct task_struct *task;

		init_completion(&w->done);
		w->frag = frag;
		w->ctx = *ctx;
		w->ctx.cpu = w->meet.cpu;
		w->ctx.out = cb_life_at(res->pc_cycles[made], e, res->samples);
		w->ctx.out_long = res->pc_cycles_long ?
				  cb_life_at(res->pc_cycles_long[made], e,
					     res->samples) : NULL;
		w->ctx.flags = cb_life_at(res->pc_flags[made], e, res->samples);
		w->ctx.dist = &w->dist;
		w->ctx.meet = &w->meet;
		w->hooks = hooks;
		if (frag->per_cpu) {
			w->env = *ctx->env;
			w->env.cpu = w->meet.cpu;
			w->env.rank = made;
			w->per_cpu = true;
			w->ctx.env = &w->life.env;
		}
		if (made == k - 1)
			w->sleep_ms = READ_ONCE(cb_fault_barrier_ms);
		if (!cpu_online(w->meet.cpu)) {
			job->lost_cpu = w->meet.cpu;
			ret = -EAGAIN;
			break;
		}
		task = kthread_create(cb_helper_fn, w, "cyclebench/%u",
				      w->meet.cpu);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			break;
		}
		kthread_bind(task, w->meet.cpu);
		w->task = get_task_struct(task);
	}
	cpus_read_unlock();
	if (ret) {
		/* never woken: they exit without running cb_helper_fn() */
		for (t = 1; t < made; t++)
			kthread_stop(h[t].task);
		goto out;
	}
	for (t = 1; t < k; t++)
		wake_up_process(h[t].task);
	ret = frag->sample(ctx);
	cb_bar_leave(&bar, h[0].meet.cpu, ret, ctx->dist->broke);
	for (t = 1; t < k; t++) {
		unsigned long waited = 0;
		bool moved = false;

		/*
		 * Bounded by its CPU's giving it time: a second after the run
		 * stopped, or barrier_ms after this CPU's end, it may finish
		 * on another CPU (cb_unbind()).
		 */
		while (!wait_for_completion_timeout(&h[t].done, HZ / 10)) {
			waited += HZ / 10;
			if (!moved && (waited >= bar.timeout ||
				       (waited >= HZ && (READ_ONCE(bar.err) ||
							 cb_aborted(job))))) {
				cb_unbind(h[t].task);
				moved = true;
			}
		}
	}
	ret = bar.err;
	if (ret == -EAGAIN || ret == -ETIMEDOUT)
		job->lost_cpu = bar.err_cpu;
	if (ret == -EPROTO && !ctx->dist->broke)
		ctx->dist->broke = bar.broke;
out:
	for (t = 1; t < made; t++)
		put_task_struct(h[t].task);
	ctx->meet = NULL;
	kfree(h);
	return ret;
}

/* With cpus= naming two CPUs or more: each CPU's arrays. */
int cb_cpus_alloc(struct cb_result *res, u64 cpus, gfp_t gfp)
{
	unsigned int k = hweight64(cpus), t;
	u64 n = res->n;

	res->nr_cpus = 1;
	if (k < 2)
		return 0;
	res->cpus = cpus;
	res->nr_cpus = k;
	res->pc_cycles = kcalloc(k, sizeof(u64 *), gfp);
	res->pc_flags = kcalloc(k, sizeof(u8 *), gfp);
	res->release = kcalloc(k, sizeof(u64 *), gfp);
	res->round = kcalloc(k, sizeof(u32 *), gfp);
	if (res->cycles_long)
		res->pc_cycles_long = kcalloc(k, sizeof(u64 *), gfp);
	if (!res->pc_cycles || !res->pc_flags || !res->release || !res->round ||
	    (res->cycles_long && !res->pc_cycles_long))
		return -ENOMEM;
	for (t = 0; t < k; t++) {
		res->pc_cycles[t] = t ? __vmalloc(n * sizeof(u64), gfp) : res->cycles;
		if (res->pc_cycles_long)
			res->pc_cycles_long[t] = t ? __vmalloc(n * sizeof(u64), gfp) :
						 res->cycles_long;
		res->pc_flags[t] = t ? __vmalloc(n, gfp) : res->flags;
		res->release[t] = __vmalloc(n * sizeof(u64), gfp);
		res->round[t] = __vmalloc(n * sizeof(u32), gfp);
		if (!res->pc_cycles[t] || !res->pc_flags[t] || !res->release[t] ||
		    !res->round[t] ||
		    (res->pc_cycles_long && !res->pc_cycles_long[t]))
			return -ENOMEM;
	}
	return 0;
}

/* The @m-th smallest of @a[0..@n) (a quickselect: it reorders @a). */
static u64 cb_select(u64 *a, s64 n, s64 m)
{
	s64 lo = 0, hi = n - 1;

	while (lo < hi) {
		u64 pivot = a[lo + (hi - lo) / 2];
		s64 i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				swap(a[i], a[j]);
				i++;
				j--;
			}
		}
		if (m <= j)
			hi = j;
		else if (m >= i)
			lo = i;
		else
			break;
		/* a pass over 10^8 values takes a while: let others run */
		cond_resched();
	}
	return a[m];
}

/*
 * When the entry is done: start_spread and samples_in_step from each
 * CPU's releases (the first CPU's array takes the differences: the j-th
 * in-step sample's is written at or before position j), then the arrays go.
 */
void cb_cpus_spread(struct cb_result *res, bool complete)
{
	unsigned int k = res->nr_cpus, t;
	u64 *d, j, m = 0;

	if (!res->release)
		return;
	/* a run that stopped part-way publishes nothing: no figure to make */
	if (!complete) {
		cb_result_drop_release(res);
		return;
	}
	d = res->release[0];
	for (j = 0; j < res->n; j++) {
		u64 lo = res->release[0][j], hi = lo;
		u32 r = res->round[0][j];

		for (t = 1; t < k && res->round[t][j] == r; t++) {
			lo = min(lo, res->release[t][j]);
			hi = max(hi, res->release[t][j]);
		}
		if (t == k && r != U32_MAX)
			d[m++] = hi - lo;
	}
	res->in_step = m;
	res->spread = m ? cb_select(d, m, m / 2) : 0;
	cb_result_drop_release(res);
}
