// SPDX-License-Identifier: GPL-2.0
/*
 * The run request: "SELECTION [key=value ...]", from the run file or the
 * only= parameter, into a struct cb_req.  Reads only the fragment tables
 * (only= is checked before init), never the slots.
 *
 * SELECTION is a comma-separated list of: all (every fragment but the slow
 * ones), a group (all of its fragments), group:name, group:name/ARG.  A
 * fragment with arguments runs its default list, or the list args= gives.
 * Unknown or repeated keys are errors, so a typo never silently runs with a
 * default.  And what a request needs: its memory, checked against max_mb
 * and the memory available.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "internal.h"

void cb_req_defaults(struct cb_req *req)
{
	struct cb_defaults d;

	cb_get_defaults(&d);
	req->nr = 0;
	req->samples = d.samples;
	req->ensembles = d.ensembles;
	req->warmup = d.warmup;
	req->method = d.method;
	req->pmu = true;
	req->interleave = false;
	req->cpu = d.cpu;
}

/* Position of @frag in table order. */
static unsigned int cb_ordinal(const struct cb_fragment *frag)
{
	unsigned int g, base = 0;

	for (g = 0; g < cb_nr_groups(); base += cb_group(g)->count, g++)
		if (frag >= cb_group(g)->fragments &&
		    frag < cb_group(g)->fragments + cb_group(g)->count)
			return base + (frag - cb_group(g)->fragments);
	return UINT_MAX;
}

/* Adds one (fragment, argument), keeping table order and no duplicates. */
static int cb_req_add(struct cb_req *req, const struct cb_fragment *frag,
		      u64 arg)
{
	unsigned int ord = cb_ordinal(frag), i, j;

	for (i = 0; i < req->nr; i++) {
		unsigned int o = cb_ordinal(req->frag[i]);

		if (o == ord && req->arg[i] == arg)
			return 0;
		if (o > ord || (o == ord && req->arg[i] > arg))
			break;
	}
	if (req->nr == CB_MAX_SLOTS)
		return -E2BIG;
	for (j = req->nr; j > i; j--) {
		req->frag[j] = req->frag[j - 1];
		req->arg[j] = req->arg[j - 1];
	}
	req->frag[i] = frag;
	req->arg[i] = arg;
	req->nr++;
	return 0;
}

static bool cb_arg_ok(const struct cb_fragment *frag, u64 arg)
{
	return arg >= frag->arg_min && (!frag->arg_max || arg <= frag->arg_max);
}

/* A fragment's arguments: @args when given, else its defaults that fit. */
static int cb_req_add_frag(struct cb_req *req, const struct cb_fragment *frag,
			   const u64 *args, unsigned int nr_args, bool *used)
{
	struct cb_defaults d;
	unsigned int a;
	int ret = 0;

	if (!frag->nr_args)
		return cb_req_add(req, frag, 0);
	if (args) {
		*used = true;
		for (a = 0; a < nr_args && !ret; a++)
			ret = cb_arg_ok(frag, args[a]) ?
			      cb_req_add(req, frag, args[a]) : -EINVAL;
		return ret;
	}
	cb_get_defaults(&d);
	for (a = 0; a < frag->nr_args && !ret; a++)
		if (cb_default_arg_fits(frag, frag->args[a], d.max_mb))
			ret = cb_req_add(req, frag, frag->args[a]);
	return ret;
}

/* One item of the selection: all, group, group:name or group:name/ARG. */
static int cb_select(char *item, const u64 *args, unsigned int nr_args,
		     struct cb_req *req, bool *used)
{
	char *name = strchr(item, ':'), *arg = NULL;
	bool all = !strcmp(item, "all");
	unsigned int g, f;
	int found = all ? 0 : -EINVAL;
	u64 v = 0;

	if (name) {
		*name++ = '\0';
		arg = strchr(name, '/');
		if (arg) {
			*arg++ = '\0';
			if (kstrtou64(arg, 10, &v)) {
				cb_warn("run: %.32s:%.32s/%.32s: ARG is not a decimal number\n",
					item, name, arg);
				return -EINVAL;
			}
		}
	}
	for (g = 0; g < cb_nr_groups(); g++) {
		const struct cb_group *grp = cb_group(g);

		if (!all && strcmp(grp->name, item))
			continue;
		for (f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];
			int ret;

			if ((all && frag->slow) || (name && strcmp(frag->name, name)))
				continue;
			if (arg && !frag->nr_args) {
				cb_warn("run: %s:%s takes no ARG (drop /%llu)\n",
					grp->name, frag->name, v);
				return -EINVAL;
			}
			if (arg && !cb_arg_ok(frag, v)) {
				cb_warn("run: %s:%s/%llu: ARG out of its range (at least %llu, at most %llu where that is not 0, and within max_mb)\n",
					grp->name, frag->name, v, frag->arg_min, frag->arg_max);
				return -EINVAL;
			}
			ret = arg ? cb_req_add(req, frag, v) :
			      cb_req_add_frag(req, frag, args, nr_args, used);
			if (ret)
				return ret;
			found = 0;
		}
	}
	if (found) {
		cb_warn("run: no fragment '%.32s%s%.32s' (cat fragments lists them)\n",
			item, name ? ":" : "", name ? name : "");
		return -EINVAL;
	}
	return 0;
}

