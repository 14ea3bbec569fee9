// SPDX-License-Identifier: GPL-2.0
/*
 * base: the reference every other figure is read against.  Its samples are
 * the cost of the timing protocol itself; cyclestat subtracts their median
 * to show other fragments net of overhead.
 */
#include "cyclebench.h"

CB_BODY(empty)
{
}

static const struct cb_fragment base_fragments[] = {
	CB_FRAGMENT(empty, 1, "nothing: the cost of the timing protocol itself"),
};

CB_GROUP(base, base_fragments);
