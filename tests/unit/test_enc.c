/*
 * test_enc.c - every encoder call of lib/jenc.h and every error it returns.
 *
 * Structure is driven by a small op language (see op() below) so that each
 * error case reads as "after these calls, this call fails with this code".
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

/* ---- helpers -------------------------------------------------------- */

static jenc_enc *
mem(unsigned indent, unsigned flags)
{
	jenc_opts o = { indent, flags, 0 };
	jenc_enc *e = jenc_get_mem(&o);

	if (e == NULL)
		abort();
	return e;
}

/* held - a NUL-terminated copy of the bytes e holds, read with
 * jenc_segments(); the caller frees it. */
static char *
held(const jenc_enc *e, size_t *n)
{
	const char *p;
	size_t it = 0, len, total = 0;
	char *out;

	while ((p = jenc_segments(e, &it, &len)) != NULL)
		total += len;
	if ((out = malloc(total + 1)) == NULL)
		abort();
	it = 0;
	total = 0;
	while ((p = jenc_segments(e, &it, &len)) != NULL) {
		memcpy(out + total, p, len);
		total += len;
	}
	out[total] = '\0';
	*n = total;
	return out;
}

#define CHECK_HELD(e, want) do { \
	size_t hn_; \
	char *hp_ = held((e), &hn_); \
	CHECK_STR(hp_, hn_, (want)); \
	free(hp_); \
} while (0)

/* A sink that collects what it is given. */
struct coll {
	char *buf;
	size_t len, cap;
	unsigned calls;
	int fail;	/* returned instead of 0 when set */
};

static int
coll_sink(void *ctx, const char *buf, size_t len)
{
	struct coll *c = ctx;

	c->calls++;
	if (c->fail)
		return c->fail;
	if (c->len + len + 1 > c->cap) {
		c->cap = (c->len + len + 1) * 2;
		if ((c->buf = realloc(c->buf, c->cap)) == NULL)
			abort();
	}
	memcpy(c->buf + c->len, buf, len);
	c->len += len;
	c->buf[c->len] = '\0';
	return 0;
}

/* Reads an fd to EOF in a thread. */
struct reader {
	int fd;
	char *buf;
	size_t len, cap;
};

static void *
read_all(void *arg)
{
	struct reader *r = arg;
	ssize_t n;

	for (;;) {
		if (r->cap - r->len < 65536) {
			r->cap = r->cap * 2 + 65536;
			if ((r->buf = realloc(r->buf, r->cap)) == NULL)
				abort();
		}
		n = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r->len += (size_t)n;
	}
	r->buf[r->len] = '\0';
	return NULL;
}

static char *
repeat(const char *unit, size_t times)
{
	size_t ul = strlen(unit);
	char *s = malloc(ul * times + 1);

	if (s == NULL)
		abort();
	for (size_t i = 0; i < times; i++)
		memcpy(s + i * ul, unit, ul);
	s[ul * times] = '\0';
	return s;
}

/* cat - the concatenation of up to four strings (NULL ends the list). */
static char *
cat(const char *a, const char *b, const char *c, const char *d)
{
	const char *v[4] = { a, b, c, d };
	size_t n = 0, off = 0;
	char *s;

	for (int i = 0; i < 4 && v[i] != NULL; i++)
		n += strlen(v[i]);
	if ((s = malloc(n + 1)) == NULL)
		abort();
	for (int i = 0; i < 4 && v[i] != NULL; i++) {
		memcpy(s + off, v[i], strlen(v[i]));
		off += strlen(v[i]);
	}
	s[off] = '\0';
	return s;
}

/*
 * op - one call, named by one character:
 *   { } [ ]	obj_begin obj_end arr_begin arr_end
 *   k j	key "k", key "j";  K raw_key "r"
 *   s		str "s";  S raw_str "\/"
 *   0-9	i64 of the digit;  u u64 7;  f f64 0.5
 *   t b n	true false null;  r raw "-1.5e3"
 *   T U	time_utc(0) time_unix(-1)
 *   A B C D E G H I	kv_str(a,"x") kv_i64(b,-5) kv_u64(c,7) kv_f64(d,0.25)
 *		kv_bool(e,1) kv_null(g) kv_time_utc(h,0) kv_time_unix(i,1)
 * and calls that are wrong whatever the state:
 *   x str "\xff";  X key "\xff";  N P M f64 NaN +inf -inf
 *   R Q Y Z	time_utc 253402300800, -62135596801, INT64_MAX, INT64_MIN
 *   V kv_str(a,"\xff");  L kv_str("\xff","x");  W kv_f64(d,NaN)
 *   O kv_time_utc(h,INT64_MAX)
 */
static int
op(jenc_enc *e, char c)
{
	switch (c) {
	case '{': return jenc_obj_begin(e);
	case '}': return jenc_obj_end(e);
	case '[': return jenc_arr_begin(e);
	case ']': return jenc_arr_end(e);
	case 'k': return jenc_key(e, "k", 1);
	case 'j': return jenc_key(e, "j", 1);
	case 'K': return jenc_raw_key(e, "r", 1);
	case 's': return jenc_str(e, "s", 1);
	case 'S': return jenc_raw_str(e, "\\/", 2);
	case 'u': return jenc_u64(e, 7);
	case 'f': return jenc_f64(e, 0.5);
	case 't': return jenc_bool(e, 1);
	case 'b': return jenc_bool(e, 0);
	case 'n': return jenc_null(e);
	case 'r': return jenc_raw(e, "-1.5e3", 6);
	case 'T': return jenc_time_utc(e, 0);
	case 'U': return jenc_time_unix(e, -1);
	case 'A': return jenc_kv_str(e, "a", 1, "x", 1);
	case 'B': return jenc_kv_i64(e, "b", 1, -5);
	case 'C': return jenc_kv_u64(e, "c", 1, 7);
	case 'D': return jenc_kv_f64(e, "d", 1, 0.25);
	case 'E': return jenc_kv_bool(e, "e", 1, 1);
	case 'G': return jenc_kv_null(e, "g", 1);
	case 'H': return jenc_kv_time_utc(e, "h", 1, 0);
	case 'I': return jenc_kv_time_unix(e, "i", 1, 1);
	case 'x': return jenc_str(e, "\xff", 1);
	case 'X': return jenc_key(e, "\xff", 1);
	case 'N': return jenc_f64(e, NAN);
	case 'P': return jenc_f64(e, INFINITY);
	case 'M': return jenc_f64(e, -INFINITY);
	case 'R': return jenc_time_utc(e, INT64_C(253402300800));
	case 'Q': return jenc_time_utc(e, INT64_C(-62135596801));
	case 'Y': return jenc_time_utc(e, INT64_MAX);
	case 'Z': return jenc_time_utc(e, INT64_MIN);
	case 'V': return jenc_kv_str(e, "a", 1, "\xff", 1);
	case 'L': return jenc_kv_str(e, "\xff", 1, "x", 1);
	case 'W': return jenc_kv_f64(e, "d", 1, NAN);
	case 'O': return jenc_kv_time_utc(e, "h", 1, INT64_MAX);
	default:
		if (c >= '0' && c <= '9')
			return jenc_i64(e, c - '0');
		fprintf(stderr, "test bug: unknown op '%c'\n", c);
		abort();
	}
}

