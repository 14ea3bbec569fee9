// SPDX-License-Identifier: GPL-2.0
/*
 * A C body the compiler may move: built only by tests/kmod/run.sh, to show
 * the object-code check fails it.  OPTIMIZER_HIDE_VAR() is a non-volatile
 * asm, so the loop-invariant product is computed once, before the loop,
 * and the unused result deleted.  (CB_OPAQUE() is the fix.)
 */
#include "cyclebench.h"

CB_BODY(hoisted)
{
	unsigned long a = 3, b = 5, x;

	OPTIMIZER_HIDE_VAR(a);
	x = a * b;
	x *= a;
	x *= a;
	OPTIMIZER_HIDE_VAR(x);
}

static const struct cb_fragment hoist_fragments[] = {
	CB_FRAGMENT(hoisted, 3, "three imuls the compiler may hoist"),
};

CB_GROUP(hoist, hoist_fragments);
