// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - summaries for machines: JSON, CSV and Google Benchmark JSON.
 * The JSON schema and the CSV columns are documented in cyclestat.1.
 *
 * Calls fmt.c only.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"

/* ---- JSON ---- */

/*
 * The calibration's cross-check (input.c): null where it was not made (no
 * calib:imul_chain, an emulated clock), else both chains' ticks per core
 * cycle and the gap every figure in core cycles carries (0: they agree).
 */
static void json_calib_check(FILE *f, const struct cs_input *in)
{
	char b[3][40];

	if (!in->calib_checked) {
		fputs("    \"calibration_check\": null,\n", f);
		return;
	}
	fprintf(f, "    \"calibration_check\": {\"add_chain\": %s, \"imul_chain\": %s, "
		"\"gap\": %s, \"disturbed\": %s},\n",
		cs_fmt_d(b[0], 40, (double)in->calib_add), cs_fmt_d(b[1], 40, (double)in->calib_imul),
		cs_fmt_d(b[2], 40, (double)in->calib_gap), in->calib_gap > 0 ? "true" : "false");
}

static void json_info(FILE *f, const struct cs_info *info)
{
	fputc('{', f);
	for (size_t i = 0; i < info->n; i++) {
		fputs(i ? ", " : "", f);
		cs_json_str(f, info->kv[i].key);
		fputs(": ", f);
		cs_json_str(f, info->kv[i].val);
	}
	fputc('}', f);
}

static void json_figs(FILE *f, const struct cs_figs *g, const struct cs_q *shift,
		      uint64_t div)
{
	char b[20][64];
	int whole = !shift && div == 1;

	fprintf(f, "{\"n\": %llu, ", (unsigned long long)g->n);
	if (whole)
		fprintf(f, "\"min\": %llu, \"max\": %llu, ", (unsigned long long)g->min,
			(unsigned long long)g->max);
	else
		fprintf(f, "\"min\": %s, \"max\": %s, ",
			cs_qs(b[0], cs_q_int(g->min), shift, div),
			cs_qs(b[1], cs_q_int(g->max), shift, div));
	fprintf(f, "\"mean\": %s, \"median\": %s, \"sd\": %s, "
		"\"p1\": %s, \"p5\": %s, \"p25\": %s, \"p75\": %s, \"p95\": %s, \"p99\": %s, "
		"\"mad\": %s, \"hsm\": %s, \"far_outliers\": %llu}",
		cs_qs(b[2], g->mean, shift, div), cs_qs(b[3], g->median, shift, div),
		cs_lds(b[4], g->sd / div),
		cs_qs(b[5], g->p1, shift, div), cs_qs(b[6], g->p5, shift, div),
		cs_qs(b[7], g->p25, shift, div), cs_qs(b[8], g->p75, shift, div),
		cs_qs(b[9], g->p95, shift, div), cs_qs(b[10], g->p99, shift, div),
		cs_qs(b[11], g->mad, NULL, div), cs_qs(b[12], g->hsm, shift, div),
		(unsigned long long)g->far);
}

static void json_u64s(FILE *f, const uint64_t *v, uint64_t n)
{
	fputc('[', f);
	for (uint64_t i = 0; i < n; i++)
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
	fputc(']', f);
}

/* an estimate with its interval, in per-op ticks or calibrated core cycles */
static void json_est(FILE *f, const struct cs_est *e, long double scale)
{
	char b[3][40];

	fprintf(f, "{\"value\": %s, \"lo\": %s, \"hi\": %s, \"n\": %llu}",
		cs_fmt_d(b[0], 40, (double)(cs_q_ld(e->value) / scale)),
		cs_fmt_d(b[1], 40, (double)(e->lo / scale)),
		cs_fmt_d(b[2], 40, (double)(e->hi / scale)), (unsigned long long)e->n);
}

