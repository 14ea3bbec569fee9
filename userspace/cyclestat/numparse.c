// SPDX-License-Identifier: GPL-2.0
/*
 * numparse.c - reading numbers and keys: cycles files, info files, errors.
 *
 * The formats are docs/debugfs-contract.md's. A cycles file is ministat's
 * input: one unsigned decimal per line; blank lines, spaces around the
 * number and '#' comments are allowed. Anything else (a sign, a fraction, a
 * value above 2^64 - 1, a NUL) stops reading with FILE:LINE and what is
 * wrong. The parser is a byte-at-a-time state machine fed in chunks, so a
 * file of any size streams through a fixed buffer and the fuzzer can split
 * its input anywhere.
 *
 * Each sample goes to counts.c, counted in a value -> count table when
 * the reader asks for it (s->tally), else stored in the sample array
 * (cs_samples_put(), inline in counts.h: once a sample).
 *
 * Above counts.c, and calls nothing else of cyclestat's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"
#include "stats.h"
#include "read.h"

#define CS_CHUNK (256u << 10)


void cs_seterr(struct cs_err *err, const char *file, unsigned long long line,
	       const char *fmt, ...)
{
	va_list ap;

	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void cs_perror(const struct cs_err *err)
{
	if (err->file[0] && err->line)
		fprintf(stderr, "cyclestat: %s:%llu: %s\n", err->file, err->line, err->msg);
	else if (err->file[0])
		fprintf(stderr, "cyclestat: %s: %s\n", err->file, err->msg);
	else
		fprintf(stderr, "cyclestat: %s\n", err->msg);
}

/* ---- cycles parser ---- */

enum { P_START, P_NUM, P_AFTER, P_COMMENT };

void cs_parser_init(struct cs_parser *p)
{
	memset(p, 0, sizeof(*p));
	p->line = 1;
	p->state = P_START;
}

/* the offending token, printable, for the message */
static const char *token(const char *c, const char *end, char *buf, size_t sz)
{
	size_t o = 0;

	for (; c < end && *c != '\n' && o + 5 < sz; c++) {
		unsigned char ch = (unsigned char)*c;

		if (ch >= 0x20 && ch < 0x7f && ch != '\'')
			buf[o++] = (char)ch;
		else
			o += (size_t)snprintf(buf + o, sz - o, "\\x%02x", ch);
	}
	if (c < end && *c != '\n' && o + 4 <= sz)
		strcpy(buf + (o + 4 < sz ? o : sz - 4), "...");
	else
		buf[o] = 0;
	return buf;
}

static int bad(struct cs_parser *p, const char *c, const char *end, struct cs_err *err)
{
	char tok[40];

	if (*c == '-')
		cs_seterr(err, NULL, p->line,
			  "'%s' is negative; cycles are unsigned integers, one per line",
			  token(c, end, tok, 24));
	else if (*c == 0)
		cs_seterr(err, NULL, p->line,
			  "NUL byte; is this a binary file? cycles files are text, one unsigned integer per line");
	else
		cs_seterr(err, NULL, p->line,
			  "'%s' is not an unsigned integer; expected one number per line ('#' starts a comment)",
			  token(c, end, tok, 24));
	return -1;
}

static int full(struct cs_parser *p, struct cs_samples *s, struct cs_err *err)
{
	cs_seterr(err, NULL, p->line,
		  "out of memory after %zu samples (8 bytes each); split the input", s->n);
	return -1;
}

int cs_parser_feed(struct cs_parser *p, const char *buf, size_t len,
		   struct cs_samples *s, struct cs_err *err)
{
	const char *c = buf, *end = buf + len;

