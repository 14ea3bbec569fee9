/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lifecycle.h - the life of one request entry in a run, written once for
 * the module (measure.c, cpus.c) and cyclebench-user (userspace/runner/engine.c):
 *
 *	cb_life_ensemble_begin(), before each ensemble: the first time,
 *		its state (state_size bytes, zeroed) and, unless
 *		setup_each_ensemble, its setup for the whole run; with
 *		setup_each_ensemble, its setup for this ensemble
 *	(the side takes the samples, into the ensemble's place in the
 *		result's arrays, after a warm-up where the caches may be cold)
 *	cb_life_ensemble_end(), after each: setup_each_ensemble's teardown
 *	cb_life_entry_end(), the entry done or the run stopped: its
 *		once-a-run teardown (where that setup succeeded), the state
 *		freed
 *
 * and the bytes a run's arrays take, the one estimate both sides check
 * max_mb= against.  What differs is a side's hooks (struct cb_life_hooks):
 * kzalloc or mmap for the state, the module counting setups and injecting
 * their faults, the runner noting a setup's 2 MiB pages.  Portable: it
 * includes only cyclebench.h (portable.h outside the kernel) and
 * grammar.h.
 */
#ifndef CB_LIFECYCLE_H
#define CB_LIFECYCLE_H

#include "grammar.h"

/**
 * struct cb_life_hooks - what a side does at each step.
 * @zalloc: @size zeroed bytes for the state, or NULL.
 * @free: the state back (NULL is fine).
 * @setup: the fragment's setup (called only where it has one).
 * @teardown: its teardown (likewise).
 */
struct cb_life_hooks {
	void *(*zalloc)(size_t size);
	void (*free)(void *p);
	int (*setup)(const struct cb_fragment *frag, struct cb_env *env);
	void (*teardown)(const struct cb_fragment *frag, struct cb_env *env);
};

/**
 * struct cb_life - a request entry between its first ensemble and its end
 *	(on one CPU: a cpus= run's .per_cpu fragment has one per CPU).
 * @env: its argument and what its setup made.
 * @started: its state is allocated (and maybe set up).
 * @set_up: its once-a-run setup succeeded: teardown is due at the end.
 */
struct cb_life {
	struct cb_env env;
	bool started;
	bool set_up;
};

int cb_life_ensemble_begin(struct cb_life *life,
			   const struct cb_fragment *frag,
			   const struct cb_env *env,
			   const struct cb_life_hooks *h);
void cb_life_ensemble_end(struct cb_life *life,
			  const struct cb_fragment *frag,
			  const struct cb_life_hooks *h);
void cb_life_entry_end(struct cb_life *life, const struct cb_fragment *frag,
		       const struct cb_life_hooks *h);
u64 cb_life_warmup(const struct cb_fragment *frag, u32 e, bool interleave,
		   u32 warmup);

/* Ensemble @e's place in an array of @samples per ensemble; NULL stays NULL. */
#define cb_life_at(a, e, samples) ({					\
	__typeof__(a) __cb_at = (a);					\
	__cb_at ? __cb_at + (u64)(e) * (samples) : NULL;		\
})

/*
 * Bytes per sample a side keeps beside the cycles: the module a byte of
 * CB_SAMPLE_* flags per sample and CPU, the runner none.
 */
#define CB_LIFE_FLAG_BYTES_MODULE	1
#define CB_LIFE_FLAG_BYTES_RUNNER	0

u64 cb_life_sample_bytes(const struct cb_fragment *frag, unsigned int k,
			 unsigned int flag_bytes);
u64 cb_life_bytes(const struct cb_req *req, unsigned int k,
		  unsigned int flag_bytes);

#endif /* CB_LIFECYCLE_H */
