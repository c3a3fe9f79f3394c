/*
 * enc_view.c - the encoder's views (jenc_set_view): each top-level value
 * handed to the view's calls as its compact text, and what they write
 * put in its place.
 */
#include <stdio.h>
#include <string.h>

#include "enc_int.h"

/*
 * A view takes each top-level value as its compact text.  The value is
 * written into the held output as any other (with JENC_HOLD and no
 * hold_max, so that none of it is written before it is complete), then
 * copied into vbuf, a buffer of the encoder that grows to the longest
 * value and is kept until jenc_release, and dropped from the output;
 * what the view writes takes its place.  The copy costs a memcpy of the
 * value, and lets the view write into the same segments while it reads.
 */
enum { NAMES_NEXT = 1, NAMES_THIS = 2 };

struct enc_view {
	jenc_view v;
	char *buf;		/* the value's text, cap bytes */
	size_t cap;
	int at_start;		/* the error was found at the value's start */
	int kind;		/* its JENC_K_* */
	int in_call;		/* inside one of v's calls */
	int names;		/* NAMES_NEXT: the next value goes to the
				   names call (jenc_view_names_next);
				   NAMES_THIS: the value begun does */
	char msg[sizeof(((jenc_err *)0)->msg)];	/* the view's error
						   (JENC_E_SYNTAX) */
};

int
jenc_set_view(jenc_enc *e, const jenc_view *v)
{
	if (e->err)
		return e->err;
	if (e->st != ST_TOP || e->depth > 0 || e->split || e->slurp ||
	    e->view != NULL || enc_held(e) > 0 || e->side || v == NULL ||
	    v->value == NULL ||
	    ((v->flags & JENC_VIEW_NAMES) && v->names == NULL))
		return jenc_enc_fail(e, JENC_E_STATE);
	if ((e->view = jenc_mem_alloc(sizeof(*e->view))) == NULL)
		return jenc_enc_fail(e, JENC_E_NOMEM);
	memset(e->view, 0, sizeof(*e->view));
	/* member by member: names is there only with its flag (a view of
	 * an older jenc.h ends at flags) */
	e->view->v.value = v->value;
	e->view->v.text = v->text;
	e->view->v.end = v->end;
	e->view->v.ctx = v->ctx;
	e->view->v.flags = v->flags;
	if (v->flags & JENC_VIEW_NAMES)
		e->view->v.names = v->names;
	/* compact, held whole, no separators of its own */
	e->flags &= ~(unsigned)(JENC_SLURP | JENC_SEQ | JENC_NO_NEWLINE |
	    JENC_COLOR);
	e->flags |= JENC_HOLD | F_VIEW;
	e->hold_max = (size_t)-1;
	e->indent = 0;
	e->ibase = 0;
	e->xroom = 0;
	enc_x_sync(e, (e->x & ~(unsigned)(X_COLOR | X_SLURP)) | X_VIEW);
	return 0;
}

int
jenc_view_write(jenc_enc *e, const char *p, size_t n)
{
	if (e->err)
		return e->err;
	if (e->view == NULL || !e->view->in_call)
		return jenc_enc_fail(e, JENC_E_STATE);
	return n > 0 ? enc_put(e, p, n) : 0;
}

int
jenc_view_names_next(jenc_enc *e)
{
	if (e->err || e->view == NULL || e->depth > 0 ||
	    !(e->view->v.flags & JENC_VIEW_NAMES))
		return 0;
	e->view->names = NAMES_NEXT;
	return 1;
}

int
jenc_view_reject(jenc_enc *e, const char *msg)
{
	if (e->view == NULL || !e->view->in_call)
		return jenc_enc_fail(e, JENC_E_STATE);
	snprintf(e->view->msg, sizeof(e->view->msg), "%s", msg);
	e->view->kind = JENC_K_VIEW;
	return JENC_E_SYNTAX;
}

const char *
jenc_view_msg(const jenc_enc *e, int *at_start, int *kind)
{
	if (e->view == NULL || e->err != JENC_E_SYNTAX)
		return NULL;
	*at_start = e->view->at_start;
	*kind = e->view->kind;
	return e->view->msg;
}

