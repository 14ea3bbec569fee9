// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_request.c - libFuzzer target for the run request's parser
 * (lib/grammar.c), the one the module runs on every write to its run
 * file: any bytes, on the module's catalog and the runner's (catalog.h).
 * Beyond "no crash" (ASan, UBSan), what every answer must hold:
 *
 *  - the code is 0, -EINVAL or -E2BIG, and an error says why;
 *  - an accepted request has entries in table order, arguments ascending,
 *    none twice, each argument within its fragment's range, and keys
 *    within the contract's bounds.
 *
 *	make -C userspace/runner tests/fuzz_request &&
 *	userspace/runner/tests/fuzz_request -max_total_time=60 lib/tests/fuzz-corpus
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* the entry's place in table order: the fragments of the groups before, then its index */
static unsigned int ordinal(const struct cb_req *req, unsigned int i)
{
	unsigned int g, base = 0;

	for (g = 0; g < req->group[i]; g++)
		base += groups[g]->count;
	return base + (unsigned int)(req->frag[i] - groups[req->group[i]]->fragments);
}

static void check(const struct cb_catalog *cat, const unsigned char *data, size_t size)
{
	static struct cb_req req;
	char cmd[600], why[256] = "";
	size_t n = size < sizeof(cmd) - 1 ? size : sizeof(cmd) - 1;
	int ret;

	memcpy(cmd, data, n);
	cmd[n] = 0;
	memset(&req, 0, sizeof(req));
	req.samples = 1000;
	req.ensembles = 10;
	req.max_mb = 256;
	ret = cb_req_parse(cmd, cat, &req, why, sizeof(why));
	if (ret != 0 && ret != -EINVAL && ret != -E2BIG)
		abort();
	if (ret) {
		if (!why[0])
			abort();	/* an error without a reason */
		return;
	}
	if (!req.nr || req.samples < 1 || req.samples > CB_MAX_SAMPLES ||
	    req.ensembles < 1 || req.ensembles > CB_MAX_ENSEMBLES ||
	    req.warmup > CB_MAX_WARMUP || req.method > CB_LFENCE)
		abort();
	for (unsigned int i = 0; i < req.nr; i++) {
		const struct cb_fragment *f = req.frag[i];

		if (req.group[i] >= cat->nr_groups || f < groups[req.group[i]]->fragments ||
		    f >= groups[req.group[i]]->fragments + groups[req.group[i]]->count)
			abort();
		if (f->nr_args ? req.arg[i] < f->arg_min || (f->arg_max && req.arg[i] > f->arg_max)
			       : req.arg[i] != 0)
			abort();
		if (i && (ordinal(&req, i - 1) > ordinal(&req, i) ||
			  (ordinal(&req, i - 1) == ordinal(&req, i) && req.arg[i - 1] >= req.arg[i])))
			abort();	/* out of order, or twice */
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	check(&module, data, size);
	check(&runner, data, size);
	return 0;
}
