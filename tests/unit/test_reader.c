/*
 * test_reader.c - the JSON reader's fast paths against plain reference
 * code: number grammar (vector and scalar paths), string bodies (every
 * bad byte at every offset), line counting across window slides, and
 * compact output copied in runs against whitespace removal.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jenc.h"
#include "harness.h"

/* RFC 8259's number grammar, written out plainly. */
static int
ref_number(const char *s, size_t n)
{
	size_t i = 0, d;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0') {
		i++;
	} else if (i < n && s[i] >= '1' && s[i] <= '9') {
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	} else {
		return 0;
	}
	if (i < n && s[i] == '.') {
		d = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == d)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		d = i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == d)
			return 0;
	}
	return i == n;
}

/* Compact re-encoding of p[0..n) into a malloc'd buffer; returns the code. */
static int
copy(const char *p, size_t n, unsigned flags, char **out, size_t *outlen,
    jenc_err *err)
{
	jenc_opts o = { .flags = flags | JENC_HOLD };
	jenc_enc *e = jenc_get_mem(&o);
	int rc = jenc_json_copy_mem(p, n, e, NULL, err);

	*out = jenc_take(e, outlen);
	jenc_release(e);
	return rc;
}

static uint64_t rng_state = 42;

static uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * s[0..len) read inside an array, padded (the vector path) and at the very
 * end of the input (the scalar path): how many of the two readings accept
 * it exactly when RFC 8259 does.
 */
static int
number_agrees(const char *s, size_t len)
{
	char doc[128];
	int agree = 0;

	for (int pad = 0; pad < 2; pad++) {
		int n = snprintf(doc, sizeof(doc), "[%.*s]%s", (int)len, s,
		    pad ? "                                        " : "");
		char *out;
		size_t olen;
		jenc_err err;
		int rc = copy(doc, (size_t)n, 0, &out, &olen, &err);

		agree += (rc == 0) == ref_number(s, len);
		free(out);
	}
	return agree;
}

/* Every string over a number-ish alphabet, inside an array, padded (the
 * vector path) and at the very end of the input (the scalar path). */
static void
numbers(void)
{
	static const char alpha[] = "-+.eE019";
	char s[64];
	long total = 0, agree = 0;

	for (size_t len = 1; len <= 5; len++) {
		size_t count = 1;

		for (size_t k = 0; k < len; k++)
			count *= 8;
		for (size_t x = 0; x < count; x++) {
			size_t v = x;

			for (size_t k = 0; k < len; k++, v /= 8)
				s[k] = alpha[v % 8];
			total += 2;
			agree += number_agrees(s, len);
		}
	}
	TEST("numbers of up to 5 bytes: accepted exactly when RFC 8259 says")
		CHECK_EQ(agree, total);

	/* Longer ones around the 32-byte limit of the vector path. */
	total = agree = 0;
	for (int round = 0; round < 50000; round++) {
		size_t len = 1 + rng() % 40;

		for (size_t k = 0; k < len; k++) {
			uint64_t r = rng() % 100;

			s[k] = r < 80 ? (char)('0' + r % 10) : alpha[r % 5];
		}
		/* make many of them valid */
		if (rng() % 2 && s[0] != '-' && (s[0] < '1' || s[0] > '9'))
			s[0] = '1';
		total += 2;
		agree += number_agrees(s, len);
	}
	TEST("random numbers of 1 to 40 bytes: accepted exactly when valid")
		CHECK_EQ(agree, total);
}

