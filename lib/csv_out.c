/*
 * csv_out.c - the records of the CSV/TSV reader written: the loop that
 * takes record after record from the scanner (jenc_csv_records, here so
 * that the call per record is inlined), each taken as the header or
 * checked against it (field count, --ragged=pad), then written as an
 * object or an array through the encoder, each field a string or, with
 * JENC_CSV_TYPES (-t), typed: a number or true/false as its own text, an
 * empty field null.  Where the encoder writes compact JSON with the plain
 * escapes, a record is built as one piece of text and written with one
 * call (csv_text); a long record is written a part at a time as the
 * scanner parses it again; --nest writes a record through its plan.
 */
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "csv_int.h"

static inline const char *
csv_field_ptr(const struct csv *c, const struct csv_field *f)
{
	if (f->flags & F_SCRATCH)
		return f->len ? c->scr + f->off : "";
	return c->in.p + c->rec + f->off;
}

/* A field as a value (always inline: it runs once per field, and as a
 * call it cost 2.4% more instructions on -f csv --nest -t). */
static inline __attribute__((always_inline)) int
csv_value(const struct csv *c, const struct csv_field *f)
{
	const char *s = csv_field_ptr(c, f);
	size_t n = f->len;
	jenc_enc *e = c->e;

	if (c->flags & JENC_CSV_TYPES) {
		if (n == 0)
			return jenc_null(e);
		switch (s[0]) {
		case 't':
			if (n == 4 && memcmp(s, "true", 4) == 0)
				return jenc_bool(e, 1);
			break;
		case 'f':
			if (n == 5 && memcmp(s, "false", 5) == 0)
				return jenc_bool(e, 0);
			break;
		case '-': case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			if (jenc_json_number_ok(s, n))
				return jenc_raw(e, s, n);
			break;
		default:
			break;
		}
	}
	/* The reader has checked the UTF-8; without a byte to escape the
	 * field is already a JSON string body. */
	if (f->flags & F_ESC)
		return jenc_str(e, s, n);
	return jenc_raw_str(e, s, n);
}

static inline int
csv_key(const struct csv *c, size_t k)
{
	const struct csv_name *x = &c->nm.v[k];

	if (x->raw)
		return jenc_raw_key(c->e, c->nm.buf + x->off, x->len);
	return jenc_key(c->e, c->nm.buf + x->off, x->len);
}

/* Copies s[0..n) to o; s[0..16) may be read if s + 16 <= lim (a short
 * field is then one 16-byte move, not a call). */
static inline char *
csv_copy(char *o, const char *s, size_t n, const char *lim)
{
	if (n <= 16 && (size_t)(lim - s) >= 16)
		memcpy(o, s, 16);
	else
		memcpy(o, s, n);
	return o + n;
}

/* What -t makes of a field, for csv_text: a string, its own text (a
 * number, true or false), or null. */
enum { K_STRING, K_VERBATIM, K_NULL };

/*
 * The kind of s[0..n) under JENC_CSV_TYPES, as csv_value decides it, with
 * few branches that depend on the data: true and false are told by a
 * compare of the whole field, and with SSE2 a field of up to 16 bytes
 * that is digits, with at most a leading '-' and one '.' not at either
 * end, is told from its mask of digits (s[0..16) readable when s + 16 <=
 * lim); other numbers go through jenc_json_number_ok.
 */
