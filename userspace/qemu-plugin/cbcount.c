// SPDX-License-Identifier: GPL-2.0
/*
 * cbcount.c - a QEMU TCG plugin (API version 1, QEMU 7.2) that counts, inside
 * cyclebench's timed regions only, what each region executed: instructions,
 * loads, stores, and L1D, L1I and L2 accesses and misses in the
 * set-associative model of cache.h.  Callees count with the body that calls
 * them: a region is everything the vCPU runs from its start timestamp to its
 * stop timestamp.
 *
 *   qemu-system-x86_64 -icount shift=0 -smp 1 ... \
 *     -plugin cbcount.so,regions=REGIONS[,regions=REGIONS2...],out=COUNTS[,l1d=32K:8:64][,l1i=32K:8:64]
 *                       [,l2=1M:16:64|none][,addr=phys|virt][,skip=1]
 *
 * REGIONS (regions.py): a line a region, "START STOP FRAGMENT METHOD
 * short|long", START the offset in the module's .text of the region's start
 * RDTSC, STOP of its stop RDTSC(P); neither is counted, everything between
 * is.  The module's address is known only in the guest, which says it, and
 * when to write the counts, with cbmark (cbmark.c): 8-byte NOPs whose
 * displacement is a command (include/cyclebench/mark.h), found as code is
 * translated.  Several regions= files are several builds of the module
 * (make ab's two sides): `cbmark set K` says which the next arm is for
 * (K from 0, in the order given; 0 until said).  Until `cbmark arm BASE`
 * (again after each load of the module: its new place) the plugin
 * instruments nothing but
 * those NOPs, so the boot runs at full speed; arming flushes QEMU's
 * translations (qemu_plugin_reset()) and from then on every kernel
 * instruction gets a callback, which returns at once outside a region.
 * The module names each ensemble's argument (CB_MARK_ARG) before it runs
 * it: a region's counts are kept apart by argument, for the results of
 * one run that share their code.  COUNTS begins with a header that
 * names the counts and their headings in a table (contract-mem.h).
 * `cbmark dump ID` appends to it, for each region and argument run since
 * the last dump, one line
 *	ID FRAGMENT METHOD REGION ARG N INSNS LOADS STORES L1D_ACC L1D_MISS
 *	  L1I_ACC L1I_MISS L2_ACC L2_MISS
 * (sums over its N runs; ARG "-" where no argument was named), then
 * "ID end", and starts the sums again; the caches keep their contents.
 * The first skip=K runs (default 1) of each region after a dump or an
 * argument's mark are left out of the sums: the first runs of an
 * ensemble (the probe's, the long region's copies) find new code cold,
 * or the caches holding another result's lines.  Only
 * regions' accesses reach the model: it sees a fragment's own footprint,
 * as if nothing else ran between samples.
 * Data addresses are physical (addr=phys, the default; virtual where QEMU
 * has none), instruction fetches virtual (version 1 gives no physical
 * address of code): one access an instruction, of its length.
 *
 * One vCPU: the counts are exact under -icount with -smp 1; a region run on
 * another vCPU is not counted, and said in COUNTS's last line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "contract.h"
#include "mark.h"
#include "qemu-plugin-v1.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* kernel addresses on x86-64: the upper half */
#define KERNEL_BASE	0xffff800000000000ULL

/* pages of the data addresses' translations kept (a power of 2) */
#define XLAT_SIZE	1024
#define PAGE_SHIFT	12

/* the counts' names, and their headings in a table */
static const struct cb_mem_def counts[CB_NR_MEM] = {
#define CB_MEM(name, heading) CB_MEM_DEF(name, heading)
#include "contract-mem.h"
#undef CB_MEM
};

/* a region's runs with one argument since the last dump */
struct tally {
	uint64_t arg, runs, sum[CB_NR_MEM];
	unsigned int skipped;		/* runs left out since the last mark */
	bool named;			/* arg is a mark's (else "-") */
};

struct region {
	char *name;			/* "FRAGMENT METHOD REGION" */
	struct tally *t;
	unsigned int n, cap;
};

