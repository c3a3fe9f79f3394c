/*
 * csv.c - the CSV/TSV reader: records in, JSON out through an encoder.
 *
 * CSV follows RFC 4180 with the edge cases of Python's csv module (excel
 * dialect): a quote opens a quoted field only as its first byte, "" inside
 * quotes is one quote, text after a closing quote is appended to the
 * field, records end at LF, CR LF or a lone CR, blank lines and a leading
 * UTF-8 byte order mark are skipped.  TSV has no quoting; records end at
 * LF (a CR before it is dropped) and \t \n \r \\ are decoded.
 *
 * Errors give physical lines, counting line ends inside quoted fields:
 * LF, CR LF and a lone CR in CSV, LF in TSV.  Columns are bytes from the
 * line's start (on line 1, from just after a skipped byte order mark).
 *
 * Input comes through the input layer's window (in.c: CSV_WINDOW bytes,
 * grown only while one record does not fit).  A record is parsed into a
 * list of fields, each a slice of the window or, when its bytes had to be
 * rewritten (doubled quotes, text after a closing quote, TSV escapes), of
 * a scratch buffer.
 * A record is emitted only once it is complete and valid, so a bad record
 * writes nothing.  The parser can stop at the end of the window in the
 * middle of a record and resume there after the next read; every position
 * it keeps is relative to the start of the record, so moving the record to
 * the front of the window before reading invalidates nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"
#include "scan.h"

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

/* Results of csv_next(), besides negative error codes. */
enum {
	R_MORE,		/* the window ends inside a record: read more */
	R_RECORD,	/* a record is in c->f */
	R_END		/* end of input */
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
	int begun;		/* array mode: the array is open */
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

	/* An error at a spot, reported once its line is read (csv_report). */
	int x_pending;
	int x_code, x_kind;	/* JENC_E_*, JENC_K_* */
	size_t x_at, x_ls;	/* the spot and its line's start in in.p */
	uint64_t x_line;
	char x_msg[sizeof(((jenc_err *)0)->msg)];

	/* Field names, in header mode. */
	struct csv_names nm;
	int have_hdr;
	int hdr_read;		/* the names come from the input */
	size_t nhdr;

