/*
 * logwalk.c - the walk of a log record's text for the log view (logv.c):
 * the leaves of a JSON object (its scalars and arrays, and the members of
 * its non-empty objects under dotted paths) in input order, and the
 * decoding of a string's escapes.  The text is the compact JSON a reader
 * hands to a view, already checked; the walk still stops at any byte it
 * does not expect (JENC_E_SYNTAX), and never reads outside it.
 *
 * The walk first indexes the text, 64 bytes to a word of each of three
 * bit masks (SSE2, or eight bytes at a time in a 64-bit word): its '"'
 * and '\\', its bytes that are not plain (those that make a logfmt value
 * quoted or a name escaped, and the non-ASCII ones, which the view then
 * looks at one by one), and the bytes that may end a number.  A string
 * without escapes then ends at the next bit of the first mask, and it is
 * plain when the second has none between; so the walk touches a few
 * words per member rather than each byte, and the view does not look at
 * a plain name or value again.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "logv.h"
#include "swar.h"

struct lw_walk {
	const char *json, *end;
	size_t len;
	char *path;		/* room for the longest path: the record's
				 * length */
	/* the index: bit i of quote[i / 64] is 1 if json[i] is '"' or
	 * '\\', of odd if it is not plain, of stop if it may end a number
	 * or literal (',', ']', '}', or not plain) */
	uint64_t *quote, *odd, *stop;
	struct jenc_logw_batch *b;
	jenc_logw_fn fn;
	void *ctx;
	int rc;			/* fn's non-zero result: the walk stops */
};

static inline const char *
lw_ws(const char *p, const char *end)
{
	while (p < end && (unsigned char)*p <= ' ' && (*p == ' ' ||
	    *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* The index of the first byte of an 8-byte word (sw_load) whose mask m
 * (the high bit of each byte found, sw_eq) is not 0; 0 where that cannot
 * be told, and the caller looks at each byte from the word's first. */
static inline size_t
lw_first(uint64_t m)
{
#if defined(__GNUC__)
	return (size_t)__builtin_ctzll(m) >> 3;
#else
	(void)m;
	return 0;
#endif
}

/*
 * Just past the string that starts at p ('"'), NULL if it does not end;
 * *esc 1 if its body holds a backslash.  Eight bytes at a time to the
 * first '"' or '\\' of a word, a byte at a time in the last seven.  For
 * strings with escapes and those inside arrays: the index finds the
 * others.
 */
static const char *
lw_str_end(const char *p, const char *end, char *esc)
{
	const char *q = p + 1;

	*esc = 0;
	while (end - q >= 8) {
		uint64_t w, m;

		w = sw_load((const unsigned char *)q);
		m = sw_eq(w, '"') | sw_eq(w, '\\');
		if (m == 0) {
			q += 8;
			continue;
		}
		q += lw_first(m);
		if (*q == '"')
			return q + 1;
		if (*q == '\\') {
			*esc = 1;
			if (end - q < 2)
				return NULL;
			q += 2;
		} else {
			q++;
		}
	}
	while (q < end) {
		if (*q == '"')
			return q + 1;
		if (*q == '\\') {
			*esc = 1;
			q++;
		}
		q++;
	}
	return NULL;
}

/* ---- the index ---------------------------------------------------------- */

/*
 * The three masks of the 64 bytes at p (json[at..at+64)) into word k of
 * the index.  Not plain: below '!', '=', DEL and from 0x80 on.
 */
static void
lw_index64(struct lw_walk *w, const unsigned char *p, size_t k)
{
	uint64_t q = 0, odd = 0, stop = 0;
	int j;

#ifdef __SSE2__
	for (j = 0; j < 4; j++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(p + 16 * j));
		__m128i o = _mm_or_si128(_mm_or_si128(
		    _mm_cmplt_epi8(x, _mm_set1_epi8(0x21)),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('='))),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
		__m128i e = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(',')),
		    _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)),
		    _mm_set1_epi8('}')));

		q |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))) << (16 * j);
		odd |= (uint64_t)(unsigned)_mm_movemask_epi8(o) << (16 * j);
		stop |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_or_si128(o, e)) << (16 * j);
	}
