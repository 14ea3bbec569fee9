/* SPDX-License-Identifier: GPL-2.0 */
/* What the measurement core and the debugfs interface share. */
#ifndef CYCLEBENCH_INTERNAL_H
#define CYCLEBENCH_INTERNAL_H

#include <linux/kref.h>
#include <linux/types.h>

#include "cyclebench.h"

#define CB_VERSION "0.1.0"

/* Longest line accepted by the run file and the only= parameter. */
#define CB_CMD_MAX 256

/**
 * struct cb_result - one complete measurement of one fragment.
 * @ref: held by the slot that shows it and by every open cycles file.
 * @cycles: @n raw deltas in run order (vmalloc).
 * @n: ensembles * samples.
 * @ensembles: ensembles in the run.
 * @samples: samples per ensemble.
 * @warmup: warm-up samples before the first kept one.
 * @method: method used.
 * @cpu: CPU the samples were taken on.
 * @tsc_khz: TSC frequency the kernel reported at the time.
 * @smi_valid: whether @smi_before and @smi_after were read.
 * @smi_before: MSR_SMI_COUNT before the fragment's run.
 * @smi_after: MSR_SMI_COUNT after it.
 * @run_id: the number of the run that produced it (1 for the first).
 *
 * Never changed once published: a new run publishes a new result.
 */
struct cb_result {
	struct kref ref;
	u64 *cycles;
	u64 n;
	u32 ensembles;
	u32 samples;
	u32 warmup;
	enum cb_method method;
	unsigned int cpu;
	unsigned int tsc_khz;
	bool smi_valid;
	u64 smi_before;
	u64 smi_after;
	u64 run_id;
};

enum cb_state {
	CB_STATE_NONE,
	CB_STATE_OK,
	CB_STATE_ABORTED,
};

/**
 * struct cb_slot - a fragment and its latest complete result.
 * @group: the fragment's group.
 * @frag: the fragment.
 * @res: latest complete result or NULL; under cb_res_lock.
 * @state: how the fragment's last run ended; under cb_res_lock.
 */
struct cb_slot {
	const struct cb_group *group;
	const struct cb_fragment *frag;
	struct cb_result *res;
	enum cb_state state;
};

extern struct cb_slot cb_slots[];
extern unsigned int cb_nr_slots;

struct cb_result *cb_result_get(struct cb_slot *slot, enum cb_state *state);
void cb_result_put(struct cb_result *res);

const char *cb_method_name(enum cb_method m);
enum cb_method cb_method_used(enum cb_method requested);

/* Defaults from the module parameters, for the info file. */
struct cb_defaults {
	u32 samples;
	u32 ensembles;
	u32 warmup;
	enum cb_method method;
	unsigned int cpu;
	unsigned int max_mb;
};

void cb_get_defaults(struct cb_defaults *d);

/* Status: -1 when idle, else the slot being measured. */
void cb_get_status(int *slot, u64 *done, u64 *total);

int cb_run_command(char *cmd);

int cb_debugfs_init(void);
void cb_debugfs_exit(void);

#endif /* CYCLEBENCH_INTERNAL_H */
