/*
 * utf8.c - UTF-8 validation (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF).
 */
#include <string.h>

#include "internal.h"

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
