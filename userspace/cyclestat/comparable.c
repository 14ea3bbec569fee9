// SPDX-License-Identifier: GPL-2.0
/*
 * comparable.c - compare's check that its runs are comparable: the same
 * method, kernel, CPU, clock (to 0.01 %), pinned CPU, sizes and argument
 * lists on both sides, or a warning that names the difference (--strict:
 * an error).
 *
 * Calls numparse.c (info lookup) only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "read.h"
#include "compare.h"

static const enum cb_info_key top_keys[] = {
	CB_INFO_method_used, CB_INFO_kernel, CB_INFO_model_name, CB_INFO_tsc_khz,
	CB_INFO_hypervisor, CB_INFO_mode, CB_INFO_cpu, CB_INFO_samples, CB_INFO_ensembles,
};

/*
 * Two values of a key that mean the same: equal, or for tsc_khz within
 * 0.01 % (the kernel calibrates the TSC at each boot: 2596120 and 2596121
 * kHz are one clock).
 */
static int same_value(enum cb_info_key key, const char *a, const char *b)
{
	char *ea, *eb;
	double x, y;

	if (!strcmp(a, b))
		return 1;
	if (key != CB_INFO_tsc_khz)
		return 0;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	return ea != a && eb != b && !*ea && !*eb && x > 0 && y > 0 &&
	       fabs(x - y) <= 1e-4 * (x > y ? x : y);
}

/*
 * Warn about (or, with --strict, refuse) runs that are not comparable: the
 * info keys above differ across the trees of both sides, or a swept
 * fragment has a different argument list. Returns how many differ.
 */
int cs_cmp_mismatches(const struct cs_opts *o, const struct side *s)
{
	int found = 0;

	for (size_t k = 0; k < sizeof(top_keys) / sizeof(top_keys[0]); k++) {
		const char *first = NULL, *fpath = NULL;

		for (int sd = 0; sd < 2; sd++)
			for (size_t i = 0; i < s[sd].n; i++) {
				const char *v = cs_info_get(&s[sd].in[i].info, top_keys[k]);

				if (!v)
					continue;
				if (!first) {
					first = v;
					fpath = s[sd].path[i];
				} else if (!same_value(top_keys[k], first, v) && found >= 0) {
					found++;
					if (!o->quiet || o->strict)
						fprintf(stderr, "cyclestat: %s: %s '%s' in %s but '%s' in %s: these runs are not comparable%s\n",
							o->strict ? "error" : "warning", cs_info_name(top_keys[k]), first,
							fpath, v, s[sd].path[i],
							o->strict ? " (--strict)" : "; --strict refuses them");
					first = v;
					fpath = s[sd].path[i];
					sd = 2;
					break;
				}
			}
	}
	/* the argument list of each swept fragment */
	for (size_t i = 0; i < s[0].in[0].nfrag; i++) {
		const struct cs_frag *fr = &s[0].in[0].frag[i];
		const char *slash = strchr(fr->name, '/');

		if (!slash || (i && !strncmp(s[0].in[0].frag[i - 1].name, fr->name,
					    (size_t)(slash - fr->name + 1))))
			continue;
		for (size_t t = 0; t < s[1].n; t++) {
			size_t cb = 0, cn = 0;

			for (size_t j = 0; j < s[0].in[0].nfrag; j++)
				cb += !strncmp(s[0].in[0].frag[j].name, fr->name,
					       (size_t)(slash - fr->name + 1));
			for (size_t j = 0; j < s[1].in[t].nfrag; j++)
				cn += !strncmp(s[1].in[t].frag[j].name, fr->name,
					       (size_t)(slash - fr->name + 1));
			if (cb != cn) {
				found++;
				if (!o->quiet || o->strict)
					fprintf(stderr, "cyclestat: %s: the argument list of %.*s differs: %zu arguments in %s, %zu in %s\n",
						o->strict ? "error" : "warning",
						(int)(slash - fr->name), fr->name, cb, s[0].path[0], cn,
						s[1].path[t]);
				break;
			}
		}
	}
	return found;
}
