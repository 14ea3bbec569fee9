# SPDX-License-Identifier: GPL-2.0
#
# The fragment groups and the long region's lengths, listed once: Kbuild
# builds the module from this file and userspace/runner/Makefile the userspace
# runner.  A new group is kmod/fragments/NAME.c, ending in
# CB_GROUP(NAME, table), and NAME here.
#
#   CB_GROUPS           every group, in the order they are listed and run
#   CB_PORTABLE_GROUPS  those whose file needs no kernel (plain asm or C,
#                       only cyclebench.h included): cyclebench-user
#                       builds and runs them too
#   CB_LONG_REPEATS     the lengths of the long region cyclebench-user is
#                       built at, which its long_repeat= may name (the
#                       module's one length is CB_LONG_REPEAT)
#
# The C side sees them through CB_LIST_CFLAGS: CB_GROUP_LIST(P, K, a) is
# P(base, a) ... K(sync, a) ..., P for a portable group, K for the others;
# CB_LONG_REPEAT_LIST(X) is X(16) X(64) ...; CB_LONG_REPEATS is
# { 16, 64, ... }.  A build names extra groups (tests' own) with
# CB_EXTRA_GROUPS=, or replaces the list with CB_GROUPS=.

CB_GROUPS := base calib alu loop mem serialize sync contend time misc
CB_PORTABLE_GROUPS := base calib alu loop mem serialize contend
CB_LONG_REPEATS := 16 64 256 1024

cb_all_groups = $(CB_GROUPS) $(CB_EXTRA_GROUPS)
cb_empty :=
cb_space := $(cb_empty) $(cb_empty)
cb_comma := ,
CB_LIST_CFLAGS = \
	'-DCB_GROUP_LIST(P,K,a)=$(foreach g,$(cb_all_groups),$(if $(filter $(g),$(CB_PORTABLE_GROUPS)),P,K)($(g),a))' \
	'-DCB_LONG_REPEAT_LIST(X)=$(foreach r,$(CB_LONG_REPEATS),X($(r)))' \
	'-DCB_LONG_REPEATS={ $(subst $(cb_space),$(cb_comma)$(cb_space),$(strip $(CB_LONG_REPEATS))) }'
