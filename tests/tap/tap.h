/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the C test harness, shaped like the kernel's kselftest_harness.h:
 * a TEST registers itself (no second list of cases), its EXPECTs say what
 * was expected and what came, and the case goes on to its end.
 *
 *	TEST(median_of_even_n) { ... EXPECT_EQ_U64(...); ... }
 *	int main(void) { return tap_main(); }
 *
 * tap_main() runs every TEST of the program, in the order of its files'
 * names and lines, and prints TAP ("ok 3 - median_of_even_n", the plan
 * last); tests/tap/count counts it.  Table-driven checks that are not a
 * TEST each print one point with CHECK(name, cond, why-format, ...), which
 * counts in the same stream (call tap_main() after them, or tap_done()
 * when there is no TEST).
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct tap_case {
	const char *name, *file;
	int line;
	void (*fn)(int *failed);
	struct tap_case *next;
};

/* one list and one count for all of a program's files (weak: merged) */
__attribute__((weak)) struct tap_case *tap_cases;
__attribute__((weak)) unsigned int tap_points, tap_fails;

/* in file and line order, whatever order the constructors run in */
static inline void tap_register(struct tap_case *c)
{
	struct tap_case **p = &tap_cases;

	while (*p && (strcmp((*p)->file, c->file) < 0 ||
		      (!strcmp((*p)->file, c->file) && (*p)->line < c->line)))
		p = &(*p)->next;
	c->next = *p;
	*p = c;
}

#define TEST(name_)							\
	static void test_##name_(int *_failed);				\
	static struct tap_case tap_case_##name_ = {			\
		.name = #name_, .file = __FILE__, .line = __LINE__,	\
		.fn = test_##name_,					\
	};								\
	__attribute__((constructor)) static void tap_add_##name_(void)	\
	{								\
		tap_register(&tap_case_##name_);			\
	}								\
	static void test_##name_(int *_failed)

/*
 * One point: "ok N - NAME" or "not ok N - NAME", NAME from a format, its
 * '#' escaped (a bare one would start a directive: "# TODO" turns a
 * failure into a pass) and its newlines folded to '|'.
 */
static inline void tap_line_(int ok, const char *name, const char *skip)
{
	tap_points++;
	tap_fails += !ok;
	printf("%s %u - ", ok ? "ok" : "not ok", tap_points);
	for (const char *c = name; *c; c++)
		if (*c == '#')
			fputs("\\#", stdout);
		else
			putchar(*c == '\n' ? '|' : *c);
	if (skip)
		printf(" # SKIP %s", skip);
	putchar('\n');
	fflush(stdout);
}

static inline __attribute__((format(printf, 2, 3)))
void tap_point(int ok, const char *fmt, ...)
{
	char name[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	tap_line_(ok, name, NULL);
}

/* A point not taken here, and why (one line, no '#'): "ok N - NAME # SKIP WHY". */
static inline void tap_skip(const char *name, const char *why)
{
	tap_line_(1, name, why);
}

#define CHECK(name, cond, ...) do {					\
	int _ok = !!(cond);						\
									\
	tap_point(_ok, "%s", name);					\
	if (!_ok) {							\
		printf("#   ");					\
		printf(__VA_ARGS__);					\
		putchar('\n');						\
	}								\
} while (0)

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

/* the plan, last; the exit status: 1 on a failure */
static inline int tap_done(void)
{
	printf("1..%u\n", tap_points);
	return tap_fails ? 1 : 0;
}

static inline int tap_main(void)
{
	for (struct tap_case *c = tap_cases; c; c = c->next) {
		int failed = 0;

		c->fn(&failed);
		tap_point(!failed, "%s", c->name);
	}
	return tap_done();
}

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Marsaglia's xorshift64: the same pseudo-random numbers on every run */
static uint64_t tap_rng = 88172645463325252ull;
static inline uint64_t xorshift(void)
{
	tap_rng ^= tap_rng << 13;
	tap_rng ^= tap_rng >> 7;
	tap_rng ^= tap_rng << 17;
	return tap_rng;
}

#endif /* TAP_H */
