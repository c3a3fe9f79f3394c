/*
 * csvw.c - the CSV/TSV writer: a view (jenc_set_view) that turns each
 * record, a JSON object, into a row.
 *
 * The view gets each record as compact JSON text, valid and without
 * whitespace (the encoder wrote it), and walks it once: each member whose
 * value is not a non-empty object is a leaf, named by the keys of its
 * path joined with the separator, and found among the columns by a hash
 * of that name (cols: an open-addressing table of indexes into names, an
 * arena of the names).  A leaf's cell is noted in slots[column] (where its
 * text is, in the record or in dec, the decoded strings), stamped with the
 * record's number so that nothing is cleared between records; then the
 * row is built in row, cell by cell in the columns' order, and written
 * with one jenc_view_write.  Every buffer grows to the largest record and
 * is kept: no allocation per record in steady state.
 */
#include <stdio.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "rec.h"
#include "swar.h"

struct slot {
	uint64_t stamp;		/* the record that set it */
	size_t off, len;	/* its text: rec (dec 0) or dec (dec 1) */
	unsigned char dec, kind;
};

enum { K_STR, K_OTHER };	/* a string (may need quoting or --csv-safe) */

struct buf {
	char *p;
	size_t len, cap;
};

struct jenc_csvw {
	unsigned flags;
	char delim;
	char sep[16];
	size_t seplen;
	/* the columns: names.p[col[i].off..col[i].off+col[i].len) is the
	 * name of column i */
	struct buf names;
	struct col {
		size_t off, len;
		int plain;	/* no '"' or '\\' in the name */
	} *col;
	size_t ncols, colcap;
	uint32_t *hash;		/* index + 1 of a column, 0: empty */
	size_t hcap;		/* a power of two, at least twice ncols */
	int fixed;		/* the columns are set: a new key is an error */
	int select;		/* ... given: a new key is left out */
	int scan;		/* the first pass: collect keys, write nothing */
	int header_out;		/* the header line is written */
	int lines;		/* a line is written: the next is not the
				   first */
	uint64_t stamp;		/* records seen */
	uint64_t dropped;	/* JENC_CSVW_PAD: keys dropped */
	struct slot *slots;
	size_t slotcap;
	struct buf path;	/* the column name of a nested leaf */
	const char *name;	/* the leaf's column name: in path, or the key
				   itself in the record (at top level) */
	size_t nlen;
	struct buf dec;		/* decoded strings of the record */
	struct buf row;		/* the row being built */
	size_t *stk;		/* path lengths of the open objects */
	size_t stkcap;
	/* the column of each leaf of the last record, in order: records
	 * mostly have the same keys in the same order, so the name is
	 * compared with that column's before it is hashed */
	size_t *pred;
	size_t npred, predcap, nleaf;
	int hit;		/* the leaf's name is pred[nleaf]'s, seen */
	unsigned char qtab[256];	/* bytes that make a CSV cell quoted */
	char msg[sizeof(((jenc_err *)0)->msg)];
	/* csvw_ks_run: the top-level keys of the last record walked, each
	 * with its closing quote (shape_ok 0: none, or it had an escaped
	 * key or a nested object) */
	struct buf shape;
	int shape_ok;
};

/* ---- buffers ------------------------------------------------------------- */

/* (a buffer is allocated at its first use even for 0 bytes, so that
 * b->p + b->len is never an offset from NULL) */
static inline int
csvw_buf_room(struct buf *b, size_t n)
{
	return b->p != NULL && b->cap - b->len >= n ? 0 :
	    jenc_grow((void **)&b->p, &b->cap, b->len + n + (b->p == NULL),
	    256, 1);
}

