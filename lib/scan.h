/*
 * scan.h - the scanners of string bodies and UTF-8 text, and the one
 * check of a string body (no byte below a limit, valid UTF-8) that the
 * JSON reader, the CSV reader, the encoder and utf8.c share.
 *
 * Each scanner comes in the forms of the processors jenc knows, chosen at
 * build time: SSE2 on x86 (sixteen bytes at a time; every x86-64 has it),
 * NEON on aarch64 (every one has it: no choice at run time), SWAR
 * elsewhere and for the tails (eight bytes in a uint64_t, lib/swar.h), and
 * a scalar one, byte by byte, that the others are tested against
 * (tests/unit/test_scan.c, natively and under qemu-aarch64).  The plain
 * names (scan_run, scan_find) are the fastest form the build has.
 *
 * Inline functions only: they run once or more per string, where a call
 * would cost as much as the scan.
 */
#ifndef JENC_SCAN_H
#define JENC_SCAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __SSE2__
#define SCAN_SSE2 1
#include <emmintrin.h>
#endif

#if defined(__aarch64__) && defined(__ARM_NEON) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SCAN_NEON 1
#include <arm_neon.h>
#endif

#include "internal.h"
#include "swar.h"

/* ---- the vector blocks: SSE2 or NEON ---------------------------------- */

/*
 * A block of sixteen bytes gives a mask with 1 << SCAN_SH bits per byte,
 * byte j's from bit j << SCAN_SH, the lowest of them set where the byte
 * is flagged: SSE2's movemask (one bit), NEON's narrowing shift (four).
 * scan_lt16 flags the bytes below ctl (<= 0x80) and from 0x80 (a signed
 * compare: those are negative); scan_cand16 the bytes a, b and c too.
 */
#if defined(SCAN_SSE2)
#define SCAN_VEC "sse2"
#define SCAN_SH 0

static inline uint64_t
scan_lt16(const unsigned char *p, unsigned ctl)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v,
	    _mm_set1_epi8((char)ctl)));
}

static inline uint64_t
scan_cand16(const unsigned char *p, unsigned char a, unsigned char b,
    unsigned char c)
{
	__m128i w = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i m = _mm_or_si128(
	    _mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8((char)a)),
	    _mm_cmpeq_epi8(w, _mm_set1_epi8((char)b))),
	    _mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8((char)c)),
	    _mm_cmplt_epi8(w, _mm_set1_epi8(0x20))));

	return (unsigned)_mm_movemask_epi8(m);
}

/* The bytes of p[0..16) that are not JSON whitespace (space, LF, tab,
 * CR), a bit each: for the skips over whitespace of json_walk.c and
 * jsonc.c. */
static inline unsigned
scan_not_ws16(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i ws = _mm_or_si128(
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));

	return (unsigned)_mm_movemask_epi8(ws) ^ 0xffffu;
}
#elif defined(SCAN_NEON)
#define SCAN_VEC "neon"
#define SCAN_SH 2

/* The bytes of a compare's result (0xff or 0) as four bits each, and of
 * those only the lowest, so that m &= m - 1 drops one byte. */
static inline uint64_t
scan_neon_bits(uint8x16_t m)
{
	return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(
	    vreinterpretq_u16_u8(m), 4)), 0) & UINT64_C(0x1111111111111111);
}

static inline uint64_t
scan_lt16(const unsigned char *p, unsigned ctl)
{
	int8x16_t v = vreinterpretq_s8_u8(vld1q_u8(p));

	return scan_neon_bits(vcltq_s8(v, vdupq_n_s8((int8_t)ctl)));
}

static inline uint64_t
scan_cand16(const unsigned char *p, unsigned char a, unsigned char b,
    unsigned char c)
{
	uint8x16_t w = vld1q_u8(p);
	uint8x16_t m = vorrq_u8(
	    vorrq_u8(vceqq_u8(w, vdupq_n_u8(a)), vceqq_u8(w, vdupq_n_u8(b))),
	    vorrq_u8(vceqq_u8(w, vdupq_n_u8(c)),
	    vcltq_s8(vreinterpretq_s8_u8(w), vdupq_n_s8(0x20))));

	return scan_neon_bits(m);
}
#endif

