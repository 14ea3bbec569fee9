// SPDX-License-Identifier: GPL-2.0
/*
 * Around each sample, with interrupts off and outside the timed regions:
 * what may have disturbed it (NMIs inside it, interrupts and context
 * switches before it, TSC_AUX naming another CPU) and, where the CPU has
 * a PMU, its hardware counters, read with RDPMC.  The fragment samplers
 * (cyclebench.h) call cb_sample_begin() and cb_sample_end(); the engine
 * opens and closes the counters around a run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/kernel_stat.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "internal.h"

const char *const cb_pmc_names[CB_NR_PMC] = {
	"core_cycles", "instructions", "ref_cycles",
};

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
 * Pinned kernel counters on the run's CPU, and their arrays; anything
 * missing and the run goes on with the TSC alone, saying why.  In the
 * kthread, on that CPU.
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
	struct cb_defaults d;
	unsigned long flags;
	unsigned int i;
	bool active = true;
	u64 bytes;
	int k;

	pmu->why = "none (pmu=off)";
	if (!req->pmu)
		return;
	for (k = 0; k < CB_NR_PMC; k++) {
		struct perf_event *ev;

		attr.config = config[k];
		ev = perf_event_create_kernel_counter(&attr, req->cpu, NULL, NULL, NULL);
		if (IS_ERR(ev)) {
			pmu->why = "none (no such hardware counter: no PMU, as in most VMs)";
			pmu->err = PTR_ERR(ev);
			goto close;
		}
		pmu->ev[k] = ev;
	}
	local_irq_save(flags);
	for (k = 0; k < CB_NR_PMC; k++)
		active &= READ_ONCE(pmu->ev[k]->state) == PERF_EVENT_STATE_ACTIVE &&
			  READ_ONCE(pmu->ev[k]->oncpu) == smp_processor_id();
	local_irq_restore(flags);
	if (!active) {
		pmu->why = "none (a counter is held elsewhere, e.g. NMI watchdog)";
		goto close;
	}
	cb_get_defaults(&d);
	bytes = cb_req_bytes(req) + (u64)req->nr * res[0]->n * CB_NR_PMC * sizeof(u64);
	if (bytes > (u64)d.max_mb << 20) {
		pmu->why = "none (the counter arrays would exceed max_mb)";
		goto close;
	}
	for (i = 0; i < req->nr; i++) {
		struct cb_result *r = res[i];

		for (k = 0; r->cycles && k < CB_NR_PMC; k++) {
			r->pmc[k] = __vmalloc(r->n * sizeof(u64), GFP_KERNEL |
					      __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
			if (!r->pmc[k]) {
				pmu->why = "none (no memory for the counter arrays)";
				pmu->err = -ENOMEM;
				goto free;
			}
		}
	}
	cb_pmc_widths(pmu);
	pmu->why = "core_cycles instructions ref_cycles";
	return;
free:
	for (i = 0; i < req->nr; i++)
		for (k = 0; k < CB_NR_PMC; k++) {
			vfree(res[i]->pmc[k]);
			res[i]->pmc[k] = NULL;
		}
close:
	cb_pmu_close(pmu);
}

/*
 * Interrupts handled on this CPU: device interrupts (kstat) plus x86's
 * system vectors, which kstat does not count: the local APIC timer, IPIs,
 * irq_work.
 */
static notrace unsigned long cb_irq_count(void)
{
	unsigned long n = __this_cpu_read(kstat.irqs_sum);

#ifdef CONFIG_X86_LOCAL_APIC
	n += __this_cpu_read(irq_stat.apic_timer_irqs);
#endif
#ifdef CONFIG_SMP
	n += __this_cpu_read(irq_stat.irq_resched_count);
	n += __this_cpu_read(irq_stat.irq_call_count);
#endif
	n += __this_cpu_read(irq_stat.irq_tlb_count);
	n += __this_cpu_read(irq_stat.apic_irq_work_irqs);
	n += __this_cpu_read(irq_stat.x86_platform_ipis);
	return n;
}

/*
 * Counter deltas wrap at the counter's width: (b - a) & mask is right
 * across one wrap.  Fixed counters are RDPMC indices with bit 30 set.
 */
static u64 cb_pmc_delta(const struct cb_disturb *d, unsigned int k, u64 end)
{
	u64 mask = d->idx[k] & BIT(30) ? d->fixed_mask : d->gp_mask;

	return cb_counter_delta(d->pmc0[k], end, mask);
}

/*
 * With interrupts off, whether each counter is counting on this CPU now,
 * and its RDPMC index (perf may move it between samples): what
 * x86_perf_rdpmc_index() does, which is not exported.
 */
static notrace bool cb_pmc_ready(struct cb_disturb *d)
{
	int k;

	for (k = 0; k < CB_NR_PMC; k++) {
		const struct perf_event *ev = d->ev[k];

		if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
		    READ_ONCE(ev->oncpu) != smp_processor_id())
			return false;
		d->idx[k] = READ_ONCE(ev->hw.event_base_rdpmc);
	}
	return true;
}

/* Interrupts are off: nothing but an NMI changes these under us. */
void notrace cb_sample_begin(struct cb_ctx *ctx, u64 i)
{
	struct cb_disturb *d = ctx->dist;
	unsigned long irqs = cb_irq_count();
	unsigned long csw = current->nvcsw + current->nivcsw;
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
	d->nmi_start = nmi;
	if (d->ev) {
		int k;

		d->pmc_ok = cb_pmc_ready(d);
		for (k = 0; d->pmc_ok && k < CB_NR_PMC; k++)
			d->pmc0[k] = native_read_pmc(d->idx[k]);
	}
}

/* Linux sets TSC_AUX to node << 12 | cpu (vdso_encode_cpunode()). */
static bool cb_aux_other_cpu(u32 aux, unsigned int cpu)
{
	return aux != CB_NO_AUX && (aux & 0xfff) != cpu;
}

void notrace cb_sample_end(struct cb_ctx *ctx, u64 i, u32 aux, u32 aux_long)
{
	struct cb_disturb *d = ctx->dist;
	u64 pmc[CB_NR_PMC] = { };
	unsigned int nmi;
	u8 f = d->cold;
	int b;

	for (b = 0; d->ev && d->pmc_ok && b < CB_NR_PMC; b++)
		pmc[b] = native_read_pmc(d->idx[b]);
	nmi = __this_cpu_read(irq_stat.__nmi_count);
	if (d->ev && !d->pmc_ok)
		f |= CB_SAMPLE_NOPMC;
	if (nmi != d->nmi_start)
		f |= CB_SAMPLE_NMI;
	if (cb_aux_other_cpu(aux, ctx->cpu) ||
	    cb_aux_other_cpu(aux_long, ctx->cpu))
		f |= CB_SAMPLE_CPU;
	d->nmi_end = nmi;
	if (i < ctx->warmup) {
		d->nmi_out += nmi - d->nmi_start;
		return;
	}
	d->nmi_in += nmi - d->nmi_start;
	if (ctx->flags)
		ctx->flags[i - ctx->warmup] = f;
	for (b = 0; d->ev && b < CB_NR_PMC; b++)
		d->pmc_out[b][i - ctx->warmup] = d->pmc_ok ? cb_pmc_delta(d, b, pmc[b]) : 0;
	for (b = 0; b < CB_NR_SAMPLE_FLAGS; b++)
		if (f & BIT(b))
			d->flagged[b]++;
}