static int
csvw_buf_put(struct buf *b, const char *s, size_t n)
{
	if (csvw_buf_room(b, n) != 0)
		return JENC_E_NOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/* ---- the columns ----------------------------------------------------------- */

static uint64_t
csvw_name_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* The column named s[0..n), or (size_t)-1. */
static size_t
csvw_col_find(const jenc_csvw *w, const char *s, size_t n)
{
	size_t i, m = w->hcap - 1;

	if (w->hcap == 0)
		return (size_t)-1;
	for (i = (size_t)csvw_name_hash(s, n) & m; w->hash[i] != 0;
	    i = (i + 1) & m) {
		size_t c = w->hash[i] - 1;

		if (w->col[c].len == n &&
		    memcmp(w->names.p + w->col[c].off, s, n) == 0)
			return c;
	}
	return (size_t)-1;
}

/* The first place of column c's probe in the table that holds v (0:
 * the empty one where c goes, c + 1: c's own). */
static uint32_t *
csvw_hash_at(jenc_csvw *w, size_t c, uint32_t v)
{
	size_t i, m = w->hcap - 1;

	for (i = (size_t)csvw_name_hash(w->names.p + w->col[c].off,
	    w->col[c].len) & m; w->hash[i] != v; i = (i + 1) & m)
		;
	return &w->hash[i];
}

/*
 * Forget the columns from n on, added by a record that was then rejected
 * (see csvw_value).  They are the last ones put in the table, taken out
 * last first: no other column's probe went past their places, so the
 * table is as it was before them.
 */
static void
csvw_cols_cut(jenc_csvw *w, size_t n)
{
	while (w->ncols > n) {
		size_t c = --w->ncols;

		*csvw_hash_at(w, c, (uint32_t)(c + 1)) = 0;
		w->names.len = w->col[c].off;
	}
}

/* A new column named s[0..n); returns its index, or (size_t)-1 if out
 * of memory. */
static size_t
csvw_col_add(jenc_csvw *w, const char *s, size_t n)
{
	size_t c = w->ncols, i;

	if (c + 1 > UINT32_MAX - 1 || jenc_grow((void **)&w->col,
	    &w->colcap, c + 1, 16, sizeof(*w->col)) != 0)
		return (size_t)-1;
	if ((c + 1) * 2 > w->hcap) {
		size_t cap = w->hcap ? w->hcap * 2 : 32;
		uint32_t *h = jenc_mem_alloc(cap * sizeof(uint32_t));

		if (h == NULL)
			return (size_t)-1;
		memset(h, 0, cap * sizeof(uint32_t));
		jenc_mem_free(w->hash, w->hcap * sizeof(uint32_t));
		w->hash = h;
		w->hcap = cap;
		for (i = 0; i < c; i++)
			*csvw_hash_at(w, i, 0) = (uint32_t)(i + 1);
	}
	w->col[c].off = w->names.len;
	w->col[c].len = n;
	w->col[c].plain = memchr(s, '"', n) == NULL && memchr(s, '\\', n) == NULL;
	if (csvw_buf_put(&w->names, s, n) != 0)
		return (size_t)-1;
	w->ncols = c + 1;
	*csvw_hash_at(w, c, 0) = (uint32_t)(c + 1);
	return c;
}

/* ---- cells ---------------------------------------------------------------- */

/*
 * Decode the body of a JSON string, s[0..n) (valid JSON, escapes in it),
 * onto the end of b.  Returns 0, JENC_E_NOMEM, or JENC_E_UTF8 for a lone
 * surrogate (\ud800 with no low one after it), which is not text.
 */
static int
csvw_decode(struct buf *b, const char *s, size_t n)
{
	size_t len;

	if (csvw_buf_room(b, n) != 0)	/* the text never grows */
		return JENC_E_NOMEM;
	if ((len = jenc_utf8_unescape(b->p + b->len, s, n,
	    JENC_LONE_FAIL)) == (size_t)-1)
		return JENC_E_UTF8;
	b->len += len;
	return 0;
}

/* The index of the first of the bytes a, b, c, d in t[0..n), or n; tab
 * marks the same bytes (for the last 15, one lookup a byte). */
static inline size_t
csvw_find4(const char *t, size_t n, char a, char b, char c, char d,
    const unsigned char *tab)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
	const __m128i vc = _mm_set1_epi8(c), vd = _mm_set1_epi8(d);

	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(t + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
		    _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd))));

		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
#else
	(void)a;
	(void)b;
	(void)c;
	(void)d;
#endif
	for (; i < n; i++)
		if (tab[(unsigned char)t[i]])
			return i;
	return n;
}

/* Bytes that end a JSON string body's run (csvw_str_end's csvw_find4). */
static unsigned char str_tab[256] = { ['"'] = 1, ['\\'] = 1 };

/*
 * The index of the first byte of t[0..n) that makes a CSV cell quoted,
 * or n.  avail bytes can be read from t (avail >= n): a cell of at most
 * 16 bytes with 16 to read (most cells, within their record) takes one
 * load, the bytes past it masked off.
 */
static inline size_t
csvw_quote_at(const jenc_csvw *w, const char *t, size_t n, size_t avail)
{
#ifdef __SSE2__
	if (n <= 16 && avail >= 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)t);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8(w->delim))),
		    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('\r')))));

		m &= (unsigned)((1ul << n) - 1);
		return m != 0 ? (size_t)__builtin_ctz(m) : n;
	}
#else
	(void)avail;
#endif
	return csvw_find4(t, n, '"', w->delim, '\n', '\r', w->qtab);
}

/* A cell's text t[0..n) onto the row: quoted (CSV) or escaped (TSV) as
 * needed; str: it was a JSON string (--csv-safe looks at those); avail
 * bytes can be read from t (see csvw_quote_at). */
