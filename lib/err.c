/*
 * err.c - filling jenc_err for the readers: the message, the description
 * of what was found, and the excerpt of the offending line with its caret.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define EXCERPT_COLS 80

void
jenc_err_setf(jenc_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void
jenc_err_found(char *out, size_t outsz, const char *p, size_t avail)
{
	unsigned char c;

	if (avail == 0) {
		snprintf(out, outsz, "end of input");
		return;
	}
	c = (unsigned char)*p;
	if (c == 0)
		snprintf(out, outsz, "NUL byte");
	else if (c > 0x20 && c < 0x7f)
		snprintf(out, outsz, "'%c'", c);
	else
		snprintf(out, outsz, "byte 0x%02x", c);
}

void
jenc_err_excerpt(jenc_err *err, const char *line, size_t n, size_t spot,
    int cr_ends_line)
{
	const unsigned char *p = (const unsigned char *)line;
	size_t from = 0, end, i, o = 0, cols = 0;

	/* The line ends at the first line end at or after the spot. */
	for (end = spot; end < n && p[end] != '\n'; end++)
		if (p[end] == '\r' && (cr_ends_line || (end + 1 < n &&
		    p[end + 1] == '\n')))
			break;
	if (spot > EXCERPT_COLS / 2)
		from = spot - EXCERPT_COLS / 2;
	while (from < spot && (p[from] & 0xc0) == 0x80)
		from++;
	err->caret = 0;
	for (i = from; i < end && cols < EXCERPT_COLS &&
	    o + 5 < sizeof(err->excerpt);) {
		uint32_t cp;
		size_t k = p[i] < 0x80 ? 1 : jenc_utf8_seq(p + i, end - i, &cp);

		if (i <= spot)
			err->caret = cols;
		if (k == 0) {
			err->excerpt[o++] = '?';
			k = 1;
		} else if (k == 1) {
			err->excerpt[o++] = (char)(p[i] < 0x20 || p[i] == 0x7f ?
			    ' ' : p[i]);
		} else {
			memcpy(err->excerpt + o, p + i, k);
			o += k;
		}
		i += k;
		cols++;
	}
	if (spot >= i)
		err->caret = cols + (spot - i);
	err->excerpt[o] = '\0';
}

int
jenc_err_set(jenc_err *err, int code, int sys_errno, int cut,
    const jenc_where *w, const char *fmt, ...)
{
	va_list ap;

	memset(err, 0, sizeof(*err));
	err->code = code;
	err->sys_errno = sys_errno;
	err->cut = cut;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (w != NULL) {
		err->offset = w->offset;
		err->line = w->line;
		err->col = w->col;
		jenc_err_excerpt(err, w->text, w->avail, w->at, w->cr_ends_line);
	}
	return code;
}
