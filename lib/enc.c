/*
 * enc.c - the encoder's calls: the grammar checks (the state of each open
 * container), separators and indentation, and the public calls that
 * write values and keys, each compiled in its ways (plain, sorted, long).
 * The held output and the encoders' lifecycle are enc_out.c, escaping
 * enc_esc.c, what the options add enc_opts.c, views enc_view.c; what
 * they share is enc_int.h.
 */
#include <math.h>
#include <string.h>

#include "enc_int.h"

/* ---- structure ---------------------------------------------------------- */

/*
 * The calls that write a value or a key are each written once, as a
 * static inline function whose last argument lw is a constant: LW_LONG
 * takes the long way, right for every encoder; LW_PLAIN the plain way,
 * right only while e->x has none of the bits the call tests (X_VALUE,
 * X_OBJECT or X_ARRAY: colors, slurp, a sticky error; sorted keys for
 * '{', '}' and keys; split for '['), with the tests for those compiled
 * out; LW_SORTED (below) is the plain way with sorted keys.  The public
 * call picks one by testing one byte (xv, xo or xa), so that plain output
 * pays nothing for the options it does not use, and sorted output pays
 * for them only in objects; the other ways are out of line (ENC_NOINLINE),
 * so that they add nothing to the plain way's registers either.
 */

/* The text s of jenc_str, jenc_key, jenc_kv_str: NULL is allowed for a
 * length of 0 (an empty string), which memcpy and pointer arithmetic must
 * not be given.  (Not for the raw calls, which the readers make per token
 * with text of theirs.) */
#define ENC_TEXT(s) ((s) != NULL ? (s) : "")

/* A call's body, always inlined, so that each way has its lw constant. */
#define ENC_NOINLINE __attribute__((noinline))
#define ENC_EACH_WAY static inline __attribute__((always_inline))

/* body's long way out of line: body##_lw(params), which is body(args...,
 * LW_LONG). */
#define ENC_LONG_WAY(body, params, ...)					\
	static ENC_NOINLINE int body##_lw params			\
	{								\
		return body(__VA_ARGS__, LW_LONG);			\
	}
/*
 * The call name(params) of the ENC_EACH_WAY body: its plain way inline,
 * its long way out of line (ENC_LONG_WAY); e->xv, the bits that send a
 * value the long way, picks.  type: the call's storage class and type.
 */
#define ENC_CALL(type, name, body, params, ...)				\
	ENC_LONG_WAY(body, params, __VA_ARGS__)				\
	type name params						\
	{								\
		return e->xv ? body##_lw(__VA_ARGS__) :			\
		    body(__VA_ARGS__, LW_PLAIN);			\
	}

/* The bracket call name: c by the plain way of body, unless e->test has
 * a bit the call tests; then off, out of line. */
#define ENC_BRACKET(name, body, c, test, off)				\
	int name(jenc_enc *e)						\
	{								\
		return e->test ? off : body(e, c, LW_PLAIN);		\
	}

/* 1 if colors are on, on way lw. */
static inline int
enc_colors(const jenc_enc *e, int lw)
{
	return lw == LW_LONG && (e->x & X_COLOR);
}

/* 1 if keys are sorted on way lw. */
static inline int
enc_sorting(const jenc_enc *e, int lw)
{
	return lw == LW_SORTED || (lw == LW_LONG && (e->x & X_SORT));
}

int __attribute__((noinline))
jenc_enc_newline_fill(jenc_enc *e, size_t n)
{
	char fill[256];

	if (n < 1024) {
		if (enc_need(e, n + 1) != 0)
			return e->err;
		*e->p++ = '\n';
		memset(e->p, e->ichar, n);
		e->p += n;
		return 0;
	}
	memset(fill, e->ichar, sizeof(fill));
	if (enc_put(e, "\n", 1) != 0)
		return e->err;
	while (n > 0) {
		size_t k = n < sizeof(fill) ? n : sizeof(fill);

		if (enc_put(e, fill, k) != 0)
			return e->err;
		n -= k;
	}
	return 0;
}

/* Separators before a value of kind k (JENC_COLOR_*, -1 unknown); checks
 * that a value may come here. */
