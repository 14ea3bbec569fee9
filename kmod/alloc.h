/* SPDX-License-Identifier: GPL-2.0 */
/*
 * alloc.h - memory on 2 MiB pages for a portable fragment's setup, next
 * to cyclebench.h's cb_alloc() (4 KiB pages).  Declared once for both
 * builds: the module's definitions are in kmod/alloc.c, cyclebench-user's
 * in runner/engine.c.
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

#endif /* CB_ALLOC_H */
