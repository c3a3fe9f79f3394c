/*
 * enc_opts.c - what the encoder's options add around its values, the
 * long way of its calls: the colors of JENC_COLOR, the framing of
 * top-level values (JENC_SEQ, JENC_SLURP, JENC_SPLIT, JENC_NO_NEWLINE,
 * JENC_FLUSH_EACH), text passed through at top level, and the side
 * buffer that JENC_SORT_KEYS writes (sort.c's jenc_out_ops).
 */
#include <string.h>

#include "enc_int.h"

/* ---- colors (JENC_COLOR) ------------------------------------------------ */

int
jenc_enc_paint_after(jenc_enc *e)
{
	if (enc_paint(e, JENC_PAL_RESET) != 0)
		return e->err;
	if (e->depth > 0)
		return enc_paint(e, e->stack[e->depth - 1] == '{' ?
		    JENC_COLOR_OBJECT : JENC_COLOR_ARRAY);
	if (e->flags & JENC_SLURP)
		return enc_paint(e, JENC_COLOR_ARRAY);
	return 0;
}

void
jenc_set_colors(jenc_enc *e, const jenc_colors *c)
{
	jenc_pal_init(&e->pal, c);
}

/* ---- top-level values: separators and commit points --------------------- */

static int
enc_put_rs(jenc_enc *e)
{
	return (e->flags & JENC_SEQ) ? enc_put(e, "\x1e", 1) : 0;
}

/* A JENC_SLURP array's start, s[0..n) ("[", or "[]" for an empty one):
 * not a second top-level value under JENC_NO_NEWLINE; the RS of JENC_SEQ
 * and the array's color before it. */
static int
enc_slurp_open(jenc_enc *e, const char *s, size_t n)
{
	if (e->top_done && (e->flags & JENC_NO_NEWLINE))
		return jenc_enc_fail(e, JENC_E_SECOND);
	if (enc_put_rs(e) != 0 || ((e->x & X_COLOR) &&
	    enc_paint(e, JENC_COLOR_ARRAY) != 0))
		return e->err;
	return enc_put(e, s, n);
}

int
jenc_enc_top_prefix(jenc_enc *e, int k)
{
	if (e->flags & F_VIEW)
		return jenc_enc_view_begin(e, k);
	if (!(e->flags & JENC_SLURP)) {
		if (e->top_done && (e->flags & JENC_NO_NEWLINE))
			return jenc_enc_fail(e, JENC_E_SECOND);
		return enc_put_rs(e);
	}
	if (e->slurp) {
		if (enc_put(e, ",", 1) != 0)
			return e->err;
	} else if (enc_slurp_open(e, "[", 1) != 0) {
		return e->err;
	}
	return e->indent ? enc_newline_indent(e, enc_levels(e, 0, LW_LONG)) : 0;
}

int
jenc_enc_top_end(jenc_enc *e)
{
	if ((e->flags & F_VIEW) && jenc_enc_view_end(e) != 0)
		return e->err;
	if (!(e->flags & (JENC_SLURP | JENC_NO_NEWLINE | F_VIEW)) &&
	    enc_put(e, "\n", 1) != 0)
		return e->err;
	e->committed = enc_held(e);
	e->cut = 0;
	if (e->flags & JENC_SLURP)
		e->slurp = 1;
	return (e->flags & JENC_FLUSH_EACH) ? jenc_enc_flush(e) : 0;
}

int
jenc_enc_top_close(jenc_enc *e)
{
	if (e->split) {
		e->split = 0;
		return 0;
	}
	if (!(e->flags & JENC_SLURP))
		return jenc_enc_fail(e, JENC_E_STATE);
	if (!e->slurp) {
		if (enc_slurp_open(e, "[]", 2) != 0)
			return e->err;
	} else {
		if ((e->indent && enc_put(e, "\n", 1) != 0) ||
		    ((e->x & X_COLOR) && enc_paint(e, JENC_COLOR_ARRAY) != 0) ||
		    enc_put(e, "]", 1) != 0)
			return e->err;
	}
	if ((e->x & X_COLOR) && enc_paint(e, JENC_PAL_RESET) != 0)
		return e->err;
	if (!(e->flags & JENC_NO_NEWLINE) && enc_put(e, "\n", 1) != 0)
		return e->err;
	e->slurp = 0;
	e->top_done = 1;
	e->committed = enc_held(e);
	e->cut = 0;
	return (e->flags & JENC_FLUSH_EACH) ? jenc_enc_flush(e) : 0;
}

/* ---- text passed through (internal.h) ----------------------------------- */

int
jenc_passthru(jenc_enc *e, const char *s, size_t n)
{
	if (e->err)
		return e->err;
	if (e->st != ST_TOP || e->depth > 0)
		return jenc_enc_fail(e, JENC_E_STATE);
	if (e->view != NULL)
		return jenc_enc_view_text(e, s, n);
	/* bad text is a text of its own; a cut value's newline is not */
	if (n > 0 && !(n == 1 && s[0] == '\n') && enc_put_rs(e) != 0)
		return e->err;
	if (n > 0 && enc_put(e, s, n) != 0)
		return e->err;
	e->committed = enc_held(e);	/* complete, as a value is */
	e->cut = 0;
	return 0;
}

/* ---- the side buffer of JENC_SORT_KEYS, for sort.c ---------------------- */

void
jenc_enc_out_side(jenc_enc *e, int on)
{
	struct enc_out t;

	if (e->side == on)
		return;
	enc_sync_tail(e);
	t = (struct enc_out){ e->p, e->end, e->head, e->tail, e->spare, e->base,
	    e->committed, e->next_cap, e->kind };
	e->p = e->other.p;
	e->end = e->other.end;
	e->head = e->other.head;
	e->tail = e->other.tail;
	e->spare = e->other.spare;
	e->base = e->other.base;
	e->committed = e->other.committed;
	e->next_cap = e->other.next_cap;
	e->kind = e->other.kind;
	e->other = t;
	e->side = (unsigned char)on;
}

static void
enc_out_at(jenc_enc *e, jenc_seg **head, jenc_seg **tail, char **p)
{
	enc_sync_tail(e);
	*head = e->head;
	*tail = e->tail;
	*p = e->p;
}

static int
enc_out_put(jenc_enc *e, const char *s, size_t n)
{
	return enc_put(e, s, n);
}

static int
enc_out_error(const jenc_enc *e)
{
	return e->err;
}

static void
enc_out_side_clear(jenc_enc *e)
{
	struct enc_out *o = &e->other;
	jenc_seg *h = o->head;

	jenc_seg_put_list(o->spare);
	o->spare = NULL;
	o->base = o->committed = 0;
	if (h == NULL)
		return;
	jenc_seg_put_list(h->next);
	h->next = NULL;
	if (h->cap > JENC_SEG_MAX) {
		jenc_seg_release(h);
		o->head = o->tail = NULL;
		o->p = o->end = NULL;
		o->next_cap = JENC_SEG_MIN;
		return;
	}
	h->len = h->off = 0;
	o->tail = h;
	o->p = JENC_SEG_DATA(h);
	o->end = o->p + h->cap;
	o->next_cap = enc_next_cap(h->cap);
}

const jenc_out_ops jenc_enc_out_ops = {
	jenc_enc_out_side, enc_out_at, enc_out_put, enc_out_side_clear,
	jenc_enc_fail, enc_out_error,
};