/* A bad byte at every offset of string bodies of every length to 40. */
static void
strings(void)
{
	static const struct {
		const char *bytes;
		const char *msg;
	} bad[] = {
		{ "\x01", "unescaped control character 0x01 in string" },
		{ "\x1f", "unescaped control character 0x1f in string" },
		{ "\x80", "invalid UTF-8 byte 0x80 in string" },
		{ "\xc0\xaf", "invalid UTF-8 byte 0xc0 in string" },
		{ "\xed\xa0\x80", "invalid UTF-8 byte 0xed in string" },
		{ "\xf4\x90\x80\x80", "invalid UTF-8 byte 0xf4 in string" },
		{ "\xe2\x82", "invalid UTF-8 byte 0xe2 in string" },
	};
	static const char *good[] = { "\xc3\xa9", "\xe2\x82\xac",
	    "\xf0\x9f\x98\x80", "\\u00e9", "\\\"", "~" };
	int ok_all = 1, good_all = 1;

	for (size_t len = 0; len <= 40; len++) {
		for (size_t at = 0; at <= len; at++) {
			for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
				char doc[128], want[96], *out;
				size_t n = 0, olen;
				jenc_err err;

				doc[n++] = '"';
				memset(doc + n, 'a', at);
				n += at;
				memcpy(doc + n, bad[b].bytes, strlen(bad[b].bytes));
				n += strlen(bad[b].bytes);
				memset(doc + n, 'b', len - at);
				n += len - at;
				doc[n++] = '"';
				memset(doc + n, ' ', 20);
				int rc = copy(doc, n + (len % 2 ? 20 : 0), 0, &out,
				    &olen, &err);
				snprintf(want, sizeof(want), "%s", bad[b].msg);
				if (rc != JENC_E_SYNTAX || err.col != at + 2 ||
				    strcmp(err.msg, want) != 0 || olen != 0) {
					ok_all = 0;
					fprintf(stderr, "len %zu at %zu bad %zu: rc %d col %llu"
					    " msg %s\n", len, at, b, rc,
					    (unsigned long long)err.col, err.msg);
				}
				free(out);
			}
			for (size_t g = 0; g < sizeof(good) / sizeof(good[0]); g++) {
				char doc[128], *out;
				size_t n = 0, olen;
				jenc_err err;

				doc[n++] = '"';
				memset(doc + n, 'a', at);
				n += at;
				memcpy(doc + n, good[g], strlen(good[g]));
				n += strlen(good[g]);
				memset(doc + n, 'b', len - at);
				n += len - at;
				doc[n++] = '"';
				int rc = copy(doc, n, 0, &out, &olen, &err);
				if (rc != 0 || olen != n + 1 || memcmp(out, doc, n) != 0)
					good_all = 0;
				free(out);
			}
		}
	}
	TEST("a bad byte at every offset: found, at its column, nothing written")
		CHECK(ok_all);
	TEST("good sequences at every offset: copied verbatim")
		CHECK(good_all);
}

/* Remove whitespace outside strings: compact output, done simply. */
static size_t
squeeze(const char *p, size_t n, char *out)
{
	size_t o = 0;
	int in_str = 0;

	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (in_str) {
			out[o++] = c;
			if (c == '\\')
				out[o++] = p[++i];
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
			out[o++] = c;
		} else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
			out[o++] = c;
		}
	}
	return o;
}

/* A random value with random whitespace, appended at *n. */
static void
gen(char *p, size_t *n, int depth)
{
	static const char *ws[] = { "", "", "", " ", "\n", "  ", "\r\n", "\t",
	    "\n        " };
	static const char *scal[] = { "1", "-0.5e+10", "true", "null", "false",
	    "\"a\"", "\"\xc3\xa9t\xc3\xa9\"", "\"x\\\"y\\\\\"", "123456789012",
	    "\"\"", "\"a long string value past sixteen bytes\"" };
	uint64_t r = rng() % 10;

	if (depth > 6 || r < 5) {
		const char *s = scal[rng() % (sizeof(scal) / sizeof(scal[0]))];

		memcpy(p + *n, s, strlen(s));
		*n += strlen(s);
		return;
	}
	int obj = r < 8;
	size_t k = rng() % 6;

	p[(*n)++] = obj ? '{' : '[';
	for (size_t i = 0; i < k; i++) {
		const char *w = ws[rng() % 9];

		if (i > 0)
			p[(*n)++] = ',';
		memcpy(p + *n, w, strlen(w));
		*n += strlen(w);
		if (obj) {
			*n += (size_t)sprintf(p + *n, "\"k%zu\"%s:%s", i,
			    ws[rng() % 9], ws[rng() % 9]);
		}
		gen(p, n, depth + 1);
		w = ws[rng() % 9];
		memcpy(p + *n, w, strlen(w));
		*n += strlen(w);
	}
	p[(*n)++] = obj ? '}' : ']';
}

