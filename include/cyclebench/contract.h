/* SPDX-License-Identifier: GPL-2.0 */
/*
 * contract.h - what the module, cyclebench-user and cyclestat agree on,
 * written once: the version, the run request's keys with their bounds,
 * defaults and help, the timing methods' names, the per-sample flags and
 * the setup names of a result's info.  Plain C, no include:
 * the module, both programs and the tests compile it as it is.
 *
 * A run request is "SELECTION [key=value ...]" (docs/debugfs-contract.md);
 * lib/grammar.c parses it for the module and for cyclebench-user alike.
 * The tables are initializers: each program makes its own static copy.
 */
#ifndef CYCLEBENCH_CONTRACT_H
#define CYCLEBENCH_CONTRACT_H

#define CB_VERSION "0.2.0"

/* Longest line accepted by the run file and the only= parameter. */
#define CB_CMD_MAX 256
/* Results (a fragment, or one argument of one) in one run. */
#define CB_MAX_SLOTS 1024
/* CPUs one cpus= run may name: 0 .. CB_MAX_CPUS - 1. */
#define CB_MAX_CPUS 64
/* Values in one args= list. */
#define CB_MAX_ARGS 64

/*
 * Bounds of the module's parameters and of the run keys, and their
 * defaults: the module's parameters start at them, the runner uses them.
 * Plain decimals, so that CB_STR() writes them into the parameters'
 * descriptions and the runner's usage.
 */
#define CB_MAX_SAMPLES 100000000
#define CB_MAX_ENSEMBLES 100000
#define CB_MAX_WARMUP 10000000
#define CB_MAX_MB 65536
#define CB_DEF_SAMPLES 1000
#define CB_DEF_ENSEMBLES 10
#define CB_DEF_WARMUP 100
#define CB_DEF_MAX_MB 256
/*
 * Ensemble by ensemble across the results: calib:add_chain's ensemble e
 * runs beside every other result's, so a clock that a busy host moves is
 * divided out ensemble by ensemble (cyclestat pairs them).
 */
#define CB_DEF_INTERLEAVE true

/*
 * The references every figure leans on, which cyclebench-user's and
 * cyclestat run's references=1 (the default) add to any selection: the
 * timing protocol's cost (net figures), and the core clock measured twice,
 * by chains of two latencies on two ports (core cycles, and whether a
 * busy host disturbed that measure).
 */
#define CB_REF_EMPTY "base:empty"
#define CB_REF_ADD "calib:add_chain"
#define CB_REF_IMUL "calib:imul_chain"
#define CB_REFERENCES CB_REF_EMPTY "," CB_REF_ADD "," CB_REF_IMUL

/*
 * The long region's lengths cyclebench-user builds and long_repeat= may
 * name (the module's is its CB_LONG_REPEAT), CB_LONG_REPEATS, come with
 * the groups from kmod/fragments/groups.mk, as a -D flag of the build.
 */
#define __CB_STR(...) #__VA_ARGS__
#define CB_STR(...) __CB_STR(__VA_ARGS__)

/*
 * What may have disturbed a sample, one byte per sample in the flags file
 * (the module writes them, cyclestat --undisturbed leaves them out):
 * @CB_SAMPLE_NMI: an NMI arrived while the sample had interrupts off
 *	(NMIs ignore that); its time is in the sample.
 * @CB_SAMPLE_IRQ: an interrupt was handled since the previous sample, so
 *	this one may start with cold caches and predictors.
 * @CB_SAMPLE_SWITCH: the run's thread was switched out since the previous
 *	sample (the same, and worse).
 * @CB_SAMPLE_CPU: no longer set (it was: TSC_AUX named another CPU; with
 *	interrupts and preemption off the thread cannot move, so it never
 *	could); the bit stays reserved.
 * @CB_SAMPLE_NOPMC: the run counts with the PMU, but a counter was not
 *	active on this CPU for this sample: its counter values are 0.
 * @CB_SAMPLE_TIMEOUT: the body gave up a bounded wait in this sample
 *	(cb_body_timed_out(): contend:token_ring's turn did not come), so
 *	it timed the time-out, not the thing waited for.
 * @CB_SAMPLE_PMCRESET: perf rewrote a counter inside this sample (its
 *	overflow interrupt came, or a counter went backwards): the
 *	sample's counter values are 0.
 */
