/*
 * test_in.c - the input layer (lib/in.c): the window over a buffer and
 * over a descriptor (growth, its limit, shrinking back, dropping), the
 * read loop (a read interrupted by a signal, a non-blocking pipe, a read
 * error, the encoder flushed before reading), line counting and where a
 * spot is, the byte order mark, and reading on to an error's line end;
 * a mapped file (jenc_in_init_map): its bytes from the fd's offset, bytes
 * written to it meanwhile, the pages behind the window unmapped, a
 * conversion, and the reader's result the same as from read(2).
 */
#define _DEFAULT_SOURCE		/* mincore(2) */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"

/* jenc_in_begin's and jenc_in_bom's byte order mark found */
static int bom;

/* A thread that writes pieces to a pipe, waiting ms milliseconds before
 * each one, then closes it. */
struct writer {
	int fd;
	const char *const *pieces;
	int ms;
};

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void *
write_pieces(void *arg)
{
	const struct writer *w = arg;
	size_t i;

	for (i = 0; w->pieces[i] != NULL; i++) {
		sleep_ms(w->ms);
		if (write(w->fd, w->pieces[i], strlen(w->pieces[i])) < 0)
			break;
	}
	close(w->fd);
	return NULL;
}

/* Reads all of in into out (at most cap bytes); returns the first
 * non-zero result of jenc_in_fill, or 0 at the end of input. */
static int
read_all(jenc_in *in, char *out, size_t cap, size_t *n)
{
	int rc = 0;

	*n = 0;
	while (!in->eof && (rc = jenc_in_fill(in)) == 0) {
		if (*n + in->len <= cap)
			memcpy(out + *n, in->p, in->len);
		*n += in->len;
		jenc_in_drop(in, in->len);
	}
	return rc;
}

static void
on_alarm(int sig)
{
	(void)sig;
}

static int flushes;

static int
count_sink(void *ctx, const char *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	flushes++;
	return 0;
}