	/* JENC_CSV_NEST: how a record is written (csv_nest_plan) */
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

/* ---- errors ------------------------------------------------------------ */

/*
 * An error at rec[at], on line `line` whose text starts at rec[lstart],
 * rec pointing into the window.  It is reported by csv_report once the
 * reader stops, after reading on to the end of that line (which may move
 * the window, so the parser's pointers must not be used after).  kind
 * is the JENC_K_* of the bad input.  Returns JENC_E_SYNTAX.
 */
static int
csv_fail(struct csv *c, int kind, const char *rec, size_t at, uint64_t line,
    size_t lstart, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int
csv_fail(struct csv *c, int kind, const char *rec, size_t at, uint64_t line,
    size_t lstart, const char *fmt, ...)
{
	size_t r = (size_t)(rec - c->in.p);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->x_msg, sizeof(c->x_msg), fmt, ap);
	va_end(ap);
	c->x_pending = 1;
	c->x_code = JENC_E_SYNTAX;
	c->x_kind = kind;
	c->x_at = r + at;
	c->x_ls = r + lstart;
	c->x_line = line;
	return JENC_E_SYNTAX;
}

/* Fills c->err with the error csv_fail kept. */
static void
csv_report(struct csv *c)
{
	jenc_where w;

	/* a lone CR ends a CSV line; TSV lines end at LF only */
	int cr = !(c->flags & JENC_CSV_TSV);

	jenc_in_line(&c->in, c->x_at, cr);
	jenc_in_where_line(&c->in, c->x_at, c->x_line, c->x_ls, cr, &w);
	if (c->err != NULL)
		jenc_err_set(c->err, c->x_code, c->x_kind, 0, 0, &w, "%s",
		    c->x_msg);
}

/* An error without a position (allocation, I/O, the encoder, options). */
static int
csv_fail_plain(struct csv *c, int code, int sys_errno, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
csv_fail_plain(struct csv *c, int code, int sys_errno, const char *fmt, ...)
{
	char msg[sizeof(((jenc_err *)0)->msg)];
	va_list ap;

	if (c->err == NULL)
		return code;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return jenc_err_set(c->err, code, JENC_K_NONE, sys_errno, 0, NULL,
	    "%s", msg);
}

static int
csv_nomem(struct csv *c)
{
	return csv_fail_plain(c, JENC_E_NOMEM, 0, "%s",
	    jenc_strerror(JENC_E_NOMEM));
}

static int
csv_enc_fail(struct csv *c, int code)
{
	return csv_fail_plain(c, code, code == JENC_E_IO ? jenc_errno(c->e) : 0,
	    "%s", jenc_strerror(code));
}

/* ---- buffers ------------------------------------------------------------- */

static void
csv_free(void *p, size_t n)
{
	if (p != NULL)
		jenc_mem_free(p, n);
}

/* Grows *p (of *cap bytes) to hold at least need bytes: doubling, at least
 * min.  Returns 0 or -1. */
static int
csv_grow(void **p, size_t *cap, size_t need, size_t min)
{
	return jenc_grow(p, cap, need, min, 1) != 0 ? -1 : 0;
}

/* The record is long (see CSV_LONG_FIELDS): from here on its fields are
 * only counted.  c->nf stays c->nf_max, so that csv_field_add always
 * calls csv_field_end. */
static void
csv_long_check(struct csv *c)
{
	c->lmode = L_CHECK;
	c->lnf = c->nf;
	c->nf_max = c->nf;
}

/* Appends s[0..n) to the current field in scratch, moving the field into
 * scratch first if it is not there yet. */
static int
csv_scr_add(struct csv *c, struct csv_field *cur, const char *s, size_t n)
{
	if (!(cur->flags & F_SCRATCH)) {
		cur->flags |= F_SCRATCH;
		cur->off = c->slen;
	}
	if (n == 0 || c->lmode == L_CHECK)
		return 0;
	if (c->lmode == L_OFF && c->slen + n > CSV_LONG_SCRATCH) {
		csv_long_check(c);
		return 0;
	}
	if (c->slen + n > c->cap_s &&
	    csv_grow((void **)&c->scr, &c->cap_s, c->slen + n, 4096))
		return -1;
	memcpy(c->scr + c->slen, s, n);
	c->slen += n;
	return 0;
}

static int
csv_fields_grow(struct csv *c)
{
	if (csv_grow((void **)&c->f, &c->cap_f, (c->nf + 1) * sizeof *c->f,
	    64 * sizeof *c->f))
		return -1;
	c->nf_max = c->cap_f / sizeof *c->f;
	return 0;
}

static int csv_write_fields(struct csv *c, size_t n);

/* The field's last segment is rec[seg, end): add the field to the record
 * (L_CHECK: count it; L_REPLAY: first write the fields held, if full). */
static int
csv_field_end(struct csv *c, struct csv_field *cur, const char *rec,
    size_t seg, size_t end)
{
	if (c->lmode == L_CHECK) {
		c->lnf++;
		return 0;
	}
	if (cur->flags & F_SCRATCH) {
		if (csv_scr_add(c, cur, rec + seg, end - seg))
			return -1;
		if (c->lmode == L_CHECK) {
			c->lnf++;
			return 0;
		}
		cur->len = c->slen - cur->off;
	} else {
		cur->off = seg;
		cur->len = end - seg;
	}
	if (c->nf == c->nf_max) {
		if (c->lmode == L_REPLAY) {
			if (csv_write_fields(c, c->nf))
				return -1;
			c->nf = 0;
			c->slen = 0;
			if (cur->flags & F_SCRATCH) {
				memmove(c->scr, c->scr + cur->off, cur->len);
				cur->off = 0;
				c->slen = cur->len;
			}
		} else if (c->nf_max >= CSV_LONG_FIELDS) {
			csv_long_check(c);
			c->lnf++;
			return 0;
		} else if (csv_fields_grow(c)) {
			return -1;
		}
	}
	c->f[c->nf++] = *cur;
	return 0;
}

/* csv_field_end() with the common case (a slice of the window, room in
 * c->f) inline: it runs once per field. */
static inline int
csv_field_add(struct csv *c, struct csv_field *cur, const char *rec,
    size_t seg, size_t end)
{
	struct csv_field *f;

	if ((cur->flags & F_SCRATCH) || c->nf == c->nf_max)
		return csv_field_end(c, cur, rec, seg, end);
	f = &c->f[c->nf++];
	f->off = seg;
	f->len = end - seg;
	f->flags = cur->flags;
	return 0;
}

/* ---- UTF-8 --------------------------------------------------------------- */

/*
 * Checks the run of bytes >= 0x80 at u[*ip] (one of them): text in a
 * script other than Latin is checked in one call, not one per character.
 * Returns 1 with *ip past the run, 2 with *ip just past a U+2028 or
 * U+2029 (which jenc_str escapes, so the field needs it), 0 with *ip at a sequence that the
 * window ends in before it could be told (not at eof), or -1 with *ip at
 * the first byte that is not UTF-8.
 *
 * Not scan.h's scan_text_bad: the parser comes here for each run of bytes
 * from 0x80 that scan_find stops at, so no run of ASCII is scanned again,
 * a window that cuts a sequence is told from a bad one, and U+2028 and
 * U+2029 are found in the same pass.
 */
static inline int
csv_utf8(const unsigned char *u, size_t *ip, size_t n, int eof)
{
	size_t i = *ip, k;
	uint32_t cp;

	do {
		unsigned char b = u[i];

		k = b < 0xc2 ? 0 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : b < 0xf5 ? 4 : 0;
		*ip = i;
		if (k == 0)
			return -1;
		if (n - i < k)
			return eof ? -1 : 0;
		if (k == 2 ? (u[i + 1] & 0xc0) != 0x80 :
		    jenc_utf8_seq(u + i, k, &cp) != k)
			return -1;
		i += k;
		if (k == 3 && (cp == 0x2028 || cp == 0x2029)) {
			*ip = i;
			return 2;
		}
	} while (i < n && u[i] >= 0x80);
	*ip = i;
	return 1;
}

/* 1 if the k-byte UTF-8 sequence at u is U+2028 or U+2029, which
 * jenc_str escapes. */
static inline int
csv_sep(const unsigned char *u, int k)
{
	return k == 3 && u[0] == 0xe2 && u[1] == 0x80 && (u[2] | 1) == 0xa9;
}

/* The parsers skip plain bytes with scan.h's scan_find: only a byte below
 * 0x20, from 0x80, the delimiter, '"' or '\\' may have a class other than
 * C_PLAIN. */

/* ---- the record parsers ----------------------------------------------- */

/*
 * Parse one CSV record at rec[0..n) (its start, or where the last call
 * stopped, per c->st), eof: nothing follows rec[n).  Returns R_RECORD
 * with *used = bytes taken (the line end included) and c->rec_end where
 * the text ends (before the line end), R_MORE when the window ends first
 * (state saved), or an error.
 *
 * This is the hot loop, so it is one function of labels instead of
 * nested helpers: the inner while loops skip plain bytes through a class
 * table, and everything else is handled where the loop stops.
 */
static int
csv_parse_csv(struct csv *c, const char *rec, size_t n, int eof, size_t *used)
{
	const unsigned char *u = (const unsigned char *)rec;
	const unsigned char *ucls = c->ucls, *qcls = c->qcls;
	size_t i = c->i, seg = c->seg, lstart = c->lstart;
	uint64_t line = c->pline;
	struct csv_field cur = c->cur;
	unsigned char dc = c->delim;
	int k;

	switch (c->st) {
	case S_QUOTED:
		goto quoted;
	case S_CLOSED:
		goto closed;
	case S_UNQUOTED:
		goto unquoted;
	default:
		break;
	}
field:
	cur.off = i;
	cur.len = 0;
	cur.flags = 0;
	if (i == n && !eof) {
		c->st = S_FIELD;
		goto more;
	}
	seg = i;
	if (i < n && u[i] == '"') {
		c->q = i;
		c->qline = line;
		c->qlstart = lstart;
		seg = ++i;
		goto quoted;
	}
	goto unquoted;

quoted:
	for (;;) {
		i = scan_find(u, i, n, qcls, dc, '"', '\\');
		if (i == n) {
			if (!eof) {
				c->st = S_QUOTED;
				goto more;
			}
			return csv_fail(c, JENC_K_QUOTE, rec, c->q, c->qline,
			    c->qlstart,
			    "unterminated quoted field, opened here");
		}
		switch (qcls[u[i]]) {
		case C_QUOTE:
			if (i + 1 == n && !eof) {
				c->st = S_QUOTED;
				goto more;
			}
			if (i + 1 < n && u[i + 1] == '"') {
				/* "" is one quote: keep the first, skip the second */
				if (csv_scr_add(c, &cur, rec + seg, i + 1 - seg))
					return csv_nomem(c);
				cur.flags |= F_ESC;
				i += 2;
				seg = i;
				continue;
			}
			i++;
			goto closed;
		case C_LF:
			cur.flags |= F_ESC;
			i++;
			line++;
			lstart = i;
			continue;
		case C_CR:
			if (i + 1 == n && !eof) {
				c->st = S_QUOTED;
				goto more;
			}
			cur.flags |= F_ESC;
			i++;
			if (i < n && u[i] == '\n')
				i++;
			line++;
			lstart = i;
			continue;
		case C_ESC:
			cur.flags |= F_ESC;
			i++;
			continue;
		case C_HIGH:
			k = csv_utf8(u, &i, n, eof);
			if (k > 0) {
				if (k == 2)
					cur.flags |= F_ESC;
				continue;
			}
			if (k == 0) {
				c->st = S_QUOTED;
				goto more;
			}
			goto bad_utf8;
		default:
			goto nul;
		}
	}

closed:
	/* i is just past the closing quote; the content ends at i - 1 */
	if (i == n && !eof) {
		c->st = S_CLOSED;
		goto more;
	}
	if (i == n || ucls[u[i]] == C_DELIM || u[i] == '\n' || u[i] == '\r') {
		if (csv_field_add(c, &cur, rec, seg, i - 1))
			return csv_nomem(c);
		goto field_done;
	}
	/* Text after the closing quote is appended, as Python's reader does;
	 * from here on quotes are ordinary bytes. */
	if (csv_scr_add(c, &cur, rec + seg, i - 1 - seg))
		return csv_nomem(c);
	seg = i;

unquoted:
	for (;;) {
		i = scan_find(u, i, n, ucls, dc, '"', '\\');
		if (i == n) {
			if (!eof) {
				c->st = S_UNQUOTED;
				goto more;
			}
			break;
		}
		switch (ucls[u[i]]) {
		case C_DELIM:
		case C_LF:
		case C_CR:
			goto unquoted_end;
		case C_ESC:
			cur.flags |= F_ESC;
			i++;
			continue;
		case C_HIGH:
			k = csv_utf8(u, &i, n, eof);
			if (k > 0) {
				if (k == 2)
					cur.flags |= F_ESC;
				continue;
			}
			if (k == 0) {
				c->st = S_UNQUOTED;
				goto more;
			}
			goto bad_utf8;
		default:
			goto nul;
		}
	}
unquoted_end:
	if (csv_field_add(c, &cur, rec, seg, i))
		return csv_nomem(c);

field_done:
	/* i is at the delimiter, the line end, or the end of input */
	if (i == n) {
		*used = i;
		c->rec_end = i;
		c->pline = line;
		return R_RECORD;
	}
	if (u[i] != '\n' && u[i] != '\r') {
		i++;
		goto field;
	}
	c->rec_end = i;
	if (u[i] == '\n') {
		i++;
	} else if (u[i] == '\r') {
		i++;
		if (i < n && u[i] == '\n')
			i++;
		else if (i == n && !eof)
			c->after_cr = 1;
	}
	*used = i;
	c->pline = line + 1;
	return R_RECORD;

more:
	c->i = i;
	c->seg = seg;
	c->lstart = lstart;
	c->pline = line;
	c->cur = cur;
	return R_MORE;
bad_utf8:
	return csv_fail(c, JENC_K_BYTE, rec, i, line, lstart,
	    "invalid UTF-8 byte 0x%02x", u[i]);
nul:
	return csv_fail(c, JENC_K_BYTE, rec, i, line, lstart,
	    "NUL byte in input");
}

/* The byte a TSV escape \x stands for, or 0 if \x is not one. */
static char
csv_tsv_unescape(unsigned char x)
{
	switch (x) {
	case 't':
		return '\t';
	case 'n':
		return '\n';
	case 'r':
		return '\r';
	case '\\':
		return '\\';
	default:
		return 0;
	}
}

/* The same as csv_parse_csv() for TSV. */
static int
csv_parse_tsv(struct csv *c, const char *rec, size_t n, int eof, size_t *used)
{
	const unsigned char *u = (const unsigned char *)rec;
	const unsigned char *ucls = c->ucls;
	size_t i = c->i, seg = c->seg, lstart = c->lstart, end;
	uint64_t line = c->pline;
	struct csv_field cur = c->cur;
	unsigned char dc = c->delim;
	int k;
	char d;

	if (c->st == S_UNQUOTED)
		goto unquoted;
field:
	cur.off = i;
	cur.len = 0;
	cur.flags = 0;
	seg = i;
unquoted:
	for (;;) {
		i = scan_find(u, i, n, ucls, dc, '"', '\\');
		if (i == n) {
			if (!eof)
				goto more;
			break;
		}
		switch (ucls[u[i]]) {
		case C_DELIM:
		case C_LF:
			goto field_end;
		case C_BSLASH:
			if (i + 1 == n && !eof)
				goto more;
			cur.flags |= F_ESC;
			if (i + 1 < n && (d = csv_tsv_unescape(u[i + 1])) != 0) {
				if (csv_scr_add(c, &cur, rec + seg, i - seg) ||
				    csv_scr_add(c, &cur, &d, 1))
					return csv_nomem(c);
				i += 2;
				seg = i;
			} else {
				i++;
			}
			continue;
		case C_CR:
		case C_ESC:
			cur.flags |= F_ESC;
			i++;
			continue;
		case C_HIGH:
			k = csv_utf8(u, &i, n, eof);
			if (k > 0) {
				if (k == 2)
					cur.flags |= F_ESC;
				continue;
			}
			if (k == 0)
				goto more;
			return csv_fail(c, JENC_K_BYTE, rec, i, line, lstart,
			    "invalid UTF-8 byte 0x%02x", u[i]);
		default:
			return csv_fail(c, JENC_K_BYTE, rec, i, line, lstart,
			    "NUL byte in input");
		}
	}
field_end:
	end = i;
	/* a CR before the LF or the end of the input is part of the line end
	 * (at i == n the input ends: else the loop went to more) */
	if ((i == n || u[i] == '\n') && end > seg && u[end - 1] == '\r')
		end--;
	if (csv_field_add(c, &cur, rec, seg, end))
		return csv_nomem(c);
	if (i < n && u[i] != '\n') {
		i++;
		goto field;
	}
	c->rec_end = end;
	if (i < n) {
		i++;
		line++;
	}
	*used = i;
	c->pline = line;
	return R_RECORD;
more:
	c->st = S_UNQUOTED;
	c->i = i;
	c->seg = seg;
	c->lstart = lstart;
	c->pline = line;
	c->cur = cur;
	return R_MORE;
}

/* The record at in.p[at], on line c->rec_line, is longer than allowed. */
static int
csv_too_long(struct csv *c, size_t at)
{
	return csv_fail(c, JENC_K_LONG, c->in.p + at, 0, c->rec_line, 0,
	    "record longer than %zu bytes", c->max_rec);
}

/*
 * The next record: skips blank lines, then parses.
 * Returns R_RECORD (fields in c->f, the record at c->in.p + c->rec),
 * R_MORE, R_END or an error.
 */
static int
csv_next(struct csv *c)
{
	int tsv = (c->flags & JENC_CSV_TSV) != 0;
	size_t used = 0, n;
	int r, eof;

	if (c->st == S_RECORD) {
		const unsigned char *u = (const unsigned char *)c->in.p;

		for (;;) {
			if (c->pos == c->in.len) {
				if (!c->in.eof)
					return R_MORE;
				c->after_cr = 0;
				return R_END;
			}
			if (c->after_cr) {
				c->after_cr = 0;
				if (u[c->pos] == '\n')
					c->pos++;
				continue;
			}
			if (u[c->pos] == '\n') {
				c->pos++;
				c->line++;
			} else if (u[c->pos] == '\r' && !tsv) {
				c->pos++;
				c->line++;
				c->after_cr = 1;
			} else if (u[c->pos] == '\r') {
				/* TSV: blank if CR LF, or a CR at the end */
				if (c->pos + 1 == c->in.len && !c->in.eof)
					return R_MORE;
				if (c->pos + 1 == c->in.len) {
					c->pos++;
					continue;
				}
				if (u[c->pos + 1] != '\n')
					break;
				c->pos += 2;
				c->line++;
			} else {
				break;
			}
		}
		c->st = S_FIELD;
		c->i = c->seg = c->lstart = 0;
		c->pline = c->rec_line = c->line;
		c->nf = 0;
		c->slen = 0;
		c->lmode = L_OFF;
		c->nf_max = c->cap_f / sizeof *c->f;
	}
	/* The parser sees at most a record of max_rec bytes and a CR LF: a
	 * longer one is then too long whatever comes after (see csv_fill),
	 * however the input arrives. */
	n = c->in.len - c->pos;
	eof = c->in.eof;
	if (n > c->max_rec + 2) {
		n = c->max_rec + 2;
		eof = 0;
	}
	if (tsv)
		r = csv_parse_tsv(c, c->in.p + c->pos, n, eof, &used);
	else
		r = csv_parse_csv(c, c->in.p + c->pos, n, eof, &used);
	if (r != R_RECORD)
		return r;
	if (c->rec_end > c->max_rec)
		return csv_too_long(c, c->pos);
	c->rec = c->pos;
	c->pos += used;
	c->line = c->pline;
	c->st = S_RECORD;
	return R_RECORD;
}

/* ---- field names --------------------------------------------------------- */

static uint64_t
csv_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot where the name s[0..n) is, or the empty slot where it goes. */
static size_t
csv_names_slot(const struct csv_names *nm, const char *s, size_t n)
{
	size_t mask = nm->nslot - 1, j = (size_t)csv_hash(s, n) & mask;

	for (;; j = (j + 1) & mask) {
		const struct csv_name *x;

		if (nm->slot[j] == 0)
			return j;
		x = &nm->v[nm->slot[j] - 1];
		if (x->len == n && memcmp(nm->buf + x->off, s, n) == 0)
			return j;
	}
}

static int
csv_names_rehash(struct csv_names *nm)
{
	size_t ns = nm->nslot ? nm->nslot * 2 : 64, k;
	uint32_t *old = nm->slot;
	size_t oldn = nm->nslot;

	nm->slot = jenc_mem_alloc(ns * sizeof *nm->slot);
	if (nm->slot == NULL) {
		nm->slot = old;
		return -1;
	}
	memset(nm->slot, 0, ns * sizeof *nm->slot);
	nm->nslot = ns;
	for (k = 0; k < nm->n; k++) {
		const struct csv_name *x = &nm->v[k];

		nm->slot[csv_names_slot(nm, nm->buf + x->off, x->len)] =
		    (uint32_t)(k + 1);
	}
	csv_free(old, oldn * sizeof *old);
	return 0;
}

static int
csv_names_put(struct csv_names *nm, const char *s, size_t n)
{
	if (nm->len + n > nm->cap &&
	    csv_grow((void **)&nm->buf, &nm->cap, nm->len + n, 256))
		return -1;
	memcpy(nm->buf + nm->len, s, n);
	nm->len += n;
	return 0;
}

/*
 * s[0..n) as the body of a JSON string at o, which has room for 2n bytes,
 * with the escapes the encoder writes without JENC_HTML or JENC_ASCII:
 * \" \\ \n \r \t \b \f.  Returns the end, or NULL if a byte needs a \u
 * escape (its hex digits' case is the encoder's).
 */
static char *
csv_esc(char *o, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		unsigned char b = (unsigned char)s[k];
		char x;

		if (b >= 0x20 && b != '"' && b != '\\' && b != 0xe2) {
			*o++ = (char)b;
			continue;
		}
		if (b == 0xe2) {
			/* U+2028 and U+2029 are jenc_str's to escape */
			if (k + 2 < n && (unsigned char)s[k + 1] == 0x80 &&
			    ((unsigned char)s[k + 2] | 1) == 0xa9)
				return NULL;
			*o++ = (char)b;
			continue;
		}
		switch (b) {
		case '"':
		case '\\':
			x = (char)b;
			break;
		case '\n':
			x = 'n';
			break;
		case '\r':
			x = 'r';
			break;
		case '\t':
			x = 't';
			break;
		case '\b':
			x = 'b';
			break;
		case '\f':
			x = 'f';
			break;
		default:
			return NULL;
		}
		*o++ = '\\';
		*o++ = x;
	}
	return o;
}

/* The key text "name": of x, appended to nm->rbuf (see csv_text). */
static int
csv_names_render(struct csv_names *nm, struct csv_name *x)
{
	size_t need = nm->rlen + 2 * x->len + 3 + 16;
	char *o;

	if (nm->rbad)
		return 0;
	if (need > nm->cap_r &&
	    csv_grow((void **)&nm->rbuf, &nm->cap_r, need, 256))
		return -1;
	o = nm->rbuf + nm->rlen;
	*o++ = '"';
	if ((o = csv_esc(o, nm->buf + x->off, x->len)) == NULL) {
		nm->rbad = 1;
		return 0;
	}
	*o++ = '"';
	*o++ = ':';
	x->roff = nm->rlen;
	x->rlen = (size_t)(o - nm->rbuf) - nm->rlen;
	nm->rlen += x->rlen;
	return 0;
}

/*
 * Adds a name for column col (1-based): s[0..n), or "_col" if it is empty,
 * suffixed with _2, _3, ... until it differs from every name so far.
 * Linear in expected time however many names repeat: the name b that is
 * taken keeps in b.next the first suffix still worth trying.  Names are
 * only ever added, so every suffix below the one a duplicate of b got
 * stays taken, and the next duplicate can start after it.
 */
static int
csv_names_add(struct csv_names *nm, const char *s, size_t n, size_t col)
{
	char tmp[32];
	size_t base = nm->len, blen, j, k, slot, bi;
	struct csv_name *x;
	int len;

	if (nm->n >= UINT32_MAX - 1)
		return -1;
	if ((nm->n + 1) * 2 > nm->nslot && csv_names_rehash(nm))
		return -1;
	if ((nm->n + 1) * sizeof *nm->v > nm->cap_v &&
	    csv_grow((void **)&nm->v, &nm->cap_v, (nm->n + 1) * sizeof *nm->v,
	    16 * sizeof *nm->v))
		return -1;
	if (n == 0) {
		len = snprintf(tmp, sizeof tmp, "_%zu", col);
		s = tmp;
		n = (size_t)len;
	}
	if (csv_names_put(nm, s, n))
		return -1;
	blen = n;
	slot = csv_names_slot(nm, nm->buf + base, blen);
	if (nm->slot[slot] != 0) {
		bi = nm->slot[slot] - 1;
		for (k = nm->v[bi].next ? nm->v[bi].next : 2;; k++) {
			nm->len = base + blen;
			len = snprintf(tmp, sizeof tmp, "_%zu", k);
			if (csv_names_put(nm, tmp, (size_t)len))
				return -1;
			slot = csv_names_slot(nm, nm->buf + base,
			    nm->len - base);
			if (nm->slot[slot] == 0)
				break;
		}
		nm->v[bi].next = k + 1;
	}
	x = &nm->v[nm->n];
	x->off = base;
	x->len = nm->len - base;
	x->next = 0;
	x->raw = 1;
	for (j = base; j < nm->len; j++) {
		unsigned char b = (unsigned char)nm->buf[j];

		if (b < 0x20 || b == '"' || b == '\\' || (b == 0xe2 &&
		    j + 2 < nm->len && csv_sep((const unsigned char *)
		    nm->buf + j, 3)))
			x->raw = 0;
	}
	if (csv_names_render(nm, x))
		return -1;
	nm->slot[slot] = (uint32_t)(nm->n + 1);
	nm->n++;
	return 0;
}

static void
csv_names_release(struct csv_names *nm)
{
	csv_free(nm->buf, nm->cap);
	csv_free(nm->rbuf, nm->cap_r);
	csv_free(nm->v, nm->cap_v);
	csv_free(nm->slot, nm->nslot * sizeof *nm->slot);
	memset(nm, 0, sizeof *nm);
}

/* ---- emitting -------------------------------------------------------------- */

static inline const char *
csv_field_ptr(const struct csv *c, const struct csv_field *f)
{
	if (f->flags & F_SCRATCH)
		return f->len ? c->scr + f->off : "";
	return c->in.p + c->rec + f->off;
}

static inline int
csv_value(const struct csv *c, const char *s, size_t n, unsigned flags)
{
	jenc_enc *e = c->e;

	if (c->flags & JENC_CSV_TYPES) {
		if (n == 0)
			return jenc_null(e);
		switch (s[0]) {
		case 't':
			if (n == 4 && memcmp(s, "true", 4) == 0)
				return jenc_bool(e, 1);
			break;
		case 'f':
			if (n == 5 && memcmp(s, "false", 5) == 0)
				return jenc_bool(e, 0);
			break;
		case '-': case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			if (jenc_json_number_ok(s, n))
				return jenc_raw(e, s, n);
			break;
		default:
			break;
		}
	}
	/* The reader has checked the UTF-8; without a byte to escape the
	 * field is already a JSON string body. */
	if (flags & F_ESC)
		return jenc_str(e, s, n);
	return jenc_raw_str(e, s, n);
}

static inline int
csv_key(const struct csv *c, size_t k)
{
	const struct csv_name *x = &c->nm.v[k];

	if (x->raw)
		return jenc_raw_key(c->e, c->nm.buf + x->off, x->len);
	return jenc_key(c->e, c->nm.buf + x->off, x->len);
}

/* Copies s[0..n) to o; s[0..16) may be read if s + 16 <= lim (a short
 * field is then one 16-byte move, not a call). */
static inline char *
csv_copy(char *o, const char *s, size_t n, const char *lim)
{
	if (n <= 16 && (size_t)(lim - s) >= 16)
		memcpy(o, s, 16);
	else
		memcpy(o, s, n);
	return o + n;
}

/* What -t makes of a field, for csv_text: a string, its own text (a
 * number, true or false), or null. */
enum { K_STRING, K_VERBATIM, K_NULL };

/*
 * The kind of s[0..n) under JENC_CSV_TYPES, as csv_value decides it, with
 * few branches that depend on the data: true and false are told by a
 * compare of the whole field, and with SSE2 a field of up to 16 bytes
 * that is digits, with at most a leading '-' and one '.' not at either
 * end, is told from its mask of digits (s[0..16) readable when s + 16 <=
 * lim); other numbers go through jenc_json_number_ok.
 */
static inline int
csv_kind(const char *s, size_t n, const char *lim)
{
	unsigned char c0;

	if (n == 0)
		return K_NULL;
	c0 = (unsigned char)s[0];
	if ((unsigned char)(c0 - '0') >= 10 && c0 != '-') {
		if (n == 4)
			return memcmp(s, "true", 4) == 0;
		if (n == 5)
			return memcmp(s, "false", 5) == 0;
		return K_STRING;
	}
#ifdef __SSE2__
	if (n <= 16 && (size_t)(lim - s) >= 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i t = _mm_subs_epu8(_mm_sub_epi8(w, _mm_set1_epi8('0')),
		    _mm_set1_epi8(9));
		unsigned full = (1u << n) - 1, neg = c0 == '-';
		unsigned nd = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(t,
		    _mm_setzero_si128())) & full & ~neg;
		size_t d = neg, p;

		/* the integer part: no leading zero unless it is just "0" */
		if (n > d && !(s[d] == '0' && n > d + 1 && s[d + 1] != '.')) {
			if (nd == 0)
				return n > d;
			if ((nd & (nd - 1)) == 0) {
				p = (size_t)__builtin_ctz(nd);
				if (s[p] == '.' && p > d && p + 1 < n)
					return K_VERBATIM;
			}
		}
	}
#else
	(void)lim;
#endif
	return jenc_json_number_ok(s, n);
}

