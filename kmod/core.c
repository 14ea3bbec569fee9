// SPDX-License-Identifier: GPL-2.0
/*
 * cyclebench - time small code fragments with the TSC, interrupts off,
 * keeping every sample.
 *
 * Each sample follows Paoloni's protocol (Intel white paper, 2010):
 * preemption and interrupts off, CPUID; RDTSC, the fragment body,
 * RDTSCP; CPUID, interrupts and preemption back on, delta stored.  Samples
 * are grouped as ensembles x samples and kept in run order.
 *
 * Driving it from a shell (as root; debugfs at /sys/kernel/debug):
 *
 *   insmod cyclebench.ko                  # measures every fragment once
 *   cd /sys/kernel/debug/cyclebench
 *   cat fragments                         # group:name ops description
 *   cat alu/add_dep/cycles | ministat     # one delta per line
 *   echo "alu,base samples=100000 method=lfence cpu=1" > run
 *   cat status                            # idle, or what is running
 *   rmmod cyclebench
 *
 * A write to run returns when the run is over; a signal (Ctrl-C on
 * the writer) abandons it within a sample and leaves the previous results.
 * See docs/debugfs-contract.md for every file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/ctype.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "internal.h"

#define CB_MAX_FRAGMENTS 256
#define CB_MAX_SAMPLES 100000000U
#define CB_MAX_ENSEMBLES 100000U
#define CB_MAX_WARMUP 10000000U
#define CB_MAX_MB 65536U

/* --- parameters -------------------------------------------------------- */

static unsigned int cb_samples = 1000;
static unsigned int cb_ensembles = 10;
static unsigned int cb_warmup = 100;
static enum cb_method cb_method = CB_PAOLONI;
static unsigned int cb_cpu;
static char cb_only[CB_CMD_MAX] = "all";
static bool cb_run_on_load = true;
static unsigned int cb_max_mb = 256;

struct cb_uint_param {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
};

/*
 * Every bad value is -EINVAL, whatever kstrtouint() said (-ERANGE for
 * 99999999999999999999), so insmod fails the same way for every mistake;
 * the module loader prints the one line naming the parameter.
 */
static int cb_param_set_uint(const char *val, const struct kernel_param *kp)
{
	const struct cb_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < p->min || v > p->max)
		return -EINVAL;
	*p->val = v;
	return 0;
}

static int cb_param_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct cb_uint_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", *p->val);
}

static const struct kernel_param_ops cb_uint_ops = {
	.set = cb_param_set_uint,
	.get = cb_param_get_uint,
};

static struct cb_uint_param cb_samples_param = {
	.val = &cb_samples, .min = 1, .max = CB_MAX_SAMPLES,
};
module_param_cb(samples, &cb_uint_ops, &cb_samples_param, 0444);
MODULE_PARM_DESC(samples, "samples per ensemble (1..100000000, default 1000)");

static struct cb_uint_param cb_ensembles_param = {
	.val = &cb_ensembles, .min = 1, .max = CB_MAX_ENSEMBLES,
};
module_param_cb(ensembles, &cb_uint_ops, &cb_ensembles_param, 0444);
MODULE_PARM_DESC(ensembles, "ensembles per run (1..100000, default 10)");

static struct cb_uint_param cb_warmup_param = {
	.val = &cb_warmup, .min = 0, .max = CB_MAX_WARMUP,
};
module_param_cb(warmup, &cb_uint_ops, &cb_warmup_param, 0444);
MODULE_PARM_DESC(warmup, "warm-up samples run and discarded before timing (0..10000000, default 100)");

static struct cb_uint_param cb_max_mb_param = {
	.val = &cb_max_mb, .min = 1, .max = CB_MAX_MB,
};
module_param_cb(max_mb, &cb_uint_ops, &cb_max_mb_param, 0444);
MODULE_PARM_DESC(max_mb, "largest sample memory one run may allocate, in MiB (1..65536, default 256)");

static const char *const cb_method_names[CB_NR_METHODS] = {
	[CB_PAOLONI] = "paoloni",
	[CB_LFENCE] = "lfence",
	[CB_PAOLONI_NORDTSCP] = "paoloni-nordtscp",
	[CB_LFENCE_NORDTSCP] = "lfence-nordtscp",
};

const char *cb_method_name(enum cb_method m)
{
	return cb_method_names[m];
}

