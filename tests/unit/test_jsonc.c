/*
 * test_jsonc.c - the JSON with comments filter (lib/jsonc.c) and the
 * reader with JENC_READ_JSONC: what each input becomes (comments and
 * trailing commas blanked, line feeds kept, strings untouched); the same
 * for the input fed with every split point, the filter's state carried
 * across the window end, in a window that keeps what is undecided and
 * one that the reader empties whenever it may; where an unterminated
 * comment is told; and through the reader, window ends in a large
 * input falling on every byte of a comment and a trailing comma.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"

struct tcase {
	const char *in, *out;
};

static const struct tcase cases[] = {
	{ "// c\n1", "    \n1" },
	{ "[1,]", "[1 ]" },
	{ "{\"a\":1,}", "{\"a\":1 }" },
	{ "{\"a\":[1,],}", "{\"a\":[1 ] }" },
	{ "[1, /* x\ny */ ]", "[1      \n     ]" },
	{ "[1,// c\n]", "[1     \n]" },
	{ "[1,\r\n]", "[1 \r\n]" },
	{ "[\"//\", \"/*\", \"a\\\"//\"]", "[\"//\", \"/*\", \"a\\\"//\"]" },
	{ "{\"u\": \"http://x\"} // y", "{\"u\": \"http://x\"}     " },
	{ "[,]", "[,]" },
	{ "[1,,]", "[1,,]" },
	{ "{\"a\":,}", "{\"a\":,}" },
	{ "1 / 2", "1 / 2" },
	{ "/", "/" },
	{ "1/", "1/" },
	{ "[1,/ ]", "[1,/ ]" },
	{ "/*/ */1", "      1" },
	{ "/**/1", "    1" },
	{ "/***/", "     " },
	{ "/* a **/ /* b */", "                " },
	{ "[1 /* open", "[1 /* open" },
	{ "\"a\\\n//x", "\"a\\\n   " },
	{ "\"a\x1e//x", "\"a\x1e   " },
	{ "// a\x1e" "1", "    \x1e" "1" },
	{ "\"x\",]", "\"x\" ]" },
	{ "[1 , ]", "[1   ]" },
	{ "[1 /* c */ , /* d */ ]", "[1                   ]" },
	{ "[1,2]", "[1,2]" },
	{ "{\"a\":1 , \"b\":2}", "{\"a\":1 , \"b\":2}" },
	{ "[true,false,null,]", "[true,false,null ]" },
	{ "[\"\\\\\",]", "[\"\\\\\" ]" },
	{ "[{},[],]", "[{},[] ]" },
	{ "", "" },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* The whole input at once, with the end of input. */
static void
whole(const char *in, char *out)
{
	jenc_jsonc c;
	size_t n = strlen(in);

	memcpy(out, in, n + 1);
	jenc_jsonc_init(&c, 0);
	(void)jenc_jsonc_filter(&c, out, n, 0, 1);
}

/*
 * A window that keeps everything: in[0..k) first, then all of it.  What
 * the first call says is final must be the final bytes.
 */
static int
split_keep(const char *in, size_t k, const char *want)
{
	char buf[256];
	size_t n = strlen(in);
	jenc_jsonc c;
	int rc;

	memcpy(buf, in, n + 1);
	jenc_jsonc_init(&c, 0);
	rc = jenc_jsonc_filter(&c, buf, k, 0, 0);
	if (rc == 0 && memcmp(buf, want, k) != 0)
		return 0;
	rc = jenc_jsonc_filter(&c, buf, n, 0, 1);
	return rc == 0 && memcmp(buf, want, n) == 0;
}

/*
 * A window a reader empties whenever the filter says it is final: the
 * input arrives in pieces ending at the split points cut[0..ncut), and
 * what is dropped goes to out.  Returns 1 if out is want.
 */
static int
split_drop(const char *in, const size_t *cut, size_t ncut, const char *want)
{
	char win[256], out[256];
	size_t n = strlen(in), len = 0, outn = 0, at = 0, k;
	uint64_t off = 0;
	jenc_jsonc c;

	jenc_jsonc_init(&c, 0);
	for (k = 0; k <= ncut; k++) {
		size_t to = k < ncut ? cut[k] : n;
		int eof = k == ncut;

		memcpy(win + len, in + at, to - at);
		len += to - at;
		at = to;
		if (jenc_jsonc_filter(&c, win, len, off, eof) != 0)
			continue;
		memcpy(out + outn, win, len);
		outn += len;
		off += len;
		len = 0;
	}
	return outn == n && memcmp(out, want, n) == 0;
}

