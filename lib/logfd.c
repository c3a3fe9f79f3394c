/*
 * logfd.c - the log view over a file descriptor (jenc_logv_fd): each line
 * that is one compact JSON object goes straight to jenc_logv_format,
 * every other line through the JSON reader, so that the output and the
 * errors are those of jenc_json_copy_fd with the view.
 *
 * The input is read(2) into a buffer a block at a time and taken a line
 * at a time (HACKING.md tells the way). A record (jenc_rec_check, rec.c,
 * takes the line whole, but for a CR at its end) is formatted into out,
 * which goes to the encoder with jenc_out_bytes when full, before the
 * reader writes and before each read.  A run of slow lines is read
 * (jenc_json_part over the buffer, at its offset and line) only where it
 * ends between two values, as a validating pass (no output, no reports)
 * tells; else it takes in the lines after it, records or not, and is
 * tried again once it has doubled, so that a value of many lines costs
 * its length a few times.  Before a read of a pipe that would wait, the
 * run is read whatever its length; if a value is still open at its end,
 * the reader takes the run and the rest of the input, and writes each
 * value as it ends.
 *
 * A line or a run longer than LF_MAX, or input that may not be UTF-8 (a
 * UTF-16 or UTF-32 byte order mark), hands the rest of the input to the
 * reader (jenc_json_part on the fd): memory stays bounded.
 */
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "rec.h"

#define LF_READ ((size_t)256 * 1024)	/* the first buffer */
#define LF_MAX ((size_t)1 << 20)	/* the longest line or run kept */
#define LF_OUT ((size_t)64 * 1024)	/* output gathered for one write */
#define LF_EXACT ((size_t)4096)	/* a run read without the skeleton */
#define LF_NONE ((size_t)-1)

struct lf {
	const jenc_logv *lv;
	jenc_enc *e;
	const jenc_read_opts *ro;
	jenc_err *err;
	int fd, eof;
	int each;		/* e flushes after each value (-u) */
	int pipe;		/* fd is not a regular file: reads wait */
	int found;		/* a bad text is in err */
	char *p;		/* the input: p[0..len), p[len] NUL */
	size_t len, cap;	/* (cap + 1 bytes allocated) */
	uint64_t off;		/* the input offset of p[0] */
	size_t pos;		/* the next line's start */
	uint64_t line;		/* its line */
	size_t slow;		/* the run of slow lines: p[slow..pos), or
				   LF_NONE */
	uint64_t slow_line;
	size_t retry;		/* the run was cut: tried again once pos
				   reaches here */
	char *out;		/* formatted records: out[0..olen) */
	size_t olen;
	struct jenc_rec rec;
};

/* e's error, also in err. */
static int
lf_enc_fail(struct lf *f)
{
	int code = jenc_error(f->e) != 0 ? jenc_error(f->e) : JENC_E_IO;

	return jenc_err_set(f->err, code, JENC_K_NONE, jenc_errno(f->e), 0,
	    NULL, "%s", jenc_strerror(code));
}

/* The records formatted so far to e.  0 or e's error. */
static int
lf_out_flush(struct lf *f)
{
	size_t n = f->olen;

	f->olen = 0;
	return n > 0 ? jenc_out_bytes(f->e, f->out, n) : 0;
}

/* jenc_logv_format's output, gathered in out. */
static int
lf_sink(void *ctx, const char *p, size_t n)
{
	struct lf *f = ctx;

	if (n > LF_OUT - f->olen) {
		if (lf_out_flush(f) != 0)
			return 1;
		if (n > LF_OUT)
			return jenc_out_bytes(f->e, p, n) != 0;
	}
	memcpy(f->out + f->olen, p, n);
	f->olen += n;
	return 0;
}

/* The reader over p[a..b), its first line `line`, into e (NULL: a
 * validating pass that tells nothing); fd >= 0: the rest of fd follows.
 * Its result, err and found as jenc_json_copy_fd leaves them; *cut (not
 * NULL) as jenc_json_part's cut_end. */
static int
lf_reader(struct lf *f, int fd, size_t a, size_t b, uint64_t line,
    jenc_enc *e, int *cut)
{
	jenc_read_opts ro = *f->ro;
	jenc_err one;
	int rc;

	if (e == NULL)
		ro.on_error = NULL;
	/* a few lines: jsmn reads their text, the same result without the
	 * skeleton's buffers, made and freed at each call */
	if (fd < 0 && b - a <= LF_EXACT)
		ro.flags |= JENC_READ_EXACT;
	rc = jenc_json_part(fd, f->p + a, b - a, f->off + a, line, e, &ro,
	    &one, cut, NULL);
	if (e != NULL) {
		if (rc != 0 || (one.code != 0 && !f->found))
			*f->err = one;
		f->found |= one.code != 0;
	}
	return rc;
}

