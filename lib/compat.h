/*
 * compat.h - the one place where lib/ asks the C library for more than
 * POSIX.1-2008, and the fallback used where it cannot.
 *
 * Every file is built with -D_POSIX_C_SOURCE=200809L.  A file that needs
 * one of the calls below includes this header first, before any system
 * header (a feature macro counts only then), and calls the jenc_ name:
 *
 *	jenc_memrchr	memrchr(3) of glibc, musl and the BSDs; a loop
 *			elsewhere (macOS has none)
 *	JENC_HAVE_AFFINITY
 *			sched_getaffinity(2) and CPU_COUNT, on Linux; the
 *			caller falls back to sysconf(_SC_NPROCESSORS_ONLN),
 *			which this header makes visible where it can
 *
 * -DJENC_POSIX_ONLY turns every extension off, so that the fallbacks
 * are built and tested on Linux too (`make check-posix`).
 */
#ifndef JENC_COMPAT_H
#define JENC_COMPAT_H

#if !defined(JENC_POSIX_ONLY)
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#define JENC_HAVE_MEMRCHR 1
#define JENC_HAVE_AFFINITY 1
#elif defined(__APPLE__)
/* _SC_NPROCESSORS_ONLN is hidden by _POSIX_C_SOURCE alone */
#define _DARWIN_C_SOURCE 1
#elif defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__) || \
    defined(__DragonFly__)
/* the BSDs hide memrchr and _SC_NPROCESSORS_ONLN under _POSIX_C_SOURCE,
 * and show everything without it */
#undef _POSIX_C_SOURCE
#define JENC_HAVE_MEMRCHR 1
#endif
#endif

#include <stddef.h>
#include <string.h>

/* The last byte c in p[0..n), or NULL: memrchr(3) where it exists. */
static inline const char *
jenc_memrchr(const char *p, int c, size_t n)
{
#if defined(JENC_HAVE_MEMRCHR)
	return memrchr(p, c, n);
#else
	const unsigned char *s = (const unsigned char *)p;

	while (n > 0)
		if (s[--n] == (unsigned char)c)
			return p + n;
	return NULL;
#endif
}

#endif
