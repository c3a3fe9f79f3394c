/*
 * test_color.c - JENC_COLOR: jq 1.7.1's escapes around every token in
 * each layout, the defaults, jenc_colors_parse and its errors.
 *
 * In the expected strings N, F, T, D (digits), S, A, O, K are the default
 * colors of null, false, true, numbers, strings, arrays, objects, keys and
 * R the reset, as jq 1.7.1 writes them.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"

#define N "\033[0;90m"
#define F "\033[0;39m"
#define T "\033[0;39m"
#define D "\033[0;39m"
#define S "\033[0;32m"
#define A "\033[1;39m"
#define O "\033[1;39m"
#define K "\033[1;34m"
#define R "\033[0m"

static jenc_enc *
mem(unsigned indent, unsigned flags, const jenc_colors *c)
{
	jenc_opts o = { indent, flags | JENC_COLOR, 0 };
	jenc_enc *e = jenc_get_mem(&o);

	if (e == NULL)
		abort();
	if (c != NULL)
		jenc_set_colors(e, c);
	return e;
}

/* The JSON text in through the reader into a coloring encoder. */
static char *
colored(const char *in, unsigned indent, unsigned flags, size_t *n)
{
	jenc_enc *e = mem(indent, flags, NULL);
	char *out;

	if (jenc_json_copy_mem(in, strlen(in), e, NULL, NULL) != 0)
		abort();
	out = jenc_take(e, n);
	jenc_release(e);
	return out;
}

#define CHECK_COLORED(in, indent, flags, want) do { \
	size_t cn_; \
	char *cp_ = colored((in), (indent), (flags), &cn_); \
	CHECK_STR(cp_, cn_, (want)); \
	free(cp_); \
} while (0)

/* One member of an object: R K "key" R O ':' R (': ' indented). */
#define KEY(k) R K "\"" k "\"" R O ":" R
#define KEYI(k) R K "\"" k "\"" R O ": " R

