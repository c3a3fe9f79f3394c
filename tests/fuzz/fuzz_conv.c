/*
 * fuzz_conv.c - libFuzzer harness for input in other encodings: the
 * conversion under the input layer (lib/conv.c, lib/in.c), for both
 * readers.
 *
 * Input: one mode byte, then the raw text.
 *	bits 0-2: the encoding: NULL (byte order marks and UTF-16 without
 *		one are looked for), "utf-16le", "utf-16be", "utf-32le",
 *		"utf-32be", "cp1252", "latin1", "shift_jis"
 *	bits 3-4: the reader: JSON, JSON with JENC_READ_SKIP, CSV, TSV
 *	bits 5-7: with NULL, the start put before the text: none, the
 *		UTF-16LE, UTF-16BE, UTF-32LE, UTF-32BE byte order mark, a
 *		UTF-8 one, or the text's first byte and a NUL (UTF-16LE
 *		without a mark), a NUL and the first byte (UTF-16BE)
 *
 * Properties checked besides the sanitizers:
 * - a model: the whole raw input converted at once with iconv(3), then
 *   read as UTF-8.  Where the conversion succeeds, reading the raw input
 *   with the encoding gives the same code, error (position, message,
 *   excerpt) and output as reading the model's UTF-8 text (after a byte
 *   order mark the model keeps U+FEFF, so that offsets agree).  Where it
 *   fails at raw offset k, the read fails with JENC_E_ENCODING at offset
 *   k, "invalid byte..." or "incomplete character...", on the line and
 *   at the column in characters that the converted text before k gives,
 *   or with an error of the reader in that text;
 * - UTF-16 without a mark: JENC_E_ENCODING at 1:1 naming it;
 * - jenc_*_copy_fd on a pipe fed in chunks gives the same code, error
 *   and output as jenc_*_copy_mem.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_util.h"
#include "jenc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fz_buf in, model, out, mout, tmp;

static const char *const encs[8] = {
	NULL, "utf-16le", "utf-16be", "utf-32le", "utf-32be", "cp1252",
	"latin1", "shift_jis"
};

struct run {
	int csv;
	jenc_enc *e;
	const jenc_read_opts *ro;
	const jenc_csv_opts *co;
	jenc_err *err;
};

static int
run_fd(int fd, void *ctx)
{
	struct run *r = ctx;

	if (r->csv)
		return jenc_csv_copy_fd(fd, r->e, r->co, r->err);
	return jenc_json_copy_fd(fd, r->e, r->ro, r->err);
}

/* Read p[0..n) into o with the reader of r (encoding as set in its
 * options): through a pipe when seed is not 0. */
static int
read_all(struct run *r, const char *p, size_t n, uint32_t seed, fz_buf *o,
    jenc_err *err)
{
	jenc_opts eo = { 0, JENC_HOLD, 0 };
	int rc;

	memset(err, 0, sizeof(*err));
	r->err = err;
	if ((r->e = jenc_get_mem(&eo)) == NULL)
		fz_fail("jenc_get_mem returned NULL");
	if (p == NULL)
		p = "";
	if (seed != 0)
		rc = fz_pipe_run(p, n, seed, run_fd, r);
	else if (r->csv)
		rc = jenc_csv_copy_mem(p, n, r->e, r->co, err);
	else
		rc = jenc_json_copy_mem(p, n, r->e, r->ro, err);
	o->len = 0;
	fz_take(r->e, o);
	(void)jenc_release(r->e);
	return rc;
}

/*
 * Convert p[0..n) from name to UTF-8 into m at once.  Returns 0, or the
 * iconv errno (EILSEQ, EINVAL) with *bad the raw offset it stopped at.
 */
