/*
 * json.c - the streaming JSON reader: jsmn finds the tokens, this file
 * checks everything jsmn lets through and re-encodes each value as it
 * completes.
 *
 * jsmn (JSMN_STRICT, JSMN_PARENT_LINKS) runs over a window of input (the
 * input layer's, in.c) with a small token array; only the jp_* helpers
 * touch its parser.  Each time it returns, the new tokens are walked in
 * order, and the bytes between them (separators, closing brackets) go
 * through our own state machine, so trailing or missing commas, stray
 * colons and brackets, bad literals and numbers, raw control bytes and
 * invalid UTF-8 are caught at their exact position.  Then the token array
 * is compacted to what jsmn still needs (the chain of open containers from
 * toksuper up, and a key still waiting for its ':'), and the window slides
 * past the consumed bytes so positions never approach jsmn's int limit.
 * A string or number cut by the window end is not handed to jsmn again
 * until what ends it has arrived (jp_cut_ends), so a long token arriving
 * in small pieces costs linear time.  When jsmn reports an error, a slow
 * scanner of ours re-reads from that point to say precisely what is
 * wrong, after reading on to the end of its line for the excerpt.
 *
 * jenc_json_pipe runs the same reader with the tokens of a second thread
 * (pipe.c), which reads the input and tokenizes it as jp_tokenize would,
 * in slots of text the window takes whole; where that thread stops
 * (anything but clean text, the end of the input) its jsmn state becomes
 * this thread's, and the reader goes on alone.
 *
 * Output goes call by call (jenc_obj_begin, jenc_raw_str, ...), except
 * when the encoder writes compact output with no escaping flag: then a
 * value's output is its input minus whitespace, so the walk only checks,
 * and runs of input between whitespace go to the encoder as fragments of
 * the top-level value (bulk mode, jenc_frag_*).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define JSMN_STATIC
#include <jsmn.h>

#include "internal.h"
#include "pipe.h"
#include "scan.h"

#define WIN_INIT ((size_t)256 * 1024)
#define WIN_MAX ((size_t)INT_MAX - 64)
#define TOK_INIT 4096u
#define DEPTH_DEFAULT 10000u
#define DEEP 256		/* nesting from which jsmn gets small pieces */
#define DEEP_CHUNK ((size_t)64)
#define BAD_PIECE ((size_t)1024)	/* jsmn's first piece after bad text */
#define RESYNC 1	/* a value ended inside a jsmn primitive at top level */
#define RS 0x1e		/* RFC 7464 record separator */
#define PASS_MAX ((size_t)1 << 20)	/* bad text kept to pass through */

enum {
	S_TOP,		/* between top-level values */
	S_ARR_FIRST,	/* after '[' */
	S_ARR_VAL,	/* after ',' in an array */
	S_ARR_NEXT,	/* after an element */
	S_OBJ_FIRST,	/* after '{' */
	S_OBJ_KEY,	/* after ',' in an object */
	S_OBJ_COLON,	/* after a key */
	S_OBJ_VAL,	/* after ':' */
	S_OBJ_NEXT,	/* after a member value */
};

static const char *const state_expect[] = {
	[S_TOP] = "expected value or end of input",
	[S_ARR_FIRST] = "expected value or ']'",
	[S_ARR_VAL] = "expected value after ','",
	[S_ARR_NEXT] = "expected ',' or ']' after array element",
	[S_OBJ_FIRST] = "expected string key or '}'",
	[S_OBJ_KEY] = "expected string key after ','",
	[S_OBJ_COLON] = "expected ':' after object key",
	[S_OBJ_VAL] = "expected value after ':'",
	[S_OBJ_NEXT] = "expected ',' or '}' after object member",
};

struct rd {
	jenc_in in;		/* the window: in.p[0..in.len) */

	jsmn_parser jp;		/* touched only by the jsmn helpers */
	jsmntok_t *tok;
	unsigned ntok, done;	/* tok[0..done) are walked */
	size_t pend;		/* jsmn's token at in.p[pend] is cut by the
				 * window end, NO_POS if none ... */
	size_t pend_scan;	/* ... and in.p[pend..pend_scan) holds no end
				 * of it */
	size_t cur;		/* in.p[0..cur) has been checked */

	unsigned char *stk;	/* open containers, '{' or '[' */
	size_t stk_cap;
	unsigned depth, max_depth;
	int st;
	int single;
	int bom;		/* the input started with a byte order mark */
	int stop_top;		/* slow_scan: stop after each top-level value */
	uint64_t values;	/* complete top-level values */
	unsigned policy;	/* JENC_READ_SKIP or JENC_READ_PASS, 0: stop */
	int seq;		/* JENC_READ_SEQ */
	int blank;		/* JENC_READ_BLANK with PASS and an encoder */
	int bol;		/* blank: the line so far is whitespace at
				 * top level */
	uint64_t blank_done;	/* blank: the line ends before this input
				 * offset are told (whitespace may be
				 * walked again after an error) */
	int lost;		/* pass: the bad value's first line is gone */
	uint64_t vstart;	/* input offset of the top-level value begun */
	uint64_t vend;		/* just past the last complete one */

	int nobom;		/* a part after the input's start */
	int cut_end;		/* recover: the error was at the end, or
				 * the bad text ran into it */
	int split_out;		/* recover: the error was in a JENC_SPLIT
				 * array some elements of which are out */
	size_t piece;		/* after bad text: jsmn reads pieces of this
				 * many bytes, doubled after each (0: the
				 * window at once) */
	uint64_t str_bad;	/* the error is in the body of the string
				 * whose opening quote is at this input
				 * offset (NO_OFF: not in a string) */

	jenc_enc *e;
	jenc_err *err;
	size_t fail_at;		/* the token or bracket whose call to e failed
				 * (NO_POS: not known): a view's error */
	int bulk;		/* e is verbatim: copy runs of input */
	size_t from;		/* bulk, inside a value: in.p[from..cur) is
				 * checked output not yet given to e */
	size_t tend;		/* the end of the last token walked */
	size_t gap_to;		/* the walk's last gap ended here, and cur
				 * was moved to it: in.p[tend..gap_to) are
				 * separators and closing brackets seen
				 * before the next token (NO_POS: none) */

	int jsonc;		/* JENC_READ_JSONC: jc filters the window */
	jenc_jsonc jc;
	/* The skeleton jsmn reads (see jp_tokenize), NULL with
	 * JENC_READ_EXACT: sk[0..sk_len) and sk_map[0..sk_len) of the input
	 * from offset sk_base on, up to sk_end; with sk_valid jsmn goes on
	 * at sk[sk_next], the input at offset sk_at. */
	char *sk;
	uint32_t *sk_map;
	size_t sk_len, sk_next;
	uint64_t sk_base, sk_end, sk_at;
	int sk_valid;
	/* in.p[sk_ok_lo..sk_ok_hi) is covered by the skeletons read since
	 * jsmn last started afresh or the window slid: its strings are
	 * checked (no control byte, valid UTF-8) */
	size_t sk_ok_lo, sk_ok_hi;

	/* jenc_json_pipe: with pipe_on the tokens come from the scout
	 * thread (pipe.c) instead of jsmn: pipe_k of its slot's are taken,
	 * and containers are open after the last slot taken (pipe_open) */
	jenc_pipe *pipe;
	int pipe_on, pipe_open;
	size_t pipe_k;
};

/* Take no more tokens from the scout: jsmn's state is this thread's from
 * here on (installed from the scout's, or restarted, or of no more use
 * after an error). */
static void
pipe_stop(struct rd *r)
{
	if (r->pipe_on) {
		r->pipe_on = 0;
		r->sk_ok_lo = r->sk_ok_hi = 0;
		jenc_pipe_raw(r->pipe);
	}
}

/* ---- errors ------------------------------------------------------------ */

#define NO_POS ((size_t)-1)
#define NO_OFF UINT64_MAX
#define ENC_POS ((size_t)-2)	/* the spot of the input layer's encoding
				 * error (jenc_in_enc_where) */

/*
 * Does the first line of the input, t[0..n), look like CSV: a ',', ';',
 * tab or '|' outside double quotes, a field (a byte that is none of them
 * nor a space or CR), and no '{' or '['?  (A line of tabs and spaces is
 * whitespace, not a record.)
 */
static int
looks_csv(const char *t, size_t n)
{
	size_t i, delims = 0, fields = 0;
	int inq = 0;

	if (n > 4096)
		n = 4096;
	for (i = 0; i < n && t[i] != '\n'; i++) {
		if (t[i] == '"') {
			inq = !inq;
			fields++;
		} else if (inq) {
			continue;
		} else if (t[i] == '{' || t[i] == '[') {
			return 0;
		} else if (t[i] == ',' || t[i] == ';' || t[i] == '\t' ||
		    t[i] == '|') {
			delims++;
		} else if (t[i] != ' ' && t[i] != '\r') {
			fields++;
		}
	}
	return delims > 0 && fields > 0;
}

/*
 * What to add to the message of bad input at in.p[pos] (on the line w
 * shows, NULL if none) that JSON with comments, or CSV, would explain.
 */
static const char *
input_hint(const struct rd *r, size_t pos, const jenc_where *w)
{
	const char *p = r->in.p;

	if (pos < r->in.len && !r->jsonc) {
		if (p[pos] == '/' && pos + 1 < r->in.len &&
		    (p[pos + 1] == '/' || p[pos + 1] == '*'))
			return " (JSON with comments? try --jsonc)";
		if ((r->st == S_ARR_VAL && p[pos] == ']') ||
		    (r->st == S_OBJ_KEY && p[pos] == '}'))
			return " (trailing comma? try --jsonc)";
	}
	/* (an error at a '/' is about a comment, whatever the line holds;
	 * of the line, only what every window holds however the input
	 * comes, whole or in pieces: its start when the spot is at most
	 * JENC_IN_CONTEXT bytes into it, and what jenc_in_line reads past
	 * the spot; the input's first line, not that of a part of it, as
	 * a chunk of -j counts its lines from 1: nobom) */
	if (w != NULL && w->line == 1 && !r->nobom && !w->text_cut &&
	    w->at <= JENC_IN_CONTEXT && !(pos < r->in.len && p[pos] == '/') &&
	    looks_csv(w->text, w->avail < w->at + JENC_IN_AFTER ? w->avail :
	    w->at + JENC_IN_AFTER))
		return " (is it CSV? try -f csv)";
	return "";
}

/*
 * JENC_READ_JSONC, before an error at in.p[pos] is reported: filter what
 * jenc_in_line read, reading on (up to 64 KiB past the spot) while what
 * is undecided starts within reach of the excerpt, so that it shows the
 * line as it is however the input arrived.
 */
static void
jsonc_line(struct rd *r, size_t pos)
{
	while (jenc_jsonc_filter(&r->jc, (char *)r->in.p, r->in.len,
	    r->in.off, r->in.eof) != 0 &&
	    jenc_jsonc_undecided(&r->jc) <
	    r->in.off + pos + JENC_EXCERPT_SCAN &&
	    r->in.len - pos < ((size_t)64 << 10))
		if (jenc_in_fill(&r->in) != 0)
			break;
}

