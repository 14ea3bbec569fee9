// SPDX-License-Identifier: GPL-2.0
/*
 * time: what reading the time costs the kernel, from the full clocksource
 * path down to one load of jiffies.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched/clock.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>

#include "cyclebench.h"

CB_BODY(ktime_get_ns)
{
	u64 t = ktime_get_ns();

	CB_OPAQUE(t);
}

CB_BODY(ktime_get_mono_fast_ns)
{
	u64 t = ktime_get_mono_fast_ns();

	CB_OPAQUE(t);
}

CB_BODY(local_clock)
{
	u64 t = local_clock();

	CB_OPAQUE(t);
}

CB_BODY(rdtsc_ordered)
{
	u64 t = rdtsc_ordered();

	CB_OPAQUE(t);
}

CB_BODY(jiffies)
{
	unsigned long j = READ_ONCE(jiffies);

	CB_OPAQUE(j);
}

static const struct cb_fragment time_fragments[] = {
	CB_FRAGMENT(ktime_get_ns, 1, "ktime_get_ns(): CLOCK_MONOTONIC via the clocksource"),
	CB_FRAGMENT(ktime_get_mono_fast_ns, 1, "ktime_get_mono_fast_ns(): NMI-safe monotonic"),
	CB_FRAGMENT(local_clock, 1, "local_clock(): the scheduler's per-CPU clock"),
	CB_FRAGMENT(rdtsc_ordered, 1, "rdtsc_ordered(): one ordered TSC read"),
	CB_FRAGMENT(jiffies, 1, "READ_ONCE(jiffies): one load"),
};

CB_GROUP(time, time_fragments);
