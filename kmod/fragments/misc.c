// SPDX-License-Identifier: GPL-2.0
/*
 * misc: library calls a kernel developer reaches for on hot paths.
 */
#include <linux/crc32.h>
#include <linux/jhash.h>
#include <linux/random.h>

#include "cyclebench.h"

static u8 cb_data[4096] __aligned(64);

/* Takes a local_lock, which sleeps on PREEMPT_RT. */
CB_BODY(get_random_u32)
{
	u32 r = get_random_u32();

	CB_OPAQUE(r);
}

CB_BODY(jhash_64)
{
	const void *p = cb_data;
	u32 h;

	CB_OPAQUE(p);
	h = jhash(p, 64, 0);
	CB_OPAQUE(h);
}

/* The generic table-driven CRC32C: no FPU, safe with interrupts off. */
CB_BODY(crc32c_4k)
{
	const u8 *p = cb_data;
	u32 c;

	CB_OPAQUE(p);
	c = __crc32c_le(~0U, p, sizeof(cb_data));
	CB_OPAQUE(c);
}

static const struct cb_fragment misc_fragments[] = {
	{
		CB_FRAGMENT_FIELDS(get_random_u32, 1, "get_random_u32(), per-CPU batched"),
		.sleeps_on_rt = true,
	},
	CB_FRAGMENT_UNIT(jhash_64, 64, "byte", "jhash() of 64 bytes (ops = bytes)"),
	CB_FRAGMENT_UNIT(crc32c_4k, 4096, "byte", "__crc32c_le() of 4 KiB (ops = bytes)"),
};

CB_GROUP(misc, misc_fragments);
