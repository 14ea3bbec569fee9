// SPDX-License-Identifier: GPL-2.0
/*
 * groups.c - the portable groups this binary links, once per long-region
 * length, and the names of the module's kernel-only groups.
 *
 * Both lists come from kmod/fragments/groups.mk, as the build's
 * CB_GROUP_LIST (P(name, a) for a portable group, K(name, a) for one that
 * needs the kernel) and CB_LONG_REPEAT_LIST; the Makefile compiles each
 * portable file at every length R, its group renamed cb_group_NAME_rR.
 * Nothing to edit here when a group or a length is added.
 */
#include "runner.h"

#define CB_NONE(g, a)
#define CB_EXTERN(g, r)	extern const struct cb_group cb_group_##g##_r##r;
#define CB_EXTERNS(r)	CB_GROUP_LIST(CB_EXTERN, CB_NONE, r)
CB_LONG_REPEAT_LIST(CB_EXTERNS)

const unsigned int cb_repeats[CB_NR_REPEATS] = CB_LONG_REPEATS;

/* cb_groups_rR[]: the groups at R copies, in the module's order */
#define CB_REF(g, r)	&cb_group_##g##_r##r,
#define CB_TABLE(r)							\
	static const struct cb_group *const cb_groups_r##r[] = {	\
		CB_GROUP_LIST(CB_REF, CB_NONE, r) NULL			\
	};
CB_LONG_REPEAT_LIST(CB_TABLE)

#define CB_VARIANT(r)	cb_groups_r##r,
const struct cb_group *const *const cb_user_variants[CB_NR_REPEATS] = {
	CB_LONG_REPEAT_LIST(CB_VARIANT)
};

#define CB_ONE(g, a)	+ 1
const unsigned int cb_nr_user_groups = 0 CB_GROUP_LIST(CB_ONE, CB_NONE, 0);

#define CB_NAME(g, a)	#g,
const char *const cb_kernel_groups[] = {
	CB_GROUP_LIST(CB_NONE, CB_NAME, 0) NULL
};
