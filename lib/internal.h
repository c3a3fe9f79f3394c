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
 *	4 in.c		the input layer: reading an fd or memory into a
 *			window, positions, end of input
 *	5 enc.c		the encoder, its pool, jenc_pool_trim
 *	6 json.c csv.c	the JSON and CSV/TSV readers
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

/* ---- verbatim values (enc.c), for the JSON reader ---- */
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
/* Kept until the readers no longer call them: the two older fills that
 * jenc_err_set replaces.  jenc_err_excerpt renders as jenc_err_set does,
 * as if the input ended at line + n. */
void jenc_err_setf(jenc_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void jenc_err_excerpt(jenc_err *err, const char *line, size_t n, size_t spot,
    int cr_ends_line);

#endif
