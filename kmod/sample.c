// SPDX-License-Identifier: GPL-2.0
/*
 * Around each sample, with interrupts off and outside the timed regions:
 * what may have disturbed it (NMIs inside it, interrupts and context
 * switches before it) and, where the CPU has a PMU, its hardware
 * counters, read with RDPMC around each region.  The fragment samplers
 * (harness.h) call cb_sample_begin() and cb_sample_end(); the engine
 * opens and closes the counters around a run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/kernel_stat.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "internal.h"

/* cb_body_timed_out()'s count: bodies on this CPU that gave up a wait. */
DEFINE_PER_CPU(u64, cb_body_timeouts);

const char *const cb_pmc_names[CB_NR_PMC] = CB_PMC_NAMES;

void cb_pmu_close(struct cb_pmu *pmu)
{
	int k;

	for (k = 0; k < CB_NR_PMC; k++) {
		if (pmu->ev[k])
			perf_event_release_kernel(pmu->ev[k]);
		pmu->ev[k] = NULL;
	}
}

/*
 * Counter widths: Intel says in CPUID leaf 0xa (general-purpose in EAX
 * 23:16, fixed in EDX 12:5); AMD's are 48 bits.
 */
static void cb_pmc_widths(struct cb_pmu *pmu)
{
	unsigned int gp = 48, fixed = 48;

	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	    boot_cpu_data.cpuid_level >= 0xa) {
		u32 eax, ebx, ecx, edx;

		cpuid(0xa, &eax, &ebx, &ecx, &edx);
		gp = (eax >> 16) & 0xff ? (eax >> 16) & 0xff : gp;
		fixed = (edx >> 5) & 0xff ? (edx >> 5) & 0xff : fixed;
	}
	pmu->gp_mask = GENMASK_ULL(min(gp, 64U) - 1, 0);
	pmu->fixed_mask = GENMASK_ULL(min(fixed, 64U) - 1, 0);
}

/*
 * Testing knobs, for a machine without a PMU (QEMU's TCG has none):
 * fault_pmu_fail fails the creation of the counters in its mask (bit k:
 * cb_pmc_names[k]) with -ENOENT, as a CPU without that event does (AMD has
 * no ref-cycles); fault_pmu_tsc opens no perf event at all and reads the
 * TSC where RDPMC would be, so that under QEMU's -icount, where the TSC
 * counts instructions, the counter files hold exact, known deltas;
 * fault_pmu_rewind, with fault_pmu_tsc, has every counter read after a
 * region one less than before it, as a counter perf rewrote inside the
 * sample reads (its overflow interrupt): every sample is then flagged.
 */
static unsigned int cb_fault_pmu_fail;
static bool cb_fault_pmu_tsc;
static bool cb_fault_pmu_rewind;
#ifdef CB_TEST_HOOKS	/* the tests' build only (Kbuild) */
module_param_named(fault_pmu_fail, cb_fault_pmu_fail, uint, 0600);
MODULE_PARM_DESC(fault_pmu_fail, "testing: counters whose creation fails with -ENOENT, a mask (1 core_cycles, 2 instructions, 4 ref_cycles; default 0)");
module_param_named(fault_pmu_tsc, cb_fault_pmu_tsc, bool, 0600);
MODULE_PARM_DESC(fault_pmu_tsc, "testing: the counters read the TSC instead of the PMU (default N)");
module_param_named(fault_pmu_rewind, cb_fault_pmu_rewind, bool, 0600);
MODULE_PARM_DESC(fault_pmu_rewind, "testing: with fault_pmu_tsc, a counter read after a region is one less than before it, as one perf rewrote (default N)");
#endif

static const char *cb_pmc_why(int err)
{
	switch (err) {
	case -ENOENT:
	case -EOPNOTSUPP:
	case -EINVAL:
		return "no such hardware counter (no PMU, as in most VMs, or not this event)";
	case -EBUSY:
		return "the counter is busy (another user has it)";
	case -EACCES:
	case -EPERM:
		return "not allowed";
	default:
		return "perf could not create it";
	}
}

/* Counter @k does not count in this run: @why, @err. */
static void cb_pmc_drop(struct cb_pmu *pmu, int k, const char *why, int err)
{
	if (pmu->ev[k])
		perf_event_release_kernel(pmu->ev[k]);
	pmu->ev[k] = NULL;
	pmu->open &= ~BIT(k);
	pmu->why[k] = why;
	pmu->err[k] = err;
}

