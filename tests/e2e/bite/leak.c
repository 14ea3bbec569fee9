// SPDX-License-Identifier: GPL-2.0
/*
 * A setup that leaks: built only by tests/e2e/run.sh (the debug suite), as
 * an extra group in a test build of the module, to show that kmemleak
 * reports a leak of the module's and the suite fails.  Never shipped.
 */
#include <linux/slab.h>

#include "cyclebench.h"

/* A new 200-byte object before every ensemble, never freed or kept. */
static int lost_setup(struct cb_env *env)
{
	void *p = kmalloc(200, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	memset(p, 0x5a, 200);
	CB_OPAQUE(p);
	return 0;
}

CB_BODY(lost)
{
}

static const struct cb_fragment leak_fragments[] = {
	{
		CB_FRAGMENT_FIELDS(lost, 1, "an empty body whose setup leaks"),
		.setup = lost_setup,
		.setup_each_ensemble = true,
	},
};

CB_GROUP(leak, leak_fragments);
