/*
 * enc_esc.c - the encoder's escaping: the escape tables of each set of
 * flags, and strings written quoted and escaped (with the UTF-8 check of
 * text), in one pass into the tail segment or through enc_put across
 * segments.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "enc_int.h"
#include "swar.h"
#include "scan.h"


/* ---- escape tables -------------------------------------------------- */

/*
 * A class per byte: 0 copy, 'u' \u00XX, a letter for a short escape (\n),
 * C_DECODE for a non-ASCII lead byte to turn into \uXXXX, C_E2 for the
 * lead byte of U+2028/U+2029.
 * Index: [raw][html][ascii].  The text tables (raw 0: jenc_str, jenc_key)
 * escape as Go 1.22 and later's json.Marshal: \b \f \n \r \t \" \\,
 * \u00XX for the other control bytes, and U+2028 and U+2029 always; the
 * raw tables (jenc_raw_str, jenc_raw_key: JSON copied verbatim) only what
 * JENC_HTML and JENC_ASCII ask for.
 */
#define C_DECODE 1
#define C_E2 2

static unsigned char esc_tab[2][2][2][256];
static pthread_once_t esc_once = PTHREAD_ONCE_INIT;

static void
enc_esc_init(void)
{
	int raw, html, ascii, c;

	for (raw = 0; raw < 2; raw++)
		for (html = 0; html < 2; html++)
			for (ascii = 0; ascii < 2; ascii++) {
				unsigned char *t = esc_tab[raw][html][ascii];

				for (c = 0; c < 256; c++) {
					unsigned char v = 0;

					if (!raw && c < 0x20)
						v = 'u';
					if (html && (c == '<' || c == '>' || c == '&'))
						v = 'u';
					if (c >= 0x80 && ascii)
						v = C_DECODE;
					else if (c == 0xe2 && (html || !raw))
						v = C_E2;
					t[c] = v;
				}
				if (!raw) {
					t['"'] = '"';
					t['\\'] = '\\';
					t['\n'] = 'n';
					t['\r'] = 'r';
					t['\t'] = 't';
					t['\b'] = 'b';
					t['\f'] = 'f';
				}
			}
}

void
jenc_enc_esc_pick(jenc_enc *e)
{
	unsigned flags = e->flags;

	pthread_once(&esc_once, enc_esc_init);
	e->esc = esc_tab[0][!!(flags & JENC_HTML)][!!(flags & JENC_ASCII)];
	e->rawesc = (flags & (JENC_HTML | JENC_ASCII)) ?
	    esc_tab[1][!!(flags & JENC_HTML)][!!(flags & JENC_ASCII)] : NULL;
	e->hex = (flags & JENC_LOWER_HEX) ? "0123456789abcdef" :
	    "0123456789ABCDEF";
}

/* ---- strings ---------------------------------------------------------- */

/*
 * Strings go one of two ways.  When the tail segment has room for the
 * worst case (STR_WORST output bytes per input byte, \u00XX), enc_quoted()
 * escapes, and for text checks UTF-8, in one pass straight into the
 * segment; a string found invalid is dropped by not moving e->p, so the
 * failed call still writes nothing.  Otherwise the string is checked
 * first (jenc_enc_text_ok) and written through enc_put() across segments
 * (enc_put_escaped).  Both write the same bytes.
 */
static char *
enc_u_esc(char *o, unsigned cp, const char *hex)
{
	o[0] = '\\';
	o[1] = 'u';
	o[2] = hex[(cp >> 12) & 15];
	o[3] = hex[(cp >> 8) & 15];
	o[4] = hex[(cp >> 4) & 15];
	o[5] = hex[cp & 15];
	return o + 6;
}

/*
 * Stop bytes of 8 bytes in w: a high bit in each byte that may need
 * escaping or checking (below 0x20, '"', '\\', 0x80 and up, and with html
 * '<', '>', '&').  Borrows start only at stop bytes and only reach more
 * significant bytes: the mask is 0 exactly when there is none, and its
 * least significant bit is exact; the ones above it may be false.
 */
