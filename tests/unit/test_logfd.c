/*
 * test_logfd.c - the log view over a file descriptor (jenc_logv_fd)
 * against the reader with the same view (jenc_json_copy_fd): the same
 * output bytes, result, error and reports to on_error, on pino-like
 * records, every kind of line the reader must take, errors at the first,
 * a middle and the last line, values of several lines, long lines, from
 * a file and from a pipe, in each error policy, and on random mutations
 * of valid lines (a fixed seed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

struct buf {
	char *p;
	size_t len, cap;
};

static void
buf_add(struct buf *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (b->p == NULL)
			abort();
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static int
sink(void *ctx, const char *p, size_t n)
{
	buf_add(ctx, p, n);
	return 0;
}

/* on_error: each report as a line of text */
static void
report(void *ctx, const jenc_err *err)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%d %d %llu %llu:%llu cut%d "
	    "lines%llu passed%d %s | %s | %zu\n", err->code, err->kind,
	    (unsigned long long)err->offset, (unsigned long long)err->line,
	    (unsigned long long)err->col, err->cut,
	    (unsigned long long)err->lines, err->passed, err->msg,
	    err->excerpt, err->caret);

	buf_add(ctx, line, (size_t)n);
}

/* What one way of reading gives. */
struct res {
	struct buf out, rep;
	int rc;
	jenc_err err;
};

static void
res_free(struct res *r)
{
	free(r->out.p);
	free(r->rep.p);
}

enum { FROM_FILE, FROM_PIPE };

/* An fd holding in[0..n): a file, or a pipe with all of it written (n
 * must then fit in the pipe's buffer). */
static int
input_fd(const char *in, size_t n, int from)
{
	if (from == FROM_PIPE && n <= 32768) {
		int fds[2];

		if (pipe(fds) != 0)
			abort();
		if (n > 0 && write(fds[1], in, n) != (ssize_t)n)
			abort();
		close(fds[1]);
		return fds[0];
	} else {
		FILE *f = tmpfile();
		int fd;

		if (f == NULL || (n > 0 && fwrite(in, 1, n, f) != n) ||
		    fflush(f) != 0)
			abort();
		fd = dup(fileno(f));
		fclose(f);
		lseek(fd, 0, SEEK_SET);
		return fd;
	}
}

/* in[0..n) read by the view lv, through jenc_logv_fd (fast) or the
 * reader, into *r; eflags for the encoder, rflags for the reader. */
static void
run(const jenc_logv *lv, const char *in, size_t n, unsigned eflags,
    unsigned rflags, unsigned max_depth, int from, int fast, struct res *r)
{
	jenc_opts o = { eflags, 0, 0 };
	jenc_read_opts ro;
	jenc_view v;
	jenc_enc *e;
	int fd = input_fd(in, n, from);

	memset(r, 0, sizeof(*r));
	memset(&ro, 0, sizeof(ro));
	ro.flags = rflags;
	ro.max_depth = max_depth;
	ro.on_error = report;
	ro.ctx = &r->rep;
	buf_add(&r->out, "", 0);
	buf_add(&r->rep, "", 0);
	e = jenc_get_sink(sink, &r->out, &o);
	jenc_logv_view(lv, &v);
	if (e == NULL || jenc_set_view(e, &v) != 0)
		abort();
	if (fast)
		r->rc = jenc_logv_fd(lv, fd, e, &ro, &r->err);
	else
		r->rc = jenc_json_copy_fd(fd, e, &ro, &r->err);
	(void)jenc_flush(e);
	(void)jenc_release(e);
	close(fd);
}

static int
same_err(const jenc_err *a, const jenc_err *b)
{
	return a->code == b->code && a->offset == b->offset &&
	    a->line == b->line && a->col == b->col && a->kind == b->kind &&
	    strcmp(a->msg, b->msg) == 0 && a->passed == b->passed &&
	    a->lines == b->lines && a->cut == b->cut &&
	    strcmp(a->excerpt, b->excerpt) == 0 && a->caret == b->caret;
}

static const unsigned policies[] = {
	JENC_READ_PASS | JENC_READ_BLANK,	/* jenc --log */
	JENC_READ_PASS,
	JENC_READ_SKIP,
	0,					/* stop */
};