static inline int
enc_value_sep(jenc_enc *e, int k, int lw)
{
	if (lw == LW_LONG && e->err)
		return e->err;
	switch (e->st) {
	case ST_TOP:
		if (e->flags & (JENC_NO_NEWLINE | JENC_SEQ | JENC_SLURP |
		    F_VIEW))
			return jenc_enc_top_prefix(e, k);
		return 0;
	case ST_ARR_FIRST:
		e->st = ST_ARR_NEXT;
		return e->indent ?
		    enc_newline_indent(e, enc_levels(e, e->depth, lw)) : 0;
	case ST_ARR_NEXT:
		if (enc_need(e, 1) != 0)
			return e->err;
		*e->p++ = ',';
		return e->indent ?
		    enc_newline_indent(e, enc_levels(e, e->depth, lw)) : 0;
	case ST_OBJ_VAL:
		e->st = ST_OBJ_NEXT;
		return 0;
	}
	return jenc_enc_fail(e, JENC_E_STATE);
}

/* The separators, then with JENC_COLOR the color of a value of kind k
 * (JENC_COLOR_*). */
static inline int
enc_value_prefix(jenc_enc *e, int k, int lw)
{
	if (enc_value_sep(e, k, lw) != 0)
		return e->err;
	return enc_colors(e, lw) ? enc_paint(e, k) : 0;
}

/* After a complete value: at top level, the newline and the commit point. */
static inline int
enc_value_done(jenc_enc *e, int lw)
{
	if (enc_colors(e, lw) && jenc_enc_paint_after(e) != 0)
		return e->err;
	if (e->depth > 0)
		return 0;
	e->top_done = 1;
	e->split_out = e->split;
	if (e->flags & (JENC_SLURP | JENC_FLUSH_EACH | F_VIEW))
		return jenc_enc_top_end(e);
	if (!(e->flags & JENC_NO_NEWLINE)) {
		if (enc_need(e, 1) != 0)
			return e->err;
		*e->p++ = '\n';
	}
	e->committed = enc_held(e);
	e->cut = 0;
	return 0;
}

/* A full stack doubled. */
static int
enc_push_grow(jenc_enc *e)
{
	size_t ncap = e->stack_cap * 2;
	unsigned char *ns = jenc_mem_alloc(ncap);

	if (ns == NULL)
		return jenc_enc_fail(e, JENC_E_NOMEM);
	memcpy(ns, e->stack, e->stack_cap);
	if (e->stack != e->stack_inline)
		jenc_mem_free(e->stack, e->stack_cap);
	e->stack = ns;
	e->stack_cap = ncap;
	return 0;
}

static inline int
enc_push(jenc_enc *e, unsigned char c)
{
	if (e->depth == e->stack_cap && enc_push_grow(e) != 0)
		return e->err;
	e->stack[e->depth++] = c;
	return 0;
}

/* Inline in the four calls, so that c is a constant in each. */
ENC_EACH_WAY int
enc_begin(jenc_enc *e, char c, int lw)
{
	if (lw == LW_LONG && c == '[' && e->st == ST_TOP && (e->x & X_SPLIT) &&
	    !e->split && e->err == 0) {
		e->split = 1;	/* its elements are the top-level values */
		e->split_out = 0;
		return 0;
	}
	if (enc_value_prefix(e, c == '{' ? JENC_COLOR_OBJECT : JENC_COLOR_ARRAY,
	    lw) != 0 || enc_push(e, (unsigned char)c) != 0 ||
	    enc_need(e, 1) != 0)
		return e->err;
	*e->p++ = c;
	e->st = c == '{' ? ST_OBJ_FIRST : ST_ARR_FIRST;
	if (c == '{' && enc_sorting(e, lw))
		return jenc_sort_open(e, &jenc_enc_out_ops, &e->sort);
	return 0;
}

/* Before a closing bracket, the long way: sorted keys, colors. */
static int
enc_end_x(jenc_enc *e, char c, int first)
{
	if (c == '}' && (e->x & X_SORT)) {
		size_t n;

		if (jenc_sort_close(e, e->sort, e->tail, e->p, &n) != 0)
			return e->err;
		e->st = n > 0 ? ST_OBJ_NEXT : ST_OBJ_FIRST;
	}
	if (e->st != first + 1)
		return 0;
	if (e->indent &&
	    enc_newline_indent(e, enc_levels(e, e->depth - 1, LW_LONG)) != 0)
		return e->err;
	if (e->x & X_COLOR)
		return enc_paint(e, c == '}' ? JENC_COLOR_OBJECT : JENC_COLOR_ARRAY);
	return 0;
}