/*
 * The record in c->f as one piece of JSON text, written with jenc_raw:
 * with c->text, the encoder writes compact JSON and copies a value's text
 * as it is, so one call per record gives the bytes that a call per key
 * and value would.  Returns 0, 1 if the record is left to csv_record
 * (its text could be longer than CSV_TEXT_MAX, or a byte needs a \u
 * escape), or an error.
 */
static int
csv_text(struct csv *c, size_t nf, int obj, size_t nkeys)
{
	const char *lim = c->in.p + c->in.len, *s, *flim;
	int types = (c->flags & JENC_CSV_TYPES) != 0;
	size_t need, k, n;
	char *o;
	int r;

	/* each field: at most twice its bytes, quotes or null, a comma; each
	 * key at most its text; 16 bytes of slack for csv_copy */
	need = 2 * (c->pos - c->rec) + 6 * (nf > nkeys ? nf : nkeys) +
	    (obj ? c->nm.rlen : 0) + 2 + 16;
	if (need > CSV_TEXT_MAX)
		return 1;
	if (need > c->cap_o &&
	    csv_grow((void **)&c->ob, &c->cap_o, need, 4096))
		return csv_nomem(c);
	o = c->ob;
	*o++ = obj ? '{' : '[';
	for (k = 0; k < nf; k++) {
		const struct csv_field *f = &c->f[k];

		if (k > 0)
			*o++ = ',';
		if (obj) {
			const struct csv_name *x = &c->nm.v[k];

			o = csv_copy(o, c->nm.rbuf + x->roff, x->rlen,
			    c->nm.rbuf + c->nm.cap_r);
		}
		n = f->len;
		s = csv_field_ptr(c, f);
		/* no reading past a field in scratch (it may be "") */
		flim = (f->flags & F_SCRATCH) ? s : lim;
		if (types) {
			int kind = csv_kind(s, n, flim);

			if (kind == K_NULL) {
				memcpy(o, "null", 4);
				o += 4;
				continue;
			}
			if (kind == K_VERBATIM) {
				o = csv_copy(o, s, n, flim);
				continue;
			}
		}
		*o++ = '"';
		if (f->flags & F_ESC) {
			if ((o = csv_esc(o, s, n)) == NULL)
				return 1;
		} else {
			o = csv_copy(o, s, n, flim);
		}
		*o++ = '"';
	}
	for (; obj && k < nkeys; k++) {
		const struct csv_name *x = &c->nm.v[k];

		if (k > 0)
			*o++ = ',';
		o = csv_copy(o, c->nm.rbuf + x->roff, x->rlen,
		    c->nm.rbuf + c->nm.cap_r);
		memcpy(o, "null", 4);
		o += 4;
	}
	*o++ = obj ? '}' : ']';
	r = jenc_raw(c->e, c->ob, (size_t)(o - c->ob));
	return r ? csv_enc_fail(c, r) : 0;
}

