// SPDX-License-Identifier: GPL-2.0
/*
 * The run request, "SELECTION [key=value ...]", parsed once for every side:
 * compiled into the module (the run file, only=) and into cyclebench-user.
 * It reads only the side's catalog of fragments and never prints: an error
 * is a code (-EINVAL, or -E2BIG for too many results) and the reason, in
 * words the caller shows (the module's log, the runner's stderr).
 *
 * SELECTION is a comma-separated list of: all (every fragment but the slow
 * ones), a group (all of its fragments), group:name, group:name/ARG.  A
 * fragment with arguments runs its default list, or the list args= gives.
 * Unknown or repeated keys are errors, so a typo never silently runs with a
 * default; so is a key the other side takes but this one does not.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#else
#define _GNU_SOURCE		/* strsep() */
#include <stdio.h>
#include <string.h>
#endif

#include "grammar.h"

static const char *const cb_method_names[CB_NR_METHODS] = CB_METHOD_NAMES;

const char *cb_method_name(enum cb_method m)
{
	return (unsigned int)m < CB_NR_METHODS ? cb_method_names[m] : "?";
}

/* Only the two protocols can be asked for; the fallbacks are chosen. */
int cb_method_parse(const char *s, enum cb_method *m)
{
	if (!strcmp(s, cb_method_names[CB_PAOLONI]))
		*m = CB_PAOLONI;
	else if (!strcmp(s, cb_method_names[CB_LFENCE]))
		*m = CB_LFENCE;
	else
		return -EINVAL;
	return 0;
}

/*
 * A default argument that allocates more than half of max_mb is left out
 * of the defaults: the samples need the rest.  Named explicitly, it runs
 * if the whole run fits.
 */
bool cb_default_arg_fits(const struct cb_fragment *frag, u64 arg,
			 unsigned int max_mb)
{
	return !frag->arg_bytes || arg <= ((u64)max_mb << 20) / 2;
}