static void
test_mem(void)
{
	jenc_in in;
	jenc_where w;

	TEST("jenc_in_init_mem: the window shows at most max bytes") {
		jenc_in_init_mem(&in, "abcdefghij", 10, 4);
		CHECK_STR(in.p, in.len, "abcd");
		CHECK_EQ(in.eof, 0);
		CHECK_EQ(jenc_in_fill(&in), JENC_ST_FULL);
		jenc_in_drop(&in, 3);
		CHECK_EQ(in.off, 3);
		CHECK_STR(in.p, in.len, "d");
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len, "defg");
		jenc_in_drop(&in, 4);
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_STR(in.p, in.len, "hij");
		CHECK_EQ(in.eof, 1);
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.len, 3);
		jenc_in_release(&in);
	}
	TEST("jenc_in_init_mem: NULL with 0 bytes is an empty input") {
		jenc_in_init_mem(&in, NULL, 0, 4);
		CHECK_EQ(in.len, 0);
		CHECK_EQ(in.eof, 1);
		CHECK_EQ(jenc_in_bom(&in, &bom), 0);
		CHECK_EQ(bom, 0);
	}
	TEST("jenc_in_drop with lf_lines: line and line start follow") {
		jenc_in_init_mem(&in, "ab\ncd\nef", 8, 100);
		in.lf_lines = 1;
		jenc_in_drop(&in, 1);
		CHECK_EQ(in.line, 1);
		CHECK_EQ(in.lstart, 0);
		jenc_in_drop(&in, 6);	/* "b\ncd\ne" */
		CHECK_EQ(in.line, 3);
		CHECK_EQ(in.lstart, 6);
		CHECK_EQ(in.off, 7);
		jenc_in_where(&in, 1, &w);	/* the 'f' */
		CHECK_EQ(w.offset, 8);
		CHECK_EQ(w.line, 3);
		CHECK_EQ(w.col, 3);
		CHECK_EQ(w.text_cut, 1);
		CHECK_STR(w.text, w.avail, "f");
		CHECK_EQ(w.at, 1);
	}
	TEST("jenc_in_drop past a mark counts the lines from the mark") {
		/* the mark says p[6] starts line 40 (a reader that counted
		 * up to there); the lines before it are not counted again */
		jenc_in_init_mem(&in, "ab\ncd\nef\ngh\nij", 14, 100);
		in.lf_lines = 1;
		jenc_in_mark(&in, 6, 40);
		jenc_in_drop(&in, 7);	/* "ab\ncd\ne": up to the mark and on */
		CHECK_EQ(in.line, 40);
		CHECK_EQ(in.lstart, 6);
		CHECK_EQ(in.mark, 0);
		jenc_in_drop(&in, 3);	/* "f\ng" */
		CHECK_EQ(in.line, 41);
		CHECK_EQ(in.lstart, 9);
		/* a mark the drop does not reach stays, moved down */
		jenc_in_mark(&in, 2, 42);	/* the 'i' */
		jenc_in_drop(&in, 1);	/* "h" */
		CHECK_EQ(in.line, 41);
		CHECK_EQ(in.mark, 1);
		jenc_in_drop(&in, 3);	/* "\nij" */
		CHECK_EQ(in.line, 42);
		CHECK_EQ(in.lstart, 12);
	}
	TEST("jenc_in_where: a spot after a line end in the window") {
		jenc_in_init_mem(&in, "ab\ncd\r\nef", 9, 100);
		in.lf_lines = 1;
		jenc_in_where(&in, 8, &w);
		CHECK_EQ(w.line, 3);
		CHECK_EQ(w.col, 2);
		CHECK_EQ(w.text_cut, 0);
		CHECK_STR(w.text, w.avail, "ef");
		jenc_in_where(&in, 1, &w);
		CHECK_EQ(w.line, 1);
		CHECK_EQ(w.col, 2);
		CHECK_EQ(w.text_cut, 0);
		CHECK_EQ(w.avail, 9);
	}
	TEST("jenc_in_where_line: the caller's line and line start") {
		jenc_in_init_mem(&in, "x\ry,z", 5, 100);
		jenc_in_where_line(&in, 4, 2, 2, 1, &w);
		CHECK_EQ(w.offset, 4);
		CHECK_EQ(w.line, 2);
		CHECK_EQ(w.col, 3);
		CHECK_STR(w.text, w.avail, "y,z");
		CHECK_EQ(w.at, 2);
		CHECK_EQ(w.cr_ends_line, 1);
	}
	TEST("jenc_in_keep: the line's start, or at most JENC_IN_CONTEXT back") {
		static char buf[1000];

		memset(buf, 'a', sizeof(buf));
		buf[100] = '\n';
		jenc_in_init_mem(&in, buf, sizeof(buf), sizeof(buf));
		CHECK_EQ(jenc_in_keep(&in, 50), 0);
		CHECK_EQ(jenc_in_keep(&in, 101), 101);
		CHECK_EQ(jenc_in_keep(&in, 300), 101);
		CHECK_EQ(jenc_in_keep(&in, 900), 900 - JENC_IN_CONTEXT);
	}
	TEST("jenc_in_bom: skipped, and line 1's columns start after it") {
		jenc_in_init_mem(&in, "\xef\xbb\xbf{,}", 6, 100);
		in.lf_lines = 1;
		CHECK_EQ(jenc_in_bom(&in, &bom), 0);
		CHECK_EQ(bom, 1);
		CHECK_STR(in.p, in.len, "{,}");
		CHECK_EQ(in.off, 3);
		jenc_in_where(&in, 1, &w);
		CHECK_EQ(w.offset, 4);
		CHECK_EQ(w.line, 1);
		CHECK_EQ(w.col, 2);
		CHECK_EQ(w.text_cut, 0);
		CHECK_STR(w.text, w.avail, "{,}");
		jenc_in_init_mem(&in, "\xef\xbb", 2, 100);
		CHECK_EQ(jenc_in_bom(&in, &bom), 0);
		CHECK_EQ(bom, 0);
		CHECK_EQ(in.len, 2);
		jenc_in_init_mem(&in, "\xef\xbbx", 3, 100);
		CHECK_EQ(jenc_in_bom(&in, &bom), 0);
		CHECK_EQ(bom, 0);
		CHECK_EQ(in.off, 0);
	}
	TEST("jenc_in_line: over a buffer, to the line end, past max") {
		static char line[3000];

		jenc_in_init_mem(&in, "ab\ncdefgh\nij", 12, 5);
		jenc_in_line(&in, 1, 0);
		CHECK_EQ(in.len, 5);	/* the LF is in */
		jenc_in_drop(&in, 3);
		CHECK_STR(in.p, in.len, "cd");
		jenc_in_line(&in, 1, 0);
		/* past max to the LF: a buffer shows all it can at once */
		CHECK_STR(in.p, in.len, "cdefgh\nij");
		CHECK_EQ(in.max, 5);
		memset(line, 'x', sizeof(line));
		jenc_in_init_mem(&in, line, sizeof(line), 5);
		jenc_in_line(&in, 1, 0);
		CHECK_EQ(in.len, 1 + JENC_IN_AFTER);	/* no LF: 1 KiB */
		CHECK_EQ(in.max, 5);
	}
}