static int
csvw_cell(jenc_csvw *w, const char *t, size_t n, int str, size_t avail)
{
	struct buf *b = &w->row;
	size_t i, quotes = 0;
	char *o;
	int quote, safe = str && (w->flags & JENC_CSVW_SAFE) && n > 0 &&
	    (t[0] == '=' || t[0] == '+' || t[0] == '-' || t[0] == '@' ||
	    t[0] == '\t' || t[0] == '\r');

	if (w->flags & JENC_CSVW_TSV) {
		if (csvw_buf_room(b, 2 * n + 1) != 0)
			return JENC_E_NOMEM;
		o = b->p + b->len;
		if (safe)
			*o++ = '\'';
		for (i = 0; i < n; i++) {
			switch (t[i]) {
			case '\t': *o++ = '\\'; *o++ = 't'; break;
			case '\n': *o++ = '\\'; *o++ = 'n'; break;
			case '\r': *o++ = '\\'; *o++ = 'r'; break;
			case '\\': *o++ = '\\'; *o++ = '\\'; break;
			default: *o++ = t[i];
			}
		}
		b->len = (size_t)(o - b->p);
		return 0;
	}
	i = csvw_quote_at(w, t, n, avail);
	quote = i < n || (n > 0 && (t[0] == ' ' || t[n - 1] == ' '));
	/* (the ' that --csv-safe puts first is in the cell too) */
	if (safe && w->delim == '\'')
		quote = 1;
	for (; i < n; i++)
		quotes += t[i] == '"';
	/* (16 more: a short cell is copied with one 16-byte store) */
	if (csvw_buf_room(b, n + quotes + 3 + 16) != 0)
		return JENC_E_NOMEM;
	o = b->p + b->len;
	if (quote)
		*o++ = '"';
	if (safe)
		*o++ = '\'';
	if (quotes == 0) {
#ifdef __SSE2__
		if (n <= 16 && avail >= 16)
			_mm_storeu_si128((__m128i *)(void *)o,
			    _mm_loadu_si128((const __m128i *)(const void *)t));
		else
#endif
			memcpy(o, t, n);
		o += n;
	} else {
		for (i = 0; i < n; i++) {
			if (t[i] == '"')
				*o++ = '"';
			*o++ = t[i];
		}
	}
	if (quote)
		*o++ = '"';
	b->len = (size_t)(o - b->p);
	return 0;
}

/*
 * The first line, row.p[start..row.len), as jenc -f csv (csv_detect.c)
 * reads it without -d: a line that is exactly sep=X (in any case) would
 * set the delimiter and be dropped, as Excel does, a U+FEFF that starts
 * it would be skipped as a byte order mark, and a lone cell with no
 * comma but a ';', tab or '|' would be split at them.  Its first cell
 * is quoted then: a quote at a line's start opens a field, inside which
 * nothing counts.  0 or JENC_E_NOMEM.
 */
static int __attribute__((cold, noinline))
csvw_first_line(jenc_csvw *w, size_t start)
{
	size_t n = w->row.len - start, k;
	char *p;
	int sep, split;

	w->lines = 1;
	/* (no cell: row.p may be NULL) */
	if ((w->flags & JENC_CSVW_TSV) || n == 0)
		return 0;
	p = w->row.p + start;
	if (p[0] == '"')
		return 0;
	sep = (n == 5 && (p[0] | 0x20) == 's' && (p[1] | 0x20) == 'e' &&
	    (p[2] | 0x20) == 'p' && p[3] == '=') ||
	    (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0);
	split = w->delim == ',' && w->ncols == 1 && (memchr(p, ';', n) ||
	    memchr(p, '\t', n) || memchr(p, '|', n));
	if (!sep && !split)
		return 0;
	if (csvw_buf_room(&w->row, 2) != 0)
		return JENC_E_NOMEM;
	p = w->row.p + start;
	/* (unquoted, the first cell ends at the first delimiter) */
	for (k = 0; k < n && p[k] != w->delim; k++)
		;
	memmove(p + k + 2, p + k, n - k);
	memmove(p + 1, p, k);
	p[0] = '"';
	p[k + 1] = '"';
	w->row.len += 2;
	return 0;
}

/* The end of a line that started at row.len == start.  An empty line
 * would be read as no line at all: a lone empty cell is quoted, as
 * Python's csv.writer does (TSV cannot say it); and the first line may
 * need a quote of its own (csvw_first_line). */
static int
csvw_line_end_from(jenc_csvw *w, size_t start)
{
	if (w->row.len == start && w->ncols == 1 &&
	    !(w->flags & JENC_CSVW_TSV) &&
	    csvw_buf_put(&w->row, "\"\"", 2) != 0)
		return JENC_E_NOMEM;
	if (__builtin_expect(!w->lines, 0) && csvw_first_line(w, start) != 0)
		return JENC_E_NOMEM;
	return (w->flags & JENC_CSVW_CRLF) ? csvw_buf_put(&w->row, "\r\n", 2) :
	    csvw_buf_put(&w->row, "\n", 1);
}