/*
 * A data page's physical page, as QEMU last gave it during the region run
 * @gen: QEMU's own lookup (qemu_plugin_get_hwaddr(), then a search of its
 * RAM blocks under RCU) cost a quarter of a counted boot's time, more than
 * the cache model.  A region's body runs with interrupts off and changes
 * no mapping it then reads through, so a translation holds until the
 * region ends; each start begins a new generation.  (A region left by a
 * fault never reaches its stop: what runs until the next start or stop
 * is no region's, and the next stop counts it as unmatched.)
 */
struct xlat {
	uint64_t page, phys, gen;
};

/* a start or stop: its offset in .text, its address once armed (sorted
 * by offset, so by address too) and its region */
struct pc {
	uint64_t off, at;
	unsigned int region, set;
	bool stop;
};

static struct {
	qemu_plugin_id_t id;
	struct region *region;
	unsigned int n_regions;
	struct pc *pc;
	unsigned int n_pcs, cap;
	/* the regions= files read, and the one the next arm is for */
	unsigned int n_sets, set;
	FILE *out;
	const char *out_path;
	struct cb_cache l1d, l1i, l2;
	bool has_l2, virt, armed;
	unsigned int skip;
	/* the region running (inside), and its counts at its start */
	bool inside;
	unsigned int cur;
	uint64_t insns, loads, stores, at_start[CB_NR_MEM];
	/* the region run's translations (a direct-mapped table), its number */
	struct xlat xlat[XLAT_SIZE];
	uint64_t gen;
	/* the argument the module named last (named: since the last dump) */
	uint64_t arg;
	bool named;
	/* cbmark's value register, and what went wrong */
	uint64_t value;
	uint64_t unmatched, other_vcpu, no_memory;
} cb;

static void cache_counts(uint64_t *n)
{
	n[CB_MEM_insns] = cb.insns;
	n[CB_MEM_loads] = cb.loads;
	n[CB_MEM_stores] = cb.stores;
	n[CB_MEM_l1d_acc] = cb.l1d.accesses;
	n[CB_MEM_l1d_miss] = cb.l1d.misses;
	n[CB_MEM_l1i_acc] = cb.l1i.accesses;
	n[CB_MEM_l1i_miss] = cb.l1i.misses;
	n[CB_MEM_l2_acc] = cb.l2.accesses;
	n[CB_MEM_l2_miss] = cb.l2.misses;
}

/* An instruction inside a region: userdata is its address (the upper
 * half's, sign bits dropped) with its length in the top byte. */
static void on_insn(unsigned int vcpu, void *udata)
{
	uint64_t u = (uint64_t)(uintptr_t)udata;
	uint64_t at = (u & 0x0000ffffffffffffULL) | KERNEL_BASE;

	if (!cb.inside || vcpu)
		return;
	cb.insns++;
	if (!cb_cache_access(&cb.l1i, at, (unsigned int)(u >> 56)) && cb.has_l2)
		cb_cache_access(&cb.l2, at, (unsigned int)(u >> 56));
}

/* @vaddr's physical address (its own where QEMU has none: I/O) */
static uint64_t phys_of(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	uint64_t page = vaddr >> PAGE_SHIFT, off = vaddr & ((1u << PAGE_SHIFT) - 1);
	struct xlat *x = &cb.xlat[page & (XLAT_SIZE - 1)];
	struct qemu_plugin_hwaddr *hw;
	uint64_t at;

	if (x->gen == cb.gen && x->page == page)
		return x->phys | off;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return vaddr;
	at = qemu_plugin_hwaddr_phys_addr(hw);
	*x = (struct xlat){ .page = page, .phys = at - off, .gen = cb.gen };
	return at;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	unsigned int len;
	uint64_t at = vaddr;

	(void)udata;
	if (!cb.inside || vcpu)
		return;
	len = 1u << qemu_plugin_mem_size_shift(info);
	if (qemu_plugin_mem_is_store(info))
		cb.stores++;
	else
		cb.loads++;
	if (!cb.virt)
		at = phys_of(info, vaddr);
	if (!cb_cache_access(&cb.l1d, at, len) && cb.has_l2)
		cb_cache_access(&cb.l2, at, len);
}

