/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counts.h - where samples go while they are read (counts.c): the sample
 * array, or a value -> count table (a tally) that becomes a distribution
 * as a sorted table, and the sort.
 *
 * Above model.h, and includes only it.  The parser (numparse.c) puts each
 * sample with cs_samples_put(), inline: it runs once a sample.
 */
#ifndef CS_COUNTS_H
#define CS_COUNTS_H

#include "model.h"

/* A value -> count hash table filled while reading. */
struct cs_slot {
	uint64_t key, cnt;	/* cnt 0: empty */
};

struct cs_tally {
	struct cs_slot *slot;
	size_t mask;		/* slots - 1 */
	unsigned int shift;	/* 64 - log2(slots) */
	size_t used;
};

/*
 * A distribution as a sorted table: v[i] ascending, c[i] samples equal to
 * v[i], rank[i] samples below it. c and rank NULL: v is every sample
 * sorted, each counting once (too many distinct values to count).
 */
struct cs_counts {
	const uint64_t *v, *c, *rank;
	size_t len;		/* entries */
	uint64_t n;		/* samples */
	uint64_t *mem;		/* v, c and rank, when counted */
	struct cs_samples own;	/* v, when not */
};

#define CS_TALLY_MUL 0x9e3779b97f4a7c15ull	/* Fibonacci hashing: 2^64 / golden ratio */
int cs_tally_init(struct cs_tally *t);
void cs_tally_free(struct cs_tally *t);
int cs_tally_insert(struct cs_samples *s, uint64_t v);
int cs_counts_take(struct cs_samples *s, struct cs_counts *out);
int cs_counts_of(const uint64_t *v, size_t n, struct cs_counts *out);
size_t cs_counts_find(const struct cs_counts *c, uint64_t k);
uint64_t cs_counts_at(const struct cs_counts *c, uint64_t k);
void cs_counts_free(struct cs_counts *c);
void cs_sort(uint64_t *a, size_t n);
/* the sample array: 0, or -1 out of memory */
int cs_samples_grow(struct cs_samples *s);
int cs_samples_push(struct cs_samples *s, uint64_t v);
void cs_samples_free(struct cs_samples *s);

/*
 * One more sample of a tallied value: 0 when v was in the table (counted),
 * 1 when it is new (cs_tally_insert() counts it).
 */
static inline int cs_tally_add(struct cs_tally *t, uint64_t v)
{
	size_t i = (size_t)((v * CS_TALLY_MUL) >> t->shift);

	for (;; i = (i + 1) & t->mask) {
		struct cs_slot *sl = &t->slot[i];

		if (!sl->cnt)
			return 1;
		if (sl->key == v) {
			sl->cnt++;
			return 0;
		}
	}
}

/* one sample: counted when s tallies, else stored; 0, or -1 out of memory */
static inline int cs_samples_put(struct cs_samples *s, uint64_t v)
{
	if (s->tally) {
		if (cs_tally_add(s->tally, v))
			return cs_tally_insert(s, v);
		s->n++;
		return 0;
	}
	if (s->n == s->cap && cs_samples_grow(s))
		return -1;
	s->v[s->n++] = v;
	return 0;
}

#endif /* CS_COUNTS_H */
