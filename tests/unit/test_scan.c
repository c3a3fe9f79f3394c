/*
 * test_scan.c - the scanners of lib/scan.h in every form the build has
 * (scalar, SWAR, and SSE2 on x86 or NEON on aarch64) against references
 * written here byte by byte, on every byte value at every place of a few
 * blocks and on random text; the string-body check (scan_text_bad,
 * jenc_utf8_check) against a UTF-8 decoder of its own; jenc_utf8_cut.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scan.h"

typedef size_t run_fn(const unsigned char *, size_t, size_t, unsigned);
typedef size_t find_fn(const unsigned char *, size_t, size_t,
    const unsigned char *, unsigned char, unsigned char, unsigned char);

static const struct {
	const char *name;
	run_fn *run;
	find_fn *find;
} forms[] = {
	{ "scalar", scan_run_scalar, scan_find_scalar },
	{ "swar", scan_run_swar, scan_find_swar },
#ifdef SCAN_VEC
	{ SCAN_VEC, scan_run_vec, scan_find_vec },
#endif
};
#define NFORMS (sizeof forms / sizeof forms[0])

#define ROOM 16		/* bytes readable past n: what the readers allow */
#define MAXN 100

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static size_t
ref_run(const unsigned char *p, size_t n, unsigned ctl)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] < ctl || p[i] >= 0x80)
			break;
	return i;
}

static size_t
ref_find(const unsigned char *u, size_t i, size_t n, const unsigned char *tab,
    unsigned char a, unsigned char b, unsigned char c)
{
	for (; i < n; i++) {
		unsigned char x = u[i];
		int cand = x == a || x == b || x == c || x < 0x20 || x >= 0x80;

		if (cand && (tab == NULL || tab[x] != 0))
			break;
	}
	return i;
}

/* The length of the valid UTF-8 sequence at p[0..n) (p[0] >= 0x80), 0 if
 * none: decoded, then its range checked (RFC 3629). */
static size_t
ref_seq(const unsigned char *p, size_t n)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t k, j;
	uint32_t cp;

	if ((p[0] & 0xe0) == 0xc0)
		k = 2, cp = p[0] & 0x1fu;
	else if ((p[0] & 0xf0) == 0xe0)
		k = 3, cp = p[0] & 0x0fu;
	else if ((p[0] & 0xf8) == 0xf0)
		k = 4, cp = p[0] & 0x07u;
	else
		return 0;
	if (n < k)
		return 0;
	for (j = 1; j < k; j++) {
		if ((p[j] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[j] & 0x3fu);
	}
	if (cp < min[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k;
}

static size_t
ref_text_bad(const unsigned char *p, size_t n, unsigned ctl)
{
	size_t i = 0, k;

	while (i < n) {
		if (p[i] < ctl)
			return i;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = ref_seq(p + i, n - i)) == 0)
			return i;
		i += k;
	}
	return n;
}

static const unsigned ctls[] = { 0, 1, 0x20 };

/* The sets a, b, c of scan_find tried, and for each a table like the CSV
 * reader's: some of its candidates only (made by main). */
static const unsigned char abc[][3] = {
	{ '"', '\\', '\\' }, { ',', '"', '\\' }, { '\t', '"', '\\' },
	{ ';', '"', '\\' }, { '|', '"', '\\' },
};
#define NABC (sizeof abc / sizeof abc[0])
static unsigned char tabs[NABC][256];

/* Every form of scan_run and scan_find on p[0..n) (ROOM more bytes
 * readable), scan_find from every start i, or with at < n from 0, 1, 9
 * and at, is the reference; 0 if one differs. */
static int
all_forms_agree(const unsigned char *p, size_t n, size_t at)
{
	size_t f, c, i;

	for (f = 0; f < NFORMS; f++) {
		for (c = 0; c < sizeof ctls / sizeof ctls[0]; c++)
			if (forms[f].run(p, n, n + ROOM, ctls[c]) !=
			    ref_run(p, n, ctls[c]) ||
			    forms[f].run(p, n, n, ctls[c]) !=
			    ref_run(p, n, ctls[c]))
				return 0;
		for (c = 0; c < NABC; c++)
			for (i = 0; i <= n; i++) {
				const unsigned char *tc = c == 0 ? NULL :
				    tabs[c];

				if (at < n && i != 0 && i != 1 && i != 9 &&
				    i != at)
					continue;

				if (forms[f].find(p, i, n, tc, abc[c][0],
				    abc[c][1], abc[c][2]) != ref_find(p, i, n,
				    tc, abc[c][0], abc[c][1], abc[c][2]))
					return 0;
			}
	}
	return 1;
}

/* A byte from a mix that makes every scanner stop often. */
static unsigned char
rnd_byte(void)
{
	static const unsigned char some[] = {
		'a', 'a', 'a', ' ', '"', '\\', ',', ';', '\t', '|', 0, 0x1f,
		0x20, 0x7f, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0,
		0xf4, 0xf5, 0xff,
	};

	return rnd(4) == 0 ? (unsigned char)rnd(256) :
	    some[rnd(sizeof some)];
}

