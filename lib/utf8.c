/*
 * utf8.c - UTF-8 validation (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF).
 */
#include <string.h>

#include "internal.h"

size_t
jenc_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char c = p[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		if (n < 2 || (p[1] & 0xc0) != 0x80)
			return 0;
		*cp = (uint32_t)(c & 0x1f) << 6 | (p[1] & 0x3f);
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0)	/* overlong */
			return 0;
		if (c == 0xed && p[1] >= 0xa0)	/* surrogate */
			return 0;
		*cp = (uint32_t)(c & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 |
		    (p[2] & 0x3f);
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90)	/* overlong */
			return 0;
		if (c == 0xf4 && p[1] >= 0x90)	/* above U+10FFFF */
			return 0;
		*cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
		    (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
		return 4;
	}
	return 0;
}

int
jenc_utf8_check(const char *s, size_t n, size_t *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		/* Eight ASCII bytes with no NUL at a time. */
		while (i + 8 <= n) {
			uint64_t w;

			memcpy(&w, p + i, 8);
			if (((w | ((w - 0x0101010101010101ull) & ~w)) &
			    0x8080808080808080ull) != 0)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		if (p[i] == 0) {
			*bad = i;
			return 0;
		}
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t k = jenc_utf8_seq(p + i, n - i, &cp);
		if (k == 0) {
			*bad = i;
			return 0;
		}
		i += k;
	}
	return 1;
}
