/*
 * fuzz_tocsv.c - libFuzzer harness: the passes of --to=csv over a file of
 * compact records without the reader (jenc_csvw_keys_fd, then
 * jenc_csvw_rows_fd, lib/csvw.c) against the reader's (jenc_json_copy_mem
 * into the writer's view, as jenc(1) makes them).
 *
 * Input: one byte, then the text (written to a temporary file).
 *	byte 0, bit 0: TSV (JENC_CSVW_TSV); bit 1: max_depth 3 (else the
 *	default); bit 2: "_" as the flattening separator (else ".");
 *	bit 3: JENC_CSVW_PAD
 *
 * Property: where jenc_csvw_keys_fd takes the file (1), the reader finds
 * no bad input in it and the same columns, and jenc_csvw_rows_fd reads
 * it whole (1) and writes the same bytes as the reader's rows; where it
 * does not (0), it leaves the writer without a column.  Nothing else is
 * returned.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;		/* the temporary file (fz_file) */
static fz_buf fast, slow;

static int
sink(void *ctx, const char *buf, size_t len)
{
	fz_buf_add(ctx, buf, len);
	return 0;
}

/* An encoder writing into out (emptied), whose view is w's (scan: its
 * first pass); all it writes is in out once it is released. */
static jenc_enc *
view_enc(jenc_csvw *w, int scan, fz_buf *out)
{
	jenc_opts o = { 0, 0, 0 };
	jenc_view v;
	jenc_enc *e;

	out->len = 0;
	e = jenc_get_sink(sink, out, &o);

	jenc_csvw_view(w, scan, &v);
	if (e == NULL || jenc_set_view(e, &v) != 0)
		abort();
	return e;
}

/* The header line w's columns make (and no row), into out. */
static void
header(jenc_csvw *w, fz_buf *out)
{
	if (jenc_release(view_enc(w, 0, out)) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	jenc_csvw_opts wo = { 0 };
	jenc_read_opts ro = { 0, 0, NULL, NULL, NULL };
	jenc_csvw *w1, *w2;
	jenc_enc *e;
	jenc_err err;
	const char *p = (const char *)data + 1;
	size_t n = size - 1;
	int rc, rc2;

	FZ_BEGIN();
	if (size < 1)
		return 0;
	wo.flags = ((data[0] & 1) ? JENC_CSVW_TSV : 0) |
	    ((data[0] & 8) ? JENC_CSVW_PAD : 0);
	wo.sep = (data[0] & 4) ? "_" : ".";
	ro.max_depth = (data[0] & 2) ? 3 : 0;
	fd = fz_file(p, n);
	if (jenc_csvw_new(&w1, &wo) != 0 || jenc_csvw_new(&w2, &wo) != 0)
		abort();
	rc = jenc_csvw_keys_fd(w1, fd, &ro);
	if (rc != 0 && rc != 1)
		fz_fail("jenc_csvw_keys_fd returned %d", rc);
	if (rc == 0) {
		if (jenc_csvw_columns(w1) != 0)
			fz_fail("refused, but %zu columns",
			    jenc_csvw_columns(w1));
		goto out;
	}
	/* the reader's first pass, as jenc(1) makes it (objects only) */
	e = view_enc(w2, 1, &slow);
	rc2 = jenc_json_copy_mem(p, n, e, &ro, &err);
	(void)jenc_release(e);
	if (rc2 != 0)
		fz_fail("taken without the reader, which says: %s (%d)",
		    err.msg, rc2);
	header(w1, &fast);
	header(w2, &slow);
	if (!fz_buf_eq(&fast, 0, slow.p, slow.len))
		fz_fail("columns %.*s, the reader's %.*s", (int)fast.len,
		    fast.p != NULL ? fast.p : "", (int)slow.len,
		    slow.p != NULL ? slow.p : "");
	/* the rows both ways */
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	e = view_enc(w1, 0, &fast);
	if ((rc = jenc_csvw_rows_fd(w1, fd, e, &ro)) != 1)
		fz_fail("jenc_csvw_rows_fd returned %d", rc);
	if (jenc_release(e) != 0)
		fz_fail("jenc_csvw_rows_fd's encoder failed");
	e = view_enc(w2, 0, &slow);
	if ((rc2 = jenc_json_copy_mem(p, n, e, &ro, &err)) != 0)
		fz_fail("the reader's rows: %s (%d)", err.msg, rc2);
	if (jenc_release(e) != 0)
		fz_fail("the reader's encoder failed");
	if (!fz_buf_eq(&fast, 0, slow.p, slow.len))
		fz_fail("rows differ: %.*s | the reader's: %.*s",
		    (int)(fast.len < 400 ? fast.len : 400),
		    fast.p != NULL ? fast.p : "",
		    (int)(slow.len < 400 ? slow.len : 400),
		    slow.p != NULL ? slow.p : "");
out:
	jenc_csvw_free(w1);
	jenc_csvw_free(w2);
	return 0;
}
