/*
 * fuzz_csv.c - libFuzzer harness for the CSV/TSV reader.
 *
 * Input: two option bytes, then the text given to jenc_csv_copy_mem.
 *	byte 0, bits 0-4: JENC_CSV_TSV, _NO_HEADER, _TYPES, _LINES,
 *		_RAGGED_PAD
 *	byte 0, bits 5-7: delimiter: default, ';', '|', ' ', ':' with
 *		max_record 64, '\t', ',', or JENC_CSV_DETECT (delimiter
 *		0; for TSV the default)
 *	byte 1, bits 0-2: number of names given as the header (0: none),
 *		taken in order from a list with an empty name, a repeated
 *		name, a quote, non-ASCII, < & > and (the 7th) invalid UTF-8
 *	byte 1, bits 3-4: layout: compact, indent 2, tab, indent 4
 *	byte 1, bits 5-7: JENC_HTML, JENC_ASCII, JENC_LOWER_HEX
 *
 * Properties checked besides the sanitizers:
 * - accepted: the output is valid JSON (one value in array mode, a stream
 *   in JENC_CSV_LINES mode) ending in "\n", a fixpoint of the JSON reader
 *   in the same output mode, and obeys JENC_HTML / JENC_ASCII;
 * - without JENC_CSV_TYPES every value is a string (or null with
 *   JENC_CSV_RAGGED_PAD): no number or true/false appears;
 * - rejected: err fields are sane and, as jenc.h promises for array mode,
 *   what was output is valid JSON holding the records before the bad one
 *   (in lines mode: a valid stream);
 * - jenc_csv_copy_fd on a pipe fed in chunks gives the same code, error
 *   and output as jenc_csv_copy_mem;
 * - JENC_CSV_DETECT (CSV) gives what the delimiter found by the model of
 *   jenc.h's rule (detect_model) gives: for a sep= line, the output of the
 *   rest of the input with that delimiter (the line numbers differ; unless
 *   the rest starts with a byte order mark, which is text there); else
 *   the same code, output, error and position;
 * - with max_record 64, no record of more bytes is accepted.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_util.h"
#include "jenc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fz_buf out, tmp;

static const char *const names[7] = {
	"a", "", "a", "x\"y", "\xc3\xa9t\xc3\xa9", "<&>", "\xff"
};

struct csv_run {
	jenc_enc *e;
	const jenc_csv_opts *co;
	jenc_err *err;
};

static int
run_fd(int fd, void *ctx)
{
	struct csv_run *r = ctx;

	return jenc_csv_copy_fd(fd, r->e, r->co, r->err);
}

static int
run(const char *p, size_t n, const jenc_opts *eo, const jenc_csv_opts *co,
    jenc_err *err, uint32_t seed, fz_buf *o, unsigned *depth, int *sticky)
{
	struct csv_run r;
	int rc;

	memset(err, 0, sizeof(*err));
	r.e = jenc_get_mem(eo);
	if (r.e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	r.co = co;
	r.err = err;
	if (seed == 0)
		rc = jenc_csv_copy_mem(p, n, r.e, co, err);
	else
		rc = fz_pipe_run(p, n, seed, run_fd, &r);
	*depth = jenc_depth(r.e);
	*sticky = jenc_error(r.e);
	o->len = 0;
	fz_take(r.e, o);
	(void)jenc_release(r.e);
	return rc;
}

/* Outside strings, a compact stream of strings (and nulls) only has
 * brackets, braces, commas, colons, newlines and "null". */
static void
only_strings(const char *c, size_t n, int nulls)
{
	size_t i = 0;

	while (i < n) {
		char ch = c[i];

		if (ch == '"') {
			for (i++; i < n && c[i] != '"'; i++)
				if (c[i] == '\\')
					i++;
			i++;
		} else if (strchr("[]{},:\n", ch) != NULL) {
			i++;
		} else if (nulls && n - i >= 4 &&
		    memcmp(c + i, "null", 4) == 0) {
			i += 4;
		} else {
			fz_fail("value that is not a string at compact offset "
			    "%zu without JENC_CSV_TYPES", i);
		}
	}
}

