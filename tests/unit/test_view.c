/*
 * test_view.c - views (jenc_set_view): each top-level value handed to the
 * view as compact text and replaced by what it writes; text passed
 * through; the end call; rejected values and JENC_VIEW_RECORDS through
 * the JSON reader, with each error policy; no allocation per value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jenc.h"

/* The test view: "<len>:<json>\n" per value, "T<len>\n" per text passed,
 * "end <n>\n" at the end; rejects a value holding "bad". */
struct tv {
	int values, texts, ends;
};

static int
has_bad(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 3 <= n; i++)
		if (memcmp(p + i, "bad", 3) == 0)
			return 1;
	return 0;
}

static int
tv_value(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	struct tv *t = ctx;
	char head[32];
	int n = snprintf(head, sizeof(head), "%zu:", len);

	t->values++;
	if (has_bad(json, len))
		return jenc_view_reject(e, "the record holds bad");
	if (jenc_view_write(e, head, (size_t)n) != 0 ||
	    jenc_view_write(e, json, len) != 0 ||
	    jenc_view_write(e, "\n", 1) != 0)
		return jenc_error(e);
	return 0;
}

static int
tv_text(void *ctx, jenc_enc *e, const char *p, size_t len)
{
	struct tv *t = ctx;
	char head[32];
	int n = snprintf(head, sizeof(head), "T%zu\n", len);

	(void)p;
	t->texts++;
	return jenc_view_write(e, head, (size_t)n);
}

static int
tv_end(void *ctx, jenc_enc *e)
{
	struct tv *t = ctx;
	char line[32];
	int n = snprintf(line, sizeof(line), "end %d\n", t->values);

	t->ends++;
	return jenc_view_write(e, line, (size_t)n);
}

struct sinkbuf {
	char p[4096];
	size_t len;
};

