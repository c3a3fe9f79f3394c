/*
 * io.c - the mechanisms under every reader and writer of lib/: one
 * read(2) that retries EINTR and waits out EAGAIN (on a descriptor that
 * may be non-blocking), stopped by a wake descriptor where a thread must
 * be able to cancel it; one writev(2) loop; one buffer growth that
 * doubles and checks for overflow.  in.c, par.c and pipe.c read through
 * jenc_io_read, enc_out.c writes through jenc_io_writev, and the buffers of
 * par.c, pipe.c, csv.c, sort.c and enc_view.c grow through
 * jenc_grow_cap.  jenc_fd_read and jenc_fd_write give the same read and
 * write to programs (the command's output and spool use them).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

ssize_t
jenc_io_read(int fd, void *dst, size_t n, int wake, unsigned flags,
    int *sys_errno)
{
	for (;;) {
		ssize_t got;

		if (wake >= 0) {
			struct pollfd pfd[2] = {
				{ .fd = fd, .events = POLLIN },
				{ .fd = wake, .events = POLLIN },
			};

			/* (a regular file is always ready: one poll per
			 * read) */
			if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
				*sys_errno = errno;
				return -1;
			}
			if (pfd[1].revents != 0)
				return JENC_IO_STOPPED;
			if (pfd[0].revents == 0)
				continue;	/* interrupted */
		}
		got = read(fd, dst, n);
		if (got >= 0) {
			if (flags & JENC_IO_COUNT)
				jenc_work_add(JENC_W_READS, 1);
			return got;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (flags & JENC_IO_NOWAIT)
				return JENC_IO_AGAIN;
			/* (with wake: another reader of fd took what poll
			 * saw; poll again, with wake) */
			if (wake >= 0)
				continue;
			/* wakes for data, end of file or an error, which
			 * the next read then reports */
			if (flags & JENC_IO_COUNT)
				jenc_work_add(JENC_W_WAITS, 1);
			(void)poll(&pfd, 1, -1);
			continue;
		}
		*sys_errno = errno;
		return -1;
	}
}

int
jenc_io_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) > 0;
}

int
jenc_io_writev(int fd, struct iovec *iov, int cnt, int *sys_errno)
{
	while (cnt > 0) {
		ssize_t w = writev(fd, iov, cnt);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				struct pollfd pfd = { .fd = fd,
				    .events = POLLOUT };

				(void)poll(&pfd, 1, -1);
				continue;
			}
			*sys_errno = errno;
			return -1;
		}
		size_t done = (size_t)w;
		while (cnt > 0 && done >= iov[0].iov_len) {
			done -= iov[0].iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0) {
			iov[0].iov_base = (char *)iov[0].iov_base + done;
			iov[0].iov_len -= done;
		}
	}
	return 0;
}

size_t
jenc_grow_cap(size_t cap, size_t need, size_t first, size_t size)
{
	size_t n = cap ? cap : first;

	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return 0;
		n *= 2;
	}
	return n;
}

int
jenc_grow(void **p, size_t *cap, size_t need, size_t first, size_t size)
{
	size_t n;
	void *np;

	if (need <= *cap)
		return 0;
	if ((n = jenc_grow_cap(*cap, need, first, size)) == 0)
		return JENC_E_NOMEM;
	np = jenc_mem_realloc(*p, *cap * size, n * size);
	if (np == NULL)
		return JENC_E_NOMEM;
	*p = np;
	*cap = n;
	return 0;
}

ssize_t
jenc_fd_read(int fd, void *buf, size_t n, int *sys_errno)
{
	int dummy;

	return jenc_io_read(fd, buf, n, -1, 0,
	    sys_errno != NULL ? sys_errno : &dummy);
}

int
jenc_fd_write(int fd, const void *p, size_t n, int *sys_errno)
{
	struct iovec iov = { .iov_base = (void *)p, .iov_len = n };
	int dummy;

	return n == 0 ? 0 : jenc_io_writev(fd, &iov, 1,
	    sys_errno != NULL ? sys_errno : &dummy);
}
