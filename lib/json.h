/*
 * json.h - the JSON reader's own header: its state (struct json_rd), the
 * grammar's states, classes and table, and what its files share.  Not part of the library's
 * API, nor of internal.h: only the reader's files include it.
 *
 * The reader (jenc_json_copy_fd and its kin) is split along its seams:
 *	json.c		the driver: the window, jsmn's calls (jsmnx.c) and
 *			its token array, the loop, the entry points
 *	json_walk.c	the grammar's table and steps, and the walk over
 *			jsmn's tokens that checks and encodes each value
 *	json_scan.c	the byte-by-byte scan after jsmn stops
 *	json_err.c	the errors and their hints
 *	json_recover.c	reading on after bad input (SKIP, PASS)
 * Functions shared between these files are named jenc_json_*; each
 * file's own carry json_.  The byte checks below are inline here, for
 * the walk's loop and the scans alike.
 */
#ifndef JENC_JSON_H
#define JENC_JSON_H

#include <string.h>

#include "internal.h"
#include "jsmnx.h"
#include "pipe.h"
#include "scan.h"

#define BAD_PIECE ((size_t)1024)	/* jsmn's first piece after bad text */
#define DEEP_PIECE ((size_t)16)	/* ... after a value is taken up where
					 * the last depth error was */
#define RS 0x1e		/* RFC 7464 record separator */
#define PASS_MAX ((size_t)1 << 20)	/* bad text kept to pass through */
#define NO_POS ((size_t)-1)
#define NO_OFF UINT64_MAX
#define ENC_POS ((size_t)-2)	/* the spot of the input layer's encoding
				 * error (jenc_in_enc_where) */

/*
 * The grammar: its states, the classes of bytes and tokens, and one table
 * (jenc_json_grammar, json_walk.c) that says for each state what each
 * class leads to and what was expected there.  The exact walk, the fast
 * walk and the scan after jsmn stops all take their transitions from it,
 * and the errors their "expected ..." text.
 */
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
	S_COUNT
};

/* The classes: the bytes between tokens (G_BAD: any other byte), then the
 * tokens, by the byte that starts them (G_WORD: a number or literal). */
enum {
	G_BAD, G_WS, G_COMMA, G_COLON, G_RBRACKET, G_RBRACE,
	G_QUOTE, G_LBRACKET, G_LBRACE, G_WORD,
	G_COUNT
};
#define G_CLOSE 0x40	/* next: close the innermost container */
#define G_FAIL 0x80	/* next: not here */

struct json_grammar {
	/* the class of each byte between tokens (G_BAD: any other) */
	unsigned char gap[256];
	/* by class, then state: the state after it, G_CLOSE or G_FAIL (a
	 * string that leads to S_OBJ_COLON is a key) */
	unsigned char next[G_COUNT][S_COUNT];
	/* by state: the closing bracket that there follows a trailing
	 * comma (0: none), and what the error says was expected */
	unsigned char trail[S_COUNT];
	const char *expect[S_COUNT];
	/* ... in S_TOP with --single (JENC_READ_SINGLE): before the value,
	 * and after it */
	const char *expect_one[2];
};
extern const struct json_grammar jenc_json_grammar;

struct json_rd {
	jenc_in in;		/* the window: in.p[0..in.len) */

	jsmn_parser jp;		/* changed only in json.c */
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
	int stop_top;		/* jenc_json_slow_scan: stop after each
				 * top-level value */
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
	/*
	 * After a syntax error inside a value, the input offsets of the
	 * brackets still open at the error (rp_at[rp_i..rp_n), ascending):
	 * a top-level value that starts at one of them runs into the same
	 * error at the same place, which json_recover.c then reports
	 * without reading to it again (rp_err, rp_str_bad: the error as
	 * it was found).  See jenc_json_replay.
	 */
	uint64_t *rp_at;
	size_t rp_cap, rp_i, rp_n;
	jenc_err rp_err;
	uint64_t rp_str_bad;
	int rp_again;		/* the error being recovered from is rp_err */
	/* Line ends of in.p from the input offset nl_at to the error at
	 * nl_spot: nl_n (for the next bad text towards the same place) */
	uint64_t nl_at, nl_spot, nl_n;

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
	/* The skeletons jsmn reads (see json_jsmn_tokenize; sk.buf NULL with
	 * JENC_READ_EXACT); in.p[sk.ok_lo..sk.ok_hi) is covered by those
	 * read since jsmn last started afresh or the window slid: its
	 * strings are checked (no control byte, valid UTF-8) */
	struct jenc_jsmn_sk sk;

