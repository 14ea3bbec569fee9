// SPDX-License-Identifier: GPL-2.0
/*
 * mem: load-to-use latency and copy bandwidth.
 *
 * mem:chase/ARG follows pointers round a random cyclic permutation of the
 * 64-byte lines of an ARG-byte buffer (lmbench's lat_mem_rd, uarch-bench's
 * shuffled_region()): each load's address is the previous load's result,
 * and no prefetcher can guess the next line, so the per-op figure is the
 * load-to-use latency of the level the buffer fits in.  The ring is built
 * in setup, a new one before every ensemble.
 *
 * On 4 KiB pages a random line is on a random page: past what the TLBs
 * cover (a few MiB), each load adds a page walk to the cache or DRAM
 * latency.  mem:chase_huge/ARG is the same ring on 2 MiB pages
 * (cb_alloc_huge()), which the TLBs cover to hundreds of MiB: the two
 * staircases side by side tell the caches from the TLB, as lat_mem_rd
 * users compare runs with and without huge pages.
 */
#include "cyclebench.h"
#include "alloc.h"

struct cb_line {
	struct cb_line *next;
} __aligned(64);

/* A ring built at compile time: no setup, nothing allocated. */
static struct cb_line cb_l1[8] = {
	{ &cb_l1[1] }, { &cb_l1[2] }, { &cb_l1[3] }, { &cb_l1[4] },
	{ &cb_l1[5] }, { &cb_l1[6] }, { &cb_l1[7] }, { &cb_l1[0] },
};

static struct cb_line *cb_l1_cur = cb_l1;

/*
 * 256 dependent loads round the ring.  The barrier between the long
 * region's copies keeps nothing in registers, so each copy loads the
 * cursor and stores it back: one store-to-load forward (about 7.7 core
 * cycles here) joins the copies, measured as 0.86 cycle a load at 8 loads
 * a copy, 0.12 at 64, so 0.03 at 256.
 */
CB_BODY(load_l1)
{
	asm volatile(".rept 256\n\t"
		     "mov (%0), %0\n\t"
		     ".endr"
		     : "+r" (cb_l1_cur));
}

struct chase_state {
	struct cb_line *cur;
	struct cb_line *buf;
};