#define CB_SAMPLE_NMI		0x01
#define CB_SAMPLE_IRQ		0x02
#define CB_SAMPLE_SWITCH	0x04
#define CB_SAMPLE_CPU		0x08
#define CB_SAMPLE_NOPMC		0x10
#define CB_SAMPLE_TIMEOUT	0x20
#define CB_SAMPLE_PMCRESET	0x40
#define CB_NR_SAMPLE_FLAGS	7

/*
 * A result's info "state:" (docs/debugfs-contract.md): never measured, a
 * complete run, its last run interrupted or failed (error: says why; the
 * figures shown, if any, are the previous complete run's), or it cannot
 * run here (reason: says why).  Every program names them from one table:
 * static const char *const n[CB_NR_STATES] = CB_STATE_NAMES;
 */
enum cb_state {
	CB_STATE_NONE,
	CB_STATE_OK,
	CB_STATE_ABORTED,
	CB_STATE_FAILED,
	CB_STATE_SKIPPED,
	CB_NR_STATES
};

#define CB_STATE_NAMES {						\
	[CB_STATE_NONE] = "none",					\
	[CB_STATE_OK] = "ok",						\
	[CB_STATE_ABORTED] = "aborted",					\
	[CB_STATE_FAILED] = "failed",					\
	[CB_STATE_SKIPPED] = "skipped",					\
}

/* A result's info "setup:": none, once for the run, or before each ensemble. */
#define CB_SETUP_NONE "none"
#define CB_SETUP_RUN "run"
#define CB_SETUP_ENSEMBLE "ensemble"

/* A result's info "unit:", what one of its ops is, where its table line names none. */
#define CB_UNIT_DEFAULT "op"

/* Who takes a run key: the module's run file, cyclebench-user, or both. */
#define CB_SIDE_MODULE 1U
#define CB_SIDE_RUNNER 2U
#define CB_SIDE_BOTH (CB_SIDE_MODULE | CB_SIDE_RUNNER)

/* The run keys, in the order messages and documents list them. */
enum cb_run_key {
	CB_KEY_SAMPLES,
	CB_KEY_ENSEMBLES,
	CB_KEY_WARMUP,
	CB_KEY_METHOD,
	CB_KEY_CPU,
	CB_KEY_CPUS,
	CB_KEY_ARGS,
	CB_KEY_PMU,
	CB_KEY_INTERLEAVE,
	CB_KEY_MAX_MB,
	CB_KEY_LONG_REPEAT,
	CB_KEY_REFERENCES,
	CB_KEY_SWEEP,
	CB_NR_KEYS
};

/**
 * struct cb_key_def - one run key.
 * @name: as written, name=value.
 * @lo: the least value of a number.
 * @hi: the largest value of a number.
 * @sides: CB_SIDE_*: who takes it.
 * @help: for a key whose value is a word (or a CPU): the words it takes,
 *	which the parser knows; NULL for a decimal number in @lo..@hi.
 */
struct cb_key_def {
	const char *name;
	unsigned int lo;
	unsigned int hi;
	unsigned int sides;
	const char *help;
};

