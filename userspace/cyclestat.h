/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cyclestat.h - shared types of cyclestat, the reader of cyclebench results.
 *
 * The flow is ministat's: options -> read (parse.c) -> compute (stats.c) ->
 * print (output.c). compare.c and doctor.c are the two other subcommands.
 *
 * Every figure that is a rational function of the samples (mean, median,
 * percentiles, MAD, half-sample mode, and their net and per-op variants) is
 * kept as an exact fraction (struct cs_q) and rounded only when printed, so
 * values near 2^64 print exactly. Standard deviation and variances are
 * irrational or too wide for 128 bits; they are computed from exact integer
 * sums and carried as long double.
 */
#ifndef CYCLESTAT_H
#define CYCLESTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../kmod/contract.h"	/* CB_VERSION, the run keys: one contract */

#define CS_VERSION CB_VERSION
#define CS_DEFAULT_TREE "/sys/kernel/debug/cyclebench"
#define CS_INFO_MAX (1u << 20)	/* largest info or fragments file read */

typedef unsigned __int128 u128;
typedef __int128 s128;

enum cs_format { CS_TABLE, CS_JSON, CS_CSV, CS_GBENCH, CS_TAP, CS_SVG, CS_MARKDOWN };	/* CS_TAP: compare only */

/**
 * struct cs_opts - every option of every subcommand, parsed once in main().
 * @format:	output format (--format)
 * @hist:	also print a histogram per fragment (--hist)
 * @sweep:	Paoloni's resolution table of each argument sweep (--sweep)
 * @quiet:	no warnings, no progress (-q)
 * @color:	ANSI colours in the table (stdout is a TTY, not -o)
 * @tty:	stderr is a TTY (progress bar for run)
 * @strict:	doctor: exit 1 when a problem is found; compare: mismatched runs are an error
 * @allow_missing: compare: a fragment missing from NEW does not fail
 * @filter:	fragments to show (names, groups, globs), from the command line
 * @cpu:	doctor: the CPU to check
 * @threshold:	compare: relative change (fraction) below which a change is "same"
 * @alpha:	compare: significance level of the Mann-Whitney U test
 * @tree:	the debugfs tree for run/save and the default input
 * @sysroot:	prefix for /proc, /sys and /dev in doctor (CYCLESTAT_SYSROOT)
 * @out:	where results go (stdout or -o FILE)
 */
struct cs_opts {
	enum cs_format format;
	int hist;
	int brief;	/* one short table: per-op cost, median, far outliers */
	int sweep;
	int quiet;
	int color;
	int tty;
	int strict;
	int allow_missing;
	int per_sample;		/* compare: the old per-sample U test, for measuring it */
	int ensembles;		/* compare: ensembles as repetitions (--ensembles) */
	int paired;		/* compare: BASE's k-th repetition with NEW's k-th (--paired) */
	int ticks;		/* compare: ticks even where every run is calibrated (--ticks) */
	const char *clock;	/* ab: icount (exact instructions) or time (--clock) */
	char **filter;		/* fragment names, groups or globs; NULL: all */
	size_t nfilter;
	unsigned int cpu;
	double threshold;
	double alpha;
	const char *tree;
	const char *sysroot;
	FILE *out;
};

/* An exact rational num/den, den > 0. */
struct cs_q {
	s128 num;
	u128 den;
};

/*
 * Samples of one fragment in one growing mapping (see parse.c). With
 * window set, only the last few are kept and dropped counts the rest:
 * enough to check a file without holding it.
 */
struct cs_samples {
	uint64_t *v;
	size_t n;
	size_t cap;	/* elements mapped */
	int window;
	size_t dropped;
	struct cs_tally *tally;	/* set: samples are counted there, v unused (counts.c) */
};

/* A value -> count hash table filled while reading (counts.c). */
struct cs_slot {
	uint64_t key, cnt;	/* cnt 0: empty */
};

struct cs_tally {
	struct cs_slot *slot;
	size_t mask;		/* slots - 1 */
	unsigned int shift;	/* 64 - log2(slots) */
	size_t used;
	/* a value not in the table yet (cs_tally_add() said so): counts.c's */
	int (*insert)(struct cs_samples *s, uint64_t v);
};

