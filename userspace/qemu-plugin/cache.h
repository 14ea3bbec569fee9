/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache.h - a set-associative cache with LRU replacement, the model
 * behind cbcount.so's L1D, L1I and L2 counts.  Pure logic: no QEMU, no
 * I/O, so tests/cache-test.c proves it natively.
 *
 * What it is and is not (as cachegrind's model): one access a line,
 * write-allocate, no dirty state or write-back, no prefetch, no
 * coherence, no TLB, no timing.  An access that straddles two lines
 * touches both and counts once, a miss when either line missed.
 */
#ifndef CB_CACHE_H
#define CB_CACHE_H

#include <stdbool.h>
#include <stdint.h>

/* ways up to this many: every x86 cache level below the LLC has fewer */
#define CB_CACHE_MAX_WAYS	64

/**
 * struct cb_cache - one level.
 * @size: bytes; @ways: associativity; @line: line bytes (a power of 2).
 * @sets: @size / (@ways x @line), at least 1 (any count, not only 2^n:
 *	a line's set is its line number modulo @sets).
 * @tag: per set, @ways line numbers, the most recently touched first
 *	(UINT64_MAX: empty, at the back): LRU is the order itself, and a set
 *	is one block of memory, searched from its front.
 * @last: the line touched last (UINT64_MAX: none): touched again, it is a
 *	hit that changes no order, found without a look at its set.
 * @sets_pow2: @sets is a power of 2, so a line's set is a mask, not a
 *	division (the plugin touches a line for every access it counts).
 * @accesses, @misses: since cb_cache_init().
 */
struct cb_cache {
	uint64_t size, sets;
	unsigned int ways, line, line_shift;
	uint64_t *tag, last;
	bool sets_pow2;
	uint64_t accesses, misses;
};

/*
 * "SIZE:WAYS:LINE" (SIZE may end in K or M: 32K:8:64) into its three
 * numbers; NULL when it reads, else what is wrong with it.
 */
const char *cb_cache_parse(const char *spec, uint64_t *size,
			   unsigned int *ways, unsigned int *line);
/* 0, or -1 when the geometry cannot be (cb_cache_parse()'s checks) or
 * memory runs out */
int cb_cache_init(struct cb_cache *c, uint64_t size, unsigned int ways,
		  unsigned int line);
void cb_cache_free(struct cb_cache *c);
/* Touches the line holding @addr: true on a hit.  Counts nothing. */
bool cb_cache_touch(struct cb_cache *c, uint64_t addr);
/*
 * One access of @len bytes at @addr (@len >= 1): counts it, and returns
 * true on a hit (every line it spans was present).  Inline: the plugin
 * makes one for each instruction and data access it counts, and most
 * touch the line touched last.
 */
static inline bool cb_cache_access(struct cb_cache *c, uint64_t addr, unsigned int len)
{
	uint64_t first = addr >> c->line_shift;
	uint64_t last = (addr + (len ? len - 1 : 0)) >> c->line_shift;
	bool hit;

	c->accesses++;
	if (first == c->last && last == first)
		return true;
	hit = cb_cache_touch(c, addr);
	if (last != first)
		hit = cb_cache_touch(c, last << c->line_shift) && hit;
	c->misses += !hit;
	return hit;
}

#endif
