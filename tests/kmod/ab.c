// SPDX-License-Identifier: GPL-2.0
/*
 * The A/B tests' fragments (tests/e2e/ab.sh, through make ab's CB_AB_ADD):
 * built as side B with KCFLAGS=-DCB_TEST_AB_ONE_MORE, ab:adds runs one add
 * more a copy (5 instead of 4, ops 4: +0.250 instructions an op under
 * icount, exactly), ab:same is unchanged, ab:ten_plus runs 11 adds for
 * 10 (+10 %: the detection rate of CLOCK=time) beside ab:ten's unchanged 10
 * (its false-alarm rate), ab:shl's 4 shifts (ops 4) are 5 (ops 5): a body
 * whose ops change (make ab: "ops 4 -> 5", the cost of a copy compared),
 * and ab:only_b exists in B alone (make ab lists it "new"); ab:stride's
 * 256 loads go 64 bytes apart (16 KiB, half a 32 KiB L1D) and in B 256
 * (64 KiB, 16 lines to each of 16 sets: twice it), one constant changed
 * and no instruction added (make ab MEM=1: its L1D misses move, its
 * instructions do not).  Never shipped.
 */
#include "cyclebench.h"

CB_BODY(adds)
{
	asm volatile("add %%rax, %%rax\n\t"
		     "add %%rax, %%rax\n\t"
		     "add %%rax, %%rax\n\t"
#ifdef CB_TEST_AB_ONE_MORE
		     "add %%rax, %%rax\n\t"
#endif
		     "add %%rax, %%rax"
		     ::: "rax");
}

CB_BODY(same)
{
	asm volatile("add %%rcx, %%rcx\n\t"
		     "add %%rcx, %%rcx"
		     ::: "rcx");
}

#define CB_TEST_AB_TEN_ADDS			\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"		\
	"add %%rax, %%rax\n\t"

CB_BODY(ten)
{
	asm volatile(CB_TEST_AB_TEN_ADDS ::: "rax");
}

CB_BODY(ten_plus)
{
	asm volatile(CB_TEST_AB_TEN_ADDS
#ifdef CB_TEST_AB_ONE_MORE
		     "add %%rax, %%rax"
#endif
		     ::: "rax");
}

#ifdef CB_TEST_AB_ONE_MORE
#define CB_TEST_AB_SHL_OPS 5
#else
#define CB_TEST_AB_SHL_OPS 4
#endif

CB_BODY(shl)
{
	asm volatile("shl $1, %%rax\n\t"
		     "shl $1, %%rax\n\t"
		     "shl $1, %%rax\n\t"
#ifdef CB_TEST_AB_ONE_MORE
		     "shl $1, %%rax\n\t"
#endif
		     "shl $1, %%rax"
		     ::: "rax");
}

#ifdef CB_TEST_AB_ONE_MORE
#define CB_TEST_AB_STRIDE 256
#else
#define CB_TEST_AB_STRIDE 64
#endif
#define CB_TEST_AB_LOADS 256

/* (the buffer is the state: the body loads nothing else, so no line of
 * its own can share a set with the buffer's, where it would miss in
 * some runs and not others) */
struct ab_stride_state {
	u8 buf[CB_TEST_AB_LOADS * 256];
};

CB_BODY_STATE(stride, struct ab_stride_state)
{
	asm volatile("mov %1, %%ecx\n\t"
		     "mov %0, %%rax\n"
		     "1:\n\t"
		     "mov (%%rax), %%rdx\n\t"
		     "add %2, %%rax\n\t"
		     "dec %%ecx\n\t"
		     "jnz 1b"
		     : : "r" (st->buf), "i" (CB_TEST_AB_LOADS), "i" (CB_TEST_AB_STRIDE)
		     : "rax", "rcx", "rdx", "memory");
}

#ifdef CB_TEST_AB_ONE_MORE
CB_BODY(only_b)
{
	asm volatile("add %%rdx, %%rdx" ::: "rdx");
}
#endif

static const struct cb_fragment ab_fragments[] = {
	CB_FRAGMENT(adds, 4, "4 dependent adds; 5 with -DCB_TEST_AB_ONE_MORE"),
	CB_FRAGMENT(same, 2, "2 dependent adds, in A and in B"),
	CB_FRAGMENT(ten, 10, "10 dependent adds, in A and in B"),
	CB_FRAGMENT(ten_plus, 10, "10 dependent adds; 11 with -DCB_TEST_AB_ONE_MORE"),
	CB_FRAGMENT(shl, CB_TEST_AB_SHL_OPS, "4 dependent shifts; 5, ops 5, with -DCB_TEST_AB_ONE_MORE"),
	CB_FRAGMENT_UNIT(stride, CB_TEST_AB_LOADS, "load",
			 "256 loads 64 bytes apart; 256 with -DCB_TEST_AB_ONE_MORE"),
#ifdef CB_TEST_AB_ONE_MORE
	CB_FRAGMENT(only_b, 1, "one add, in B only"),
#endif
};

CB_GROUP(ab, ab_fragments);
