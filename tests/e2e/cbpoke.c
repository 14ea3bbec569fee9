// SPDX-License-Identifier: GPL-2.0
/*
 * cbpoke: the guest-side helper of the QEMU tests.  busybox sh can write a
 * file but cannot say which errno a write returned, split one command over
 * several write() calls, or throw a thousand random writes at a file quickly;
 * this does.  Linked statically: it runs in a busybox-only initramfs.
 *
 *   cbpoke write FILE TEXT          one write(); prints ok or the errno name
 *   cbpoke writes FILE PART...      one write() per PART on one fd
 *   cbpoke writenul FILE A B        one write() of A, a NUL byte, then B
 *   cbpoke fuzz FILE N SEED         N generated garbage writes; prints a tally
 *   cbpoke repeat FILE N TEXT...    N writes, one per open, cycling through
 *                                   the TEXTs; prints a tally of the results
 *   cbpoke read1 FILE               reads 1 byte at a time, prints the data
 *   cbpoke readoff FILE OFF LEN     pread() at an odd offset, prints the data
 *   cbpoke hog CPU SECONDS          spins on CPU as SCHED_FIFO 50 for at most
 *                                   SECONDS (busybox has no chrt): a
 *                                   real-time hog that starves CPU's others
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case E2BIG: return "E2BIG";
	case EINTR: return "EINTR";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	case ENODEV: return "ENODEV";
	case ETIME: return "ETIME";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EPROTO: return "EPROTO";
	case ESPIPE: return "ESPIPE";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		printf("%s\n", errname(errno));
		exit(1);
	}
	return fd;
}

static void put_result(ssize_t r, size_t want)
{
	if (r < 0)
		printf("%s", errname(errno));
	else if ((size_t)r == want)
		printf("ok");
	else
		printf("short:%zd", r);
}

/* xorshift64*: reproducible garbage from a seed. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static const char *const pieces[] = {
	"all", "base", "alu", "alu:add_dep", "loop:dec_jnz_100", "nosuch",
	"alu:nosuch", ":", ",", ",,", "all,", "samples=", "samples=-1",
	"samples=0", "samples=99999999999999999999", "samples=1",
	"ensembles=1", "ensembles=0", "warmup=0", "warmup=x", "method=lfence",
	"method=paoloni", "method=rdtsc", "cpu=0", "cpu=1", "cpu=4096",
	"cpu=-1", "samples=1 samples=1", "=", "==", " ", "\t", "\n",
	"SAMPLES=1", "samples=0x10", "samples=1k", "cpu=99999999999",
};

/*
 * Builds one garbage command in buf and returns its length.  Every command
 * is either malformed or asks for a tiny run, so valid ones stay quick.
 */
static size_t make_garbage(char *buf, size_t max)
{
	size_t len = 0, i, n;

	switch (rng() % 4) {
	case 0:	/* random bytes, NULs included */
		n = rng() % 64;
		for (i = 0; i < n && len < max; i++)
			buf[len++] = (char)rng();
		break;
	case 1:	/* over-long */
		n = 200 + rng() % 4000;
		for (i = 0; i < n && len < max; i++)
			buf[len++] = 'a' + rng() % 26;
		break;
	default: /* pieces of the grammar, glued */
		n = 1 + rng() % 5;
		for (i = 0; i < n; i++) {
			const char *p = pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t l = strlen(p);

			if (len + l + 1 >= max)
				break;
			memcpy(buf + len, p, l);
			len += l;
			if (rng() % 2)
				buf[len++] = ' ';
		}
		/* keep valid runs tiny */
		if (len + 32 < max) {
			memcpy(buf + len, " samples=2 ensembles=1 warmup=0", 31);
			len += rng() % 2 ? 31 : 0;
		}
		break;
	}
	return len;
}

