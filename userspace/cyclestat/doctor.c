// SPDX-License-Identifier: GPL-2.0
/*
 * doctor.c - cyclestat doctor [--cpu N] [--strict]: is this machine fit to
 * measure cycles on, and if not, what to do about it.
 *
 * Reads /proc/cpuinfo, /sys/devices/system/cpu, /proc/sys/kernel and
 * /dev/cpu/N/msr below a root that tests point at a fake tree
 * (--sysroot or CYCLESTAT_SYSROOT); with the real root it also asks CPUID.
 * Every "WARN" line ends with its fix; scripts/prepare-host.sh applies the
 * safe ones. Exit 0 even with problems, unless --strict (then 1).
 *
 * Live (no sysroot) it also measures the core clock of the CPU it checks
 * against the TSC, as calib:add_chain does: a dependent add chain retires
 * one add per core cycle, so adds per TSC tick is core cycles per tick.
 * Turbo and power management show there even where no control is exposed
 * (a VM: the host decides).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpuflags.h"
#include "model.h"
#include "read.h"
#include "commands.h"

struct doc {
	const struct cs_opts *o;
	const char *root;
	int problems;
	int knobs;	/* of them, knobs scripts/prepare-host.sh sets */
};

static void say(struct doc *d, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct doc *d, const char *tag, const char *fmt, ...)
{
	va_list ap;
	FILE *f = d->o->out;
	int warn = !strcmp(tag, "WARN");

	if (warn)
		d->problems++;
	if (d->o->color && warn)
		fprintf(f, "\033[33m%-4s\033[0m  ", tag);
	else
		fprintf(f, "%-4s  ", tag);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* the first line of ROOT/path, without its newline; NULL if unreadable */
static char *slurp(struct doc *d, const char *path)
{
	char *full, *buf;
	size_t len;
	struct cs_err e;

	if (asprintf(&full, "%s%s", d->root, path) < 0)
		return NULL;
	if (cs_read_file(full, &buf, &len, 16u << 20, &e)) {
		free(full);
		return NULL;
	}
	free(full);
	return buf;
}

static char *first_line(struct doc *d, const char *path)
{
	char *s = slurp(d, path);

	if (s)
		s[strcspn(s, "\n")] = 0;
	return s;
}

/* the field @key of processor N in cpuinfo (the first one's if N has none) */
static char *cpu_field(struct doc *d, unsigned int cpu, const char *key)
{
	char *buf = slurp(d, "/proc/cpuinfo"), *c, *val = NULL;
	size_t kl = strlen(key);
	long cur = -1;

	if (!buf)
		return NULL;
	for (c = buf; c && *c; c = strchr(c, '\n'), c = c ? c + 1 : NULL) {
		if (!strncmp(c, "processor", 9)) {
			char *colon = strchr(c, ':');

			cur = colon ? strtol(colon + 1, NULL, 10) : -1;
		} else if (!strncmp(c, key, kl) && (c[kl] == ' ' || c[kl] == '\t' || c[kl] == ':') &&
			   (cur == (long)cpu || !val)) {
			char *colon = strchr(c, ':'), *nl = strchrnul(c, '\n');

			if (!colon || colon > nl)
				continue;
			free(val);
			val = strndup(colon + 1 + (colon[1] == ' '), (size_t)(nl - colon - 1 - (colon[1] == ' ')));
			if (cur == (long)cpu)
				break;
		}
	}
	free(buf);
	return val;
}

/*
 * Whether LFENCE keeps RDTSC in order on @cpu, as the module judges it at
 * load (kmod/params.c): Intel always; AMD (and Hygon) families 0fh and 11h
 * always; other AMD only with DE_CFG (MSR 0xc0011029) bit 1 set, read back
 * because a hypervisor may ignore the kernel's write.  1 yes, 0 no, -1
 * unknown (DE_CFG unreadable here: the module, which reads it itself,
 * takes an unreadable one as no); @why says why, for -1 with the fix.
 */
static int lfence_orders_rdtsc(struct doc *d, unsigned int cpu, const char **why)
{
	char *vendor = cpu_field(d, cpu, "vendor_id"), *fam = cpu_field(d, cpu, "cpu family");
	char path[256];
	long family = fam ? strtol(fam, NULL, 10) : -1;
	int amd = vendor && (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"));
	uint64_t v;
	ssize_t got;
	int fd;

	free(vendor);
	free(fam);
	if (!amd) {
		*why = "not AMD";
		return 1;
	}
	if (family == 0xf || family == 0x11) {
		*why = "AMD family 0fh/11h";
		return 1;
	}
	snprintf(path, sizeof(path), "%s/dev/cpu/%u/msr", d->root, cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	got = fd < 0 ? -1 : pread(fd, &v, sizeof(v), 0xc0011029);
	if (fd >= 0)
		close(fd);
	if (got != sizeof(v)) {
		*why = "is unreadable here (fix: sudo modprobe msr, and run as root)";
		return -1;
	}
	*why = v & 2 ? "AMD, DE_CFG bit 1 set" : "AMD, DE_CFG bit 1 clear";
	return (v & 2) != 0;
}

static void check_cpu(struct doc *d, unsigned int cpu)
{
	char *flags = cpu_field(d, cpu, "flags");
	int live = CPUID_LIVE && !d->root[0];
	int inv, rdtscp, hyp, lf;
	const char *why;

	if (!flags) {
		say(d, "WARN", "cannot read %s/proc/cpuinfo flags; is /proc mounted? (mount -t proc proc /proc)",
		    d->root);
		return;
	}
	inv = cpu_has_flag(flags, "constant_tsc") && cpu_has_flag(flags, "nonstop_tsc");
	rdtscp = cpu_has_flag(flags, "rdtscp");
	hyp = cpu_has_flag(flags, "hypervisor");
	if (live) {
		inv |= cpuid_invariant_tsc();
		rdtscp |= cpuid_rdtscp();
		hyp |= cpuid_hypervisor();
	}
	if (inv)
		say(d, "ok", "invariant TSC (constant_tsc, nonstop_tsc%s)", live ? "; CPUID 80000007h EDX[8]" : "");
	else
		say(d, "WARN", "TSC is not invariant (constant_tsc/nonstop_tsc missing): ticks vary with frequency and sleep states; fix: pin the frequency (scripts/prepare-host.sh) or use a machine with an invariant TSC");
	lf = lfence_orders_rdtsc(d, cpu, &why);
	if (rdtscp)
		say(d, "ok", "RDTSCP present: the paoloni method (CPUID; RDTSC ... RDTSCP; CPUID) is used");
	else if (lf > 0)
		say(d, "note", "no RDTSCP: LFENCE orders RDTSC here (%s), so the module stops with LFENCE; RDTSC: paoloni-nordtscp (CPUID; RDTSC ... LFENCE; RDTSC; CPUID), or lfence-nordtscp with method=lfence; nothing to fix",
		    why);
	else if (!lf)
		say(d, "note", "no RDTSCP, and LFENCE does not order RDTSC here (%s): the module stops with CPUID: cpuid-nordtscp (CPUID; RDTSC ... CPUID; RDTSC; CPUID), whichever method is asked for",
		    why);
	else
		say(d, "note", "no RDTSCP: the module stops with LFENCE; RDTSC (paoloni-nordtscp, or lfence-nordtscp with method=lfence) where LFENCE orders RDTSC, else with CPUID (cpuid-nordtscp: CPUID; RDTSC ... CPUID; RDTSC; CPUID); on this AMD CPU DE_CFG bit 1 decides, which %s; the tree's info says which on its lfence line",
		    why);
	if (hyp && lf > 0)
		say(d, "WARN", "running under a hypervisor: CPUID is a VM exit and the TSC may be virtualised; fix: load with method=lfence (sudo insmod cyclebench.ko method=lfence) and take final figures on bare metal");
	else if (hyp && !lf)
		say(d, "WARN", "running under a hypervisor: CPUID is a VM exit and the TSC may be virtualised, and LFENCE does not order RDTSC here (%s), so method=lfence gives paoloni; fix: take final figures on bare metal (or have the host set DE_CFG bit 1)",
		    why);
	else if (hyp)
		say(d, "WARN", "running under a hypervisor: CPUID is a VM exit and the TSC may be virtualised; fix: load with method=lfence (sudo insmod cyclebench.ko method=lfence; where DE_CFG bit 1 is clear it gives paoloni, and info's lfence line says so) and take final figures on bare metal");
	else
		say(d, "ok", "bare metal (no hypervisor flag%s)", live ? ", CPUID 1 ECX[31] clear" : "");
	free(flags);
}

/* the knobs scripts/prepare-host.sh sets, from its table (the Makefile) */
static const struct knob {
	const char *label, *path, *want, *fine, *why, *absent;
} knobs[] = {
#define CB_KNOB(label, path, want, fine, why, absent) { label, path, want, fine, why, absent },
#include "hostknobs.h"
#undef CB_KNOB
};

/* is @w one of @list's words (separated by spaces)? */
static int in_words(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *c = list; (c = strstr(c, w)); c += n)
		if ((c == list || c[-1] == ' ') && (c[n] == ' ' || !c[n]))
			return 1;
	return 0;
}

/* every file the knob's path matches: as the table wants it, or the fix */
static void check_knob(struct doc *d, const struct knob *k)
{
	size_t rl = strlen(d->root);
	char *pat, label[128];
	glob_t g;

	if (asprintf(&pat, "%s%s", d->root, k->path) < 0)
		return;
	if (glob(pat, 0, NULL, &g)) {
		say(d, "note", "no %s: %s (no %s)", k->label, k->absent, k->path);
		free(pat);
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i] + rl;
		char *v = first_line(d, path);

		snprintf(label, sizeof(label), "%s", k->label);
		if (strchr(k->path, '*')) {
			const char *end = strrchr(path, '/'), *dir = end;

			while (dir > path && dir[-1] != '/')
				dir--;
			snprintf(label, sizeof(label), "%s %.*s", k->label, (int)(end - dir), dir);
		}
		if (!v)
			say(d, "note", "%s: cannot read %s", label, path);
		else if (!strcmp(v, k->want) || in_words(k->fine, v))
			say(d, "ok", "%s: %s", label, v);
		else {
			d->knobs++;
			say(d, "WARN", "%s is '%s': %s; fix: echo %s | sudo tee %s (or scripts/prepare-host.sh)",
			    label, v, k->why, k->want, path);
		}
		free(v);
	}
	globfree(&g);
	free(pat);
}

static void check_sys(struct doc *d, unsigned int cpu)
{
	char *iso, *nohz;

	for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		check_knob(d, &knobs[i]);
	iso = first_line(d, "/sys/devices/system/cpu/isolated");
	nohz = first_line(d, "/sys/devices/system/cpu/nohz_full");
	if (iso && cs_in_cpulist(iso, cpu) && nohz && cs_in_cpulist(nohz, cpu))
		say(d, "ok", "cpu%u is isolated (isolcpus) and tickless (nohz_full)", cpu);
	else if (iso && cs_in_cpulist(iso, cpu))
		say(d, "WARN", "cpu%u is isolated but not nohz_full: the tick still interrupts it; fix: add nohz_full=%u rcu_nocbs=%u to the kernel command line and reboot", cpu, cpu, cpu);
	else
		say(d, "WARN", "cpu%u is not isolated: other tasks and the tick share it; fix: boot with isolcpus=%u nohz_full=%u rcu_nocbs=%u and run with cpu=%u", cpu, cpu, cpu, cpu, cpu);
	free(iso);
	free(nohz);
}

/*
 * Under lockdown (Secure Boot, or lockdown= on the command line) debugfs
 * refuses every file with a write bit: the run file gives EPERM, and only
 * what insmod measures (run_on_load, only=) can be read.  Unsigned modules
 * are refused too.
 */
static void check_lockdown(struct doc *d)
{
	char *s = first_line(d, "/sys/kernel/security/lockdown");

	if (!s || strstr(s, "[none]"))
		say(d, "ok", "no kernel lockdown%s", s ? " ([none])" : " (no /sys/kernel/security/lockdown)");
	else if (strstr(s, "[integrity]") || strstr(s, "[confidentiality]"))
		say(d, "WARN", "kernel lockdown is %s: unsigned modules are refused and debugfs refuses the run file (EPERM); fix: sign the module (a MOK-signed DKMS build) and measure at load: sudo insmod cyclebench.ko run_on_load=1 only=alu,mem samples=10000 - or measure from userspace, no module: userspace/runner/cyclebench-user -o DIR alu,mem && cyclestat DIR",
		    strstr(s, "[integrity]") ? "[integrity]" : "[confidentiality]");
	else
		say(d, "note", "kernel lockdown reads '%s'", s);
	free(s);
}

#if CPUID_LIVE
#include <x86intrin.h>

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * 10000 dependent adds: 10000 core cycles on every x86 core since the P6
 * (the loop's dec/jnz run beside the chain), enough TSC ticks that even a
 * TSC that moves in steps of 20 or more rounds the figure by under 0.5 %.
 */
#define CHAIN_ADDS 10000
static uint64_t add_chain_ticks(void)
{
	uint64_t t0, t1, x = 1;

	_mm_lfence();
	t0 = __rdtsc();
	_mm_lfence();
	asm volatile("mov $20, %%ecx\n"
		     "1:\n\t"
		     ".rept 500\n\t"
		     "add %0, %0\n\t"
		     ".endr\n\t"
		     "dec %%ecx\n\t"
		     "jnz 1b"
		     : "+r" (x) : : "rcx");
	_mm_lfence();
	t1 = __rdtsc();
	return t1 - t0;
}

/*
 * The core clock of cpu against the TSC: pinned there, after 100 ms of spin
 * so the core leaves its idle clock, the fewest ticks the chain took over
 * a few ms (the minimum: an interrupt only ever adds), and the TSC against
 * CLOCK_MONOTONIC_RAW over the same time.
 */
static void check_clock(struct doc *d, unsigned int cpu)
{
	cpu_set_t old, set;
	uint64_t n0, n1, t0, t1, best = UINT64_MAX, fence = UINT64_MAX;
	double tsc_ghz, core_ghz, diff;

	if (sched_getaffinity(0, sizeof(old), &old))
		CPU_ZERO(&old);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		say(d, "note", "cannot run on cpu%u (%s) to measure its core clock", cpu, strerror(errno));
		return;
	}
	for (n0 = mono_ns(); mono_ns() - n0 < 100000000u; )
		;
	n0 = mono_ns();
	t0 = __rdtsc();
	while (mono_ns() - n0 < 20000000u) {
		uint64_t a = add_chain_ticks(), e;

		_mm_lfence();
		e = __rdtsc();
		_mm_lfence();
		e = __rdtsc() - e;	/* the fences and RDTSC alone */
		if (a < best)
			best = a;
		if (e < fence)
			fence = e;
	}
	t1 = __rdtsc();
	n1 = mono_ns();
	if (CPU_COUNT(&old))
		sched_setaffinity(0, sizeof(old), &old);
	if (best <= fence || n1 <= n0) {
		say(d, "note", "cannot measure the core clock of cpu%u (the TSC did not move)", cpu);
		return;
	}
	tsc_ghz = (double)(t1 - t0) / (double)(n1 - n0);
	core_ghz = (double)CHAIN_ADDS / (double)(best - fence) * tsc_ghz;
	diff = (core_ghz / tsc_ghz - 1) * 100;
	if (diff > 2 || diff < -2)
		say(d, "WARN", "cpu%u's core runs at %.2f GHz, the TSC at %.3f GHz (%+.0f%%): turbo/boost or power management moves the core clock, so TSC ticks are not core cycles; fix: pin the clock (scripts/prepare-host.sh: performance governor, turbo/boost off; in a VM ask the host), and read per-op figures in core cycles: cyclestat calibrates them with calib:add_chain of the same run",
		    cpu, core_ghz, tsc_ghz, diff);
	else
		say(d, "ok", "cpu%u's core runs at %.2f GHz, the TSC at %.3f GHz (%+.1f%%): one tick is one core cycle",
		    cpu, core_ghz, tsc_ghz, diff);
}
#else
static void check_clock(struct doc *d, unsigned int cpu)
{
	say(d, "note", "core clock of cpu%u not measured: not an x86 CPU", cpu);
}
#endif

static void check_smi(struct doc *d, unsigned int cpu)
{
	char path[256];
	uint64_t v;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/dev/cpu/%u/msr", d->root, cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			say(d, "note", "SMI count unknown: no %s; fix: sudo modprobe msr", path);
		else if (errno == EACCES || errno == EPERM)
			say(d, "note", "SMI count unknown: %s: %s; fix: run as root", path, strerror(errno));
		else
			say(d, "note", "SMI count unknown: %s: %s", path, strerror(errno));
		return;
	}
	got = pread(fd, &v, sizeof(v), 0x34);
	close(fd);
	if (got != sizeof(v))
		say(d, "note", "SMI count unknown: MSR 0x34 not readable (not Intel, or virtualised); the module then omits smi_before/smi_after");
	else
		say(d, "ok", "SMI count %llu (MSR 0x34); cyclestat flags any run during which it moves",
		    (unsigned long long)v);
}

