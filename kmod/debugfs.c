// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs face of cyclebench: /sys/kernel/debug/cyclebench/.
 * docs/debugfs-contract.md is the contract; keep the two in step.
 *
 * Nothing here measures: reads only format results that a run published,
 * because seq_file may call ->show() more than once for one read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/sched/smt.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "info.h"
#include "internal.h"

static struct dentry *cb_dir;

static void cb_debugfs_sync(void);

static __printf(2, 0) void cb_seq_vprintf(void *to, const char *fmt, va_list ap)
{
	seq_vprintf(to, fmt, ap);
}

/* lib/info.c's lines into @m */
static struct cb_sink cb_sink_of(struct seq_file *m)
{
	return (struct cb_sink){ .vprintf = cb_seq_vprintf, .to = m };
}

/*
 * The hypervisor's CPUID signature (leaf 0x40000000: "KVMKVMKVM",
 * "TCGTCGTCGTCG" for QEMU's emulator, ...), "none" on bare metal.  Under
 * an emulator the TSC follows the host's clock, not a core's: cyclestat
 * then says "emulated ticks" and calibrates nothing.
 */
static const char *cb_hypervisor_vendor(char *buf, size_t len)
{
	u32 eax, sig[3];
	size_t i;

	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR) || len < sizeof(sig) + 1)
		return "none";
	cpuid(0x40000000, &eax, &sig[0], &sig[1], &sig[2]);
	memcpy(buf, sig, sizeof(sig));
	buf[sizeof(sig)] = '\0';
	for (i = 0; buf[i]; i++)
		if (buf[i] < '!' || buf[i] > '~')
			buf[i] = '_';
	return buf[0] ? buf : "unknown";
}

static int cb_info_show(struct seq_file *m, void *v)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	struct cb_sink s = cb_sink_of(m);
	struct cb_tree_module mod = {
		.preempt_rt = IS_ENABLED(CONFIG_PREEMPT_RT),
	};
	struct cb_defaults d;
	char hv[16];

	cb_get_defaults(&d);
	cb_get_setup_counts(&mod.setup_calls, &mod.teardown_calls);
	cb_info_tree(&s, &(struct cb_tree_info){
		.mode = "kernel", .kernel = utsname()->release,
		.vendor = c->x86_vendor_id, .family = c->x86, .model = c->x86_model,
		.stepping = c->x86_stepping, .model_name = c->x86_model_id,
		.tsc_khz = tsc_khz, .tsc_step = cb_tsc_step,
		.constant_tsc = boot_cpu_has(X86_FEATURE_CONSTANT_TSC),
		.nonstop_tsc = boot_cpu_has(X86_FEATURE_NONSTOP_TSC),
		.rdtscp = boot_cpu_has(X86_FEATURE_RDTSCP),
		.hypervisor = boot_cpu_has(X86_FEATURE_HYPERVISOR),
		.hypervisor_vendor = cb_hypervisor_vendor(hv, sizeof(hv)),
		.smt_active = sched_smt_active(),
		.method_requested = cb_method_name(d.method),
		.method_used = cb_method_name(cb_method_used(d.method)),
		.lfence = cb_lfence_note(),
		.samples = d.samples, .ensembles = d.ensembles, .warmup = d.warmup,
		.cpu = d.cpu, .max_mb = d.max_mb, .max_sample_us = d.max_sample_us,
		.long_repeat = CB_LONG_REPEAT, .module = &mod,
	});
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_info);

static int cb_fragments_show(struct seq_file *m, void *v)
{
	struct cb_sink s = cb_sink_of(m);
	unsigned int i, n = cb_nr_slots();

	for (i = 0; i < n; i++) {
		const struct cb_slot *slot = cb_slot(i);

		cb_info_catalog_line(&s, slot->group, slot->frag, slot->has_arg,
				     slot->arg, cb_slot_ops(slot));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_fragments);

static int cb_status_show(struct seq_file *m, void *v)
{
	struct cb_sink s = cb_sink_of(m);
	const struct cb_slot *sl;
	u64 done, total;
	int slot;

	cb_get_status(&slot, &done, &total);
	if (slot < 0) {
		seq_puts(m, "idle\n");
		return 0;
	}
	seq_puts(m, "running ");
	sl = cb_slot(slot);
	cb_info_name(&s, sl->group, sl->frag, sl->has_arg, sl->arg);
	seq_printf(m, " %llu/%llu\n", done, total);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_status);

/*
 * One line per write, parsed whole: a write is a complete command, so a
 * command split over several write() calls is several (bad) commands.
 */
static ssize_t cb_run_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[CB_CMD_MAX];
	int ret;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* "all\0junk" must not run all. */
	if (strlen(buf) != count)
		return -EINVAL;
	ret = cb_run_command(buf);
	/* A run may have named new arguments: give them their directories. */
	cb_debugfs_sync();
	return ret ? ret : count;
}

