/*
 * csv_scan.c - the record scanner of the CSV/TSV reader: one record of
 * the input window parsed into a list of fields (jenc_csv_next), more of
 * the input read while one does not fit (jenc_csv_fill), a long record
 * parsed again a part at a time (jenc_csv_replay).
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
#include <string.h>

#include "csv_int.h"
#include "scan.h"

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
 * scratch first if it is not there yet.  Returns 0 or JENC_E_NOMEM. */
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
		return JENC_E_NOMEM;
	memcpy(c->scr + c->slen, s, n);
	c->slen += n;
	return 0;
}

static int
csv_fields_grow(struct csv *c)
{
	if (csv_grow((void **)&c->f, &c->cap_f, (c->nf + 1) * sizeof *c->f,
	    64 * sizeof *c->f))
		return JENC_E_NOMEM;
	c->nf_max = c->cap_f / sizeof *c->f;
	return 0;
}

/* The field's last segment is rec[seg, end): add the field to the record
 * (L_CHECK: count it; L_REPLAY: first write the fields held, if full).
 * Returns 0 or JENC_E_NOMEM. */
static int
csv_field_end(struct csv *c, struct csv_field *cur, const char *rec,
    size_t seg, size_t end)
{
	/* (in L_CHECK, csv_scr_add adds nothing; it may begin L_CHECK) */
	if ((cur->flags & F_SCRATCH) &&
	    csv_scr_add(c, cur, rec + seg, end - seg))
		return JENC_E_NOMEM;
	if (c->lmode == L_CHECK) {
		c->lnf++;
		return 0;
	}
	if (cur->flags & F_SCRATCH) {
		cur->len = c->slen - cur->off;
	} else {
		cur->off = seg;
		cur->len = end - seg;
	}
	if (c->nf == c->nf_max) {
		if (c->lmode == L_REPLAY) {
			if (c->lput(c, c->nf))
				return JENC_E_NOMEM;
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
			return JENC_E_NOMEM;
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

/*
 * Checks the run of bytes >= 0x80 at u[*ip] (one of them): text in a
 * script other than Latin is checked in one call, not one per character.
 * Returns 1 with *ip past the run, 2 with *ip just past a U+2028 or
 * U+2029 (which jenc_str escapes, so the field needs it), 0 with *ip at
 * a sequence that the window ends in before it could be told (not at
 * eof), or -1 with *ip at the first byte that is not UTF-8.
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

/*
 * The bytes every scanning loop treats alike, u[*ip] of class cl: a byte
 * from 0x80 starts a run of UTF-8 to check, NUL is bad, any other (C_ESC;
 * C_CR in TSV) is copied but needs an escape.  Returns 1 with *ip past
 * them, 0 with *ip at a UTF-8 sequence the window ends in (the loop stops
 * for more), or -1 with *ip at a bad byte (csv_bad_byte).  Inlined into
 * each loop so that its switch joins the loop's own.
 */
static inline __attribute__((always_inline)) int
csv_byte(const unsigned char *u, size_t *ip, size_t n, int eof, int cl,
    unsigned *flags)
{
	int k;

	switch (cl) {
	case C_HIGH:
		if ((k = csv_utf8(u, ip, n, eof)) == 2)
			*flags |= F_ESC;
		return k < 0 ? -1 : k != 0;
	case C_NUL:
		return -1;
	default:
		*flags |= F_ESC;
		++*ip;
		return 1;
	}
}

/* The error of the byte rec[at] that csv_byte found bad. */
static __attribute__((cold, noinline)) int
csv_bad_byte(struct csv *c, const char *rec, size_t at, uint64_t line,
    size_t lstart)
{
	unsigned char b = (unsigned char)rec[at];

	if (b == 0)
		return jenc_csv_fail(c, JENC_K_BYTE, rec, at, line, lstart,
		    "NUL byte in input");
	return jenc_csv_fail(c, JENC_K_BYTE, rec, at, line, lstart,
	    "invalid UTF-8 byte 0x%02x", b);
}

/* The parsers skip plain bytes with scan.h's scan_find: only a byte below
 * 0x20, from 0x80, the delimiter, '"' or '\\' may have a class other than
 * C_PLAIN. */

/* The parser stops at the end of the window in state st, to go on from
 * there after the next read.  Returns JENC_ST_MORE. */
static inline int
csv_stop(struct csv *c, int st, size_t i, size_t seg, size_t lstart,
    uint64_t line, const struct csv_field *cur)
{
	c->st = st;
	c->i = i;
	c->seg = seg;
	c->lstart = lstart;
	c->pline = line;
	c->cur = *cur;
	return JENC_ST_MORE;
}

/*
 * Parse one CSV record at rec[0..n) (its start, or where the last call
 * stopped, per c->st), eof: nothing follows rec[n).  Returns 0 (a record)
 * with *used = bytes taken (the line end included) and c->rec_end where
 * the text ends (before the line end), JENC_ST_MORE when the window ends
 * first (state saved), or an error.
 *
 * This is the hot loop, so it is one function of labels instead of
 * nested helpers (and longer than 150 lines): the inner loops skip plain
 * bytes through a class table, and everything else is handled where the
 * loop stops.  The quoted and the unquoted loop, and csv_parse_tsv, share
 * the cases they have in common through csv_byte, inlined, but stay loops
 * of their own: one loop for both states, told apart by their tables,
 * cost 3% more instructions on typical CSV and 10% on TSV; one body for
 * CSV and TSV inlined twice with the format a constant still 3.7% on TSV;
 * and the unquoted loop as one inline body for CSV and TSV 0.1-0.8% on
 * CSV and 1.5-5% on TSV.  The hints on the quoted loop's switch and the
 * unquoted loop's own C_ESC case keep it 1-2.5% below the loops that
 * repeated those cases (bench/gen csv rows).
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
			if (!eof)
				goto quoted_more;
			return jenc_csv_fail(c, JENC_K_QUOTE, rec, c->q, c->qline,
			    c->qlstart,
			    "unterminated quoted field, opened here");
		}
		switch (__builtin_expect(qcls[u[i]], C_QUOTE)) {
		case C_QUOTE:
			if (i + 1 == n && !eof)
				goto quoted_more;
			if (i + 1 < n && u[i + 1] == '"') {
				/* "" is one quote: keep the first, skip the second */
				if (csv_scr_add(c, &cur, rec + seg, i + 1 - seg))
					return jenc_csv_nomem(c);
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
			if (i + 1 == n && !eof)
				goto quoted_more;
			cur.flags |= F_ESC;
			i++;
			if (i < n && u[i] == '\n')
				i++;
			line++;
			lstart = i;
			continue;
		default:
			if ((k = csv_byte(u, &i, n, eof, qcls[u[i]],
			    &cur.flags)) <= 0)
				goto quoted_stop;
			continue;
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
			return jenc_csv_nomem(c);
		goto field_done;
	}
	/* Text after the closing quote is appended, as Python's reader does;
	 * from here on quotes are ordinary bytes. */
	if (csv_scr_add(c, &cur, rec + seg, i - 1 - seg))
		return jenc_csv_nomem(c);
	seg = i;

unquoted:
	for (;;) {
		i = scan_find(u, i, n, ucls, dc, '"', '\\');
		if (i == n) {
			if (!eof)
				goto unquoted_more;
			break;
		}
		switch (ucls[u[i]]) {
		case C_DELIM:
		case C_LF:
		case C_CR:
			goto unquoted_end;
		default:
			if ((k = csv_byte(u, &i, n, eof, ucls[u[i]],
			    &cur.flags)) <= 0)
				goto unquoted_stop;
			continue;
		case C_ESC:
			/* not left to csv_byte: 1.5% fewer instructions */
			cur.flags |= F_ESC;
			i++;
			continue;
		}
	}
unquoted_end:
	if (csv_field_add(c, &cur, rec, seg, i))
		return jenc_csv_nomem(c);

field_done:
	/* i is at the delimiter, the line end, or the end of input */
	if (i == n) {
		*used = i;
		c->rec_end = i;
		c->pline = line;
		return 0;
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
	return 0;

quoted_stop:
	/* csv_byte stopped at a bad byte (k < 0) or the window's end */
	if (k < 0)
		goto bad;
quoted_more:
	c->st = S_QUOTED;
	goto more;
unquoted_stop:
	if (k < 0)
		goto bad;
unquoted_more:
	c->st = S_UNQUOTED;
more:
	return csv_stop(c, c->st, i, seg, lstart, line, &cur);
bad:
	return csv_bad_byte(c, rec, i, line, lstart);
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
					return jenc_csv_nomem(c);
				i += 2;
				seg = i;
			} else {
				i++;
			}
			continue;
		default:
			/* a CR not before the LF is a byte to escape */
			if ((k = csv_byte(u, &i, n, eof, ucls[u[i]],
			    &cur.flags)) > 0)
				continue;
			if (k < 0)
				goto bad;
			goto more;
		}
	}
