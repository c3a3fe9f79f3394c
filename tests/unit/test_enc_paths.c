/*
 * test_enc_paths.c - the two ways a string is written give the same bytes.
 *
 * A string goes straight into the tail segment in one pass when the
 * segment has room for it escaped in the worst case, and through the
 * checked, segment-crossing path otherwise.  Every string here is written
 * both ways (in a fresh encoder, and after filler that leaves the tail
 * with room to spare or too little) and compared with a plain reference
 * escaper, in every escaping mode, with each special byte at every
 * position of strings up to MAXN bytes (every step of the scan: 32 and
 * 16 bytes, the 8-, 4- and 1-byte tests of a short rest).  Invalid UTF-8
 * must leave the output untouched either way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jenc.h"

#define MAXN 56

static jenc_enc *
mem(unsigned indent, unsigned flags)
{
	jenc_opts o = { indent, flags, 0 };
	jenc_enc *e = jenc_get_mem(&o);

	if (e == NULL)
		abort();
	return e;
}

/* out - e's held bytes, NUL-terminated, in a static buffer. */
static char outbuf[1 << 16];
static size_t outlen;

static size_t
out(const jenc_enc *e)
{
	const char *p;
	size_t it = 0, len, total = 0;

	while ((p = jenc_segments(e, &it, &len)) != NULL) {
		if (total + len >= sizeof(outbuf))
			abort();
		memcpy(outbuf + total, p, len);
		total += len;
	}
	outbuf[total] = '\0';
	outlen = total;
	return total;
}

/* ---- a plain reference escaper (Go's encoding/json rules) ---- */

static size_t
ref_u(char *o, unsigned cp, int lower)
{
	const char *hex = lower ? "0123456789abcdef" : "0123456789ABCDEF";

	o[0] = '\\';
	o[1] = 'u';
	o[2] = hex[(cp >> 12) & 15];
	o[3] = hex[(cp >> 8) & 15];
	o[4] = hex[(cp >> 4) & 15];
	o[5] = hex[cp & 15];
	return 6;
}

/* s is valid UTF-8; raw: s is a JSON string body, only the JENC_HTML and
 * JENC_ASCII escapes apply; else U+2028 and U+2029 are escaped always, as
 * Go's json.Marshal does. */
static size_t
ref_escape(char *o, const unsigned char *s, size_t n, unsigned flags, int raw)
{
	int html = (flags & JENC_HTML) != 0, ascii = (flags & JENC_ASCII) != 0;
	int lower = (flags & JENC_LOWER_HEX) != 0;
	size_t i = 0, k = 0;

	o[k++] = '"';
	while (i < n) {
		unsigned c = s[i], cp, len;

		len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f :
		    c & 0x07;
		for (unsigned j = 1; j < len; j++)
			cp = cp << 6 | (s[i + j] & 0x3f);
		if (!raw && (c == '"' || c == '\\')) {
			o[k++] = '\\';
			o[k++] = (char)c;
		} else if (!raw && c < 0x20) {
			static const char sh[] = "\nn\rr\tt\bb\ff";
			const char *at = c != 0 ? strchr(sh, (int)c) : NULL;

			if (at != NULL && (at - sh) % 2 == 0) {
				o[k++] = '\\';
				o[k++] = at[1];
			} else {
				k += ref_u(o + k, c, lower);
			}
		} else if (html && (c == '<' || c == '>' || c == '&')) {
			k += ref_u(o + k, c, lower);
		} else if ((html || ascii || !raw) &&
		    (cp == 0x2028 || cp == 0x2029)) {
			k += ref_u(o + k, cp, lower);
		} else if (ascii && cp >= 0x10000) {
			cp -= 0x10000;
			k += ref_u(o + k, 0xd800 + (cp >> 10), lower);
			k += ref_u(o + k, 0xdc00 + (cp & 0x3ff), lower);
		} else if (ascii && cp >= 0x80) {
			k += ref_u(o + k, cp, lower);
		} else {
			memcpy(o + k, s + i, len);
			k += len;
		}
		i += len;
	}
	o[k++] = '"';
	return k;
}

/* ---- writing a string after filler ---- */

enum { W_STR, W_KEY, W_KV, W_RAW_STR, W_RAW_KEY, NWAYS };

/*
 * One string written by way w into a fresh encoder, after `short_by`:
 * -1 for nothing before it (a fresh segment, the one-pass path), else
 * filler that leaves the 4 KiB first segment short_by bytes short of the
 * one-pass path's worst case.  Returns the call's result; *want gets what
 * the output must be.
 */
