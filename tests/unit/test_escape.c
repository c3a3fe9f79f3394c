/*
 * test_escape.c - string escaping in every mode: jenc_str, jenc_key,
 * jenc_kv_str, jenc_raw_str and jenc_raw_key, with JENC_HTML, JENC_ASCII
 * and JENC_LOWER_HEX in every combination; text strings as Go 1.22's
 * json.Marshal writes them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jenc.h"

/* Escapes of the control characters, default (uppercase) hex digits. */
static const char *const ctl[32] = {
	"\\u0000", "\\u0001", "\\u0002", "\\u0003",
	"\\u0004", "\\u0005", "\\u0006", "\\u0007",
	"\\b", "\\t", "\\n", "\\u000B",
	"\\f", "\\r", "\\u000E", "\\u000F",
	"\\u0010", "\\u0011", "\\u0012", "\\u0013",
	"\\u0014", "\\u0015", "\\u0016", "\\u0017",
	"\\u0018", "\\u0019", "\\u001A", "\\u001B",
	"\\u001C", "\\u001D", "\\u001E", "\\u001F",
};

/* Characters above U+007F: UTF-8, and their \u form in JENC_ASCII. */
static const struct {
	const char *utf8;
	const char *ascii;
	int sep;	/* U+2028, U+2029: escaped in every text string */
} wide[] = {
	{ "\xc2\x80", "\\u0080", 0 },
	{ "\xc3\xa9", "\\u00E9", 0 },
	{ "\xc3\xbf", "\\u00FF", 0 },
	{ "\xdf\xbf", "\\u07FF", 0 },
	{ "\xe0\xa0\x80", "\\u0800", 0 },
	{ "\xe2\x80\xa7", "\\u2027", 0 },
	{ "\xe2\x80\xa8", "\\u2028", 1 },
	{ "\xe2\x80\xa9", "\\u2029", 1 },
	{ "\xe2\x80\xaa", "\\u202A", 0 },
	{ "\xe2\x82\xac", "\\u20AC", 0 },
	{ "\xef\xbb\xbf", "\\uFEFF", 0 },
	{ "\xef\xbf\xbd", "\\uFFFD", 0 },
	{ "\xef\xbf\xbf", "\\uFFFF", 0 },
	{ "\xf0\x90\x80\x80", "\\uD800\\uDC00", 0 },
	{ "\xf0\x9f\x98\x80", "\\uD83D\\uDE00", 0 },
	{ "\xf4\x8f\xbf\xbf", "\\uDBFF\\uDFFF", 0 },
};
#define NWIDE (sizeof wide / sizeof wide[0])

static const unsigned modes[] = {
	0, JENC_LOWER_HEX, JENC_HTML, JENC_HTML | JENC_LOWER_HEX,
	JENC_ASCII, JENC_ASCII | JENC_LOWER_HEX, JENC_ASCII | JENC_HTML,
	JENC_ASCII | JENC_HTML | JENC_LOWER_HEX,
};
#define NMODES (sizeof modes / sizeof modes[0])

static char namebuf[256];

/* A growable string. */
struct sb {
	char *p;
	size_t len, cap;
};