/* No counter counts after all: @why for each that would have, arrays freed. */
static void cb_pmu_drop_all(struct cb_pmu *pmu, struct cb_result **res,
			    unsigned int nr, const char *why, int err)
{
	unsigned int i, r;
	int k;

	for (k = 0; k < CB_NR_PMC; k++)
		if (pmu->open & BIT(k))
			cb_pmc_drop(pmu, k, why, err);
	for (i = 0; i < nr; i++)
		for (r = 0; r < CB_NR_REGIONS; r++)
			for (k = 0; k < CB_NR_PMC; k++) {
				vfree(res[i]->pmc[r][k]);
				res[i]->pmc[r][k] = NULL;
			}
}

/*
 * Pinned kernel counters on the run's CPU, each on its own, and the
 * arrays of those that count, two per counter (short and long region);
 * a counter that cannot count is left out, saying why, and the run goes
 * on with the others or with the TSC alone.  In the kthread, on that CPU.
 */
void cb_pmu_open(struct cb_pmu *pmu, const struct cb_req *req,
		 struct cb_result **res)
{
	static const u64 config[CB_NR_PMC] = {
		PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS,
		PERF_COUNT_HW_REF_CPU_CYCLES,
	};
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.pinned = 1,
	};
	unsigned int fail = READ_ONCE(cb_fault_pmu_fail), i, r;
	struct cb_defaults d;
	unsigned long flags;
	u64 bytes;
	int k;

	memset(pmu, 0, sizeof(*pmu));
	pmu->tsc = READ_ONCE(cb_fault_pmu_tsc);
	pmu->rewind = pmu->tsc && READ_ONCE(cb_fault_pmu_rewind);
	for (k = 0; k < CB_NR_PMC; k++) {
		struct perf_event *ev;

		if (!req->pmu) {
			cb_pmc_drop(pmu, k, "pmu=off", 0);
			continue;
		}
		if (fail & BIT(k)) {
			cb_pmc_drop(pmu, k, "fault_pmu_fail", -ENOENT);
			continue;
		}
		pmu->open |= BIT(k);
		if (pmu->tsc)
			continue;
		attr.config = config[k];
		ev = perf_event_create_kernel_counter(&attr, req->cpu, NULL, NULL, NULL);
		if (IS_ERR(ev))
			cb_pmc_drop(pmu, k, cb_pmc_why(PTR_ERR(ev)), PTR_ERR(ev));
		else
			pmu->ev[k] = ev;
	}
	local_irq_save(flags);
	for (k = 0; k < CB_NR_PMC; k++)
		if (pmu->ev[k] &&
		    (READ_ONCE(pmu->ev[k]->state) != PERF_EVENT_STATE_ACTIVE ||
		     READ_ONCE(pmu->ev[k]->oncpu) != smp_processor_id()))
			pmu->open &= ~BIT(k);
	local_irq_restore(flags);
	for (k = 0; k < CB_NR_PMC; k++)
		if (pmu->ev[k] && !(pmu->open & BIT(k)))
			cb_pmc_drop(pmu, k, "held elsewhere (the NMI watchdog?)", -EBUSY);
	if (!pmu->open)
		return;
	cb_get_defaults(&d);
	bytes = cb_req_bytes(req) + (u64)req->nr * res[0]->n * CB_NR_REGIONS *
		hweight8(pmu->open) * sizeof(u64);
	if (bytes > (u64)d.max_mb << 20) {
		cb_pmu_drop_all(pmu, res, req->nr, "the counter arrays would exceed max_mb", 0);
		return;
	}
	for (i = 0; i < req->nr; i++)
		for (k = 0; k < CB_NR_PMC; k++)
			for (r = 0; (pmu->open & BIT(k)) && r < CB_NR_REGIONS; r++) {
				u64 **a = &res[i]->pmc[r][k];

				if (!res[i]->cycles ||
				    (r == CB_REGION_LONG && !res[i]->cycles_long))
					continue;
				*a = __vmalloc(res[i]->n * sizeof(u64), GFP_KERNEL |
					       __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
				if (!*a) {
					cb_pmu_drop_all(pmu, res, req->nr,
							"no memory for the counter arrays",
							-ENOMEM);
					return;
				}
			}
	cb_pmc_widths(pmu);
}

