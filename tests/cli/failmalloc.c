/*
 * failmalloc.c - an LD_PRELOAD allocator that fails one call, for
 * nomem.bats.
 *
 *	JENC_FAIL_AT=N		the Nth call of malloc, calloc, realloc,
 *				reallocarray, posix_memalign, aligned_alloc
 *				or memalign returns NULL (errno ENOMEM); the
 *				others succeed.  Unset or 0: none fails.
 *	JENC_FAIL_COUNT=FILE	at exit, write the number of calls to FILE.
 *
 * Calls are counted from this library's constructor, which runs once the
 * C library is ready, just before main: what the program does, and what
 * the C library does for it (stdio buffers, ...), is counted; the dynamic
 * loader's start-up is not.  The blocks come from glibc's own allocator
 * (__libc_malloc and friends), so no call recurses.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong calls;
static unsigned long fail_at;
static int armed;

__attribute__((constructor)) static void
fm_init(void)
{
	const char *s = getenv("JENC_FAIL_AT");

	fail_at = s != NULL ? strtoul(s, NULL, 10) : 0;
	armed = 1;
}

__attribute__((destructor)) static void
fm_fini(void)
{
	const char *path = getenv("JENC_FAIL_COUNT");
	char tmp[32];
	int fd, n;

	if (path == NULL || (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) < 0)
		return;
	n = snprintf(tmp, sizeof(tmp), "%lu\n", atomic_load(&calls));
	if (write(fd, tmp, (size_t)n) != n)
		n = 0;
	close(fd);
}

/* Does this call fail? */
static int
fails(void)
{
	if (!armed)
		return 0;
	if (atomic_fetch_add(&calls, 1) + 1 != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *
malloc(size_t n)
{
	return fails() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t k, size_t n)
{
	return fails() ? NULL : __libc_calloc(k, n);
}

void *
realloc(void *p, size_t n)
{
	return fails() ? NULL : __libc_realloc(p, n);
}

void *
reallocarray(void *p, size_t k, size_t n)
{
	if (fails())
		return NULL;
	if (n != 0 && k > SIZE_MAX / n) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, k * n);
}

void *
memalign(size_t align, size_t n)
{
	return fails() ? NULL : __libc_memalign(align, n);
}

void *
aligned_alloc(size_t align, size_t n)
{
	return fails() ? NULL : __libc_memalign(align, n);
}

int
posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (fails())
		return ENOMEM;
	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return EINVAL;
	if ((p = __libc_memalign(align, n)) == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}
