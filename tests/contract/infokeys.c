// SPDX-License-Identifier: GPL-2.0
/*
 * infokeys: the table of info keys (include/cyclebench/contract-info.h), printed for what is
 * generated from it (tests/contract/infokeys.sh).
 *   infokeys sh   "KEY TYPE TREE RESULT" lines, and the methods' names
 *   infokeys md   docs/debugfs-contract.md's table of the keys
 * TREE and RESULT: who writes the key in the tree's info and in a
 * result's: none, module, runner, both, or cpus (both, in a cpus= result).
 */
#include <stdio.h>
#include <string.h>

#include "contract.h"

static const char *who(unsigned int w)
{
	switch (w) {
	case CB_W_NONE:
		return "none";
	case CB_W_MODULE:
		return "module";
	case CB_W_RUNNER:
		return "runner";
	case CB_W_BOTH:
		return "both";
	default:
		return "cpus";
	}
}

/* markdown: what a reader of the documents wants to see */
static const char *who_md(unsigned int w)
{
	switch (w) {
	case CB_W_NONE:
		return "-";
	case CB_W_MODULE:
		return "module";
	case CB_W_RUNNER:
		return "cyclebench-user";
	case CB_W_BOTH:
		return "both";
	default:
		return "both, a `cpus=` result's";
	}
}

int main(int argc, char **argv)
{
	static const struct cb_info_def defs[] = {
#define CB_INFO(k, t, tree, result) CB_INFO_DEF(k, t, tree, result)
#include "contract-info.h"
#undef CB_INFO
	};
	static const char *const types[] = CB_INFO_TYPE_NAMES;
	static const char *const methods[] = CB_METHOD_NAMES;
	int md = argc == 2 && !strcmp(argv[1], "md");

	if (argc != 2 || (!md && strcmp(argv[1], "sh"))) {
		fputs("usage: infokeys sh|md\n", stderr);
		return 2;
	}
	if (md)
		puts("| key | value | top-level `info` | a result's `info` |\n|---|---|---|---|");
	for (size_t k = 0; k < CB_NR_INFO_KEYS; k++) {
		const struct cb_info_def *d = &defs[k];

		if (md)
			printf("| `%s` | %s | %s | %s |\n", d->name, types[d->type],
			       who_md(d->tree), who_md(d->result));
		else
			printf("%s %s %s %s\n", d->name, types[d->type], who(d->tree),
			       who(d->result));
	}
	if (!md) {
		fputs("methods:", stdout);
		for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++)
			printf(" %s", methods[m]);
		putchar('\n');
	}
	return 0;
}
