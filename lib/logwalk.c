/*
 * logwalk.c - the walk of a log record's text for the log view (logv.c):
 * the leaves of a JSON object (its scalars and arrays, and the members of
 * its non-empty objects under dotted paths) in input order, and the
 * decoding of a string's escapes.  The text is the compact JSON a reader
 * hands to a view, already checked; the walk still stops at any byte it
 * does not expect (JENC_E_SYNTAX), and never reads outside it.
 *
 * The walk goes once over the text, member by member.  A string is
 * scanned a block at a time (sixteen bytes with SSE2, else eight in a
 * word), each block giving two bit masks: its '"' and '\\', and its
 * bytes that are not plain (those that make a logfmt value quoted or a
 * name escaped, and the non-ASCII ones, which the view then looks at one
 * by one).  A string without escapes ends at the first bit of the first
 * mask, and it is plain when the second has none before it: most names
 * and values are one block, and the view does not look at a plain name
 * or value again.  A string with escapes is left to a scan for its end.
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
	const char *end;
	char *path;		/* room for the longest path: the record's
				 * length */
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

/*
 * Just past the string that starts at p ('"'), NULL if it does not end;
 * *esc 1 if its body holds a backslash.  Eight bytes at a time to the
 * first '"' or '\\' of a word, a byte at a time in the last seven.  For
 * strings with escapes and those inside arrays.
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
		q += __builtin_ctzll(m) >> 3;
		if (*q == '"')
			return q + 1;
		*esc = 1;
		if (end - q < 2)
			return NULL;
		q += 2;
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

/* ---- strings: a block at a time ----------------------------------------- */

/*
 * Bits for the bytes of the block of LW_BLOCK bytes at p (16 with SSE2,
 * else 8 in a word), byte j's as bit j.  lw_stops: the bytes that stop a
 * plain string: '"', '\\', and those that are not plain (below '!', '=',
 * DEL and from 0x80 on).  lw_ctls: '"', '\\', and those that out_text
 * may escape (below ' ', DEL and from 0x80 on).  With SSE2 a range of
 * bytes is one signed compare: adding 0x5f takes '!' to '~' to -128 to
 * -35, adding 0x60 takes ' ' to '~' there to -34.
 */
#ifdef __SSE2__
#define LW_BLOCK 16

static inline __m128i
lw_quotes(__m128i x)
{
	return _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
}

static inline unsigned
lw_stops(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
	    _mm_cmpgt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x5f)),
	    _mm_set1_epi8(-35)),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('='))), lw_quotes(x)));
}

static inline unsigned
lw_ctls(const char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_cmpgt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x60)),
	    _mm_set1_epi8(-34)), lw_quotes(x)));
}
#else
#define LW_BLOCK 8

static inline unsigned
lw_stops(const char *p)
{
	uint64_t x = sw_load((const unsigned char *)p);

	return (unsigned)sw_bits(sw_lt(x, 0x21) | sw_eq(x, 0x7f) |
	    (x & SW_HIGH) | sw_eq(x, '"') | sw_eq(x, '\\') | sw_eq(x, '='));
}

static inline unsigned
lw_ctls(const char *p)
{
	uint64_t x = sw_load((const unsigned char *)p);

	return (unsigned)sw_bits(sw_lt(x, 0x20) | sw_eq(x, 0x7f) |
	    (x & SW_HIGH) | sw_eq(x, '"') | sw_eq(x, '\\'));
}
#endif

/* The bytes of lw_stops (bit 0) and of lw_ctls (bit 1). */
static const unsigned char lw_stop[256] = {
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	1, 0, 3, ['='] = 1, ['\\'] = 3, [0x7f] = 3,
	[0x80] = 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

/*
 * The end of a string or other value, and what the walk found in it
 * (returned in two registers, not through memory): JENC_LOGW_ODD_VALUE,
 * JENC_LOGW_CTL_VALUE, LW_ESC (a backslash), and a value's type
 * (lw_value) in the bits from 8 on.
 */
struct lw_end {
	const char *p;		/* just past it, NULL if it does not end */
	unsigned fl;
};

#define LW_ESC 0x08

/* 1 and *sp at the first byte from *sp on of lw_stops (bit 1) or of
 * lw_ctls (bit 2), 0 if there is none before end (a constant from the
 * blocks, so that once inlined only the last bytes' way tests it). */
static inline int
lw_stop_at(const char **sp, const char *end, unsigned bit)
{
	const char *s = *sp;
	unsigned m;

	for (; end - s >= LW_BLOCK; s += LW_BLOCK) {
		if ((m = bit == 1 ? lw_stops(s) : lw_ctls(s)) != 0) {
			*sp = s + __builtin_ctz(m);
			return 1;
		}
	}
	while (s < end && !(lw_stop[(unsigned char)*s] & bit))
		s++;
	*sp = s;
	return s < end;
}

/*
 * The rest of a string that is not plain from s, its first byte that
 * stops a plain string (lw_string): on to the first '"', '\\' or byte
 * out_text may escape; from a '\\' or such a byte, lw_str_end finds the
 * end.
 */
static struct lw_end
lw_string_odd(const char *s, const char *end)
{
	struct lw_end e = { NULL, JENC_LOGW_ODD_VALUE };
	char esc;

	if (!lw_stop_at(&s, end, 2))
		return e;
	if (*s == '"') {
		e.p = s + 1;
		return e;
	}
	e.p = lw_str_end(*s == '\\' ? s - 1 : s, end, &esc);
	e.fl |= JENC_LOGW_CTL_VALUE | (esc ? LW_ESC : 0);
	return e;
}

/*
 * The end of the string that starts at p ('"'); LW_ESC if its body holds
 * a backslash; JENC_LOGW_ODD_VALUE if it holds a byte that is not plain
 * (or a backslash), with JENC_LOGW_CTL_VALUE if one of them is a byte
 * that out_text may escape (or a backslash).  A plain string (most names
 * and values) ends at the first byte that stops it, a '"'; from any
 * other, lw_string_odd goes on.
 */
static inline struct lw_end
lw_string(const char *p, const char *end)
{
	const char *s = p + 1;
	struct lw_end e = { NULL, 0 };

	if (!lw_stop_at(&s, end, 1))
		return e;
	if (*s != '"')
		return lw_string_odd(s, end);
	e.p = s + 1;
	return e;
}

/* Bytes that end a number or literal: ',', '}', ']' and white space. */
static const unsigned char lw_ends[256] = {
	['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, [','] = 1,
	[']'] = 1, ['}'] = 1,
};

/*
 * Just past the number or literal that starts at p: with SSE2, the first
 * byte of a block that may end it (',', ']', '}', below '!' or from
 * 0x80), then a byte at a time.
 */
static inline const char *
lw_scalar_end(const char *p, const char *end)
{
#ifdef __SSE2__
	if (end - p >= 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(',')),
		    _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)),
		    _mm_set1_epi8('}'))),
		    _mm_cmplt_epi8(x, _mm_set1_epi8(0x21))));

		if (m == 0)
			p += 16;
		else if (lw_ends[(unsigned char)p[__builtin_ctz(m)]])
			return p + __builtin_ctz(m);
		else
			p += __builtin_ctz(m);
	}
