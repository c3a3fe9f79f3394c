/*
 * test_err.c - jenc_err_set: the fields it fills, and the excerpt and caret
 * it makes of the line around a spot (lib/err.c): "..." where the line is
 * cut, '?' for what a terminal would not show as itself, the caret by
 * display width, and never more than the excerpt buffer holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"

static jenc_err e;

/* The excerpt of text[0..n) with the spot at text[at]. */
static void
show(const char *text, size_t n, size_t at, int text_cut, int cr_ends_line,
    int eof)
{
	jenc_where w;

	memset(&w, 0, sizeof(w));
	w.offset = 1000 + at;
	w.line = 7;
	w.col = at + 1;
	w.text = text;
	w.avail = n;
	w.at = at;
	w.text_cut = text_cut;
	w.cr_ends_line = cr_ends_line;
	w.eof = eof;
	(void)jenc_err_set(&e, JENC_E_SYNTAX, JENC_K_NONE, 0, 0, &w, "bad %d",
	    1);
}

/* A whole input (a C string literal) and a spot in it. */
#define SHOW(lit, at) show((lit), sizeof(lit) - 1, (at), 0, 0, 1)

#define CHECK_EXCERPT(want, want_caret) do { \
	CHECK_STR(e.excerpt, strlen(e.excerpt), (want)); \
	CHECK_EQ(e.caret, (want_caret)); \
} while (0)

/* a repeated na times, then b, then c repeated nc times: a NUL-terminated
 * string the caller frees. */
static char *
mk(const char *a, size_t na, const char *b, const char *c, size_t nc)
{
	size_t ka = strlen(a), kb = strlen(b), kc = strlen(c), i, o = 0;
	char *p = malloc(ka * na + kb + kc * nc + 1);

	if (p == NULL)
		abort();
	for (i = 0; i < na; i++, o += ka)
		memcpy(p + o, a, ka);
	memcpy(p + o, b, kb);
	o += kb;
	for (i = 0; i < nc; i++, o += kc)
		memcpy(p + o, c, kc);
	p[o] = '\0';
	return p;
}

/*
 * Display columns of an excerpt made of the characters the tests below
 * put in lines (and '?', "..."), or -1 for another character.
 */
static long
cols(const char *s)
{
	static const struct {
		const char *c;
		long w;
	} known[] = {
		{ "\xe6\xbc\xa2", 2 }, { "\xf0\x9f\x98\x80", 2 },
		{ "\xcc\x81", 0 }, { "\xf3\xa0\x84\x80", 0 },
		{ "\xf0\x90\x80\x80", 1 },
	};
	long w = 0;
	size_t i;

	while (*s != '\0') {
		if (*s == 'a' || *s == '?' || *s == ' ' || *s == '.') {
			w++;
			s++;
			continue;
		}
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (strncmp(s, known[i].c, strlen(known[i].c)) == 0)
				break;
		if (i == sizeof(known) / sizeof(known[0]))
			return -1;
		w += known[i].w;
		s += strlen(known[i].c);
	}
	return w;
}

/*
 * 1 if s holds nothing a terminal acts on or hides: no C0 control, DEL, C1
 * control, U+200B..U+200F, U+2028..U+202E, U+2060..U+206F, U+FEFF, or
 * invalid UTF-8.
 */
static int
safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i, k;
	uint32_t cp;

	for (i = 0; i < n; i += k) {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 0;
		k = jenc_utf8_seq(p + i, n - i, &cp);
		if (k == 0 || (cp >= 0x80 && cp <= 0x9f) ||
		    (cp >= 0x200b && cp <= 0x200f) ||
		    (cp >= 0x2028 && cp <= 0x202e) ||
		    (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff)
			return 0;
	}
	return 1;
}

