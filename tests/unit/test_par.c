/*
 * test_par.c - jenc_json_copy_fd_par against jenc_json_copy_fd: the same
 * output bytes, return value, *err and on_error reports (each on the
 * calling thread), for a stream with good and bad lines, in each
 * --on-error policy, with 2 and 4 jobs and several chunk sizes, and for a
 * document (read on two threads: pipe.c), good, bad in places and nested
 * deep; both again from a mapped file (JENC_READ_MAP), the stream from an
 * offset and growing while it is read; then no block is left once the
 * pools are trimmed.
 *
 * The threads run on any machine: every call asks for them with
 * JENC_READ_THREADS, which starts them even on one usable CPU, and an
 * allocator that notes blocks taken on other threads than main's shows
 * that they ran.  With one CPU made the only usable one, the call reads
 * on its caller's thread alone without the flag.
 *
 * Also meant to be run built with -fsanitize=thread (make check-tsan).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

#define NLINES 3000
#define NREP 64

/*
 * The library's allocator here: libc's, counting the blocks allocated on
 * another thread than main's, as only the threads of
 * jenc_json_copy_fd_par do (each reader's tokens and window).
 */
static pthread_t main_thread;
static atomic_ulong other_allocs;

static void
note_thread(void)
{
	if (!pthread_equal(pthread_self(), main_thread))
		atomic_fetch_add(&other_allocs, 1);
}

static void *
a_malloc(void *ctx, size_t n)
{
	(void)ctx;
	note_thread();
	return malloc(n);
}

static void *
a_realloc(void *ctx, void *p, size_t old_n, size_t n)
{
	(void)ctx;
	(void)old_n;
	note_thread();
	return realloc(p, n);
}

static void
a_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	(void)n;
	free(p);
}

/* Added to the flags of every call with more than one job. */
static unsigned par_flags = JENC_READ_THREADS;

/* What on_error was told, in order. */
struct reports {
	pthread_t self;
	int other_thread;	/* calls not on the calling thread */
	size_t n;
	struct rep {
		uint64_t offset, line, col, lines;
		int code, passed;
		char msg[192];
	} r[NREP];
	size_t more;		/* past NREP */
	int grow_fd;		/* > 0: the first report appends grow to */
	const char *grow;	/* this file (mapped: read past the map) */
};

static void
on_error(void *ctx, const jenc_err *err)
{
	struct reports *rs = ctx;

	if (!pthread_equal(pthread_self(), rs->self))
		rs->other_thread++;
	if (rs->grow_fd > 0 && rs->n == 0 && rs->more == 0) {
		struct stat sb;	/* (not lseek: the reader's offset stays) */

		if (fstat(rs->grow_fd, &sb) != 0 || pwrite(rs->grow_fd,
		    rs->grow, strlen(rs->grow), sb.st_size) < 0)
			abort();
	}
	if (rs->n == NREP) {
		rs->more++;
		return;
	}
	struct rep *r = &rs->r[rs->n++];

	r->offset = err->offset;
	r->line = err->line;
	r->col = err->col;
	r->lines = err->lines;
	r->code = err->code;
	r->passed = err->passed;
	memcpy(r->msg, err->msg, sizeof(r->msg));
}

/* A file of our own, already unlinked: *fd, and a stream to write it. */
static FILE *
temp_file(int *fd)
{
	char path[] = "/tmp/test_par.XXXXXX";
	FILE *f;

	if ((*fd = mkstemp(path)) < 0)
		abort();
	unlink(path);
	if ((f = fdopen(dup(*fd), "w")) == NULL)
		abort();
	return f;
}

/* The stream: JSON lines, a bad line now and then, a pretty-printed
 * value, and a bad one across lines. */
