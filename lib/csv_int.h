/*
 * csv_int.h - what the files of the CSV/TSV reader share: its state
 * (struct csv), the shapes of a record and of the header's names, and
 * the calls between the files.  Not part of the API; included by
 * csv*.c only (not csvw.c, the writer).
 *
 * The reader's files, bottom to top (the layers of internal.h):
 *	csv_err.c	errors: kept at a spot until its line is read,
 *			or reported at once without a position
 *	csv_scan.c	the record scanner over the input window
 *	csv_detect.c	the delimiter: its check, the byte classes,
 *			detection (JENC_CSV_DETECT)
 *	csv_names.c	the header's names, and the tree --nest makes
 *	csv_out.c	the loop over the records; a record written:
 *			header or values, typed (-t), as text or
 *			through the encoder's calls
 *	csv.c		the driver and the public calls
 *
 * Status: as internal.h's "results of internal calls" say.  A failure
 * is reported (c->err filled, or kept for jenc_csv_report) where it is
 * found, except that a call which can fail only for want of memory
 * returns JENC_E_NOMEM unreported and its caller reports it with
 * jenc_csv_nomem.  Predicates (_ok) return non-zero for yes.
 */
#ifndef JENC_CSV_INT_H
#define JENC_CSV_INT_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define CSV_WINDOW ((size_t)256 * 1024)

/*
 * A record is parsed into c->f, at most CSV_LONG_FIELDS fields, its
 * rewritten fields into at most CSV_LONG_SCRATCH bytes of scratch.  A
 * record that needs more is a long record: the parser goes on only
 * checking and counting its fields (L_CHECK), and once it is known to be
 * valid, it is parsed again and written CSV_LONG_FIELDS fields at a time
 * (L_REPLAY).  So memory is the window (the record) and a constant, not
 * 24 bytes per field.
 */
#define CSV_LONG_FIELDS ((size_t)8192)
#define CSV_LONG_SCRATCH ((size_t)1 << 20)

/* A record whose JSON text may be longer than this is written through the
 * encoder's calls, not built as text (see csv_text). */
#define CSV_TEXT_MAX ((size_t)256 * 1024)

/* Byte classes for the scanning loops; C_PLAIN bytes are skipped. */
enum {
	C_PLAIN = 0,	/* copied as it is */
	C_DELIM,	/* the field delimiter */
	C_LF,
	C_CR,
	C_QUOTE,	/* '"' inside a quoted CSV field */
	C_ESC,		/* copied, but the JSON string needs an escape */
	C_BSLASH,	/* TSV: may start an escape */
	C_HIGH,		/* a byte >= 0x80: UTF-8 is checked */
	C_NUL
};

/* Where the record parser resumes. */
enum {
	S_RECORD,	/* between records */
	S_FIELD,	/* at the start of a field */
	S_QUOTED,	/* inside a quoted field */
	S_CLOSED,	/* just past the closing quote of a field */
	S_UNQUOTED	/* inside an unquoted field (or TSV field) */
};

#define F_SCRATCH 0x01	/* the field's bytes are in c->scr, not the window */
#define F_ESC 0x02	/* the field needs jenc_str: a byte to escape */

struct csv_field {
	size_t off;	/* from the record's start, or in c->scr */
	size_t len;
	unsigned flags;	/* F_* */
};

/* Long records (see CSV_LONG_FIELDS), and what a replay writes. */
enum { L_OFF, L_CHECK, L_REPLAY };
enum { W_NAMES, W_VALUES, W_MEMBERS };

struct csv_name {
	size_t off, len;	/* in names.buf */
	size_t roff, rlen;	/* its key text "name": in names.rbuf */
	size_t next;		/* the suffix _next is the first that may be
				 * free for a duplicate of this name (0: 2) */
	int raw;		/* no byte needs escaping: use jenc_raw_key */
};

struct csv_names {
	char *buf;		/* the names' bytes, back to back */
	size_t len, cap;
	char *rbuf;		/* the key texts, back to back, and 16
				 * bytes of slack (see csv_copy) */
	size_t rlen, cap_r;
	int rbad;		/* a name needs a \u escape: no key texts */
	struct csv_name *v;
	size_t n, cap_v;	/* cap_v in bytes, as every cap here */
	uint32_t *slot;		/* open addressing: index + 1, 0 = empty */
	size_t nslot;
};

struct csv {
	jenc_enc *e;		/* NULL: check the input only */
	jenc_err *err;		/* may be NULL */
	unsigned flags;		/* JENC_CSV_* */
	const char *encoding;	/* the input's, NULL: UTF-8 */
	unsigned char delim;
	unsigned char ucls[256];	/* unquoted CSV field, or TSV */
	unsigned char qcls[256];	/* quoted CSV field */

