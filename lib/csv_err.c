/*
 * csv_err.c - the CSV/TSV reader's errors: one at a spot of the input is
 * kept (jenc_csv_fail) and reported once the line it is on has been read,
 * so that its excerpt shows the whole line (jenc_csv_report); one without
 * a position (memory, I/O, the encoder, options, the input's encoding) is
 * reported at once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "csv_int.h"

int
jenc_csv_fail(struct csv *c, int kind, const char *rec, size_t at,
    uint64_t line, size_t lstart, const char *fmt, ...)
{
	size_t r = (size_t)(rec - c->in.p);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->x_msg, sizeof(c->x_msg), fmt, ap);
	va_end(ap);
	c->x_pending = 1;
	c->x_kind = kind;
	c->x_at = r + at;
	c->x_ls = r + lstart;
	c->x_line = line;
	return JENC_E_SYNTAX;
}

void
jenc_csv_report(struct csv *c)
{
	/* a lone CR ends a CSV line; TSV lines end at LF only */
	int cr = !(c->flags & JENC_CSV_TSV);
	jenc_where w;

	jenc_in_line(&c->in, c->x_at, cr);
	jenc_in_where_line(&c->in, c->x_at, c->x_line, c->x_ls, cr, &w);
	if (c->err != NULL)
		jenc_err_set(c->err, JENC_E_SYNTAX, c->x_kind, 0, 0, &w, "%s",
		    c->x_msg);
}

/* Fills c->err, if any, with the error fmt and ap word.  Returns code. */
static int
csv_vfail(struct csv *c, int code, int kind, int sys_errno,
    const jenc_where *w, const char *fmt, va_list ap)
{
	char msg[sizeof(((jenc_err *)0)->msg)];

	if (c->err == NULL)
		return code;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	return jenc_err_set(c->err, code, kind, sys_errno, 0, w, "%s", msg);
}

int
jenc_csv_fail_plain(struct csv *c, int code, int sys_errno, const char *fmt,
    ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = csv_vfail(c, code, JENC_K_NONE, sys_errno, NULL, fmt, ap);
	va_end(ap);
	return r;
}

int
jenc_csv_fail_line(struct csv *c, int kind, uint64_t offset, uint64_t line,
    const char *fmt, ...)
{
	jenc_where w = { .offset = offset, .line = line };
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = csv_vfail(c, JENC_E_SYNTAX, kind, 0, &w, fmt, ap);
	va_end(ap);
	return r;
}

int
jenc_csv_nomem(struct csv *c)
{
	return jenc_csv_fail_plain(c, JENC_E_NOMEM, 0, "%s",
	    jenc_strerror(JENC_E_NOMEM));
}

int
jenc_csv_enc_fail(struct csv *c, int code)
{
	int at_start, kind;
	const char *msg = jenc_view_msg(c->e, &at_start, &kind);

	/*
	 * A view rejected the record (a --to=csv writer, JENC_VIEW_RECORDS,
	 * given the array of a record read with JENC_CSV_NO_HEADER): bad
	 * input about the whole record, at its line.  The record is dropped
	 * from the encoder, whose records before it stay sound.
	 */
	if (msg != NULL) {
		char m[sizeof(((jenc_err *)0)->msg)];

		snprintf(m, sizeof(m), "%s%s", msg, at_start &&
		    (c->flags & JENC_CSV_NO_HEADER) ?
		    ", found an array (--no-header)" : "");
		(void)jenc_discard(c->e);
		c->dropped = 1;
		return jenc_csv_fail_line(c, kind, c->in.off + c->rec,
		    c->rec_line, "%s", m);
	}
	return jenc_csv_fail_plain(c, code,
	    code == JENC_E_IO ? jenc_errno(c->e) : 0, "%s",
	    jenc_strerror(code));
}

int
jenc_csv_in_fail(struct csv *c, int r)
{
	if (r == JENC_ST_OUT)
		return jenc_csv_enc_fail(c, jenc_error(c->e));
	if (r == JENC_E_ENCODING) {
		char m[sizeof(((jenc_err *)0)->msg)];
		int spot = jenc_in_enc_spot(&c->in);
		jenc_where w;

		if (c->err == NULL)
			return JENC_E_ENCODING;
		jenc_in_enc_msg(&c->in, m, sizeof(m));
		if (spot)
			jenc_in_enc_where(&c->in, &w);
		return jenc_err_set(c->err, JENC_E_ENCODING, JENC_K_ENCODING,
		    0, 0, spot ? &w : NULL, "%s", m);
	}
	if (r == JENC_E_IO)
		return jenc_csv_fail_plain(c, JENC_E_IO, c->in.sys_errno, "%s",
		    strerror(c->in.sys_errno));
	/* JENC_E_NOMEM, or JENC_ST_FULL, a window of SIZE_MAX bytes */
	return jenc_csv_nomem(c);
}