static int
make_stream(int nlines)
{
	int fd;
	FILE *f = temp_file(&fd);

	for (int i = 0; i < nlines; i++) {
		fprintf(f, "{\"n\": %d, \"s\": \"line \\u00e9 %d\", \"a\": [%d, "
		    "true, null]}\n", i, i, i * 3);
		if (i % 97 == 5)
			fprintf(f, "not json %d\n", i);
		if (i % 211 == 7)
			fprintf(f, "{\n  \"p\": [\n    %d,\n    2\n  ]\n}\n", i);
		if (i % 307 == 9)
			fprintf(f, "{\"open\": [1,\n  oops\n]}\n");
		if (i % 401 == 11)
			fprintf(f, "{\"cut\": \n");
	}
	fclose(f);
	return fd;
}

/*
 * A document (read on two threads, pipe.c): an array of objects over
 * many lines, whose byte bad_at (if not 0) is changed to an 'x', in the
 * middle of a value or between two; nested deeper than jsmnx.h's JENC_JSMN_DEEP
 * once (deep), to end the second thread's tokens there.
 */
static int
make_doc(size_t bad_at, int deep)
{
	int fd;
	FILE *f = temp_file(&fd);

	fprintf(f, "[\n");
	for (int i = 0; i < 12000; i++) {
		fprintf(f, "%s{\"id\": %d, \"name\": \"item \\u00e9 %d\", "
		    "\"tags\": [\"a\", \"b\", {\"k\": null}], \"v\": %d.5}",
		    i ? ",\n  " : "  ", i, i, i * 7);
		if (deep && i == 6000) {
			for (int d = 0; d < 300; d++)
				fputc('[', f);
			for (int d = 0; d < 300; d++)
				fputc(']', f);
			fputc(',', f);
		}
	}
	fprintf(f, "\n]\n");
	fclose(f);
	if (bad_at > 0 && pwrite(fd, "x", 1, (off_t)bad_at) != 1)
		abort();
	return fd;
}

struct result {
	int rc;
	jenc_err err;
	char *out;
	size_t len;
	struct reports rs;
};

/* Read fd from offset at; the first report appends grow (if not NULL)
 * to the file.  *end (if not NULL) gets fd's offset after the call.
 * With sink, the encoder is a sink encoder (it cuts a value held past
 * hold_max, a memory encoder does not), and res->out is malloc's. */
static void
run_enc(int fd, off_t at, const char *grow, off_t *end, unsigned flags,
    unsigned jobs, size_t chunk, int sink, struct result *res)
{
	jenc_opts eo = { 0, JENC_HOLD, 0 };
	jenc_read_opts ro = { flags, 0, on_error, &res->rs, NULL };
	struct harness_buf k = { NULL, 0, 0 };
	jenc_enc *e = sink ? jenc_get_sink(harness_buf_put, &k, &eo) :
	    jenc_get_mem(&eo);

	memset(res, 0, sizeof(*res));
	res->rs.self = pthread_self();
	if (grow != NULL) {
		res->rs.grow_fd = fd;
		res->rs.grow = grow;
	}
	if (lseek(fd, at, SEEK_SET) != at || e == NULL)
		abort();
	if (jobs == 1)
		res->rc = jenc_json_copy_fd(fd, e, &ro, &res->err);
	else {
		ro.flags |= par_flags;
		res->rc = jenc_json_copy_fd_par(fd, e, &ro, &res->err, jobs,
		    chunk);
	}
	if (sink) {
		jenc_release(e);
		res->out = k.p != NULL ? k.p : malloc(1);
		res->len = k.len;
	} else {
		res->out = jenc_take(e, &res->len);
		jenc_release(e);
	}
	if (end != NULL)
		*end = lseek(fd, 0, SEEK_CUR);
}

static void
run_at(int fd, off_t at, const char *grow, off_t *end, unsigned flags,
    unsigned jobs, size_t chunk, struct result *res)
{
	run_enc(fd, at, grow, end, flags, jobs, chunk, 0, res);
}

static void
run(int fd, unsigned flags, unsigned jobs, size_t chunk, struct result *res)
{
	run_at(fd, 0, NULL, NULL, flags, jobs, chunk, res);
}