static int
write_one(int w, unsigned flags, const unsigned char *s, size_t n,
    int short_by, char *want, size_t *wantlen)
{
	static char fill[4096];
	jenc_enc *e = mem(0, flags | JENC_NO_NEWLINE);
	size_t k = 0, f = 0;
	int rc;

	want[k++] = '[';
	jenc_arr_begin(e);
	if (short_by >= 0) {
		/* "[" then a filler number, a comma and the separators */
		size_t worst = 6 * n + 2 + 8, room = 4096 - 1;

		f = room > worst + 1 ? room - worst - 1 + (size_t)short_by : 1;
		if (f > room - 1)
			f = room - 1;
		memset(fill, '1', f);
		jenc_raw(e, fill, f);
		memcpy(want + k, fill, f);
		k += f;
		want[k++] = ',';
	}
	switch (w) {
	case W_STR:
		rc = jenc_str(e, (const char *)s, n);
		k += ref_escape(want + k, s, n, flags, 0);
		break;
	case W_RAW_STR:
		rc = jenc_raw_str(e, (const char *)s, n);
		k += ref_escape(want + k, s, n, flags, 1);
		break;
	default:
		jenc_obj_begin(e);
		want[k++] = '{';
		if (w == W_KV)
			rc = jenc_kv_str(e, (const char *)s, n, "v", 1);
		else if (w == W_KEY)
			rc = jenc_key(e, (const char *)s, n);
		else
			rc = jenc_raw_key(e, (const char *)s, n);
		k += ref_escape(want + k, s, n, flags, w == W_RAW_KEY);
		memcpy(want + k, ":\"v\"", 4);
		k += 4;
		if (w != W_KV && rc == 0)
			rc = jenc_str(e, "v", 1);
		if (rc == 0)
			rc = jenc_obj_end(e);
		want[k++] = '}';
		break;
	}
	if (rc == 0)
		rc = jenc_arr_end(e);
	want[k++] = ']';
	want[k] = '\0';
	*wantlen = k;
	(void)out(e);
	jenc_release(e);
	return rc;
}

static const struct {
	const char *s;
	size_t n;
} pieces[] = {
	{ "\"", 1 }, { "\\", 1 }, { "\n", 1 }, { "\x01", 1 }, { "\x1f", 1 },
	{ "", 1 /* NUL */ }, { "<", 1 }, { ">", 1 }, { "&", 1 },
	{ "\x7f", 1 }, { "\xc3\xa9", 2 }, { "\xe2\x80\xa8", 3 },
	{ "\xe2\x80\xa9", 3 }, { "\xe2\x82\xac", 3 }, { "\xf0\x9f\x98\x80", 4 },
};

static const unsigned modes[] = {
	0, JENC_HTML, JENC_ASCII, JENC_HTML | JENC_ASCII | JENC_LOWER_HEX,
};

/* Each way and filler for one string; returns the failures. */
static int
one_string(unsigned mode, const char *str, size_t n, int rawable,
    int *checked)
{
	static char want[1 << 16];
	const unsigned char *s = (const unsigned char *)str;
	int bad = 0;

	for (int w = 0; w < NWAYS; w++) {
		if (w >= W_RAW_STR && !rawable)
			continue;
		for (int sb = -1; sb <= 8; sb += (sb < 0 ? 1 : 4)) {
			size_t wl;
			int rc = write_one(w, mode, s, n, sb, want, &wl);

			(*checked)++;
			if (rc == 0 && outlen == wl &&
			    memcmp(outbuf, want, wl) == 0)
				continue;
			if (bad++ == 0)
				fprintf(stderr, "mode %u way %d n %zu short "
				    "%d: rc %d\n got  [%s]\n want [%s]\n", mode,
				    w, n, sb, rc, outbuf, want);
		}
	}
	return bad;
}