/* Writes c->f[0..n) as the columns from c->lcol on (L_REPLAY).
 * Returns 0, or -1 out of memory. */
static int
csv_write_fields(struct csv *c, size_t n)
{
	size_t k, col;

	for (k = 0; k < n; k++) {
		const struct csv_field *f = &c->f[k];

		col = c->lcol + k;
		if (c->lwhat == W_NAMES) {
			if (csv_names_add(&c->nm, csv_field_ptr(c, f), f->len,
			    col + 1))
				return -1;
			continue;
		}
		if (c->lwhat == W_MEMBERS)
			csv_key(c, col);
		csv_value(c, csv_field_ptr(c, f), f->len, f->flags);
	}
	c->lcol += n;
	return 0;
}

/*
 * A long record, checked and counted (L_CHECK), parsed again from its
 * start and written as `what` says, CSV_LONG_FIELDS fields at a time.
 * Nothing can be wrong with it any more but memory.
 */
static int
csv_replay(struct csv *c, int what)
{
	int tsv = (c->flags & JENC_CSV_TSV) != 0, r;
	size_t used, n = c->pos - c->rec;

	if (c->cap_f == 0 && csv_fields_grow(c))
		return csv_nomem(c);
	c->lmode = L_REPLAY;
	c->lwhat = what;
	c->lcol = 0;
	c->nf = 0;
	c->slen = 0;
	c->nf_max = c->cap_f / sizeof *c->f;
	c->st = S_FIELD;
	c->i = c->seg = c->lstart = 0;
	c->pline = c->rec_line;
	/* the record ends within rec[0..n): the parser needs nothing after */
	if (tsv)
		r = csv_parse_tsv(c, c->in.p + c->rec, n, 1, &used);
	else
		r = csv_parse_csv(c, c->in.p + c->rec, n, 1, &used);
	c->st = S_RECORD;
	c->pline = c->line;
	if (r != R_RECORD)
		return r < 0 ? r : csv_fail_plain(c, JENC_E_STATE, 0, "%s",
		    "a long record read differently the second time");
	if (csv_write_fields(c, c->nf))
		return csv_nomem(c);
	c->nf = 0;
	return 0;
}

