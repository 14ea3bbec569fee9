// SPDX-License-Identifier: GPL-2.0
/*
 * cbmark - the guest's side of cbcount.so (mark.h): runs the NOPs that
 * tell the plugin where the module's code is and when to write its counts.
 * On a CPU or emulator without the plugin it does nothing at all.
 *
 *   cbmark arm 0xADDR     the module's .text address
 *                         (/sys/module/cyclebench/sections/.text)
 *   cbmark dump ID        write the counts since the last dump, as ID
 *   cbmark set K          the next arm is for the plugin's K-th regions=
 *                         file (from 0): one of several builds (make ab)
 *
 * Exit status: 0, or 2 on a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mark.h"

static int usage(const char *why)
{
	fprintf(stderr, "cbmark: %s\nusage: cbmark arm 0xADDR | cbmark dump ID | cbmark set K\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long v;
	char *end;

	if (argc != 3)
		return usage("want a command and its value");
	errno = 0;
	v = strtoull(argv[2], &end, 0);
	if (errno || end == argv[2] || *end)
		return usage("the value is not a number");
	if (!strcmp(argv[1], "arm"))
		cb_mark_send(CB_MARK_ARM, v);
	else if (!strcmp(argv[1], "dump"))
		cb_mark_send(CB_MARK_DUMP, v);
	else if (!strcmp(argv[1], "set"))
		cb_mark_send(CB_MARK_SET, v);
	else
		return usage("unknown command");
	return 0;
}
