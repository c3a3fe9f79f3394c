/*
 * enc.c - the encoder: structure checks, separators and indentation, and
 * the segmented output buffer with its sink policy (escaping is in
 * enc_esc.c; what the files share, and how the held output is kept, in
 * enc_int.h).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "enc_int.h"

#define ENC_POOL_MAX 64
#define HOLD_DEFAULT ((size_t)1 << 20)
#define IOV_BATCH 64

/* ---- errors ----------------------------------------------------------- */

const char *
jenc_strerror(int code)
{
	switch (code) {
	case JENC_OK: return "success";
	case JENC_E_NOMEM: return "out of memory";
	case JENC_E_IO: return "input/output error";
	case JENC_E_STATE: return "call not valid at this point of the value";
	case JENC_E_UTF8: return "string is not valid UTF-8";
	case JENC_E_NUMBER: return "number is NaN or infinite";
	case JENC_E_SECOND: return "second top-level value without a separator";
	case JENC_E_RANGE: return "time outside years 1 to 9999";
	case JENC_E_INCOMPLETE: return "containers left open";
	case JENC_E_SYNTAX: return "invalid input";
	case JENC_E_DEPTH: return "nesting too deep";
	case JENC_E_SINK: return "sink callback failed";
	case JENC_E_ENCODING: return "input not valid in its encoding";
	}
	return "unknown error";
}

int
enc_fail(jenc_enc *e, int code)
{
	if (e->err == 0) {
		e->err = code;
		enc_x_sync(e, e->x | X_ERR);
	}
	return e->err;
}

/* The sticky error gone (X_ERR goes with it). */
static void
enc_clear_err(jenc_enc *e)
{
	e->err = e->sys_errno = 0;
	enc_x_sync(e, e->x & ~(unsigned)X_ERR);
}

int
jenc_error(const jenc_enc *e)
{
	return e->err;
}

int
jenc_errno(const jenc_enc *e)
{
	return e->sys_errno;
}

unsigned
jenc_depth(const jenc_enc *e)
{
	return e->depth + e->split;
}

/* ---- the segment list ------------------------------------------------- */

size_t
jenc_len(const jenc_enc *e)
{
	const struct enc_out *o = &e->other;

	if (e->side)	/* a sorted object is open: the output before it */
		return o->tail == NULL ? 0 : o->base +
		    (size_t)(o->p - JENC_SEG_DATA(o->tail)) - o->tail->off;
	return enc_held(e);
}

/* Append a fresh segment of at least n bytes as the new tail. */
static int
enc_append_seg(jenc_enc *e, size_t n)
{
	size_t want = n > JENC_SEG_MAX ? n : (n > e->next_cap ? n : e->next_cap);
	jenc_seg *s = e->spare;

	if (s != NULL && s->cap >= want && s->cap <= JENC_SEG_MAX) {
		e->spare = s->next;
		s->next = NULL;
		s->len = s->off = 0;
	} else {
		s = jenc_seg_get(want);
	}

	if (s == NULL)
		return enc_fail(e, JENC_E_NOMEM);
	if (s->cap <= JENC_SEG_MAX) {
		e->next_cap = s->cap * 2;
		if (e->next_cap > JENC_SEG_MAX)
			e->next_cap = JENC_SEG_MAX;
	}
	if (e->tail == NULL) {
		e->head = s;
	} else {
		e->base += e->tail->len - e->tail->off;
		e->tail->next = s;
	}
	e->tail = s;
	enc_set_cursor(e);
	return 0;
}

/* Drop n held bytes from the front (they were written). Tail synced. */
static void
enc_consume(jenc_enc *e, size_t n)
{
	e->committed = e->committed > n ? e->committed - n : 0;
	while (n > 0) {
		jenc_seg *s = e->head;
		size_t avail = s->len - s->off;

		if (n < avail) {
			s->off += n;
			if (s != e->tail)
				e->base -= n;
			return;
		}
		n -= avail;
		if (s == e->tail) {
			s->off = s->len = 0;
			enc_set_cursor(e);
			return;
		}
		e->base -= avail;
		e->head = s->next;
		jenc_seg_put(s);
	}
}