/* xorshift64*: the shuffle needs speed, not secrecy. */
static u64 chase_next(u64 *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

/* Whole lines of the ARG bytes; the allocation and its free agree on it. */
static size_t chase_bytes(const struct cb_env *env)
{
	return env->arg / sizeof(struct cb_line) * sizeof(struct cb_line);
}

/*
 * Sattolo's algorithm, in place in @buf (NULL: the allocation failed):
 * each line first holds the index of its successor, shuffled into one
 * cycle through all lines, then the pointer.
 */
static int chase_ring(struct cb_env *env, struct cb_line *buf)
{
	struct chase_state *st = env->state;
	u64 n = chase_bytes(env) / sizeof(struct cb_line), i, x = cb_random_u64() | 1;
	unsigned long *idx;

	if (!buf)
		return -ENOMEM;
	st->buf = buf;
	idx = (unsigned long *)st->buf;
	/* up to max_mb of lines: yield now and then in every pass */
	for (i = 0; i < n; i++) {
		idx[i * 8] = i;
		if (!(i & 0xffff))
			cb_yield();
	}
	for (i = n - 1; i > 0; i--) {
		u64 j = ((chase_next(&x) >> 32) * i) >> 32;
		unsigned long t = idx[i * 8];

		idx[i * 8] = idx[j * 8];
		idx[j * 8] = t;
		if (!(i & 0xffff))
			cb_yield();
	}
	for (i = 0; i < n; i++) {
		st->buf[i].next = &st->buf[idx[i * 8]];
		if (!(i & 0xffff))
			cb_yield();
	}
	st->cur = st->buf;
	return 0;
}

static int chase_setup(struct cb_env *env)
{
	return chase_ring(env, cb_alloc(chase_bytes(env)));
}

static void chase_teardown(struct cb_env *env)
{
	struct chase_state *st = env->state;

	cb_free(st->buf);
	st->buf = NULL;
}

static int chase_huge_setup(struct cb_env *env)
{
	return chase_ring(env, cb_alloc_huge(chase_bytes(env)));
}

static void chase_huge_teardown(struct cb_env *env)
{
	struct chase_state *st = env->state;

	cb_free_huge(st->buf, chase_bytes(env));
	st->buf = NULL;
}

/*
 * 256 dependent loads.  Between the long region's copies the cursor goes
 * through st->cur (a store and a load: the barrier keeps no register), a
 * forward that adds about 0.03 core cycle a load at L1, nothing beyond.
 */
static __always_inline void chase_256(struct chase_state *st)
{
	asm volatile(".rept 256\n\t"
		     "mov (%0), %0\n\t"
		     ".endr"
		     : "+r" (st->cur));
}

CB_BODY_STATE(chase, struct chase_state)
{
	chase_256(st);
}

CB_BODY_STATE(chase_huge, struct chase_state)
{
	chase_256(st);
}

struct copy_state {
	void *dst;
	void *src;
	unsigned long n;
};

static int copy_setup(struct cb_env *env)
{
	struct copy_state *st = env->state;

	st->n = env->arg;
	st->dst = cb_alloc(st->n);
	st->src = cb_alloc(st->n);
	if (st->dst && st->src)
		return 0;
	cb_free(st->dst);
	cb_free(st->src);
	return -ENOMEM;
}

static void copy_teardown(struct cb_env *env)
{
	struct copy_state *st = env->state;

	cb_free(st->dst);
	cb_free(st->src);
}

/* The opaque destination keeps the copies from being merged into one. */
CB_BODY_STATE(memcpy, struct copy_state)
{
	void *dst = st->dst;

	CB_OPAQUE(dst);
	memcpy(dst, st->src, st->n);
}

CB_BODY_STATE(memset, struct copy_state)
{
	void *dst = st->dst;

	CB_OPAQUE(dst);
	memset(dst, 0x5a, st->n);
}

/* 4 KiB .. 256 MiB: L1 to DRAM on any x86 core. */
static const u64 chase_sizes[] = {
	1ULL << 12, 1ULL << 13, 1ULL << 14, 1ULL << 15, 1ULL << 16,
	1ULL << 17, 1ULL << 18, 1ULL << 19, 1ULL << 20, 1ULL << 21,
	1ULL << 22, 1ULL << 23, 1ULL << 24, 1ULL << 25, 1ULL << 26,
	1ULL << 27, 1ULL << 28,
};

static const u64 copy_sizes[] = {
	64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
};

/* mem:chase and mem:chase_huge: slow, a new ring per ensemble, ARG bytes. */
#define CHASE_FRAGMENT(_name, _desc)					\
	{								\
		CB_FRAGMENT_FIELDS(_name, 256, _desc),			\
		.unit = "load",						\
		.slow = true,						\
		.setup = _name##_setup,					\
		.teardown = _name##_teardown,				\
		.setup_each_ensemble = true,				\
		CB_ARGS(chase_sizes),					\
		.arg_min = 2 * sizeof(struct cb_line),			\
		.arg_bytes = true,					\
	}

static const struct cb_fragment mem_fragments[] = {
	CB_FRAGMENT_UNIT(load_l1, 256, "load",
			 "256 dependent loads round a ring in L1 (load-to-use latency)"),
	CHASE_FRAGMENT(chase, "256 dependent loads, random ring in ARG bytes"),
	CHASE_FRAGMENT(chase_huge, "256 dependent loads, random ring in ARG bytes on 2 MiB pages"),
	{
		CB_FRAGMENT_FIELDS(memcpy, 1, "memcpy() of ARG bytes, cache-hot (ops = bytes)"),
		.setup = copy_setup,
		.teardown = copy_teardown,
		CB_ARGS(copy_sizes),
		.arg_min = 1,
		.arg_max = 1 << 20,
		.ops_is_arg = true,
		.unit = "byte",
	},
	{
		CB_FRAGMENT_FIELDS(memset, 1, "memset() of ARG bytes, cache-hot (ops = bytes)"),
		.setup = copy_setup,
		.teardown = copy_teardown,
		CB_ARGS(copy_sizes),
		.arg_min = 1,
		.arg_max = 1 << 20,
		.ops_is_arg = true,
		.unit = "byte",
	},
};

CB_GROUP(mem, mem_fragments);
