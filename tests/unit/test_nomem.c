/*
 * test_nomem.c - every allocation of a whole run may fail.
 *
 * An allocator installed with jenc_set_alloc fails its Nth call (malloc or
 * realloc), for every N from 1 to the number of calls a successful run
 * makes, over whole runs of the JSON reader (from memory, a file and a
 * pipe, on the corpus and on made inputs with long tokens and deep
 * nesting), the CSV reader (a made CSV with quoting, long fields and many
 * columns, in several modes), both again on converted input (UTF-16LE,
 * latin1, cp1252) and the encoder API.  Each run must end with
 * JENC_E_NOMEM reported (the return code, err->code, the encoder's sticky
 * error) or, when the library could do without the block, with the full
 * output; the output before the failure is a prefix of the full output
 * and, where values are held whole, complete values; after jenc_pool_trim
 * the library holds no block.  The pools are trimmed before each run so
 * that every run takes the cold path through every allocation site.
 *
 * The allocator also checks the sizes the library passes back (free and
 * realloc get the size the block was allocated with) and that it never
 * asks for 0 bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

/* The corpus: $JENC_CORPUS, or ../shared/corpus from the checkout (make
 * runs the unit tests there). */
static const char *
corpus(void)
{
	const char *d = getenv("JENC_CORPUS");

	return d != NULL && *d != '\0' ? d : "../shared/corpus";
}

/* ---- the failing allocator ------------------------------------------- */

struct fa {
	uint64_t calls;		/* malloc and realloc calls since the reset */
	uint64_t fail_at;	/* the call that fails, 0: none */
	uint64_t failed;	/* calls that failed */
	long long live;		/* blocks not freed */
	uint64_t bad_size;	/* free or realloc told a wrong size */
	uint64_t zero;		/* requests of 0 bytes */
};

static struct fa fa;

#define HDR 16	/* the block's size, kept in front of it */

static void *
fa_malloc(void *ctx, size_t n)
{
	struct fa *f = ctx;
	unsigned char *p;

	if (n == 0)
		f->zero++;
	if (++f->calls == f->fail_at) {
		f->failed++;
		return NULL;
	}
	if ((p = malloc(HDR + n)) == NULL)
		return NULL;
	memcpy(p, &n, sizeof(n));
	f->live++;
	return p + HDR;
}

static void *
fa_realloc(void *ctx, void *q, size_t old_n, size_t n)
{
	struct fa *f = ctx;
	unsigned char *p = (unsigned char *)q - HDR;
	size_t had;

	memcpy(&had, p, sizeof(had));
	if (had != old_n)
		f->bad_size++;
	if (n == 0)
		f->zero++;
	if (++f->calls == f->fail_at) {
		f->failed++;
		return NULL;
	}
	if ((p = realloc(p, HDR + n)) == NULL)
		return NULL;
	memcpy(p, &n, sizeof(n));
	return p + HDR;
}

static void
fa_free(void *ctx, void *q, size_t n)
{
	struct fa *f = ctx;
	unsigned char *p = (unsigned char *)q - HDR;
	size_t had;

	memcpy(&had, p, sizeof(had));
	if (had != n)
		f->bad_size++;
	f->live--;
	free(p);
}

static const jenc_alloc fa_alloc = { fa_malloc, fa_realloc, fa_free, &fa };
/* The same without realloc: the library does malloc, copy, free. */
static const jenc_alloc fa_alloc_norealloc = { fa_malloc, NULL, fa_free, &fa };

/* ---- buffers and files ------------------------------------------------ */

struct buf {
	char *p;
	size_t len, cap;
};