/* what tree version 2 adds: argument, setup, the headline per-op cost, counters */
static void json_v2(FILE *f, const struct cs_frag *fr)
{
	const char *setup = cs_info_get(&fr->info, CB_INFO_setup);
	struct cs_cost c = cs_cost_of(fr);
	char b[3][40];

	fputs(",\n       \"arg\": ", f);
	if (fr->has_arg)
		fprintf(f, "%llu", (unsigned long long)fr->arg);
	else
		fputs("null", f);
	fputs(", \"setup\": ", f);
	if (setup)
		cs_json_str(f, setup);
	else
		fputs("null", f);
	fprintf(f, ", \"long_repeat\": ");
	if (fr->perop.ok)
		fprintf(f, "%llu", (unsigned long long)fr->perop.repeat);
	else
		fputs("null", f);
	fprintf(f, ", \"ticks_per_core_cycle\": %s,\n       \"cost\": {\"basis\": \"%s\", "
		"\"unit\": \"%s\", \"aggregate\": \"%s\", \"per_op\": ",
		cs_core_calib(fr) > 0 ? cs_fmt_d(b[0], 40, (double)cs_core_calib(fr)) : "null",
		cs_basis_name(c.basis), cs_unit_name(c.unit),
		c.basis == CS_BASIS_TWO_LENGTH ? "core mean" : "median");
	json_est(f, c.est, c.scale);
	/*
	 * the minimum's spread over ensembles carries neither the TSC step's
	 * floor nor the calibration's error (it covered the true cost in 174
	 * of 400 step-quantised simulations): its value and n, no interval
	 */
	fputs(", \"per_op_min\": ", f);
	if (fr->perop.ok) {
		char m[40];

		fprintf(f, "{\"value\": %s, \"lo\": null, \"hi\": null, \"n\": %llu}",
			cs_fmt_d(m, 40, (double)(cs_q_ld(fr->perop.min.value) / c.scale)),
			(unsigned long long)fr->perop.min.n);
	} else {
		fputs("null", f);
	}
	fputs("}, \"counters\": ", f);
	if (!fr->cnt[CS_CORE].present && !fr->cnt[CS_INSTR].present && !fr->cnt[CS_REF].present) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (int k = 0; k < CS_NCOUNTERS; k++) {
		long double v;

		fprintf(f, "\"%s\": ", cs_counter_names[k]);
		if (!fr->cnt[k].present) {
			fputs("null, ", f);
			continue;
		}
		fprintf(f, "{\"median\": %s, \"median_long\": %s, \"per_op\": %s}, ",
			cs_fmt_d(b[1], 40, (double)cs_q_ld(fr->cnt[k].median)),
			fr->cnt[k].has_long ? cs_fmt_d(b[2], 40, (double)cs_q_ld(fr->cnt[k].median_long)) : "null",
			cs_counter_per_op(fr, k, &v) ? cs_fmt_d(b[0], 40, (double)v) : "null");
	}
	{
		long double ipc;

		fprintf(f, "\"ipc_per_op\": %s, ", cs_ipc_per_op(fr, &ipc) ?
			cs_fmt_d(b[0], 40, (double)ipc) : "null");
	}
	fputs("\"ipc\": ", f);
	if (fr->cnt[CS_CORE].present && fr->cnt[CS_INSTR].present && fr->cnt[CS_CORE].sum)
		fputs(cs_fmt_d(b[2], 40, (double)((long double)fr->cnt[CS_INSTR].sum /
						  (long double)fr->cnt[CS_CORE].sum)), f);
	else
		fputs("null", f);
	fputc('}', f);
}

/* the QEMU plugin's counts (memory.c): the sums as read, and per op */
static void json_memory(FILE *f, const struct cs_frag *fr)
{
	const struct cs_mem *m = &fr->mem;
	char b[40];

	fputs(",\n       \"memory\": ", f);
	if (!m->present) {
		fputs("null", f);
		return;
	}
	fputs("{\"model\": ", f);
	cs_json_str(f, m->model);
	fputs(", \"source\": ", f);
	if (m->source)
		cs_json_str(f, m->source);
	else
		fputs("null", f);
	fprintf(f, ", \"runs\": [%" PRIu64 ", %" PRIu64 "], \"sums\": {", m->runs[0], m->runs[1]);
	for (int k = 0; k < CB_NR_MEM; k++)
		fprintf(f, "%s\"%s\": [%" PRIu64 ", %" PRIu64 "]", k ? ", " : "", cs_mem_counts[k].name,
			m->sum[k][0], m->sum[k][1]);
	fputs("},\n         \"per_op\": {", f);
	for (int k = 0; k < CB_NR_MEM; k++) {
		long double v;

		cs_mem_per_op(fr, k, &v);
		fprintf(f, "%s\"%s\": %s", k ? ", " : "", cs_mem_counts[k].name, cs_fmt_d(b, 40, (double)v));
	}
	fputs("}}", f);
}