/* Every op that is valid in some state; all must return a sticky error. */
static const char all_ops[] = "{}[]kjKsS0uftbnrTUABCDEGHI";

static char namebuf[256];

/* expect - ops on a fresh memory encoder all succeed and give want. */
static void
expect(unsigned indent, unsigned flags, const char *ops, const char *want)
{
	jenc_enc *e = mem(indent, flags);

	snprintf(namebuf, sizeof namebuf, "indent %u flags %#x ops \"%s\"",
	    indent, flags, ops);
	TEST(namebuf) {
		for (const char *p = ops; *p != '\0'; p++)
			CHECK_EQ(op(e, *p), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_len(e), strlen(want));
		CHECK_HELD(e, want);
		CHECK_TAKE(e, want);
		CHECK_EQ(jenc_release(e), 0);
	}
}

/*
 * check_bad - after the calls in ok (each returns 0), the call bad returns
 * code, writes nothing, leaves the depth alone, and the error is sticky:
 * every later call returns it, jenc_error() and jenc_release() report it,
 * and jenc_reset() clears it.
 */
static void
check_bad(unsigned indent, unsigned flags, const char *ok, char bad, int code)
{
	jenc_enc *e = mem(indent, flags);
	char *before, *after;
	size_t nb, na;
	unsigned depth;

	snprintf(namebuf, sizeof namebuf,
	    "indent %u flags %#x: after \"%s\", '%c' returns %d", indent, flags,
	    ok, bad, code);
	TEST(namebuf) {
		for (const char *p = ok; *p != '\0'; p++)
			CHECK_EQ(op(e, *p), 0);
		before = held(e, &nb);
		depth = jenc_depth(e);
		CHECK_EQ(jenc_error(e), 0);

		CHECK_EQ(op(e, bad), code);
		after = held(e, &na);
		CHECK_STR(after, na, before);
		free(after);
		CHECK_EQ(jenc_len(e), nb);
		CHECK_EQ(jenc_error(e), code);
		CHECK_EQ(jenc_depth(e), depth);

		for (const char *p = all_ops; *p != '\0'; p++)
			CHECK_EQ(op(e, *p), code);
		CHECK_EQ(jenc_flush(e), code);
		CHECK_EQ(jenc_error(e), code);
		CHECK_EQ(jenc_depth(e), depth);
		after = held(e, &na);
		CHECK_STR(after, na, before);
		free(after);
		free(before);

		jenc_reset(e);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_len(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(op(e, 'n'), 0);
		CHECK_HELD(e, (flags & JENC_NO_NEWLINE) ? "null" : "null\n");
		CHECK_EQ(jenc_release(e), 0);

		/* jenc_release() returns the sticky error. */
		e = mem(indent, flags);
		for (const char *p = ok; *p != '\0'; p++)
			CHECK_EQ(op(e, *p), 0);
		CHECK_EQ(op(e, bad), code);
		CHECK_EQ(op(e, 'n'), code);
		CHECK_EQ(jenc_release(e), code);
	}
}

/* ---- tests ---------------------------------------------------------- */

static void
test_compact(void)
{
	expect(0, 0, "n", "null\n");
	expect(0, 0, "[]", "[]\n");
	expect(0, 0, "{}", "{}\n");
	expect(0, 0, "12s", "1\n2\n\"s\"\n");
	expect(0, 0, "{k[12]j{}}", "{\"k\":[1,2],\"j\":{}}\n");
	expect(0, 0, "[[[]]{}[{}]]", "[[[]],{},[{}]]\n");
	expect(0, 0, "[sSuftbnrTU0]",
	    "[\"s\",\"\\/\",7,0.5,true,false,null,-1.5e3,"
	    "\"1970-01-01T00:00:00Z\",-1,0]\n");
	expect(0, 0, "{ABCDEGHI}",
	    "{\"a\":\"x\",\"b\":-5,\"c\":7,\"d\":0.25,\"e\":true,\"g\":null,"
	    "\"h\":\"1970-01-01T00:00:00Z\",\"i\":1}\n");
	expect(0, 0, "{KSks}", "{\"r\":\"\\/\",\"k\":\"s\"}\n");
	expect(0, 0, "{k{j[{k1}]}}", "{\"k\":{\"j\":[{\"k\":1}]}}\n");
	expect(0, JENC_NO_NEWLINE, "{k[12]j{}}", "{\"k\":[1,2],\"j\":{}}");
	expect(0, JENC_NO_NEWLINE, "7", "7");
	expect(0, JENC_NO_NEWLINE, "", "");
	expect(0, 0, "", "");
}

static void
test_indent(void)
{
	jenc_enc *e;
	jenc_opts o = { .indent = 2 };
	char *want;

	TEST("the json.Indent example, explicit calls") {
		e = jenc_get_mem(&o);
		CHECK(e != NULL);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_key(e, "a", 1), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_key(e, "b", 1), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_TAKE(e, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n");
		CHECK_EQ(jenc_release(e), 0);
	}
	expect(2, 0, "n", "null\n");
	expect(2, 0, "[]", "[]\n");
	expect(2, 0, "{}", "{}\n");
	expect(2, 0, "[[]{}]", "[\n  [],\n  {}\n]\n");
	expect(2, 0, "{k[]j{}}", "{\n  \"k\": [],\n  \"j\": {}\n}\n");
	expect(2, 0, "{k1}[]2",
	    "{\n  \"k\": 1\n}\n[]\n2\n");
	expect(2, 0, "{ABCDEGHI}",
	    "{\n  \"a\": \"x\",\n  \"b\": -5,\n  \"c\": 7,\n  \"d\": 0.25,\n"
	    "  \"e\": true,\n  \"g\": null,\n"
	    "  \"h\": \"1970-01-01T00:00:00Z\",\n  \"i\": 1\n}\n");
	expect(2, 0, "{KS}", "{\n  \"r\": \"\\/\"\n}\n");
	expect(2, JENC_NO_NEWLINE, "{k1}", "{\n  \"k\": 1\n}");
	expect(2, JENC_NO_NEWLINE, "[]", "[]");
	/* json.Indent(dst, `[[],{},[{"k":[[]]}],"s",null]`, "", "\t") */
	expect(0, JENC_TAB, "[[]{}[{k[[]]}]sn]",
	    "[\n\t[],\n\t{},\n\t[\n\t\t{\n\t\t\t\"k\": [\n\t\t\t\t[]\n"
	    "\t\t\t]\n\t\t}\n\t],\n\t\"s\",\n\tnull\n]\n");
	expect(4, JENC_TAB, "{k[1]}", "{\n\t\"k\": [\n\t\t1\n\t]\n}\n");
	expect(16, JENC_TAB, "[1]", "[\n\t1\n]\n");
	expect(1, 0, "{k[1]}", "{\n \"k\": [\n  1\n ]\n}\n");
	expect(3, 0, "[[1]]", "[\n   [\n      1\n   ]\n]\n");
	{
		char *i16 = repeat(" ", 16), *i32 = repeat(" ", 32);
		char *a = cat("{\n", i16, "\"k\": [\n", i32);

		want = cat(a, "1\n", i16, "]\n}\n");
		expect(16, 0, "{k[1]}", want);
		free(want);
		free(a);
		free(i16);
		free(i32);
	}
}

static void
test_structure_errors(void)
{
	static const char values[] = "{[sS0uftbnrTU";

	/* key outside an object */
	check_bad(0, 0, "", 'k', JENC_E_STATE);
	check_bad(0, 0, "", 'K', JENC_E_STATE);
	check_bad(0, 0, "", 'A', JENC_E_STATE);
	check_bad(0, 0, "1", 'k', JENC_E_STATE);
	check_bad(0, 0, "[", 'k', JENC_E_STATE);
	check_bad(0, 0, "[1", 'K', JENC_E_STATE);
	check_bad(0, 0, "[", 'B', JENC_E_STATE);
	check_bad(0, 0, "{k[", 'I', JENC_E_STATE);
	/* a value where a key is due */
	for (const char *p = values; *p != '\0'; p++) {
		check_bad(0, 0, "{", *p, JENC_E_STATE);
		check_bad(0, 0, "[{k1", *p, JENC_E_STATE);
	}
	/* a key where a value is due */
	check_bad(0, 0, "{k", 'j', JENC_E_STATE);
	check_bad(0, 0, "{k", 'K', JENC_E_STATE);
	check_bad(0, 0, "{k", 'A', JENC_E_STATE);
	/* mismatched ends, ends without a begin */
	check_bad(0, 0, "[", '}', JENC_E_STATE);
	check_bad(0, 0, "[1", '}', JENC_E_STATE);
	check_bad(0, 0, "{", ']', JENC_E_STATE);
	check_bad(0, 0, "{k1", ']', JENC_E_STATE);
	check_bad(0, 0, "{k[", '}', JENC_E_STATE);
	check_bad(0, 0, "", '}', JENC_E_STATE);
	check_bad(0, 0, "", ']', JENC_E_STATE);
	check_bad(0, 0, "[]", ']', JENC_E_STATE);
	check_bad(0, 0, "{}", '}', JENC_E_STATE);
	/* a key with no value */
	check_bad(0, 0, "{k", '}', JENC_E_STATE);
	check_bad(0, 0, "{k", ']', JENC_E_STATE);
	check_bad(0, 0, "[{k1j", '}', JENC_E_STATE);
	/* the same through the indenting writer */
	check_bad(2, 0, "{k", '}', JENC_E_STATE);
	check_bad(2, 0, "{k1", 's', JENC_E_STATE);
	check_bad(2, 0, "[1", 'k', JENC_E_STATE);
	check_bad(0, JENC_TAB, "[[", '}', JENC_E_STATE);

	/* second top-level value with JENC_NO_NEWLINE */
	check_bad(0, JENC_NO_NEWLINE, "1", '2', JENC_E_SECOND);
	check_bad(0, JENC_NO_NEWLINE, "[]", '{', JENC_E_SECOND);
	check_bad(0, JENC_NO_NEWLINE, "{}", 's', JENC_E_SECOND);
	check_bad(0, JENC_NO_NEWLINE, "s", '[', JENC_E_SECOND);
	check_bad(0, JENC_NO_NEWLINE, "n", 'T', JENC_E_SECOND);
	check_bad(2, JENC_NO_NEWLINE, "{k1}", 'r', JENC_E_SECOND);

	/* bad data, in every state where the call would otherwise fit */
	check_bad(0, 0, "", 'x', JENC_E_UTF8);
	check_bad(0, 0, "[1", 'x', JENC_E_UTF8);
	check_bad(0, 0, "{k", 'x', JENC_E_UTF8);
	check_bad(0, 0, "{", 'X', JENC_E_UTF8);
	check_bad(2, 0, "{k1", 'X', JENC_E_UTF8);
	check_bad(0, 0, "{", 'V', JENC_E_UTF8);
	check_bad(0, 0, "{A", 'L', JENC_E_UTF8);
	check_bad(2, 0, "{A", 'V', JENC_E_UTF8);
	check_bad(0, 0, "", 'N', JENC_E_NUMBER);
	check_bad(0, 0, "[", 'P', JENC_E_NUMBER);
	check_bad(0, 0, "{k", 'M', JENC_E_NUMBER);
	check_bad(0, 0, "{", 'W', JENC_E_NUMBER);
	check_bad(2, 0, "[1", 'N', JENC_E_NUMBER);
	check_bad(0, 0, "", 'R', JENC_E_RANGE);
	check_bad(0, 0, "[", 'Q', JENC_E_RANGE);
	check_bad(0, 0, "{k", 'Y', JENC_E_RANGE);
	check_bad(0, 0, "[s", 'Z', JENC_E_RANGE);
	check_bad(0, 0, "{", 'O', JENC_E_RANGE);
	check_bad(2, 0, "{A", 'O', JENC_E_RANGE);
}

static void
test_second(void)
{
	jenc_opts o = { 0, JENC_NO_NEWLINE, 0 };
	jenc_enc *e = jenc_get_mem(&o);

	TEST("JENC_NO_NEWLINE: jenc_take keeps the state") {
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_TAKE(e, "1");
		CHECK_EQ(jenc_len(e), 0);
		CHECK_EQ(jenc_i64(e, 2), JENC_E_SECOND);
		CHECK_EQ(jenc_len(e), 0);
		jenc_reset(e);
		CHECK_EQ(jenc_i64(e, 3), 0);
		CHECK_TAKE(e, "3");
		CHECK_EQ(jenc_release(e), 0);
	}
}

static void
test_depth(void)
{
	jenc_enc *e = mem(0, 0);

	TEST("jenc_depth") {
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_depth(e), 1);
		CHECK_EQ(jenc_key(e, "k", 1), 0);
		CHECK_EQ(jenc_depth(e), 1);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_depth(e), 2);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_depth(e), 4);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_depth(e), 2);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_TAKE(e, "{\"k\":[[{}]]}\n");
		CHECK_EQ(jenc_release(e), 0);
	}
	TEST("depth 1000") {
		char *open_ = repeat("[", 1000), *close_ = repeat("]", 1000);
		char *want = cat(open_, close_, "\n", NULL);

		e = mem(0, 0);
		for (int i = 0; i < 1000; i++)
			CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_depth(e), 1000);
		for (int i = 0; i < 1000; i++)
			CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_TAKE(e, want);
		CHECK_EQ(jenc_release(e), 0);
		free(want);
		free(open_);
		free(close_);
	}
}

