// SPDX-License-Identifier: GPL-2.0
/*
 * counts.c - a distribution as a sorted value -> count table.
 *
 * Cycle counts are small integers with few distinct values (a 10^7-sample
 * lognormal run has about 1300), and every figure cyclestat prints depends
 * on the samples only through their sorted multiset. So while a file is
 * read, each value is counted in an open-addressing hash table (a tally)
 * instead of stored, and when it is done the table is sorted once: memory
 * grows with the distinct values, not with the samples.
 *
 * The bound: a table slot costs 16 bytes where a stored sample costs 8, so
 * when the table would grow past 2^16 slots (1 MiB) and hold more than one
 * slot per two samples read so far, counting no longer saves memory: the
 * tally spills its samples into the ordinary sample array, and the table is
 * that array sorted (struct cs_counts with c NULL: every entry counts once).
 * The figures read both forms the same way (stats.c).
 *
 * Samples not counted are stored in one anonymous mapping grown with
 * mremap() (the sample array): growing never copies, and pages past the
 * last sample are never touched, so resident memory stays at 8 bytes per
 * sample however large the reservation. Sanitizer builds
 * (-DCS_USE_MALLOC) use realloc so ASan sees overruns.
 *
 * Also the sort every figure's table is made with (cs_sort()).  The
 * bottom layer: it calls nothing else of cyclestat's; the parser puts
 * samples here (counts.h), stats.c reads the tables it makes.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "counts.h"

#define CS_TALLY_SLOTS0 (1u << 10)
#define CS_TALLY_SPILL (1u << 16)

/* ---- the sample array ---- */

void cs_samples_free(struct cs_samples *s)
{
#ifdef CS_USE_MALLOC
	free(s->v);
#else
	if (s->v)
		munmap(s->v, s->cap * sizeof(*s->v));
#endif
	s->v = NULL;
	s->n = s->cap = 0;
}