static void json_frag(FILE *f, const struct cs_opts *o, const struct cs_input *in,
		      const struct cs_frag *fr)
{
	const struct cs_ens *e = &fr->ens;
	char b[8][64];

	fputs("      {\"name\": ", f);
	cs_json_str(f, fr->name);
	fputs(", \"path\": ", f);
	cs_json_str(f, fr->path);
	fprintf(f, ", \"ops\": %llu, \"state\": ", (unsigned long long)fr->ops);
	cs_json_str(f, cs_info_get(&fr->info, CB_INFO_state) ?: "unknown");
	fprintf(f, ", \"stale\": %s, \"smi_occurred\": %s, \"smi\": ",
		fr->stale ? "true" : "false", fr->smi ? "true" : "false");
	if (cs_info_get(&fr->info, CB_INFO_smi_before) && cs_info_get(&fr->info, CB_INFO_smi_after))
		fprintf(f, "{\"before\": %llu, \"after\": %llu}",
			(unsigned long long)fr->smi_before, (unsigned long long)fr->smi_after);
	else
		fputs("null", f);
	fputs(",\n       \"info\": ", f);
	json_info(f, &fr->info);
	fputs(",\n       \"raw\": ", f);
	json_figs(f, &fr->raw, NULL, 1);
	fputs(",\n       \"net\": ", f);
	if (cs_shift_of(in, fr))
		json_figs(f, &fr->raw, &in->overhead, 1);
	else
		fputs("null", f);
	fprintf(f, ",\n       \"net_per_op_basis\": \"%s\", \"net_per_op\": ",
		cs_basis_name(cs_shift_of(in, fr) ? CS_BASIS_NET : CS_BASIS_RAW));
	json_figs(f, &fr->raw, cs_shift_of(in, fr), fr->ops);
	json_v2(f, fr);
	json_memory(f, fr);
	fprintf(f, ",\n       \"ensembles\": {\"count\": %llu, \"samples\": %llu, "
		"\"total_variance\": %s, \"variance_of_variances\": %s, "
		"\"variance_of_mins\": %s, \"abs_max_dev\": %llu,\n         \"min\": ",
		(unsigned long long)e->count, (unsigned long long)e->size,
		cs_lds(b[0], e->total_var), cs_lds(b[1], e->var_of_vars),
		cs_lds(b[2], e->var_of_mins), (unsigned long long)e->abs_max_dev);
	json_u64s(f, e->min, e->count);
	fputs(", \"max\": ", f);
	json_u64s(f, e->max, e->count);
	fputs(", \"variance\": [", f);
	for (uint64_t j = 0; j < e->count; j++)
		fprintf(f, "%s%s", j ? ", " : "", cs_lds(b[3], e->var[j]));
	fputs("]}", f);
	if (o->hist) {
		const struct cs_hist *h = &fr->hist;

		fprintf(f, ",\n       \"hist\": {\"lo\": %llu, \"width\": %llu, \"counts\": ",
			(unsigned long long)h->lo, (unsigned long long)h->width);
		json_u64s(f, h->count, h->nbins);
		fprintf(f, ", \"overflow\": %llu}", (unsigned long long)h->over);
	}
	fputc('}', f);
}

void cs_print_json(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	FILE *f = o->out;
	char b[64];

	fputs("{\"cyclestat\": \"" CS_VERSION "\", \"schema\": 2, \"inputs\": [\n", f);
	for (size_t i = 0; i < nin; i++) {
		fputs("  {\"path\": ", f);
		cs_json_str(f, in[i].path);
		fputs(", \"info\": ", f);
		json_info(f, &in[i].info);
		fprintf(f, ", \"overhead_median\": %s,\n", in[i].has_overhead ?
			cs_fmt_qm(b, sizeof(b), in[i].overhead) : "null");
		json_calib_check(f, &in[i]);
		fputs("    \"fragments\": [\n", f);
		for (size_t j = 0; j < in[i].nfrag; j++) {
			json_frag(f, o, &in[i], &in[i].frag[j]);
			fputs(j + 1 < in[i].nfrag ? ",\n" : "\n", f);
		}
		fprintf(f, "    ]}%s\n", i + 1 < nin ? "," : "");
	}
	fputs("]}\n", f);
}

