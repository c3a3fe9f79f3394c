/*
 * test_conv.c - input in other encodings: the converter (lib/conv.c:
 * names, converting, where it stands, the messages) and the input
 * layer reading through it (lib/in.c: jenc_in_begin, byte order marks,
 * UTF-16 without one, a conversion over a buffer and a descriptor, the
 * spot of a bad byte).
 */
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"

/* jenc_in_begin's and jenc_in_bom's byte order mark found */
static int bom;

/*
 * What iconv(3) knows and how it reads bytes is the C library's: glibc
 * knows every encoding these tests name; musl and the BSDs know fewer,
 * and read some bytes otherwise.  A test of an encoding that iconv does
 * not know here, or of a verdict that is glibc's, is skipped with a line
 * on stdout saying so (make check-unit shows it).
 */
static void
skip_why(const char *what, const char *why)
{
	printf("skipped: %s in '%s': %s\n", what, harness_name, why);
}

/* 1 if iconv(3) converts from name to UTF-8 here; else 0, told. */
static int
have_iconv(const char *name)
{
	iconv_t cd = iconv_open("UTF-8", name);

	if (cd == (iconv_t)-1) {
		skip_why(name, "iconv(3) here does not know it");
		return 0;
	}
	iconv_close(cd);
	return 1;
}

/* Convert s[0..n) from name with a fresh converter; out gets the text,
 * *st the stop, *used the raw bytes taken.  (size_t)-1 and *cp NULL if
 * the converter cannot be made (a failed check). */
static size_t
conv_all(const char *name, int cr, const char *s, size_t n, char *out,
    size_t cap, int *st, size_t *used, jenc_conv **cp)
{
	const char *p = s;
	size_t left = n, made;

	*cp = NULL;
	*st = -1;
	*used = 0;
	CHECK_EQ(jenc_conv_new(cp, name, cr, 0), 0);
	if (*cp == NULL)
		return (size_t)-1;
	made = jenc_conv_run(*cp, &p, &left, out, cap, st);
	*used = n - left;
	return made;
}

/* The line and column (1 + characters) after text p[0..n), lines ending
 * at LF and at a lone CR (CR LF once), as the converter counts them. */
static void
text_pos(const char *p, size_t n, uint64_t *line, uint64_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < n; i++) {
		if (p[i] == '\r' || (p[i] == '\n' && (i == 0 ||
		    p[i - 1] != '\r')))
			++*line;
		if (p[i] == '\r' || p[i] == '\n')
			*col = 1;
		else if (((unsigned char)p[i] & 0xc0) != 0x80)
			++*col;
	}
}

/*
 * 1 if s[0..n) (n <= 1024) converted from the encoding of c (through the
 * table or iconv, whichever c uses) with at most step bytes of room a
 * call, and converted at once by a fresh iconv(3) descriptor cd, give
 * the same text and stop at the same byte the same way, c having
 * followed the offset, line and column of that text.  c is put back to
 * the start first.
 */
static int
same_as_iconv(jenc_conv *c, iconv_t cd, const unsigned char *s, size_t n,
    size_t step)
{
	static char a[4 * 1024], b[4 * 1024];
	const char *p = (const char *)s;
	char *src = (char *)(uintptr_t)s, *dst = b;
	size_t left = n, an = 0, bleft = n, room = sizeof(b), r;
	uint64_t line, col;
	int st = 0, bst = 0;

	(void)iconv((iconv_t)c->cd, NULL, NULL, NULL, NULL);
	c->roff = 0;
	c->line = c->col = 1;
	c->lbytes = 0;
	c->after_cr = 0;
	while (left > 0) {
		size_t made = jenc_conv_run(c, &p, &left, a + an, step, &st);

		an += made;
		if (st != 0 || made == 0)
			break;
	}
	(void)iconv(cd, NULL, NULL, NULL, NULL);
	r = iconv(cd, &src, &bleft, &dst, &room);
	if (r == (size_t)-1)
		bst = errno == EILSEQ ? JENC_CONV_BAD : errno == EINVAL ?
		    JENC_CONV_PART : -1;
	text_pos(a, an, &line, &col);
	return an == sizeof(b) - room && memcmp(a, b, an) == 0 &&
	    st == bst && left == bleft && c->roff == n - left &&
	    c->line == line && c->col == col;
}