static inline uint64_t
enc_stops8(uint64_t w, int html)
{
	uint64_t t = (w - SW_ONES * 0x20) | ((w ^ (SW_ONES * '"')) - SW_ONES) |
	    ((w ^ (SW_ONES * '\\')) - SW_ONES);

	if (html)
		t |= ((w ^ (SW_ONES * '<')) - SW_ONES) | ((w ^ (SW_ONES * '>')) - SW_ONES) |
		    ((w ^ (SW_ONES * '&')) - SW_ONES);
	return ((t & ~w) | w) & SW_HIGH;
}

/*
 * If n <= 16 and no byte of s[0..n) is a stop byte: s[0..n) at o, 1; else
 * 0.  Two overlapping words test every byte.  Most keys, and many values,
 * are short and plain, and so is the rest of a longer string after the
 * blocks of enc_quoted: this tests them inline, without a loop.
 */
static inline __attribute__((always_inline)) int
enc_plain_copy(char *o, const unsigned char *s, size_t n, int html)
{
	if (n >= 8) {
		uint64_t a, b;

		if (n > 16)
			return 0;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		if ((enc_stops8(a, html) | enc_stops8(b, html)) != 0)
			return 0;
		memcpy(o, &a, 8);
		memcpy(o + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		if (enc_stops8((uint64_t)a << 32 | b, html) != 0)
			return 0;
		memcpy(o, &a, 4);
		memcpy(o + n - 4, &b, 4);
	} else if (n > 0) {
		/* s[0], s[n / 2] and s[n - 1] are every byte; 'a' pads */
		uint64_t w = 0x6161616161000000ull | s[0] |
		    (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16;

		if (enc_stops8(w, html) != 0)
			return 0;
		o[0] = (char)s[0];
		o[n / 2] = (char)s[n / 2];
		o[n - 1] = (char)s[n - 1];
	}
	return 1;
}

#ifndef __SSE2__
/* Index of the first stop byte of the 8 bytes at p, or 8 if none. */
static inline unsigned
enc_first_stop(const unsigned char *p, int html)
{
	uint64_t w, m;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	/* borrows must run toward later bytes */
	w = __builtin_bswap64(w);
#endif
	m = enc_stops8(w, html);
	return m != 0 ? (unsigned)__builtin_ctzll(m) / 8 : 8;
}

/* The block enc_quoted's loop copies, and the index of its first stop
 * byte (ENC_BLOCK if none): sixteen bytes with NEON (scan.h's
 * candidates), else eight (SWAR). */
#ifdef SCAN_NEON
#define ENC_BLOCK 16u
static inline unsigned
enc_block_stop(const unsigned char *p, int html)
{
	uint64_t m = scan_cand16(p, '"', '\\', '\\');

	if (html)
		m |= scan_cand16(p, '<', '>', '&');
	return m != 0 ? (unsigned)(__builtin_ctzll(m) >> SCAN_SH) : 16;
}
#else
#define ENC_BLOCK 8u
#define enc_block_stop enc_first_stop
#endif
#else
/* The same for 16 bytes, as a bit mask (bit i: byte i). */
static inline unsigned
enc_stops16(__m128i v, int html)
{
	/* signed: below 0x20, or 0x80 and up */
	__m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));

	if (html)
		m = _mm_or_si128(m, _mm_or_si128(
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('<')),
		    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('&')))));
	return (unsigned)_mm_movemask_epi8(m);
}

/* The 16 bytes at in stored at o; the mask of their stop bytes. */
static inline unsigned
enc_copy16(char *o, const unsigned char *in, int html)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)in);

	_mm_storeu_si128((__m128i *)(void *)o, v);
	return enc_stops16(v, html);
}
#endif

/*
 * The stop byte s[*ip] and what it begins, escaped per tab at o (see
 * enc_quoted); *ip moves past them.  Returns the end of the output, or NULL
 * if check found the text invalid.  Inline in enc_quoted's loop.
 */