/* Is d allowed as a CSV delimiter (jenc.h)? */
static int
delim_ok(unsigned char d)
{
	return d != 0 && d != '\n' && d != '\r' && d != '"' && d < 0x80;
}

/*
 * JENC_CSV_DETECT's rule as jenc.h words it, written apart from csv.c:
 * the delimiter for p[0..n) (after a byte order mark), and in *skip the
 * bytes of a sep= line to drop (0 if none).
 */
static char
detect_model(const unsigned char *p, size_t n, size_t *skip)
{
	static const char cand[4] = { ',', ';', '\t', '|' };
	size_t cnt[4] = { 0, 0, 0, 0 }, i = 0, j, best = 0;
	int inq = 0, after = 1;
	char d = ',';

	*skip = 0;
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		n -= 3;
		*skip = 3;
	}
	if (n >= 5 && (p[0] | 0x20) == 's' && (p[1] | 0x20) == 'e' &&
	    (p[2] | 0x20) == 'p' && p[3] == '=' && delim_ok(p[4]) &&
	    (n == 5 || p[5] == '\n' || p[5] == '\r')) {
		*skip += n == 5 ? 5 : n > 6 && p[5] == '\r' && p[6] == '\n' ?
		    7 : 6;
		return (char)p[4];
	}
	*skip = 0;
	while (i < n && (p[i] == '\n' || p[i] == '\r'))
		i++;
	for (; i < n; i++) {
		const char *c;

		if (inq) {
			if (p[i] == '"') {
				if (i + 1 < n && p[i + 1] == '"')
					i++;
				else
					inq = 0, after = 0;
			}
			continue;
		}
		if (p[i] == '\n' || p[i] == '\r')
			break;
		c = memchr(cand, p[i], 4);
		if (p[i] == '"' && after)
			inq = 1;
		else if (c != NULL)
			cnt[c - cand]++;
		after = c != NULL;
	}
	if (cnt[0] == 0)
		for (j = 1; j < 4; j++)
			if (cnt[j] > best) {
				best = cnt[j];
				d = cand[j];
			}
	return d;
}

/* Accepted with max_record: every physical line, which is part of one
 * record, is at most that long (a byte order mark and, in TSV, a CR
 * before the line end left out). */
static void
check_max(const char *p, size_t n, const jenc_csv_opts *co)
{
	int tsv = (co->flags & JENC_CSV_TSV) != 0;
	size_t i = 0, start, len;

	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n) {
		start = i;
		while (i < n && p[i] != '\n' && (tsv || p[i] != '\r'))
			i++;
		len = i - start;
		if (tsv && len > 0 && p[i - 1] == '\r')
			len--;
		if (len > co->max_record)
			fz_fail("a line of %zu bytes at %zu accepted with "
			    "max_record %zu", len, start, co->max_record);
		i++;
	}
}

/* The CSV messages of jenc(1)'s DIAGNOSTICS, each with its spot. */
/* s is " (delimiter 'X'? try -d 'X')", X one of , ; | or \t. */
static int
hint_ok(const char *s, const jenc_csv_opts *co)
{
	static const char *const forms[4] = {
		" (delimiter ','? try -d ',')", " (delimiter ';'? try -d ';')",
		" (delimiter '|'? try -d '|')",
		" (delimiter '\\t'? try -d '\\t')"
	};
	int k;

	(void)co;
	for (k = 0; k < 4; k++)
		if (strcmp(s, forms[k]) == 0)
			return 1;
	return 0;
}