int
main(void)
{
	TEST("scalars: color, text, reset") {
		CHECK_COLORED("null true false 12.50 \"s\"", 0, 0,
		    N "null" R "\n" T "true" R "\n" F "false" R "\n"
		    D "12.50" R "\n" S "\"s\"" R "\n");
	}

	TEST("compact containers: brackets, commas and colons colored") {
		CHECK_COLORED("[1,\"x\"]", 0, 0,
		    A "[" D "1" R A "," S "\"x\"" R A A "]" R "\n");
		CHECK_COLORED("{\"a\":1,\"b\":null}", 0, 0,
		    O "{" KEY("a") D "1" R O "," KEY("b") N "null" R O O "}" R
		    "\n");
		CHECK_COLORED("[[],{}]", 0, 0,
		    A "[" A "[]" R A "," O "{}" R A A "]" R "\n");
		CHECK_COLORED("{\"a\":[true]}", 0, 0,
		    O "{" KEY("a") A "[" T "true" R A A "]" R O O "}" R "\n");
	}

	TEST("indented: the layout's whitespace inside the container color") {
		CHECK_COLORED("[1,2]", 2, 0,
		    A "[\n  " D "1" R A ",\n  " D "2" R A "\n" A "]" R "\n");
		CHECK_COLORED("{\"a\":{\"b\":[]}}", 2, 0,
		    O "{\n  " KEYI("a") O "{\n    " KEYI("b") A "[]" R O "\n  "
		    O "}" R O "\n" O "}" R "\n");
		CHECK_COLORED("[{}]", 0, JENC_TAB,
		    A "[\n\t" O "{}" R A "\n" A "]" R "\n");
	}

	TEST("escaping flags work inside the colors") {
		CHECK_COLORED("{\"<\xc3\xa9\":\"&\"}", 0,
		    JENC_HTML | JENC_ASCII | JENC_LOWER_HEX,
		    O "{" KEY("\\u003c\\u00e9") S "\"\\u0026\"" R O O "}" R "\n");
	}

	TEST("every value call is colored, the long ways too") {
		jenc_enc *e = mem(0, 0, NULL);
		char big[5000];

		memset(big, 'y', sizeof(big));
		jenc_arr_begin(e);
		jenc_i64(e, -1);
		jenc_u64(e, 2);
		jenc_f64(e, 0.5);
		jenc_bool(e, 0);
		jenc_null(e);
		jenc_time_utc(e, 0);
		jenc_raw(e, "\"r\"", 3);
		jenc_raw_str(e, "q", 1);
		jenc_arr_end(e);
		CHECK_TAKE(e, A "[" D "-1" R A "," D "2" R A "," D "0.5" R A ","
		    F "false" R A "," N "null" R A "," S "\"1970-01-01T00:00:00Z\""
		    R A "," S "\"r\"" R A "," S "\"q\"" R A A "]" R "\n");
		jenc_obj_begin(e);
		jenc_kv_str(e, "k", 1, "v", 1);
		jenc_kv_bool(e, "t", 1, 1);
		jenc_key(e, big, sizeof(big));
		jenc_str(e, big, sizeof(big));
		jenc_obj_end(e);
		{
			size_t n;
			char *out = jenc_take(e, &n);
			const char *head = O "{" KEY("k") S "\"v\"" R O ","
			    KEY("t") T "true" R O "," R K "\"yyy";

			CHECK(out != NULL && n > strlen(head) &&
			    memcmp(out, head, strlen(head)) == 0);
			CHECK(out != NULL && n == strlen(head) - 3 + 5000 + 1 +
			    strlen(R O ":" R S) + 5002 + strlen(R O O "}" R "\n"));
			free(out);
		}
		jenc_release(e);
	}

	TEST("jenc_set_colors: a palette from JQ_COLORS' syntax") {
		jenc_colors c;
		jenc_enc *e;

		CHECK_EQ(jenc_colors_parse(&c, "1;31:::4::7:2;3:35", NULL), 0);
		e = mem(0, 0, &c);
		jenc_obj_begin(e);
		jenc_kv_null(e, "n", 1);
		jenc_key(e, "a", 1);
		jenc_arr_begin(e);
		jenc_bool(e, 1);
		jenc_i64(e, 3);
		jenc_arr_end(e);
		jenc_obj_end(e);
		CHECK_TAKE(e, "\033[2;3m{\033[0m\033[35m\"n\"\033[0m\033[2;3m:\033[0m"
		    "\033[1;31mnull\033[0m\033[2;3m,\033[0m\033[35m\"a\"\033[0m"
		    "\033[2;3m:\033[0m\033[7m[\033[mtrue\033[0m\033[7m,\033[4m3"
		    "\033[0m\033[7m\033[7m]\033[0m\033[2;3m\033[2;3m}\033[0m\n");
		jenc_release(e);
		/* the palette was copied; a pooled encoder has the defaults
		 * again; NULL is the defaults */
		e = mem(0, 0, &c);
		memset(&c, 0, sizeof(c));
		jenc_null(e);
		CHECK_TAKE(e, "\033[1;31mnull\033[0m\n");
		jenc_set_colors(e, NULL);
		jenc_null(e);
		CHECK_TAKE(e, N "null" R "\n");
		jenc_release(e);
		e = mem(0, 0, NULL);
		jenc_null(e);
		CHECK_TAKE(e, N "null" R "\n");
		jenc_release(e);
		/* no effect without JENC_COLOR */
		{
			jenc_opts po = { 0, 0, 0 };
			jenc_enc *p = jenc_get_mem(&po);

			jenc_colors_default(&c);
			jenc_set_colors(p, &c);
			jenc_null(p);
			CHECK_TAKE(p, "null\n");
			jenc_release(p);
		}
	}

	TEST("jenc_colors_default is jq 1.7.1's palette") {
		jenc_colors c;
		const char *want[] = { "0;90", "0;39", "0;39", "0;39", "0;32",
		    "1;39", "1;39", "1;34" };
		int i;

		jenc_colors_default(&c);
		for (i = 0; i < JENC_COLOR_N; i++)
			CHECK_STR(c.sgr[i], strlen(c.sgr[i]), want[i]);
	}

	TEST("jenc_colors_parse: fewer fields keep the defaults") {
		jenc_colors c;
		jenc_err err;

		CHECK_EQ(jenc_colors_parse(&c, NULL, &err), 0);
		CHECK_STR(c.sgr[0], strlen(c.sgr[0]), "0;90");
		CHECK_EQ(jenc_colors_parse(&c, "", &err), 0);
		CHECK_STR(c.sgr[7], strlen(c.sgr[7]), "1;34");
		CHECK_EQ(jenc_colors_parse(&c, "4;31:1", &err), 0);
		CHECK_STR(c.sgr[0], strlen(c.sgr[0]), "4;31");
		CHECK_STR(c.sgr[1], strlen(c.sgr[1]), "1");
		CHECK_STR(c.sgr[2], strlen(c.sgr[2]), "0;39");
		/* a trailing ':' starts no field; an empty one is no color */
		CHECK_EQ(jenc_colors_parse(&c, "1:", &err), 0);
		CHECK_STR(c.sgr[1], strlen(c.sgr[1]), "0;39");
		CHECK_EQ(jenc_colors_parse(&c, ":1", &err), 0);
		CHECK_STR(c.sgr[0], strlen(c.sgr[0]), "");
		CHECK_EQ(jenc_colors_parse(&c, "1:2:3:4:5:6:7:8", &err), 0);
		CHECK_STR(c.sgr[7], strlen(c.sgr[7]), "8");
		CHECK_EQ(jenc_colors_parse(&c, "1;2;3;4;5;6;7;89", &err), 0);
		CHECK_STR(c.sgr[0], strlen(c.sgr[0]), "1;2;3;4;5;6;7;89");
	}

	TEST("jenc_colors_parse: errors name the field, c is unchanged") {
		jenc_colors c;
		jenc_err err;

		jenc_colors_default(&c);
		CHECK_EQ(jenc_colors_parse(&c, "0;31:1:1;x:4", &err),
		    JENC_E_SYNTAX);
		CHECK_STR(err.msg, strlen(err.msg),
		    "field 3 (true): '1;x' is not a color (digits and ';')");
		CHECK_EQ(err.offset, 7);
		CHECK_EQ(err.col, 8);
		/* the whole spec, not cut: no "..." after it */
		CHECK_STR(err.excerpt, strlen(err.excerpt), "0;31:1:1;x:4");
		CHECK_EQ(err.caret, 7);
		CHECK_STR(c.sgr[0], strlen(c.sgr[0]), "0;90");
		CHECK_EQ(jenc_colors_parse(&c, "1:2:3:4:5:6:7:8:9", &err),
		    JENC_E_SYNTAX);
		CHECK_STR(err.msg, strlen(err.msg), "field 9: more than 8 fields");
		CHECK_EQ(jenc_colors_parse(&c, "1;2;3;4;5;6;7;8;9", &err),
		    JENC_E_SYNTAX);
		CHECK_STR(err.msg, strlen(err.msg),
		    "field 1 (null): '1;2;3;4;5;6;7;8;9' is longer than 16 bytes");
		CHECK_EQ(jenc_colors_parse(&c, ":::::::\033[31m", &err),
		    JENC_E_SYNTAX);
		CHECK(strncmp(err.msg, "field 8 (objectkeys): '", 23) == 0);
		CHECK_STR(err.excerpt, strlen(err.excerpt), ":::::::?[31m");
		CHECK_EQ(jenc_colors_parse(&c, "red", NULL), JENC_E_SYNTAX);
	}

	TEST("colored output is never verbatim") {
		jenc_enc *e = mem(0, 0, NULL);

		CHECK_EQ(jenc_verbatim(e), 0);
		jenc_release(e);
	}

	TEST("with sorted keys, each member keeps its colors") {
		CHECK_COLORED("{\"b\":1,\"a\":[2]}", 0, JENC_SORT_KEYS,
		    O "{" KEY("a") A "[" D "2" R A A "]" R O "," KEY("b") D "1" R
		    O O "}" R "\n");
		CHECK_COLORED("{\"b\":1,\"a\":2}", 2, JENC_SORT_KEYS,
		    O "{\n  " KEYI("a") D "2" R O ",\n  " KEYI("b") D "1" R O "\n"
		    O "}" R "\n");
	}

	return harness_done();
}
