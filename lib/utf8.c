/*
 * utf8.c - UTF-8 validation (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF) for the callers outside the hot loops: the
 * check of scan.h, not inline.
 */
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