/* Only the two protocols can be asked for; the fallbacks are chosen. */
static int cb_parse_method(const char *s, enum cb_method *m)
{
	if (sysfs_streq(s, "paoloni"))
		*m = CB_PAOLONI;
	else if (sysfs_streq(s, "lfence"))
		*m = CB_LFENCE;
	else
		return -EINVAL;
	return 0;
}

/* RDTSCP is an invalid opcode where the CPU lacks it: never run it there. */
enum cb_method cb_method_used(enum cb_method requested)
{
	if (boot_cpu_has(X86_FEATURE_RDTSCP))
		return requested;
	return requested == CB_LFENCE ? CB_LFENCE_NORDTSCP : CB_PAOLONI_NORDTSCP;
}

static int cb_param_set_method(const char *val, const struct kernel_param *kp)
{
	return cb_parse_method(val, &cb_method);
}

static int cb_param_get_method(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", cb_method_name(cb_method));
}

static const struct kernel_param_ops cb_method_ops = {
	.set = cb_param_set_method,
	.get = cb_param_get_method,
};

module_param_cb(method, &cb_method_ops, NULL, 0444);
MODULE_PARM_DESC(method, "timing protocol: paoloni (CPUID;RDTSC..RDTSCP;CPUID) or lfence (for VMs, where CPUID exits), default paoloni");

static int cb_parse_cpu(const char *s, unsigned int *cpu)
{
	unsigned int v;

	if (kstrtouint(s, 10, &v) || v >= nr_cpu_ids || !cpu_online(v))
		return -EINVAL;
	*cpu = v;
	return 0;
}

static int cb_param_set_cpu(const char *val, const struct kernel_param *kp)
{
	return cb_parse_cpu(val, &cb_cpu);
}

static const struct kernel_param_ops cb_cpu_ops = {
	.set = cb_param_set_cpu,
	.get = param_get_uint,
};

module_param_cb(cpu, &cb_cpu_ops, &cb_cpu, 0444);
MODULE_PARM_DESC(cpu, "online CPU the runs execute on (default 0)");

static int cb_parse_selection(char *spec, unsigned long *sel);

static int cb_param_set_only(const char *val, const struct kernel_param *kp)
{
	DECLARE_BITMAP(sel, CB_MAX_FRAGMENTS);
	char buf[CB_CMD_MAX];

	if (strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	if (cb_parse_selection(strim(buf), sel))
		return -EINVAL;
	/* Parsing cut buf up; keep the whole spec for info and messages. */
	strscpy(buf, val, sizeof(buf));
	strscpy(cb_only, strim(buf), sizeof(cb_only));
	return 0;
}

static const struct kernel_param_ops cb_only_ops = {
	.set = cb_param_set_only,
	.get = param_get_string,
};

static struct kparam_string cb_only_kps = {
	.maxlen = sizeof(cb_only),
	.string = cb_only,
};

module_param_cb(only, &cb_only_ops, &cb_only_kps, 0444);
MODULE_PARM_DESC(only, "fragments run at load: all, a group, group:name, or a comma-separated list (default all)");

module_param_named(run_on_load, cb_run_on_load, bool, 0444);
MODULE_PARM_DESC(run_on_load, "measure the only= fragments at insmod (default Y)");

void cb_get_defaults(struct cb_defaults *d)
{
	d->samples = cb_samples;
	d->ensembles = cb_ensembles;
	d->warmup = cb_warmup;
	d->method = cb_method;
	d->cpu = cb_cpu;
	d->max_mb = cb_max_mb;
}

/* --- fragments ----------------------------------------------------------- */

#define CB_GROUP_ENTRY(_name) (&cb_group_##_name),
static const struct cb_group *const cb_groups[] = {
#include "groups.h"
};

#undef CB_GROUP_ENTRY

struct cb_slot cb_slots[CB_MAX_FRAGMENTS];
unsigned int cb_nr_slots;

/*
 * Selection parsing runs before init (for only=), so it walks the group
 * tables rather than cb_slots.  Bit i is the i-th fragment in table order.
 * "all" is every fragment but the slow ones; a group is all of its own.
 */
static int cb_select(const char *item, unsigned long *sel)
{
	const char *colon = strchr(item, ':');
	size_t glen = colon ? colon - item : strlen(item);
	bool all = !strcmp(item, "all");
	unsigned int g, f, base = 0;
	int found = all ? 0 : -EINVAL;

	for (g = 0; g < ARRAY_SIZE(cb_groups); base += cb_groups[g]->count, g++) {
		const struct cb_group *grp = cb_groups[g];

		if (!all && (strlen(grp->name) != glen ||
			     strncmp(grp->name, item, glen)))
			continue;
		for (f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];

			if (base + f >= CB_MAX_FRAGMENTS)
				return -EINVAL;
			if ((all && frag->slow) ||
			    (colon && strcmp(frag->name, colon + 1)))
				continue;
			__set_bit(base + f, sel);
			found = 0;
		}
	}
	return found;
}