static void
compact(void)
{
	size_t cap = (size_t)64 << 20;
	char *doc = malloc(cap), *want = malloc(cap);
	int same = 1, nl_ok = 1;

	for (int round = 0; round < 60 && doc && want; round++) {
		size_t n = 0, values = 0;

		while (n < (size_t)(round % 3 == 0 ? 2 << 20 : 4096)) {
			gen(doc, &n, 0);
			doc[n++] = round % 2 ? '\n' : ' ';
			values++;
		}
		char *out;
		size_t olen, wn, gn = 0, nl = 0;
		jenc_err err;
		int rc = copy(doc, n, 0, &out, &olen, &err);

		/* Whitespace removal of the whole stream; jenc writes the same
		 * bytes plus a newline after each top-level value (a JSON
		 * string holds no raw newline, so each one is such an end). */
		wn = squeeze(doc, n, want);
		for (size_t i = 0; i < olen; i++) {
			if (out[i] == '\n')
				nl++;
			else
				out[gn++] = out[i];
		}
		if (rc != 0 || gn != wn || memcmp(out, want, wn) != 0)
			same = 0;
		if (nl != values)
			nl_ok = 0;
		free(out);
	}
	TEST("compact output equals the input with its whitespace removed")
		CHECK(same);
	TEST("one newline after each top-level value")
		CHECK(nl_ok);
	free(doc);
	free(want);
}

/* Line and column of an error far down, after many window slides. */
static void
lines(void)
{
	char path[] = "/tmp/jenc-test-reader-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
	long nlines = 0;

	TEST("temporary file")
		CHECK(f != NULL);
	if (f == NULL)
		return;
	unlink(path);
	fputs("[", f);
	/* lines of many lengths, some longer than the 256 KiB window */
	for (int i = 0; i < 3000; i++) {
		size_t len = i % 500 == 0 ? 300000 : (size_t)(rng() % 700);

		fputs("\"", f);
		for (size_t k = 0; k < len; k++)
			fputc('a' + (int)(k % 26), f);
		fputs("\",\n", f);
		nlines++;
	}
	fputs("  1, 2,, 3]\n", f);
	fflush(f);
	rewind(f);

	jenc_err err;
	int rc = jenc_json_copy_fd(fileno(f), NULL, NULL, &err);

	TEST("an error after 3000 lines and many slides: its line and column") {
		CHECK_EQ(rc, JENC_E_SYNTAX);
		CHECK_EQ(err.line, nlines + 1);
		CHECK_EQ(err.col, 8);
		CHECK(strcmp(err.msg, "expected value after ',', found ','") == 0);
	}
	fclose(f);
}

/* The values read can go inside a container the caller opened. */
static void
nested(void)
{
	static const char in[] = "[1, 2]\n{\"a\": [3, {}], \"b\": \"x\"} 4 \"s\"";
	jenc_opts o = { .flags = JENC_NO_NEWLINE };
	jenc_enc *e = jenc_get_mem(&o);
	jenc_err err;
	size_t n = 0;
	char *out;

	TEST("values read into an array the caller opened") {
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_json_copy_mem(in, sizeof(in) - 1, e, NULL, &err), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		out = jenc_take(e, &n);
		CHECK_STR(out, n, "[[1,2],{\"a\":[3,{}],\"b\":\"x\"},4,\"s\"]");
		free(out);
	}
	jenc_release(e);
}

/*
 * An error inside a nested value, at each kind of place where the walk's
 * fast loop stops and hands the token to the code that reports: a bad
 * literal, a bad separator or bracket, a missing ':', a bad string body,
 * the depth limit, a separator after whitespace, a value glued to the
 * last, a trailing comma after closes.  Written unheld to a file, what
 * had been checked of the bad value is out: compact, up to the end of
 * its last token (the brackets after it go only with what follows
 * them); indented, whatever the encoder was given.
 */