ENC_EACH_WAY int
enc_end(jenc_enc *e, char c, int lw)
{
	int first = c == '}' ? ST_OBJ_FIRST : ST_ARR_FIRST;

	if (lw == LW_LONG && e->err)
		return e->err;
	if (e->st != first && e->st != first + 1) {
		if (e->st == ST_TOP && c == ']')
			return jenc_enc_top_close(e);
		return jenc_enc_fail(e, JENC_E_STATE);
	}
	if (lw != LW_PLAIN) {
		if (enc_end_x(e, c, first) != 0)
			return e->err;
	} else if (e->st == first + 1 && e->indent &&
	    enc_newline_indent(e, e->depth - 1) != 0) {
		return e->err;
	}
	if (enc_need(e, 1) != 0)
		return e->err;
	*e->p++ = c;
	e->depth--;
	if (e->depth == 0)
		e->st = ST_TOP;
	else
		e->st = e->stack[e->depth - 1] == '{' ? ST_OBJ_NEXT : ST_ARR_NEXT;
	return enc_value_done(e, lw);
}

ENC_LONG_WAY(enc_begin, (jenc_enc *e, char c), e, c)
ENC_LONG_WAY(enc_end, (jenc_enc *e, char c), e, c)

/* An object's '{' and '}' off the plain way: sorted keys alone, or the
 * long way. */
static ENC_NOINLINE int
enc_obj_begin_x(jenc_enc *e)
{
	return e->xv ? enc_begin(e, '{', LW_LONG) :
	    enc_begin(e, '{', LW_SORTED);
}

static ENC_NOINLINE int
enc_obj_end_x(jenc_enc *e)
{
	return e->xv ? enc_end(e, '}', LW_LONG) : enc_end(e, '}', LW_SORTED);
}

ENC_BRACKET(jenc_obj_begin, enc_begin, '{', xo, enc_obj_begin_x(e))
ENC_BRACKET(jenc_arr_begin, enc_begin, '[', xa, enc_begin_lw(e, '['))
ENC_BRACKET(jenc_obj_end, enc_end, '}', xo, enc_obj_end_x(e))
ENC_BRACKET(jenc_arr_end, enc_end, ']', xv, enc_end_lw(e, ']'))

/* ---- verbatim top-level values (internal.h) ------------------------------ */

int
jenc_split_written(const jenc_enc *e)
{
	return e->split && e->split_out;
}

int
jenc_verbatim(const jenc_enc *e)
{
	return e->indent == 0 && e->rawesc == NULL &&
	    !(e->x & (X_COLOR | X_SORT | X_SPLIT));
}

int
jenc_frag_begin(jenc_enc *e)
{
	if (e->err)
		return e->err;
	if (e->st != ST_TOP)
		return jenc_enc_fail(e, JENC_E_STATE);
	if (enc_value_sep(e, -1, LW_LONG) != 0)
		return e->err;
	e->st = ST_FRAG;
	/* an unfinished value: enc_write_out and jenc_discard see it */
	e->depth = 1;
	return 0;
}

int
jenc_frag(jenc_enc *e, const char *s, size_t n)
{
	if (e->err)
		return e->err;
	return enc_put(e, s, n);
}

int
jenc_frag_end(jenc_enc *e)
{
	if (e->err)
		return e->err;
	if (e->st != ST_FRAG)
		return jenc_enc_fail(e, JENC_E_STATE);
	e->depth = 0;
	e->st = ST_TOP;
	return e->xv ? enc_value_done(e, LW_LONG) :
	    enc_value_done(e, LW_PLAIN);
}

/* ---- keys and strings ------------------------------------------------- */

/* Bytes of separator and indentation around a value or key at most. */
static inline size_t
enc_sep_max(const jenc_enc *e, int lw)
{
	return 4 + (size_t)e->depth * e->indent +
	    (lw == LW_LONG ? e->xroom : 0);
}

/* A key's comma, indentation, quoted text and colon at o, when the tail
 * has room (enc_str_fits with enc_sep_max); NULL if check found s invalid. */