/*
 * The run of slow lines p[slow..end) to the reader, and what is after it
 * of the run (end < pos) kept: fd >= 0 at the input's end, where the
 * reader finds the end of fd itself (an excerpt then shows what it
 * would).  0, or the reader's error.
 */
static int
lf_take(struct lf *f, int fd, size_t end)
{
	int rc;

	if (lf_out_flush(f) != 0)
		return lf_enc_fail(f);
	rc = lf_reader(f, fd, f->slow, end, f->slow_line, f->e, NULL);
	if (end < f->pos) {
		f->slow_line += jenc_count_lines(f->p + f->slow, end - f->slow,
		    NULL);
		f->slow = end;
	} else {
		f->slow = LF_NONE;
	}
	return rc;
}

/*
 * The run of slow lines to the reader if it ends between two values, as
 * a validating pass tells; else it is kept (slow as it was) and tried
 * again once it has doubled (retry).  0, or the reader's error.
 */
static int
lf_settle(struct lf *f)
{
	int cut = 0;

	(void)lf_reader(f, -1, f->slow, f->pos, f->slow_line, NULL, &cut);
	if (!cut)
		return lf_take(f, -1, f->pos);
	f->retry = f->pos + (f->pos - f->slow);
	return 0;
}

/* The line at pos goes to the run of slow lines, which starts there if
 * there is none. */
static void
lf_slow_add(struct lf *f)
{
	if (f->slow == LF_NONE) {
		f->slow = f->pos;
		f->slow_line = f->line;
		f->retry = 0;
	}
}

/*
 * More input after p[0..len): what is done dropped, the buffer grown if
 * a line or run fills it.  0; 1 when the input is too long a line or run
 * to keep (the reader takes the rest); or an error.
 */
static int
lf_more(struct lf *f)
{
	size_t keep = f->slow != LF_NONE ? f->slow : f->pos;
	ssize_t r;
	int sys;

	if (lf_out_flush(f) != 0 || jenc_flush(f->e) != 0)
		return lf_enc_fail(f);
	if (keep > 0) {
		memmove(f->p, f->p + keep, f->len - keep);
		f->len -= keep;
		f->off += keep;
		f->pos -= keep;
		if (f->slow != LF_NONE) {
			f->slow = 0;
			f->retry = f->retry > keep ? f->retry - keep : 0;
		}
	}
	if (f->len == f->cap) {
		size_t c = jenc_grow_cap(f->cap, f->cap + 1, LF_READ, 1);
		char *q;

		if (c == 0 || c > LF_MAX)
			return 1;
		if ((q = jenc_mem_realloc(f->p, f->cap + 1, c + 1)) == NULL)
			return jenc_err_set(f->err, JENC_E_NOMEM, JENC_K_NONE,
			    0, 0, NULL, "out of memory");
		f->p = q;
		f->cap = c;
	}
	r = jenc_io_read(f->fd, f->p + f->len, f->cap - f->len, -1, 0, &sys);
	if (r < 0)
		return jenc_err_set(f->err, JENC_E_IO, JENC_K_NONE, sys, 0,
		    NULL, "%s", strerror(sys));
	f->len += (size_t)r;
	f->p[f->len] = '\0';
	f->eof = r == 0;
	return 0;
}

/* Is the line p[pos..le) a record, but for a '\r' at its end (a CRLF
 * line end; p[le] is its '\n' or the NUL after the input)?  Its end in
 * *end. */
static int
lf_is_record(struct lf *f, size_t le, size_t *end)
{
	if (f->p[f->pos] != '{')
		return 0;
	f->rec.p = f->p;
	f->rec.n = le;
	return jenc_rec_check(&f->rec, f->pos, end) == 0 && (*end == le ||
	    (*end + 1 == le && f->p[*end] == '\r'));
}

/* The record p[pos..end) formatted into out.  0 or an error. */
static int
lf_record(struct lf *f, size_t end)
{
	int k = jenc_logv_format(f->lv, f->p + f->pos, end - f->pos, lf_sink,
	    f);

	if (k == JENC_E_SINK || (k >= 0 && f->each && lf_out_flush(f) != 0))
		return lf_enc_fail(f);
	if (k < 0)
		return jenc_err_set(f->err, k, JENC_K_NONE, 0, 0, NULL, "%s",
		    jenc_strerror(k));
	return 0;
}