/*
 * Bulk mode: the end of the checked output that may go to the encoder,
 * in.p[from..end).  Where the walk stopped at a piece's end, the
 * separators and brackets after the last token go only with what follows
 * them, so that what is written of a bad value does not depend on where
 * the pieces of input ended (the window, jsmn's token array, the slots of
 * a second thread).
 */
static inline size_t
bulk_end(const struct rd *r)
{
	if (r->cur != r->gap_to)
		return r->cur;
	return r->tend > r->from ? r->tend : r->from;
}

/*
 * Fill r->err through jenc_err_set: the spot in.p[pos] (NO_POS for an
 * error that has none, as allocation and read failures), after reading
 * on to the end of its line so that the excerpt does not depend on how
 * the input arrived.
 */
static int
rd_fail(struct rd *r, size_t pos, int code, int kind, int sys_errno,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int
rd_fail(struct rd *r, size_t pos, int code, int kind, int sys_errno,
    const char *fmt, ...)
{
	char msg[sizeof(r->err->msg)];
	jenc_where w;
	int cut = 0;
	const char *hint = "";
	va_list ap;

	pipe_stop(r);
	r->str_bad = NO_OFF;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (pos == ENC_POS) {
		jenc_in_enc_where(&r->in, &w);
	} else if (pos != NO_POS) {
		if (pos > r->in.len)
			pos = r->in.len;
		jenc_in_line(&r->in, pos, 0);
		if (r->jsonc)
			jsonc_line(r, pos);
		jenc_in_where(&r->in, pos, &w);
		if (code == JENC_E_SYNTAX)
			hint = input_hint(r, pos, &w);
	}
	/*
	 * The bad value: held whole, it is dropped; past hold_max (or with no
	 * JENC_HOLD) part of it is out already, so write all of it that was
	 * checked (in bulk mode the last bytes are still in the window).
	 */
	size_t end = bulk_end(r);

	if (r->bulk && r->depth > 0 && end > r->from && end <= r->in.len)
		(void)jenc_frag(r->e, r->in.p + r->from, end - r->from);
	if (r->e != NULL) {
		(void)jenc_flush(r->e);
		r->split_out = jenc_split_written(r->e);
		cut = jenc_discard(r->e);
		/* what was written of bad input ends its line, as a value
		 * would, so that what follows is not glued to it (a read
		 * or allocation failure ends the output there) */
		if (cut && (code == JENC_E_SYNTAX || code == JENC_E_DEPTH))
			(void)jenc_passthru(r->e, "\n", 1);
	}
	return jenc_err_set(r->err, code, kind, sys_errno, cut,
	    pos != NO_POS ? &w : NULL, "%s%s%s", msg, hint,
	    cut ? " (output of this value was cut)" : "");
}

/* Cold and out of line: see walk(). */
static int __attribute__((cold, noinline))
state_fail(struct rd *r, size_t pos)
{
	char found[32];
	size_t avail = pos < r->in.len ? r->in.len - pos : 0;
	int kind = avail == 0 ? JENC_K_CUT : JENC_K_TOKEN;

	jenc_err_found(found, sizeof(found), r->in.p + pos, avail);
	if (r->jsonc && avail > 0 && r->in.p[pos] == '/' &&
	    jenc_jsonc_unterminated(&r->jc, r->in.off + pos))
		return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_CUT, 0,
		    "unterminated comment, found end of input");
	if (r->st == S_TOP && r->single && r->values > 0)
		return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_SECOND, 0,
		    "expected end of input after the value, found %s", found);
	if (r->st == S_TOP && r->single)
		return rd_fail(r, pos, JENC_E_SYNTAX, kind, 0,
		    "expected value, found %s", found);
	return rd_fail(r, pos, JENC_E_SYNTAX, kind, 0, "%s, found %s",
	    state_expect[r->st], found);
}

/*
 * A view rejected a value (jenc.h, "views"): bad input at the token whose
 * call failed, r->fail_at: the value's first token (a record that is not
 * an object) or the bracket that closed it, found before the reader
 * counted it closed (so that the bad text is the whole value).
 */
static int __attribute__((cold, noinline))
view_fail(struct rd *r, const char *msg, int at_start, int kind)
{
	char m[sizeof(r->err->msg)], found[32];
	size_t pos = r->fail_at;

	snprintf(m, sizeof(m), "%s", msg);
	if (pos == NO_POS || pos >= r->in.len)
		pos = r->cur < r->in.len ? r->cur : r->in.len;
	if (!at_start) {
		if (r->depth == 0)
			r->depth = 1;	/* the closing bracket: inside it */
		return rd_fail(r, pos, JENC_E_SYNTAX, kind, 0, "%s", m);
	}
	jenc_err_found(found, sizeof(found), r->in.p + pos, r->in.len - pos);
	return rd_fail(r, pos, JENC_E_SYNTAX, kind, 0, "%s, found %s", m,
	    found);
}

/* The encoder failed (a write error, no memory, a view's rejection):
 * report its code. */
static int __attribute__((cold, noinline))
enc_fail(struct rd *r)
{
	int code = jenc_error(r->e), at_start, kind;
	const char *msg = jenc_view_msg(r->e, &at_start, &kind);

	if (msg != NULL)
		return view_fail(r, msg, at_start, kind);
	/* Out of memory, the value cannot be finished: as for bad input,
	 * it is dropped, so that e holds complete values only. */
	int cut = code == JENC_E_NOMEM ? jenc_discard(r->e) : 0;

	return jenc_err_set(r->err, code, JENC_K_NONE, jenc_errno(r->e), cut,
	    NULL, "%s", jenc_strerror(code));
}

#define EMIT(call) EMIT_AT(call, NO_POS)
/* ... for the token or bracket at pos */
#define EMIT_AT(call, pos) do { \
	if (r->e != NULL && (call) != 0) { \
		r->fail_at = (pos); \
		return enc_fail(r); \
	} \
} while (0)

/* ---- grammar ------------------------------------------------------------ */

/* A value ended: what may come next. */
static inline void
after_value(struct rd *r)
{
	if (r->depth == 0) {
		r->st = S_TOP;
		r->values++;
	} else {
		r->st = r->stk[r->depth - 1] == '{' ? S_OBJ_NEXT : S_ARR_NEXT;
	}
}

/* Bulk mode: whitespace win[a..b) inside a value is left out. */
static inline int
skip_ws(struct rd *r, size_t a, size_t b)
{
	if (r->bulk && r->depth > 0) {
		if (a > r->from)
			EMIT(jenc_frag(r->e, r->in.p + r->from, a - r->from));
		r->from = b;
	}
	return 0;
}

/* May a value start at pos? */
static inline int
value_ok(struct rd *r, size_t pos)
{
	switch (r->st) {
	case S_TOP:
		r->bol = 0;
		if (r->single && r->values > 0)
			return state_fail(r, pos);
		return 0;
	case S_ARR_FIRST:
	case S_ARR_VAL:
	case S_OBJ_VAL:
		return 0;
	}
	return state_fail(r, pos);
}

static int
open_container(struct rd *r, size_t pos, char c)
{
	if (value_ok(r, pos) != 0)
		return JENC_E_SYNTAX;
	if (r->depth >= r->max_depth)
		return rd_fail(r, pos, JENC_E_DEPTH, JENC_K_DEPTH, 0,
		    "nesting deeper than %u level%s (see --max-depth)",
		    r->max_depth, r->max_depth == 1 ? "" : "s");
	if (r->depth == r->stk_cap) {
		size_t ncap = r->stk_cap * 2;
		unsigned char *ns = jenc_mem_realloc(r->stk, r->stk_cap, ncap);

		if (ns == NULL)
			return rd_fail(r, NO_POS, JENC_E_NOMEM, JENC_K_NONE, 0,
			    "out of memory");
		r->stk = ns;
		r->stk_cap = ncap;
	}
	if (r->depth == 0) {
		r->vstart = r->in.off + pos;
		r->lost = 0;
	}
	if (r->bulk) {
		if (r->depth == 0) {
			EMIT(jenc_frag_begin(r->e));
			r->from = pos;
		}
	} else if (c == '{') {
		EMIT_AT(jenc_obj_begin(r->e), pos);
	} else {
		EMIT_AT(jenc_arr_begin(r->e), pos);
	}
	r->stk[r->depth++] = (unsigned char)c;
	r->st = c == '{' ? S_OBJ_FIRST : S_ARR_FIRST;
	return 0;
}

/* The bracket c at pos closes the innermost container. */
static int
close_container(struct rd *r, size_t pos, char c)
{
	r->depth--;
	if (r->depth == 0)
		r->vend = r->in.off + pos + 1;
	if (!r->bulk) {
		EMIT_AT(c == '}' ? jenc_obj_end(r->e) : jenc_arr_end(r->e),
		    pos);
	} else if (r->depth == 0) {
		EMIT(jenc_frag(r->e, r->in.p + r->from, pos + 1 - r->from));
		EMIT_AT(jenc_frag_end(r->e), pos);
	}
	after_value(r);
	return 0;
}

/* Byte classes between tokens, and what a separator does in each state. */
enum { G_BAD, G_WS, G_COMMA, G_COLON, G_RBRACKET, G_RBRACE };
static const unsigned char gap_class[256] = {
	[' '] = G_WS, ['\t'] = G_WS, ['\n'] = G_WS, ['\r'] = G_WS,
	[','] = G_COMMA, [':'] = G_COLON, [']'] = G_RBRACKET, ['}'] = G_RBRACE,
};
#define G_CLOSE 0x40		/* close the innermost container */
#define G_FAIL 0x80
static const unsigned char gap_next[][6] = {
	[S_TOP] = { G_FAIL, 0, G_FAIL, G_FAIL, G_FAIL, G_FAIL },
	[S_ARR_FIRST] = { G_FAIL, 0, G_FAIL, G_FAIL, G_CLOSE, G_FAIL },
	[S_ARR_VAL] = { G_FAIL, 0, G_FAIL, G_FAIL, G_FAIL, G_FAIL },
	[S_ARR_NEXT] = { G_FAIL, 0, S_ARR_VAL, G_FAIL, G_CLOSE, G_FAIL },
	[S_OBJ_FIRST] = { G_FAIL, 0, G_FAIL, G_FAIL, G_FAIL, G_CLOSE },
	[S_OBJ_KEY] = { G_FAIL, 0, G_FAIL, G_FAIL, G_FAIL, G_FAIL },
	[S_OBJ_COLON] = { G_FAIL, 0, G_FAIL, S_OBJ_VAL, G_FAIL, G_FAIL },
	[S_OBJ_VAL] = { G_FAIL, 0, G_FAIL, G_FAIL, G_FAIL, G_FAIL },
	[S_OBJ_NEXT] = { G_FAIL, 0, S_OBJ_KEY, G_FAIL, G_FAIL, G_CLOSE },
};

