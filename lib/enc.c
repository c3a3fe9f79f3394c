/*
 * enc.c - the encoder: structure checks, separators and indentation,
 * string escaping, and the segmented output buffer with its sink policy.
 *
 * Held output is the list head..tail of segments; the tail is the one being
 * written, through the cursor p (its len field is synced from p only when
 * the list is walked).  `base` counts the held bytes before the tail.  With
 * JENC_HOLD, `committed` counts the held bytes that belong to complete
 * top-level values: only those reach the sink, unless the value being
 * built grows past hold_max, after which it streams (`cut`).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "scan.h"
#include "seg.h"

enum { K_MEM, K_FD, K_SINK };
enum { ST_TOP, ST_ARR_FIRST, ST_ARR_NEXT, ST_OBJ_FIRST, ST_OBJ_NEXT, ST_OBJ_VAL,
    ST_FRAG };

#define STACK_INLINE 256
#define ENC_POOL_MAX 64
#define HOLD_DEFAULT ((size_t)1 << 20)
#define IOV_BATCH 64
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

struct jenc_enc {
	char *p, *end;		/* cursor and end of the tail segment */
	jenc_seg *head, *tail;
	jenc_seg *spare;	/* emptied by jenc_reset/jenc_take, for reuse */
	size_t base;		/* held bytes in segments before tail */
	size_t committed;	/* JENC_HOLD: held bytes of complete values */
	size_t next_cap;	/* size of the next segment */
	size_t hold_max;
	const unsigned char *esc;    /* escape classes for jenc_str */
	const unsigned char *rawesc; /* for jenc_raw_str, NULL: copy */
	const char *hex;
	jenc_sink_fn fn;
	void *ctx;
	int kind, fd;
	int err, sys_errno;
	unsigned flags, indent, depth;
	char ichar;
	unsigned char st, top_done, cut;
	unsigned char *stack;
	size_t stack_cap;
	jenc_enc *pool_next;
	unsigned char stack_inline[STACK_INLINE];
	/* Colors, sorted keys, split and slurp (see jenc.h).  x says when
	 * calls must take their long way: with any of these, and while err
	 * is set (X_ERR), so that the plain way tests one byte. */
	unsigned char x;	/* X_COLOR X_SORT X_SPLIT X_SLURP X_ERR */
	/* x & X_VALUE, X_OBJECT, X_ARRAY: what each call tests (x_sync) */
	unsigned char xv, xo, xa;
	unsigned char split;	/* JENC_SPLIT: inside the top-level array */
	unsigned char split_out; /* ... and an element of it was written */
	unsigned char slurp;	/* JENC_SLURP: the array's '[' is out */
	unsigned char side;	/* JENC_SORT_KEYS: writing the side buffer */
	unsigned ibase;		/* indentation levels of top-level values */
	size_t xroom;		/* bytes a value's prefix may add: colors,
				 * the indentation of ibase levels */
	struct jenc_sort *sort;
	struct enc_out {	/* the list not being written (out_side) */
		char *p, *end;
		jenc_seg *head, *tail, *spare;
		size_t base, committed, next_cap;
		int kind;
	} other;
	jenc_pal pal;
	/* A view (jenc_set_view): each top-level value goes to it, not out */
	struct enc_view *view;
};

#define X_COLOR 1
#define X_SORT 2
#define X_SPLIT 4
#define X_SLURP 8
#define X_ERR 16
#define X_VIEW 32	/* a view is set */
/* The flag of e->flags that a view sets (internal.h), in the masks the
 * top-level calls test with JENC_SLURP and the others, so that a view
 * costs the output without one nothing. */
#define F_VIEW JENC_VIEW_SET
/* The bits that send each call the long way: a value, an array's end; an
 * object's '{' and '}' and a key; an array's '['. */
#define X_VALUE (X_COLOR | X_SLURP | X_ERR)
#define X_OBJECT (X_VALUE | X_SORT)
#define X_ARRAY (X_VALUE | X_SPLIT)

/* The two ways of a call (see "structure" below): each written once,
 * always inlined so that each way is compiled with its lw constant. */
#define NOINLINE __attribute__((noinline))
#define TWO_WAYS static inline __attribute__((always_inline))

/* ---- escape tables -------------------------------------------------- */

/*
 * A class per byte: 0 copy, 'u' \u00XX, a letter for a short escape (\n),
 * C_DECODE for a non-ASCII lead byte to turn into \uXXXX, C_E2 for the
 * lead byte of U+2028/U+2029.
 * Index: [raw][html][ascii].  The text tables (raw 0: jenc_str, jenc_key)
 * escape as Go 1.22 and later's json.Marshal: \b \f \n \r \t \" \\,
 * \u00XX for the other control bytes, and U+2028 and U+2029 always; the
 * raw tables (jenc_raw_str, jenc_raw_key: JSON copied verbatim) only what
 * JENC_HTML and JENC_ASCII ask for.
 */
#define C_DECODE 1
#define C_E2 2
/* The output calls sort.c reaches through out_ops (defined below). */
static void out_side(jenc_enc *e, int on);
static void out_at(jenc_enc *e, jenc_seg **head, jenc_seg **tail, char **p);
static int out_put(jenc_enc *e, const char *s, size_t n);
static void out_side_clear(jenc_enc *e);
static int out_fail(jenc_enc *e, int code);

static unsigned char esc_tab[2][2][2][256];
static pthread_once_t esc_once = PTHREAD_ONCE_INIT;

static void
esc_init(void)
{
	int raw, html, ascii, c;

	for (raw = 0; raw < 2; raw++)
		for (html = 0; html < 2; html++)
			for (ascii = 0; ascii < 2; ascii++) {
				unsigned char *t = esc_tab[raw][html][ascii];

				for (c = 0; c < 256; c++) {
					unsigned char v = 0;

					if (!raw && c < 0x20)
						v = 'u';
					if (html && (c == '<' || c == '>' || c == '&'))
						v = 'u';
					if (c >= 0x80 && ascii)
						v = C_DECODE;
					else if (c == 0xe2 && (html || !raw))
						v = C_E2;
					t[c] = v;
				}
				if (!raw) {
					t['"'] = '"';
					t['\\'] = '\\';
					t['\n'] = 'n';
					t['\r'] = 'r';
					t['\t'] = 't';
					t['\b'] = 'b';
					t['\f'] = 'f';
				}
			}
}

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

static void
x_sync(jenc_enc *e, unsigned x)
{
	e->x = (unsigned char)x;
	e->xv = (unsigned char)(x & X_VALUE);
	e->xo = (unsigned char)(x & X_OBJECT);
	e->xa = (unsigned char)(x & X_ARRAY);
}

static int
fail(jenc_enc *e, int code)
{
	if (e->err == 0) {
		e->err = code;
		x_sync(e, e->x | X_ERR);
	}
	return e->err;
}

/* The sticky error gone (X_ERR goes with it). */
static void
clear_err(jenc_enc *e)
{
	e->err = e->sys_errno = 0;
	x_sync(e, e->x & ~(unsigned)X_ERR);
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

static void
sync_tail(jenc_enc *e)
{
	if (e->tail != NULL)
		e->tail->len = (size_t)(e->p - JENC_SEG_DATA(e->tail));
}

static size_t
held(const jenc_enc *e)
{
	if (e->tail == NULL)
		return 0;
	return e->base + (size_t)(e->p - JENC_SEG_DATA(e->tail)) - e->tail->off;
}

size_t
jenc_len(const jenc_enc *e)
{
	const struct enc_out *o = &e->other;

	if (e->side)	/* a sorted object is open: the output before it */
		return o->tail == NULL ? 0 : o->base +
		    (size_t)(o->p - JENC_SEG_DATA(o->tail)) - o->tail->off;
	return held(e);
}

static void
set_cursor(jenc_enc *e)
{
	e->p = JENC_SEG_DATA(e->tail) + e->tail->len;
	e->end = JENC_SEG_DATA(e->tail) + e->tail->cap;
}

/* Append a fresh segment of at least n bytes as the new tail. */
static int
append_seg(jenc_enc *e, size_t n)
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
		return fail(e, JENC_E_NOMEM);
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
	set_cursor(e);
	return 0;
}

