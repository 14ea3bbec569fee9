// SPDX-License-Identifier: GPL-2.0
/*
 * Regions whose code differs from the body alone's only in a memory
 * operand, or by a stack access between the long region's copies: built
 * only by tests/kmod/run.sh, to show the object-code check names them.
 * The harness keeps every region the body's own code, so these bodies
 * make the difference themselves: the assembler counts each body's
 * copies in the order GCC emits them (paoloni's short region, then its
 * long one's 16 copies, then each other method's two alike, the body
 * alone last) and gives some of them other code.
 *  - operands:disp reads 8(%r15), a field after the one the body alone
 *    reads at (%r15), in paoloni's regions;
 *  - operands:base reads (%r14), where the body alone reads through the
 *    state pointer, (%r15), in paoloni's regions;
 *  - operands:spill stores a register to the stack in every long region's
 *    copies, as a compiler's spill between copies would.
 */
#include "cyclebench.h"

/*
 * asm whose copy number N (from 0, symbol SYM) satisfies COND runs OTHER,
 * and the others PLAIN; COND is an assembler expression of SYM.
 */
#define OPERANDS_SOME(sym, cond, plain, other)				\
	asm volatile(".ifndef " sym "\n\t" sym " = 0\n\t.endif\n\t"	\
		     ".if " cond "\n\t" other "\n\t.else\n\t" plain	\
		     "\n\t.endif\n\t" sym " = " sym " + 1" ::: "rax")

CB_BODY(disp)
{
	OPERANDS_SOME("operands_disp", "operands_disp < 17",
		      "mov (%%r15), %%rax", "mov 8(%%r15), %%rax");
}

CB_BODY(base)
{
	OPERANDS_SOME("operands_base", "operands_base < 17",
		      "mov (%%r15), %%rax", "mov (%%r14), %%rax");
}

CB_BODY(spill)
{
	OPERANDS_SOME("operands_spill", "operands_spill %% 17",
		      "mov (%%r15), %%rax",
		      "mov (%%r15), %%rax\n\tmov %%rax, 8(%%rsp)");
}

static const struct cb_fragment operands_fragments[] = {
	CB_FRAGMENT(disp, 1, "a load of another field in paoloni's regions"),
	CB_FRAGMENT(base, 1, "a load through another base in paoloni's regions"),
	CB_FRAGMENT(spill, 1, "a load, and a store to the stack in the long copies"),
};

CB_GROUP(operands, operands_fragments);
