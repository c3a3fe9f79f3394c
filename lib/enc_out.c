/*
 * enc_out.c - the encoder's held output and its life: the segment list,
 * the sink policy (what may be written when: JENC_HOLD, hold_max), the
 * pool of encoders and their calls from jenc_get_* to jenc_release, the
 * sticky error, and output made elsewhere written as the encoder's own.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

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
jenc_enc_fail(jenc_enc *e, int code)
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
		return jenc_enc_fail(e, JENC_E_NOMEM);
	if (s->cap <= JENC_SEG_MAX)
		e->next_cap = enc_next_cap(s->cap);
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
		jenc_seg_release(s);
	}
}

/*
 * A segment larger than JENC_SEG_MAX was made for one large append: once
 * the encoder holds nothing in it, it is freed rather than kept as the
 * tail for the small writes after it.  The encoder then has no segment
 * (as a new one), and its next write takes one of the usual sizes.
 */
static void
enc_drop_big_tail(jenc_enc *e)
{
	jenc_seg *t = e->tail;

	if (t == NULL || t != e->head || t->len != t->off ||
	    t->cap <= JENC_SEG_MAX)
		return;
	jenc_seg_release(t);
	e->head = e->tail = NULL;
	e->p = e->end = NULL;
	e->base = 0;
	e->committed = 0;
}

static int
enc_write_iov(jenc_enc *e, struct iovec *iov, int cnt)
{
	if (e->kind == K_SINK) {
		int i;

		for (i = 0; i < cnt; i++)
			if (e->fn(e->ctx, iov[i].iov_base, iov[i].iov_len) != 0)
				return jenc_enc_fail(e, JENC_E_SINK);
		return 0;
	}
	if (jenc_io_writev(e->fd, iov, cnt, &e->sys_errno) != 0)
		return jenc_enc_fail(e, JENC_E_IO);
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

int
jenc_enc_grow(jenc_enc *e, size_t n)
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
			/* a large append's segment only for another one */
			if (t->cap >= n && (n > JENC_SEG_MAX ||
			    (t->cap >= e->next_cap && t->cap <= JENC_SEG_MAX))) {
				t->off = t->len = 0;
				enc_set_cursor(e);
				return 0;
			}
			jenc_seg_release(t);
			e->head = e->tail = NULL;
			e->base = 0;
			return enc_append_seg(e, n);
		}
	}
	return enc_append_seg(e, n);
}