static void
test_fields(void)
{
	TEST("jenc_err_set: code, position, message, cut and errno") {
		jenc_where w;

		memset(&e, 0xff, sizeof(e));
		memset(&w, 0, sizeof(w));
		w.offset = 1008;
		w.line = 7;
		w.col = 9;
		w.text = "{\"a\": 1 x}";
		w.avail = 10;
		w.at = 8;
		w.eof = 1;
		CHECK_EQ(jenc_err_set(&e, JENC_E_SYNTAX, JENC_K_TOKEN, 0, 0, &w,
		    "bad %d", 1), JENC_E_SYNTAX);
		CHECK_EQ(e.code, JENC_E_SYNTAX);
		CHECK_EQ(e.kind, JENC_K_TOKEN);
		CHECK_EQ(e.sys_errno, 0);
		CHECK_EQ(e.cut, 0);
		CHECK_EQ(e.offset, 1008);
		CHECK_EQ(e.line, 7);
		CHECK_EQ(e.col, 9);
		CHECK_STR(e.msg, strlen(e.msg), "bad 1");
		CHECK_EXCERPT("{\"a\": 1 x}", 8);
	}
	TEST("jenc_err_set: w NULL leaves no position and no excerpt") {
		memset(&e, 0xff, sizeof(e));
		CHECK_EQ(jenc_err_set(&e, JENC_E_IO, JENC_K_NONE, 5, 1, NULL,
		    "read %s: %d", "x", 42), JENC_E_IO);
		CHECK_EQ(e.code, JENC_E_IO);
		CHECK_EQ(e.kind, JENC_K_NONE);
		CHECK_EQ(e.sys_errno, 5);
		CHECK_EQ(e.cut, 1);
		CHECK_EQ(e.offset, 0);
		CHECK_EQ(e.line, 0);
		CHECK_EQ(e.col, 0);
		CHECK_STR(e.msg, strlen(e.msg), "read x: 42");
		CHECK_EXCERPT("", 0);
	}
	TEST("jenc_err_set: a long message is cut to the buffer") {
		char *m = mk("m", 300, "", "", 0);

		CHECK_EQ(jenc_err_set(&e, JENC_E_SYNTAX, JENC_K_NONE, 0, 0, NULL,
		    "%s", m), JENC_E_SYNTAX);
		CHECK_EQ(strlen(e.msg), sizeof(e.msg) - 1);
		free(m);
	}
	TEST("jenc_err_set: text NULL leaves the excerpt empty") {
		jenc_where w;

		memset(&w, 0, sizeof(w));
		w.line = 3;
		w.col = 4;
		jenc_err_set(&e, JENC_E_SYNTAX, JENC_K_NONE, 0, 0, &w, "m");
		CHECK_EQ(e.line, 3);
		CHECK_EQ(e.col, 4);
		CHECK_EXCERPT("", 0);
	}
}