static int
enc_write_iov(jenc_enc *e, struct iovec *iov, int cnt)
{
	if (e->kind == K_SINK) {
		int i;

		for (i = 0; i < cnt; i++)
			if (e->fn(e->ctx, iov[i].iov_base, iov[i].iov_len) != 0)
				return enc_fail(e, JENC_E_SINK);
		return 0;
	}
	if (jenc_io_writev(e->fd, iov, cnt, &e->sys_errno) != 0)
		return enc_fail(e, JENC_E_IO);
	return 0;
}

/* Write the first upto held bytes to the sink.  Tail synced. */
static int
enc_write_out(jenc_enc *e, size_t upto)
{
	/* Part of an unfinished value reaches the sink: jenc_discard says so. */
	if (upto > e->committed && e->depth > 0)
		e->cut = 1;
	while (upto > 0) {
		struct iovec iov[IOV_BATCH];
		size_t batch = 0;
		int cnt = 0;
		jenc_seg *s;

		for (s = e->head; s != NULL && cnt < IOV_BATCH && batch < upto;
		    s = s->next) {
			size_t avail = s->len - s->off, take;

			if (avail == 0)
				continue;
			take = avail < upto - batch ? avail : upto - batch;
			iov[cnt].iov_base = JENC_SEG_DATA(s) + s->off;
			iov[cnt].iov_len = take;
			cnt++;
			batch += take;
		}
		if (enc_write_iov(e, iov, cnt) != 0)
			return e->err;
		enc_consume(e, batch);
		upto -= batch;
	}
	return 0;
}

/* Room for at least n more bytes, writing to the sink as the policy says. */
int
enc_grow(jenc_enc *e, size_t n)
{
	if (e->err)
		return e->err;
	if (e->tail == NULL)
		return enc_append_seg(e, n);
	enc_sync_tail(e);
	if (e->kind != K_MEM) {
		size_t h = enc_held(e);

		if (!(e->flags & JENC_HOLD) || e->cut) {
			if (enc_write_out(e, h) != 0)
				return e->err;
		} else {
			if (e->committed > 0 && enc_write_out(e, e->committed) != 0)
				return e->err;
			if (enc_held(e) + n > e->hold_max) {
				e->cut = 1;
				if (enc_write_out(e, enc_held(e)) != 0)
					return e->err;
			}
		}
		jenc_seg *t = e->tail;
		if (t->len == t->off && e->head == t) {
			if (t->cap >= n && (t->cap >= e->next_cap || n > JENC_SEG_MAX)) {
				t->off = t->len = 0;
				enc_set_cursor(e);
				return 0;
			}
			jenc_seg_put(t);
			e->head = e->tail = NULL;
			e->base = 0;
			return enc_append_seg(e, n);
		}
	}
	return enc_append_seg(e, n);
}

int
enc_put_slow(jenc_enc *e, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = (size_t)(e->end - e->p);

		if (room == 0) {
			if (enc_grow(e, n > JENC_SEG_MAX ? n : 1) != 0)
				return e->err;
			room = (size_t)(e->end - e->p);
		}
		if (room > n)
			room = n;
		memcpy(e->p, s, room);
		e->p += room;
		s += room;
		n -= room;
	}
	return 0;
}

/* enc_put() for the short texts of numbers and literals: up to 32 bytes as
 * words that overlap, with no call. */
static inline int
enc_put_short(jenc_enc *e, const char *s, size_t n)
{
	char *o = e->p;

	if (n > 32 || (size_t)(e->end - o) < 32)
		return enc_put(e, s, n);
	if (n >= 16) {
		char a[16], b[16];

		memcpy(a, s, 16);
		memcpy(b, s + n - 16, 16);
		memcpy(o, a, 16);
		memcpy(o + n - 16, b, 16);
	} else if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(o, &a, 8);
		memcpy(o + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(o, &a, 4);
		memcpy(o + n - 4, &b, 4);
	} else if (n > 0) {
		o[0] = s[0];
		o[n / 2] = s[n / 2];
		o[n - 1] = s[n - 1];
	}
	e->p = o + n;
	return 0;
}