/* A valid character of k bytes (1..4), no byte below 0x20, at o. */
static size_t
put_char(unsigned char *o)
{
	static const uint32_t lo[5] = { 0, 0x20, 0x80, 0x800, 0x10000 };
	static const uint32_t span[5] = { 0, 0x60, 0x780, 0xf800, 0x100000 };
	unsigned k = 1 + rnd(4);
	uint32_t cp;

	do
		cp = lo[k] + rnd(span[k]);
	while (cp >= 0xd800 && cp <= 0xdfff);
	switch (k) {
	case 1:
		o[0] = (unsigned char)cp;
		break;
	case 2:
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		break;
	case 3:
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		break;
	default:
		o[0] = (unsigned char)(0xf0 | cp >> 18);
		o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (cp & 0x3f));
		break;
	}
	return k;
}

int
main(void)
{
	unsigned char buf[MAXN + ROOM + 8];
	size_t n, at, v, r, c;

	for (c = 0; c < NABC; c++) {
		tabs[c][abc[c][0]] = tabs[c][abc[c][1]] = 1;
		tabs[c]['\n'] = tabs[c]['\r'] = tabs[c][0] = 1;
		tabs[c][0xc2] = tabs[c][0xe2] = tabs[c][0xff] = 1;
	}

	TEST("scan: the forms this build has") {
		/* a vector form wherever the processor is sure to have one */
#if defined(__SSE2__) || (defined(__aarch64__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		CHECK_EQ(NFORMS, 3);
#else
		CHECK_EQ(NFORMS, 2);
#endif
	}

	/* lengths about a block (16) and a word (8), to 40: two blocks, a
	 * word and a scalar tail */
	TEST("scan_run, scan_find: every byte at every place, to 40") {
		static const size_t lens[] = { 7, 15, 16, 17, 31, 40 };
		size_t l;
		int ok = 1;

		for (l = 0; l < sizeof lens / sizeof lens[0] && ok; l++)
			for (n = lens[l], at = 0; at < n && ok; at++)
				for (v = 0; v < 256 && ok; v++) {
					memset(buf, 'a', sizeof buf);
					buf[at] = (unsigned char)v;
					ok = all_forms_agree(buf, n, at);
					memset(buf, 0xc3, sizeof buf);
					buf[at] = (unsigned char)v;
					ok = ok && all_forms_agree(buf, n, at);
				}
		CHECK(ok);
	}

	TEST("scan_run, scan_find: random text, every length to 100") {
		int ok = 1;

		for (r = 0; r < 3000 && ok; r++) {
			n = rnd(MAXN + 1);
			for (at = 0; at < sizeof buf; at++)
				buf[at] = rnd(3) == 0 ? rnd_byte() : 'a';
			ok = all_forms_agree(buf, n, n);
		}
		CHECK(ok);
	}

	TEST("scan_text_bad, jenc_utf8_check: the reference decoder") {
		int ok = 1;

		for (r = 0; r < 20000 && ok; r++) {
			n = 0;
			while (n + 4 <= MAXN && rnd(20) != 0)
				n += put_char(buf + n);
			/* now and then one byte spoilt */
			if (n > 0 && rnd(2) == 0)
				buf[rnd((unsigned)n)] = rnd_byte();
			for (c = 0; c < sizeof ctls / sizeof ctls[0]; c++) {
				size_t want = ref_text_bad(buf, n, ctls[c]);

				ok = ok && scan_text_bad(buf, n, n, ctls[c]) ==
				    want && scan_text_bad(buf, n, sizeof buf,
				    ctls[c]) == want;
			}
			size_t bad = (size_t)-1, want = ref_text_bad(buf, n, 1);
			int got = jenc_utf8_check((const char *)buf, n, &bad);

			ok = ok && got == (want == n) &&
			    (got || bad == want);
		}
		CHECK(ok);
	}

	TEST("scan_text_bad: a control byte, a NUL, a bad sequence") {
		const unsigned char *s = (const unsigned char *)
		    "caf\xc3\xa9 \x01 \xe2\x82\xac\x00\xc0\x80";

		CHECK(scan_text_bad(s, 14, 14, 0x20) == 6);
		CHECK(scan_text_bad(s, 14, 14, 1) == 11);
		CHECK(scan_text_bad(s, 14, 14, 0) == 12);
		CHECK(scan_text_bad(s, 12, 12, 0) == 12);
		CHECK(scan_text_bad(s, 6, 6, 0x20) == 6);
		CHECK(scan_text_bad(s, 4, 4, 0x20) == 3);	/* cut */
	}

	TEST("jenc_utf8_cut: a sequence the end cuts, not a bad one") {
		CHECK(jenc_utf8_cut((const unsigned char *)"\xc3", 1));
		CHECK(jenc_utf8_cut((const unsigned char *)"\xe2\x82", 2));
		CHECK(jenc_utf8_cut((const unsigned char *)"\xf0\x9f\x98", 3));
		CHECK(jenc_utf8_cut((const unsigned char *)"\xf4", 1));
		CHECK(!jenc_utf8_cut((const unsigned char *)"\xc1", 1));
		CHECK(!jenc_utf8_cut((const unsigned char *)"\xf5", 1));
		CHECK(!jenc_utf8_cut((const unsigned char *)"\x80", 1));
		CHECK(!jenc_utf8_cut((const unsigned char *)"\xe2\x41", 2));
		CHECK(!jenc_utf8_cut((const unsigned char *)"\xc3\xa9", 2));
		CHECK(!jenc_utf8_cut((const unsigned char *)"\xe2\x82\x41", 3));
	}
	return harness_done();
}
