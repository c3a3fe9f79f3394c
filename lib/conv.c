/*
 * conv.c - input in another encoding converted to UTF-8 with iconv(3),
 * for the input layer (in.c) to read through.
 *
 * A jenc_conv holds the iconv descriptor, the raw bytes read but not yet
 * converted, and where in the input the conversion stands: the offset of
 * the next raw byte, and the line and column of the converted text made
 * so far, so that an invalid byte is reported in the input's own terms.
 * Lines are counted in the converted text, as the readers count them: at
 * LF, and with cr at a lone CR too (CR LF is one line end).  The column of
 * a bad byte is 1 plus the number of characters before it on its line,
 * whatever their size in the input's encoding (in UTF-16 a character is
 * 2 or 4 bytes, in Shift_JIS 1 or 2).
 *
 * A single-byte encoding that keeps ASCII as it is (latin1, cp1252, ...)
 * is converted through a table of 256 characters, which jenc_conv_new
 * builds by converting each byte alone with iconv; it is used only where
 * converting every pair of bytes gives the two bytes' characters, not for
 * the encodings in which glibc composes a base letter and the combining
 * mark after it into one character (CP1255, CP1258, TCVN).
 *
 * Nothing is ever replaced: a sequence that is not valid in the encoding,
 * or a character cut by the end of the input, stops the conversion, and
 * jenc_conv_msg names its bytes.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "swar.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

int
jenc_conv_utf8(const char *name)
{
	return name == NULL || strcasecmp(name, "utf-8") == 0 ||
	    strcasecmp(name, "utf8") == 0;
}

/* iconv_open for name, or (iconv_t)-1 with errno set.  A name holding '/'
 * would give glibc's suffixes (//IGNORE drops bad bytes, //TRANSLIT
 * replaces them): never that; "" would mean the locale's charset. */
static iconv_t
conv_open(const char *name)
{
	if (name[0] == '\0' || strchr(name, '/') != NULL) {
		errno = EINVAL;
		return (iconv_t)-1;
	}
	return iconv_open("UTF-8", name);
}

int
jenc_encoding_check(const char *name)
{
	iconv_t cd;

	if (jenc_conv_utf8(name))
		return 0;
	if ((cd = conv_open(name)) == (iconv_t)-1)
		return errno == ENOMEM ? JENC_E_NOMEM : JENC_E_ENCODING;
	iconv_close(cd);
	return 0;
}

/* Feed the bytes of d[0..n) that a chunk holds to iconv and compare what
 * it makes with the table's characters; 0 on a difference. */
static int
conv_chunk(jenc_conv *c, const unsigned char *d, size_t n)
{
	char in[512], got[3 * 512], want[3 * 512 + 3];
	char *src = in, *dst = got;
	size_t i, wn = 0, left = n, room = sizeof(got);

	for (i = 0; i < n; i++) {
		in[i] = (char)d[i];
		memcpy(want + wn, c->tab[d[i]], 3);
		wn += c->tab[d[i]][3];
	}
	/* the state goes on from the chunk before */
	if (iconv((iconv_t)c->cd, &src, &left, &dst, &room) != 0 ||
	    left != 0)
		return 0;
	return sizeof(got) - room == wn && memcmp(got, want, wn) == 0;
}

/*
 * 1 if each pair of the bytes v[0..nv) converts to the table's two
 * characters: they are converted as one text in which every pair is
 * next to each other once, a de Bruijn sequence of order 2 (the Lyndon
 * words of length 1 and 2 in order, a, then a b for each b after a, and
 * the first byte again at the end), nv * nv + 1 bytes.
 */
static int
conv_pairs(jenc_conv *c, const unsigned char *v, size_t nv)
{
	unsigned char d[512];
	size_t n = 0, a, b;
	char *dst = (char *)d;
	size_t room = sizeof(d);
	int ok = 1;

	if (nv == 0)
		return 1;
	(void)iconv((iconv_t)c->cd, NULL, NULL, NULL, NULL);
	for (a = 0; a < nv && ok; a++) {
		d[n++] = v[a];
		for (b = a + 1; b < nv && ok; b++) {
			d[n++] = v[a];
			d[n++] = v[b];
			if (n >= sizeof(d) - 3) {
				ok = conv_chunk(c, d, n);
				n = 0;
			}
		}
	}
	d[n++] = v[0];
	if (ok)
		ok = conv_chunk(c, d, n);
	/* nothing held back at the end */
	if (ok && (iconv((iconv_t)c->cd, NULL, NULL, &dst, &room) != 0 ||
	    room != sizeof(d)))
		ok = 0;
	return ok;
}