/* room for more samples: twice the array (a window: the same, emptied) */
int cs_samples_grow(struct cs_samples *s)
{
	size_t cap = s->cap ? s->cap * 2 : 1u << 14;
	void *p;

	if (s->window && s->v) {
		s->dropped += s->n;
		s->n = 0;
		return 0;
	}
	if (cap > SIZE_MAX / 2 / sizeof(*s->v))
		return -1;
#ifdef CS_USE_MALLOC
	p = realloc(s->v, cap * sizeof(*s->v));
	if (!p)
		return -1;
#else
	if (!s->v)
		p = mmap(NULL, cap * sizeof(*s->v), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else
		p = mremap(s->v, s->cap * sizeof(*s->v), cap * sizeof(*s->v),
			   MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
		return -1;
	/* 2 MiB pages: a tenth of the page faults, at most 2 MiB more resident */
	madvise(p, cap * sizeof(*s->v), MADV_HUGEPAGE);
#endif
	s->v = p;
	s->cap = cap;
	return 0;
}

int cs_samples_push(struct cs_samples *s, uint64_t v)
{
	return cs_samples_put(s, v);
}

/* ---- the tally ---- */

int cs_tally_init(struct cs_tally *t)
{
	memset(t, 0, sizeof(*t));
	t->slot = calloc(CS_TALLY_SLOTS0, sizeof(*t->slot));
	if (!t->slot)
		return -1;
	t->mask = CS_TALLY_SLOTS0 - 1;
	t->shift = 64 - (unsigned int)__builtin_ctz(CS_TALLY_SLOTS0);
	return 0;
}

void cs_tally_free(struct cs_tally *t)
{
	free(t->slot);
	t->slot = NULL;
	t->used = 0;
}

/* the slot of v: where it is, or the empty one where it belongs */
static struct cs_slot *find(const struct cs_tally *t, uint64_t v)
{
	size_t i = (size_t)((v * CS_TALLY_MUL) >> t->shift);

	while (t->slot[i].cnt && t->slot[i].key != v)
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

static int rehash(struct cs_tally *t)
{
	struct cs_tally n = *t;
	size_t cap = (t->mask + 1) * 2;

	n.slot = calloc(cap, sizeof(*n.slot));
	if (!n.slot)
		return -1;
	n.mask = cap - 1;
	n.shift = t->shift - 1;
	for (size_t i = 0; i <= t->mask; i++)
		if (t->slot[i].cnt)
			*find(&n, t->slot[i].key) = t->slot[i];
	free(t->slot);
	*t = n;
	return 0;
}

/*
 * Too many distinct values to be worth counting: every sample so far into
 * s's array (their order is not needed: only figures of the multiset are
 * taken from a tally), and s stores from now on.
 */
static int spill(struct cs_samples *s)
{
	struct cs_tally *t = s->tally;
	size_t n = s->n;

	s->tally = NULL;
	s->n = 0;
	for (size_t i = 0; i <= t->mask; i++)
		for (uint64_t k = t->slot[i].cnt; k; k--)
			if (cs_samples_push(s, t->slot[i].key))
				return -1;
	cs_tally_free(t);
	return s->n == n ? 0 : -1;
}

/* v is not in the table yet (cs_tally_add said so): count it there, or spill */
int cs_tally_insert(struct cs_samples *s, uint64_t v)
{
	struct cs_tally *t = s->tally;
	struct cs_slot *sl;

	if (2 * (t->used + 1) > t->mask + 1) {
		size_t cap = (t->mask + 1) * 2;

		if (cap > CS_TALLY_SPILL && cap > s->n / 2) {
			if (spill(s))
				return -1;
			return cs_samples_push(s, v);
		}
		if (rehash(t))
			return -1;
	}
	sl = find(t, v);
	sl->key = v;
	sl->cnt = 1;
	t->used++;
	s->n++;
	return 0;
}

void cs_counts_free(struct cs_counts *c)
{
	free(c->mem);
	cs_samples_free(&c->own);
	memset(c, 0, sizeof(*c));
}

/* the table of a tally: its values sorted, each with its count and rank */
static int from_tally(struct cs_tally *t, uint64_t n, struct cs_counts *out)
{
	size_t d = 0;
	uint64_t *v, *c, *r, rank = 0;

	out->mem = malloc(3 * (t->used ? t->used : 1) * sizeof(*out->mem));
	if (!out->mem)
		return -1;
	v = out->mem;
	c = v + t->used;
	r = c + t->used;
	for (size_t i = 0; i <= t->mask; i++)
		if (t->slot[i].cnt)
			v[d++] = t->slot[i].key;
	cs_sort(v, d);
	for (size_t i = 0; i < d; i++) {
		c[i] = find(t, v[i])->cnt;
		r[i] = rank;
		rank += c[i];
	}
	out->v = v;
	out->c = c;
	out->rank = r;
	out->len = d;
	out->n = n;
	return 0;
}

/*
 * The table of s's samples; s is taken over (and emptied) either way. A
 * tally becomes its sorted table; stored samples are counted first when
 * that saves memory, else sorted in place and kept as they are.
 */
int cs_counts_take(struct cs_samples *s, struct cs_counts *out)
{
	struct cs_tally t;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!s->tally && s->n) {
		struct cs_samples c = { .tally = &t };

		if (cs_tally_init(&t))
			return -1;
		for (size_t i = 0; i < s->n && c.tally; i++)
			if (cs_samples_push(&c, s->v[i])) {
				cs_samples_free(&c);
				cs_tally_free(&t);
				return -1;
			}
		if (c.tally) {
			cs_samples_free(s);
			s->tally = &t;
			s->n = c.n;
		} else {
			/* spilled: the copy is not wanted, s sorted in place is */
			cs_samples_free(&c);
		}
	}
	if (!s->tally) {	/* a spilled tally: the samples, sorted */
		cs_sort(s->v, s->n);
		out->own = *s;
		out->v = s->v;
		out->len = out->n = s->n;
		memset(s, 0, sizeof(*s));
		return 0;
	}
	ret = from_tally(s->tally, s->n, out);
	cs_tally_free(s->tally);
	memset(s, 0, sizeof(*s));
	return ret;
}

/* the table of n samples in any order, v left as it is (for tests and tools) */
int cs_counts_of(const uint64_t *v, size_t n, struct cs_counts *out)
{
	struct cs_samples s = { 0 };

	for (size_t i = 0; i < n; i++)
		if (cs_samples_push(&s, v[i])) {
			cs_samples_free(&s);
			return -1;
		}
	return cs_counts_take(&s, out);
}

/* the entry that holds the sample of rank k (0-based), k < c->n */
size_t cs_counts_find(const struct cs_counts *c, uint64_t k)
{
	size_t lo = 0, hi = c->len;

	if (!c->c)
		return (size_t)k;
	/* the last entry whose rank is <= k */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->rank[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* the sample of rank k, 0-based */
uint64_t cs_counts_at(const struct cs_counts *c, uint64_t k)
{
	return c->v[cs_counts_find(c, k)];
}

/* ---- sorting: in-place MSD radix sort (American flag sort) ---- */

static void insertion_sort(uint64_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t v = a[i];
		size_t j = i;

		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

static void radix_sort(uint64_t *a, size_t n, unsigned int shift)
{
	size_t count[256] = { 0 }, next[256], end[256];
	size_t i, pos;
	unsigned int b;

	for (;;) {
		if (n <= 48) {
			insertion_sort(a, n);
			return;
		}
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(a[i] >> shift) & 0xff]++;
		/* all in one bucket: this byte sorts nothing, try the next */
		if (count[(a[0] >> shift) & 0xff] != n)
			break;
		if (shift == 0)
			return;
		shift -= 8;
	}
	for (pos = 0, b = 0; b < 256; b++) {
		next[b] = pos;
		pos += count[b];
		end[b] = pos;
	}
	for (b = 0; b < 256; b++) {
		while (next[b] < end[b]) {
			uint64_t v = a[next[b]];
			unsigned int d = (v >> shift) & 0xff;

			/* carry v to its bucket, picking up what was there */
			while (d != b) {
				uint64_t t = a[next[d]];

				a[next[d]++] = v;
				v = t;
				d = (v >> shift) & 0xff;
			}
			a[next[b]++] = v;
		}
	}
	if (shift == 0)
		return;
	for (pos = 0, b = 0; b < 256; b++) {
		if (count[b] > 1)
			radix_sort(a + pos, count[b], shift - 8);
		pos += count[b];
	}
}

/*
 * Cycle counts mostly span a few thousand values: count them (at most
 * 4 MiB of counters) and write the array back, in two linear passes.
 */
#define CS_COUNT_MAX (1u << 20)

static int counting_sort(uint64_t *a, size_t n, uint64_t lo, uint64_t hi)
{
	uint64_t range;
	uint32_t *count;
	size_t i, o = 0;

	/* hi - lo first: hi - lo + 1 wraps to 0 for the full 64-bit range */
	if (hi - lo >= CS_COUNT_MAX || hi - lo >= n / 4 || n > UINT32_MAX)
		return -1;
	range = hi - lo + 1;
	count = calloc(range, sizeof(*count));
	if (!count)
		return -1;
	for (i = 0; i < n; i++)
		count[a[i] - lo]++;
	for (uint64_t v = 0; v < range; v++)
		for (uint32_t k = count[v]; k; k--)
			a[o++] = lo + v;
	free(count);
	return 0;
}

void cs_sort(uint64_t *a, size_t n)
{
	uint64_t lo, hi, diff;

	if (n < 2)
		return;
	lo = hi = a[0];
	for (size_t i = 1; i < n; i++) {
		if (a[i] < lo)
			lo = a[i];
		if (a[i] > hi)
			hi = a[i];
	}
	diff = lo ^ hi;
	if (!diff || !counting_sort(a, n, lo, hi))
		return;
	/* start at the highest byte in which the values differ */
	radix_sort(a, n, (unsigned int)(63 - __builtin_clzll(diff)) & ~7u);
}
