// SPDX-License-Identifier: GPL-2.0
/*
 * The result store: the groups, one slot per fragment (or per argument of
 * one), and each slot's latest complete result.
 *
 * Readers (debugfs) take a reference to a result under cb_res_lock and
 * format it at leisure; a run publishes all of its results in one critical
 * section, so no reader ever sees one slot from the new run and the next
 * from the old.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "internal.h"

/* CB_GROUP_LIST comes from kmod/fragments/groups.mk: every group, in order */
#define CB_G(_name, _) (&cb_group_##_name),
static const struct cb_group *const cb_groups[] = { CB_GROUP_LIST(CB_G, CB_G, 0) };
#undef CB_G

unsigned int cb_nr_groups(void)
{
	return ARRAY_SIZE(cb_groups);
}

const struct cb_group *cb_group(unsigned int i)
{
	return cb_groups[i];
}

static bool cb_cpu_ok(unsigned int cpu)
{
	return cpu < nr_cpu_ids && cpu_online(cpu);
}

static const struct cb_catalog cb_module_catalog = {
	.groups = cb_groups,
	.nr_groups = ARRAY_SIZE(cb_groups),
	.side = CB_SIDE_MODULE,
	.list_hint = "cat fragments lists them",
	.cpu_ok = cb_cpu_ok,
};

/* What the module runs, for the request parser (grammar.c). */
const struct cb_catalog *cb_catalog(void)
{
	return &cb_module_catalog;
}

static struct cb_slot cb_slots[CB_MAX_SLOTS];
/* Slots in use; grows under the engine's run lock, read with acquire. */
static unsigned int cb_slots_used;
static DEFINE_SPINLOCK(cb_res_lock);

unsigned int cb_nr_slots(void)
{
	/* Pairs with the release in cb_slot_add(): the slot is filled in. */
	return smp_load_acquire(&cb_slots_used);
}

struct cb_slot *cb_slot(unsigned int i)
{
	return &cb_slots[i];
}

u32 cb_slot_ops(const struct cb_slot *slot)
{
	if (slot->frag->ops_is_arg)
		return slot->arg ? min_t(u64, slot->arg, U32_MAX) : 1;
	return slot->frag->ops;
}

static int cb_slot_add(const struct cb_group *grp,
		       const struct cb_fragment *frag, u64 arg, bool dflt)
{
	unsigned int n = cb_slots_used;
	struct cb_slot *slot;

	if (n == CB_MAX_SLOTS) {
		pr_warn("more than %u results: raise CB_MAX_SLOTS\n", CB_MAX_SLOTS);
		return -E2BIG;
	}
	slot = &cb_slots[n];
	slot->group = grp;
	slot->frag = frag;
	slot->arg = arg;
	slot->has_arg = frag->nr_args > 0;
	slot->dflt = dflt;
	slot->state = CB_STATE_NONE;
	/* Readers see the slot's fields before they see it counted. */
	smp_store_release(&cb_slots_used, n + 1);
	return n;
}

static const struct cb_group *cb_group_of(const struct cb_fragment *frag)
{
	unsigned int g;

	for (g = 0; g < ARRAY_SIZE(cb_groups); g++)
		if (frag >= cb_groups[g]->fragments &&
		    frag < cb_groups[g]->fragments + cb_groups[g]->count)
			return cb_groups[g];
	return NULL;
}

/*
 * The slot of @frag at @arg, adding it when @add (the caller holds the run
 * lock): a run may name an argument outside the default list.
 */
int cb_slot_find(const struct cb_fragment *frag, u64 arg, bool add)
{
	unsigned int i, n = cb_slots_used;

	for (i = 0; i < n; i++)
		if (cb_slots[i].frag == frag &&
		    (!frag->nr_args || cb_slots[i].arg == arg))
			return i;
	if (!add)
		return -ENOENT;
	return cb_slot_add(cb_group_of(frag), frag, arg, false);
}

static bool cb_valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower(*s) && !isdigit(*s) && *s != '_')
			return false;
	return true;
}

static bool cb_valid_fragment(const struct cb_group *grp,
			      const struct cb_fragment *frag, unsigned int f)
{
	unsigned int i;

	if (!cb_valid_name(frag->name) || !frag->desc || !frag->sample ||
	    (!frag->ops && !frag->ops_is_arg) || (frag->teardown && !frag->setup))
		return false;
	for (i = 0; i < f; i++)
		if (!strcmp(grp->fragments[i].name, frag->name))
			return false;
	return true;
}

