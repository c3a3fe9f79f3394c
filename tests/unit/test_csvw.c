/*
 * test_csvw.c - the CSV/TSV writer (jenc_csvw): options refused, columns
 * from the header, a first pass or the first record, the rows of nested
 * records, rejected records through the JSON reader, one header line for
 * several encoders, no allocation per record once warm, the first
 * pass without the reader (jenc_csvw_keys_fd) against the reader's, and
 * the names of a CSV header with no record (JENC_VIEW_NAMES).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

static int
discard(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return 0;
}

struct out {
	char p[8192];
	size_t len;
};

static int
sink(void *ctx, const char *p, size_t n)
{
	struct out *o = ctx;

	if (o->len + n >= sizeof(o->p))
		return 1;
	memcpy(o->p + o->len, p, n);
	o->len += n;
	o->p[o->len] = '\0';
	return 0;
}

/* in[] through w onto a sink: the rows in out, the reader's result in
 * *rc; with scan, a first pass collects the columns. */
static void
run(jenc_csvw *w, int scan, const char *in, struct out *out, int *rc,
    jenc_err *err)
{
	jenc_opts o = { 0, JENC_SPLIT, 0 };
	jenc_view v;
	jenc_enc *e;

	if (scan) {
		e = jenc_get_mem(&o);
		jenc_csvw_view(w, 1, &v);
		if (e == NULL || jenc_set_view(e, &v) != 0)
			abort();
		(void)jenc_json_copy_mem(in, strlen(in), e, NULL, err);
		if (jenc_len(e) != 0)
			abort();
		jenc_release(e);
	}
	out->len = 0;
	out->p[0] = '\0';
	e = jenc_get_sink(sink, out, &o);
	jenc_csvw_view(w, 0, &v);
	if (e == NULL || jenc_set_view(e, &v) != 0)
		abort();
	*rc = jenc_json_copy_mem(in, strlen(in), e, NULL, err);
	if (jenc_release(e) != 0)
		abort();
}

/* A view that notes what it is given: values and names, their text. */
struct seen {
	int values, names;
	char text[256];
};

static int
seen_value(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	struct seen *s = ctx;

	(void)e;
	(void)json;
	(void)len;
	s->values++;
	return 0;
}

static int
seen_names(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	struct seen *s = ctx;

	(void)e;
	s->names++;
	snprintf(s->text, sizeof(s->text), "%.*s", (int)len, json);
	return 0;
}

/* in[] (CSV, with co) through a view of seen's, with names or not; e's
 * output in out. */
static int
seen_run(struct seen *s, int names, unsigned eflags, const char *in,
    const jenc_csv_opts *co, struct out *out)
{
	jenc_opts o = { 0, 0, 0 };
	jenc_view v = { seen_value, NULL, NULL, NULL, JENC_VIEW_RECORDS,
	    NULL };
	jenc_enc *e;
	jenc_err err;
	int rc;

	o.flags = eflags;
	memset(s, 0, sizeof(*s));
	v.ctx = s;
	if (names) {
		v.flags |= JENC_VIEW_NAMES;
		v.names = seen_names;
	}
	out->len = 0;
	out->p[0] = '\0';
	if ((e = jenc_get_sink(sink, out, &o)) == NULL ||
	    jenc_set_view(e, &v) != 0)
		abort();
	rc = jenc_csv_copy_mem(in, strlen(in), e, co, &err);
	if (jenc_release(e) != 0)
		abort();
	return rc;
}


/* ---- a failing allocator (as test_nomem.c's) ---------------------------- */

struct fa {
	uint64_t calls, fail_at;
	long long live;
	uint64_t bad_size, zero;
};

static struct fa fa;

#define HDR 16

static void *
fa_malloc(void *ctx, size_t n)
{
	struct fa *f = ctx;
	unsigned char *p;

	if (n == 0)
		f->zero++;
	if (++f->calls == f->fail_at)
		return NULL;
	if ((p = malloc(HDR + n)) == NULL)
		abort();
	memcpy(p, &n, sizeof(n));
	f->live++;
	return p + HDR;
}

static void
fa_free(void *ctx, void *q, size_t n)
{
	struct fa *f = ctx;
	unsigned char *p = (unsigned char *)q - HDR;
	size_t was;

	memcpy(&was, p, sizeof(was));
	if (was != n)
		f->bad_size++;
	f->live--;
	free(p);
}

/* The bytes e holds, into out (at most cap); their number. */
static size_t
held_bytes(const jenc_enc *e, char *out, size_t cap)
{
	size_t it = 0, len, n = 0;
	const char *p;

	while ((p = jenc_segments(e, &it, &len)) != NULL) {
		if (n + len > cap)
			abort();
		memcpy(out + n, p, len);
		n += len;
	}
	return n;
}

/* in[] to CSV with a fresh writer on a memory encoder, into out; returns
 * the reader's result, or the code of the call that failed first. */
static int
to_csv(const char *in, char *out, size_t cap, size_t *n)
{
	jenc_opts o = { 0, JENC_SPLIT, 0 };
	jenc_view v;
	jenc_csvw *w;
	jenc_enc *e;
	jenc_err err;
	int rc;

	*n = 0;
	if ((rc = jenc_csvw_new(&w, NULL)) != 0)
		return rc;
	if ((e = jenc_get_mem(&o)) == NULL) {
		jenc_csvw_free(w);
		return JENC_E_NOMEM;
	}
	jenc_csvw_view(w, 0, &v);
	if ((rc = jenc_set_view(e, &v)) == 0) {
		rc = jenc_json_copy_mem(in, strlen(in), e, NULL, &err);
		if (rc == 0)
			rc = jenc_error(e);
		*n = held_bytes(e, out, cap);
	}
	(void)jenc_release(e);
	jenc_csvw_free(w);
	return rc;
}