/* Array mode: open the array, once the input gave something to put in it
 * (a record, its end, or bad data; not a read error before any record). */
static void
csv_begin(struct csv *c)
{
	if (!c->begun && !(c->flags & JENC_CSV_LINES)) {
		c->begun = 1;
		(void)jenc_arr_begin(c->e);
	}
}

/* A delimiter the header read from the input seems to use instead of
 * c->delim: the most frequent of , ; tab | in its names, 0 if none. */
static unsigned char
csv_hint(const struct csv *c)
{
	static const unsigned char cand[4] = { ',', ';', '\t', '|' };
	size_t cnt[4] = { 0, 0, 0, 0 }, k, j, best = 0;
	unsigned char d = 0;

	if (!c->hdr_read || (c->flags & JENC_CSV_NO_HEADER))
		return 0;
	for (k = 0; k < c->nhdr && k < c->nm.n; k++) {
		const struct csv_name *x = &c->nm.v[k];

		for (j = 0; j < x->len; j++) {
			const char *p = memchr(cand, c->nm.buf[x->off + j], 4);

			if (p != NULL)
				cnt[(const unsigned char *)p - cand]++;
		}
	}
	for (j = 0; j < 4; j++)
		if (cand[j] != c->delim && cnt[j] > best) {
			best = cnt[j];
			d = cand[j];
		}
	return d;
}

/* ---- --nest ------------------------------------------------------------------ */

/* The first n2 bytes of s2 in s[0..n), or NULL. */
static const char *
csv_memmem(const char *s, size_t n, const char *s2, size_t n2)
{
	const char *p = s, *end = s + n;

	while ((size_t)(end - p) >= n2 &&
	    (p = memchr(p, s2[0], (size_t)(end - p) - n2 + 1)) != NULL) {
		if (memcmp(p, s2, n2) == 0)
			return p;
		p++;
	}
	return NULL;
}

static uint64_t
csv_node_hash(size_t parent, const char *s, size_t n)
{
	return csv_hash(s, n) ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull);
}

/* The child of parent named s[0..n), added if new (col: its column + 1
 * for a leaf).  Returns its index + 1, 0 out of memory. */
