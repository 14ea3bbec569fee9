// SPDX-License-Identifier: GPL-2.0
/*
 * base: the reference every other figure is read against.  Its samples are
 * the cost of the timing protocol itself; cyclestat subtracts their median
 * to show other fragments net of overhead.  Copies of nothing are nothing:
 * no long region.
 */
#include "cyclebench.h"

CB_BODY(empty)
{
}

static const struct cb_fragment base_fragments[] = {
	{
		CB_FRAGMENT_FIELDS(empty, 1, "nothing: the cost of the timing protocol itself"),
		.no_long = true,
	},
};

CB_GROUP(base, base_fragments);