static void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (b->len + n + 1 > cap)
			cap *= 2;
		if ((b->p = realloc(b->p, cap)) == NULL) {
			perror("test_nomem");
			exit(2);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
buf_printf(struct buf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	buf_add(b, tmp, (size_t)n);
}

static int
read_file(const char *path, struct buf *b)
{
	char tmp[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	b->len = 0;
	buf_add(b, "", 0);
	while ((n = read(fd, tmp, sizeof(tmp))) > 0)
		buf_add(b, tmp, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

static int
write_file(const char *path, const struct buf *b)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < b->len) {
		ssize_t n = write(fd, b->p + off, b->len - off);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	return close(fd);
}

/* The output file every fd encoder writes to, emptied before each run. */
static char out_path[] = "/tmp/jenc-nomem-out.XXXXXX";
static int out_fd = -1;

static int
out_open(void)
{
	if (ftruncate(out_fd, 0) != 0 || lseek(out_fd, 0, SEEK_SET) != 0)
		return -1;
	return out_fd;
}

static void
out_read(struct buf *b)
{
	if (read_file(out_path, b) != 0) {
		perror(out_path);
		exit(2);
	}
}

/* A child writing b to a pipe; returns the read end, *pid the child. */
static int
pipe_from(const struct buf *b, pid_t *pid)
{
	int p[2];

	if (pipe(p) != 0) {
		perror("pipe");
		exit(2);
	}
	if ((*pid = fork()) == 0) {
		size_t off = 0;

		close(p[0]);
		/* small pieces: the reader sees short reads */
		while (off < b->len) {
			size_t k = b->len - off < 3000 ? b->len - off : 3000;
			ssize_t n = write(p[1], b->p + off, k);

			if (n <= 0)
				_exit(0);
			off += (size_t)n;
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void
pipe_done(int fd, pid_t pid)
{
	close(fd);
	(void)waitpid(pid, NULL, 0);
}

/* ---- what one run does ------------------------------------------------ */

/* A run's result: the return code, err->code, the encoder's error. */
struct res {
	int rc, err_code, enc_err;
	struct buf out;
};

typedef void (*run_fn)(const void *arg, struct res *r);

/* Held output of a memory encoder, without allocating. */
static void
mem_out(const jenc_enc *e, struct buf *b)
{
	const char *p;
	size_t it = 0, len;

	while ((p = jenc_segments(e, &it, &len)) != NULL)
		buf_add(b, p, len);
}

/* An encoder to the output file or to memory; NULL (and r says
 * JENC_E_NOMEM) if it cannot be had. */
static jenc_enc *
enc_open(int to_fd, const jenc_opts *o, struct res *r)
{
	jenc_enc *e = to_fd ? jenc_get_fd(out_open(), o) : jenc_get_mem(o);

	if (e == NULL)
		r->rc = r->err_code = r->enc_err = JENC_E_NOMEM;
	return e;
}

/* The encoder's error (or jenc_release's) and its output into r. */
static void
enc_close(jenc_enc *e, int to_fd, struct res *r)
{
	int rel;

	r->enc_err = jenc_error(e);
	if (!to_fd)
		mem_out(e, &r->out);
	rel = jenc_release(e);
	if (r->enc_err == 0)
		r->enc_err = rel;
	if (to_fd)
		out_read(&r->out);
}

enum { IN_MEM, IN_FILE, IN_PIPE };

struct json_case {
	const char *name;
	const struct buf *in;
	const char *path;	/* of the same bytes, for IN_FILE */
	int from;		/* IN_* */
	int to_fd;		/* fd encoder (else memory) */
	int no_enc;		/* validate only */
	jenc_opts o;
	jenc_read_opts ro;
	int how;		/* WHOLE: complete values (JENC_HOLD under
				   hold_max, or a memory encoder) */
};

static void
run_json(const void *arg, struct res *r)
{
	const struct json_case *c = arg;
	jenc_enc *e = NULL;
	jenc_err err;
	pid_t pid = 0;
	int fd = -1;

	if (!c->no_enc && (e = enc_open(c->to_fd, &c->o, r)) == NULL)
		return;
	if (c->from == IN_MEM) {
		r->rc = jenc_json_copy_mem(c->in->p, c->in->len, e, &c->ro,
		    &err);
	} else {
		fd = c->from == IN_FILE ? open(c->path, O_RDONLY) :
		    pipe_from(c->in, &pid);
		r->rc = jenc_json_copy_fd(fd, e, &c->ro, &err);
	}
	r->err_code = err.code;
	if (e != NULL)
		enc_close(e, c->to_fd, r);
	if (c->from == IN_FILE)
		close(fd);
	else if (c->from == IN_PIPE)
		pipe_done(fd, pid);
}

struct csv_case {
	const char *name;
	const struct buf *in;
	int from;
	int to_fd;
	jenc_opts o;
	jenc_csv_opts co;
	int how;		/* WHOLE, CLOSES or 0 */
};

static void
run_csv(const void *arg, struct res *r)
{
	const struct csv_case *c = arg;
	jenc_enc *e;
	jenc_err err;
	pid_t pid = 0;
	int fd = -1;

	if ((e = enc_open(c->to_fd, &c->o, r)) == NULL)
		return;
	if (c->from == IN_MEM) {
		r->rc = jenc_csv_copy_mem(c->in->p, c->in->len, e, &c->co, &err);
	} else {
		fd = pipe_from(c->in, &pid);
		r->rc = jenc_csv_copy_fd(fd, e, &c->co, &err);
	}
	r->err_code = err.code;
	enc_close(e, c->to_fd, r);
	if (fd >= 0)
		pipe_done(fd, pid);
}

/*
 * The encoder API: records of every kind of value, a deep nesting (the
 * encoder's stack grows), a string longer than a segment, one top-level
 * value per record.  Stops at the first error, as a program would.
 */
struct api_case {
	const char *name;
	int to_fd, take;
	jenc_opts o;
	int how;		/* WHOLE, CLOSES or 0 */
};

static char big_str[100000];

static int
api_record(jenc_enc *e, int i)
{
	static const char text[] = "caf\xc3\xa9 <b>&\"quoted\"\\ \xe2\x80\xa8 "
	    "\xf0\x9f\x98\x80 tab\tnl\n";
	int rc = 0, k;

	if ((rc = jenc_obj_begin(e)) != 0 ||
	    (rc = jenc_kv_i64(e, "id", 2, i)) != 0 ||
	    (rc = jenc_kv_u64(e, "big", 3, UINT64_MAX - (uint64_t)i)) != 0 ||
	    (rc = jenc_kv_f64(e, "x", 1, i * 0.25 + 1e-7)) != 0 ||
	    (rc = jenc_kv_bool(e, "odd", 3, i & 1)) != 0 ||
	    (rc = jenc_kv_null(e, "none", 4)) != 0 ||
	    (rc = jenc_kv_str(e, "text", 4, text, sizeof(text) - 1)) != 0 ||
	    (rc = jenc_kv_time_utc(e, "at", 2, 1700000000 + i)) != 0 ||
	    (rc = jenc_kv_time_unix(e, "t", 1, 1700000000 + i)) != 0 ||
	    (rc = jenc_key(e, "raw", 3)) != 0 ||
	    (rc = jenc_raw(e, "-12.5e3", 7)) != 0 ||
	    (rc = jenc_raw_key(e, "r\\u00e9k", 8)) != 0 ||
	    (rc = jenc_raw_str(e, "a\\nb <\\u2028>", 13)) != 0 ||
	    (rc = jenc_key(e, "list", 4)) != 0 ||
	    (rc = jenc_arr_begin(e)) != 0)
		return rc;
	for (k = 0; k < 20; k++)
		if ((rc = jenc_i64(e, k * i)) != 0)
			return rc;
	if ((rc = jenc_arr_end(e)) != 0)
		return rc;
	if (i % 50 == 7) {
		if ((rc = jenc_key(e, "deep", 4)) != 0)
			return rc;
		for (k = 0; k < 700; k++)
			if ((rc = jenc_arr_begin(e)) != 0)
				return rc;
		for (k = 0; k < 700; k++)
			if ((rc = jenc_arr_end(e)) != 0)
				return rc;
	}
	if (i % 100 == 42 &&
	    (rc = jenc_kv_str(e, "long", 4, big_str, sizeof(big_str))) != 0)
		return rc;
	return jenc_obj_end(e);
}

static void
run_api(const void *arg, struct res *r)
{
	const struct api_case *c = arg;
	jenc_enc *e;
	int i, rc = 0;

	if ((e = enc_open(c->to_fd, &c->o, r)) == NULL)
		return;
	for (i = 0; i < 400 && rc == 0; i++)
		rc = api_record(e, i);
	if (rc != 0) {
		/* sticky: every later call says the same */
		if (jenc_null(e) != rc || jenc_obj_end(e) != rc ||
		    jenc_flush(e) != rc)
			rc = 99;
		if (!c->to_fd)
			(void)jenc_discard(e);	/* keep the whole values */
	}
	r->rc = r->err_code = rc;
	if (!c->to_fd && c->take) {
		size_t len;
		char *p = jenc_take(e, &len);

		if (p == NULL) {
			r->rc = r->err_code = jenc_error(e);
		} else {
			buf_add(&r->out, p, len);
			jenc_free(p, len);
		}
	}
	enc_close(e, c->to_fd, r);
	if (r->enc_err == 0)
		r->enc_err = rc;
}

/* ---- the driver ------------------------------------------------------- */

static int
held_nothing(void)
{
	jenc_pool_stats st;

	jenc_pool_trim();
	jenc_pool_stats_get(&st);
	return st.mallocs == st.frees && fa.live == 0;
}

/* Does out hold complete JSON values only?  (Checked with no failure.) */
static int
complete_values(const struct buf *out)
{
	jenc_err err;

	return jenc_json_copy_mem(out->p, out->len, NULL, NULL, &err) == 0;
}

static int
is_prefix(const char *p, size_t n, const struct buf *full)
{
	return n == 0 || (n <= full->len && memcmp(p, full->p, n) == 0);
}

/* An array closed early: complete, and without its closing bracket (and
 * the line end before it) a prefix of the full output. */
static int
closed_prefix(const struct buf *out, const struct buf *full)
{
	size_t n = out->len;

	if (!complete_values(out) || n < 3 || memcmp(out->p + n - 2, "]\n", 2))
		return 0;
	n -= 2;
	if (out->p[n - 1] == '\n')
		n--;
	return is_prefix(out->p, n, full);
}

enum {
	WHOLE = 1,	/* the output of a failed run is complete values */
	CLOSES = 2,	/* or an array the reader closed (CSV) */
	VARIES = 4,	/* input through a pipe: reads come in sizes that
			   vary from run to run, and so may the number of
			   allocations */
};

static int total_runs;

/*
 * Run fn once with no failure (the full output), then once for every N
 * with the Nth allocation failing.  how: WHOLE, CLOSES or 0 (a prefix of
 * the full output), and VARIES: a run that makes fewer allocations than
 * the first, so that the Nth is never asked for, must then be complete.
 */
static void
fail_each(const char *name, run_fn fn, const void *arg, int how)
{
	struct res full = { 0 }, r = { 0 };
	uint64_t calls, n, nomem = 0, absorbed = 0, missed = 0;
	char title[160];

	snprintf(title, sizeof(title), "%s: each allocation fails in turn", name);
	TEST(title) {
		CHECK(held_nothing());
		fa.calls = fa.failed = fa.fail_at = 0;
		buf_add(&full.out, "", 0);	/* never NULL, even if empty */
		fn(arg, &full);
		calls = fa.calls;
		CHECK_EQ(full.rc, 0);
		CHECK_EQ(full.enc_err, 0);
		CHECK(held_nothing());
		CHECK(calls > 0);
		for (n = 1; n <= calls; n++) {
			int ok = 1;

			r.out.len = 0;
			buf_add(&r.out, "", 0);
			fa.calls = fa.failed = 0;
			fa.fail_at = n;
			fn(arg, &r);
			fa.fail_at = 0;
			total_runs++;
			if (fa.failed != 1) {
				/* not reached: only where runs may vary */
				missed++;
				ok = (how & VARIES) && r.rc == 0 &&
				    r.enc_err == 0 && r.out.len == full.out.len &&
				    memcmp(r.out.p, full.out.p, r.out.len) == 0;
			} else if (r.rc == 0) {
				/* done without the block: all of it */
				absorbed++;
				ok = r.enc_err == 0 && r.out.len == full.out.len &&
				    memcmp(r.out.p, full.out.p, r.out.len) == 0;
			} else {
				nomem++;
				ok = r.rc == JENC_E_NOMEM &&
				    r.err_code == JENC_E_NOMEM &&
				    (r.enc_err == 0 || r.enc_err == JENC_E_NOMEM) &&
				    (((how & CLOSES) &&
				    closed_prefix(&r.out, &full.out)) ||
				    (is_prefix(r.out.p, r.out.len, &full.out) &&
				    (!(how & WHOLE) || complete_values(&r.out))));
			}
			if (!held_nothing())
				ok = 0;
			if (!ok) {
				fprintf(stderr, "%s: allocation %llu of %llu "
				    "failed: rc %d, err.code %d, encoder %d, "
				    "%zu of %zu bytes out, %lld blocks "
				    "left\n", name, (unsigned long long)n,
				    (unsigned long long)calls, r.rc,
				    r.err_code, r.enc_err, r.out.len,
				    full.out.len, fa.live);
			}
			CHECK(ok);
		}
		CHECK_EQ(fa.bad_size, 0);
		CHECK_EQ(fa.zero, 0);
		CHECK(nomem > 0);
		printf("%-44s %4llu allocations: %llu JENC_E_NOMEM, "
		    "%llu done without", name, (unsigned long long)calls,
		    (unsigned long long)nomem, (unsigned long long)absorbed);
		if (missed > 0)
			printf(", %llu not reached", (unsigned long long)missed);
		printf("\n");
	}
	free(full.out.p);
	free(r.out.p);
}

/* ---- inputs ---------------------------------------------------------- */

/* NDJSON: long strings and numbers (longer than the window), deep
 * nesting, escapes, many small values. */
static void
make_json(struct buf *b)
{
	int i, k;

	for (i = 0; i < 3000; i++)
		buf_printf(b, "{\"id\":%d,\"name\":\"n\\u00e9 %d <&>\",\"v\":"
		    "[%d.5,true,null,\"\\ud83d\\ude00\"]}\n", i, i, i);
	buf_add(b, "\"", 1);
	for (i = 0; i < 300000; i++)
		buf_add(b, i % 1000 == 999 ? "\\n" : "x", i % 1000 == 999 ? 2 : 1);
	buf_add(b, "\"\n", 2);
	buf_add(b, "1", 1);
	for (i = 0; i < 270000; i++)
		buf_add(b, "0", 1);
	buf_add(b, "\n", 1);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 3000; i++)
			buf_add(b, i % 2 ? "{\"k\":" : "[", i % 2 ? 5 : 1);
		buf_add(b, "0", 1);
		for (i = 2999; i >= 0; i--)
			buf_add(b, i % 2 ? "}" : "]", 1);
		buf_add(b, "\n", 1);
	}
}

/* A CSV shaped like an export: a header of many columns (some names
 * repeated or empty), numbers, booleans, empty fields, quoted fields with
 * commas, quotes and line ends, UTF-8, and one field longer than the
 * window. */
#define CSV_COLS 40
static void
make_csv(struct buf *b, int tsv)
{
	char sep = tsv ? '\t' : ',';
	int i, k;

	for (k = 0; k < CSV_COLS; k++)
		buf_printf(b, "%s%s", k ? (tsv ? "\t" : ",") : "",
		    k == 5 ? "" : k == 7 ? "name" : k < 10 ? "name" : "");
	buf_add(b, "\n", 1);
	for (i = 0; i < 1500; i++) {
		for (k = 0; k < CSV_COLS; k++) {
			if (k)
				buf_add(b, &sep, 1);
			switch (k % 8) {
			case 0: buf_printf(b, "%d", i * 7 - 100); break;
			case 1: buf_printf(b, "%d.%02d", i, k); break;
			case 2: buf_add(b, i & 1 ? "true" : "false", i & 1 ? 4 : 5); break;
			case 3: break;
			case 4:
				if (tsv)
					buf_printf(b, "tab\\there \\\\ %d", i);
				else
					buf_printf(b, "\"a, \"\"quoted\"\"\n%d\"", i);
				break;
			case 5: buf_add(b, "caf\xc3\xa9 \xe2\x82\xac", 9); break;
			case 6: buf_printf(b, "x%dy", i * k); break;
			default: buf_add(b, "-0.5e3", 6); break;
			}
		}
		buf_add(b, i % 3 ? "\n" : "\r\n", i % 3 ? 1 : 2);
		if (i == 700) {
			/* one record longer than the window */
			if (!tsv)
				buf_add(b, "\"", 1);
			for (k = 0; k < 300000; k++)
				buf_add(b, k % 500 == 0 && !tsv ? "\"\"" : "z",
				    k % 500 == 0 && !tsv ? 2 : 1);
			if (!tsv)
				buf_add(b, "\"", 1);
			for (k = 1; k < CSV_COLS; k++)
				buf_add(b, &sep, 1);
			buf_add(b, "\n", 1);
		}
	}
}

/* to[0..) = mark, then from[0..n) converted from UTF-8 to enc with
 * iconv(3).  Returns 0, or -1 if iconv cannot. */
static int
make_converted(struct buf *to, const char *mark, size_t mlen,
    const struct buf *from, const char *enc)
{
	iconv_t cd = iconv_open(enc, "UTF-8");
	char *src = from->p, *dst;
	size_t left = from->len, room = 4 * from->len + 16, r;
	char *tmp;

	if (cd == (iconv_t)-1 || (tmp = malloc(room)) == NULL)
		return -1;
	dst = tmp;
	r = iconv(cd, &src, &left, &dst, &room);
	iconv_close(cd);
	if (r == (size_t)-1) {
		free(tmp);
		return -1;
	}
	buf_add(to, mark, mlen);
	buf_add(to, tmp, (size_t)(dst - tmp));
	free(tmp);
	return 0;
}

/* ---- the cases ------------------------------------------------------- */

static void
set_alloc_rules(void)
{
	jenc_alloc half = { fa_malloc, NULL, NULL, &fa };
	jenc_enc *e;

	TEST("jenc_set_alloc: refused while a block is held, taken once all "
	    "are back") {
		e = jenc_get_mem(NULL);
		CHECK(e != NULL);
		CHECK_EQ(jenc_set_alloc(&fa_alloc_norealloc), JENC_E_STATE);
		CHECK_EQ(jenc_set_alloc(NULL), JENC_E_STATE);
		CHECK_EQ(jenc_release(e), 0);
		/* released, but the pools keep it */
		CHECK_EQ(jenc_set_alloc(&fa_alloc_norealloc), JENC_E_STATE);
		jenc_pool_trim();
		CHECK_EQ(jenc_set_alloc(&half), JENC_E_STATE);
		CHECK_EQ(jenc_set_alloc(&fa_alloc_norealloc), 0);
		CHECK(held_nothing());
	}
}

static struct buf twitter, citm, amazon, made_json, made_csv, made_tsv;
static struct buf twitter16, made_l1, made_1252;
static char made_json_path[] = "/tmp/jenc-nomem-in.XXXXXX";

int
main(void)
{
	const jenc_opts compact = { 0 }, hold = { .flags = JENC_HOLD },
	    ind_hold = { .indent = 2, .flags = JENC_HOLD },
	    html_hold = { .indent = 0, .flags = JENC_HOLD | JENC_HTML |
		JENC_ASCII | JENC_LOWER_HEX },
	    ind = { .indent = 2 }, tab = { .flags = JENC_TAB | JENC_HTML },
	    small_hold = { .flags = JENC_HOLD, .hold_max = 100000 };
	static const char *const names[] = { "a", "b", "a", "", "caf\xc3\xa9",
	    "q\"uote" };
	char path[512];
	size_t i;
	int fd;

	/* Before the library's first use. */
	TEST("jenc_set_alloc before first use") {
		CHECK_EQ(jenc_set_alloc(&fa_alloc), 0);
	}
	memset(big_str, 'b', sizeof(big_str));
	if ((out_fd = mkstemp(out_path)) < 0 ||
	    (fd = mkstemp(made_json_path)) < 0) {
		perror("mkstemp");
		return 2;
	}
	close(fd);
	signal(SIGPIPE, SIG_IGN);
	snprintf(path, sizeof(path), "%s/twitter.json", corpus());
	if (read_file(path, &twitter) != 0) {
		fprintf(stderr, "test_nomem: %s: %s\n", path, strerror(errno));
		return 2;
	}
	snprintf(path, sizeof(path), "%s/citm_catalog.json", corpus());
	if (read_file(path, &citm) != 0)
		return 2;
	snprintf(path, sizeof(path), "%s/amazon_cellphones.ndjson", corpus());
	if (read_file(path, &amazon) != 0)
		return 2;
	make_json(&made_json);
	if (write_file(made_json_path, &made_json) != 0)
		return 2;
	make_csv(&made_csv, 0);
	make_csv(&made_tsv, 1);
	/* converted input: UTF-16LE with a mark, latin1, cp1252 */
	if (make_converted(&twitter16, "\xff\xfe", 2, &twitter,
	    "UTF-16LE") != 0 ||
	    make_converted(&made_l1, "", 0, &made_json, "LATIN1") != 0 ||
	    make_converted(&made_1252, "", 0, &made_csv, "CP1252") != 0) {
		fprintf(stderr, "test_nomem: iconv cannot convert the "
		    "inputs\n");
		return 2;
	}

	char twitter_path[512];
	snprintf(twitter_path, sizeof(twitter_path), "%s/twitter.json", corpus());
	const struct json_case jc[] = {
		{ "json mem twitter -c", &twitter, NULL, IN_MEM, 0, 0,
		    compact, { 0 }, WHOLE },
		{ "json mem twitter -c hold", &twitter, NULL, IN_MEM, 0, 0,
		    hold, { 0 }, WHOLE },
		{ "json mem twitter indent", &twitter, NULL, IN_MEM, 0, 0,
		    ind, { 0 }, WHOLE },
		{ "json mem twitter -H -a", &twitter, NULL, IN_MEM, 0, 0,
		    html_hold, { 0 }, WHOLE },
		{ "json file twitter -c hold to fd", &twitter, twitter_path,
		    IN_FILE, 1, 0, hold, { 0 }, WHOLE },
		{ "json file twitter indent hold to fd", &twitter,
		    twitter_path, IN_FILE, 1, 0, ind_hold,
		    { .flags = JENC_READ_SINGLE }, WHOLE },
		{ "json pipe twitter -H -a to fd", &twitter, NULL, IN_PIPE,
		    1, 0, html_hold, { 0 }, WHOLE },
		{ "json pipe twitter indent, streaming, to fd", &twitter,
		    NULL, IN_PIPE, 1, 0, ind, { 0 }, 0 },
		{ "json file twitter validate", &twitter, twitter_path,
		    IN_FILE, 0, 1, compact, { 0 }, WHOLE },
		{ "json mem citm tab", &citm, NULL, IN_MEM, 0, 0, tab,
		    { 0 }, WHOLE },
		{ "json pipe amazon ndjson -c hold to fd", &amazon, NULL,
		    IN_PIPE, 1, 0, hold, { 0 }, WHOLE },
		{ "json pipe amazon ndjson -H -a to fd", &amazon, NULL,
		    IN_PIPE, 1, 0, html_hold, { 0 }, WHOLE },
		{ "json mem made -c", &made_json, NULL, IN_MEM, 0, 0,
		    compact, { 0 }, WHOLE },
		{ "json mem made -H -a", &made_json, NULL, IN_MEM, 0, 0,
		    html_hold, { 0 }, WHOLE },
		{ "json file made -c hold to fd", &made_json, made_json_path,
		    IN_FILE, 1, 0, hold, { 0 }, WHOLE },
		{ "json pipe made indent, values past hold_max, to fd",
		    &made_json, NULL, IN_PIPE, 1, 0, ind_hold, { 0 }, 0 },
		{ "json pipe made -c hold_max 100000 to fd", &made_json, NULL,
		    IN_PIPE, 1, 0, small_hold, { 0 }, 0 },
		{ "json pipe made validate", &made_json, NULL, IN_PIPE, 0, 1,
		    compact, { 0 }, WHOLE },
		{ "json mem twitter UTF-16LE -c", &twitter16, NULL, IN_MEM,
		    0, 0, compact, { 0 }, WHOLE },
		{ "json pipe twitter UTF-16LE hold to fd", &twitter16, NULL,
		    IN_PIPE, 1, 0, hold, { 0 }, WHOLE },
		{ "json mem made latin1 -c", &made_l1, NULL, IN_MEM, 0, 0,
		    compact, { .encoding = "latin1" }, WHOLE },
	};
	const struct csv_case cc[] = {
		{ "csv mem made", &made_csv, IN_MEM, 0, ind, { 0 }, CLOSES },
		{ "csv pipe made to fd", &made_csv, IN_PIPE, 1, ind, { 0 },
		    CLOSES },
		{ "csv pipe made types lines hold to fd", &made_csv, IN_PIPE,
		    1, hold, { .flags = JENC_CSV_TYPES | JENC_CSV_LINES },
		    WHOLE },
		{ "csv mem made no-header lines", &made_csv, IN_MEM, 0,
		    compact, { .flags = JENC_CSV_NO_HEADER | JENC_CSV_LINES },
		    WHOLE },
		{ "csv pipe made header names, ragged pad, to fd", &made_csv,
		    IN_PIPE, 1, html_hold, { .flags = JENC_CSV_RAGGED_PAD |
		    JENC_CSV_LINES, .header = names, .nheader = 6 },
		    WHOLE },
		{ "csv pipe made types -H -a to fd", &made_csv, IN_PIPE, 1,
		    html_hold, { .flags = JENC_CSV_TYPES }, CLOSES },
		{ "tsv pipe made types to fd", &made_tsv, IN_PIPE, 1, ind,
		    { .flags = JENC_CSV_TSV | JENC_CSV_TYPES }, CLOSES },
		{ "tsv mem made lines hold", &made_tsv, IN_MEM, 0, hold,
		    { .flags = JENC_CSV_TSV | JENC_CSV_LINES }, WHOLE },
		{ "csv pipe made cp1252 to fd", &made_1252, IN_PIPE, 1, ind,
		    { .encoding = "cp1252" }, CLOSES },
		{ "csv mem made cp1252 lines hold", &made_1252, IN_MEM, 0,
		    hold, { .flags = JENC_CSV_LINES, .encoding = "cp1252" },
		    WHOLE },
	};
	const struct api_case ac[] = {
		{ "api mem compact, jenc_take", 0, 1, compact, WHOLE },
		{ "api mem indent", 0, 0, ind, WHOLE },
		{ "api mem -H -a, jenc_take", 0, 1, html_hold, WHOLE },
		{ "api fd hold", 1, 0, hold, WHOLE },
		{ "api fd tab, streaming", 1, 0, tab, 0 },
		{ "api fd hold_max 100000", 1, 0, small_hold, 0 },
	};

	for (i = 0; i < sizeof(jc) / sizeof(jc[0]); i++)
		fail_each(jc[i].name, run_json, &jc[i], jc[i].how |
		    (jc[i].from == IN_PIPE ? VARIES : 0));
	for (i = 0; i < sizeof(cc) / sizeof(cc[0]); i++)
		fail_each(cc[i].name, run_csv, &cc[i], cc[i].how |
		    (cc[i].from == IN_PIPE ? VARIES : 0));
	for (i = 0; i < sizeof(ac) / sizeof(ac[0]); i++)
		fail_each(ac[i].name, run_api, &ac[i], ac[i].how);

	/* Again without a realloc: malloc, copy, free instead. */
	set_alloc_rules();
	fail_each("json mem made -c, allocator without realloc", run_json,
	    &jc[12], WHOLE);
	fail_each("csv pipe made to fd, allocator without realloc", run_csv,
	    &cc[1], CLOSES | VARIES);
	TEST("jenc_set_alloc(NULL) restores libc's") {
		CHECK_EQ(jenc_set_alloc(NULL), 0);
		fa.calls = 0;
		struct res r = { 0 };
		run_json(&jc[0], &r);
		CHECK_EQ(r.rc, 0);
		CHECK_EQ(fa.calls, 0);
		free(r.out.p);
	}
	printf("%d runs\n", total_runs);
	unlink(out_path);
	unlink(made_json_path);
	free(twitter.p);
	free(citm.p);
	free(amazon.p);
	free(made_json.p);
	free(made_csv.p);
	free(made_tsv.p);
	free(twitter16.p);
	free(made_l1.p);
	free(made_1252.p);
	jenc_pool_trim();
	return harness_done();
}
