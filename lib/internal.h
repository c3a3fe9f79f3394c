/*
 * internal.h - declarations shared inside lib/, not part of the public API.
 *
 * The layers of lib/, bottom to top.  A file calls only into the layers
 * below its own, never up and never sideways, so that the call graph has
 * no cycle (tests/cli/layers.bats checks it on the built objects); the
 * headers are declarations only (jenc.h, then internal.h and seg.h).
 *
 *	1 pool.c	counted allocation through the installed jenc_alloc,
 *			the segment pools
 *	2 utf8.c num.c	UTF-8 checks; numbers and times as text, the JSON
 *			number grammar
 *	3 err.c		filling jenc_err: message, excerpt, caret
 *	4 in.c color.c	the input layer: reading an fd or memory into a
 *			window, positions, end of input; the palette of
 *			JENC_COLOR in JQ_COLORS' syntax
 *	5 sort.c	JENC_SORT_KEYS: members put in order, reaching
 *			the encoder's output through jenc_out_ops
 *	6 enc.c		the encoder, its pool, jenc_pool_trim
 *	7 json.c csv.c	the JSON and CSV/TSV readers
 */
#ifndef JENC_INTERNAL_H
#define JENC_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "jenc.h"

/* ---- counted allocation (pool.c) ---- */
/* Every block of the library, through the installed jenc_alloc.  n > 0;
 * old_n and the n given to jenc_mem_free are the block's exact size (the
 * allocator is told them).  jenc_mem_realloc(NULL, 0, n) allocates;
 * jenc_mem_free(NULL, n) does nothing. */
void *jenc_mem_alloc(size_t n);
void *jenc_mem_realloc(void *p, size_t old_n, size_t n);
void jenc_mem_free(void *p, size_t n);

/* ---- number and time text (num.c) ---- */
/* Each writes text without a terminating NUL and returns its length. */
size_t jenc_fmt_i64(char *out, int64_t v);	/* out: 20+ bytes */
size_t jenc_fmt_u64(char *out, uint64_t v);	/* out: 20+ bytes */
size_t jenc_fmt_f64(char *out, double v);	/* out: 32 bytes, v finite */
/* "YYYY-MM-DDTHH:MM:SSZ" (20 bytes, no quotes); 0 if the year is outside
 * 1..9999. */
size_t jenc_fmt_time_utc(char *out, int64_t secs);
/* 1 if p[0..n) is exactly a JSON number by RFC 8259's grammar. */
int jenc_json_number_ok(const char *p, size_t n);

/* ---- UTF-8 (utf8.c) ---- */
/* Length of the valid UTF-8 sequence at p (1..4), or 0 if p[0..n) does not
 * start with one (overlong, surrogate, > U+10FFFF, truncated, stray
 * continuation).  p[0] must be >= 0x80. */
static inline size_t
jenc_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char c = p[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		if (n < 2 || (p[1] & 0xc0) != 0x80)
			return 0;
		*cp = (uint32_t)(c & 0x1f) << 6 | (p[1] & 0x3f);
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0)	/* overlong */
			return 0;
		if (c == 0xed && p[1] >= 0xa0)	/* surrogate */
			return 0;
		*cp = (uint32_t)(c & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 |
		    (p[2] & 0x3f);
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90)	/* overlong */
			return 0;
		if (c == 0xf4 && p[1] >= 0x90)	/* above U+10FFFF */
			return 0;
		*cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
		    (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
		return 4;
	}
	return 0;
}
/* 1 if p[0..n) is valid UTF-8 with no NUL byte; else 0 and *bad = index of
 * the first offending byte. */
int jenc_utf8_check(const char *p, size_t n, size_t *bad);

/* ---- the encoder for the input layer (enc.c) ---- */
/* jenc_flush(ctx) as a jenc_in before_read callback (ctx: a jenc_enc). */
int jenc_flush_cb(void *ctx);

