/*
 * logwalk.c - the walk of a log record's text for the log view (logv.c):
 * the leaves of a JSON object (its scalars and arrays, and the members of
 * its non-empty objects under dotted paths) in input order, and the
 * decoding of a string's escapes.  The text is the compact JSON a reader
 * hands to a view, already checked; the walk still stops at any byte it
 * does not expect (JENC_E_SYNTAX), and never reads outside it.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "logv.h"
#include "swar.h"

struct lw_walk {
	const char *end;
	char *path;		/* room for the longest path: the record's
				 * length */
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
 * first '"' or '\\' of a word, a byte at a time in the last seven: a
 * log's strings are short, and a call to memchr costs more than most of
 * them.
 */
static inline const char *
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

/* Bytes that end a number or literal: ',', '}', ']' and white space. */
static const unsigned char lw_ends[256] = {
	['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, [','] = 1,
	[']'] = 1, ['}'] = 1,
};

/* Just past the value that starts at p, NULL if it does not end. */
static const char *
lw_value_end(const char *p, const char *end)
{
	size_t depth = 0;

	char esc;

	if (*p == '"')
		return lw_str_end(p, end, &esc);
	if (*p != '{' && *p != '[') {
		while (p < end && !lw_ends[(unsigned char)*p])
			p++;
		return p;
	}
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
 * Walk the members of the object at p ('{'), whose path so far is
 * w->path[0..plen): fn for each leaf, in order.  Returns just past its
 * '}', or NULL on text it does not expect or when fn stopped the walk.
 */
static const char *
lw_obj(struct lw_walk *w, const char *p, size_t plen, int depth)
{
	const char *end = w->end, *q, *v, *name;
	struct jenc_logw_leaf l;
	size_t nl, k;
	char esc;
	int nested;

	p = lw_ws(p + 1, end);
	if (p < end && *p == '}')
		return p + 1;
	for (;;) {
		if (p >= end || *p != '"' ||
		    (q = lw_str_end(p, end, &esc)) == NULL)
			return NULL;
		name = p + 1;
		k = (size_t)(q - p - 2);
		p = lw_ws(q, end);
		if (p >= end || *p != ':')
			return NULL;
		p = lw_ws(p + 1, end);
		if (p >= end)
			return NULL;
		q = lw_ws(p + 1, end);
		nested = *p == '{' && depth + 1 < JENC_LOGW_DEPTH && q < end &&
		    *q != '}';
		/* a top-level key as it is in the text needs no copy */
		l.named = plen == 0 && !esc && !nested;
		nl = plen;
		if (!l.named) {
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
			if ((p = lw_obj(w, p, nl, depth + 1)) == NULL)
				return NULL;
		} else {
			l.esc = 0;
			if (*p == '"')
				v = lw_str_end(p, end, &l.esc);
			else
				v = lw_value_end(p, end);
			if (v == NULL || v == p)
				return NULL;
			l.name = l.named ? name : w->path;
			l.nlen = l.named ? k : nl;
			l.type = *p == '-' || (*p >= '0' && *p <= '9') ?
			    '0' : *p;
			if (l.type == '"') {
				l.v = p + 1;
				l.vlen = (size_t)(v - p - 2);
			} else {
				l.v = p;
				l.vlen = (size_t)(v - p);
			}
			if (!lw_type_ok(l.type))
				return NULL;
			if ((w->rc = w->fn(w->ctx, &l)) != 0)
				return NULL;
			p = v;
		}
		p = lw_ws(p, end);
		if (p >= end)
			return NULL;
		if (*p == '}')
			return p + 1;
		if (*p != ',')
			return NULL;
		p = lw_ws(p + 1, end);
	}
}

int
jenc_logw_walk(const char *json, size_t len, char *path, jenc_logw_fn fn,
    void *ctx)
{
	struct lw_walk w = { json + len, path, fn, ctx, 0 };
	const char *p = lw_ws(json, json + len);

	if (p >= w.end || *p != '{')
		return JENC_E_SYNTAX;
	p = lw_obj(&w, p, 0, 0);
	if (w.rc != 0)
		return w.rc;
	if (p == NULL || lw_ws(p, w.end) != w.end)
		return JENC_E_SYNTAX;
	return 0;
}
