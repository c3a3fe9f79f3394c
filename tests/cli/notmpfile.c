/*
 * notmpfile.c - an LD_PRELOAD shim for filesafe.bats: open(2) with
 * O_TMPFILE fails with EOPNOTSUPP, as on a file system without unnamed
 * files (NFS, FUSE, vfat), so that jenc takes its other way: a named
 * temporary file made by mkstemp(3).  Every other call goes on to the C
 * library's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#ifndef O_TMPFILE
#error "O_TMPFILE is needed to test its fallback"
#endif

static int
refused(int flags)
{
	return (flags & O_TMPFILE) == O_TMPFILE;
}

int
open(const char *path, int flags, ...)
{
	static int (*next)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "open");
	if ((flags & O_CREAT) || refused(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (refused(flags)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return next(path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	static int (*next)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (next == NULL)
		*(void **)&next = dlsym(RTLD_NEXT, "open64");
	if ((flags & O_CREAT) || refused(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (refused(flags)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return next(path, flags, mode);
}
