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
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/sched/smt.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include "internal.h"

static struct dentry *cb_dir;

static const char *cb_yes(bool b)
{
	return b ? "yes" : "no";
}

static int cb_info_show(struct seq_file *m, void *v)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	struct cb_defaults d;

	cb_get_defaults(&d);
	seq_printf(m, "version: %s\n", CB_VERSION);
	seq_printf(m, "kernel: %s\n", utsname()->release);
	seq_printf(m, "vendor: %s\n", c->x86_vendor_id);
	seq_printf(m, "family: %u\n", c->x86);
	seq_printf(m, "model: %u\n", c->x86_model);
	seq_printf(m, "stepping: %u\n", c->x86_stepping);
	seq_printf(m, "model_name: %s\n", c->x86_model_id);
	seq_printf(m, "tsc_khz: %u\n", tsc_khz);
	seq_printf(m, "constant_tsc: %s\n", cb_yes(boot_cpu_has(X86_FEATURE_CONSTANT_TSC)));
	seq_printf(m, "nonstop_tsc: %s\n", cb_yes(boot_cpu_has(X86_FEATURE_NONSTOP_TSC)));
	seq_printf(m, "rdtscp: %s\n", cb_yes(boot_cpu_has(X86_FEATURE_RDTSCP)));
	seq_printf(m, "hypervisor: %s\n", cb_yes(boot_cpu_has(X86_FEATURE_HYPERVISOR)));
	seq_printf(m, "smt_active: %s\n", cb_yes(sched_smt_active()));
	seq_printf(m, "method_requested: %s\n", cb_method_name(d.method));
	seq_printf(m, "method_used: %s\n", cb_method_name(cb_method_used(d.method)));
	seq_printf(m, "samples: %u\n", d.samples);
	seq_printf(m, "ensembles: %u\n", d.ensembles);
	seq_printf(m, "warmup: %u\n", d.warmup);
	seq_printf(m, "cpu: %u\n", d.cpu);
	seq_printf(m, "max_mb: %u\n", d.max_mb);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_info);

static int cb_fragments_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < cb_nr_slots; i++)
		seq_printf(m, "%s:%s %u %s\n", cb_slots[i].group->name,
			   cb_slots[i].frag->name, cb_slots[i].frag->ops,
			   cb_slots[i].frag->desc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_fragments);

static int cb_status_show(struct seq_file *m, void *v)
{
	u64 done, total;
	int slot;

	cb_get_status(&slot, &done, &total);
	if (slot < 0)
		seq_puts(m, "idle\n");
	else
		seq_printf(m, "running %s:%s %llu/%llu\n",
			   cb_slots[slot].group->name, cb_slots[slot].frag->name,
			   done, total);
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
	return ret ? ret : count;
}

static const struct file_operations cb_run_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.write = cb_run_write,
};

static const char *const cb_state_names[] = {
	[CB_STATE_NONE] = "none",
	[CB_STATE_OK] = "ok",
	[CB_STATE_ABORTED] = "aborted",
};

static int cb_frag_info_show(struct seq_file *m, void *v)
{
	struct cb_slot *slot = m->private;
	enum cb_state state;
	struct cb_result *res = cb_result_get(slot, &state);

	seq_printf(m, "name: %s:%s\n", slot->group->name, slot->frag->name);
	seq_printf(m, "description: %s\n", slot->frag->desc);
	seq_printf(m, "ops: %u\n", slot->frag->ops);
	seq_printf(m, "slow: %s\n", cb_yes(slot->frag->slow));
	seq_printf(m, "state: %s\n", cb_state_names[state]);
	if (!res)
		return 0;
	seq_printf(m, "run_id: %llu\n", res->run_id);
	seq_printf(m, "ensembles: %u\n", res->ensembles);
	seq_printf(m, "samples: %u\n", res->samples);
	seq_printf(m, "warmup: %u\n", res->warmup);
	seq_printf(m, "method: %s\n", cb_method_name(res->method));
	seq_printf(m, "cpu: %u\n", res->cpu);
	seq_printf(m, "tsc_khz: %u\n", res->tsc_khz);
	if (res->smi_valid) {
		seq_printf(m, "smi_before: %llu\n", res->smi_before);
		seq_printf(m, "smi_after: %llu\n", res->smi_after);
	}
	cb_result_put(res);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cb_frag_info);

/*
 * cycles: the file holds a reference to the result that was current at
 * open(), so a run that completes mid-read does not mix two arrays.
 */
static void *cb_cycles_start(struct seq_file *m, loff_t *pos)
{
	struct cb_result *res = m->private;

	if (!res || *pos < 0 || *pos >= res->n)
		return NULL;
	return &res->cycles[*pos];
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
	return cb_cycles_start(m, pos);
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

static const struct seq_operations cb_cycles_sops = {
	.start = cb_cycles_start,
	.next = cb_cycles_next,
	.stop = cb_cycles_stop,
	.show = cb_cycles_show,
};

static int cb_cycles_open(struct inode *inode, struct file *file)
{
	int ret = seq_open(file, &cb_cycles_sops);

	if (!ret) {
		struct seq_file *m = file->private_data;

		m->private = cb_result_get(inode->i_private, NULL);
	}
	return ret;
}

static int cb_cycles_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	cb_result_put(m->private);
	return seq_release(inode, file);
}

static const struct file_operations cb_cycles_fops = {
	.owner = THIS_MODULE,
	.open = cb_cycles_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = cb_cycles_release,
};

int cb_debugfs_init(void)
{
	struct dentry *gdir = NULL;
	unsigned int i;

	/* The one check: without debugfs the module has no interface. */
	cb_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(cb_dir)) {
		pr_err("cannot create /sys/kernel/debug/%s (%ld): is CONFIG_DEBUG_FS on, and debugfs not disabled on the kernel command line?\n",
		       KBUILD_MODNAME, PTR_ERR(cb_dir));
		return PTR_ERR(cb_dir);
	}
	debugfs_create_file("info", 0400, cb_dir, NULL, &cb_info_fops);
	debugfs_create_file("fragments", 0400, cb_dir, NULL, &cb_fragments_fops);
	debugfs_create_file("status", 0400, cb_dir, NULL, &cb_status_fops);
	debugfs_create_file("run", 0200, cb_dir, NULL, &cb_run_fops);

	for (i = 0; i < cb_nr_slots; i++) {
		struct cb_slot *slot = &cb_slots[i];
		struct dentry *fdir;

		if (!i || slot->group != cb_slots[i - 1].group)
			gdir = debugfs_create_dir(slot->group->name, cb_dir);
		fdir = debugfs_create_dir(slot->frag->name, gdir);
		debugfs_create_file("cycles", 0400, fdir, slot, &cb_cycles_fops);
		debugfs_create_file("info", 0400, fdir, slot, &cb_frag_info_fops);
	}
	return 0;
}

void cb_debugfs_exit(void)
{
	debugfs_remove_recursive(cb_dir);
}