int cb_parse_selection(char *spec, const u64 *args, unsigned int nr_args,
		       struct cb_req *req)
{
	bool used = false;
	char *item;
	int ret;

	req->nr = 0;
	if (!*spec) {
		cb_warn("run: an empty selection; name what to run (all, a group, group:name)\n");
		return -EINVAL;
	}
	while ((item = strsep(&spec, ","))) {
		if (!*item) {
			cb_warn("run: an empty item in the selection (two commas, or one at an end)\n");
			return -EINVAL;
		}
		ret = cb_select(item, args, nr_args, req, &used);
		if (ret)
			return ret == -E2BIG ? ret : -EINVAL;
	}
	/* args= that no selected fragment takes is a mistake, not a no-op. */
	if (args && !used) {
		cb_warn("run: args= given, but no selected fragment takes an argument\n");
		return -EINVAL;
	}
	return 0;
}

static int cb_parse_u32(const char *s, u32 min, u32 max, u32 *out)
{
	u32 v;

	if (kstrtou32(s, 10, &v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "4096,1048576": decimal, at most CB_MAX_ARGS values. */
static int cb_parse_args(char *s, u64 *args, unsigned int *nr)
{
	char *tok;

	*nr = 0;
	while ((tok = strsep(&s, ","))) {
		if (*nr == CB_MAX_ARGS) {
			cb_warn("run: args=: more than %u values\n", CB_MAX_ARGS);
			return -EINVAL;
		}
		if (kstrtou64(tok, 10, &args[*nr])) {
			cb_warn("run: args=: '%.32s' is not a decimal number\n", tok);
			return -EINVAL;
		}
		(*nr)++;
	}
	return 0;
}

int cb_parse_request(char *cmd, struct cb_req *req)
{
	enum { K_SAMPLES, K_ENSEMBLES, K_WARMUP, K_METHOD, K_CPU, K_ARGS, K_PMU,
	       K_INTERLEAVE, K_NR };
	static const char *const keys[K_NR] = {
		"samples", "ensembles", "warmup", "method", "cpu", "args", "pmu",
		"interleave",
	};
	static const u32 lo[K_NR] = { 1, 1, 0 };
	static const u32 hi[K_NR] = {
		CB_MAX_SAMPLES, CB_MAX_ENSEMBLES, CB_MAX_WARMUP,
	};
	static const char *const help[K_NR] = {
		[K_METHOD] = "paoloni or lfence",
		[K_CPU] = "an online CPU",
		[K_PMU] = "on or off",
		[K_INTERLEAVE] = "0 or 1",
	};
	u32 interleave;
	u64 args[CB_MAX_ARGS];
	unsigned int seen = 0, nr_args = 0;
	char *tok, *sel = NULL;
	int k, ret;

	cb_req_defaults(req);
	while ((tok = strsep(&cmd, " \t\n"))) {
		char *val;

		if (!*tok)
			continue;
		if (!sel) {
			sel = tok;
			continue;
		}
		val = strchr(tok, '=');
		if (!val) {
			cb_warn("run: '%.32s' after the selection is not key=value\n",
				tok);
			return -EINVAL;
		}
		*val++ = '\0';
		k = match_string(keys, K_NR, tok);
		if (k < 0) {
			cb_warn("run: unknown key '%.32s' (keys: samples ensembles warmup method cpu args pmu interleave)\n",
				tok);
			return -EINVAL;
		}
		if (seen & BIT(k)) {
			cb_warn("run: %s= given twice\n",
				keys[k]);
			return -EINVAL;
		}
		seen |= BIT(k);
		switch (k) {
		case K_SAMPLES:
			ret = cb_parse_u32(val, 1, CB_MAX_SAMPLES, &req->samples);
			break;
		case K_ENSEMBLES:
			ret = cb_parse_u32(val, 1, CB_MAX_ENSEMBLES, &req->ensembles);
			break;
		case K_WARMUP:
			ret = cb_parse_u32(val, 0, CB_MAX_WARMUP, &req->warmup);
			break;
		case K_METHOD:
			ret = cb_parse_method(val, &req->method);
			break;
		case K_CPU:
			ret = cb_parse_cpu(val, &req->cpu);
			break;
		case K_PMU:
			ret = -EINVAL;
			if (!strcmp(val, "on") || !strcmp(val, "off")) {
				req->pmu = val[1] == 'n';
				ret = 0;
			}
			break;
		case K_INTERLEAVE:
			ret = cb_parse_u32(val, 0, 1, &interleave);
			req->interleave = !ret && interleave;
			break;
		default:
			ret = cb_parse_args(val, args, &nr_args);
			break;
		}
		if (ret && k == K_ARGS)
			return ret;	/* cb_parse_args() said why */
		if (ret && help[k]) {
			cb_warn("run: %s=%.32s: not a valid value (%s)\n",
				keys[k], val, help[k]);
			return -EINVAL;
		}
		if (ret) {
			cb_warn("run: %s=%.32s: not a number in %u..%u\n",
				keys[k], val, lo[k], hi[k]);
			return -EINVAL;
		}
	}
	if (!sel) {
		cb_warn("run: an empty request; write a selection, e.g. echo alu > run\n");
		return -EINVAL;
	}
	return cb_parse_selection(sel, nr_args ? args : NULL, nr_args, req);
}

/*
 * Memory the run would allocate: the sample arrays (cycles, cycles_long,
 * a byte of flags per sample), plus the largest buffer one setup
 * allocates (setups run one at a time) - interleaved, plus every buffer
 * set up once for the run, as those are alive together.  U64_MAX on
 * overflow.
 */
u64 cb_req_bytes(const struct cb_req *req)
{
	u64 n = (u64)req->samples * req->ensembles;
	u64 bytes = 0, buf = 0, b;
	unsigned int i;

	for (i = 0; i < req->nr; i++) {
		const struct cb_fragment *frag = req->frag[i];
		u64 per = (frag->no_long ? 1 : 2) * sizeof(u64) + 1;

		if (check_mul_overflow(n, per, &b) ||
		    check_add_overflow(bytes, b, &bytes))
			return U64_MAX;
		if (!frag->arg_bytes)
			continue;
		if (req->interleave && frag->setup && !frag->setup_each_ensemble) {
			if (check_add_overflow(bytes, req->arg[i], &bytes))
				return U64_MAX;
		} else {
			buf = max(buf, req->arg[i]);
		}
	}
	if (check_add_overflow(bytes, buf, &bytes))
		return U64_MAX;
	return bytes;
}

/* The name of the group whose table holds @frag. */
static const char *cb_group_name(const struct cb_fragment *frag)
{
	unsigned int g;

	for (g = 0; g < cb_nr_groups(); g++) {
		const struct cb_group *grp = cb_group(g);

		if (frag >= grp->fragments && frag < grp->fragments + grp->count)
			return grp->name;
	}
	return "?";
}

/*
 * A fragment whose ARG counts loop iterations: whether ARG of them, in the
 * short region and the long one's copies, could fit one sample's
 * interrupts-off window.  The speed is a dec/jnz loop's, measured now on
 * this CPU; the run goes on another, maybe at another clock, so only what
 * would take over twice the limit is refused here.  Nearer the limit the
 * sampler's probe decides, before any sample (cyclebench.h).
 */
static int cb_req_check_window(const struct cb_req *req, unsigned int us)
{
	u64 limit = cb_limit_ticks(us), per = 0, t;
	unsigned int i;

	for (i = 0; i < req->nr; i++) {
		const struct cb_fragment *frag = req->frag[i];
		u64 copies = frag->no_long ? 1 : CB_LONG_REPEAT + 1;

		if (!frag->arg_is_loop)
			continue;
		per = per ?: cb_loop_ticks16();
		if (check_mul_overflow(req->arg[i], per * copies, &t) || t / 16 > 2 * limit) {
			cb_warn("run: %s:%s/%llu: refused before it runs: it cannot fit max_sample_us=%u: %llu copies of %llu iterations at %llu.%02llu TSC ticks each here would hold interrupts off for over %llu us; the largest ARG that fits is about %llu (or reload with a larger max_sample_us, at most %u)\n",
				cb_group_name(frag), frag->name, req->arg[i], us,
				copies, req->arg[i], per / 16, per % 16 * 100 / 16,
				2ULL * us, div64_u64(limit * 16, per * copies),
				CB_MAX_SAMPLE_US);
			return -ETIME;
		}
	}
	return 0;
}

/* Whether the machine can take the run: memory, max_mb, the CPU, time. */
int cb_req_check(const struct cb_req *req)
{
	u64 bytes = cb_req_bytes(req);
	struct cb_defaults d;
	int ret;

	cb_get_defaults(&d);
	if (!req->nr)
		return -EINVAL;
	ret = cb_req_check_window(req, d.max_sample_us);
	if (ret)
		return ret;
	if (bytes > (u64)d.max_mb << 20) {
		cb_warn("a run of %u results x %u ensembles x %u samples needs %llu MiB, over max_mb=%u: lower samples, ensembles or the arguments, or reload with a larger max_mb\n",
			req->nr, req->ensembles, req->samples,
			DIV_ROUND_UP_ULL(bytes, 1 << 20), d.max_mb);
		return -E2BIG;
	}
	if (bytes >> PAGE_SHIFT > si_mem_available() / 2) {
		cb_warn("a run needing %llu MiB would take over half of the available memory: lower samples or ensembles\n",
			DIV_ROUND_UP_ULL(bytes, 1 << 20));
		return -ENOMEM;
	}
	if (!cpu_online(req->cpu)) {
		cb_warn("cpu %u is offline: pick an online cpu=\n", req->cpu);
		return -EINVAL;
	}
	return 0;
}