/* ---- runs of plain text: scan_run ------------------------------------- */

/*
 * The length of the start of p[0..n) whose bytes are all from ctl to 0x7f
 * (ctl <= 0x80): ASCII text, with no byte below ctl.  room >= n bytes are
 * readable at p (the vector forms read up to there).
 */
static inline size_t
scan_run_scalar(const unsigned char *p, size_t n, size_t room, unsigned ctl)
{
	size_t i = 0;

	(void)room;
	while (i < n && p[i] >= ctl && p[i] < 0x80)
		i++;
	return i;
}

/* In a word: a byte below ctl borrows and sets its high bit, one from 0x80
 * has it; the lowest flagged byte is exact (a borrow comes only out of a
 * flagged byte and runs toward later ones). */
static inline size_t
scan_run_swar(const unsigned char *p, size_t n, size_t room, unsigned ctl)
{
	size_t i = 0;

	(void)room;
	while (n - i >= 8) {
		uint64_t w = sw_load(p + i);
		uint64_t m = ((w - SW_ONES * ctl) | w) & SW_HIGH;

		if (m != 0)
			return i + (size_t)(__builtin_ctzll(m) >> 3);
		i += 8;
	}
	return i + scan_run_scalar(p + i, n - i, 0, ctl);
}

#ifdef SCAN_VEC
/* SSE2's or NEON's: sixteen bytes of p a compare each. */
static inline size_t
scan_run_vec(const unsigned char *p, size_t n, size_t room, unsigned ctl)
{
	size_t i = 0;

	while (room - i >= 16) {
		uint64_t m = scan_lt16(p + i, ctl);

		if (m != 0) {
			i += (size_t)(__builtin_ctzll(m) >> SCAN_SH);
			return i < n ? i : n;
		}
		i += 16;
		if (i >= n)
			return n;
	}
	return i + scan_run_swar(p + i, n - i, 0, ctl);
}
#endif

static inline size_t
scan_run(const unsigned char *p, size_t n, size_t room, unsigned ctl)
{
#ifdef SCAN_VEC
	return scan_run_vec(p, n, room, ctl);
#else
	return scan_run_swar(p, n, room, ctl);
#endif
}

/* ---- the next byte of interest: scan_find ----------------------------- */

/*
 * The index of the first byte u[j] of u[i..n) that stops a scan, or n.
 * Candidates are the bytes a, b and c, those below 0x20 and those from
 * 0x80 (a string body's quote, backslash and the bytes to check; a CSV
 * field's delimiter too): with tab NULL every candidate stops; else those
 * whose entry in tab is not 0, and tab must be 0 for every byte that is
 * not a candidate.  Candidates are found a block at a time and each of
 * the block is tried before the next load.
 */
static inline int
scan_stops(unsigned char x, const unsigned char *tab, unsigned char a,
    unsigned char b, unsigned char c)
{
	if (tab != NULL)
		return tab[x] != 0;
	return x == a || x == b || x == c || x < 0x20 || x >= 0x80;
}

static inline size_t
scan_find_scalar(const unsigned char *u, size_t i, size_t n,
    const unsigned char *tab, unsigned char a, unsigned char b,
    unsigned char c)
{
	while (i < n && !scan_stops(u[i], tab, a, b, c))
		i++;
	return i;
}

/* Every candidate of the word is flagged, and the lowest flag is one; a
 * flag above it may be false (a borrow), and scan_stops says no to it. */
static inline size_t
scan_find_swar(const unsigned char *u, size_t i, size_t n,
    const unsigned char *tab, unsigned char a, unsigned char b,
    unsigned char c)
{
	const uint64_t wa = SW_ONES * a, wb = SW_ONES * b, wc = SW_ONES * c;

	while (n - i >= 8) {
		uint64_t w = sw_load(u + i), ta = w ^ wa, tb = w ^ wb,
		    tc = w ^ wc;
		uint64_t m = ((w - SW_ONES * 0x20) | w |
		    ((ta - SW_ONES) & ~ta) | ((tb - SW_ONES) & ~tb) |
		    ((tc - SW_ONES) & ~tc)) & SW_HIGH;

		while (m != 0) {
			size_t j = i + (size_t)(__builtin_ctzll(m) >> 3);

			if (scan_stops(u[j], tab, a, b, c))
				return j;
			m &= m - 1;
		}
		i += 8;
	}
	return scan_find_scalar(u, i, n, tab, a, b, c);
}