/*
 * A distribution as a sorted table: v[i] ascending, c[i] samples equal to
 * v[i], rank[i] samples below it. c and rank NULL: v is every sample
 * sorted, each counting once (too many distinct values to count).
 */
struct cs_counts {
	const uint64_t *v, *c, *rank;
	size_t len;		/* entries */
	uint64_t n;		/* samples */
	uint64_t *mem;		/* v, c and rank, when counted */
	struct cs_samples own;	/* v, when not */
};

/* key: value metadata, from an info file. */
struct cs_kv {
	char *key;
	char *val;
};

struct cs_info {
	struct cs_kv *kv;
	size_t n;
};

/* An error: file, line (0: none), message, and the fix (may be empty). */
struct cs_err {
	char file[512];
	unsigned long long line;
	char msg[512];
};

/* Figures of one distribution. */
struct cs_figs {
	uint64_t n;
	uint64_t min, max;
	struct cs_q mean, median, p1, p5, p25, p75, p95, p99, mad, hsm;
	long double sd;
	uint64_t far;	/* samples above Q3 + 3 IQR, the IQR at least a step */
};

/* Paoloni's ensemble metrics. */
struct cs_ens {
	uint64_t count, size;
	uint64_t *min, *max;
	long double *var;	/* population variance of each ensemble */
	long double *mean;	/* mean of each ensemble (gbench) */
	u128 *med2;		/* twice the median of each ensemble */
	long double total_var, var_of_vars, var_of_mins;
	uint64_t abs_max_dev;
};

#define CS_HIST_MAX 40
struct cs_hist {
	unsigned int nbins;
	uint64_t lo, width;	/* bin i holds [lo + i*width, lo + (i+1)*width) */
	uint64_t count[CS_HIST_MAX];
	uint64_t over;		/* samples >= lo + nbins*width */
};

/* an estimate with its 95 % interval (lo = hi = NaN: no interval, n < 2) */
struct cs_est {
	struct cs_q value;
	uint64_t n;
	long double lo, hi;
};

/* the two-length per-op cost (cycles_long), per aggregate */
struct cs_perop {
	int ok;
	uint64_t repeat;	/* R: the long body is the short one R times */
	struct cs_est med, min;
	long double *each;	/* median-based per-op cost of each ensemble */
};

/*
 * A PMU counter beside cycles: NAME around the short region (the whole
 * sample before tree files had NAME_long), NAME_long around the long one.
 */
struct cs_counter {
	int present;
	u128 sum;
	struct cs_q median;
	int has_long;
	struct cs_q median_long;
};
enum { CS_CORE, CS_INSTR, CS_REF, CS_NCOUNTERS };
static const char *const cs_counter_names[CS_NCOUNTERS] = CB_PMC_NAMES;

/* Hodges-Lehmann shift of new against base, its interval, the U test */
struct cs_shift {
	long double est, lo, hi;
	double level;	/* the interval's coverage: below conf where n is too small for it */
	double p;
	double min_p;	/* the smallest p these sizes can give */
	int exact;
};

/**
 * struct cs_frag - one fragment's results, samples already reduced to figures.
 * @name:	group:name (from info), else the path given
 * @path:	the cycles file
 * @info:	its info file, when there is one
 * @ops:	operations per sample (info "ops", else 1)
 * @smi:	1 when info says smi_after != smi_before
 */
struct cs_frag {
	char *name;
	char *path;
	struct cs_info info;
	uint64_t ops;
	int smi;
	uint64_t smi_before, smi_after;
	int stale;
	const char *nodata;	/* when not loaded: none, skipped, aborted, failed */
	int has_arg;
	uint64_t arg;
	int net_ok;		/* the input's overhead is from this run and method */
	struct cs_perop perop;
	struct cs_est netop;	/* (ensemble median - overhead) / ops over ensembles */
	struct cs_counter cnt[CS_NCOUNTERS];
	long double calib;	/* ticks per core cycle when calibrated, else 0 */
	long double calib_rel;	/* its 95 % half-width over it (quantum included) */
	int emulated;		/* measured under an emulator: emulated ticks */
	uint64_t dropped;	/* samples left out by --undisturbed */
	uint64_t dropped_by[CB_NR_SAMPLE_FLAGS];	/* of those, flagged with bit k */
	uint64_t dropped_even;	/* of those, unflagged: left out to keep ensembles equal */
	int unflagged;		/* --undisturbed, but no flags file: nothing could be */
	uint64_t measured;	/* samples in the files, before that */
	/*
	 * --undisturbed: the samples left out of the counter figures
	 * (cs_drop_mask and CS_CNT_MASK; all of them: no counter figure) and
	 * of those, how many with bit k.
	 */
	uint64_t cnt_left;
	uint64_t cnt_by[CB_NR_SAMPLE_FLAGS];
	/* info's flagged_timeout, flagged_pmcreset, flagged_nopmc (0 if absent) */
	uint64_t flagged_timeout, flagged_pmcreset, flagged_nopmc;
	struct cs_figs raw;
	struct cs_ens ens;
	struct cs_hist hist;
	uint64_t step;		/* the TSC's step: info's tsc_step, else the samples' */
};