static void
sb_add(struct sb *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			abort();
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
sb_adds(struct sb *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

/* Append an escape, lowering its hex digits for JENC_LOWER_HEX. */
static void
sb_esc(struct sb *b, const char *esc, unsigned flags)
{
	size_t start = b->len;

	sb_adds(b, esc);
	if (flags & JENC_LOWER_HEX) {
		for (size_t i = start; i < b->len; i++)
			if (b->p[i] >= 'A' && b->p[i] <= 'F')
				b->p[i] = (char)(b->p[i] - 'A' + 'a');
	}
}

/* want_byte - the expected text of the ASCII byte c in mode flags. */
static void
want_byte(struct sb *b, unsigned char c, unsigned flags)
{
	char one[2] = { (char)c, '\0' };

	if (c < 0x20)
		sb_esc(b, ctl[c], flags);
	else if (c == '"')
		sb_adds(b, "\\\"");
	else if (c == '\\')
		sb_adds(b, "\\\\");
	else if ((flags & JENC_HTML) && c == '<')
		sb_esc(b, "\\u003C", flags);
	else if ((flags & JENC_HTML) && c == '>')
		sb_esc(b, "\\u003E", flags);
	else if ((flags & JENC_HTML) && c == '&')
		sb_esc(b, "\\u0026", flags);
	else
		sb_add(b, one, 1);
}

static void
want_wide(struct sb *b, size_t i, unsigned flags)
{
	if ((flags & JENC_ASCII) || wide[i].sep)
		sb_esc(b, wide[i].ascii, flags);
	else
		sb_adds(b, wide[i].utf8);
}

/*
 * encode - s through one call on a fresh memory encoder (JENC_NO_NEWLINE):
 *   's' jenc_str, 'k' jenc_key (in {...:0}), 'v' jenc_kv_str value,
 *   'K' jenc_kv_str key, 'r' jenc_raw_str, 'R' jenc_raw_key.
 * Returns the call's result; *out gets the bytes (caller frees).
 */
static int
encode(char how, unsigned flags, const char *s, size_t n, char **out,
    size_t *outlen)
{
	jenc_opts o = { 0, flags | JENC_NO_NEWLINE, 0 };
	jenc_enc *e = jenc_get_mem(&o);
	int rc = 0;

	if (e == NULL)
		abort();
	switch (how) {
	case 's':
		rc = jenc_str(e, s, n);
		break;
	case 'r':
		rc = jenc_raw_str(e, s, n);
		break;
	case 'k':
	case 'R':
		jenc_obj_begin(e);
		rc = how == 'k' ? jenc_key(e, s, n) : jenc_raw_key(e, s, n);
		jenc_i64(e, 0);
		jenc_obj_end(e);
		break;
	case 'v':
		jenc_obj_begin(e);
		rc = jenc_kv_str(e, "<", 1, s, n);
		jenc_obj_end(e);
		break;
	case 'K':
		jenc_obj_begin(e);
		rc = jenc_kv_str(e, s, n, "<", 1);
		jenc_obj_end(e);
		break;
	default:
		abort();
	}
	*out = jenc_take(e, outlen);
	if (jenc_release(e) != rc)
		rc = -100;
	return rc;
}

/* frame - what encode() gives for a string whose escaped body is body. */
static void
frame(struct sb *w, char how, unsigned flags, const char *body)
{
	struct sb lt = { 0 };

	want_byte(&lt, '<', flags);
	switch (how) {
	case 's':
	case 'r':
		sb_adds(w, "\"");
		sb_adds(w, body);
		sb_adds(w, "\"");
		break;
	case 'k':
	case 'R':
		sb_adds(w, "{\"");
		sb_adds(w, body);
		sb_adds(w, "\":0}");
		break;
	case 'v':
		sb_adds(w, "{\"");
		sb_adds(w, lt.p);
		sb_adds(w, "\":\"");
		sb_adds(w, body);
		sb_adds(w, "\"}");
		break;
	case 'K':
		sb_adds(w, "{\"");
		sb_adds(w, body);
		sb_adds(w, "\":\"");
		sb_adds(w, lt.p);
		sb_adds(w, "\"}");
		break;
	}
	free(lt.p);
}

static void
check_one(char how, unsigned flags, const char *s, size_t n, const char *body)
{
	struct sb w = { 0 };
	char *out;
	size_t outlen;

	frame(&w, how, flags, body);
	CHECK_EQ(encode(how, flags, s, n, &out, &outlen), 0);
	CHECK_STR(out, outlen, w.p);
	free(out);
	free(w.p);
}

static void
test_bytes(void)
{
	static const char hows[] = "skvK";
	struct sb all_in = { 0 }, all_want = { 0 }, w = { 0 };

	for (size_t m = 0; m < NMODES; m++) {
		unsigned f = modes[m];

		for (const char *h = hows; *h != '\0'; h++) {
			snprintf(namebuf, sizeof namebuf,
			    "'%c' flags %#x: each byte 0x00..0x7f", *h, f);
			TEST(namebuf) {
				for (unsigned c = 0; c < 0x80; c++) {
					char in = (char)c;

					w.len = 0;
					want_byte(&w, (unsigned char)c, f);
					check_one(*h, f, &in, 1, w.p);
				}
			}
			snprintf(namebuf, sizeof namebuf,
			    "'%c' flags %#x: all bytes and wide chars in one "
			    "string", *h, f);
			TEST(namebuf) {
				all_in.len = all_want.len = 0;
				for (unsigned c = 0; c < 0x80; c++) {
					char in = (char)c;

					sb_add(&all_in, &in, 1);
					want_byte(&all_want, (unsigned char)c, f);
				}
				for (size_t i = 0; i < NWIDE; i++) {
					sb_adds(&all_in, wide[i].utf8);
					want_wide(&all_want, i, f);
					sb_adds(&all_in, "x");
					sb_adds(&all_want, "x");
				}
				check_one(*h, f, all_in.p, all_in.len,
				    all_want.p);
			}
		}
	}
	free(all_in.p);
	free(all_want.p);
	free(w.p);
}

static void
test_spot_checks(void)
{
	/* The cases spelled out, independent of the tables above. */
	check_one('s', 0, "\x1f\x7f/", 3, "\\u001F\x7f/");
	check_one('s', JENC_LOWER_HEX, "\x1f\x0b", 2, "\\u001f\\u000b");
	check_one('s', 0, "\"\\\n\r\t\b\f", 7, "\\\"\\\\\\n\\r\\t\\b\\f");
	check_one('s', 0, "<a&b>", 5, "<a&b>");
	check_one('s', JENC_HTML, "<a&b>", 5, "\\u003Ca\\u0026b\\u003E");
	check_one('s', JENC_HTML | JENC_LOWER_HEX, "<&>\xe2\x80\xa8\xe2\x80\xa9",
	    9, "\\u003c\\u0026\\u003e\\u2028\\u2029");
	check_one('s', JENC_HTML, "\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9", 8,
	    "\\u2028\\u2029\xc3\xa9");
	check_one('s', 0, "\xe2\x80\xa8", 3, "\\u2028");
	check_one('s', JENC_LOWER_HEX, "\xe2\x80\xa9\xe2\x80\xa7", 6,
	    "\\u2029\xe2\x80\xa7");
	check_one('s', JENC_ASCII, "\xf0\x9f\x98\x80", 4, "\\uD83D\\uDE00");
	check_one('s', JENC_ASCII | JENC_LOWER_HEX, "\xf0\x9f\x98\x80", 4,
	    "\\ud83d\\ude00");
	check_one('s', JENC_ASCII, "caf\xc3\xa9 <", 7, "caf\\u00E9 <");
	check_one('k', JENC_HTML, "a<b", 3, "a\\u003Cb");
	check_one('k', JENC_ASCII | JENC_LOWER_HEX, "\xc3\xa9", 2, "\\u00e9");
	check_one('s', 0, "", 0, "");
	check_one('k', JENC_ASCII, "", 0, "");
}

/*
 * Text strings come out as Go 1.22 and later's json.Marshal writes them
 * (encoding/json since Go 1.22 writes \b and \f, before it \u0008 and
 * \u000c): with JENC_LOWER_HEX as json.NewEncoder with SetEscapeHTML(false),
 * with JENC_HTML too as json.Marshal.  DEL and '/' are not escaped; U+2028
 * and U+2029 are, with or without JENC_HTML.
 */
static void
test_go_marshal(void)
{
	static const char in[] = "\b\f\n\r\t\"\\\x01\x1f\x7f<>&"
	    "\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9\xf0\x9f\x98\x80/";
	char *out;
	size_t outlen;

	TEST("jenc_str writes what Go's json.Marshal writes") {
		CHECK_EQ(encode('s', JENC_LOWER_HEX, in, sizeof in - 1, &out,
		    &outlen), 0);
		CHECK_STR(out, outlen, "\"\\b\\f\\n\\r\\t\\\"\\\\\\u0001\\u001f"
		    "\x7f<>&\\u2028\\u2029\xc3\xa9\xf0\x9f\x98\x80/\"");
		free(out);
		CHECK_EQ(encode('s', JENC_LOWER_HEX | JENC_HTML, in,
		    sizeof in - 1, &out, &outlen), 0);
		CHECK_STR(out, outlen, "\"\\b\\f\\n\\r\\t\\\"\\\\\\u0001\\u001f"
		    "\x7f\\u003c\\u003e\\u0026\\u2028\\u2029\xc3\xa9\xf0\x9f\x98\x80"
		    "/\"");
		free(out);
		/* The same for a key. */
		CHECK_EQ(encode('k', JENC_LOWER_HEX, in, sizeof in - 1, &out,
		    &outlen), 0);
		CHECK_STR(out, outlen, "{\"\\b\\f\\n\\r\\t\\\"\\\\\\u0001\\u001f"
		    "\x7f<>&\\u2028\\u2029\xc3\xa9\xf0\x9f\x98\x80/\":0}");
		free(out);
	}
	/* A string too long for the first segment is written through
	 * put(), whose plain loop skips eight bytes at a time. */
	TEST("U+2028 and U+2029 in a string written across segments") {
		struct sb big = { 0 }, want = { 0 };

		sb_adds(&want, "\"");
		while (big.len < 100000) {
			sb_adds(&big, "abcdefg\xe2\x80\xa8" "abcdef\xe2\x80\xa9");
			sb_adds(&want, "abcdefg\\u2028abcdef\\u2029");
		}
		sb_adds(&want, "\"");
		CHECK_EQ(encode('s', 0, big.p, big.len, &out, &outlen), 0);
		CHECK_STR(out, outlen, want.p);
		free(out);
		free(big.p);
		free(want.p);
	}
}

static void
test_raw(void)
{
	/* The body is copied as written: escapes stay as they are. */
	static const char body[] = "a\\/b\\u00e9\\u00E9\\\"\\\\\\n\\uD83D\\uDE00";
	static const char mixed[] = "<&>\x7f/\xc3\xa9\xe2\x80\xa8\xe2\x80\xa9"
	    "\xf0\x9f\x98\x80\\u003c";

	for (size_t m = 0; m < NMODES; m++) {
		unsigned f = modes[m];

		snprintf(namebuf, sizeof namebuf, "raw flags %#x", f);
		TEST(namebuf) {
			check_one('r', f, body, strlen(body), body);
			check_one('R', f, body, strlen(body), body);
		}
	}
	check_one('r', 0, mixed, strlen(mixed), mixed);
	check_one('R', JENC_LOWER_HEX, mixed, strlen(mixed), mixed);
	check_one('r', JENC_HTML, mixed, strlen(mixed),
	    "\\u003C\\u0026\\u003E\x7f/\xc3\xa9\\u2028\\u2029"
	    "\xf0\x9f\x98\x80\\u003c");
	check_one('R', JENC_HTML | JENC_LOWER_HEX, mixed, strlen(mixed),
	    "\\u003c\\u0026\\u003e\x7f/\xc3\xa9\\u2028\\u2029"
	    "\xf0\x9f\x98\x80\\u003c");
	check_one('r', JENC_ASCII, mixed, strlen(mixed),
	    "<&>\x7f/\\u00E9\\u2028\\u2029\\uD83D\\uDE00\\u003c");
	check_one('R', JENC_ASCII | JENC_LOWER_HEX, mixed, strlen(mixed),
	    "<&>\x7f/\\u00e9\\u2028\\u2029\\ud83d\\ude00\\u003c");
	check_one('r', JENC_ASCII | JENC_HTML, mixed, strlen(mixed),
	    "\\u003C\\u0026\\u003E\x7f/\\u00E9\\u2028\\u2029\\uD83D\\uDE00"
	    "\\u003c");
	check_one('r', JENC_ASCII, "", 0, "");
}

/*
 * A long string mixing every kind of character, so that escapes and
 * multi-byte characters fall on every chunk and segment boundary.
 */
static void
test_long_mixed(void)
{
	struct sb in = { 0 }, body = { 0 };
	uint32_t x = 12345;

	for (size_t m = 0; m < NMODES; m++) {
		unsigned f = modes[m];

		in.len = body.len = 0;
		x = 12345;
		while (in.len < 200000) {
			x = x * 1103515245u + 12345u;
			unsigned r = (x >> 16) & 0x7fff;

			if (r % 4 != 0) {	/* plain letters, in runs */
				size_t run = r % 37;

				for (size_t i = 0; i < run; i++) {
					char c = (char)('a' + (char)(i % 26));

					sb_add(&in, &c, 1);
					sb_add(&body, &c, 1);
				}
			} else if (r % 8 == 0) {
				size_t i = (r >> 3) % NWIDE;

				sb_adds(&in, wide[i].utf8);
				want_wide(&body, i, f);
			} else {
				char c = (char)((r >> 3) % 0x80);

				sb_add(&in, &c, 1);
				want_byte(&body, (unsigned char)c, f);
			}
		}
		snprintf(namebuf, sizeof namebuf, "long mixed string, flags %#x",
		    f);
		TEST(namebuf) {
			check_one('s', f, in.p, in.len, body.p);
			check_one('k', f, in.p, in.len, body.p);
		}
	}
	free(in.p);
	free(body.p);
}

int
main(void)
{
	test_bytes();
	test_spot_checks();
	test_go_marshal();
	test_raw();
	test_long_mixed();
	return harness_done();
}