/*
 * Interrupts handled on this CPU, every kind the kernel counts: device
 * interrupts (kstat) and x86's own vectors (irq_stat), the two sums
 * /proc/stat's "intr" adds up.  arch_irq_stat_cpu() is not exported, so
 * its vector counters are read here by name, under the configuration
 * each exists in (arch/x86/include/asm/hardirq.h): a kernel that renames
 * or moves one fails to build this file instead of changing the count.
 * Left out: icr_read_retry_count (no interrupt: a retry of an APIC
 * read) and apic_perf_irqs, which counts NMIs: the PMU's overflow
 * interrupt is an NMI on x86, already in the NMI count of the sample it
 * lands in, and counted here it would mark the next sample too ("an
 * interrupt since the previous sample").  An NMI is told apart below; a
 * hypervisor's exits, SMIs and exceptions are not interrupts of this
 * kernel and are not counted.
 */
static notrace unsigned long cb_irq_count(void)
{
	const irq_cpustat_t *c = this_cpu_ptr(&irq_stat);
	unsigned long n = __this_cpu_read(kstat.irqs_sum);

	n += READ_ONCE(c->x86_platform_ipis) + READ_ONCE(c->apic_irq_work_irqs) +
	     READ_ONCE(c->irq_tlb_count);
#ifdef CONFIG_X86_LOCAL_APIC
	n += READ_ONCE(c->apic_timer_irqs) + READ_ONCE(c->irq_spurious_count);
#endif
#if IS_ENABLED(CONFIG_KVM)
	n += READ_ONCE(c->kvm_posted_intr_ipis) +
	     READ_ONCE(c->kvm_posted_intr_wakeup_ipis) +
	     READ_ONCE(c->kvm_posted_intr_nested_ipis);
#endif
#ifdef CONFIG_SMP
	n += READ_ONCE(c->irq_resched_count) + READ_ONCE(c->irq_call_count);
#endif
#ifdef CONFIG_X86_THERMAL_VECTOR
	n += READ_ONCE(c->irq_thermal_count);
#endif
#ifdef CONFIG_X86_MCE_THRESHOLD
	n += READ_ONCE(c->irq_threshold_count);
#endif
#ifdef CONFIG_X86_MCE_AMD
	n += READ_ONCE(c->irq_deferred_error_count);
#endif
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
	n += READ_ONCE(c->irq_hv_callback_count);
#endif
#if IS_ENABLED(CONFIG_HYPERV)
	n += READ_ONCE(c->irq_hv_reenlightenment_count) +
	     READ_ONCE(c->hyperv_stimer0_count);
#endif
#ifdef CONFIG_X86_POSTED_MSI
	n += READ_ONCE(c->posted_msi_notification_count);
#endif
	return n;
}

/* Counter @k's width, as a mask: fixed counters are RDPMC indices with bit 30 set. */
static notrace u64 cb_pmc_mask(const struct cb_disturb *d, unsigned int k)
{
	return d->pmu->tsc ? ~0ULL :
	       d->idx[k] & BIT(30) ? d->pmu->fixed_mask : d->pmu->gp_mask;
}

/* Counter deltas wrap at the counter's width: (b - a) & mask is right across one wrap. */
static u64 cb_pmc_delta(const struct cb_disturb *d, unsigned int k,
			unsigned int at)
{
	return cb_counter_delta(d->at[at][k], d->at[at + 1][k], cb_pmc_mask(d, k));
}

/*
 * Whether every open counter's advance around both regions can be a
 * count, not a rewrite (cb_counter_sane()), and no PMU overflow interrupt
 * came inside the sample: perf rewrites the counters there.
 */
static notrace bool cb_pmc_sane(const struct cb_disturb *d, bool long_region)
{
	int k, r;

	if (__this_cpu_read(irq_stat.apic_perf_irqs) != d->perf_irqs)
		return false;
	for (r = 0; r <= long_region; r++)
		for (k = 0; k < CB_NR_PMC; k++)
			if ((d->pmu->open & BIT(k)) &&
			    !cb_counter_sane(d->at[2 * r][k], d->at[2 * r + 1][k],
					     cb_pmc_mask(d, k)))
				return false;
	return true;
}

/*
 * With interrupts off, whether each open counter is counting on this CPU
 * now, and its RDPMC index (perf may move it between samples): what
 * x86_perf_rdpmc_index() does, which is not exported.
 */
