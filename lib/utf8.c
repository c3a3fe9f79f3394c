/*
 * utf8.c - UTF-8 validation (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF) for the callers outside the hot loops: the
 * check of scan.h, not inline; and a JSON string body's escapes decoded
 * to UTF-8.
 */
#include <string.h>

#include "internal.h"
#include "scan.h"

int
jenc_utf8_check(const char *s, size_t n, size_t *bad)
{
	size_t i = scan_text_bad((const unsigned char *)s, n, n, 1);

	if (i < n) {
		*bad = i;
		return 0;
	}
	return 1;
}

/* cp (at most 0x10ffff) written at o as UTF-8, 1 to 4 bytes: their
 * count.  A surrogate comes out as its three bytes. */
static size_t
utf8_put(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t
jenc_utf8_unescape(char *o, const char *s, size_t n, int lone)
{
	size_t i = 0, k = 0;

	while (i < n) {
		const char *bs = memchr(s + i, '\\', n - i);
		size_t run = bs != NULL ? (size_t)(bs - (s + i)) : n - i;
		long u, v;
		char c;

		memcpy(o + k, s + i, run);
		k += run;
		i += run;
		if (i + 1 >= n) {
			if (i < n)
				o[k++] = s[i++];
			break;
		}
		switch ((c = s[i + 1])) {
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case '"': case '\\': case '/': break;
		case 'u':
			if (i + 6 > n || (u = scan_hex4(s + i + 2)) < 0) {
				o[k++] = s[i++];
				continue;
			}
			i += 6;
			if (u >= 0xd800 && u < 0xdc00 && i + 6 <= n &&
			    s[i] == '\\' && s[i + 1] == 'u' &&
			    (v = scan_hex4(s + i + 2)) >= 0xdc00 && v < 0xe000) {
				u = 0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00);
				i += 6;
			} else if (u >= 0xd800 && u < 0xe000 &&
			    lone != JENC_LONE_KEEP) {
				if (lone == JENC_LONE_FAIL)
					return (size_t)-1;
				u = 0xfffd;
			}
			k += utf8_put(o + k, (uint32_t)u);
			continue;
		default:
			o[k++] = s[i++];
			continue;
		}
		o[k++] = c;
		i += 2;
	}
	return k;
}