/* Drop n held bytes from the front (they were written). Tail synced. */
static void
consume(jenc_enc *e, size_t n)
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
			set_cursor(e);
			return;
		}
		e->base -= avail;
		e->head = s->next;
		jenc_seg_put(s);
	}
}

static int
write_iov(jenc_enc *e, struct iovec *iov, int cnt)
{
	if (e->kind == K_SINK) {
		int i;

		for (i = 0; i < cnt; i++)
			if (e->fn(e->ctx, iov[i].iov_base, iov[i].iov_len) != 0)
				return fail(e, JENC_E_SINK);
		return 0;
	}
	if (jenc_io_writev(e->fd, iov, cnt, &e->sys_errno) != 0)
		return fail(e, JENC_E_IO);
	return 0;
}

/* Write the first upto held bytes to the sink.  Tail synced. */
static int
write_out(jenc_enc *e, size_t upto)
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
		if (write_iov(e, iov, cnt) != 0)
			return e->err;
		consume(e, batch);
		upto -= batch;
	}
	return 0;
}

/* Room for at least n more bytes, writing to the sink as the policy says. */
static int
grow(jenc_enc *e, size_t n)
{
	if (e->err)
		return e->err;
	if (e->tail == NULL)
		return append_seg(e, n);
	sync_tail(e);
	if (e->kind != K_MEM) {
		size_t h = held(e);

		if (!(e->flags & JENC_HOLD) || e->cut) {
			if (write_out(e, h) != 0)
				return e->err;
		} else {
			if (e->committed > 0 && write_out(e, e->committed) != 0)
				return e->err;
			if (held(e) + n > e->hold_max) {
				e->cut = 1;
				if (write_out(e, held(e)) != 0)
					return e->err;
			}
		}
		jenc_seg *t = e->tail;
		if (t->len == t->off && e->head == t) {
			if (t->cap >= n && (t->cap >= e->next_cap || n > JENC_SEG_MAX)) {
				t->off = t->len = 0;
				set_cursor(e);
				return 0;
			}
			jenc_seg_put(t);
			e->head = e->tail = NULL;
			e->base = 0;
			return append_seg(e, n);
		}
	}
	return append_seg(e, n);
}

static inline int
need(jenc_enc *e, size_t n)
{
	if ((size_t)(e->end - e->p) >= n)
		return 0;
	return grow(e, n);
}