/* Both ways on in[0..n), in each policy, from a file and a pipe: 1 if
 * every pair is the same (else the first difference on stderr). */
static int
both(const jenc_logv *lv, const char *in, size_t n, unsigned eflags,
    unsigned max_depth)
{
	size_t i;
	int from;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		for (from = FROM_FILE; from <= FROM_PIPE; from++) {
			struct res a, b;
			int ok;

			run(lv, in, n, eflags, policies[i], max_depth, from, 0,
			    &a);
			run(lv, in, n, eflags, policies[i], max_depth, from, 1,
			    &b);
			ok = a.rc == b.rc && a.out.len == b.out.len &&
			    memcmp(a.out.p, b.out.p, a.out.len) == 0 &&
			    strcmp(a.rep.p, b.rep.p) == 0 &&
			    (a.rc == 0 && a.err.code == 0 ?
			    b.err.code == 0 : same_err(&a.err, &b.err));
			if (!ok)
				fprintf(stderr, "input %.*s\npolicy %#x from "
				    "%d: rc %d %d\nreader:\n%s%s\n%s\nview:\n"
				    "%s%s\n%s\n", (int)(n < 400 ? n : 400), in,
				    policies[i], from, a.rc, b.rc, a.out.p,
				    a.rep.p, a.err.msg, b.out.p, b.rep.p,
				    b.err.msg);
			res_free(&a);
			res_free(&b);
			if (!ok)
				return 0;
		}
	return 1;
}

static int
both_s(const jenc_logv *lv, const char *s)
{
	return both(lv, s, strlen(s), 0, 0);
}

static const char *const pino[] = {
	"{\"level\":30,\"time\":1714564800020,\"pid\":4003,\"hostname\":"
	    "\"web-4\",\"msg\":\"connection closed\"}",
	"{\"level\":40,\"time\":1714564800029,\"pid\":4000,\"hostname\":"
	    "\"web-2\",\"reqId\":\"req-475849\",\"req\":{\"method\":\"PUT\","
	    "\"url\":\"/api/v1/foxtrot/6928\",\"remoteAddress\":"
	    "\"10.0.225.210\"},\"res\":{\"statusCode\":200},"
	    "\"responseTime\":250.9,\"msg\":\"queue drained\"}",
	"{\"level\":50,\"time\":1714564800087,\"msg\":\"boom\",\"err\":{"
	    "\"type\":\"Error\",\"message\":\"x\",\"stack\":\"Error: x\\n    "
	    "at f (a.js:1:2)\\n    at g (b.js:3:4)\"}}",
	"{\"level\":\"warn\",\"ts\":\"2024-05-01T12:00:00.5Z\",\"message\":"
	    "\"caf\xc3\xa9 \\u00e9 \\ud83d\\ude00 \\ud800 lone\",\"a\":[1,"
	    "{\"b\":null},true,false,-0.5e+3],\"e\":{}}",
};

/* Lines of every kind the reader takes instead (and some it rejects). */
static const char *const odd[] = {
	"", " ", "\t", "not json at all", "{\"a\":1} ", " {\"a\":1}",
	"{\"a\": 1}", "{\"a\":1}\r", "[1,2]", "\"str\"", "42", "null",
	"{\"a\":1", "{\"a\":1}}", "{\"a\":1}{\"b\":2}", "{\"a\":1},",
	"{\"a\":\"\x01\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\xff\"}",
	"{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":tru}",
	"{\"a\":\"\\u12\"}", "{\"a\":[}", "{\"a\":1,}", "{,}", "{\"a\"}",
	"\xef\xbb\xbf{\"a\":1}", "{\"a\":\"\\udc00\"}", "}", "]", "{",
	"{\"a\":{\"b\":{\"c\":[[[[1]]]]}}}", "{\"a\":1}\x1e", "\x1e{\"a\":1}",
};

static void
build(struct buf *b, const char *const *lines, size_t n, const char *sep)
{
	size_t i;

	b->len = 0;
	buf_add(b, "", 0);
	for (i = 0; i < n; i++) {
		buf_add(b, lines[i], strlen(lines[i]));
		if (i + 1 < n || sep[1] == 'e')
			buf_add(b, "\n", 1);
	}
}

