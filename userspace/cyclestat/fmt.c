// SPDX-License-Identifier: GPL-2.0
/*
 * fmt.c - numbers as text: exact fractions, doubles, JSON strings.
 *
 * Exact figures are rounded here and only here: to the nearest, ties to
 * even, as Python and printf round a double that lies exactly on a tie, so
 * the printed digits match numpy's wherever numpy's double is exact.
 * Figures meant for machines (JSON, CSV, gbench) print as the shortest text
 * that reads back to the same double: exact fractions as their nearest
 * double, long doubles rounded to double once. The bottom of the printing
 * layer: calls stats.c (exact fractions) only; what a figure is and its
 * unit are decided before it comes here (infer.c, cs_cost_of()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"


char *cs_u128_str(char *end, u128 v)
{
	*--end = 0;
	do {
		*--end = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	return end;
}

/*
 * An exact fraction rounded to DECIMALS places. A value exactly halfway
 * between two printable neighbours is rounded the way the nearest double
 * prints (as numpy's figure prints in Python or C) where that double can be
 * formed exactly from num and den, else half to even.
 */
char *cs_fmt_q(char *buf, size_t sz, struct cs_q q, int decimals)
{
	u128 a = q.num < 0 ? -(u128)q.num : (u128)q.num, scale = 1, ip, rem, fr, r2;
	char tmp[48], *s;
	int neg = q.num < 0;

	for (int i = 0; i < decimals; i++)
		scale *= 10;
	ip = a / q.den;
	rem = a % q.den;
	fr = rem * scale / q.den;
	r2 = rem * scale % q.den;
	if (r2 * 2 == q.den && a < (u128)1 << 53 && q.den < (u128)1 << 53) {
		snprintf(buf, sz, "%.*f", decimals, (double)q.num / (double)q.den);
		return buf;
	}
	if (r2 * 2 > q.den || (r2 * 2 == q.den && ((decimals ? fr : ip) & 1)))
		fr++;
	if (fr == scale) {
		fr = 0;
		ip++;
	}
	s = cs_u128_str(tmp + sizeof(tmp), ip);
	if (decimals)
		snprintf(buf, sz, "%s%s.%0*llu", neg ? "-" : "", s, decimals,
			 (unsigned long long)fr);
	else
		snprintf(buf, sz, "%s%s", neg ? "-" : "", s);
	return buf;
}

void cs_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void cs_md_cell(FILE *f, const char *s, int code)
{
	fputs(code ? " `" : " ", f);
	for (; *s; s++)
		if (*s == '|')
			fputs(code ? "\u00a6" : "\\|", f);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f || (code && *s == '`'))
			fputc('?', f);
		else
			fputc(*s, f);
	fputs(code ? "` |" : " |", f);
}

/* the value of figure q, less shift (net) and over div (per op) */
static struct cs_q adj(struct cs_q q, const struct cs_q *shift, uint64_t div)
{
	if (shift)
		q = cs_q_sub(q, *shift);
	return cs_q_div(q, div);
}

/*
 * The double nearest to q, ties to even: binary long division, 54 bits and
 * a sticky bit, rounded once (the long double quotient would round twice).
 */
double cs_q_double(struct cs_q q)
{
	u128 a = q.num < 0 ? -(u128)q.num : (u128)q.num, d = q.den, ip, r;
	uint64_t m = 0;
	int bits = 0, e = 0, sticky = 0;
	double v;

	if (!a || !d || d >> 127)
		return (double)cs_q_ld(q);
	ip = a / d;
	r = a % d;
	for (int i = 127; i >= 0; i--) {
		int bit = (int)(ip >> i) & 1;

		if (bits == 54) {
			sticky |= bit;
			e++;
		} else if (bits || bit) {
			m = m << 1 | (uint64_t)bit;
			bits++;
		}
	}
	while (bits < 54) {
		r <<= 1;
		m <<= 1;
		if (r >= d) {
			r -= d;
			m |= 1;
		}
		if (m)
			bits++;
		e--;
	}
	sticky |= r != 0;
	/* m: 53 bits of mantissa and the round bit */
	if ((m & 1) && (sticky || (m & 2)))
		m += 2;
	v = ldexp((double)(m >> 1), e + 1);
	return q.num < 0 ? -v : v;
}

/*
 * An exact figure for machines (JSON, CSV): the shortest text that reads
 * back as its nearest double, so a parser gets every bit a double holds
 * (0.00202, not 0.002). From 2^53 on, where doubles skip integers, a figure
 * whose decimal expansion ends within 19 places prints whole instead: the
 * same double to a parser, and every digit to one that reads decimals.
 */
const char *cs_fmt_qm(char *buf, size_t sz, struct cs_q q)
{
	u128 a = q.num < 0 ? -(u128)q.num : (u128)q.num, d = q.den, g = a, t = d;
	int twos = 0, fives = 0;

	while (t) {		/* d / gcd(a, d): the reduced denominator */
		u128 x = g % t;

		g = t;
		t = x;
	}
	if (!g)
		g = 1;
	d /= g;
	for (; d && d % 2 == 0; d /= 2)
		twos++;
	for (; d && d % 5 == 0; d /= 5)
		fives++;
	if (a / q.den >= (u128)1 << 53 && d == 1 && twos <= 19 && fives <= 19)
		return cs_fmt_q(buf, sz, (struct cs_q){ .num = q.num / (s128)g, .den = q.den / g },
				twos > fives ? twos : fives);
	return cs_fmt_d(buf, sz, cs_q_double(q));
}

/* figure q, net of shift and per div ops, for machines */
const char *cs_qs(char *buf, struct cs_q q, const struct cs_q *shift, uint64_t div)
{
	return cs_fmt_qm(buf, 64, adj(q, shift, div));
}

/*
 * sd and the variances (long double: irrational or too wide for 128 bits)
 * for machines: the shortest text of their double; null when undefined
 */
const char *cs_lds(char *buf, long double v)
{
	if (isnan(v))
		return "null";
	return cs_fmt_d(buf, 64, (double)v);
}

/*
 * the shortest text that reads back as v: JSON for machines, no digit lost;
 * positional from 1e-5 to 1e17 (30, not 3e+01), else with an exponent
 */
const char *cs_fmt_d(char *buf, size_t sz, double v)
{
	int p, e;

	if (!isfinite(v)) {
		snprintf(buf, sz, "null");
		return buf;
	}
	for (p = 1; p < 17; p++) {
		snprintf(buf, sz, "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sz, "%.*e", p - 1, v);
	e = atoi(strchr(buf, 'e') + 1);
	if (v != 0 && e >= -5 && e < 17)
		snprintf(buf, sz, "%.*f", p - 1 - e > 0 ? p - 1 - e : 0, v);
	else if (v == 0)
		snprintf(buf, sz, "0");
	return buf;
}

/* a p-value: shortest round-trip, and "<1e-300" where it underflowed to 0 */
const char *cs_fmt_p(char *buf, size_t sz, double p)
{
	if (p < 1e-300 && p >= 0) {
		snprintf(buf, sz, "<1e-300");
		return buf;
	}
	return cs_fmt_d(buf, sz, p);
}

/* enum cs_basis's words, in every output */
const char *cs_basis_name(enum cs_basis b)
{
	static const char *const names[] = {
		[CS_BASIS_NONE] = "", [CS_BASIS_TWO_LENGTH] = "two-length",
		[CS_BASIS_NET] = "net", [CS_BASIS_RAW] = "raw",
	};

	return names[b];
}