static inline char *
enc_key_out(const jenc_enc *e, char *o, const char *s, size_t len,
    const unsigned char *tab, int check, int lw)
{
	if (e->st == ST_OBJ_NEXT)
		*o++ = ',';
	if (e->indent) {
		size_t n = enc_levels(e, e->depth, lw) * e->indent;

		*o++ = '\n';
		memset(o, e->ichar, n);
		o += n;
	}
	if (tab == NULL) {
		*o++ = '"';
		memcpy(o, s, len);
		o += len;
		*o++ = '"';
	} else if ((o = jenc_enc_quoted_fast(e, o, (const unsigned char *)s, len,
	    tab, check)) == NULL) {
		return NULL;
	}
	*o++ = ':';
	if (e->indent)
		*o++ = ' ';
	return o;
}

ENC_EACH_WAY int
enc_key(jenc_enc *e, const char *s, size_t len, int raw, int lw)
{
	if (lw == LW_LONG && e->err)
		return e->err;
	if (e->st != ST_OBJ_FIRST && e->st != ST_OBJ_NEXT)
		return jenc_enc_fail(e, JENC_E_STATE);
	if (!enc_colors(e, lw) && enc_str_fits(e, len, enc_sep_max(e, lw))) {
		char *o;

		/* sorted: every member has its ',' (see below) */
		if (enc_sorting(e, lw)) {
			if (jenc_sort_key(e, e->sort, e->tail, e->p, s, len,
			    raw) != 0)
				return e->err;
			e->st = ST_OBJ_NEXT;
		}
		o = enc_key_out(e, e->p, s, len, raw ? e->rawesc : e->esc, !raw,
		    lw);

		if (o == NULL)
			return jenc_enc_fail(e, JENC_E_UTF8);
		e->p = o;
		e->st = ST_OBJ_VAL;
		return 0;
	}
	if (!raw && !jenc_enc_text_ok(s, len))
		return jenc_enc_fail(e, JENC_E_UTF8);
	/* Sorted, every member has its ',': the first one's is dropped
	 * once the order is known. */
	if (enc_sorting(e, lw) &&
	    jenc_sort_key(e, e->sort, e->tail, e->p, s, len, raw) != 0)
		return e->err;
	if (e->st == ST_OBJ_NEXT || enc_sorting(e, lw)) {
		if (enc_need(e, 1) != 0)
			return e->err;
		*e->p++ = ',';
	}
	if (e->indent &&
	    enc_newline_indent(e, enc_levels(e, e->depth, lw)) != 0)
		return e->err;
	if (enc_colors(e, lw) && (enc_paint(e, JENC_PAL_RESET) != 0 ||
	    enc_paint(e, JENC_COLOR_KEY) != 0))
		return e->err;
	if (jenc_enc_put_string(e, s, len, raw) != 0)
		return e->err;
	if (enc_colors(e, lw) && (enc_paint(e, JENC_PAL_RESET) != 0 ||
	    enc_paint(e, JENC_COLOR_OBJECT) != 0))
		return e->err;
	if (enc_need(e, 2) != 0)
		return e->err;
	*e->p++ = ':';
	if (e->indent)
		*e->p++ = ' ';
	if (enc_colors(e, lw) && enc_paint(e, JENC_PAL_RESET) != 0)
		return e->err;
	e->st = ST_OBJ_VAL;
	return 0;
}

/* A key off the plain way: sorted keys alone, or the long way. */
static ENC_NOINLINE int
enc_key_x(jenc_enc *e, const char *s, size_t len, int raw)
{
	if (e->xv)
		return enc_key(e, s, len, raw, LW_LONG);
	return enc_key(e, s, len, raw, LW_SORTED);
}

int
jenc_key(jenc_enc *e, const char *s, size_t len)
{
	s = ENC_TEXT(s);
	return e->xo ? enc_key_x(e, s, len, 0) :
	    enc_key(e, s, len, 0, LW_PLAIN);
}

int
jenc_raw_key(jenc_enc *e, const char *body, size_t len)
{
	return e->xo ? enc_key_x(e, body, len, 1) :
	    enc_key(e, body, len, 1, LW_PLAIN);
}

/* 1 if a value may come here (enc_value_prefix would not fail). */
static inline int
enc_value_ok(const jenc_enc *e)
{
	switch (e->st) {
	case ST_TOP:
		return !e->top_done || !(e->flags & JENC_NO_NEWLINE);
	case ST_ARR_FIRST:
	case ST_ARR_NEXT:
	case ST_OBJ_VAL:
		return 1;
	}
	return 0;
}