#else
	for (j = 0; j < 8; j++) {
		uint64_t x = sw_load(p + 8 * j), o;

		o = sw_lt(x, 0x21) | sw_eq(x, '=') |
		    ((((x & SW_LOW7) + SW_ONES) | x) & SW_HIGH);
		q |= sw_bits(sw_eq(x, '"') | sw_eq(x, '\\')) << (8 * j);
		odd |= sw_bits(o) << (8 * j);
		stop |= sw_bits(o | sw_eq(x, ',') |
		    sw_eq(x | SW_ONES * 0x20, '}')) << (8 * j);
	}
#endif
	w->quote[k] = q;
	w->odd[k] = odd;
	w->stop[k] = stop;
}

/* The index of json[0..len), 64 bytes at a time, the last ones from a
 * copy padded with spaces. */
static void
lw_index(struct lw_walk *w)
{
	unsigned char last[64];
	size_t at, k;

	for (at = 0, k = 0; w->len - at >= 64; at += 64, k++)
		lw_index64(w, (const unsigned char *)w->json + at, k);
	memset(last, ' ', sizeof(last));
	memcpy(last, w->json + at, w->len - at);
	lw_index64(w, last, k);
}

/* The first i from at on, below lim (at most len), whose bit in m is 1;
 * lim if none. */
static inline size_t
lw_next(const uint64_t *m, size_t at, size_t lim)
{
	size_t k = at >> 6;
	uint64_t x;

	if (at >= lim)
		return lim;
	x = m[k] & (~(uint64_t)0 << (at & 63));
	while (x == 0) {
		if (++k > (lim - 1) >> 6)
			return lim;
		x = m[k];
	}
	at = (k << 6) + (size_t)__builtin_ctzll(x);
	return at < lim ? at : lim;
}

/*
 * Just past the string that starts at p ('"'), NULL if it does not end,
 * from the index; *esc 1 if its body holds a backslash, else *odd 1 if
 * it holds a byte that is not plain.
 */
static inline const char *
lw_string(const struct lw_walk *w, const char *p, char *esc, char *odd)
{
	size_t at = (size_t)(p - w->json) + 1;
	size_t q = lw_next(w->quote, at, w->len);

	if (q == w->len)
		return NULL;
	if (w->json[q] == '\\') {
		*odd = 1;
		return lw_str_end(p, w->end, esc);
	}
	*esc = 0;
	*odd = lw_next(w->odd, at, q) < q;
	return w->json + q + 1;
}