/* The header line onto the row, if it is not written yet (and not
 * JENC_CSVW_NO_HEADER). */
static int
csvw_header_line(jenc_csvw *w)
{
	size_t i, start = w->row.len;

	if (w->header_out)
		return 0;
	w->header_out = 1;
	if (w->flags & JENC_CSVW_NO_HEADER)
		return 0;
	for (i = 0; i < w->ncols; i++) {
		if (i > 0 && csvw_buf_put(&w->row, &w->delim, 1) != 0)
			return JENC_E_NOMEM;
		if (csvw_cell(w, w->names.p + w->col[i].off, w->col[i].len, 1,
		    w->names.len - w->col[i].off) != 0)
			return JENC_E_NOMEM;
	}
	return csvw_line_end_from(w, start);
}

/* ---- the record ------------------------------------------------------------ */

/* Bytes that end a number or a literal in compact JSON. */
static const unsigned char end_tab[256] = { [','] = 1, ['}'] = 1, [']'] = 1 };

/* The end of the string whose body starts at p[i]; *esc 1 if it holds
 * an escape. */
static size_t
csvw_str_end(const char *p, size_t i, size_t n, int *esc)
{
	*esc = 0;
	for (;;) {
		i += csvw_find4(p + i, n - i, '"', '\\', '"', '\\', str_tab);
		if (p[i] == '"')
			return i;
		*esc = 1;
		i += 2;
	}
}

/* The end of the JSON value at p[i], not a string (compact, valid): the
 * index past it. */
static size_t
csvw_value_end(const char *p, size_t i, size_t n)
{
	int depth = 0;

	if (p[i] != '{' && p[i] != '[')
		return i + csvw_find4(p + i, n - i, ',', '}', ']', ',',
		    end_tab);
	for (; i < n; i++) {
		if (p[i] == '"') {
			for (i++; p[i] != '"'; i++)
				if (p[i] == '\\')
					i++;
		} else if (p[i] == '{' || p[i] == '[') {
			depth++;
		} else if ((p[i] == '}' || p[i] == ']') && --depth == 0) {
			return i + 1;
		}
	}
	return n;
}

static int
csvw_reject(jenc_csvw *w, jenc_enc *e, const char *fmt, const char *name,
    size_t n)
{
	char shown[JENC_ERR_NAME];

	if (e == NULL)		/* csvw_ks_run: no view, no message */
		return JENC_E_SYNTAX;
	jenc_err_name(shown, name, n);
	snprintf(w->msg, sizeof(w->msg), fmt, shown, w->sep);
	return jenc_view_reject(e, w->msg);
}

/* The leaf named w->name, its text at rec[off..off+len) or decoded. */
static int
csvw_leaf(jenc_csvw *w, jenc_enc *e, size_t off, size_t len, int dec, int kind)
{
	size_t c = (size_t)-1, k = w->nleaf++;
	struct slot *s;

	if (w->hit) {
		c = w->pred[k];
		w->hit = 0;
	} else if (k < w->npred) {
		c = w->pred[k];
		if (c >= w->ncols || w->col[c].len != w->nlen ||
		    memcmp(w->names.p + w->col[c].off, w->name, w->nlen) != 0)
			c = (size_t)-1;
	}
	if (c == (size_t)-1)
		c = csvw_col_find(w, w->name, w->nlen);
	if (k == w->predcap && jenc_grow((void **)&w->pred, &w->predcap,
	    k + 1, 16, sizeof(size_t)) != 0)
		return JENC_E_NOMEM;
	if (k >= w->npred)
		w->npred = k + 1;
	w->pred[k] = c;		/* (size_t)-1: none */
	if (c == (size_t)-1) {
		if (w->fixed && !w->scan) {
			if (w->select)	/* --header: the columns chosen */
				return 0;
			if (w->flags & JENC_CSVW_PAD) {
				w->dropped++;
				return 0;
			}
			return csvw_reject(w, e, "key '%s' is not a column: "
			    "the columns are the first record's (give "
			    "--header, a file, or --ragged=pad)", w->name,
			    w->nlen);
		}
		if ((c = csvw_col_add(w, w->name, w->nlen)) == (size_t)-1)
			return JENC_E_NOMEM;
		w->pred[k] = c;
	}
	if (c >= w->slotcap) {
		size_t old = w->slotcap;

		if (jenc_grow((void **)&w->slots, &w->slotcap, c + 1, 16,
		    sizeof(struct slot)) != 0)
			return JENC_E_NOMEM;
		memset(w->slots + old, 0,
		    (w->slotcap - old) * sizeof(struct slot));
	}
	s = &w->slots[c];
	if (s->stamp == w->stamp)
		return csvw_reject(w, e, "two values for column '%s' in one "
		    "record (a duplicate key, or a key holding the separator "
		    "'%s')",
		    w->name, w->nlen);
	s->stamp = w->stamp;
	if (w->scan)
		return 0;
	s->off = off;
	s->len = len;
	s->dec = (unsigned char)dec;
	s->kind = (unsigned char)kind;
	return 0;
}

