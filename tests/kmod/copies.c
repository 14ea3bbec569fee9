// SPDX-License-Identifier: GPL-2.0
/*
 * Bodies for the object-code check's own tests, built only by
 * tests/kmod/run.sh (CB_GROUPS="base copies"), never shipped.
 *
 * copies:mul_state is what CB_BODY()'s kernel-doc advises for C code: an
 * input read through the state, a result made opaque.  Without a barrier
 * between the long region's copies, the compiler computes the product once
 * and the other copies are register moves.  copies:mul_const has constant
 * inputs made opaque: each copy must keep its own two multiplies.
 * copies:load_state is one load through the state: each copy must keep its
 * own load (a copy that reuses the first's value is a register move, the
 * same mnemonic without the memory operand).
 */
#include "cyclebench.h"

struct mul_state {
	u64 a;
	u64 b;
};

CB_BODY_STATE(mul_state, struct mul_state)
{
	u64 x = st->a * st->b;

	CB_OPAQUE(x);
}

struct load_state {
	u64 a;
};

CB_BODY_STATE(load_state, struct load_state)
{
	u64 x = st->a;

	CB_OPAQUE(x);
}

CB_BODY(mul_const)
{
	u64 a = 3, b = 5;

	CB_OPAQUE(a);
	CB_OPAQUE(b);
	a *= b;
	a *= b;
	CB_OPAQUE(a);
}

static const struct cb_fragment copies_fragments[] = {
	CB_FRAGMENT(mul_state, 1, "one imul of two state fields"),
	CB_FRAGMENT(mul_const, 2, "two dependent imuls of opaque constants"),
	CB_FRAGMENT(load_state, 1, "one load of a state field"),
};

CB_GROUP(copies, copies_fragments);