/* The end of the run of whitespace at win[from], at most to. */
static inline size_t
ws_end(const struct rd *r, size_t from, size_t to)
{
#ifdef __SSE2__
	while (from + 16 <= r->in.len) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (r->in.p + from));
		__m128i ws = _mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
		    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
		unsigned m = (unsigned)_mm_movemask_epi8(ws) ^ 0xffffu;

		if (m != 0) {
			from += (size_t)__builtin_ctz(m);
			return from < to ? from : to;
		}
		from += 16;
		if (from >= to)
			return to;
	}
#endif
	while (from < to && gap_class[(unsigned char)r->in.p[from]] == G_WS)
		from++;
	return from;
}

/*
 * JENC_READ_BLANK: the line ends in whitespace win[a..b) between
 * top-level values; each that ends a line of whitespace alone is passed
 * through as an empty line.
 */
static int __attribute__((noinline))
blank_lines(struct rd *r, size_t a, size_t b)
{
	const char *p = r->in.p, *nl;

	while (a < b && (nl = memchr(p + a, '\n', b - a)) != NULL) {
		a = (size_t)(nl - p) + 1;
		if (r->bol && r->in.off + a > r->blank_done) {
			r->blank_done = r->in.off + a;
			EMIT(jenc_passthru(r->e, "\n", 1));
		}
		r->bol = 1;
	}
	return 0;
}

/* The bytes between two tokens: separators, closing brackets, space. */
static inline int
gap(struct rd *r, size_t from, size_t to)
{
	while (from < to) {
		unsigned char c = (unsigned char)r->in.p[from];
		unsigned cls = gap_class[c], next;

		if (cls == G_WS) {
			size_t b = ws_end(r, from + 1, to);

			if (skip_ws(r, from, b) != 0)
				return JENC_E_IO;
			if (r->blank && r->st == S_TOP &&
			    blank_lines(r, from, b) != 0)
				return JENC_E_IO;
			from = b;
			continue;
		}
		next = gap_next[r->st][cls];
		if (next < G_CLOSE)
			r->st = (int)next;
		else if (next == G_FAIL)
			return state_fail(r, from);
		else if (close_container(r, from, (char)c) != 0)
			return JENC_E_IO;
		from++;
	}
	return 0;
}

static int
is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * The length of the escape at p[i], a backslash, as JSON (and jsmn) take
 * it: 2, or 6 for \uXXXX; 0 if p[0..n) ends before it is complete; -1 if
 * it is not one (the byte after the backslash, or a \u without 4 hex
 * digits).
 */
static inline int
esc_len(const unsigned char *p, size_t i, size_t n)
{
	size_t k;

	if (i + 1 >= n)
		return 0;
	switch (p[i + 1]) {
	case '"': case '\\': case '/': case 'b':
	case 'f': case 'n': case 'r': case 't':
		return 2;
	case 'u':
		for (k = 2; k < 6; k++) {
			if (i + k >= n)
				return 0;
			if (!is_hex(p[i + k]))
				return -1;
		}
		return 6;
	}
	return -1;
}

/*
 * A raw control byte c at in.p[pos], in a string: with JENC_READ_SEQ an
 * RS there ends the text as truncated, as it does in a container.
 */
static void
str_ctl(struct rd *r, size_t pos, unsigned char c)
{
	if (c == RS && r->seq)
		rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_CUT, 0,
		    "truncated JSON text before RS");
	else
		rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_CONTROL, 0,
		    "unescaped control character 0x%02x in string", c);
}

/*
 * Check a string body from b: returns the index of the closing quote, or
 * `limit` if there is none before it, or (size_t)-1 after reporting an
 * error.
 */
static size_t
str_scan(struct rd *r, size_t b, size_t limit)
{
	const unsigned char *p = (const unsigned char *)r->in.p;
	size_t i = b;

	while (i < limit) {
		i = scan_find(p, i, limit, NULL, '"', '\\', '\\');
		if (i >= limit)
			break;
		unsigned char c = p[i];
		if (c == '"')
			return i;
		if (c == '\\') {
			int k = esc_len(p, i, limit);

			if (k > 0) {
				i += (size_t)k;
				continue;
			}
			if (k == 0)
				return limit;
			if (p[i + 1] == 'u') {
				rd_fail(r, i, JENC_E_SYNTAX, JENC_K_ESCAPE, 0,
				    "invalid \\u escape in string, "
				    "expected 4 hex digits");
				r->str_bad = r->in.off + b - 1;
				return (size_t)-1;
			}
			char found[32];
			if (p[i + 1] > 0x20 && p[i + 1] < 0x7f)
				snprintf(found, sizeof(found), "'\\%c'", p[i + 1]);
			else
				snprintf(found, sizeof(found), "'\\' + byte 0x%02x",
				    p[i + 1]);
			rd_fail(r, i, JENC_E_SYNTAX, JENC_K_ESCAPE, 0,
			    "invalid escape %s in string", found);
			r->str_bad = r->in.off + b - 1;
			return (size_t)-1;
		}
		if (c < 0x20) {
			str_ctl(r, i, c);
			r->str_bad = r->in.off + b - 1;
			return (size_t)-1;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t k = jenc_utf8_seq(p + i, limit - i, &cp);
		if (k == 0) {
			/* A sequence cut by the window end may complete later. */
			if (!r->in.eof && limit == r->in.len &&
			    jenc_utf8_cut(p + i, limit - i))
				return limit;
			rd_fail(r, i, JENC_E_SYNTAX, JENC_K_BYTE, 0,
			    "invalid UTF-8 byte 0x%02x in string", c);
			r->str_bad = r->in.off + b - 1;
			return (size_t)-1;
		}
		i += k;
	}
	return limit;
}

/*
 * Check the body win[b..end) of a complete string token, whose escapes
 * are known to be valid (jsmn checks them, as str_scan does): no raw
 * control byte, valid UTF-8.
 */
static inline int
body_ok(struct rd *r, size_t b, size_t end)
{
	const unsigned char *p = (const unsigned char *)r->in.p + b;
	size_t n = end - b, i = scan_text_bad(p, n, r->in.len - b, 0x20);

	if (i == n)
		return 0;
	if (p[i] < 0x20)
		str_ctl(r, b + i, p[i]);
	else
		rd_fail(r, b + i, JENC_E_SYNTAX, JENC_K_BYTE, 0,
		    "invalid UTF-8 byte 0x%02x in string", p[i]);
	r->str_bad = r->in.off + b - 1;
	return JENC_E_SYNTAX;
}

/* A string token: quote at q, body [q+1, end), closing quote at end;
 * checked: skel.c has checked its body as body_ok would. */
static inline int
string(struct rd *r, size_t q, size_t end, int checked)
{
	int is_key = r->st == S_OBJ_FIRST || r->st == S_OBJ_KEY;

	if (!is_key && value_ok(r, q) != 0)
		return JENC_E_SYNTAX;
	if (!checked && body_ok(r, q + 1, end) != 0)
		return JENC_E_SYNTAX;
	if (is_key) {
		if (!r->bulk)
			EMIT(jenc_raw_key(r->e, r->in.p + q + 1, end - q - 1));
		r->st = S_OBJ_COLON;
		return 0;
	}
	if (r->depth == 0) {
		r->vstart = r->in.off + q;
		r->vend = r->in.off + end + 1;
	}
	if (!r->bulk || r->depth == 0)
		EMIT_AT(jenc_raw_str(r->e, r->in.p + q + 1, end - q - 1), q);
	after_value(r);
	return 0;
}

static int
word_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

#ifdef __SSE2__
/* Bit i set where s[i] is not an ASCII digit, for i < 32. */
static inline uint32_t
nondigits32(const unsigned char *s)
{
	const __m128i lo = _mm_set1_epi8('0'), hi = _mm_set1_epi8('9');
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
	unsigned ma = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_cmplt_epi8(a, lo), _mm_cmpgt_epi8(a, hi)));
	unsigned mb = (unsigned)_mm_movemask_epi8(_mm_or_si128(
	    _mm_cmplt_epi8(b, lo), _mm_cmpgt_epi8(b, hi)));

	return (uint32_t)(ma | mb << 16);
}
#endif

/*
 * jenc_json_number_ok(p, n), with room >= n bytes readable from p: for a
 * number under 32 bytes with 32 readable, the digit runs are found all at
 * once from a mask of the bytes that are not digits.
 */
static inline int
number_ok(const char *p, size_t n, size_t room)
{
#ifdef __SSE2__
	if (n < 32 && room >= 32) {
		const unsigned char *s = (const unsigned char *)p;
		/* non-digits, and a stop bit at n */
		uint64_t m = ((uint64_t)nondigits32(s) | (uint64_t)1 << n) &
		    (((uint64_t)2 << n) - 1);
		unsigned i = s[0] == '-', j, k;

		j = (unsigned)__builtin_ctzll(m >> i << i);
		if (j == i || (s[i] == '0' && j > i + 1))
			return 0;	/* no digit, or a leading zero */
		if (j == n)
			return 1;
		if (s[j] == '.') {
			k = (unsigned)__builtin_ctzll(m & (~0ull << (j + 1)));
			if (k == j + 1)
				return 0;
			if (k == n)
				return 1;
			j = k;
		}
		if ((s[j] | 0x20) != 'e')
			return 0;
		j++;
		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		k = (unsigned)__builtin_ctzll(m & (~0ull << j));
		return k > j && k == n;
	}
#endif
	(void)room;
	return jenc_json_number_ok(p, n);
}

static int
literal_ok(const char *s, size_t n)
{
	return (n == 4 && memcmp(s, "true", 4) == 0) ||
	    (n == 5 && memcmp(s, "false", 5) == 0) ||
	    (n == 4 && memcmp(s, "null", 4) == 0);
}

/*
 * RFC 7464 section 2.4: a top-level number or literal must be followed by
 * whitespace, else it may have been cut.  1 if the primitive ending at
 * in.p[end] is followed by RS or the end of the input.
 */
static int
seq_cut(const struct rd *r, size_t end)
{
	if (end < r->in.len)
		return (unsigned char)r->in.p[end] == RS;
	return r->in.eof;
}