static int
put_slow(jenc_enc *e, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = (size_t)(e->end - e->p);

		if (room == 0) {
			if (grow(e, n > JENC_SEG_MAX ? n : 1) != 0)
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

static inline int
put(jenc_enc *e, const void *s, size_t n)
{
	if ((size_t)(e->end - e->p) >= n) {
		memcpy(e->p, s, n);
		e->p += n;
		return 0;
	}
	return put_slow(e, s, n);
}

/* put() for the short texts of numbers and literals: up to 32 bytes as
 * words that overlap, with no call. */
static inline int
put_short(jenc_enc *e, const char *s, size_t n)
{
	char *o = e->p;

	if (n > 32 || (size_t)(e->end - o) < 32)
		return put(e, s, n);
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
static void
truncate_held(jenc_enc *e, size_t n)
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
	set_cursor(e);
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
state_reset(jenc_enc *e)
{
	clear_err(e);
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

	pthread_once(&esc_once, esc_init);
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
	e->esc = esc_tab[0][!!(flags & JENC_HTML)][!!(flags & JENC_ASCII)];
	e->rawesc = (flags & (JENC_HTML | JENC_ASCII)) ?
	    esc_tab[1][!!(flags & JENC_HTML)][!!(flags & JENC_ASCII)] : NULL;
	e->hex = (flags & JENC_LOWER_HEX) ? "0123456789abcdef" :
	    "0123456789ABCDEF";
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
	x_sync(e, e->x);
	e->xroom += (size_t)e->ibase * e->indent;
	state_reset(e);
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
jenc_flush(jenc_enc *e)
{
	if (e->side) {	/* a sorted object is open: write what is before it */
		int rc;

		out_side(e, 0);
		rc = jenc_flush(e);
		out_side(e, 1);
		return rc;
	}
	if (e->err)
		return e->err;
	if (e->kind == K_MEM || e->tail == NULL)
		return 0;
	sync_tail(e);
	if ((e->flags & JENC_HOLD) && !e->cut &&
	    held(e) - e->committed <= e->hold_max)
		return write_out(e, e->committed);
	if (e->flags & JENC_HOLD)
		e->cut = 1;
	return write_out(e, held(e));
}

int
jenc_flush_cb(void *ctx)
{
	return jenc_flush(ctx);
}

static void view_release(jenc_enc *e);

int
jenc_release(jenc_enc *e)
{
	int rc;

	if (e == NULL)
		return 0;
	view_release(e);
	rc = e->err;
	if (e->sort != NULL)
		jenc_sort_drop(e, e->sort);
	if (e->kind != K_MEM && e->tail != NULL) {
		sync_tail(e);
		if (rc == 0) {
			rc = write_out(e, held(e));
		} else if (rc != JENC_E_IO && rc != JENC_E_SINK) {
			/* The failed call wrote nothing: the finished values
			 * held are sound, the unfinished one is dropped. */
			clear_err(e);
			(void)write_out(e, e->committed);
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
drop_held(jenc_enc *e)
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
	set_cursor(e);
}

void
jenc_reset(jenc_enc *e)
{
	if (e->sort != NULL)
		jenc_sort_drop(e, e->sort);
	drop_held(e);
	state_reset(e);
}

char *
jenc_take(jenc_enc *e, size_t *len)
{
	size_t n, at = 0;
	char *out;
	jenc_seg *s;

	if (e->side) {	/* a sorted object is open: the output before it */
		out_side(e, 0);
		out = jenc_take(e, len);
		out_side(e, 1);
		return out;
	}
	n = held(e);
	sync_tail(e);
	out = jenc_mem_alloc(n ? n : 1);
	if (out == NULL) {
		fail(e, JENC_E_NOMEM);
		return NULL;
	}
	for (s = e->head; s != NULL; s = s->next) {
		memcpy(out + at, JENC_SEG_DATA(s) + s->off, s->len - s->off);
		at += s->len - s->off;
	}
	drop_held(e);
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
		sync_tail(e);
		truncate_held(e, e->committed);
	}
	clear_err(e);
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
 * for them only in objects; the other ways are out of line (NOINLINE),
 * so that they add nothing to the plain way's registers either.
 */

/* The ways (lw).  LW_SORTED is the plain way with sorted keys on: for
 * '{', '}' and keys while JENC_SORT_KEYS is the only bit they test. */
enum { LW_PLAIN, LW_LONG, LW_SORTED };

/* 1 if colors are on, on way lw. */
static inline int
colors(const jenc_enc *e, int lw)
{
	return lw == LW_LONG && (e->x & X_COLOR);
}

/* 1 if keys are sorted on way lw. */
static inline int
sorting(const jenc_enc *e, int lw)
{
	return lw == LW_SORTED || (lw == LW_LONG && (e->x & X_SORT));
}

/* Indentation levels of a value at depth: with JENC_SLURP (long way
 * only) the top-level values are one level in. */
static inline size_t
levels(const jenc_enc *e, unsigned depth, int lw)
{
	return lw == LW_LONG ? (size_t)depth + e->ibase : depth;
}

/* newline_indent past its fast path: n spaces or more than fit. */
static int __attribute__((noinline))
newline_fill(jenc_enc *e, size_t n)
{
	char fill[256];

	if (n < 1024) {
		if (need(e, n + 1) != 0)
			return e->err;
		*e->p++ = '\n';
		memset(e->p, e->ichar, n);
		e->p += n;
		return 0;
	}
	memset(fill, e->ichar, sizeof(fill));
	if (put(e, "\n", 1) != 0)
		return e->err;
	while (n > 0) {
		size_t k = n < sizeof(fill) ? n : sizeof(fill);

		if (put(e, fill, k) != 0)
			return e->err;
		n -= k;
	}
	return 0;
}

/*
 * A newline and the indentation of lv levels.  The usual case, under 64
 * bytes with 64 free in the segment, is one fixed-size fill, which the
 * compiler writes with a few stores instead of calling memset: the calls
 * took 3% of indented output's time on the 50 MB document.
 */
static inline int
newline_indent(jenc_enc *e, size_t lv)
{
	size_t n = lv * e->indent;

	if (n < 64 && (size_t)(e->end - e->p) >= 64) {
		*e->p = '\n';
		memset(e->p + 1, e->ichar, 63);
		e->p += n + 1;
		return 0;
	}
	return newline_fill(e, n);
}

static int top_prefix(jenc_enc *e, int k);
static int paint(jenc_enc *e, int k);

/* Separators before a value of kind k (JENC_COLOR_*, -1 unknown); checks
 * that a value may come here. */
static inline int
value_sep(jenc_enc *e, int k, int lw)
{
	if (lw == LW_LONG && e->err)
		return e->err;
	switch (e->st) {
	case ST_TOP:
		if (e->flags & (JENC_NO_NEWLINE | JENC_SEQ | JENC_SLURP |
		    F_VIEW))
			return top_prefix(e, k);
		return 0;
	case ST_ARR_FIRST:
		e->st = ST_ARR_NEXT;
		return e->indent ?
		    newline_indent(e, levels(e, e->depth, lw)) : 0;
	case ST_ARR_NEXT:
		if (need(e, 1) != 0)
			return e->err;
		*e->p++ = ',';
		return e->indent ?
		    newline_indent(e, levels(e, e->depth, lw)) : 0;
	case ST_OBJ_VAL:
		e->st = ST_OBJ_NEXT;
		return 0;
	}
	return fail(e, JENC_E_STATE);
}

/* The separators, then with JENC_COLOR the color of a value of kind k
 * (JENC_COLOR_*). */
static inline int
value_prefix(jenc_enc *e, int k, int lw)
{
	if (value_sep(e, k, lw) != 0)
		return e->err;
	return colors(e, lw) ? paint(e, k) : 0;
}

static int paint_after(jenc_enc *e);
static int top_end(jenc_enc *e);

/* After a complete value: at top level, the newline and the commit point. */
static inline int
value_done(jenc_enc *e, int lw)
{
	if (colors(e, lw) && paint_after(e) != 0)
		return e->err;
	if (e->depth > 0)
		return 0;
	e->top_done = 1;
	e->split_out = e->split;
	if (e->flags & (JENC_SLURP | JENC_FLUSH_EACH | F_VIEW))
		return top_end(e);
	if (!(e->flags & JENC_NO_NEWLINE)) {
		if (need(e, 1) != 0)
			return e->err;
		*e->p++ = '\n';
	}
	e->committed = held(e);
	e->cut = 0;
	return 0;
}

/* A full stack doubled. */
static int
push_grow(jenc_enc *e)
{
	size_t ncap = e->stack_cap * 2;
	unsigned char *ns = jenc_mem_alloc(ncap);

	if (ns == NULL)
		return fail(e, JENC_E_NOMEM);
	memcpy(ns, e->stack, e->stack_cap);
	if (e->stack != e->stack_inline)
		jenc_mem_free(e->stack, e->stack_cap);
	e->stack = ns;
	e->stack_cap = ncap;
	return 0;
}

static inline int
push(jenc_enc *e, unsigned char c)
{
	if (e->depth == e->stack_cap && push_grow(e) != 0)
		return e->err;
	e->stack[e->depth++] = c;
	return 0;
}

/* The encoder's output as sort.c sees it (internal.h: jenc_out_ops). */
static const jenc_out_ops out_ops = {
	out_side, out_at, out_put, out_side_clear, out_fail, jenc_error,
};

/* Inline in the four calls, so that c is a constant in each. */
TWO_WAYS int
begin(jenc_enc *e, char c, int lw)
{
	if (lw == LW_LONG && c == '[' && e->st == ST_TOP && (e->x & X_SPLIT) &&
	    !e->split && e->err == 0) {
		e->split = 1;	/* its elements are the top-level values */
		e->split_out = 0;
		return 0;
	}
	if (value_prefix(e, c == '{' ? JENC_COLOR_OBJECT : JENC_COLOR_ARRAY,
	    lw) != 0 || push(e, (unsigned char)c) != 0 || need(e, 1) != 0)
		return e->err;
	*e->p++ = c;
	e->st = c == '{' ? ST_OBJ_FIRST : ST_ARR_FIRST;
	if (c == '{' && sorting(e, lw))
		return jenc_sort_open(e, &out_ops, &e->sort);
	return 0;
}

static int top_close(jenc_enc *e);

/* Before a closing bracket, the long way: sorted keys, colors. */
static int
end_x(jenc_enc *e, char c, int first)
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
	    newline_indent(e, levels(e, e->depth - 1, LW_LONG)) != 0)
		return e->err;
	if (e->x & X_COLOR)
		return paint(e, c == '}' ? JENC_COLOR_OBJECT : JENC_COLOR_ARRAY);
	return 0;
}

TWO_WAYS int
end(jenc_enc *e, char c, int lw)
{
	int first = c == '}' ? ST_OBJ_FIRST : ST_ARR_FIRST;

	if (lw == LW_LONG && e->err)
		return e->err;
	if (e->st != first && e->st != first + 1) {
		if (e->st == ST_TOP && c == ']')
			return top_close(e);
		return fail(e, JENC_E_STATE);
	}
	if (lw != LW_PLAIN) {
		if (end_x(e, c, first) != 0)
			return e->err;
	} else if (e->st == first + 1 && e->indent &&
	    newline_indent(e, e->depth - 1) != 0) {
		return e->err;
	}
	if (need(e, 1) != 0)
		return e->err;
	*e->p++ = c;
	e->depth--;
	if (e->depth == 0)
		e->st = ST_TOP;
	else
		e->st = e->stack[e->depth - 1] == '{' ? ST_OBJ_NEXT : ST_ARR_NEXT;
	return value_done(e, lw);
}

static NOINLINE int
begin_lw(jenc_enc *e, char c)
{
	return begin(e, c, LW_LONG);
}

static NOINLINE int
end_lw(jenc_enc *e, char c)
{
	return end(e, c, LW_LONG);
}

/* An object's '{' and '}' off the plain way: sorted keys alone, or the
 * long way. */
static NOINLINE int
obj_begin_x(jenc_enc *e)
{
	return e->xv ? begin(e, '{', LW_LONG) : begin(e, '{', LW_SORTED);
}

static NOINLINE int
obj_end_x(jenc_enc *e)
{
	return e->xv ? end(e, '}', LW_LONG) : end(e, '}', LW_SORTED);
}

int
jenc_obj_begin(jenc_enc *e)
{
	return e->xo ? obj_begin_x(e) : begin(e, '{', LW_PLAIN);
}

int
jenc_arr_begin(jenc_enc *e)
{
	return e->xa ? begin_lw(e, '[') : begin(e, '[', LW_PLAIN);
}

int
jenc_obj_end(jenc_enc *e)
{
	return e->xo ? obj_end_x(e) : end(e, '}', LW_PLAIN);
}

int
jenc_arr_end(jenc_enc *e)
{
	return e->xv ? end_lw(e, ']') : end(e, ']', LW_PLAIN);
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
		return fail(e, JENC_E_STATE);
	if (value_sep(e, -1, LW_LONG) != 0)
		return e->err;
	e->st = ST_FRAG;
	e->depth = 1;	/* an unfinished value: write_out and discard see it */
	return 0;
}

int
jenc_frag(jenc_enc *e, const char *s, size_t n)
{
	if (e->err)
		return e->err;
	return put(e, s, n);
}

int
jenc_frag_end(jenc_enc *e)
{
	if (e->err)
		return e->err;
	if (e->st != ST_FRAG)
		return fail(e, JENC_E_STATE);
	e->depth = 0;
	e->st = ST_TOP;
	return e->xv ? value_done(e, LW_LONG) :
	    value_done(e, LW_PLAIN);
}

/* ---- colors, split, slurp, and the side buffer ---------------------------- */

static int
paint(jenc_enc *e, int k)
{
	return put(e, e->pal.esc[k], e->pal.len[k]);
}

/* JENC_COLOR: after a value, the reset and the color of its container. */
static int
paint_after(jenc_enc *e)
{
	if (paint(e, JENC_PAL_RESET) != 0)
		return e->err;
	if (e->depth > 0)
		return paint(e, e->stack[e->depth - 1] == '{' ?
		    JENC_COLOR_OBJECT : JENC_COLOR_ARRAY);
	if (e->flags & JENC_SLURP)
		return paint(e, JENC_COLOR_ARRAY);
	return 0;
}

static int
put_rs(jenc_enc *e)
{
	return (e->flags & JENC_SEQ) ? put(e, "\x1e", 1) : 0;
}

static int view_begin(jenc_enc *e, int k);
static int view_end(jenc_enc *e);
static int view_text(jenc_enc *e, const char *s, size_t n);

/* Before a top-level value of kind k, with JENC_NO_NEWLINE, JENC_SEQ,
 * JENC_SLURP or a view. */
static int
top_prefix(jenc_enc *e, int k)
{
	if (e->flags & F_VIEW)
		return view_begin(e, k);
	if (!(e->flags & JENC_SLURP)) {
		if (e->top_done && (e->flags & JENC_NO_NEWLINE))
			return fail(e, JENC_E_SECOND);
		return put_rs(e);
	}
	if (e->slurp) {
		if (put(e, ",", 1) != 0)
			return e->err;
	} else {
		if (e->top_done && (e->flags & JENC_NO_NEWLINE))
			return fail(e, JENC_E_SECOND);
		if (put_rs(e) != 0 || ((e->x & X_COLOR) &&
		    paint(e, JENC_COLOR_ARRAY) != 0) || put(e, "[", 1) != 0)
			return e->err;
	}
	return e->indent ? newline_indent(e, levels(e, 0, LW_LONG)) : 0;
}

/* The commit point of a top-level value, with JENC_SLURP (an element:
 * no newline) or JENC_FLUSH_EACH. */
static int
top_end(jenc_enc *e)
{
	if ((e->flags & F_VIEW) && view_end(e) != 0)
		return e->err;
	if (!(e->flags & (JENC_SLURP | JENC_NO_NEWLINE | F_VIEW)) &&
	    put(e, "\n", 1) != 0)
		return e->err;
	e->committed = held(e);
	e->cut = 0;
	if (e->flags & JENC_SLURP)
		e->slurp = 1;
	return (e->flags & JENC_FLUSH_EACH) ? jenc_flush(e) : 0;
}

/* jenc_arr_end at top level: the end of a JENC_SPLIT or JENC_SLURP array. */
static int
top_close(jenc_enc *e)
{
	if (e->split) {
		e->split = 0;
		return 0;
	}
	if (!(e->flags & JENC_SLURP))
		return fail(e, JENC_E_STATE);
	if (!e->slurp) {
		if (e->top_done && (e->flags & JENC_NO_NEWLINE))
			return fail(e, JENC_E_SECOND);
		if (put_rs(e) != 0 || ((e->x & X_COLOR) &&
		    paint(e, JENC_COLOR_ARRAY) != 0) || put(e, "[]", 2) != 0)
			return e->err;
	} else {
		if ((e->indent && put(e, "\n", 1) != 0) || ((e->x & X_COLOR) &&
		    paint(e, JENC_COLOR_ARRAY) != 0) || put(e, "]", 1) != 0)
			return e->err;
	}
	if ((e->x & X_COLOR) && paint(e, JENC_PAL_RESET) != 0)
		return e->err;
	if (!(e->flags & JENC_NO_NEWLINE) && put(e, "\n", 1) != 0)
		return e->err;
	e->slurp = 0;
	e->top_done = 1;
	e->committed = held(e);
	e->cut = 0;
	return (e->flags & JENC_FLUSH_EACH) ? jenc_flush(e) : 0;
}

static inline int
raw_kind(const char *json)
{
	switch (json[0]) {
	case '"': return JENC_COLOR_STRING;
	case 't': return JENC_COLOR_TRUE;
	case 'f': return JENC_COLOR_FALSE;
	case 'n': return JENC_COLOR_NULL;
	}
	return JENC_COLOR_NUMBER;
}

static void
out_side(jenc_enc *e, int on)
{
	struct enc_out t;

	if (e->side == on)
		return;
	sync_tail(e);
	t.p = e->p;
	t.end = e->end;
	t.head = e->head;
	t.tail = e->tail;
	t.spare = e->spare;
	t.base = e->base;
	t.committed = e->committed;
	t.next_cap = e->next_cap;
	t.kind = e->kind;
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
out_at(jenc_enc *e, jenc_seg **head, jenc_seg **tail, char **p)
{
	sync_tail(e);
	*head = e->head;
	*tail = e->tail;
	*p = e->p;
}

void
jenc_set_colors(jenc_enc *e, const jenc_colors *c)
{
	jenc_pal_init(&e->pal, c);
}

static int
out_put(jenc_enc *e, const char *s, size_t n)
{
	return put(e, s, n);
}

static int
out_fail(jenc_enc *e, int code)
{
	return fail(e, code);
}

static void
out_side_clear(jenc_enc *e)
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
		jenc_seg_put(h);
		o->head = o->tail = NULL;
		o->p = o->end = NULL;
		o->next_cap = JENC_SEG_MIN;
		return;
	}
	h->len = h->off = 0;
	o->tail = h;
	o->p = JENC_SEG_DATA(h);
	o->end = o->p + h->cap;
	o->next_cap = h->cap * 2 > JENC_SEG_MAX ? JENC_SEG_MAX : h->cap * 2;
}

/* ---- views (jenc.h) ----------------------------------------------------- */

/*
 * A view takes each top-level value as its compact text.  The value is
 * written into the held output as any other (with JENC_HOLD and no
 * hold_max, so that none of it is written before it is complete), then
 * copied into vbuf, a buffer of the encoder that grows to the longest
 * value and is kept until jenc_release, and dropped from the output;
 * what the view writes takes its place.  The copy costs a memcpy of the
 * value, and lets the view write into the same segments while it reads.
 */
struct enc_view {
	jenc_view v;
	char *buf;		/* the value's text, cap bytes */
	size_t cap;
	int at_start;		/* the error was found at the value's start */
	int kind;		/* its JENC_K_* */
	int in_call;		/* inside one of v's calls */
	char msg[128];		/* the view's error (JENC_E_SYNTAX) */
};

int
jenc_set_view(jenc_enc *e, const jenc_view *v)
{
	if (e->err)
		return e->err;
	if (e->st != ST_TOP || e->depth > 0 || e->split || e->slurp ||
	    e->view != NULL || held(e) > 0 || e->side || v == NULL ||
	    v->value == NULL)
		return fail(e, JENC_E_STATE);
	if ((e->view = jenc_mem_alloc(sizeof(*e->view))) == NULL)
		return fail(e, JENC_E_NOMEM);
	memset(e->view, 0, sizeof(*e->view));
	e->view->v = *v;
	/* compact, held whole, no separators of its own */
	e->flags &= ~(unsigned)(JENC_SLURP | JENC_SEQ | JENC_NO_NEWLINE |
	    JENC_COLOR);
	e->flags |= JENC_HOLD | F_VIEW;
	e->hold_max = (size_t)-1;
	e->indent = 0;
	e->ibase = 0;
	e->xroom = 0;
	x_sync(e, (e->x & ~(unsigned)(X_COLOR | X_SLURP)) | X_VIEW);
	return 0;
}

int
jenc_view_write(jenc_enc *e, const char *p, size_t n)
{
	if (e->err)
		return e->err;
	if (e->view == NULL || !e->view->in_call)
		return fail(e, JENC_E_STATE);
	return n > 0 ? put(e, p, n) : 0;
}

int
jenc_view_reject(jenc_enc *e, const char *msg)
{
	if (e->view == NULL || !e->view->in_call)
		return fail(e, JENC_E_STATE);
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
view_done(jenc_enc *e, size_t start, int rc)
{
	e->view->in_call = 0;
	if (rc == 0 || e->err)
		return rc != 0 ? rc : e->err;
	sync_tail(e);
	truncate_held(e, start);
	e->view->at_start = 0;
	return fail(e, rc);
}

/* A top-level value of kind k begins (-1: fragments, told at the end). */
static int
view_begin(jenc_enc *e, int k)
{
	if ((e->view->v.flags & JENC_VIEW_RECORDS) && k != JENC_COLOR_OBJECT &&
	    k != -1) {
		snprintf(e->view->msg, sizeof(e->view->msg),
		    "expected an object as a record");
		e->view->at_start = 1;
		e->view->kind = JENC_K_RECORD;
		return fail(e, JENC_E_SYNTAX);
	}
	return 0;
}

/* A top-level value is complete: held from committed on. */
static int
view_end(jenc_enc *e)
{
	struct enc_view *w = e->view;
	size_t start = e->committed, n, at = 0;
	jenc_seg *s;

	sync_tail(e);
	n = held(e) - start;
	if (n > w->cap) {
		/* (not jenc_grow: the old text need not be copied) */
		size_t cap = jenc_grow_cap(w->cap, n, 256, 1);
		char *b;

		if (cap == 0 || (b = jenc_mem_alloc(cap)) == NULL)
			return fail(e, JENC_E_NOMEM);
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
	truncate_held(e, start);
	if ((w->v.flags & JENC_VIEW_RECORDS) && (n == 0 || w->buf[0] != '{')) {
		/* fragments (jenc_verbatim): only the text tells */
		snprintf(w->msg, sizeof(w->msg), "expected an object as a "
		    "record, found %s", n > 0 && w->buf[0] == '[' ? "an array" :
		    "a value");
		w->at_start = 0;
		w->kind = JENC_K_RECORD;
		return fail(e, JENC_E_SYNTAX);
	}
	w->in_call = 1;
	return view_done(e, start, w->v.value(w->v.ctx, e, w->buf, n));
}

/* Text passed through at top level goes to the view's text call. */
static int
view_text(jenc_enc *e, const char *s, size_t n)
{
	struct enc_view *w = e->view;
	size_t start;

	sync_tail(e);
	start = held(e);
	if (w->v.text != NULL) {
		w->in_call = 1;
		if (view_done(e, start, w->v.text(w->v.ctx, e, s, n)) != 0)
			return e->err;
	}
	e->committed = held(e);
	e->cut = 0;
	return 0;
}

const jenc_view *
jenc_enc_view(const jenc_enc *e)
{
	return e->view != NULL ? &e->view->v : NULL;
}

/* At jenc_release: the view's end call, then the view is gone. */
static void
view_release(jenc_enc *e)
{
	struct enc_view *w = e->view;

	if (w == NULL)
		return;
	if (e->err == 0 && e->depth == 0 && !e->split && w->v.end != NULL) {
		size_t start;

		sync_tail(e);
		start = held(e);
		w->in_call = 1;
		(void)view_done(e, start, w->v.end(w->v.ctx, e));
	}
	jenc_mem_free(w->buf, w->cap);
	jenc_mem_free(w, sizeof(*w));
	e->view = NULL;
}

/* ---- text passed through (internal.h) ----------------------------------- */

int
jenc_passthru(jenc_enc *e, const char *s, size_t n)
{
	if (e->err)
		return e->err;
	if (e->st != ST_TOP || e->depth > 0)
		return fail(e, JENC_E_STATE);
	if (e->view != NULL)
		return view_text(e, s, n);
	/* bad text is a text of its own; a cut value's newline is not */
	if (n > 0 && !(n == 1 && s[0] == '\n') && put_rs(e) != 0)
		return e->err;
	if (n > 0 && put(e, s, n) != 0)
		return e->err;
	e->committed = held(e);	/* complete, as a value is */
	e->cut = 0;
	return 0;
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
		return fail(e, JENC_E_STATE);
	if (n == 0)
		return 0;
	e->top_done = 1;
	sync_tail(e);
	if (e->kind != K_MEM && held(e) == 0) {
		struct iovec iov;

		iov.iov_base = (void *)(uintptr_t)s;
		iov.iov_len = n;
		return write_iov(e, &iov, 1);
	}
	if (put(e, s, n) != 0)
		return e->err;
	e->committed = held(e);
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
		return fail(e, JENC_E_STATE);
	sync_tail(e);
	if (e->kind == K_MEM || held(e) > 0) {
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
			if (write_iov(e, iov, cnt) != 0)
				return e->err;
			cnt = 0;
		}
	}
	return cnt > 0 ? write_iov(e, iov, cnt) : 0;
}

/* ---- strings -------------------------------------------------------------- */

/*
 * Strings go one of two ways.  When the tail segment has room for the
 * worst case (STR_WORST output bytes per input byte, \u00XX), quoted()
 * escapes, and for text checks UTF-8, in one pass straight into the
 * segment; a string found invalid is dropped by not moving e->p, so the
 * failed call still writes nothing.  Otherwise the string is checked
 * first (text_ok) and written through put() across segments
 * (put_escaped).  Both write the same bytes.
 */
#define STR_WORST 6

static char *
u_esc(char *o, unsigned cp, const char *hex)
{
	o[0] = '\\';
	o[1] = 'u';
	o[2] = hex[(cp >> 12) & 15];
	o[3] = hex[(cp >> 8) & 15];
	o[4] = hex[(cp >> 4) & 15];
	o[5] = hex[cp & 15];
	return o + 6;
}

static int
put_u(jenc_enc *e, unsigned cp)
{
	if (need(e, 6) != 0)
		return e->err;
	e->p = u_esc(e->p, cp, e->hex);
	return 0;
}

/*
 * Stop bytes of 8 bytes in w: a high bit in each byte that may need
 * escaping or checking (below 0x20, '"', '\\', 0x80 and up, and with html
 * '<', '>', '&').  Borrows start only at stop bytes and only reach more
 * significant bytes: the mask is 0 exactly when there is none, and its
 * least significant bit is exact; the ones above it may be false.
 */
static inline uint64_t
stops8(uint64_t w, int html)
{
	uint64_t t = (w - ONES * 0x20) | ((w ^ (ONES * '"')) - ONES) |
	    ((w ^ (ONES * '\\')) - ONES);

	if (html)
		t |= ((w ^ (ONES * '<')) - ONES) | ((w ^ (ONES * '>')) - ONES) |
		    ((w ^ (ONES * '&')) - ONES);
	return ((t & ~w) | w) & HIGHS;
}

#ifndef __SSE2__
/* Index of the first stop byte of the 8 bytes at p, or 8 if none. */
static inline unsigned
first_stop(const unsigned char *p, int html)
{
	uint64_t w, m;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	/* borrows must run toward later bytes */
	w = __builtin_bswap64(w);
#endif
	m = stops8(w, html);
	return m != 0 ? (unsigned)__builtin_ctzll(m) / 8 : 8;
}
#else
/* The same for 16 bytes, as a bit mask (bit i: byte i). */
static inline unsigned
stops16(__m128i v, int html)
{
	/* signed: below 0x20, or 0x80 and up */
	__m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
	    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));

	if (html)
		m = _mm_or_si128(m, _mm_or_si128(
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('<')),
		    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('&')))));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/*
 * quoted - s[0..n) as a quoted JSON string at o, escaped per tab; with
 * check, s must be valid UTF-8 (NUL allowed).  o must have room for
 * STR_WORST * n + 2 bytes.  Returns the end of the output, or NULL if check
 * found s invalid.
 *
 * The hot loop stores 32 or 16 input bytes (SSE2; 16 with NEON, whose
 * stops are scan.h's candidates; else 8) at o before it looks at them
 * and keeps them only up to the first stop byte; a short rest is tested
 * as two overlapping words.  The room needed for this is within the
 * worst case: a store of k bytes is made only while k input bytes are
 * left.
 *
 * With check, the UTF-8 check is made here, in the escaping pass, not by
 * scan.h's scan_text_bad first: a second pass over the string would cost
 * what the copy costs, and the stops are the same bytes.
 */