/* A decimal number, digits only (no sign, no space), that fits a u64. */
static int cb_dec(const char *s, u64 *out)
{
	u64 v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9 || v > (~0ULL - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Position of @frag in table order. */
static unsigned int cb_ordinal(const struct cb_catalog *cat,
			       const struct cb_fragment *frag)
{
	unsigned int g, base = 0;

	for (g = 0; g < cat->nr_groups; base += cat->groups[g]->count, g++)
		if (frag >= cat->groups[g]->fragments &&
		    frag < cat->groups[g]->fragments + cat->groups[g]->count)
			return base + (unsigned int)(frag - cat->groups[g]->fragments);
	return ~0U;
}

/* Adds one (fragment, argument), keeping table order and no duplicates. */
static int cb_req_add(const struct cb_catalog *cat, struct cb_req *req,
		      unsigned int g, const struct cb_fragment *frag, u64 arg,
		      char *why, size_t len)
{
	unsigned int ord = cb_ordinal(cat, frag), i, j;

	for (i = 0; i < req->nr; i++) {
		unsigned int o = cb_ordinal(cat, req->frag[i]);

		if (o == ord && req->arg[i] == arg)
			return 0;
		if (o > ord || (o == ord && req->arg[i] > arg))
			break;
	}
	if (req->nr == CB_MAX_SLOTS) {
		snprintf(why, len, "more than %u results in one run; select fewer",
			 CB_MAX_SLOTS);
		return -E2BIG;
	}
	for (j = req->nr; j > i; j--) {
		req->frag[j] = req->frag[j - 1];
		req->group[j] = req->group[j - 1];
		req->arg[j] = req->arg[j - 1];
	}
	req->frag[i] = frag;
	req->group[i] = (unsigned short)g;
	req->arg[i] = arg;
	req->nr++;
	return 0;
}

static bool cb_arg_ok(const struct cb_fragment *frag, u64 arg)
{
	return arg >= frag->arg_min && (!frag->arg_max || arg <= frag->arg_max);
}

static int cb_bad_arg(const char *group, const struct cb_fragment *frag,
		      u64 arg, char *why, size_t len)
{
	if (!frag->nr_args)
		snprintf(why, len, "%s:%s takes no ARG (drop /%llu)",
			 group, frag->name, (unsigned long long)arg);
	else if (frag->arg_max)
		snprintf(why, len, "%s:%s/%llu: ARG out of its range %llu..%llu",
			 group, frag->name, (unsigned long long)arg,
			 (unsigned long long)frag->arg_min,
			 (unsigned long long)frag->arg_max);
	else
		snprintf(why, len, "%s:%s/%llu: ARG out of its range (at least %llu)",
			 group, frag->name, (unsigned long long)arg,
			 (unsigned long long)frag->arg_min);
	return -EINVAL;
}

/* A fragment's arguments: @args when given, else its defaults that fit. */
static int cb_req_add_frag(const struct cb_catalog *cat, struct cb_req *req,
			   unsigned int g, const struct cb_fragment *frag,
			   const u64 *args, unsigned int nr_args, bool *used,
			   char *why, size_t len)
{
	const char *group = cat->groups[g]->name;
	unsigned int a;
	int ret = 0;

	if (!frag->nr_args)
		return cb_req_add(cat, req, g, frag, 0, why, len);
	if (args) {
		*used = true;
		for (a = 0; a < nr_args && !ret; a++)
			ret = cb_arg_ok(frag, args[a]) ?
			      cb_req_add(cat, req, g, frag, args[a], why, len) :
			      cb_bad_arg(group, frag, args[a], why, len);
		return ret;
	}
	for (a = 0; a < frag->nr_args && !ret; a++)
		if (cb_default_arg_fits(frag, frag->args[a], req->max_mb))
			ret = cb_req_add(cat, req, g, frag, frag->args[a], why, len);
	return ret;
}

static bool cb_elsewhere(const struct cb_catalog *cat, const char *group)
{
	const char *const *e;

	for (e = cat->elsewhere; e && *e; e++)
		if (!strcmp(*e, group))
			return true;
	return false;
}

/* One item of the selection: all, group, group:name or group:name/ARG. */
static int cb_select(char *item, const u64 *args, unsigned int nr_args,
		     const struct cb_catalog *cat, struct cb_req *req,
		     bool *used, char *why, size_t len)
{
	char *name = strchr(item, ':'), *arg = NULL;
	bool all = !strcmp(item, "all"), found = all;
	unsigned int g, f;
	u64 v = 0;
	int ret;

	if (name) {
		*name++ = '\0';
		arg = strchr(name, '/');
		if (arg) {
			*arg++ = '\0';
			if (cb_dec(arg, &v)) {
				snprintf(why, len, "%.32s:%.32s/%.32s: ARG is not a decimal number",
					 item, name, arg);
				return -EINVAL;
			}
		}
	}
	for (g = 0; g < cat->nr_groups; g++) {
		const struct cb_group *grp = cat->groups[g];

		if (!all && strcmp(grp->name, item))
			continue;
		for (f = 0; f < grp->count; f++) {
			const struct cb_fragment *frag = &grp->fragments[f];

			if ((all && frag->slow) || (name && strcmp(frag->name, name)))
				continue;
			if (arg && (!frag->nr_args || !cb_arg_ok(frag, v)))
				return cb_bad_arg(grp->name, frag, v, why, len);
			ret = arg ? cb_req_add(cat, req, g, frag, v, why, len) :
			      cb_req_add_frag(cat, req, g, frag, args, nr_args,
					      used, why, len);
			if (ret)
				return ret;
			found = true;
		}
	}
	if (found)
		return 0;
	if (cb_elsewhere(cat, item))
		snprintf(why, len,
			 "%.32s: a kernel-only group: its bodies need the kernel, so they need the module (sudo insmod cyclebench.ko only=%.32s, or make run)",
			 item, item);
	else
		snprintf(why, len, "no fragment '%.32s%s%.32s' (%s)", item,
			 name ? ":" : "", name ? name : "", cat->list_hint);
	return -EINVAL;
}

/**
 * cb_req_select() - adds what a selection names to @req.
 * @spec: "all", "alu,mem:chase/4096", ...; cut up while parsed.
 * @args: the args= list, or NULL for the fragments' own.
 * @nr_args: values in @args.
 * @cat: the side's catalog.
 * @req: gets the entries, after those it has.
 * @why: the reason for an error.
 * @len: size of @why.
 *
 * Return: 0, -EINVAL or -E2BIG, with @why said.
 */
int cb_req_select(char *spec, const u64 *args, unsigned int nr_args,
		  const struct cb_catalog *cat, struct cb_req *req,
		  char *why, size_t len)
{
	bool used = false;
	char *item;
	int ret;

	if (!*spec) {
		snprintf(why, len,
			 "an empty selection; name what to run (all, a group, group:name)");
		return -EINVAL;
	}
	while ((item = strsep(&spec, ","))) {
		if (!*item) {
			snprintf(why, len,
				 "an empty item in the selection (two commas, or one at an end)");
			return -EINVAL;
		}
		ret = cb_select(item, args, nr_args, cat, req, &used, why, len);
		if (ret)
			return ret;
	}
	/* args= that no selected fragment takes is a mistake, not a no-op. */
	if (args && !used) {
		snprintf(why, len, "args= given, but no selected fragment takes an argument");
		return -EINVAL;
	}
	return 0;
}

/* "4096,1048576": decimal, at most CB_MAX_ARGS values. */
static int cb_parse_args(char *s, u64 *args, unsigned int *nr, char *why,
			 size_t len)
{
	char *tok;

	*nr = 0;
	while ((tok = strsep(&s, ","))) {
		if (*nr == CB_MAX_ARGS) {
			snprintf(why, len, "args=: more than %u values", CB_MAX_ARGS);
			return -EINVAL;
		}
		if (cb_dec(tok, &args[*nr])) {
			snprintf(why, len, "args=: '%.32s' is not a decimal number", tok);
			return -EINVAL;
		}
		(*nr)++;
	}
	return 0;
}

static const struct cb_key_def cb_keys[CB_NR_KEYS] = CB_KEY_DEFS;

const char *cb_key_help(enum cb_run_key k)
{
	return cb_keys[k].help;
}

/* The keys @side takes, space-separated, for messages. */
static void cb_key_list(unsigned int side, char *buf, size_t len)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < CB_NR_KEYS && n < len; k++)
		if (cb_keys[k].sides & side)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
					      cb_keys[k].name);
}

