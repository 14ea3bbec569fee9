// SPDX-License-Identifier: GPL-2.0
/*
 * contend: what sharing costs.  Each pair is the same body on a line all
 * CPUs share and on one of their own (.per_cpu: with cyclebench-user's
 * cpus=, every CPU gets its own state and setup).  On one CPU the two are
 * the same; run on several at once (cpus=0-1), the shared ones pay for the
 * line's trips between the CPUs' caches and the private ones must not.
 * The locks are the kernel's in the module and a test-and-test-and-set
 * stand-in in cyclebench-user (include/cyclebench/portable.h).  token_ring is the
 * core-to-core hand-over, as a fragment: run it on each pair of CPUs for
 * the matrix (cyclebench-user --c2c times the same trip its own way).
 */
#ifdef __KERNEL__
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#endif

#include "contract.h"	/* CB_MAX_CPUS */
#include "cyclebench.h"

/* one counter on a line of its own */
struct contend_counter {
	atomic_t v;
} __aligned(SMP_CACHE_BYTES);

/* a lock and the count it guards, on a line of their own */
struct contend_lock {
	spinlock_t lock;	/* guards n */
	u64 n;
} __aligned(SMP_CACHE_BYTES);

struct contend_raw_lock {
	raw_spinlock_t lock;	/* guards n */
	u64 n;
} __aligned(SMP_CACHE_BYTES);

/* the control that needs no state: each CPU's own counter */
static DEFINE_PER_CPU(unsigned long, contend_pcpu);

/* where a store goes: a word of the shared line, or a line of this CPU's */
struct contend_word {
	u64 *word;
};

/*
 * Eight words on one line, one per CPU (mod 8): CPUs 8 apart would write
 * the same word, true sharing, so name fewer or neighbouring CPUs.
 */
static u64 contend_line[8] __aligned(SMP_CACHE_BYTES);
/* a line per CPU (mod CB_MAX_CPUS) */
static struct {
	u64 word;
} __aligned(SMP_CACHE_BYTES) contend_lines[CB_MAX_CPUS];

static int false_sharing_setup(struct cb_env *env)
{
	struct contend_word *st = env->state;

	st->word = &contend_line[env->cpu % 8];
	return 0;
}

/*
 * A token passed round the CPUs of the run on one line (token_ring): the
 * line holds a count; a CPU's turns are the counts equal to its rank
 * modulo k (the CPUs of the run), and on its turn it writes the next.  One
 * op is one lap, k hand-overs: with k = 2, a round trip, whose half is the
 * one-way latency of a core-to-core matrix.  Alone (k = 1) it never waits.
 * A turn that has not come within CONTEND_TRIES reads goes by (the other
 * CPU is between samples, or gone), so a sample stays bounded, and is
 * flagged a time-out (cb_body_timed_out(): flags bit 32), not read as a
 * lap; nobody writes out of turn, so the next lap is in step again.
 */
#define CONTEND_TRIES 16384
static struct {
	u64 count;
} __aligned(SMP_CACHE_BYTES) contend_token;

struct contend_turn {
	u64 *line;
	u64 next;	/* the count that is this CPU's turn */
	u64 k;
} __aligned(SMP_CACHE_BYTES);	/* written each op: a line of its own */

static int token_setup(struct cb_env *env)
{
	struct contend_turn *st = env->state;
	u64 v = READ_ONCE(contend_token.count);

	st->line = &contend_token.count;
	st->k = env->nr_cpus;
	/* the first count from v on that is this CPU's: only a turn's owner writes */
	st->next = v - v % st->k + env->rank;
	if (st->next < v)
		st->next += st->k;
	return 0;
}

static int lock_setup(struct cb_env *env)
{
	struct contend_lock *st = env->state;

	spin_lock_init(&st->lock);
	return 0;
}

static int raw_lock_setup(struct cb_env *env)
{
	struct contend_raw_lock *st = env->state;

	raw_spin_lock_init(&st->lock);
	return 0;
}

static int own_line_setup(struct cb_env *env)
{
	struct contend_word *st = env->state;

	st->word = &contend_lines[env->cpu % CB_MAX_CPUS].word;
	return 0;
}

CB_BODY_STATE(atomic_inc_shared, struct contend_counter)
{
	atomic_inc(&st->v);
}

CB_BODY_STATE(atomic_inc_private, struct contend_counter)
{
	atomic_inc(&st->v);
}

CB_BODY_STATE(cmpxchg_shared, struct contend_counter)
{
	int old = atomic_read(&st->v);

	atomic_cmpxchg(&st->v, old, old + 1);
}

CB_BODY_STATE(spin_lock_shared, struct contend_lock)
{
	spin_lock(&st->lock);
	st->n++;
	spin_unlock(&st->lock);
}

CB_BODY_STATE(raw_spin_lock_shared, struct contend_raw_lock)
{
	raw_spin_lock(&st->lock);
	st->n++;
	raw_spin_unlock(&st->lock);
}

/* (sync:this_cpu_inc is the same body: the object-code check wants one name once) */
CB_BODY(percpu_inc)
{
	this_cpu_inc(contend_pcpu);
}

CB_BODY_STATE(store_false_sharing, struct contend_word)
{
	u64 *w = st->word;

	WRITE_ONCE(*w, READ_ONCE(*w) + 1);
}

CB_BODY_STATE(token_ring, struct contend_turn)
{
	u64 *line = st->line, next = st->next;
	unsigned int tries = CONTEND_TRIES;

	while (READ_ONCE(*line) != next) {
		if (!--tries) {
			cb_body_timed_out();
			return;
		}
	}
	WRITE_ONCE(*line, next + 1);
	st->next = next + st->k;
}

CB_BODY_STATE(store_own_line, struct contend_word)
{
	u64 *w = st->word;

	WRITE_ONCE(*w, READ_ONCE(*w) + 1);
}

static const struct cb_fragment contend_fragments[] = {
	{
		CB_FRAGMENT_FIELDS(atomic_inc_shared, 1,
				   "atomic_inc on one counter every CPU of the run shares"),
	},
	{
		CB_FRAGMENT_FIELDS(atomic_inc_private, 1,
				   "atomic_inc on a counter of the CPU's own (the control)"),
		.per_cpu = true,
	},
	{
		CB_FRAGMENT_FIELDS(cmpxchg_shared, 1,
				   "atomic_cmpxchg(old, old + 1) on one shared counter"),
	},
	{
		CB_FRAGMENT_FIELDS(spin_lock_shared, 1,
				   "spin_lock + count + spin_unlock on one lock every CPU shares"),
		.setup = lock_setup,
		.sleeps_on_rt = true,
	},
	{
		CB_FRAGMENT_FIELDS(raw_spin_lock_shared, 1,
				   "raw_spin_lock + count + raw_spin_unlock on one shared lock"),
		.setup = raw_lock_setup,
	},
	CB_FRAGMENT(percpu_inc, 1, "this_cpu_inc on each CPU's own counter (flat in k)"),
	{
		CB_FRAGMENT_FIELDS(store_false_sharing, 1,
				   "load and store a word of its own, on a line the CPUs share"),
		.per_cpu = true,
		.setup = false_sharing_setup,
	},
	{
		CB_FRAGMENT_FIELDS(store_own_line, 1,
				   "load and store a word on a line of the CPU's own"),
		.per_cpu = true,
		.setup = own_line_setup,
	},
	{
		CB_FRAGMENT_FIELDS(token_ring, 1,
				   "a token handed round the CPUs on one line: a lap per op"),
		.per_cpu = true,
		.setup = token_setup,
	},
};

CB_GROUP(contend, contend_fragments);
