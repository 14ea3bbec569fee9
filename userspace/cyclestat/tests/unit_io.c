// SPDX-License-Identifier: GPL-2.0
/*
 * unit_io.c - hand-computed cases for what goes in and out: the parser's
 * errors, the info parser, the t quantiles and Hodges-Lehmann interval,
 * the machine formats
 * (shortest round-trip doubles) and safe result names. tests/tap/tap.h runs
 * them after unit_figures.c's (by file name).
 */
#include <math.h>
#include <stdlib.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"
#include "tap.h"
#include "arrays.h"

#define TOP 18446744073709551615ull

/* parse TEXT in chunks of CHUNK bytes; returns the error message or "" */
static const char *parse(const char *text, size_t chunk, struct cs_samples *s,
			 unsigned long long *line)
{
	static struct cs_err err;
	struct cs_parser p;
	size_t len = strlen(text);

	memset(&err, 0, sizeof(err));
	memset(s, 0, sizeof(*s));
	cs_parser_init(&p);
	for (size_t o = 0; o < len; o += chunk) {
		size_t l = len - o < chunk ? len - o : chunk;
		/* an exact-size copy, so ASan sees any read past the chunk */
		char *b = malloc(l);
		int r;

		memcpy(b, text + o, l);
		r = cs_parser_feed(&p, b, l, s, &err);
		free(b);
		if (r)
			goto out;
	}
	cs_parser_end(&p, s, &err);
out:
	*line = err.line;
	return err.msg;
}

TEST(parser_reads_ministat_format)
{
	const char *text = "# header\n  7  # seven\n\n8\r\n\t9\n18446744073709551615";
	struct cs_samples s;
	unsigned long long line;

	/* the same result however the input is split */
	for (size_t chunk = 1; chunk <= strlen(text); chunk++) {
		const char *msg = parse(text, chunk, &s, &line);

		if (*msg || s.n != 4 || s.v[0] != 7 || s.v[1] != 8 || s.v[2] != 9 || s.v[3] != TOP)
			FAIL("chunk %zu: '%s', %zu samples", chunk, msg, s.n);
		cs_samples_free(&s);
	}
}

TEST(parser_fast_path_agrees_with_the_slow_path)
{
	/* long inputs take the whole-line fast path; every chunking must agree */
	static const size_t chunks[] = { 1, 7, 24, 25, 26, 100, 4096, 1 << 20 };
	char *text = malloc(200000), *o = text;
	uint64_t want[5000];
	struct cs_samples s;
	unsigned long long line;

	for (size_t i = 0; i < 5000; i++) {
		want[i] = i % 7 == 0 ? TOP - i : i % 5 == 0 ? xorshift() : xorshift() % 1000;
		o += sprintf(o, i % 11 == 0 ? "  %llu # c\n" : "%llu\n", (unsigned long long)want[i]);
	}
	for (size_t k = 0; k < ARRAY_SIZE(chunks); k++) {
		const char *msg = parse(text, chunks[k], &s, &line);

		if (*msg || s.n != 5000 || memcmp(s.v, want, sizeof(want)))
			FAIL("chunk %zu: '%s', %zu samples", chunks[k], msg, s.n);
		cs_samples_free(&s);
	}
	free(text);
}

TEST(parser_rejects_bad_lines_with_their_number)
{
	static const struct {
		const char *text;
		unsigned long long line;
		const char *msg;
	} c[] = {
		{ "12\n-5\n", 2, "'-5' is negative" },
		{ "1\n2\nabc\n", 3, "'abc' is not an unsigned integer" },
		{ "18446744073709551616\n", 1, "exceeds 2^64 - 1" },
		{ "99999999999999999999999\n", 1, "exceeds 2^64 - 1" },
		{ "1 2\n", 1, "more than one value" },
		{ "3\n12.5\n", 2, "'12.5' is not an unsigned integer" },
		{ "4\n+4\n", 2, "'+4' is not" },
		{ "1e3\n", 1, "'1e3' is not" },
		{ "0x10\n", 1, "'0x10' is not" },
	};
	struct cs_samples s;
	unsigned long long line;

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		const char *msg = parse(c[i].text, 4096, &s, &line);

		if (line != c[i].line || !strstr(msg, c[i].msg))
			FAIL("'%s': expected line %llu '%s', got line %llu '%s'", c[i].text,
			     c[i].line, c[i].msg, line, msg);
		cs_samples_free(&s);
	}
}