/* ---- CSV ---- */

void cs_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * The per-op cost as the table's per-op row has it: the headline figure,
 * its 95 % interval (empty without one), its unit and basis.
 */
static void csv_cost(FILE *f, const struct cs_frag *fr)
{
	struct cs_cost c = cs_cost_of(fr);
	char b[3][40];

	fprintf(f, "%s,%s,%s,", cs_fmt_d(b[0], 40, (double)c.v),
		isnan(c.lo) ? "" : cs_fmt_d(b[1], 40, (double)c.lo),
		isnan(c.hi) ? "" : cs_fmt_d(b[2], 40, (double)c.hi));
	cs_csv_field(f, cs_unit_name(c.unit));
	fprintf(f, ",%s", cs_basis_name(c.basis));
}

/* the memory counts' columns, where any input has them: NAME_per_op */
static int csv_memory_heads(FILE *f, const struct cs_input *in, size_t nin)
{
	int any = 0;

	for (size_t i = 0; i < nin; i++)
		for (size_t j = 0; j < in[i].nfrag; j++)
			any |= in[i].frag[j].mem.present;
	for (int k = 0; any && k < CB_NR_MEM; k++)
		fprintf(f, ",%s_per_op", cs_mem_counts[k].name);
	return any;
}

static void csv_memory(FILE *f, const struct cs_frag *fr)
{
	char b[40];

	for (int k = 0; k < CB_NR_MEM; k++) {
		long double v;

		fputc(',', f);
		if (cs_mem_per_op(fr, k, &v))
			fputs(cs_fmt_d(b, 40, (double)v), f);
	}
}


void cs_print_csv(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	FILE *f = o->out;
	char b[24][64];
	int mem;

	if (o->hist) {
		fputs("fragment,bin_lo,bin_hi,count\n", f);
		for (size_t i = 0; i < nin; i++) {
			for (size_t j = 0; j < in[i].nfrag; j++) {
				const struct cs_frag *fr = &in[i].frag[j];
				const struct cs_hist *h = &fr->hist;

				for (unsigned int k = 0; k <= h->nbins; k++) {
					u128 lo = (u128)h->lo + (u128)k * h->width;

					cs_csv_field(f, fr->name);
					fprintf(f, ",%s,", cs_u128_str(b[0] + 63, lo));
					if (k < h->nbins)
						fprintf(f, "%s,%llu\n", cs_u128_str(b[1] + 63, lo + h->width),
							(unsigned long long)h->count[k]);
					else
						fprintf(f, ",%llu\n", (unsigned long long)h->over);
				}
			}
		}
		return;
	}
	fputs("input,fragment,ops,state,stale,smi,n,min,p1,p5,p25,median,p75,p95,p99,max,"
	      "mean,sd,mad,hsm,far_outliers,overhead,net_median,net_mean,net_per_op_median,"
	      "net_per_op_mean,ensembles,samples,total_variance,variance_of_variances,"
	      "variance_of_mins,abs_max_dev,cost,cost_lo,cost_hi,cost_unit,cost_basis", f);
	mem = csv_memory_heads(f, in, nin);
	fputc('\n', f);
	for (size_t i = 0; i < nin; i++) {
		for (size_t j = 0; j < in[i].nfrag; j++) {
			const struct cs_frag *fr = &in[i].frag[j];
			const struct cs_q *sh = cs_shift_of(&in[i], fr);
			const struct cs_figs *g = &fr->raw;
			const char *state = cs_info_get(&fr->info, CB_INFO_state);

			cs_csv_field(f, in[i].path);
			fputc(',', f);
			cs_csv_field(f, fr->name);
			fprintf(f, ",%llu,", (unsigned long long)fr->ops);
			cs_csv_field(f, state ? state : "");
			fprintf(f, ",%d,%d,%llu,%llu,", fr->stale, fr->smi,
				(unsigned long long)g->n, (unsigned long long)g->min);
			fprintf(f, "%s,%s,%s,%s,%s,%s,%s,%llu,%s,%s,%s,%s,%llu,",
				cs_qs(b[0], g->p1, NULL, 1), cs_qs(b[1], g->p5, NULL, 1),
				cs_qs(b[2], g->p25, NULL, 1), cs_qs(b[3], g->median, NULL, 1),
				cs_qs(b[4], g->p75, NULL, 1), cs_qs(b[5], g->p95, NULL, 1),
				cs_qs(b[6], g->p99, NULL, 1), (unsigned long long)g->max,
				cs_qs(b[7], g->mean, NULL, 1),
				isnan(g->sd) ? "" : cs_lds(b[8], g->sd),
				cs_qs(b[9], g->mad, NULL, 1), cs_qs(b[10], g->hsm, NULL, 1),
				(unsigned long long)g->far);
			if (sh)
				fprintf(f, "%s,%s,%s,", cs_fmt_qm(b[11], 64, *sh),
					cs_qs(b[12], g->median, sh, 1), cs_qs(b[13], g->mean, sh, 1));
			else
				fputs(",,,", f);
			fprintf(f, "%s,%s,%llu,%llu,%s,%s,%s,%llu,",
				cs_qs(b[14], g->median, sh, fr->ops),
				cs_qs(b[15], g->mean, sh, fr->ops),
				(unsigned long long)fr->ens.count, (unsigned long long)fr->ens.size,
				cs_lds(b[16], fr->ens.total_var), cs_lds(b[17], fr->ens.var_of_vars),
				cs_lds(b[18], fr->ens.var_of_mins),
				(unsigned long long)fr->ens.abs_max_dev);
			csv_cost(f, fr);
			if (mem)
				csv_memory(f, fr);
			fputc('\n', f);
		}
	}
}