static inline int
csv_kind(const char *s, size_t n, const char *lim)
{
	unsigned char c0;

	if (n == 0)
		return K_NULL;
	c0 = (unsigned char)s[0];
	if ((unsigned char)(c0 - '0') >= 10 && c0 != '-') {
		if (n == 4)
			return memcmp(s, "true", 4) == 0;
		if (n == 5)
			return memcmp(s, "false", 5) == 0;
		return K_STRING;
	}
#ifdef __SSE2__
	if (n <= 16 && (size_t)(lim - s) >= 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i t = _mm_subs_epu8(_mm_sub_epi8(w, _mm_set1_epi8('0')),
		    _mm_set1_epi8(9));
		unsigned full = (1u << n) - 1, neg = c0 == '-';
		unsigned nd = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(t,
		    _mm_setzero_si128())) & full & ~neg;
		size_t d = neg, p;

		/* the integer part: no leading zero unless it is just "0" */
		if (n > d && !(s[d] == '0' && n > d + 1 && s[d + 1] != '.')) {
			if (nd == 0)
				return n > d;
			if ((nd & (nd - 1)) == 0) {
				p = (size_t)__builtin_ctz(nd);
				if (s[p] == '.' && p > d && p + 1 < n)
					return K_VERBATIM;
			}
		}
	}
#else
	(void)lim;
#endif
	return jenc_json_number_ok(s, n);
}

/*
 * The record in c->f as one piece of JSON text, written with jenc_raw:
 * with c->text, the encoder writes compact JSON and copies a value's text
 * as it is, so one call per record gives the bytes that a call per key
 * and value would.  Returns 0, JENC_ST_FALLBACK if the record is left to
 * csv_record (its text could be longer than CSV_TEXT_MAX, or a byte
 * needs a \u escape), or an error.
 */
static int
csv_text(struct csv *c, size_t nf, int obj, size_t nkeys)
{
	const char *lim = c->in.p + c->in.len, *s, *flim;
	int types = (c->flags & JENC_CSV_TYPES) != 0;
	size_t need, k, n;
	char *o;
	int r;

	/* each field: at most twice its bytes, quotes or null, a comma; each
	 * key at most its text; 16 bytes of slack for csv_copy */
	need = 2 * (c->pos - c->rec) + 6 * (nf > nkeys ? nf : nkeys) +
	    (obj ? c->nm.rlen : 0) + 2 + 16;
	if (need > CSV_TEXT_MAX)
		return JENC_ST_FALLBACK;
	if (need > c->cap_o &&
	    csv_grow((void **)&c->ob, &c->cap_o, need, 4096))
		return jenc_csv_nomem(c);
	o = c->ob;
	*o++ = obj ? '{' : '[';
	for (k = 0; k < nf; k++) {
		const struct csv_field *f = &c->f[k];

		if (k > 0)
			*o++ = ',';
		if (obj) {
			const struct csv_name *x = &c->nm.v[k];

			o = csv_copy(o, c->nm.rbuf + x->roff, x->rlen,
			    c->nm.rbuf + c->nm.cap_r);
		}
		n = f->len;
		s = csv_field_ptr(c, f);
		/* no reading past a field in scratch (it may be "") */
		flim = (f->flags & F_SCRATCH) ? s : lim;
		if (types) {
			int kind = csv_kind(s, n, flim);

			if (kind == K_NULL) {
				memcpy(o, "null", 4);
				o += 4;
				continue;
			}
			if (kind == K_VERBATIM) {
				o = csv_copy(o, s, n, flim);
				continue;
			}
		}
		*o++ = '"';
		if (f->flags & F_ESC) {
			if ((o = jenc_csv_esc(o, s, n)) == NULL)
				return JENC_ST_FALLBACK;
		} else {
			o = csv_copy(o, s, n, flim);
		}
		*o++ = '"';
	}
	for (; obj && k < nkeys; k++) {
		const struct csv_name *x = &c->nm.v[k];

		if (k > 0)
			*o++ = ',';
		o = csv_copy(o, c->nm.rbuf + x->roff, x->rlen,
		    c->nm.rbuf + c->nm.cap_r);
		memcpy(o, "null", 4);
		o += 4;
	}
	*o++ = obj ? '}' : ']';
	r = jenc_raw(c->e, c->ob, (size_t)(o - c->ob));
	return r ? jenc_csv_enc_fail(c, r) : 0;
}

/* Writes c->f[0..n) as the columns from c->lcol on (L_REPLAY).
 * Returns 0 or JENC_E_NOMEM. */
