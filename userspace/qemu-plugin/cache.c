// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - the set-associative LRU model of cache.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

const char *cb_cache_parse(const char *spec, uint64_t *size,
			   unsigned int *ways, unsigned int *line)
{
	unsigned long long v[3];
	const char *p = spec;
	char *end;

	for (int i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			return "want SIZE:WAYS:LINE, e.g. 32K:8:64";
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno)
			return "a number out of range";
		if (i == 0 && (*end == 'K' || *end == 'M')) {
			v[i] <<= *end == 'K' ? 10 : 20;
			end++;
		}
		if (*end != (i < 2 ? ':' : '\0'))
			return "want SIZE:WAYS:LINE, e.g. 32K:8:64";
		p = end + 1;
	}
	if (!pow2(v[2]) || v[2] < 4 || v[2] > 4096)
		return "LINE must be a power of 2 from 4 to 4096";
	if (!v[1] || v[1] > CB_CACHE_MAX_WAYS)
		return "WAYS must be 1 to 64";
	if (!v[0] || v[0] % (v[1] * v[2]) || v[0] > (1ULL << 40))
		return "SIZE must be a whole number of sets (WAYS x LINE bytes each), at most 1 TiB";
	*size = v[0];
	*ways = (unsigned int)v[1];
	*line = (unsigned int)v[2];
	return NULL;
}

int cb_cache_init(struct cb_cache *c, uint64_t size, unsigned int ways,
		  unsigned int line)
{
	*c = (struct cb_cache){ .size = size, .ways = ways, .line = line };
	if (!pow2(line) || !ways || ways > CB_CACHE_MAX_WAYS ||
	    !size || size % ((uint64_t)ways * line))
		return -1;
	while ((1u << c->line_shift) < line)
		c->line_shift++;
	c->sets = size / ((uint64_t)ways * line);
	c->sets_pow2 = pow2(c->sets);
	c->last = UINT64_MAX;
	c->tag = malloc(c->sets * ways * sizeof(*c->tag));
	if (!c->tag) {
		cb_cache_free(c);
		return -1;
	}
	for (uint64_t i = 0; i < c->sets * ways; i++)
		c->tag[i] = UINT64_MAX;
	return 0;
}

void cb_cache_free(struct cb_cache *c)
{
	free(c->tag);
	c->tag = NULL;
}

bool cb_cache_touch(struct cb_cache *c, uint64_t addr)
{
	uint64_t ln = addr >> c->line_shift, *tag;
	unsigned int w;

	if (ln == c->last)
		return true;
	c->last = ln;
	tag = c->tag + (c->sets_pow2 ? ln & (c->sets - 1) : ln % c->sets) * c->ways;
	if (tag[0] == ln)
		return true;
	for (w = 1; w < c->ways && tag[w] != ln; w++)
		;
	/* to the front, the ways before it one back; a miss drops the last */
	memmove(tag + 1, tag, (w < c->ways ? w : c->ways - 1) * sizeof(*tag));
	tag[0] = ln;
	return w < c->ways;
}