/* Keep the first n held bytes, drop the rest.  Tail synced. */
void
enc_truncate_held(jenc_enc *e, size_t n)
{
	jenc_seg *s = e->head, *rest;

	if (s == NULL)
		return;
	e->base = 0;
	for (;;) {
		size_t avail = s->len - s->off;

		if (n <= avail || s->next == NULL) {
			s->len = s->off + (n < avail ? n : avail);
			break;
		}
		n -= avail;
		e->base += avail;
		s = s->next;
	}
	rest = s->next;
	s->next = NULL;
	jenc_seg_put_list(rest);
	e->tail = s;
	enc_set_cursor(e);
}

/* ---- the encoder pool ------------------------------------------------- */

static pthread_mutex_t enc_lock = PTHREAD_MUTEX_INITIALIZER;
static jenc_enc *enc_free;
static size_t enc_free_count;

/* The public trim: the encoders kept here, then the segment pools. */
void
jenc_pool_trim(void)
{
	jenc_enc *list;

	pthread_mutex_lock(&enc_lock);
	list = enc_free;
	enc_free = NULL;
	enc_free_count = 0;
	pthread_mutex_unlock(&enc_lock);
	while (list != NULL) {
		jenc_enc *next = list->pool_next;

		jenc_mem_free(list, sizeof(*list));
		list = next;
	}
	jenc_seg_trim();
}

static void
enc_state_reset(jenc_enc *e)
{
	enc_clear_err(e);
	e->depth = 0;
	e->st = ST_TOP;
	e->top_done = e->cut = 0;
	e->committed = 0;
	e->split = e->slurp = e->split_out = 0;
}

static jenc_enc *
enc_get(int kind, const jenc_opts *o)
{
	jenc_enc *e;
	unsigned flags = o != NULL ? o->flags : 0;

	pthread_mutex_lock(&enc_lock);
	e = enc_free;
	if (e != NULL) {
		enc_free = e->pool_next;
		enc_free_count--;
	}
	pthread_mutex_unlock(&enc_lock);
	if (e == NULL && (e = jenc_mem_alloc(sizeof(*e))) == NULL)
		return NULL;
	e->p = e->end = NULL;
	e->head = e->tail = e->spare = NULL;
	e->base = 0;
	e->next_cap = JENC_SEG_MIN;
	e->kind = kind;
	e->fd = -1;
	e->fn = NULL;
	e->ctx = NULL;
	e->flags = flags;
	e->indent = o != NULL ? o->indent : 0;
	if (e->indent > 16)
		e->indent = 16;
	e->ichar = ' ';
	if (flags & JENC_TAB) {
		e->indent = 1;
		e->ichar = '\t';
	}
	e->hold_max = o != NULL && o->hold_max ? o->hold_max : HOLD_DEFAULT;
	enc_esc_pick(e);
	e->stack = e->stack_inline;
	e->stack_cap = STACK_INLINE;
	e->pool_next = NULL;
	e->x = e->side = 0;
	e->ibase = (flags & JENC_SLURP) ? 1 : 0;
	e->xroom = 0;
	e->sort = NULL;
	e->view = NULL;
	memset(&e->other, 0, sizeof(e->other));
	e->other.next_cap = JENC_SEG_MIN;
	e->other.kind = K_MEM;
	if (flags & JENC_COLOR) {
		e->x |= X_COLOR;
		/* colors before a value, and before a slurp's '[' */
		e->xroom = 3 * (JENC_COLOR_MAX + 4);
		jenc_pal_init(&e->pal, NULL);
	}
	if (flags & JENC_SORT_KEYS)
		e->x |= X_SORT;
	if (flags & JENC_SPLIT)
		e->x |= X_SPLIT;
	if (flags & JENC_SLURP)
		e->x |= X_SLURP;
	enc_x_sync(e, e->x);
	e->xroom += (size_t)e->ibase * e->indent;
	enc_state_reset(e);
	return e;
}

jenc_enc *
jenc_get_mem(const jenc_opts *opts)
{
	return enc_get(K_MEM, opts);
}