#endif
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
		l->name = b->names + b->nnames;
		jenc_logw_copy(b->names + b->nnames, w->path, n);
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
 * The end of the value at p, a member's (p < end), NULL if it does not
 * end or is not a value; its type ('"', '0' number, 't', 'f', 'n', '[',
 * '{') in the bits from 8 on, a string's flags (lw_string) below.
 */
static inline struct lw_end
lw_value(const char *p, const char *end)
{
	struct lw_end e = { NULL, 0 };

	switch (*p) {
	case '"':
		e = lw_string(p, end);
		e.fl |= (unsigned)'"' << 8;
		return e;
	case '{': case '[':
		e.p = lw_value_end(p, end);
		break;
	case 't': case 'f': case 'n':
		e.p = lw_scalar_end(p, end);
		break;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		e.p = lw_scalar_end(p, end);
		e.fl = (unsigned)'0' << 8;
		return e;
	}
	e.fl = (unsigned)(unsigned char)*p << 8;
	return e;
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
	const char *end = w->end, *q, *name;
	struct jenc_logw_leaf *l;
	struct lw_end e;
	size_t nl, k;
	int named, esc, odd;

	p = lw_ws(p + 1, end);
	if (p < end && *p == '}')
		return p + 1;
	for (;;) {
		if (p >= end || *p != '"' ||
		    (q = (e = lw_string(p, end)).p) == NULL)
			return NULL;
		name = p + 1;
		k = (size_t)(q - p - 2);
		esc = (e.fl & LW_ESC) != 0;
		odd = e.fl != 0 || podd;
		/* compact text first: white space only where it is not */
		p = q < end && *q == ':' ? q : lw_ws(q, end);
		if (p >= end || *p != ':')
			return NULL;
		if (++p >= end || (unsigned char)*p <= ' ')
			p = lw_ws(p, end);
		if (p >= end)
			return NULL;
		/* a top-level key as it is in the text needs no copy */
		named = plen == 0 && !esc;
		nl = plen;
		if (!named || *p == '{') {
			if (plen > 0)
				w->path[nl++] = '.';
			if (esc) {
				nl += jenc_utf8_unescape(w->path + nl, name, k,
				    JENC_LONE_FFFD);
			} else {
				jenc_logw_copy(w->path + nl, name, k);
				nl += k;
			}
		}
		if (*p == '{' && depth + 1 < JENC_LOGW_DEPTH &&
		    (q = lw_ws(p + 1, end)) < end && *q != '}') {
			/* a non-empty object: its members are the leaves */
			if ((p = lw_obj(w, p, nl, odd, depth + 1)) == NULL)
				return NULL;
		} else {
			if ((e = lw_value(p, end)).p == NULL ||
			    (l = lw_leaf(w, named || nl > JENC_LOGW_NAMES ?
			    0 : nl)) == NULL)
				return NULL;
			l->type = (char)(e.fl >> 8);
			l->esc = (e.fl & LW_ESC) != 0;
			l->odd = (unsigned char)((odd ? JENC_LOGW_ODD_NAME : 0) |
			    (e.fl & (JENC_LOGW_ODD_VALUE |
			    JENC_LOGW_CTL_VALUE)));
			if (*p == '"') {
				l->v = p + 1;
				l->vlen = (size_t)(e.p - p - 2);
			} else {
				l->v = p;
				l->vlen = (size_t)(e.p - p);
			}
			if (named) {
				l->name = name;
				l->nlen = k;
			} else if (lw_name(w, l, nl) != 0) {
				return NULL;
			}
			p = e.p;
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
	struct lw_walk w = { json + len, (char *)work, b, fn, ctx, 0 };
	const char *p = lw_ws(json, json + len);

	b->n = 0;
	b->nnames = 0;
	b->more = 0;
	if (p >= w.end || *p != '{')
		return JENC_E_SYNTAX;
	p = lw_obj(&w, p, 0, 0, 0);
	if (w.rc != 0)
		return w.rc;
	if (p == NULL || lw_ws(p, w.end) != w.end)
		return JENC_E_SYNTAX;
	return 0;
}