/* ---- verbatim values (enc.c), for the readers ---- */
/* 1 if e writes compact output and copies raw strings unchanged: then a
 * valid JSON value with its insignificant whitespace removed is exactly
 * what the structure calls would write. */
int jenc_verbatim(const jenc_enc *e);
/* A top-level value written as fragments of its compact text: begin (at
 * top level only), any number of fragments, end (the newline, and with
 * JENC_HOLD the commit point).  Between begin and end e is inside a value:
 * other calls fail with JENC_E_STATE, jenc_discard drops the fragments. */
int jenc_frag_begin(jenc_enc *e);
int jenc_frag(jenc_enc *e, const char *s, size_t n);
int jenc_frag_end(jenc_enc *e);

/* ---- text passed through (enc.c), for the JSON reader ---- */
/* Write s[0..n) verbatim at top level (no newline added, uncolored),
 * committed as a complete value is under JENC_HOLD; under JENC_SEQ an RS
 * first, except for a lone "\n" (what ends a cut value's output).
 * JENC_E_STATE inside a value. */
int jenc_passthru(jenc_enc *e, const char *s, size_t n);

/* ---- input (in.c), under both readers ---- */
struct jenc_where;		/* below, with the reader errors */
/*
 * The window a reader scans: p[0..len) holds the input bytes from offset
 * off on.  Input comes from a file descriptor, read into a buffer of our
 * own that grows (doubling, up to max bytes) only while one token or
 * record does not fit and shrinks back once it is gone, or from the
 * caller's buffer, of which the window is a view of at most max bytes.
 * A reader keeps its positions as indices into the window; when it drops
 * bytes from the front it subtracts their count from each (rebasing).
 * Growing may move the window: after jenc_in_fill or jenc_in_line, p must
 * be read again.  Ownership: the buffer is the jenc_in's, freed by
 * jenc_in_close; a caller's buffer and out stay the caller's.
 */
typedef struct jenc_in {
	const char *p;		/* the window */
	size_t len;
	int eof;		/* no input after p[len) */
	int lf_lines;		/* jenc_in_drop counts the LF line ends */
	uint64_t off;		/* input offset of p[0] */
	uint64_t line;		/* with lf_lines: the line p[0] is on */
	uint64_t lstart;	/* with lf_lines: input offset where that
				 * line's text starts (after a byte order
				 * mark on line 1) */
	int sys_errno;		/* errno of a read that failed */
	/* with lf_lines: p[mark] (mark > 0) is known to start line
	 * mark_line, so jenc_in_where counts lines from there, not from
	 * p[0]; see jenc_in_mark.  0: no mark */
	size_t mark;
	uint64_t mark_line;
	/* called before each blocking read (the readers flush their encoder
	 * there, so that what is complete is out while input is awaited);
	 * non-zero fails the read with JENC_IN_OUT.  NULL: nothing.  A
	 * callback, so that this layer never calls the encoder above it. */
	int (*before_read)(void *ctx);
	void *ctx;
	/* the rest is in.c's own */
	char *buf;		/* fd input: our buffer, p == buf; NULL for
				 * buffer input */
	size_t cap, init, max;
	size_t rest;		/* buffer input: bytes after p[len) */
	int fd;
} jenc_in;

/* jenc_in_fill's results besides 0 and JENC_E_NOMEM / JENC_E_IO (errno in
 * sys_errno): positive, so that no reader mistakes them for its own. */
#define JENC_IN_FULL 1		/* the window is max bytes and full */
#define JENC_IN_OUT 2		/* before_read failed */

/* Context an error excerpt can need: the window keeps this many bytes
 * before the earliest position a reader still needs (or from the start of
 * its line), and jenc_in_line reads this many after an error's spot. */
#define JENC_IN_CONTEXT ((size_t)256)
#define JENC_IN_AFTER ((size_t)1024)

/* Input from fd through a window of win bytes (growing to max).  Returns
 * 0 or JENC_E_NOMEM (in is then closed).  fd stays the caller's. */
