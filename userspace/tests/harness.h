/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - a kselftest-shaped harness for cyclestat's unit tests.
 *
 *	TEST(median_of_even_n) { ... EXPECT_EQ_U64(...); ... }
 *	static const struct test tests[] = { CASE(median_of_even_n), ... };
 *	int main(void) { return run_tests(tests, ARRAY_SIZE(tests)); }
 *
 * Prints TAP ("ok 3 - unit:median_of_even_n"); a failing EXPECT prints what
 * was expected and what came, and the case goes on to its end.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Marsaglia's xorshift64: the same pseudo-random numbers on every run. */
static uint64_t rng = 88172645463325252ull;
static inline uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct test {
	const char *name;
	void (*fn)(int *failed);
};

#define TEST(name) static void test_##name(int *_failed)
#define CASE(fn_) { .name = #fn_, .fn = test_##fn_ }
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define FAIL(fmt, ...) do {						\
	printf("#   %s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__);	\
	*_failed = 1;							\
} while (0)

#define EXPECT_TRUE(c) do {						\
	if (!(c))							\
		FAIL("expected %s", #c);				\
} while (0)

#define EXPECT_EQ_U64(got, want) do {					\
	unsigned long long _g = (got), _w = (want);			\
	if (_g != _w)							\
		FAIL("%s: expected %llu, got %llu", #got, _w, _g);	\
} while (0)

#define EXPECT_STREQ(got, want) do {					\
	const char *_g = (got), *_w = (want);				\
	if (strcmp(_g, _w))						\
		FAIL("%s: expected '%s', got '%s'", #got, _w, _g);	\
} while (0)

#define EXPECT_CONTAINS(got, want) do {					\
	const char *_g = (got), *_w = (want);				\
	if (!strstr(_g, _w))						\
		FAIL("%s: expected to contain '%s', got '%s'", #got, _w, _g); \
} while (0)

/* numbered on from the last call, so several tables make one TAP stream */
static inline int run_tests(const struct test *t, size_t n)
{
	static size_t done;
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		int failed = 0;

		t[i].fn(&failed);
		printf("%s %zu - unit:%s\n", failed ? "not ok" : "ok", ++done, t[i].name);
		fflush(stdout);
		bad += failed;
	}
	return bad ? 1 : 0;
}

#endif /* HARNESS_H */
