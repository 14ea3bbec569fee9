// SPDX-License-Identifier: GPL-2.0
/*
 * hugemap.c - the module's hooks of cb_alloc_huge() (alloc.c): memory on
 * 2 MiB pages.
 *
 * vmalloc_huge() (since 5.18, exported on Debian's 6.1 and 6.12) maps an
 * area of 2 MiB or more with PMD entries where the architecture can
 * (x86-64: HAVE_ARCH_HUGE_VMALLOC) - but falls back to 4 KiB PTEs without
 * a word when it cannot get order-9 pages, or when the kernel was booted
 * with nohugevmalloc.  So every 2 MiB of the area is looked up in the
 * kernel's page table afterwards (lookup_address()), and one 4 KiB mapping
 * fails the allocation.
 *
 * Not the direct map, though alloc_pages() of order HPAGE_PMD_ORDER gives
 * 2 MiB whose direct-map address usually lies in a 2 MiB or 1 GiB
 * mapping: the direct map is split to 4 KiB around anything whose
 * attributes were changed (module text made read-only, KFENCE,
 * DEBUG_PAGEALLOC), and several such chunks are not one buffer, so the
 * ring would need addressing of its own.  A vmalloc area is one range,
 * mapped for this buffer alone, and can be checked.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "alloc.h"

void *cb_huge_map(size_t len)
{
	unsigned long a;
	unsigned int level;
	void *p;

	BUILD_BUG_ON(CB_HUGE_PAGE_SIZE != PMD_SIZE);
	p = vmalloc_huge(len, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
			 __GFP_RETRY_MAYFAIL);
	if (!p)
		return NULL;
	for (a = (unsigned long)p; a < (unsigned long)p + len; a += PMD_SIZE) {
		if (!lookup_address(a, &level) || level < PG_LEVEL_2M) {
			pr_warn("%zu bytes on 2 MiB pages: vmalloc_huge() mapped 4 KiB pages (no free 2 MiB blocks, or booted with nohugevmalloc); refused\n",
				len);
			vfree(p);
			return NULL;
		}
	}
	return p;
}

void cb_huge_unmap(void *p, size_t len)
{
	vfree(p);
}
