// SPDX-License-Identifier: GPL-2.0
/*
 * alloc.c - cb_alloc_huge() and cb_free_huge() (alloc.h), once for the
 * module and cyclebench-user: the size rounded up to 2 MiB, nothing for 0
 * bytes or a size that does not round, then the side's mapping hook
 * (the module's in hugemap.c, cyclebench-user's in userspace/runner/engine.c).
 */
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#endif

#include "alloc.h"

/* @size rounded up to 2 MiB; 0 for 0, or where it would wrap. */
static size_t cb_huge_len(size_t size)
{
	size_t len = (size + CB_HUGE_PAGE_SIZE - 1) & ~(CB_HUGE_PAGE_SIZE - 1);

	return len < size ? 0 : len;
}

void *cb_alloc_huge(size_t size)
{
	size_t len = cb_huge_len(size);

	return len ? cb_huge_map(len) : NULL;
}

void cb_free_huge(void *p, size_t size)
{
	if (p)
		cb_huge_unmap(p, cb_huge_len(size));
}
