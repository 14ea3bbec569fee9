// SPDX-License-Identifier: GPL-2.0
/*
 * fmt.c - numbers as text: exact fractions, doubles, JSON strings.
 *
 * Exact figures are rounded here and only here: to the nearest, ties to
 * even, as Python and printf round a double that lies exactly on a tie, so
 * the printed digits match numpy's wherever numpy's double is exact.
 * Doubles meant for machines (JSON, gbench) print as the shortest text that
 * reads back to the same double. The bottom layer, with numparse.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cyclestat.h"


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

/* the value of figure q, less shift (net) and over div (per op) */
struct cs_q cs_adj(struct cs_q q, const struct cs_q *shift, uint64_t div)
{
	if (shift)
		q = cs_q_sub(q, *shift);
	return cs_q_div(q, div);
}

const char *cs_qs(char *buf, struct cs_q q, const struct cs_q *shift,
		      uint64_t div, int dec)
{
	return cs_fmt_q(buf, 64, cs_adj(q, shift, div), dec);
}

const char *cs_lds(char *buf, long double v, int dec)
{
	if (isnan(v))
		return "null";
	/*
	 * sd and variances are not exact: from 1e9 on, twelve significant
	 * digits, which any double computation of them also gets right
	 */
	if (fabsl(v) < 1e9L)
		snprintf(buf, 64, "%.*Lf", dec, v);
	else
		snprintf(buf, 64, "%.11Le", v);
	return buf;
}

const struct cs_q *cs_shift_of(const struct cs_input *in, const struct cs_frag *fr)
{
	return in->has_overhead && fr->net_ok ? &in->overhead : NULL;
}


/* the shortest "%.Ng" that reads back as v: JSON for machines, no digit lost */
const char *cs_fmt_d(char *buf, size_t sz, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, sz, "null");
		return buf;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sz, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
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

/* the headline per-op figure of a fragment and what it is */
const struct cs_est *cs_headline(const struct cs_frag *fr, const char **basis)
{
	if (fr->perop.ok) {
		*basis = "two-length";
		return &fr->perop.med;
	}
	*basis = fr->net_ok ? "net" : "raw";
	return &fr->netop;
}

/* ticks, or core cycles where the tree calibrated its clock */
const char *cs_unit(const struct cs_frag *fr)
{
	return fr->calib > 0 ? "core cycles (calibrated)" : "ticks";
}