int jenc_in_open_fd(jenc_in *in, int fd, size_t win, size_t max);
/* Input from p[0..n) (p may be NULL when n is 0), the window showing at
 * most max bytes of it at a time. */
void jenc_in_open_mem(jenc_in *in, const char *p, size_t n, size_t max);
void jenc_in_close(jenc_in *in);
/* More input after p[len): grows a full window, flushes out, reads once
 * (EINTR retried; on a non-blocking fd, EAGAIN waits in poll(2)), or sets
 * eof.  Returns 0, JENC_E_NOMEM, JENC_E_IO, JENC_IN_FULL or JENC_IN_OUT. */
int jenc_in_fill(jenc_in *in);
/* Drop p[0..n): off grows by n, with lf_lines line and lstart follow. */
void jenc_in_drop(jenc_in *in, size_t n);
/* How much a reader that still needs p[pos..) may drop: up to the start
 * of pos's line, but keeping at least JENC_IN_CONTEXT bytes before pos. */
size_t jenc_in_keep(const jenc_in *in, size_t pos);
/* Skip a UTF-8 byte order mark at the start of the input (reading while
 * the window holds a prefix of one): it is dropped, and line 1's columns
 * start after it.  Returns 1 if there was one, 0 if not, or an error of
 * jenc_in_fill. */
int jenc_in_bom(jenc_in *in);
/*
 * Before an error at p[at] is reported: read on until the window holds
 * the end of at's line (an LF, with cr a CR too), JENC_IN_AFTER bytes
 * from at, or the end of the input, so that the excerpt is the same
 * however the input arrived.  Nothing is dropped; a read that fails just
 * stops it.
 */
void jenc_in_line(jenc_in *in, size_t at, int cr);
/* Tell the window that p[at] starts line `line` (a reader that resumes
 * there after an error whose position it knows), so that jenc_in_where
 * for a later spot counts the lines from there.  Kept until the window
 * drops p[at]. */
void jenc_in_mark(jenc_in *in, size_t at, uint64_t line);
/* Where p[at] is, for a reader with lf_lines (lines end at LF). */
void jenc_in_where(const jenc_in *in, size_t at, struct jenc_where *w);
/* Where p[at] is, on line `line` whose text starts at p[ls], for a reader
 * that counts lines itself; cr: a lone CR ends a line too. */
void jenc_in_where_line(const jenc_in *in, size_t at, uint64_t line,
    size_t ls, int cr, struct jenc_where *w);

/* ---- reader errors (err.c) ---- */
/*
 * Where an error is, for jenc_err_set.  text points into the reader's
 * window at the start of the line holding the spot (text_cut 0), or at a
 * later byte of that line when what came before it is no longer held
 * (text_cut 1: the excerpt then starts with "...").  avail bytes are
 * readable from text; the spot is text[at] (at == avail: just past them).
 * The line ends at LF, at CR LF, and with cr_ends_line (CSV) at a lone CR
 * too.  eof 1 says the input ends at text[avail], so a line with no end
 * within avail bytes ends there; with eof 0 the line goes on past what was
 * read and the excerpt ends with "..." too.  A reader that reads on to
 * complete the line before reporting needs at most JENC_EXCERPT_SCAN bytes
 * past the spot (or the line's end, or the input's): the excerpt is then
 * the one of the whole input, however it arrived.
 * col 0 (a CSV record with the wrong number of fields): the error is about
 * the whole line, which has no column and no excerpt (text NULL, avail 0).
 */
typedef struct jenc_where {
	uint64_t offset;	/* 0-based byte offset of the spot */
	uint64_t line;		/* 1-based */
	uint64_t col;		/* 1-based byte column */
	const char *text;
	size_t avail, at;
	int text_cut;
	int cr_ends_line;
	int eof;
} jenc_where;

/* An excerpt shows at most this many bytes of the line on either side of
 * the spot. */
#define JENC_EXCERPT_SCAN 656

