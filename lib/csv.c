/*
 * csv.c - the CSV/TSV reader's driver and public calls
 * (jenc_csv_copy_fd, jenc_csv_copy_mem): the options taken into the
 * reader's state, the input opened and begun, the delimiter detected,
 * the records read and written (jenc_csv_records, csv_out.c), then the
 * array closed, the output flushed and the state released.  csv_int.h
 * lists the reader's other files and their jobs.
 */
#include <string.h>

#include "csv_int.h"

static int
csv_init(struct csv *c, jenc_enc *e, const jenc_csv_opts *o, jenc_err *err)
{
	unsigned char d;
	int tsv;

	memset(c, 0, sizeof *c);
	if (err != NULL)
		memset(err, 0, sizeof *err);
	c->e = e;
	c->err = err;
	c->flags = o ? o->flags : 0;
	c->encoding = o ? o->encoding : NULL;
	c->sep = o && o->sep ? o->sep : ".";
	c->seplen = strlen(c->sep);
	c->line = 1;
	c->st = S_RECORD;
	c->max_rec = o && o->max_record ? o->max_record : JENC_CSV_MAX_RECORD;
	if (c->max_rec > SIZE_MAX - 4 - JENC_IN_AFTER)
		c->max_rec = SIZE_MAX - 4 - JENC_IN_AFTER;
	tsv = (c->flags & JENC_CSV_TSV) != 0;
	c->detect = !tsv && (c->flags & JENC_CSV_DETECT) && !(o && o->delim);
	d = (unsigned char)(o && o->delim ? o->delim : tsv ? '\t' : ',');
	if (!jenc_csv_delim_ok(d, tsv))
		return jenc_csv_fail_plain(c, JENC_E_STATE, 0, "%s", tsv ?
		    "the delimiter cannot be a line end, a backslash or a "
		    "non-ASCII byte" :
		    "the delimiter cannot be a line end, a quote or a "
		    "non-ASCII byte");
	jenc_csv_set_delim(c, d);
	if (!(c->flags & JENC_CSV_NO_HEADER) && o && o->header) {
		size_t k, bad;

		for (k = 0; k < o->nheader; k++) {
			const char *s = o->header[k];
			size_t n = strlen(s);

			if (!jenc_utf8_check(s, n, &bad))
				return jenc_csv_fail_plain(c, JENC_E_UTF8, 0,
				    "invalid UTF-8 byte 0x%02x in header name "
				    "%zu", (unsigned char)s[bad], k + 1);
			if (jenc_csv_names_add(&c->nm, s, n, k + 1))
				return jenc_csv_nomem(c);
		}
		c->have_hdr = 1;
		c->nhdr = o->nheader;
	}
	return 0;
}

static void
csv_release(struct csv *c)
{
	jenc_in_release(&c->in);
	jenc_mem_free(c->scr, c->cap_s);
	jenc_mem_free(c->f, c->cap_f);
	jenc_mem_free(c->ob, c->cap_o);
	jenc_csv_names_release(&c->nm);
	jenc_mem_free(c->plan, c->cap_plan);
	jenc_mem_free(c->nodes, c->cap_nodes);
	jenc_mem_free(c->nslot, c->nnslot * sizeof *c->nslot);
}

/* Reads every record from c->in and emits it. */
static int
csv_run(struct csv *c)
{
	int r = 0, lines = (c->flags & JENC_CSV_LINES) != 0, er, bom;

	if (c->e != NULL) {
		c->in.before_read = jenc_flush_cb;
		c->in.ctx = c->e;
		c->text = jenc_verbatim(c->e);
	}
	if ((r = jenc_in_begin(&c->in, c->encoding,
	    !(c->flags & JENC_CSV_TSV), &bom)) != 0)
		r = jenc_csv_in_fail(c, r);
	if (r == 0 && c->detect)
		r = jenc_csv_detect(c);
	if (r == 0)
		r = jenc_csv_records(c);
	if (r == 0 && c->e != NULL)
		r = jenc_csv_names_end(c);
	if (r < 0 && c->x_pending)
		jenc_csv_report(c);
	if (c->e == NULL)
		return r;
	/* an input that cannot be read gives nothing, not [] */
	if (r != JENC_E_IO && !c->dropped && jenc_error(c->e) == 0)
		jenc_csv_begin(c);
	if (!lines && c->begun && !c->dropped && jenc_error(c->e) == 0)
		jenc_arr_end(c->e);
	if (c->from_fd && jenc_error(c->e) == 0)
		jenc_flush(c->e);
	if (r == 0 && (er = jenc_error(c->e)) != 0)
		r = jenc_csv_enc_fail(c, er);
	/* Out of memory in the encoder, the value cannot be finished: as
	 * the JSON reader does, drop it, so that e holds complete values
	 * only (in array mode that is the whole array). */
	if (jenc_error(c->e) == JENC_E_NOMEM) {
		int cut = jenc_discard(c->e);

		if (c->err != NULL)
			c->err->cut = cut;
	}
	return r;
}

/* The window may grow to a record, a CR and a byte more, and what an
 * error's excerpt shows after its spot (so that it is the same from
 * memory and from a file). */
static size_t
csv_window_max(const struct csv *c)
{
	return c->max_rec + 2 + JENC_IN_AFTER;
}

/*
 * Reads CSV/TSV from fd if from_fd, else from p[0..len), into e (see
 * jenc_csv_copy_fd and jenc_csv_copy_mem in jenc.h).
 */
static int
csv_copy(int from_fd, int fd, const char *p, size_t len, jenc_enc *e,
    const jenc_csv_opts *o, jenc_err *err)
{
	struct csv c;
	int r;

	if ((r = csv_init(&c, e, o, err)) != 0)
		goto out;
	if (!from_fd) {
		jenc_in_init_mem(&c.in, p, p != NULL ? len : 0,
		    csv_window_max(&c));
	} else if (jenc_in_init_fd(&c.in, fd, CSV_WINDOW,
	    csv_window_max(&c)) != 0) {
		r = jenc_csv_nomem(&c);
		goto out;
	} else {
		c.from_fd = 1;
	}
	r = csv_run(&c);
out:
	csv_release(&c);
	return r;
}

int
jenc_csv_copy_fd(int fd, jenc_enc *e, const jenc_csv_opts *o, jenc_err *err)
{
	return csv_copy(1, fd, NULL, 0, e, o, err);
}

int
jenc_csv_copy_mem(const char *p, size_t len, jenc_enc *e,
    const jenc_csv_opts *o, jenc_err *err)
{
	return csv_copy(0, -1, p, len, e, o, err);
}