/* Catch a bad table at load, not as a missing debugfs entry later. */
int cb_results_init(unsigned int max_mb)
{
	unsigned int g, f, a, i;
	int ret;

	for (g = 0; g < ARRAY_SIZE(cb_groups); g++) {
		const struct cb_group *grp = cb_groups[g];

		if (!cb_valid_name(grp->name))
			goto bad;
		for (i = 0; i < g; i++)
			if (!strcmp(cb_groups[i]->name, grp->name))
				goto bad;
		for (f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];

			if (!cb_valid_fragment(grp, frag, f))
				goto bad;
			if (!frag->nr_args) {
				ret = cb_slot_add(grp, frag, 0, true);
				if (ret < 0)
					return ret;
				continue;
			}
			for (a = 0; a < frag->nr_args; a++) {
				if (!cb_default_arg_fits(frag, frag->args[a], max_mb))
					continue;
				ret = cb_slot_add(grp, frag, frag->args[a], true);
				if (ret < 0)
					return ret;
			}
		}
	}
	return 0;
bad:
	pr_err("group %s: names must be unique and [a-z0-9_], with a description, ops non-zero, no teardown without setup\n",
	       cb_groups[g]->name);
	return -EINVAL;
}

/* A cpus= result's barrier releases, needed only while it is measured. */
void cb_result_drop_release(struct cb_result *res)
{
	unsigned int t;

	for (t = 0; res->release && t < res->nr_cpus; t++)
		vfree(res->release[t]);
	for (t = 0; res->round && t < res->nr_cpus; t++)
		vfree(res->round[t]);
	kfree(res->release);
	kfree(res->round);
	res->release = NULL;
	res->round = NULL;
}

static void cb_result_release(struct kref *ref)
{
	struct cb_result *res = container_of(ref, struct cb_result, ref);
	unsigned int t;
	int k, r;

	cb_result_drop_release(res);
	/* [0] of each is cycles, cycles_long, flags */
	for (t = 1; res->pc_cycles && t < res->nr_cpus; t++)
		vfree(res->pc_cycles[t]);
	for (t = 1; res->pc_cycles_long && t < res->nr_cpus; t++)
		vfree(res->pc_cycles_long[t]);
	for (t = 1; res->pc_flags && t < res->nr_cpus; t++)
		vfree(res->pc_flags[t]);
	kfree(res->pc_cycles);
	kfree(res->pc_cycles_long);
	kfree(res->pc_flags);
	vfree(res->cycles);
	vfree(res->cycles_long);
	vfree(res->flags);
	for (r = 0; r < CB_NR_REGIONS; r++)
		for (k = 0; k < CB_NR_PMC; k++)
			vfree(res->pmc[r][k]);
	kfree(res);
}

void cb_result_put(struct cb_result *res)
{
	if (res)
		kref_put(&res->ref, cb_result_release);
}

/* A reference to @slot's latest complete result (or NULL), and its state. */
struct cb_result *cb_result_get(struct cb_slot *slot, enum cb_state *state,
				int *err)
{
	struct cb_result *res;

	spin_lock(&cb_res_lock);
	res = slot->res;
	if (res)
		kref_get(&res->ref);
	if (state)
		*state = slot->state;
	if (err)
		*err = slot->err;
	spin_unlock(&cb_res_lock);
	return res;
}

/*
 * Publishes a run: an entry whose @errs[i] is not 0 becomes
 * CB_STATE_FAILED with it, its old result kept; with CB_STATE_OK every
 * other @res[i] replaces the slot's result (the references move to the
 * slots, @res[i] becomes NULL); with any other state only the states
 * change.  One critical section.
 */
void cb_publish(const unsigned int *slots, struct cb_result **res,
		const int *errs, unsigned int nr, enum cb_state state)
{
	unsigned int i;

	spin_lock(&cb_res_lock);
	for (i = 0; i < nr; i++) {
		struct cb_slot *slot = &cb_slots[slots[i]];

		if (errs[i]) {
			slot->state = CB_STATE_FAILED;
			slot->err = errs[i];
		} else if (state == CB_STATE_OK && res[i]) {
			swap(slot->res, res[i]);
			slot->state = CB_STATE_OK;
		} else if (state == CB_STATE_OK) {
			slot->state = CB_STATE_SKIPPED;
		} else {
			slot->state = state;
		}
	}
	spin_unlock(&cb_res_lock);
	/* res[] now holds the old results (or NULL): the caller frees them. */
}

void cb_results_exit(void)
{
	unsigned int i;

	for (i = 0; i < cb_slots_used; i++) {
		cb_result_put(cb_slots[i].res);
		cb_slots[i].res = NULL;
	}
	cb_slots_used = 0;
}
