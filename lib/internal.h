/*
 * internal.h - declarations shared inside lib/, not part of the public API.
 */
#ifndef JENC_INTERNAL_H
#define JENC_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "jenc.h"

/* ---- counted allocation (pool.c) ---- */
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

/* ---- JSON grammar (json.c) ---- */
/* 1 if p[0..n) is exactly a JSON number by RFC 8259's grammar. */
int jenc_json_number_ok(const char *p, size_t n);

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
 * readable from text; the spot is text[at].  The line ends at LF, at
 * CR LF, and with cr_ends_line (CSV) at a lone CR too; when the line's end
 * is not within avail bytes, the excerpt ends with "..." too.
 */
typedef struct jenc_where {
	uint64_t offset;	/* 0-based byte offset of the spot */
	uint64_t line;		/* 1-based */
	uint64_t col;		/* 1-based byte column */
	const char *text;
	size_t avail, at;
	int text_cut;
	int cr_ends_line;
} jenc_where;

/*
 * jenc_err_set - the one function that fills a jenc_err: everything is
 * cleared, then code, sys_errno, cut, the message (printf-style) and, when
 * w is not NULL, offset, line, col, excerpt and caret.  w NULL (I/O errors,
 * allocation failures) leaves line, col and the excerpt empty.  Returns
 * code.
 */
int jenc_err_set(jenc_err *err, int code, int sys_errno, int cut,
    const jenc_where *w, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Describe the byte at p for "found ...": 'x', byte 0xNN, NUL byte, or end of
 * input when avail is 0. */
void jenc_err_found(char *out, size_t outsz, const char *p, size_t avail);
/* The two older fills, replaced by jenc_err_set while the readers move to
 * it; removed once no caller is left. */
void jenc_err_setf(jenc_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void jenc_err_excerpt(jenc_err *err, const char *line, size_t n, size_t spot,
    int cr_ends_line);

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
 * are put in order as each object ends.  enc.c calls the three hooks;
 * sort.c reaches the encoder's output through the jenc_out_* calls.
 */
struct jenc_seg;
struct jenc_sort;
/* After a '{' is written. */
int jenc_sort_open(jenc_enc *e, struct jenc_sort **sp);
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

/* Make the side buffer (on) or the main output (off) the one written. */
void jenc_out_side(jenc_enc *e, int on);
/* The written list's first segment, last segment and cursor (the last
 * one's len is synced); head and tail are NULL while it is empty. */
void jenc_out_at(jenc_enc *e, struct jenc_seg **head, struct jenc_seg **tail,
    char **p);
/* Append bytes to the written list. */
int jenc_out_put(jenc_enc *e, const char *s, size_t n);
/* Empty the side buffer (not being written): keep its first segment, give
 * the others back. */
void jenc_out_side_clear(jenc_enc *e);
/* Fail e with code (sticky), as the encoder's own calls do. */
int jenc_out_fail(jenc_enc *e, int code);

#endif
