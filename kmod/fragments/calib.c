// SPDX-License-Identifier: GPL-2.0
/*
 * calib: the core clock, measured.  A chain of dependent register adds
 * retires one add per core cycle on every x86 core since the P6, so its
 * per-op cost in TSC ticks is the TSC ticks per core cycle: cyclestat turns
 * ticks into core cycles with it ("core cycles (calibrated)").  A chain of
 * dependent imuls (3 cycles each on every x86 core since the Pentium Pro,
 * Zen and Golden Cove alike) runs on another port: cyclestat checks the
 * first against it, since a neighbour on a shared host slows the 1-cycle
 * add chain more than code of other latencies.
 */
#include "cyclebench.h"

CB_BODY(add_chain)
{
	asm volatile(".rept 64\n\t"
		     "add %%rax, %%rax\n\t"
		     ".endr"
		     ::: "rax");
}

CB_BODY(imul_chain)
{
	asm volatile(".rept 64\n\t"
		     "imul %%rax, %%rax\n\t"
		     ".endr"
		     ::: "rax");
}

static const struct cb_fragment calib_fragments[] = {
	CB_FRAGMENT_INSNS_UNIT(add_chain, 64, "add", 64,
			       "64 dependent adds: ticks per op = ticks per core cycle"),
	CB_FRAGMENT_INSNS_UNIT(imul_chain, 64, "imul", 64,
			       "64 dependent imuls: ticks per op = 3 x ticks per core cycle"),
};

CB_GROUP(calib, calib_fragments);