static inline __attribute__((always_inline)) char *
enc_esc_stop(const jenc_enc *e, char *o, const unsigned char *s, size_t n,
    size_t *ip, const unsigned char *tab, int check)
{
	size_t i = *ip;
	unsigned char c = s[i], cls = tab[c];
	uint32_t cp = 0;
	size_t k;

	switch (cls) {
	case 0:
		if (c < 0x80 || !check) {
			*o++ = (char)c;
			i++;
			break;
		}
		/* a run of non-ASCII text, checked */
		do {
			k = jenc_utf8_seq(s + i, n - i, &cp);
			if (k == 0)
				return NULL;
			do
				*o++ = (char)s[i++];
			while (--k > 0);
		} while (i < n && s[i] >= 0x80 && tab[s[i]] == 0);
		break;
	case C_DECODE:
		k = jenc_utf8_seq(s + i, n - i, &cp);
		if (k == 0) {
			if (check)
				return NULL;
			k = 1;
			cp = 0xfffd;
		}
		if (cp >= 0x10000) {
			cp -= 0x10000;
			o = enc_u_esc(o, 0xd800 + (cp >> 10), e->hex);
			o = enc_u_esc(o, 0xdc00 + (cp & 0x3ff), e->hex);
		} else {
			o = enc_u_esc(o, cp, e->hex);
		}
		i += k;
		break;
	case C_E2:
		if (check) {
			k = jenc_utf8_seq(s + i, n - i, &cp);
			if (k == 0)
				return NULL;
			if (cp == 0x2028 || cp == 0x2029) {
				o = enc_u_esc(o, cp, e->hex);
				i += k;
			} else {
				do
					*o++ = (char)s[i++];
				while (--k > 0);
			}
		} else if (i + 2 < n && s[i + 1] == 0x80 &&
		    (s[i + 2] == 0xa8 || s[i + 2] == 0xa9)) {
			o = enc_u_esc(o, s[i + 2] == 0xa8 ? 0x2028 : 0x2029,
			    e->hex);
			i += 3;
		} else {
			*o++ = (char)c;
			i++;
		}
		break;
	case 'u':
		o = enc_u_esc(o, c, e->hex);
		i++;
		break;
	default:
		o[0] = '\\';
		o[1] = (char)cls;
		o += 2;
		i++;
		break;
	}
	*ip = i;
	return o;
}

/*
 * enc_quoted - s[0..n) as a quoted JSON string at o, escaped per tab; with
 * check, s must be valid UTF-8 (NUL allowed).  o must have room for
 * STR_WORST * n + 2 bytes.  Returns the end of the output, or NULL if check
 * found s invalid.
 *
 * The hot loop stores 32 or 16 input bytes (SSE2; 16 with NEON, whose
 * stops are scan.h's candidates; else 8) at o before it looks at them
 * and keeps them only up to the first stop byte; a short rest is tested
 * as two overlapping words.  The room needed for this is within the
 * worst case: a store of k bytes is made only while k input bytes are
 * left.
 *
 * With check, the UTF-8 check is made here, in the escaping pass, not by
 * scan.h's scan_text_bad first: a second pass over the string would cost
 * what the copy costs, and the stops are the same bytes.
 */
static char *
enc_quoted(const jenc_enc *e, char *o, const unsigned char *s, size_t n,
    const unsigned char *tab, int check)
{
	int html = (e->flags & JENC_HTML) != 0;
	size_t i = 0;

	*o++ = '"';
	for (;;) {
		size_t rem;

#ifdef __SSE2__
		uint32_t m;

		while (n - i >= 32) {
			m = enc_copy16(o, s + i, html) | (uint32_t)enc_copy16(
			    o + 16, s + i + 16, html) << 16;
			if (m != 0)
				goto found;
			i += 32;
			o += 32;
		}
		if (n - i >= 16) {
			m = enc_copy16(o, s + i, html);
			if (m != 0)
				goto found;
			i += 16;
			o += 16;
		}
#else
		while (n - i >= ENC_BLOCK) {
			unsigned k;

			memcpy(o, s + i, ENC_BLOCK);
			k = enc_block_stop(s + i, html);
			if (k < ENC_BLOCK) {
				i += k;
				o += k;
				goto stop;
			}
			i += ENC_BLOCK;
			o += ENC_BLOCK;
		}
#endif
		rem = n - i;
		if (rem >= 4 && enc_plain_copy(o, s + i, rem, html)) {
			o += rem;
			break;
		}
		while (i < n && tab[s[i]] == 0 && (s[i] < 0x80 || !check))
			*o++ = (char)s[i++];
		if (i == n)
			break;
#ifdef __SSE2__
		goto stop;
found:		/* the first stop byte is bit ctz(m) of the block at i */
		i += (unsigned)__builtin_ctz(m);
		o += (unsigned)__builtin_ctz(m);
#endif
stop:
		if ((o = enc_esc_stop(e, o, s, n, &i, tab, check)) == NULL)
			return NULL;
		if (i == n)
			break;
	}
	*o++ = '"';
	return o;
}

