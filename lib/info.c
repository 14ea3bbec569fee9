// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - a result's info and a catalog line, compiled into the module
 * and into cyclebench-user: the keys' order, forms and words are here once,
 * what each side measured in its struct cb_result_info.
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
 * The result scope's emitters, made from contract-info.h for every key a
 * side writes there: cb_put_KEY(s, value) writes "KEY: value" in the key's
 * form (a CB_T_LIST key's "KEY:" only: the caller writes the rest of the
 * line).
 */
#define PUT_ONE(k, type, fmt, ...)					\
static void cb_put_##k(const struct cb_sink *s, type v)		\
{									\
	out(s, #k ": " fmt "\n", __VA_ARGS__);				\
}

#define PUT_U32(k)	PUT_ONE(k, unsigned int, "%u", v)
#define PUT_U64(k)	PUT_ONE(k, unsigned long long, "%llu", v)
#define PUT_INT(k)	PUT_ONE(k, int, "%d", v)
#define PUT_YESNO(k)	PUT_ONE(k, bool, "%s", yes(v))
#define PUT_WORD(k)	PUT_ONE(k, const char *, "%s", v)
#define PUT_TEXT(k)	PUT_ONE(k, const char *, "%s", v)
#define PUT_REPEAT(k)	PUT_ONE(k, unsigned int, "%u", v)
#define PUT_LIST(k)							\
static void cb_put_##k(const struct cb_sink *s)			\
{									\
	out(s, #k ":");							\
}

#define CB_INFO(k, t, tree, result) CB_IF_ANY_##result(PUT_##t(k))
#include "contract-info.h"
#undef CB_INFO

/* a c2c pair's timestamps' own cost, ticks a trip (the runner's c2c.c) */
void cb_info_c2c_timestamps(const struct cb_sink *s, u64 ticks)
{
	cb_put_c2c_timestamps(s, ticks);
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
static void cb_put_pmu_keys(const struct cb_sink *s, const struct cb_disturbed *d)
{
	static const char *const names[CB_NR_PMC] = CB_PMC_NAMES;
	const char *sep = "";
	int k, err = 0;

	cb_put_pmu(s);
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
			cb_put_pmu_missing(s);
		out(s, "%s%s: %s", *sep ? sep : " ", names[k], d->pmc_why[k]);
		if (d->pmc_err[k])
			out(s, " (%d)", d->pmc_err[k]);
		sep = "; ";
		err = err ? err : d->pmc_err[k];
	}
	if (*sep)
		out(s, "\n");
	if (err)
		cb_put_pmu_error(s, err);
}

static void cb_put_disturbed(const struct cb_sink *s, const struct cb_disturbed *d)
{
	if (d->smi_valid) {
		cb_put_smi_before(s, d->smi_before);
		cb_put_smi_after(s, d->smi_after);
	}
	/* by bit number: CB_SAMPLE_CPU's (3) is reserved */
	cb_put_flagged_nmi(s, d->flagged[0]);
	cb_put_flagged_irq(s, d->flagged[1]);
	cb_put_flagged_switch(s, d->flagged[2]);
	cb_put_flagged_nopmc(s, d->flagged[4]);
	cb_put_flagged_timeout(s, d->flagged[5]);
	cb_put_flagged_pmcreset(s, d->flagged[6]);
	cb_put_pmu_keys(s, d);
	cb_put_nmis_in_samples(s, d->nmi_in);
	cb_put_nmis_elsewhere(s, d->nmi_out);
	cb_put_retaken(s, d->retaken);
}

/* a result's info file, docs/debugfs-contract.md */
void cb_info_result(const struct cb_sink *s, const struct cb_result_info *ri)
{
	static const char *const states[CB_NR_STATES] = CB_STATE_NAMES;
	const struct cb_fragment *frag = ri->frag;
	unsigned int c;

	cb_put_name(s);
	out(s, " ");
	cb_info_name(s, ri->group, frag, ri->has_arg, ri->arg);
	out(s, "\n");
	cb_put_description(s, frag->desc);
	if (ri->has_arg)
		cb_put_arg(s, ri->arg);
	cb_put_ops(s, ri->ops);
	cb_put_unit(s, frag->unit ? frag->unit : CB_UNIT_DEFAULT);
	if (ri->insns)
		cb_put_insns(s, ri->insns);
	cb_put_slow(s, frag->slow);
	cb_put_setup(s, setup_name(frag));
	if (ri->page_size) {
		cb_put_page_size(s, ri->page_size);
		cb_put_huge_pages(s, ri->huge_pages);
	}
	cb_put_state(s, states[ri->state]);
	if (ri->state == CB_STATE_FAILED)
		cb_put_error(s, ri->err);
	if (ri->state == CB_STATE_SKIPPED && ri->reason)
		cb_put_reason(s, ri->reason);
	if (!ri->measured)
		return;
	cb_put_run_id(s, ri->run_id);
	cb_put_ensembles(s, ri->ensembles);
	cb_put_samples(s, ri->samples);
	cb_put_warmup(s, ri->warmup);
	cb_put_method(s, ri->method);
	cb_put_cpu(s, ri->cpu);
	if (ri->nr_cpus > 1) {
		cb_put_cpus(s);
		for (c = 0; c < ri->nr_cpus; c++)
			out(s, "%c%u", c ? ',' : ' ', ri->cpus[c]);
		out(s, "\n");
		cb_put_barrier(s, "sample");
		cb_put_start_spread(s, ri->spread);
		cb_put_samples_in_step(s, ri->in_step);
		cb_put_state_per_cpu(s, frag->per_cpu);
	}
	cb_put_interleave(s, ri->interleave);
	cb_put_tsc_khz(s, ri->tsc_khz);
	if (ri->tsc_step)
		cb_put_tsc_step(s, ri->tsc_step);
	if (ri->long_repeat)
		cb_put_long_repeat(s, ri->long_repeat);
	if (ri->dist)
		cb_put_disturbed(s, ri->dist);
}
