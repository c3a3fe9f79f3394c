/*
 * cutwrite.c - an LD_PRELOAD shim for mmap.bats: the first write(2) or
 * writev(2) to a descriptor above 2 (the file of -o or -w that jenc
 * writes) first truncates the file that JENC_CUT names to 0 bytes, as
 * another program could while jenc reads it.  Every call then goes on to
 * the C library's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

static int done;

static void
cut(int fd)
{
	const char *path = getenv("JENC_CUT");

	if (fd > 2 && !done && path != NULL && *path != '\0') {
		done = 1;
		if (truncate(path, 0) != 0)
			abort();
	}
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	static ssize_t (*next)(int, const void *, size_t);

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "write");
	cut(fd);
	return next(fd, buf, n);
}

ssize_t
writev(int fd, const struct iovec *iov, int cnt)
{
	static ssize_t (*next)(int, const struct iovec *, int);

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "writev");
	cut(fd);
	return next(fd, iov, cnt);
}
