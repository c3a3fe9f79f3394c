/*
 * test_errkind.c - jenc_err.kind: for each JENC_K_* of jenc.h, the input
 * jenc.h and jenc(3) give for it, read by the JSON reader (its fast and
 * its exact walk, and on threads from a file) or the CSV reader, gives
 * that kind with the code, line and column of its spot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

struct kcase {
	const char *name;
	int kind, code;
	const char *in;
	unsigned flags;		/* JENC_READ_* or JENC_CSV_* */
	unsigned depth;		/* JSON: max_depth */
	int view;		/* JSON: through a JENC_VIEW_RECORDS view */
	uint64_t line, col;
};

static const struct kcase json_cases[] = {
	{ "cut: array", JENC_K_CUT, JENC_E_SYNTAX, "[1, 2", 0, 0, 0, 1, 6 },
	{ "cut: string", JENC_K_CUT, JENC_E_SYNTAX, "\"abc", 0, 0, 0, 1, 1 },
	{ "cut: member", JENC_K_CUT, JENC_E_SYNTAX, "{\"a\":", 0, 0, 0, 1, 6 },
	{ "cut: empty, single", JENC_K_CUT, JENC_E_SYNTAX, "",
	    JENC_READ_SINGLE, 0, 0, 1, 1 },
	{ "cut: comment", JENC_K_CUT, JENC_E_SYNTAX, "[1 /* x",
	    JENC_READ_JSONC, 0, 0, 1, 4 },
	{ "cut: RS", JENC_K_CUT, JENC_E_SYNTAX, "\x1e[1,\x1e[2]\n",
	    JENC_READ_SEQ, 0, 0, 1, 5 },
	{ "byte", JENC_K_BYTE, JENC_E_SYNTAX, "[\"a\xff\"]", 0, 0, 0, 1, 4 },
	{ "escape", JENC_K_ESCAPE, JENC_E_SYNTAX, "\"a\\x\"", 0, 0, 0, 1, 3 },
	{ "escape: \\u", JENC_K_ESCAPE, JENC_E_SYNTAX, "\"\\u12\"", 0, 0, 0,
	    1, 2 },
	{ "control", JENC_K_CONTROL, JENC_E_SYNTAX, "\"a\tb\"", 0, 0, 0,
	    1, 3 },
	{ "number", JENC_K_NUMBER, JENC_E_SYNTAX, "[01]", 0, 0, 0, 1, 2 },
	{ "number: 1.", JENC_K_NUMBER, JENC_E_SYNTAX, "1.\n", 0, 0, 0, 1, 1 },
	{ "number: -", JENC_K_NUMBER, JENC_E_SYNTAX, "-", 0, 0, 0, 1, 1 },
	{ "number: 1e", JENC_K_NUMBER, JENC_E_SYNTAX, "[1e]", 0, 0, 0, 1, 2 },
	{ "literal", JENC_K_LITERAL, JENC_E_SYNTAX, "[tru]", 0, 0, 0, 1, 2 },
	{ "literal: True", JENC_K_LITERAL, JENC_E_SYNTAX, "True", 0, 0, 0,
	    1, 1 },
	{ "literal: nul", JENC_K_LITERAL, JENC_E_SYNTAX, "[nul]", 0, 0, 0,
	    1, 2 },
	{ "token", JENC_K_TOKEN, JENC_E_SYNTAX, "[1 2]", 0, 0, 0, 1, 4 },
	{ "token: member", JENC_K_TOKEN, JENC_E_SYNTAX, "{\"a\" 1}", 0, 0, 0,
	    1, 6 },
	{ "token: line 2", JENC_K_TOKEN, JENC_E_SYNTAX, "{}\n]", 0, 0, 0,
	    2, 1 },
	{ "token: ]", JENC_K_TOKEN, JENC_E_SYNTAX, "]", 0, 0, 0, 1, 1 },
	{ "token: key", JENC_K_TOKEN, JENC_E_SYNTAX, "{1:2}", 0, 0, 0, 1, 2 },
	{ "depth", JENC_K_DEPTH, JENC_E_DEPTH, "[[1]]", 0, 1, 0, 1, 2 },
	{ "second", JENC_K_SECOND, JENC_E_SYNTAX, "1 2", JENC_READ_SINGLE, 0,
	    0, 1, 3 },
	{ "record", JENC_K_RECORD, JENC_E_SYNTAX, "{\"a\":1}\n5\n", 0, 0, 1,
	    2, 1 },
	/* a whole array is told at its closing bracket */
	{ "record: [1]", JENC_K_RECORD, JENC_E_SYNTAX, "[1]", 0, 0, 1, 1, 3 },
	{ "view", JENC_K_VIEW, JENC_E_SYNTAX, "{\"bad\":1}\n", 0, 0, 1,
	    1, 9 },
	{ "encoding", JENC_K_ENCODING, JENC_E_ENCODING, "[\0\"\0", 0, 0, 0,
	    1, 1 },
};

