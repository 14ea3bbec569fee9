// SPDX-License-Identifier: GPL-2.0
/*
 * infokeys: the table of info keys (include/cyclebench/contract-info.h), printed for what is
 * generated from it (tests/contract/infokeys.sh).
 *   infokeys sh   "KEY TYPE TREE RESULT" lines, then the closed
 *                 vocabularies: "methods:", "states:", "setups:" and
 *                 "long_repeats:" (the lengths a result's long region
 *                 may have: the module's CB_LONG_REPEAT and the runner's
 *                 CB_LONG_REPEATS), each a line of words
 *   infokeys md   docs/debugfs-contract.md's table of the keys
 * TREE and RESULT: who writes the key in the tree's info and in a
 * result's: none, module, runner, both, or cpus (both, in a cpus= result).
 */
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "cyclebench.h"	/* CB_LONG_REPEAT */

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

static void words(const char *what, const char *const *w, size_t n)
{
	printf("%s:", what);
	for (size_t i = 0; i < n; i++)
		printf(" %s", w[i]);
	putchar('\n');
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
	static const char *const states[CB_NR_STATES] = CB_STATE_NAMES;
	static const char *const setups[] = { CB_SETUP_NONE, CB_SETUP_RUN, CB_SETUP_ENSEMBLE };
	static const unsigned int repeats[] = CB_LONG_REPEATS;
	int md = argc == 2 && !strcmp(argv[1], "md"), module_listed = 0;

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
	if (md)
		return 0;
	words("methods", methods, ARRAY_SIZE(methods));
	words("states", states, ARRAY_SIZE(states));
	words("setups", setups, ARRAY_SIZE(setups));
	fputs("long_repeats:", stdout);
	for (size_t r = 0; r < ARRAY_SIZE(repeats); r++) {
		printf(" %u", repeats[r]);
		module_listed |= repeats[r] == CB_LONG_REPEAT;
	}
	if (!module_listed)
		printf(" %u", CB_LONG_REPEAT);
	putchar('\n');
	return 0;
}
