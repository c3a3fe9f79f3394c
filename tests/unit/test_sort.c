/*
 * test_sort.c - JENC_SORT_KEYS: key order by code points after unescaping,
 * stability, nesting, every layout, objects across segments, the side
 * buffer seen through jenc_take/jenc_flush/jenc_discard, errors, memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"

static jenc_enc *
mem(unsigned indent, unsigned flags)
{
	jenc_opts o = { indent, flags | JENC_SORT_KEYS, 0 };
	jenc_enc *e = jenc_get_mem(&o);

	if (e == NULL)
		abort();
	return e;
}

/* The JSON text in through the reader into a sorting encoder. */
static char *
sorted(const char *in, unsigned indent, unsigned flags, size_t *n, int *rc)
{
	jenc_enc *e = mem(indent, flags);
	jenc_err err;
	char *out;

	*rc = jenc_json_copy_mem(in, strlen(in), e, NULL, &err);
	out = jenc_take(e, n);
	jenc_release(e);
	return out;
}

#define CHECK_SORTED(in, indent, flags, want) do { \
	size_t sn_; \
	int src_; \
	char *sp_ = sorted((in), (indent), (flags), &sn_, &src_); \
	CHECK_EQ(src_, 0); \
	CHECK_STR(sp_, sn_, (want)); \
	free(sp_); \
} while (0)

/* A sink that collects what it is given. */
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
	if (c->len + len >= sizeof(c->buf))
		return 1;
	memcpy(c->buf + c->len, buf, len);
	c->len += len;
	return 0;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static unsigned
rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

struct kv {
	char key[8];
	size_t klen;
	unsigned val;		/* the input position */
};

static int
kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->key, y->key, n);

	if (c != 0)
		return c;
	if (x->klen != y->klen)
		return x->klen < y->klen ? -1 : 1;
	return x->val < y->val ? -1 : (x->val > y->val);	/* stable */
}

/* An object of n members with random short keys (many repeated), sorted
 * by the encoder and by qsort with the input position as a tie break. */
static int
random_object_ok(unsigned n, unsigned indent)
{
	struct kv *m = calloc(n, sizeof(*m));
	jenc_enc *e = mem(indent, 0);
	char *out, *want, *w;
	size_t len, i;
	int ok;

	if (m == NULL)
		abort();
	jenc_obj_begin(e);
	for (i = 0; i < n; i++) {
		size_t k;

		m[i].klen = 1 + rnd(3);
		for (k = 0; k < m[i].klen; k++)
			m[i].key[k] = (char)('a' + rnd(4));
		m[i].val = (unsigned)i;
		jenc_kv_u64(e, m[i].key, m[i].klen, i);
	}
	jenc_obj_end(e);
	out = jenc_take(e, &len);
	jenc_release(e);
	qsort(m, n, sizeof(*m), kv_cmp);
	if ((want = malloc(32 * (size_t)n + 16)) == NULL)
		abort();
	w = want;
	*w++ = '{';
	for (i = 0; i < n; i++) {
		if (i > 0)
			*w++ = ',';
		if (indent)
			w += sprintf(w, "\n%*s", (int)indent, "");
		w += sprintf(w, "\"%.*s\":%s%u", (int)m[i].klen, m[i].key,
		    indent ? " " : "", m[i].val);
	}
	if (indent && n > 0)
		*w++ = '\n';
	w += sprintf(w, "}\n");
	ok = out != NULL && len == (size_t)(w - want) &&
	    memcmp(out, want, len) == 0;
	free(out);
	free(want);
	free(m);
	return ok;
}