	/* The window: in.p[pos, in.len) is not consumed yet. */
	jenc_in in;
	size_t pos;
	int from_fd;		/* in reads a file descriptor */
	int detect;		/* JENC_CSV_DETECT applies */
	size_t max_rec;		/* the longest record allowed */
	int begun;		/* the output is begun (jenc_csv_begin):
				 * array mode, the array is open; else a
				 * record was written */
	int dropped;		/* a view rejected a record, dropped with
				 * jenc_discard: e is at top level, nothing
				 * is left to open or close */
	int text;		/* e writes compact JSON with the plain
				 * escapes: records are built as text */
	char *ob;		/* that text */
	size_t cap_o;
	int after_cr;		/* a CR ended the last line: skip one LF */
	uint64_t line;		/* line number at data + pos */

	/* The record being parsed, and the parser's saved state. */
	struct csv_field *f;
	size_t nf, cap_f, nf_max;	/* cap_f in bytes, nf_max in fields */
	char *scr;
	size_t slen, cap_s;
	int st;
	size_t i, lstart, seg;
	uint64_t pline;
	struct csv_field cur;
	size_t q, qlstart;	/* opening quote of the current field */
	uint64_t qline;
	uint64_t rec_line;	/* line the record starts on */
	size_t rec;		/* the complete record is at data + rec */
	size_t rec_end;		/* ... its text (no line end) up to rec_end */
	int lmode;		/* L_*: a long record */
	int lwhat;		/* L_REPLAY: W_* */
	size_t lnf;		/* L_CHECK: fields so far */
	size_t lcol;		/* L_REPLAY: column of c->f[0] */
	int (*lput)(struct csv *, size_t);	/* L_REPLAY: writes c->f[0..n) */

	/* An error at a spot, reported once its line is read (jenc_csv_report). */
	int x_pending;		/* its code is JENC_E_SYNTAX */
	int x_kind;		/* JENC_K_* */
	size_t x_at, x_ls;	/* the spot and its line's start in in.p */
	uint64_t x_line;
	char x_msg[sizeof(((jenc_err *)0)->msg)];

	/* Field names, in header mode. */
	struct csv_names nm;
	int have_hdr;
	int hdr_read;		/* the names come from the input */
	uint64_t hdr_line;	/* ... from this line */
	size_t nhdr;

	/* JENC_CSV_NEST: how a record is written (jenc_csv_nest_plan) */
	const char *sep;
	size_t seplen;
	struct csv_op *plan;
	size_t nplan, cap_plan;	/* cap_plan in bytes */
	size_t plan_names;	/* the plan is for nm.n == plan_names */
	struct csv_node *nodes;
	size_t nnodes, cap_nodes;
	uint32_t *nslot;	/* (parent, segment) -> node index + 1 */
	size_t nnslot;
	int nest;		/* a name holds the separator */
};

/*
 * --nest: the names, split at the separator, make a tree whose leaves are
 * the columns, each level in the order its names first appear.  The plan
 * walks it: OP_OPEN writes a key and '{', OP_FIELD a key and a column's
 * value (null if the record is short), OP_CLOSE '}'.
 */
struct csv_node {
	size_t off, len;	/* the segment: nm.buf[off..off+len) */
	size_t parent;		/* node index + 1, 0: the record */
	size_t child, last, next;	/* node index + 1, 0: none */
	size_t col;		/* column + 1, 0: an object */
};
enum { OP_OPEN, OP_FIELD, OP_CLOSE };
struct csv_op {
	int op;
	size_t off, len;	/* the key: nm.buf[off..off+len) */
	size_t col;
};

/* ---- buffers (every file) ------------------------------------------------ */

/* Grows *p (of *cap bytes) to hold at least need bytes: doubling, at least
 * min.  Returns 0 or JENC_E_NOMEM. */
static inline int
csv_grow(void **p, size_t *cap, size_t need, size_t min)
{
	return jenc_grow(p, cap, need, min, 1) != 0 ? JENC_E_NOMEM : 0;
}

/* 1 if the k-byte UTF-8 sequence at u is U+2028 or U+2029, which
 * jenc_str escapes. */
static inline int
csv_sep(const unsigned char *u, int k)
{
	return k == 3 && u[0] == 0xe2 && u[1] == 0x80 && (u[2] | 1) == 0xa9;
}

/* ---- errors (csv_err.c) -------------------------------------------------- */

