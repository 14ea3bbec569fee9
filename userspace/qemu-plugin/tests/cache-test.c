// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model of cbcount.so (cache.c), natively: geometry, hits and
 * misses, LRU order, sets, straddling accesses, and the sweeps whose
 * answers are known exactly.
 */
#include <stdlib.h>

#include "../cache.h"
#include "../../../tests/tap/tap.h"

/* a model of SIZE:WAYS:LINE, or the test fails */
static struct cb_cache make(uint64_t size, unsigned int ways, unsigned int line)
{
	struct cb_cache c;

	if (cb_cache_init(&c, size, ways, line))
		abort();
	return c;
}

/* misses of @passes sweeps over @bytes from @base, a line at a time */
static uint64_t sweep(struct cb_cache *c, uint64_t base, uint64_t bytes, int passes)
{
	uint64_t m0 = c->misses;

	for (int p = 0; p < passes; p++)
		for (uint64_t a = 0; a < bytes; a += c->line)
			cb_cache_access(c, base + a, 8);
	return c->misses - m0;
}

/* cb_cache_parse()'s complaint, or "(ok)" */
static const char *parsed(const char *spec, uint64_t *s, unsigned int *w, unsigned int *l)
{
	const char *why = cb_cache_parse(spec, s, w, l);

	return why ? why : "(ok)";
}

TEST(parse_reads_size_ways_line)
{
	uint64_t s;
	unsigned int w, l;

	EXPECT_STREQ(parsed("32K:8:64", &s, &w, &l), "(ok)");
	EXPECT_EQ_U64(s, 32768);
	EXPECT_EQ_U64(w, 8);
	EXPECT_EQ_U64(l, 64);
	EXPECT_STREQ(parsed("1M:16:64", &s, &w, &l), "(ok)");
	EXPECT_EQ_U64(s, 1 << 20);
	EXPECT_STREQ(parsed("1310720:10:64", &s, &w, &l), "(ok)");
	EXPECT_EQ_U64(s / w / l, 2048);
}

TEST(parse_refuses_what_cannot_be_a_cache)
{
	uint64_t s;
	unsigned int w, l;
	const char *bad[] = { "", "32K", "32K:8", "32K:8:64:1", "32K:0:64", "32K:8:48",
			      "32K:65:64", "1000:8:64", "0:8:64", "32G:8:64x", "-1:8:64",
			      "32K: 8:64" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!cb_cache_parse(bad[i], &s, &w, &l))
			FAIL("'%s' was accepted", bad[i]);
}

TEST(first_touch_of_a_line_misses_then_hits)
{
	struct cb_cache c = make(1024, 2, 64);

	EXPECT_EQ_U64(cb_cache_access(&c, 0x1000, 8), 0);
	EXPECT_EQ_U64(cb_cache_access(&c, 0x1000, 8), 1);
	EXPECT_EQ_U64(cb_cache_access(&c, 0x1038, 8), 1);	/* same line */
	EXPECT_EQ_U64(cb_cache_access(&c, 0x1040, 8), 0);	/* the next */
	EXPECT_EQ_U64(c.accesses, 4);
	EXPECT_EQ_U64(c.misses, 2);
	cb_cache_free(&c);
}

TEST(lru_evicts_the_least_recently_used_way)
{
	/* 2 ways, 8 sets of 64 B: lines 0, 8, 16 share set 0 */
	struct cb_cache c = make(1024, 2, 64);
	uint64_t l0 = 0, l8 = 8 * 64, l16 = 16 * 64;

	cb_cache_access(&c, l0, 8);
	cb_cache_access(&c, l8, 8);
	cb_cache_access(&c, l0, 8);			/* l8 is now the older */
	EXPECT_EQ_U64(cb_cache_access(&c, l16, 8), 0);	/* evicts l8 */
	EXPECT_EQ_U64(cb_cache_access(&c, l0, 8), 1);
	EXPECT_EQ_U64(cb_cache_access(&c, l8, 8), 0);
	cb_cache_free(&c);
}

TEST(lines_of_other_sets_never_evict)
{
	struct cb_cache c = make(1024, 2, 64);

	cb_cache_access(&c, 0, 8);
	for (uint64_t s = 1; s < 8; s++)
		for (int k = 0; k < 4; k++)
			cb_cache_access(&c, (s + 8 * k) * 64, 8);
	EXPECT_EQ_U64(cb_cache_access(&c, 0, 8), 1);
	cb_cache_free(&c);
}