int
jenc_enc_put_slow(jenc_enc *e, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = (size_t)(e->end - e->p);

		if (room == 0) {
			if (jenc_enc_grow(e, n > JENC_SEG_MAX ? n : 1) != 0)
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

void
jenc_enc_truncate_held(jenc_enc *e, size_t n)
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
enc_get(int kind, int fd, jenc_sink_fn fn, void *ctx, const jenc_opts *o)
{
	static const jenc_opts none;
	jenc_enc *e;
	unsigned flags, x = 0;

	if (o == NULL)
		o = &none;
	flags = o->flags;
	pthread_mutex_lock(&enc_lock);
	e = enc_free;
	if (e != NULL) {
		enc_free = e->pool_next;
		enc_free_count--;
	}
	pthread_mutex_unlock(&enc_lock);
	if (e == NULL && (e = jenc_mem_alloc(sizeof(*e))) == NULL)
		return NULL;
	/* every field not named is 0 or NULL */
	*e = (jenc_enc){
		.next_cap = JENC_SEG_MIN,
		.hold_max = o->hold_max ? o->hold_max : HOLD_DEFAULT,
		.fn = fn,
		.ctx = ctx,
		.kind = kind,
		.fd = fd,
		.flags = flags,
		.indent = (flags & JENC_TAB) ? 1 : o->indent > 16 ? 16 : o->indent,
		.ichar = (flags & JENC_TAB) ? '\t' : ' ',
		.stack_cap = STACK_INLINE,
		.ibase = (flags & JENC_SLURP) ? 1 : 0,
		.other = { .next_cap = JENC_SEG_MIN, .kind = K_MEM },
	};
	e->stack = e->stack_inline;
	jenc_enc_esc_pick(e);
	if (flags & JENC_COLOR) {
		x |= X_COLOR;
		/* colors before a value, and before a slurp's '[' */
		e->xroom = 3 * (JENC_COLOR_MAX + 4);
		jenc_pal_init(&e->pal, NULL);
	}
	if (flags & JENC_SORT_KEYS)
		x |= X_SORT;
	if (flags & JENC_SPLIT)
		x |= X_SPLIT;
	if (flags & JENC_SLURP)
		x |= X_SLURP;
	enc_x_sync(e, x);
	e->xroom += (size_t)e->ibase * e->indent;
	enc_state_reset(e);
	return e;
}

jenc_enc *
jenc_get_mem(const jenc_opts *opts)
{
	return enc_get(K_MEM, -1, NULL, NULL, opts);
}

jenc_enc *
jenc_get_fd(int fd, const jenc_opts *opts)
{
	return enc_get(K_FD, fd, NULL, NULL, opts);
}

jenc_enc *
jenc_get_sink(jenc_sink_fn fn, void *ctx, const jenc_opts *opts)
{
	return enc_get(K_SINK, -1, fn, ctx, opts);
}

int
jenc_enc_flush(jenc_enc *e)
{
	if (e->side) {	/* a sorted object is open: write what is before it */
		int rc;

		jenc_enc_out_side(e, 0);
		rc = jenc_enc_flush(e);
		jenc_enc_out_side(e, 1);
		return rc;
	}
	if (e->err)
		return e->err;
	if (e->kind == K_MEM || e->tail == NULL)
		return 0;
	enc_sync_tail(e);
	if ((e->flags & JENC_HOLD) && !e->cut &&
	    enc_held(e) - e->committed <= e->hold_max) {
		if (enc_write_out(e, e->committed) != 0)
			return e->err;
		enc_drop_big_tail(e);
		return 0;
	}
	if (e->flags & JENC_HOLD)
		e->cut = 1;
	if (enc_write_out(e, enc_held(e)) != 0)
		return e->err;
	enc_drop_big_tail(e);
	return 0;
}

int
jenc_flush(jenc_enc *e)
{
	return jenc_enc_flush(e);
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
	jenc_enc_view_release(e);
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
 * Drop every held byte.  The first segment stays; with keep (jenc_reset)
 * the others, in the order they were filled so that they come back in the
 * same sizes, are kept as spares until the encoder is released; without
 * it (jenc_take, whose caller now holds a copy of them) they go back to
 * the pools, which keep what their bounds allow.
 */
static void
enc_drop_held(jenc_enc *e, int keep)
{
	if (e->head == NULL)
		return;
	jenc_seg *s = e->head->next, **tailp = &e->spare;

	while (*tailp != NULL)
		tailp = &(*tailp)->next;
	while (s != NULL) {
		jenc_seg *next = s->next;

		s->next = NULL;
		if (keep && s->cap <= JENC_SEG_MAX) {
			*tailp = s;
			tailp = &s->next;
		} else {
			jenc_seg_release(s);	/* a big one is never kept */
		}
		s = next;
	}
	e->head->next = NULL;
	/* Grow again in the sizes the spares have. */
	e->next_cap = enc_next_cap(e->head->cap);
	e->tail = e->head;
	e->tail->off = e->tail->len = 0;
	e->base = 0;
	e->committed = 0;
	enc_set_cursor(e);
	enc_drop_big_tail(e);
}

void
jenc_reset(jenc_enc *e)
{
	if (e->sort != NULL)
		jenc_sort_drop(e, e->sort);
	enc_drop_held(e, 1);
	enc_state_reset(e);
}

char *
jenc_take(jenc_enc *e, size_t *len)
{
	size_t n, at = 0;
	char *out;
	jenc_seg *s;

	if (e->side) {	/* a sorted object is open: the output before it */
		jenc_enc_out_side(e, 0);
		out = jenc_take(e, len);
		jenc_enc_out_side(e, 1);
		return out;
	}
	n = enc_held(e);
	enc_sync_tail(e);
	out = jenc_mem_alloc(n ? n : 1);
	if (out == NULL) {
		jenc_enc_fail(e, JENC_E_NOMEM);
		return NULL;
	}
	for (s = e->head; s != NULL; s = s->next) {
		memcpy(out + at, JENC_SEG_DATA(s) + s->off, s->len - s->off);
		at += s->len - s->off;
	}
	enc_drop_held(e, 0);
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
		jenc_enc_truncate_held(e, e->committed);
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
		return jenc_enc_fail(e, JENC_E_STATE);
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
		return jenc_enc_fail(e, JENC_E_STATE);
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
