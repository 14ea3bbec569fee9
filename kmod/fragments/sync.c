// SPDX-License-Identifier: GPL-2.0
/*
 * sync: what the kernel's synchronisation primitives cost uncontended, on
 * one CPU: the floor under every lock, atomic and barrier.
 */
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "cyclebench.h"

static DEFINE_SPINLOCK(cb_lock);
static DEFINE_RAW_SPINLOCK(cb_raw_lock);
static atomic_t cb_atomic = ATOMIC_INIT(0);
static DEFINE_PER_CPU(unsigned long, cb_pcpu);

/* On PREEMPT_RT a spinlock_t is an rt_mutex: .sleeps_on_rt skips it there. */
CB_BODY(spin_lock_unlock)
{
	spin_lock(&cb_lock);
	spin_unlock(&cb_lock);
}

CB_BODY(raw_spin_lock_unlock)
{
	raw_spin_lock(&cb_raw_lock);
	raw_spin_unlock(&cb_raw_lock);
}

CB_BODY(atomic_inc)
{
	atomic_inc(&cb_atomic);
}

CB_BODY(atomic_cmpxchg)
{
	int old = atomic_read(&cb_atomic);

	atomic_cmpxchg(&cb_atomic, old, old + 1);
}

CB_BODY(smp_mb)
{
	smp_mb();	/* the barrier is what is measured */
}

CB_BODY(this_cpu_inc)
{
	this_cpu_inc(cb_pcpu);
}

CB_BODY(rcu_read_lock_unlock)
{
	rcu_read_lock();
	rcu_read_unlock();
}

static const struct cb_fragment sync_fragments[] = {
	{
		CB_FRAGMENT_FIELDS(spin_lock_unlock, 1, "spin_lock() + spin_unlock(), uncontended"),
		.sleeps_on_rt = true,
	},
	CB_FRAGMENT(raw_spin_lock_unlock, 1, "raw_spin_lock() + raw_spin_unlock(), uncontended"),
	CB_FRAGMENT(atomic_inc, 1, "atomic_inc(): one locked read-modify-write"),
	CB_FRAGMENT(atomic_cmpxchg, 1, "atomic_read() + atomic_cmpxchg() that succeeds"),
	CB_FRAGMENT(smp_mb, 1, "smp_mb(): a full barrier (a locked add to the stack on x86)"),
	CB_FRAGMENT(this_cpu_inc, 1, "this_cpu_inc(): a per-CPU counter, no lock prefix"),
	CB_FRAGMENT(rcu_read_lock_unlock, 1, "rcu_read_lock() + rcu_read_unlock()"),
};

CB_GROUP(sync, sync_fragments);