int
main(void)
{
	TEST("jenc_obj_end puts the members in key order, compact and indented") {
		jenc_enc *e = mem(0, 0);

		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		jenc_kv_str(e, "a", 1, "x", 1);
		jenc_kv_null(e, "c", 1);
		CHECK_EQ(jenc_obj_end(e), 0);
		CHECK_TAKE(e, "{\"a\":\"x\",\"b\":1,\"c\":null}\n");
		jenc_release(e);

		e = mem(2, 0);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		jenc_kv_i64(e, "a", 1, 2);
		jenc_obj_end(e);
		CHECK_TAKE(e, "{\n  \"a\": 2,\n  \"b\": 1\n}\n");
		jenc_release(e);

		e = mem(0, JENC_TAB);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		jenc_key(e, "a", 1);
		jenc_arr_begin(e);
		jenc_i64(e, 2);
		jenc_arr_end(e);
		jenc_obj_end(e);
		CHECK_TAKE(e, "{\n\t\"a\": [\n\t\t2\n\t],\n\t\"b\": 1\n}\n");
		jenc_release(e);
	}

	TEST("nested objects are sorted first, at their own depth") {
		CHECK_SORTED("{\"z\":{\"y\":1,\"x\":{\"b\":[{\"d\":1,\"c\":2}],"
		    "\"a\":0}},\"a\":[]}", 0, 0,
		    "{\"a\":[],\"z\":{\"x\":{\"a\":0,\"b\":[{\"c\":2,\"d\":1}]},"
		    "\"y\":1}}\n");
		CHECK_SORTED("{\"b\":{\"d\":1,\"c\":2},\"a\":1}", 2, 0,
		    "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": 2,\n    \"d\": 1\n"
		    "  }\n}\n");
		CHECK_SORTED("[{\"b\":1,\"a\":2},3,{\"d\":{}}]", 0, 0,
		    "[{\"a\":2,\"b\":1},3,{\"d\":{}}]\n");
		CHECK_SORTED("{}", 2, 0, "{}\n");
		/* an empty key first, before the keys have any storage */
		CHECK_SORTED("{\"\":1}", 0, 0, "{\"\":1}\n");
		CHECK_SORTED("{\"a\":{}}", 2, 0, "{\n  \"a\": {}\n}\n");
		CHECK_SORTED("{\"only\":true}", 0, 0, "{\"only\":true}\n");
	}

	TEST("equal keys keep their order; duplicates are kept") {
		CHECK_SORTED("{\"b\":1,\"a\":1,\"b\":2,\"a\":2,\"b\":3}", 0, 0,
		    "{\"a\":1,\"a\":2,\"b\":1,\"b\":2,\"b\":3}\n");
	}

	TEST("keys compare as code points after unescaping") {
		/* \u00e9 and the UTF-8 of U+00E9 are one key: input order */
		CHECK_SORTED("{\"\\u00e9\":1,\"\xc3\xa9\":2,\"f\":3}", 0, 0,
		    "{\"f\":3,\"\\u00e9\":1,\"\xc3\xa9\":2}\n");
		CHECK_SORTED("{\"\xc3\xa9\":2,\"\\u00E9\":1}", 0, 0,
		    "{\"\xc3\xa9\":2,\"\\u00E9\":1}\n");
		/* U+1F600 (a surrogate pair) sorts after U+FFFF: code points,
		 * not UTF-16 units */
		CHECK_SORTED("{\"\\ud83d\\ude00\":1,\"\\uffff\":2,\"\xef\xbf\xbd\":3}",
		    0, 0, "{\"\xef\xbf\xbd\":3,\"\\uffff\":2,\"\\ud83d\\ude00\":1}\n");
		/* a lone surrogate is its own code point, between U+D7FF and
		 * U+E000 */
		CHECK_SORTED("{\"\\ue000\":1,\"\\ud800\":2,\"\\ud7ff\":3}", 0, 0,
		    "{\"\\ud7ff\":3,\"\\ud800\":2,\"\\ue000\":1}\n");
		/* short escapes, \/ and \\ */
		CHECK_SORTED("{\"b\":1,\"\\/\":2,\"\\n\":3,\"\\\\\":4,\"\\\"\":5,"
		    "\"a\\tb\":6,\"a\\u0000\":7}", 0, 0,
		    "{\"\\n\":3,\"\\\"\":5,\"\\/\":2,\"\\\\\":4,\"a\\u0000\":7,"
		    "\"a\\tb\":6,\"b\":1}\n");
		/* a prefix first, the empty key before all */
		CHECK_SORTED("{\"ab\":1,\"a\":2,\"\":3,\"b\":4,\"aa\":5}", 0, 0,
		    "{\"\":3,\"a\":2,\"aa\":5,\"ab\":1,\"b\":4}\n");
	}

	TEST("keys of every length, with an escape at every place") {
		/* three keys of L bytes of 'x' with 'c', \u0062 ('b') or 'a'
		 * at i, and one key a byte longer: whatever way a key of its
		 * length is copied, they sort a, b, c, the longer one last */
		char in[512], want[512], k[3][64];
		size_t len, i;
		int ok = 1;

		for (len = 1; len <= 40 && ok; len++)
			for (i = 0; i < len && ok; i++) {
				char *out;
				size_t n;
				int rc;

				memset(k, 'x', sizeof(k));
				k[0][i] = 'c';
				k[1][i] = 'b';
				k[2][i] = 'a';
				k[0][len] = k[1][len] = k[2][len] = '\0';
				snprintf(in, sizeof(in),
				    "{\"%sx\":0,\"%s\":1,\"%.*s\\u0062%s\":2,"
				    "\"%s\":3}", k[0], k[0], (int)i, k[1],
				    k[1] + i + 1, k[2]);
				snprintf(want, sizeof(want),
				    "{\"%s\":3,\"%.*s\\u0062%s\":2,\"%s\":1,"
				    "\"%sx\":0}\n", k[2], (int)i, k[1],
				    k[1] + i + 1, k[0], k[0]);
				out = sorted(in, 0, 0, &n, &rc);
				ok = rc == 0 && n == strlen(want) &&
				    memcmp(out, want, n) == 0;
				if (!ok)
					fprintf(stderr, "length %zu, at %zu: %.*s\n",
					    len, i, (int)n, out);
				free(out);
			}
		CHECK(ok);
	}

	TEST("jenc_key and jenc_raw_key keys sort together") {
		jenc_enc *e = mem(0, 0);

		jenc_obj_begin(e);
		jenc_key(e, "\xc3\xa9", 2);
		jenc_i64(e, 1);
		jenc_raw_key(e, "\\u00e8", 6);
		jenc_i64(e, 2);
		jenc_key(e, "e\"", 2);
		jenc_i64(e, 3);
		jenc_obj_end(e);
		CHECK_TAKE(e, "{\"e\\\"\":3,\"\\u00e8\":2,\"\xc3\xa9\":1}\n");
		jenc_release(e);
	}

	TEST("many members: the merge sort against qsort") {
		unsigned sizes[] = { 2, 7, 8, 9, 16, 17, 100, 1000, 5000 };
		size_t i;

		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			CHECK(random_object_ok(sizes[i], 0));
			CHECK(random_object_ok(sizes[i], 3));
		}
	}

	TEST("objects larger than a segment, and strings larger than 64 KiB") {
		size_t big = 200000, n, i;
		char *s = malloc(big), *out;
		jenc_enc *e = mem(0, 0);
		int ok = 1;

		if (s == NULL)
			abort();
		memset(s, 'x', big);
		jenc_obj_begin(e);
		for (i = 0; i < 3000; i++) {
			char k[16];

			snprintf(k, sizeof(k), "k%05zu", 2999 - i);
			jenc_key(e, k, strlen(k));
			if (i == 1500)
				jenc_str(e, s, big);
			else
				jenc_u64(e, i);
		}
		jenc_obj_end(e);
		out = jenc_take(e, &n);
		CHECK(out != NULL);
		/* as long as the same object unsorted */
		{
			jenc_opts po = { 0, 0, 0 };
			jenc_enc *p = jenc_get_mem(&po);

			jenc_obj_begin(p);
			for (i = 0; i < 3000; i++) {
				char k[16];

				snprintf(k, sizeof(k), "k%05zu", 2999 - i);
				jenc_key(p, k, strlen(k));
				if (i == 1500)
					jenc_str(p, s, big);
				else
					jenc_u64(p, i);
			}
			jenc_obj_end(p);
			CHECK_EQ(jenc_len(p), n);
			jenc_release(p);
		}
		/* k00000 (i = 2999) first, ..., k02999 (i = 0) last */
		CHECK(out != NULL && memcmp(out, "{\"k00000\":2999,", 15) == 0);
		CHECK(out != NULL && memcmp(out + n - 12, "\"k02999\":0}\n", 12) ==
		    0);
		for (i = 1; out != NULL && i + 13 <= n; i++)
			if (out[i] == '"' && out[i - 1] == ',' &&
			    memcmp(out + i + 1, "k01499\":\"xxx", 12) == 0)
				ok = 2;
		CHECK(ok == 2);
		free(out);
		free(s);
		jenc_release(e);
	}

	TEST("an open sorted object is not output: jenc_take, jenc_len") {
		jenc_enc *e = mem(0, 0);

		jenc_arr_begin(e);
		jenc_i64(e, 1);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 2);
		CHECK_EQ(jenc_len(e), 4);
		CHECK_TAKE(e, "[1,{");
		jenc_kv_i64(e, "a", 1, 3);
		jenc_obj_end(e);
		jenc_arr_end(e);
		CHECK_TAKE(e, "\"a\":3,\"b\":2}]\n");
		jenc_release(e);
	}

	TEST("jenc_flush inside a sorted object writes what is before it") {
		struct coll c = { .len = 0 };
		jenc_opts o = { 0, JENC_SORT_KEYS, 0 };
		jenc_enc *e = jenc_get_sink(coll_sink, &c, &o);

		jenc_i64(e, 1);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 2);
		CHECK_EQ(jenc_flush(e), 0);
		CHECK_STR(c.buf, c.len, "1\n{");
		jenc_kv_i64(e, "a", 1, 3);
		jenc_obj_end(e);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "1\n{\"a\":3,\"b\":2}\n");
	}

	TEST("jenc_discard drops a sorted object; the encoder goes on") {
		jenc_opts o = { 0, JENC_SORT_KEYS | JENC_HOLD, 0 };
		struct coll c = { .len = 0 };
		jenc_enc *e = jenc_get_sink(coll_sink, &c, &o);

		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		jenc_obj_end(e);
		jenc_obj_begin(e);
		jenc_key(e, "z", 1);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "y", 1, 1);
		CHECK_EQ(jenc_discard(e), 0);
		CHECK_EQ(jenc_depth(e), 0);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "d", 1, 1);
		jenc_kv_i64(e, "c", 1, 1);
		jenc_obj_end(e);
		CHECK_EQ(jenc_release(e), 0);
		CHECK_STR(c.buf, c.len, "{\"b\":1}\n{\"c\":1,\"d\":1}\n");
	}

	TEST("jenc_reset and a release with the object open") {
		jenc_enc *e = mem(0, 0);

		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		jenc_reset(e);
		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		jenc_kv_i64(e, "a", 1, 1);
		jenc_obj_end(e);
		CHECK_TAKE(e, "{\"a\":1,\"b\":1}\n");
		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		CHECK_EQ(jenc_release(e), JENC_E_INCOMPLETE);
	}

	TEST("a bad key in a sorted object writes nothing and sticks") {
		jenc_enc *e = mem(0, 0);

		jenc_obj_begin(e);
		jenc_kv_i64(e, "b", 1, 1);
		CHECK_EQ(jenc_key(e, "\xff", 1), JENC_E_UTF8);
		CHECK_EQ(jenc_obj_end(e), JENC_E_UTF8);
		CHECK_EQ(jenc_release(e), JENC_E_UTF8);

		e = mem(0, 0);
		jenc_obj_begin(e);
		CHECK_EQ(jenc_arr_end(e), JENC_E_STATE);
		jenc_release(e);
	}

	TEST("the reader: sorted output is not verbatim, and stays a stream") {
		jenc_enc *e = mem(0, 0);

		CHECK_EQ(jenc_verbatim(e), 0);
		jenc_release(e);
		CHECK_SORTED("{\"b\":1,\"a\":2}\n[{\"d\":1,\"c\":2}] 3 {\"x\":{\"z\":1,"
		    "\"y\":2}}", 0, 0,
		    "{\"a\":2,\"b\":1}\n[{\"c\":2,\"d\":1}]\n3\n{\"x\":{\"y\":2,"
		    "\"z\":1}}\n");
	}

	TEST("with -H and -a escaping, keys still sort by their text") {
		CHECK_SORTED("{\"\xc3\xa9\":1,\"<\":2,\"z\":3}", 0,
		    JENC_HTML | JENC_ASCII | JENC_LOWER_HEX,
		    "{\"\\u003c\":2,\"z\":3,\"\\u00e9\":1}\n");
	}

	TEST("a sorting encoder gives back all it took") {
		jenc_pool_stats a, b;
		int i;

		jenc_pool_trim();
		jenc_pool_stats_get(&a);
		for (i = 0; i < 3; i++)
			CHECK(random_object_ok(3000, 2));
		jenc_pool_trim();
		jenc_pool_stats_get(&b);
		/* but the three jenc_take blocks, freed with free(3) */
		CHECK_EQ(b.mallocs - b.frees, a.mallocs - a.frees + 3);
	}

	return harness_done();
}