jenc_enc *
jenc_get_fd(int fd, const jenc_opts *opts)
{
	jenc_enc *e = enc_get(K_FD, opts);

	if (e != NULL)
		e->fd = fd;
	return e;
}

jenc_enc *
jenc_get_sink(jenc_sink_fn fn, void *ctx, const jenc_opts *opts)
{
	jenc_enc *e = enc_get(K_SINK, opts);

	if (e != NULL) {
		e->fn = fn;
		e->ctx = ctx;
	}
	return e;
}

int
enc_flush(jenc_enc *e)
{
	if (e->side) {	/* a sorted object is open: write what is before it */
		int rc;

		enc_out_side(e, 0);
		rc = enc_flush(e);
		enc_out_side(e, 1);
		return rc;
	}
	if (e->err)
		return e->err;
	if (e->kind == K_MEM || e->tail == NULL)
		return 0;
	enc_sync_tail(e);
	if ((e->flags & JENC_HOLD) && !e->cut &&
	    enc_held(e) - e->committed <= e->hold_max)
		return enc_write_out(e, e->committed);
	if (e->flags & JENC_HOLD)
		e->cut = 1;
	return enc_write_out(e, enc_held(e));
}

int
jenc_flush(jenc_enc *e)
{
	return enc_flush(e);
}

int
jenc_flush_cb(void *ctx)
{
	return jenc_flush(ctx);
}

int
jenc_release(jenc_enc *e)
{
	int rc;

	if (e == NULL)
		return 0;
	enc_view_release(e);
	rc = e->err;
	if (e->sort != NULL)
		jenc_sort_drop(e, e->sort);
	if (e->kind != K_MEM && e->tail != NULL) {
		enc_sync_tail(e);
		if (rc == 0) {
			rc = enc_write_out(e, enc_held(e));
		} else if (rc != JENC_E_IO && rc != JENC_E_SINK) {
			/* The failed call wrote nothing: the finished values
			 * held are sound, the unfinished one is dropped. */
			enc_clear_err(e);
			(void)enc_write_out(e, e->committed);
		}
	}
	if (rc == 0 && (e->depth > 0 || e->split || e->slurp))
		rc = JENC_E_INCOMPLETE;
	jenc_seg_put_list(e->head);
	jenc_seg_put_list(e->spare);
	e->head = e->tail = e->spare = NULL;
	jenc_seg_put_list(e->other.head);
	jenc_seg_put_list(e->other.spare);
	jenc_sort_free(e->sort);
	e->sort = NULL;
	if (e->stack != e->stack_inline)
		jenc_mem_free(e->stack, e->stack_cap);
	e->stack = e->stack_inline;
	pthread_mutex_lock(&enc_lock);
	if (enc_free_count < ENC_POOL_MAX) {
		e->pool_next = enc_free;
		enc_free = e;
		enc_free_count++;
		e = NULL;
	}
	pthread_mutex_unlock(&enc_lock);
	if (e != NULL)
		jenc_mem_free(e, sizeof(*e));
	return rc;
}

/*
 * Drop every held byte.  The first segment stays; the others (in the order
 * they were filled, so that they come back in the same sizes) are kept as
 * spares until the encoder is released.
 */
static void
enc_drop_held(jenc_enc *e)
{
	if (e->head == NULL)
		return;
	jenc_seg *s = e->head->next, **tailp = &e->spare;

	while (*tailp != NULL)
		tailp = &(*tailp)->next;
	while (s != NULL) {
		jenc_seg *next = s->next;

		s->next = NULL;
		if (s->cap <= JENC_SEG_MAX) {
			*tailp = s;
			tailp = &s->next;
		} else {
			jenc_seg_put(s);	/* never keep a big one */
		}
		s = next;
	}
	e->head->next = NULL;
	/* Grow again in the sizes the spares have. */
	e->next_cap = e->head->cap * 2 > JENC_SEG_MAX ? JENC_SEG_MAX :
	    e->head->cap * 2;
	e->tail = e->head;
	e->tail->off = e->tail->len = 0;
	e->base = 0;
	e->committed = 0;
	enc_set_cursor(e);
}