static void on_start(unsigned int vcpu, void *udata)
{
	if (vcpu) {
		cb.other_vcpu++;
		return;
	}
	cb.inside = true;
	cb.gen++;
	cb.cur = (unsigned int)(uintptr_t)udata;
	cache_counts(cb.at_start);
}

/* region @r's tally of the argument named last; NULL out of memory */
static struct tally *tally_of(struct region *r)
{
	struct tally *t;

	for (unsigned int i = 0; i < r->n; i++)
		if (r->t[i].named == cb.named && r->t[i].arg == cb.arg)
			return &r->t[i];
	if (r->n == r->cap) {
		unsigned int cap = r->cap ? 2 * r->cap : 2;

		t = realloc(r->t, cap * sizeof(*t));
		if (!t)
			return NULL;
		r->t = t;
		r->cap = cap;
	}
	t = &r->t[r->n++];
	*t = (struct tally){ .arg = cb.arg, .named = cb.named };
	return t;
}

static void on_stop(unsigned int vcpu, void *udata)
{
	struct region *r = &cb.region[(uintptr_t)udata];
	struct tally *t;
	uint64_t now[CB_NR_MEM];

	if (vcpu)
		return;
	if (!cb.inside || &cb.region[cb.cur] != r) {
		/* a stop without its start: a region left by a jump (a
		 * fault), or an address that is not the region's */
		cb.unmatched++;
		cb.inside = false;
		return;
	}
	cb.inside = false;
	cache_counts(now);
	t = tally_of(r);
	if (!t) {
		cb.no_memory++;
		return;
	}
	if (t->skipped < cb.skip) {
		t->skipped++;
		return;
	}
	t->runs++;
	for (int i = 0; i < CB_NR_MEM; i++)
		t->sum[i] += now[i] - cb.at_start[i];
}

/* a new ensemble: its runs skipped again, whichever region runs it */
static void named(uint64_t arg)
{
	for (unsigned int i = 0; i < cb.n_regions; i++)
		for (unsigned int j = 0; j < cb.region[i].n; j++)
			cb.region[i].t[j].skipped = 0;
	cb.arg = arg;
	cb.named = true;
}

static void dump(uint64_t id)
{
	for (unsigned int i = 0; i < cb.n_regions; i++) {
		struct region *r = &cb.region[i];

		for (unsigned int j = 0; j < r->n; j++) {
			const struct tally *t = &r->t[j];

			if (!t->runs)
				continue;
			fprintf(cb.out, "%" PRIu64 " %s ", id, r->name);
			if (t->named)
				fprintf(cb.out, "%" PRIu64, t->arg);
			else
				fputc('-', cb.out);
			fprintf(cb.out, " %" PRIu64, t->runs);
			for (int k = 0; k < CB_NR_MEM; k++)
				fprintf(cb.out, " %" PRIu64, t->sum[k]);
			fputc('\n', cb.out);
		}
		r->n = 0;
	}
	cb.named = false;
	cb.arg = 0;
	fprintf(cb.out, "%" PRIu64 " end\n", id);
	fflush(cb.out);
}