field_end:
	end = i;
	/* a CR before the LF or the end of the input is part of the line end
	 * (at i == n the input ends: else the loop went to more) */
	if ((i == n || u[i] == '\n') && end > seg && u[end - 1] == '\r')
		end--;
	if (csv_field_add(c, &cur, rec, seg, end))
		return jenc_csv_nomem(c);
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
	return 0;
more:
	return csv_stop(c, S_UNQUOTED, i, seg, lstart, line, &cur);
bad:
	return csv_bad_byte(c, rec, i, line, lstart);
}

/* A record begins: the parser's state at its start, lmode (L_*) its
 * way of taking fields. */
static void
csv_rec_begin(struct csv *c, int lmode)
{
	c->st = S_FIELD;
	c->i = c->seg = c->lstart = 0;
	c->pline = c->rec_line;
	c->nf = 0;
	c->slen = 0;
	c->lmode = lmode;
	c->nf_max = c->cap_f / sizeof *c->f;
}

/* The parser of the format, on the n bytes at in.p[at]. */
static inline int
csv_parse(struct csv *c, size_t at, size_t n, int eof, size_t *used)
{
	if (c->flags & JENC_CSV_TSV)
		return csv_parse_tsv(c, c->in.p + at, n, eof, used);
	return csv_parse_csv(c, c->in.p + at, n, eof, used);
}