/* A thread that writes p[0..n) to fd a byte at a time, then closes it. */
struct trickle {
	int fd;
	const char *p;
	size_t n;
};

static void *
trickle(void *arg)
{
	struct trickle *t = arg;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (write(t->fd, t->p + i, 1) != 1)
			break;
		struct timespec ts = { 0, 1000000L };

		(void)nanosleep(&ts, NULL);
	}
	close(t->fd);
	return NULL;
}

static void
test_conv(void)
{
	jenc_conv *c;
	char out[64], msg[128];
	size_t made, used;
	int st;

	TEST("jenc_conv_utf8: NULL and the names of UTF-8") {
		CHECK(jenc_conv_utf8(NULL));
		CHECK(jenc_conv_utf8("utf-8"));
		CHECK(jenc_conv_utf8("UTF8"));
		CHECK(!jenc_conv_utf8("utf-16"));
		CHECK(!jenc_conv_utf8("utf-8//IGNORE"));
	}
	TEST("jenc_encoding_check: known, unknown, and names that would replace") {
		CHECK_EQ(jenc_encoding_check(NULL), 0);
		CHECK_EQ(jenc_encoding_check("utf-8"), 0);
		CHECK_EQ(jenc_encoding_check("cp1252"), 0);
		CHECK_EQ(jenc_encoding_check("UTF-16LE"), 0);
		CHECK_EQ(jenc_encoding_check("klingon"), JENC_E_ENCODING);
		CHECK_EQ(jenc_encoding_check(""), JENC_E_ENCODING);
		CHECK_EQ(jenc_encoding_check("latin1//TRANSLIT"),
		    JENC_E_ENCODING);
		CHECK_EQ(jenc_encoding_check("cp1252//IGNORE"),
		    JENC_E_ENCODING);
	}
	TEST("jenc_conv_new: an unknown name leaves *cp NULL") {
		c = (jenc_conv *)out;
		CHECK_EQ(jenc_conv_new(&c, "klingon", 0, 0), JENC_E_ENCODING);
		CHECK(c == NULL);
	}
	TEST("jenc_conv_run: cp1252 to UTF-8, the offset, line and column") {
		made = conv_all("cp1252", 0, "a\x80" "b", 3, out, sizeof(out),
		    &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_STR(out, made, "a\xe2\x82\xac" "b");
		CHECK_EQ(st, 0);
		CHECK_EQ(used, 3);
		CHECK_EQ(c->roff, 3);
		CHECK_EQ(c->line, 1);
		CHECK_EQ(c->col, 4);
		CHECK_EQ(c->lbytes, 5);
		jenc_conv_free(c);
	}
	TEST("jenc_conv_run: an invalid byte stops it there (JENC_CONV_BAD)") {
		/* "ab" then 0x81, undefined in cp1252 */
		made = conv_all("cp1252", 0, "ab\x81" "c", 4, out, sizeof(out),
		    &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_STR(out, made, "ab");
		CHECK_EQ(st, JENC_CONV_BAD);
		CHECK_EQ(used, 2);
		CHECK_EQ(c->roff, 2);
		CHECK_EQ(c->col, 3);
		jenc_conv_msg(c, "\x81" "c", 2, st, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg), "invalid byte 0x81 for encoding cp1252");
		jenc_conv_free(c);
	}
	TEST("jenc_conv_msg: the fewest bytes that cannot start a character") {
#if defined(__GLIBC__)
		/* Shift_JIS: 0x82 is a lead byte, 0x20 no trail byte */
		made = conv_all("shift_jis", 0, "\x82\xa0\x82\x20", 4, out,
		    sizeof(out), &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_STR(out, made, "\xe3\x81\x82");
		CHECK_EQ(st, JENC_CONV_BAD);
		CHECK_EQ(used, 2);
		CHECK_EQ(c->col, 2);	/* one character before it */
		jenc_conv_msg(c, "\x82\x20", 2, st, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg),
		    "invalid bytes 0x82 0x20 for encoding shift_jis");
		jenc_conv_free(c);
#else
		skip_why("shift_jis 0x82 0x20", "that it is invalid is "
		    "glibc's verdict (musl reads a character)");
#endif
		/* UTF-16LE: a lone low surrogate is one unit, two bytes */
		made = conv_all("utf-16le", 0, "x\0\0\xdc", 4, out,
		    sizeof(out), &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_STR(out, made, "x");
		CHECK_EQ(st, JENC_CONV_BAD);
		jenc_conv_msg(c, "\0\xdc", 2, st, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg),
		    "invalid bytes 0x00 0xdc for encoding utf-16le");
		jenc_conv_free(c);
	}
	TEST("jenc_conv_run: a character cut by the input's end (JENC_CONV_PART)") {
		made = conv_all("utf-16le", 0, "a\0b", 3, out, sizeof(out), &st,
		    &used, &c);
		if (c == NULL)
			break;
		CHECK_STR(out, made, "a");
		CHECK_EQ(st, JENC_CONV_PART);
		CHECK_EQ(used, 2);
		jenc_conv_msg(c, "b", 1, st, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg), "incomplete character at end of "
		    "input for encoding utf-16le, found byte 0x62");
		jenc_conv_free(c);
	}
	TEST("jenc_conv_run: output full, the rest left for the next call") {
		const char *p = "\xe9\xe9\xe9";
		size_t left = 3;

		CHECK_EQ(jenc_conv_new(&c, "latin1", 0, 0), 0);
		if (c == NULL)
			break;
		made = jenc_conv_run(c, &p, &left, out, 5, &st);
		CHECK_STR(out, made, "\xc3\xa9\xc3\xa9");
		CHECK_EQ(left, 1);
		made = jenc_conv_run(c, &p, &left, out, sizeof(out), &st);
		CHECK_STR(out, made, "\xc3\xa9");
		CHECK_EQ(left, 0);
		CHECK_EQ(st, 0);
		CHECK_EQ(c->col, 4);
		jenc_conv_free(c);
	}
	TEST("jenc_conv_run: lines at LF, and with cr at a lone CR (CR LF once)") {
		made = conv_all("latin1", 1, "x\r\ny\rz\xe9", 7, out,
		    sizeof(out), &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_EQ(made, 8);
		CHECK_EQ(c->line, 3);
		CHECK_EQ(c->col, 3);
		CHECK_EQ(c->lbytes, 3);
		jenc_conv_free(c);
		made = conv_all("latin1", 0, "x\r\ny\rz\xe9", 7, out,
		    sizeof(out), &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_EQ(c->line, 2);
		CHECK_EQ(c->col, 5);	/* y, CR, z, é */
		jenc_conv_free(c);
		/* a CR at the end of one call, its LF in the next */
		{
			const char *p = "a\r";
			size_t left = 2;

			CHECK_EQ(jenc_conv_new(&c, "latin1", 1, 0), 0);
			if (c == NULL)
				break;
			(void)jenc_conv_run(c, &p, &left, out, sizeof(out), &st);
			p = "\nb";
			left = 2;
			(void)jenc_conv_run(c, &p, &left, out, sizeof(out), &st);
			CHECK_EQ(c->line, 2);
			CHECK_EQ(c->col, 2);
			jenc_conv_free(c);
		}
	}
	TEST("jenc_conv_bom: line 1's columns start after a dropped mark") {
		made = conv_all("utf-16le", 0, "\xff\xfe" "a\0", 4, out,
		    sizeof(out), &st, &used, &c);
		if (c == NULL)
			break;
		CHECK_STR(out, made, "\xef\xbb\xbf" "a");
		CHECK_EQ(c->col, 3);
		jenc_conv_bom(c, 1, 3);
		CHECK_EQ(c->col, 2);
		CHECK_EQ(c->lbytes, 1);
		jenc_conv_free(c);
	}
	TEST("jenc_conv_new: single-byte encodings go through the table") {
		static const char *const yes[] = { "latin1", "cp1252",
		    "ISO-8859-15", "koi8-r" };
		/* multibyte, stateful, composing (a letter and the mark
		 * after it become one character: glibc's cp1255, cp1258
		 * and tcvn), not ASCII-transparent */
		static const char *const no[] = { "shift_jis", "utf-16",
		    "utf-16le", "cp1255", "cp1258", "tcvn", "utf-7",
		    "ebcdic-us", "viscii" };
		size_t i;

		for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
			CHECK_EQ(jenc_conv_new(&c, yes[i], 0, 0), 0);
			if (c == NULL)
				continue;
			CHECK(jenc_conv_is_table(c));
			jenc_conv_free(c);
		}
		for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
			if (!have_iconv(no[i]))
				continue;
#if !defined(__GLIBC__)
			if (strcmp(no[i], "cp1255") == 0 ||
			    strcmp(no[i], "cp1258") == 0 ||
			    strcmp(no[i], "tcvn") == 0) {
				skip_why(no[i], "composing is glibc's");
				continue;
			}
#endif
			CHECK_EQ(jenc_conv_new(&c, no[i], 0, 0), 0);
			if (c == NULL)
				continue;
			CHECK(!jenc_conv_is_table(c));
			jenc_conv_free(c);
		}
		/* the tries leave nothing held back for the text to come */
		for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
			iconv_t cd = iconv_open("UTF-8", no[i]);
			char want[64], *src = (char *)(uintptr_t)"ab\ncd\n";
			char *dst = want;
			size_t left = 6, room = sizeof(want);

			if (cd == (iconv_t)-1)
				continue;	/* told above */
			(void)iconv(cd, &src, &left, &dst, &room);
			want[sizeof(want) - room] = '\0'; /* none made */
			made = conv_all(no[i], 0, "ab\ncd\n", 6, out,
			    sizeof(out), &st, &used, &c);
			if (c == NULL) {
				iconv_close(cd);
				continue;
			}
			CHECK_STR(out, made, want);
			iconv_close(cd);
			jenc_conv_free(c);
		}
	}
	TEST("jenc_conv_run: the same text and stop as iconv(3) at once") {
		static const char *const names[] = { "latin1", "iso-8859-15",
		    "cp1252", "cp1251", "koi8-r", "cp437", "cp1255", "cp1258",
		    "tcvn", "shift_jis", "utf-16le" };
		static const size_t steps[] = { 4, 7, 64, 4096 };
		unsigned char buf[1024];
		uint32_t seed = 12345;
		size_t i, j, k, n;
		iconv_t cd;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			int fails = 0;

			if (!have_iconv(names[i]))
				continue;
			CHECK_EQ(jenc_conv_new(&c, names[i], 1, 0), 0);
			if (c == NULL)
				continue;
			cd = iconv_open("UTF-8", names[i]);
			/* each byte alone, then between text on both sides */
			for (j = 0; j < 256; j++) {
				buf[0] = (unsigned char)j;
				fails += !same_as_iconv(c, cd, buf, 1, 4096);
				memcpy(buf, "ab\r\ncd\xe9" "0123456789abcdef",
				    23);
				buf[23] = (unsigned char)j;
				memcpy(buf + 24, "x\ny\n0123456789abcdefgh",
				    22);
				fails += !same_as_iconv(c, cd, buf, 46, 7);
			}
			/* all 256 in order, and reversed */
			for (j = 0; j < 256; j++)
				buf[j] = (unsigned char)j;
			fails += !same_as_iconv(c, cd, buf, 256, 4096);
			for (j = 0; j < 256; j++)
				buf[j] = (unsigned char)(255 - j);
			fails += !same_as_iconv(c, cd, buf, 256, 7);
			/* random bytes: any, or mostly ASCII with line ends */
			for (j = 0; j < 400; j++) {
				seed = seed * 1103515245u + 12345u;
				n = (seed >> 8) % sizeof(buf);
				for (k = 0; k < n; k++) {
					uint32_t v;

					seed = seed * 1103515245u + 12345u;
					v = seed >> 16;
					buf[k] = (unsigned char)(j % 2 ? v :
					    v % 16 == 0 ? 0x80 + v / 16 % 128 :
					    v % 16 == 1 ?
					    (v / 16 % 2 ? 10u : 13u) :
					    0x20 + v / 16 % 95);
				}
				fails += !same_as_iconv(c, cd, buf, n,
				    steps[j % 4]);
			}
			CHECK_EQ(fails, 0);
			iconv_close(cd);
			jenc_conv_free(c);
		}
	}
	TEST("jenc_conv_free(NULL) is a no-op") {
		jenc_conv_free(NULL);
	}
}