static const struct file_operations cb_run_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.write = cb_run_write,
};

static int cb_frag_info_show(struct seq_file *m, void *v)
{
	struct cb_slot *slot = m->private;
	const struct cb_fragment *frag = slot->frag;
	struct cb_sink s = cb_sink_of(m);
	struct cb_result_info ri = {
		.group = slot->group, .frag = frag, .has_arg = slot->has_arg,
		.arg = slot->arg, .ops = cb_slot_ops(slot),
		.reason =
			"takes a lock that sleeps on PREEMPT_RT, so it cannot run with interrupts off here",
	};
	unsigned int cpus[CB_MAX_CPUS], c;
	struct cb_result *res = cb_result_get(slot, &ri.state, &ri.err);

	if (frag->insns || frag->insns_per_arg)
		ri.insns = frag->insns +
			   (slot->has_arg ? (u64)frag->insns_per_arg * slot->arg : 0);
	if (res) {
		ri.measured = true;
		ri.run_id = res->run_id;
		ri.ensembles = res->ensembles;
		ri.samples = res->samples;
		ri.warmup = res->warmup;
		ri.method = cb_method_name(res->method);
		ri.cpu = res->cpu;
		for (c = 0; c < CB_MAX_CPUS && ri.nr_cpus < res->nr_cpus; c++)
			if (res->cpus & BIT_ULL(c))
				cpus[ri.nr_cpus++] = c;
		ri.cpus = cpus;
		ri.spread = res->spread;
		ri.in_step = res->in_step;
		ri.interleave = res->interleave;
		ri.tsc_khz = res->tsc_khz;
		ri.long_repeat = res->cycles_long ? CB_LONG_REPEAT : 0;
		ri.dist = &res->dist;
	}
	cb_info_result(&s, &ri);
	if (res)
		cb_result_put(res);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_frag_info);

/*
 * cycles: the file holds a reference to the result that was current at
 * open(), so a run that completes mid-read does not mix two arrays.
 */
/* m->private: the result that was current at open(). */
static void *cb_array_start(struct seq_file *m, loff_t *pos, bool long_region)
{
	struct cb_result *res = m->private;
	u64 *a = res ? (long_region ? res->cycles_long : res->cycles) : NULL;

	if (!a || *pos < 0 || *pos >= res->n)
		return NULL;
	return &a[*pos];
}

static void *cb_cycles_start(struct seq_file *m, loff_t *pos)
{
	return cb_array_start(m, pos, false);
}

static void *cb_cycles_long_start(struct seq_file *m, loff_t *pos)
{
	return cb_array_start(m, pos, true);
}

static void *cb_flags_start(struct seq_file *m, loff_t *pos)
{
	struct cb_result *res = m->private;

	if (!res || !res->flags || *pos < 0 || *pos >= res->n)
		return NULL;
	return &res->flags[*pos];
}

static void *cb_cycles_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	/*
	 * read() formats a page per call, but lseek() and pread() walk every
	 * record up to the offset in one call: 10^8 records take seconds.
	 */
	if (!(*pos & 4095)) {
		if (fatal_signal_pending(current))
			return ERR_PTR(-EINTR);
		cond_resched();
	}
	return m->op->start(m, pos);
}

static void cb_cycles_stop(struct seq_file *m, void *v)
{
}

static int cb_cycles_show(struct seq_file *m, void *v)
{
	seq_put_decimal_ull(m, "", *(u64 *)v);
	seq_putc(m, '\n');
	return 0;
}

