// SPDX-License-Identifier: GPL-2.0
/*
 * Bodies the compiler computes at build time: built only by
 * tests/kmod/run.sh, to show the object-code check refuses them by name.
 * fold:imul3 is the first mistake a new author makes: three multiplies of
 * constants the compiler can see, so every region holds one immediate
 * move and times nothing.  fold:imul3_insns declares its instructions
 * (.insns), and the compiler leaves fewer.  (CB_OPAQUE() on the inputs is
 * the fix: copies:mul_const.)
 */
#include "cyclebench.h"

CB_BODY(imul3)
{
	u64 a = 3, b = 5, x = a * b;

	x *= a;
	x *= b;
	CB_OPAQUE(x);
}

CB_BODY(imul3_insns)
{
	u64 a = 3, b = 7, x;

	CB_OPAQUE(a);
	x = a * b;
	x *= b;
	x *= b;
	CB_OPAQUE(x);
}

static const struct cb_fragment fold_fragments[] = {
	CB_FRAGMENT(imul3, 3, "three multiplies of visible constants"),
	CB_FRAGMENT_INSNS(imul3_insns, 3, 3, "three multiplies, one input opaque"),
};

CB_GROUP(fold, fold_fragments);