static void
test_in(void)
{
	jenc_in in;
	jenc_where w;
	char msg[160];
	jenc_pool_stats a, b;

	TEST("jenc_in_begin: a UTF-16LE mark over a buffer, the text converted") {
		jenc_pool_stats_get(&a);
		jenc_in_init_mem(&in, "\xff\xfe[\0\xe9\0]\0", 8, 100);
		in.lf_lines = 1;
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		CHECK(in.conv != NULL);
		CHECK_EQ(in.off, 3);	/* as after a UTF-8 mark */
		while (!in.eof)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len, "[\xc3\xa9]");
		jenc_in_where(&in, 3, &w);
		CHECK_EQ(w.line, 1);
		CHECK_EQ(w.col, 4);	/* a byte column of the UTF-8 text */
		jenc_in_release(&in);
		jenc_pool_stats_get(&b);
		CHECK_EQ(b.mallocs - a.mallocs, b.frees - a.frees);
	}
	TEST("jenc_in_begin: UTF-32 marks before UTF-16 ones, UTF-16BE") {
		jenc_in_init_mem(&in, "\xff\xfe\0\0" "1\0\0\0", 8, 100);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		while (!in.eof)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len, "1");
		jenc_in_release(&in);
		jenc_in_init_mem(&in, "\xfe\xff\0" "2", 4, 100);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		while (!in.eof)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len, "2");
		jenc_in_release(&in);
	}
	TEST("jenc_in_begin: a UTF-8 mark, and UTF-8 left as it is") {
		jenc_in_init_mem(&in, "\xef\xbb\xbf[]", 5, 100);
		CHECK_EQ(jenc_in_begin(&in, "utf-8", 0, &bom), 0);
		CHECK_EQ(bom, 1);
		CHECK(in.conv == NULL);
		CHECK_STR(in.p, in.len, "[]");
		jenc_in_release(&in);
		jenc_in_init_mem(&in, "[\xc3\xa9]", 4, 100);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 0);
		CHECK(in.conv == NULL);
		CHECK(in.buf == NULL);	/* still a view of the caller's */
		jenc_in_release(&in);
	}
	TEST("jenc_in_begin: UTF-16 and UTF-32 without a mark (JENC_E_ENCODING)") {
		static const struct {
			const char *s;
			size_t n;
			const char *name;
		} t[] = {
			{ "[\0]\0", 4, "UTF-16LE" }, { "\0[\0]", 4, "UTF-16BE" },
			{ "1\0\0\0", 4, "UTF-32LE" }, { "\0\0\0" "1", 4, "UTF-32BE" },
			{ "1\0", 2, "UTF-16LE" },
		};
		size_t i;

		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			char want[160];

			jenc_in_init_mem(&in, t[i].s, t[i].n, 100);
			CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom),
			    JENC_E_ENCODING);
			jenc_in_enc_msg(&in, msg, sizeof(msg));
			snprintf(want, sizeof(want), "input looks like %s "
			    "without a byte order mark; try --encoding=%c%c%c%s",
			    t[i].name, 'u', 't', 'f', t[i].name + 3);
			for (char *q = want + strlen(want) - 5; *q; q++)
				if (*q >= 'A' && *q <= 'Z')
					*q = (char)(*q - 'A' + 'a');
			CHECK_STR(msg, strlen(msg), want);
			jenc_in_enc_where(&in, &w);
			CHECK_EQ(w.line, 1);
			CHECK_EQ(w.col, 1);
			CHECK_EQ(w.offset, 0);
			jenc_in_release(&in);
		}
		/* three bytes with a NUL are no UTF-16: the reader tells */
		jenc_in_init_mem(&in, "[\0]", 3, 100);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 0);
		jenc_in_release(&in);
	}
	TEST("jenc_in_begin: an unknown name is JENC_E_ENCODING") {
		jenc_in_init_mem(&in, "[]", 2, 100);
		CHECK_EQ(jenc_in_begin(&in, "klingon", 0, &bom),
		    JENC_E_ENCODING);
		jenc_in_enc_msg(&in, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg), "unknown encoding 'klingon'");
		jenc_in_release(&in);
	}
	TEST("jenc_in_fill: a bad byte is told after the text before it") {
		/* line 2 after "é" and "x": column 3 in characters */
		jenc_in_init_mem(&in, "a\n\xe9x\x81z", 6, 100);
		in.lf_lines = 1;
		CHECK_EQ(jenc_in_begin(&in, "cp1252", 0, &bom), 0);
		CHECK_EQ(bom, 0);
		CHECK_STR(in.p, in.len, "a\n\xc3\xa9x");
		CHECK_EQ(jenc_in_fill(&in), JENC_E_ENCODING);
		CHECK_EQ(jenc_in_fill(&in), JENC_E_ENCODING);	/* sticky */
		jenc_in_enc_msg(&in, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg), "invalid byte 0x81 for encoding cp1252");
		jenc_in_drop(&in, 1);
		jenc_in_enc_where(&in, &w);
		CHECK_EQ(w.offset, 4);	/* of the raw input */
		CHECK_EQ(w.line, 2);
		CHECK_EQ(w.col, 3);
		CHECK_STR(w.text, w.avail, "\xc3\xa9x");
		CHECK_EQ(w.at, 3);
		CHECK_EQ(w.text_cut, 0);
		CHECK_EQ(w.eof, 0);
		jenc_in_release(&in);
	}
	TEST("jenc_in_fill: explicit utf-16le skips the mark it keeps") {
		jenc_in_init_mem(&in, "\xff\xfe" "a\0\0\xdc", 6, 100);
		in.lf_lines = 1;
		CHECK_EQ(jenc_in_begin(&in, "utf-16le", 0, &bom), 0);
		CHECK_EQ(bom, 1);
		CHECK_STR(in.p, in.len, "a");
		CHECK_EQ(in.off, 3);
		CHECK_EQ(jenc_in_fill(&in), JENC_E_ENCODING);
		jenc_in_enc_where(&in, &w);
		CHECK_EQ(w.offset, 4);
		CHECK_EQ(w.col, 2);
		jenc_in_release(&in);
	}
	TEST("jenc_in_fill: from a descriptor, characters split across reads") {
		int fds[2];
		pthread_t t;
		struct trickle tr;

		CHECK_EQ(pipe(fds), 0);
		CHECK_EQ(jenc_in_init_fd(&in, fds[0], 64, 1024), 0);
		/* UTF-16LE "é€\n😀" with a mark, a byte at a time */
		tr.fd = fds[1];
		tr.p = "\xff\xfe\xe9\x00\xac\x20\n\x00\x3d\xd8\x00\xde";
		tr.n = 12;
		CHECK_EQ(pthread_create(&t, NULL, trickle, &tr), 0);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		while (!in.eof)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len,
		    "\xc3\xa9\xe2\x82\xac\n\xf0\x9f\x98\x80");
		pthread_join(t, NULL);
		jenc_in_release(&in);
		close(fds[0]);
	}
	TEST("jenc_in_fill: a cut character at the end of a descriptor") {
		int fds[2];

		CHECK_EQ(pipe(fds), 0);
		CHECK_EQ(write(fds[1], "\xfe\xff\0x\0", 5), 5);
		close(fds[1]);
		CHECK_EQ(jenc_in_init_fd(&in, fds[0], 64, 1024), 0);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		while (in.len == 0)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len, "x");
		CHECK_EQ(jenc_in_fill(&in), JENC_E_ENCODING);
		jenc_in_enc_msg(&in, msg, sizeof(msg));
		CHECK_STR(msg, strlen(msg), "incomplete character at end of "
		    "input for encoding utf-16be, found byte 0x00");
		jenc_in_enc_where(&in, &w);
		CHECK_EQ(w.offset, 4);
		CHECK_EQ(w.eof, 1);
		jenc_in_release(&in);
		close(fds[0]);
	}
	TEST("jenc_in_fill: a converted window of at most max bytes, drained") {
		static char raw[2 + 2 * 3000];
		size_t i, total = 0, full = 0;
		int rc;

		raw[0] = '\xff';
		raw[1] = '\xfe';
		for (i = 0; i < 3000; i++) {
			raw[2 + 2 * i] = i == 2999 ? '\n' : 'a';
			raw[3 + 2 * i] = 0;
		}
		jenc_in_init_mem(&in, raw, sizeof(raw), 256);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		while (!in.eof) {
			rc = jenc_in_fill(&in);
			if (rc == JENC_ST_FULL) {
				/* full but for less than a character's room */
				CHECK(in.len > 256 - 16 && in.len <= 256);
				full++;
				total += in.len;
				jenc_in_drop(&in, in.len);
				continue;
			}
			CHECK_EQ(rc, 0);
		}
		total += in.len;
		CHECK(full > 0);
		CHECK_EQ(total, 3000);
		CHECK_EQ(in.p[in.len - 1], '\n');
		jenc_in_release(&in);
	}
}

int
main(void)
{
	test_conv();
	test_in();
	return harness_done();
}