static char *
quoted(const jenc_enc *e, char *o, const unsigned char *s, size_t n,
    const unsigned char *tab, int check)
{
	int html = (e->flags & JENC_HTML) != 0;
	size_t i = 0;

	*o++ = '"';
	for (;;) {
		size_t rem;

#ifdef __SSE2__
		while (n - i >= 32) {
			const void *in = s + i;
			__m128i v = _mm_loadu_si128((const __m128i *)in);
			__m128i w = _mm_loadu_si128((const __m128i *)in + 1);
			uint32_t m;

			_mm_storeu_si128((__m128i *)(void *)o, v);
			_mm_storeu_si128((__m128i *)(void *)o + 1, w);
			m = stops16(v, html) | (uint32_t)stops16(w, html) << 16;
			if (m != 0) {
				unsigned k = (unsigned)__builtin_ctz(m);

				i += k;
				o += k;
				goto stop;
			}
			i += 32;
			o += 32;
		}
		if (n - i >= 16) {
			const void *in = s + i;
			__m128i v = _mm_loadu_si128((const __m128i *)in);
			unsigned m;

			_mm_storeu_si128((__m128i *)(void *)o, v);
			m = stops16(v, html);
			if (m != 0) {
				unsigned k = (unsigned)__builtin_ctz(m);

				i += k;
				o += k;
				goto stop;
			}
			i += 16;
			o += 16;
		}
#elif defined(SCAN_NEON)
		while (n - i >= 16) {
			uint64_t m;

			memcpy(o, s + i, 16);
			m = scan_cand16(s + i, '"', '\\', '\\');
			if (html)
				m |= scan_cand16(s + i, '<', '>', '&');
			if (m != 0) {
				unsigned k = (unsigned)(__builtin_ctzll(m) >>
				    SCAN_SH);

				i += k;
				o += k;
				goto stop;
			}
			i += 16;
			o += 16;
		}
#else
		while (n - i >= 8) {
			unsigned k;

			memcpy(o, s + i, 8);
			k = first_stop(s + i, html);
			if (k < 8) {
				i += k;
				o += k;
				goto stop;
			}
			i += 8;
			o += 8;
		}
#endif
		rem = n - i;
		if (rem >= 8) {
			uint64_t a, b;

			memcpy(&a, s + i, 8);
			memcpy(&b, s + n - 8, 8);
			if ((stops8(a, html) | stops8(b, html)) == 0) {
				memcpy(o, &a, 8);
				memcpy(o + rem - 8, &b, 8);
				o += rem;
				break;
			}
		} else if (rem >= 4) {
			uint32_t a, b;

			memcpy(&a, s + i, 4);
			memcpy(&b, s + n - 4, 4);
			if (stops8((uint64_t)a << 32 | b, html) == 0) {
				memcpy(o, &a, 4);
				memcpy(o + rem - 4, &b, 4);
				o += rem;
				break;
			}
		}
		while (i < n && tab[s[i]] == 0 && (s[i] < 0x80 || !check))
			*o++ = (char)s[i++];
		if (i == n)
			break;
stop:;
		unsigned char c = s[i], cls = tab[c];
		uint32_t cp = 0;
		size_t k;

		switch (cls) {
		case 0:
			if (c < 0x80 || !check) {
				*o++ = (char)c;
				i++;
				break;
			}
			/* a run of non-ASCII text, checked */
			do {
				k = jenc_utf8_seq(s + i, n - i, &cp);
				if (k == 0)
					return NULL;
				do
					*o++ = (char)s[i++];
				while (--k > 0);
			} while (i < n && s[i] >= 0x80 && tab[s[i]] == 0);
			break;
		case C_DECODE:
			k = jenc_utf8_seq(s + i, n - i, &cp);
			if (k == 0) {
				if (check)
					return NULL;
				k = 1;
				cp = 0xfffd;
			}
			if (cp >= 0x10000) {
				cp -= 0x10000;
				o = u_esc(o, 0xd800 + (cp >> 10), e->hex);
				o = u_esc(o, 0xdc00 + (cp & 0x3ff), e->hex);
			} else {
				o = u_esc(o, cp, e->hex);
			}
			i += k;
			break;
		case C_E2:
			if (check) {
				k = jenc_utf8_seq(s + i, n - i, &cp);
				if (k == 0)
					return NULL;
				if (cp == 0x2028 || cp == 0x2029) {
					o = u_esc(o, cp, e->hex);
					i += k;
				} else {
					do
						*o++ = (char)s[i++];
					while (--k > 0);
				}
			} else if (i + 2 < n && s[i + 1] == 0x80 &&
			    (s[i + 2] == 0xa8 || s[i + 2] == 0xa9)) {
				o = u_esc(o, s[i + 2] == 0xa8 ? 0x2028 : 0x2029,
				    e->hex);
				i += 3;
			} else {
				*o++ = (char)c;
				i++;
			}
			break;
		case 'u':
			o = u_esc(o, c, e->hex);
			i++;
			break;
		default:
			o[0] = '\\';
			o[1] = (char)cls;
			o += 2;
			i++;
			break;
		}
		if (i == n)
			break;
	}
	*o++ = '"';
	return o;
}