/* A primitive starting at pos and ending at or before end. */
static int
primitive(struct rd *r, size_t pos, size_t end)
{
	const char *s = r->in.p + pos;
	size_t k = 0, n = end - pos;
	int ok;

	if (value_ok(r, pos) != 0)
		return JENC_E_SYNTAX;
	if (r->depth == 0) {
		r->vstart = r->in.off + pos;
		if (r->seq && seq_cut(r, end))
			return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_CUT, 0,
			    "truncated JSON text before %s, expected "
			    "whitespace after a top-level %s",
			    end < r->in.len ? "RS" : "end of input",
			    s[0] == 't' || s[0] == 'f' || s[0] == 'n' ?
			    "literal" : "number");
	}
	/* The common case: the whole token is a number or a literal. */
	if (s[0] == 't' || s[0] == 'f' || s[0] == 'n')
		ok = literal_ok(s, n);
	else
		ok = number_ok(s, n, r->in.len - pos);
	if (ok) {
		if (r->depth == 0)
			r->vend = r->in.off + end;
		if (!r->bulk || r->depth == 0)
			EMIT_AT(jenc_raw(r->e, s, n), pos);
		after_value(r);
		return 0;
	}
	/* Say what is wrong: a bad word, or a good one with junk after it. */
	while (k < n && word_byte((unsigned char)s[k]))
		k++;
	if (k == 0)
		return state_fail(r, pos);
	if ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) {
		if (!literal_ok(s, k))
			return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_LITERAL, 0,
			    "invalid literal '%.*s%s', expected true, false or null",
			    k > 32 ? 32 : (int)k, s, k > 32 ? "..." : "");
	} else if (!jenc_json_number_ok(s, k)) {
		return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_NUMBER, 0,
		    "invalid number '%.*s%s'", k > 32 ? 32 : (int)k, s,
		    k > 32 ? "..." : "");
	}
	if (r->depth == 0)
		r->vend = r->in.off + pos + k;
	if (!r->bulk || r->depth == 0)
		EMIT_AT(jenc_raw(r->e, s, k), pos);
	after_value(r);
	/*
	 * At top level another value may follow with no space: `2"s"`,
	 * `null{}`.  jsmn took it all as one primitive, so tell the caller
	 * to restart jsmn there (it has nothing open at top level).
	 */
	if (r->depth == 0) {
		r->cur = pos + k;
		return RESYNC;
	}
	return state_fail(r, pos + k);
}

static int slow_scan_run(struct rd *r, size_t pos, size_t limit);

/*
 * The slow path: check win[pos..limit) byte by byte with our own grammar,
 * after jsmn stopped with an error, at a NUL byte, or at the end of input.
 * Returns 0 if everything up to limit is fine so far.  The work counted
 * is what the scan read: up to where it stopped (r->cur), not limit, which
 * an error or the end of a top-level value may come long before.
 */
static int
slow_scan(struct rd *r, size_t pos, size_t limit)
{
	int rc = slow_scan_run(r, pos, limit);
	size_t end = r->cur >= pos && r->cur < limit ? r->cur + 1 : limit;

	jenc_work_add(JENC_W_SLOW, end > pos ? end - pos : 0);
	return rc;
}

static int
slow_scan_run(struct rd *r, size_t pos, size_t limit)
{
	size_t from = pos;

	r->gap_to = NO_POS;	/* cur is the scan's */
	while (pos < limit) {
		r->cur = pos;	/* checked so far (rd_fail reads it) */
		if (r->stop_top && pos > from && r->st == S_TOP) {
			r->cur = pos;
			return 0;
		}
		unsigned char c = (unsigned char)r->in.p[pos];

		if (c == RS && r->seq) {
			if (r->st != S_TOP)
				return rd_fail(r, pos, JENC_E_SYNTAX,
				    JENC_K_CUT, 0,
				    "truncated JSON text before RS");
			if (skip_ws(r, pos, pos + 1) != 0)
				return JENC_E_SYNTAX;
			pos++;
			continue;
		}
		if (c == '"') {
			int is_key = r->st == S_OBJ_FIRST || r->st == S_OBJ_KEY;
			size_t q;

			if (!is_key && value_ok(r, pos) != 0)
				return JENC_E_SYNTAX;
			q = str_scan(r, pos + 1, limit);
			if (q == (size_t)-1)
				return JENC_E_SYNTAX;
			if (q == limit) {
				if (!r->in.eof) {
					r->cur = pos;
					return 0;
				}
				return rd_fail(r, pos, JENC_E_SYNTAX,
				    JENC_K_CUT, 0,
				    "unterminated string, found end of input");
			}
			if (string(r, pos, q, 0) != 0)
				return JENC_E_SYNTAX;
			pos = q + 1;
		} else if (c == '{' || c == '[') {
			if (open_container(r, pos, (char)c) != 0)
				return JENC_E_SYNTAX;
			pos++;
		} else if (word_byte(c)) {
			size_t k = pos;

			while (k < limit &&
			    word_byte((unsigned char)r->in.p[k]))
				k++;
			if (k == limit && !r->in.eof) {
				r->cur = pos;
				return 0;
			}
			int rc = primitive(r, pos, k);

			if (rc != 0 && rc != RESYNC)
				return JENC_E_SYNTAX;
			pos = k;
		} else {
			if (gap(r, pos, pos + 1) != 0)
				return JENC_E_SYNTAX;
			pos++;
		}
	}
	r->cur = pos;
	return 0;
}

/* ---- jsmn ---------------------------------------------------------------- */

/*
 * Only the helpers in this section read or change jsmn's parser.  Between
 * two calls jsmn_parse keeps three numbers: pos, the next byte it looks
 * at; toknext, the first free token; toksuper, the innermost open
 * container (or the key whose value comes next), -1 at top level.  It
 * reads the input only from pos on, and looks back at earlier tokens only
 * through toksuper and the parent links from toknext - 1 up (built with
 * JSMN_PARENT_LINKS), asking of each only its type and whether it is still
 * open (start != -1, end == -1).  That is what lets the window slide under
 * it, the finished tokens go, and a fresh start at top level.
 */

/* The next byte jsmn looks at. */
static inline size_t
jp_pos(const struct rd *r)
{
	return r->jp.pos;
}

/* Tokens jsmn has filled in, walked or not: tok[0..jp_count). */
static inline unsigned
jp_count(const struct rd *r)
{
	return r->jp.toknext;
}

/*
 * Start afresh at pos, at top level, with no token: jsmn_init's state at
 * another position.  Only right where nothing is open (a top-level value
 * just ended), or where jsmn's state no longer matters (after an error).
 */
static void
jp_restart(struct rd *r, size_t pos)
{
	pipe_stop(r);
	r->gap_to = NO_POS;
	jsmn_init(&r->jp);
	r->jp.pos = (unsigned)pos;
	r->done = 0;
	r->pend = NO_POS;
	r->sk_valid = 0;
	r->sk_ok_lo = r->sk_ok_hi = 0;
}

/*
 * The window dropped n bytes from its front (n <= pos): pos is jsmn's only
 * byte position that it reads again, since jp_compact has cleared those
 * of the tokens kept.
 */
static void
jp_rebase(struct rd *r, size_t n)
{
	r->jp.pos -= (unsigned)n;
}

/*
 * jsmn_parse over in.p[0..len) on a copy of the parser held in a local:
 * jsmn keeps its position in the parser and reads the input through a char
 * pointer, which may alias anything, so through a pointer the position is
 * stored and reloaded around every byte.  A local whose address never
 * escapes (jsmn is inlined here) lives in registers.
 */
static int __attribute__((flatten))
jp_parse(struct rd *r, const char *js, size_t len)
{
	jsmn_parser p = r->jp;
	int res = jsmn_parse(&p, js, len, r->tok, r->ntok);

	jenc_work_add(JENC_W_JSMN_CALLS, 1);
	jenc_work_add(JENC_W_JSMN_BYTES, jenc_jsmn_read(r->jp.pos, p.pos,
	    len, res));
	r->jp = p;
	return res;
}

/*
 * jsmn_parse over in.p[pos..len), as jp_parse(r, in.p, len) would, but
 * reading skeletons (skel.c) of up to JENC_SKEL_MAX bytes at a time
 * instead of the text: jsmn makes the same tokens of a skeleton, with
 * positions in it, which are turned back into positions in the window
 * through the skeleton's map (a primitive, of which the skeleton holds
 * the first byte, ends where the byte after it is); its position after
 * the call too.  Each
 * skeleton ends where no token spans, so that jsmn can go on from there
 * in the text or in the next skeleton.  Where skel.c refuses a piece (bad
 * input, or anything jsmn could read otherwise in a skeleton), jsmn reads
 * the rest of the window itself, and finds any error exactly where it
 * would have.  After JSMN_ERROR_NOMEM the next call goes on in the same
 * skeleton.
 */
static int pipe_tokenize(struct rd *r, size_t len);

static int
jp_tokenize(struct rd *r, size_t len)
{
	if (r->pipe_on)
		return pipe_tokenize(r, len);
	if (r->sk == NULL || len < r->in.len)
		return jp_parse(r, r->in.p, len);
	for (;;) {
		size_t pos = jp_pos(r), base, sp, n, b;
		unsigned i, t0 = r->jp.toknext;
		int res;

		if (!r->sk_valid || r->in.off + pos != r->sk_at) {
			r->sk_valid = 0;
			n = len - pos;
			if (n > JENC_SKEL_MAX)
				n = JENC_SKEL_MAX;
			jenc_work_add(JENC_W_SKEL, n);
			b = jenc_skel(r->in.p + pos, n, r->sk, r->sk_map,
			    &r->sk_len);
			if (b == 0 || b == (size_t)-1)
				break;
			if (pos != r->sk_ok_hi)
				r->sk_ok_lo = pos;
			r->sk_ok_hi = pos + b;
			r->sk_base = r->sk_at = r->in.off + pos;
			r->sk_end = r->sk_base + b;
			r->sk_next = 0;
			r->sk_valid = 1;
		}
		r->jp.pos = (unsigned)r->sk_next;
		res = jp_parse(r, r->sk, r->sk_len);
		base = (size_t)(r->sk_base - r->in.off);
		for (i = t0; i < r->jp.toknext; i++)
			jenc_tok_text(&r->tok[i], r->sk_map, base);
		sp = r->jp.pos;
		if (sp >= r->sk_len) {
			r->jp.pos = (unsigned)(r->sk_end - r->in.off);
			r->sk_valid = 0;
		} else {
			r->jp.pos = (unsigned)(base + r->sk_map[sp]);
			r->sk_next = sp;
			r->sk_at = r->in.off + r->jp.pos;
		}
		if (res == JSMN_ERROR_NOMEM || res == JSMN_ERROR_INVAL)
			return res;
		/* JSMN_ERROR_PART with everything read: a container is
		 * open.  (Anything else is not expected: a skeleton ends
		 * where no token is cut, and holds no NUL byte.) */
		if ((res < 0 && res != JSMN_ERROR_PART) || sp < r->sk_len)
			break;
		if (jp_pos(r) == len)
			return res;
	}
	r->sk_valid = 0;
	return jp_parse(r, r->in.p, len);
}

/*
 * jp_tokenize with the scout's tokens (jenc_json_pipe): those of the
 * slots whose text the window holds, as many as tok[] takes, their
 * positions moved into the window; jsmn's result as it would be.  The
 * walk checks them as it does jsmn's (a string's text is known to be
 * clean: the scout's skeletons took it).  Where the scout stopped, its
 * jsmn state becomes ours and jsmn goes on here.
 */