static void
test_cut_marks(void)
{
	char *l;

	TEST("excerpt: a line of 80 columns is shown whole") {
		l = mk("a", 40, "!", "b", 39);
		show(l, strlen(l), 40, 0, 0, 1);
		CHECK_STR(e.excerpt, strlen(e.excerpt), l);
		CHECK_EQ(e.caret, 40);
		free(l);
	}
	TEST("excerpt: cut at both ends, 40 columns before the spot") {
		/* xxx...x!yyy...y  (100 + 1 + 100 bytes), spot on '!' */
		l = mk("x", 100, "!", "y", 100);
		show(l, strlen(l), 100, 0, 0, 1);
		CHECK_EXCERPT("...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx!"
		    "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...", 40);
		CHECK_EQ(strlen(e.excerpt), 80);
		free(l);
	}
	TEST("excerpt: cut at the start, the short rest shown whole") {
		/* 100 x, '!', 10 y: the spot gets more than 40 columns before it */
		l = mk("x", 100, "!", "y", 10);
		show(l, strlen(l), 100, 0, 0, 1);
		CHECK_EXCERPT("...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx!yyyyyyyyyy", 69);
		CHECK_EQ(strlen(e.excerpt), 80);
		free(l);
	}
	TEST("excerpt: cut at the start, spot at the end of the line") {
		l = mk("x", 100, "\nnext", "", 0);
		show(l, strlen(l), 100, 0, 0, 1);
		free(l);
		/* "..." and 76 x: the caret takes the 80th column */
		l = mk("...", 1, "", "x", 76);
		CHECK_EXCERPT(l, 79);
		free(l);
	}
	TEST("excerpt: cut at the end") {
		l = mk("a", 10, "!", "b", 100);
		show(l, strlen(l), 10, 0, 0, 1);
		CHECK_EXCERPT("aaaaaaaaaa!bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...", 10);
		CHECK_EQ(strlen(e.excerpt), 80);
		free(l);
	}
	TEST("excerpt: text_cut marks the start, however short") {
		show("abc", 3, 1, 1, 0, 1);
		CHECK_EXCERPT("...abc", 4);
		show("abc", 3, 0, 1, 0, 1);
		CHECK_EXCERPT("...abc", 3);
	}
	TEST("excerpt: text_cut drops the rest of a character cut in two") {
		/* the window starts inside a 3-byte character */
		show("\xbc\xa2z", 3, 2, 1, 0, 1);
		CHECK_EXCERPT("...z", 3);
	}
	TEST("excerpt: the line's end not read (eof 0) marks the end") {
		show("abc", 3, 1, 0, 0, 0);
		CHECK_EXCERPT("abc...", 1);
		show("abc", 3, 3, 0, 0, 0);
		CHECK_EXCERPT("abc...", 3);
		/* a line end within avail: nothing more to mark */
		show("abc\nd", 5, 1, 0, 0, 0);
		CHECK_EXCERPT("abc", 1);
	}
	TEST("excerpt: text_cut and the end not read: both marks") {
		show("abc", 3, 2, 1, 0, 0);
		CHECK_EXCERPT("...abc...", 5);
	}
	TEST("excerpt: eof 0 with a long line gives the 40/40 split") {
		/* the rest of the line is unknown: no more columns before */
		l = mk("x", 100, "!", "", 0);
		show(l, strlen(l), 100, 0, 0, 0);
		CHECK_EXCERPT("...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx!...", 40);
		free(l);
	}
	TEST("excerpt: only the spot's line, the next ones left out") {
		SHOW("[1,\n2 x\n3]", 6);
		/* text starts at the line: the caller points it there */
		show("2 x\n3]", 6, 2, 0, 0, 1);
		CHECK_EXCERPT("2 x", 2);
	}
}