static int
csv_write_fields(struct csv *c, size_t n)
{
	size_t k, col;

	for (k = 0; k < n; k++) {
		const struct csv_field *f = &c->f[k];

		col = c->lcol + k;
		if (c->lwhat == W_NAMES) {
			if (jenc_csv_names_add(&c->nm, csv_field_ptr(c, f), f->len,
			    col + 1))
				return JENC_E_NOMEM;
			continue;
		}
		if (c->lwhat == W_MEMBERS)
			csv_key(c, col);
		csv_value(c, f);
	}
	c->lcol += n;
	return 0;
}

/* The long record just checked, written as `what` (W_*) says
 * (jenc_csv_replay). */
static int
csv_replay(struct csv *c, int what)
{
	c->lwhat = what;
	return jenc_csv_replay(c, csv_write_fields);
}

void
jenc_csv_begin(struct csv *c)
{
	if (!c->begun) {
		c->begun = 1;
		if (!(c->flags & JENC_CSV_LINES))
			(void)jenc_arr_begin(c->e);
	}
}

/* The record in c->f (nf fields) through the plan. */
static int
csv_nest_record(struct csv *c, size_t nf)
{
	size_t k;
	int r;

	jenc_obj_begin(c->e);
	for (k = 0; k < c->nplan; k++) {
		const struct csv_op *o = &c->plan[k];

		if (o->op == OP_CLOSE) {
			jenc_obj_end(c->e);
			continue;
		}
		jenc_key(c->e, c->nm.buf + o->off, o->len);
		if (o->op == OP_OPEN)
			jenc_obj_begin(c->e);
		else if (o->col < nf)
			csv_value(c, &c->f[o->col]);
		else
			jenc_null(c->e);
	}
	r = jenc_obj_end(c->e);
	return r ? jenc_csv_enc_fail(c, r) : 0;
}

/*
 * Writes the record (nf fields; lng: the long record just checked) as an
 * object (obj; its keys the names, null for a field it lacks) or an
 * array: as text where it can (csv_text), else through the encoder.
 * Always inline, so that obj is a constant in the loop over the fields.
 */
static inline __attribute__((always_inline)) int
csv_write(struct csv *c, size_t nf, int lng, int obj)
{
	size_t k;
	int r;

	jenc_csv_begin(c);
	if (!lng && c->text && !(obj && c->nm.rbad) &&
	    (r = csv_text(c, nf, obj, obj && c->nhdr > nf ? c->nhdr : nf)) !=
	    JENC_ST_FALLBACK)
		return r;
	if (obj)
		jenc_obj_begin(c->e);
	else
		jenc_arr_begin(c->e);
	if (lng && (r = csv_replay(c, obj ? W_MEMBERS : W_VALUES)) != 0)
		return r;
	for (k = 0; !lng && k < nf; k++) {
		if (obj)
			csv_key(c, k);
		csv_value(c, &c->f[k]);
	}
	for (k = nf; obj && k < c->nhdr; k++) {
		csv_key(c, k);
		jenc_null(c->e);
	}
	r = obj ? jenc_obj_end(c->e) : jenc_arr_end(c->e);
	return r ? jenc_csv_enc_fail(c, r) : 0;
}

