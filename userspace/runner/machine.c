// SPDX-License-Identifier: GPL-2.0
/*
 * machine.c - what the top-level info says about this machine, read the
 * way the module reads it where a process can: CPUID for the vendor, the
 * family and the features, /proc/cpuinfo for the flags the kernel decided
 * on, sysfs for the TSC frequency - and where the kernel does not export
 * it (most kernels), a calibration against CLOCK_MONOTONIC_RAW.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <x86intrin.h>

#include "cpuflags.h"
#include "runner.h"

/* The first line of path, without its newline; 0 if it was read. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* "key : value" of the first processor in /proc/cpuinfo, malloc'ed. */
static char *cpuinfo_field(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *line = NULL, *val = NULL;
	size_t cap = 0, n = strlen(key);

	if (!f)
		return NULL;
	while (!val && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = 0;
		val = strdup(colon);
	}
	free(line);
	fclose(f);
	return val;
}

static u64 mono_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

/*
 * A clock reading bracketed by two TSC reads: the narrowest bracket of a
 * few tries, so a preemption between the reads does not skew it.
 */
static void bracket(u64 *tsc, u64 *ns)
{
	u64 best = ~0ull;

	for (int i = 0; i < 16; i++) {
		u64 t0 = __rdtsc(), n = mono_raw_ns(), t1 = __rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}

/* TSC kHz against CLOCK_MONOTONIC_RAW over 200 ms: 1e-5 or better. */
static unsigned int calibrate_tsc_khz(void)
{
	u64 t0, n0, t1, n1;

	bracket(&t0, &n0);
	do
		bracket(&t1, &n1);
	while (n1 - n0 < 200000000u);
	return (unsigned int)(((t1 - t0) * 1000000u + (n1 - n0) / 2) / (n1 - n0));
}

/* Spin for ms milliseconds: the core leaves its idle clock first. */
void cb_spin_warm(unsigned int ms)
{
	u64 end = mono_raw_ns() + (u64)ms * 1000000u;

	while (mono_raw_ns() < end && !cb_stop_requested)
		;
}

/* Reads 0..96 empty iterations apart: a stable back-to-back cost is no step. */
static unsigned int tsc_step(void)
{
	static u64 d[4000];

	for (unsigned int i = 0; i < 4000; i++) {
		u64 a = __rdtsc(), b;

		for (volatile unsigned int j = 0; j < i % 97; j++)
			;
		b = __rdtsc();
		d[i] = b - a;
	}
	return cb_tsc_step_of(d, 4000);
}

int cb_machine_read(struct cb_machine *m)
{
	unsigned int a, b, c, d, fam, mod;
	struct utsname u;
	char *flags, *name, line[64];

	memset(m, 0, sizeof(*m));
	if (!uname(&u))
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	__cpuid(0, a, b, c, d);
	memcpy(m->vendor, &b, 4);
	memcpy(m->vendor + 4, &d, 4);
	memcpy(m->vendor + 8, &c, 4);
	__cpuid(1, a, b, c, d);
	/* the SDM's display family and model, as the kernel's x86/x86_model */
	fam = (a >> 8) & 0xf;
	mod = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam >= 6)
		mod |= ((a >> 16) & 0xf) << 4;
	m->family = fam;
	m->model = mod;
	m->stepping = a & 0xf;
	m->hypervisor = (c >> 31) & 1;
	/* the hypervisor's signature (KVMKVMKVM, TCGTCGTCGTCG, ...): the module's rule */
	snprintf(m->hypervisor_vendor, sizeof(m->hypervisor_vendor), "none");
	if (m->hypervisor) {
		unsigned int sig[3];

		__cpuid(0x40000000, a, sig[0], sig[1], sig[2]);
		memcpy(m->hypervisor_vendor, sig, sizeof(sig));
		m->hypervisor_vendor[sizeof(sig)] = 0;
		for (char *p = m->hypervisor_vendor; *p; p++)
			if (*p < '!' || *p > '~')
				*p = '_';
		if (!m->hypervisor_vendor[0])
			snprintf(m->hypervisor_vendor, sizeof(m->hypervisor_vendor), "unknown");
	}

	name = cpuinfo_field("model name");
	if (name) {
		snprintf(m->model_name, sizeof(m->model_name), "%s", name);
		free(name);
	} else if ((unsigned int)__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u) {
		unsigned int r[12];

		for (unsigned int i = 0; i < 3; i++)
			__cpuid(0x80000002u + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
		memcpy(m->model_name, r, sizeof(r) < sizeof(m->model_name) ? sizeof(r) : sizeof(m->model_name) - 1);
	}

	/*
	 * The kernel's flags where it says them (it may clear a feature it
	 * distrusts), else CPUID.  RDTSCP needs both: executing it where the
	 * kernel turned it off would be an invalid opcode.
	 */
	flags = cpuinfo_field("flags");
	m->rdtscp = cpuid_rdtscp() && (!flags || cpu_has_flag(flags, "rdtscp"));
	if (flags) {
		m->constant_tsc = cpu_has_flag(flags, "constant_tsc");
		m->nonstop_tsc = cpu_has_flag(flags, "nonstop_tsc");
	} else {
		m->constant_tsc = m->nonstop_tsc = cpuid_invariant_tsc();
	}
	free(flags);
	m->smt_active = !read_line("/sys/devices/system/cpu/smt/active", line, sizeof(line)) &&
			!strcmp(line, "1");

	m->tsc_step = tsc_step();
	if (!read_line("/sys/devices/system/cpu/cpu0/tsc_freq_khz", line, sizeof(line)) &&
	    (m->tsc_khz = (unsigned int)strtoul(line, NULL, 10)))
		return 0;
	m->tsc_khz = calibrate_tsc_khz();
	m->tsc_khz_calibrated = 1;
	return m->tsc_khz ? 0 : -1;
}

/* Is cpu in a cpulist such as "0-3,8,10-11"? */
static int in_cpulist(const char *list, unsigned int cpu)
{
	const char *c = list;

	while (*c) {
		char *e;
		unsigned long lo, hi;

		lo = strtoul(c, &e, 10);
		if (e == c)
			return 0;
		hi = lo;
		if (*e == '-') {
			c = e + 1;
			hi = strtoul(c, &e, 10);
			if (e == c)
				return 0;
		}
		if (cpu >= lo && cpu <= hi)
			return 1;
		if (*e != ',')
			return 0;
		c = e + 1;
	}
	return 0;
}

/* 0 if this process may run on cpu; else why not, in why. */
int cb_cpu_usable(unsigned int cpu, char *why, size_t len)
{
	char online[256];
	cpu_set_t set;

	if (!read_line("/sys/devices/system/cpu/online", online, sizeof(online)) &&
	    !in_cpulist(online, cpu)) {
		snprintf(why, len, "cpu %u is not online (online: %s); pick one with cpu=N", cpu, online);
		return -1;
	}
	if (cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) || !CPU_ISSET(cpu, &set)) {
		snprintf(why, len, "cpu %u is not in this process's CPU set (taskset, cgroup cpuset); pick one that is with cpu=N (see: taskset -pc $$)", cpu);
		return -1;
	}
	return 0;
}
