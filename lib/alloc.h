/* SPDX-License-Identifier: GPL-2.0 */
/*
 * alloc.h - memory on 2 MiB pages for a portable fragment's setup, next
 * to cyclebench.h's cb_alloc() (4 KiB pages).  Declared and defined once
 * for both builds (lib/alloc.c); each side maps the pages with its hooks,
 * cb_huge_map() and cb_huge_unmap(): the module's in kmod/hugemap.c,
 * cyclebench-user's in userspace/runner/engine.c.
 *
 * cb_alloc_huge() returns SIZE bytes (rounded up to 2 MiB), zeroed, on
 * 2 MiB pages - or NULL, never 4 KiB pages in their stead: a buffer whose
 * pages silently fell back would make a TLB-free staircase lie.  Both
 * sides say why on failure (kernel log, stderr).  cb_free_huge() takes the
 * SIZE given to cb_alloc_huge().  Setup and teardown only, like cb_alloc().
 */
#ifndef CB_ALLOC_H
#define CB_ALLOC_H

#define CB_HUGE_PAGE_SIZE	(2UL << 20)

void *cb_alloc_huge(size_t size);
void cb_free_huge(void *p, size_t size);

/*
 * A side's mapping: @len bytes (a multiple of 2 MiB, never 0), zeroed, on
 * 2 MiB pages, or NULL having said why; and its unmapping (@p not NULL).
 */
void *cb_huge_map(size_t len);
void cb_huge_unmap(void *p, size_t len);

#endif /* CB_ALLOC_H */