/* Walk the record p[0..n), an object, noting each leaf. */
static int
csvw_walk(jenc_csvw *w, jenc_enc *e, const char *p, size_t n)
{
	size_t i = 1, depth = 0;
	int rc, esc;

	w->path.len = 0;
	w->dec.len = 0;
	w->nleaf = 0;
	w->hit = 0;		/* (a record rejected after a hit) */
	for (;;) {
		size_t kend, base;

		if (p[i] == '}') {	/* the end of an object */
			i++;
			if (depth == 0)
				return 0;
			w->path.len = w->stk[--depth];
			if (i < n && p[i] == ',')
				i++;
			continue;
		}
		/* a top-level key where the last record had the same one:
		 * if the column's name holds no '"' or '\\', the record's
		 * text is the name, and the '"' after it ends the key */
		if (depth == 0 && w->nleaf < w->npred) {
			size_t c = w->pred[w->nleaf], l;

			if (c < w->ncols && w->col[c].plain &&
			    (l = w->col[c].len) + 3 < n - i &&
			    p[i + 1 + l] == '"' &&
			    sw_same(p + i + 1,
			    w->names.p + w->col[c].off, l) &&
			    !(p[i + l + 3] == '{' && p[i + l + 4] != '}')) {
				w->name = p + i + 1;
				w->nlen = l;
				w->hit = 1;
				base = 0;
				i += l + 3;
				goto value;
			}
		}
		/* a member: its key onto the path; a top-level leaf's name
		 * is its key, in the record (no escape to decode) */
		base = w->path.len;
		kend = csvw_str_end(p, i + 1, n, &esc);
		if (depth == 0 && !esc && !(p[kend + 2] == '{' &&
		    p[kend + 3] != '}')) {
			w->name = p + i + 1;
			w->nlen = kend - i - 1;
			i = kend + 2;
			goto value;
		}
		if (depth > 0 && csvw_buf_put(&w->path, w->sep, w->seplen) != 0)
			return JENC_E_NOMEM;
		rc = esc ? csvw_decode(&w->path, p + i + 1, kend - i - 1) :
		    csvw_buf_put(&w->path, p + i + 1, kend - i - 1);
		if (rc == JENC_E_UTF8)
			return csvw_reject(w, e, "key '%s' holds a lone "
			    "surrogate, which is not text", p + i + 1,
			    kend - i - 1);
		if (rc != 0 || csvw_buf_room(&w->path, 1) != 0)
			return JENC_E_NOMEM;
		w->name = w->path.p;
		w->nlen = w->path.len;
		i = kend + 2;		/* past '"' and ':' */
		if (p[i] == '{' && p[i + 1] != '}') {
			if (depth == w->stkcap && jenc_grow((void **)&w->stk,
			    &w->stkcap, depth + 1, 16, sizeof(size_t)) != 0)
				return JENC_E_NOMEM;
			w->stk[depth++] = base;
			i++;
			continue;
		}
value:
		if (p[i] == '"') {
			size_t end = csvw_str_end(p, i + 1, n, &esc);

			if (!esc) {
				rc = csvw_leaf(w, e, i + 1, end - i - 1, 0,
				    K_STR);
			} else {
				size_t at = w->dec.len;

				rc = csvw_decode(&w->dec, p + i + 1,
				    end - i - 1);
				if (rc == JENC_E_UTF8)
					return csvw_reject(w, e, "the value "
					    "of '%s' holds a lone surrogate, "
					    "which is not text", w->name,
					    w->nlen);
				if (rc == 0)
					rc = csvw_leaf(w, e, at,
					    w->dec.len - at, 1, K_STR);
			}
			i = end + 1;
		} else {
			size_t end = csvw_value_end(p, i, n);

			/* null: an empty cell */
			rc = csvw_leaf(w, e, i, p[i] == 'n' ? 0 : end - i, 0,
			    K_OTHER);
			i = end;
		}
		if (rc != 0)
			return rc;
		w->path.len = base;
		if (p[i] == ',')
			i++;
	}
}

