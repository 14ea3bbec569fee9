// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - the info files and a catalog line, compiled into the module
 * and into cyclebench-user: the keys' order, forms and words are here
 * once, what each side knows in its struct cb_tree_info and struct
 * cb_result_info.
 */
#include "info.h"

static __printf(2, 3) void out(const struct cb_sink *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s->vprintf(s->to, fmt, ap);
	va_end(ap);
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

/*
 * The emitters, made from contract-info.h for every key a side writes in
 * a scope: cb_put_tree_KEY(s, value) for the top-level info,
 * cb_put_res_KEY(s, value) for a result's, each writing "KEY: value" in the
 * key's form (a CB_T_LIST key's "KEY:" only: the caller writes the rest
 * of the line).
 */
#define PUT_ONE(fn, k, type, fmt, ...)					\
static void cb_put_##fn(const struct cb_sink *s, type v)		\
{									\
	out(s, #k ": " fmt "\n", __VA_ARGS__);				\
}

#define PUT_U32(fn, k)		PUT_ONE(fn, k, unsigned int, "%u", v)
#define PUT_U64(fn, k)		PUT_ONE(fn, k, unsigned long long, "%llu", v)
#define PUT_INT(fn, k)		PUT_ONE(fn, k, int, "%d", v)
#define PUT_YESNO(fn, k)	PUT_ONE(fn, k, bool, "%s", yes(v))
#define PUT_WORD(fn, k)		PUT_ONE(fn, k, const char *, "%s", v)
#define PUT_TEXT(fn, k)		PUT_ONE(fn, k, const char *, "%s", v)
/* 0: auto, each result its own (the runner's top level) */
#define PUT_REPEAT(fn, k)						\
static void cb_put_##fn(const struct cb_sink *s, unsigned int v)	\
{									\
	if (v)								\
		out(s, #k ": %u\n", v);					\
	else								\
		out(s, #k ": auto\n");					\
}

#define PUT_LIST(fn, k)							\
static void cb_put_##fn(const struct cb_sink *s)			\
{									\
	out(s, #k ":");							\
}

#define CB_INFO(k, t, tree, result) CB_IF_ANY_##tree(PUT_##t(tree_##k, k))
#include "contract-info.h"
#undef CB_INFO
#define CB_INFO(k, t, tree, result) CB_IF_ANY_##result(PUT_##t(res_##k, k))
#include "contract-info.h"
#undef CB_INFO

/* a list's values after its "KEY:", comma-separated */
static void put_list(const struct cb_sink *s, const unsigned int *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		out(s, "%c%u", i ? ',' : ' ', v[i]);
	out(s, "\n");
}

/* the top-level info file, docs/debugfs-contract.md */
void cb_info_tree(const struct cb_sink *s, const struct cb_tree_info *ti)
{
	cb_put_tree_version(s, CB_VERSION);
	cb_put_tree_mode(s, ti->mode);
	if (ti->interrupts)
		cb_put_tree_interrupts(s, ti->interrupts);
	cb_put_tree_kernel(s, ti->kernel);
	cb_put_tree_vendor(s, ti->vendor);
	cb_put_tree_family(s, ti->family);
	cb_put_tree_model(s, ti->model);
	cb_put_tree_stepping(s, ti->stepping);
	cb_put_tree_model_name(s, ti->model_name);
	cb_put_tree_tsc_khz(s, ti->tsc_khz);
	if (ti->tsc_khz_source)
		cb_put_tree_tsc_khz_source(s, ti->tsc_khz_source);
	cb_put_tree_tsc_step(s, ti->tsc_step);
	cb_put_tree_constant_tsc(s, ti->constant_tsc);
	cb_put_tree_nonstop_tsc(s, ti->nonstop_tsc);
	cb_put_tree_rdtscp(s, ti->rdtscp);
	cb_put_tree_hypervisor(s, ti->hypervisor);
	cb_put_tree_hypervisor_vendor(s, ti->hypervisor_vendor);
	cb_put_tree_smt_active(s, ti->smt_active);
	cb_put_tree_method_requested(s, ti->method_requested);
	cb_put_tree_method_used(s, ti->method_used);
	if (ti->lfence)
		cb_put_tree_lfence(s, ti->lfence);
	cb_put_tree_samples(s, ti->samples);
	cb_put_tree_ensembles(s, ti->ensembles);
	cb_put_tree_warmup(s, ti->warmup);
	cb_put_tree_cpu(s, ti->cpu);
	if (ti->nr_cpus > 1) {
		cb_put_tree_cpus(s);
		put_list(s, ti->cpus, ti->nr_cpus);
	}
	cb_put_tree_max_mb(s, ti->max_mb);
	if (ti->max_sample_us)
		cb_put_tree_max_sample_us(s, ti->max_sample_us);
	cb_put_tree_long_repeat(s, ti->long_repeat);
	if (ti->has_interleave)
		cb_put_tree_interleave(s, ti->interleave);
	if (ti->module) {
		cb_put_tree_preempt_rt(s, ti->module->preempt_rt);
		cb_put_tree_setup_calls(s, ti->module->setup_calls);
		cb_put_tree_teardown_calls(s, ti->module->teardown_calls);
	}
	if (ti->nr_steps) {
		cb_put_tree_sweep(s, "cpus");
		cb_put_tree_steps(s);
		put_list(s, ti->steps, ti->nr_steps);
	}
}

/* a c2c pair's timestamps' own cost, ticks a trip (the runner's c2c.c) */
void cb_info_c2c_timestamps(const struct cb_sink *s, u64 ticks)
{
	cb_put_res_c2c_timestamps(s, ticks);
}

/* group:name or group:name/ARG */
void cb_info_name(const struct cb_sink *s, const struct cb_group *group,
		  const struct cb_fragment *frag, bool has_arg, u64 arg)
{
	out(s, "%s:%s", group->name, frag->name);
	if (has_arg)
		out(s, "/%llu", (unsigned long long)arg);
}

/* the fragments file's line: "NAME OPS DESCRIPTION" */
void cb_info_catalog_line(const struct cb_sink *s, const struct cb_group *group,
			  const struct cb_fragment *frag, bool has_arg, u64 arg,
			  unsigned int ops)
{
	cb_info_name(s, group, frag, has_arg, arg);
	out(s, " %u %s\n", ops, frag->desc);
}

static const char *setup_name(const struct cb_fragment *frag)
{
	if (!frag->setup)
		return CB_SETUP_NONE;
	return frag->setup_each_ensemble ? CB_SETUP_ENSEMBLE : CB_SETUP_RUN;
}

/*
 * pmu: the counters that counted, or none (why); pmu_missing: each one
 * that did not, and why; pmu_error: the first error among them.
 */
static void put_pmu_keys(const struct cb_sink *s, const struct cb_disturbed *d)
{
	static const char *const names[CB_NR_PMC] = CB_PMC_NAMES;
	const char *sep = "";
	int k, err = 0;

	cb_put_res_pmu(s);
	for (k = 0; k < CB_NR_PMC; k++)
		if (d->pmc_open & (1U << k))
			out(s, " %s", names[k]);
	if (!d->pmc_open)
		out(s, " none (%s)", d->pmc_why[0] ? d->pmc_why[0] : "skipped");
	out(s, "\n");
	for (k = 0; k < CB_NR_PMC; k++) {
		if ((d->pmc_open & (1U << k)) || !d->pmc_why[k])
			continue;
		if (!*sep)
			cb_put_res_pmu_missing(s);
		out(s, "%s%s: %s", *sep ? sep : " ", names[k], d->pmc_why[k]);
		if (d->pmc_err[k])
			out(s, " (%d)", d->pmc_err[k]);
		sep = "; ";
		err = err ? err : d->pmc_err[k];
	}
	if (*sep)
		out(s, "\n");
	if (err)
		cb_put_res_pmu_error(s, err);
}

/* a one-bit flag's bit number, a constant */
#define BIT_NR(flag) __builtin_ctz(flag)

static void put_disturbed(const struct cb_sink *s, const struct cb_disturbed *d)
{
	if (d->smi_valid) {
		cb_put_res_smi_before(s, d->smi_before);
		cb_put_res_smi_after(s, d->smi_after);
	}
	/* by the flag's bit number (CB_SAMPLE_CPU's is reserved) */
	cb_put_res_flagged_nmi(s, d->flagged[BIT_NR(CB_SAMPLE_NMI)]);
	cb_put_res_flagged_irq(s, d->flagged[BIT_NR(CB_SAMPLE_IRQ)]);
	cb_put_res_flagged_switch(s, d->flagged[BIT_NR(CB_SAMPLE_SWITCH)]);
	cb_put_res_flagged_nopmc(s, d->flagged[BIT_NR(CB_SAMPLE_NOPMC)]);
	cb_put_res_flagged_timeout(s, d->flagged[BIT_NR(CB_SAMPLE_TIMEOUT)]);
	cb_put_res_flagged_pmcreset(s, d->flagged[BIT_NR(CB_SAMPLE_PMCRESET)]);
	put_pmu_keys(s, d);
	cb_put_res_nmis_in_samples(s, d->nmi_in);
	cb_put_res_nmis_elsewhere(s, d->nmi_out);
	cb_put_res_retaken(s, d->retaken);
}

/* a result's info file, docs/debugfs-contract.md */
void cb_info_result(const struct cb_sink *s, const struct cb_result_info *ri)
{
	static const char *const states[CB_NR_STATES] = CB_STATE_NAMES;
	const struct cb_fragment *frag = ri->frag;

	cb_put_res_name(s);
	out(s, " ");
	cb_info_name(s, ri->group, frag, ri->has_arg, ri->arg);
	out(s, "\n");
	cb_put_res_description(s, frag->desc);
	if (ri->has_arg)
		cb_put_res_arg(s, ri->arg);
	cb_put_res_ops(s, ri->ops);
	cb_put_res_unit(s, frag->unit ? frag->unit : CB_UNIT_DEFAULT);
	if (ri->insns)
		cb_put_res_insns(s, ri->insns);
	cb_put_res_slow(s, frag->slow);
	cb_put_res_setup(s, setup_name(frag));
	if (ri->page_size) {
		cb_put_res_page_size(s, ri->page_size);
		cb_put_res_huge_pages(s, ri->huge_pages);
	}
	cb_put_res_state(s, states[ri->state]);
	if (ri->state == CB_STATE_FAILED)
		cb_put_res_error(s, ri->err);
	if (ri->state == CB_STATE_SKIPPED && ri->reason)
		cb_put_res_reason(s, ri->reason);
	if (!ri->measured)
		return;
	cb_put_res_run_id(s, ri->run_id);
	cb_put_res_ensembles(s, ri->ensembles);
	cb_put_res_samples(s, ri->samples);
	cb_put_res_warmup(s, ri->warmup);
	cb_put_res_method(s, ri->method);
	cb_put_res_cpu(s, ri->cpu);
	if (ri->nr_cpus > 1) {
		cb_put_res_cpus(s);
		put_list(s, ri->cpus, ri->nr_cpus);
		cb_put_res_barrier(s, "sample");
		cb_put_res_start_spread(s, ri->spread);
		cb_put_res_samples_in_step(s, ri->in_step);
		cb_put_res_state_per_cpu(s, frag->per_cpu);
	}
	cb_put_res_interleave(s, ri->interleave);
	cb_put_res_tsc_khz(s, ri->tsc_khz);
	if (ri->tsc_step)
		cb_put_res_tsc_step(s, ri->tsc_step);
	if (ri->long_repeat)
		cb_put_res_long_repeat(s, ri->long_repeat);
	if (ri->dist)
		put_disturbed(s, ri->dist);
}