static size_t
csv_node_get(struct csv *c, size_t parent, size_t off, size_t n)
{
	const char *s = c->nm.buf + off;
	size_t m, i, k;
	struct csv_node *x;

	if ((c->nnodes + 1) * 2 > c->nnslot) {
		size_t cap = c->nnslot ? c->nnslot * 2 : 64;
		uint32_t *t = jenc_mem_alloc(cap * sizeof *t);

		if (t == NULL)
			return 0;
		memset(t, 0, cap * sizeof *t);
		csv_free(c->nslot, c->nnslot * sizeof *c->nslot);
		c->nslot = t;
		c->nnslot = cap;
		for (k = 0; k < c->nnodes; k++) {
			x = &c->nodes[k];
			for (i = (size_t)csv_node_hash(x->parent, c->nm.buf +
			    x->off, x->len) & (cap - 1); t[i] != 0;
			    i = (i + 1) & (cap - 1))
				;
			t[i] = (uint32_t)(k + 1);
		}
	}
	m = c->nnslot - 1;
	for (i = (size_t)csv_node_hash(parent, s, n) & m; c->nslot[i] != 0;
	    i = (i + 1) & m) {
		x = &c->nodes[c->nslot[i] - 1];
		if (x->parent == parent && x->len == n &&
		    memcmp(c->nm.buf + x->off, s, n) == 0)
			return c->nslot[i];
	}
	if ((c->nnodes + 1) * sizeof *c->nodes > c->cap_nodes &&
	    csv_grow((void **)&c->nodes, &c->cap_nodes,
	    (c->nnodes + 1) * sizeof *c->nodes, 16 * sizeof *c->nodes))
		return 0;
	x = &c->nodes[c->nnodes];
	memset(x, 0, sizeof *x);
	x->off = off;
	x->len = n;
	x->parent = parent;
	c->nslot[i] = (uint32_t)(++c->nnodes);
	if (parent != 0) {
		struct csv_node *p = &c->nodes[parent - 1];

		if (p->last != 0)
			c->nodes[p->last - 1].next = c->nnodes;
		else
			p->child = c->nnodes;
		p->last = c->nnodes;
	}
	return c->nnodes;
}

static int
csv_plan_add(struct csv *c, int op, size_t off, size_t len, size_t col)
{
	struct csv_op *o;

	if ((c->nplan + 1) * sizeof *c->plan > c->cap_plan &&
	    csv_grow((void **)&c->plan, &c->cap_plan,
	    (c->nplan + 1) * sizeof *c->plan, 64 * sizeof *c->plan))
		return -1;
	o = &c->plan[c->nplan++];
	o->op = op;
	o->off = off;
	o->len = len;
	o->col = col;
	return 0;
}

/*
 * The plan of the names in c->nm (the header, with --ragged=pad the _N
 * names after it).  A name that is a value and also holds nested names
 * ("a" and "a.b") is bad input at the header; with no name holding the
 * separator, c->nest stays 0 and records are written as without --nest.
 */
static int
csv_nest_plan(struct csv *c)
{
	size_t k, top = 0, cur;
	size_t *tops = NULL, ntops = 0, cap_tops = 0;

	c->nnodes = 0;
	c->nplan = 0;
	c->nest = 0;
	if (c->nslot != NULL)
		memset(c->nslot, 0, c->nnslot * sizeof *c->nslot);
	for (k = 0; k < c->nm.n; k++) {
		const struct csv_name *x = &c->nm.v[k];
		size_t at = x->off, end = x->off + x->len, parent = 0, node;

		for (;;) {
			const char *q = c->seplen > 0 && end - at >= c->seplen ?
			    csv_memmem(c->nm.buf + at, end - at, c->sep,
			    c->seplen) : NULL;
			size_t segend = q != NULL ?
			    (size_t)(q - c->nm.buf) : end, before = c->nnodes;

			if (q != NULL)
				c->nest = 1;
			if ((node = csv_node_get(c, parent, at,
			    segend - at)) == 0)
				goto nomem;
			if (parent == 0 && c->nnodes > before) {
				if ((ntops + 1) * sizeof *tops > cap_tops &&
				    csv_grow((void **)&tops, &cap_tops,
				    (ntops + 1) * sizeof *tops,
				    16 * sizeof *tops))
					goto nomem;
				tops[ntops++] = node;
			}
			if (q == NULL) {
				struct csv_node *n = &c->nodes[node - 1];

				if (n->col != 0 || n->child != 0)
					goto conflict;
				n->col = k + 1;
				break;
			}
			if (c->nodes[node - 1].col != 0)
				goto conflict;
			parent = node;
			at = segend + c->seplen;
		}
		continue;
conflict:
		csv_free(tops, cap_tops);
		{
			jenc_where w = { .offset = 0, .line = 1 };

			if (c->err == NULL)
				return JENC_E_SYNTAX;
			return jenc_err_set(c->err, JENC_E_SYNTAX,
			    JENC_K_NAMES, 0, 0, &w,
			    "column '%.*s' and another column make one name "
			    "both a value and an object: --nest cannot nest "
			    "them",
			    (int)(x->len > 60 ? 60 : x->len),
			    c->nm.buf + x->off);
		}
	}
	/* the plan: each top-level node in order, depth first */
	for (top = 0; top < ntops; top++) {
		cur = tops[top];
		for (;;) {
			struct csv_node *n = &c->nodes[cur - 1];

			if (n->col != 0) {
				if (csv_plan_add(c, OP_FIELD, n->off, n->len,
				    n->col - 1))
					goto nomem;
			} else {
				if (csv_plan_add(c, OP_OPEN, n->off, n->len, 0))
					goto nomem;
				cur = n->child;
				continue;
			}
			/* up until a node has a next sibling */
			while (c->nodes[cur - 1].next == 0 &&
			    c->nodes[cur - 1].parent != 0) {
				cur = c->nodes[cur - 1].parent;
				if (csv_plan_add(c, OP_CLOSE, 0, 0, 0))
					goto nomem;
			}
			if (c->nodes[cur - 1].parent == 0)
				break;
			cur = c->nodes[cur - 1].next;
		}
	}
	csv_free(tops, cap_tops);
	c->plan_names = c->nm.n + 1;
	return 0;
nomem:
	csv_free(tops, cap_tops);
	return csv_nomem(c);
}

/* The record in c->f (nf fields) through the plan. */
static int
csv_nest_record(struct csv *c, size_t nf)
{
	size_t k;
	int r;

	jenc_obj_begin(c->e);
	for (k = 0; k < c->nplan; k++) {
		const struct csv_op *o = &c->plan[k];

		if (o->op == OP_CLOSE) {
			jenc_obj_end(c->e);
			continue;
		}
		jenc_key(c->e, c->nm.buf + o->off, o->len);
		if (o->op == OP_OPEN)
			jenc_obj_begin(c->e);
		else if (o->col < nf)
			csv_value(c, csv_field_ptr(c, &c->f[o->col]),
			    c->f[o->col].len, c->f[o->col].flags);
		else
			jenc_null(c->e);
	}
	r = jenc_obj_end(c->e);
	return r ? csv_enc_fail(c, r) : 0;
}