static void
test_fd(void)
{
	jenc_in in;
	char got[256];
	size_t n;
	int pfd[2];
	pthread_t th;

	TEST("jenc_in_fill: a pipe read to its end, in pieces") {
		const char *pieces[] = { "ab", "cde", "", "f", NULL };
		struct writer w = { 0, pieces, 5 };

		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 4, 64), 0);
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		CHECK_EQ(read_all(&in, got, sizeof(got), &n), 0);
		CHECK_STR(got, n, "abcdef");
		CHECK_EQ(in.off, 6);
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
	}
	TEST("jenc_in_fill: a non-blocking pipe is waited for") {
		const char *pieces[] = { "12", "34", NULL };
		struct writer w = { 0, pieces, 100 };

		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(fcntl(pfd[0], F_SETFL, O_NONBLOCK), 0);
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 64, 64), 0);
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		CHECK_EQ(read_all(&in, got, sizeof(got), &n), 0);
		CHECK_STR(got, n, "1234");
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
	}
	TEST("jenc_in_fill: a read interrupted by a signal is retried") {
		const char *pieces[] = { "late", NULL };
		struct writer w = { 0, pieces, 300 };
		struct sigaction sa, old;
		struct itimerval it = { { 0, 0 }, { 0, 50000 } }, none = { 0 };

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;	/* no SA_RESTART: read fails */
		sigemptyset(&sa.sa_mask);
		CHECK_EQ(sigaction(SIGALRM, &sa, &old), 0);
		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 64, 64), 0);
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		CHECK_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
		CHECK_EQ(read_all(&in, got, sizeof(got), &n), 0);
		CHECK_STR(got, n, "late");
		setitimer(ITIMER_REAL, &none, NULL);
		sigaction(SIGALRM, &old, NULL);
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
	}
	TEST("jenc_in_fill: a read error is JENC_E_IO with errno") {
		CHECK_EQ(jenc_in_init_fd(&in, -1, 64, 64), 0);
		CHECK_EQ(jenc_in_fill(&in), JENC_E_IO);
		CHECK_EQ(in.sys_errno, EBADF);
		jenc_in_release(&in);
	}
	TEST("jenc_in_fill: the window grows while full, to max, then shrinks") {
		const char *pieces[] = { "0123456789abcdefghij", NULL };
		struct writer w = { 0, pieces, 0 };

		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 4, 12), 0);
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		while (in.len < 4)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.cap, 4);
		while (in.len < 8)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.cap, 8);
		while (in.len < 12)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.cap, 12);
		CHECK_EQ(jenc_in_fill(&in), JENC_ST_FULL);
		CHECK_STR(in.p, in.len, "0123456789ab");
		jenc_in_drop(&in, 11);
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.cap, 4);	/* back to its first size */
		CHECK_EQ(in.p[0], 'b');
		CHECK_EQ(in.off, 11);
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
	}
	TEST("jenc_in_fill: before_read is called before each read") {
		const char *pieces[] = { "x", NULL };
		struct writer w = { 0, pieces, 0 };
		jenc_enc *e = jenc_get_sink(count_sink, NULL, NULL);

		CHECK(e != NULL);
		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 64, 64), 0);
		in.before_read = jenc_flush_cb;
		in.ctx = e;
		CHECK_EQ(jenc_i64(e, 7), 0);
		flushes = 0;
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(flushes, 1);
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
		jenc_release(e);
	}
	TEST("jenc_in_bom and jenc_in_line over a pipe, in pieces") {
		const char *pieces[] = { "\xef", "\xbb", "\xbf" "a", "b\nc", NULL };
		struct writer w = { 0, pieces, 5 };

		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 64, 64), 0);
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		CHECK_EQ(jenc_in_bom(&in, &bom), 0);
		CHECK_EQ(bom, 1);
		CHECK_EQ(in.off, 3);
		CHECK_EQ(in.lstart, 3);
		jenc_in_line(&in, 0, 0);
		CHECK(in.len >= 3 && memcmp(in.p, "ab\n", 3) == 0);
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
	}
	TEST("jenc_in_line: at most JENC_IN_AFTER bytes past the spot") {
		static char big[4096];
		const char *pieces[] = { big, NULL };
		struct writer w = { 0, pieces, 0 };

		memset(big, 'a', sizeof(big) - 1);
		CHECK_EQ(pipe(pfd), 0);
		w.fd = pfd[1];
		CHECK_EQ(jenc_in_init_fd(&in, pfd[0], 16, 8192), 0);
		CHECK_EQ(pthread_create(&th, NULL, write_pieces, &w), 0);
		CHECK_EQ(jenc_in_fill(&in), 0);
		jenc_in_line(&in, 0, 1);
		CHECK(in.len >= JENC_IN_AFTER);
		CHECK(in.len < sizeof(big) - 1);
		CHECK_EQ(in.eof, 0);
		pthread_join(th, NULL);
		jenc_in_release(&in);
		close(pfd[0]);
	}
}