/* Every line of the input. */
static int
lf_run(struct lf *f)
{
	int rc = 0;

	/* the first bytes, as the reader looks at them: a NUL among them
	 * or a byte no UTF-8 text starts with (UTF-16 or UTF-32, with a
	 * mark or not): the reader takes all, and tells the encoding */
	while (f->len < 4 && !f->eof && (rc = lf_more(f)) == 0)
		;
	if (rc == 0 && f->len > 0 &&
	    ((unsigned char)f->p[0] >= 0xfe ||
	    memchr(f->p, 0, f->len < 4 ? f->len : 4) != NULL))
		rc = 1;
	while (rc == 0) {
		const char *nl = memchr(f->p + f->pos, '\n', f->len - f->pos);
		size_t le = nl != NULL ? (size_t)(nl - f->p) : f->len, end;
		int record;

		if (nl == NULL && !f->eof) {
			/* before a read of a pipe that would wait, what is read
			 * is out: the run of slow lines, or, if a value is open
			 * at its end, the run and the rest of the input to the
			 * reader, which writes each value as it ends (waiting
			 * for the run to double, as before a read that would
			 * not wait, could hold back a value whose end came) */
			if (f->pipe && f->slow != LF_NONE) {
				int ready = jenc_io_ready(f->fd);

				if ((f->pos >= f->retry || !ready) &&
				    (rc = lf_settle(f)) != 0)
					return rc;
				if (f->slow != LF_NONE && !ready) {
					rc = 1;
					continue;
				}
			}
			rc = lf_more(f);
			continue;
		}
		if (f->pos == f->len)	/* (the end) */
			return f->slow != LF_NONE ? lf_take(f, f->fd, f->pos) : 0;
		/* a record ends the run before it, unless the run is cut
		 * there: then the record is one of its lines */
		record = lf_is_record(f, le, &end);
		if (record && f->slow != LF_NONE && f->pos >= f->retry &&
		    (rc = lf_settle(f)) != 0)
			return rc;
		if (record && f->slow == LF_NONE) {
			if ((rc = lf_record(f, end)) != 0)
				return rc;
		} else {
			lf_slow_add(f);
		}
		f->pos = nl != NULL ? le + 1 : le;
		f->line += nl != NULL;
	}
	if (rc != 1)
		return rc;
	/* the reader takes the rest of the input */
	lf_slow_add(f);
	f->pos = f->len;
	return lf_take(f, f->fd, f->len);
}

int
jenc_logv_fd(const jenc_logv *lv, int fd, jenc_enc *e,
    const jenc_read_opts *ro, jenc_err *err)
{
	static const jenc_read_opts none;
	const jenc_view *v = e != NULL ? jenc_enc_view(e) : NULL;
	jenc_err dummy;
	jenc_opts eo;
	struct stat st;
	struct lf f;
	int rc;

	if (err == NULL)
		err = &dummy;
	if (ro == NULL)
		ro = &none;
	/* records go to the view as their text only if e writes them as
	 * they are; the reader alone for what the check does not know */
	if (lv == NULL || v == NULL || v->ctx != (const void *)lv ||
	    !jenc_verbatim(e) || jenc_depth(e) != 0 ||
	    (ro->flags & (JENC_READ_SINGLE | JENC_READ_SEQ |
	    JENC_READ_JSONC)) || !jenc_conv_utf8(ro->encoding))
		return jenc_json_copy_fd(fd, e, ro, err);
	memset(&f, 0, sizeof(f));
	memset(err, 0, sizeof(*err));
	jenc_enc_like(e, &eo);
	f.lv = lv;
	f.e = e;
	f.ro = ro;
	f.err = err;
	f.fd = fd;
	f.each = (eo.flags & JENC_FLUSH_EACH) != 0;
	f.pipe = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode);
	f.line = 1;
	f.slow = LF_NONE;
	f.cap = LF_READ;
	f.rec.maxd = ro->max_depth ? ro->max_depth : 10000;
	f.p = jenc_mem_alloc(f.cap + 1);
	f.out = jenc_mem_alloc(LF_OUT);
	if (f.p == NULL || f.out == NULL)
		rc = jenc_err_set(err, JENC_E_NOMEM, JENC_K_NONE, 0, 0, NULL,
		    "out of memory");
	else
		rc = lf_run(&f);
	if (rc == 0 && lf_out_flush(&f) != 0)
		rc = lf_enc_fail(&f);
	jenc_mem_free(f.p, f.cap + 1);
	jenc_mem_free(f.out, LF_OUT);
	return rc;
}
