// SPDX-License-Identifier: GPL-2.0
/*
 * c2c.c - the core-to-core latency matrix (cyclebench-user --c2c): for
 * every pair of the CPUs in cpus=, a cache line handed from one to the
 * other and back, timed round trip by round trip on the first CPU's TSC,
 * each round trip kept (the pair's cycles file: a distribution, not one
 * figure).  A round trip is two hand-overs: its ops are 2, so half of it
 * is the one-way latency the matrix shows.
 *
 * Beside it, c2clat's method (github.com/rigtorp/c2clat), written here:
 * the best of 1000 batches of 100 round trips, timed with CLOCK_MONOTONIC,
 * over 200 - one figure a pair, what that tool prints.
 *
 * Interrupts stay on, as in all of cyclebench-user: a round trip that an
 * interrupt lands in is kept, and is in the distribution's tail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "runner.h"

/* the line the two CPUs hand over: a sequence number, alone on its line */
struct c2c_line {
	volatile u64 seq __aligned(SMP_CACHE_BYTES);
	volatile int stop;
};

struct c2c_pong {
	struct c2c_line *line;
	unsigned int cpu;
};

/* the second CPU: answers each odd number with the next even one */
static void *pong(void *p)
{
	struct c2c_pong *pg = p;
	struct c2c_line *l = pg->line;
	u64 s;

	/* no PAUSE in the hot loops: it would add its own latency (c2clat has none) */
	for (;;) {
		while (!((s = l->seq) & 1))
			if (l->stop)
				return NULL;
		l->seq = s + 1;
	}
}

/* one round trip from the first CPU, in TSC ticks (0 on Ctrl-C) */
static inline u64 round_trip(struct c2c_line *l, u64 *seq)
{
	u64 t0, want = *seq + 2;

	_mm_lfence();
	t0 = __rdtsc();
	_mm_lfence();
	l->seq = *seq + 1;
	while (l->seq != want)
		if (cb_stop_requested)
			return 0;
	_mm_lfence();
	*seq = want;
	return __rdtsc() - t0;
}

/* c2clat's round trip: no timestamp, no fence */
static inline void ping(struct c2c_line *l, u64 *seq)
{
	u64 want = *seq + 2;

	l->seq = *seq + 1;
	while (l->seq != want && !cb_stop_requested)
		;
	*seq = want;
}

/* the timestamps of round_trip() around nothing: what each one adds */
static inline u64 empty_trip(void)
{
	u64 t0;

	_mm_lfence();
	t0 = __rdtsc();
	_mm_lfence();
	_mm_lfence();
	return __rdtsc() - t0;
}

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

static int cmp_u64(const void *x, const void *y)
{
	u64 a = *(const u64 *)x, b = *(const u64 *)y;

	return a < b ? -1 : a > b;
}

/*
 * One pair: the calling thread, pinned to cpu a, pings; a thread pinned
 * to cpu b pongs.  n round trips into rt after warmup ones, the
 * timestamps' own cost into *overhead, c2clat's best and median batch
 * into c2clat_ns[0..1].  0, -EINTR (Ctrl-C), -ENOMEM or a pthread error.
 */
