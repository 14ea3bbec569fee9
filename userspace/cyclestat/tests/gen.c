// SPDX-License-Identifier: GPL-2.0
/*
 * gen.c - N cycle-like samples for make bench: a lognormal body around
 * ~170 cycles with a long right tail, as a busy fragment looks, one per
 * line, deterministic. Usage: gen N > file
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t s = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return ((double)(s >> 11) + 0.5) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long long n = argc == 2 ? strtoull(argv[1], &end, 10) : 0;

	if (argc != 2 || *end || !n) {
		fprintf(stderr, "usage: gen N\n");
		return 2;
	}
	for (unsigned long long i = 0; i < n; i++) {
		/* Box-Muller normal, then exp: lognormal(5, 0.5) + 20 */
		double z = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());

		printf("%llu\n", (unsigned long long)exp(5 + 0.5 * z) + 20);
	}
	return 0;
}
