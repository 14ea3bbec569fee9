/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the module share.  Its files, in layers, highest
 * first: every call points down the list (make check's tests/callgraph.py
 * reads it and fails on a call up it; --graph draws the arrows):
 *
 *	main.c debugfs.c info.c engine.c measure.c cpus.c sample.c
 *	request.c params.c results.c lifecycle.c grammar.c alloc.c hugemap.c
 *	internal.h
 *
 * A lower file reaches back up only through a pointer it is handed: cpus.c
 * and lifecycle.c set up a fragment with measure.c's hooks.
 *
 * grammar.c	"SELECTION key=value ..." -> struct cb_req: the parser the
 *		module and cyclebench-user share (grammar.h, contract.h)
 * params.c	module parameters and their defaults
 * results.c	the fragments, their result slots, publication of a run
 * request.c	a run file's request: parsed with the module's catalog, its
 *		memory and time checked against the parameters (and the
 *		clock: a sample's limit in ticks, a loop's speed)
 * lifecycle.c	a request entry's life in a run (state, setup, warm-up,
 *		its place in the arrays, teardown) and the bytes a run
 *		takes: the rules cyclebench-user shares (lifecycle.h)
 * engine.c	a run: memory, setup, samples, teardown, publication
 * measure.c	one fragment's samples and the results they fill; the
 *		module's hooks of an entry's life (counted setups)
 * cpus.c	a cpus= run: a kthread per CPU, the barrier they meet at
 * sample.c	the hardware counters and the disturbance checks around samples
 * info.c	the info files and a catalog line, through a sink: the
 *		writer cyclebench-user shares (info.h)
 * debugfs.c	the files; calls the engine, never called back
 * main.c	load and unload
 * internal.h	(its inline helpers: a job's abort, a loop's speed)
 */
#ifndef CYCLEBENCH_INTERNAL_H
#define CYCLEBENCH_INTERNAL_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/ratelimit.h>
#include <linux/types.h>

#include "cyclebench.h"
#include "grammar.h"
#include "info.h"
#include "lifecycle.h"

/* Hardware counters read beside the TSC: core cycles, instructions, ref cycles. */
extern const char *const cb_pmc_names[CB_NR_PMC];
/* The two regions a counter is read around: its files NAME and NAME_long. */
#define CB_REGION_SHORT 0
#define CB_REGION_LONG 1
#define CB_NR_REGIONS 2

/*
 * One sample's whole interrupts-off window (protocol, short region and the
 * long region's copies) is at most max_sample_us, and that at most 1 s:
 * a tenth of the hard-lockup detector's default 10 s (watchdog_thresh),
 * a twentieth of the soft-lockup one and of the RCU stall timeout (21 s),
 * so no detector fires on a sample even where those are set lower.
 */
#define CB_MAX_SAMPLE_US 1000000U

/*
 * Why a write or a parameter was refused, for the log: the writer sees
 * only the errno.  Rate-limited, so a loop of bad writes cannot flood it.
 */