static const struct kcase csv_cases[] = {
	{ "csv: byte", JENC_K_BYTE, JENC_E_SYNTAX, "a\nx\xff\n", 0, 0, 0,
	    2, 2 },
	{ "csv: NUL", JENC_K_BYTE, JENC_E_SYNTAX, "a\nx\0\n", 0, 0, 0, 2, 2 },
	/* column 0: the whole record (the line's start shown) */
	{ "csv: fields", JENC_K_FIELDS, JENC_E_SYNTAX, "a,b\n1\n", 0, 0, 0,
	    2, 0 },
	{ "csv: quote", JENC_K_QUOTE, JENC_E_SYNTAX, "a\n\"1\n", 0, 0, 0,
	    2, 1 },
	{ "csv: long", JENC_K_LONG, JENC_E_SYNTAX, "a\n12345\n", 0, 0, 0,
	    2, 1 },
	{ "csv: names", JENC_K_NAMES, JENC_E_SYNTAX, "a,a.b\n1,2\n",
	    JENC_CSV_NEST, 0, 0, 1, 0 },
};

/* The length of a case's input: up to its last non-NUL byte, NULs kept
 * inside it (the encoding and CSV NUL cases). */
static size_t
in_len(const struct kcase *c)
{
	if (c->kind == JENC_K_ENCODING)
		return 4;
	if (strcmp(c->name, "csv: NUL") == 0)
		return 5;
	return strlen(c->in);
}

static int
tv_value(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	(void)ctx;
	if (len >= 5 && memcmp(json, "{\"bad", 5) == 0)
		return jenc_view_reject(e, "a bad record");
	return jenc_view_write(e, json, len);
}

/* c read by the JSON reader with extra read flags rf, from memory, or on
 * threads from a file when par is set. */
static int
read_json(const struct kcase *c, unsigned rf, int par, jenc_err *err)
{
	jenc_read_opts ro = { c->flags | rf, c->depth, NULL, NULL, NULL };
	jenc_view v = { tv_value, NULL, NULL, NULL, JENC_VIEW_RECORDS, NULL };
	jenc_enc *e = jenc_get_mem(NULL);
	int rc;

	if (e == NULL || (c->view && jenc_set_view(e, &v) != 0))
		abort();
	memset(err, 0x55, sizeof(*err));
	if (par) {
		char path[] = "/tmp/jenc_errkind.XXXXXX";
		int fd = mkstemp(path);

		if (fd < 0 || write(fd, c->in, in_len(c)) != (ssize_t)in_len(c))
			abort();
		(void)unlink(path);
		if (lseek(fd, 0, SEEK_SET) != 0)
			abort();
		rc = jenc_json_copy_fd_par(fd, e, &ro, err, 2, 2);
		(void)close(fd);
	} else {
		rc = jenc_json_copy_mem(c->in, in_len(c), e, &ro, err);
	}
	(void)jenc_release(e);
	return rc;
}

static int
read_csv(const struct kcase *c, jenc_err *err)
{
	jenc_csv_opts co;
	jenc_enc *e = jenc_get_mem(NULL);
	int rc;

	memset(&co, 0, sizeof(co));
	co.flags = c->flags;
	if (c->kind == JENC_K_LONG)
		co.max_record = 4;
	if (e == NULL)
		abort();
	memset(err, 0x55, sizeof(*err));
	rc = jenc_csv_copy_mem(c->in, in_len(c), e, &co, err);
	(void)jenc_release(e);
	return rc;
}

static void
check(const struct kcase *c, const char *how, int rc, const jenc_err *err)
{
	char name[96];

	snprintf(name, sizeof(name), "%s (%s)", c->name, how);
	TEST(name) {
		CHECK_EQ(rc, c->code);
		CHECK_EQ(err->code, c->code);
		CHECK_EQ(err->kind, c->kind);
		CHECK_EQ(err->line, c->line);
		CHECK_EQ(err->col, c->col);
		if (err->kind != c->kind || err->line != c->line ||
		    err->col != c->col)
			fprintf(stderr, "  kind %d, %llu:%llu: %s\n", err->kind,
			    (unsigned long long)err->line,
			    (unsigned long long)err->col, err->msg);
	}
}

int
main(void)
{
	jenc_err err;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(json_cases) / sizeof(json_cases[0]); i++) {
		const struct kcase *c = &json_cases[i];

		rc = read_json(c, 0, 0, &err);
		check(c, "fast walk", rc, &err);
		rc = read_json(c, JENC_READ_EXACT, 0, &err);
		check(c, "exact walk", rc, &err);
		if (c->kind != JENC_K_ENCODING && !(c->flags & JENC_READ_SEQ)) {
			rc = read_json(c, 0, 1, &err);
			check(c, "threads", rc, &err);
		}
	}
	for (i = 0; i < sizeof(csv_cases) / sizeof(csv_cases[0]); i++) {
		rc = read_csv(&csv_cases[i], &err);
		check(&csv_cases[i], "csv", rc, &err);
	}
	TEST("not bad input: a bad color spec is JENC_K_NONE") {
		jenc_colors col;

		memset(&err, 0x55, sizeof(err));
		CHECK_EQ(jenc_colors_parse(&col, "1;2;x", &err),
		    JENC_E_SYNTAX);
		CHECK_EQ(err.kind, JENC_K_NONE);
	}
	TEST("jenc_err: kind in the tail padding, the size unchanged") {
		CHECK(sizeof(size_t) != 8 || sizeof(jenc_err) == 592);
	}
	return harness_done();
}
