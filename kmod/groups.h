/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fragment groups, in the order they are listed and run: one line per
 * file in kmod/fragments/.  Included twice by design (no include guard).
 */
CB_GROUP_ENTRY(base)
CB_GROUP_ENTRY(alu)
CB_GROUP_ENTRY(loop)
CB_GROUP_ENTRY(mem)
CB_GROUP_ENTRY(serialize)