static void
test_every_position(void)
{
	static char s[MAXN];
	size_t np = sizeof(pieces) / sizeof(pieces[0]);
	int bad = 0, checked = 0;

	TEST("each special byte at each position, every mode, both paths") {
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			bad += one_string(modes[m], s, 0, 1, &checked);
			for (size_t p = 0; p < np; p++) {
				size_t pn = pieces[p].n;
				unsigned char c = (unsigned char)pieces[p].s[0];
				/* raw bodies hold no bare '"', '\\' or control
				 * byte */
				int rawable = c >= 0x7f ||
				    (c != 0 && strchr("<>&", c) != NULL);

				for (size_t n = pn; n <= MAXN; n++)
				for (size_t at = 0; at + pn <= n; at++) {
					for (size_t i = 0; i < n; i++)
						s[i] = "abcdefghijklm"[i % 13];
					memcpy(s + at, pieces[p].s, pn);
					bad += one_string(modes[m], s, n,
					    rawable, &checked);
				}
			}
		}
		CHECK_EQ(bad, 0);
		CHECK(checked > 100000);
	}
}

/* Every filler length around the boundary of the one-pass path. */
static void
test_boundary(void)
{
	static const unsigned char s[] =
	    "ab\"cd\xc3\xa9<\x01xyz0123456789abcdef";
	static char want[1 << 16];
	size_t nm = sizeof(modes) / sizeof(modes[0]);
	int bad = 0;

	TEST("a string at every distance from the end of the segment") {
		for (size_t m = 0; m < nm; m++)
		for (int w = 0; w < NWAYS; w++)
		for (int sb = 0; sb < 200; sb++) {
			/* raw bodies: "ab" */
			size_t wl, n = w >= W_RAW_STR ? 2 : sizeof(s) - 1;

			if (write_one(w, modes[m], s, n, sb, want, &wl) != 0 ||
			    outlen != wl || memcmp(outbuf, want, wl) != 0)
				bad++;
		}
		CHECK_EQ(bad, 0);
	}
}

/*
 * s (n bytes, invalid UTF-8) written by way w after filler of f bytes;
 * returns 1 if that did not fail with JENC_E_UTF8 leaving the output as
 * it was.
 */
static int
invalid_one(const char *s, size_t n, int w, size_t f)
{
	static char fill[4096], before[4200];
	jenc_enc *e = mem(2, (unsigned)(w == W_KV ? JENC_HTML : 0));
	size_t blen;
	int rc, bad = 0;

	memset(fill, '7', sizeof(fill));
	jenc_arr_begin(e);
	jenc_raw(e, fill, f);
	if (w != W_STR) {
		jenc_obj_begin(e);
		jenc_kv_null(e, "a", 1);
	}
	blen = out(e);
	memcpy(before, outbuf, blen + 1);
	if (w == W_STR)
		rc = jenc_str(e, s, n);
	else if (w == W_KEY)
		rc = jenc_key(e, s, n);
	else
		rc = jenc_kv_str(e, "k", 1, s, n);
	if (rc != JENC_E_UTF8 || out(e) != blen ||
	    strcmp(outbuf, before) != 0 || jenc_null(e) != JENC_E_UTF8)
		bad = 1;
	if (w == W_KV) {
		/* the key bad, the value good */
		jenc_reset(e);
		jenc_obj_begin(e);
		if (jenc_kv_str(e, s, n, "v", 1) != JENC_E_UTF8 || out(e) != 1)
			bad = 1;
	}
	jenc_release(e);
	return bad;
}

/* Bad UTF-8 at each byte of strings up to MAXN bytes: the call fails and
 * writes nothing, on both paths. */
static void
test_invalid(void)
{
	static const char *const bad_seqs[] = {
		"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80",
		"\xe2\x80", "\xff",
	};
	size_t nb = sizeof(bad_seqs) / sizeof(bad_seqs[0]);
	int bad = 0;

	TEST("invalid UTF-8 anywhere: JENC_E_UTF8 and nothing written") {
		char s[MAXN];

		for (size_t b = 0; b < nb; b++) {
			size_t bl = strlen(bad_seqs[b]);

			for (size_t n = bl; n <= MAXN; n++)
			for (size_t at = 0; at + bl <= n; at++)
			for (int w = W_STR; w <= W_KV; w++) {
				memset(s, 'q', n);
				memcpy(s + at, bad_seqs[b], bl);
				/* a fresh segment; no room left */
				bad += invalid_one(s, n, w, 1);
				bad += invalid_one(s, n, w, 4000);
			}
		}
		CHECK_EQ(bad, 0);
	}
	TEST("a string rejected on the one-pass path keeps the state") {
		jenc_enc *e = mem(0, 0);

		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_str(e, "a\xff", 2), JENC_E_UTF8);
		CHECK_EQ(jenc_depth(e), 1);
		out(e);
		CHECK_STR(outbuf, strlen(outbuf), "[");
		jenc_discard(e);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_str(e, "x", 1), 0);
		CHECK_EQ(jenc_str(e, "\xc3", 1), JENC_E_UTF8);
		out(e);
		CHECK_STR(outbuf, strlen(outbuf), "[\"x\"");
		jenc_release(e);
	}
	TEST("bad UTF-8 where no value may come: JENC_E_UTF8 comes first") {
		jenc_enc *e = mem(0, JENC_NO_NEWLINE);

		CHECK_EQ(jenc_str(e, "a", 1), 0);
		CHECK_EQ(jenc_str(e, "b\xff", 2), JENC_E_UTF8);
		jenc_reset(e);
		CHECK_EQ(jenc_str(e, "a", 1), 0);
		CHECK_EQ(jenc_str(e, "b", 1), JENC_E_SECOND);
		out(e);
		CHECK_STR(outbuf, strlen(outbuf), "\"a\"");
		jenc_release(e);
	}
}

