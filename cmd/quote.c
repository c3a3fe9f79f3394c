/*
 * quote.c - file names shown safely; see quote.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

/*
 * The length of the valid UTF-8 character at s (n bytes left), 0 if the
 * bytes there are not one.  *ctl is set for a C1 control (U+0080 to
 * U+009F), which a terminal may obey.
 */
static size_t
quote_utf8(const unsigned char *s, size_t n, int *ctl)
{
	unsigned c = s[0];
	size_t len, i;
	unsigned long cp;

	*ctl = 0;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = c & (0x7fu >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	*ctl = cp <= 0x9f;
	return len;
}

/* Does name need quoting? */
static int
quote_needed(const unsigned char *s, size_t n)
{
	size_t i, k;
	int ctl;

	for (i = 0; i < n; i += k) {
		k = 1;
		if (s[i] < 0x20 || s[i] == 0x7f || s[i] == '"' || s[i] == '\\')
			return 1;
		if (s[i] >= 0x80 && ((k = quote_utf8(s + i, n - i, &ctl)) == 0 ||
		    ctl))
			return 1;
	}
	return 0;
}

/* The escape letter of an ASCII byte that has one, or 0. */
static char
quote_letter(unsigned char c)
{
	static const char from[] = "\a\b\t\n\v\f\r\"\\", to[] = "abtnvfr\"\\";
	const char *p = c != 0 ? strchr(from, c) : NULL;

	return p != NULL ? to[p - from] : 0;
}

/*
 * The quoted form of the character at s (n bytes left) into piece (at
 * least 16 bytes); *k is set to the bytes of s it stands for.  Returns
 * the length of piece.
 */
static size_t
quote_char(const unsigned char *s, size_t n, char *piece, size_t *k)
{
	unsigned char c = s[0];
	size_t m = 0;
	int ctl;

	*k = 1;
	if (c >= 0x80 && (*k = quote_utf8(s, n, &ctl)) != 0) {
		size_t j;

		if (!ctl) {
			memcpy(piece, s, *k);
			return *k;
		}
		for (j = 0; j < *k; j++)	/* a C1 control: octal */
			m += quote_char(s + j, 1, piece + m, &(size_t){ 0 });
		return m;
	}
	*k = 1;
	if (quote_letter(c) != 0) {
		piece[m++] = '\\';
		piece[m++] = quote_letter(c);
	} else if (c < 0x20 || c >= 0x7f) {
		piece[m++] = '\\';
		piece[m++] = (char)('0' + (c >> 6));
		piece[m++] = (char)('0' + (c >> 3 & 7));
		piece[m++] = (char)('0' + (c & 7));
	} else {
		piece[m++] = (char)c;
	}
	return m;
}

/*
 * Write the quoted form of the n bytes at s into out, which has room for
 * cap bytes and a NUL (out NULL: count only).  A form longer than cap is
 * cut at a character and ends in ...".  Returns the whole length.
 */
static size_t
quote_into(const unsigned char *s, size_t n, char *out, size_t cap)
{
	size_t i, k, m, len = 1, whole;
	char piece[16];

	for (i = 0; i < n; i += k)
		len += quote_char(s + i, n - i, piece, &k);
	whole = len + 1;
	if (out == NULL)
		return whole;
	if (whole > cap && cap < 5) {	/* not even "..." */
		out[0] = '\0';
		return whole;
	}
	out[0] = '"';
	len = 1;
	for (i = 0; i < n; i += k) {
		m = quote_char(s + i, n - i, piece, &k);
		if (whole > cap && len + m + 4 > cap) {
			memcpy(out + len, "...", 3);
			len += 3;
			break;
		}
		memcpy(out + len, piece, m);
		len += m;
	}
	out[len] = '"';
	out[len + 1] = '\0';
	return whole;
}

const char *
quote_name(const char *name, char *buf, size_t size)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name);

	if (!quote_needed(s, n) || size == 0)
		return name;
	(void)quote_into(s, n, buf, size - 1);
	return buf;
}

char *
quote_dup(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name), len;
	char *q;

	if (!quote_needed(s, n))
		return strdup(name);
	len = quote_into(s, n, NULL, 0);
	if ((q = malloc(len + 1)) != NULL)
		(void)quote_into(s, n, q, len);
	return q;
}

void
quote_fputs(const char *s, FILE *fp)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i, k, m;
	char piece[16];

	for (i = 0; i < n; i += k) {
		k = 1;
		if (p[i] == '"' || p[i] == '\\') {
			m = 1;
			piece[0] = (char)p[i];
		} else {
			m = quote_char(p + i, n - i, piece, &k);
		}
		fwrite(piece, 1, m, fp);
	}
}