static int fuzz(const char *path, long n, uint64_t seed)
{
	static char buf[8192];
	long ok = 0, einval = 0, other = 0;
	long i;

	rng_state = seed ? seed : 1;
	for (i = 0; i < n; i++) {
		size_t len = make_garbage(buf, sizeof(buf));
		int fd = open_or_die(path, O_WRONLY);
		ssize_t r = write(fd, buf, len);

		if (r == (ssize_t)len)
			ok++;
		else if (r < 0 && errno == EINVAL)
			einval++;
		else {
			other++;
			printf("write %ld (len %zu): ", i, len);
			put_result(r, len);
			printf("\n");
		}
		close(fd);
	}
	printf("fuzz: %ld writes: %ld ok, %ld EINVAL, %ld other\n",
	       n, ok, einval, other);
	return 0;
}

/* N writes of the given commands in turn; the tally names each errno. */
static int repeat(const char *path, long n, char **texts, int nr)
{
	long counts[8] = { 0 };	/* writes that failed with errs[j] */
	int errs[8] = { 0 }, nerrs = 0, j;
	long i, ok = 0, other = 0;

	for (i = 0; i < n; i++) {
		const char *t = texts[i % nr];
		int fd = open_or_die(path, O_WRONLY);
		ssize_t r = write(fd, t, strlen(t));
		int e = errno;

		close(fd);
		if (r == (ssize_t)strlen(t)) {
			ok++;
			continue;
		}
		for (j = 0; j < nerrs && errs[j] != e; j++)
			;
		if (j == nerrs && nerrs < 8)
			errs[nerrs++] = e;
		if (j < 8)
			counts[j]++;
		else
			other++;
	}
	printf("repeat: %ld writes: %ld ok", n, ok);
	for (j = 0; j < nerrs; j++)
		printf(", %ld %s", counts[j], errname(errs[j]));
	if (other)
		printf(", %ld other", other);
	printf("\n");
	return 0;
}

static int hog(int cpu, int seconds)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec t0, t;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		printf("%s\n", errname(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_sec - t0.tv_sec < seconds);
	return 0;
}

static void on_sigint(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	int fd, i;

	/*
	 * A non-interactive shell starts background commands with SIGINT
	 * ignored.  Catch it instead, as an interactive shell does around its
	 * builtin echo: the tests send SIGINT as a Ctrl-C would, and the
	 * write must then return EINTR.
	 */
	struct sigaction sa = { .sa_handler = on_sigint };

	sigaction(SIGINT, &sa, NULL);
	if (argc >= 4 && !strcmp(argv[1], "write")) {
		fd = open_or_die(argv[2], O_WRONLY);
		put_result(write(fd, argv[3], strlen(argv[3])), strlen(argv[3]));
		printf("\n");
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "writes")) {
		fd = open_or_die(argv[2], O_WRONLY);
		for (i = 3; i < argc; i++) {
			put_result(write(fd, argv[i], strlen(argv[i])), strlen(argv[i]));
			printf(i + 1 < argc ? " " : "\n");
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "writenul")) {
		size_t la = strlen(argv[3]), lb = strlen(argv[4]);
		char *buf = malloc(la + lb + 1);

		if (!buf)
			return 1;
		memcpy(buf, argv[3], la);
		buf[la] = '\0';
		memcpy(buf + la + 1, argv[4], lb);
		fd = open_or_die(argv[2], O_WRONLY);
		put_result(write(fd, buf, la + lb + 1), la + lb + 1);
		printf("\n");
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "fuzz"))
		return fuzz(argv[2], atol(argv[3]), strtoull(argv[4], NULL, 0));
	if (argc >= 5 && !strcmp(argv[1], "repeat"))
		return repeat(argv[2], atol(argv[3]), argv + 4, argc - 4);
	if (argc == 3 && !strcmp(argv[1], "read1")) {
		char c;
		ssize_t r;

		fd = open_or_die(argv[2], O_RDONLY);
		while ((r = read(fd, &c, 1)) == 1)
			putchar(c);
		if (r < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "readoff")) {
		size_t len = strtoul(argv[4], NULL, 0);
		char *buf = malloc(len + 1);
		ssize_t r;

		fd = open_or_die(argv[2], O_RDONLY);
		r = pread(fd, buf, len, strtol(argv[3], NULL, 0));
		if (r < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		fwrite(buf, 1, r, stdout);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "hog"))
		return hog(atoi(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: cbpoke write|writes|writenul|fuzz|repeat|read1|readoff|hog ...\n");
	return 2;
}