/* Indentation deeper than the one-pass path's own buffer sizes. */
static void
test_indent(void)
{
	TEST("keys and values with indentation, tabs and depth") {
		jenc_opts t = { 0, JENC_TAB, 0 };
		jenc_enc *e = mem(3, 0), *te = jenc_get_mem(&t);

		CHECK_EQ(jenc_obj_begin(e), 0);
		CHECK_EQ(jenc_kv_str(e, "a", 1, "x", 1), 0);
		CHECK_EQ(jenc_key(e, "b", 1), 0);
		CHECK_EQ(jenc_arr_begin(e), 0);
		CHECK_EQ(jenc_str(e, "y", 1), 0);
		CHECK_EQ(jenc_str(e, "z", 1), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		CHECK_EQ(jenc_obj_end(e), 0);
		out(e);
		CHECK_STR(outbuf, strlen(outbuf), "{\n   \"a\": \"x\",\n"
		    "   \"b\": [\n      \"y\",\n      \"z\"\n   ]\n}\n");
		CHECK_EQ(jenc_obj_begin(te), 0);
		CHECK_EQ(jenc_kv_str(te, "a", 1, "x", 1), 0);
		CHECK_EQ(jenc_kv_str(te, "b", 1, "y", 1), 0);
		CHECK_EQ(jenc_obj_end(te), 0);
		out(te);
		CHECK_STR(outbuf, strlen(outbuf),
		    "{\n\t\"a\": \"x\",\n\t\"b\": \"y\"\n}\n");
		jenc_release(e);
		jenc_release(te);
	}
}

/*
 * Nested arrays, 16 spaces per level, down to 70 levels: every length of
 * indentation the encoder writes in a different way (under 64 bytes,
 * under 1024, longer), and newlines that meet a segment's end, as the
 * output runs through several segments.  Compared with the same text
 * built by hand.
 */
static void
test_indent_depths(void)
{
	TEST("indentation of every depth to 1120 bytes, across segments") {
		enum { D = 70, W = 16 };
		size_t cap = 2 * (size_t)W * D * D + 16 * D, n = 0, it = 0, len;
		size_t at = 0;
		char *want = malloc(cap);
		const char *p;
		jenc_enc *e = mem(W, 0);
		int d, ok = 1;

		if (want == NULL)
			abort();
		for (d = 0; d < D; d++) {
			CHECK_EQ(jenc_arr_begin(e), 0);
			memset(want + n, ' ', (size_t)W * (size_t)d);
			n += (size_t)W * (size_t)d;
			want[n++] = '[';
			want[n++] = '\n';
		}
		CHECK_EQ(jenc_str(e, "x", 1), 0);
		memset(want + n, ' ', (size_t)W * D);
		n += (size_t)W * D;
		memcpy(want + n, "\"x\"\n", 4);
		n += 4;
		for (d = D - 1; d >= 0; d--) {
			CHECK_EQ(jenc_arr_end(e), 0);
			memset(want + n, ' ', (size_t)W * (size_t)d);
			n += (size_t)W * (size_t)d;
			want[n++] = ']';
			want[n++] = '\n';
		}
		while ((p = jenc_segments(e, &it, &len)) != NULL) {
			if (at + len > n || memcmp(p, want + at, len) != 0)
				ok = 0;
			at += len;
		}
		CHECK(ok && at == n);
		jenc_release(e);
		free(want);
	}
}

int
main(void)
{
	test_every_position();
	test_boundary();
	test_invalid();
	test_indent();
	test_indent_depths();
	return harness_done();
}
