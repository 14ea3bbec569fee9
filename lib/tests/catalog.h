/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catalog.h - a catalog of its own for the request parser's tests
 * (grammar.c, fuzz_request.c): two groups of made-up fragments, with and
 * without arguments, one slow, and a kernel-only group for the runner.
 * The module's and the runner's catalogs differ only in side, CPU check
 * and wording.
 */
#ifndef CB_TEST_CATALOG_H
#define CB_TEST_CATALOG_H

#include "grammar.h"

static const u64 chase_args[] = { 4096, 65536, 1 << 30 };

static const struct cb_fragment g_alu[] = {
	{ .name = "add", .ops = 4 },
	{ .name = "mul", .ops = 4 },
	{ .name = "huge_loop", .ops = 1, .slow = true },
};

static const struct cb_fragment g_mem[] = {
	{ .name = "chase", .ops = 64, .args = chase_args, .nr_args = 3, .arg_min = 128,
	  .arg_bytes = true },
	{ .name = "copy", .ops = 1, .args = chase_args, .nr_args = 2, .arg_min = 1,
	  .arg_max = 1 << 20 },
};

static const struct cb_group grp_alu = { "alu", g_alu, 3 };
static const struct cb_group grp_mem = { "mem", g_mem, 2 };
static const struct cb_group *const groups[] = { &grp_alu, &grp_mem };
static const char *const kernel_only[] = { "sync", NULL };

static bool cpu_below_4(unsigned int cpu)
{
	return cpu < 4;
}

static const struct cb_catalog module = {
	.groups = groups, .nr_groups = 2, .side = CB_SIDE_MODULE,
	.list_hint = "cat fragments lists them", .cpu_ok = cpu_below_4,
};

static const struct cb_catalog runner = {
	.groups = groups, .nr_groups = 2, .side = CB_SIDE_RUNNER, .elsewhere = kernel_only,
	.list_hint = "--list shows them",
};

#endif /* CB_TEST_CATALOG_H */