/* Takes the record in c->f: as the header, or checked and emitted. */
static int
csv_record(struct csv *c)
{
	int lng = c->lmode == L_CHECK;
	size_t k, nf = lng ? c->lnf : c->nf;
	int r = 0;

	if (c->flags & JENC_CSV_NO_HEADER) {
		if (c->e == NULL)
			return 0;
		csv_begin(c);
		if (lng) {
			jenc_arr_begin(c->e);
			if ((r = csv_replay(c, W_VALUES)) != 0)
				return r;
		} else if (c->text && (r = csv_text(c, nf, 0, 0)) <= 0) {
			return r;
		} else {
			jenc_arr_begin(c->e);
			for (k = 0; k < nf; k++)
				csv_value(c, csv_field_ptr(c, &c->f[k]),
				    c->f[k].len, c->f[k].flags);
		}
		r = jenc_arr_end(c->e);
		return r ? csv_enc_fail(c, r) : 0;
	}
	if (!c->have_hdr) {
		if (lng && (r = csv_replay(c, W_NAMES)) != 0)
			return r;
		for (k = 0; !lng && k < nf; k++)
			if (csv_names_add(&c->nm, csv_field_ptr(c, &c->f[k]),
			    c->f[k].len, k + 1))
				return csv_nomem(c);
		c->have_hdr = 1;
		c->hdr_read = 1;
		c->nhdr = nf;
		return 0;
	}
	if (nf != c->nhdr) {
		if (!(c->flags & JENC_CSV_RAGGED_PAD)) {
			/* about the whole record: a line, no column */
			jenc_where w = { .offset = c->in.off + c->rec,
			    .line = c->rec_line };
			unsigned char h;

			if (c->err == NULL)
				return JENC_E_SYNTAX;
			if ((h = csv_hint(c)) != 0) {
				const char *q = h == '\t' ? "\\t" :
				    (const char[]){ (char)h, 0 };

				return jenc_err_set(c->err, JENC_E_SYNTAX,
				    JENC_K_FIELDS, 0, 0, &w, "record has %zu "
				    "field%s, header has %zu "
				    "(delimiter '%s'? try -d '%s')", nf,
				    nf == 1 ? "" : "s", c->nhdr, q, q);
			}
			return jenc_err_set(c->err, JENC_E_SYNTAX,
			    JENC_K_FIELDS, 0, 0, &w,
			    "record has %zu field%s, header has %zu", nf,
			    nf == 1 ? "" : "s", c->nhdr);
		}
		for (k = c->nm.n; k < nf; k++)
			if (csv_names_add(&c->nm, "", 0, k + 1))
				return csv_nomem(c);
	}
	if ((c->flags & JENC_CSV_NEST) && c->plan_names != c->nm.n + 1 &&
	    (r = csv_nest_plan(c)) != 0)
		return r;
	if (c->e == NULL)
		return 0;
	if ((c->flags & JENC_CSV_NEST) && c->nest) {
		if (lng) {
			jenc_where w = { .offset = c->in.off + c->rec,
			    .line = c->rec_line };

			if (c->err == NULL)
				return JENC_E_SYNTAX;
			return jenc_err_set(c->err, JENC_E_SYNTAX,
			    JENC_K_LONG, 0, 0, &w,
			    "record of more than %u fields or %u MiB of "
			    "rewritten fields: too long for --nest",
			    (unsigned)CSV_LONG_FIELDS,
			    (unsigned)(CSV_LONG_SCRATCH >> 20));
		}
		csv_begin(c);
		return csv_nest_record(c, nf);
	}
	csv_begin(c);
	if (lng) {
		jenc_obj_begin(c->e);
		if ((r = csv_replay(c, W_MEMBERS)) != 0)
			return r;
		k = nf;
	} else if (c->text && !c->nm.rbad &&
	    (r = csv_text(c, nf, 1, c->nhdr > nf ? c->nhdr : nf)) <= 0) {
		return r;
	} else {
		jenc_obj_begin(c->e);
		for (k = 0; k < nf; k++) {
			csv_key(c, k);
			csv_value(c, csv_field_ptr(c, &c->f[k]), c->f[k].len,
			    c->f[k].flags);
		}
	}
	for (; k < c->nhdr; k++) {
		csv_key(c, k);
		jenc_null(c->e);
	}
	r = jenc_obj_end(c->e);
	return r ? csv_enc_fail(c, r) : 0;
}

/* ---- input ------------------------------------------------------------------- */

/* Report what made a jenc_in call fail with r. */
static int
csv_in_fail(struct csv *c, int r)
{
	if (r == JENC_IN_OUT)
		return csv_enc_fail(c, jenc_error(c->e));
	if (r == JENC_IN_CONV || r == JENC_IN_WIDE || r == JENC_IN_NAME) {
		char m[sizeof(((jenc_err *)0)->msg)];
		jenc_where w;

		if (c->err == NULL)
			return JENC_E_ENCODING;
		jenc_in_enc_msg(&c->in, r, m, sizeof(m));
		if (r != JENC_IN_NAME)
			jenc_in_enc_where(&c->in, &w);
		return jenc_err_set(c->err, JENC_E_ENCODING,
		    JENC_K_ENCODING, 0, 0, r != JENC_IN_NAME ? &w : NULL, "%s", m);
	}
	if (r == JENC_E_IO)
		return csv_fail_plain(c, JENC_E_IO, c->in.sys_errno, "%s",
		    strerror(c->in.sys_errno));
	/* JENC_E_NOMEM, or JENC_IN_FULL, a window of SIZE_MAX bytes */
	return csv_nomem(c);
}

/* Reads more input, keeping the record in progress (moved to the front
 * of the window; every position the parser keeps is relative to it). */
static int
csv_fill(struct csv *c)
{
	int r;

	jenc_in_drop(&c->in, c->pos);
	c->pos = 0;
	if (c->st == S_RECORD && c->cap_s > CSV_WINDOW) {
		/* a large record is gone: give its scratch memory back */
		csv_free(c->scr, c->cap_s);
		c->scr = NULL;
		c->cap_s = 0;
	}
	/* The window now holds the record so far, of which only a last CR
	 * may be its line end: past max_rec + 1 bytes it is too long. */
	if (c->st != S_RECORD && c->in.len > c->max_rec + 1)
		return csv_too_long(c, 0);
	if ((r = jenc_in_fill(&c->in)) != 0) {
		if (r == JENC_IN_FULL && c->st != S_RECORD)
			return csv_too_long(c, 0);
		return csv_in_fail(c, r);
	}
	return 0;
}

/* ---- the delimiter -------------------------------------------------------- */

/* Is d a byte the format allows as its delimiter (see jenc.h)? */
static int
csv_delim_ok(unsigned char d, int tsv)
{
	return d != 0 && d != '\n' && d != '\r' && d < 0x80 &&
	    d != (tsv ? '\\' : '"');
}

/* The class tables for delimiter d. */
static void
csv_set_delim(struct csv *c, unsigned char d)
{
	int tsv = (c->flags & JENC_CSV_TSV) != 0, b;

	c->delim = d;
	for (b = 0; b < 256; b++) {
		unsigned char cl = b == 0 ? C_NUL : b < 0x20 ? C_ESC :
		    b >= 0x80 ? C_HIGH : b == '"' || b == '\\' ? C_ESC : C_PLAIN;

		if (b == '\n')
			cl = C_LF;
		else if (b == '\r')
			cl = C_CR;
		c->qcls[b] = b == '"' ? C_QUOTE : cl;
		c->ucls[b] = tsv && b == '\\' ? C_BSLASH : cl;
	}
	c->ucls[d] = C_DELIM;
}

/* Reads more for csv_detect.  Returns 1 if there is more to look at, 0
 * if the window is as long as a record may be (what it holds decides),
 * or an error. */
static int
csv_detect_more(struct csv *c)
{
	int r;

	if (c->in.len > c->max_rec + 1)
		return 0;
	if ((r = jenc_in_fill(&c->in)) == JENC_IN_FULL)
		return 0;
	return r != 0 ? csv_in_fail(c, r) : 1;
}

/* Could p[0..n) start an Excel "sep=X" line whose end it does not hold? */
static int
csv_sep_open(const char *p, size_t n)
{
	if (n < 4)
		return strncasecmp(p, "sep=", n) == 0;
	if (strncasecmp(p, "sep=", 4) != 0)
		return 0;
	return n == 4 || n == 5 || (n == 6 && p[5] == '\r');
}

/*
 * JENC_CSV_DETECT (jenc.h): an Excel "sep=X" first line, dropped, or the
 * delimiter found from the first line that is not blank.  Reads until
 * that line is in the window; nothing is dropped but the sep= line.  Of
 * a longer line only the first max_rec + 2 bytes of the input count
 * (csv_detect_more reads no further): a window that holds more, from
 * memory or after a large read, decides as one that holds just those.
 */