void
jenc_reset(jenc_enc *e)
{
	if (e->sort != NULL)
		jenc_sort_drop(e, e->sort);
	enc_drop_held(e);
	enc_state_reset(e);
}

char *
jenc_take(jenc_enc *e, size_t *len)
{
	size_t n, at = 0;
	char *out;
	jenc_seg *s;

	if (e->side) {	/* a sorted object is open: the output before it */
		enc_out_side(e, 0);
		out = jenc_take(e, len);
		enc_out_side(e, 1);
		return out;
	}
	n = enc_held(e);
	enc_sync_tail(e);
	out = jenc_mem_alloc(n ? n : 1);
	if (out == NULL) {
		enc_fail(e, JENC_E_NOMEM);
		return NULL;
	}
	for (s = e->head; s != NULL; s = s->next) {
		memcpy(out + at, JENC_SEG_DATA(s) + s->off, s->len - s->off);
		at += s->len - s->off;
	}
	enc_drop_held(e);
	if (len != NULL)
		*len = n;
	return out;
}

void
jenc_free(void *p, size_t len)
{
	jenc_mem_free(p, len ? len : 1);	/* jenc_take's size */
}

const char *
jenc_segments(const jenc_enc *e, size_t *it, size_t *len)
{
	const jenc_seg *s;
	/* a sorted object is open: the output before it */
	const jenc_seg *head = e->side ? e->other.head : e->head;
	const jenc_seg *tail = e->side ? e->other.tail : e->tail;
	const char *cur = e->side ? e->other.p : e->p;

	if (*it == (size_t)-1)
		return NULL;
	s = *it == 0 ? head : (const jenc_seg *)(uintptr_t)*it;
	if (s == NULL) {
		*it = (size_t)-1;
		return NULL;
	}
	*it = s->next != NULL ? (size_t)(uintptr_t)s->next : (size_t)-1;
	*len = (s == tail ? (size_t)(cur - JENC_SEG_DATA(s)) : s->len) - s->off;
	return JENC_SEG_DATA(s) + s->off;
}

int
jenc_discard(jenc_enc *e)
{
	int cut;

	if (e->sort != NULL)
		jenc_sort_drop(e, e->sort);
	cut = e->cut;
	if (e->tail != NULL) {
		enc_sync_tail(e);
		enc_truncate_held(e, e->committed);
	}
	enc_clear_err(e);
	e->depth = 0;
	e->st = ST_TOP;
	e->cut = 0;
	e->split = e->split_out = 0;
	if (cut)	/* a JENC_SLURP array's '[' went out with it */
		e->slurp |= (e->flags & JENC_SLURP) != 0;
	return cut;
}

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

/* enc_newline_indent past its fast path: n spaces or more than fit. */
int __attribute__((noinline))
enc_newline_fill(jenc_enc *e, size_t n)
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
			return enc_top_prefix(e, k);
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
	return enc_fail(e, JENC_E_STATE);
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
	if (enc_colors(e, lw) && enc_paint_after(e) != 0)
		return e->err;
	if (e->depth > 0)
		return 0;
	e->top_done = 1;
	e->split_out = e->split;
	if (e->flags & (JENC_SLURP | JENC_FLUSH_EACH | F_VIEW))
		return enc_top_end(e);
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
		return enc_fail(e, JENC_E_NOMEM);
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
	    lw) != 0 || enc_push(e, (unsigned char)c) != 0 || enc_need(e, 1) != 0)
		return e->err;
	*e->p++ = c;
	e->st = c == '{' ? ST_OBJ_FIRST : ST_ARR_FIRST;
	if (c == '{' && enc_sorting(e, lw))
		return jenc_sort_open(e, &enc_out_ops, &e->sort);
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
			return enc_top_close(e);
		return enc_fail(e, JENC_E_STATE);
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

static ENC_NOINLINE int
enc_begin_lw(jenc_enc *e, char c)
{
	return enc_begin(e, c, LW_LONG);
}

static ENC_NOINLINE int
enc_end_lw(jenc_enc *e, char c)
{
	return enc_end(e, c, LW_LONG);
}

