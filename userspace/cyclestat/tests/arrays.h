/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arrays.h - the figures of a plain array of samples, for the unit tests
 * and the fuzzer, which check them against what they compute themselves.
 * cyclestat works on value -> count tables (struct cs_counts); an array
 * in order is such a table with each sample its own entry.
 */
#ifndef CS_TESTS_ARRAYS_H
#define CS_TESTS_ARRAYS_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* n sorted samples as a table: each its own entry, counted once */
static inline struct cs_counts cs_array_counts(const uint64_t *sorted, size_t n)
{
	return (struct cs_counts){ .v = sorted, .len = n, .n = n };
}

/* v in any order, n >= 1; sorts v */
static inline void cs_figures(uint64_t *v, size_t n, struct cs_figs *f)
{
	struct cs_counts c = cs_array_counts(v, n);

	cs_sort(v, n);
	cs_figures_of(&c, f);
}

/* the histogram of n sorted samples, bins of any width (a step of 1) */
static inline void cs_histogram(const uint64_t *sorted, size_t n, const struct cs_figs *f,
				struct cs_hist *h)
{
	struct cs_counts c = cs_array_counts(sorted, n);

	cs_histogram_of(&c, f, 1, h);
}

#endif