/* "all", "alu", "alu:add_dep", or a comma-separated list of those. */
static int cb_parse_selection(char *spec, unsigned long *sel)
{
	char *item;

	bitmap_zero(sel, CB_MAX_FRAGMENTS);
	if (!*spec)
		return -EINVAL;
	while ((item = strsep(&spec, ","))) {
		if (!*item || cb_select(item, sel))
			return -EINVAL;
	}
	return 0;
}

/* --- results ------------------------------------------------------------- */

static DEFINE_SPINLOCK(cb_res_lock);

static void cb_result_release(struct kref *ref)
{
	struct cb_result *res = container_of(ref, struct cb_result, ref);

	vfree(res->cycles);
	kfree(res);
}

void cb_result_put(struct cb_result *res)
{
	if (res)
		kref_put(&res->ref, cb_result_release);
}

/* A reference to @slot's latest complete result (or NULL), and its state. */
struct cb_result *cb_result_get(struct cb_slot *slot, enum cb_state *state)
{
	struct cb_result *res;

	spin_lock(&cb_res_lock);
	res = slot->res;
	if (res)
		kref_get(&res->ref);
	if (state)
		*state = slot->state;
	spin_unlock(&cb_res_lock);
	return res;
}

static void cb_publish(struct cb_slot *slot, struct cb_result *res,
		       enum cb_state state)
{
	struct cb_result *old = NULL;

	spin_lock(&cb_res_lock);
	if (res) {
		old = slot->res;
		slot->res = res;
	}
	slot->state = state;
	spin_unlock(&cb_res_lock);
	cb_result_put(old);
}

/* --- runs ---------------------------------------------------------------- */

/**
 * struct cb_req - one run: what to measure and how.
 * @sel: bit i set: measure cb_slots[i].
 * @samples: samples per ensemble.
 * @ensembles: ensembles.
 * @warmup: warm-up samples.
 * @method: method requested.
 * @cpu: CPU to run on.
 */
struct cb_req {
	DECLARE_BITMAP(sel, CB_MAX_FRAGMENTS);
	u32 samples;
	u32 ensembles;
	u32 warmup;
	enum cb_method method;
	unsigned int cpu;
};

/**
 * struct cb_job - a run in progress, shared by the writer and the kthread.
 * @done: completed by the kthread as it exits.
 * @abort: set by the writer on a signal; checked between samples.
 * @ret: 0, or why the run stopped early.
 * @req: the request.
 * @nr: entries in @slot and @res.
 * @slot: slot index of each fragment measured.
 * @res: the results being filled, published only if the whole run completes.
 */
struct cb_job {
	struct completion done;
	bool abort;
	int ret;
	const struct cb_req *req;
	unsigned int nr;
	unsigned int *slot;
	struct cb_result **res;
};

/* One mutex guards runs; cb_res_lock guards what readers see. */
static DEFINE_MUTEX(cb_run_lock);

/* Number of the last completed run, under cb_run_lock. */
static u64 cb_run_id;

/* For the status file; written by the run's kthread. */
static atomic_t cb_status_slot = ATOMIC_INIT(-1);
static atomic64_t cb_status_done;
static atomic64_t cb_status_total;

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
	/*
	 * kthread_bind() pins us, but CPU hotplug can still move us; the
	 * samples would then come from another CPU.
	 */
	if (unlikely(raw_smp_processor_id() != ctx->cpu))
		return -EAGAIN;
	if (!(i & 1023) && i >= ctx->warmup)
		atomic64_set(&cb_status_done, ctx->done + i - ctx->warmup);
	/*
	 * Under PREEMPT_VOLUNTARY (and PREEMPT_DYNAMIC in "voluntary" mode)
	 * preempt_enable() does not reschedule; this is what keeps the soft
	 * lockup and RCU stall detectors quiet on runs of any length.
	 */
	cond_resched();
	return 0;
}