/*
 * Build c->tab from c->cd if the encoding is single-byte: each byte alone
 * converts at once (nothing held back in the state) to exactly one
 * character, or is invalid (EILSEQ); 0x00-0x7f are ASCII; and each pair
 * of valid bytes from 0x20 on converts to the two characters, so that no
 * byte changes how the next one reads (glibc composes a letter and a
 * combining mark after it in CP1255, CP1258 and TCVN, holding the letter
 * back, which the first test already refuses).  Returns 1 if so, else 0
 * (iconv is used).
 */
static int
conv_table(jenc_conv *c)
{
	iconv_t cd = (iconv_t)c->cd;
	unsigned char valid[256];
	size_t nv = 0, i;

	for (i = 0; i < 256; i++) {
		char b = (char)i, out[16], *src = &b, *dst = out;
		size_t left = 1, room = sizeof(out), r, n;
		unsigned char l;

		(void)iconv(cd, NULL, NULL, NULL, NULL);
		r = iconv(cd, &src, &left, &dst, &room);
		if (r == (size_t)-1) {
			if (errno != EILSEQ || left != 1 || i < 0x80)
				return 0;
			c->tab[i][3] = 0;
			continue;
		}
		n = sizeof(out) - room;
		if (r != 0 || left != 0 || n == 0 || n > 3)
			return 0;
		l = (unsigned char)out[0];
		/* exactly one character: the lead byte's length is n */
		if (n != (l < 0x80 ? 1u : l >= 0xc2 && l < 0xe0 ? 2u :
		    l >= 0xe0 && l < 0xf0 ? 3u : 0u))
			return 0;
		if (i < 0x80 && (n != 1 || l != i))
			return 0;
		if (iconv(cd, NULL, NULL, &dst, &room) != 0 ||
		    sizeof(out) - room != n)
			return 0;	/* the state held something */
		c->tab[i][3] = (unsigned char)n;
		memcpy(c->tab[i], out, n);
		if (i >= 0x20)
			valid[nv++] = (unsigned char)i;
	}
	return conv_pairs(c, valid, nv);
}
int
jenc_conv_is_table(const jenc_conv *c)
{
	return c->table;
}

int
jenc_conv_new(jenc_conv **cp, const char *name, int cr, size_t rawcap)
{
	jenc_conv *c;

	*cp = NULL;
	if ((c = jenc_mem_alloc(sizeof(*c))) == NULL)
		return JENC_E_NOMEM;
	memset(c, 0, sizeof(*c));
	c->cd = (void *)conv_open(name);
	if (c->cd == (void *)(iconv_t)-1) {
		int e = errno;

		jenc_mem_free(c, sizeof(*c));
		return e == ENOMEM ? JENC_E_NOMEM : JENC_E_ENCODING;
	}
	if (rawcap > 0 && (c->raw = jenc_mem_alloc(rawcap)) == NULL) {
		jenc_conv_free(c);
		return JENC_E_NOMEM;
	}
	c->rawcap = rawcap;
	c->table = conv_table(c);
	/* back to the initial state, whatever the tries left in it */
	(void)iconv((iconv_t)c->cd, NULL, NULL, NULL, NULL);
	(void)snprintf(c->name, sizeof(c->name), "%s", name);
	c->cr = cr;
	c->line = 1;
	c->col = 1;
	*cp = c;
	return 0;
}

void
jenc_conv_free(jenc_conv *c)
{
	if (c == NULL)
		return;
	iconv_close((iconv_t)c->cd);
	jenc_mem_free(c->raw, c->rawcap);
	jenc_mem_free(c, sizeof(*c));
}