static int pair(unsigned int a, unsigned int b, u64 *rt, u64 n, u64 warmup,
		double *c2clat_ns, u64 *overhead)
{
	struct c2c_line *l = cb_alloc(sizeof(*l));
	struct c2c_pong pg = { .line = l, .cpu = b };
	u64 seq = 0, batch[1000];
	pthread_attr_t attr;
	pthread_t th;
	cpu_set_t set;
	int ret;

	if (!l)
		return -ENOMEM;
	CPU_ZERO(&set);
	CPU_SET(a, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		cb_free(l);
		return -errno;
	}
	CPU_ZERO(&set);
	CPU_SET(b, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = -pthread_create(&th, &attr, pong, &pg);
	pthread_attr_destroy(&attr);
	if (ret) {
		cb_free(l);
		return ret;
	}
	/* the timestamps' own cost, here: the median of 1001 empty trips */
	{
		u64 e[1001];

		for (unsigned int i = 0; i < 1001; i++)
			e[i] = empty_trip();
		qsort(e, 1001, sizeof(*e), cmp_u64);
		*overhead = e[500];
	}
	for (u64 i = 0; i < warmup + n && !cb_stop_requested; i++) {
		u64 d = round_trip(l, &seq);

		if (i >= warmup)
			rt[i - warmup] = d;
	}
	/* c2clat: 1000 batches of 100 round trips; it prints the best */
	for (unsigned int k = 0; k < 1000; k++) {
		u64 t0 = mono_ns();

		for (unsigned int j = 0; j < 100; j++)
			ping(l, &seq);
		batch[k] = mono_ns() - t0;
	}
	qsort(batch, 1000, sizeof(*batch), cmp_u64);
	c2clat_ns[0] = batch[0] / 200.0;
	c2clat_ns[1] = batch[500] / 200.0;
	l->stop = 1;
	pthread_join(th, NULL);
	cb_free(l);
	return cb_stop_requested ? -EINTR : 0;
}

static struct cb_fragment c2c_frags[CB_MAX_SLOTS];
static char c2c_names[CB_MAX_SLOTS][24];
static const struct cb_group c2c_group = { .name = "c2c", .fragments = c2c_frags };

static double c2clat[CB_MAX_SLOTS][2];	/* its best, its median batch */
static u64 overhead[CB_MAX_SLOTS];
/* each pair's round trips: 10th, 50th and 90th percentiles, in ticks */
static double pct[CB_MAX_SLOTS][3];

/*
 * The 10th and 90th percentiles of v[0..n) (nearest rank) and its median
 * (the mean of the two middle values where n is even: cyclestat's, so the
 * map and the matrix agree), from one sorted copy.
 */
static int percentiles(const u64 *v, u64 n, double *out)
{
	static const double q[3] = { 0.1, 0.5, 0.9 };
	u64 *tmp = malloc(n * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_u64);
	for (int i = 0; i < 3; i++)
		out[i] = (double)tmp[(u64)(q[i] * (double)(n - 1) + 0.5)];
	out[1] = ((double)tmp[(n - 1) / 2] + (double)tmp[n / 2]) / 2;
	free(tmp);
	return 0;
}

/*
 * Every pair of cpus=, one after another: each a result c2c:cpuA_cpuB of
 * samples x ensembles round trips (ops 2), in the tree as any result.
 */
int cb_c2c(struct cb_run *req)
{
	u64 n = (u64)req->samples * req->ensembles;
	unsigned int k = req->nr_cpus, p = 0;
	int ret = 0;

	for (unsigned int i = 0; i < k && !ret; i++)
		for (unsigned int j = i + 1; j < k && !ret; j++, p++) {
			struct cb_user_result *r = &req->res[p];

			snprintf(c2c_names[p], sizeof(c2c_names[p]), "cpu%u_cpu%u",
				 req->cpu_of[i], req->cpu_of[j]);
			c2c_frags[p] = (struct cb_fragment){
				.name = c2c_names[p], .ops = 2, .no_long = true,
				.desc = "a cache line's round trip between two CPUs (one-way: half)",
			};
			*r = (struct cb_user_result){ .group = &c2c_group, .frag = &c2c_frags[p],
						 .gi = 0, .fi = p, .ops = 2 };
			r->cycles = cb_alloc(n * sizeof(u64));
			if (!r->cycles) {
				ret = -ENOMEM;
				break;
			}
			ret = pair(req->cpu_of[i], req->cpu_of[j], r->cycles, n, req->warmup,
				   c2clat[p], &overhead[p]) ?: percentiles(r->cycles, n, pct[p]);
			r->state = ret ? CB_STATE_FAILED : CB_STATE_OK;
		}
	req->nr = p;
	return ret;
}

/*
 * Half of a round trip of @rt ticks less the timestamps' @oh, in ns at
 * @khz: the same arithmetic as cyclestat's map, in the same order.
 */
static double net_ns(double rt, u64 oh, double khz)
{
	return (rt > (double)oh ? rt - (double)oh : 0) / 2 * 1e6 / khz;
}

/*
 * Each pair's timestamps' own cost (ticks a trip) into its info, as
 * c2c_timestamps: cyclestat's map (plot) takes it off the round trip as
 * the matrix below does, so the two show the same ns.  0 or -errno.
 */
int cb_c2c_note(const struct cb_run *req)
{
	for (unsigned int q = 0; q < req->nr; q++) {
		struct cb_sink sink;
		char *path;
		FILE *f;

		if (asprintf(&path, "%s/c2c/%s/info", req->out, c2c_names[q]) < 0)
			return -ENOMEM;
		f = fopen(path, "ae");
		free(path);
		if (!f)
			return -errno;
		sink = cb_sink_of(f);
		cb_info_c2c_timestamps(&sink, overhead[q]);
		if (fclose(f))
			return -EIO;
	}
	return 0;
}

/* the matrix: median one-way ns [10th, 90th percentile]; c2clat's figures */
int cb_c2c_print(const struct cb_run *req, const struct cb_machine *m, FILE *out)
{
	u64 n = (u64)req->samples * req->ensembles;
	unsigned int k = req->nr_cpus;
	double khz = m->tsc_khz;

	fprintf(out, "c2c: one-way latency in ns, half a round trip on the first CPU's TSC less\n"
		"its timestamps' own cost (the median of empty trips): the median of %llu\n"
		"round trips [10th, 90th percentile]; c2clat: its method, the best of 1000\n"
		"batches of 100 round trips over 200 (CLOCK_MONOTONIC, no per-trip stamps)\n",
		(unsigned long long)n);
	fprintf(out, "%-8s", "");
	for (unsigned int j = 0; j < k; j++)
		fprintf(out, "  cpu%-21u", req->cpu_of[j]);
	fputc('\n', out);
	for (unsigned int i = 0; i < k; i++) {
		fprintf(out, "cpu%-5u", req->cpu_of[i]);
		for (unsigned int j = 0; j < k; j++) {
			unsigned int a = i < j ? i : j, b = i < j ? j : i, q;

			if (i == j) {
				fprintf(out, "  %-24s", "-");
				continue;
			}
			/* pair (a, b)'s index in cb_c2c()'s order */
			q = a * k - a * (a + 1) / 2 + (b - a - 1);
			fprintf(out, "  %6.1f [%5.1f, %6.1f]   ",
				net_ns(pct[q][1], overhead[q], khz),
				net_ns(pct[q][0], overhead[q], khz),
				net_ns(pct[q][2], overhead[q], khz));
		}
		fputc('\n', out);
	}
	for (unsigned int q = 0; q < req->nr; q++)
		fprintf(out, "%s: c2clat's method %.1f ns (its median batch %.1f); timestamps %llu ticks a trip\n",
			c2c_names[q], c2clat[q][0], c2clat[q][1], (unsigned long long)overhead[q]);
	return 0;
}