/*
 * MSR_SMI_COUNT exists on Intel since Nehalem; elsewhere the read faults.
 * Under a hypervisor it counts the guest's own SMIs, not the host's that
 * actually stall the samples: better absent than a reassuring zero.
 */
static bool cb_read_smi(u64 *count)
{
	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL ||
	    boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return false;
	return !rdmsrl_safe(MSR_SMI_COUNT, count);
}

static int cb_thread(void *data)
{
	struct cb_job *job = data;
	const struct cb_req *req = job->req;
	u64 per = (u64)req->samples * req->ensembles;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < job->nr && !ret; i++) {
		struct cb_result *res = job->res[i];
		struct cb_ctx ctx = {
			.out = res->cycles,
			.n = per,
			.warmup = req->warmup,
			.method = res->method,
			.cpu = req->cpu,
			.done = per * i,
			.job = job,
		};

		atomic_set(&cb_status_slot, job->slot[i]);
		res->smi_valid = cb_read_smi(&res->smi_before);
		ret = cb_slots[job->slot[i]].frag->sample(&ctx);
		if (res->smi_valid)
			res->smi_valid = cb_read_smi(&res->smi_after);
		atomic64_set(&cb_status_done, per * (i + 1));
	}
	job->ret = ret;
	/* Completes and exits without returning into module text. */
	kthread_complete_and_exit(&job->done, 0);
}

static void cb_job_free(struct cb_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr; i++)
		cb_result_put(job->res[i]);
	kfree(job->res);
	kfree(job->slot);
	kfree(job);
}

static struct cb_job *cb_job_alloc(const struct cb_req *req, unsigned int nr)
{
	u64 per = (u64)req->samples * req->ensembles;
	struct cb_job *job;
	unsigned int i, s;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return NULL;
	init_completion(&job->done);
	job->req = req;
	job->slot = kcalloc(nr, sizeof(*job->slot), GFP_KERNEL);
	job->res = kcalloc(nr, sizeof(*job->res), GFP_KERNEL);
	if (!job->slot || !job->res)
		goto free_job;

	i = 0;
	for_each_set_bit(s, req->sel, cb_nr_slots) {
		struct cb_result *res = kzalloc(sizeof(*res), GFP_KERNEL);

		if (!res)
			goto free_job;
		kref_init(&res->ref);
		job->slot[i] = s;
		job->res[i] = res;
		job->nr = ++i;
		/* NOWARN, RETRY_MAYFAIL: a failure is an error code, not a splat. */
		res->cycles = __vmalloc(per * sizeof(u64), GFP_KERNEL |
					__GFP_NOWARN | __GFP_RETRY_MAYFAIL);
		if (!res->cycles)
			goto free_job;
		res->n = per;
		res->ensembles = req->ensembles;
		res->samples = req->samples;
		res->warmup = req->warmup;
		res->method = cb_method_used(req->method);
		res->cpu = req->cpu;
		res->tsc_khz = tsc_khz;
	}
	return job;

free_job:
	cb_job_free(job);
	return NULL;
}

/* Memory the run would allocate for samples, or U64_MAX on overflow. */
static u64 cb_req_bytes(const struct cb_req *req, unsigned int nr)
{
	u64 bytes;

	if (check_mul_overflow((u64)req->samples * req->ensembles,
			       (u64)nr * sizeof(u64), &bytes))
		return U64_MAX;
	return bytes;
}