/* Follow the line and column over one byte b of converted text. */
static inline void
conv_byte(jenc_conv *c, unsigned char b)
{
	if (b == '\n' || (b == '\r' && c->cr)) {
		if (!(b == '\n' && c->after_cr))
			c->line++;	/* CR LF is one line end */
		c->col = 1;
		c->lbytes = 0;
		c->after_cr = b == '\r';
		return;
	}
	c->after_cr = 0;
	c->lbytes++;
	/* a character starts at each byte but continuation bytes */
	c->col += (b & 0xc0) != 0x80;
}

/* Follow the line and column over converted text p[0..n). */
static void
conv_count(jenc_conv *c, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0;

	while (i < n) {
		uint64_t w, m;

		/* 8 bytes at a time while no CR or LF is among them */
		if (n - i >= 8) {
			memcpy(&w, s + i, 8);
			if ((sw_eq(w, '\n') | sw_eq(w, '\r')) == 0) {
				/* continuation bytes: 10xxxxxx */
				m = (w & ~(w << 1) & SW_HIGH) >> 7;
				c->col += 8 - ((m * SW_ONES) >> 56);
				c->lbytes += 8;
				c->after_cr = 0;
				i += 8;
				continue;
			}
		}
		conv_byte(c, s[i++]);
	}
}

#ifdef __SSE2__
#define PLAIN_RUN 16
#else
#define PLAIN_RUN 8
#endif
/* How many of the PLAIN_RUN bytes at s come before the first that is not
 * ASCII or is a CR or LF (PLAIN_RUN: none is). */
static size_t
conv_plain(const unsigned char *s)
{
#ifdef __SSE2__
	__m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(w,
	    _mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('\n')),
	    _mm_cmpeq_epi8(w, _mm_set1_epi8('\r')))));

	return m == 0 ? 16 : (size_t)__builtin_ctz(m);
#else
	uint64_t w, m;

	memcpy(&w, s, 8);
	m = (w & SW_HIGH) | sw_eq(w, '\n') | sw_eq(w, '\r');
	if (m == 0)
		return 8;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (size_t)__builtin_ctzll(m) >> 3;	/* the first is exact */
#else
	return 0;
#endif
#endif
}

/*
 * jenc_conv_run through c->tab, following the line and column as
 * conv_count would over the text made (a byte is one character): ASCII
 * without CR or LF is copied PLAIN_RUN bytes at a time, other bytes
 * looked up one by one.  An invalid byte stops it, as does a character
 * that does not fit in what is left of out (as iconv's E2BIG).  While
 * at least PLAIN_RUN bytes are left of both the input and a quarter of
 * the room, the room cannot run out (a byte makes 3 at most).
 */
static size_t
conv_table_run(jenc_conv *c, const char **in, size_t *inlen, char *out,
    size_t outcap, int *st)
{
	const unsigned char *s = (const unsigned char *)*in, *from = s;
	const unsigned char *end = s + *inlen, *t, *slim;
	unsigned char *d = (unsigned char *)out, *dend = d + outcap;
	uint64_t col = c->col;
	size_t lbytes = c->lbytes, k, n, room;
	int fast;

	*st = 0;
	for (;;) {
		n = (size_t)(end - s);
		room = (size_t)(dend - d);
		fast = n >= PLAIN_RUN && room / 4 >= PLAIN_RUN;
		if (fast) {
			n = n < room / 4 ? n : room / 4;
			slim = s + (n - PLAIN_RUN);
		} else if (n == 0)
			break;
		else
			slim = s;	/* one byte */
		while (s <= slim) {
			if (fast) {
				k = conv_plain(s);
				/* beyond d + k: rewritten */
				memcpy(d, s, PLAIN_RUN);
				if (k > 0) {
					s += k;
					d += k;
					col += k;
					lbytes += k;
					c->after_cr = 0;
					if (k == PLAIN_RUN)
						continue;
				}
			}
			t = c->tab[*s];
			if (*s >= 0x80) {
				if (t[3] == 0) {
					*st = JENC_CONV_BAD;
					goto out;
				}
				if (dend - d >= 4)
					memcpy(d, t, 4); /* d[3]: rewritten */
				else if ((size_t)(dend - d) >= t[3])
					memcpy(d, t, t[3]);
				else
					goto out;
				d += t[3];
				col++;
				lbytes += t[3];
				c->after_cr = 0;
			} else {
				if (d == dend)
					goto out;
				*d++ = *s;
				c->col = col;
				c->lbytes = lbytes;
				conv_byte(c, *s);
				col = c->col;
				lbytes = c->lbytes;
			}
			s++;
		}
	}
out:
	c->col = col;
	c->lbytes = lbytes;
	c->roff += (size_t)(s - from);
	*in = (const char *)s;
	*inlen = (size_t)(end - s);
	return (size_t)(d - (unsigned char *)out);
}