/* ---- jenc_csvw_keys_fd against the reader's first pass ------------------- */

/* n bytes of in in a temporary file: its descriptor, at offset 0. */
static int
tmp_fd(const char *in, size_t n)
{
	FILE *f = tmpfile();
	int fd;

	if (f == NULL || (fd = dup(fileno(f))) < 0 ||
	    write(fd, in, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	fclose(f);
	return fd;
}

/* The header line that w's columns make, into out. */
static void
header_of(jenc_csvw *w, struct out *out)
{
	jenc_opts o = { 0, JENC_SPLIT, 0 };
	jenc_view v;
	jenc_enc *e;

	out->len = 0;
	out->p[0] = '\0';
	e = jenc_get_sink(sink, out, &o);
	jenc_csvw_view(w, 0, &v);
	if (e == NULL || jenc_set_view(e, &v) != 0 || jenc_release(e) != 0)
		abort();
}

/*
 * Both passes of in[0..n) both ways, fresh writers (flags): with
 * jenc_csvw_keys_fd and jenc_csvw_rows_fd, and with the reader.  1 if
 * both give the same bytes.
 */
static int
rows_both(const char *in, size_t n, const jenc_read_opts *ro,
    unsigned flags)
{
	jenc_csvw_opts wo = { 0 };
	jenc_opts o = { 0, 0, 0 };
	char *out[2];
	size_t len[2];
	int i, fd = tmp_fd(in, n), same;

	wo.flags = flags;
	for (i = 0; i < 2; i++) {
		jenc_csvw *w;
		jenc_view v;
		jenc_enc *e;
		jenc_err err;

		if (jenc_csvw_new(&w, &wo) != 0 || lseek(fd, 0, SEEK_SET) != 0 ||
		    jenc_csvw_keys_fd(w, fd, ro) != 1 ||
		    lseek(fd, 0, SEEK_SET) != 0 ||
		    (e = jenc_get_mem(&o)) == NULL)
			abort();
		jenc_csvw_view(w, 0, &v);
		if (jenc_set_view(e, &v) != 0)
			abort();
		if (i == 0 ? jenc_csvw_rows_fd(w, fd, e, ro) != 1 :
		    jenc_json_copy_fd(fd, e, ro, &err) != 0)
			abort();
		if ((out[i] = jenc_take(e, &len[i])) == NULL)
			abort();
		jenc_release(e);
		jenc_csvw_free(w);
	}
	close(fd);
	same = len[0] == len[1] && memcmp(out[0], out[1], len[0]) == 0;
	jenc_free(out[0], len[0]);
	jenc_free(out[1], len[1]);
	return same;
}

/*
 * The first pass of in[0..n) with max_depth d both ways, each with a
 * fresh writer (flags): jenc_csvw_keys_fd's result is returned; where
 * it is 1, the reader's pass (as jenc(1) makes it: no JENC_SPLIT) must
 * find no bad input and the same columns; where 0, the writer must have
 * no column.  line: the caller's, for messages.
 */
static int
keys_both(const char *in, size_t n, unsigned d, unsigned flags, int line)
{
	jenc_csvw_opts wo = { 0 };
	jenc_read_opts ro = { JENC_READ_MAP, 0, NULL, NULL, NULL };
	jenc_opts o = { 0, 0, 0 };
	struct out a, b;
	jenc_csvw *w1, *w2;
	jenc_view v;
	jenc_enc *e;
	jenc_err err;
	int fd = tmp_fd(in, n), rc, rc2;

	wo.flags = flags;
	ro.max_depth = d;
	if (jenc_csvw_new(&w1, &wo) != 0 || jenc_csvw_new(&w2, &wo) != 0)
		abort();
	rc = jenc_csvw_keys_fd(w1, fd, &ro);
	if (lseek(fd, 0, SEEK_SET) != 0 || (e = jenc_get_mem(&o)) == NULL)
		abort();
	jenc_csvw_view(w2, 1, &v);
	if (jenc_set_view(e, &v) != 0)
		abort();
	rc2 = jenc_json_copy_fd(fd, e, &ro, &err);
	jenc_release(e);
	close(fd);
	if (rc == 1) {
		header_of(w1, &a);
		header_of(w2, &b);
		if (rc2 != 0 || a.len != b.len || memcmp(a.p, b.p, a.len) != 0) {
			fprintf(stderr, "line %d: columns [%s], the reader's "
			    "[%s] (%d)\n", line, a.p, b.p, rc2);
			rc = -100;
		} else if (!rows_both(in, n, &ro, flags)) {
			fprintf(stderr, "line %d: rows differ\n", line);
			rc = -102;
		}
	} else if (jenc_csvw_columns(w1) != 0) {
		fprintf(stderr, "line %d: refused, but %zu columns\n", line,
		    jenc_csvw_columns(w1));
		rc = -101;
	}
	jenc_csvw_free(w1);
	jenc_csvw_free(w2);
	return rc;
}

#define KEYS(in, d) keys_both((in), strlen(in), (d), 0, __LINE__)

/* Both passes over fd without the reader, a fresh writer, the CSV into
 * out; 0 or the code of the call that failed first (a pass that does
 * not take the input: -1). */
static int
passes_fd(int fd, char *out, size_t cap, size_t *n)
{
	jenc_opts o = { 0, 0, 0 };
	jenc_view v;
	jenc_csvw *w;
	jenc_enc *e;
	int rc;

	*n = 0;
	if ((rc = jenc_csvw_new(&w, NULL)) != 0)
		return rc;
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if ((rc = jenc_csvw_keys_fd(w, fd, NULL)) != 1) {
		jenc_csvw_free(w);
		return rc == 0 ? -1 : rc;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if ((e = jenc_get_mem(&o)) == NULL) {
		jenc_csvw_free(w);
		return JENC_E_NOMEM;
	}
	jenc_csvw_view(w, 0, &v);
	if ((rc = jenc_set_view(e, &v)) == 0) {
		rc = jenc_csvw_rows_fd(w, fd, e, NULL);
		rc = rc == 1 ? 0 : rc == 0 ? -1 : rc;
		*n = held_bytes(e, out, cap);
	}
	(void)jenc_release(e);
	jenc_csvw_free(w);
	return rc;
}

/* The runs fail_each makes: to_csv of a string, passes_fd of a file. */
typedef int (*run_fn)(const void *arg, char *out, size_t cap, size_t *n);

static int
run_to_csv(const void *arg, char *out, size_t cap, size_t *n)
{
	return to_csv(arg, out, cap, n);
}

static int
run_passes(const void *arg, char *out, size_t cap, size_t *n)
{
	return passes_fd(*(const int *)arg, out, cap, n);
}

/*
 * fn(arg) under the counting allocator: once whole (its CSV into full),
 * then once for each allocation it made, that one failing: each time 0
 * and all the rows, or JENC_E_NOMEM and complete rows only (a prefix of
 * them ending with a line end), and nothing left allocated.  Returns the
 * number of allocations, or 0 if a run broke that (told on stderr).
 */
static uint64_t
fail_each(run_fn fn, const void *arg, char *full, char *got, size_t cap)
{
	jenc_alloc a = { fa_malloc, NULL, fa_free, &fa };
	size_t nfull, ngot;
	uint64_t k, total;
	int rc;

	if (fn(arg, full, cap, &nfull) != 0)
		return 0;
	jenc_pool_trim();
	if (jenc_set_alloc(&a) != 0)
		return 0;
	memset(&fa, 0, sizeof(fa));
	rc = fn(arg, got, cap, &ngot);
	jenc_pool_trim();
	total = fa.calls;
	if (rc != 0 || ngot != nfull || memcmp(got, full, nfull) != 0)
		total = 0;
	for (k = 1; k <= total; k++) {
		memset(&fa, 0, sizeof(fa));
		fa.fail_at = k;
		rc = fn(arg, got, cap, &ngot);
		jenc_pool_trim();
		if ((rc != 0 && rc != JENC_E_NOMEM) || fa.live != 0 ||
		    fa.bad_size != 0 || fa.zero != 0 || ngot > nfull ||
		    memcmp(got, full, ngot) != 0 ||
		    (rc == 0 && ngot != nfull) ||
		    (ngot > 0 && got[ngot - 1] != '\n')) {
			fprintf(stderr, "failing call %llu: rc %d, %lld live, "
			    "%llu bad sizes, %zu of %zu bytes\n",
			    (unsigned long long)k, rc, fa.live,
			    (unsigned long long)fa.bad_size, ngot, nfull);
			total = 0;
		}
	}
	if (jenc_set_alloc(NULL) != 0)
		return 0;
	return total;
}

int
main(void)
{
	jenc_csvw *w;
	struct out out;
	jenc_err err;
	int rc;

	TEST("jenc_csvw_new refuses delimiters and separators") {
		jenc_csvw_opts o = { 0 };

		o.delim = '"';
		CHECK(jenc_csvw_new(&w, &o) == JENC_E_STATE);
		CHECK(w == NULL);
		o.delim = '\n';
		CHECK(jenc_csvw_new(&w, &o) == JENC_E_STATE);
		o.delim = ';';
		o.flags = JENC_CSVW_TSV;
		CHECK(jenc_csvw_new(&w, &o) == JENC_E_STATE);
		o.delim = 0;
		o.sep = "";
		CHECK(jenc_csvw_new(&w, &o) == JENC_E_STATE);
		o.sep = "0123456789abcdef";
		CHECK(jenc_csvw_new(&w, &o) == JENC_E_STATE);
		o.sep = "0123456789abcde";
		CHECK(jenc_csvw_new(&w, &o) == 0);
		jenc_csvw_free(w);
		jenc_csvw_free(NULL);
	}

	TEST("JENC_CSVW_READ_ON: a rejected record names no column") {
		jenc_csvw_opts o = { 0 };
		jenc_read_opts ro = { 0 };
		jenc_opts eo = { 0, JENC_SPLIT, 0 };
		jenc_view v;
		jenc_enc *e;
		char in[1024], want[512];
		size_t n = 0, k = 0;
		int i;

		/* 40 new keys, the table grown on the way, then a duplicate:
		 * all forgotten, the table as it was (k1..k40 found again
		 * as new columns after it, in order) */
		n += (size_t)snprintf(in + n, sizeof(in) - n, "{\"a\":1}\n{");
		for (i = 1; i <= 40; i++)
			n += (size_t)snprintf(in + n, sizeof(in) - n,
			    "\"k%d\":%d,", i, i);
		n += (size_t)snprintf(in + n, sizeof(in) - n,
		    "\"k1\":0}\n{\"a\":2,\"c\":\"\\ud800\"}\n{\"k40\":40,"
		    "\"k2\":2,\"a\":3}\n");
		o.flags = JENC_CSVW_READ_ON;
		ro.flags = JENC_READ_SKIP;
		CHECK(jenc_csvw_new(&w, &o) == 0);
		e = jenc_get_mem(&eo);
		jenc_csvw_view(w, 1, &v);
		CHECK(e != NULL && jenc_set_view(e, &v) == 0);
		CHECK(jenc_json_copy_mem(in, n, e, &ro, &err) == 0);
		jenc_release(e);
		CHECK(jenc_csvw_columns(w) == 3);
		out.len = 0;
		e = jenc_get_sink(sink, &out, &eo);
		jenc_csvw_view(w, 0, &v);
		CHECK(e != NULL && jenc_set_view(e, &v) == 0);
		ro.flags = JENC_READ_PASS;
		CHECK(jenc_json_copy_mem(in, n, e, &ro, &err) == 0);
		CHECK(jenc_release(e) == 0);
		k += (size_t)snprintf(want + k, sizeof(want) - k,
		    "a,k40,k2\n1,,\n");
		CHECK(out.len > k && memcmp(out.p, want, k) == 0);
		CHECK(out.len > k && memcmp(out.p + k, "{\"k1\":1,", 8) == 0);
		{
			const char *end = "\"k1\":0}\n{\"a\":2,\"c\":"
			    "\"\\ud800\"}\n3,40,2\n";
			size_t m = strlen(end);

			CHECK(out.len > m &&
			    memcmp(out.p + out.len - m, end, m) == 0);
		}
		jenc_csvw_free(w);
		/* without it (the reading stops at the bad record), the
		 * keys stay columns */
		CHECK(jenc_csvw_new(&w, NULL) == 0);
		run(w, 1, "{\"b\":1,\"a\":2,\"a\":3}\n", &out, &rc, &err);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(jenc_csvw_columns(w) == 2);
		CHECK_STR(out.p, out.len, "b,a\n");
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw: columns from the first record, nested, arrays") {
		CHECK(jenc_csvw_new(&w, NULL) == 0);
		run(w, 0, "{\"a\":1,\"b\":{\"c\":\"x,y\",\"d\":[1, 2]},\"e\":{}}\n"
		    "{\"b\":{\"c\":null},\"a\":\" s\"}\n", &out, &rc, &err);
		CHECK(rc == 0);
		CHECK_STR(out.p, out.len, "a,b.c,b.d,e\n1,\"x,y\",\"[1,2]\",{}\n"
		    "\" s\",,,\n");
		CHECK(jenc_csvw_columns(w) == 4);
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw: a first pass gives every key; one header for two encoders") {
		const char *in = "{\"a\":1}\n{\"b\":2}\n";

		CHECK(jenc_csvw_new(&w, NULL) == 0);
		run(w, 1, in, &out, &rc, &err);
		CHECK(rc == 0);
		CHECK_STR(out.p, out.len, "a,b\n1,\n,2\n");
		run(w, 0, "{\"b\":3}\n", &out, &rc, &err);
		CHECK_STR(out.p, out.len, ",3\n");
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw_keys_fd: the reader's columns, or refused") {
		/* taken: compact records, keys in any order, escapes */
		CHECK_EQ(KEYS("{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y\"}\n"
		    "{\"b\":3,\"a\":4}\r\n{\"a\":5}\n\n{\"a\":1,\"b\":2,\"c\":3}\n"
		    "{}\t {\"d\":true}{\"e\":null}", 0), 1);
		CHECK_EQ(KEYS("{\"k\\u00e9\":1,\"a\\\"b\":2,\"\\/\":[]}\n"
		    "{\"k\\u00e9\":3,\"x\\\\y\":false}\n{\"\\u0000\":-0.5e+3}", 0), 1);
		CHECK_EQ(KEYS("{\"u\":{\"n\":1,\"m\":{\"x\":2}},\"a\":[1,{\"b\":"
		    "2},[]]}\n{\"u\":{\"n\":2},\"e\":{},\"f\":\"Z\\u00fcrich "
		    "\\ud83d\\ude00 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}", 0), 1);
		CHECK_EQ(KEYS("{\"a\":{\"b\":1}}\n{\"a\":{\"c\":{\"d\":2}}}", 3), 1);
		CHECK_EQ(KEYS("{\"a\":0,\"b\":-0,\"c\":12.5E-3,\"d\":1e9,"
		    "\"e\":123456789012345678901234567890}", 0), 1);
		CHECK_EQ(KEYS("  \n{\"a\":1}\n", 0), 1);
		/* refused: records the view rejects */
		CHECK_EQ(KEYS("{\"x\":1}\n{\"a\":1,\"a\":2}\n", 0), 0);
		CHECK_EQ(KEYS("{\"a.b\":1,\"a\":{\"b\":2}}\n", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\\ud800\"}\n", 0), 0);
		CHECK_EQ(KEYS("{\"\\udc00\":1}\n", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\\ud800\\u0041\"}\n", 0), 0);
		/* refused: not compact, not records, or bad */
		CHECK_EQ(KEYS("{\"a\":1}\n{\"b\": 2}\n", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1}\n[{\"b\":2}]\n", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1}\n3\n", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1}\n{\"b\":1,}\n{\"c\":1}\n", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1}\n{\"b\":1", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1}}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":01}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1.}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":-}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":1e}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":tru}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\\x\"}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\\u12g4\"}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\x01\"}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\xc3\"}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\xc0\xaf\"}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":\"\xed\xa0\x80\"}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":[1,]}", 0), 0);
		CHECK_EQ(KEYS("{\"a\":[1}", 0), 0);
		CHECK_EQ(keys_both("{\"a\":1}\n\0", 9, 0, 0, __LINE__), 0);
		CHECK_EQ(keys_both("{\"a\":\"\0\"}", 9, 0, 0, __LINE__), 0);
		CHECK_EQ(KEYS("{\"a\":1}\n\f{\"b\":1}", 0), 0);
		/* max_depth: the reader's limit, or refused */
		CHECK_EQ(KEYS("{\"a\":{\"b\":{\"c\":1}}}", 2), 0);
		CHECK_EQ(KEYS("{\"a\":[[1]]}", 2), 0);
		CHECK_EQ(KEYS("{\"a\":[1]}", 2), 1);
	}

	TEST("jenc_csvw_keys_fd: records longer than its buffer, more columns") {
		size_t n = 0, i, cap = 3u << 20;
		char *in = malloc(cap);

		CHECK(in != NULL);
		if (in == NULL)
			break;
		/* a record across each boundary of 256 KiB, a new key after
		 * records of 300 KB and 700 KB, escapes at the boundaries */
		for (i = 0; i < 3000; i++)
			n += (size_t)snprintf(in + n, cap - n,
			    "{\"id\":%zu,\"s\":\"a\\nb\",\"k%zu\":1}\n", i, i % 7);
		for (i = 0; i < 2; i++) {
			size_t len = i == 0 ? 300000 : 700000, j;

			n += (size_t)snprintf(in + n, cap - n, "{\"id\":1,\"s\":\"");
			for (j = 0; j < len; j++)
				in[n++] = j % 97 == 0 ? '\\' : j % 97 == 1 ?
				    'n' : 'x';
			n += (size_t)snprintf(in + n, cap - n, "\\\\\",\"z%zu\":2}\n",
			    i);
		}
		for (i = 0; i < 200; i++)
			n += (size_t)snprintf(in + n, cap - n,
			    "{\"id\":%zu,\"%03zu\":[%zu]}", i, i, i);
		CHECK(n < cap);
		CHECK_EQ(keys_both(in, n, 0, 0, __LINE__), 1);
		CHECK_EQ(keys_both(in, n, 0, JENC_CSVW_READ_ON, __LINE__), 1);
		free(in);
	}

	TEST("jenc_csvw_rows_fd: an input changed since the first pass stops it") {
		const char *a = "{\"id\":1,\"s\":\"x,y\"}\n"
		    "{\"id\":2,\"n\":{\"k\":[1,2]}}\n";
		const char *b = "{\"s\":\"z\",\"id\":3}\n{\"id\":4,\"new\":1}\n"
		    "{\"id\":5}\n";
		const char *c = "{\"id\":6}\n{\"id\": 7}\n";
		jenc_opts o = { 0, 0, 0 };
		jenc_view v;
		jenc_enc *e;
		int fd;

		CHECK(jenc_csvw_new(&w, NULL) == 0);
		fd = tmp_fd(a, strlen(a));
		CHECK_EQ(jenc_csvw_keys_fd(w, fd, NULL), 1);
		CHECK(lseek(fd, 0, SEEK_SET) == 0);
		out.len = 0;
		e = jenc_get_sink(sink, &out, &o);
		jenc_csvw_view(w, 0, &v);
		CHECK(e != NULL && jenc_set_view(e, &v) == 0);
		CHECK_EQ(jenc_csvw_rows_fd(w, fd, e, NULL), 1);
		close(fd);
		fd = tmp_fd(b, strlen(b));	/* a key that is not a column */
		CHECK_EQ(jenc_csvw_rows_fd(w, fd, e, NULL), 0);
		close(fd);
		fd = tmp_fd(c, strlen(c));	/* a record the pass refuses */
		CHECK_EQ(jenc_csvw_rows_fd(w, fd, e, NULL), 0);
		close(fd);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(out.p, out.len, "id,s,n.k\n1,\"x,y\",\n2,,\"[1,2]\"\n"
		    "3,z,\n6,,\n");
		CHECK_EQ(jenc_csvw_columns(w), 3);
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw_rows_fd: JENC_E_STATE, nothing read, for an encoder "
	    "that changes values (-a, -H, -S)") {
		const char *a = "{\"id\":1,\"n\":[\"\xc3\xa9\"]}\n";
		unsigned fl[] = { JENC_ASCII, JENC_HTML, JENC_SORT_KEYS };
		size_t k;
		jenc_view v;
		jenc_enc *e;
		int fd;

		CHECK(jenc_csvw_new(&w, NULL) == 0);
		fd = tmp_fd(a, strlen(a));
		CHECK_EQ(jenc_csvw_keys_fd(w, fd, NULL), 1);
		jenc_csvw_view(w, 0, &v);
		for (k = 0; k < sizeof(fl) / sizeof(fl[0]); k++) {
			jenc_opts o = { 0, fl[k], 0 };

			CHECK(lseek(fd, 0, SEEK_SET) == 0);
			out.len = 0;
			e = jenc_get_sink(sink, &out, &o);
			CHECK(e != NULL && jenc_set_view(e, &v) == 0);
			CHECK_EQ(jenc_csvw_rows_fd(w, fd, e, NULL), JENC_E_STATE);
			CHECK(lseek(fd, 0, SEEK_CUR) == 0);
			CHECK_EQ(jenc_release(e), 0);
			/* no row: at most the header, once */
			CHECK(out.len == 0 || (out.len == 5 &&
			    memcmp(out.p, "id,n\n", 5) == 0));
		}
		close(fd);
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw_keys_fd: refused, the columns of earlier files kept") {
		jenc_read_opts ro = { JENC_READ_SEQ, 0, NULL, NULL, NULL };
		const char *a = "{\"a\":1,\"b\":2}\n", *b = "{\"c\":1,\"b\":1}\n{\"d\" :1}\n";
		int fd;

		CHECK(jenc_csvw_new(&w, NULL) == 0);
		fd = tmp_fd(a, strlen(a));
		CHECK_EQ(jenc_csvw_keys_fd(w, fd, NULL), 1);
		close(fd);
		fd = tmp_fd(b, strlen(b));
		CHECK_EQ(jenc_csvw_keys_fd(w, fd, NULL), 0);
		CHECK_EQ(jenc_csvw_columns(w), 2);
		CHECK(lseek(fd, 0, SEEK_SET) == 0);
		CHECK_EQ(jenc_csvw_keys_fd(w, fd, &ro), 0);
		ro.flags = 0;
		ro.encoding = "latin1";
		CHECK(lseek(fd, 0, SEEK_SET) == 0);
		CHECK_EQ(jenc_csvw_keys_fd(w, fd, &ro), 0);
		close(fd);
		header_of(w, &out);
		CHECK_STR(out.p, out.len, "a,b\n");
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw: a new key rejected, or dropped with JENC_CSVW_PAD") {
		jenc_csvw_opts o = { 0 };
		const char *in = "{\"a\":1}\n{\"a\":2,\"x\":3}\n{\"a\":4}\n";

		CHECK(jenc_csvw_new(&w, NULL) == 0);
		run(w, 0, in, &out, &rc, &err);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(err.line == 2);
		CHECK(strncmp(err.msg, "key 'x' is not a column", 23) == 0);
		CHECK_STR(out.p, out.len, "a\n1\n");
		jenc_csvw_free(w);
		o.flags = JENC_CSVW_PAD | JENC_CSVW_NO_HEADER | JENC_CSVW_CRLF;
		CHECK(jenc_csvw_new(&w, &o) == 0);
		run(w, 0, in, &out, &rc, &err);
		CHECK(rc == 0);
		CHECK_STR(out.p, out.len, "1\r\n2\r\n4\r\n");
		CHECK(jenc_csvw_dropped(w) == 1);
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw: header given, TSV, --csv-safe, separator") {
		static const char *const hdr[] = { "k", "n/m", "k" };
		jenc_csvw_opts o = { JENC_CSVW_TSV | JENC_CSVW_SAFE, 0, "/", hdr,
		    3 };

		CHECK(jenc_csvw_new(&w, &o) == 0);
		CHECK(jenc_csvw_columns(w) == 2);
		run(w, 0, "{\"k\":\"=a\\tb\",\"n\":{\"m\":-1},\"z\":1}\n", &out,
		    &rc, &err);
		CHECK(rc == 0);
		CHECK_STR(out.p, out.len, "k\tn/m\n'=a\\tb\t-1\n");
		run(w, 0, "", &out, &rc, &err);
		CHECK_STR(out.p, out.len, "");
		jenc_csvw_free(w);
		/* no record at all: the header alone, at the end */
		CHECK(jenc_csvw_new(&w, &o) == 0);
		run(w, 0, "", &out, &rc, &err);
		CHECK_STR(out.p, out.len, "k\tn/m\n");
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw: a record that is not an object, at its start") {
		CHECK(jenc_csvw_new(&w, NULL) == 0);
		run(w, 0, "[{\"a\":1},\n 2]", &out, &rc, &err);
		CHECK(rc == JENC_E_SYNTAX);
		CHECK(err.line == 2);
		CHECK(err.col == 2);
		CHECK(strcmp(err.msg, "expected an object as a record, found '2'")
		    == 0);
		CHECK_STR(out.p, out.len, "a\n1\n");
		jenc_csvw_free(w);
	}

	TEST("jenc_csvw: a CSV record read without names, at its line") {
		/* JENC_CSV_NO_HEADER makes each record an array: the view's
		 * rejection is bad input about the record, not a write error,
		 * the elements of a split array or the array itself */
		jenc_opts eo = { 0, 0, 0 };
		jenc_csv_opts co = { 0 };
		jenc_view v;
		jenc_enc *e;
		int split;

		co.flags = JENC_CSV_NO_HEADER;
		for (split = 0; split < 2; split++) {
			CHECK(jenc_csvw_new(&w, NULL) == 0);
			eo.flags = split ? JENC_SPLIT : 0;
			out.len = 0;
			e = jenc_get_sink(sink, &out, &eo);
			jenc_csvw_view(w, 0, &v);
			CHECK(e != NULL && jenc_set_view(e, &v) == 0);
			CHECK(jenc_csv_copy_mem("\na,b\n1,2\n", 9, e, &co, &err)
			    == JENC_E_SYNTAX);
			CHECK(err.kind == JENC_K_RECORD);
			CHECK(err.line == 2);
			CHECK(err.col == 0);
			CHECK(strcmp(err.msg, "expected an object as a record, "
			    "found an array (--no-header)") == 0);
			CHECK(jenc_error(e) == 0);
			CHECK(jenc_release(e) == 0);
			CHECK(out.len == 0);
			jenc_csvw_free(w);
		}
	}

	TEST("JENC_VIEW_NAMES: a CSV header with no record after it") {
		jenc_csv_opts co = { 0 };
		jenc_opts o = { 0, JENC_SPLIT, 0 };
		jenc_view v;
		struct seen sn;
		jenc_enc *e;
		const char *hdr = "x,\"y,z\",x\r\n";
		unsigned fl[3] = { JENC_SPLIT, 0, JENC_SPLIT };
		int k;

		/* the names, made unique, as the record of no fields: in
		 * split array mode, and one value a line (split or not) */
		for (k = 0; k < 3; k++) {
			co.flags = k > 0 ? JENC_CSV_LINES : 0;
			CHECK(seen_run(&sn, 1, fl[k], hdr, &co, &out) == 0);
			CHECK(sn.values == 0 && sn.names == 1);
			CHECK(strcmp(sn.text, "{\"x\":null,\"y,z\":null,"
			    "\"x_2\":null}") == 0);
			CHECK_STR(out.p, out.len, "");
		}
		/* an array that is not split is one value: no record, no
		 * names in it */
		co.flags = 0;
		(void)seen_run(&sn, 1, 0, hdr, &co, &out);
		CHECK(sn.names == 0);
		co.flags = JENC_CSV_NEST;
		CHECK(seen_run(&sn, 1, JENC_SPLIT, "u.a,id,u.b\n", &co, &out) ==
		    0);
		CHECK(strcmp(sn.text, "{\"u\":{\"a\":null,\"b\":null},"
		    "\"id\":null}") == 0);
		/* names given, no input */
		co.flags = 0;
		co.header = (const char *const[]){ "p", "" };
		co.nheader = 2;
		CHECK(seen_run(&sn, 1, JENC_SPLIT, "", &co, &out) == 0);
		CHECK(strcmp(sn.text, "{\"p\":null,\"_2\":null}") == 0);
		co.header = NULL;
		co.nheader = 0;
		/* a record, no names; no header, no names; a view without
		 * the flag, nothing */
		CHECK(seen_run(&sn, 1, JENC_SPLIT, "a\n1\n", &co, &out) == 0);
		CHECK(sn.values == 1 && sn.names == 0);
		co.flags = JENC_CSV_NO_HEADER;
		CHECK(seen_run(&sn, 1, JENC_SPLIT, "", &co, &out) == 0);
		CHECK(sn.values == 0 && sn.names == 0);
		co.flags = 0;
		CHECK(seen_run(&sn, 0, JENC_SPLIT, hdr, &co, &out) == 0);
		CHECK(sn.values == 0 && sn.names == 0);
		CHECK_STR(out.p, out.len, "");
		/* the flag without the call is refused; no view, no names */
		e = jenc_get_sink(sink, &out, &o);
		CHECK(jenc_view_names_next(e) == 0);
		v = (jenc_view){ seen_value, NULL, NULL, &sn,
		    JENC_VIEW_NAMES, NULL };
		CHECK(jenc_set_view(e, &v) == JENC_E_STATE);
		jenc_release(e);
		/* the writer: the names are the columns, the header line
		 * written at the end; a first pass finds them too */
		for (k = 0; k < 2; k++) {
			jenc_csvw_opts wo = { 0 };

			wo.flags = k ? JENC_CSVW_TSV : 0;
			CHECK(jenc_csvw_new(&w, &wo) == 0);
			if (k) {
				e = jenc_get_mem(&o);
				jenc_csvw_view(w, 1, &v);
				CHECK(jenc_set_view(e, &v) == 0);
				CHECK(jenc_csv_copy_mem(hdr, strlen(hdr), e, &co,
				    &err) == 0);
				CHECK(jenc_len(e) == 0);
				jenc_release(e);
				CHECK(jenc_csvw_columns(w) == 3);
			}
			out.len = 0;
			e = jenc_get_sink(sink, &out, &o);
			jenc_csvw_view(w, 0, &v);
			CHECK(jenc_set_view(e, &v) == 0);
			CHECK(jenc_csv_copy_mem(hdr, strlen(hdr), e, &co, &err)
			    == 0);
			CHECK(jenc_release(e) == 0);
			CHECK_STR(out.p, out.len, k ? "x\ty,z\tx_2\n" :
			    "x,\"y,z\",x_2\n");
			jenc_csvw_free(w);
		}
	}

	TEST("jenc_csvw: no allocation per record in steady state") {
		static char in[512 * 1024];
		size_t n = 0, n1000 = 0;
		uint64_t m[3];
		int i, k;

		for (i = 0; i < 4000; i++) {
			if (i == 1000)
				n1000 = n;
			n += (size_t)snprintf(in + n, sizeof(in) - n,
			    "{\"id\":%d,\"s\":\"v\\n%d\",\"u\":{\"x\":%d,"
			    "\"t\":[%d]},\"q\":\"a\\\"b\"}\n", i, i, i, i);
		}
		CHECK(jenc_csvw_new(&w, NULL) == 0);
		/* the same run three times: all records (which grows every
		 * buffer), 1000 of them, all 4000; a discarding sink, so that
		 * only the library's own allocations count */
		for (k = 0; k < 3; k++) {
			jenc_opts o = { 0, JENC_SPLIT, 0 };
			jenc_view v;
			jenc_pool_stats a, b;
			jenc_enc *e;
			jenc_err er;

			jenc_pool_stats_get(&a);
			e = jenc_get_sink(discard, NULL, &o);
			jenc_csvw_view(w, 0, &v);
			CHECK(jenc_set_view(e, &v) == 0);
			CHECK(jenc_json_copy_mem(in, k == 1 ? n1000 : n, e, NULL,
			    &er) == 0);
			CHECK(jenc_release(e) == 0);
			jenc_pool_stats_get(&b);
			m[k] = b.mallocs - a.mallocs;
		}
		/* the reader's window and tables, the view: as many for 1000
		 * records as for 4000 */
		CHECK(m[1] == m[2]);
		CHECK(m[2] < 16);
		jenc_csvw_free(w);
	}

	TEST("JENC_CSV_NEST: names with the separator as nested objects") {
		jenc_opts o = { 0, 0, 0 };
		jenc_csv_opts co = { 0 };
		jenc_enc *e = jenc_get_mem(&o);
		char *p;
		size_t n;

		co.flags = JENC_CSV_NEST | JENC_CSV_TYPES;
		CHECK(jenc_csv_copy_mem("u.n,id,u.a.c,u.m\nA,1,x,\n", 24, e, &co,
		    &err) == 0);
		p = jenc_take(e, &n);
		CHECK_STR(p, n, "[{\"u\":{\"n\":\"A\",\"a\":{\"c\":\"x\"},"
		    "\"m\":null},\"id\":1}]\n");
		jenc_free(p, n);
		co.sep = "::";
		co.flags = JENC_CSV_NEST;
		CHECK(jenc_csv_copy_mem("a::b,a.c\n1,2\n", 13, e, &co, &err) == 0);
		p = jenc_take(e, &n);
		CHECK_STR(p, n, "[{\"a\":{\"b\":\"1\"},\"a.c\":\"2\"}]\n");
		jenc_free(p, n);
		CHECK(jenc_csv_copy_mem("a,a.b\n1,2\n", 10, e, &co, &err) == 0);
		jenc_reset(e);
		co.sep = NULL;
		CHECK(jenc_csv_copy_mem("a,a.b\n1,2\n", 10, e, &co, &err) ==
		    JENC_E_SYNTAX);
		CHECK(strncmp(err.msg, "column 'a.b' and another column", 31) ==
		    0);
		jenc_release(e);
	}

	TEST("jenc_csvw: every allocation may fail") {
		static char in[128 * 1024], full[256 * 1024], got[256 * 1024];
		size_t n = 0;
		int i;

		/* records that grow every buffer: nesting, escapes, a string
		 * longer each time (the columns are the first record's) */
		n = 0;
		for (i = 0; i < 60; i++)
			n += (size_t)snprintf(in + n, sizeof(in) - n,
			    "{\"id\":%d,\"u\":{\"k\":\"a\\nb\",\"d\":{\"e\":[%d]}},"
			    "\"s\":\"%0*d\",\"q\":\"x\\\"y\"}\n", i, i,
			    i * 30, i);
		CHECK(n < sizeof(in));
		CHECK(fail_each(run_to_csv, in, full, got, sizeof(got)) > 10);
	}

	TEST("jenc_csvw_keys_fd, jenc_csvw_rows_fd: every allocation may fail") {
		static char in[512 * 1024], full[512 * 1024], got[512 * 1024];
		size_t n = 0;
		int i, fd;

		/* new keys, nested ones, escaped ones, and a record longer
		 * than the first buffer */
		for (i = 0; i < 60; i++)
			n += (size_t)snprintf(in + n, sizeof(in) - n,
			    "{\"id\":%d,\"u\":{\"k%d\":\"a\\nb\"},\"q\\\"%d\":"
			    "[%d]}\n", i, i % 9, i % 4, i);
		n += (size_t)snprintf(in + n, sizeof(in) - n, "{\"s\":\"");
		memset(in + n, 'x', 300000);
		n += 300000;
		n += (size_t)snprintf(in + n, sizeof(in) - n, "\",\"id\":0}\n");
		CHECK(n < sizeof(in));
		fd = tmp_fd(in, n);
		CHECK(fail_each(run_passes, &fd, full, got, sizeof(got)) > 5);
		close(fd);
	}

	TEST("JENC_CSV_NEST: every allocation may fail") {
		static char in[64 * 1024];
		jenc_alloc a = { fa_malloc, NULL, fa_free, &fa };
		jenc_csv_opts co = { 0 };
		size_t n = 0;
		uint64_t k, total;
		int i, bad = 0;

		n += (size_t)snprintf(in, sizeof(in), "id");
		for (i = 0; i < 40; i++)
			n += (size_t)snprintf(in + n, sizeof(in) - n,
			    ",g%d.s%d.leaf%d", i % 5, i % 3, i);
		n += (size_t)snprintf(in + n, sizeof(in) - n, "\n");
		for (i = 0; i < 20; i++) {
			int j;

			n += (size_t)snprintf(in + n, sizeof(in) - n, "%d", i);
			for (j = 0; j < 40; j++)
				n += (size_t)snprintf(in + n, sizeof(in) - n,
				    ",v%d", j);
			n += (size_t)snprintf(in + n, sizeof(in) - n, "\n");
		}
		CHECK(n < sizeof(in));
		co.flags = JENC_CSV_NEST | JENC_CSV_LINES;
		jenc_pool_trim();
		CHECK(jenc_set_alloc(&a) == 0);
		memset(&fa, 0, sizeof(fa));
		{
			jenc_enc *e = jenc_get_mem(NULL);

			CHECK(jenc_csv_copy_mem(in, n, e, &co, &err) == 0);
			jenc_release(e);
		}
		jenc_pool_trim();
		total = fa.calls;
		for (k = 1; k <= total && !bad; k++) {
			jenc_enc *e;

			memset(&fa, 0, sizeof(fa));
			fa.fail_at = k;
			if ((e = jenc_get_mem(NULL)) != NULL) {
				rc = jenc_csv_copy_mem(in, n, e, &co, &err);
				if (rc != 0 && rc != JENC_E_NOMEM)
					bad = 1;
				jenc_release(e);
			}
			jenc_pool_trim();
			if (fa.live != 0 || fa.bad_size != 0 || fa.zero != 0)
				bad = 1;
			if (bad)
				fprintf(stderr, "failing call %llu: rc %d, %lld "
				    "live, %llu bad sizes\n",
				    (unsigned long long)k, rc, fa.live,
				    (unsigned long long)fa.bad_size);
		}
		CHECK(bad == 0);
		CHECK(jenc_set_alloc(NULL) == 0);
	}

	return harness_done();
}