/* xorshift, for the mutations */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int
main(void)
{
	jenc_logv_opts lo;
	jenc_logv *lv, *lvc;
	struct buf b = { 0 };
	size_t i, j;

	memset(&lo, 0, sizeof(lo));
	lo.flags = JENC_LOGV_UTC;
	if (jenc_logv_new(&lv, &lo) != 0)
		abort();
	lo.flags |= JENC_LOGV_COLOR;
	lo.min_level = 40;
	lo.hide = "pid,req";
	if (jenc_logv_new(&lvc, &lo) != 0)
		abort();

	TEST("jenc_logv_fd: pino records, with and without a last newline") {
		build(&b, pino, 4, "(end)");
		CHECK(both(lv, b.p, b.len, 0, 0));
		CHECK(both(lvc, b.p, b.len, 0, 0));
		build(&b, pino, 4, "(noend)");
		CHECK(both(lv, b.p, b.len, 0, 0));
	}
	TEST("jenc_logv_fd: the output is jenc_logv_format's") {
		struct res r;
		struct buf want = { 0 };

		build(&b, pino, 2, "(end)");
		run(lv, b.p, b.len, 0, policies[0], 0, FROM_FILE, 1, &r);
		buf_add(&want, "", 0);
		for (i = 0; i < 2; i++)
			CHECK_EQ(jenc_logv_format(lv, pino[i],
			    strlen(pino[i]), sink, &want), 1);
		CHECK_EQ(r.rc, 0);
		CHECK(r.out.len == want.len &&
		    memcmp(r.out.p, want.p, want.len) == 0);
		res_free(&r);
		free(want.p);
	}
	TEST("jenc_logv_fd: each kind of line, first, in the middle, last") {
		int bad = 0;

		for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
			const char *l[5] = { pino[0], pino[1], pino[2],
			    pino[3], pino[0] };
			size_t at;

			for (at = 0; at < 5; at += 2) {
				l[at] = odd[i];
				build(&b, l, 5, "(end)");
				bad += !both(lv, b.p, b.len, 0, 0);
				build(&b, l, 5, "(noend)");
				bad += !both(lv, b.p, b.len, 0, 0);
				l[at] = pino[at % 4];
			}
		}
		CHECK_EQ(bad, 0);
	}
	TEST("jenc_logv_fd: CRLF line ends") {
		CHECK(both_s(lv, "{\"a\":1}\r\n{\"b\":2}\r\n"));
		CHECK(both_s(lv, "{\"a\":1}\r\n{\"b\":2}\r"));
		CHECK(both_s(lv, "{\"a\":1}\r\r\n{\"b\":2} \r\n\r\n"));
		CHECK(both_s(lv, "\r\n{\"a\":1}\r\ntext\r\n{\"b\":\r\n2}\r\n"));
		CHECK(both_s(lv, "{\"a\":1}\r{\"b\":2}\r\n{\"c\":3}\r\n"));
		CHECK(both_s(lv, "{\"a\":1,}\r\n{\"b\":2}\r\n"));
	}
	TEST("jenc_logv_fd: values of several lines among records") {
		CHECK(both_s(lv, "{\"a\":1}\n[\n{\"b\":2}\n]\n{\"c\":3}\n"));
		CHECK(both_s(lv, "{\"a\":\n{\"b\":2}\n}\n{\"c\":3}\n"));
		CHECK(both_s(lv, "text\n{\n\"level\":30,\n\"msg\":\"hi\"\n}\n"
		    "{\"msg\":\"after\"}\n"));
		CHECK(both_s(lv, "{\"a\":1\n{\"b\":2}\n{\"c\":3}\n"));
		CHECK(both_s(lv, "[\n{\"b\":2}\n{\"c\":3}\n"));
		CHECK(both_s(lv, "{\"a\":1}\n{\"x\":[\n{\"b\":2}\n{\"c\":3}\n"
		    "{\"d\":4}\n{\"e\":5}\n1]}\n{\"f\":6}\n"));
		CHECK(both_s(lv, "{\"a\":\"x\n{\"b\":2}\n"));
	}
	TEST("jenc_logv_fd: deep nesting, max_depth") {
		struct buf d = { 0 };

		buf_add(&d, "{\"msg\":\"deep\",\"a\":", 19);
		for (i = 0; i < 300; i++)
			buf_add(&d, "[", 1);
		for (i = 0; i < 300; i++)
			buf_add(&d, "]", 1);
		buf_add(&d, "}\n{\"msg\":\"after\"}\n", 18);
		CHECK(both(lv, d.p, d.len, 0, 0));
		CHECK(both(lv, d.p, d.len, 0, 5));
		CHECK(both(lv, d.p, d.len, 0, 1));
		free(d.p);
	}
	TEST("jenc_logv_fd: -a, -S: the reader reads all") {
		build(&b, pino, 4, "(end)");
		CHECK(both(lv, b.p, b.len, JENC_ASCII, 0));
		CHECK(both(lv, b.p, b.len, JENC_SORT_KEYS, 0));
		CHECK(both(lv, b.p, b.len, JENC_FLUSH_EACH, 0));
	}
	TEST("jenc_logv_fd: long inputs, long lines, a long value") {
		struct buf d = { 0 };
		const char *l[3] = { pino[1], "bad line", pino[2] };

		buf_add(&d, "", 0);
		for (i = 0; i < 3000; i++) {
			const char *s = l[i % 3];

			buf_add(&d, s, strlen(s));
			buf_add(&d, "\n", 1);
		}
		CHECK(both(lv, d.p, d.len, 0, 0));
		/* a line longer than the buffer grows to */
		buf_add(&d, "{\"msg\":\"", 8);
		for (i = 0; i < 300000; i++)
			buf_add(&d, "abcdefg", 7);
		buf_add(&d, "\"}\n", 3);
		buf_add(&d, pino[0], strlen(pino[0]));
		buf_add(&d, "\n[\n", 3);
		for (i = 0; i < 3000; i++) {
			buf_add(&d, pino[0], strlen(pino[0]));
			buf_add(&d, "\n,", 2);
		}
		buf_add(&d, "1]\n", 3);
		buf_add(&d, pino[3], strlen(pino[3]));
		CHECK(both(lv, d.p, d.len, 0, 0));
		free(d.p);
	}
	TEST("jenc_logv_fd: UTF-16 and UTF-32, with a byte order mark or not") {
		CHECK(both(lv, "\xff\xfe{\0}\0\n\0", 8, 0, 0));
		CHECK(both(lv, "\0\0\xfe\xff", 4, 0, 0));
		CHECK(both(lv, "{\0}\0\n\0", 6, 0, 0));
		CHECK(both(lv, "X\0\0\0", 4, 0, 0));
		CHECK(both(lv, "{}\n\0{}\n", 7, 0, 0));
		CHECK(both(lv, "\0{", 2, 0, 0));
	}
	TEST("jenc_logv_fd: random mutations of valid lines") {
		static const char bytes[] = "{}[]\",:\\ \n\r\t0-1.eE+tfnu\x80"
		    "\xc3\xa9\x01\x1e";
		int bad = 0;

		for (i = 0; i < 3000 && bad < 3; i++) {
			struct buf d = { 0 };
			size_t k, m = 1 + next_rand() % 4;

			buf_add(&d, "", 0);
			for (k = 0; k < 4; k++) {
				const char *s = pino[next_rand() % 4];

				buf_add(&d, s, strlen(s));
				buf_add(&d, "\n", 1);
			}
			for (k = 0; k < m; k++) {
				size_t at = (size_t)(next_rand() % d.len);
				char c = bytes[next_rand() % (sizeof(bytes) - 1)];

				switch (next_rand() % 3) {
				case 0:
					d.p[at] = c;
					break;
				case 1:
					memmove(d.p + at, d.p + at + 1,
					    d.len - at - 1);
					d.len--;
					break;
				default:
					buf_add(&d, "", 1);
					memmove(d.p + at + 1, d.p + at,
					    d.len - at - 1);
					d.p[at] = c;
				}
			}
			if (d.len > 0 && next_rand() % 4 == 0)
				d.len--;	/* no last newline */
			j = next_rand() % 2;
			if (!both(j ? lvc : lv, d.p, d.len, 0,
			    next_rand() % 8 == 0 ? 2 : 0))
				bad++;
			free(d.p);
		}
		CHECK_EQ(bad, 0);
	}
	free(b.p);
	jenc_logv_free(lv);
	jenc_logv_free(lvc);
	return harness_done();
}