extern struct ratelimit_state cb_warn_rs;
#define cb_warn(fmt, ...)						\
	do {								\
		if (__ratelimit(&cb_warn_rs))				\
			pr_warn(fmt, ##__VA_ARGS__);			\
	} while (0)

/* @n iterations of a dec/jnz loop, its count hidden from the compiler. */
static __always_inline void cb_spin_iters(unsigned long n)
{
	asm volatile("1:\n\tdec %0\n\tjnz 1b" : "+r" (n));
}

/* --- params.c ------------------------------------------------------------ */

/* Defaults from the module parameters. */
struct cb_defaults {
	u32 samples;
	u32 ensembles;
	u32 warmup;
	enum cb_method method;
	unsigned int cpu;
	unsigned int max_mb;
	unsigned int max_sample_us;
	unsigned int barrier_ms;
};

void cb_get_defaults(struct cb_defaults *d);
const char *cb_only_spec(void);
bool cb_run_on_load_param(void);
enum cb_method cb_method_used(enum cb_method requested);
void cb_probe_lfence(void);
const char *cb_lfence_note(void);

/* --- results.c ----------------------------------------------------------- */

/**
 * struct cb_result - one complete measurement of one slot.
 * @ref: held by the slot that shows it and by every open cycles file.
 * @cycles: @n deltas of the short region, in run order (vmalloc).
 * @cycles_long: @n deltas of the long region, or NULL.
 * @n: ensembles * samples.
 * @ensembles: ensembles in the run.
 * @samples: samples per ensemble.
 * @warmup: warm-up samples before each series.
 * @ops: operations per body run.
 * @method: method used.
 * @cpu: CPU the samples were taken on.
 * @tsc_khz: TSC frequency the kernel reported at the time.
 * @dist: what disturbed the samples (SMIs around the run, NMIs, flagged
 *	and retaken samples, which counters counted): info's keys for them,
 *	as lib/info.c writes them.
 * @run_id: the number of the run that produced it (1 for the first).
 * @interleave: its ensembles alternated with the run's other results'.
 * @flags: @n bytes of CB_SAMPLE_* bits, what disturbed each sample.
 * @pmc: per region (CB_REGION_SHORT, CB_REGION_LONG), @n deltas of each
 *	hardware counter (cb_pmc_names) around that region, or NULL; where
 *	@dist.pmc_open has its bit.
 * @cpus: a cpus= run's CPUs (bit N: CPU N; the first is @cpu), or 0.
 * @nr_cpus: how many CPUs ran it at once (1 without cpus=).
 * @pc_cycles: with @cpus, each CPU's @n short-region deltas, in the order
 *	of @cpus ([0] is @cycles).
 * @pc_cycles_long: likewise for the long region, or NULL.
 * @pc_flags: likewise, each CPU's @n CB_SAMPLE_* bytes ([0] is @flags).
 * @release: with @cpus, while the run is in flight: each CPU's TSC as it
 *	left the barrier before each kept sample (cpus.c); freed at the end.
 * @round: likewise, the barrier's meeting that was (U32_MAX: none).
 * @spread: the median over @in_step samples of the latest CPU's release
 *	less the earliest's, in TSC ticks (info's start_spread).
 * @in_step: samples every CPU took at the same meeting.
 *
 * Never changed once published: a new run publishes a new result.
 */
struct cb_result {
	struct kref ref;
	u64 *cycles;
	u64 *cycles_long;
	u64 n;
	u32 ensembles;
	u32 samples;
	u32 warmup;
	u32 ops;
	enum cb_method method;
	unsigned int cpu;
	unsigned int tsc_khz;
	struct cb_disturbed dist;
	u64 run_id;
	bool interleave;
	u8 *flags;
	u64 *pmc[CB_NR_REGIONS][CB_NR_PMC];
	u64 cpus;
	unsigned int nr_cpus;
	u64 **pc_cycles;
	u64 **pc_cycles_long;
	u8 **pc_flags;
	u64 **release;
	u32 **round;
	u64 spread;
	u64 in_step;
};

/**
 * struct cb_slot - a fragment (or one argument of it) and its latest result.
 * @group: the fragment's group.
 * @frag: the fragment.
 * @arg: the argument, if @has_arg.
 * @has_arg: the fragment takes arguments: the name is group:name/ARG.
 * @dflt: @arg is in the fragment's default list (a selection of the
 *	fragment runs it).
 * @res: latest complete result or NULL; under the result lock.
 * @state: how the slot's last run ended; under the result lock.
 * @err: with CB_STATE_FAILED, the error setup returned.
 * @probe: TSC ticks of the short region in the last run's probe (0: never
 *	probed), written by the run's thread, read when a request is checked.
 * @probe_at: when (jiffies) @probe was taken: a refusal from it lasts
 *	CB_PROBE_AGE_S (request.c).
 * @held: a run of it left preemption disabled or a lock held: its state
 *	was kept, and the fragment is refused until unload (measure.c).
 *
 * Slots are only ever added (by a run naming a new argument), never
 * removed before unload; everything but @res, @state, @err, @probe,
 * @probe_at and @held is fixed.
 */
struct cb_slot {
	const struct cb_group *group;
	const struct cb_fragment *frag;
	u64 arg;
	bool has_arg;
	bool dflt;
	struct cb_result *res;
	enum cb_state state;
	int err;
	u64 probe;
	unsigned long probe_at;
	bool held;
};

int cb_results_init(unsigned int max_mb);
void cb_results_exit(void);
unsigned int cb_nr_slots(void);
struct cb_slot *cb_slot(unsigned int i);
int cb_slot_find(const struct cb_fragment *frag, u64 arg, bool add);
unsigned int cb_nr_groups(void);
const struct cb_group *cb_group(unsigned int i);
u32 cb_slot_ops(const struct cb_slot *slot);
const struct cb_catalog *cb_catalog(void);

struct cb_result *cb_result_get(struct cb_slot *slot, enum cb_state *state,
				int *err);
void cb_result_put(struct cb_result *res);
void cb_result_drop_release(struct cb_result *res);
void cb_publish(const unsigned int *slots, struct cb_result **res,
		const int *errs, unsigned int nr, enum cb_state state);

/* --- request.c ----------------------------------------------------------- */

void cb_req_defaults(struct cb_req *req);
int cb_parse_request(char *cmd, struct cb_req *req);
int cb_req_check(const struct cb_req *req);
int cb_req_check_cpus(const struct cb_req *req);
u64 cb_limit_ticks(unsigned int us);
u64 cb_loop_ticks16(void);
u64 cb_req_bytes(const struct cb_req *req);

/* --- engine.c ------------------------------------------------------------ */

int cb_run(struct cb_req *req, bool may_leave, int *entry_err);
void cb_engine_init(void);
extern unsigned int cb_tsc_step;
void cb_engine_exit(void);
int cb_run_command(char *cmd);
void cb_get_status(int *slot, u64 *done, u64 *total);

/* --- sample.c ------------------------------------------------------------ */

/**
 * struct cb_pmu - a run's hardware counters, each opened on its own.
 * @ev: pinned kernel counters on the run's CPU (cb_pmc_names), or NULL.
 * @open: bit k: counter k counts in this run.
 * @tsc: testing (fault_pmu_tsc): the open counters read the TSC.
 * @rewind: testing (fault_pmu_rewind): and go back one across a region.
 * @why: why counter k does not count, or NULL (a static string).
 * @err: the error that stopped counter k, or 0.
 * @gp_mask: general-purpose counter width, as a mask.
 * @fixed_mask: fixed counter width, as a mask.
 */
struct cb_pmu {
	struct perf_event *ev[CB_NR_PMC];
	u8 open;
	bool tsc;
	bool rewind;
	const char *why[CB_NR_PMC];
	int err[CB_NR_PMC];
	u64 gp_mask;
	u64 fixed_mask;
};

/**
 * struct cb_disturb - what happened around the samples of one result.
 * @irqs: interrupts handled on the CPU, read as the last sample began.
 * @csw: context switches of the run's thread, likewise.
 * @nmi_start: NMIs on the CPU as this sample began.
 * @nmi_end: NMIs as the previous sample ended.
 * @cold: this sample's CB_SAMPLE_IRQ and CB_SAMPLE_SWITCH bits.
 * @nmi_in: NMIs inside kept samples.
 * @nmi_out: NMIs between samples, in warm-up samples and in samples
 *	taken again.
 * @flagged: kept samples with each CB_SAMPLE_* bit (NMI, IRQ, SWITCH, CPU,
 *	NOPMC, TIMEOUT, PMCRESET).
 * @f: the last sample's CB_SAMPLE_* bits, counted in @flagged if it is
 *	kept (cb_sample_kept()).
 * @retaken: samples taken again for holding interrupts off too long
 *	(cb_sample_retaken()).
 * @timeouts: cb_body_timeouts on this CPU as this sample began.
 * @perf_irqs: the PMU's overflow interrupts (NMIs) on this CPU, likewise.
 * @pmu: the run's counters, or NULL when none counts.
 * @pmc_out: per region, where this ensemble's counter deltas go.
 * @at: this sample's readings, CB_PMC_SHORT and CB_PMC_LONG (+ 1 after).
 * @idx: the counters' RDPMC indices for this sample.
 * @pmc_ok: every open counter was active on this CPU as this sample began.
 * @primed: the baselines were read (at the entry's first sample).
 * @probe_csw: @csw as the probe began (cb_probe_begin()).
 * @pc: the preemption count as this sample (or the probe) began.
 * @locks: the locks lockdep saw held then (0 without lockdep).
 * @broke: what the body did that a body must not (a static string), or
 *	NULL: cb_sample_broken() and cb_probe_end() set it; cb_broke_held
 *	when it left preemption disabled or a lock held.
 *
 * Interrupts cannot arrive while a sample holds them off, so @irqs and
 * @csw change only between samples; NMIs can, and are told apart.
 */
struct cb_disturb {
	unsigned long irqs;
	unsigned long csw;
	unsigned int nmi_start;
	unsigned int nmi_end;
	u8 cold;
	u64 nmi_in;
	u64 nmi_out;
	u64 flagged[CB_NR_SAMPLE_FLAGS];
	u8 f;
	u64 retaken;
	u64 timeouts;
	unsigned int perf_irqs;
	const struct cb_pmu *pmu;
	u64 *pmc_out[CB_NR_REGIONS][CB_NR_PMC];
	u64 at[2 * CB_NR_REGIONS][CB_NR_PMC];
	u32 idx[CB_NR_PMC];
	bool pmc_ok;
	bool primed;
	unsigned long probe_csw;
	int pc;
	int locks;
	const char *broke;
};

extern const char *const cb_broke_held;

void cb_pmu_open(struct cb_pmu *pmu, const struct cb_req *req,
		 struct cb_result **res);
void cb_pmu_close(struct cb_pmu *pmu);

/* --- engine.c, measure.c: a run in flight ---------------------------------- */

/**
 * struct cb_job - a run in progress, shared by the writer and the kthread.
 * @ref: one for the writer, one for the kthread; the last put frees it.
 * @done: completed by the kthread once the run is published.
 * @ret: 0, or why the run stopped early.
 * @err: per request entry, 0, or why it failed: its setup, a body that
 *	slept (the run stopped there), or one that held interrupts off too
 *	long (-ETIME: that entry stopped, the others went on).
 * @entry_err: the first @err of an entry that stopped alone, or 0.
 * @req: the request, the job's own (freed with it).
 * @res: the results being filled, one per request entry.
 * @limit: the longest sample, in TSC ticks.
 * @pmu: the hardware counters, while the run counts.
 * @fl: per request entry, its state between its ensembles.
 * @lost_cpu: with -EAGAIN, the CPU the run lost (hotplug); with
 *	-ETIMEDOUT, the CPU that did not reach the barrier.
 *
 * The kthread publishes the run itself, so a writer that a signal takes
 * away need not wait for it: the job outlives whichever leaves first.
 */
struct cb_job {
	struct kref ref;
	struct completion done;
	u64 seq;
	int ret;
	int *err;
	int entry_err;
	struct cb_req *req;
	struct cb_result **res;
	u64 limit;
	struct cb_pmu pmu;
	struct cb_flight *fl;
	unsigned int lost_cpu;
};

/**
 * struct cb_flight - a request entry between its ensembles.
 * @life: its state and setup (lifecycle.h).
 * @dist: what disturbed its samples so far.
 * @measured: its ensembles that completed.
 * @over: its samples taken again for holding interrupts off past the
 *	limit, in all its ensembles (harness.h: cb_over_spent()).
 * @tried: its samples so far, warm-up included.
 */
struct cb_flight {
	struct cb_life life;
	struct cb_disturb dist;
	u32 measured;
	u64 over;
	u64 tried;
};

/*
 * The run to stop: its job's seq, or CB_ABORT_ALL (rmmod); engine.c sets
 * it.  A number, not a flag, so that a writer that gives up late cannot
 * stop the next run.
 */
#define CB_ABORT_ALL	U64_MAX
extern u64 cb_abort;

/* Whether the run of @job is to stop: a signal to its writer, or rmmod. */
static inline bool cb_aborted(const struct cb_job *job)
{
	u64 abort = READ_ONCE(cb_abort);

	return unlikely(abort == job->seq || abort == CB_ABORT_ALL);
}

bool cb_skipped(const struct cb_fragment *frag);
struct cb_result *cb_result_alloc(const struct cb_req *req, unsigned int i);
int cb_ensemble(struct cb_job *job, unsigned int i, u32 e, u64 done);
void cb_entry_end(struct cb_job *job, unsigned int i);
void cb_entry_failed(struct cb_job *job, unsigned int i, int ret);
void cb_get_setup_counts(unsigned int *setups, unsigned int *teardowns);

/* --- cpus.c -------------------------------------------------------------- */

void cb_unbind(struct task_struct *task);
int cb_on_cpus(struct cb_job *job, unsigned int i, struct cb_ctx *ctx, u32 e,
	       const struct cb_life_hooks *hooks);
int cb_meet(struct cb_ctx *ctx, u64 i);
int cb_cpus_alloc(struct cb_result *res, u64 cpus, gfp_t gfp);
void cb_cpus_spread(struct cb_result *res, bool complete);

/* --- debugfs.c ----------------------------------------------------------- */

int cb_debugfs_init(void);
void cb_debugfs_exit(void);

#endif /* CYCLEBENCH_INTERNAL_H */