ENC_EACH_WAY int
enc_str(jenc_enc *e, const char *s, size_t len, int lw)
{
	if (lw == LW_LONG && e->err)
		return e->err;
	if (enc_str_fits(e, len, enc_sep_max(e, lw)) && enc_value_ok(e)) {
		char *start = e->p, *o;
		unsigned char st = e->st;

		/* cannot fail, has room */
		(void)enc_value_prefix(e, JENC_COLOR_STRING, lw);
		o = jenc_enc_quoted_fast(e, e->p, (const unsigned char *)s, len,
		    e->esc, 1);
		if (o == NULL) {
			e->p = start;
			e->st = st;
			return jenc_enc_fail(e, JENC_E_UTF8);
		}
		e->p = o;
		return enc_value_done(e, lw);
	}
	if (!jenc_enc_text_ok(s, len))
		return jenc_enc_fail(e, JENC_E_UTF8);
	if (enc_value_prefix(e, JENC_COLOR_STRING, lw) != 0 ||
	    jenc_enc_put_string(e, s, len, 0) != 0)
		return e->err;
	return enc_value_done(e, lw);
}

ENC_CALL(int, jenc_str, enc_str, (jenc_enc *e, const char *s, size_t len),
    e, ENC_TEXT(s), len)

ENC_EACH_WAY int
enc_raw_str(jenc_enc *e, const char *body, size_t len, int lw)
{
	if (enc_value_prefix(e, JENC_COLOR_STRING, lw) != 0 ||
	    jenc_enc_put_string(e, body, len, 1) != 0)
		return e->err;
	return enc_value_done(e, lw);
}

ENC_CALL(int, jenc_raw_str, enc_raw_str,
    (jenc_enc *e, const char *body, size_t len), e, body, len)

/* ---- scalars ------------------------------------------------------------- */

static inline int
enc_raw_kind(const char *json)
{
	switch (json[0]) {
	case '"': return JENC_COLOR_STRING;
	case 't': return JENC_COLOR_TRUE;
	case 'f': return JENC_COLOR_FALSE;
	case 'n': return JENC_COLOR_NULL;
	}
	return JENC_COLOR_NUMBER;
}

ENC_EACH_WAY int
enc_raw(jenc_enc *e, const char *json, size_t len, int lw)
{
	/* not an object; but the CSV reader hands a verbatim encoder each
	 * record whole, which a view's JENC_VIEW_RECORDS takes from its text
	 * (-1, as fragments) */
	if (enc_value_sep(e, (e->x & X_VIEW) && (json[0] == '{' ||
	    json[0] == '[') ? -1 : JENC_COLOR_NUMBER, lw) != 0 ||
	    (enc_colors(e, lw) && enc_paint(e, enc_raw_kind(json)) != 0))
		return e->err;
	if (json[0] == '"' && len >= 2) {
		if (jenc_enc_put_string(e, json + 1, len - 2, 1) != 0)
			return e->err;
	} else if (enc_put_short(e, json, len) != 0) {
		return e->err;
	}
	return enc_value_done(e, lw);
}

ENC_CALL(int, jenc_raw, enc_raw, (jenc_enc *e, const char *json, size_t len),
    e, json, len)

/* Booleans, null and times: the text t[0..n). */
ENC_EACH_WAY int
enc_scalar(jenc_enc *e, int k, const char *t, size_t n, int lw)
{
	if (enc_value_prefix(e, k, lw) != 0 || enc_put(e, t, n) != 0)
		return e->err;
	return enc_value_done(e, lw);
}

ENC_CALL(static int, enc_put_scalar, enc_scalar,
    (jenc_enc *e, int k, const char *t, size_t n), e, k, t, n)

/* Numbers (type NUM_*, the value in i, u or d): the text is written
 * straight into the tail. */
enum { NUM_I64, NUM_U64, NUM_F64 };

ENC_EACH_WAY int
enc_num(jenc_enc *e, int type, int64_t i, uint64_t u, double d, int lw)
{
	if (enc_value_prefix(e, JENC_COLOR_NUMBER, lw) != 0 ||
	    enc_need(e, type == NUM_F64 ? 32 : 24) != 0)
		return e->err;
	if (type == NUM_I64)
		e->p += jenc_fmt_i64(e->p, i);
	else if (type == NUM_U64)
		e->p += jenc_fmt_u64(e->p, u);
	else
		e->p += jenc_fmt_f64(e->p, d);
	return enc_value_done(e, lw);
}

