// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: one system call with the kernel's Nth fault injected into it
 * (fault injection's fail-nth, Documentation/fault-injection/
 * fault-injection.rst): the Nth allocation this thread makes from now on
 * fails, whatever it is.  The file and the module image are opened and read
 * first, so that the Nth fault lands in the call itself.  For the QEMU
 * tests on the debug kernel (tests/e2e/debug.sh); linked statically.
 *
 *   failnth N insmod FILE [PARAMS]   finit_module(FILE, PARAMS)
 *   failnth N write FILE TEXT        one write() of TEXT to FILE
 *   failnth hog CPU FILE             spins on CPU at SCHED_FIFO priority 10
 *                                    until FILE exists (holds a kthread
 *                                    bound there back, to set its fail-nth)
 *
 * Prints the call's result (ok, or the errno name) and whether the fault
 * was injected: "ENOMEM hit", "ok hit" (a failure the call absorbed) or
 * "ok miss" (the call makes fewer than N allocations).  Exit status 0, or
 * 2 when the fail-nth file cannot be used (not a fault-injection kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case E2BIG: return "E2BIG";
	case EINTR: return "EINTR";
	case EFAULT: return "EFAULT";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int usage(const char *why)
{
	fprintf(stderr, "failnth: %s\n"
		"usage: failnth N insmod FILE [PARAMS]\n"
		"       failnth N write FILE TEXT\n"
		"       failnth hog CPU FILE\n", why);
	return 2;
}

static int hog(const char *cpu, const char *stop)
{
	struct sched_param sp = { .sched_priority = 10 };
	cpu_set_t set;
	char *end;
	long c;

	errno = 0;
	c = strtol(cpu, &end, 10);
	if (errno || *end || c < 0 || c >= CPU_SETSIZE)
		return usage("CPU must be a CPU number");
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "failnth: hog on CPU %ld: %s\n", c, strerror(errno));
		return 2;
	}
	while (access(stop, F_OK))
		;
	return 0;
}

int main(int argc, char **argv)
{
	char path[64], left[32];
	unsigned long n;
	char *end;
	int fnth, fd, ret, err;
	ssize_t len;

	if (argc < 4)
		return usage("too few arguments");
	if (!strcmp(argv[1], "hog"))
		return hog(argv[2], argv[3]);
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || !n)
		return usage("N must be a positive integer");
	snprintf(path, sizeof(path), "/proc/self/task/%ld/fail-nth",
		 (long)syscall(SYS_gettid));
	fnth = open(path, O_RDWR);
	if (fnth < 0) {
		fprintf(stderr, "failnth: %s: %s (a kernel with CONFIG_FAULT_INJECTION?)\n",
			path, strerror(errno));
		return 2;
	}
	fd = open(argv[3], strcmp(argv[2], "write") ? O_RDONLY | O_CLOEXEC : O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "failnth: %s: %s\n", argv[3], strerror(errno));
		return 2;
	}
	len = snprintf(left, sizeof(left), "%lu", n);
	if (write(fnth, left, len) != len) {
		fprintf(stderr, "failnth: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (!strcmp(argv[2], "insmod"))
		ret = syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0);
	else if (!strcmp(argv[2], "write") && argc == 5)
		ret = write(fd, argv[4], strlen(argv[4])) < 0 ? -1 : 0;
	else
		return usage("unknown call or wrong arguments");
	err = errno;
	/* what is left of N: 0 once the fault was injected */
	len = pread(fnth, left, sizeof(left) - 1, 0);
	left[len > 0 ? len : 0] = '\0';
	if (write(fnth, "0", 1) != 1)
		fprintf(stderr, "failnth: resetting %s: %s\n", path, strerror(errno));
	printf("%s %s\n", ret ? errname(err) : "ok", atoi(left) ? "miss" : "hit");
	return 0;
}