	/* jenc_json_pipe: with pipe_on the tokens come from the scout
	 * thread (pipe.c) instead of jsmn: pipe_k of its slot's are taken,
	 * and containers are open after the last slot taken (pipe_open) */
	jenc_pipe *pipe;
	int pipe_on, pipe_open;
	size_t pipe_k;

	/*
	 * After a depth error (the bracket at input offset dp_at would open
	 * level max_depth + 1, on line dp_line, in state dp_st): the input
	 * offsets of the brackets open there, dp_pos[dp_lo..dp_hi)
	 * ascending, and their bytes dp_c[dp_lo..dp_hi); dp_on while they
	 * hold.  A top-level value that starts at one of them, dp_pos[k],
	 * reads the same text to dp_at with k fewer levels open, and
	 * jenc_json_deep starts it there in that state, without reading to
	 * it again (ff_on, from ff_b, its line at ff_ls).  Should it end,
	 * or its text in the window pass ff_max bytes (its output could
	 * pass hold_max), ff_undo: it is read again from its start.
	 */
	uint64_t *dp_pos;
	unsigned char *dp_c;
	size_t dp_cap, dp_ccap, dp_lo, dp_i, dp_hi, ff_max;
	int dp_on, dp_st, ff_on, ff_undo;
	uint64_t dp_at, dp_line, ff_b, ff_at, ff_ls;
};

/* ---- shared by the reader's files --------------------------------------- */

/* Take no more tokens from the scout: jsmn's state is this thread's from
 * here on (installed from the scout's, or restarted, or of no more use
 * after an error). */