TEST(parser_rejects_nul_bytes)
{
	struct cs_parser p;
	struct cs_samples s = { 0 };
	struct cs_err err = { 0 };

	cs_parser_init(&p);
	EXPECT_TRUE(cs_parser_feed(&p, "1\n\0\n", 4, &s, &err) < 0);
	EXPECT_CONTAINS(err.msg, "NUL byte");
	EXPECT_EQ_U64(err.line, 2);
	cs_samples_free(&s);
}

TEST(info_parser_reads_key_value_lines)
{
	const char *text = "name: alu:add_dep\ndescription: 4 adds: a chain\n\nops: 4\r\n";
	struct cs_info info = { 0 };
	struct cs_err err = { 0 };
	uint64_t ops;

	EXPECT_TRUE(cs_parse_info("info", text, strlen(text), &info, &err) == 0);
	EXPECT_STREQ(cs_info_get(&info, CB_INFO_name), "alu:add_dep");
	EXPECT_STREQ(cs_info_get(&info, CB_INFO_description), "4 adds: a chain");
	EXPECT_TRUE(cs_info_u64(&info, "info", CB_INFO_ops, &ops, &err) == 0);
	EXPECT_EQ_U64(ops, 4);
	EXPECT_TRUE(cs_info_u64(&info, "info", CB_INFO_arg, &ops, &err) == 1);
	cs_info_free(&info);
}

TEST(info_parser_rejects_lines_without_a_key)
{
	const char *text = "ops: 4\nno colon here\n";
	struct cs_info info = { 0 };
	struct cs_err err = { 0 };
	uint64_t v;

	EXPECT_TRUE(cs_parse_info("x/info", text, strlen(text), &info, &err) < 0);
	EXPECT_EQ_U64(err.line, 2);
	EXPECT_CONTAINS(err.msg, "expected 'key: value'");
	text = "ops: -4\n";
	EXPECT_TRUE(cs_parse_info("x/info", text, strlen(text), &info, &err) == 0);
	EXPECT_TRUE(cs_info_u64(&info, "x/info", CB_INFO_ops, &v, &err) < 0);
	EXPECT_CONTAINS(err.msg, "'ops: -4' is not an unsigned integer");
	cs_info_free(&info);
}

