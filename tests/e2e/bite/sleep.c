// SPDX-License-Identifier: GPL-2.0
/*
 * A body that may sleep, run with interrupts off: built only by
 * tests/e2e/run.sh (the debug suite), as an extra group in a test build of
 * the module, to show that DEBUG_ATOMIC_SLEEP reports it ("BUG: sleeping
 * function called from invalid context") and the kernel log check fails.
 * might_sleep() is the check every sleeping call makes first; it does not
 * sleep itself, so the report is all that happens.  Never shipped.
 */
#include <linux/kernel.h>

#include "cyclebench.h"

CB_BODY(may_sleep)
{
	might_sleep();
}

static const struct cb_fragment sleep_fragments[] = {
	CB_FRAGMENT(may_sleep, 1, "might_sleep() with interrupts off"),
};

CB_GROUP(sleep, sleep_fragments);