size_t
jenc_conv_run(jenc_conv *c, const char **in, size_t *inlen, char *out,
    size_t outcap, int *st)
{
	char *src = (char *)(uintptr_t)*in, *dst = out;
	size_t left = *inlen, room = outcap, made, r;
	int e;

	if (c->table)
		return conv_table_run(c, in, inlen, out, outcap, st);
	r = iconv((iconv_t)c->cd, &src, &left, &dst, &room);
	e = errno;

	made = outcap - room;
	c->roff += *inlen - left;
	conv_count(c, out, made);
	*in = src;
	*inlen = left;
	*st = 0;
	if (r == (size_t)-1 && e == EILSEQ)
		*st = JENC_CONV_BAD;
	else if (r == (size_t)-1 && e == EINVAL)
		*st = JENC_CONV_PART;
	return made;
}

size_t
jenc_conv_flush(jenc_conv *c, char *out, size_t outcap)
{
	char *dst = out;
	size_t room = outcap, made;

	c->flushed = 1;
	if (c->table)
		return 0;
	if (iconv((iconv_t)c->cd, NULL, NULL, &dst, &room) == (size_t)-1)
		return 0;	/* E2BIG cannot be: no character is longer */
	made = outcap - room;
	conv_count(c, out, made);
	return made;
}

void
jenc_conv_bom(jenc_conv *c, size_t chars, size_t bytes)
{
	if (c->line == 1 && c->lbytes >= bytes) {
		c->col -= chars;
		c->lbytes -= bytes;
	}
}

/*
 * How many bytes at p[0..n) make the invalid sequence iconv stopped at:
 * the fewest from which a fresh conversion fails (rather than asking for
 * more), so that a Shift_JIS lead byte is shown with the trail byte that
 * does not fit it, and a UTF-16 unit whole.  At most 4.
 */
static size_t
conv_bad_len(jenc_conv *c, const char *p, size_t n)
{
	size_t k, max = n < 4 ? n : 4;

	for (k = 1; k <= max; k++) {
		char *src = (char *)(uintptr_t)p, buf[32], *dst = buf;
		size_t left = k, room = sizeof(buf);

		(void)iconv((iconv_t)c->cd, NULL, NULL, NULL, NULL);
		if (iconv((iconv_t)c->cd, &src, &left, &dst, &room) ==
		    (size_t)-1 && errno == EINVAL)
			continue;
		return k;
	}
	return max > 0 ? max : 1;
}

void
jenc_conv_msg(jenc_conv *c, const char *p, size_t n, int st, char *msg,
    size_t msgsz)
{
	char hex[4 * 5 + 1];
	size_t k, i, len = 0;

	k = st == JENC_CONV_BAD ? conv_bad_len(c, p, n) : n < 4 ? n : 4;
	for (i = 0; i < k; i++)
		len += (size_t)snprintf(hex + len, sizeof(hex) - len, "%s0x%02x",
		    i ? " " : "", (unsigned char)p[i]);
	if (st == JENC_CONV_BAD)
		(void)snprintf(msg, msgsz, "invalid byte%s %s for encoding %s",
		    k > 1 ? "s" : "", hex, c->name);
	else
		(void)snprintf(msg, msgsz, "incomplete character at end of "
		    "input for encoding %s, found byte%s %s%s", c->name,
		    k > 1 ? "s" : "", hex, n > k ? " ..." : "");
}
