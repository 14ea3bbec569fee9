/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read.h - results read: cycles and info files and errors (numparse.c),
 * a tree's results located (tree.c), a fragment read and reduced to its
 * figures (fragment.c), a whole input and the fragment filter (input.c).
 *
 * Above stats.h, and includes only it (and so model.h): reading computes
 * each fragment's figures as it goes, but never prints them.
 */
#ifndef CS_READ_H
#define CS_READ_H

#include "stats.h"

/* numparse.c: the cycles parser, fed in chunks (the fuzzer splits anywhere) */
struct cs_parser {
	uint64_t v;
	unsigned long long line;
	int state;
	int ndigits;
	char tok[24];
	unsigned int toklen;
};
void cs_parser_init(struct cs_parser *p);
int cs_parser_feed(struct cs_parser *p, const char *buf, size_t len,
		   struct cs_samples *s, struct cs_err *err);
int cs_parser_end(struct cs_parser *p, struct cs_samples *s, struct cs_err *err);
int cs_read_cycles(const char *path, struct cs_samples *s, struct cs_err *err);
int cs_read_file(const char *path, char **buf, size_t *len, size_t max, struct cs_err *err);
int cs_parse_info(const char *path, const char *buf, size_t len,
		  struct cs_info *info, struct cs_err *err);
int cs_read_info(const char *path, struct cs_info *info, struct cs_err *err);
/* a key's value, by contract.h's name for it (CB_INFO_KEY), or NULL */
const char *cs_info_get(const struct cs_info *info, enum cb_info_key key);
int cs_info_u64(const struct cs_info *info, const char *path, enum cb_info_key key,
		uint64_t *v, struct cs_err *err);
const char *cs_info_name(enum cb_info_key key);
/* the words of info "state:", by enum cb_state (contract.h) */
extern const char *const cs_state_names[CB_NR_STATES];
enum cb_state cs_state(const struct cs_info *info);
void cs_info_free(struct cs_info *info);
void cs_seterr(struct cs_err *err, const char *file, unsigned long long line,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void cs_perror(const struct cs_err *err);

/* tree.c */
int cs_is_dir(const char *path);
int cs_safe_name(const char *c, size_t len);
int cs_locate(const char *path, struct cs_loc **loc, size_t *nloc,
	      struct cs_info *top, struct cs_err *err);
void cs_locs_free(struct cs_loc *loc, size_t n);
/* fragments listed without a result directory, and result directories not listed */
int cs_tree_disagrees(const char *path, char ***gone, size_t *ngone, char ***extra,
		      size_t *nextra);
/* a sweep=cpus directory's steps, DIR/kK (*n = 0: PATH is none) */
int cs_sweep_steps(const char *path, char ***steps, unsigned int **k, size_t *n,
		   struct cs_err *err);

/* whether a sysfs CPU list ("0-3,8,10-11") holds @cpu */
int cs_in_cpulist(const char *list, unsigned int cpu);

/* fragment.c */
int cs_load_frag(const struct cs_loc *loc, struct cs_frag *fr, struct cs_err *err);
int cs_check_frag(const struct cs_loc *loc, struct cs_err *err);
void cs_frag_free(struct cs_frag *fr);
enum cs_ref cs_ref_of(const char *name);
/* whether a result's info says its file @file holds data */
int cs_data_file_expected(const struct cs_info *info, const char *file);
/* counter @k per op, two-length: 1 with *v set, 0 when it cannot be formed */
int cs_counter_per_op(const struct cs_frag *fr, int k, long double *v);
/* per-op instructions / per-op core cycles: 1 with *v set, 0 when not formed */
int cs_ipc_per_op(const struct cs_frag *fr, long double *v);

/* input.c */
int cs_load_input(const char *path, struct cs_input *in,
		  struct cs_err *err);
/* a cpus= tree's results as CPU @cpu saw them (its cpuN/ arrays); -1: the tree's own */
int cs_load_input_cpu(const char *path, int cpu, struct cs_input *in, struct cs_err *err);
void cs_input_free(struct cs_input *in);
/* the input's result NAME (group:name[/ARG]), stale or not; NULL where it has none */
const struct cs_frag *cs_frag_named(const struct cs_input *in, const char *name);
/* why the input lists NAME without its data (missing, unlisted); NULL where it does not */
const char *cs_absent_state(const struct cs_input *in, const char *name);
/*
 * onto *names (*n of them, NULL-terminated, grown as needed): the names of
 * @in's fragments that the filter selects and *names lacks, in @in's
 * order; 0, or -1 out of memory
 */
int cs_names_add(const struct cs_opts *o, const struct cs_input *in, const char ***names,
		 size_t *n);
/* the clock's step of @fr in ticks: info's tsc_step (its own, else the tree's), else the samples' */
uint64_t cs_tsc_step(const struct cs_input *in, const struct cs_frag *fr);
/*
 * what inputs @a and @b left out that their user asked for, and the filter
 * words that select none of their fragments: said; 1 where the command
 * stops there (exit 2): such a word, --strict and a warning, out of memory
 */
int cs_inputs_refused(const struct cs_opts *o, const struct cs_input *a, size_t na,
		      const struct cs_input *b, size_t nb);
/* whether the filter selects the fragment @name (no filter: all do) */
int cs_match(const struct cs_opts *o, const char *name);

/* memory.c: a result's memory file, and its figures per op (exact) */
extern const struct cb_mem_def cs_mem_counts[CB_NR_MEM];
/* 0 with fr->mem filled where DIR holds one (present), or none; -1 on error */
int cs_load_memory(const char *dir, struct cs_frag *fr, struct cs_err *err);
void cs_mem_free(struct cs_mem *m);
/* count K (enum cb_mem_count) per op: 1 with *v set, 0 where the result has none */
int cs_mem_per_op(const struct cs_frag *fr, int k, long double *v);

#endif /* CS_READ_H */
