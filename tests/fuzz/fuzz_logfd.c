/*
 * fuzz_logfd.c - libFuzzer harness: the log view over a file descriptor
 * (jenc_logv_fd, lib/logfd.c), which takes lines that are compact
 * records without the reader, against the reader with the same view
 * (jenc_json_copy_fd), on the same file.
 *
 * Input: one byte, then the text (written to a temporary file).
 *	byte 0, bits 0-1: the error policy (pass with blank lines kept, as
 *	jenc --log reads, pass, skip, stop); bit 2: max_depth 3 (else the
 *	default); bit 3: colors, --level=warn and --hide=pid (else the
 *	defaults); bit 4: JENC_ASCII (the reader reads all); bit 5: from a
 *	pipe fed in pieces (fz_pipe_run), else from the file
 *
 * Property: the same result, the same output bytes, the same error
 * (code, kind, offset, line, column, message, excerpt, caret; under
 * skip and pass the first bad text's) and the same reports to on_error,
 * in order (from a pipe, but for the excerpts, see report()).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;		/* the temporary file (fz_file) */
static fz_buf out[2], rep[2];
static jenc_logv *lv[2];

static int
sink(void *ctx, const char *buf, size_t len)
{
	fz_buf_add(ctx, buf, len);
	return 0;
}

/* From a pipe, how much of a line the reader holds when it reports bad
 * text depends on the pieces read (jenc_logv_fd reads whole lines
 * first); so do the excerpt and the hint that the first line looks like
 * CSV: neither is compared. */
static int from_pipe;

static const char csv_hint[] = " (is it CSV? try -f csv)";

/* err's message, less the CSV hint from a pipe, into m (192 bytes). */
static const char *
msg_of(const jenc_err *err, char *m)
{
	size_t n = strlen(err->msg), h = sizeof(csv_hint) - 1;

	memcpy(m, err->msg, n + 1);
	if (from_pipe && n >= h && strcmp(m + n - h, csv_hint) == 0)
		m[n - h] = '\0';
	return m;
}

static void
report(void *ctx, const jenc_err *err)
{
	int quiet = from_pipe;
	char m[sizeof(err->msg)];
	char line[1024];
	int n = snprintf(line, sizeof(line), "%d %d %llu %llu:%llu %d %llu "
	    "%d %s | %s | %zu\n", err->code, err->kind,
	    (unsigned long long)err->offset, (unsigned long long)err->line,
	    (unsigned long long)err->col, err->cut,
	    (unsigned long long)err->lines, err->passed, msg_of(err, m),
	    quiet ? "" : err->excerpt, quiet ? 0 : err->caret);

	fz_buf_add(ctx, line, (size_t)n);
}

static const unsigned policy[4] = {
	JENC_READ_PASS | JENC_READ_BLANK, JENC_READ_PASS, JENC_READ_SKIP, 0
};

/* One way of reading: fast (jenc_logv_fd) or the reader, with the view
 * v, into out[fast] and rep[fast]. */
struct way {
	int fast;
	const jenc_logv *v;
	unsigned eflags;
	const jenc_read_opts *ro;
	jenc_err *err;
};

/* Read the input on rfd the way ctx says: its result. */
static int
run_fd(int rfd, void *ctx)
{
	const struct way *w = ctx;
	jenc_opts o = { w->eflags, 0, 0 };
	jenc_read_opts ro = *w->ro;
	jenc_view v;
	jenc_enc *e;
	int rc;

	out[w->fast].len = rep[w->fast].len = 0;
	ro.on_error = report;
	ro.ctx = &rep[w->fast];
	e = jenc_get_sink(sink, &out[w->fast], &o);
	jenc_logv_view(w->v, &v);
	if (e == NULL || jenc_set_view(e, &v) != 0)
		abort();
	rc = w->fast ? jenc_logv_fd(w->v, rfd, e, &ro, w->err) :
	    jenc_json_copy_fd(rfd, e, &ro, w->err);
	(void)jenc_flush(e);
	(void)jenc_release(e);
	return rc;
}

/* The input p[0..n) read one way, from the file or (pipe) a pipe fed in
 * pieces that seed gives. */
static int
run(struct way *w, const char *p, size_t n, int pipe, uint32_t seed)
{
	if (pipe)
		return fz_pipe_run(p, n, seed, run_fd, w);
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return run_fd(fd, w);
}

static void
make_views(void)
{
	jenc_logv_opts lo;

	memset(&lo, 0, sizeof(lo));
	lo.flags = JENC_LOGV_UTC;
	if (jenc_logv_new(&lv[0], &lo) != 0)
		abort();
	lo.flags |= JENC_LOGV_COLOR;
	lo.min_level = 40;
	lo.hide = "pid";
	if (jenc_logv_new(&lv[1], &lo) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	jenc_read_opts ro = { 0, 0, NULL, NULL, NULL };
	const char *p = (const char *)data + 1;
	size_t n = size - 1;
	struct way w;
	jenc_err a, b;
	char ma[sizeof(a.msg)], mb[sizeof(b.msg)];
	int rc, rc2;

	FZ_BEGIN();
	if (size < 1)
		return 0;
	if (lv[0] == NULL)
		make_views();
	ro.flags = policy[data[0] & 3];
	ro.max_depth = (data[0] & 4) ? 3 : 0;
	w.v = lv[(data[0] >> 3) & 1];
	w.eflags = (data[0] & 16) ? JENC_ASCII : 0;
	w.ro = &ro;
	fd = fz_file(p, n);
	from_pipe = (data[0] & 32) != 0;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	w.fast = 0;
	w.err = &a;
	rc = run(&w, p, n, data[0] & 32, fz_hash(data, size));
	w.fast = 1;
	w.err = &b;
	rc2 = run(&w, p, n, data[0] & 32, fz_hash(data, size));
	if (rc != rc2)
		fz_fail("jenc_logv_fd returned %d, the reader %d (%s)", rc2,
		    rc, a.msg);
	if (!fz_buf_eq(&out[1], 0, out[0].p, out[0].len))
		fz_fail("output %.*s | the reader's: %.*s",
		    (int)(out[1].len < 400 ? out[1].len : 400),
		    out[1].p != NULL ? out[1].p : "",
		    (int)(out[0].len < 400 ? out[0].len : 400),
		    out[0].p != NULL ? out[0].p : "");
	if (!fz_buf_eq(&rep[1], 0, rep[0].p, rep[0].len))
		fz_fail("reports %.*s | the reader's: %.*s",
		    (int)(rep[1].len < 600 ? rep[1].len : 600),
		    rep[1].p != NULL ? rep[1].p : "",
		    (int)(rep[0].len < 600 ? rep[0].len : 600),
		    rep[0].p != NULL ? rep[0].p : "");
	if ((rc != 0 || a.code != 0 || b.code != 0) &&
	    (a.code != b.code || a.kind != b.kind || a.offset != b.offset ||
	    a.line != b.line || a.col != b.col || a.passed != b.passed ||
	    (!from_pipe && (a.caret != b.caret ||
	    strcmp(a.excerpt, b.excerpt) != 0)) ||
	    strcmp(msg_of(&a, ma), msg_of(&b, mb)) != 0))
		fz_fail("error %d %llu:%llu %s | %s, the reader's %d "
		    "%llu:%llu %s | %s", b.code, (unsigned long long)b.line,
		    (unsigned long long)b.col, b.msg, b.excerpt, a.code,
		    (unsigned long long)a.line, (unsigned long long)a.col,
		    a.msg, a.excerpt);
	return 0;
}
