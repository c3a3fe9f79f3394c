/*
 * fuzz_jsonc.c - libFuzzer harness for JSON with comments
 * (JENC_READ_JSONC).
 *
 * Input: one mode byte, then the text given to jenc_json_copy_mem.
 * Mode bits:
 *	0-1	layout: 0 compact, 1 indent 2, 2 tab, 3 indent 1
 *	4	JENC_HTML
 *	5	JENC_ASCII
 *	6	JENC_READ_SEQ
 *	7	JENC_READ_SINGLE
 *
 * The model is an independent, whole-buffer version of the filter
 * (ref_blank below): comments outside strings become spaces (line feeds
 * and CRs kept), a ',' after a value whose next byte other than
 * whitespace and comments is ']' or '}' becomes a space, a line feed or
 * RS ends a string, and a block comment open at the end is left as it
 * is.
 * Properties checked besides the sanitizers:
 * - the JSONC read of the input is the strict read of the model's text:
 *   the same result, output and error (offset, line, column, excerpt,
 *   message, but for the strict read's trailing comma hint), except that
 *   an error at an unterminated block comment is "unterminated comment,
 *   found end of input" at its first '/', where the strict read says
 *   "found '/'" with the comments hint;
 * - the error fields are sane for the model's text (fz_check_err, and
 *   fz_check_json_err without JENC_READ_SEQ);
 * - jenc_json_copy_fd on a pipe fed in chunks chosen from the input's
 *   hash gives the same result, output and error as jenc_json_copy_mem:
 *   every comment and comma cut by the end of a read;
 * - the caller's buffer is not written;
 * - with JENC_READ_SKIP the read never fails, and its output is strict
 *   JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "jenc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RS 0x1e
#define NO_OFF ((size_t)-1)

static fz_buf out, ref, tmp, model, copy;

static const char comment_hint[] = " (JSON with comments? try --jsonc)";
static const char comma_hint[] = " (trailing comma? try --jsonc)";

static int
ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Past the comment at b[i] ("//" or slash-star), or n if it is open at
 * the end. */
static size_t
comment_end(const unsigned char *b, size_t i, size_t n)
{
	size_t k;

	if (b[i + 1] == '/') {
		for (k = i + 2; k < n && b[k] != '\n' && b[k] != RS; k++)
			;
		return k;
	}
	for (k = i + 2; k + 1 < n; k++)
		if (b[k] == '*' && b[k + 1] == '/')
			return k + 2;
	return n;
}

static int
starts_comment(const unsigned char *b, size_t i, size_t n)
{
	return b[i] == '/' && i + 1 < n && (b[i + 1] == '/' || b[i + 1] == '*');
}

/*
 * The model: b[0..n) filtered in place.  Returns the offset of a block
 * comment open at the end, or NO_OFF.
 */
static size_t
ref_blank(unsigned char *b, size_t n)
{
	size_t i = 0, k, j;
	unsigned char last = 0;

	/* the reader drops a byte order mark before it filters */
	if (n >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf)
		i = 3;

	while (i < n) {
		unsigned char c = b[i];

		if (c == '"') {
			for (i++; i < n; i++) {
				if (b[i] == '"') {
					i++;
					break;
				}
				if (b[i] == '\n' || b[i] == RS)
					break;
				if (b[i] == '\\' && i + 1 < n &&
				    b[i + 1] != '\n' && b[i + 1] != RS)
					i++;
			}
			last = '"';
			continue;
		}
		if (starts_comment(b, i, n)) {
			int block = b[i + 1] == '*';

			k = comment_end(b, i, n);
			if (block && (k == n && !(k >= i + 4 &&
			    b[k - 2] == '*' && b[k - 1] == '/')))
				return i;
			for (j = i; j < k; j++)
				if (b[j] != '\n' && b[j] != '\r')
					b[j] = ' ';
			i = k;
			continue;
		}
		if (c == ',') {
			if (last != 0 && last != '[' && last != '{' &&
			    last != ',' && last != ':') {
				j = i + 1;
				while (j < n) {
					if (ws(b[j]))
						j++;
					else if (starts_comment(b, j, n))
						j = comment_end(b, j, n);
					else
						break;
				}
				if (j < n && (b[j] == ']' || b[j] == '}'))
					b[i] = ' ';
			}
			last = ',';
			i++;
			continue;
		}
		if (!ws(c))
			last = c;
		i++;
	}
	return NO_OFF;
}

static void
same_bytes(const fz_buf *a, const fz_buf *b, const char *what)
{
	if (!fz_buf_eq(a, 0, b->p, b->len))
		fz_fail("%s: %zu bytes vs %zu", what, a->len, b->len);
}