/* Every run key, by enum cb_run_key: static const struct cb_key_def k[] = CB_KEY_DEFS; */
#define CB_KEY_DEFS {							\
	[CB_KEY_SAMPLES] = { "samples", 1, CB_MAX_SAMPLES, CB_SIDE_BOTH, NULL }, \
	[CB_KEY_ENSEMBLES] = { "ensembles", 1, CB_MAX_ENSEMBLES, CB_SIDE_BOTH, NULL }, \
	[CB_KEY_WARMUP] = { "warmup", 0, CB_MAX_WARMUP, CB_SIDE_BOTH, NULL }, \
	[CB_KEY_METHOD] = { "method", 0, 0, CB_SIDE_BOTH, "paoloni or lfence" }, \
	[CB_KEY_CPU] = { "cpu", 0, 0, CB_SIDE_BOTH, "an online CPU" },	\
	[CB_KEY_CPUS] = { "cpus", 0, 0, CB_SIDE_BOTH,			\
			  "online CPUs below " CB_STR(CB_MAX_CPUS) ", e.g. 0-3 or 0,2" }, \
	[CB_KEY_ARGS] = { "args", 0, 0, CB_SIDE_BOTH,			\
			  "decimal numbers, comma-separated" },		\
	[CB_KEY_PMU] = { "pmu", 0, 0, CB_SIDE_MODULE, "on or off" },	\
	[CB_KEY_INTERLEAVE] = { "interleave", 0, 1, CB_SIDE_BOTH, NULL }, \
	[CB_KEY_MAX_MB] = { "max_mb", 1, CB_MAX_MB, CB_SIDE_RUNNER, NULL }, \
	[CB_KEY_LONG_REPEAT] = { "long_repeat", 0, 0, CB_SIDE_RUNNER,	\
				 "auto or one of " CB_STR(CB_LONG_REPEATS) }, \
	[CB_KEY_REFERENCES] = { "references", 0, 1, CB_SIDE_RUNNER, NULL }, \
	[CB_KEY_SWEEP] = { "sweep", 0, 0, CB_SIDE_RUNNER,		\
			   "cpus: k = 1, 2, 4 ... of cpus= in turn" },	\
}

/*
 * The result format: a tree (the module's debugfs directory, or what
 * cyclebench-user writes) holds these files (docs/debugfs-contract.md).
 * The top level: CB_FILE_INFO, CB_FILE_FRAGMENTS, CB_FILE_STATUS and
 * CB_FILE_RUN (the module's only).  A result's directory,
 * GROUP/NAME[/ARG]/: CB_FILE_INFO, CB_FILE_CYCLES, CB_FILE_CYCLES_LONG,
 * CB_FILE_FLAGS, each counter's (CB_PMC_NAMES, and NAME CB_FILE_LONG for
 * the long region), and a cpus= result's CB_FILE_CPU_DIR (cpuN/: its
 * cycles, cycles_long and flags).
 */
#define CB_FILE_INFO "info"
#define CB_FILE_FRAGMENTS "fragments"
#define CB_FILE_STATUS "status"
#define CB_FILE_RUN "run"
#define CB_FILE_CYCLES "cycles"
#define CB_FILE_CYCLES_LONG "cycles_long"
#define CB_FILE_FLAGS "flags"
#define CB_FILE_LONG "_long"
#define CB_FILE_CPU_DIR "cpu%u"
/* The counters' files, in the order of the pmu key's list. */
#define CB_PMC_CORE_CYCLES "core_cycles"
#define CB_PMC_INSTRUCTIONS "instructions"
#define CB_PMC_REF_CYCLES "ref_cycles"
#define CB_PMC_NAMES { CB_PMC_CORE_CYCLES, CB_PMC_INSTRUCTIONS, CB_PMC_REF_CYCLES }
#define CB_NR_PMC 3

/*
 * A result's CB_FILE_MEMORY, in a saved tree only: what the QEMU plugin
 * (userspace/qemu-plugin/cbcount.c) counted in the result's timed regions,
 * written beside its info by perop.py --save (make run MEM=1).  "KEY:
 * SHORT LONG" lines, the sums over the short and the long region's counted
 * runs: CB_MEM_RUNS the runs, then each count of contract-mem.h; CB_MEM_MODEL's
 * value the cache model's words, CB_MEM_SOURCE's where it came from.
 */
#define CB_FILE_MEMORY "memory"
#define CB_MEM_MODEL "model"
#define CB_MEM_SOURCE "source"
#define CB_MEM_RUNS "runs"

/*
 * Every count of a memory file, by its line in contract-mem.h:
 * CB_MEM_NAME, in the order of the file and of cbcount.so's header.
 */