static int
pipe_tokenize(struct rd *r, size_t len)
{
	const struct jenc_pipe_slot *s;
	unsigned n = 0;

	r->sk_ok_lo = 0;
	r->sk_ok_hi = SIZE_MAX;
	while ((s = jenc_pipe_next(r->pipe)) != NULL) {
		size_t base = (size_t)(s->off - r->in.off);
		size_t k = r->pipe_k > s->first ? r->pipe_k : s->first;
		size_t m = s->ntok - k, i;
		const uint32_t *map = s->map;

		if (m > r->ntok - n)
			m = r->ntok - n;
		/* positions in the skeleton to positions in the window, as
		 * jp_tokenize turns them; or, when the scout turned them into
		 * the slot text's (s->mapped), only moved */
		for (i = 0; i < m; i++) {
			jsmntok_t t = s->tok[k + i];

			if (!s->mapped) {
				jenc_tok_text(&t, map, base);
			} else {
				t.start += (int)base;
				if (t.end >= 0)
					t.end += (int)base;
			}
			r->tok[n++] = t;
		}
		r->pipe_k = k += m;
		r->jp.toknext = n;
		r->done = 0;
		if (k < s->ntok) {
			/* tok[] is full: the next call goes on at the next
			 * token's first byte, as jsmn would */
			const jsmntok_t *t = &s->tok[k];

			r->jp.pos = (unsigned)(base + (s->mapped ?
			    (size_t)t->start - (t->type == JSMN_STRING) :
			    map[t->start - (t->type == JSMN_STRING)]));
			return JSMN_ERROR_NOMEM;
		}
		r->jp.pos = (unsigned)(base + s->tok_end);
		r->pipe_open = s->open;
		if (s->takeover) {
			if (n > 0)	/* walk these first */
				return JSMN_ERROR_NOMEM;
			/* (tok[] has room for twice the longest chain) */
			if (s->nchain > 0)
				memcpy(r->tok, s->chain,
				    s->nchain * sizeof(jsmntok_t));
			r->jp = s->jp;
			r->jp.pos = (unsigned)(base + s->tok_end);
			r->done = s->nchain;
			r->pend = NO_POS;
			r->sk_valid = 0;
			r->pipe_k = 0;
			jenc_pipe_next_done(r->pipe);
			pipe_stop(r);
			return jp_tokenize(r, len);
		}
		r->pipe_k = 0;
		jenc_pipe_next_done(r->pipe);
	}
	return r->pipe_open ? JSMN_ERROR_PART : (int)n;
}

/*
 * Cheap trim after each jsmn call: every open container is toksuper or an
 * ancestor of it, so a lower index; the tokens after toksuper are finished
 * values already walked, which jsmn's climbs would only step over.  A key
 * still waiting for its ':' moves down to just after toksuper, where jsmn
 * takes it as the key (toknext - 1) when the ':' comes.
 */
static void
jp_trim(struct rd *r)
{
	unsigned n = (unsigned)(r->jp.toksuper + 1);

	if (r->pipe_on) {
		r->jp.toknext = r->done = 0;
		return;
	}
	if (r->st == S_OBJ_COLON && r->jp.toknext > n) {
		r->tok[n] = r->tok[r->jp.toknext - 1];
		n++;
	}
	if (n < r->jp.toknext) {
		r->jp.toknext = n;
		r->done = n;
	}
}

/*
 * Keep only the tokens jsmn still needs: the chain of open containers (and
 * keys awaiting values) from toksuper up, plus a key still waiting for its
 * ':' (jsmn takes toknext - 1 as the key).  Their byte positions are no
 * longer needed, only whether each is open: open containers get start 0,
 * end -1; keys start 0, end 0.  The token array doubles when the chain
 * fills half of it.  Returns 0 or -1 (out of memory).
 */
static int
jp_compact(struct rd *r)
{
	jsmntok_t *t = r->tok;
	int chain[64], *ch = chain, *heap = NULL;
	int n = 0, i, cap = 64, super = r->jp.toksuper;
	int pending = r->st == S_OBJ_COLON && r->jp.toknext > 0 ?
	    (int)r->jp.toknext - 1 : -1;

	if (r->pipe_on) {
		r->jp.toknext = r->done = 0;
		return 0;
	}

	for (i = super; i >= 0; i = t[i].parent) {
		if (n == cap) {
			int *nh = jenc_mem_alloc((size_t)cap * 2 * sizeof(int));

			if (nh == NULL) {
				jenc_mem_free(heap, (size_t)cap * sizeof(int));
				return -1;
			}
			memcpy(nh, ch, (size_t)cap * sizeof(int));
			jenc_mem_free(heap, (size_t)cap * sizeof(int));
			heap = ch = nh;
			cap *= 2;
		}
		ch[n++] = i;
	}
	/*
	 * ch[n-1] is the root.  A parent's index is below its child's, so
	 * moving the chain down to 0..n-1, root first, only overwrites slots
	 * already read.
	 */
	for (i = 0; i < n; i++) {
		jsmntok_t k = t[ch[n - 1 - i]];

		k.parent = i - 1;
		k.start = 0;
		if (k.type != JSMN_OBJECT && k.type != JSMN_ARRAY)
			k.end = 0;
		t[i] = k;
	}
	jenc_mem_free(heap, (size_t)cap * sizeof(int));
	r->jp.toksuper = n - 1;
	if (pending >= 0) {
		/* The key is the newest token, above every chain slot. */
		jsmntok_t k = t[pending];

		k.parent = n - 1;
		k.start = 0;
		k.end = 0;
		t[n++] = k;
	}
	r->jp.toknext = (unsigned)n;
	r->done = (unsigned)n;
	if ((unsigned)n * 2 > r->ntok) {
		unsigned nn = r->ntok * 2;
		jsmntok_t *nt = jenc_mem_realloc(r->tok,
		    r->ntok * sizeof(jsmntok_t), nn * sizeof(jsmntok_t));

		if (nt == NULL)
			return -1;
		r->tok = nt;
		r->ntok = nn;
	}
	return 0;
}

/*
 * jsmn returned JSMN_ERROR_PART with pos at a string or primitive the
 * window end cuts.  On its next call it would scan that token again from
 * its first byte, so calling it after every short read of a long token
 * would take time quadratic in its length.  Instead jp_cut_ends scans the
 * bytes that arrive, as jsmn would, until its next call can end otherwise
 * than JSMN_ERROR_PART for the token.  jsmn_parse then makes the token as
 * always: the scan only says when to call it.
 */
static void
jp_cut(struct rd *r)
{
	r->pend = r->jp.pos;
	r->pend_scan = r->jp.pos + (r->in.p[r->jp.pos] == '"');
}

/*
 * 1 when the window now holds what ends the cut token for jsmn: for a
 * primitive, a byte it stops or fails at (space, ',', ']', '}', a control
 * byte, NUL, a byte from 0x7f); for a string its closing quote, a NUL
 * byte or an escape it rejects.  Else 0, and pend_scan moves on to the
 * window end, or to a backslash whose escape is not all in yet.
 */
static int
jp_cut_scan(struct rd *r)
{
	const unsigned char *p = (const unsigned char *)r->in.p;
	size_t i = r->pend_scan, n = r->in.len;
	int k;

	if (p[r->pend] != '"') {
		for (; i < n; i++)
			if (p[i] <= ' ' || p[i] >= 0x7f || p[i] == ',' ||
			    p[i] == ']' || p[i] == '}') {
				r->pend_scan = i;
				return 1;
			}
		r->pend_scan = i;
		return 0;
	}
	while (i < n) {
		i = scan_find(p, i, n, NULL, '"', '\\', '\\');
		if (i >= n)
			break;
		if (p[i] == '"' || p[i] == '\0') {
			r->pend_scan = i;
			return 1;
		}
		if (p[i] != '\\') {
			i++;
			continue;
		}
		if ((k = esc_len(p, i, n)) < 0) {
			r->pend_scan = i;
			return 1;
		}
		if (k == 0)
			break;
		i += (size_t)k;
	}
	r->pend_scan = i;
	return 0;
}

/* jp_cut_scan, counting the bytes it scanned (cut_bytes). */
static int
jp_cut_ends(struct rd *r)
{
	size_t from = r->pend_scan;
	int ended = jp_cut_scan(r);

	jenc_work_add(JENC_W_CUT, r->pend_scan - from);
	return ended;
}

/* ---- the token walk -------------------------------------------------------- */

/* A string or a primitive in each state: the state after it, or G_FAIL
 * (a key only where one may come; a value where one may). */
static const unsigned char str_next[] = {
	[S_TOP] = G_FAIL, [S_ARR_FIRST] = S_ARR_NEXT,
	[S_ARR_VAL] = S_ARR_NEXT, [S_ARR_NEXT] = G_FAIL,
	[S_OBJ_FIRST] = S_OBJ_COLON, [S_OBJ_KEY] = S_OBJ_COLON,
	[S_OBJ_COLON] = G_FAIL, [S_OBJ_VAL] = S_OBJ_NEXT,
	[S_OBJ_NEXT] = G_FAIL,
};
static const unsigned char prim_next[] = {
	[S_TOP] = G_FAIL, [S_ARR_FIRST] = S_ARR_NEXT,
	[S_ARR_VAL] = S_ARR_NEXT, [S_ARR_NEXT] = G_FAIL,
	[S_OBJ_FIRST] = G_FAIL, [S_OBJ_KEY] = G_FAIL,
	[S_OBJ_COLON] = G_FAIL, [S_OBJ_VAL] = S_OBJ_NEXT,
	[S_OBJ_NEXT] = G_FAIL,
};

/*
 * The walk's common case: the tokens inside a top-level value, from
 * tok[*ip] on, while all is well, with the state (st, depth, cur) in
 * locals, which the compiler keeps in registers: through r it is stored
 * and loaded again around every step, since a store through a char
 * pointer (the stack's) may alias it, and so each token waits on the
 * last one's stores.  Each step does what walk's does for a valid token,
 * with the same checks and the same calls to the encoder (bulk: none
 * but the runs of text between whitespace, skip_ws; e may be NULL); at
 * anything else (a close at depth 1, any error, the stack full, a string
 * body or a primitive to report) it stops before it, with r's state as
 * walk's would be there, and walk takes that token with the code that
 * reports.  *ip: the next token; *gp: how far the gap before it was
 * taken (r->cur is where the last token ended, as in walk: errors read
 * it).  Returns 0, or JENC_E_SYNTAX when the encoder failed, as walk
 * does.
 */
#define FAST_EMIT(call) do { \
	if (e != NULL && (call) != 0) { \
		r->cur = tcur; \
		r->st = st; \
		r->depth = depth; \
		*ip = i; \
		*gp = cur; \
		r->fail_at = cur; \
		(void)enc_fail(r); \
		return JENC_E_SYNTAX; \
	} \
} while (0)