/* The view's call returned rc: its output is dropped on error. */
static int
enc_view_done(jenc_enc *e, size_t start, int rc)
{
	e->view->in_call = 0;
	if (rc == 0 || e->err)
		return rc != 0 ? rc : e->err;
	enc_sync_tail(e);
	jenc_enc_truncate_held(e, start);
	e->view->at_start = 0;
	return jenc_enc_fail(e, rc);
}

int
jenc_enc_view_begin(jenc_enc *e, int k)
{
	/* the value begun here takes NAMES_NEXT, and not the NAMES_THIS of
	 * one dropped unfinished */
	if (__builtin_expect(e->view->names != 0, 0))
		e->view->names = e->view->names == NAMES_NEXT ? NAMES_THIS : 0;
	if ((e->view->v.flags & JENC_VIEW_RECORDS) && k != JENC_COLOR_OBJECT &&
	    k != -1) {
		snprintf(e->view->msg, sizeof(e->view->msg),
		    "expected an object as a record");
		e->view->at_start = 1;
		e->view->kind = JENC_K_RECORD;
		return jenc_enc_fail(e, JENC_E_SYNTAX);
	}
	return 0;
}

int
jenc_enc_view_end(jenc_enc *e)
{
	struct enc_view *w = e->view;
	size_t start = e->committed, n, at = 0;
	jenc_seg *s;

	enc_sync_tail(e);
	n = enc_held(e) - start;
	if (n > w->cap) {
		/* (not jenc_grow: the old text need not be copied) */
		size_t cap = jenc_grow_cap(w->cap, n, 256, 1);
		char *b;

		if (cap == 0 || (b = jenc_mem_alloc(cap)) == NULL)
			return jenc_enc_fail(e, JENC_E_NOMEM);
		jenc_mem_free(w->buf, w->cap);
		w->buf = b;
		w->cap = cap;
	}
	/* the last n held bytes, in order */
	for (s = e->head; s != NULL; s = s->next) {
		size_t len = s->len - s->off, skip = 0;

		if (at + len <= start) {
			at += len;
			continue;
		}
		if (at < start)
			skip = start - at;
		memcpy(w->buf + (at + skip - start), JENC_SEG_DATA(s) +
		    s->off + skip, len - skip);
		at += len;
	}
	jenc_enc_truncate_held(e, start);
	if ((w->v.flags & JENC_VIEW_RECORDS) && (n == 0 || w->buf[0] != '{')) {
		/* fragments (jenc_verbatim): only the text tells */
		snprintf(w->msg, sizeof(w->msg), "expected an object as a "
		    "record, found %s", n > 0 && w->buf[0] == '[' ? "an array" :
		    "a value");
		w->at_start = 0;
		w->kind = JENC_K_RECORD;
		return jenc_enc_fail(e, JENC_E_SYNTAX);
	}
	w->in_call = 1;
	if (w->names == NAMES_THIS) {
		w->names = 0;
		return enc_view_done(e, start, w->v.names(w->v.ctx, e, w->buf,
		    n));
	}
	return enc_view_done(e, start, w->v.value(w->v.ctx, e, w->buf, n));
}

int
jenc_enc_view_text(jenc_enc *e, const char *s, size_t n)
{
	struct enc_view *w = e->view;
	size_t start;

	enc_sync_tail(e);
	start = enc_held(e);
	if (w->v.text != NULL) {
		w->in_call = 1;
		if (enc_view_done(e, start, w->v.text(w->v.ctx, e, s, n)) != 0)
			return e->err;
	}
	e->committed = enc_held(e);
	e->cut = 0;
	return 0;
}

const jenc_view *
jenc_enc_view(const jenc_enc *e)
{
	return e->view != NULL ? &e->view->v : NULL;
}

void
jenc_enc_view_release(jenc_enc *e)
{
	struct enc_view *w = e->view;

	if (w == NULL)
		return;
	if (e->err == 0 && e->depth == 0 && !e->split && w->v.end != NULL) {
		size_t start;

		enc_sync_tail(e);
		start = enc_held(e);
		w->in_call = 1;
		(void)enc_view_done(e, start, w->v.end(w->v.ctx, e));
	}
	jenc_mem_free(w->buf, w->cap);
	jenc_mem_free(w, sizeof(*w));
	e->view = NULL;
}
