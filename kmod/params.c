// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters: the defaults of every run.  All are read-only after
 * load; a bad value fails insmod with -EINVAL, and the module loader's
 * message names the parameter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "internal.h"

static unsigned int cb_samples = CB_DEF_SAMPLES;
static unsigned int cb_ensembles = CB_DEF_ENSEMBLES;
static unsigned int cb_warmup = CB_DEF_WARMUP;
static enum cb_method cb_method = CB_PAOLONI;
static unsigned int cb_cpu;
static char cb_only[CB_CMD_MAX] = "all";
static bool cb_run_on_load = true;
static unsigned int cb_max_mb = CB_DEF_MAX_MB;
static unsigned int cb_max_sample_us = 50000;
static unsigned int cb_barrier_ms = 5000;

struct cb_uint_param {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
};

/*
 * Every bad value is -EINVAL, whatever kstrtouint() said (-ERANGE for
 * 99999999999999999999), so insmod fails the same way for every mistake.
 */
static int cb_param_set_uint(const char *val, const struct kernel_param *kp)
{
	const struct cb_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < p->min || v > p->max) {
		cb_warn(CB_WHY_RANGE "\n", kp->name, val, p->min, p->max);
		return -EINVAL;
	}
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
MODULE_PARM_DESC(samples,
		 "samples per ensemble (1.."
		 CB_STR(CB_MAX_SAMPLES) ", default " CB_STR(CB_DEF_SAMPLES) ")");

static struct cb_uint_param cb_ensembles_param = {
	.val = &cb_ensembles, .min = 1, .max = CB_MAX_ENSEMBLES,
};
module_param_cb(ensembles, &cb_uint_ops, &cb_ensembles_param, 0444);
MODULE_PARM_DESC(ensembles,
		 "ensembles per run (1.."
		 CB_STR(CB_MAX_ENSEMBLES) ", default " CB_STR(CB_DEF_ENSEMBLES) ")");

static struct cb_uint_param cb_warmup_param = {
	.val = &cb_warmup, .min = 0, .max = CB_MAX_WARMUP,
};
module_param_cb(warmup, &cb_uint_ops, &cb_warmup_param, 0444);
MODULE_PARM_DESC(warmup,
		 "warm-up samples run and discarded before timing (0.."
		 CB_STR(CB_MAX_WARMUP) ", default " CB_STR(CB_DEF_WARMUP) ")");

static struct cb_uint_param cb_max_mb_param = {
	.val = &cb_max_mb, .min = 1, .max = CB_MAX_MB,
};
module_param_cb(max_mb, &cb_uint_ops, &cb_max_mb_param, 0444);
MODULE_PARM_DESC(max_mb,
		 "largest memory one run may allocate (samples and fragment buffers), in MiB (1.."
		 CB_STR(CB_MAX_MB) ", default " CB_STR(CB_DEF_MAX_MB) ")");

static struct cb_uint_param cb_max_sample_us_param = {
	.val = &cb_max_sample_us, .min = 1, .max = CB_MAX_SAMPLE_US,
};
module_param_cb(max_sample_us, &cb_uint_ops, &cb_max_sample_us_param, 0444);
MODULE_PARM_DESC(max_sample_us, "longest a sample may hold interrupts off (protocol, short and long region), in microseconds; a body that would take longer is refused with -ETIME before it runs with interrupts off, or once 8 samples in a row, or more than 8 and 1 in 64 of its samples in all, took longer (1..1000000, default 50000)");

/*
 * A cpus= run's CPUs meet before every sample; one that has not come
 * within barrier_ms was kept from running (a real-time task, an interrupt
 * storm, a stopped vCPU) and the run stops.  Its bound: a CPU is away for
 * one sample and its retakes (8 x max_sample_us at most: harness.h,
 * cb_over_spent()), and a yield.
 */
static struct cb_uint_param cb_barrier_ms_param = {
	.val = &cb_barrier_ms, .min = 1, .max = 60000,
};
module_param_cb(barrier_ms, &cb_uint_ops, &cb_barrier_ms_param, 0444);
MODULE_PARM_DESC(barrier_ms, "cpus= runs: longest the CPUs wait for each other before a sample; a CPU that does not come stops the run with -ETIMEDOUT (1..60000, default 5000)");

/* RDTSCP is an invalid opcode where the CPU lacks it: never run it there. */
/*
 * Whether LFENCE keeps RDTSC in order, set once at load.  Intel: always.
 * AMD: only with DE_CFG bit 1 set (families 0fh and 11h have no such bit
 * and LFENCE serialises there).  The kernel sets the bit and then its
 * LFENCE_RDTSC flag unconditionally, even where a hypervisor ignored the
 * write, which is the very VM case the lfence method is meant for: read
 * the bit back, and use the CPUID methods when it is clear.
 */
