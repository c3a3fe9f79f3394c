/*
 * conv.c - input in another encoding converted to UTF-8 with iconv(3),
 * for the input layer (in.c) to read through.
 *
 * A jenc_conv holds the iconv descriptor, the raw bytes read but not yet
 * converted, and where in the input the conversion stands: the offset of
 * the next raw byte, and the line and column of the converted text made
 * so far, so that an invalid byte is reported in the input's own terms.
 * Lines are counted in the converted text, as the readers count them: at
 * LF, and with cr at a lone CR too (CR LF is one line end).  The column of
 * a bad byte is 1 plus the number of characters before it on its line,
 * whatever their size in the input's encoding (in UTF-16 a character is
 * 2 or 4 bytes, in Shift_JIS 1 or 2).
 *
 * Nothing is ever replaced: a sequence that is not valid in the encoding,
 * or a character cut by the end of the input, stops the conversion, and
 * jenc_conv_msg names its bytes.
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

int
jenc_conv_utf8(const char *name)
{
	return name == NULL || strcasecmp(name, "utf-8") == 0 ||
	    strcasecmp(name, "utf8") == 0;
}

/* iconv_open for name, or (iconv_t)-1 with errno set.  A name holding '/'
 * would give glibc's suffixes (//IGNORE drops bad bytes, //TRANSLIT
 * replaces them): never that; "" would mean the locale's charset. */
static iconv_t
conv_open(const char *name)
{
	if (name[0] == '\0' || strchr(name, '/') != NULL) {
		errno = EINVAL;
		return (iconv_t)-1;
	}
	return iconv_open("UTF-8", name);
}

int
jenc_encoding_check(const char *name)
{
	iconv_t cd;

	if (jenc_conv_utf8(name))
		return 0;
	if ((cd = conv_open(name)) == (iconv_t)-1)
		return errno == ENOMEM ? JENC_E_NOMEM : JENC_E_ENCODING;
	iconv_close(cd);
	return 0;
}

int
jenc_conv_new(jenc_conv **cp, const char *name, int cr, size_t rawcap)
{
	jenc_conv *c;

	*cp = NULL;
	if ((c = jenc_mem_alloc(sizeof(*c))) == NULL)
		return JENC_E_NOMEM;
	memset(c, 0, sizeof(*c));
	c->cd = (void *)conv_open(name);
	if (c->cd == (void *)(iconv_t)-1) {
		int e = errno;

		jenc_mem_free(c, sizeof(*c));
		return e == ENOMEM ? JENC_E_NOMEM : JENC_E_ENCODING;
	}
	if (rawcap > 0 && (c->raw = jenc_mem_alloc(rawcap)) == NULL) {
		iconv_close((iconv_t)c->cd);
		jenc_mem_free(c, sizeof(*c));
		return JENC_E_NOMEM;
	}
	c->rawcap = rawcap;
	(void)snprintf(c->name, sizeof(c->name), "%s", name);
	c->cr = cr;
	c->line = 1;
	c->col = 1;
	*cp = c;
	return 0;
}

void
jenc_conv_free(jenc_conv *c)
{
	if (c == NULL)
		return;
	iconv_close((iconv_t)c->cd);
	if (c->raw != NULL)
		jenc_mem_free(c->raw, c->rawcap);
	jenc_mem_free(c, sizeof(*c));
}

/* Follow the line and column over converted text p[0..n). */
static void
conv_count(jenc_conv *c, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char b = s[i];

		if (b == '\n' || (b == '\r' && c->cr)) {
			if (!(b == '\n' && c->after_cr))
				c->line++;	/* CR LF is one line end */
			c->col = 1;
			c->lbytes = 0;
			c->after_cr = b == '\r';
			continue;
		}
		c->after_cr = 0;
		c->lbytes++;
		/* a character starts at each byte but continuation bytes */
		c->col += (b & 0xc0) != 0x80;
	}
}

size_t
jenc_conv_run(jenc_conv *c, const char **in, size_t *inlen, char *out,
    size_t outcap, int *st)
{
	char *src = (char *)(uintptr_t)*in, *dst = out;
	size_t left = *inlen, room = outcap, made;
	size_t r = iconv((iconv_t)c->cd, &src, &left, &dst, &room);
	int e = errno;

	made = outcap - room;
	c->roff += *inlen - left;
	conv_count(c, out, made);
	*in = src;
	*inlen = left;
	*st = 0;
	if (r == (size_t)-1 && e == EILSEQ)
		*st = JENC_CONV_BAD;
	else if (r == (size_t)-1 && e == EINVAL)
		*st = JENC_CONV_PART;
	return made;
}

void
jenc_conv_bom(jenc_conv *c, size_t chars, size_t bytes)
{
	if (c->line == 1 && c->lbytes >= bytes) {
		c->col -= chars;
		c->lbytes -= bytes;
	}
}

/*
 * How many bytes at p[0..n) make the invalid sequence iconv stopped at:
 * the fewest from which a fresh conversion fails (rather than asking for
 * more), so that a Shift_JIS lead byte is shown with the trail byte that
 * does not fit it, and a UTF-16 unit whole.  At most 4.
 */
static size_t
conv_bad_len(jenc_conv *c, const char *p, size_t n)
{
	size_t k, max = n < 4 ? n : 4;

	for (k = 1; k <= max; k++) {
		char *src = (char *)(uintptr_t)p, buf[32], *dst = buf;
		size_t left = k, room = sizeof(buf);

		(void)iconv((iconv_t)c->cd, NULL, NULL, NULL, NULL);
		if (iconv((iconv_t)c->cd, &src, &left, &dst, &room) ==
		    (size_t)-1 && errno == EINVAL)
			continue;
		return k;
	}
	return max > 0 ? max : 1;
}

void
jenc_conv_msg(jenc_conv *c, const char *p, size_t n, int st, char *msg,
    size_t msgsz)
{
	char hex[4 * 5 + 1];
	size_t k, i, len = 0;

	k = st == JENC_CONV_BAD ? conv_bad_len(c, p, n) : n < 4 ? n : 4;
	for (i = 0; i < k; i++)
		len += (size_t)snprintf(hex + len, sizeof(hex) - len, "%s0x%02x",
		    i ? " " : "", (unsigned char)p[i]);
	if (st == JENC_CONV_BAD)
		(void)snprintf(msg, msgsz, "invalid byte%s %s for encoding %s",
		    k > 1 ? "s" : "", hex, c->name);
	else
		(void)snprintf(msg, msgsz, "incomplete character at end of "
		    "input for encoding %s, found byte%s %s%s", c->name,
		    k > 1 ? "s" : "", hex, n > k ? " ..." : "");
}