static int cb_flags_show(struct seq_file *m, void *v)
{
	seq_put_decimal_ull(m, "", *(u8 *)v);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations cb_flags_sops = {
	.start = cb_flags_start,
	.next = cb_cycles_next,
	.stop = cb_cycles_stop,
	.show = cb_flags_show,
};

static const struct seq_operations cb_cycles_sops = {
	.start = cb_cycles_start,
	.next = cb_cycles_next,
	.stop = cb_cycles_stop,
	.show = cb_cycles_show,
};

static const struct seq_operations cb_cycles_long_sops = {
	.start = cb_cycles_long_start,
	.next = cb_cycles_next,
	.stop = cb_cycles_stop,
	.show = cb_cycles_show,
};

static int cb_seq_open(struct inode *inode, struct file *file,
		       const struct seq_operations *sops)
{
	int ret = seq_open(file, sops);

	if (!ret) {
		struct seq_file *m = file->private_data;

		m->private = cb_result_get(inode->i_private, NULL, NULL);
	}
	return ret;
}

static int cb_cycles_open(struct inode *inode, struct file *file)
{
	return cb_seq_open(inode, file, &cb_cycles_sops);
}

static int cb_cycles_long_open(struct inode *inode, struct file *file)
{
	return cb_seq_open(inode, file, &cb_cycles_long_sops);
}

static int cb_flags_open(struct inode *inode, struct file *file)
{
	return cb_seq_open(inode, file, &cb_flags_sops);
}

static int cb_cycles_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	cb_result_put(m->private);
	return seq_release(inode, file);
}

/* Every per-sample file: a seq_file over the result open() found. */
#define CB_ARRAY_FOPS(_open) {		\
	.owner = THIS_MODULE,		\
	.open = _open,			\
	.read = seq_read,		\
	.llseek = seq_lseek,		\
	.release = cb_cycles_release,	\
}

static const struct file_operations cb_cycles_fops = CB_ARRAY_FOPS(cb_cycles_open);
static const struct file_operations cb_cycles_long_fops = CB_ARRAY_FOPS(cb_cycles_long_open);
static const struct file_operations cb_flags_fops = CB_ARRAY_FOPS(cb_flags_open);

/*
 * The counter files, NAME and NAME_long per counter: one seq_operations
 * and one open() each, made by CB_PMC_FILE(region, counter).
 */
static void *cb_pmc_start(struct seq_file *m, loff_t *pos, int r, int k)
{
	struct cb_result *res = m->private;

	if (!res || !res->pmc[r][k] || *pos < 0 || *pos >= res->n)
		return NULL;
	return &res->pmc[r][k][*pos];
}