static void
cut_values(void)
{
	static const struct {
		const char *in;
		unsigned max_depth;
		uint64_t col;
		const char *msg, *compact, *indented;
	} c[] = {
		{ "[[1,tru]]", 0, 5, "invalid literal 'tru', expected true, "
		    "false or null", "[[1\n", "[\n  [\n    1\n" },
		{ "[[1,2}]", 0, 6, "expected ',' or ']' after array element, "
		    "found '}'", "[[1,2\n", "[\n  [\n    1,\n    2\n" },
		{ "{\"a\":{\"b\" 1}}", 0, 11, "expected ':' after object key, "
		    "found '1'", "{\"a\":{\"b\"\n", "{\n  \"a\": {\n    \"b\": \n" },
		{ "[[\"a\x01\"]]", 0, 5, "unescaped control character 0x01 in "
		    "string", "[[\n", "[\n  [\n" },
		{ "[[[1]]]", 2, 3, "nesting deeper than 2 levels (see "
		    "--max-depth)", "[[\n", "[\n  [\n" },
		{ "[ [ 1 , 2 ,, 3 ] ]", 0, 12, "expected value after ',', "
		    "found ','", "[[1,2\n", "[\n  [\n    1,\n    2\n" },
		{ "{\"a\": [{\"b\": [1, 2]} {}]}", 0, 22, "expected ',' or ']' "
		    "after array element, found '{'", "{\"a\":[{\"b\":[1,2]}\n",
		    "{\n  \"a\": [\n    {\n      \"b\": [\n        1,\n"
		    "        2\n      ]\n    }\n" },
		{ "[[1,2],[3,[4,5]],]", 0, 18, "expected value after ',', "
		    "found ']' (trailing comma? try --jsonc)",
		    "[[1,2],[3,[4,5\n", "[\n  [\n    1,\n    2\n  ],\n  [\n"
		    "    3,\n    [\n      4,\n      5\n    ]\n  ]\n" },
	};
	size_t i;
	int ind;

	TEST("an error inside a nested value: what was checked of it is out") {
		for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			for (ind = 0; ind <= 2; ind += 2) {
				jenc_opts o = { .indent = (unsigned)ind };
				jenc_read_opts ro = { .max_depth = c[i].max_depth };
				char want[256], buf[512];
				FILE *f = tmpfile();
				jenc_enc *e = jenc_get_fd(fileno(f), &o);
				jenc_err err;
				int rc = jenc_json_copy_mem(c[i].in, strlen(c[i].in),
				    e, &ro, &err);
				size_t n;

				jenc_release(e);
				rewind(f);
				n = fread(buf, 1, sizeof(buf), f);
				fclose(f);
				CHECK_EQ(rc, c[i].max_depth ? JENC_E_DEPTH :
				    JENC_E_SYNTAX);
				CHECK_EQ(err.line, 1);
				CHECK_EQ(err.col, c[i].col);
				CHECK_EQ(err.cut, 1);
				snprintf(want, sizeof(want), "%s (output of this "
				    "value was cut)", c[i].msg);
				CHECK(strcmp(err.msg, want) == 0);
				CHECK_STR(buf, n, ind ? c[i].indented :
				    c[i].compact);
			}
		}
	}
}

/* jenc_read_stats_get: what one read of a text adds to the counters. */
static void
work(void)
{
	static const char doc[] = "[1, \"two\", {\"k\": null}]\n";
	const size_t n = sizeof(doc) - 1;

	for (int exact = 0; exact < 2; exact++) {
		TEST(exact ? "jenc_read_stats_get: the exact path's work" :
		    "jenc_read_stats_get: the skeleton path's work") {
			jenc_read_opts ro = { exact ? JENC_READ_EXACT : 0, 0,
				NULL, NULL, NULL };
			jenc_opts o = { .flags = JENC_HOLD };
			jenc_enc *e = jenc_get_mem(&o);
			jenc_read_stats a, b;
			jenc_err err;

			jenc_read_stats_get(&a);
			CHECK_EQ(jenc_json_copy_mem(doc, n, e, &ro, &err), 0);
			jenc_read_stats_get(&b);
			CHECK_TAKE(e, "[1,\"two\",{\"k\":null}]\n");
			jenc_release(e);
			CHECK_EQ(b.bytes_in - a.bytes_in, n);
			CHECK_EQ(b.waits - a.waits, 0);
			CHECK_EQ(b.moved - a.moved, 0);
			/* all of the text made into skeletons, or none */
			CHECK(exact ? b.skel_bytes == a.skel_bytes :
			    b.skel_bytes - a.skel_bytes >= n);
			CHECK(b.jsmn_calls - a.jsmn_calls >= 1);
			/* jsmn reads the text, or its shorter skeleton */
			CHECK(exact ? b.jsmn_bytes - a.jsmn_bytes == n :
			    b.jsmn_bytes - a.jsmn_bytes < n);
			CHECK_EQ(b.cut_bytes - a.cut_bytes, 0);
		}
	}
}

int
main(void)
{
	work();
	nested();
	cut_values();
	numbers();
	strings();
	compact();
	lines();
	return harness_done();
}