static int cb_run_locked(const struct cb_req *req)
{
	unsigned int nr = bitmap_weight(req->sel, cb_nr_slots);
	u64 bytes = cb_req_bytes(req, nr);
	struct task_struct *task;
	struct cb_job *job;
	unsigned int i;
	int ret;

	if (!nr)
		return -EINVAL;
	if (bytes > (u64)cb_max_mb << 20) {
		pr_warn("a run of %u fragments x %u ensembles x %u samples needs %llu MiB, over max_mb=%u: lower samples or ensembles, or reload with a larger max_mb\n",
			nr, req->ensembles, req->samples,
			DIV_ROUND_UP_ULL(bytes, 1 << 20), cb_max_mb);
		return -E2BIG;
	}
	if (bytes >> PAGE_SHIFT > si_mem_available() / 2) {
		pr_warn("a run needing %llu MiB would take over half of the available memory: lower samples or ensembles\n",
			DIV_ROUND_UP_ULL(bytes, 1 << 20));
		return -ENOMEM;
	}
	if (!cpu_online(req->cpu)) {
		pr_warn("cpu %u is offline: pick an online cpu=\n", req->cpu);
		return -EINVAL;
	}
	job = cb_job_alloc(req, nr);
	if (!job)
		return -ENOMEM;

	task = kthread_create(cb_thread, job, "cyclebench/%u", req->cpu);
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
		goto free_job;
	}
	kthread_bind(task, req->cpu);
	atomic64_set(&cb_status_done, 0);
	atomic64_set(&cb_status_total, (u64)nr * job->res[0]->n);
	atomic_set(&cb_status_slot, job->slot[0]);
	wake_up_process(task);

	/*
	 * Interruptible: a run may take minutes, and Ctrl-C on the writer must
	 * end it even when the writer handles SIGINT (an interactive shell's
	 * builtin echo does).  Any signal the writer catches ends the run with
	 * -EINTR, like any slow system call.  The kthread sees @abort before
	 * its next sample, so the second wait is short.
	 */
	if (wait_for_completion_interruptible(&job->done)) {
		WRITE_ONCE(job->abort, true);
		wait_for_completion(&job->done);
	}
	atomic_set(&cb_status_slot, -1);
	ret = job->ret;
	if (ret == -EAGAIN)
		pr_warn("cpu %u went offline during the run; results discarded\n",
			req->cpu);

	/* All or nothing: readers never see part of a run. */
	if (!ret)
		cb_run_id++;
	for (i = 0; i < job->nr; i++) {
		job->res[i]->run_id = cb_run_id;
		cb_publish(&cb_slots[job->slot[i]], ret ? NULL : job->res[i],
			   ret ? CB_STATE_ABORTED : CB_STATE_OK);
		if (!ret)
			job->res[i] = NULL;
	}
free_job:
	cb_job_free(job);
	return ret;
}

static int cb_run(const struct cb_req *req)
{
	int ret;

	if (!mutex_trylock(&cb_run_lock))
		return -EBUSY;
	ret = cb_run_locked(req);
	mutex_unlock(&cb_run_lock);
	return ret;
}

static void cb_req_defaults(struct cb_req *req)
{
	req->samples = cb_samples;
	req->ensembles = cb_ensembles;
	req->warmup = cb_warmup;
	req->method = cb_method;
	req->cpu = cb_cpu;
}