/* a listed fragment without data, and why (none, skipped, aborted, failed, missing) */
struct cs_absent {
	char *name;
	const char *state;
};

/* One input: a tree (live or saved), a cycles file, or stdin. */
struct cs_input {
	struct cs_absent *absent;
	size_t nabsent;
	char *path;
	struct cs_info info;		/* top-level info of a tree */
	struct cs_frag *frag;
	size_t nfrag;
	int has_overhead;
	struct cs_q overhead;		/* median of base:empty */
	/*
	 * The calibration's cross-check (input.c): ticks per core cycle by
	 * calib:add_chain and by calib:imul_chain, whether they were compared,
	 * and their gap relative to the first where it is beyond their noise
	 * (0 where they agree); every figure in core cycles carries the gap.
	 */
	long double calib_add, calib_imul, calib_gap;
	int calib_checked;
	/* figures in core cycles from a run not interleaved: within-run intervals */
	size_t within_run;
};

/* the per-result data files of tree version 2, all optional but cycles */
static const char *const cs_data_files[] = {
	"cycles", "cycles_long", "core_cycles", "instructions", "ref_cycles", "flags",
	"core_cycles_long", "instructions_long", "ref_cycles_long",
};
/* whether a result's info says its file @file holds data (fragment.c) */
int cs_data_file_expected(const struct cs_info *info, const char *file);
/* counter @k per op, two-length: 1 with *v set, 0 when it cannot be formed */
int cs_counter_per_op(const struct cs_frag *fr, int k, long double *v);
/* per-op instructions / per-op core cycles: 1 with *v set, 0 when not formed */
int cs_ipc_per_op(const struct cs_frag *fr, long double *v);

/*
 * The flags file's bits (contract.h CB_SAMPLE_*).  --undisturbed leaves
 * out samples with any bit of cs_drop_mask set (fragment.c): an NMI
 * inside the sample, TSC_AUX naming another CPU (old modules), a body's
 * time-out (the sample timed the give-up, not the work), and with =all an
 * interrupt or a context switch just before it.  The counter figures also
 * leave out the samples of CS_CNT_MASK: their counter values are 0 written
 * in place of a count (perf rewrote a counter, or one was not counting),
 * while their TSC figure stands.
 */
extern unsigned int cs_drop_mask;
#define CS_DROP_DEFAULT (CB_SAMPLE_NMI | CB_SAMPLE_CPU | CB_SAMPLE_TIMEOUT)
#define CS_DROP_ALL (CS_DROP_DEFAULT | CB_SAMPLE_IRQ | CB_SAMPLE_SWITCH)
#define CS_CNT_MASK (CB_SAMPLE_NOPMC | CB_SAMPLE_PMCRESET)
/* what flags bit k says of a sample, for the notes (fragment.c) */
extern const char *const cs_flag_names[CB_NR_SAMPLE_FLAGS];

/* A located fragment, before it is read. */
struct cs_loc {
	char *name;
	char *cycles;
	char *info;	/* NULL when absent */
	char *dir;	/* the result directory (cycles_long, counters); NULL for a bare file */
};

/* numparse.c */
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
int cs_samples_push(struct cs_samples *s, uint64_t v);
void cs_samples_free(struct cs_samples *s);
int cs_read_cycles(const char *path, struct cs_samples *s, struct cs_err *err);
int cs_parse_info(const char *path, const char *buf, size_t len,
		  struct cs_info *info, struct cs_err *err);
