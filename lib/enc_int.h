/*
 * enc_int.h - what the files of the encoder share, private to them:
 * struct jenc_enc, its states and bits, the inline writes into the tail
 * segment, and the calls one of its files makes into another.
 *
 * The encoder is one module in one layer of internal.h's list; its files
 * call each other by these enc_ names (the layer check reads jenc_ names
 * only), never by its public jenc_ calls.
 *
 * Held output is the list head..tail of segments; the tail is the one being
 * written, through the cursor p (its len field is synced from p only when
 * the list is walked).  `base` counts the held bytes before the tail.  With
 * JENC_HOLD, `committed` counts the held bytes that belong to complete
 * top-level values: only those reach the sink, unless the value being
 * built grows past hold_max, after which it streams (`cut`).
 */
#ifndef JENC_ENC_INT_H
#define JENC_ENC_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "seg.h"
#include "swar.h"

enum { K_MEM, K_FD, K_SINK };
enum { ST_TOP, ST_ARR_FIRST, ST_ARR_NEXT, ST_OBJ_FIRST, ST_OBJ_NEXT, ST_OBJ_VAL,
    ST_FRAG };

#define STACK_INLINE 256

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
	/* x & X_VALUE, X_OBJECT, X_ARRAY: what each call tests (enc_x_sync) */
	unsigned char xv, xo, xa;
	unsigned char split;	/* JENC_SPLIT: inside the top-level array */
	unsigned char split_out; /* ... and an element of it was written */
	unsigned char slurp;	/* JENC_SLURP: the array's '[' is out */
	unsigned char side;	/* JENC_SORT_KEYS: writing the side buffer */
	unsigned ibase;		/* indentation levels of top-level values */
	size_t xroom;		/* bytes a value's prefix may add: colors,
				 * the indentation of ibase levels */
	struct jenc_sort *sort;
	struct enc_out {	/* the list not being written (jenc_enc_out_side) */
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

/* ---- the held output, errors (enc_out.c) ---- */
/* Fail e with code: sticky, the first one kept; returns e->err. */
int jenc_enc_fail(jenc_enc *e, int code);

/* e->x and the bytes each call tests (xv, xo, xa) from x. */
static inline void
enc_x_sync(jenc_enc *e, unsigned x)
{
	e->x = (unsigned char)x;
	e->xv = (unsigned char)(x & X_VALUE);
	e->xo = (unsigned char)(x & X_OBJECT);
	e->xa = (unsigned char)(x & X_ARRAY);
}

/* The tail's len from the cursor. */
static inline void
enc_sync_tail(jenc_enc *e)
{
	if (e->tail != NULL)
		e->tail->len = (size_t)(e->p - JENC_SEG_DATA(e->tail));
}

/* Bytes held, not yet written to the sink. */
static inline size_t
enc_held(const jenc_enc *e)
{
	if (e->tail == NULL)
		return 0;
	return e->base + (size_t)(e->p - JENC_SEG_DATA(e->tail)) - e->tail->off;
}

/* The cursor at the tail's end of data, its end at the tail's cap. */
static inline void
enc_set_cursor(jenc_enc *e)
{
	e->p = JENC_SEG_DATA(e->tail) + e->tail->len;
	e->end = JENC_SEG_DATA(e->tail) + e->tail->cap;
}

/* The size of the segment after one of cap bytes: doubled up to 64 KiB. */
static inline size_t
enc_next_cap(size_t cap)
{
	return cap * 2 > JENC_SEG_MAX ? JENC_SEG_MAX : cap * 2;
}

/* Room for at least n more bytes, writing to the sink as the policy says. */
int jenc_enc_grow(jenc_enc *e, size_t n);
/* enc_put past the tail's room: across segments. */
int jenc_enc_put_slow(jenc_enc *e, const char *s, size_t n);

/* Room for n more bytes in the tail. */
static inline int
enc_need(jenc_enc *e, size_t n)
{
	if ((size_t)(e->end - e->p) >= n)
		return 0;
	return jenc_enc_grow(e, n);
}

/* s[0..n) appended. */
static inline int
enc_put(jenc_enc *e, const void *s, size_t n)
{
	if ((size_t)(e->end - e->p) >= n) {
		memcpy(e->p, s, n);
		e->p += n;
		return 0;
	}
	return jenc_enc_put_slow(e, s, n);
}

/* enc_put() for the short texts of numbers and literals: up to 32 bytes
 * by sw_copy32 (swar.h), with no call. */
static inline int
enc_put_short(jenc_enc *e, const char *s, size_t n)
{
	char *o = e->p;

	if (n > 32 || (size_t)(e->end - o) < 32)
		return enc_put(e, s, n);
	sw_copy32(o, s, n);
	e->p = o + n;
	return 0;
}

/* Keep the first n held bytes, drop the rest.  Tail synced. */
void jenc_enc_truncate_held(jenc_enc *e, size_t n);
/* Write what the policy allows (jenc_flush). */
int jenc_enc_flush(jenc_enc *e);

/* ---- the calls (enc.c) ---- */
/* The ways (lw).  LW_SORTED is the plain way with sorted keys on: for
 * '{', '}' and keys while JENC_SORT_KEYS is the only bit they test. */
enum { LW_PLAIN, LW_LONG, LW_SORTED };

/* Indentation levels of a value at depth: with JENC_SLURP (long way
 * only) the top-level values are one level in. */
static inline size_t
enc_levels(const jenc_enc *e, unsigned depth, int lw)
{
	return lw == LW_LONG ? (size_t)depth + e->ibase : depth;
}

/* enc_newline_indent past its fast path: n spaces or more than fit. */
int jenc_enc_newline_fill(jenc_enc *e, size_t n);

/*
 * A newline and the indentation of lv levels.  The usual case, under 64
 * bytes with 64 free in the segment, is one fixed-size fill, which the
 * compiler writes with a few stores instead of calling memset: the calls
 * took 3% of indented output's time on the 50 MB document.
 */
static inline int
enc_newline_indent(jenc_enc *e, size_t lv)
{
	size_t n = lv * e->indent;

	if (n < 64 && (size_t)(e->end - e->p) >= 64) {
		*e->p = '\n';
		memset(e->p + 1, e->ichar, 63);
		e->p += n + 1;
		return 0;
	}
	return jenc_enc_newline_fill(e, n);
}

/* ---- colors, top-level framing, the side buffer (enc_opts.c) ---- */
/* JENC_COLOR: the escape of kind k (JENC_COLOR_*, JENC_PAL_RESET).
 * Inline: colored output calls it around every value and key. */
static inline int
enc_paint(jenc_enc *e, int k)
{
	return enc_put(e, e->pal.esc[k], e->pal.len[k]);
}
/* JENC_COLOR: after a value, the reset and the color of its container. */
int jenc_enc_paint_after(jenc_enc *e);
/* Before a top-level value of kind k, with JENC_NO_NEWLINE, JENC_SEQ,
 * JENC_SLURP or a view. */
int jenc_enc_top_prefix(jenc_enc *e, int k);
/* The commit point of a top-level value, with JENC_SLURP (an element:
 * no newline), JENC_FLUSH_EACH or a view. */
int jenc_enc_top_end(jenc_enc *e);
/* jenc_arr_end at top level: the end of a JENC_SPLIT or JENC_SLURP array. */
int jenc_enc_top_close(jenc_enc *e);
/* Make the side buffer (on) or the main output (off) the list written. */
void jenc_enc_out_side(jenc_enc *e, int on);
/* The encoder's output as sort.c sees it (internal.h: jenc_out_ops). */
extern const jenc_out_ops jenc_enc_out_ops;

/* ---- views (enc_view.c) ---- */
/* A top-level value of kind k (JENC_COLOR_*) begins; -1: fragments, told
 * at the end. */
int jenc_enc_view_begin(jenc_enc *e, int k);
/* A top-level value is complete (held from committed on): to the view. */
int jenc_enc_view_end(jenc_enc *e);
/* Text passed through at top level: to the view's text call. */
int jenc_enc_view_text(jenc_enc *e, const char *s, size_t n);
/* At jenc_release: the view's end call, then the view is gone. */
void jenc_enc_view_release(jenc_enc *e);

/* ---- escaping and strings (enc_esc.c) ---- */
/* Output bytes per input byte of a string at most (\u00XX). */
#define STR_WORST 6

/* 1 if the tail has room for a string of len bytes escaped in the worst
 * case, plus extra bytes. */
static inline int
enc_str_fits(const jenc_enc *e, size_t len, size_t extra)
{
	size_t room = (size_t)(e->end - e->p);

	/* len is bounded first, so that the product cannot wrap */
	return len <= room / 8 && STR_WORST * len + extra + 2 <= room;
}

/* Set e's escape tables and hex digits from e->flags. */
void jenc_enc_esc_pick(jenc_enc *e);
/* s[0..n) as a quoted JSON string at o, escaped per tab; with check, s
 * must be valid UTF-8 (NUL allowed).  o must have room for STR_WORST * n
 * + 2 bytes (enc_str_fits).  Returns the end of the output, or NULL if
 * check found s invalid. */
char *jenc_enc_quoted_fast(const jenc_enc *e, char *o, const unsigned char *s,
    size_t n, const unsigned char *tab, int check);
/* A string already checked (or raw: JSON string body), quoted and
 * escaped, through enc_put. */
int jenc_enc_put_string(jenc_enc *e, const char *s, size_t len, int raw);
/* 1 if s[0..len) is valid UTF-8, NUL bytes allowed (escaped as \u0000). */
int jenc_enc_text_ok(const char *s, size_t len);

#endif
