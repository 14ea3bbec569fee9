// SPDX-License-Identifier: GPL-2.0
/*
 * cyclebench - time small code fragments with the TSC, interrupts off,
 * keeping every sample.
 *
 * Each sample follows Paoloni's protocol (Intel white paper, 2010):
 * preemption and interrupts off, CPUID; RDTSC, the fragment body,
 * RDTSCP; CPUID, interrupts and preemption back on, delta stored; then the
 * same around CB_LONG_REPEAT copies of the body.  Samples are grouped as
 * ensembles x samples and kept in run order.
 *
 * Driving it from a shell (as root; debugfs at /sys/kernel/debug):
 *
 *   insmod cyclebench.ko                  # measures every fragment once
 *   cd /sys/kernel/debug/cyclebench
 *   cat fragments                         # group:name[/ARG] ops description
 *   cat alu/add_dep/cycles | ministat     # one delta per line
 *   echo "alu,base samples=100000 method=lfence cpu=1" > run
 *   echo "mem:chase args=4096,1048576" > run   # mem/chase/4096/cycles ...
 *   cat status                            # idle, or what is running
 *   rmmod cyclebench
 *
 * A write to run returns when the run is over; a signal the writer acts on
 * (Ctrl-C) abandons it within a sample and leaves the previous results.
 * See docs/debugfs-contract.md for every file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

#ifndef CONFIG_X86_64
#error "cyclebench times x86-64 code (CPUID, RDTSC, RDTSCP): build it for x86-64"
#endif

u64 cb_random_u64(void)
{
	return get_random_u64();
}

static int __init cb_init(void)
{
	struct cb_defaults d;
	struct cb_req *req;
	char only[CB_CMD_MAX], why[256];
	unsigned int nr, cpu;
	int ret, entry_err = 0;

	cb_probe_lfence();
	cb_engine_init();
	cb_get_defaults(&d);
	ret = cb_results_init(d.max_mb);
	if (ret)
		goto free_results;
	req = kvzalloc(sizeof(*req), GFP_KERNEL);
	if (!req) {
		ret = -ENOMEM;
		goto free_results;
	}
	cb_req_defaults(req);
	strscpy(only, cb_only_spec(), sizeof(only));
	ret = cb_req_select(only, NULL, 0, cb_catalog(), req, why, sizeof(why));
	if (ret) {
		/* only= was checked when set: not seen but in a bug */
		pr_err("only=%s: %s\n", cb_only_spec(), why);
		goto free_req;
	}
	/*
	 * Measure before debugfs exists: if this run fails, init fails, and
	 * the module is freed at once, even under a file someone had opened.
	 */
	nr = req->nr;
	cpu = req->cpu;
	if (cb_run_on_load_param()) {
		/*
		 * It takes req over and checks it as the run file does
		 * (request.c), before anything runs; waits until its thread
		 * is gone.  A run over max_mb is a parameter's mistake here:
		 * -EINVAL, as for every bad parameter.  A fragment that
		 * stopped alone (a body over the bound) fails no load: the
		 * log and its state say why, the others' results stand.
		 */
		ret = cb_run(req, false, &entry_err);
		req = NULL;
		if (ret == -E2BIG)
			ret = -EINVAL;
		if (ret) {
			pr_err("run at load failed (%d)\n", ret);
			goto free_results;
		}
	}
	ret = cb_debugfs_init();
	if (ret)
		goto free_req;

	if (security_locked_down(LOCKDOWN_DEBUGFS))
		pr_notice("kernel lockdown: debugfs refuses writes, so the run file gives EPERM; choose what to measure with only= at insmod (run_on_load), or use userspace/runner/cyclebench-user\n");
	if (cb_run_on_load_param())
		pr_info("measured %u results: %u x %u samples on cpu %u, method %s%s\n",
			nr, d.ensembles, d.samples, cpu,
			cb_method_name(cb_method_used(d.method)),
			entry_err ? "; some stopped alone (above): their state says failed" : "");
	else
		pr_info("%u results ready; write to /sys/kernel/debug/cyclebench/run to measure\n",
			cb_nr_slots());
	kvfree(req);
	return 0;

free_req:
	kvfree(req);
free_results:
	cb_results_exit();
	cb_engine_exit();	/* a run at load's thread, if one ran */
	return ret;
}

static void __exit cb_exit(void)
{
	cb_engine_exit();	/* a run whose writer left: stop it */
	cb_debugfs_exit();
	cb_results_exit();
}

module_init(cb_init);
module_exit(cb_exit);

MODULE_DESCRIPTION("Time code fragments with the TSC, interrupts off (Paoloni's protocol)");
MODULE_AUTHOR("The cyclebench developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(CB_VERSION);