/*
 * An error at rec[at], on line `line` whose text starts at rec[lstart],
 * rec pointing into the window.  It is reported by jenc_csv_report once
 * the reader stops, after reading on to the end of that line (which may
 * move the window, so the parser's pointers must not be used after).
 * kind is the JENC_K_* of the bad input.  Returns JENC_E_SYNTAX.
 */
int jenc_csv_fail(struct csv *c, int kind, const char *rec, size_t at,
    uint64_t line, size_t lstart, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Fills c->err with the error jenc_csv_fail kept. */
void jenc_csv_report(struct csv *c);
/* An error without a position (allocation, I/O, the encoder, options):
 * fills c->err, if any.  Returns code. */
int jenc_csv_fail_plain(struct csv *c, int code, int sys_errno,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* An error about a whole line (a record, the header), at offset in the
 * input, without a column or an excerpt.  kind is the JENC_K_* of the
 * bad input.  Returns JENC_E_SYNTAX. */
int jenc_csv_fail_line(struct csv *c, int kind, uint64_t offset,
    uint64_t line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Out of memory; the encoder's error code; what made a jenc_in call fail
 * with r.  Each reports it and returns the JENC_E_* code. */
int jenc_csv_nomem(struct csv *c);
int jenc_csv_enc_fail(struct csv *c, int code);
int jenc_csv_in_fail(struct csv *c, int r);

/* ---- the scanner (csv_scan.c) ------------------------------------------- */

/*
 * The next record: skips blank lines, then parses.  Returns 0 (a record:
 * fields in c->f, the record at c->in.p + c->rec), JENC_ST_MORE (the
 * window ends inside a record: call jenc_csv_fill), JENC_ST_END (the end
 * of input) or an error.
 */
int jenc_csv_next(struct csv *c);
/* Reads more input, keeping the record in progress (moved to the front
 * of the window; every position the parser keeps is relative to it).
 * Returns 0 or an error. */
int jenc_csv_fill(struct csv *c);
/*
 * The long record jenc_csv_next just checked and counted (L_CHECK),
 * parsed again from its start and handed to put CSV_LONG_FIELDS fields
 * at a time: put(c, n) takes c->f[0..n), returns 0 or JENC_E_NOMEM.
 * Nothing can be wrong with the record any more but memory.  Returns 0
 * or an error.
 */
int jenc_csv_replay(struct csv *c, int (*put)(struct csv *c, size_t n));

/* ---- the delimiter (csv_detect.c) ---------------------------------------- */

/* Is d a byte the format (tsv: TSV) allows as its delimiter (jenc.h)? */
int jenc_csv_delim_ok(unsigned char d, int tsv);
/* Makes d the delimiter: c->delim and the byte classes c->ucls, c->qcls. */
void jenc_csv_set_delim(struct csv *c, unsigned char d);
/* JENC_CSV_DETECT: sets the delimiter from the start of the input, read
 * as far as needed (see csv_detect.c).  Returns 0 or an error. */
int jenc_csv_detect(struct csv *c);

/* ---- names and --nest (csv_names.c) -------------------------------------- */

/* s[0..n) as the body of a JSON string at o (room for 2n bytes), with
 * the encoder's plain escapes; the end, or NULL if a byte needs \u. */
char *jenc_csv_esc(char *o, const char *s, size_t n);
/* Adds the name of column col (1-based), made unique.  Returns 0 or
 * JENC_E_NOMEM. */
int jenc_csv_names_add(struct csv_names *nm, const char *s, size_t n,
    size_t col);
/* Frees the names and empties *nm. */
void jenc_csv_names_release(struct csv_names *nm);
/* The delimiter the header read from the input seems to use instead of
 * c->delim: the most frequent of , ; tab | in its names, or 0. */
unsigned char jenc_csv_hint(const struct csv *c);
/* JENC_CSV_NEST: the plan of the names in c->nm.  Returns 0 or an error
 * (a name both a value and an object is bad input). */
int jenc_csv_nest_plan(struct csv *c);

/* ---- records written (csv_out.c) ----------------------------------------- */

/* Array mode: opens the array, once the input gave something to put in
 * it (a record, its end, or bad data; not a read error before any).
 * Either mode: notes that the output is begun (c->begun). */
void jenc_csv_begin(struct csv *c);
/* Reads record after record (jenc_csv_next, jenc_csv_fill) and takes
 * each: as the header, or checked and written.  Returns 0 at the end of
 * the input, or the first error. */
int jenc_csv_records(struct csv *c);
/* At the end of an input whose names no record followed: the names to
 * a view that takes them (JENC_VIEW_NAMES), as the record of no fields
 * (jenc_view_names_next).  Returns 0 or the error. */
int jenc_csv_names_end(struct csv *c);

#endif