/* Takes the record in c->f: as the header, or checked and emitted. */
static int
csv_record(struct csv *c)
{
	int lng = c->lmode == L_CHECK;
	size_t k, nf = lng ? c->lnf : c->nf;
	int r = 0;

	if (c->flags & JENC_CSV_NO_HEADER)
		return c->e != NULL ? csv_write(c, nf, lng, 0) : 0;
	if (!c->have_hdr) {
		if (lng && (r = csv_replay(c, W_NAMES)) != 0)
			return r;
		for (k = 0; !lng && k < nf; k++)
			if (jenc_csv_names_add(&c->nm, csv_field_ptr(c, &c->f[k]),
			    c->f[k].len, k + 1))
				return jenc_csv_nomem(c);
		c->have_hdr = 1;
		c->hdr_read = 1;
		c->hdr_line = c->rec_line;
		c->nhdr = nf;
		return 0;
	}
	if (nf != c->nhdr) {
		if (!(c->flags & JENC_CSV_RAGGED_PAD)) {
			unsigned char h = jenc_csv_hint(c);
			const char *q = h == '\t' ? "\\t" :
			    (const char[]){ (char)h, 0 };

			if (h == 0)
				return jenc_csv_fail_line(c, JENC_K_FIELDS,
				    c->in.off + c->rec, c->rec_line,
				    "record has %zu field%s, header has %zu",
				    nf, nf == 1 ? "" : "s", c->nhdr);
			return jenc_csv_fail_line(c, JENC_K_FIELDS,
			    c->in.off + c->rec, c->rec_line, "record has %zu "
			    "field%s, header has %zu (delimiter '%s'? try -d "
			    "'%s')", nf, nf == 1 ? "" : "s", c->nhdr, q, q);
		}
		for (k = c->nm.n; k < nf; k++)
			if (jenc_csv_names_add(&c->nm, "", 0, k + 1))
				return jenc_csv_nomem(c);
	}
	if ((c->flags & JENC_CSV_NEST) && c->plan_names != c->nm.n + 1 &&
	    (r = jenc_csv_nest_plan(c)) != 0)
		return r;
	if (c->e == NULL)
		return 0;
	if ((c->flags & JENC_CSV_NEST) && c->nest) {
		if (lng)
			return jenc_csv_fail_line(c, JENC_K_LONG,
			    c->in.off + c->rec, c->rec_line,
			    "record of more than %u fields or %u MiB of "
			    "rewritten fields: too long for --nest",
			    (unsigned)CSV_LONG_FIELDS,
			    (unsigned)(CSV_LONG_SCRATCH >> 20));
		jenc_csv_begin(c);
		return csv_nest_record(c, nf);
	}
	return csv_write(c, nf, lng, 1);
}

int
jenc_csv_records(struct csv *c)
{
	int r = 0;

	while (r == 0) {
		r = jenc_csv_next(c);
		if (r == JENC_ST_MORE) {
			/* at the end, only a record too long stops short of it
			 * (jenc_csv_next), and jenc_csv_fill reports that */
			if (c->in.eof && (c->st == S_RECORD ||
			    c->in.len - c->pos <= c->max_rec + 1)) {
				/* cannot happen: at the end the parser knows */
				r = jenc_csv_fail_plain(c, JENC_E_STATE, 0, "%s",
				    "reader stopped before the end of input");
				break;
			}
			r = jenc_csv_fill(c);
			continue;
		}
		if (r == JENC_ST_END) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		r = csv_record(c);
	}
	return r;
}

int
jenc_csv_names_end(struct csv *c)
{
	const jenc_view *v = jenc_enc_view(c->e);
	size_t k;
	int r;

	/* (begun: a record was written, or bad data came) */
	if ((c->flags & JENC_CSV_NO_HEADER) || !c->have_hdr || c->begun ||
	    v == NULL || !(v->flags & JENC_VIEW_NAMES))
		return 0;
	/* (--nest: its plan first, which may refuse the names) */
	if ((c->flags & JENC_CSV_NEST) && c->plan_names != c->nm.n + 1 &&
	    (r = jenc_csv_nest_plan(c)) != 0)
		return r;
	jenc_csv_begin(c);
	if (!jenc_view_names_next(c->e))
		return 0;
	if ((c->flags & JENC_CSV_NEST) && c->nest)
		return csv_nest_record(c, 0);
	jenc_obj_begin(c->e);
	for (k = 0; k < c->nhdr; k++) {
		csv_key(c, k);
		jenc_null(c->e);
	}
	r = jenc_obj_end(c->e);
	return r ? jenc_csv_enc_fail(c, r) : 0;
}