/* ---- Google Benchmark JSON ---- */

static long double tsc_khz_of(const struct cs_input *in, const struct cs_frag *fr)
{
	uint64_t khz;
	struct cs_err e;

	if (!cs_info_u64(&fr->info, NULL, CB_INFO_tsc_khz, &khz, &e) && khz)
		return khz;
	if (!cs_info_u64(&in->info, NULL, CB_INFO_tsc_khz, &khz, &e) && khz)
		return khz;
	return 0;
}

/*
 * One benchmark entry: time is the per-op cost (ticks at khz kHz: ticks *
 * 1e6 / khz ns; ticks where there is no tsc_khz, and the unit says so).
 */
static void gbench_entry(FILE *f, const char *name, const char *run_type,
			 const char *agg, size_t reps, size_t idx, const struct cs_frag *fr,
			 long double ticks, long double khz, size_t family, int first)
{
	long double ns = khz ? ticks * 1e6L / khz : ticks;
	long double cal = fr ? cs_core_calib(fr) : 0;
	enum cs_basis basis = fr ? cs_cost_of(fr).basis : CS_BASIS_RAW;
	char b[4][40];

	fputs(first ? "    {" : ",\n    {", f);
	fputs("\"name\": ", f);
	if (agg) {
		char buf[600];

		snprintf(buf, sizeof(buf), "%s_%s", name, agg);
		cs_json_str(f, buf);
	} else {
		cs_json_str(f, name);
	}
	fprintf(f, ", \"family_index\": %zu, \"per_family_instance_index\": 0, \"run_name\": ",
		family);
	cs_json_str(f, name);
	fprintf(f, ", \"run_type\": \"%s\", \"repetitions\": %zu, ", run_type, reps);
	if (agg)
		fprintf(f, "\"threads\": 1, \"aggregate_name\": \"%s\", \"aggregate_unit\": \"time\", ",
			agg);
	else
		fprintf(f, "\"repetition_index\": %zu, \"threads\": 1, ", idx);
	fprintf(f, "\"iterations\": %llu, \"real_time\": %s, \"cpu_time\": %s, "
		"\"time_unit\": \"%s\", \"ticks\": %s",
		(unsigned long long)(fr ? fr->raw.n : 1), cs_fmt_d(b[0], 40, (double)ns),
		cs_fmt_d(b[1], 40, (double)ns), khz ? "ns" : "ticks", cs_fmt_d(b[2], 40, (double)ticks));
	if (fr)
		fprintf(f, ", \"basis\": \"%s\", \"per_op_core_cycles\": %s", cs_basis_name(basis),
			cal > 0 ? cs_fmt_d(b[3], 40, (double)(ticks / cal)) : "null");
	/* the QEMU plugin's counts, as Google Benchmark's user counters */
	for (int k = 0; fr && fr->mem.present && k < CB_NR_MEM; k++) {
		long double v;

		cs_mem_per_op(fr, k, &v);
		fprintf(f, ", \"%s_per_op\": %s", cs_mem_counts[k].name, cs_fmt_d(b[3], 40, (double)v));
	}
	fputc('}', f);
}