/* The view's value call: a record to a row. */
static int
csvw_value(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	jenc_csvw *w = ctx;
	size_t i, start, ncols;
	int rc;

	if (len < 2 || json[0] != '{')
		return jenc_view_reject(e, "expected an object as a record");
	w->stamp++;
	ncols = w->ncols;
	if ((rc = csvw_walk(w, e, json, len)) != 0) {
		/* JENC_CSVW_READ_ON: a rejected record names no column, so
		 * that the first pass and a pipe's first record agree with
		 * the rows written; else the reading stops at it and keeps
		 * them, the second pass to tell why it is bad */
		if (w->flags & JENC_CSVW_READ_ON)
			csvw_cols_cut(w, ncols);
		return rc;
	}
	if (w->scan)
		return 0;
	w->fixed = 1;
	w->row.len = 0;
	if (csvw_header_line(w) != 0)
		return JENC_E_NOMEM;
	start = w->row.len;
	for (i = 0; i < w->ncols; i++) {
		const struct slot *s = i < w->slotcap ? &w->slots[i] : NULL;

		if (i > 0) {
			if (csvw_buf_room(&w->row, 1) != 0)
				return JENC_E_NOMEM;
			w->row.p[w->row.len++] = w->delim;
		}
		if (s == NULL || s->stamp != w->stamp || s->len == 0)
			continue;
		if (csvw_cell(w, (s->dec ? w->dec.p : json) + s->off, s->len,
		    s->kind == K_STR, (s->dec ? w->dec.len : len) - s->off) != 0)
			return JENC_E_NOMEM;
	}
	if (csvw_line_end_from(w, start) != 0)
		return JENC_E_NOMEM;
	return jenc_view_write(e, w->row.p, w->row.len);
}

/* The view's text call: bad text that the reader passes through
 * (JENC_READ_PASS), as it is, in place of its record.  A lone newline
 * is the one the reader adds after text that has none (the input's
 * last line): the writer's line end. */
static int
csvw_text(void *ctx, jenc_enc *e, const char *p, size_t len)
{
	jenc_csvw *w = ctx;

	if (w->scan)
		return 0;
	w->lines |= len > 0;
	if (len == 1 && p[0] == '\n' && (w->flags & JENC_CSVW_CRLF))
		return jenc_view_write(e, "\r\n", 2);
	return jenc_view_write(e, p, len);
}

/* The view's names call: the names of records that did not come (a CSV
 * input of its header alone) become columns, in their order, while none
 * are set (no --header, no row yet, no first pass that found any):
 * those of a first pass, or of a pipe in place of its first record's.
 * It writes nothing: the end writes the header line. */
static int
csvw_names(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	jenc_csvw *w = ctx;
	size_t ncols = w->ncols;
	int scan = w->scan, rc;

	if (w->fixed || len < 2 || json[0] != '{')
		return 0;
	w->stamp++;
	w->scan = 1;
	rc = csvw_walk(w, e, json, len);
	w->scan = scan;
	if (rc != 0)
		csvw_cols_cut(w, ncols);
	return rc;
}

/* The end: a header line if no record came and the columns are known. */
static int
csvw_end(void *ctx, jenc_enc *e)
{
	jenc_csvw *w = ctx;

	if (w->scan || w->ncols == 0)
		return 0;
	w->row.len = 0;
	if (csvw_header_line(w) != 0)
		return JENC_E_NOMEM;
	return w->row.len > 0 ? jenc_view_write(e, w->row.p, w->row.len) : 0;
}

/* ---- a first pass without the reader (jenc_csvw_keys_fd) ------------------ */

/*
 * Most files of records hold them written compactly, one object after
 * another with only whitespace between them (NDJSON): their columns are
 * found here, without the reader, the encoder and the copy of each
 * record into the view.  jenc_rec_check (rec.c) checks a record by the
 * rules the reader applies (JSON's grammar, escapes, UTF-8, max_depth)
 * and refuses everything else, whitespace inside a record included, and
 * a lone surrogate escape, which the view rejects (JENC_REC_PAIRS).  A
 * record whose top-level keys are those of the last record walked (the
 * same bytes in the same order, none escaped, no value a nested object:
 * matched during the check, against w->shape) adds no column and cannot
 * be rejected, as that one was not: it is not walked; any other record
 * goes through csvw_walk(), as the view's first pass would take it.  The
 * first refusal, or a record the walk rejects, ends the pass:
 * the columns it added are taken back (csvw_cols_cut), and the caller makes
 * its first pass with the reader, which tells bad input as before.  So
 * the columns are the reader's on every input read to its end here.
 */

#define KS_READ (256 * 1024)	/* the first buffer */
#define KS_SLACK 1		/* the byte after the buffer: the sentinel */
#define KS_KEYS 256		/* top-level keys matched against shape */

/*
 * The top-level keys of the record k just checked (k->key has room for
 * KS_KEYS): still those of w->shape (matched during the check), else
 * copied into it from the first that did not match on; w->shape_ok 0 if
 * they cannot be (an escaped key, a value that is an object with
 * members, too many keys).  1 if the record must be walked (its keys are
 * not those of the last record), 0 if not, or JENC_E_NOMEM.
 */