static notrace bool cb_pmc_ready(struct cb_disturb *d)
{
	int k;

	for (k = 0; k < CB_NR_PMC && !d->pmu->tsc; k++) {
		const struct perf_event *ev = d->pmu->ev[k];

		if (!ev)
			continue;
		if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
		    READ_ONCE(ev->oncpu) != smp_processor_id())
			return false;
		d->idx[k] = READ_ONCE(ev->hw.event_base_rdpmc);
	}
	return true;
}

void notrace cb_pmc_read(struct cb_ctx *ctx, unsigned int at)
{
	struct cb_disturb *d = ctx ? ctx->dist : NULL;
	int k;

	if (!d || !d->pmu || !d->pmc_ok)
		return;
	for (k = 0; k < CB_NR_PMC; k++)
		if (d->pmu->open & BIT(k))
			d->at[at][k] = d->pmu->rewind && (at & 1) ?
				       d->at[at - 1][k] - 1 :
				       d->pmu->tsc ? rdtsc_ordered() :
				       native_read_pmc(d->idx[k]);
}

/* Context switches of the run's thread. */
static notrace unsigned long cb_csw(void)
{
	return current->nvcsw + current->nivcsw;
}

/* Interrupts are off: nothing but an NMI changes these under us. */
void notrace cb_sample_begin(struct cb_ctx *ctx, u64 i)
{
	struct cb_disturb *d = ctx->dist;
	unsigned long irqs = cb_irq_count();
	unsigned long csw = cb_csw();
	unsigned int nmi = __this_cpu_read(irq_stat.__nmi_count);

	/*
	 * The baselines are the entry's, kept across its ensembles (and the
	 * other entries' ensembles, interleaved, and its setups): what
	 * happened between two ensembles marks the next one's first sample.
	 */
	if (!d->primed) {
		d->irqs = irqs;
		d->csw = csw;
		d->nmi_end = nmi;
		d->primed = true;
	}
	d->cold = (irqs != d->irqs ? CB_SAMPLE_IRQ : 0) |
		  (csw != d->csw ? CB_SAMPLE_SWITCH : 0);
	d->nmi_out += nmi - d->nmi_end;
	d->irqs = irqs;
	d->csw = csw;
	d->pc = preempt_count();
	d->locks = lockdep_depth(current);
	d->nmi_start = nmi;
	d->timeouts = __this_cpu_read(cb_body_timeouts);
	d->perf_irqs = __this_cpu_read(irq_stat.apic_perf_irqs);
	if (d->pmu)
		d->pmc_ok = cb_pmc_ready(d);
}

/* @broke for a body that left preemption disabled: its state is kept */
const char *const cb_broke_held = "left preemption disabled";

/*
 * What a body did that it must not, from its thread's context switches
 * since @csw, the preemption count since @d->pc and, where lockdep runs,
 * the locks held since @d->locks; NULL if nothing.  The count is never
 * written here; the levels that moved are given back by the calls that
 * move them, so that the sampler's own preempt_disable() and
 * preempt_enable() stay paired:
 *
 *  - The scheduler, finding a task that sleeps with preemption off ("BUG:
 *    scheduling while atomic"), sets its count to what schedule()
 *    expects, and may then find the task runnable again and switch
 *    nothing (only the count tells).  The sampler's level is gone then,
 *    and its preempt_enable() would take the count below zero: it is
 *    taken again with preempt_disable().
 *  - A body that returns with more levels than it began with took a lock
 *    (or called preempt_disable()) and did not release it.  The lock
 *    stays held: no one here knows which it is.  Its levels are given
 *    back with preempt_enable(), interrupts still off and the sampler's
 *    level still held, so nothing is scheduled before the run stops; the
 *    entry's state is then kept, never torn down or freed (a lock in it
 *    may be held), and the fragment is refused until the module is
 *    reloaded (measure.c, request.c).  A body that left softirqs or a
 *    hardirq count disabled is named the same way, its count left as the
 *    body left it: the kernel's own checks report it.
 */
static notrace const char *cb_body_check(struct cb_disturb *d, unsigned long csw)
{
	int pc = preempt_count();
	bool slept = cb_csw() != csw || pc < d->pc;

	for (; pc < d->pc; pc++)
		preempt_disable();
	if (slept)
		return "slept";
	if (pc > d->pc && (pc & ~PREEMPT_MASK) == (d->pc & ~PREEMPT_MASK)) {
		for (; pc > d->pc; pc--)
			preempt_enable();
		return cb_broke_held;
	}
	if (pc != d->pc)
		return "left softirqs or a hardirq count disabled";
	if (lockdep_depth(current) > d->locks)
		return cb_broke_held;
	return NULL;
}