	while (c < end) {
		switch (p->state) {
		case P_START:
			/*
			 * Fast path for the common "digits\n" line when the
			 * whole of it is in the buffer: 19 digits cannot
			 * overflow; anything else goes the slow way below.
			 */
			while (end - c > 24) {
				const char *l = c;
				uint64_t v = 0;
				unsigned int d;

				while ((d = (unsigned char)(*c - '0')) < 10 && c - l < 19) {
					v = v * 10 + d;
					c++;
				}
				if (c == l || *c != '\n') {
					c = l;
					break;
				}
				if (cs_samples_put(s, v))
					return full(p, s, err);
				c++;
				p->line++;
			}
			if (c == end)
				break;
			if ((unsigned char)(*c - '0') < 10) {
				p->state = P_NUM;
				p->v = 0;
				continue;
			}
			if (*c == '\n')
				p->line++;
			else if (*c == '#')
				p->state = P_COMMENT;
			else if (*c != ' ' && *c != '\t' && *c != '\r')
				return bad(p, c, end, err);
			c++;
			break;
		case P_NUM: {
			uint64_t v = p->v;
			unsigned int d;

			while (c < end && (d = (unsigned char)(*c - '0')) < 10) {
				if (__builtin_mul_overflow(v, 10, &v) ||
				    __builtin_add_overflow(v, d, &v)) {
					cs_seterr(err, NULL, p->line,
						  "value exceeds 2^64 - 1 (18446744073709551615); cycles are unsigned 64-bit integers");
					return -1;
				}
				c++;
			}
			p->v = v;
			if (c == end)
				return 0;
			if (*c != '\n' && *c != ' ' && *c != '\t' && *c != '\r' && *c != '#') {
				/* "12.5", "12abc": show the whole token */
				while (c > buf && (unsigned char)(c[-1] - '0') < 10)
					c--;
				return bad(p, c, end, err);
			}
			if (cs_samples_put(s, v))
				return full(p, s, err);
			p->state = P_AFTER;
			break;
		}
		case P_AFTER:
			if (*c == '\n') {
				p->line++;
				p->state = P_START;
			} else if (*c == '#') {
				p->state = P_COMMENT;
			} else if (*c != ' ' && *c != '\t' && *c != '\r') {
				cs_seterr(err, NULL, p->line,
					  "more than one value on the line; expected one number per line");
				return -1;
			}
			c++;
			break;
		default: {	/* P_COMMENT */
			const char *nl = memchr(c, '\n', (size_t)(end - c));

			if (!nl)
				return 0;
			c = nl + 1;
			p->line++;
			p->state = P_START;
			break;
		}
		}
	}
	return 0;
}

int cs_parser_end(struct cs_parser *p, struct cs_samples *s, struct cs_err *err)
{
	if (p->state == P_NUM) {
		if (cs_samples_push(s, p->v))
			return full(p, s, err);
		p->state = P_AFTER;
	}
	return 0;
}

static int open_in(const char *path, struct cs_err *err)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;

	if (fd < 0)
		cs_seterr(err, path, 0, "cannot open: %s%s", strerror(errno),
			  errno == EACCES ? "; debugfs results are root-only: run as root" : "");
	return fd;
}

int cs_read_cycles(const char *path, struct cs_samples *s, struct cs_err *err)
{
	struct cs_parser p;
	char *buf = malloc(CS_CHUNK);
	int fd, ret = -1;

	if (!buf) {
		cs_seterr(err, path, 0, "out of memory");
		return -1;
	}
	fd = open_in(path, err);
	if (fd < 0)
		goto free_buf;
	cs_parser_init(&p);
	for (;;) {
		ssize_t got = read(fd, buf, CS_CHUNK);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cs_seterr(err, path, p.line, "read error: %s", strerror(errno));
			goto close_fd;
		}
		if (got == 0)
			break;
		if (cs_parser_feed(&p, buf, (size_t)got, s, err))
			goto name_err;
	}
	if (cs_parser_end(&p, s, err))
		goto name_err;
	if (s->n + s->dropped == 0) {
		cs_seterr(err, path, 0,
			  "no samples (empty or only comments); a fragment's cycles file is empty until it is measured: cyclestat run FRAGMENT");
		goto close_fd;
	}
	ret = 0;
	goto close_fd;
name_err:
	snprintf(err->file, sizeof(err->file), "%s", strcmp(path, "-") ? path : "<stdin>");
close_fd:
	if (fd > 0)
		close(fd);
free_buf:
	free(buf);
	return ret;
}

/* ---- whole small files and info ---- */

int cs_read_file(const char *path, char **out, size_t *len, size_t max, struct cs_err *err)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	int fd;

	if (!buf) {
		cs_seterr(err, path, 0, "out of memory");
		return -1;
	}
	fd = open_in(path, err);
	if (fd < 0) {
		free(buf);
		return -1;
	}
	/* debugfs files say size 0: read to EOF */
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *p;

			if (cap >= max) {
				cs_seterr(err, path, 0, "larger than %zu bytes; not a cyclebench file?", max);
				goto fail;
			}
			cap *= 2;
			p = realloc(buf, cap + 1);
			if (!p) {
				cs_seterr(err, path, 0, "out of memory");
				goto fail;
			}
			buf = p;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cs_seterr(err, path, 0, "read error: %s", strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (fd > 0)
		close(fd);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
fail:
	if (fd > 0)
		close(fd);
	free(buf);
	return -1;
}