static int
convert(const char *name, const char *p, size_t n, fz_buf *m, size_t *bad)
{
	iconv_t cd = iconv_open("UTF-8", name);
	char *src = (char *)(uintptr_t)p, *dst;
	size_t left = n, room, r;
	int e;

	if (cd == (iconv_t)-1)
		fz_fail("iconv_open(%s): %s", name, strerror(errno));
	m->len = 0;
	fz_buf_add(m, "", 0);
	room = 4 * n + 16;
	{
		char buf[4 * 8192 + 64];

		if (room > sizeof(buf))
			fz_fail("input too long for the model");
		dst = buf;
		r = iconv(cd, &src, &left, &dst, &room);
		e = errno;
		if (r != (size_t)-1)	/* what is held for what may follow */
			(void)iconv(cd, NULL, NULL, &dst, &room);
		fz_buf_add(m, buf, (size_t)(dst - buf));
	}
	iconv_close(cd);
	*bad = n - left;
	if (r == (size_t)-1)
		return e == E2BIG ? (fz_fail("iconv: output full"), 0) : e;
	return 0;
}

/* Line and column (1 + characters) of the end of UTF-8 text t[0..n),
 * lines ending at LF, with cr at a lone CR too; from, the byte where
 * line 1's columns start. */
static void
text_end_at(const char *t, size_t n, int cr, size_t from, uint64_t *line,
    uint64_t *col)
{
	size_t i, ls = from;

	*line = 1;
	for (i = 0; i < n; i++)
		if (t[i] == '\n' || (cr && t[i] == '\r')) {
			if (!(t[i] == '\n' && i > 0 && t[i - 1] == '\r' && cr))
				++*line;
			ls = i + 1;
		}
	*col = 1;
	for (i = ls; i < n; i++)
		*col += ((unsigned char)t[i] & 0xc0) != 0x80;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const marks[8] = {
		"", "\xff\xfe", "\xfe\xff", "\xff\xfe\0\0", "\0\0\xfe\xff",
		"\xef\xbb\xbf", NULL, NULL
	};
	static const size_t mlen[8] = { 0, 2, 2, 4, 4, 3, 2, 2 };
	jenc_read_opts ro = { 0 };
	jenc_csv_opts co = { 0 };
	jenc_err err, ferr, merr;
	struct run r;
	const char *enc, *name, *p;
	size_t n, skip = 0, bad = 0;
	unsigned mode, start;
	int rc, frc, mrc, ce, cr;

	if (size < 1 || size > 8193)
		return 0;
	FZ_BEGIN();
	mode = data[0];
	enc = encs[mode & 7];
	start = enc == NULL ? mode >> 5 : 0;
	memset(&r, 0, sizeof(r));
	r.csv = ((mode >> 3) & 3) >= 2;
	if (((mode >> 3) & 3) == 1)
		ro.flags = JENC_READ_SKIP;
	if (((mode >> 3) & 3) == 3)
		co.flags = JENC_CSV_TSV;
	cr = r.csv && !(co.flags & JENC_CSV_TSV);
	ro.encoding = co.encoding = enc;
	r.ro = &ro;
	r.co = &co;

	in.len = 0;
	fz_buf_add(&in, "", 0);
	if (start == 6 || start == 7) {
		char two[2] = { size > 1 ? (char)data[1] : 'x', 0 };

		if (two[0] == 0)
			two[0] = 'x';
		if (start == 7) {
			two[1] = two[0];
			two[0] = 0;
		}
		fz_buf_add(&in, two, 2);
		fz_buf_add(&in, data + (size > 1 ? 2 : 1),
		    size - (size > 1 ? 2 : 1));
	} else {
		fz_buf_add(&in, marks[start], mlen[start]);
		fz_buf_add(&in, data + 1, size - 1);
	}
	p = in.p != NULL ? in.p : "";
	n = in.len;

	rc = read_all(&r, p, n, 0, &out, &err);
	frc = read_all(&r, p, n, fz_hash(data, size) | 1, &tmp, &ferr);
	if (frc != rc)
		fz_fail("_fd returned %d, _mem %d (%s / %s)", frc, rc,
		    ferr.msg, err.msg);
	if (rc != 0)
		fz_expect_same_err(&ferr, &err, "_fd/_mem", 1);
	if (!fz_buf_eq(&tmp, 0, out.p, out.len))
		fz_fail("_fd output differs from _mem");

	/* what the input layer makes of the start, without an encoding */
	name = enc;
	if (enc == NULL) {
		const unsigned char *u = (const unsigned char *)p;

		if (n >= 4 && !memcmp(p, "\xff\xfe\0\0", 4))
			name = "utf-32le", skip = 4;
		else if (n >= 4 && !memcmp(p, "\0\0\xfe\xff", 4))
			name = "utf-32be", skip = 4;
		else if (n >= 2 && !memcmp(p, "\xff\xfe", 2))
			name = "utf-16le", skip = 2;
		else if (n >= 2 && !memcmp(p, "\xfe\xff", 2))
			name = "utf-16be", skip = 2;
		else if ((n == 2 || n >= 4) && ((u[0] && !u[1] &&
		    (n == 2 || (u[2] && !u[3]))) || (!u[0] && u[1] &&
		    (n == 2 || (!u[2] && u[3]))))) {
			if (rc != JENC_E_ENCODING || err.line != 1 ||
			    err.col != 1 || strncmp(err.msg,
			    "input looks like UTF-16", 23) != 0)
				fz_fail("UTF-16 without a mark: %d %llu:%llu "
				    "'%s'", rc, (unsigned long long)err.line,
				    (unsigned long long)err.col, err.msg);
			return 0;
		}
		if (name == NULL)
			return 0;	/* UTF-8: fuzz_json.c, fuzz_csv.c */
	}

	/* the model: U+FEFF in place of a mark the layer dropped */
	ce = convert(name, p + skip, n - skip, &model, &bad);
	if (skip > 0) {
		tmp.len = 0;
		fz_buf_add(&tmp, "\xef\xbb\xbf", 3);
		fz_buf_add(&tmp, model.p, model.len);
		model.len = 0;
		fz_buf_add(&model, tmp.p, tmp.len);
	}
	bad += skip;
	if (ce == 0) {
		/* text that looks like UTF-16 itself is named by the UTF-8
		 * read, not by the converted one */
		if (fz_wide_start(model.p, model.len))
			return 0;
		ro.encoding = co.encoding = NULL;
		mrc = read_all(&r, model.p, model.len, 0, &mout, &merr);
		if (mrc != rc)
			fz_fail("read with %s: %d, its UTF-8: %d (%s / %s)",
			    name, rc, mrc, err.msg, merr.msg);
		if (rc != 0 && !fz_same_err(&err, &merr))
			fz_expect_same_err(&err, &merr, "converted/UTF-8", 0);
		if (!fz_buf_eq(&mout, 0, out.p, out.len))
			fz_fail("output with %s differs from its UTF-8's",
			    name);
		return 0;
	}
	if (rc == 0)
		fz_fail("read with %s succeeded, iconv fails at %zu", name,
		    bad);
	if (rc == JENC_E_ENCODING) {
		uint64_t line, col;
		const char *want = ce == EILSEQ ? "invalid byte" :
		    "incomplete character at end of input";

		if (err.offset != bad)
			fz_fail("encoding error at %llu, iconv stops at %zu "
			    "(%s)", (unsigned long long)err.offset, bad,
			    err.msg);
		if (strncmp(err.msg, want, strlen(want)) != 0)
			fz_fail("'%s' where iconv says %s", err.msg,
			    strerror(ce));
		text_end_at(model.p, model.len, cr,
		    model.len >= 3 && !memcmp(model.p, "\xef\xbb\xbf", 3) ?
		    3 : 0, &line, &col);
		if (err.line != line || err.col != col)
			fz_fail("encoding error at %llu:%llu, the text before "
			    "it ends at %llu:%llu (%s)",
			    (unsigned long long)err.line,
			    (unsigned long long)err.col,
			    (unsigned long long)line, (unsigned long long)col,
			    err.msg);
	} else if (rc != JENC_E_SYNTAX && rc != JENC_E_DEPTH) {
		fz_fail("read with %s: %d (%s)", name, rc, err.msg);
	} else if (err.offset > model.len) {
		fz_fail("reader error at %llu past the %zu converted bytes",
		    (unsigned long long)err.offset, model.len);
	}
	return 0;
}