int cs_read_info(const char *path, struct cs_info *info, struct cs_err *err);
/* a key's value, by contract.h's name for it (CB_INFO_KEY), or NULL */
const char *cs_info_get(const struct cs_info *info, enum cb_info_key key);
int cs_info_u64(const struct cs_info *info, const char *path, enum cb_info_key key,
		uint64_t *v, struct cs_err *err);
const char *cs_info_name(enum cb_info_key key);
void cs_info_free(struct cs_info *info);
/* counts.c */
#define CS_TALLY_MUL 0x9e3779b97f4a7c15ull	/* Fibonacci hashing: 2^64 / golden ratio */
int cs_tally_init(struct cs_tally *t);
void cs_tally_free(struct cs_tally *t);
int cs_counts_take(struct cs_samples *s, struct cs_counts *out);
int cs_counts_of(const uint64_t *v, size_t n, struct cs_counts *out);
size_t cs_counts_find(const struct cs_counts *c, uint64_t k);
uint64_t cs_counts_at(const struct cs_counts *c, uint64_t k);
void cs_counts_free(struct cs_counts *c);
void cs_sort(uint64_t *a, size_t n);

/*
 * One more sample of a tallied value: 0 when v was in the table (counted),
 * 1 when it is new (t->insert counts it). Inline: the parser calls it
 * once per sample.
 */
static inline int cs_tally_add(struct cs_tally *t, uint64_t v)
{
	size_t i = (size_t)((v * CS_TALLY_MUL) >> t->shift);

	for (;; i = (i + 1) & t->mask) {
		struct cs_slot *sl = &t->slot[i];

		if (!sl->cnt)
			return 1;
		if (sl->key == v) {
			sl->cnt++;
			return 0;
		}
	}
}

/* tree.c */
int cs_is_dir(const char *path);
int cs_safe_name(const char *c, size_t len);
int cs_locate(const char *path, struct cs_loc **loc, size_t *nloc,
	      struct cs_info *top, struct cs_err *err);