TEST(a_straddling_access_counts_once_and_misses_on_either_line)
{
	struct cb_cache c = make(1024, 2, 64);

	cb_cache_access(&c, 0, 8);
	EXPECT_EQ_U64(cb_cache_access(&c, 60, 8), 0);	/* line 1 is new */
	EXPECT_EQ_U64(cb_cache_access(&c, 60, 8), 1);
	EXPECT_EQ_U64(c.accesses, 3);
	EXPECT_EQ_U64(c.misses, 2);
	cb_cache_free(&c);
}

TEST(a_sweep_that_fits_misses_only_cold)
{
	struct cb_cache c = make(32 << 10, 8, 64);

	EXPECT_EQ_U64(sweep(&c, 0x100000, 16 << 10, 1), 256);
	EXPECT_EQ_U64(sweep(&c, 0x100000, 16 << 10, 10), 0);
	EXPECT_EQ_U64(sweep(&c, 0x100000, 32 << 10, 10) - 256, 0);	/* exactly full */
	cb_cache_free(&c);
}

TEST(a_cyclic_sweep_past_the_size_misses_every_time_under_lru)
{
	struct cb_cache c = make(32 << 10, 8, 64);

	sweep(&c, 0, 64 << 10, 1);
	EXPECT_EQ_U64(sweep(&c, 0, 64 << 10, 10), 10 * 1024);
	/* one way too many in every set is enough */
	sweep(&c, 0, 36 << 10, 1);
	EXPECT_EQ_U64(sweep(&c, 0, 36 << 10, 10), 10 * 576);
	cb_cache_free(&c);
}

TEST(sets_need_not_be_a_power_of_two)
{
	/* 1.25 MiB, 10 ways: 2048 sets; and 3 sets of 4 ways */
	struct cb_cache c = make(1310720, 10, 64), d = make(3 * 4 * 64, 4, 64);
	struct cb_cache e = make(3 * 4 * 64, 4, 64);

	EXPECT_EQ_U64(c.sets, 2048);
	EXPECT_EQ_U64(sweep(&c, 0, 1310720, 3) - 1310720 / 64, 0);
	EXPECT_EQ_U64(d.sets, 3);
	EXPECT_EQ_U64(sweep(&d, 0, 12 * 64, 5) - 12, 0);
	/* 13 lines: set 0 holds 5 (lines 0, 3, .. 12) in 4 ways and misses
	 * on each of them every pass; sets 1 and 2 only cold */
	EXPECT_EQ_U64(sweep(&e, 0, 13 * 64, 5), 13 + 4 * 5);
	cb_cache_free(&c);
	cb_cache_free(&d);
	cb_cache_free(&e);
}

TEST(a_direct_mapped_cache_thrashes_on_two_aliases)
{
	struct cb_cache c = make(4096, 1, 64);

	for (int i = 0; i < 10; i++) {
		cb_cache_access(&c, 0, 8);
		cb_cache_access(&c, 4096, 8);
	}
	EXPECT_EQ_U64(c.misses, 20);
	cb_cache_free(&c);
}

/*
 * LRU by its definition: each way stamped with the time of its last
 * touch, the oldest (or an empty one) the victim.  The model keeps each
 * set in recency order instead; the two must agree on every access.
 */
struct stamped {
	uint64_t tag[4 * 3], when[4 * 3], clock;
};

static bool stamped_touch(struct stamped *s, uint64_t ln)
{
	uint64_t *tag = s->tag + ln % 3 * 4, *when = s->when + ln % 3 * 4;
	unsigned int victim = 0;

	s->clock++;
	for (unsigned int w = 0; w < 4; w++) {
		if (when[w] && tag[w] == ln) {
			when[w] = s->clock;
			return true;
		}
		if (when[w] < when[victim])
			victim = w;
	}
	tag[victim] = ln;
	when[victim] = s->clock;
	return false;
}

TEST(recency_order_is_lru_by_timestamps_on_a_random_trace)
{
	/* 3 sets of 4 ways, 40 lines, mostly reused: every kind of hit
	 * and eviction, and straddling accesses */
	struct cb_cache c = make(3 * 4 * 64, 4, 64);
	struct stamped s = { .clock = 0 };
	unsigned int differ = 0, misses = 0;

	srand(52);
	for (int i = 0; i < 200000; i++) {
		uint64_t addr = (uint64_t)(rand() % (40 * 64));
		unsigned int len = rand() % 4 ? 8 : 64;
		uint64_t first = addr / 64, last = (addr + len - 1) / 64;
		bool hit = stamped_touch(&s, first);

		if (last != first)
			hit = stamped_touch(&s, last) && hit;
		misses += !hit;
		differ += cb_cache_access(&c, addr, len) != hit;
	}
	EXPECT_EQ_U64(differ, 0);
	EXPECT_EQ_U64(c.misses, misses);
	cb_cache_free(&c);
}

int main(void)
{
	return tap_main();
}
