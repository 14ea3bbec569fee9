/* SPDX-License-Identifier: GPL-2.0 */
/*
 * contract-mem.h - every count the QEMU plugin makes in a timed region and
 * a saved tree's memory file holds (contract.h's CB_FILE_MEMORY), in their
 * order, one CB_MEM(NAME, HEADING) line each: NAME its key, HEADING its
 * column in a table (cyclestat's text and Markdown, make ab MEM=1's), NULL
 * where a table leaves it out (JSON and CSV give every count).
 *
 * Read as contract-info.h is, by including it where CB_MEM() is defined:
 * contract.h makes enum cb_mem_count of it; cbcount.so its header, the
 * names and the headings, which perop.py and abmem.py read; cyclestat
 * the names it reads and the table it prints.  No include guard.
 */
CB_MEM(insns, "insns")
CB_MEM(loads, "loads")
CB_MEM(stores, "stores")
CB_MEM(l1d_acc, "L1D-acc")
CB_MEM(l1d_miss, "L1D-miss")
CB_MEM(l1i_acc, NULL)
CB_MEM(l1i_miss, "L1I-miss")
CB_MEM(l2_acc, NULL)
CB_MEM(l2_miss, "L2-miss")
