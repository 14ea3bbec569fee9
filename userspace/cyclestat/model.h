/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - cyclestat's data: options, exact fractions, samples, info
 * files, a fragment's figures, an input (a tree, a file, stdin).
 *
 * The bottom of cyclestat's headers, each including only those below it:
 * model.h <- counts.h (samples as they are read) <- stats.h (figures) <-
 * read.h (trees, files) <- report.h (tables, JSON, SVG) <- commands.h
 * (the subcommands).  This one includes only contract.h, the wire
 * contract, and declares no function.  The flow is ministat's: options
 * (cli.c) -> read (numparse.c, tree.c, fragment.c, input.c; the samples
 * into counts.c) -> compute (stats.c) -> print (output.c).
 *
 * Every figure that is a rational function of the samples (mean, median,
 * percentiles, MAD, half-sample mode, and their net and per-op variants) is
 * kept as an exact fraction (struct cs_q) and rounded only when printed, so
 * values near 2^64 print exactly. Standard deviation and variances are
 * irrational or too wide for 128 bits; they are computed from exact integer
 * sums and carried as long double.
 */
#ifndef CS_MODEL_H
#define CS_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "contract.h"	/* CB_VERSION, the run keys: one contract */

#define CS_VERSION CB_VERSION
#define CS_DEFAULT_TREE "/sys/kernel/debug/cyclebench"
#define CS_INFO_MAX (1u << 20)	/* largest info or fragments file read */

typedef unsigned __int128 u128;
typedef __int128 s128;

enum cs_format { CS_TABLE, CS_JSON, CS_CSV, CS_GBENCH, CS_TAP, CS_SVG, CS_MARKDOWN };	/* CS_TAP: compare only */

/*
 * What a per-op figure is: the two lengths' difference, (long - short) /
 * ((R - 1) ops); the samples net of base:empty's median, per op; or the
 * raw samples.  CS_BASIS_NONE: no figure (a row compare could not
 * compare).  Their words: cs_basis_name().
 */
enum cs_basis { CS_BASIS_NONE, CS_BASIS_TWO_LENGTH, CS_BASIS_NET, CS_BASIS_RAW };

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
 * Samples of one fragment in one growing mapping (counts.c). With
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
	u128 *med2;		/* twice the median of each ensemble */
	struct cs_q *core;	/* the mean of each ensemble's core (cs_core_of()) */
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
	struct cs_est med;	/* the median over ensembles of their core means' */
	struct cs_est min;	/* the mean over ensembles of their minimums' */
	long double *each;	/* the per-op cost of each ensemble, by its core means */
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

/*
 * A result's memory file (contract.h CB_FILE_MEMORY): the QEMU plugin's
 * sums over the short ([0]) and the long ([1]) region's counted runs, in
 * contract-mem.h's order; the result's long_repeat beside them.
 */
struct cs_mem {
	int present;
	char *model, *source;	/* source NULL where the file names none */
	uint64_t runs[2];
	uint64_t sum[CB_NR_MEM][2];
	uint64_t repeat;
};

/* Hodges-Lehmann shift of new against base, its interval, the U test */
struct cs_shift {
	long double est, lo, hi;
	double level;	/* the interval's coverage: below conf where n is too small for it */
	double p;
	double min_p;	/* the smallest p these sizes can give */
	int exact;
};

/* the reference fragments (contract.h CB_REF_*) a fragment may be: cs_ref_of() */
enum cs_ref { CS_REF_NONE, CS_REF_EMPTY, CS_REF_ADD, CS_REF_IMUL, CS_NR_REFS };

/**
 * struct cs_frag - one fragment's results, samples already reduced to figures.
 * @name:	group:name (from info), else the path given
 * @ref:	which reference fragment it is, by its name (CS_REF_NONE: none)
 * @path:	the cycles file
 * @info:	its info file, when there is one
 * @ops:	operations per sample (info "ops", else 1)
 * @smi:	1 when info says smi_after != smi_before
 */
struct cs_frag {
	char *name;
	enum cs_ref ref;
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
	struct cs_mem mem;
	long double calib;	/* ticks per core cycle when calibrated, else 0 */
	long double calib_rel;	/* its 95 % half-width over it (quantum included) */
	int shared;		/* no interval: the run's calibration disturbed */
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
	CB_FILE_CYCLES, CB_FILE_CYCLES_LONG, CB_PMC_CORE_CYCLES, CB_PMC_INSTRUCTIONS,
	CB_PMC_REF_CYCLES, CB_FILE_FLAGS, CB_PMC_CORE_CYCLES CB_FILE_LONG,
	CB_PMC_INSTRUCTIONS CB_FILE_LONG, CB_PMC_REF_CYCLES CB_FILE_LONG,
};

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

#endif /* CS_MODEL_H */
