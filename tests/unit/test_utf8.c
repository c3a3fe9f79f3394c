/*
 * test_utf8.c - UTF-8 validation of jenc_str, jenc_key and jenc_kv_str:
 * every kind of invalid sequence is JENC_E_UTF8 and writes nothing; every
 * boundary of the 1- to 4-byte forms is accepted and written correctly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jenc.h"

static const struct {
	const char *name;
	const char *s;
	size_t n;
} bad[] = {
	{ "overlong NUL C0 80", "\xc0\x80", 2 },
	{ "overlong C0 AF", "\xc0\xaf", 2 },
	{ "overlong C1 BF", "\xc1\xbf", 2 },
	{ "overlong E0 80 80", "\xe0\x80\x80", 3 },
	{ "overlong E0 80 AF", "\xe0\x80\xaf", 3 },
	{ "overlong E0 9F BF", "\xe0\x9f\xbf", 3 },
	{ "overlong F0 80 80 80", "\xf0\x80\x80\x80", 4 },
	{ "overlong F0 80 80 AF", "\xf0\x80\x80\xaf", 4 },
	{ "overlong F0 8F BF BF", "\xf0\x8f\xbf\xbf", 4 },
	{ "surrogate U+D800 ED A0 80", "\xed\xa0\x80", 3 },
	{ "surrogate U+DB7F ED AD BF", "\xed\xad\xbf", 3 },
	{ "surrogate U+DB80 ED AE 80", "\xed\xae\x80", 3 },
	{ "surrogate U+DC00 ED B0 80", "\xed\xb0\x80", 3 },
	{ "surrogate U+DFFF ED BF BF", "\xed\xbf\xbf", 3 },
	{ "surrogate pair (CESU-8)", "\xed\xa0\xbd\xed\xb8\x80", 6 },
	{ "U+110000 F4 90 80 80", "\xf4\x90\x80\x80", 4 },
	{ "F4 BF BF BF", "\xf4\xbf\xbf\xbf", 4 },
	{ "F5 80 80 80", "\xf5\x80\x80\x80", 4 },
	{ "F7 BF BF BF", "\xf7\xbf\xbf\xbf", 4 },
	{ "truncated C3", "\xc3", 1 },
	{ "truncated E2", "\xe2", 1 },
	{ "truncated E2 82", "\xe2\x82", 2 },
	{ "truncated F0", "\xf0", 1 },
	{ "truncated F0 9F", "\xf0\x9f", 2 },
	{ "truncated F0 9F 98", "\xf0\x9f\x98", 3 },
	{ "truncated ED A0 (surrogate)", "\xed\xa0", 2 },
	{ "C3 then ASCII", "\xc3\x41", 2 },
	{ "E2 82 then ASCII", "\xe2\x82\x41", 3 },
	{ "F0 9F 98 then ASCII", "\xf0\x9f\x98\x41", 4 },
	{ "lead then lead C2 C3", "\xc2\xc3\xa9", 3 },
	{ "E0 A0 C0", "\xe0\xa0\xc0", 3 },
	{ "F0 90 80 C0", "\xf0\x90\x80\xc0", 4 },
	{ "stray 80", "\x80", 1 },
	{ "stray BF", "\xbf", 1 },
	{ "stray between ASCII", "A\x80" "B", 3 },
	{ "extra continuation C3 A9 A9", "\xc3\xa9\xa9", 3 },
	{ "5-byte F8 88 80 80 80", "\xf8\x88\x80\x80\x80", 5 },
	{ "5-byte FB BF BF BF BF", "\xfb\xbf\xbf\xbf\xbf", 5 },
	{ "6-byte FC 84 80 80 80 80", "\xfc\x84\x80\x80\x80\x80", 6 },
	{ "6-byte FD BF BF BF BF BF", "\xfd\xbf\xbf\xbf\xbf\xbf", 6 },
	{ "FE", "\xfe", 1 },
	{ "FF", "\xff", 1 },
};
#define NBAD (sizeof bad / sizeof bad[0])

/* Valid boundaries: UTF-8 and the JENC_ASCII form. */
static const struct {
	const char *name;
	const char *s;
	const char *ascii;
} good[] = {
	{ "U+007F", "\x7f", "\x7f" },
	{ "U+0080", "\xc2\x80", "\\u0080" },
	{ "U+07FF", "\xdf\xbf", "\\u07FF" },
	{ "U+0800", "\xe0\xa0\x80", "\\u0800" },
	{ "U+D7FF", "\xed\x9f\xbf", "\\uD7FF" },
	{ "U+E000", "\xee\x80\x80", "\\uE000" },
	{ "U+FFFF", "\xef\xbf\xbf", "\\uFFFF" },
	{ "U+10000", "\xf0\x90\x80\x80", "\\uD800\\uDC00" },
	{ "U+1F600", "\xf0\x9f\x98\x80", "\\uD83D\\uDE00" },
	{ "U+FFFFF", "\xf3\xbf\xbf\xbf", "\\uDBBF\\uDFFF" },
	{ "U+100000", "\xf4\x80\x80\x80", "\\uDBC0\\uDC00" },
	{ "U+10FFFF", "\xf4\x8f\xbf\xbf", "\\uDBFF\\uDFFF" },
};
#define NGOOD (sizeof good / sizeof good[0])

