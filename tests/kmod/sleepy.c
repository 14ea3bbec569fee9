// SPDX-License-Identifier: GPL-2.0
/*
 * A body that breaks the contract: it sleeps with interrupts off.  Built
 * only by tests/e2e/run.sh (suite sleepy), never shipped: the guest dies
 * of it, and the host must name the fragment and the kernel's reason.
 */
#include <linux/delay.h>
#include "cyclebench.h"

CB_BODY(msleep_1)
{
	msleep(1);
}

static const struct cb_fragment sleepy_fragments[] = {
	CB_FRAGMENT(msleep_1, 1, "msleep(1) with interrupts off: must be named when it kills the guest"),
};

CB_GROUP(sleepy, sleepy_fragments);