static void
test_unsafe(void)
{
	static const struct {
		const char *name, *s;
	} q[] = {
		{ "C0 U+0001", "\x01" },
		{ "ESC", "\x1b" },
		{ "DEL", "\x7f" },
		{ "C1 U+0085 NEL", "\xc2\x85" },
		{ "C1 U+009B CSI", "\xc2\x9b" },
		{ "C1 U+009F", "\xc2\x9f" },
		{ "soft hyphen U+00AD", "\xc2\xad" },
		{ "arabic letter mark U+061C", "\xd8\x9c" },
		{ "ZWSP U+200B", "\xe2\x80\x8b" },
		{ "ZWNJ U+200C", "\xe2\x80\x8c" },
		{ "ZWJ U+200D", "\xe2\x80\x8d" },
		{ "LRM U+200E", "\xe2\x80\x8e" },
		{ "RLM U+200F", "\xe2\x80\x8f" },
		{ "line separator U+2028", "\xe2\x80\xa8" },
		{ "paragraph separator U+2029", "\xe2\x80\xa9" },
		{ "LRE U+202A", "\xe2\x80\xaa" },
		{ "RLO U+202E", "\xe2\x80\xae" },
		{ "word joiner U+2060", "\xe2\x81\xa0" },
		{ "LRI U+2066", "\xe2\x81\xa6" },
		{ "PDI U+2069", "\xe2\x81\xa9" },
		{ "Hangul filler U+3164", "\xe3\x85\xa4" },
		{ "BOM U+FEFF", "\xef\xbb\xbf" },
		{ "interlinear annotation U+FFF9", "\xef\xbf\xb9" },
		{ "tag U+E0041", "\xf3\xa0\x81\x81" },
		{ "invalid 0xFF", "\xff" },
		{ "invalid stray continuation 0x80", "\x80" },
	};
	size_t i;
	char *l;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		TEST(q[i].name) {
			/* "a" X "b x", spot on the x: X is one column of '?' */
			l = mk("a", 1, q[i].s, "b x", 1);
			show(l, strlen(l), strlen(l) - 1, 0, 0, 1);
			CHECK_EXCERPT("a?b x", 4);
			free(l);
		}
	}
	TEST("excerpt: a NUL byte is '?'") {
		show("a\0b", 3, 2, 0, 0, 1);
		CHECK_EXCERPT("a?b", 2);
	}
	TEST("excerpt: invalid UTF-8 is one '?' per byte") {
		/* truncated 3-byte sequence, overlong, surrogate */
		SHOW("\xe6\xbc x", 3);
		CHECK_EXCERPT("?? x", 3);
		SHOW("\xc0\xaf x", 3);
		CHECK_EXCERPT("?? x", 3);
		SHOW("\xed\xa0\x80 x", 4);
		CHECK_EXCERPT("??? x", 4);
		/* the spot on the bad byte itself */
		SHOW("ab\xff", 2);
		CHECK_EXCERPT("ab?", 2);
	}
	TEST("excerpt: a tab is a space") {
		SHOW("\t\t\"a\": x", 7);
		CHECK_EXCERPT("  \"a\": x", 7);
	}
	TEST("excerpt: a variation selector is kept, with width 0") {
		/* U+2764 U+FE0F: the text-default heart asked as emoji */
		SHOW("\xe2\x9d\xa4\xef\xb8\x8f x", 7);
		CHECK_EXCERPT("\xe2\x9d\xa4\xef\xb8\x8f x", 2);
	}
}

static void
test_width(void)
{
	TEST("caret: CJK characters take two columns") {
		/* ["漢字", x]
		 *          ^  display column 9, byte 11 */
		SHOW("[\"\xe6\xbc\xa2\xe5\xad\x97\", x]", 11);
		CHECK_EXCERPT("[\"\xe6\xbc\xa2\xe5\xad\x97\", x]", 9);
	}
	TEST("caret: on a wide character") {
		SHOW("ab\xe6\xbc\xa2\xe5\xad\x97", 5);
		CHECK_EXCERPT("ab\xe6\xbc\xa2\xe5\xad\x97", 4);
	}
	TEST("caret: an emoji takes two columns") {
		/* ["😀", x] */
		SHOW("[\"\xf0\x9f\x98\x80\", x]", 9);
		CHECK_EXCERPT("[\"\xf0\x9f\x98\x80\", x]", 7);
	}
	TEST("caret: fullwidth and Hangul take two columns") {
		/* Ａ U+FF21, 한 U+D55C, then ᄀ U+1100 + ᅡ U+1161 (a syllable
		 * in jamo: 2 + 0 columns) */
		SHOW("\xef\xbc\xa1\xed\x95\x9c\xe1\x84\x80\xe1\x85\xa1x", 12);
		CHECK_EQ(e.caret, 6);
	}
	TEST("caret: an emoji ZWJ sequence is shown as its parts") {
		/* 👨‍👩‍👧 x: man ZWJ woman ZWJ girl, the joiners as '?' */
		SHOW("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d"
		    "\xf0\x9f\x91\xa7 x", 19);
		CHECK_EXCERPT("\xf0\x9f\x91\xa8?\xf0\x9f\x91\xa9?\xf0\x9f\x91\xa7 x",
		    9);
	}
	TEST("caret: a combining accent takes no column") {
		/* ["é", x] with e + U+0301 */
		SHOW("[\"e\xcc\x81\", x]", 7);
		CHECK_EXCERPT("[\"e\xcc\x81\", x]", 5);
	}
	TEST("caret: a spot on a combining mark is under its base") {
		SHOW("[1\xcc\x81]", 2);
		CHECK_EXCERPT("[1\xcc\x81]", 1);
		/* a mark at the start of the line has no base */
		SHOW("\xcc\x81x", 0);
		CHECK_EXCERPT("\xcc\x81x", 0);
	}
	TEST("caret: a spot inside a character is under the character") {
		SHOW("a\xe6\xbc\xa2", 2);
		CHECK_EXCERPT("a\xe6\xbc\xa2", 1);
	}
	TEST("excerpt: the 80 columns are display columns") {
		/* 60 CJK characters: 120 columns, spot on the 31st */
		char *l = mk("\xe6\xbc\xa2", 60, "", "", 0);

		show(l, strlen(l), 90, 0, 0, 1);
		/* "..." + 18 (36 columns) + 19 (38 columns) + "..." */
		CHECK_EQ(e.caret, 39);
		CHECK_EQ(strlen(e.excerpt), 3 + 37 * 3 + 3);
		CHECK(memcmp(e.excerpt, "...\xe6\xbc\xa2", 6) == 0);
		CHECK(memcmp(e.excerpt + 3 + 36 * 3, "\xe6\xbc\xa2...", 6) == 0);
		free(l);
	}
}