/*
 * Google Benchmark's JSON, so that its tools/compare.py compares runs:
 * each input (a run) is one repetition of every fragment in it, whose time
 * is the fragment's per-op cost (the headline: two-length, else net of
 * base:empty, else raw; basis says which), never the raw mean with the
 * timing overhead.  With two or more runs, the aggregates over them.
 */
void cs_print_gbench(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	FILE *f = o->out;
	struct utsname u;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	long double khz0 = 0;
	size_t family = 0;
	int first = 1;

	if (uname(&u))
		strcpy(u.nodename, "unknown");
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	for (size_t i = 0; i < nin && !khz0; i++)
		for (size_t j = 0; j < in[i].nfrag && !khz0; j++)
			khz0 = tsc_khz_of(&in[i], &in[i].frag[j]);
	if (!khz0 && !o->quiet)
		fprintf(stderr, "cyclestat: no tsc_khz in any info; gbench times are TSC ticks (time_unit \"ticks\"), not ns\n");
	fprintf(f, "{\n  \"context\": {\"date\": \"%s\", \"host_name\": ", date);
	cs_json_str(f, u.nodename);
	fprintf(f, ", \"executable\": \"cyclebench\", \"num_cpus\": %ld, "
		"\"mhz_per_cpu\": %.0Lf, \"caches\": [], "
		"\"load_avg\": [], \"library_build_type\": \"release\", \"cyclebench\": ",
		sysconf(_SC_NPROCESSORS_ONLN), khz0 / 1000);
	json_info(f, nin ? &in[0].info : &(struct cs_info){ 0 });
	fputs("},\n  \"benchmarks\": [\n", f);
	for (size_t i = 0; i < nin; i++) {
		for (size_t j = 0; j < in[i].nfrag; j++) {
			const char *name = in[i].frag[j].name;
			long double *v = calloc(nin, sizeof(*v)), m = 0, ss = 0, khz = 0;
			size_t reps = 0, k = 0, seen = 0;

			/* a family per name, at its first appearance */
			for (size_t p = 0; p < i && !seen; p++)
				seen = cs_frag_named(&in[p], name) != NULL;
			if (seen || !v) {
				free(v);
				continue;
			}
			for (size_t p = i; p < nin; p++)
				reps += cs_frag_named(&in[p], name) != NULL;
			for (size_t p = i; p < nin; p++) {
				const struct cs_frag *fr = cs_frag_named(&in[p], name);

				if (!fr)
					continue;
				v[k] = cs_q_ld(cs_cost_of(fr).est->value);
				if (!khz)
					khz = tsc_khz_of(&in[p], fr);
				gbench_entry(f, name, "iteration", NULL, reps, k, fr, v[k],
					     tsc_khz_of(&in[p], fr), family, first);
				first = 0;
				m += v[k++];
			}
			if (reps >= 2) {
				m /= reps;
				for (k = 0; k < reps; k++)
					ss += (v[k] - m) * (v[k] - m);
				gbench_entry(f, name, "aggregate", "mean", reps, 0, NULL, m, khz,
					     family, 0);
				gbench_entry(f, name, "aggregate", "median", reps, 0, NULL,
					     cs_median_ld(v, reps), khz, family, 0);
				gbench_entry(f, name, "aggregate", "stddev", reps, 0, NULL,
					     sqrtl(ss / (reps - 1)), khz, family, 0);
			}
			free(v);
			family++;
		}
	}
	fputs("\n  ]\n}\n", f);
}