static void
same(const struct result *a, const struct result *b)
{
	CHECK_EQ(b->rc, a->rc);
	CHECK_EQ(b->len, a->len);
	CHECK(a->out != NULL && b->out != NULL && a->len == b->len &&
	    memcmp(a->out, b->out, a->len) == 0);
	CHECK_EQ(b->err.code, a->err.code);
	CHECK_EQ(b->err.offset, a->err.offset);
	CHECK_EQ(b->err.line, a->err.line);
	CHECK_EQ(b->err.col, a->err.col);
	CHECK(strcmp(b->err.msg, a->err.msg) == 0);
	CHECK(strcmp(b->err.excerpt, a->err.excerpt) == 0);
	CHECK_EQ(b->rs.n, a->rs.n);
	CHECK_EQ(b->rs.more, a->rs.more);
	CHECK_EQ(b->rs.other_thread, 0);
	for (size_t i = 0; i < a->rs.n && i < b->rs.n; i++) {
		const struct rep *x = &a->rs.r[i], *y = &b->rs.r[i];

		CHECK(x->offset == y->offset && x->line == y->line &&
		    x->col == y->col && x->lines == y->lines &&
		    x->code == y->code && x->passed == y->passed &&
		    strcmp(x->msg, y->msg) == 0);
	}
}