/* An object's '{' and '}' off the plain way: sorted keys alone, or the
 * long way. */
static ENC_NOINLINE int
enc_obj_begin_x(jenc_enc *e)
{
	return e->xv ? enc_begin(e, '{', LW_LONG) : enc_begin(e, '{', LW_SORTED);
}

static ENC_NOINLINE int
enc_obj_end_x(jenc_enc *e)
{
	return e->xv ? enc_end(e, '}', LW_LONG) : enc_end(e, '}', LW_SORTED);
}

int
jenc_obj_begin(jenc_enc *e)
{
	return e->xo ? enc_obj_begin_x(e) : enc_begin(e, '{', LW_PLAIN);
}

int
jenc_arr_begin(jenc_enc *e)
{
	return e->xa ? enc_begin_lw(e, '[') : enc_begin(e, '[', LW_PLAIN);
}

int
jenc_obj_end(jenc_enc *e)
{
	return e->xo ? enc_obj_end_x(e) : enc_end(e, '}', LW_PLAIN);
}

int
jenc_arr_end(jenc_enc *e)
{
	return e->xv ? enc_end_lw(e, ']') : enc_end(e, ']', LW_PLAIN);
}

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
		return enc_fail(e, JENC_E_STATE);
	if (enc_value_sep(e, -1, LW_LONG) != 0)
		return e->err;
	e->st = ST_FRAG;
	e->depth = 1;	/* an unfinished value: enc_write_out and jenc_discard see it */
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
		return enc_fail(e, JENC_E_STATE);
	e->depth = 0;
	e->st = ST_TOP;
	return e->xv ? enc_value_done(e, LW_LONG) :
	    enc_value_done(e, LW_PLAIN);
}

/* ---- output made elsewhere (internal.h), for par.c ----------------------- */

void
jenc_enc_like(const jenc_enc *e, jenc_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->indent = (e->flags & JENC_TAB) ? 0 : e->indent;
	o->flags = e->flags;
	o->hold_max = e->hold_max;
}

void
jenc_enc_pal_copy(jenc_enc *dst, const jenc_enc *src)
{
	dst->pal = src->pal;
}

int
jenc_enc_is_mem(const jenc_enc *e)
{
	return e->kind == K_MEM;
}

int
jenc_out_bytes(jenc_enc *e, const char *s, size_t n)
{
	if (e->err)
		return e->err;
	if (e->st != ST_TOP || e->depth > 0 || e->side)
		return enc_fail(e, JENC_E_STATE);
	if (n == 0)
		return 0;
	e->top_done = 1;
	enc_sync_tail(e);
	if (e->kind != K_MEM && enc_held(e) == 0) {
		struct iovec iov;

		iov.iov_base = (void *)(uintptr_t)s;
		iov.iov_len = n;
		return enc_write_iov(e, &iov, 1);
	}
	if (enc_put(e, s, n) != 0)
		return e->err;
	e->committed = enc_held(e);
	return 0;
}

int
jenc_out_enc(jenc_enc *e, const jenc_enc *from)
{
	struct iovec iov[IOV_BATCH];
	size_t it = 0, len;
	const char *p;
	int cnt = 0;

	if (e->err)
		return e->err;
	if (e->st != ST_TOP || e->depth > 0 || e->side)
		return enc_fail(e, JENC_E_STATE);
	enc_sync_tail(e);
	if (e->kind == K_MEM || enc_held(e) > 0) {
		while ((p = jenc_segments(from, &it, &len)) != NULL)
			if (jenc_out_bytes(e, p, len) != 0)
				return e->err;
		return 0;
	}
	while ((p = jenc_segments(from, &it, &len)) != NULL) {
		if (len == 0)
			continue;
		e->top_done = 1;
		iov[cnt].iov_base = (void *)(uintptr_t)p;
		iov[cnt].iov_len = len;
		if (++cnt == IOV_BATCH) {
			if (enc_write_iov(e, iov, cnt) != 0)
				return e->err;
			cnt = 0;
		}
	}
	return cnt > 0 ? enc_write_iov(e, iov, cnt) : 0;
}

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
	} else if ((o = enc_quoted_fast(e, o, (const unsigned char *)s, len, tab,
	    check)) == NULL) {
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
		return enc_fail(e, JENC_E_STATE);
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
			return enc_fail(e, JENC_E_UTF8);
		e->p = o;
		e->st = ST_OBJ_VAL;
		return 0;
	}
	if (!raw && !enc_text_ok(s, len))
		return enc_fail(e, JENC_E_UTF8);
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
	if (e->indent && enc_newline_indent(e, enc_levels(e, e->depth, lw)) != 0)
		return e->err;
	if (enc_colors(e, lw) && (enc_paint(e, JENC_PAL_RESET) != 0 ||
	    enc_paint(e, JENC_COLOR_KEY) != 0))
		return e->err;
	if (enc_put_string(e, s, len, raw) != 0)
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
	return e->xo ? enc_key_x(e, s, len, 0) : enc_key(e, s, len, 0, LW_PLAIN);
}