static inline __attribute__((always_inline)) int
walk_fast(struct rd *r, unsigned *ip, unsigned n, size_t *gp, const int bulk)
{
	const unsigned char *p = (const unsigned char *)r->in.p;
	const jsmntok_t *tok = r->tok;
	unsigned char *stk = r->stk;
	jenc_enc *e = r->e;
	size_t cur = *gp, tcur = r->cur, lo = r->sk_ok_lo, hi = r->sk_ok_hi;
	size_t len = r->in.len, room = r->stk_cap;
	unsigned i = *ip, depth = r->depth, maxd = r->max_depth;
	int st = r->st;

	if (room > maxd)
		room = maxd;
	for (; i < n; i++) {
		const jsmntok_t *t = &tok[i];
		size_t first, end;
		unsigned next;

		if (t->start < 0)
			break;
		first = (size_t)t->start - (t->type == JSMN_STRING);
		while (cur < first) {
			unsigned c = p[cur], cls = gap_class[c];

			if (cls == G_WS) {
				size_t b = ws_end(r, cur + 1, first);

				if (bulk) {
					r->cur = tcur;
					r->st = st;
					r->depth = depth;
					if (skip_ws(r, cur, b) != 0) {
						*ip = i;
						*gp = cur;
						return JENC_E_SYNTAX;
					}
				}
				cur = b;
				continue;
			}
			next = gap_next[st][cls];
			if (next < G_CLOSE) {
				st = (int)next;
			} else if (next == G_FAIL || depth == 1) {
				goto out;
			} else {
				depth--;
				if (!bulk)
					FAST_EMIT(c == '}' ? jenc_obj_end(e) :
					    jenc_arr_end(e));
				st = stk[depth - 1] == '{' ? S_OBJ_NEXT :
				    S_ARR_NEXT;
			}
			cur++;
		}
		end = (size_t)t->end;
		switch (t->type) {
		case JSMN_OBJECT:
		case JSMN_ARRAY:
			if (prim_next[st] == G_FAIL || depth >= room)
				goto out;
			if (t->type == JSMN_OBJECT) {
				if (!bulk)
					FAST_EMIT(jenc_obj_begin(e));
				stk[depth++] = '{';
				st = S_OBJ_FIRST;
			} else {
				if (!bulk)
					FAST_EMIT(jenc_arr_begin(e));
				stk[depth++] = '[';
				st = S_ARR_FIRST;
			}
			tcur = cur = first + 1;
			break;
		case JSMN_STRING:
			next = str_next[st];
			if (next == G_FAIL || (!(first >= lo && end < hi) &&
			    scan_text_bad(p + first + 1, end - first - 1,
			    len - first - 1, 0x20) != end - first - 1))
				goto out;
			if (!bulk)
				FAST_EMIT(next == S_OBJ_COLON ?
				    jenc_raw_key(e, (const char *)p + first + 1,
				    end - first - 1) :
				    jenc_raw_str(e, (const char *)p + first + 1,
				    end - first - 1));
			st = (int)next;
			tcur = cur = end + 1;
			break;
		default:
			next = prim_next[st];
			if (next == G_FAIL)
				goto out;
			if (p[first] == 't' || p[first] == 'f' ||
			    p[first] == 'n') {
				if (!literal_ok((const char *)p + first,
				    end - first))
					goto out;
			} else if (!number_ok((const char *)p + first,
			    end - first, len - first)) {
				goto out;
			}
			if (!bulk)
				FAST_EMIT(jenc_raw(e, (const char *)p + first,
				    end - first));
			st = (int)next;
			tcur = cur = end;
			break;
		}
	}
out:
	r->cur = tcur;
	r->st = st;
	r->depth = depth;
	*ip = i;
	*gp = cur;
	return 0;
}
#undef FAST_EMIT

/*
 * The walk is one function with every check inlined (flatten), kept apart
 * from jsmn's loop (noinline), and the error reporters it calls are cold
 * and out of line: measured on the 50 MB document, that layout is 6 to 9%
 * faster in every output mode than letting the compiler choose.
 */
static int __attribute__((noinline, flatten))
walk(struct rd *r)
{
	unsigned i, n = jp_count(r);

	for (i = r->done; i < n; i++) {
		const jsmntok_t *t;
		size_t first, from = r->cur;

		if (r->depth > 0) {
			if ((r->bulk ? walk_fast(r, &i, n, &from, 1) :
			    walk_fast(r, &i, n, &from, 0)) != 0)
				return JENC_E_SYNTAX;
			if (i == n)
				break;
		}
		t = &r->tok[i];
		if (t->start < 0)	/* allocated just before an error */
			break;
		first = (size_t)t->start - (t->type == JSMN_STRING);
		if (gap(r, from, first) != 0)
			return JENC_E_SYNTAX;
		switch (t->type) {
		case JSMN_OBJECT:
		case JSMN_ARRAY:
			if (open_container(r, first,
			    t->type == JSMN_OBJECT ? '{' : '[') != 0)
				return JENC_E_SYNTAX;
			r->cur = first + 1;
			break;
		case JSMN_STRING:
			if (string(r, first, (size_t)t->end,
			    first >= r->sk_ok_lo && (size_t)t->end < r->sk_ok_hi) != 0)
				return JENC_E_SYNTAX;
			r->cur = (size_t)t->end + 1;
			break;
		default: {
			int rc = primitive(r, first, (size_t)t->end);

			if (rc == RESYNC) {
				jp_restart(r, r->cur);
				return RESYNC;
			}
			if (rc != 0)
				return JENC_E_SYNTAX;
			r->cur = (size_t)t->end;
			break;
		}
		}
	}
	if (r->cur != r->gap_to)	/* tokens were walked since */
		r->tend = r->cur;
	r->done = n;
	if (gap(r, r->cur, jp_pos(r)) != 0)
		return JENC_E_SYNTAX;
	r->cur = r->gap_to = jp_pos(r);
	return 0;
}

/* ---- input ------------------------------------------------------------------ */

/* An index of the window after its first n bytes are dropped. */
static inline size_t
rebase(size_t i, size_t n)
{
	return i == NO_POS || i < n ? NO_POS : i - n;
}

/*
 * Drop in.p[0..n), every index kept moving down with it.  In bulk mode the
 * checked bytes of an unfinished value go to the encoder first.
 */
static int
slide(struct rd *r, size_t n)
{
	if (r->bulk && r->depth > 0) {
		size_t end = bulk_end(r);

		if (end > r->from)
			EMIT(jenc_frag(r->e, r->in.p + r->from,
			    end - r->from));
		else
			end = r->from;
		if (n > end)
			n = end;	/* keep what is not out yet */
		r->from = end - n;
	}
	if (n == 0)
		return 0;
	r->tend = r->tend >= n ? r->tend - n : 0;
	r->gap_to = rebase(r->gap_to, n);
	jenc_in_drop(&r->in, n);
	jp_rebase(r, n);
	r->sk_valid = 0;
	r->sk_ok_lo = r->sk_ok_hi = 0;
	r->cur -= n;
	r->pend = rebase(r->pend, n);
	r->pend_scan -= r->pend != NO_POS ? n : 0;
	return 0;
}

/* Report what made a jenc_in call fail with rc. */
static int __attribute__((cold, noinline))
in_fail(struct rd *r, int rc)
{
	switch (rc) {
	case JENC_IN_FULL:
		return rd_fail(r, 0, JENC_E_SYNTAX, JENC_K_LONG, 0,
		    "token longer than 2 GiB");
	case JENC_IN_OUT:
		return enc_fail(r);
	case JENC_IN_CONV:
	case JENC_IN_WIDE:
	case JENC_IN_NAME: {
		char m[sizeof(r->err->msg)];

		jenc_in_enc_msg(&r->in, rc, m, sizeof(m));
		return rd_fail(r, rc == JENC_IN_NAME ? NO_POS : ENC_POS,
		    JENC_E_ENCODING, JENC_K_ENCODING, 0, "%s", m);
	}
	case JENC_E_IO:
		return rd_fail(r, NO_POS, JENC_E_IO, JENC_K_NONE,
		    r->in.sys_errno, "%s", strerror(r->in.sys_errno));
	default:
		return rd_fail(r, NO_POS, JENC_E_NOMEM, JENC_K_NONE, 0,
		    "out of memory");
	}
}

/* Get more input after in.p[in.len).  Returns 0, or an error code. */
static int
fill(struct rd *r)
{
	int rc = jenc_in_fill(&r->in);

	return rc != 0 ? in_fail(r, rc) : 0;
}

/*
 * JENC_READ_JSONC: blank the comments and trailing commas of what was
 * read (jsonc.c), reading on while the window's end is undecided, so
 * that the reader only ever sees strict JSON at the input's offsets.  The
 * window is then our own buffer (jenc_in_open_fd, jenc_in_open_copy).
 */
static int __attribute__((noinline))
jsonc_ready(struct rd *r)
{
	int rc;

	while (jenc_jsonc_filter(&r->jc, (char *)r->in.p, r->in.len,
	    r->in.off, r->in.eof) != 0)
		if ((rc = fill(r)) != 0)
			return rc;
	return 0;
}

/* The start of the line holding in.p[i], as far as the window shows it. */
static size_t
line_start(const struct rd *r, size_t i)
{
	while (i > 0 && r->in.p[i - 1] != '\n')
		i--;
	return i;
}

/*
 * With JENC_READ_SKIP or PASS, inside a value checked up to pos: of the n
 * bytes the window could drop, keep those from the start of the value's
 * line (to pass it through, and to count its lines), for as long as they
 * are at most PASS_MAX bytes before pos; past that its text will not be
 * passed (lost).  (Measured to pos, not to the window's end, so that
 * whether a value is lost does not depend on how much was read: see
 * recover.)
 */
static size_t
pass_keep(struct rd *r, size_t n, size_t pos)
{
	size_t ls;

	if (r->vstart < r->in.off) {
		r->lost = 1;
		return n;
	}
	ls = line_start(r, (size_t)(r->vstart - r->in.off));
	if (pos - ls > PASS_MAX) {
		r->lost = 1;
		return n;
	}
	return ls < n ? ls : n;
}

/* Slide the window to where the unchecked input starts, or at most
 * JENC_IN_CONTEXT bytes before it, and read more. */
static int
next_window(struct rd *r, size_t pos)
{
	size_t n = jenc_in_keep(&r->in, pos);
	int rc;

	if (r->policy != 0 && r->depth > 0 && !r->lost)
		n = pass_keep(r, n, pos);
	if (slide(r, n) != 0)
		return r->err->code;
	if ((rc = fill(r)) != 0)
		return rc;
	return r->jsonc ? jsonc_ready(r) : 0;
}

/* The end of all input: is the state complete? */
static int
finish(struct rd *r)
{
	if (r->st != S_TOP || (r->single && r->values == 0))
		return state_fail(r, r->in.len);
	/* A byte order mark announces a text: it may not stand alone. */
	if (r->bom && r->values == 0)
		return rd_fail(r, r->in.len, JENC_E_SYNTAX, JENC_K_CUT, 0,
		    "expected value after the byte order mark, found end of input");
	return 0;
}