static const unsigned modes[] = { 0, JENC_ASCII, JENC_HTML,
    JENC_ASCII | JENC_HTML | JENC_LOWER_HEX };
#define NMODES (sizeof modes / sizeof modes[0])

static char namebuf[256];

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

/* s with pre bytes of 'a' before it and post bytes of 'z' after it. */
static char *
pad(const char *s, size_t n, size_t pre, size_t post, size_t *outn)
{
	char *p = malloc(pre + n + post + 1);

	if (p == NULL)
		abort();
	memset(p, 'a', pre);
	memcpy(p + pre, s, n);
	memset(p + pre + n, 'z', post);
	p[pre + n + post] = '\0';
	*outn = pre + n + post;
	return p;
}

/*
 * check_bad - the string s through how ('s' jenc_str in an array, 'k'
 * jenc_key, 'v' jenc_kv_str value, 'K' jenc_kv_str key) is JENC_E_UTF8
 * and the output is unchanged.
 */
static void
check_bad(char how, unsigned flags, const char *s, size_t n)
{
	jenc_opts o = { 0, flags, 0 };
	jenc_enc *e = jenc_get_mem(&o);
	const char *want;
	char *out;
	size_t outn;
	int rc = 0;

	if (e == NULL)
		abort();
	if (how == 's') {
		jenc_arr_begin(e);
		jenc_i64(e, 1);
		want = "[1";
	} else {
		jenc_obj_begin(e);
		jenc_kv_i64(e, "a", 1, 1);
		want = "{\"a\":1";
	}
	switch (how) {
	case 's':
		rc = jenc_str(e, s, n);
		break;
	case 'k':
		rc = jenc_key(e, s, n);
		break;
	case 'v':
		rc = jenc_kv_str(e, "b", 1, s, n);
		break;
	case 'K':
		rc = jenc_kv_str(e, s, n, "b", 1);
		break;
	}
	CHECK_EQ(rc, JENC_E_UTF8);
	CHECK_EQ(jenc_error(e), JENC_E_UTF8);
	out = held(e, &outn);
	CHECK_STR(out, outn, want);
	free(out);
	CHECK_EQ(jenc_release(e), JENC_E_UTF8);
}

static void
test_bad(void)
{
	static const size_t pads[][2] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 3, 5 }, { 15, 16 },
		{ 4093, 0 }, { 70000, 0 }, { 70000, 70000 },
	};

	for (size_t i = 0; i < NBAD; i++) {
		snprintf(namebuf, sizeof namebuf, "invalid UTF-8: %s",
		    bad[i].name);
		TEST(namebuf) {
			for (size_t m = 0; m < NMODES; m++) {
				for (size_t p = 0; p < sizeof pads / sizeof pads[0]; p++) {
					size_t n;
					char *s = pad(bad[i].s, bad[i].n,
					    pads[p][0], pads[p][1], &n);

					check_bad('s', modes[m], s, n);
					if (p < 5) {
						check_bad('k', modes[m], s, n);
						check_bad('v', modes[m], s, n);
						check_bad('K', modes[m], s, n);
					}
					free(s);
				}
			}
		}
	}
}