/* The readers on a closed standard input: a read error, EBADF. */
static void
test_closed_stdin(void)
{
	int saved = dup(STDIN_FILENO);
	jenc_err err;

	TEST("jenc_json_copy_fd and jenc_csv_copy_fd on a closed fd 0") {
		CHECK(saved >= 0);
		close(STDIN_FILENO);
		CHECK_EQ(jenc_json_copy_fd(STDIN_FILENO, NULL, NULL, &err),
		    JENC_E_IO);
		CHECK_EQ(err.sys_errno, EBADF);
		CHECK_EQ(err.line, 0);
		CHECK_EQ(err.excerpt[0], '\0');
		CHECK_EQ(jenc_csv_copy_fd(STDIN_FILENO, NULL, NULL, &err),
		    JENC_E_IO);
		CHECK_EQ(err.sys_errno, EBADF);
		CHECK_EQ(dup2(saved, STDIN_FILENO), STDIN_FILENO);
		close(saved);
	}
}

/* A temporary file holding p[0..n), open for reading and writing at
 * offset 0; unlinked already. */
static int
map_file(const char *p, size_t n)
{
	char path[] = "/tmp/jenc-test-map-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	unlink(path);
	if (write(fd, p, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* 1 if the page at p is mapped (mincore fails with ENOMEM where not). */
static int
page_mapped(const char *p)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char vec;
	uintptr_t a = (uintptr_t)p - (uintptr_t)p % (uintptr_t)pg;

	return mincore((void *)a, (size_t)pg, &vec) == 0;
}

static void
test_map(void)
{
	size_t n = 3 * JENC_IN_MAP_MIN + 12345, i, got;
	char *text = malloc(n), *out = malloc(2 * n);
	jenc_in in;
	int fd;

	for (i = 0; i < n; i++)
		text[i] = (char)('a' + i % 23);
	for (i = 99; i < n; i += 100)
		text[i] = '\n';
	TEST("a mapped file: every byte, lines counted, pages unmapped") {
		const char *first;

		CHECK((fd = map_file(text, n)) >= 0);
		CHECK_EQ(jenc_in_init_map(&in, fd, 4096, (size_t)1 << 30), 0);
		CHECK(in.map.p != NULL);
		in.lf_lines = 1;
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.len, 4096);		/* a read's worth at a time */
		first = in.p;
		CHECK(page_mapped(first));
		CHECK_EQ(read_all(&in, out, 2 * n, &got), 0);
		CHECK_EQ(got, n);
		CHECK(memcmp(out, text, n) == 0);
		CHECK_EQ(in.line, n / 100 + 1);
		CHECK(in.map.p == NULL);		/* read(2) after it: EOF */
		CHECK(!page_mapped(first));
		CHECK_EQ(lseek(fd, 0, SEEK_CUR), (off_t)n);
		jenc_in_release(&in);
		close(fd);
	}
	TEST("a mapped file from the fd's offset, and bytes added meanwhile") {
		size_t at = 5000 + 77;

		CHECK((fd = map_file(text, n)) >= 0);
		CHECK_EQ(lseek(fd, (off_t)at, SEEK_SET), (off_t)at);
		CHECK_EQ(jenc_in_init_map(&in, fd, 65536, (size_t)1 << 30), 0);
		CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK(memcmp(in.p, text + at, in.len) == 0);
		/* written after the mapping was made: read after it */
		CHECK_EQ(pwrite(fd, "0123456789", 10, (off_t)n), 10);
		memcpy(out, in.p, in.len);
		got = in.len;
		jenc_in_drop(&in, in.len);
		while (!in.eof && jenc_in_fill(&in) == 0) {
			memcpy(out + got, in.p, in.len);
			got += in.len;
			jenc_in_drop(&in, in.len);
		}
		CHECK_EQ(got, n - at + 10);
		CHECK(memcmp(out, text + at, n - at) == 0);
		CHECK_STR(out + n - at, 10, "0123456789");
		jenc_in_release(&in);
		close(fd);
	}
	TEST("a mapped file: a window kept whole goes on in a buffer") {
		CHECK((fd = map_file(text, n)) >= 0);
		CHECK_EQ(jenc_in_init_map(&in, fd, 65536, (size_t)1 << 30), 0);
		while (in.rest > 0)
			CHECK_EQ(jenc_in_fill(&in), 0);
		CHECK_EQ(in.len, n);
		CHECK_EQ(jenc_in_fill(&in), 0);	/* unmapped, EOF */
		CHECK(in.map.p == NULL);
		CHECK(in.eof);
		CHECK_EQ(in.len, n);
		CHECK(memcmp(in.p, text, n) == 0);
		jenc_in_release(&in);
		close(fd);
	}
	TEST("not mapped: a small file, a pipe") {
		int pfd[2];

		CHECK((fd = map_file(text, JENC_IN_MAP_MIN - 1)) >= 0);
		CHECK_EQ(jenc_in_init_map(&in, fd, 4096, 1 << 20), JENC_ST_FALLBACK);
		close(fd);
		CHECK(pipe(pfd) == 0);
		CHECK_EQ(jenc_in_init_map(&in, pfd[0], 4096, 1 << 20),
		    JENC_ST_FALLBACK);
		close(pfd[0]);
		close(pfd[1]);
	}
	TEST("a mapped file in UTF-16: converted from read(2)") {
		size_t m = JENC_IN_MAP_MIN, k;
		char *u = malloc(2 * m + 2);

		u[0] = '\xff';
		u[1] = '\xfe';
		for (k = 0; k < m; k++) {
			u[2 + 2 * k] = text[k];
			u[3 + 2 * k] = 0;
		}
		CHECK((fd = map_file(u, 2 * m + 2)) >= 0);
		CHECK_EQ(jenc_in_init_map(&in, fd, 65536, (size_t)1 << 30), 0);
		CHECK_EQ(jenc_in_begin(&in, NULL, 0, &bom), 0);
		CHECK_EQ(bom, 1);
		CHECK(in.map.p == NULL);
		CHECK_EQ(read_all(&in, out, 2 * n, &got), 0);
		CHECK_EQ(got, m);
		CHECK(memcmp(out, text, m) == 0);
		jenc_in_release(&in);
		close(fd);
		free(u);
	}
	free(text);
	free(out);
}

/* The reader over a mapped file, against the same bytes read(2) gives:
 * the output, and an error's position. */
static void
test_map_reader(void)
{
	size_t n = 0, cap = 4 * JENC_IN_MAP_MIN, i;
	char *doc = malloc(cap);
	int flags[] = { 0, JENC_READ_SKIP };

	for (i = 0; n < 2 * JENC_IN_MAP_MIN; i++)
		n += (size_t)sprintf(doc + n, "{\"id\": %zu, \"s\": \"x y\"}\n",
		    i);
	n += (size_t)sprintf(doc + n, "[1, 2 3]\n{\"end\": true}\n");
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		TEST(i == 0 ? "jenc_json_copy_fd with JENC_READ_MAP: stop" :
		    "jenc_json_copy_fd with JENC_READ_MAP: skip") {
			jenc_read_opts ro;
			jenc_err ea, eb;
			jenc_enc *e;
			char *a, *b;
			size_t an, bn;
			int fd, ra, rb;

			memset(&ro, 0, sizeof(ro));
			CHECK((fd = map_file(doc, n)) >= 0);
			ro.flags = (unsigned)flags[i] | JENC_READ_MAP;
			e = jenc_get_mem(NULL);
			ra = jenc_json_copy_fd(fd, e, &ro, &ea);
			a = jenc_take(e, &an);
			CHECK_EQ(jenc_release(e), 0);
			CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
			ro.flags = (unsigned)flags[i];
			e = jenc_get_mem(NULL);
			rb = jenc_json_copy_fd(fd, e, &ro, &eb);
			b = jenc_take(e, &bn);
			CHECK_EQ(jenc_release(e), 0);
			close(fd);
			CHECK_EQ(ra, rb);
			CHECK_EQ(ea.code, JENC_E_SYNTAX);
			CHECK_EQ(ea.line, eb.line);
			CHECK_EQ(ea.col, eb.col);
			CHECK_EQ(ea.offset, eb.offset);
			CHECK(strcmp(ea.msg, eb.msg) == 0);
			CHECK_EQ(an, bn);
			CHECK(an > JENC_IN_MAP_MIN && memcmp(a, b, an) == 0);
			jenc_free(a, an);
			jenc_free(b, bn);
		}
	}
	free(doc);
}

int
main(void)
{
	test_mem();
	test_fd();
	test_closed_stdin();
	test_map();
	test_map_reader();
	return harness_done();
}
