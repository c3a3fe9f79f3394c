/*
 * test_io.c - io.c: jenc_io_read on a pipe (bytes, the end, EAGAIN with
 * and without JENC_IO_NOWAIT, the wake descriptor, a bad fd),
 * jenc_io_writev (all of the iovec, a bad fd), the public jenc_fd_read and
 * jenc_fd_write over non-blocking pipe ends, and the growth of
 * jenc_grow_cap and jenc_grow with its overflow check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"

static void
test_read(void)
{
	char buf[16];
	int p[2], w[2], err = 0;

	TEST("jenc_io_read: the bytes there, then 0 at the end") {
		CHECK(pipe(p) == 0);
		CHECK(write(p[1], "abc", 3) == 3);
		CHECK_EQ(jenc_io_read(p[0], buf, sizeof(buf), -1, 0, &err), 3);
		CHECK(memcmp(buf, "abc", 3) == 0);
		close(p[1]);
		CHECK_EQ(jenc_io_read(p[0], buf, sizeof(buf), -1, 0, &err), 0);
		close(p[0]);
	}
	TEST("jenc_io_read: JENC_IO_NOWAIT on an empty non-blocking pipe") {
		CHECK(pipe(p) == 0);
		CHECK(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0);
		CHECK_EQ(jenc_io_read(p[0], buf, sizeof(buf), -1,
		    JENC_IO_NOWAIT, &err), JENC_IO_AGAIN);
		CHECK(write(p[1], "x", 1) == 1);
		CHECK_EQ(jenc_io_read(p[0], buf, sizeof(buf), -1,
		    JENC_IO_NOWAIT, &err), 1);
		close(p[0]);
		close(p[1]);
	}
	TEST("jenc_io_read: a readable wake descriptor stops the wait") {
		CHECK(pipe(p) == 0);
		CHECK(pipe(w) == 0);
		CHECK(write(w[1], "", 1) == 1);
		CHECK_EQ(jenc_io_read(p[0], buf, sizeof(buf), w[0], 0, &err),
		    JENC_IO_STOPPED);
		close(w[0]);
		close(w[1]);
		close(p[0]);
		close(p[1]);
	}
	TEST("jenc_io_read: a bad descriptor is -1 with its errno") {
		CHECK(pipe(p) == 0);
		close(p[0]);
		close(p[1]);
		CHECK_EQ(jenc_io_read(p[0], buf, sizeof(buf), -1, 0, &err), -1);
		CHECK_EQ(err, EBADF);
	}
}

static void
test_writev(void)
{
	char buf[16];
	struct iovec iov[3];
	int p[2], err = 0;

	TEST("jenc_io_writev: every part of the iovec, in order") {
		CHECK(pipe(p) == 0);
		iov[0].iov_base = "ab";
		iov[0].iov_len = 2;
		iov[1].iov_base = "";
		iov[1].iov_len = 0;
		iov[2].iov_base = "cde";
		iov[2].iov_len = 3;
		CHECK_EQ(jenc_io_writev(p[1], iov, 3, &err), 0);
		close(p[1]);
		CHECK_EQ(read(p[0], buf, sizeof(buf)), 5);
		CHECK(memcmp(buf, "abcde", 5) == 0);
		close(p[0]);
	}
	TEST("jenc_io_writev: a bad descriptor is -1 with its errno") {
		iov[0].iov_base = "ab";
		iov[0].iov_len = 2;
		CHECK_EQ(jenc_io_writev(-1, iov, 1, &err), -1);
		CHECK_EQ(err, EBADF);
	}
}

/* The n-th byte of the pattern test_fd sends. */
static char
pattern(size_t n)
{
	return (char)('a' + n * 7 % 26);
}

static void
test_fd(void)
{
	enum { BIG = 1 << 20 };
	char *big = malloc(BIG), *got = malloc(BIG);
	size_t n = 0, i;
	ssize_t r;
	int p[2], err = 0, st = -1;
	pid_t pid;

	TEST("jenc_fd_write/jenc_fd_read: 1 MiB through a non-blocking pipe") {
		CHECK(big != NULL && got != NULL);
		for (i = 0; i < BIG; i++)
			big[i] = pattern(i);
		CHECK(pipe(p) == 0);
		CHECK(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0);
		CHECK(fcntl(p[1], F_SETFL, O_NONBLOCK) == 0);
		pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			/* (the pipe holds far less: EAGAIN is waited out) */
			close(p[0]);
			_exit(jenc_fd_write(p[1], big, BIG, &err) == 0 ? 0 : 1);
		}
		close(p[1]);
		/* (reads before the writer is there meet EAGAIN too) */
		while (n < BIG && (r = jenc_fd_read(p[0], got + n, BIG - n,
		    &err)) > 0)
			n += (size_t)r;
		CHECK_EQ(n, BIG);
		CHECK(memcmp(got, big, BIG) == 0);
		CHECK_EQ(jenc_fd_read(p[0], got, 1, NULL), 0);
		close(p[0]);
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	TEST("jenc_fd_write/jenc_fd_read: a bad descriptor is -1 with errno") {
		err = 0;
		CHECK_EQ(jenc_fd_write(-1, "ab", 2, &err), -1);
		CHECK_EQ(err, EBADF);
		err = 0;
		CHECK_EQ(jenc_fd_read(-1, got, 1, &err), -1);
		CHECK_EQ(err, EBADF);
		CHECK_EQ(jenc_fd_write(-1, "ab", 2, NULL), -1);
		CHECK_EQ(jenc_fd_write(-1, "", 0, &err), 0);
	}
	free(big);
	free(got);
}

static void
test_grow(void)
{
	TEST("jenc_grow_cap: first, then doubled until need fits") {
		CHECK_EQ(jenc_grow_cap(0, 1, 16, 1), 16);
		CHECK_EQ(jenc_grow_cap(0, 17, 16, 1), 32);
		CHECK_EQ(jenc_grow_cap(32, 100, 16, 8), 128);
		CHECK_EQ(jenc_grow_cap(64, 64, 16, 1), 64);
	}
	TEST("jenc_grow_cap: 0 where the bytes would overflow") {
		CHECK_EQ(jenc_grow_cap(16, SIZE_MAX, 16, 1), 0);
		CHECK_EQ(jenc_grow_cap(16, SIZE_MAX / 8, 16, 16), 0);
	}
	TEST("jenc_grow: contents kept; overflow is JENC_E_NOMEM, unchanged") {
		uint32_t *a = NULL;
		size_t cap = 0, i;

		CHECK_EQ(jenc_grow((void **)&a, &cap, 3, 4, sizeof(*a)), 0);
		CHECK_EQ(cap, 4);
		for (i = 0; i < 4; i++)
			a[i] = (uint32_t)i;
		CHECK_EQ(jenc_grow((void **)&a, &cap, 9, 4, sizeof(*a)), 0);
		CHECK_EQ(cap, 16);
		CHECK(a[0] == 0 && a[3] == 3);
		CHECK_EQ(jenc_grow((void **)&a, &cap, SIZE_MAX / 2, 4,
		    sizeof(*a)), JENC_E_NOMEM);
		CHECK_EQ(cap, 16);
		CHECK(a[3] == 3);
		jenc_mem_free(a, cap * sizeof(*a));
	}
}

int
main(void)
{
	test_read();
	test_writev();
	test_fd();
	test_grow();
	return harness_done();
}