int
jenc_raw_key(jenc_enc *e, const char *body, size_t len)
{
	return e->xo ? enc_key_x(e, body, len, 1) : enc_key(e, body, len, 1, LW_PLAIN);
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
		o = enc_quoted_fast(e, e->p, (const unsigned char *)s, len, e->esc,
		    1);
		if (o == NULL) {
			e->p = start;
			e->st = st;
			return enc_fail(e, JENC_E_UTF8);
		}
		e->p = o;
		return enc_value_done(e, lw);
	}
	if (!enc_text_ok(s, len))
		return enc_fail(e, JENC_E_UTF8);
	if (enc_value_prefix(e, JENC_COLOR_STRING, lw) != 0 ||
	    enc_put_string(e, s, len, 0) != 0)
		return e->err;
	return enc_value_done(e, lw);
}

static ENC_NOINLINE int
enc_str_lw(jenc_enc *e, const char *s, size_t len)
{
	return enc_str(e, s, len, LW_LONG);
}

int
jenc_str(jenc_enc *e, const char *s, size_t len)
{
	return e->xv ? enc_str_lw(e, s, len) : enc_str(e, s, len, LW_PLAIN);
}

ENC_EACH_WAY int
enc_raw_str(jenc_enc *e, const char *body, size_t len, int lw)
{
	if (enc_value_prefix(e, JENC_COLOR_STRING, lw) != 0 ||
	    enc_put_string(e, body, len, 1) != 0)
		return e->err;
	return enc_value_done(e, lw);
}

static ENC_NOINLINE int
enc_raw_str_lw(jenc_enc *e, const char *body, size_t len)
{
	return enc_raw_str(e, body, len, LW_LONG);
}

int
jenc_raw_str(jenc_enc *e, const char *body, size_t len)
{
	return e->xv ? enc_raw_str_lw(e, body, len) :
	    enc_raw_str(e, body, len, LW_PLAIN);
}

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
		if (enc_put_string(e, json + 1, len - 2, 1) != 0)
			return e->err;
	} else if (enc_put_short(e, json, len) != 0) {
		return e->err;
	}
	return enc_value_done(e, lw);
}

static ENC_NOINLINE int
enc_raw_lw(jenc_enc *e, const char *json, size_t len)
{
	return enc_raw(e, json, len, LW_LONG);
}

int
jenc_raw(jenc_enc *e, const char *json, size_t len)
{
	return e->xv ? enc_raw_lw(e, json, len) : enc_raw(e, json, len, LW_PLAIN);
}

/* Booleans, null and times: the text t[0..n). */
ENC_EACH_WAY int
enc_scalar(jenc_enc *e, int k, const char *t, size_t n, int lw)
{
	if (enc_value_prefix(e, k, lw) != 0 || enc_put(e, t, n) != 0)
		return e->err;
	return enc_value_done(e, lw);
}

static ENC_NOINLINE int
enc_scalar_lw(jenc_enc *e, int k, const char *t, size_t n)
{
	return enc_scalar(e, k, t, n, LW_LONG);
}