void cs_locs_free(struct cs_loc *loc, size_t n);
int cs_listed_missing(const char *path, char ***names, size_t *n);
int cs_read_file(const char *path, char **buf, size_t *len, size_t max, struct cs_err *err);
void cs_seterr(struct cs_err *err, const char *file, unsigned long long line,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void cs_perror(const struct cs_err *err);

/* stats.c */
int cs_cmp_ld(const void *a, const void *b);
int cs_q_cmp(struct cs_q a, struct cs_q b);
struct cs_q cs_q_sub(struct cs_q a, struct cs_q b);
struct cs_q cs_q_div(struct cs_q a, uint64_t k);
struct cs_q cs_q_int(s128 v);
long double cs_q_ld(struct cs_q q);
int cs_ensembles(const uint64_t *v, uint64_t count, uint64_t size, struct cs_ens *e);
void cs_ens_free(struct cs_ens *e);
int cs_ensemble_one(const struct cs_counts *c, const struct cs_figs *f, struct cs_ens *e);
void cs_figures(uint64_t *v, size_t n, struct cs_figs *f);
void cs_figures_of(const struct cs_counts *c, struct cs_figs *f);
void cs_histogram(const uint64_t *sorted, size_t n, const struct cs_figs *f,
		  struct cs_hist *h);
void cs_histogram_of(const struct cs_counts *c, const struct cs_figs *f, uint64_t step,
		     struct cs_hist *h);
uint64_t cs_step_of(const struct cs_counts *c);
void cs_far_of(const struct cs_counts *c, struct cs_figs *f, uint64_t step);
double cs_mannwhitney(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);
double cs_mannwhitney_of(const struct cs_counts *a, const struct cs_counts *b);
int cs_load_frag(const struct cs_loc *loc, struct cs_frag *fr, struct cs_err *err);
int cs_check_frag(const struct cs_loc *loc, struct cs_err *err);
void cs_frag_free(struct cs_frag *fr);
int cs_load_input(const char *path, struct cs_input *in,
		  struct cs_err *err);
/* tree.c: a sweep=cpus directory's steps, DIR/kK (*n = 0: PATH is none) */
int cs_sweep_steps(const char *path, char ***steps, unsigned int **k, size_t *n,
		   struct cs_err *err);
/* a cpus= tree's results as CPU @cpu saw them (its cpuN/ arrays); -1: the tree's own */
int cs_load_input_cpu(const char *path, int cpu, struct cs_input *in, struct cs_err *err);
void cs_input_free(struct cs_input *in);
/* what an input left out that its user asked for, said on stderr: how many */
int cs_input_warn(const struct cs_opts *o, const struct cs_input *in);
/* the filter words that select nothing in any input: said, counted */
void cs_filter_hits(const struct cs_opts *o, const struct cs_input *in, unsigned char *hit);
int cs_filter_misses(const struct cs_opts *o, const unsigned char *hit);

/* fmt.c */
char *cs_fmt_q(char *buf, size_t sz, struct cs_q q, int decimals);
char *cs_u128_str(char *end, u128 v);
struct cs_q cs_adj(struct cs_q q, const struct cs_q *shift, uint64_t div);
double cs_q_double(struct cs_q q);
const char *cs_fmt_qm(char *buf, size_t sz, struct cs_q q);
const char *cs_qs(char *buf, struct cs_q q, const struct cs_q *shift, uint64_t div);
const char *cs_lds(char *buf, long double v);
const struct cs_q *cs_shift_of(const struct cs_input *in, const struct cs_frag *fr);
const struct cs_est *cs_headline(const struct cs_frag *fr, const char **basis);
const char *cs_unit(const struct cs_frag *fr);
long double cs_core_calib(const struct cs_frag *fr);
double cs_cost(const struct cs_frag *fr, double *lo, double *hi);
void cs_json_str(FILE *f, const char *s);
const char *cs_fmt_d(char *buf, size_t sz, double v);
const char *cs_fmt_p(char *buf, size_t sz, double p);

/* export.c */
void cs_print_json(const struct cs_opts *o, struct cs_input *in, size_t nin);
void cs_print_csv(const struct cs_opts *o, struct cs_input *in, size_t nin);
/* one CSV field, quoted where it holds a comma, a quote or a line break */
void cs_csv_field(FILE *f, const char *s);
void cs_print_gbench(const struct cs_opts *o, struct cs_input *in, size_t nin);

/* infer.c */
int cs_ens_aggs(const uint64_t *v, uint64_t count, uint64_t size, u128 *med2, uint64_t *min);
double cs_t_quantile(double q, double df);
int cs_perop(const u128 *med_s, const uint64_t *min_s, const u128 *med_l,
	     const uint64_t *min_l, uint64_t n, uint64_t r, uint64_t ops,
	     struct cs_perop *p);
void cs_mean_ci(const long double *x, uint64_t n, long double *mean, long double *lo,
		long double *hi);

/* ranks.c */
int cs_two_sample(const long double *x, size_t n, const long double *y, size_t m,
		  double conf, struct cs_shift *r);
unsigned int cs_min_reps(double alpha);
int cs_paired(const long double *d, size_t n, double conf, struct cs_shift *r);
unsigned int cs_min_pairs(double alpha);
int cs_shift_of_tables(const struct cs_counts *x, const struct cs_counts *y, double conf,
		       struct cs_shift *r);

/* contention.c: a sweep=cpus directory's steps side by side */
int cs_print_contention(const struct cs_opts *o, const char *path, char **steps,
			const unsigned int *k, size_t n);
/* sweep.c */
int cs_print_sweeps(const struct cs_opts *o, struct cs_input *in, size_t nin);
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

/* output.c */
int cs_match(const struct cs_opts *o, const char *name);
void cs_print(const struct cs_opts *o, struct cs_input *in, size_t nin);

/* save.c, run.c */
int cs_save(const struct cs_opts *o, const char *dir);
int cs_run(const struct cs_opts *o, int argc, char **argv);

/* compare.c */
int cs_compare(const struct cs_opts *o, char **base, size_t nbase, char **new, size_t nnew);
/* ab.c: make ab's table, exact under --clock icount */
int cs_ab(const struct cs_opts *o, char **a, size_t na, char **b, size_t nb);

/* doctor.c */
int cs_doctor(const struct cs_opts *o);

#endif /* CYCLESTAT_H */