/*
 * Since cb_sample_begin() interrupts must have stayed off, the thread on
 * the CPU, the preemption count as it was: a body that slept (msleep, a
 * mutex, GFP_KERNEL) or turned interrupts on broke that, and its samples
 * mean nothing.  -EPROTO stops the run; @broke says what it did.
 */
int notrace cb_sample_broken(struct cb_ctx *ctx)
{
	struct cb_disturb *d = ctx->dist;
	const char *what = cb_body_check(d, d->csw);

	if (!what && !irqs_disabled())
		what = "turned interrupts on";
	if (!what)
		return 0;
	d->broke = what;
	return -EPROTO;
}

/*
 * The probe, before the first sample, runs the short region as a sample
 * runs it, with interrupts and preemption off (the sampler turns them off
 * around these two): a body that sleeps shows there first (and would
 * otherwise be refused as too long), and one that turned interrupts on
 * is caught as a sample's would be.  Nothing of the disturbance
 * bookkeeping moves: the probe keeps no sample.
 */
void notrace cb_probe_begin(struct cb_ctx *ctx)
{
	ctx->dist->probe_csw = cb_csw();
	ctx->dist->pc = preempt_count();
	ctx->dist->locks = lockdep_depth(current);
}

int notrace cb_probe_end(struct cb_ctx *ctx)
{
	struct cb_disturb *d = ctx->dist;
	const char *what = cb_body_check(d, d->probe_csw);

	if (!what && !irqs_disabled())
		what = "turned interrupts on";
	if (!what)
		return 0;
	d->broke = what;
	return -EPROTO;
}

/*
 * What disturbed the sample that just ended, its flags and counter
 * deltas in the arrays: counted once the sampler keeps it
 * (cb_sample_kept()), not when it is to be taken again
 * (cb_sample_retaken()), so that the flagged_* counts are the kept
 * samples'.
 */
void notrace cb_sample_end(struct cb_ctx *ctx, u64 i)
{
	struct cb_disturb *d = ctx->dist;
	unsigned int nmi = __this_cpu_read(irq_stat.__nmi_count);
	bool pmc = d->pmc_ok;
	u8 f = d->cold;
	int b, r;

	if (d->pmu && !d->pmc_ok)
		f |= CB_SAMPLE_NOPMC;
	if (d->pmu && pmc && !cb_pmc_sane(d, ctx->out_long)) {
		f |= CB_SAMPLE_PMCRESET;
		pmc = false;
	}
	if (nmi != d->nmi_start)
		f |= CB_SAMPLE_NMI;
	if (__this_cpu_read(cb_body_timeouts) != d->timeouts)
		f |= CB_SAMPLE_TIMEOUT;
	d->nmi_end = nmi;
	d->f = f;
	if (i < ctx->warmup)
		return;
	i -= ctx->warmup;
	if (ctx->flags)
		ctx->flags[i] = f;
	for (r = 0; d->pmu && r < CB_NR_REGIONS; r++)
		for (b = 0; b < CB_NR_PMC; b++)
			if (d->pmc_out[r][b])
				d->pmc_out[r][b][i] = pmc ?
					cb_pmc_delta(d, b, 2 * r) : 0;
}

/* The sample cb_sample_end() saw is kept (or was a warm-up sample). */
void notrace cb_sample_kept(struct cb_ctx *ctx, u64 i)
{
	struct cb_disturb *d = ctx->dist;
	int b;

	if (i < ctx->warmup) {
		d->nmi_out += d->nmi_end - d->nmi_start;
		return;
	}
	d->nmi_in += d->nmi_end - d->nmi_start;
	for (b = 0; b < CB_NR_SAMPLE_FLAGS; b++)
		if (d->f & BIT(b))
			d->flagged[b]++;
}

/*
 * The sample cb_sample_end() saw held interrupts off too long and is
 * taken again: its NMIs were outside the kept samples, and it is counted
 * as a retake.
 */
void notrace cb_sample_retaken(struct cb_ctx *ctx)
{
	struct cb_disturb *d = ctx->dist;

	d->nmi_out += d->nmi_end - d->nmi_start;
	d->retaken++;
}