static void
test_line_ends(void)
{
	TEST("line end: CR LF ends the line, the CR is not shown") {
		SHOW("ab\r\ncd", 1);
		CHECK_EXCERPT("ab", 1);
		/* the spot on the CR or on the LF: past the line */
		SHOW("ab\r\ncd", 2);
		CHECK_EXCERPT("ab", 2);
		SHOW("ab\r\ncd", 3);
		CHECK_EXCERPT("ab", 2);
	}
	TEST("line end: a lone CR is '?' unless cr_ends_line") {
		SHOW("ab\rcd x", 6);
		CHECK_EXCERPT("ab?cd x", 6);
		show("ab\rcd", 5, 1, 0, 1, 1);
		CHECK_EXCERPT("ab", 1);
		show("ab\r\ncd", 6, 2, 0, 1, 1);
		CHECK_EXCERPT("ab", 2);
	}
	TEST("line end: spot at the end of the line and of the input") {
		SHOW("ab\ncd", 2);
		CHECK_EXCERPT("ab", 2);
		SHOW("[1,", 3);
		CHECK_EXCERPT("[1,", 3);
		SHOW("", 0);
		CHECK_EXCERPT("", 0);
	}
	TEST("line end: a spot past avail is taken as at avail") {
		show("ab", 2, 9, 0, 0, 1);
		CHECK_EXCERPT("ab", 2);
	}
}

