// SPDX-License-Identifier: GPL-2.0
/*
 * lifecycle.c - a request entry's life in a run (lifecycle.h says which
 * steps), compiled into the module and into cyclebench-user: the rules
 * are here once, each side's allocation and bookkeeping in its hooks.
 * Calls nothing but the hooks it is given.
 */
#ifdef __KERNEL__
#include <linux/overflow.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "lifecycle.h"

/*
 * Before ensemble @e of the entry: the first time, its state (from @env,
 * the side's argument, CPU and rank) and its once-a-run setup; then, for a
 * setup_each_ensemble fragment, its setup for this ensemble.  An error
 * leaves what was made for cb_life_entry_end().
 */
int cb_life_ensemble_begin(struct cb_life *life,
			   const struct cb_fragment *frag,
			   const struct cb_env *env,
			   const struct cb_life_hooks *h)
{
	bool each = frag->setup_each_ensemble;
	int ret;

	if (!life->started) {
		life->env = *env;
		life->env.state = NULL;
		life->started = true;
		if (frag->state_size) {
			life->env.state = h->zalloc(frag->state_size);
			if (!life->env.state)
				return -ENOMEM;
		}
		if (frag->setup && !each) {
			ret = h->setup(frag, &life->env);
			if (ret)
				return ret;
			life->set_up = true;
		}
	}
	return frag->setup && each ? h->setup(frag, &life->env) : 0;
}

/* After the ensemble's samples (whatever they returned): its teardown. */
void cb_life_ensemble_end(struct cb_life *life,
			  const struct cb_fragment *frag,
			  const struct cb_life_hooks *h)
{
	if (frag->teardown && frag->setup_each_ensemble)
		h->teardown(frag, &life->env);
}

/* The entry is done with, or the run stopped: the once-a-run teardown, the state. */
void cb_life_entry_end(struct cb_life *life, const struct cb_fragment *frag,
		       const struct cb_life_hooks *h)
{
	if (!life->started)
		return;
	if (frag->teardown && life->set_up)
		h->teardown(frag, &life->env);
	h->free(life->env.state);
	memset(life, 0, sizeof(*life));
}

/*
 * Warm-up samples before ensemble @e's: a new layout is cold again, and
 * so, interleaved, is an entry after the others' ensembles went through
 * the caches: warm those up too.
 */
u64 cb_life_warmup(const struct cb_fragment *frag, u32 e, bool interleave,
		   u32 warmup)
{
	return (!e || frag->setup_each_ensemble || interleave) ? warmup : 0;
}

/*
 * Bytes per sample of one entry on @k CPUs (1 without cpus=): the short
 * region's deltas, the long one's (unless .no_long), @flag_bytes of flags,
 * each per CPU; with two CPUs or more, each CPU's barrier release (a u64
 * TSC) and meeting number (a u32) too.
 */
u64 cb_life_sample_bytes(const struct cb_fragment *frag, unsigned int k,
			 unsigned int flag_bytes)
{
	u64 per = (frag->no_long ? 1 : 2) * sizeof(u64) + flag_bytes;

	k = k ? k : 1;
	return k * per + (k > 1 ? k * (sizeof(u64) + sizeof(u32)) : 0);
}

/*
 * Memory a run would allocate on @k CPUs: every entry's arrays, plus the
 * largest buffer one setup allocates (setups run one at a time) -
 * interleaved, plus every buffer set up once for the run, as those are
 * alive together.  U64_MAX on overflow.
 */
u64 cb_life_bytes(const struct cb_req *req, unsigned int k,
		  unsigned int flag_bytes)
{
	u64 n = (u64)req->samples * req->ensembles;
	u64 bytes = 0, buf = 0, b;
	unsigned int i;

	for (i = 0; i < req->nr; i++) {
		const struct cb_fragment *frag = req->frag[i];

		if (check_mul_overflow(n, cb_life_sample_bytes(frag, k, flag_bytes), &b) ||
		    check_add_overflow(bytes, b, &bytes))
			return U64_MAX;
		if (!frag->arg_bytes)
			continue;
		if (req->interleave && frag->setup && !frag->setup_each_ensemble) {
			if (check_add_overflow(bytes, req->arg[i], &bytes))
				return U64_MAX;
		} else if (req->arg[i] > buf) {
			buf = req->arg[i];
		}
	}
	if (check_add_overflow(bytes, buf, &bytes))
		return U64_MAX;
	return bytes;
}