#define CB_PMC_FILE(r, k)						\
static void *cb_pmc##r##k##_start(struct seq_file *m, loff_t *pos)	\
{									\
	return cb_pmc_start(m, pos, r, k);				\
}									\
static const struct seq_operations cb_pmc##r##k##_sops = {		\
	.start = cb_pmc##r##k##_start, .next = cb_cycles_next,		\
	.stop = cb_cycles_stop, .show = cb_cycles_show,			\
};									\
static int cb_pmc##r##k##_open(struct inode *inode, struct file *file)	\
{									\
	return cb_seq_open(inode, file, &cb_pmc##r##k##_sops);		\
}

CB_PMC_FILE(0, 0)
CB_PMC_FILE(0, 1)
CB_PMC_FILE(0, 2)
CB_PMC_FILE(1, 0)
CB_PMC_FILE(1, 1)
CB_PMC_FILE(1, 2)

static const struct file_operations cb_pmc_fops[CB_NR_REGIONS][CB_NR_PMC] = {
	{ CB_ARRAY_FOPS(cb_pmc00_open), CB_ARRAY_FOPS(cb_pmc01_open),
	  CB_ARRAY_FOPS(cb_pmc02_open) },
	{ CB_ARRAY_FOPS(cb_pmc10_open), CB_ARRAY_FOPS(cb_pmc11_open),
	  CB_ARRAY_FOPS(cb_pmc12_open) },
};

/*
 * cpuN/cycles, cpuN/cycles_long and cpuN/flags of a cpus= result.  A slot gets cpuN/
 * once a run gave it CPU N, and keeps it until unload: empty while its
 * latest result has no CPU N (its info's cpus: says which hold data).
 */
struct cb_cpu_file {
	struct list_head node;
	struct cb_slot *slot;
	unsigned int cpu;
};

static LIST_HEAD(cb_cpu_files);

/* Which array of CPU N a cpuN file shows. */
enum cb_cpu_array {
	CB_CPU_CYCLES,
	CB_CPU_CYCLES_LONG,
	CB_CPU_FLAGS,
};

/* m->private of an open cpuN file: the result current at open(), N, which. */
struct cb_cpu_view {
	struct cb_result *res;
	unsigned int cpu;
	enum cb_cpu_array which;
};

static void *cb_cpu_start(struct seq_file *m, loff_t *pos)
{
	struct cb_cpu_view *v = m->private;
	const struct cb_result *res = v->res;
	unsigned int t;

	if (!res || !res->pc_cycles || !(res->cpus & BIT_ULL(v->cpu)) ||
	    *pos < 0 || *pos >= res->n)
		return NULL;
	/* the arrays are in the order of the CPUs */
	t = hweight64(res->cpus & (BIT_ULL(v->cpu) - 1));
	switch (v->which) {
	case CB_CPU_CYCLES_LONG:
		return res->pc_cycles_long ? &res->pc_cycles_long[t][*pos] : NULL;
	case CB_CPU_FLAGS:
		return res->pc_flags ? &res->pc_flags[t][*pos] : NULL;
	default:
		return &res->pc_cycles[t][*pos];
	}
}

static const struct seq_operations cb_cpu_sops = {
	.start = cb_cpu_start,
	.next = cb_cycles_next,
	.stop = cb_cycles_stop,
	.show = cb_cycles_show,
};

static const struct seq_operations cb_cpu_flags_sops = {
	.start = cb_cpu_start,
	.next = cb_cycles_next,
	.stop = cb_cycles_stop,
	.show = cb_flags_show,
};

static int cb_cpu_open(struct inode *inode, struct file *file,
		       enum cb_cpu_array which)
{
	const struct cb_cpu_file *f = inode->i_private;
	struct cb_cpu_view *v;

	v = __seq_open_private(file, which == CB_CPU_FLAGS ? &cb_cpu_flags_sops :
			       &cb_cpu_sops, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->res = cb_result_get(f->slot, NULL, NULL);
	v->cpu = f->cpu;
	v->which = which;
	return 0;
}

static int cb_cpu_cycles_open(struct inode *inode, struct file *file)
{
	return cb_cpu_open(inode, file, CB_CPU_CYCLES);
}

static int cb_cpu_cycles_long_open(struct inode *inode, struct file *file)
{
	return cb_cpu_open(inode, file, CB_CPU_CYCLES_LONG);
}

static int cb_cpu_flags_open(struct inode *inode, struct file *file)
{
	return cb_cpu_open(inode, file, CB_CPU_FLAGS);
}

static int cb_cpu_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct cb_cpu_view *v = m->private;

	cb_result_put(v->res);
	return seq_release_private(inode, file);
}

static const struct file_operations cb_cpu_cycles_fops = {
	.owner = THIS_MODULE,
	.open = cb_cpu_cycles_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = cb_cpu_release,
};

static const struct file_operations cb_cpu_cycles_long_fops = {
	.owner = THIS_MODULE,
	.open = cb_cpu_cycles_long_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = cb_cpu_release,
};

static const struct file_operations cb_cpu_flags_fops = {
	.owner = THIS_MODULE,
	.open = cb_cpu_flags_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = cb_cpu_release,
};

/*
 * Directories made so far: slot i's is made once, after slot i - 1's; its
 * dentry, and the cpuN/ made in it.
 */
static unsigned int cb_dirs_made;
static struct dentry *cb_slot_dir[CB_MAX_SLOTS];
static u64 cb_cpu_dirs[CB_MAX_SLOTS];
static DEFINE_MUTEX(cb_dirs_lock);

/* @parent/@name, made if missing; a reference, or NULL. */
static struct dentry *cb_dir_get(const char *name, struct dentry *parent)
{
	struct dentry *d = debugfs_lookup(name, parent);

	if (d)
		return d;
	d = debugfs_create_dir(name, parent);
	return IS_ERR(d) ? NULL : dget(d);
}

/* The directory of @slot: group/name, or group/name/ARG. */
static void cb_make_dir(struct cb_slot *slot)
{
	struct dentry *gdir, *fdir, *dir;
	char arg[24], name[32];
	int k;

	gdir = cb_dir_get(slot->group->name, cb_dir);
	fdir = gdir ? cb_dir_get(slot->frag->name, gdir) : NULL;
	if (!fdir) {
		dput(gdir);
		return;
	}
	dir = fdir;
	if (slot->has_arg) {
		snprintf(arg, sizeof(arg), "%llu", slot->arg);
		dir = debugfs_create_dir(arg, fdir);
	}
	debugfs_create_file(CB_FILE_CYCLES, 0400, dir, slot, &cb_cycles_fops);
	if (!slot->frag->no_long)
		debugfs_create_file(CB_FILE_CYCLES_LONG, 0400, dir, slot,
				    &cb_cycles_long_fops);
	debugfs_create_file(CB_FILE_FLAGS, 0400, dir, slot, &cb_flags_fops);
	for (k = 0; k < CB_NR_PMC; k++) {
		debugfs_create_file(cb_pmc_names[k], 0400, dir, slot,
				    &cb_pmc_fops[CB_REGION_SHORT][k]);
		if (slot->frag->no_long)
			continue;
		snprintf(name, sizeof(name), "%s" CB_FILE_LONG, cb_pmc_names[k]);
		debugfs_create_file(name, 0400, dir, slot,
				    &cb_pmc_fops[CB_REGION_LONG][k]);
	}
	debugfs_create_file(CB_FILE_INFO, 0400, dir, slot, &cb_frag_info_fops);
	cb_slot_dir[slot - cb_slot(0)] = dir;
	dput(fdir);
	dput(gdir);
}

/* Slot @i's cpuN/ for each CPU of its latest result that has none yet. */
static void cb_make_cpu_dirs(unsigned int i)
{
	struct cb_slot *slot = cb_slot(i);
	struct cb_result *res = cb_result_get(slot, NULL, NULL);
	u64 todo = res ? res->cpus & ~cb_cpu_dirs[i] : 0;
	char name[16];

	cb_result_put(res);
	for (; todo && cb_slot_dir[i]; todo &= todo - 1) {
		struct cb_cpu_file *f = kzalloc(sizeof(*f), GFP_KERNEL);
		struct dentry *dir;

		if (!f)
			return;
		f->slot = slot;
		f->cpu = __ffs64(todo);
		snprintf(name, sizeof(name), CB_FILE_CPU_DIR, f->cpu);
		dir = debugfs_create_dir(name, cb_slot_dir[i]);
		debugfs_create_file(CB_FILE_CYCLES, 0400, dir, f, &cb_cpu_cycles_fops);
		if (!slot->frag->no_long)
			debugfs_create_file(CB_FILE_CYCLES_LONG, 0400, dir, f,
					    &cb_cpu_cycles_long_fops);
		debugfs_create_file(CB_FILE_FLAGS, 0400, dir, f, &cb_cpu_flags_fops);
		list_add(&f->node, &cb_cpu_files);
		cb_cpu_dirs[i] |= BIT_ULL(f->cpu);
	}
}

static void cb_debugfs_sync(void)
{
	unsigned int n = cb_nr_slots();

	unsigned int i;

	mutex_lock(&cb_dirs_lock);
	for (; cb_dirs_made < n; cb_dirs_made++)
		cb_make_dir(cb_slot(cb_dirs_made));
	for (i = 0; i < n; i++)
		cb_make_cpu_dirs(i);
	mutex_unlock(&cb_dirs_lock);
}

int cb_debugfs_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} top[] = {
		{ CB_FILE_INFO, 0400, &cb_info_fops },
		{ CB_FILE_FRAGMENTS, 0400, &cb_fragments_fops },
		{ CB_FILE_STATUS, 0400, &cb_status_fops },
		{ CB_FILE_RUN, 0200, &cb_run_fops },
	};
	unsigned int i;

	/*
	 * The one check: without debugfs the module has no interface.  An
	 * allocation that failed (-ENOMEM) has been reported by the allocator;
	 * anything else means debugfs is off or disabled (-ENODEV, -EPERM).
	 */
	cb_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(cb_dir)) {
		if (PTR_ERR(cb_dir) == -ENOMEM)
			return -ENOMEM;
		pr_err("cannot create /sys/kernel/debug/%s (%ld): is CONFIG_DEBUG_FS on, and debugfs not disabled on the kernel command line?\n",
		       KBUILD_MODNAME, PTR_ERR(cb_dir));
		return PTR_ERR(cb_dir);
	}
	/*
	 * The interface itself: without one of these the module is loaded
	 * and useless (fail-nth found a load whose run file was missing), so
	 * the load fails instead.  A result's files the load does without.
	 */
	for (i = 0; i < ARRAY_SIZE(top); i++) {
		struct dentry *d = debugfs_create_file(top[i].name, top[i].mode,
						       cb_dir, NULL, top[i].fops);

		if (IS_ERR(d)) {
			debugfs_remove_recursive(cb_dir);
			return PTR_ERR(d);
		}
	}
	cb_dirs_made = 0;
	cb_debugfs_sync();
	return 0;
}

void cb_debugfs_exit(void)
{
	struct cb_cpu_file *f, *tmp;

	debugfs_remove_recursive(cb_dir);
	/* no file is open: each holds the module */
	list_for_each_entry_safe(f, tmp, &cb_cpu_files, node)
		kfree(f);
	INIT_LIST_HEAD(&cb_cpu_files);
	memset(cb_cpu_dirs, 0, sizeof(cb_cpu_dirs));
	memset(cb_slot_dir, 0, sizeof(cb_slot_dir));
}
