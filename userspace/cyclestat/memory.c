// SPDX-License-Identifier: GPL-2.0
/*
 * memory.c - a result's memory file (contract.h CB_FILE_MEMORY): what the
 * QEMU plugin counted in its timed regions (loads, stores, cache misses),
 * read, made per op by the two lengths as the cycles are, and shown.
 *
 * The file holds sums over a region's counted runs, not a value a sample:
 * a figure is exact, (long / runs_long - short / runs_short) /
 * ((long_repeat - 1) x ops), with no interval to give.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

/* a table shows the counts with a heading; JSON and CSV give every count */
const struct cb_mem_def cs_mem_counts[CB_NR_MEM] = {
#define CB_MEM(name, heading) CB_MEM_DEF(name, heading)
#include "contract-mem.h"
#undef CB_MEM
};

void cs_mem_free(struct cs_mem *m)
{
	free(m->model);
	free(m->source);
	m->model = m->source = NULL;
	m->present = 0;
}

/* "SHORT LONG": two unsigned decimals */
static int two_u64(const char *s, uint64_t v[2])
{
	char *end;

	for (int i = 0; i < 2; i++) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (errno)
			return -1;
		s = end;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	return *s ? -1 : 0;
}

static int mem_line(struct cs_mem *m, const char *path, unsigned long long line,
		    const char *key, const char *val, unsigned int *seen, struct cs_err *err)
{
	char **text = !strcmp(key, CB_MEM_MODEL) ? &m->model :
		      !strcmp(key, CB_MEM_SOURCE) ? &m->source : NULL;
	uint64_t *v = NULL;

	if (text) {
		free(*text);
		*text = strdup(val);
		if (!*text) {
			cs_seterr(err, path, line, "out of memory");
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, CB_MEM_RUNS)) {
		v = m->runs;
		*seen |= 1U << CB_NR_MEM;
	}
	for (int k = 0; !v && k < CB_NR_MEM; k++)
		if (!strcmp(key, cs_mem_counts[k].name)) {
			v = m->sum[k];
			*seen |= 1U << k;
		}
	if (!v)		/* a count a newer plugin writes */
		return 0;
	if (two_u64(val, v)) {
		cs_seterr(err, path, line, "'%s: %s': want two unsigned decimals, the short region's sum and the long one's",
			  key, val);
		return -1;
	}
	return 0;
}

int cs_load_memory(const char *dir, struct cs_frag *fr, struct cs_err *err)
{
	struct cs_mem *m = &fr->mem;
	struct cs_info kv = { 0 };
	unsigned int seen = 0;
	unsigned long long line = 0;
	char *path, *buf;
	size_t len;
	int ret = -1;

	if (!dir || asprintf(&path, "%s/%s", dir, CB_FILE_MEMORY) < 0)
		return 0;
	if (access(path, F_OK)) {
		free(path);
		return 0;
	}
	if (cs_read_file(path, &buf, &len, CS_INFO_MAX, err))
		goto out;
	for (const char *c = buf, *end = buf + len; c < end; ) {
		const char *nl = memchr(c, '\n', (size_t)(end - c));
		size_t n = (size_t)((nl ? nl : end) - c);

		line++;
		kv = (struct cs_info){ 0 };
		if (cs_parse_info(path, c, n, &kv, err)) {
			err->line = line;
			goto out_buf;
		}
		if (kv.n && mem_line(m, path, line, kv.kv[0].key, kv.kv[0].val, &seen, err)) {
			cs_info_free(&kv);
			goto out_buf;
		}
		cs_info_free(&kv);
		c += n + 1;
	}
	if (seen != (1U << (CB_NR_MEM + 1)) - 1 || !m->model) {
		cs_seterr(err, path, 0, "no '%s:' line; perop.py --save writes the model, runs and every count (include/cyclebench/contract-mem.h)",
			  !m->model ? CB_MEM_MODEL : !(seen >> CB_NR_MEM & 1) ? CB_MEM_RUNS :
			  cs_mem_counts[__builtin_ctz(~seen)].name);
		goto out_buf;
	}
	if (!m->runs[0] || !m->runs[1]) {
		cs_seterr(err, path, 0, "'%s: %" PRIu64 " %" PRIu64 "': a region counted in no run has no figure",
			  CB_MEM_RUNS, m->runs[0], m->runs[1]);
		goto out_buf;
	}
	switch (cs_info_u64(&fr->info, path, CB_INFO_long_repeat, &m->repeat, err)) {
	case -1:
		goto out_buf;
	case 1:
		m->repeat = 0;
	}
	if (m->repeat < 2) {
		cs_seterr(err, path, 0, "the result's info names no long_repeat of 2 or more: no two lengths to difference");
		goto out_buf;
	}
	m->present = 1;
	ret = 0;
out_buf:
	free(buf);
out:
	if (ret)
		cs_mem_free(m);
	free(path);
	return ret;
}

