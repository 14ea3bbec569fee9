// SPDX-License-Identifier: GPL-2.0
/*
 * sweep.c - Paoloni's resolution table (white paper section 4) for an
 * argument sweep such as loop:dec_jnz/ARG: per argument the minimum, the
 * median, the step from the previous argument (per unit of argument), and
 * the spurious minimums - ensembles whose minimum is below the same
 * ensemble's minimum at the previous, smaller argument, which a monotonic
 * cost cannot give. A user reads the resolution of the machine off it: the
 * smallest step the minimums still resolve in order.
 *
 * Calls fmt.c only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "report.h"

static size_t stem_len(const char *name)
{
	const char *slash = strchr(name, ':') ? strchr(name, '/') : NULL;

	return slash ? (size_t)(slash - name) : 0;
}

static int by_arg(const void *a, const void *b)
{
	const struct cs_frag *x = *(const struct cs_frag *const *)a;
	const struct cs_frag *y = *(const struct cs_frag *const *)b;

	return (x->arg > y->arg) - (x->arg < y->arg);
}

static void one_sweep(FILE *f, const struct cs_frag **s, size_t n, size_t stem)
{
	uint64_t spurious = 0, steps = 0;
	char b1[48], b2[48], b3[48], b4[24];

	qsort(s, n, sizeof(*s), by_arg);
	fprintf(f, "\n# %.*s: resolution (Paoloni), ticks per sample\n", (int)stem, s[0]->name);
	fprintf(f, "%10s  %10s  %12s  %12s  %12s  %8s\n", "arg", "min", "median", "step",
		"step/arg", "spurious");
	for (size_t i = 0; i < n; i++) {
		uint64_t sp = 0;

		if (i) {
			const struct cs_ens *p = &s[i - 1]->ens, *e = &s[i]->ens;

			/* ensemble by ensemble where the counts agree, else against the overall min */
			for (uint64_t j = 0; j < e->count; j++) {
				uint64_t prev = p->count == e->count ? p->min[j] : s[i - 1]->raw.min;

				sp += e->min[j] < prev;
			}
			steps += e->count;
			spurious += sp;
		}
		if (i) {
			long double d = cs_q_ld(s[i]->raw.median) - cs_q_ld(s[i - 1]->raw.median);

			snprintf(b1, sizeof(b1), "%+.1Lf", d);
			snprintf(b2, sizeof(b2), "%.3Lf", d / (long double)(s[i]->arg - s[i - 1]->arg));
		} else {
			snprintf(b1, sizeof(b1), "-");
			snprintf(b2, sizeof(b2), "-");
		}
		snprintf(b4, sizeof(b4), i ? "%llu" : "-", (unsigned long long)sp);
		fprintf(f, "%10llu  %10llu  %12s  %12s  %12s  %8s\n", (unsigned long long)s[i]->arg,
			(unsigned long long)s[i]->raw.min, cs_fmt_q(b3, sizeof(b3), s[i]->raw.median, 1),
			b1, b2, b4);
	}
	fprintf(f, "%.*s: %llu spurious minimum%s in %llu ensemble steps\n", (int)stem, s[0]->name,
		(unsigned long long)spurious, spurious == 1 ? "" : "s", (unsigned long long)steps);
}

/* every fragment with two or more numeric arguments, in each input */
int cs_print_sweeps(const struct cs_opts *o, struct cs_input *in, size_t nin)
{
	int shown = 0;

	for (size_t i = 0; i < nin; i++) {
		const struct cs_frag **s = calloc(in[i].nfrag + 1, sizeof(*s));

		if (!s)
			return -1;
		for (size_t j = 0; j < in[i].nfrag; j++) {
			size_t stem = stem_len(in[i].frag[j].name), n = 0;

			if (!stem || !in[i].frag[j].has_arg)
				continue;
			/* the first of its stem only */
			if (j && stem_len(in[i].frag[j - 1].name) == stem &&
			    !strncmp(in[i].frag[j - 1].name, in[i].frag[j].name, stem))
				continue;
			for (size_t k = j; k < in[i].nfrag; k++)
				if (stem_len(in[i].frag[k].name) == stem && in[i].frag[k].has_arg &&
				    !strncmp(in[i].frag[k].name, in[i].frag[j].name, stem))
					s[n++] = &in[i].frag[k];
			if (n < 2)
				continue;
			if (!shown++)
				fprintf(o->out, "# %s\n", in[i].path);
			one_sweep(o->out, s, n, stem);
		}
		free(s);
	}
	return shown;
}