static int pc_off_cmp(const void *a, const void *b)
{
	const struct pc *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int pc_at_cmp(const void *a, const void *b)
{
	const struct pc *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static const struct pc *pc_find(uint64_t at)
{
	struct pc key = { .at = at };

	return cb.n_pcs ? bsearch(&key, cb.pc, cb.n_pcs, sizeof(key), pc_at_cmp) : NULL;
}

static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

static void rearmed(qemu_plugin_id_t id);

static void on_mark(unsigned int vcpu, void *udata)
{
	unsigned int cmd = (unsigned int)(uintptr_t)udata;

	(void)vcpu;
	switch (cmd) {
	case CB_MARK_BIT0:
	case CB_MARK_BIT1:
		cb.value = cb.value << 1 | (cmd == CB_MARK_BIT1);
		return;
	case CB_MARK_SET:
		cb.set = (unsigned int)cb.value;
		break;
	case CB_MARK_ARM:
		if (cb.set >= cb.n_sets) {
			fprintf(cb.out, "# cbcount: not armed: no regions file %u (%u given)\n",
				cb.set, cb.n_sets);
			break;
		}
		/* (again after the module was loaded again: its new place;
		 * another set's starts and stops at 0, where no kernel code is) */
		for (unsigned int i = 0; i < cb.n_pcs; i++)
			cb.pc[i].at = cb.pc[i].set == cb.set ? cb.pc[i].off + cb.value : 0;
		qsort(cb.pc, cb.n_pcs, sizeof(*cb.pc), pc_at_cmp);
		cb.inside = false;
		fprintf(cb.out, "# cbcount: armed at .text 0x%" PRIx64 ", regions file %u\n",
			cb.value, cb.set);
		fflush(cb.out);
		cb.armed = true;
		/* every translation made so far lacks the callbacks (or has
		 * the old place's): flushed, and made again (trans()) */
		qemu_plugin_reset(cb.id, rearmed);
		break;
	case CB_MARK_DUMP:
		dump(cb.value);
		break;
	case CB_MARK_ARG:
		named(cb.value);
		break;
	}
	cb.value = 0;
}

/* A mark: its command's callback, and true; false for any other
 * instruction */
static bool mark(struct qemu_plugin_insn *insn, size_t len)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);
	uint32_t disp;

	if (len != CB_MARK_LEN || memcmp(b, CB_MARK_OPCODE, 4))
		return false;
	memcpy(&disp, b + 4, 4);
	if ((disp & CB_MARK_MASK) != CB_MARK_MAGIC)
		return false;
	qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
					       (void *)(uintptr_t)disp);
	return true;
}

/* A translation block: cbmark's NOPs in user code; once armed, the
 * module's marks and every other kernel instruction. */
static void trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t at = qemu_plugin_insn_vaddr(insn);
		size_t len = qemu_plugin_insn_size(insn);
		const struct pc *pc;

		if (at < KERNEL_BASE) {
			mark(insn, len);
			continue;
		}
		if (!cb.armed || mark(insn, len))
			continue;
		pc = pc_find(at);
		if (pc) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn,
				pc->stop ? on_stop : on_start,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)pc->region);
			continue;
		}
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS,
			(void *)(uintptr_t)((at & 0x0000ffffffffffffULL) | (uint64_t)len << 56));
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fprintf(cb.out, "# cbcount: exit, armed %s, unmatched stops %" PRIu64
		", regions on another vCPU %" PRIu64 ", runs lost for memory %" PRIu64 "\n",
		cb.armed ? "yes" : "no", cb.unmatched, cb.other_vcpu, cb.no_memory);
	fclose(cb.out);
}

/* (qemu_plugin_reset() took every callback away: the same ones again) */
static void rearmed(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_tb_trans_cb(id, trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}

/* "cbcount: WHAT: WHY", to QEMU's log and stderr; -1 */
static int fail(const char *what, const char *why)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "cbcount: %s: %s\n", what, why);
	qemu_plugin_outs(msg);
	fputs(msg, stderr);
	return -1;
}

/* REGIONS: "START STOP FRAGMENT METHOD REGION" a line, '#' comments;
 * the next set's */
static int read_regions(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[400];
	unsigned int lineno = 0;

	if (!f)
		return fail(path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b;
		char frag[200], method[64], kind[16];

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %llx %199s %63s %15s", &a, &b, frag, method, kind) != 5) {
			snprintf(name, sizeof(name),
				 "line %u: want START STOP FRAGMENT METHOD REGION", lineno);
			fclose(f);
			return fail(path, name);
		}
		if (cb.n_regions == cb.cap) {
			cb.cap = cb.cap ? 2 * cb.cap : 256;
			cb.region = realloc(cb.region, cb.cap * sizeof(*cb.region));
			cb.pc = realloc(cb.pc, 2 * cb.cap * sizeof(*cb.pc));
			if (!cb.region || !cb.pc) {
				fclose(f);
				return fail(path, "out of memory");
			}
		}
		snprintf(name, sizeof(name), "%s %s %s", frag, method, kind);
		cb.region[cb.n_regions] = (struct region){ .name = strdup(name) };
		cb.pc[cb.n_pcs++] = (struct pc){ .off = a, .region = cb.n_regions, .set = cb.n_sets };
		cb.pc[cb.n_pcs++] = (struct pc){ .off = b, .region = cb.n_regions, .set = cb.n_sets,
						 .stop = true };
		cb.n_regions++;
	}
	fclose(f);
	qsort(cb.pc, cb.n_pcs, sizeof(*cb.pc), pc_off_cmp);
	for (unsigned int i = 1; i < cb.n_pcs; i++)
		if (cb.pc[i].set == cb.pc[i - 1].set && cb.pc[i].off == cb.pc[i - 1].off)
			return fail(path,
				    "two regions start or stop at one address (regions.py joins such regions)");
	cb.n_sets++;
	return 0;
}