int cs_mem_per_op(const struct cs_frag *fr, int k, long double *v)
{
	const struct cs_mem *m = &fr->mem;

	if (!m->present)
		return 0;
	*v = ((long double)m->sum[k][1] / m->runs[1] - (long double)m->sum[k][0] / m->runs[0]) /
	     ((long double)(m->repeat - 1) * fr->ops);
	return 1;
}

/* count K per op for a table of 3 decimals: one that rounds to 0 is 0, never -0 */
static long double cell(const struct cs_frag *fr, int k)
{
	long double v = 0;

	cs_mem_per_op(fr, k, &v);
	return fabsl(v) < 0.0005L ? 0 : v;
}

static int any_memory(const struct cs_input *in)
{
	for (size_t j = 0; j < in->nfrag; j++)
		if (in->frag[j].mem.present)
			return 1;
	return 0;
}

/* what the figures are: the model, and where it came from, once */
static void mem_model(FILE *f, const struct cs_input *in)
{
	const struct cs_mem *m0 = NULL;
	int differ = 0;

	for (size_t j = 0; j < in->nfrag; j++) {
		const struct cs_mem *m = &in->frag[j].mem;

		if (!m->present)
			continue;
		if (!m0)
			m0 = m;
		else if (strcmp(m->model, m0->model))
			differ = 1;
	}
	fprintf(f, "per op, exact: the QEMU plugin cbcount.so in the timed regions, by the two lengths;\n"
		"the model: %s%s%s\n", m0->source ? m0->source : "", m0->source ? ": " : "", m0->model);
	if (differ)
		fprintf(f, "(the results ran under different models: each one's is in its memory file)\n");
}

/* the results with no memory file, beside those with one */
static void mem_missing(FILE *f, const struct cs_input *in)
{
	int first = 1;

	for (size_t j = 0; j < in->nfrag; j++) {
		if (in->frag[j].mem.present)
			continue;
		fprintf(f, "%s%s", first ? "not counted: " : ", ", in->frag[j].name);
		first = 0;
	}
	if (!first)
		fputc('\n', f);
}

void cs_print_memory(FILE *f, const struct cs_input *in, int w, const char *bold, const char *off)
{
	if (!any_memory(in))
		return;
	fprintf(f, "\n%s%-*s", bold, w, "MEMORY");
	for (int k = 0; k < CB_NR_MEM; k++)
		if (cs_mem_counts[k].heading)
			fprintf(f, "  %9s", cs_mem_counts[k].heading);
	fprintf(f, "%s\n", off);
	for (size_t j = 0; j < in->nfrag; j++) {
		const struct cs_frag *fr = &in->frag[j];

		if (!fr->mem.present)
			continue;
		fprintf(f, "%-*s", w, fr->name);
		for (int k = 0; k < CB_NR_MEM; k++)
			if (cs_mem_counts[k].heading)
				fprintf(f, "  %9.3Lf", cell(fr, k));
		fputc('\n', f);
	}
	mem_model(f, in);
	mem_missing(f, in);
}

void cs_markdown_memory(FILE *f, const struct cs_input *in)
{
	if (!any_memory(in))
		return;
	fputs("\n| fragment |", f);
	for (int k = 0; k < CB_NR_MEM; k++)
		if (cs_mem_counts[k].heading)
			fprintf(f, " %s/op |", cs_mem_counts[k].heading);
	fputs("\n|:--|", f);
	for (int k = 0; k < CB_NR_MEM; k++)
		if (cs_mem_counts[k].heading)
			fputs("--:|", f);
	fputc('\n', f);
	for (size_t j = 0; j < in->nfrag; j++) {
		const struct cs_frag *fr = &in->frag[j];

		if (!fr->mem.present)
			continue;
		fputc('|', f);
		cs_md_cell(f, fr->name, 1);
		for (int k = 0; k < CB_NR_MEM; k++)
			if (cs_mem_counts[k].heading)
				fprintf(f, " %.3Lf |", cell(fr, k));
		fputc('\n', f);
	}
	fputc('\n', f);
	mem_model(f, in);
	mem_missing(f, in);
}