/* enc_quoted() with the short plain case inline. */
char *
jenc_enc_quoted_fast(const jenc_enc *e, char *o, const unsigned char *s,
    size_t n, const unsigned char *tab, int check)
{
	if (!enc_plain_copy(o + 1, s, n, (e->flags & JENC_HTML) != 0))
		return enc_quoted(e, o, s, n, tab, check);
	o[0] = '"';
	o[n + 1] = '"';
	return o + n + 2;
}

/*
 * Copy s[0..n) escaping per tab, through enc_put(); s is valid UTF-8.
 * Each escape is made by enc_esc_stop and put one \uXXXX (or shorter
 * escape, or byte) at a time, with room made for each.
 */
static int
enc_put_escaped(jenc_enc *e, const unsigned char *s, size_t n,
    const unsigned char *tab)
{
	const unsigned char *plain = esc_tab[0][0][0];
	size_t i = 0;

	while (i < n) {
		size_t j = i;
		char u[12], *up, *end;

		/* Plain escaping: skip eight bytes with no control byte, '"',
		 * '\\' or 0xe2 (U+2028, U+2029) at a time. */
		if (tab == plain)
			while (j + 8 <= n) {
				uint64_t w = sw_load(s + j);

				if ((sw_lt(w, 0x20) | sw_eq(w, '"') | sw_eq(w, '\\') |
				    sw_eq(w, 0xe2)) != 0)
					break;
				j += 8;
			}
		while (j < n && tab[s[j]] == 0)
			j++;
		if (j > i && enc_put(e, s + i, j - i) != 0)
			return e->err;
		if (j == n)
			break;
		i = j;
		end = enc_esc_stop(e, u, s, n, &i, tab, 0);
		for (up = u; up < end; up += 6) {
			size_t k = end - up < 6 ? (size_t)(end - up) : 6;

			if (enc_need(e, k) != 0)
				return e->err;
			memcpy(e->p, up, k);
			e->p += k;
		}
	}
	return 0;
}

int
jenc_enc_put_string(jenc_enc *e, const char *s, size_t len, int raw)
{
	const unsigned char *tab = raw ? e->rawesc : e->esc;

	if (tab == NULL) {
		if ((size_t)(e->end - e->p) >= len + 2 && len + 2 > len) {
			*e->p++ = '"';
			memcpy(e->p, s, len);
			e->p += len;
			*e->p++ = '"';
			return 0;
		}
		if (enc_put(e, "\"", 1) != 0 || enc_put(e, s, len) != 0)
			return e->err;
		return enc_put(e, "\"", 1);
	}
	if (enc_str_fits(e, len, 0)) {
		e->p = jenc_enc_quoted_fast(e, e->p, (const unsigned char *)s, len,
		    tab, 0);
		return 0;
	}
	if (enc_put(e, "\"", 1) != 0 ||
	    enc_put_escaped(e, (const unsigned char *)s, len, tab) != 0)
		return e->err;
	return enc_put(e, "\"", 1);
}

int
jenc_enc_text_ok(const char *s, size_t len)
{
	return scan_text_bad((const unsigned char *)s, len, len, 0) == len;
}