static int
enc_put_scalar(jenc_enc *e, int k, const char *t, size_t n)
{
	return e->xv ? enc_scalar_lw(e, k, t, n) : enc_scalar(e, k, t, n, LW_PLAIN);
}

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

static ENC_NOINLINE int
enc_num_lw(jenc_enc *e, int type, int64_t i, uint64_t u, double d)
{
	return enc_num(e, type, i, u, d, LW_LONG);
}

int
jenc_i64(jenc_enc *e, int64_t v)
{
	return e->xv ? enc_num_lw(e, NUM_I64, v, 0, 0) :
	    enc_num(e, NUM_I64, v, 0, 0, LW_PLAIN);
}

int
jenc_u64(jenc_enc *e, uint64_t v)
{
	return e->xv ? enc_num_lw(e, NUM_U64, 0, v, 0) :
	    enc_num(e, NUM_U64, 0, v, 0, LW_PLAIN);
}

int
jenc_f64(jenc_enc *e, double v)
{
	if (e->err)
		return e->err;
	if (!isfinite(v))
		return enc_fail(e, JENC_E_NUMBER);
	return e->xv ? enc_num_lw(e, NUM_F64, 0, 0, v) :
	    enc_num(e, NUM_F64, 0, 0, v, LW_PLAIN);
}

int
jenc_bool(jenc_enc *e, int v)
{
	return e->xv ? enc_scalar_lw(e, v ? JENC_COLOR_TRUE : JENC_COLOR_FALSE,
	    v ? "true" : "false", v ? 4 : 5) : enc_scalar(e, v ? JENC_COLOR_TRUE :
	    JENC_COLOR_FALSE, v ? "true" : "false", v ? 4 : 5, LW_PLAIN);
}

int
jenc_null(jenc_enc *e)
{
	return e->xv ? enc_scalar_lw(e, JENC_COLOR_NULL, "null", 4) :
	    enc_scalar(e, JENC_COLOR_NULL, "null", 4, LW_PLAIN);
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
		return enc_fail(e, JENC_E_RANGE);
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
	/* Both strings straight into the tail when it has room. */
	if ((e->st == ST_OBJ_FIRST || e->st == ST_OBJ_NEXT) && e->x == 0 &&
	    klen + len >= klen &&
	    enc_str_fits(e, klen + len, enc_sep_max(e, LW_PLAIN) + 2)) {
		char *o = enc_key_out(e, e->p, k, klen, e->esc, 1, LW_PLAIN);

		if (o != NULL)
			o = enc_quoted_fast(e, o, (const unsigned char *)s, len,
			    e->esc, 1);
		if (o == NULL)
			return enc_fail(e, JENC_E_UTF8);
		e->p = o;
		e->st = ST_OBJ_NEXT;
		return 0;
	}
	if (!enc_text_ok(s, len))
		return enc_fail(e, JENC_E_UTF8);
	return jenc_key(e, k, klen) ? e->err : jenc_str(e, s, len);
}

int
jenc_kv_i64(jenc_enc *e, const char *k, size_t klen, int64_t v)
{
	return jenc_key(e, k, klen) ? e->err : jenc_i64(e, v);
}

int
jenc_kv_u64(jenc_enc *e, const char *k, size_t klen, uint64_t v)
{
	return jenc_key(e, k, klen) ? e->err : jenc_u64(e, v);
}

int
jenc_kv_f64(jenc_enc *e, const char *k, size_t klen, double v)
{
	if (e->err)
		return e->err;
	if (!isfinite(v))
		return enc_fail(e, JENC_E_NUMBER);
	return jenc_key(e, k, klen) ? e->err : jenc_f64(e, v);
}

int
jenc_kv_bool(jenc_enc *e, const char *k, size_t klen, int v)
{
	return jenc_key(e, k, klen) ? e->err : jenc_bool(e, v);
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
		return enc_fail(e, JENC_E_RANGE);
	return jenc_key(e, k, klen) ? e->err : jenc_time_utc(e, secs);
}

int
jenc_kv_time_unix(jenc_enc *e, const char *k, size_t klen, int64_t secs)
{
	return jenc_key(e, k, klen) ? e->err : jenc_time_unix(e, secs);
}