int cs_doctor(const struct cs_opts *o)
{
	struct doc d = { .o = o, .root = o->sysroot ? o->sysroot : "" };
	char path[256], *online;

	online = first_line(&d, "/sys/devices/system/cpu/online");
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u", d.root, o->cpu);
	if (access(path, F_OK) || (online && !cs_in_cpulist(online, o->cpu))) {
		fprintf(stderr, "cyclestat: doctor: cpu %u is not online (online: %s); pick one with --cpu N\n",
			o->cpu, online ? online : "unknown");
		free(online);
		return 2;
	}
	free(online);
	fprintf(o->out, "cyclestat doctor: cpu%u%s%s\n", o->cpu, d.root[0] ? ", sysroot " : "", d.root);
	check_cpu(&d, o->cpu);
	check_sys(&d, o->cpu);
	if (!d.root[0])
		check_clock(&d, o->cpu);
	else
		say(&d, "note", "core clock of cpu%u not measured under a sysroot: cannot tell whether the core is boosted",
		    o->cpu);
	check_lockdown(&d);
	check_smi(&d, o->cpu);
	if (d.knobs)
		fprintf(o->out, "%d problem%s, %d of them fixed by scripts/prepare-host.sh (--restore undoes it); each line says its fix\n",
			d.problems, d.problems == 1 ? "" : "s", d.knobs);
	else if (d.problems)
		fprintf(o->out, "%d problem%s, none of them a knob scripts/prepare-host.sh sets; each line says its fix\n",
			d.problems, d.problems == 1 ? "" : "s");
	else
		fprintf(o->out, "no problems\n");
	return o->strict && d.problems ? 1 : 0;
}