#ifdef SCAN_VEC
/* SSE2's or NEON's: every candidate of a block of sixteen is tried
 * before the next load. */
static inline size_t
scan_find_vec(const unsigned char *u, size_t i, size_t n,
    const unsigned char *tab, unsigned char a, unsigned char b,
    unsigned char c)
{
	while (n - i >= 16) {
		uint64_t bits = scan_cand16(u + i, a, b, c);

		while (bits != 0) {
			size_t j = i + (size_t)(__builtin_ctzll(bits) >> SCAN_SH);

			if (tab == NULL || tab[u[j]] != 0)
				return j;
			bits &= bits - 1;
		}
		i += 16;
	}
	return scan_find_swar(u, i, n, tab, a, b, c);
}
#endif

static inline size_t
scan_find(const unsigned char *u, size_t i, size_t n,
    const unsigned char *tab, unsigned char a, unsigned char b,
    unsigned char c)
{
#ifdef SCAN_VEC
	return scan_find_vec(u, i, n, tab, a, b, c);
#else
	return scan_find_swar(u, i, n, tab, a, b, c);
#endif
}

/* ---- the string-body check -------------------------------------------- */

/*
 * The index in p[0..n) (room >= n bytes readable at p) of its first byte
 * below ctl or that starts no valid UTF-8 sequence (jenc_utf8_seq), n if
 * none.  ctl 0x20: a JSON string body with its escapes known to be valid
 * (no raw control byte); 1: text with no NUL byte (jenc_utf8_check); 0:
 * any UTF-8 text.
 */
static inline size_t
scan_text_bad(const unsigned char *p, size_t n, size_t room, unsigned ctl)
{
	size_t i = scan_run(p, n, room, ctl);

	while (i < n) {
		uint32_t cp;
		size_t k;

		if (p[i] < ctl || (k = jenc_utf8_seq(p + i, n - i, &cp)) == 0)
			return i;
		i += k;
		i += scan_run(p + i, n - i, room - i, ctl);
	}
	return n;
}

/* ---- escapes ---------------------------------------------------------- */

static inline int
scan_is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* The value of the four hex digits at p (a \u escape's), or -1 if one
 * is not a hex digit (a NUL is not: no byte past one is read). */
static inline long
scan_hex4(const char *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned char h = (unsigned char)p[i];

		if (h >= '0' && h <= '9')
			v = v * 16 + (h - '0');
		else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')
			v = v * 16 + ((h | 0x20) - 'a' + 10);
		else
			return -1;
	}
	return v;
}

/*
 * The escape at p[i], a backslash, as JSON (and jsmn) take it: 0 with
 * its length in *len (2, or 6 for \uXXXX); JENC_ST_MORE if p[0..n) ends
 * before it is complete; JENC_E_SYNTAX if it is not one (the byte after
 * the backslash, or a \u without 4 hex digits).  Reports nothing.  The
 * JSON reader's scans and the skeleton's check (skel.c) both use it.
 */
static inline int
scan_esc_len(const unsigned char *p, size_t i, size_t n, size_t *len)
{
	size_t k;

	if (i + 1 >= n)
		return JENC_ST_MORE;
	switch (p[i + 1]) {
	case '"': case '\\': case '/': case 'b':
	case 'f': case 'n': case 'r': case 't':
		*len = 2;
		return 0;
	case 'u':
		for (k = 2; k < 6; k++) {
			if (i + k >= n)
				return JENC_ST_MORE;
			if (!scan_is_hex(p[i + k]))
				return JENC_E_SYNTAX;
		}
		*len = 6;
		return 0;
	}
	return JENC_E_SYNTAX;
}

#endif
