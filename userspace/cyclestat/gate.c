// SPDX-License-Identifier: GPL-2.0
/*
 * gate.c - what compare and ab share as a gate: one reading of what the
 * runs of NEW hold for a row, and one exit status from the rows.
 *
 * A result whose state is aborted or failed keeps an earlier run's
 * figures (stale): it is no figure of this run.  Where a run of NEW holds
 * such a result, or no run of NEW has the row at all, the row is lost
 * (its state: aborted, failed, missing ...) and fails the gate as a
 * change would (--allow-missing: listed only).  A run of BASE with a stale
 * result is a run without the row (compare.c's runs_with).
 *
 * The exit status, for compare and ab alike:
 *   1	a row is slower, lost or unpaired: a change to act on
 *   2	none is, but a row's data could not be compared: incomplete (runs
 *	lost it and those left cannot decide), varies or missing in a run
 *	(icount), an error
 *   0	otherwise: nothing was found slower (same, faster, new, and the
 *	undecided: inconclusive, or too few runs ever to decide, whose
 *	rows say so and what they could not see)
 * 1 wins over 2: a change found is found whatever another row lacks, and
 * both fail a gate; the rows that could not be compared are named on
 * stderr either way.  Too few runs is the design the user chose, not a
 * defect of the data: like inconclusive, it is 0.
 */
#include <string.h>

#include "model.h"
#include "read.h"
#include "compare.h"

/* the result of NAME in a run, stale or not (@any: a run of one fragment) */
const struct cs_frag *cs_gate_find(const struct cs_input *in, const char *name, int any)
{
	if (any && in->nfrag == 1)
		return &in->frag[0];
	return cs_frag_named(in, name);
}

const char *cs_gate_lost(const struct side *nw, const char *name, int any)
{
	const struct cs_frag *got = NULL;
	const char *state = NULL;

	for (size_t i = 0; i < nw->n; i++) {
		const struct cs_frag *fr = cs_gate_find(&nw->in[i], name, any);

		if (fr && fr->stale)
			return cs_state_names[cs_state(&fr->info)];
		got = got ? got : fr;
	}
	if (got)
		return NULL;
	for (size_t i = 0; i < nw->n && !state; i++)
		state = cs_absent_state(&nw->in[i], name);
	return state ? state : "missing";
}

int cs_gate_row(const struct cmp *c)
{
	if (c->incomplete)
		return 2;
	if (c->fails)
		return 1;
	if (!c->verdict || !strcmp(c->verdict, "error"))
		return 2;
	return 0;
}

int cs_gate_worse(int a, int b)
{
	return a == 1 || b == 1 ? 1 : a == 2 || b == 2 ? 2 : 0;
}
