// SPDX-License-Identifier: GPL-2.0
/*
 * cbmark - the guest's side of cbcount.so (cbmark.h): runs the NOPs that
 * tell the plugin where the module's code is and when to write its counts.
 * On a CPU or emulator without the plugin it does nothing at all.
 *
 *   cbmark arm 0xADDR     the module's .text address
 *                         (/sys/module/cyclebench/sections/.text)
 *   cbmark dump ID        write the counts since the last dump, as ID
 *
 * Exit status: 0, or 2 on a usage error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbmark.h"

#define STR_(x)	#x
#define STR(x)	STR_(x)
/* (the displacement as an assembler constant: cbmark.h's values) */
#define MARK(cmd)	asm volatile(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long " STR(cmd) ::: "memory")
#define BIT0	0x43420000
#define BIT1	0x43420001
#define ARM	0x43420010
#define DUMP	0x43420020
_Static_assert(BIT0 == CB_MARK_BIT0 && BIT1 == CB_MARK_BIT1 &&
	       ARM == CB_MARK_ARM && DUMP == CB_MARK_DUMP, "cbmark.h's commands");

static void send(uint64_t v)
{
	for (int i = 63; i >= 0; i--) {
		if (v >> i & 1)
			MARK(BIT1);
		else
			MARK(BIT0);
	}
}

static int usage(const char *why)
{
	fprintf(stderr, "cbmark: %s\nusage: cbmark arm 0xADDR | cbmark dump ID\n", why);
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
	send(v);
	if (!strcmp(argv[1], "arm"))
		MARK(ARM);
	else if (!strcmp(argv[1], "dump"))
		MARK(DUMP);
	else
		return usage("unknown command");
	return 0;
}