/* JENC_READ_JSONC through a memory encoder: rc, output, error. */
static int
read_jsonc(const char *p, size_t n, unsigned indent, char **out,
    size_t *outn, jenc_err *err)
{
	jenc_opts eo = { indent, 0, 0 };
	jenc_read_opts ro = { JENC_READ_JSONC, 0, NULL, NULL, NULL };
	jenc_enc *e = jenc_get_mem(&eo);
	int rc;

	rc = jenc_json_copy_mem(p, n, e, &ro, err);
	*out = jenc_take(e, outn);
	(void)jenc_release(e);
	return rc;
}

int
main(void)
{
	char got[256], name[128];
	size_t i, k, j;

	for (i = 0; i < NCASES; i++) {
		snprintf(name, sizeof(name), "jenc_jsonc_filter: case %zu", i);
		TEST(name) {
			whole(cases[i].in, got);
			CHECK_STR(got, strlen(got), cases[i].out);
		}
	}

	TEST("jenc_jsonc_filter: every split point, window kept") {
		for (i = 0; i < NCASES; i++) {
			size_t n = strlen(cases[i].in);

			for (k = 0; k <= n; k++)
				if (!split_keep(cases[i].in, k, cases[i].out)) {
					fprintf(stderr, "case %zu split at "
					    "%zu\n", i, k);
					CHECK(0);
				}
		}
		CHECK(1);
	}

	TEST("jenc_jsonc_filter: every pair of split points, window emptied") {
		for (i = 0; i < NCASES; i++) {
			size_t n = strlen(cases[i].in), cut[2];

			for (k = 0; k <= n; k++)
				for (j = k; j <= n; j++) {
					cut[0] = k;
					cut[1] = j;
					if (!split_drop(cases[i].in, cut, 2,
					    cases[i].out)) {
						fprintf(stderr, "case %zu split "
						    "at %zu and %zu\n", i, k, j);
						CHECK(0);
					}
				}
		}
		CHECK(1);
	}

	TEST("jenc_jsonc_filter: one byte at a time") {
		for (i = 0; i < NCASES; i++) {
			size_t n = strlen(cases[i].in), cut[64];

			for (k = 0; k < n && k < 64; k++)
				cut[k] = k + 1;
			CHECK(split_drop(cases[i].in, cut, k, cases[i].out));
		}
	}

	TEST("jenc_jsonc_filter: what is undecided at the window end") {
		jenc_jsonc c;
		char b[32];

		memcpy(b, "[1, ", 5);
		jenc_jsonc_init(&c, 0);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 4, 0, 0), JENC_JSONC_MORE);
		memcpy(b, "[1/", 4);
		jenc_jsonc_init(&c, 0);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 3, 0, 0), JENC_JSONC_MORE);
		memcpy(b, "[1 /* c *", 10);
		jenc_jsonc_init(&c, 0);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 9, 0, 0), JENC_JSONC_MORE);
		memcpy(b, "[1 // c", 8);
		jenc_jsonc_init(&c, 0);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 7, 0, 0), 0);
		CHECK_STR(b, 7, "[1     ");
		memcpy(b, "[\"a,", 5);
		jenc_jsonc_init(&c, 0);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 4, 0, 0), 0);
	}

	TEST("jenc_jsonc_unterminated: the comment's first '/'") {
		jenc_jsonc c;
		char b[32];

		memcpy(b, "{} /* x", 8);
		jenc_jsonc_init(&c, 100);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 7, 100, 1), 0);
		CHECK_STR(b, 7, "{} /* x");
		CHECK_EQ(jenc_jsonc_unterminated(&c, 103), 1);
		CHECK_EQ(jenc_jsonc_unterminated(&c, 104), 0);
		/* the reader skipped it and goes on after it: afresh */
		jenc_jsonc_resume(&c, 107);
		CHECK_EQ(jenc_jsonc_unterminated(&c, 103), 0);
		memcpy(b, "{} /* x */", 11);
		jenc_jsonc_init(&c, 0);
		CHECK_EQ(jenc_jsonc_filter(&c, b, 10, 0, 1), 0);
		CHECK_EQ(jenc_jsonc_unterminated(&c, 3), 0);
	}

	/*
	 * The reader's window is 256 KiB: pad so that its end falls on each
	 * byte of the part that matters, in turn.
	 */
	TEST("JENC_READ_JSONC: the window end on every byte of a comment") {
		static const char tail[] = "1, /* a */ // b\n ]";
		size_t win = (size_t)256 * 1024, tl = sizeof(tail) - 1;
		size_t n = win + 64, s;
		char *p = malloc(n), *out;
		size_t outn;
		jenc_err err;
		int rc;

		for (s = 0; s <= tl + 2; s++) {
			size_t at = win - s;

			memset(p, ' ', n);
			p[0] = '[';
			memcpy(p + at, tail, tl);
			rc = read_jsonc(p, at + tl, 0, &out, &outn, &err);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, "[1]\n");
			free(out);
		}
		free(p);
	}

	TEST("JENC_READ_JSONC: error positions after comments, any window end") {
		static const char tail[] = "1, /* a\n */ }]";
		size_t win = (size_t)256 * 1024, tl = sizeof(tail) - 1;
		size_t n = win + 64, s;
		char *p = malloc(n), *out;
		size_t outn;
		jenc_err err;
		int rc;

		for (s = 0; s <= tl + 2; s++) {
			size_t at = win - s;

			memset(p, ' ', n);
			p[0] = '[';
			memcpy(p + at, tail, tl);
			rc = read_jsonc(p, at + tl, 0, &out, &outn, &err);
			CHECK_EQ(rc, JENC_E_SYNTAX);
			CHECK_EQ(err.line, 2);
			CHECK_EQ(err.col, 5);
			CHECK_EQ(err.offset, at + 12);
			CHECK_STR(err.msg, strlen(err.msg),
			    "expected ',' or ']' after array element, "
			    "found '}'");
			free(out);
		}
		free(p);
	}

	TEST("JENC_READ_JSONC: an unterminated comment across the window end") {
		static const char tail[] = "{} /* a";
		size_t win = (size_t)256 * 1024, tl = sizeof(tail) - 1;
		size_t n = win + 64, s;
		char *p = malloc(n), *out;
		size_t outn;
		jenc_err err;
		int rc;

		for (s = 0; s <= tl + 2; s++) {
			size_t at = win - s;

			memset(p, '\n', n);
			memcpy(p + at, tail, tl);
			rc = read_jsonc(p, at + tl, 0, &out, &outn, &err);
			CHECK_EQ(rc, JENC_E_SYNTAX);
			CHECK_EQ(err.offset, at + 3);
			CHECK_EQ(err.line, at + 1);
			CHECK_EQ(err.col, 4);
			CHECK_STR(err.msg, strlen(err.msg),
			    "unterminated comment, found end of input");
			CHECK_STR(out, outn, "{}\n");
			free(out);
		}
		free(p);
	}

	TEST("JENC_READ_JSONC: the caller's buffer is not written") {
		static const char in[] = "[1, // c\n]";
		char copy[sizeof(in)], *out;
		size_t outn;
		jenc_err err;

		memcpy(copy, in, sizeof(in));
		CHECK_EQ(read_jsonc(copy, sizeof(in) - 1, 2, &out, &outn, &err),
		    0);
		CHECK_STR(out, outn, "[\n  1\n]\n");
		CHECK_STR(copy, sizeof(in) - 1, in);
		free(out);
	}

	TEST("JENC_READ_JSONC: UTF-16 with a mark, no byte read past len") {
		/* "[1]" in UTF-16LE after its mark, then bytes that are not
		 * the input's: "x" */
		static const char in[] = "\xff\xfe[\0001\0]\0 \0x\0";
		char *out;
		size_t outn;
		jenc_err err;

		CHECK_EQ(read_jsonc(in, 8, 0, &out, &outn, &err), 0);
		CHECK_STR(out, outn, "[1]\n");
		free(out);
	}

	return harness_done();
}