/* The digits at *s, advancing past them (capped: only CPUs below 64 matter). */
static int cb_dec_at(const char **s, u64 *v)
{
	const char *p = *s;

	for (*v = 0; *p >= '0' && *p <= '9'; p++)
		*v = min(*v * 10 + (u64)(*p - '0'), (u64)CB_MAX_CPUS);
	if (p == *s)
		return -EINVAL;
	*s = p;
	return 0;
}

/*
 * cpus=: "0-3", "0,2", "0-1,4": CPUs below CB_MAX_CPUS, each usable, into
 * a mask; 0 and the mask, or -EINVAL.  Read in place (no copy on the
 * stack: the parser's frame is big enough already).
 */
static int cb_parse_cpus(const struct cb_catalog *cat, const char *s, u64 *mask)
{
	u64 lo, hi;

	*mask = 0;
	for (;;) {
		if (cb_dec_at(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (*s == '-' && (s++, cb_dec_at(&s, &hi)))
			return -EINVAL;
		if (lo > hi || hi >= CB_MAX_CPUS)
			return -EINVAL;
		for (; lo <= hi; lo++) {
			if (cat->cpu_ok && !cat->cpu_ok((unsigned int)lo))
				return -EINVAL;
			*mask |= 1ULL << lo;
		}
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/* A key whose value is a word, or a CPU: 0 and the value set, or -EINVAL. */
static int cb_parse_word(const struct cb_catalog *cat, int k, const char *val,
			 struct cb_req *req)
{
	static const unsigned int repeats[] = CB_LONG_REPEATS;
	unsigned int i;
	u64 v;

	switch (k) {
	case CB_KEY_METHOD:
		return cb_method_parse(val, &req->method);
	case CB_KEY_CPU:
		if (cb_dec(val, &v) || v >= ~0U)
			return -EINVAL;
		if (cat->cpu_ok && !cat->cpu_ok((unsigned int)v))
			return -EINVAL;
		req->cpu = (unsigned int)v;
		return 0;
	case CB_KEY_CPUS:
		return cb_parse_cpus(cat, val, &req->cpus);
	case CB_KEY_SWEEP:
		if (strcmp(val, "cpus"))
			return -EINVAL;
		req->sweep_cpus = true;
		return 0;
	case CB_KEY_PMU:
		if (strcmp(val, "on") && strcmp(val, "off"))
			return -EINVAL;
		req->pmu = val[1] == 'n';
		return 0;
	case CB_KEY_LONG_REPEAT:
		if (!strcmp(val, "auto")) {
			req->long_repeat = 0;
			return 0;
		}
		for (i = 0; i < ARRAY_SIZE(repeats); i++)
			if (!cb_dec(val, &v) && v == repeats[i]) {
				req->long_repeat = repeats[i];
				return 0;
			}
		return -EINVAL;
	}
	return -EINVAL;
}

/* A numeric key's value, in cb_keys[k].lo..cb_keys[k].hi. */
static void cb_set_number(struct cb_req *req, int k, u32 v)
{
	switch (k) {
	case CB_KEY_SAMPLES:
		req->samples = v;
		break;
	case CB_KEY_ENSEMBLES:
		req->ensembles = v;
		break;
	case CB_KEY_WARMUP:
		req->warmup = v;
		break;
	case CB_KEY_INTERLEAVE:
		req->interleave = v;
		break;
	case CB_KEY_MAX_MB:
		req->max_mb = v;
		break;
	case CB_KEY_REFERENCES:
		req->references = v;
		break;
	}
}

/**
 * cb_req_parse() - parses a whole request into @req.
 * @cmd: "SELECTION [key=value ...]", words separated by blanks; cut up.
 * @cat: the side's catalog: its fragments and the keys it takes.
 * @req: holds the defaults of the keys; gets what the request says.
 * @why: the reason for an error.
 * @len: size of @why.
 *
 * Return: 0, -EINVAL or -E2BIG, with @why said.
 */
int cb_req_parse(char *cmd, const struct cb_catalog *cat, struct cb_req *req,
		 char *why, size_t len)
{
	u64 args[CB_MAX_ARGS], v;
	unsigned int nr_args = 0;
	char *tok, *sel = NULL;
	int k, ret;

	req->nr = 0;
	req->given = 0;
	req->cpus = 0;
	req->sweep_cpus = false;
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
			snprintf(why, len, "'%.32s' after the selection is not key=value", tok);
			return -EINVAL;
		}
		*val++ = '\0';
		for (k = 0; k < CB_NR_KEYS; k++)
			if ((cb_keys[k].sides & cat->side) && !strcmp(cb_keys[k].name, tok))
				break;
		if (k == CB_NR_KEYS) {
			char keys[128];

			cb_key_list(cat->side, keys, sizeof(keys));
			snprintf(why, len, "unknown key '%.32s' (keys: %s)", tok, keys);
			return -EINVAL;
		}
		if (req->given & (1U << k)) {
			snprintf(why, len, "%s= given twice", cb_keys[k].name);
			return -EINVAL;
		}
		req->given |= 1U << k;
		if (k == CB_KEY_ARGS) {
			ret = cb_parse_args(val, args, &nr_args, why, len);
			if (ret)
				return ret;
		} else if (cb_keys[k].help) {
			if (cb_parse_word(cat, k, val, req)) {
				snprintf(why, len, CB_WHY_WORD,
					 cb_keys[k].name, val, cb_keys[k].help);
				return -EINVAL;
			}
		} else {
			if (cb_dec(val, &v) || v < cb_keys[k].lo || v > cb_keys[k].hi) {
				snprintf(why, len, CB_WHY_RANGE,
					 cb_keys[k].name, val, cb_keys[k].lo, cb_keys[k].hi);
				return -EINVAL;
			}
			cb_set_number(req, k, (u32)v);
		}
	}
	if (!sel) {
		snprintf(why, len,
			 "an empty request; name what to run, e.g. alu (all, a group, group:name)");
		return -EINVAL;
	}
	if ((req->given & (1U << CB_KEY_CPU)) && (req->given & (1U << CB_KEY_CPUS))) {
		snprintf(why, len, "cpu= and cpus= both given; cpus= names every CPU of the run");
		return -EINVAL;
	}
	if (req->sweep_cpus && !(req->cpus & (req->cpus - 1))) {
		snprintf(why, len, "sweep=cpus: name two CPUs or more with cpus= (e.g. cpus=0-3)");
		return -EINVAL;
	}
	/* cpu is the first of cpus=: its samples are the result's own */
	for (k = 0; req->cpus && !(req->cpus & (1ULL << k)); k++)
		;
	if (req->cpus)
		req->cpu = (unsigned int)k;
	return cb_req_select(sel, nr_args ? args : NULL, nr_args, cat, req, why, len);
}
