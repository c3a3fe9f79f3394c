/*
 * rec.c - checks that text is one compact JSON object by the reader's
 * rules (grammar, escapes, UTF-8, control bytes, max_depth) and refuses
 * everything else (whitespace inside included), so that a view can take
 * it without the reader.
 *
 * Its users (csvw.c's passes, logfd.c's log view over a file) send what
 * it refuses to the reader, which names the error or reads what is valid
 * but not compact: so a refusal is never an error, and text the reader
 * would take may be refused (a nesting deeper than JENC_REC_DEPTH), but
 * nothing the reader would refuse is taken.  String bodies go through
 * scan.h's scanner, numbers through num.c's grammar.
 */
#include "internal.h"
#include "rec.h"
#include "scan.h"
#include "swar.h"

/* Inside the check, a refusal is an index no text reaches (internal.h
 * names the exception: each step returns its end or one of these, which
 * one compare tells apart); jenc_rec_check turns them into statuses. */
#define REC_MORE ((size_t)-1)	/* refused within a token's length of
				   p[n] */
#define REC_BAD ((size_t)-2)	/* refused */

/* The bytes a number's text may hold: its end is the first other one. */
static const unsigned char rec_numtab[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['+'] = 1,
	['.'] = 1, ['e'] = 1, ['E'] = 1,
};

/* A refusal at p[at]: at the end of the text (within a token's length of
 * it), more text may make the record whole. */
static size_t
rec_fail(const struct jenc_rec *k, size_t at)
{
	return at + 8 > k->n ? REC_MORE : REC_BAD;
}

/* The index of the first byte from p[i] on that stops a string body's
 * run: a quote, a backslash, a byte below 0x20 or from 0x80, or the
 * sentinel at p[n].  Inline in each string's check (always_inline: a
 * call per string costs as much as a short key's check). */
static inline size_t __attribute__((always_inline))
rec_run(const struct jenc_rec *k, size_t i)
{
	const unsigned char *u = (const unsigned char *)k->p;
	size_t n = k->n;

#ifdef SCAN_VEC
	/* a block at a time while sixteen bytes are left (scan_cand16) */
	while (n - i >= 16) {
		uint64_t m = scan_cand16(u + i, '"', '\\', '"');

		if (m != 0)
			return i + (size_t)(__builtin_ctzll(m) >> SCAN_SH);
		i += 16;
	}
#endif
	return scan_find(u, i, n, NULL, '"', '\\', '"');
}

/*
 * rec_str from p[i], a byte that stopped the run and is not the closing
 * quote: the rest of the body checked, escapes known (with
 * JENC_REC_PAIRS, a surrogate escape only as a pair), no control byte,
 * UTF-8.  Apart from rec_str, so that a plain string's check stays a
 * run and a compare inline.
 */