void cs_info_free(struct cs_info *info)
{
	for (size_t i = 0; i < info->n; i++) {
		free(info->kv[i].key);
		free(info->kv[i].val);
	}
	free(info->kv);
	info->kv = NULL;
	info->n = 0;
}

int cs_parse_info(const char *path, const char *buf, size_t len,
		  struct cs_info *info, struct cs_err *err)
{
	const char *c = buf, *end = buf + len;
	unsigned long long line = 1;

	for (; c < end; line++) {
		const char *nl = memchr(c, '\n', (size_t)(end - c));
		const char *eol = nl ? nl : end, *colon, *v, *ve;
		struct cs_kv *kv;

		if (memchr(c, 0, (size_t)(eol - c))) {
			cs_seterr(err, path, line, "NUL byte; info files are 'key: value' text");
			goto fail;
		}
		ve = eol;
		while (ve > c && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
			ve--;
		if (ve == c) {
			c = eol + 1;
			continue;
		}
		colon = memchr(c, ':', (size_t)(ve - c));
		if (!colon || colon == c) {
			cs_seterr(err, path, line, "expected 'key: value'");
			goto fail;
		}
		for (v = colon + 1; v < ve && (*v == ' ' || *v == '\t'); v++)
			;
		kv = realloc(info->kv, (info->n + 1) * sizeof(*kv));
		if (!kv)
			goto nomem;
		info->kv = kv;
		kv[info->n].key = strndup(c, (size_t)(colon - c));
		kv[info->n].val = strndup(v, (size_t)(ve - v));
		info->n++;
		if (!kv[info->n - 1].key || !kv[info->n - 1].val)
			goto nomem;
		c = eol + 1;
	}
	return 0;
nomem:
	cs_seterr(err, path, line, "out of memory");
fail:
	cs_info_free(info);
	return -1;
}

int cs_read_info(const char *path, struct cs_info *info, struct cs_err *err)
{
	char *buf;
	size_t len;
	int ret;

	if (cs_read_file(path, &buf, &len, CS_INFO_MAX, err))
		return -1;
	ret = cs_parse_info(path, buf, len, info, err);
	free(buf);
	return ret;
}

/* The info keys' names: the format's one list (include/cyclebench/contract-info.h) */
static const char *const info_names[CB_NR_INFO_KEYS] = {
#define CB_INFO(k, t, tree, result) [CB_INFO_##k] = #k,
#include "contract-info.h"
#undef CB_INFO
};

const char *cs_info_name(enum cb_info_key key)
{
	return info_names[key];
}

const char *cs_info_get(const struct cs_info *info, enum cb_info_key key)
{
	for (size_t i = 0; i < info->n; i++)
		if (!strcmp(info->kv[i].key, info_names[key]))
			return info->kv[i].val;
	return NULL;
}

const char *const cs_state_names[CB_NR_STATES] = CB_STATE_NAMES;

/*
 * A result's state: as its info names it; ok where it names none (a tree
 * written before the key) or a word no program writes.
 */
enum cb_state cs_state(const struct cs_info *info)
{
	const char *s = cs_info_get(info, CB_INFO_state);

	for (int i = 0; s && i < CB_NR_STATES; i++)
		if (!strcmp(s, cs_state_names[i]))
			return (enum cb_state)i;
	return CB_STATE_OK;
}

/* 1: absent, 0: *v set, -1: malformed */
int cs_info_u64(const struct cs_info *info, const char *path, enum cb_info_key key,
		uint64_t *v, struct cs_err *err)
{
	const char *s = cs_info_get(info, key);
	char *endp;

	if (!s)
		return 1;
	errno = 0;
	*v = strtoull(s, &endp, 10);
	if (!*s || *endp || errno || *s == '-' || *s == '+' || *s == ' ') {
		cs_seterr(err, path, 0, "'%s: %s' is not an unsigned integer", info_names[key], s);
		return -1;
	}
	return 0;
}