/* 1 if the tail has room for a string of len bytes escaped in the worst
 * case, plus extra bytes. */
static inline int
str_fits(const jenc_enc *e, size_t len, size_t extra)
{
	size_t room = (size_t)(e->end - e->p);

	/* len is bounded first, so that the product cannot wrap */
	return len <= room / 8 && STR_WORST * len + extra + 2 <= room;
}

/*
 * short_copy - s[0..n) quoted at o, if n <= 16 and no byte of it is a
 * stop byte (see stops8); else 0 and nothing is meant to be kept at o.
 * Most keys, and many values, are short and plain: this tests them with
 * one or two words, inline, before quoted() would set up its loop.
 */
static inline int
short_copy(char *o, const unsigned char *s, size_t n, int html)
{
	if (n >= 8) {
		uint64_t a, b;

		if (n > 16)
			return 0;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		if ((stops8(a, html) | stops8(b, html)) != 0)
			return 0;
		memcpy(o + 1, &a, 8);
		memcpy(o + 1 + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		if (stops8((uint64_t)a << 32 | b, html) != 0)
			return 0;
		memcpy(o + 1, &a, 4);
		memcpy(o + 1 + n - 4, &b, 4);
	} else if (n > 0) {
		/* s[0], s[n / 2] and s[n - 1] are every byte; 'a' pads */
		uint64_t w = 0x6161616161000000ull | s[0] |
		    (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16;

		if (stops8(w, html) != 0)
			return 0;
		o[1] = (char)s[0];
		o[1 + n / 2] = (char)s[n / 2];
		o[n] = (char)s[n - 1];
	}
	o[0] = '"';
	o[n + 1] = '"';
	return 1;
}

/* quoted() with the short plain case inline. */
static inline char *
quoted_fast(const jenc_enc *e, char *o, const unsigned char *s, size_t n,
    const unsigned char *tab, int check)
{
	if (short_copy(o, s, n, (e->flags & JENC_HTML) != 0))
		return o + n + 2;
	return quoted(e, o, s, n, tab, check);
}

/* Copy s[0..n) escaping per tab, through put(); s is valid UTF-8. */
static int
put_escaped(jenc_enc *e, const unsigned char *s, size_t n,
    const unsigned char *tab)
{
	size_t i = 0;

	const unsigned char *plain = esc_tab[0][0][0];

	while (i < n) {
		size_t j = i;

		/* Plain escaping: skip eight bytes with no control byte, '"',
		 * '\\' or 0xe2 (U+2028, U+2029) at a time. */
		if (tab == plain)
			while (j + 8 <= n) {
				uint64_t w, q, b, x;

				memcpy(&w, s + j, 8);
				q = w ^ (ONES * '"');
				b = w ^ (ONES * '\\');
				x = w ^ (ONES * 0xe2);
				if ((((w - ONES * 0x20) | (q - ONES) | (b - ONES)) &
				    ~w & HIGHS) != 0 || ((x - ONES) & ~x & HIGHS) != 0)
					break;
				j += 8;
			}
		while (j < n && tab[s[j]] == 0)
			j++;
		if (j > i && put(e, s + i, j - i) != 0)
			return e->err;
		if (j == n)
			break;
		i = j;
		unsigned char c = s[i], cls = tab[c];
		if (cls == C_DECODE) {
			uint32_t cp = 0;
			size_t k = jenc_utf8_seq(s + i, n - i, &cp);

			if (k == 0)
				k = 1, cp = 0xfffd;
			if (cp >= 0x10000) {
				cp -= 0x10000;
				if (put_u(e, 0xd800 + (cp >> 10)) != 0 ||
				    put_u(e, 0xdc00 + (cp & 0x3ff)) != 0)
					return e->err;
			} else if (put_u(e, cp) != 0) {
				return e->err;
			}
			i += k;
		} else if (cls == C_E2) {
			if (i + 2 < n && s[i + 1] == 0x80 &&
			    (s[i + 2] == 0xa8 || s[i + 2] == 0xa9)) {
				if (put_u(e, s[i + 2] == 0xa8 ? 0x2028 : 0x2029) != 0)
					return e->err;
				i += 3;
			} else {
				if (put(e, s + i, 1) != 0)
					return e->err;
				i++;
			}
		} else if (cls == 'u') {
			if (put_u(e, c) != 0)
				return e->err;
			i++;
		} else {
			if (need(e, 2) != 0)
				return e->err;
			e->p[0] = '\\';
			e->p[1] = (char)cls;
			e->p += 2;
			i++;
		}
	}
	return 0;
}

/* A string already checked (or raw), quoted and escaped. */
static int
put_string(jenc_enc *e, const char *s, size_t len, int raw)
{
	const unsigned char *tab = raw ? e->rawesc : e->esc;

	if (tab == NULL) {
		if ((size_t)(e->end - e->p) >= len + 2 && len + 2 > len) {
			*e->p++ = '"';
			memcpy(e->p, s, len);
			e->p += len;
			*e->p++ = '"';
			return 0;
		}
		if (put(e, "\"", 1) != 0 || put(e, s, len) != 0)
			return e->err;
		return put(e, "\"", 1);
	}
	if (str_fits(e, len, 0)) {
		e->p = quoted_fast(e, e->p, (const unsigned char *)s, len, tab,
		    0);
		return 0;
	}
	if (put(e, "\"", 1) != 0 ||
	    put_escaped(e, (const unsigned char *)s, len, tab) != 0)
		return e->err;
	return put(e, "\"", 1);
}

/* UTF-8 check that allows NUL bytes (they are escaped as \u0000). */
static int
text_ok(const char *s, size_t len)
{
	return scan_text_bad((const unsigned char *)s, len, len, 0) == len;
}

/* Bytes of separator and indentation around a value or key at most. */
static inline size_t
sep_max(const jenc_enc *e, int lw)
{
	return 4 + (size_t)e->depth * e->indent +
	    (lw == LW_LONG ? e->xroom : 0);
}

/* A key's comma, indentation, quoted text and colon at o, when the tail
 * has room (str_fits with sep_max); NULL if check found s invalid. */
static inline char *
key_out(const jenc_enc *e, char *o, const char *s, size_t len,
    const unsigned char *tab, int check, int lw)
{
	if (e->st == ST_OBJ_NEXT)
		*o++ = ',';
	if (e->indent) {
		size_t n = levels(e, e->depth, lw) * e->indent;

		*o++ = '\n';
		memset(o, e->ichar, n);
		o += n;
	}
	if (tab == NULL) {
		*o++ = '"';
		memcpy(o, s, len);
		o += len;
		*o++ = '"';
	} else if ((o = quoted_fast(e, o, (const unsigned char *)s, len, tab,
	    check)) == NULL) {
		return NULL;
	}
	*o++ = ':';
	if (e->indent)
		*o++ = ' ';
	return o;
}

TWO_WAYS int
key(jenc_enc *e, const char *s, size_t len, int raw, int lw)
{
	if (lw == LW_LONG && e->err)
		return e->err;
	if (e->st != ST_OBJ_FIRST && e->st != ST_OBJ_NEXT)
		return fail(e, JENC_E_STATE);
	if (!colors(e, lw) && str_fits(e, len, sep_max(e, lw))) {
		char *o;

		/* sorted: every member has its ',' (see below) */
		if (sorting(e, lw)) {
			if (jenc_sort_key(e, e->sort, e->tail, e->p, s, len,
			    raw) != 0)
				return e->err;
			e->st = ST_OBJ_NEXT;
		}
		o = key_out(e, e->p, s, len, raw ? e->rawesc : e->esc, !raw,
		    lw);

		if (o == NULL)
			return fail(e, JENC_E_UTF8);
		e->p = o;
		e->st = ST_OBJ_VAL;
		return 0;
	}
	if (!raw && !text_ok(s, len))
		return fail(e, JENC_E_UTF8);
	/* Sorted, every member has its ',': the first one's is dropped
	 * once the order is known. */
	if (sorting(e, lw) &&
	    jenc_sort_key(e, e->sort, e->tail, e->p, s, len, raw) != 0)
		return e->err;
	if (e->st == ST_OBJ_NEXT || sorting(e, lw)) {
		if (need(e, 1) != 0)
			return e->err;
		*e->p++ = ',';
	}
	if (e->indent && newline_indent(e, levels(e, e->depth, lw)) != 0)
		return e->err;
	if (colors(e, lw) && (paint(e, JENC_PAL_RESET) != 0 ||
	    paint(e, JENC_COLOR_KEY) != 0))
		return e->err;
	if (put_string(e, s, len, raw) != 0)
		return e->err;
	if (colors(e, lw) && (paint(e, JENC_PAL_RESET) != 0 ||
	    paint(e, JENC_COLOR_OBJECT) != 0))
		return e->err;
	if (need(e, 2) != 0)
		return e->err;
	*e->p++ = ':';
	if (e->indent)
		*e->p++ = ' ';
	if (colors(e, lw) && paint(e, JENC_PAL_RESET) != 0)
		return e->err;
	e->st = ST_OBJ_VAL;
	return 0;
}

/* A key off the plain way: sorted keys alone, or the long way. */
static NOINLINE int
key_x(jenc_enc *e, const char *s, size_t len, int raw)
{
	if (e->xv)
		return key(e, s, len, raw, LW_LONG);
	return key(e, s, len, raw, LW_SORTED);
}

int
jenc_key(jenc_enc *e, const char *s, size_t len)
{
	return e->xo ? key_x(e, s, len, 0) : key(e, s, len, 0, LW_PLAIN);
}

int
jenc_raw_key(jenc_enc *e, const char *body, size_t len)
{
	return e->xo ? key_x(e, body, len, 1) : key(e, body, len, 1, LW_PLAIN);
}

/* 1 if a value may come here (value_prefix would not fail). */
static inline int
value_ok(const jenc_enc *e)
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

TWO_WAYS int
str(jenc_enc *e, const char *s, size_t len, int lw)
{
	if (lw == LW_LONG && e->err)
		return e->err;
	if (str_fits(e, len, sep_max(e, lw)) && value_ok(e)) {
		char *start = e->p, *o;
		unsigned char st = e->st;

		/* cannot fail, has room */
		(void)value_prefix(e, JENC_COLOR_STRING, lw);
		o = quoted_fast(e, e->p, (const unsigned char *)s, len, e->esc,
		    1);
		if (o == NULL) {
			e->p = start;
			e->st = st;
			return fail(e, JENC_E_UTF8);
		}
		e->p = o;
		return value_done(e, lw);
	}
	if (!text_ok(s, len))
		return fail(e, JENC_E_UTF8);
	if (value_prefix(e, JENC_COLOR_STRING, lw) != 0 ||
	    put_string(e, s, len, 0) != 0)
		return e->err;
	return value_done(e, lw);
}

static NOINLINE int
str_lw(jenc_enc *e, const char *s, size_t len)
{
	return str(e, s, len, LW_LONG);
}

int
jenc_str(jenc_enc *e, const char *s, size_t len)
{
	return e->xv ? str_lw(e, s, len) : str(e, s, len, LW_PLAIN);
}

TWO_WAYS int
raw_str(jenc_enc *e, const char *body, size_t len, int lw)
{
	if (value_prefix(e, JENC_COLOR_STRING, lw) != 0 ||
	    put_string(e, body, len, 1) != 0)
		return e->err;
	return value_done(e, lw);
}

static NOINLINE int
raw_str_lw(jenc_enc *e, const char *body, size_t len)
{
	return raw_str(e, body, len, LW_LONG);
}

int
jenc_raw_str(jenc_enc *e, const char *body, size_t len)
{
	return e->xv ? raw_str_lw(e, body, len) :
	    raw_str(e, body, len, LW_PLAIN);
}

/* ---- scalars ------------------------------------------------------------- */

TWO_WAYS int
raw(jenc_enc *e, const char *json, size_t len, int lw)
{
	/* not an object; but the CSV reader hands a verbatim encoder each
	 * record whole, which a view's JENC_VIEW_RECORDS takes from its text
	 * (-1, as fragments) */
	if (value_sep(e, (e->x & X_VIEW) && (json[0] == '{' ||
	    json[0] == '[') ? -1 : JENC_COLOR_NUMBER, lw) != 0 ||
	    (colors(e, lw) && paint(e, raw_kind(json)) != 0))
		return e->err;
	if (json[0] == '"' && len >= 2) {
		if (put_string(e, json + 1, len - 2, 1) != 0)
			return e->err;
	} else if (put_short(e, json, len) != 0) {
		return e->err;
	}
	return value_done(e, lw);
}

static NOINLINE int
raw_lw(jenc_enc *e, const char *json, size_t len)
{
	return raw(e, json, len, LW_LONG);
}

int
jenc_raw(jenc_enc *e, const char *json, size_t len)
{
	return e->xv ? raw_lw(e, json, len) : raw(e, json, len, LW_PLAIN);
}

/* Booleans, null and times: the text t[0..n). */
TWO_WAYS int
scalar(jenc_enc *e, int k, const char *t, size_t n, int lw)
{
	if (value_prefix(e, k, lw) != 0 || put(e, t, n) != 0)
		return e->err;
	return value_done(e, lw);
}

static NOINLINE int
scalar_lw(jenc_enc *e, int k, const char *t, size_t n)
{
	return scalar(e, k, t, n, LW_LONG);
}

static int
put_scalar(jenc_enc *e, int k, const char *t, size_t n)
{
	return e->xv ? scalar_lw(e, k, t, n) : scalar(e, k, t, n, LW_PLAIN);
}

/* Numbers (type NUM_*, the value in i, u or d): the text is written
 * straight into the tail. */
enum { NUM_I64, NUM_U64, NUM_F64 };

TWO_WAYS int
num(jenc_enc *e, int type, int64_t i, uint64_t u, double d, int lw)
{
	if (value_prefix(e, JENC_COLOR_NUMBER, lw) != 0 ||
	    need(e, type == NUM_F64 ? 32 : 24) != 0)
		return e->err;
	if (type == NUM_I64)
		e->p += jenc_fmt_i64(e->p, i);
	else if (type == NUM_U64)
		e->p += jenc_fmt_u64(e->p, u);
	else
		e->p += jenc_fmt_f64(e->p, d);
	return value_done(e, lw);
}

static NOINLINE int
num_lw(jenc_enc *e, int type, int64_t i, uint64_t u, double d)
{
	return num(e, type, i, u, d, LW_LONG);
}

int
jenc_i64(jenc_enc *e, int64_t v)
{
	return e->xv ? num_lw(e, NUM_I64, v, 0, 0) :
	    num(e, NUM_I64, v, 0, 0, LW_PLAIN);
}

int
jenc_u64(jenc_enc *e, uint64_t v)
{
	return e->xv ? num_lw(e, NUM_U64, 0, v, 0) :
	    num(e, NUM_U64, 0, v, 0, LW_PLAIN);
}

int
jenc_f64(jenc_enc *e, double v)
{
	if (e->err)
		return e->err;
	if (!isfinite(v))
		return fail(e, JENC_E_NUMBER);
	return e->xv ? num_lw(e, NUM_F64, 0, 0, v) :
	    num(e, NUM_F64, 0, 0, v, LW_PLAIN);
}

int
jenc_bool(jenc_enc *e, int v)
{
	return e->xv ? scalar_lw(e, v ? JENC_COLOR_TRUE : JENC_COLOR_FALSE,
	    v ? "true" : "false", v ? 4 : 5) : scalar(e, v ? JENC_COLOR_TRUE :
	    JENC_COLOR_FALSE, v ? "true" : "false", v ? 4 : 5, LW_PLAIN);
}

int
jenc_null(jenc_enc *e)
{
	return e->xv ? scalar_lw(e, JENC_COLOR_NULL, "null", 4) :
	    scalar(e, JENC_COLOR_NULL, "null", 4, LW_PLAIN);
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
		return fail(e, JENC_E_RANGE);
	buf[0] = '"';
	buf[n + 1] = '"';
	return put_scalar(e, JENC_COLOR_STRING, buf, n + 2);
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
	    str_fits(e, klen + len, sep_max(e, LW_PLAIN) + 2)) {
		char *o = key_out(e, e->p, k, klen, e->esc, 1, LW_PLAIN);

		if (o != NULL)
			o = quoted_fast(e, o, (const unsigned char *)s, len,
			    e->esc, 1);
		if (o == NULL)
			return fail(e, JENC_E_UTF8);
		e->p = o;
		e->st = ST_OBJ_NEXT;
		return 0;
	}
	if (!text_ok(s, len))
		return fail(e, JENC_E_UTF8);
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
		return fail(e, JENC_E_NUMBER);
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
		return fail(e, JENC_E_RANGE);
	return jenc_key(e, k, klen) ? e->err : jenc_time_utc(e, secs);
}

int
jenc_kv_time_unix(jenc_enc *e, const char *k, size_t klen, int64_t secs)
{
	return jenc_key(e, k, klen) ? e->err : jenc_time_unix(e, secs);
}