ENC_CALL(static int, enc_put_num, enc_num,
    (jenc_enc *e, int type, int64_t i, uint64_t u, double d), e, type, i, u, d)

int
jenc_i64(jenc_enc *e, int64_t v)
{
	return enc_put_num(e, NUM_I64, v, 0, 0);
}

int
jenc_u64(jenc_enc *e, uint64_t v)
{
	return enc_put_num(e, NUM_U64, 0, v, 0);
}

int
jenc_f64(jenc_enc *e, double v)
{
	if (e->err)
		return e->err;
	if (!isfinite(v))
		return jenc_enc_fail(e, JENC_E_NUMBER);
	return enc_put_num(e, NUM_F64, 0, 0, v);
}

int
jenc_bool(jenc_enc *e, int v)
{
	return enc_put_scalar(e, v ? JENC_COLOR_TRUE : JENC_COLOR_FALSE,
	    v ? "true" : "false", v ? 4 : 5);
}

int
jenc_null(jenc_enc *e)
{
	return enc_put_scalar(e, JENC_COLOR_NULL, "null", 4);
}

int
jenc_time_utc(jenc_enc *e, int64_t secs)
{
	char buf[32];
	size_t n;

	if (e->err)
		return e->err;
	n = jenc_fmt_time_utc(buf + 1, secs);
	if (n == 0)
		return jenc_enc_fail(e, JENC_E_RANGE);
	buf[0] = '"';
	buf[n + 1] = '"';
	return enc_put_scalar(e, JENC_COLOR_STRING, buf, n + 2);
}

int
jenc_time_unix(jenc_enc *e, int64_t secs)
{
	return jenc_i64(e, secs);
}

/* ---- key-value shorthands --------------------------------------------- */

int
jenc_kv_str(jenc_enc *e, const char *k, size_t klen, const char *s, size_t len)
{
	if (e->err)
		return e->err;
	k = ENC_TEXT(k);
	s = ENC_TEXT(s);
	/* Both strings straight into the tail when it has room. */
	if ((e->st == ST_OBJ_FIRST || e->st == ST_OBJ_NEXT) && e->x == 0 &&
	    klen + len >= klen &&
	    enc_str_fits(e, klen + len, enc_sep_max(e, LW_PLAIN) + 2)) {
		char *o = enc_key_out(e, e->p, k, klen, e->esc, 1, LW_PLAIN);

		if (o != NULL)
			o = jenc_enc_quoted_fast(e, o, (const unsigned char *)s, len,
			    e->esc, 1);
		if (o == NULL)
			return jenc_enc_fail(e, JENC_E_UTF8);
		e->p = o;
		e->st = ST_OBJ_NEXT;
		return 0;
	}
	if (!jenc_enc_text_ok(s, len))
		return jenc_enc_fail(e, JENC_E_UTF8);
	return jenc_key(e, k, klen) ? e->err : jenc_str(e, s, len);
}

/* The call name: the key k[0..klen), then the value v by call. */
#define ENC_KV(name, type, call)					\
	int name(jenc_enc *e, const char *k, size_t klen, type v)	\
	{								\
		return jenc_key(e, k, klen) ? e->err : call(e, v);	\
	}

ENC_KV(jenc_kv_i64, int64_t, jenc_i64)
ENC_KV(jenc_kv_u64, uint64_t, jenc_u64)
ENC_KV(jenc_kv_bool, int, jenc_bool)
ENC_KV(jenc_kv_time_unix, int64_t, jenc_time_unix)

int
jenc_kv_f64(jenc_enc *e, const char *k, size_t klen, double v)
{
	if (e->err)
		return e->err;
	if (!isfinite(v))
		return jenc_enc_fail(e, JENC_E_NUMBER);
	return jenc_key(e, k, klen) ? e->err : jenc_f64(e, v);
}

int
jenc_kv_null(jenc_enc *e, const char *k, size_t klen)
{
	return jenc_key(e, k, klen) ? e->err : jenc_null(e);
}

int
jenc_kv_time_utc(jenc_enc *e, const char *k, size_t klen, int64_t secs)
{
	char buf[32];

	if (e->err)
		return e->err;
	if (jenc_fmt_time_utc(buf, secs) == 0)
		return jenc_enc_fail(e, JENC_E_RANGE);
	return jenc_key(e, k, klen) ? e->err : jenc_time_utc(e, secs);
}