static inline void
json_pipe_stop(struct json_rd *r)
{
	if (r->pipe_on) {
		r->pipe_on = 0;
		r->sk.ok_lo = r->sk.ok_hi = 0;
		jenc_pipe_raw(r->pipe);
	}
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
json_bulk_end(const struct json_rd *r)
{
	if (r->cur != r->gap_to)
		return r->cur;
	return r->tend > r->from ? r->tend : r->from;
}

/* The start of the line holding in.p[i], as far as the window shows it. */
static inline size_t
json_line_start(const struct json_rd *r, size_t i)
{
	while (i > 0 && r->in.p[i - 1] != '\n')
		i--;
	return i;
}

/* The next byte jsmn looks at. */
static inline size_t
json_jsmn_pos(const struct json_rd *r)
{
	return r->jp.pos;
}

/* Tokens jsmn has filled in, walked or not: tok[0..json_jsmn_count). */
static inline unsigned
json_jsmn_count(const struct json_rd *r)
{
	return r->jp.toknext;
}

/* ---- errors (json_err.c) ------------------------------------------------- */

/* (cold: the walk calls them out of line, and its layout keeps them
 * apart from the common case) */

/*
 * Fill r->err through jenc_err_set: the spot in.p[pos] (NO_POS for an
 * error that has none, as allocation and read failures), after reading
 * on to the end of its line so that the excerpt does not depend on how
 * the input arrived.  Returns the code.
 */
int jenc_json_fail(struct json_rd *r, size_t pos, int code, int kind,
    int sys_errno, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* What the state expected, found at in.p[pos]. */
int jenc_json_state_fail(struct json_rd *r, size_t pos) __attribute__((cold));
/* The encoder failed (a write error, no memory, a view's rejection):
 * report its code. */
int jenc_json_enc_fail(struct json_rd *r) __attribute__((cold));
/* What made a jenc_in call fail with rc. */
int jenc_json_in_fail(struct json_rd *r, int rc) __attribute__((cold));
/* The byte at in.p[i], in the body of the string from b, is a raw
 * control byte or not UTF-8.  Returns the code. */
int jenc_json_str_fail(struct json_rd *r, size_t b, size_t i)
    __attribute__((cold));
/*
 * JENC_READ_JSONC, before what was read up to in.p[at] is reported or
 * passed: filter what was read, reading on (up to 64 KiB past at) while
 * what is undecided starts before in.p[at + reach].  A read error stops
 * it (the caller's next read reports it).
 */
void jenc_json_jsonc_upto(struct json_rd *r, size_t at, size_t reach)
    __attribute__((cold));
/* RFC 7464 (JENC_READ_SEQ): an RS at in.p[pos] cuts the text short. */
int jenc_json_rs_fail(struct json_rd *r, size_t pos) __attribute__((cold));

#define EMIT(call) EMIT_AT(call, NO_POS)
/* ... for the token or bracket at pos */
#define EMIT_AT(call, pos) do { \
	if (r->e != NULL && (call) != 0) { \
		r->fail_at = (pos); \
		return jenc_json_enc_fail(r); \
	} \
} while (0)

/* Bulk mode: whitespace win[a..b) inside a value is left out. */
static inline int
json_skip_ws(struct json_rd *r, size_t a, size_t b)
{
	if (r->bulk && r->depth > 0) {
		if (a > r->from)
			EMIT(jenc_frag(r->e, r->in.p + r->from, a - r->from));
		r->from = b;
	}
	return 0;
}

/* ---- the grammar (json_walk.c, json_scan.c) ------------------------------ */

/* Each returns 0, or the error's code once it is reported. */
/* May a token of class cls (G_QUOTE .. G_WORD) start at pos? */
int jenc_json_token_check(struct json_rd *r, size_t pos, unsigned cls);
/* The bracket c ('{' or '[') at pos opens a container. */
int jenc_json_open(struct json_rd *r, size_t pos, char c);
/* The bytes in.p[from..to) between two tokens. */
int jenc_json_gap(struct json_rd *r, size_t from, size_t to);
/* A string token: quote at q, body [q+1, end), closing quote at end;
 * checked: skel.c has checked its body. */
int jenc_json_string(struct json_rd *r, size_t q, size_t end, int checked);
/* A primitive starting at pos and ending at or before end;
 * JENC_ST_RESTART when a value ended inside it at top level (jsmn
 * restarts at r->cur). */
int jenc_json_primitive(struct json_rd *r, size_t pos, size_t end);
/* The tokens jsmn made since the last call, in order (JENC_ST_RESTART:
 * as jenc_json_primitive's). */
int jenc_json_walk(struct json_rd *r);
/* in.p[pos..limit) byte by byte, after jsmn stopped (json_scan.c). */
int jenc_json_slow_scan(struct json_rd *r, size_t pos, size_t limit);

/* ---- after bad input (json_recover.c) ------------------------------------ */

/*
 * After bad input reported in *r->err (SKIP or PASS): find the end of the
 * bad text (see jenc.h), pass it through or drop it, and set the state to
 * start afresh after it, at top level with nothing open, at r->cur (the
 * caller restarts jsmn there).  Returns 0 or an error code (reading or
 * writing failed).
 */
int jenc_json_recover(struct json_rd *r);
/* A top-level value starting at pos that the last error cuts short again:
 * that error, reported again there (JENC_E_SYNTAX), or 0. */
int jenc_json_replay(struct json_rd *r, size_t pos);
/* A top-level value starting at pos that starts at a bracket open at the
 * last depth error: 1 if it now stands where that error was, in the state
 * it has there (the caller restarts jsmn at r->cur), else 0. */
int jenc_json_deep(struct json_rd *r, size_t pos);
/* ff_undo: back to the start of that value, to read it from there. */
void jenc_json_deep_undo(struct json_rd *r);

/* ---- the bytes of tokens ------------------------------------------------- */

static inline int
json_word_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

/* The class of byte c outside strings (G_BAD .. G_WORD). */
static inline unsigned
json_byte_class(unsigned char c)
{
	switch (c) {
	case '"':
		return G_QUOTE;
	case '[':
		return G_LBRACKET;
	case '{':
		return G_LBRACE;
	}
	return json_word_byte(c) ? G_WORD : jenc_json_grammar.gap[c];
}

#endif