/*
 * jsmn stopped with an error at pos.  Read on with our own scanner, taking
 * more input while a token is cut by the window end, until it names the
 * error.  jsmn also rejects some valid streams (a number followed at once
 * by a value holding non-ASCII bytes, `2["é"]`): if the scanner gets back
 * to top level with no error, jsmn resumes there (RESYNC).  Until then
 * jsmn's state is of no use: it restarts wherever the scan stands, which
 * also keeps its position inside the window as it slides.
 */
static int
diagnose(struct rd *r, size_t pos)
{
	size_t from = pos;
	int rc;

	for (;;) {
		r->stop_top = 1;
		rc = slow_scan(r, pos, r->in.len);
		r->stop_top = 0;
		if (rc != 0)
			return r->err->code;
		jp_restart(r, r->cur);
		if (r->st == S_TOP && r->cur > from && r->cur < r->in.len)
			return RESYNC;
		if (r->in.eof)
			return finish(r);
		if ((rc = next_window(r, r->cur)) != 0)
			return rc;
		pos = from = r->cur;
	}
}

/*
 * Out of line, so that the jsmn loop inlined here is laid out apart from
 * rd_run's other calls: inlined, it lost a register and one instruction
 * per token (measured with cachegrind on the corpus).
 */
static int __attribute__((noinline))
run(struct rd *r)
{
	size_t chunk = DEEP_CHUNK;
	int rc;

	for (;;) {
		/*
		 * A token cut by the window end: read on until jsmn can end it
		 * (or the input ends), with no call to jsmn in between.
		 */
		if (r->pend != NO_POS) {
			if (!r->in.eof && !jp_cut_ends(r)) {
				if ((rc = next_window(r, jp_pos(r))) != 0)
					return rc;
				continue;
			}
			r->pend = NO_POS;
		}
		/*
		 * Deep in nesting, feed jsmn small pieces: it finds the
		 * container a ']' closes by climbing from its newest token over
		 * every container closed since, so a long run of closing
		 * brackets in one call would be quadratic.
		 */
		size_t jlen = r->in.len, start = jp_pos(r);
		int bad_piece = 0;
		if (r->depth > DEEP && r->in.len - start > chunk &&
		    !r->pipe_on)
			jlen = start + chunk;
		else if (r->piece > 0 && r->in.len - start > r->piece &&
		    !r->pipe_on) {
			/*
			 * After bad text, where the next may be close: a
			 * piece at a time, doubled each time, so that bad
			 * lines one after another do not cost jsmn (and the
			 * skeleton) a window each.
			 */
			jlen = start + r->piece;
			bad_piece = 1;
		}
		int res = jp_tokenize(r, jlen);
		int w = walk(r);

		if (w == RESYNC)
			continue;
		if (w != 0)
			return r->err->code;
		if (res == JSMN_ERROR_INVAL) {
			int rc2 = diagnose(r, jp_pos(r));

			if (rc2 != RESYNC)
				return rc2;
			continue;
		}
		jp_trim(r);
		if (res == JSMN_ERROR_NOMEM) {
			if (jp_count(r) * 2 > r->ntok && jp_compact(r) != 0)
				return rd_fail(r, NO_POS, JENC_E_NOMEM,
				    JENC_K_NONE, 0, "out of memory");
			continue;
		}
		size_t pos = jp_pos(r);
		if (bad_piece) {
			r->piece = r->piece < JENC_SKEL_MAX ? r->piece * 2 : 0;
			continue;
		}
		if (jlen < r->in.len) {
			/* a piece ended: go on, longer if a token was cut */
			chunk = pos == start ? chunk * 2 : DEEP_CHUNK;
			continue;
		}
		if (res >= 0 && pos < r->in.len) {
			/* jsmn stops at a NUL byte */
			if (slow_scan(r, pos, pos + 1) != 0)
				return r->err->code;
			return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_TOKEN, 0,
			    "invalid input");
		}
		if (res == JSMN_ERROR_PART &&
		    memchr(r->in.p + pos, '\0', r->in.len - pos) != NULL) {
			if (slow_scan(r, pos, r->in.len) != 0)
				return r->err->code;
			return rd_fail(r, pos, JENC_E_SYNTAX, JENC_K_TOKEN, 0,
			    "invalid input");
		}
		if (r->in.eof) {
			/* A trailing primitive, an unterminated string, or
			 * open containers. */
			if (slow_scan(r, pos, r->in.len) != 0)
				return r->err->code;
			return finish(r);
		}
		if (jp_compact(r) != 0)
			return rd_fail(r, NO_POS, JENC_E_NOMEM, JENC_K_NONE, 0,
			    "out of memory");
		if (pos < r->in.len)
			jp_cut(r);
		if ((rc = next_window(r, pos)) != 0)
			return rc;
	}
}

/* Does a line starting at in.p[i] start a new value, after a bad one? */
static int
starts_value(const struct rd *r, size_t i)
{
	char c = r->in.p[i];

	return c == '{' || c == '[';
}

/*
 * After bad input reported in *r->err (SKIP or PASS): find the end of the
 * bad text (see jenc.h), pass it through or drop it, and start afresh
 * after it, at top level with nothing open.  Returns 0 or an error code
 * (reading or writing failed).
 */
static int
recover(struct rd *r)
{
	jenc_err *err = r->err;
	size_t spot, from, i;
	/* (an error in a string: the scan below starts in it) */
	int d = (int)r->depth, instr = r->str_bad != NO_OFF, esc = 0, nl = 0;
	int dropped = 0, rc;
	/* (text part of which is out is not passed: not a value cut short,
	 * nor a split array some elements of which were written) */
	int pass = r->policy == JENC_READ_PASS && r->e != NULL && !err->cut &&
	    !r->split_out;
	uint64_t lines = 1, resume_line = err->line;

	spot = (size_t)(err->offset - r->in.off);
	if (spot > r->in.len)
		spot = r->in.len;
	/* found at the end of the input: more input would change it */
	if (spot == r->in.len && r->in.eof)
		r->cut_end = 1;
	/* where the bad text starts */
	/* (a value is lost when its line starts more than PASS_MAX bytes
	 * before the error, whatever the window still holds) */
	if (r->depth == 0)
		/* a bad top-level string starts at its quote */
		from = instr && r->str_bad >= r->in.off &&
		    r->str_bad - r->in.off <= spot ?
		    (size_t)(r->str_bad - r->in.off) : spot;
	else if (r->vstart >= r->in.off && !r->lost &&
	    spot - line_start(r, (size_t)(r->vstart - r->in.off)) <= PASS_MAX)
		from = (size_t)(r->vstart - r->in.off);
	else {
		from = spot;
		pass = 0;
	}
	if (!r->seq) {
		from = line_start(r, from);
		if (r->vend >= r->in.off + from && r->vend <= r->in.off + spot)
			from = (size_t)(r->vend - r->in.off);
	}
	/*
	 * A line after the bad value's first one that starts a new value
	 * (a line cut short, then a good one that went into the bad value):
	 * the bad text ends before the first such line, and reading resumes
	 * there.  Likewise at the RS after a truncated text, and at the end
	 * of the input.  A JENC_SPLIT array some elements of which were
	 * written: no line before the error's starts one (it would read a
	 * written element again), the error's own if the error is at its
	 * start.
	 */
	size_t q, stop = NO_POS;

	if (!r->seq && r->depth > 0)
		for (q = r->split_out && spot > from ? spot : from + 1;
		    q <= spot && q < r->in.len; q++)
			if (r->in.p[q - 1] == '\n' && starts_value(r, q)) {
				stop = q;
				break;
			}
	if (stop == NO_POS && spot > from && ((spot == r->in.len && r->in.eof) ||
	    (r->seq && (unsigned char)r->in.p[spot] == RS))) {
		stop = spot;
		r->cut_end = spot == r->in.len;
	}
	for (i = from; i < (stop != NO_POS ? stop : spot); i++)
		lines += r->in.p[i] == '\n' &&
		    (stop == NO_POS || i + 1 < stop);
	i = spot;
	if (stop != NO_POS) {
		for (i = stop; i < spot; i++)
			resume_line -= r->in.p[i] == '\n';
		i = stop;
		goto done;
	}
	for (;;) {
		if (i == r->in.len) {
			if (r->in.eof) {
				r->cut_end = 1;
				break;
			}
			if (pass && i - from > PASS_MAX)
				pass = 0;
			if (!pass) {
				/* nothing before i is needed any more, but
				 * with --seq reading may resume mid-line: keep
				 * that line's start (up to JENC_IN_CONTEXT
				 * bytes), which a later excerpt shows */
				size_t k = r->seq ? jenc_in_keep(&r->in, i) : i;

				jenc_in_drop(&r->in, k);
				from = spot = i = i - k;
				dropped = 1;
			}
			if ((rc = jenc_in_fill(&r->in)) != 0)
				return in_fail(r, rc);
			continue;
		}
		unsigned char c = (unsigned char)r->in.p[i];

		if (r->seq) {
			/* (an RS that starts the bad text is part of it) */
			if (c == RS && (i > from || dropped))
				break;
			/* a line end followed by more of the text (kept in
			 * nl, as the window may have dropped it) */
			if (nl)
				lines++;
			nl = c == '\n';
			i++;
			continue;
		}
		i++;
		if (instr) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				instr = 0;
		} else if (c == '"') {
			instr = 1;
		} else if (c == '{' || c == '[') {
			d++;
		} else if (c == '}' || c == ']') {
			d--;
		}
		if (c != '\n')
			continue;
		resume_line++;
		instr = esc = 0;
		if (d <= 0)
			break;
		/* the value is still open: does the next line go on with it? */
		while (i == r->in.len && !r->in.eof) {
			if (pass && i - from > PASS_MAX)
				pass = 0;
			if (!pass) {
				jenc_in_drop(&r->in, i);
				from = spot = i = 0;
			}
			if ((rc = jenc_in_fill(&r->in)) != 0)
				return in_fail(r, rc);
		}
		if (i == r->in.len) {
			r->cut_end = 1;
			break;
		}
		if (starts_value(r, i))
			break;
		lines++;
	}