/* encode_str - s as a lone top-level string value, without newline. */
static char *
encode_str(unsigned flags, int key, const char *s, size_t n, int *rc,
    size_t *outn)
{
	jenc_opts o = { 0, flags | JENC_NO_NEWLINE, 0 };
	jenc_enc *e = jenc_get_mem(&o);
	char *out;

	if (e == NULL)
		abort();
	if (key) {
		jenc_obj_begin(e);
		*rc = jenc_key(e, s, n);
		jenc_null(e);
		jenc_obj_end(e);
	} else {
		*rc = jenc_str(e, s, n);
	}
	out = jenc_take(e, outn);
	if (jenc_release(e) != *rc)
		*rc = -100;
	return out;
}

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		if (*s >= 'A' && *s <= 'F')
			*s = (char)(*s - 'A' + 'a');
}

static void
test_good(void)
{
	char want[64], *out;
	size_t outn;
	int rc;

	for (size_t i = 0; i < NGOOD; i++) {
		snprintf(namebuf, sizeof namebuf, "valid UTF-8: %s", good[i].name);
		TEST(namebuf) {
			size_t n = strlen(good[i].s);

			snprintf(want, sizeof want, "\"%s\"", good[i].s);
			out = encode_str(0, 0, good[i].s, n, &rc, &outn);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, want);
			free(out);
			out = encode_str(JENC_HTML, 0, good[i].s, n, &rc, &outn);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, want);
			free(out);
			snprintf(want, sizeof want, "{\"%s\":null}", good[i].s);
			out = encode_str(0, 1, good[i].s, n, &rc, &outn);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, want);
			free(out);

			snprintf(want, sizeof want, "\"%s\"", good[i].ascii);
			out = encode_str(JENC_ASCII, 0, good[i].s, n, &rc, &outn);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, want);
			free(out);
			lower(want);
			out = encode_str(JENC_ASCII | JENC_LOWER_HEX, 0, good[i].s,
			    n, &rc, &outn);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, want);
			free(out);
			snprintf(want, sizeof want, "{\"%s\":null}", good[i].ascii);
			out = encode_str(JENC_ASCII, 1, good[i].s, n, &rc, &outn);
			CHECK_EQ(rc, 0);
			CHECK_STR(out, outn, want);
			free(out);
		}
	}
}

/*
 * Multi-byte characters at every offset around the 4 KiB segment size and
 * 64 KiB: validators and escapers that work in chunks must not split them.
 */
static void
test_boundaries(void)
{
	static const size_t around[] = { 4096, 8192, 16384, 65536 };
	const char *ch = "\xf0\x9f\x98\x80\xe2\x82\xac\xc3\xa9";	/* 9 bytes */
	const char *esc = "\\uD83D\\uDE00\\u20AC\\u00E9";

	TEST("multi-byte characters across chunk boundaries") {
		for (size_t a = 0; a < sizeof around / sizeof around[0]; a++) {
			for (size_t pre = around[a] - 12; pre <= around[a] + 2; pre++) {
				size_t n, outn, wn;
				char *s = pad(ch, 9, pre, 3, &n), *out, *w;
				int rc;

				out = encode_str(0, 0, s, n, &rc, &outn);
				CHECK_EQ(rc, 0);
				CHECK(out != NULL && outn == n + 2 &&
				    out[0] == '"' && memcmp(out + 1, s, n) == 0 &&
				    out[n + 1] == '"');
				free(out);

				out = encode_str(JENC_ASCII, 0, s, n, &rc, &outn);
				CHECK_EQ(rc, 0);
				wn = pre + strlen(esc) + 3 + 2;
				w = malloc(wn + 1);
				if (w == NULL)
					abort();
				w[0] = '"';
				memset(w + 1, 'a', pre);
				memcpy(w + 1 + pre, esc, strlen(esc));
				memcpy(w + 1 + pre + strlen(esc), "zzz\"", 5);
				CHECK(out != NULL && outn == wn &&
				    memcmp(out, w, wn) == 0);
				free(w);
				free(out);

				/* the same characters cut short at the end */
				for (size_t cut = 1; cut < 4; cut++) {
					out = encode_str(0, 0, s, pre + cut, &rc,
					    &outn);
					CHECK_EQ(rc, JENC_E_UTF8);
					free(out);
				}
				free(s);
			}
		}
	}
}

int
main(void)
{
	test_bad();
	test_good();
	test_boundaries();
	return harness_done();
}
