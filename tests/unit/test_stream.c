/*
 * test_stream.c - the stream flags: JENC_SPLIT, JENC_SLURP, JENC_SEQ and
 * JENC_FLUSH_EACH, alone, together, through the reader, with JENC_HOLD and
 * jenc_discard.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"

static jenc_enc *
mem(unsigned indent, unsigned flags)
{
	jenc_opts o = { indent, flags, 0 };
	jenc_enc *e = jenc_get_mem(&o);

	if (e == NULL)
		abort();
	return e;
}

/* The JSON text in through the reader; rc gets its result. */
static char *
through(const char *in, unsigned indent, unsigned flags, size_t *n, int *rc)
{
	jenc_enc *e = mem(indent, flags);
	char *out;

	*rc = jenc_json_copy_mem(in, strlen(in), e, NULL, NULL);
	if ((flags & JENC_SLURP) && *rc == 0)
		*rc = jenc_arr_end(e);
	out = jenc_take(e, n);
	jenc_release(e);
	return out;
}

#define CHECK_THROUGH(in, indent, flags, wantrc, want) do { \
	size_t xn_; \
	int xrc_; \
	char *xp_ = through((in), (indent), (flags), &xn_, &xrc_); \
	CHECK_EQ(xrc_, (wantrc)); \
	CHECK_STR(xp_, xn_, (want)); \
	free(xp_); \
} while (0)

/* A sink that records what it is given, call by call. */
struct coll {
	char buf[4096];
	size_t len;
	unsigned calls;
};

static int
coll_sink(void *ctx, const char *buf, size_t len)
{
	struct coll *c = ctx;

	c->calls++;
	if (c->len + len + 2 >= sizeof(c->buf))
		return 1;
	memcpy(c->buf + c->len, buf, len);
	c->len += len;
	c->buf[c->len++] = '|';	/* the end of one call */
	return 0;
}

static jenc_enc *
sink(struct coll *c, unsigned indent, unsigned flags)
{
	jenc_opts o = { indent, flags, 0 };
	jenc_enc *e;

	memset(c, 0, sizeof(*c));
	if ((e = jenc_get_sink(coll_sink, c, &o)) == NULL)
		abort();
	return e;
}