static void
check_csv_err(const jenc_err *err, const char *p, size_t n,
    const jenc_csv_opts *co)
{
	const char *m = err->msg;
	int at = err->offset < n ? (unsigned char)p[err->offset] : -1;
	unsigned long a, b;
	unsigned v;
	int k = 0, k2 = 0;
	char tail;

	if (err->code == JENC_E_UTF8) {
		if (strcmp(m, "invalid UTF-8 byte 0xff in header name 7") !=
		    0 || co->nheader != 7 || (co->flags & JENC_CSV_NO_HEADER))
			fz_fail("UTF-8 error '%s' with %zu header names", m,
			    co->nheader);
		return;
	}
	if (err->code != JENC_E_SYNTAX)
		fz_fail("CSV reader returned %d (%s)", err->code, m);
	if (sscanf(m, "record has %lu field%n", &a, &k) == 1 && k > 0 &&
	    m[k] == (a != 1 ? 's' : ',') &&
	    sscanf(m + k + (a != 1), ", header has %lu%n", &b, &k2) == 1 &&
	    k2 > 0 && (m[k + (a != 1) + k2] == '\0' ||
	    hint_ok(m + k + (a != 1) + k2, co))) {
		if (a == b || err->col != 0 || err->line == 0 ||
		    (co->flags & JENC_CSV_RAGGED_PAD))
			fz_fail("'%s' at col %llu with flags 0x%x", m,
			    (unsigned long long)err->col, co->flags);
	} else if (sscanf(m, "record longer than %lu bytes%c", &a, &tail) ==
	    1 && strstr(m, " bytes") != NULL) {
		if (err->col != 1 || a != (co->max_record ? co->max_record :
		    JENC_CSV_MAX_RECORD))
			fz_fail("'%s' at col %llu", m,
			    (unsigned long long)err->col);
	} else if (strcmp(m, "unterminated quoted field, opened here") == 0) {
		if (at != '"' || (co->flags & JENC_CSV_TSV))
			fz_fail("'%s' at byte %d", m, at);
	} else if (strcmp(m, "NUL byte in input") == 0) {
		if (at != 0)
			fz_fail("'%s' at byte %d", m, at);
	} else if (sscanf(m, "invalid UTF-8 byte 0x%2x%c", &v, &tail) == 1 &&
	    strlen(m) == 23) {
		if ((int)v != at || v < 0x80)
			fz_fail("'%s' at byte %d", m, at);
	} else {
		fz_fail("CSV message '%s' is none of jenc(1)'s forms", m);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char delims[8] = { 0, ';', '|', ' ', ':', '\t', ',', 0 };
	static const unsigned indents[4] = { 0, 2, 0, 4 };
	jenc_opts eo = { 0, 0, 0 }, ec = { 0, 0, 0 };
	jenc_csv_opts co;
	jenc_read_opts ro = { 0 };
	jenc_err err, ferr, terr;
	unsigned escf, depth, fdepth;
	const char *p, *why;
	size_t n, where;
	int rc, frc, lines, sticky, fsticky;

	/* UTF-16 and UTF-32 input: fuzz_conv.c */
	if (size < 2 || fz_wide_start((const char *)data + 2, size - 2))
		return 0;
	FZ_BEGIN();
	memset(&co, 0, sizeof(co));
	co.flags = data[0] & 0x1f;
	co.delim = delims[data[0] >> 5];
	if ((data[0] >> 5) == 4)
		co.max_record = 64;
	if ((data[0] >> 5) == 7)
		co.flags |= JENC_CSV_DETECT;
	co.nheader = data[1] & 7;
	co.header = co.nheader ? names : NULL;
	escf = (data[1] & 0x20 ? JENC_HTML : 0) |
	    (data[1] & 0x40 ? JENC_ASCII : 0) |
	    (data[1] & 0x80 ? JENC_LOWER_HEX : 0);
	eo.flags = ec.flags = escf;
	eo.indent = indents[(data[1] >> 3) & 3];
	if (((data[1] >> 3) & 3) == 2)
		eo.flags |= JENC_TAB;
	lines = (co.flags & JENC_CSV_LINES) != 0;
	p = (const char *)data + 2;
	n = size - 2;

	rc = run(p, n, &eo, &co, &err, 0, &out, &depth, &sticky);
	if ((why = fz_flags_violation(out.p, out.len, escf, &where)) != NULL)
		fz_fail("%s at output offset %zu", why, where);
	if (out.len != 0 && out.p[out.len - 1] != '\n')
		fz_fail("output does not end in a newline");
	if (rc == 0) {
		if (depth != 0 || sticky != 0)
			fz_fail("success with depth %u, error %d", depth,
			    sticky);
		if (!fz_valid(out.p, out.len, lines ? 0 : JENC_READ_SINGLE) &&
		    !(out.len == 0 && !lines))
			fz_fail("output is not valid JSON");
	} else {
		fz_check_err(&err, rc, p, n, !(co.flags & JENC_CSV_TSV));
		check_csv_err(&err, p, n, &co);
		if (!lines && out.len != 0 &&
		    !fz_valid(out.p, out.len, JENC_READ_SINGLE))
			fz_fail("array mode output after an error is not one "
			    "JSON value (%s)", err.msg);
		if (lines && depth == 0 && sticky == 0 &&
		    !fz_valid(out.p, out.len, 0))
			fz_fail("lines output after an error is not valid "
			    "(%s)", err.msg);
	}

	if (fz_valid(out.p, out.len, 0)) {
		if (fz_json(out.p, out.len, &eo, &ro, &tmp, &terr) != 0 ||
		    !fz_buf_eq(&tmp, 0, out.p, out.len))
			fz_fail("output is not a fixpoint of the JSON reader");
		if (!(co.flags & JENC_CSV_TYPES)) {
			if (fz_json(out.p, out.len, &ec, &ro, &tmp, &terr) != 0)
				fz_fail("compacting the output failed");
			only_strings(tmp.p, tmp.len,
			    (co.flags & JENC_CSV_RAGGED_PAD) != 0);
		}
	}

	frc = run(p, n, &eo, &co, &ferr, fz_hash(data, size) | 1, &tmp,
	    &fdepth, &fsticky);
	if (frc != rc)
		fz_fail("jenc_csv_copy_fd returned %d, _mem %d (%s / %s)", frc,
		    rc, ferr.msg, err.msg);
	if (rc != 0) {
		fz_expect_same_err(&ferr, &err, "jenc_csv_copy_fd/_mem", 1);
	}
	if (!fz_buf_eq(&tmp, 0, out.p, out.len))
		fz_fail("jenc_csv_copy_fd output differs from _mem");

	if (co.max_record != 0 && rc == 0)
		check_max(p, n, &co);
	if ((co.flags & JENC_CSV_DETECT) && !(co.flags & JENC_CSV_TSV)) {
		jenc_csv_opts mo = co;
		size_t skip;

		mo.flags &= ~(unsigned)JENC_CSV_DETECT;
		mo.delim = detect_model((const unsigned char *)p, n, &skip);
		/* a byte order mark after the sep= line is text: the rerun
		 * would skip it */
		if (skip > 0 && n - skip >= 3 &&
		    memcmp(p + skip, "\xef\xbb\xbf", 3) == 0)
			return 0;
		/* and so is a UTF-16/32 one, which the rerun would convert */
		if (skip > 0 && fz_wide_start(p + skip, n - skip))
			return 0;
		frc = run(p + skip, n - skip, &eo, &mo, &ferr, 0, &tmp,
		    &fdepth, &fsticky);
		if (frc != rc || !fz_buf_eq(&tmp, 0, out.p, out.len))
			fz_fail("JENC_CSV_DETECT differs from delimiter '%c' "
			    "(skip %zu): rc %d / %d", mo.delim, skip, rc, frc);
		if (rc != 0 && skip == 0)
			fz_expect_same_err(&ferr, &err, "JENC_CSV_DETECT/model",
			    1);
	}
	return 0;
}
