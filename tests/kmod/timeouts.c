// SPDX-License-Identifier: GPL-2.0
/*
 * A body whose bounded wait always gives up, and one that never waits:
 * every sample of the first is flagged as a time-out (CB_SAMPLE_TIMEOUT,
 * flags bit 32) on every CPU of a cpus= run, none of the second (issue
 * 40, item 6).  Built only by tests/e2e/run.sh (suite cpus), never shipped.
 */
#include "cyclebench.h"

CB_BODY(gives_up)
{
	cb_body_timed_out();
}

CB_BODY(never_waits)
{
	u64 x = 1;

	CB_OPAQUE(x);
}

static const struct cb_fragment timeouts_fragments[] = {
	CB_FRAGMENT(gives_up, 1, "a wait that gives up in every run: every sample a time-out"),
	CB_FRAGMENT(never_waits, 1, "no wait: no sample a time-out"),
};

CB_GROUP(timeouts, timeouts_fragments);