static void
test_bounds(void)
{
	char *l;

	TEST("bounds: a line of emoji fills 80 columns in 154 bytes") {
		l = mk("\xf0\x9f\x98\x80", 200, "", "", 0);
		show(l, strlen(l), 400, 0, 0, 1);
		CHECK_EQ(e.caret, 39);
		CHECK_EQ(strlen(e.excerpt), 3 + 37 * 4 + 3);
		CHECK(memcmp(e.excerpt, "...\xf0\x9f\x98\x80", 7) == 0);
		CHECK(memcmp(e.excerpt + 3 + 36 * 4, "\xf0\x9f\x98\x80...\0", 8) ==
		    0);
		free(l);
	}
	TEST("bounds: 4-byte characters of width 1") {
		/* U+10000, 200 of them, spot on the 101st */
		l = mk("\xf0\x90\x80\x80", 200, "", "", 0);
		show(l, strlen(l), 400, 0, 0, 1);
		CHECK_EQ(e.caret, 40);
		CHECK_EQ(strlen(e.excerpt), 3 + 74 * 4 + 3);
		CHECK(strlen(e.excerpt) < sizeof(e.excerpt));
		free(l);
	}
	TEST("bounds: a pile of combining marks is cut by bytes") {
		/* a, 400 marks U+0301, x: spot on a mark in the middle */
		l = mk("a", 1, "", "\xcc\x81", 400);
		l = realloc(l, strlen(l) + 2);
		if (l == NULL)
			abort();
		strcat(l, "x");
		show(l, strlen(l), 1 + 2 * 200, 0, 0, 1);
		CHECK(strlen(e.excerpt) <= sizeof(e.excerpt) - 1);
		CHECK(memcmp(e.excerpt, "...\xcc\x81", 5) == 0);
		CHECK(strcmp(e.excerpt + strlen(e.excerpt) - 3, "...") == 0);
		CHECK_EQ(e.caret, 3);
		free(l);
	}
	TEST("bounds: 4-byte marks before and after the spot") {
		/* 300 of U+E0100 (a variation selector, width 0), !, and 300
		 * more: the marks before the spot are all dropped */
		l = mk("\xf3\xa0\x84\x80", 300, "!", "\xf3\xa0\x84\x80", 300);
		show(l, strlen(l), 4 * 300, 0, 0, 1);
		CHECK(strlen(e.excerpt) <= sizeof(e.excerpt) - 1);
		CHECK(memcmp(e.excerpt, "...!\xf3\xa0\x84\x80", 8) == 0);
		CHECK(strcmp(e.excerpt + strlen(e.excerpt) - 3, "...") == 0);
		CHECK_EQ(e.caret, 3);
		free(l);
	}
	TEST("bounds: every spot of mixed lines stays in the buffer") {
		/* ASCII, CJK, emoji, marks, controls, bad bytes, '?' that
		 * take 4 bytes: the excerpt is NUL-terminated in the buffer,
		 * safe, at most 80 columns, the caret within them */
		static const char *const part[] = {
			"a", "\xe6\xbc\xa2", "\xf0\x9f\x98\x80", "\xcc\x81",
			"\xf3\xa0\x84\x80", "\x01", "\xff", "\xe2\x80\xae",
			"\xf3\xa0\x81\x81", "\t", "\xf0\x90\x80\x80", "\r",
			"\xc2\x9b",
		};
		unsigned seed = 12345;
		size_t npart = sizeof(part) / sizeof(part[0]), round, n, at;
		int bad = 0;
		char buf[2400];

		for (round = 0; round < 300; round++) {
			n = 0;
			while (n < sizeof(buf) - 8) {
				const char *s;

				seed = seed * 1103515245u + 12345u;
				s = part[(seed >> 16) % npart];
				if (((seed >> 8) & 3) == 0 || round % 3 == 0)
					s = part[(seed >> 20) % 5];
				memcpy(buf + n, s, strlen(s));
				n += strlen(s);
				if ((seed >> 24) % 61 == 0 && round > 200)
					break;
			}
			for (at = 0; at <= n; at += 1 + round % 7) {
				memset(e.excerpt, 'Z', sizeof(e.excerpt));
				show(buf, n, at, (int)(round & 1), (int)(round & 2),
				    (int)(round & 4));
				if (memchr(e.excerpt, '\0', sizeof(e.excerpt)) ==
				    NULL || !safe(e.excerpt) ||
				    cols(e.excerpt) < 0 || cols(e.excerpt) > 80 ||
				    e.caret > 79 || (long)e.caret > cols(e.excerpt))
					bad++;
			}
		}
		CHECK_EQ(bad, 0);
	}
}

int
main(void)
{
	test_fields();
	test_cut_marks();
	test_unsafe();
	test_width();
	test_line_ends();
	test_bounds();
	return harness_done();
}