static bool cb_lfence_ok = true;
static const char *cb_lfence_why = "LFENCE orders RDTSC (Intel)";

void cb_probe_lfence(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	u64 de_cfg;

	if (c->x86_vendor != X86_VENDOR_AMD && c->x86_vendor != X86_VENDOR_HYGON)
		return;
	if (c->x86 == 0xf || c->x86 == 0x11) {
		cb_lfence_why = "LFENCE orders RDTSC (AMD family 0fh/11h: no DE_CFG bit needed)";
		return;
	}
	if (rdmsrl_safe(MSR_AMD64_DE_CFG, &de_cfg)) {
		cb_lfence_ok = false;
		cb_lfence_why = "DE_CFG unreadable: LFENCE may not order RDTSC; using paoloni";
	} else if (!(de_cfg & BIT_ULL(MSR_AMD64_DE_CFG_LFENCE_SERIALIZE_BIT))) {
		cb_lfence_ok = false;
		cb_lfence_why = "DE_CFG bit 1 clear: LFENCE does not order RDTSC; using paoloni";
	} else {
		cb_lfence_why = "LFENCE orders RDTSC (AMD, DE_CFG bit 1 set)";
	}
}

const char *cb_lfence_note(void)
{
	return cb_lfence_why;
}

/*
 * Without RDTSCP, both methods stop with a fence before RDTSC: LFENCE where
 * it orders RDTSC, else CPUID (cpuid-nordtscp), whichever was asked for.
 */
enum cb_method cb_method_used(enum cb_method requested)
{
	if (requested == CB_LFENCE && !cb_lfence_ok)
		requested = CB_PAOLONI;
	if (boot_cpu_has(X86_FEATURE_RDTSCP))
		return requested;
	if (!cb_lfence_ok)
		return CB_CPUID_NORDTSCP;
	return requested == CB_LFENCE ? CB_LFENCE_NORDTSCP : CB_PAOLONI_NORDTSCP;
}

static int cb_param_set_method(const char *val, const struct kernel_param *kp)
{
	if (!cb_method_parse(val, &cb_method))
		return 0;
	cb_warn(CB_WHY_WORD "\n", kp->name, val, cb_key_help(CB_KEY_METHOD));
	return -EINVAL;
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
	if (!cb_parse_cpu(val, &cb_cpu))
		return 0;
	cb_warn(CB_WHY_WORD "\n", kp->name, val, cb_key_help(CB_KEY_CPU));
	return -EINVAL;
}

static const struct kernel_param_ops cb_cpu_ops = {
	.set = cb_param_set_cpu,
	.get = param_get_uint,
};

module_param_cb(cpu, &cb_cpu_ops, &cb_cpu, 0444);
MODULE_PARM_DESC(cpu, "online CPU the runs execute on (default 0)");

/*
 * Parameters are set before init, when the fragment tables are known but
 * the slots are not: the request parser only reads the tables.
 */
static int cb_param_set_only(const char *val, const struct kernel_param *kp)
{
	struct cb_req *req;
	char *buf, why[256];
	int ret = -ENOMEM;

	if (strlen(val) >= CB_CMD_MAX)
		return -EINVAL;
	req = kvzalloc(sizeof(*req), GFP_KERNEL);
	buf = kstrdup(val, GFP_KERNEL);
	if (req && buf) {
		req->max_mb = cb_max_mb;
		ret = cb_req_select(strim(buf), NULL, 0, cb_catalog(), req,
				    why, sizeof(why)) ? -EINVAL : 0;
		if (ret)
			cb_warn("only=: %s\n", why);
	}
	if (!ret) {
		/*
		 * Parsing cut buf up; keep the whole spec for info and messages.
		 * buf holds strlen(val) + 1 bytes: strscpy() may write a whole
		 * word at the end, up to its size argument (KASAN saw it).
		 */
		strscpy(buf, val, strlen(val) + 1);
		strscpy(cb_only, strim(buf), sizeof(cb_only));
	}
	kfree(buf);
	kvfree(req);
	return ret;
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
MODULE_PARM_DESC(only, "fragments run at load: all, a group, group:name, group:name/ARG, or a comma-separated list (default all)");

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
	d->max_sample_us = cb_max_sample_us;
	d->barrier_ms = cb_barrier_ms;
}

const char *cb_only_spec(void)
{
	return cb_only;
}

bool cb_run_on_load_param(void)
{
	return cb_run_on_load;
}