/* The record at in.p[at], on line c->rec_line, is longer than allowed. */
static int
csv_too_long(struct csv *c, size_t at)
{
	return jenc_csv_fail(c, JENC_K_LONG, c->in.p + at, 0, c->rec_line, 0,
	    "record longer than %zu bytes", c->max_rec);
}

int
jenc_csv_next(struct csv *c)
{
	int tsv = (c->flags & JENC_CSV_TSV) != 0;
	size_t used = 0, n;
	int r, eof;

	if (c->st == S_RECORD) {
		const unsigned char *u = (const unsigned char *)c->in.p;

		for (;;) {
			if (c->pos == c->in.len) {
				if (!c->in.eof)
					return JENC_ST_MORE;
				c->after_cr = 0;
				return JENC_ST_END;
			}
			if (c->after_cr) {
				c->after_cr = 0;
				if (u[c->pos] == '\n')
					c->pos++;
				continue;
			}
			if (u[c->pos] == '\n' || (u[c->pos] == '\r' && !tsv)) {
				c->after_cr = u[c->pos] == '\r';
				c->pos++;
				c->line++;
			} else if (u[c->pos] == '\r') {
				/* TSV: blank if CR LF, or a CR at the end */
				if (c->pos + 1 == c->in.len && !c->in.eof)
					return JENC_ST_MORE;
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
		c->rec_line = c->line;
		csv_rec_begin(c, L_OFF);
	}
	/* The parser sees at most a record of max_rec bytes and a CR LF: a
	 * longer one is then too long whatever comes after (see jenc_csv_fill),
	 * however the input arrives. */
	n = c->in.len - c->pos;
	eof = c->in.eof;
	if (n > c->max_rec + 2) {
		n = c->max_rec + 2;
		eof = 0;
	}
	if ((r = csv_parse(c, c->pos, n, eof, &used)) != 0)
		return r;
	if (c->rec_end > c->max_rec)
		return csv_too_long(c, c->pos);
	c->rec = c->pos;
	c->pos += used;
	c->line = c->pline;
	c->st = S_RECORD;
	return 0;
}

int
jenc_csv_replay(struct csv *c, int (*put)(struct csv *c, size_t n))
{
	size_t used;
	int r;

	if (c->cap_f == 0 && csv_fields_grow(c))
		return jenc_csv_nomem(c);
	c->lput = put;
	c->lcol = 0;
	csv_rec_begin(c, L_REPLAY);
	/* the record ends within rec[0..n): the parser needs nothing after */
	r = csv_parse(c, c->rec, c->pos - c->rec, 1, &used);
	c->st = S_RECORD;
	c->pline = c->line;
	if (r != 0)
		return r < 0 ? r : jenc_csv_fail_plain(c, JENC_E_STATE, 0, "%s",
		    "a long record read differently the second time");
	if (put(c, c->nf))
		return jenc_csv_nomem(c);
	c->nf = 0;
	return 0;
}

int
jenc_csv_fill(struct csv *c)
{
	int r;

	jenc_in_drop(&c->in, c->pos);
	c->pos = 0;
	if (c->st == S_RECORD && c->cap_s > CSV_WINDOW) {
		/* a large record is gone: give its scratch memory back */
		jenc_mem_free(c->scr, c->cap_s);
		c->scr = NULL;
		c->cap_s = 0;
	}
	/* The window now holds the record so far, of which only a last CR
	 * may be its line end: past max_rec + 1 bytes it is too long. */
	if (c->st != S_RECORD && c->in.len > c->max_rec + 1)
		return csv_too_long(c, 0);
	if ((r = jenc_in_fill(&c->in)) != 0) {
		if (r == JENC_ST_FULL && c->st != S_RECORD)
			return csv_too_long(c, 0);
		return jenc_csv_in_fail(c, r);
	}
	return 0;
}