int
main(void)
{
	static const unsigned policy[] = { 0, JENC_READ_SKIP, JENC_READ_PASS };
	static const size_t chunks[] = { 1, 100, 4096, 0 };
	static const unsigned jobs[] = { 2, 4 };
	static const jenc_alloc alc = { a_malloc, a_realloc, a_free, NULL };
	int fd, ncpu = (int)jenc_cpus_usable();
	struct result want, got;
	jenc_pool_stats st;
	unsigned long before;

	main_thread = pthread_self();
	if (jenc_set_alloc(&alc) != 0)
		abort();
	printf("test_par: %d usable CPU%s, the threads started with "
	    "JENC_READ_THREADS\n", ncpu, ncpu == 1 ? "" : "s");
	fd = make_stream(NLINES);
	TEST("one usable CPU: one thread, or threads with JENC_READ_THREADS") {
		cpu_set_t all, one;
		jenc_read_stats ws0, ws1;
		size_t c = 0;

#ifdef JENC_POSIX_ONLY
		/* the fallback of lib/compat.h: sysconf(_SC_NPROCESSORS_ONLN) */
		SKIP("a JENC_POSIX_ONLY build counts the CPUs online, not "
		    "those this process may run on");
#endif
		if (sched_getaffinity(0, sizeof(all), &all) != 0)
			SKIP("sched_getaffinity failed");
		while (c < CPU_SETSIZE - 1 && !CPU_ISSET(c, &all))
			c++;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof(one), &one) != 0)
			SKIP("sched_setaffinity failed");
		CHECK_EQ(jenc_cpus_usable(), 1);
		run(fd, JENC_READ_SKIP, 1, 0, &want);
		par_flags = 0;
		before = atomic_load(&other_allocs);
		jenc_read_stats_get(&ws0);
		run(fd, JENC_READ_SKIP, 4, 4096, &got);
		jenc_read_stats_get(&ws1);
		CHECK_EQ(atomic_load(&other_allocs), before);
		CHECK_EQ(ws1.threads - ws0.threads, 0);
		same(&want, &got);
		jenc_free(got.out, got.len);
		par_flags = JENC_READ_THREADS;
		run(fd, JENC_READ_SKIP, 4, 4096, &got);
		jenc_read_stats_get(&ws0);
		CHECK(atomic_load(&other_allocs) > before);
		/* four workers (chunks of 4096 bytes hold lines enough to
		 * look like a stream), and the scout of a document if a chunk
		 * ends inside a value */
		CHECK(ws0.threads - ws1.threads >= 4);
		/* the threads' reads are counted as the one thread's are */
		CHECK(ws0.reads - ws1.reads >= 2);
		same(&want, &got);
		jenc_free(got.out, got.len);
		jenc_free(want.out, want.len);
		CHECK_EQ(sched_setaffinity(0, sizeof(all), &all), 0);
		CHECK_EQ(jenc_cpus_usable(), CPU_COUNT(&all));
	}
	for (size_t p = 0; p < sizeof(policy) / sizeof(policy[0]); p++) {
		TEST(policy[p] == 0 ? "stop: as jenc_json_copy_fd" :
		    policy[p] == JENC_READ_SKIP ? "skip: as jenc_json_copy_fd" :
		    "pass: as jenc_json_copy_fd") {
			run(fd, policy[p], 1, 0, &want);
			CHECK(want.len > 0);
			for (size_t j = 0; j < 2; j++)
				for (size_t c = 0; c < 4; c++) {
					run(fd, policy[p], jobs[j], chunks[c],
					    &got);
					same(&want, &got);
					jenc_free(got.out, got.len);
				}
			jenc_free(want.out, want.len);
		}
	}
	TEST("a document, good, bad or deep: as jenc_json_copy_fd") {
		static const size_t bad[] = { 0, 1, 4099, 131071, 300001,
			500000 };
		static const size_t dchunks[] = { 100, 4096, 70000, 0 };

		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			int dfd = make_doc(bad[b], b == 3);

			CHECK(lseek(dfd, 0, SEEK_END) > (off_t)(1 << 20));

			for (size_t p = 0; p < 3; p++) {
				run(dfd, policy[p], 1, 0, &want);
				if (policy[p] == 0 && bad[b] <= 1)
					CHECK((want.rc == 0) == (bad[b] == 0));
				for (size_t c = 0; c < 4; c++) {
					if (c != (b + p) % 4 && c != 3)
						continue;
					run(dfd, policy[p], 2, dchunks[c], &got);
					same(&want, &got);
					jenc_free(got.out, got.len);
					/* over 1 MiB: the scout reads the
					 * mapped file */
					run(dfd, policy[p] | JENC_READ_MAP, 2,
					    dchunks[c], &got);
					same(&want, &got);
					jenc_free(got.out, got.len);
				}
				jenc_free(want.out, want.len);
			}
			close(dfd);
		}
	}
	TEST("mapped (JENC_READ_MAP): as jenc_json_copy_fd, from an offset") {
		/* over 1 MiB: chunks are views of the mapping */
		int mfd = make_stream(24000);
		off_t size = lseek(mfd, 0, SEEK_END), e1, e2;
		off_t ats[] = { 0, 0 };
		char b[256];

		/* the second: a line start past a page (the mapping starts
		 * at the page before it) */
		CHECK(size > (off_t)(1 << 20) + 4096);
		if (pread(mfd, b, sizeof(b), 12299) != (ssize_t)sizeof(b) ||
		    memchr(b, '\n', sizeof(b)) == NULL)
			abort();
		ats[1] = 12299 + (char *)memchr(b, '\n', sizeof(b)) - b + 1;
		for (size_t a = 0; a < 2; a++)
			for (size_t p = 0; p < 3; p++) {
				off_t at = ats[a];

				/* stop: fd's offset is past what was read,
				 * which differs */
				run_at(mfd, at, NULL, &e1, policy[p], 1, 0, &want);
				CHECK(want.len > 0);
				CHECK(p == 0 || e1 == size);
				for (size_t c = 1; c < 4; c++) {
					run_at(mfd, at, NULL, &e2,
					    policy[p] | JENC_READ_MAP, 2,
					    chunks[c], &got);
					same(&want, &got);
					CHECK(p == 0 || e2 == size);
					jenc_free(got.out, got.len);
				}
				jenc_free(want.out, want.len);
			}
		/* what the file grows by during the read is read too (the
		 * first bad line's report appends it), as without the map */
		for (size_t p = 1; p < 3; p++) {
			static const char more[] = "{\"appended\": true}\n";

			run_at(mfd, 0, more, &e1, policy[p], 1, 0, &want);
			CHECK_EQ(e1, size + (off_t)strlen(more));
			CHECK(want.len > 19 && memcmp(want.out + want.len - 19,
			    "\n{\"appended\":true}\n", 19) == 0);
			for (size_t c = 1; c < 4; c++) {
				if (ftruncate(mfd, size) != 0)
					abort();
				run_at(mfd, 0, more, &e2,
				    policy[p] | JENC_READ_MAP, 2, chunks[c], &got);
				same(&want, &got);
				CHECK_EQ(e2, size + (off_t)strlen(more));
				jenc_free(got.out, got.len);
			}
			jenc_free(want.out, want.len);
			if (ftruncate(mfd, size) != 0)
				abort();
		}
		close(mfd);
	}
	TEST("long lines, one past hold_max and bad: as jenc_json_copy_fd") {
		/*
		 * A chunk of a line over hold_max / 2 goes to a sink encoder
		 * unless the caller's is a memory encoder, the others to a
		 * memory encoder.  The 1.5 MB value, then found bad, is cut
		 * past hold_max (1 MiB) by a sink encoder, and not by a
		 * memory encoder.
		 */
		int lfd;
		FILE *f = temp_file(&lfd);

		for (int i = 0; i < 3000; i++) {
			fprintf(f, "{\"n\": %d, \"t\": [1, 2]}\n", i);
			if (i == 1000 || i == 2000) {
				fprintf(f, "{\"big\": [");
				for (int k = 0; k < (i == 1000 ? 70000 : 150000);
				    k++)
					fprintf(f, "%s\"abcdefgh\"", k ? ", " : "");
				fprintf(f, i == 1000 ? "]}\n" : "], oops}\n");
			}
		}
		fclose(f);
		for (int sink = 0; sink < 2; sink++)
			for (size_t p = 0; p < 3; p++) {
				run_enc(lfd, 0, NULL, NULL, policy[p], 1, 0, sink,
				    &want);
				CHECK(want.len > (sink ? 2400000u : 800000u));
				CHECK((strstr(want.err.msg, "was cut") != NULL) ==
				    sink);
				for (size_t m = 0; m < 2; m++) {
					run_enc(lfd, 0, NULL, NULL, policy[p] |
					    (m ? JENC_READ_MAP : 0), 2, 0, sink,
					    &got);
					same(&want, &got);
					if (sink)
						free(got.out);
					else
						jenc_free(got.out, got.len);
				}
				if (sink)
					free(want.out);
				else
					jenc_free(want.out, want.len);
			}
		close(lfd);
	}
	TEST("validating only (e NULL)") {
		jenc_read_opts ro = { JENC_READ_SKIP, 0, on_error, NULL, NULL };
		struct reports a, b;
		jenc_err ea, eb;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.self = b.self = pthread_self();
		ro.ctx = &a;
		lseek(fd, 0, SEEK_SET);
		CHECK_EQ(jenc_json_copy_fd(fd, NULL, &ro, &ea), 0);
		ro.ctx = &b;
		lseek(fd, 0, SEEK_SET);
		ro.flags |= JENC_READ_THREADS;
		CHECK_EQ(jenc_json_copy_fd_par(fd, NULL, &ro, &eb, 2, 512), 0);
		CHECK_EQ(b.n, a.n);
		CHECK_EQ(b.more, a.more);
		CHECK_EQ(eb.line, ea.line);
		CHECK_EQ(b.other_thread, 0);
	}
	TEST("the threads ran") {
		CHECK(atomic_load(&other_allocs) > 0);
	}
	TEST("no block left after jenc_pool_trim") {
		jenc_pool_trim();
		jenc_pool_stats_get(&st);
		CHECK_EQ(st.mallocs, st.frees);
	}
	close(fd);
	return harness_done();
}
