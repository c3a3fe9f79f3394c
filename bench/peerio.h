/*
 * peerio.h - input and output for the bench peers (simdminify,
 * simdparse, rjcopy, jsmnfloor): the whole input in one buffer, the
 * output written in full.  C and C++; static functions; the only state
 * is the program name for messages, peerio_prog.
 *
 * peerio_slurp(fd, pad, &len) reads fd to its end into one malloc'd
 * buffer and returns it (the caller frees it) with its length in len and
 * pad more bytes, zeroed, after it (simdjson wants SIMDJSON_PADDING
 * readable bytes past the end).  A regular file gets a buffer sized from
 * fstat(2) and is read with as few read(2) calls as the kernel allows; a
 * pipe grows the buffer by doubling.  peerio_write(fd, p, n) writes all
 * of p[0..n).  Both print "PROG: what: why" and exit 3 on an error, the
 * status jenc uses for a read or write error.
 */
#ifndef PEERIO_H
#define PEERIO_H

#include <sys/stat.h>

#include <fcntl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *peerio_prog = "peer";

static inline void
peerio_die(const char *what, const char *why)
{
	fprintf(stderr, "%s: %s: %s\n", peerio_prog, what, why);
	exit(3);
}

static inline char *
peerio_slurp(int fd, size_t pad, size_t *len)
{
	struct stat st;
	size_t cap = 1 << 20, n = 0;
	char *p, *q;
	ssize_t r;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		off_t at = lseek(fd, 0, SEEK_CUR);

		cap = (size_t)st.st_size - (at > 0 ? (size_t)at : 0) + 1;
	}
	if ((p = (char *)malloc(cap + pad)) == NULL)
		peerio_die("input", "out of memory");
	for (;;) {
		if (n == cap) {
			cap *= 2;
			if ((q = (char *)realloc(p, cap + pad)) == NULL)
				peerio_die("input", "out of memory");
			p = q;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			peerio_die("read", strerror(errno));
		if (r == 0)
			break;
		n += (size_t)r;
	}
	memset(p + n, 0, pad);
	*len = n;
	return p;
}

static inline void
peerio_write(int fd, const void *buf, size_t n)
{
	const char *p = (const char *)buf;
	ssize_t r;

	while (n > 0) {
		r = write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			peerio_die("write", strerror(errno));
		p += r;
		n -= (size_t)r;
	}
}

#endif /* PEERIO_H */
