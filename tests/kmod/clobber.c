// SPDX-License-Identifier: GPL-2.0
/*
 * A body that clobbers %r15, where the harness keeps the state pointer
 * (harness.h): built only by tests/kmod/run.sh, to show that the
 * object-code check names the clobber as the cause of what the compiler
 * then puts inside the timed window.
 */
#include "cyclebench.h"

CB_BODY(r15)
{
	asm volatile("xor %%r15d, %%r15d" ::: "r15");
}

static const struct cb_fragment clobber_fragments[] = {
	CB_FRAGMENT(r15, 1, "one xor that clobbers %r15"),
};

CB_GROUP(clobber, clobber_fragments);
