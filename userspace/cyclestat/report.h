/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - figures printed: numbers as text (fmt.c), the table and
 * cs_print, which picks the format (output.c), JSON, CSV and gbench
 * (export.c), SVG (svg.c), the argument sweeps (sweep.c) and a sweep=cpus
 * directory's steps side by side (contention.c).
 *
 * Above read.h, and includes only it (and so stats.h and model.h): a
 * report reads the inputs it is handed, or (contention.c) loads them.
 */
#ifndef CS_REPORT_H
#define CS_REPORT_H

#include "read.h"

/* fmt.c */
char *cs_fmt_q(char *buf, size_t sz, struct cs_q q, int decimals);
char *cs_u128_str(char *end, u128 v);
double cs_q_double(struct cs_q q);
const char *cs_fmt_qm(char *buf, size_t sz, struct cs_q q);
const char *cs_qs(char *buf, struct cs_q q, const struct cs_q *shift, uint64_t div);
const char *cs_lds(char *buf, long double v);
const char *cs_basis_name(enum cs_basis b);
void cs_json_str(FILE *f, const char *s);
/*
 * " S |", a Markdown table's cell after its '|': with @code, S as code, a
 * '|' in it as '¦' (a '\|' does not escape inside code); else '\|'; a
 * control character, or a '`' in code, as '?': none breaks the row
 */
void cs_md_cell(FILE *f, const char *s, int code);
const char *cs_fmt_d(char *buf, size_t sz, double v);
const char *cs_fmt_p(char *buf, size_t sz, double p);

/* output.c */
void cs_print(const struct cs_opts *o, struct cs_input *in, size_t nin);

/* export.c */
void cs_print_json(const struct cs_opts *o, struct cs_input *in, size_t nin);
void cs_print_csv(const struct cs_opts *o, struct cs_input *in, size_t nin);
/* one CSV field, quoted where it holds a comma, a quote or a line break */
void cs_csv_field(FILE *f, const char *s);
void cs_print_gbench(const struct cs_opts *o, struct cs_input *in, size_t nin);

/* memory.c: the memory counts' table under the summary's, text or Markdown */
void cs_print_memory(FILE *f, const struct cs_input *in, int w, const char *bold, const char *off);
void cs_markdown_memory(FILE *f, const struct cs_input *in);

/* svg.c: the summary drawn (--format svg, plot) */
void cs_print_svg(const struct cs_opts *o, struct cs_input *in, size_t nin);
/* a point of a contention curve: k CPUs at once, the cost and its interval */
struct cs_kpoint {
	unsigned int k;
	double v, lo, hi;
};
struct cs_curve {
	const char *name;
	const char *unit;
	struct cs_kpoint *p;
	size_t n;
};
void cs_svg_curves(const struct cs_opts *o, const struct cs_curve *c, size_t n);

/* sweep.c */
int cs_print_sweeps(const struct cs_opts *o, struct cs_input *in, size_t nin);

/* contention.c: a sweep=cpus directory's steps side by side */
int cs_print_contention(const struct cs_opts *o, const char *path, char **steps,
			const unsigned int *k, size_t n);

#endif /* CS_REPORT_H */