TEST(student_t_quantiles_match_the_tables)
{
	/* t(0.975, df) from the tables (scipy.stats.t.ppf) */
	static const struct { double df, t; } tab[] = {
		{ 1, 12.7062047362 }, { 4, 2.7764451052 }, { 9, 2.2621571628 },
		{ 29, 2.0452296421 }, { 1000, 1.9623390808 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(tab); i++) {
		double t = cs_t_quantile(0.025, tab[i].df);

		if (fabs(t - tab[i].t) > 1e-8 * tab[i].t)
			FAIL("t(0.975, %g): expected %.10f, got %.10f", tab[i].df, tab[i].t, t);
	}
}

TEST(five_runs_a_side_are_the_least_for_alpha_0_01)
{
	EXPECT_EQ_U64(cs_min_reps(0.01), 5);	/* 2 / C(10, 5) = 0.0079 */
	EXPECT_EQ_U64(cs_min_reps(0.05), 4);	/* 2 / C(8, 4) = 0.029 */
	EXPECT_EQ_U64(cs_min_reps(0.001), 7);	/* 2 / C(14, 7) = 0.00058 */
}

TEST(hodges_lehmann_of_a_clean_shift)
{
	/* every new value 10 above its base: estimate and interval 10, p = 2/252 */
	long double x[5] = { 100, 101, 102, 103, 104 }, y[5];
	struct cs_shift r;

	for (int i = 0; i < 5; i++)
		y[i] = x[i] + 10;
	EXPECT_TRUE(!cs_two_sample(x, 5, y, 5, 0.95, &r));
	EXPECT_TRUE(r.est == 10 && r.exact);
	/* differences 6..14; k = qwilcox(0.025, 5, 5) = 3: D(3) = 7, D(23) = 13 */
	if (r.lo != 7 || r.hi != 13)
		FAIL("interval: expected [7, 13], got [%Lg, %Lg]", r.lo, r.hi);
	if (fabs(r.p - 2.0 / 252) > 1e-15)
		FAIL("p: expected %.15g, got %.15g", 2.0 / 252, r.p);
}

TEST(identical_repetitions_give_a_zero_width_interval)
{
	long double x[6] = { 7, 7, 7, 7, 7, 7 }, m, lo, hi;
	struct cs_shift r;

	cs_mean_ci(x, 6, &m, &lo, &hi);
	EXPECT_TRUE(m == 7 && lo == 7 && hi == 7);
	EXPECT_TRUE(!cs_two_sample(x, 6, x, 6, 0.95, &r));
	EXPECT_TRUE(r.est == 0 && r.lo == 0 && r.hi == 0 && r.p == 1);
}

TEST(doubles_print_shortest_and_p_values_never_0)
{
	char b[40];

	EXPECT_STREQ(cs_fmt_d(b, sizeof(b), 0.00202), "0.00202");
	EXPECT_STREQ(cs_fmt_d(b, sizeof(b), 1.0), "1");
	EXPECT_STREQ(cs_fmt_d(b, sizeof(b), 0.1 + 0.2), "0.30000000000000004");
	EXPECT_STREQ(cs_fmt_p(b, sizeof(b), 0.0), "<1e-300");
	EXPECT_STREQ(cs_fmt_p(b, sizeof(b), 1e-200), "1e-200");
}

TEST(exact_figures_for_machines_are_their_nearest_double)
{
	char b[64];

	/* 202 / 100000 once printed 0.002; as a double it is 0.00202 */
	EXPECT_TRUE(cs_q_double((struct cs_q){ 202, 100000 }) == 0.00202);
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ 202, 100000 }), "0.00202");
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ -1, 3 }), "-0.3333333333333333");
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ 60, 2 }), "30");
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ 0, 7 }), "0");
	/* rounded once, ties to even: 2^53 + 1 lies halfway, 2^53 + 3 too */
	EXPECT_TRUE(cs_q_double((struct cs_q){ ((s128)1 << 53) + 1, 1 }) == 0x1p53);
	EXPECT_TRUE(cs_q_double((struct cs_q){ ((s128)1 << 53) + 3, 1 }) == 0x1p53 + 4);
	/* just above the halfway point: up, whatever the long double does */
	EXPECT_TRUE(cs_q_double((struct cs_q){ ((s128)1 << 120) + ((s128)1 << 67) + 1,
					       (u128)1 << 67 }) == 0x1p53 + 2);
	/* a numerator beyond 64 bits, a denominator beyond 2^64 */
	EXPECT_TRUE(cs_q_double((struct cs_q){ (s128)1 << 100, ((u128)1 << 70) * 5 }) ==
		    0x1p30 / 5);
	/* from 2^53 on a figure that ends in few decimals prints whole */
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ (s128)(2 * (u128)TOP - 3), 2 }),
		     "18446744073709551613.5");
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ (s128)TOP, 3 }), "6148914691236517205");
	/* one that never ends (TOP / 7) is its double */
	EXPECT_STREQ(cs_fmt_qm(b, sizeof(b), (struct cs_q){ (s128)TOP, 7 }),
		     "2.6352491533870787e+18");
	EXPECT_STREQ(cs_fmt_d(b, sizeof(b), 1e17), "1e+17");
	EXPECT_STREQ(cs_fmt_d(b, sizeof(b), 1e-5), "0.00001");
	EXPECT_STREQ(cs_fmt_d(b, sizeof(b), 1e-6), "1e-06");
}

TEST(result_names_stay_inside_the_tree)
{
	EXPECT_TRUE(cs_safe_name("alu:add_dep", 11));
	EXPECT_TRUE(cs_safe_name("mem:chase/4096", 14));
	EXPECT_TRUE(!cs_safe_name("..:x", 4));
	EXPECT_TRUE(!cs_safe_name("g:../x", 6));
	EXPECT_TRUE(!cs_safe_name("g:x/..", 6));
	EXPECT_TRUE(!cs_safe_name("g:x/1/2", 7));
	EXPECT_TRUE(!cs_safe_name("g:x/", 4));
	EXPECT_TRUE(!cs_safe_name("nocolon", 7));
}