static void
expect_f64(double v, const char *want)
{
	jenc_enc *e = mem(0, JENC_NO_NEWLINE);

	snprintf(namebuf, sizeof namebuf, "jenc_f64(%.17g) is %s", v, want);
	TEST(namebuf) {
		CHECK_EQ(jenc_f64(e, v), 0);
		CHECK_TAKE(e, want);
		CHECK_EQ(jenc_release(e), 0);
	}
}

static void
expect_time(int64_t t, const char *want)
{
	jenc_enc *e = mem(0, JENC_NO_NEWLINE);

	snprintf(namebuf, sizeof namebuf, "jenc_time_utc(%lld) is %s",
	    (long long)t, want);
	TEST(namebuf) {
		CHECK_EQ(jenc_time_utc(e, t), 0);
		CHECK_TAKE(e, want);
		CHECK_EQ(jenc_release(e), 0);
	}
}

static void
test_numbers(void)
{
	volatile double a = 0.1, b = 0.2;
	jenc_enc *e;

	TEST("jenc_i64 and jenc_u64 limits") {
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, INT64_MIN), 0);
		CHECK_EQ(jenc_i64(e, INT64_MAX), 0);
		CHECK_EQ(jenc_i64(e, 0), 0);
		CHECK_EQ(jenc_i64(e, -1), 0);
		CHECK_EQ(jenc_i64(e, 1000000007), 0);
		CHECK_EQ(jenc_u64(e, 0), 0);
		CHECK_EQ(jenc_u64(e, UINT64_MAX), 0);
		CHECK_EQ(jenc_u64(e, UINT64_C(9223372036854775808)), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_TAKE(e, "[-9223372036854775808,9223372036854775807,0,-1,"
		    "1000000007,0,18446744073709551615,9223372036854775808]\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	/* Expected texts are Go's json.Marshal of the same float64. */
	expect_f64(0.1, "0.1");
	expect_f64(a + b, "0.30000000000000004");
	expect_f64(1e21, "1e+21");
	expect_f64(1e-7, "1e-7");
	expect_f64(-1e-7, "-1e-7");
	expect_f64(1.5e-7, "1.5e-7");
	expect_f64(1e-6, "0.000001");
	expect_f64(1.23456789e-06, "0.00000123456789");
	expect_f64(-0.0, "-0");
	expect_f64(0.0, "0");
	expect_f64(1e20, "100000000000000000000");
	expect_f64(999999999999999999999.0, "1e+21");
	expect_f64(123456789.125, "123456789.125");
	expect_f64(5e-324, "5e-324");
	expect_f64(2.2250738585072014e-308, "2.2250738585072014e-308");
	expect_f64(1.7976931348623157e308, "1.7976931348623157e+308");
	expect_f64(2.5e25, "2.5e+25");
	expect_f64(1e100, "1e+100");
	expect_f64(123e-20, "1.23e-18");
	expect_f64(100, "100");
	expect_f64(-1.5, "-1.5");
	expect_f64(9007199254740993.0, "9007199254740992");
	expect_f64(123456789012345678.0, "123456789012345680");
	expect_f64(1e15, "1000000000000000");

	TEST("jenc_bool, jenc_null, jenc_raw") {
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_bool(e, 0), 0);
		CHECK_EQ(jenc_bool(e, 1), 0);
		CHECK_EQ(jenc_bool(e, 42), 0);
		CHECK_EQ(jenc_bool(e, -1), 0);
		CHECK_EQ(jenc_null(e), 0);
		CHECK_EQ(jenc_raw(e, "1.50", 4), 0);
		CHECK_EQ(jenc_raw(e, "\"a\\u0041\\/\"", 11), 0);
		CHECK_EQ(jenc_raw(e, "-0", 2), 0);
		CHECK_EQ(jenc_raw(e, "1E+400x", 6), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_TAKE(e, "[false,true,true,true,null,1.50,\"a\\u0041\\/\","
		    "-0,1E+400]\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("jenc_raw: numbers of every length up to 40, at every place") {
		/* 1 to 40 digits, each copied as it is, across many segment
		 * ends (short texts take words, long ones a copy) */
		char digits[41], *want, *out;
		size_t len, n, at = 0, round;
		int ok = 1;

		memset(digits, '7', sizeof(digits));
		want = malloc(200 * 41 * 21 + 3);
		CHECK(want != NULL);
		e = mem(0, 0);
		jenc_arr_begin(e);
		want[at++] = '[';
		for (round = 0; round < 200; round++)
			for (len = 1; len <= 40; len++) {
				digits[0] = (char)('1' + round % 9);
				digits[len - 1] = (char)('0' + len % 10);
				ok &= jenc_raw(e, digits, len) == 0;
				if (at > 1)
					want[at++] = ',';
				memcpy(want + at, digits, len);
				at += len;
				digits[len - 1] = '7';
			}
		want[at++] = ']';
		want[at++] = '\n';
		jenc_arr_end(e);
		CHECK(ok);
		out = jenc_take(e, &n);
		CHECK(out != NULL && n == at && memcmp(out, want, n) == 0);
		jenc_free(out, n);
		free(want);
		CHECK_EQ(jenc_release(e), 0);
	}

	expect_time(0, "\"1970-01-01T00:00:00Z\"");
	expect_time(INT64_C(1795986065), "\"2026-11-29T21:01:05Z\"");
	expect_time(-1, "\"1969-12-31T23:59:59Z\"");
	expect_time(-86401, "\"1969-12-30T23:59:59Z\"");
	expect_time(INT64_C(951782400), "\"2000-02-29T00:00:00Z\"");
	expect_time(INT64_C(1709208000), "\"2024-02-29T12:00:00Z\"");
	expect_time(INT64_C(4107542399), "\"2100-02-28T23:59:59Z\"");
	expect_time(INT64_C(4107542400), "\"2100-03-01T00:00:00Z\"");
	expect_time(INT64_C(-2203891200), "\"1900-03-01T00:00:00Z\"");
	expect_time(INT64_C(-11670955200), "\"1600-02-29T12:00:00Z\"");
	expect_time(INT64_C(-62135596800), "\"0001-01-01T00:00:00Z\"");
	expect_time(INT64_C(253402300799), "\"9999-12-31T23:59:59Z\"");

	TEST("jenc_time_unix") {
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_time_unix(e, 0), 0);
		CHECK_EQ(jenc_time_unix(e, INT64_C(1795986065)), 0);
		CHECK_EQ(jenc_time_unix(e, -1), 0);
		CHECK_EQ(jenc_time_unix(e, INT64_MIN), 0);
		CHECK_EQ(jenc_time_unix(e, INT64_MAX), 0);
		CHECK_EQ(jenc_time_unix(e, INT64_C(253402300800)), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_TAKE(e, "[0,1795986065,-1,-9223372036854775808,"
		    "9223372036854775807,253402300800]\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("every jenc_kv_* shorthand") {
		e = mem(0, 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_kv_str(e, "str", 3, "a\"b", 3), 0);
		CHECK_EQ(jenc_kv_str(e, "empty", 5, "", 0), 0);
		CHECK_EQ(jenc_kv_i64(e, "i64", 3, INT64_MIN), 0);
		CHECK_EQ(jenc_kv_u64(e, "u64", 3, UINT64_MAX), 0);
		CHECK_EQ(jenc_kv_f64(e, "f64", 3, 1e21), 0);
		CHECK_EQ(jenc_kv_bool(e, "t", 1, 1), 0);
		CHECK_EQ(jenc_kv_bool(e, "f", 1, 0), 0);
		CHECK_EQ(jenc_kv_null(e, "null", 4), 0);
		CHECK_EQ(jenc_kv_time_utc(e, "utc", 3, INT64_C(1795986065)), 0);
		CHECK_EQ(jenc_kv_time_unix(e, "unix", 4, INT64_C(1795986065)), 0);
		CHECK_EQ(jenc_kv_str(e, "k\n", 2, "v", 1), 0);
		CHECK_EQ(jenc_kv_null(e, "", 0), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_TAKE(e, "{\"str\":\"a\\\"b\",\"empty\":\"\","
		    "\"i64\":-9223372036854775808,"
		    "\"u64\":18446744073709551615,\"f64\":1e+21,\"t\":true,"
		    "\"f\":false,\"null\":null,"
		    "\"utc\":\"2026-11-29T21:01:05Z\",\"unix\":1795986065,"
		    "\"k\\n\":\"v\",\"\":null}\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("jenc_str with a NUL byte and empty strings") {
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_str(e, "a\0b", 3), 0);
		CHECK_EQ(jenc_str(e, "", 0), 0);
		CHECK_EQ(jenc_raw_str(e, "", 0), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_TAKE(e, "[\"a\\u0000b\",\"\",\"\"]\n");
		CHECK_EQ(jenc_release(e), 0);
	}
}

static void
test_output_calls(void)
{
	jenc_enc *e;
	char *p, *s;
	size_t n, it, len, total;
	const char *seg;

	TEST("jenc_take empties the encoder, which goes on") {
		e = mem(0, 0);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_len(e), 2);
		CHECK_TAKE(e, "1\n");
		CHECK_EQ(jenc_len(e), 0);
		it = 0;
		total = 0;
		while ((seg = jenc_segments(e, &it, &len)) != NULL)
			total += len;
		CHECK_EQ(total, 0);
		p = jenc_take(e, &n);
		CHECK(p != NULL);
		CHECK_EQ(n, 0);
		CHECK_EQ(jenc_error(e), 0);
		free(p);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_TAKE(e, "[2]\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("jenc_take in the middle of a value") {
		e = mem(2, 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_key(e, "a", 1), 0);
		CHECK_TAKE(e, "{\n  \"a\": ");
		CHECK_EQ(jenc_depth(e), 1);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_TAKE(e, "[\n    1");
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_TAKE(e, ",\n    2\n  ]\n}\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("jenc_segments over a multi-segment output equals jenc_take") {
		e = mem(0, 0);
		s = repeat("0123456789abcdef", 64);	/* 1 KiB */
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 300; i++)
			CHECK_EQ(jenc_str(e, s, 1024), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_len(e), 300 * 1027 + 2);
		it = 0;
		total = 0;
		{
			unsigned nseg = 0, within = 1;

			while ((seg = jenc_segments(e, &it, &len)) != NULL) {
				/* Segments start at 4 KiB and double up to
				 * 64 KiB. */
				size_t cap = nseg < 4 ? (size_t)4096 << nseg :
				    65536;

				if (len > cap)
					within = 0;
				nseg++;
				total += len;
			}
			CHECK(nseg >= 5);
			CHECK(within);
		}
		CHECK_EQ(total, jenc_len(e));
		p = held(e, &n);
		{
			size_t tn;
			char *t = jenc_take(e, &tn);

			CHECK(t != NULL && tn == n && memcmp(t, p, n) == 0);
			CHECK(t != NULL && tn > 2 && t[0] == '[' &&
			    memcmp(t + 1, "\"0123456789abcdef", 17) == 0 &&
			    memcmp(t + tn - 3, "\"]\n", 3) == 0);
			free(t);
		}
		free(p);
		CHECK_EQ(jenc_len(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		free(s);
	}

	TEST("jenc_reset drops held output, keeps the encoder usable") {
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 1), 0);
		jenc_reset(e);
		CHECK_EQ(jenc_len(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_TAKE(e, "{}\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("jenc_flush on a memory encoder is a no-op") {
		e = mem(0, 0);
		CHECK_EQ(jenc_i64(e, 5), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_EQ(jenc_len(e), 2);
		CHECK_TAKE(e, "5\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("jenc_release return values") {
		CHECK_EQ(jenc_release(NULL), 0);
		e = mem(0, 0);
		CHECK_EQ(jenc_release(e), 0);
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);
		e = mem(0, 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_key(e, "k", 1), 0);
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);
		/* the first error wins over open containers */
		e = mem(0, 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_obj_end(e), JENC_E_STATE);
		CHECK_EQ(jenc_release(e), JENC_E_STATE);
		e = mem(0, 0);
		CHECK_EQ(jenc_f64(e, NAN), JENC_E_NUMBER);
		CHECK_EQ(jenc_release(e), JENC_E_NUMBER);
	}

	TEST("a fresh encoder has no error") {
		e = mem(0, 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_errno(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_len(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		e = jenc_get_mem(NULL);
		CHECK(e != NULL);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_kv_i64(e, "a", 1, 1), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_TAKE(e, "{\"a\":1}\n");
		CHECK_EQ(jenc_release(e), 0);
	}
}

static void
test_strerror(void)
{
	static const int codes[] = { JENC_OK, JENC_E_NOMEM, JENC_E_IO,
	    JENC_E_STATE, JENC_E_UTF8, JENC_E_NUMBER, JENC_E_SECOND,
	    JENC_E_RANGE, JENC_E_INCOMPLETE, JENC_E_SYNTAX, JENC_E_DEPTH,
	    JENC_E_SINK };
	size_t nc = sizeof codes / sizeof codes[0];

	TEST("jenc_strerror") {
		CHECK_EQ(nc, 12);
		for (size_t i = 0; i < nc; i++) {
			const char *m = jenc_strerror(codes[i]);

			CHECK(m != NULL);
			if (m == NULL)
				continue;
			CHECK(m[0] != '\0');
			CHECK(!(m[0] >= 'A' && m[0] <= 'Z'));
			CHECK(m[strlen(m) - 1] != '.');
			for (size_t j = 0; j < i; j++) {
				const char *o = jenc_strerror(codes[j]);

				CHECK(o != NULL && strcmp(m, o) != 0);
			}
		}
		CHECK(jenc_strerror(-12) != NULL);
		CHECK(jenc_strerror(-1000) != NULL);
		CHECK(jenc_strerror(1) != NULL);
		CHECK(jenc_strerror(INT32_MIN) != NULL);
	}
}

static void
test_sink(void)
{
	struct coll c = { 0 };
	jenc_enc *e;
	char *s, *want;

	TEST("sink: not called per token, called on flush") {
		e = jenc_get_sink(coll_sink, &c, NULL);
		CHECK(e != NULL);
		for (int i = 0; i < 1000; i++)
			CHECK_EQ(jenc_i64(e, 7), 0);
		CHECK_EQ(c.calls, 0);
		CHECK_EQ(jenc_len(e), 2000);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK(c.calls >= 1);
		CHECK_EQ(jenc_len(e), 0);
		want = repeat("7\n", 1000);
		CHECK_STR(c.buf, c.len, want);
		free(want);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_EQ(c.len, 2000);
		CHECK_EQ(jenc_null(e), 0);
		CHECK_EQ(c.len, 2000);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_EQ(c.len, 2005);
		CHECK(c.len == 2005 && memcmp(c.buf + 2000, "null\n", 5) == 0);
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("sink: full segments go out before flush, in order") {
		e = jenc_get_sink(coll_sink, &c, NULL);
		s = repeat("abcdefgh", 125);	/* 1000 bytes */
		want = malloc(200 * 1003 + 1);
		CHECK(want != NULL);
		for (int i = 0; i < 200; i++) {
			CHECK_EQ(jenc_str(e, s, 1000), 0);
			want[i * 1003] = '"';
			memcpy(want + i * 1003 + 1, s, 1000);
			memcpy(want + i * 1003 + 1001, "\"\n", 2);
			/* what went out and what is held make the output */
			CHECK_EQ(c.len + jenc_len(e), (size_t)(i + 1) * 1003);
		}
		want[200 * 1003] = '\0';
		CHECK(c.len > 0);
		CHECK(c.len == 0 || memcmp(c.buf, want, c.len) == 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, want);
		free(want);
		free(s);
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("sink: failure is JENC_E_SINK, sticky") {
		c.fail = 3;
		e = jenc_get_sink(coll_sink, &c, NULL);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_flush(e), JENC_E_SINK);
		CHECK_EQ(jenc_error(e), JENC_E_SINK);
		CHECK_EQ(jenc_i64(e, 2), JENC_E_SINK);
		CHECK_EQ(jenc_flush(e), JENC_E_SINK);
		CHECK_EQ(jenc_release(e), JENC_E_SINK);
		c.fail = -1;
		e = jenc_get_sink(coll_sink, &c, NULL);
		CHECK_EQ(jenc_str(e, "x", 1), 0);
		CHECK_EQ(jenc_release(e), JENC_E_SINK);
		/* a sink failing when a segment fills, before any flush */
		c.fail = 1;
		c.calls = 0;
		e = jenc_get_sink(coll_sink, &c, NULL);
		{
			int rc = 0;

			for (int i = 0; i < 100000 && rc == 0; i++)
				rc = jenc_i64(e, 1234567);
			CHECK_EQ(rc, JENC_E_SINK);
			CHECK(c.calls >= 1);
		}
		CHECK_EQ(jenc_error(e), JENC_E_SINK);
		CHECK_EQ(jenc_release(e), JENC_E_SINK);
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("sink: release with open containers still flushes") {
		e = jenc_get_sink(coll_sink, &c, NULL);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);
		CHECK_STR(c.buf, c.len, "[1,2");
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("sink: release after an error writes the complete values only") {
		e = jenc_get_sink(coll_sink, &c, NULL);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 3), 0);
		CHECK_EQ(jenc_key(e, "k", 1), JENC_E_STATE);
		CHECK_EQ(jenc_release(e), JENC_E_STATE);
		CHECK_STR(c.buf, c.len, "1\n2\n");
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("sink: release with JENC_HOLD writes an incomplete value") {
		jenc_opts h = { 0, JENC_HOLD, 0 };

		e = jenc_get_sink(coll_sink, &c, &h);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_STR(c.buf, c.len, "1\n");
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);
		CHECK_STR(c.buf, c.len, "1\n[2");
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("sink: indented output through the sink") {
		jenc_opts o = { .indent = 2 };

		e = jenc_get_sink(coll_sink, &c, &o);
		for (const char *p = "{k[12]j{}}"; *p != '\0'; p++)
			CHECK_EQ(op(e, *p), 0);
		CHECK_EQ(c.len, 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len,
		    "{\n  \"k\": [\n    1,\n    2\n  ],\n  \"j\": {}\n}\n");
	}
	free(c.buf);
}

static void
test_fd(void)
{
	struct reader r = { 0 };
	pthread_t th;
	int pfd[2], fd;
	jenc_enc *e;
	char *s, *want;

	TEST("jenc_get_fd on a pipe delivers the exact bytes") {
		CHECK_EQ(pipe(pfd), 0);
		r.fd = pfd[0];
		CHECK_EQ(pthread_create(&th, NULL, read_all, &r), 0);
		e = jenc_get_fd(pfd[1], NULL);
		CHECK(e != NULL);
		s = repeat("pipe\t", 100);	/* 500 bytes, 600 escaped */
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 1000; i++) {
			CHECK_EQ(jenc_str(e, s, 500), 0);
			if (i == 500)
				CHECK_EQ(jenc_flush(e), 0);
		}
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_i64(e, 42), 0);
		CHECK_EQ(jenc_release(e), 0);
		close(pfd[1]);
		pthread_join(th, NULL);
		close(pfd[0]);
		free(s);
		{
			char *one = repeat("pipe\\t", 100);
			char *item = cat("\"", one, "\",", NULL);
			char *items = repeat(item, 1000);

			items[strlen(items) - 1] = '\0';	/* last comma */
			want = cat("[", items, "]\n42\n", NULL);
			free(one);
			free(item);
			free(items);
		}
		CHECK_EQ(r.len, strlen(want));
		CHECK_STR(r.buf, r.len, want);
		free(want);
		free(r.buf);
	}

	TEST("jenc_get_fd on a non-blocking pipe waits and delivers all") {
		memset(&r, 0, sizeof r);
		CHECK_EQ(pipe(pfd), 0);
		CHECK_EQ(fcntl(pfd[1], F_SETFL, O_NONBLOCK), 0);
		r.fd = pfd[0];
		e = jenc_get_fd(pfd[1], NULL);
		s = repeat("nonblocking ", 100000);	/* 1.2 MB */
		CHECK_EQ(pthread_create(&th, NULL, read_all, &r), 0);
		/* Each write is far larger than the pipe's buffer, so some
		 * must meet EAGAIN and wait. */
		for (int i = 0; i < 4; i++)
			CHECK_EQ(jenc_str(e, s, 1200000), 0);
		CHECK_EQ(jenc_release(e), 0);
		/* the descriptor is still the caller's, and open */
		CHECK(fcntl(pfd[1], F_GETFD) != -1);
		close(pfd[1]);
		pthread_join(th, NULL);
		close(pfd[0]);
		{
			char *item = cat("\"", s, "\"\n", NULL);

			want = repeat(item, 4);
			free(item);
		}
		CHECK_EQ(r.len, strlen(want));
		CHECK(r.buf != NULL && strcmp(r.buf, want) == 0);
		free(want);
		free(s);
		free(r.buf);
	}

	TEST("jenc_get_fd on a pipe with no reader: JENC_E_IO, EPIPE") {
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);

		CHECK_EQ(pipe(pfd), 0);
		close(pfd[0]);
		e = jenc_get_fd(pfd[1], NULL);
		CHECK_EQ(jenc_null(e), 0);
		CHECK_EQ(jenc_flush(e), JENC_E_IO);
		CHECK_EQ(jenc_errno(e), EPIPE);
		CHECK_EQ(jenc_release(e), JENC_E_IO);
		close(pfd[1]);
		signal(SIGPIPE, old);
	}

	TEST("jenc_get_fd on /dev/full: JENC_E_IO, ENOSPC") {
		fd = open("/dev/full", O_WRONLY);
		CHECK(fd >= 0);
		e = jenc_get_fd(fd, NULL);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_flush(e), JENC_E_IO);
		CHECK_EQ(jenc_errno(e), ENOSPC);
		CHECK_EQ(jenc_error(e), JENC_E_IO);
		CHECK_EQ(jenc_i64(e, 2), JENC_E_IO);
		CHECK_EQ(jenc_release(e), JENC_E_IO);
		/* without a flush, jenc_release reports it */
		e = jenc_get_fd(fd, NULL);
		CHECK_EQ(jenc_null(e), 0);
		CHECK_EQ(jenc_release(e), JENC_E_IO);
		/* a pooled encoder does not keep the errno */
		e = jenc_get_fd(fd, NULL);
		CHECK_EQ(jenc_errno(e), 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		close(fd);
	}

	TEST("jenc_get_fd on a closed fd: JENC_E_IO, EBADF") {
		CHECK_EQ(pipe(pfd), 0);
		close(pfd[0]);
		close(pfd[1]);
		e = jenc_get_fd(pfd[1], NULL);
		CHECK_EQ(jenc_str(e, "x", 1), 0);
		CHECK_EQ(jenc_flush(e), JENC_E_IO);
		CHECK_EQ(jenc_errno(e), EBADF);
		CHECK_EQ(jenc_release(e), JENC_E_IO);
	}
}

static void
test_hold(void)
{
	struct coll c = { 0 };
	jenc_opts o = { 0, JENC_HOLD, 0 };
	jenc_enc *e;
	char *s = repeat("0123456789", 100);	/* 1000 bytes, 1003 out */
	size_t n;

	TEST("hold: an incomplete value over several segments is held") {
		e = jenc_get_sink(coll_sink, &c, &o);
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 300; i++)	/* ~300 KB < 1 MiB */
			CHECK_EQ(jenc_str(e, s, 1000), 0);
		CHECK_EQ(c.len, 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_EQ(c.len, 0);
		CHECK_EQ(jenc_len(e), 1 + 300 * 1003 - 1);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(c.len, 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_EQ(c.len, 300 * 1003 + 2);
		CHECK_EQ(jenc_len(e), 0);
		CHECK(c.len > 2 && memcmp(c.buf, "[\"0123", 6) == 0 &&
		    memcmp(c.buf + c.len - 5, "89\"]\n", 5) == 0);
		CHECK_EQ(jenc_release(e), 0);
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("hold: flush writes the complete values only") {
		e = jenc_get_sink(coll_sink, &c, &o);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_STR(c.buf, c.len, "1\n");
		CHECK_EQ(jenc_len(e), 2);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_len(e), 0);
		CHECK_EQ(jenc_i64(e, 3), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_STR(c.buf, c.len, "1\n3\n");
		/* nothing incomplete: discard changes nothing */
		CHECK_EQ(jenc_i64(e, 4), 0);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "1\n3\n4\n");
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("hold: jenc_discard clears the error") {
		e = jenc_get_sink(coll_sink, &c, &o);
		CHECK_EQ(jenc_str(e, "ok", 2), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_kv_i64(e, "a", 1, 1), 0);
		CHECK_EQ(jenc_str(e, "v", 1), JENC_E_STATE);
		CHECK_EQ(jenc_key(e, "\xc0\x80", 2), JENC_E_STATE);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_key(e, "\xc0\x80", 2), JENC_E_UTF8);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_null(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "\"ok\"\nnull\n");
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("hold: a value past hold_max streams, discard returns 1") {
		jenc_opts small = { 0, JENC_HOLD, 10000 };

		e = jenc_get_sink(coll_sink, &c, &small);
		CHECK_EQ(jenc_i64(e, 9), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 50; i++)	/* ~50 KB > 10000 */
			CHECK_EQ(jenc_str(e, s, 1000), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK(c.len > 2);
		CHECK(c.len >= 6 && memcmp(c.buf, "9\n[\"01", 6) == 0);
		CHECK_EQ(c.len + jenc_len(e), 2 + 1 + 50 * 1003 - 1);
		CHECK_EQ(jenc_discard(e), 1);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_len(e), 0);
		n = c.len;
		CHECK_EQ(jenc_null(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK(c.len >= n + 5 &&
		    memcmp(c.buf + c.len - 5, "null\n", 5) == 0);
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("hold: hold_max 0 means 1 MiB") {
		e = jenc_get_sink(coll_sink, &c, &o);
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 1000; i++)	/* 1003000 < 1048576 */
			CHECK_EQ(jenc_str(e, s, 1000), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_EQ(c.len, 0);
		for (int i = 0; i < 100; i++)	/* 1103300 > 1048576 */
			CHECK_EQ(jenc_str(e, s, 1000), 0);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK(c.len > 0);
		CHECK_EQ(jenc_discard(e), 1);
		CHECK_EQ(jenc_release(e), 0);
	}
	free(c.buf);
	memset(&c, 0, sizeof c);

	TEST("hold: discard on a memory encoder") {
		e = jenc_get_mem(&o);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_key(e, "k", 1), 0);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		CHECK_HELD(e, "1\n");
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_TAKE(e, "1\n2\n");
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("hold: with JENC_NO_NEWLINE, discard allows a new value") {
		jenc_opts nn = { 2, JENC_HOLD | JENC_NO_NEWLINE, 0 };

		e = jenc_get_sink(coll_sink, &c, &nn);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 1), 0);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_i64(e, 2), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "[\n  2\n]");
	}
	free(c.buf);
	free(s);
}

/* big_case - one call with a 1 MB argument, on a memory encoder and a sink. */
static void
big_case(const char *name, char kind, const char *arg, const char *want)
{
	struct coll c = { 0 };
	size_t n = strlen(arg);
	jenc_enc *e[2];

	snprintf(namebuf, sizeof namebuf, "large append: %s", name);
	TEST(namebuf) {
		e[0] = mem(0, 0);
		e[1] = jenc_get_sink(coll_sink, &c, NULL);
		for (int i = 0; i < 2; i++) {
			CHECK_EQ(jenc_arr_begin(e[i]), 0);
			CHECK_EQ(jenc_i64(e[i], 1), 0);
			switch (kind) {
			case 's':
				CHECK_EQ(jenc_str(e[i], arg, n), 0);
				break;
			case 'S':
				CHECK_EQ(jenc_raw_str(e[i], arg, n), 0);
				break;
			case 'r':
				CHECK_EQ(jenc_raw(e[i], arg, n), 0);
				break;
			case 'k':
				CHECK_EQ(jenc_obj_begin(e[i]), 0);
				CHECK_EQ(jenc_key(e[i], arg, n), 0);
				CHECK_EQ(jenc_null(e[i]), 0);
				CHECK_EQ(jenc_obj_end(e[i]), 0);
				break;
			case 'K':
				CHECK_EQ(jenc_obj_begin(e[i]), 0);
				CHECK_EQ(jenc_raw_key(e[i], arg, n), 0);
				CHECK_EQ(jenc_null(e[i]), 0);
				CHECK_EQ(jenc_obj_end(e[i]), 0);
				break;
			default:
				abort();
			}
			CHECK_EQ(jenc_i64(e[i], 2), 0);
			CHECK_EQ(jenc_arr_end(e[i]), 0);
		}
		CHECK_EQ(jenc_len(e[0]), strlen(want));
		CHECK_HELD(e[0], want);
		CHECK_TAKE(e[0], want);
		CHECK_EQ(jenc_release(e[0]), 0);
		CHECK_EQ(jenc_release(e[1]), 0);
		CHECK_EQ(c.len, strlen(want));
		CHECK(c.buf != NULL && strcmp(c.buf, want) == 0);
	}
	free(c.buf);
}

static void
test_large(void)
{
	char *s = repeat("abcdefghijklmnopqrstuvwxyz", 40000);	/* 1.04 MB */
	char *want, *t;

	want = cat("[1,\"", s, "\",2]\n", NULL);
	big_case("jenc_str", 's', s, want);
	big_case("jenc_raw_str", 'S', s, want);
	free(want);
	want = cat("[1,{\"", s, "\":null},2]\n", NULL);
	big_case("jenc_key", 'k', s, want);
	big_case("jenc_raw_key", 'K', s, want);
	free(want);
	free(s);

	s = repeat("1234567890", 100000);
	want = cat("[1,", s, ",2]\n", NULL);
	big_case("jenc_raw", 'r', s, want);
	free(want);
	free(s);

	s = repeat("\"", 1000000);
	t = repeat("\\\"", 1000000);
	want = cat("[1,\"", t, "\",2]\n", NULL);
	big_case("jenc_str of quotes", 's', s, want);
	free(want);
	free(t);
	free(s);

	s = repeat("\x01\xc3\xa9", 400000);
	t = repeat("\\u0001\xc3\xa9", 400000);
	want = cat("[1,\"", t, "\",2]\n", NULL);
	big_case("jenc_str of control bytes", 's', s, want);
	free(want);
	free(t);
	free(s);

	TEST("large appends among small ones, jenc_segments equals take") {
		jenc_enc *e = mem(2, 0);
		char *p, *q;
		size_t n, m;

		s = repeat("x", 200000);
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 20; i++) {
			CHECK_EQ(jenc_i64(e, i), 0);
			CHECK_EQ(jenc_str(e, s, (size_t)(i + 1) * 7000), 0);
		}
		CHECK_EQ(jenc_arr_end(e), 0);
		p = held(e, &n);
		q = jenc_take(e, &m);
		CHECK(q != NULL && n == m && memcmp(p, q, n) == 0);
		want = malloc(3000000);
		CHECK(want != NULL);
		{
			size_t wl = 0, l;

			memcpy(want, "[\n", 2);
			wl = 2;
			for (int i = 0; i < 20; i++) {
				wl += (size_t)sprintf(want + wl, "  %d,\n  \"", i);
				l = (size_t)(i + 1) * 7000;
				memset(want + wl, 'x', l);
				wl += l;
				wl += (size_t)sprintf(want + wl, "\"%s\n",
				    i < 19 ? "," : "");
			}
			memcpy(want + wl, "]\n", 3);
		}
		CHECK_STR(q, m, want);
		free(want);
		free(p);
		free(q);
		free(s);
		CHECK_EQ(jenc_release(e), 0);
	}
}

/*
 * A text of length 0 may be given as NULL, as C programs often hold an
 * empty string: jenc_str, jenc_key and the key-value calls write "" for
 * it, on each of the encoder's ways (plain, escaping, colors, sorted
 * keys), and never pass the NULL on to memcpy (the sanitizer builds
 * check that).
 */
static void
test_null_empty(void)
{
	static const unsigned flags[] = { 0, JENC_HTML | JENC_ASCII,
		JENC_COLOR, JENC_SORT_KEYS, JENC_HOLD };
	char name[80];

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		snprintf(name, sizeof(name), "NULL text of length 0 is \"\" "
		    "(flags %#x)", flags[i]);
		TEST(name) {
			jenc_enc *e = mem(0, flags[i]);

			CHECK_EQ(jenc_obj_begin(e), 0);
			CHECK_EQ(jenc_key(e, NULL, 0), 0);
			CHECK_EQ(jenc_str(e, NULL, 0), 0);
			CHECK_EQ(jenc_kv_str(e, NULL, 0, NULL, 0), 0);
			CHECK_EQ(jenc_kv_i64(e, NULL, 0, 1), 0);
			CHECK_EQ(jenc_key(e, "a", 1), 0);
			CHECK_EQ(jenc_arr_begin(e), 0);
			CHECK_EQ(jenc_str(e, NULL, 0), 0);
			CHECK_EQ(jenc_arr_end(e), 0);
			CHECK_EQ(jenc_obj_end(e), 0);
			if (!(flags[i] & JENC_COLOR))
				CHECK_TAKE(e, "{\"\":\"\",\"\":\"\",\"\":1,"
				    "\"a\":[\"\"]}\n");
			CHECK_EQ(jenc_release(e), 0);
		}
	}
}

int
main(void)
{
	test_compact();
	test_indent();
	test_structure_errors();
	test_second();
	test_depth();
	test_numbers();
	test_output_calls();
	test_strerror();
	test_sink();
	test_fd();
	test_hold();
	test_large();
	test_null_empty();
	return harness_done();
}