/* Drop the hint suffix h from msg, if it ends with it. */
static void
drop_hint(char *msg, const char *h)
{
	size_t m = strlen(msg), k = strlen(h);

	if (m >= k && strcmp(msg + m - k, h) == 0)
		msg[m - k] = '\0';
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned layouts[4] = { 0, 2, 0, 1 };
	jenc_opts eo = { 0, 0, 0 };
	jenc_read_opts ro = { 0 }, rs = { 0 };
	jenc_err err, perr, ferr;
	struct fz_json_fd fr;
	unsigned mode;
	const char *p;
	size_t n, open;
	int rc, prc, frc;

	/* input that starts like UTF-16 or UTF-32 is fuzz_conv's */
	if (size < 1 || fz_wide_start((const char *)data + 1, size - 1))
		return 0;
	FZ_BEGIN();
	mode = data[0];
	p = (const char *)data + 1;
	n = size - 1;
	eo.indent = layouts[mode & 3];
	eo.flags = ((mode & 3) == 2 ? JENC_TAB : 0) |
	    (mode & 0x10 ? JENC_HTML : 0) | (mode & 0x20 ? JENC_ASCII : 0) |
	    (mode & 0x40 ? JENC_SEQ : 0);
	rs.flags = (mode & 0x40 ? JENC_READ_SEQ : 0) |
	    (mode & 0x80 ? JENC_READ_SINGLE : 0);
	ro = rs;
	ro.flags |= JENC_READ_JSONC;

	copy.len = 0;
	fz_buf_add(&copy, p, n);
	rc = fz_json(p, n, &eo, &ro, &out, &err);
	if (!fz_buf_eq(&copy, 0, p, n))
		fz_fail("JENC_READ_JSONC wrote to the caller's buffer");

	model.len = 0;
	fz_buf_add(&model, p, n);
	open = model.p != NULL ? ref_blank((unsigned char *)model.p, n) :
	    NO_OFF;
	prc = fz_json(model.p, n, &eo, &rs, &ref, &perr);
	drop_hint(perr.msg, comma_hint);
	if (open != NO_OFF && prc != 0 && perr.offset == open) {
		drop_hint(perr.msg, comment_hint);
		if (strcmp(perr.msg, "expected value or end of input, found '/'")
		    != 0 && strncmp(perr.msg, "expected", 8) != 0)
			fz_fail("strict read at the open comment: '%s'",
			    perr.msg);
		if (strcmp(err.msg, "unterminated comment, found end of input")
		    != 0)
			fz_fail("an unterminated comment told as '%s'",
			    err.msg);
		memcpy(perr.msg, err.msg, sizeof(err.msg));
	}
	if (rc != prc)
		fz_fail("JSONC read %d '%s', the model's text %d '%s'", rc,
		    err.msg, prc, perr.msg);
	same_bytes(&out, &ref, "JSONC output vs the model's");
	if (rc != 0) {
		fz_expect_same_err(&err, &perr, "JSONC/model", 0);
		fz_check_err(&err, rc, model.p, n, 0);
		/* (the forms it knows are those without JENC_READ_SEQ) */
		if (strcmp(err.msg, "unterminated comment, found end of input")
		    != 0 && !(rs.flags & JENC_READ_SEQ))
			fz_check_json_err(&err, model.p, n, 0);
	}

	/* from a pipe, in pieces */
	memset(&ferr, 0, sizeof(ferr));
	fr.e = jenc_get_mem(&eo);
	if (fr.e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	fr.ro = &ro;
	fr.err = &ferr;
	frc = fz_pipe_run(p, n, fz_hash(data, size), fz_json_fd_run, &fr);
	tmp.len = 0;
	fz_take(fr.e, &tmp);
	(void)jenc_release(fr.e);
	if (frc != rc)
		fz_fail("jenc_json_copy_fd returned %d '%s', _mem %d '%s'", frc,
		    ferr.msg, rc, err.msg);
	if (rc != 0)
		fz_expect_same_err(&ferr, &err, "jenc_json_copy_fd/_mem", 1);
	same_bytes(&tmp, &out, "jenc_json_copy_fd vs _mem output");

	/* bad input skipped: never a failure, strict JSON out */
	ro.flags |= JENC_READ_SKIP;
	ro.flags &= ~(unsigned)JENC_READ_SEQ;
	eo.flags &= ~(unsigned)JENC_SEQ;
	if ((rc = fz_json(p, n, &eo, &ro, &tmp, &err)) != 0)
		fz_fail("JENC_READ_SKIP ended the read: %d '%s'", rc, err.msg);
	if (!fz_valid(tmp.p, tmp.len, 0))
		fz_fail("JENC_READ_SKIP output is not strict JSON");
	return 0;
}