int
main(void)
{
	TEST("JENC_SPLIT: each element of a top-level array on its own") {
		CHECK_THROUGH("[1,[2,[3]],{\"a\":[]},\"s\"]", 0, JENC_SPLIT, 0,
		    "1\n[2,[3]]\n{\"a\":[]}\n\"s\"\n");
		CHECK_THROUGH("[{\"a\":[1]}]", 2, JENC_SPLIT, 0,
		    "{\n  \"a\": [\n    1\n  ]\n}\n");
		CHECK_THROUGH("[] {\"x\":[1]} 2 [[]] []", 0, JENC_SPLIT, 0,
		    "{\"x\":[1]}\n2\n[]\n");
		/* the elements are top-level values: a second one is one too many */
		CHECK_THROUGH("[1,2]", 0, JENC_SPLIT | JENC_NO_NEWLINE,
		    JENC_E_SECOND, "1");
	}

	TEST("JENC_SPLIT: the split array counts in jenc_depth, ends the value") {
		jenc_enc *e = mem(0, JENC_SPLIT);

		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_depth(e), 1);
		CHECK_EQ(jenc_key(e, "k", 1), JENC_E_STATE);
		jenc_release(e);

		e = mem(0, JENC_SPLIT);
		jenc_arr_begin(e);
		jenc_i64(e, 1);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_arr_end(e), JENC_E_STATE);
		jenc_reset(e);
		jenc_arr_begin(e);
		jenc_i64(e, 2);
		CHECK_TAKE(e, "2\n");
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);
	}

	TEST("JENC_SPLIT with JENC_HOLD: a bad element k leaves 1..k-1 whole") {
		struct coll c;
		jenc_enc *e = sink(&c, 0, JENC_SPLIT | JENC_HOLD);
		jenc_err err;
		const char *in = "[{\"a\":1},[2,3],{\"b\":[4,]}]";

		CHECK_EQ(jenc_json_copy_mem(in, strlen(in), e, NULL, &err),
		    JENC_E_SYNTAX);
		CHECK_EQ(err.col, 24);
		CHECK_EQ(err.cut, 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "{\"a\":1}\n[2,3]\n|");
	}

	TEST("JENC_SLURP: the top-level values are one array") {
		CHECK_THROUGH("1 [2] {\"a\":3}", 0, JENC_SLURP, 0,
		    "[1,[2],{\"a\":3}]\n");
		CHECK_THROUGH("1 [2] {\"a\":3}", 2, JENC_SLURP, 0,
		    "[\n  1,\n  [\n    2\n  ],\n  {\n    \"a\": 3\n  }\n]\n");
		CHECK_THROUGH("[{}]", 0, JENC_SLURP | JENC_TAB, 0,
		    "[\n\t[\n\t\t{}\n\t]\n]\n");
		CHECK_THROUGH("", 0, JENC_SLURP, 0, "[]\n");
		CHECK_THROUGH("", 2, JENC_SLURP, 0, "[]\n");
		CHECK_THROUGH("\"s\"", 0, JENC_SLURP | JENC_NO_NEWLINE, 0,
		    "[\"s\"]");
	}

	TEST("JENC_SLURP: jenc_arr_end closes, a later value opens another") {
		jenc_enc *e = mem(0, JENC_SLURP);

		CHECK_EQ(jenc_depth(e), 0);
		jenc_i64(e, 1);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		jenc_str(e, "x", 1);
		jenc_arr_end(e);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_TAKE(e, "[1]\n[\"x\"]\n[]\n");
		jenc_null(e);
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);

		e = mem(0, JENC_SLURP | JENC_NO_NEWLINE);
		jenc_i64(e, 1);
		jenc_arr_end(e);
		CHECK_EQ(jenc_i64(e, 2), JENC_E_SECOND);
		CHECK_TAKE(e, "[1]");
		jenc_release(e);
	}

	TEST("JENC_SLURP with JENC_HOLD: an error drops only its element") {
		struct coll c;
		jenc_enc *e = sink(&c, 0, JENC_SLURP | JENC_HOLD);
		const char *in = "1\n{\"a\":[2,}\n";

		CHECK_EQ(jenc_json_copy_mem(in, strlen(in), e, NULL, NULL),
		    JENC_E_SYNTAX);
		in = "3";
		CHECK_EQ(jenc_json_copy_mem(in, strlen(in), e, NULL, NULL), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "[1|,3]\n|");

		/* the first element bad: its '[' goes with it */
		e = sink(&c, 0, JENC_SLURP | JENC_HOLD);
		jenc_obj_begin(e);
		CHECK_EQ(jenc_discard(e), 0);
		jenc_i64(e, 4);
		jenc_arr_end(e);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "[4]\n|");
	}

	TEST("JENC_SLURP with JENC_SPLIT: split arrays' elements are elements") {
		CHECK_THROUGH("[1,2] [] 3 [[4]]", 0, JENC_SLURP | JENC_SPLIT, 0,
		    "[1,2,3,[4]]\n");
		CHECK_THROUGH("[]", 0, JENC_SLURP | JENC_SPLIT, 0, "[]\n");
	}

	TEST("JENC_SEQ: RS before each top-level value") {
		CHECK_THROUGH("1 {\"a\":2}", 0, JENC_SEQ, 0,
		    "\0361\n\036{\"a\":2}\n");
		CHECK_THROUGH("[1,[2]]", 2, JENC_SEQ | JENC_SPLIT, 0,
		    "\0361\n\036[\n  2\n]\n");
		CHECK_THROUGH("1 2", 0, JENC_SEQ | JENC_SLURP, 0, "\036[1,2]\n");
		CHECK_THROUGH("", 0, JENC_SEQ | JENC_SLURP, 0, "\036[]\n");

		jenc_enc *e = mem(0, JENC_SEQ);
		jenc_str(e, "s", 1);
		jenc_raw(e, "7", 1);
		jenc_frag_begin(e);
		jenc_frag(e, "[8]", 3);
		jenc_frag_end(e);
		CHECK_TAKE(e, "\036\"s\"\n\0367\n\036[8]\n");
		jenc_release(e);
	}

	TEST("JENC_SEQ and JENC_SLURP keep the reader's verbatim mode") {
		jenc_enc *e = mem(0, JENC_SEQ | JENC_SLURP);

		CHECK_EQ(jenc_verbatim(e), 1);
		jenc_release(e);
		e = mem(0, JENC_SPLIT);
		CHECK_EQ(jenc_verbatim(e), 0);
		jenc_release(e);
	}

	TEST("JENC_FLUSH_EACH: one write per top-level value") {
		struct coll c;
		jenc_enc *e = sink(&c, 0, JENC_FLUSH_EACH);
		const char *in = "1 {\"a\":2}\n[3]";

		CHECK_EQ(jenc_json_copy_mem(in, strlen(in), e, NULL, NULL), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "1\n|{\"a\":2}\n|[3]\n|");

		e = sink(&c, 0, JENC_FLUSH_EACH | JENC_SPLIT | JENC_HOLD);
		in = "[1,{\"b\":2}] 3";
		CHECK_EQ(jenc_json_copy_mem(in, strlen(in), e, NULL, NULL), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "1\n|{\"b\":2}\n|3\n|");

		e = sink(&c, 0, JENC_FLUSH_EACH | JENC_SLURP);
		jenc_i64(e, 1);
		jenc_i64(e, 2);
		jenc_arr_end(e);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "[1|,2|]\n|");

		/* without it, the values wait for a full segment */
		e = sink(&c, 0, 0);
		jenc_i64(e, 1);
		jenc_i64(e, 2);
		CHECK_EQ(c.calls, 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "1\n2\n|");
	}

	TEST("every flag at once, through the reader") {
		CHECK_THROUGH("[{\"b\":1,\"a\":[2]},3]", 0, JENC_SPLIT | JENC_SLURP |
		    JENC_SEQ | JENC_SORT_KEYS | JENC_FLUSH_EACH | JENC_HOLD, 0,
		    "\036[{\"a\":[2],\"b\":1},3]\n");
	}

	return harness_done();
}