static int
csvw_ks_shape(jenc_csvw *w, const struct jenc_rec *k)
{
	size_t i;
	int same = w->shape_ok;

	if (k->nkeys == 0 && k->nobj == 0 && k->so == k->shapelen) {
		w->shape.len = k->so;	/* (0 if !shape_ok) */
		w->shape_ok = 1;
		return !same;
	}
	w->shape_ok = 0;
	if (k->nobj != 0 || k->nkeys > KS_KEYS)
		return 1;
	w->shape.len = k->so;
	for (i = 0; i < k->nkeys; i++) {
		const struct jenc_rec_key *x = &k->key[i];

		if (x->esc)
			return 1;
		if (csvw_buf_put(&w->shape, k->p + x->b, x->q + 1 - x->b) != 0)
			return JENC_E_NOMEM;
	}
	w->shape_ok = 1;
	return 1;
}

/*
 * The record p[0..n), checked: walked if it must be (in the first pass's
 * mode, w->scan 1), and with e (the rows' pass) written to e.  0,
 * JENC_E_NOMEM, JENC_E_SYNTAX (rejected; with e, or a key that is not
 * a column: the input is not what the first pass read), or e's error.
 */
static int
csvw_ks_take(jenc_csvw *w, int must_walk, const char *p, size_t n, jenc_enc *e)
{
	size_t n0 = w->ncols;
	int rc = 0;

	if (must_walk) {
		w->stamp++;
		rc = csvw_walk(w, NULL, p, n);
		if (rc == 0 && e != NULL && w->ncols != n0)
			rc = JENC_E_SYNTAX;
	}
	if (rc == 0 && e != NULL) {
		w->scan = 0;
		rc = jenc_raw(e, p, n);
		w->scan = 1;
	}
	return rc;
}

/* More of fd after p[0..*len), which may grow (*cap); *eof 1 if there
 * is none.  0, JENC_E_NOMEM or JENC_E_IO. */
static int
csvw_ks_fill(int fd, char **p, size_t *len, size_t *cap, int *eof)
{
	ssize_t r;
	int sys;

	if (*len == *cap) {
		size_t c = jenc_grow_cap(*cap, *cap + 1, KS_READ, 1);
		char *q;

		if (c == 0 || c > (size_t)-1 - KS_SLACK ||
		    (q = jenc_mem_realloc(*p, *cap + KS_SLACK,
		    c + KS_SLACK)) == NULL)
			return JENC_E_NOMEM;
		*p = q;
		*cap = c;
	}
	if ((r = jenc_io_read(fd, *p + *len, *cap - *len, -1, 0, &sys)) < 0)
		return JENC_E_IO;
	*len += (size_t)r;
	(*p)[*len] = '\0';
	*eof = r == 0;
	return 0;
}

/*
 * Both passes: each record of fd taken by csvw_ks_take, and with e written to
 * it (e flushed before each read, as the reader does).  1 if all of fd
 * was read so; 0 at the first refusal, the columns added taken back;
 * JENC_E_NOMEM, or e's error.
 */
static int
csvw_ks_run(jenc_csvw *w, int fd, const jenc_read_opts *ro, jenc_enc *e)
{
	size_t cap = KS_READ, len = 0, pos = 0, n0 = w->ncols, end;
	int eof = 0, rc = 1, scan = w->scan, st;
	/* the check (rec.c); rec.p[rec.n] is NUL, its sentinel (no NUL is
	 * valid) */
	struct jenc_rec rec = { 0 };
	struct jenc_rec_key key[KS_KEYS];
	char *p;

	if (ro != NULL && ((ro->flags & (JENC_READ_SINGLE | JENC_READ_SEQ |
	    JENC_READ_JSONC)) || ro->encoding != NULL))
		return 0;
	rec.maxd = ro != NULL && ro->max_depth ? ro->max_depth : 10000;
	rec.flags = JENC_REC_PAIRS;
	rec.key = key;
	rec.keycap = KS_KEYS;
	if ((p = jenc_mem_alloc(cap + KS_SLACK)) == NULL)
		return JENC_E_NOMEM;
	p[0] = '\0';
	w->scan = 1;
	w->shape_ok = 0;
	for (;;) {
		while (pos < len && (p[pos] == ' ' || p[pos] == '\n' ||
		    p[pos] == '\r' || p[pos] == '\t'))
			pos++;
		if (pos < len) {
			rec.p = p;
			rec.n = len;
			rec.shape = w->shape.p;
			rec.shapelen = w->shape_ok ? w->shape.len : 0;
			st = p[pos] != '{' ? JENC_E_SYNTAX :
			    jenc_rec_check(&rec, pos, &end);
			if (st == 0 && (st = csvw_ks_shape(w, &rec)) >= 0)
				st = csvw_ks_take(w, st, p + pos, end - pos, e);
			if (st == 0) {
				pos = end;
				continue;
			}
			/* an error, a refusal, or a record cut by fd's end */
			if (st != JENC_ST_MORE || eof) {
				rc = st == JENC_E_SYNTAX || st == JENC_ST_MORE ?
				    0 : st;
				break;
			}
		} else if (eof) {
			break;
		}
		/* more input, what is left of the last moved to the start */
		memmove(p, p + pos, len - pos);
		len -= pos;
		pos = 0;
		if (e != NULL && jenc_flush(e) != 0) {
			rc = jenc_error(e);
			break;
		}
		if ((st = csvw_ks_fill(fd, &p, &len, &cap, &eof)) != 0) {
			rc = st == JENC_E_NOMEM ? st : 0;
			break;
		}
	}
	jenc_mem_free(p, cap + KS_SLACK);
	w->scan = scan;
	if (rc != 1)
		csvw_cols_cut(w, n0);
	/* out of memory in e, its record cannot be finished: as the readers
	 * do, drop it, so that e holds complete rows only */
	if (e != NULL && jenc_error(e) == JENC_E_NOMEM) {
		(void)jenc_discard(e);
		rc = JENC_E_NOMEM;
	}
	return rc;
}