/*
 * jenc_err_set - the one function that fills a jenc_err: everything is
 * cleared, then code, sys_errno, cut, the message (printf-style) and, when
 * w is not NULL, offset, line, col, excerpt and caret (see err.c for how
 * the excerpt shows the line).  w NULL (I/O errors, allocation failures)
 * leaves offset, line, col, the excerpt and caret 0 and empty.  The
 * message is taken as it is: a reader adds "(output of this value was
 * cut)" itself.  Returns code.
 */
int jenc_err_set(jenc_err *err, int code, int sys_errno, int cut,
    const jenc_where *w, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Describe the byte at p for "found ...": 'x', byte 0xNN, NUL byte, or end of
 * input when avail is 0. */
void jenc_err_found(char *out, size_t outsz, const char *p, size_t avail);

/* ---- colors, sorted keys (color.c, sort.c, enc.c) ---- */
/* The escapes an encoder writes with JENC_COLOR: ESC [ sgr m for each
 * jenc_colors entry, then ESC [ 0 m (JENC_PAL_RESET). */
#define JENC_PAL_RESET JENC_COLOR_N
typedef struct jenc_pal {
	char esc[JENC_COLOR_N + 1][JENC_COLOR_MAX + 4];
	unsigned char len[JENC_COLOR_N + 1];
} jenc_pal;
/* Fill p from c (NULL: the defaults). */
void jenc_pal_init(jenc_pal *p, const jenc_colors *c);

/*
 * JENC_SORT_KEYS (sort.c): while an object is open its members are
 * written to a side buffer, another segment list of the encoder, and
 * are put in order as each object ends.  enc.c calls the hooks; sort.c,
 * a layer below it, reaches the encoder's output only through the
 * jenc_out_ops that enc.c hands to jenc_sort_open (its jenc_out_* calls),
 * so that no call goes up a layer.
 */
struct jenc_seg;
struct jenc_sort;
typedef struct jenc_out_ops {
	/* Make the side buffer (on) or the main output (off) the one
	 * written. */
	void (*side)(jenc_enc *e, int on);
	/* The written list's first segment, last segment and cursor (the
	 * last one's len is synced); head and tail are NULL while it is
	 * empty. */
	void (*at)(jenc_enc *e, struct jenc_seg **head,
	    struct jenc_seg **tail, char **p);
	/* Append bytes to the written list. */
	int (*put)(jenc_enc *e, const char *s, size_t n);
	/* Empty the side buffer (not being written): keep its first
	 * segment, give the others back. */
	void (*side_clear)(jenc_enc *e);
	/* Fail e with code (sticky), as the encoder's own calls do. */
	int (*fail)(jenc_enc *e, int code);
	/* The sticky error, 0 if none. */
	int (*error)(const jenc_enc *e);
} jenc_out_ops;
/* After a '{' is written; ops stays the caller's, kept until
 * jenc_sort_free. */
int jenc_sort_open(jenc_enc *e, const jenc_out_ops *ops,
    struct jenc_sort **sp);
/* Before a member's ',', whatever its place, with the encoder's cursor
 * at p in its last segment tail: key k[0..n), raw as for jenc_raw_key. */
int jenc_sort_key(jenc_enc *e, struct jenc_sort *s, struct jenc_seg *tail,
    char *p, const char *k, size_t n, int raw);
/* Before the object's closing bytes (cursor as above): puts its members
 * in order, strips the ',' of the new first one; *members gets their
 * count.  When the outermost object closes, its members are written to
 * the main output. */
int jenc_sort_close(jenc_enc *e, struct jenc_sort *s, struct jenc_seg *tail,
    char *p, size_t *members);
/* Forget every open object (jenc_discard, jenc_reset, jenc_release):
 * back to the main output, the side buffer emptied. */
void jenc_sort_drop(jenc_enc *e, struct jenc_sort *s);
void jenc_sort_free(struct jenc_sort *s);

#endif
