// SPDX-License-Identifier: GPL-2.0
/*
 * Bodies the compiler computes at build time: built only by
 * tests/kmod/run.sh, to show the object-code check refuses them by name,
 * whatever their source looks like.
 * fold:imul3 is the first mistake a new author makes: three multiplies of
 * constants the compiler can see, so every region holds one immediate
 * move and times nothing.  fold:imul3_insns declares its instructions
 * (.insns), and the compiler leaves fewer.  (CB_OPAQUE() on the inputs is
 * the fix: copies:mul_const.)
 * The same mistake in other shapes: fold:stored stores the constant
 * through the state pointer (an immediate move, then a store of it);
 * fold:raw_barrier and fold:raw_insns are imul3 and imul3_insns with
 * CB_OPAQUE() written out as raw asm, so the source has asm of its own;
 * fold:wrapped is made by a wrapper macro, so no line of this file starts
 * with its CB_BODY() (the check says so, and still reads its object code).
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

struct fold_state {
	u64 x;
};

CB_BODY_STATE(stored, struct fold_state)
{
	u64 a = 3, b = 5, x = a * b;

	x *= a;
	x *= b;
	CB_OPAQUE(x);
	st->x = x;
}

CB_BODY(raw_barrier)
{
	u64 a = 3, b = 5, x = a * b;

	x *= a;
	x *= b;
	asm volatile("" : "+r" (x));
}

CB_BODY(raw_insns)
{
	u64 a = 3, b = 7, x;

	asm volatile("" : "+r" (a));
	x = a * b;
	x *= b;
	x *= b;
	asm volatile("" : "+r" (x));
}

#define FOLD_SQUARE(name, v) CB_BODY(name)				\
{									\
	u64 x = (v);							\
									\
	x *= x;								\
	CB_OPAQUE(x);							\
}

FOLD_SQUARE(wrapped, 15)

static const struct cb_fragment fold_fragments[] = {
	CB_FRAGMENT(imul3, 3, "three multiplies of visible constants"),
	CB_FRAGMENT_INSNS(imul3_insns, 3, 3, "three multiplies, one input opaque"),
	CB_FRAGMENT(stored, 3, "three multiplies of visible constants, stored"),
	CB_FRAGMENT(raw_barrier, 3, "three multiplies, the result behind raw asm"),
	CB_FRAGMENT_INSNS(raw_insns, 3, 3, "three multiplies, raw asm barriers"),
	CB_FRAGMENT(wrapped, 1, "a square of a visible constant, by a wrapper macro"),
};

CB_GROUP(fold, fold_fragments);