done:
	err->lines = lines;
	if (pass && i - from > PASS_MAX)
		pass = 0;
	if (pass) {
		/* (an empty bad text, as at the end of the input after a
		 * byte order mark, has nothing to pass) */
		/* with JENC_READ_JSONC, what this reading on brought in is
		 * blanked as the rest, whatever the window's ends were
		 * (reading on at most 64 KiB to decide, as jsonc_line) */
		while (r->jsonc && jenc_jsonc_filter(&r->jc, (char *)r->in.p,
		    r->in.len, r->in.off, r->in.eof) != 0 &&
		    jenc_jsonc_undecided(&r->jc) < r->in.off + i &&
		    r->in.len - i < ((size_t)64 << 10))
			if (jenc_in_fill(&r->in) != 0)
				break;
		if (i > from) {
			EMIT(jenc_passthru(r->e, r->in.p + from, i - from));
			if (r->in.p[i - 1] != '\n')
				EMIT(jenc_passthru(r->e, "\n", 1));
		}
		err->passed = 1;
	} else if (r->policy == JENC_READ_PASS && r->e != NULL) {
		size_t k = strlen(err->msg);

		snprintf(err->msg + k, sizeof(err->msg) - k, "%s",
		    err->cut || r->split_out ? " (not passed through)" :
		    " (too long to pass through, dropped)");
	}
	/* on at in.p[i]; the window slides as usual (dropping here would
	 * move what is left of it for every bad line), and the next error's
	 * line is counted from here */
	if (!r->seq && i > 0 && i < r->in.len && r->in.p[i - 1] == '\n')
		jenc_in_mark(&r->in, i, resume_line);
	r->depth = 0;
	r->st = S_TOP;
	r->cur = i;
	r->from = i;
	r->lost = 0;
	r->bol = i == 0 || r->in.p[i - 1] == '\n';
	r->str_bad = NO_OFF;
	r->piece = BAD_PIECE;
	jp_restart(r, i);
	return 0;
}

static int
rd_run(struct rd *r, jenc_enc *e, const jenc_read_opts *o, jenc_err *err)
{
	int rc;
	jenc_err dummy, one;
	int found = 0;

	r->e = e;
	/* values inside a container the caller opened go call by call */
	r->bulk = e != NULL && jenc_verbatim(e) && jenc_depth(e) == 0;
	r->err = err != NULL ? err : &dummy;
	memset(r->err, 0, sizeof(*r->err));
	r->in.lf_lines = 1;
	if (e != NULL) {
		r->in.before_read = jenc_flush_cb;
		r->in.ctx = e;
	}
	r->max_depth = o != NULL && o->max_depth ? o->max_depth : DEPTH_DEFAULT;
	r->single = o != NULL && (o->flags & JENC_READ_SINGLE);
	r->seq = o != NULL && (o->flags & JENC_READ_SEQ);
	r->jsonc = o != NULL && (o->flags & JENC_READ_JSONC);
	r->policy = o == NULL ? 0 : (o->flags & JENC_READ_PASS) ?
	    JENC_READ_PASS : (o->flags & JENC_READ_SKIP) ? JENC_READ_SKIP : 0;
	if (r->policy != 0)
		r->err = &one;
	r->blank = e != NULL && r->policy == JENC_READ_PASS &&
	    (o->flags & JENC_READ_BLANK);
	r->bol = 1;
	r->st = S_TOP;
	/* with a scout, room for its chain and as much again */
	r->ntok = r->pipe != NULL ? 2 * JENC_PIPE_CHAIN_MAX : TOK_INIT;
	r->tok = jenc_mem_alloc(r->ntok * sizeof(jsmntok_t));
	r->stk_cap = 64;
	r->stk = jenc_mem_alloc(r->stk_cap);
	/* without room for the skeleton, jsmn reads the text */
	if (o == NULL || !(o->flags & JENC_READ_EXACT)) {
		r->sk = jenc_mem_alloc(JENC_SKEL_ROOM(JENC_SKEL_MAX));
		r->sk_map = jenc_mem_alloc(JENC_SKEL_ROOM(JENC_SKEL_MAX) *
		    sizeof(uint32_t));
		if (r->sk == NULL || r->sk_map == NULL) {
			jenc_mem_free(r->sk, JENC_SKEL_ROOM(JENC_SKEL_MAX));
			jenc_mem_free(r->sk_map,
			    JENC_SKEL_ROOM(JENC_SKEL_MAX) * sizeof(uint32_t));
			r->sk = NULL;
			r->sk_map = NULL;
		}
	}
	jp_restart(r, 0);
	r->str_bad = NO_OFF;
	/* tokens from the scout, unless the start of the input says
	 * otherwise (below), or an error comes first */
	r->pipe_on = r->pipe != NULL;
	if (r->tok == NULL || r->stk == NULL) {
		rc = rd_fail(r, NO_POS, JENC_E_NOMEM, JENC_K_NONE, 0,
		    "out of memory");
	} else if ((rc = r->nobom ? 0 : jenc_in_begin(&r->in,
	    o != NULL ? o->encoding : NULL, 0)) < 0 || rc > 1) {
		rc = in_fail(r, rc);
		if (r->policy != 0 && err != NULL)
			*err = one;
	} else {
		r->bom = rc;
		/* the scout's offsets are the bytes read: not past a byte
		 * order mark, nor in a conversion */
		if (rc != 0 || r->in.conv != NULL || r->sk == NULL)
			pipe_stop(r);
		jenc_jsonc_init(&r->jc, r->in.off);
		for (;;) {
			if (r->jsonc && (rc = jsonc_ready(r)) != 0)
				break;
			rc = run(r);
			if (rc == 0 || r->policy == 0 ||
			    (rc != JENC_E_SYNTAX && rc != JENC_E_DEPTH))
				break;
			if ((rc = recover(r)) != 0)
				break;
			if (r->jsonc)
				jenc_jsonc_resume(&r->jc, r->in.off + r->cur);
			if (!found++ && err != NULL)
				*err = one;
			if (o->on_error != NULL)
				o->on_error(o->ctx, &one);
			/* the bad text ended where a read did: is that the end
			 * of the input?  (Then it is over, whatever finish
			 * would say, as when the end was known already.) */
			if (r->cur == r->in.len && !r->in.eof &&
			    (rc = next_window(r, r->cur)) != 0)
				break;
			if (r->in.eof && r->cur == r->in.len)
				break;
		}
		/* a read or write error after bad input: that is the error */
		if (r->policy != 0 && rc != 0 && err != NULL)
			*err = one;
	}
	jenc_mem_free(r->tok, r->ntok * sizeof(jsmntok_t));
	jenc_mem_free(r->stk, r->stk_cap);
	jenc_mem_free(r->sk, JENC_SKEL_ROOM(JENC_SKEL_MAX));
	jenc_mem_free(r->sk_map,
	    JENC_SKEL_ROOM(JENC_SKEL_MAX) * sizeof(uint32_t));
	return rc;
}

int
jenc_json_copy_fd(int fd, jenc_enc *e, const jenc_read_opts *o, jenc_err *err)
{
	struct rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	if ((o == NULL || (o->flags & (JENC_READ_MAP | JENC_READ_JSONC)) !=
	    JENC_READ_MAP || !jenc_conv_utf8(o->encoding) ||
	    jenc_in_open_map(&r.in, fd, WIN_INIT, WIN_MAX) != 0) &&
	    jenc_in_open_fd(&r.in, fd, WIN_INIT, WIN_MAX) != 0) {
		if (err != NULL)
			jenc_err_set(err, JENC_E_NOMEM, JENC_K_NONE, 0, 0,
			    NULL, "out of memory");
		return JENC_E_NOMEM;
	}
	rc = rd_run(&r, e, o, err);
	jenc_in_close(&r.in);
	return rc;
}

int
jenc_json_copy_mem(const char *p, size_t len, jenc_enc *e,
    const jenc_read_opts *o, jenc_err *err)
{
	struct rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	if (o == NULL || !(o->flags & JENC_READ_JSONC)) {
		jenc_in_open_mem(&r.in, p, p != NULL ? len : 0, WIN_MAX);
		rc = rd_run(&r, e, o, err);
		jenc_in_close(&r.in);	/* a converted input has a buffer */
		return rc;
	}
	/* the filter writes to the window: a copy of the caller's buffer */
	if (jenc_in_open_copy(&r.in, p, p != NULL ? len : 0, WIN_INIT,
	    WIN_MAX) != 0) {
		if (err != NULL)
			jenc_err_set(err, JENC_E_NOMEM, JENC_K_NONE, 0, 0,
			    NULL, "out of memory");
		return JENC_E_NOMEM;
	}
	rc = rd_run(&r, e, o, err);
	jenc_in_close(&r.in);
	return rc;
}

int
jenc_json_pipe(int fd, const char *p, size_t n, uint64_t off, uint64_t line,
    jenc_enc *e, const jenc_read_opts *o, jenc_err *err, size_t piece)
{
	struct rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	/* (the scout maps the tokens' positions when this thread encodes,
	 * and so has more to do than the scout: see jenc_pipe_start) */
	if (jenc_pipe_start(&r.pipe, fd, p, n, off, piece,
	    o != NULL && (o->flags & JENC_READ_MAP),
	    e != NULL && !(jenc_verbatim(e) && jenc_depth(e) == 0)) != 0)
		return jenc_json_part(fd, p, n, off, line, e, o, err, NULL,
		    NULL);
	if (jenc_in_open_fd(&r.in, -1, WIN_INIT, WIN_MAX) != 0) {
		jenc_pipe_end(r.pipe);
		return jenc_err_set(err, JENC_E_NOMEM, JENC_K_NONE, 0, 0,
		    NULL, "out of memory");
	}
	r.in.pull = jenc_pipe_pull;
	r.in.pull_ctx = r.pipe;
	r.in.view = jenc_pipe_view;
	r.in.off = r.in.lstart = off;
	r.in.line = line;
	r.nobom = off > 0;
	rc = rd_run(&r, e, o, err);
	jenc_in_close(&r.in);
	jenc_pipe_end(r.pipe);
	return rc;
}

int
jenc_json_part(int fd, const char *p, size_t n, uint64_t off, uint64_t line,
    jenc_enc *e, const jenc_read_opts *o, jenc_err *err, int *cut_end,
    uint64_t *lines)
{
	struct rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	if (fd >= 0) {
		if (jenc_in_open_fd(&r.in, fd, WIN_INIT, WIN_MAX) != 0 ||
		    jenc_in_preload(&r.in, p, n) != 0) {
			jenc_in_close(&r.in);
			return jenc_err_set(err, JENC_E_NOMEM,
			    JENC_K_NONE, 0, 0, NULL, "out of memory");
		}
	} else {
		jenc_in_open_mem(&r.in, p, p != NULL ? n : 0, WIN_MAX);
	}
	r.in.off = r.in.lstart = off;
	r.in.line = line;
	r.nobom = off > 0;
	rc = rd_run(&r, e, o, err);
	if (cut_end != NULL)
		*cut_end = r.policy != 0 ? r.cut_end :
		    (rc == JENC_E_SYNTAX || rc == JENC_E_DEPTH) &&
		    err->offset == off + n;
	if (lines != NULL) {
		/* the lines of the window left, from the reader's count */
		jenc_where w;

		if (fd < 0 && r.in.off + r.in.len == off + n) {
			jenc_in_where(&r.in, r.in.len, &w);
			*lines = w.line - line;
		} else {
			*lines = jenc_count_lines(p, n, NULL);
		}
	}
	jenc_in_close(&r.in);
	return rc;
}