int
jenc_csvw_keys_fd(jenc_csvw *w, int fd, const jenc_read_opts *ro)
{
	return csvw_ks_run(w, fd, ro, NULL);
}

int
jenc_csvw_rows_fd(jenc_csvw *w, int fd, jenc_enc *e,
    const jenc_read_opts *ro)
{
	/* a record's text is what e would write of it only if e writes
	 * values as they are (no \u escapes made, no keys sorted) */
	if (e == NULL || !jenc_verbatim(e))
		return JENC_E_STATE;
	return csvw_ks_run(w, fd, ro, e);
}

/* ---- the public calls ----------------------------------------------------- */

int
jenc_csvw_new(jenc_csvw **wp, const jenc_csvw_opts *o)
{
	unsigned flags = o != NULL ? o->flags : 0;
	char d = o != NULL && o->delim ? o->delim :
	    (flags & JENC_CSVW_TSV) ? '\t' : ',';
	const char *sep = o != NULL && o->sep != NULL ? o->sep : ".";
	jenc_csvw *w;
	size_t i;

	*wp = NULL;
	if (d == '\n' || d == '\r' || (unsigned char)d >= 0x80 ||
	    ((flags & JENC_CSVW_TSV) ? d != '\t' : d == '"') ||
	    strlen(sep) == 0 || strlen(sep) >= sizeof(w->sep))
		return JENC_E_STATE;
	if ((w = jenc_mem_alloc(sizeof(*w))) == NULL)
		return JENC_E_NOMEM;
	memset(w, 0, sizeof(*w));
	w->flags = flags;
	w->delim = d;
	w->seplen = strlen(sep);
	memcpy(w->sep, sep, w->seplen + 1);
	w->qtab['"'] = w->qtab['\n'] = w->qtab['\r'] = 1;
	w->qtab[(unsigned char)d] = 1;
	if (o != NULL && o->header != NULL) {
		for (i = 0; i < o->nheader; i++)
			if (csvw_col_find(w, o->header[i],
			    strlen(o->header[i])) == (size_t)-1 &&
			    csvw_col_add(w, o->header[i],
			    strlen(o->header[i])) == (size_t)-1) {
				jenc_csvw_free(w);
				return JENC_E_NOMEM;
			}
		w->fixed = w->select = 1;
	}
	*wp = w;
	return 0;
}

void
jenc_csvw_free(jenc_csvw *w)
{
	if (w == NULL)
		return;
	jenc_mem_free(w->names.p, w->names.cap);
	jenc_mem_free(w->col, w->colcap * sizeof(struct col));
	jenc_mem_free(w->hash, w->hcap * sizeof(uint32_t));
	jenc_mem_free(w->slots, w->slotcap * sizeof(struct slot));
	jenc_mem_free(w->path.p, w->path.cap);
	jenc_mem_free(w->dec.p, w->dec.cap);
	jenc_mem_free(w->row.p, w->row.cap);
	jenc_mem_free(w->stk, w->stkcap * sizeof(size_t));
	jenc_mem_free(w->pred, w->predcap * sizeof(size_t));
	jenc_mem_free(w->shape.p, w->shape.cap);
	jenc_mem_free(w, sizeof(*w));
}

void
jenc_csvw_view(jenc_csvw *w, int scan, jenc_view *v)
{
	w->scan = scan;
	if (!scan && w->ncols > 0)
		w->fixed = 1;
	memset(v, 0, sizeof(*v));
	v->value = csvw_value;
	v->text = csvw_text;
	v->end = csvw_end;
	v->names = csvw_names;
	v->ctx = w;
	v->flags = JENC_VIEW_RECORDS | JENC_VIEW_NAMES;
}

size_t
jenc_csvw_columns(const jenc_csvw *w)
{
	return w->ncols;
}

uint64_t
jenc_csvw_dropped(const jenc_csvw *w)
{
	return w->dropped;
}
