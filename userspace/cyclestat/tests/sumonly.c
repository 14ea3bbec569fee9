// SPDX-License-Identifier: GPL-2.0
/*
 * sumonly.c - make bench's lower bound: read stdin as cyclestat does
 * (read() into a 256 KiB buffer) and only sum the integers, one per line,
 * with no checks and no figures. What cyclestat takes beyond this is the
 * price of its checks and its figures. Usage: sumonly < file
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	static char buf[256 << 10];
	uint64_t v = 0, sum = 0, n = 0;
	ssize_t got;

	while ((got = read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < got; i++) {
			unsigned int d = (unsigned char)buf[i] - '0';

			if (d < 10) {
				v = v * 10 + d;
			} else if (buf[i] == '\n') {
				sum += v;
				n++;
				v = 0;
			}
		}
	}
	printf("%llu samples, sum %llu\n", (unsigned long long)n, (unsigned long long)sum);
	return got < 0;
}