/* Bytes that end a number or literal: ',', '}', ']' and white space. */
static const unsigned char lw_ends[256] = {
	['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, [','] = 1,
	[']'] = 1, ['}'] = 1,
};

/* Just past the number or literal that starts at p: from the index to
 * the first byte that may end it, then a byte at a time. */
static inline const char *
lw_scalar_end(const struct lw_walk *w, const char *p)
{
	const char *end = w->end;

	p = w->json + lw_next(w->stop, (size_t)(p - w->json), w->len);
	while (p < end && !lw_ends[(unsigned char)*p])
		p++;
	return p;
}

/* Just past the array or object that starts at p, NULL if it does not
 * end. */
static const char *
lw_value_end(const char *p, const char *end)
{
	size_t depth = 0;
	char esc;

	for (; p < end; p++) {
		if (*p == '"') {
			p = lw_str_end(p, end, &esc);
			if (p == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if ((*p == '}' || *p == ']') && --depth == 0) {
			return p + 1;
		}
	}
	return NULL;
}

/* 1 and *v if s[0..4) are hex digits. */
static int
lw_hex4(const char *s, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			*v = *v << 4 | (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v = *v << 4 | (unsigned)((c | 0x20) - 'a' + 10);
		else
			return 0;
	}
	return 1;
}

size_t
jenc_logw_unescape(const char *s, size_t n, char *out)
{
	size_t i = 0, w = 0;

	while (i < n) {
		const char *b = memchr(s + i, '\\', n - i);
		size_t k = b == NULL ? n - i : (size_t)(b - (s + i));
		unsigned cp, lo;

		memcpy(out + w, s + i, k);
		w += k;
		i += k;
		if (i + 1 >= n) {
			if (i < n)
				out[w++] = s[i++];
			break;
		}
		switch (s[i + 1]) {
		case 'b': out[w++] = '\b'; i += 2; continue;
		case 'f': out[w++] = '\f'; i += 2; continue;
		case 'n': out[w++] = '\n'; i += 2; continue;
		case 'r': out[w++] = '\r'; i += 2; continue;
		case 't': out[w++] = '\t'; i += 2; continue;
		case '"': case '\\': case '/':
			out[w++] = s[i + 1];
			i += 2;
			continue;
		case 'u':
			break;
		default:
			out[w++] = s[i++];
			continue;
		}
		if (i + 6 > n || !lw_hex4(s + i + 2, &cp)) {
			out[w++] = s[i++];
			continue;
		}
		i += 6;
		if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= n &&
		    s[i] == '\\' && s[i + 1] == 'u' &&
		    lw_hex4(s + i + 2, &lo) && lo >= 0xdc00 &&
		    lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			i += 6;
		} else if (cp >= 0xd800 && cp <= 0xdfff) {
			cp = 0xfffd;
		}
		if (cp < 0x80) {
			out[w++] = (char)cp;
		} else if (cp < 0x800) {
			out[w++] = (char)(0xc0 | cp >> 6);
			out[w++] = (char)(0x80 | (cp & 0x3f));
		} else if (cp < 0x10000) {
			out[w++] = (char)(0xe0 | cp >> 12);
			out[w++] = (char)(0x80 | (cp >> 6 & 0x3f));
			out[w++] = (char)(0x80 | (cp & 0x3f));
		} else {
			out[w++] = (char)(0xf0 | cp >> 18);
			out[w++] = (char)(0x80 | (cp >> 12 & 0x3f));
			out[w++] = (char)(0x80 | (cp >> 6 & 0x3f));
			out[w++] = (char)(0x80 | (cp & 0x3f));
		}
	}
	return w;
}

/* A type of leaf: '"', '0', 't', 'f', 'n', '[', '{'. */
static inline int
lw_type_ok(char t)
{
	switch (t) {
	case '"': case '0': case 't': case 'f': case 'n': case '[': case '{':
		return 1;
	}
	return 0;
}

/*
 * A place in w->b for the next leaf, whose name of n bytes is copied
 * into the batch (0: none): when the batch has no room, fn takes its
 * leaves first.  NULL if fn stopped the walk.
 */
static struct jenc_logw_leaf *
lw_leaf(struct lw_walk *w, size_t n)
{
	struct jenc_logw_batch *b = w->b;

	if (b->n == JENC_LOGW_LEAVES || n > JENC_LOGW_NAMES - b->nnames) {
		b->more = 1;
		w->rc = w->fn(w->ctx, b);
		b->n = 0;
		b->nnames = 0;
		if (w->rc != 0)
			return NULL;
	}
	return &b->leaf[b->n++];
}

/*
 * The name of a leaf that is not a top-level key as it is in the text:
 * the path w->path[0..n), copied into the batch when it fits, else
 * left in the path, and the batch handed to fn at once, before the walk
 * writes the path again.  0, or fn's result.
 */
static int
lw_name(struct lw_walk *w, struct jenc_logw_leaf *l, size_t n)
{
	struct jenc_logw_batch *b = w->b;

	l->nlen = n;
	if (n <= JENC_LOGW_NAMES) {
		l->name = memcpy(b->names + b->nnames, w->path, n);
		b->nnames += n;
		return 0;
	}
	l->name = w->path;
	b->more = 1;
	w->rc = w->fn(w->ctx, b);
	b->n = 0;
	b->nnames = 0;
	return w->rc;
}

/*
 * Walk the members of the object at p ('{'), whose path so far is
 * w->path[0..plen), odd if it holds a byte that is not plain: each leaf
 * into the batch, in order.  Returns just past its '}', or NULL on text
 * it does not expect or when fn stopped the walk.
 */
static const char *
lw_obj(struct lw_walk *w, const char *p, size_t plen, int podd, int depth)
{
	const char *end = w->end, *q, *v, *name;
	struct jenc_logw_leaf *l;
	size_t nl, k;
	char esc, odd, vesc, vodd = 0;
	int named, nested;

	p = lw_ws(p + 1, end);
	if (p < end && *p == '}')
		return p + 1;
	for (;;) {
		if (p >= end || *p != '"' ||
		    (q = lw_string(w, p, &esc, &odd)) == NULL)
			return NULL;
		name = p + 1;
		k = (size_t)(q - p - 2);
		odd = odd || esc || podd;
		/* compact text first: white space only where it is not */
		p = q < end && *q == ':' ? q : lw_ws(q, end);
		if (p >= end || *p != ':')
			return NULL;
		if (++p >= end || (unsigned char)*p <= ' ')
			p = lw_ws(p, end);
		if (p >= end)
			return NULL;
		nested = *p == '{' && depth + 1 < JENC_LOGW_DEPTH &&
		    (q = lw_ws(p + 1, end)) < end && *q != '}';
		/* a top-level key as it is in the text needs no copy */
		named = plen == 0 && !esc && !nested;
		nl = plen;
		if (!named) {
			if (plen > 0)
				w->path[nl++] = '.';
			if (esc) {
				nl += jenc_logw_unescape(name, k, w->path + nl);
			} else {
				memcpy(w->path + nl, name, k);
				nl += k;
			}
		}
		if (nested) {
			if ((p = lw_obj(w, p, nl, odd, depth + 1)) == NULL)
				return NULL;
		} else {
			vesc = 0;
			if (*p == '"')
				v = lw_string(w, p, &vesc, &vodd);
			else if (*p == '{' || *p == '[')
				v = lw_value_end(p, end);
			else
				v = lw_scalar_end(w, p);
			if (v == NULL || v == p || (l = lw_leaf(w, named ||
			    nl > JENC_LOGW_NAMES ? 0 : nl)) == NULL)
				return NULL;
			l->type = *p == '-' || (*p >= '0' && *p <= '9') ?
			    '0' : *p;
			if (!lw_type_ok(l->type))
				return NULL;
			l->esc = 0;
			l->odd = odd ? JENC_LOGW_ODD_NAME : 0;
			if (l->type == '"') {
				l->v = p + 1;
				l->vlen = (size_t)(v - p - 2);
				l->esc = vesc;
				if (vesc || vodd)
					l->odd |= JENC_LOGW_ODD_VALUE;
			} else {
				l->v = p;
				l->vlen = (size_t)(v - p);
			}
			if (named) {
				l->name = name;
				l->nlen = k;
			} else if (lw_name(w, l, nl) != 0) {
				return NULL;
			}
			p = v;
		}
		if (p < end && (unsigned char)*p <= ' ')
			p = lw_ws(p, end);
		if (p >= end)
			return NULL;
		if (*p == '}')
			return p + 1;
		if (*p != ',')
			return NULL;
		if (++p < end && (unsigned char)*p <= ' ')
			p = lw_ws(p, end);
	}
}

int
jenc_logw_walk(const char *json, size_t len, uint64_t *work,
    struct jenc_logw_batch *b, jenc_logw_fn fn, void *ctx)
{
	size_t nw = len / 64 + 1;
	struct lw_walk w = {
		json, json + len, len, (char *)(work + 3 * nw), work,
		work + nw, work + 2 * nw, b, fn, ctx, 0,
	};
	const char *p = lw_ws(json, json + len);

	b->n = 0;
	b->nnames = 0;
	b->more = 0;
	if (p >= w.end || *p != '{')
		return JENC_E_SYNTAX;
	lw_index(&w);
	p = lw_obj(&w, p, 0, 0, 0);
	if (w.rc != 0)
		return w.rc;
	if (p == NULL || lw_ws(p, w.end) != w.end)
		return JENC_E_SYNTAX;
	return 0;
}