static int cb_parse_u32(const char *s, u32 min, u32 max, u32 *out)
{
	u32 v;

	if (kstrtou32(s, 10, &v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * "SELECTION [key=value ...]".  Unknown or repeated keys are errors, so a
 * typo never silently runs with a default.
 */
static int cb_parse_request(char *cmd, struct cb_req *req)
{
	enum { K_SAMPLES, K_ENSEMBLES, K_WARMUP, K_METHOD, K_CPU, K_NR };
	static const char *const keys[K_NR] = {
		"samples", "ensembles", "warmup", "method", "cpu",
	};
	unsigned int seen = 0;
	char *tok, *sel = NULL;
	int k, ret;

	cb_req_defaults(req);
	while ((tok = strsep(&cmd, " \t\n"))) {
		char *val;

		if (!*tok)
			continue;
		if (!sel) {
			sel = tok;
			continue;
		}
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		k = match_string(keys, K_NR, tok);
		if (k < 0 || (seen & BIT(k)))
			return -EINVAL;
		seen |= BIT(k);
		switch (k) {
		case K_SAMPLES:
			ret = cb_parse_u32(val, 1, CB_MAX_SAMPLES, &req->samples);
			break;
		case K_ENSEMBLES:
			ret = cb_parse_u32(val, 1, CB_MAX_ENSEMBLES, &req->ensembles);
			break;
		case K_WARMUP:
			ret = cb_parse_u32(val, 0, CB_MAX_WARMUP, &req->warmup);
			break;
		case K_METHOD:
			ret = cb_parse_method(val, &req->method);
			break;
		default:
			ret = cb_parse_cpu(val, &req->cpu);
			break;
		}
		if (ret)
			return ret;
	}
	if (!sel)
		return -EINVAL;
	return cb_parse_selection(sel, req->sel);
}

/* A line written to the run file; @cmd is NUL-terminated and writable. */
int cb_run_command(char *cmd)
{
	struct cb_req req;
	int ret;

	ret = cb_parse_request(cmd, &req);
	if (ret)
		return ret;
	return cb_run(&req);
}

/* --- load and unload ----------------------------------------------------- */

static bool cb_valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower(*s) && !isdigit(*s) && *s != '_')
			return false;
	return true;
}

/* Catch a bad table at load, not as a missing debugfs entry later. */
static int cb_init_slots(void)
{
	unsigned int g, f, i;

	for (g = 0; g < ARRAY_SIZE(cb_groups); g++) {
		const struct cb_group *grp = cb_groups[g];

		if (!cb_valid_name(grp->name))
			goto bad;
		for (i = 0; i < g; i++)
			if (!strcmp(cb_groups[i]->name, grp->name))
				goto bad;
		for (f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];

			if (cb_nr_slots == CB_MAX_FRAGMENTS) {
				pr_err("more than %u fragments: raise CB_MAX_FRAGMENTS\n",
				       CB_MAX_FRAGMENTS);
				return -E2BIG;
			}
			if (!cb_valid_name(frag->name) || !frag->ops || !frag->desc)
				goto bad;
			for (i = 0; i < f; i++)
				if (!strcmp(grp->fragments[i].name, frag->name))
					goto bad;
			cb_slots[cb_nr_slots].group = grp;
			cb_slots[cb_nr_slots].frag = frag;
			cb_nr_slots++;
		}
	}
	return 0;
bad:
	pr_err("group %s: names must be unique and [a-z0-9_], ops non-zero\n",
	       cb_groups[g]->name);
	return -EINVAL;
}

static void cb_free_results(void)
{
	unsigned int i;

	for (i = 0; i < cb_nr_slots; i++) {
		cb_result_put(cb_slots[i].res);
		cb_slots[i].res = NULL;
	}
}

static int __init cb_init(void)
{
	struct cb_req req;
	char only[CB_CMD_MAX];
	unsigned int nr;
	int ret;

	ret = cb_init_slots();
	if (ret)
		return ret;

	cb_req_defaults(&req);
	strscpy(only, cb_only, sizeof(only));
	if (cb_parse_selection(only, req.sel))
		return -EINVAL;	/* cannot happen: only= was checked when set */
	nr = bitmap_weight(req.sel, cb_nr_slots);
	if (cb_run_on_load && cb_req_bytes(&req, nr) > (u64)cb_max_mb << 20) {
		pr_err("max_mb=%u is too small for only=%s at %u ensembles x %u samples (%llu MiB): raise max_mb or lower samples\n",
		       cb_max_mb, cb_only, req.ensembles, req.samples,
		       DIV_ROUND_UP_ULL(cb_req_bytes(&req, nr), 1 << 20));
		return -EINVAL;
	}

	/*
	 * Measure before debugfs exists: if this run fails, init fails, and
	 * the module is freed at once, even under a file someone had opened.
	 */
	if (cb_run_on_load) {
		ret = cb_run(&req);
		if (ret) {
			pr_err("run at load failed (%d)\n", ret);
			goto free_results;
		}
	}
	ret = cb_debugfs_init();
	if (ret)
		goto free_results;

	if (cb_run_on_load)
		pr_info("measured %u fragments: %u x %u samples on cpu %u, method %s\n",
			nr, req.ensembles, req.samples, req.cpu,
			cb_method_name(cb_method_used(req.method)));
	else
		pr_info("%u fragments ready; write to /sys/kernel/debug/cyclebench/run to measure\n",
			cb_nr_slots);
	return 0;

free_results:
	cb_free_results();
	return ret;
}

static void __exit cb_exit(void)
{
	cb_debugfs_exit();
	cb_free_results();
}

module_init(cb_init);
module_exit(cb_exit);

MODULE_DESCRIPTION("Time code fragments with the TSC, interrupts off (Paoloni's protocol)");
MODULE_LICENSE("GPL");
MODULE_VERSION(CB_VERSION);