static size_t __attribute__((noinline))
rec_str_rest(const struct jenc_rec *k, size_t i, unsigned char *esc)
{
	const char *p = k->p;
	const unsigned char *u = (const unsigned char *)p;
	long v;

	for (;; i = rec_run(k, i)) {
		unsigned char c = u[i];

		if (c == '"')
			return i;
		if (c >= 0x80) {
			uint32_t cp;
			size_t len = jenc_utf8_seq(u + i, k->n - i, &cp);

			if (len == 0)
				return rec_fail(k, i);
			i += len;
			continue;
		}
		if (c != '\\')		/* a control byte, or the end */
			return rec_fail(k, i);
		*esc = 1;
		switch (p[i + 1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n':
		case 'r': case 't':
			i += 2;
			continue;
		case 'u':
			break;
		default:
			return rec_fail(k, i);
		}
		if ((v = scan_hex4(p + i + 2)) < 0)
			return rec_fail(k, i);
		i += 6;
		if (!(k->flags & JENC_REC_PAIRS))
			continue;
		if (v >= 0xdc00 && v < 0xe000)
			return REC_BAD;
		if (v >= 0xd800 && v < 0xdc00) {
			if (p[i] != '\\' || p[i + 1] != 'u' ||
			    (v = scan_hex4(p + i + 2)) < 0)
				return rec_fail(k, i);
			if (v < 0xdc00 || v >= 0xe000)
				return REC_BAD;
			i += 6;
		}
	}
}

/* The index of the closing quote of the string whose body starts at
 * p[i], checked (rec_str_rest); *esc 1 if it holds an escape. */
static inline size_t __attribute__((always_inline))
rec_str(const struct jenc_rec *k, size_t i, unsigned char *esc)
{
	*esc = 0;
	i = rec_run(k, i);
	return k->p[i] == '"' ? i : rec_str_rest(k, i, esc);
}

/* The end of the number at p[i], checked by RFC 8259's grammar. */
static size_t
rec_num(const struct jenc_rec *k, size_t i)
{
	const unsigned char *u = (const unsigned char *)k->p;
	size_t j = i + (u[i] == '-');

	/* an integer without a leading zero, the most common, is checked
	 * here; any other text of a number by num.c's grammar */
	if (u[j] >= '1' && u[j] <= '9') {
		while ((unsigned)(u[++j] - '0') < 10)
			;
		if (!rec_numtab[u[j]])
			return j;
	}
	for (j = i; rec_numtab[u[j]]; j++)
		;
	if (!jenc_json_number_ok(k->p + i, j - i))
		return rec_fail(k, j);
	return j;
}

/* The literal w (of n bytes) at p[i]: the index past it, or a refusal
 * (compared a byte at a time: none past the sentinel is read). */
static size_t
rec_lit(const struct jenc_rec *k, size_t i, const char *w, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (k->p[i + j] != w[j])
			return rec_fail(k, i + j);
	return i + n;
}

/* The top-level key p[b..q) (q its closing quote): matched against
 * k->shape while every key before it matched, else noted in k->key[]. */
static inline void
rec_key(struct jenc_rec *k, size_t b, size_t q, unsigned char esc)
{
	size_t len = q + 1 - b;

	if (k->nkeys == 0 && k->so + len <= k->shapelen &&
	    sw_same(k->shape + k->so, k->p + b, len)) {
		k->so += len;
		return;
	}
	if (k->nkeys < k->keycap)
		k->key[k->nkeys] = (struct jenc_rec_key){ b, q, esc };
	k->nkeys++;
}

static size_t
rec_check(struct jenc_rec *k, size_t i)
{
	const char *p = k->p;
	char stk[JENC_REC_DEPTH];
	unsigned depth = 0;
	size_t q;
	unsigned char esc;

	/* One loop over the record's bytes with a stack of the open
	 * containers (a hot loop: the gotos are its states). */
	k->nkeys = k->so = k->nobj = 0;
open:					/* p[i] is '{' or '[' */
	if (depth >= k->maxd || depth >= JENC_REC_DEPTH)
		return REC_BAD;
	if (depth == 1 && p[i] == '{' && p[i + 1] != '}')
		k->nobj++;
	stk[depth++] = p[i++];
	if (stk[depth - 1] == '[') {
		if (p[i] == ']')
			goto close;
		goto value;
	}
	if (p[i] == '}')
		goto close;
key:
	if (p[i] != '"')
		return rec_fail(k, i);
	if ((q = rec_str(k, i + 1, &esc)) >= REC_BAD)
		return q;
	if (p[q + 1] != ':')
		return rec_fail(k, q + 1);
	if (depth == 1 && k->key != NULL)
		rec_key(k, i + 1, q, esc);
	i = q + 2;
value:
	switch (p[i]) {
	case '"':
		if ((q = rec_str(k, i + 1, &esc)) >= REC_BAD)
			return q;
		i = q + 1;
		break;
	case '{':
	case '[':
		goto open;
	case 't':
		i = rec_lit(k, i, "true", 4);
		break;
	case 'f':
		i = rec_lit(k, i, "false", 5);
		break;
	case 'n':
		i = rec_lit(k, i, "null", 4);
		break;
	default:
		i = rec_num(k, i);
	}
	if (i >= REC_BAD)
		return i;
next:					/* after a value */
	if (p[i] == ',') {
		i++;
		if (stk[depth - 1] == '{')
			goto key;
		goto value;
	}
close:
	if (p[i] != (stk[depth - 1] == '{' ? '}' : ']'))
		return rec_fail(k, i);
	i++;
	if (--depth > 0)
		goto next;
	return i;
}

int
jenc_rec_check(struct jenc_rec *k, size_t i, size_t *end)
{
	size_t e = rec_check(k, i);

	if (e >= REC_BAD)
		return e == REC_MORE ? JENC_ST_MORE : JENC_E_SYNTAX;
	*end = e;
	return 0;
}