#define CB_MEM(name, heading) CB_MEM_##name,
enum cb_mem_count {
#include "contract-mem.h"
	CB_NR_MEM
};

#undef CB_MEM

/*
 * A count's key and its heading in a table (NULL: none), one array a
 * program, by including contract-mem.h where CB_MEM() makes each entry:
 *	static const struct cb_mem_def defs[CB_NR_MEM] = {
 *	#define CB_MEM(name, heading) CB_MEM_DEF(name, heading)
 *	#include "contract-mem.h"
 *	#undef CB_MEM
 *	};
 */
struct cb_mem_def {
	const char *name;
	const char *heading;
};

#define CB_MEM_DEF(name, heading)					\
	[CB_MEM_##name] = { #name, heading },

/*
 * Who writes an info key in a scope: nobody, the module, cyclebench-user,
 * both, or both in a cpus= result's info only (the CPU scope: a run on
 * two CPUs or more).
 */
#define CB_W_NONE	0U
#define CB_W_MODULE	CB_SIDE_MODULE
#define CB_W_RUNNER	CB_SIDE_RUNNER
#define CB_W_BOTH	CB_SIDE_BOTH
#define CB_W_CPUS	(CB_SIDE_BOTH | 4U)

/*
 * An info value's form, "KEY: value": CB_T_U32 and CB_T_U64 unsigned
 * decimals, CB_T_INT a signed one (an errno), CB_T_YESNO yes or no,
 * CB_T_WORD one word, CB_T_TEXT the rest of the line, CB_T_LIST what
 * follows "KEY:" is the writer's (" 0,2", " core_cycles instructions"),
 * CB_T_REPEAT a number, or auto (cyclebench-user's top level, where each
 * result has its own).
 */
enum cb_info_type {
	CB_T_U32, CB_T_U64, CB_T_INT, CB_T_YESNO, CB_T_WORD, CB_T_TEXT,
	CB_T_LIST, CB_T_REPEAT, CB_NR_INFO_TYPES
};

#define CB_INFO_TYPE_NAMES { "u32", "u64", "int", "yes/no", "word", "text", \
			     "list", "u32/auto" }

/*
 * Every info key, by its line in contract-info.h: CB_INFO_KEY (cyclestat
 * reads a key by it, its name made from the same line).
 */
#define CB_INFO(k, t, tree, result) CB_INFO_##k,
enum cb_info_key {
#include "contract-info.h"
	CB_NR_INFO_KEYS
};

#undef CB_INFO

/*
 * The writer's emitters (lib/info.c), made from contract-info.h where
 * CB_INFO() expands a key's TREE or RESULT word with CB_IF_ANY_##WORD(...):
 * its arguments where a side writes the key there, nothing where none
 * does.  Which side may write it, contract.sh checks on each side's trees.
 */
#define CB_IF_ANY_NONE(...)
#define CB_IF_ANY_MODULE(...) __VA_ARGS__
#define CB_IF_ANY_RUNNER(...) __VA_ARGS__
#define CB_IF_ANY_BOTH(...) __VA_ARGS__
#define CB_IF_ANY_CPUS(...) __VA_ARGS__

/*
 * Each key's row, by enum cb_info_key, for a program's own copy:
 *
 *	static const struct cb_info_def defs[] = {
 *	#define CB_INFO(k, t, tree, result) CB_INFO_DEF(k, t, tree, result)
 *	#include "contract-info.h"
 *	#undef CB_INFO
 *	};
 */
struct cb_info_def {
	const char *name;
	enum cb_info_type type;
	unsigned int tree;
	unsigned int result;
};

#define CB_INFO_DEF(k, t, tree, result)					\
	[CB_INFO_##k] = { #k, CB_T_##t, CB_W_##tree, CB_W_##result },

/* The methods' names, in enum cb_method's order (timing.h). */
#define CB_METHOD_NAMES { "paoloni", "lfence", "paoloni-nordtscp", "lfence-nordtscp", \
			  "cpuid-nordtscp" }

#endif /* CYCLEBENCH_CONTRACT_H */