static int
csv_detect(struct csv *c)
{
	static const unsigned char cand[4] = { ',', ';', '\t', '|' };
	size_t cnt[4] = { 0, 0, 0, 0 }, i = 0, best = 0, j, n;
	size_t lim = c->max_rec < SIZE_MAX - 2 ? c->max_rec + 2 : SIZE_MAX;
	const unsigned char *u;
	unsigned char d = ',';
	int inq = 0, after = 1, started = 0, r;

	/* sep=X, then LF, CR LF or CR: read while the bytes so far could
	 * still be one whose end is not known */
	while (!c->in.eof && csv_sep_open(c->in.p, c->in.len))
		if ((r = csv_detect_more(c)) <= 0) {
			if (r < 0)
				return r;
			break;
		}
	u = (const unsigned char *)c->in.p;
	if (c->in.len >= 5 && strncasecmp(c->in.p, "sep=", 4) == 0 &&
	    csv_delim_ok(u[4], 0) &&
	    (c->in.len == 5 || u[5] == '\n' || u[5] == '\r')) {
		c->pos = 5;
		if (c->in.len > 5)
			c->pos += u[5] == '\r' && c->in.len > 6 &&
			    u[6] == '\n' ? 2 : 1;
		if (c->pos > 5)
			c->line = 2;
		csv_set_delim(c, u[4]);
		return 0;
	}
	/* the first line that is not blank, the state kept across reads */
	for (;;) {
		u = (const unsigned char *)c->in.p;
		n = c->in.len < lim ? c->in.len : lim;
		for (; i < n; i++) {
			unsigned char b = u[i];
			const unsigned char *p;

			if (inq) {
				if (b != '"')
					continue;
				if (i + 1 == c->in.len && !c->in.eof &&
				    i + 1 < lim)
					break;
				if (i + 1 < n && u[i + 1] == '"') {
					i++;
					continue;
				}
				inq = 0;
				after = 0;
				continue;
			}
			if (b == '\n' || b == '\r') {
				if (started)
					goto decide;
				continue;
			}
			started = 1;
			p = memchr(cand, b, 4);
			if (b == '"' && after)
				inq = 1;
			else if (p != NULL)
				cnt[p - cand]++;
			after = p != NULL;
		}
		if (c->in.eof || i >= lim)
			break;
		if ((r = csv_detect_more(c)) < 0)
			return r;
		if (r == 0)
			break;
	}
decide:
	if (cnt[0] == 0)
		for (j = 1; j < 4; j++)
			if (cnt[j] > best) {
				best = cnt[j];
				d = cand[j];
			}
	csv_set_delim(c, d);
	return 0;
}

/* ---- driver ---------------------------------------------------------------- */

static int
csv_init(struct csv *c, jenc_enc *e, const jenc_csv_opts *o, jenc_err *err)
{
	unsigned char d;
	int tsv;

	memset(c, 0, sizeof *c);
	if (err != NULL)
		memset(err, 0, sizeof *err);
	c->e = e;
	c->err = err;
	c->flags = o ? o->flags : 0;
	c->encoding = o ? o->encoding : NULL;
	c->sep = o && o->sep ? o->sep : ".";
	c->seplen = strlen(c->sep);
	c->line = 1;
	c->st = S_RECORD;
	c->max_rec = o && o->max_record ? o->max_record : JENC_CSV_MAX_RECORD;
	if (c->max_rec > SIZE_MAX - 4 - JENC_IN_AFTER)
		c->max_rec = SIZE_MAX - 4 - JENC_IN_AFTER;
	tsv = (c->flags & JENC_CSV_TSV) != 0;
	c->detect = !tsv && (c->flags & JENC_CSV_DETECT) && !(o && o->delim);
	d = (unsigned char)(o && o->delim ? o->delim : tsv ? '\t' : ',');
	if (!csv_delim_ok(d, tsv))
		return csv_fail_plain(c, JENC_E_STATE, 0, "%s", tsv ?
		    "the delimiter cannot be a line end, a backslash or a "
		    "non-ASCII byte" :
		    "the delimiter cannot be a line end, a quote or a "
		    "non-ASCII byte");
	csv_set_delim(c, d);
	if (!(c->flags & JENC_CSV_NO_HEADER) && o && o->header) {
		size_t k, bad;

		for (k = 0; k < o->nheader; k++) {
			const char *s = o->header[k];
			size_t n = strlen(s);

			if (!jenc_utf8_check(s, n, &bad))
				return csv_fail_plain(c, JENC_E_UTF8, 0,
				    "invalid UTF-8 byte 0x%02x in header name "
				    "%zu", (unsigned char)s[bad], k + 1);
			if (csv_names_add(&c->nm, s, n, k + 1))
				return csv_nomem(c);
		}
		c->have_hdr = 1;
		c->nhdr = o->nheader;
	}
	return 0;
}

static void
csv_release(struct csv *c)
{
	jenc_in_close(&c->in);
	csv_free(c->scr, c->cap_s);
	csv_free(c->f, c->cap_f);
	csv_free(c->ob, c->cap_o);
	csv_names_release(&c->nm);
	csv_free(c->plan, c->cap_plan);
	csv_free(c->nodes, c->cap_nodes);
	csv_free(c->nslot, c->nnslot * sizeof *c->nslot);
}

/* Reads every record from c->in and emits it. */
static int
csv_run(struct csv *c)
{
	int r = 0, lines = (c->flags & JENC_CSV_LINES) != 0, er;

	if (c->e != NULL) {
		c->in.before_read = jenc_flush_cb;
		c->in.ctx = c->e;
		c->text = jenc_verbatim(c->e);
	}
	if ((r = jenc_in_begin(&c->in, c->encoding,
	    !(c->flags & JENC_CSV_TSV))) < 0 || r > 1)
		r = csv_in_fail(c, r);
	else
		r = 0;
	if (r == 0 && c->detect)
		r = csv_detect(c);
	while (r == 0) {
		r = csv_next(c);
		if (r == R_MORE) {
			/* at the end, only a record too long stops short of it
			 * (csv_next), and csv_fill reports that */
			if (c->in.eof && (c->st == S_RECORD ||
			    c->in.len - c->pos <= c->max_rec + 1)) {
				/* cannot happen: at the end the parser knows */
				r = csv_fail_plain(c, JENC_E_STATE, 0, "%s",
				    "reader stopped before the end of input");
				break;
			}
			r = csv_fill(c);
			continue;
		}
		if (r == R_END) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		r = csv_record(c);
	}
	if (r < 0 && c->x_pending)
		csv_report(c);
	if (c->e == NULL)
		return r;
	/* an input that cannot be read gives nothing, not [] */
	if (r != JENC_E_IO && jenc_error(c->e) == 0)
		csv_begin(c);
	if (!lines && c->begun && jenc_error(c->e) == 0)
		jenc_arr_end(c->e);
	if (c->from_fd && jenc_error(c->e) == 0)
		jenc_flush(c->e);
	if (r == 0 && (er = jenc_error(c->e)) != 0)
		r = csv_enc_fail(c, er);
	/* Out of memory in the encoder, the value cannot be finished: as
	 * the JSON reader does, drop it, so that e holds complete values
	 * only (in array mode that is the whole array). */
	if (jenc_error(c->e) == JENC_E_NOMEM) {
		int cut = jenc_discard(c->e);

		if (c->err != NULL)
			c->err->cut = cut;
	}
	return r;
}

/* The window may grow to a record, a CR and a byte more, and what an
 * error's excerpt shows after its spot (so that it is the same from
 * memory and from a file). */
static size_t
csv_window_max(const struct csv *c)
{
	return c->max_rec + 2 + JENC_IN_AFTER;
}

int
jenc_csv_copy_fd(int fd, jenc_enc *e, const jenc_csv_opts *o, jenc_err *err)
{
	struct csv c;
	int r;

	if ((r = csv_init(&c, e, o, err)) == 0) {
		if (jenc_in_open_fd(&c.in, fd, CSV_WINDOW,
		    csv_window_max(&c)) != 0) {
			r = csv_nomem(&c);
		} else {
			c.from_fd = 1;
			r = csv_run(&c);
		}
	}
	csv_release(&c);
	return r;
}

int
jenc_csv_copy_mem(const char *p, size_t len, jenc_enc *e,
    const jenc_csv_opts *o, jenc_err *err)
{
	struct csv c;
	int r;

	if ((r = csv_init(&c, e, o, err)) == 0) {
		jenc_in_open_mem(&c.in, p, p != NULL ? len : 0,
		    csv_window_max(&c));
		r = csv_run(&c);
	}
	csv_release(&c);
	return r;
}