/* a count of runs, 0 to 10^6: 1 when @v is one */
static int count_arg(const char *v, unsigned int *n)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || x > 1000000)
		return 0;
	*n = (unsigned int)x;
	return 1;
}

static int cache_arg(struct cb_cache *c, const char *key, const char *spec)
{
	uint64_t size;
	unsigned int ways, line;
	const char *why = cb_cache_parse(spec, &size, &ways, &line);

	if (why)
		return fail(key, why);
	cb_cache_free(c);
	if (cb_cache_init(c, size, ways, line))
		return fail(key, "out of memory");
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *regions[8], *l1d = "32K:8:64", *l1i = "32K:8:64", *l2 = "1M:16:64";
	unsigned int n_regions = 0;

	(void)info;
	cb.id = id;
	cb.skip = 1;
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *v = eq ? eq + 1 : "";
		size_t k = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

#define KEY(s) (k == sizeof(s) - 1 && !strncmp(argv[i], s, k))
		if (KEY("regions")) {
			if (n_regions == sizeof(regions) / sizeof(regions[0]))
				return fail(argv[i], "at most 8 regions= files");
			regions[n_regions++] = v;
		}
		else if (KEY("out"))
			cb.out_path = v;
		else if (KEY("l1d"))
			l1d = v;
		else if (KEY("l1i"))
			l1i = v;
		else if (KEY("l2"))
			l2 = v;
		else if (KEY("skip")) {
			if (!count_arg(v, &cb.skip))
				return fail(argv[i], "want a count of runs, 0 to 1000000");
		}
		else if (KEY("addr") && (!strcmp(v, "phys") || !strcmp(v, "virt")))
			cb.virt = !strcmp(v, "virt");
		else
			return fail(argv[i], "unknown argument (regions=FILE out=FILE"
				    " l1d= l1i= l2=SIZE:WAYS:LINE|none addr=phys|virt skip=RUNS)");
#undef KEY
	}
	if (!n_regions || !cb.out_path)
		return fail("arguments", "regions=FILE and out=FILE are required");
	if (cache_arg(&cb.l1d, "l1d", l1d) || cache_arg(&cb.l1i, "l1i", l1i))
		return -1;
	cb.has_l2 = strcmp(l2, "none");
	if (cb.has_l2 && cache_arg(&cb.l2, "l2", l2))
		return -1;
	for (unsigned int i = 0; i < n_regions; i++)
		if (read_regions(regions[i]))
			return -1;
	cb.out = fopen(cb.out_path, "w");
	if (!cb.out)
		return fail(cb.out_path, strerror(errno));
	fprintf(cb.out, "# cbcount: %u regions, l1d %s, l1i %s, l2 %s, data addresses %s,"
		" first %u runs a region left out\n",
		cb.n_regions, l1d, l1i, l2, cb.virt ? "virtual" : "physical", cb.skip);
	fprintf(cb.out, "# ID FRAGMENT METHOD REGION ARG N");
	for (unsigned int k = 0; k < CB_NR_MEM; k++)
		fprintf(cb.out, " %s", counts[k].name);
	fprintf(cb.out, "\n# headings");
	for (unsigned int k = 0; k < CB_NR_MEM; k++)
		fprintf(cb.out, " %s", counts[k].heading ? counts[k].heading : "-");
	fputc('\n', cb.out);
	fflush(cb.out);
	rearmed(id);
	return 0;
}