static int
sink(void *ctx, const char *p, size_t n)
{
	struct sinkbuf *b = ctx;

	if (b->len + n >= sizeof(b->p))
		return 1;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

/* Read in[] through a view on a sink encoder with opts flags and read
 * flags rf; out gets the output, *rc the reader's result. */
static void
run(const char *in, unsigned flags, unsigned vflags, unsigned rf,
    struct sinkbuf *out, struct tv *t, jenc_err *err, int *rc, int *rel)
{
	jenc_opts o = { 2, flags, 0 };
	jenc_view v = { tv_value, tv_text, tv_end, t, vflags, NULL };
	jenc_read_opts ro = { rf, 0, NULL, NULL, NULL };
	jenc_enc *e;

	memset(out, 0, sizeof(*out));
	memset(t, 0, sizeof(*t));
	e = jenc_get_sink(sink, out, &o);
	if (e == NULL || jenc_set_view(e, &v) != 0)
		abort();
	*rc = jenc_json_copy_mem(in, strlen(in), e, &ro, err);
	*rel = jenc_release(e);
}

int
main(void)
{
	struct sinkbuf out;
	struct tv t;
	jenc_err err;
	int rc, rel;

	TEST("view: each value compact, replaced by the view's output") {
		run("{\"a\": [1, 2]}\n\"s\"\n[ ]", 0, 0, 0, &out, &t, &err,
		    &rc, &rel);
		CHECK(rc == 0);
		CHECK(rel == 0);
		CHECK(strcmp(out.p, "11:{\"a\":[1,2]}\n3:\"s\"\n2:[]\nend 3\n")
		    == 0);
		CHECK(t.ends == 1);
	}

	TEST("view: JENC_SPLIT elements are the values") {
		run("[{\"a\":1},\n {\"b\": {\"c\": null}}]", JENC_SPLIT, 0, 0,
		    &out, &t, &err, &rc, &rel);
		CHECK(rc == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\n16:{\"b\":{\"c\":null}}\nend 2\n")
		    == 0);
	}

	TEST("view: a value longer than a segment is gathered whole") {
		static char big[200000];
		size_t i;

		big[0] = '"';
		for (i = 1; i < 150000; i++)
			big[i] = (char)('a' + i % 26);
		big[i++] = '"';
		big[i] = '\0';
		{
			jenc_opts o = { 0, 0, 0 };
			struct tv tt;
			jenc_view v = { tv_value, NULL, NULL, &tt, 0, NULL };
			jenc_enc *e = jenc_get_mem(&o);
			char *p;
			size_t n;

			memset(&tt, 0, sizeof(tt));
			CHECK(jenc_set_view(e, &v) == 0);
			CHECK(jenc_json_copy_mem(big, strlen(big), e, NULL,
			    NULL) == 0);
			p = jenc_take(e, &n);
			CHECK(n == 7 + 150001 + 1);
			CHECK(memcmp(p, "150001:", 7) == 0);
			CHECK(memcmp(p + 7, big, 150001) == 0);
			CHECK(p[n - 1] == '\n');
			jenc_free(p, n);
			CHECK(jenc_release(e) == 0);
		}
	}

	TEST("view: a rejected value is bad input at its closing bracket") {
		run("{\"a\":1}\n{\"a\":\n \"bad\"}\n{\"a\":2}\n", 0, 0, 0, &out,
		    &t, &err, &rc, &rel);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(err.line == 3);
		CHECK(err.col == 7);
		CHECK(strcmp(err.msg, "the record holds bad") == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\nend 2\n") == 0);
	}

	TEST("view: a rejected value skipped, passed through the text call") {
		run("{\"a\":1}\n{\"a\":\n \"bad\"}\n{\"a\":2}\n", 0, 0,
		    JENC_READ_SKIP, &out, &t, &err, &rc, &rel);
		CHECK(rc == 0);
		CHECK(err.code == JENC_E_SYNTAX);
		CHECK(strcmp(out.p, "7:{\"a\":1}\n7:{\"a\":2}\nend 3\n") == 0);
		run("{\"a\":1}\n{\"a\":\n \"bad\"}\n{\"a\":2}\n", 0, 0,
		    JENC_READ_PASS, &out, &t, &err, &rc, &rel);
		CHECK(rc == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\nT14\n7:{\"a\":2}\nend 3\n")
		    == 0);
		CHECK(t.texts == 1);
	}

	TEST("view: JENC_VIEW_RECORDS rejects a value that is not an object") {
		run("{\"a\":1}\n  5\n{\"a\":2}\n", 0, JENC_VIEW_RECORDS, 0, &out,
		    &t, &err, &rc, &rel);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(err.line == 2);
		CHECK(err.col == 3);
		CHECK(strcmp(err.msg,
		    "expected an object as a record, found '5'") == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\nend 1\n") == 0);
		run("[{\"a\":1}, [2]]", JENC_SPLIT, JENC_VIEW_RECORDS, 0, &out,
		    &t, &err, &rc, &rel);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(err.col == 11);
		CHECK(strcmp(err.msg,
		    "expected an object as a record, found '['") == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\nend 1\n") == 0);
		run("{\"a\":1}\n\"x\"\n{\"a\":2}\n", 0, JENC_VIEW_RECORDS,
		    JENC_READ_SKIP, &out, &t, &err, &rc, &rel);
		CHECK(rc == 0);
		CHECK(err.line == 2);
		CHECK(strcmp(out.p, "7:{\"a\":1}\n7:{\"a\":2}\nend 2\n") == 0);
	}

	TEST("view: whole values copied as text, a top-level array at its end") {
		/* no JENC_SPLIT: the reader copies runs of each value's text */
		run("{\"a\": 1}\n[{\"a\": 2},\n 3]\n{\"a\": 4}\n", 0,
		    JENC_VIEW_RECORDS, 0, &out, &t, &err, &rc, &rel);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(err.line == 3);
		CHECK(err.col == 3);
		CHECK(strcmp(err.msg,
		    "expected an object as a record, found an array") == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\nend 1\n") == 0);
		run("{\"a\": 1}\n[{\"a\": 2},\n 3]\n{\"a\": 4}\n", 0,
		    JENC_VIEW_RECORDS, JENC_READ_SKIP, &out, &t, &err, &rc, &rel);
		CHECK(rc == 0);
		CHECK(strcmp(out.p, "7:{\"a\":1}\n7:{\"a\":4}\nend 2\n") == 0);
	}

	TEST("view: misuse is JENC_E_STATE") {
		jenc_opts o = { 0, 0, 0 };
		jenc_enc *e = jenc_get_mem(&o);
		jenc_view v = { tv_value, NULL, NULL, &t, 0, NULL };
		jenc_view nov = { NULL, NULL, NULL, NULL, 0, NULL };

		CHECK(jenc_view_write(e, "x", 1) == JENC_E_STATE);
		jenc_reset(e);
		CHECK(jenc_set_view(e, &nov) == JENC_E_STATE);
		jenc_reset(e);
		CHECK(jenc_obj_begin(e) == 0);
		CHECK(jenc_set_view(e, &v) == JENC_E_STATE);
		jenc_reset(e);
		CHECK(jenc_set_view(e, &v) == 0);
		CHECK(jenc_set_view(e, &v) == JENC_E_STATE);
		CHECK(jenc_release(e) == JENC_E_STATE);
	}

	TEST("view: no allocation per value in steady state") {
		static char in[64 * 1024];
		jenc_pool_stats a, b;
		size_t n = 0;
		int i;

		for (i = 0; i < 2000; i++)
			n += (size_t)snprintf(in + n, sizeof(in) - n,
			    "{\"k\":%d,\"s\":\"v%d\"}\n", i, i);
		{
			jenc_opts o = { 0, 0, 0 };
			struct tv tt;
			jenc_view v = { tv_value, NULL, NULL, &tt, 0, NULL };
			jenc_enc *e;
			char dummy[1];

			/* warm the pools: the same run once */
			(void)dummy;
			e = jenc_get_mem(&o);
			memset(&tt, 0, sizeof(tt));
			CHECK(jenc_set_view(e, &v) == 0);
			CHECK(jenc_json_copy_mem(in, n, e, NULL, NULL) == 0);
			jenc_reset(e);
			jenc_pool_stats_get(&a);
			CHECK(jenc_json_copy_mem(in, n, e, NULL, NULL) == 0);
			jenc_pool_stats_get(&b);
			CHECK(tt.values == 4000);
			/* the reader's window and tables, the segments the
			 * output fills: none per value */
			CHECK(b.mallocs - a.mallocs < 40);
			CHECK(jenc_release(e) == 0);
		}
	}

	return harness_done();
}
