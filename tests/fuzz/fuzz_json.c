/*
 * fuzz_json.c - libFuzzer harness for the JSON reader.
 *
 * Input: one mode byte, then the JSON text given to jenc_json_copy_mem.
 * Mode bits:
 *	0-1	layout: 0 compact, 1 indent N spaces, 2 tab,
 *		3 compact with a small max_depth D
 *	2-3	N in {1, 2, 4, 16}, or D in {1, 2, 3, 8}
 *	4	JENC_HTML
 *	5	JENC_ASCII
 *	6	JENC_LOWER_HEX
 *	7	JENC_READ_SINGLE
 *
 * Properties checked besides the sanitizers:
 * - the same text read as a plain stream (no JENC_READ_SINGLE) gives the
 *   same result and error; with JENC_READ_SINGLE the input is accepted
 *   exactly when the stream holds one value;
 * - accepted: the output is accepted again, ends in "\n", is a fixpoint
 *   (re-encoding it in the same mode gives the same bytes), compacting it
 *   gives the compact encoding of the input, and an indented output equals
 *   Go's json.Indent of the compact one (an independent re-implementation
 *   of its loop in fuzz_util.c);
 * - JENC_HTML output has no raw < > & U+2028 U+2029 and JENC_ASCII output
 *   no byte >= 0x80; escaped and plain compact outputs hold the same
 *   values.  Escapes of the input are copied verbatim, so the outputs
 *   cannot be compared byte for byte: fz_same_value() requires equal bytes
 *   outside strings and decodes both sides' strings to code points (raw
 *   UTF-8, short escapes, \uXXXX with surrogate pairs joined, lone
 *   surrogates kept as themselves), which is exactly what the HTML and
 *   ASCII transformations must preserve;
 * - JENC_LOWER_HEX changes nothing but the case of hex digits in escapes;
 * - rejected: err fields are sane (code, offset <= length, line and col
 *   matching the offset, excerpt showing the input around the caret) and
 *   the message is one of cli-spec.md's forms naming the byte at offset;
 * - jenc_json_copy_fd on a pipe fed in chunks chosen from the input's
 *   hash gives the same code, error and output as jenc_json_copy_mem;
 *   so does jenc_json_copy_fd_par on two threads, cut into small chunks,
 *   with no policy, SKIP or PASS (the same bad texts told), into a
 *   memory or a sink encoder (see check_par);
 * - with shaping flags chosen from the input's hash (JENC_SORT_KEYS,
 *   JENC_SPLIT, JENC_SLURP, JENC_SEQ, JENC_FLUSH_EACH, JENC_HOLD,
 *   JENC_COLOR; see check_shaping) the result and error are the same; the
 *   colored output less its escapes is the uncolored one, the JENC_SEQ one
 *   less its RS bytes (each at a line start) the one without; accepted,
 *   the output is valid, sorted output is a fixpoint of sorting and as
 *   long as the unsorted one, and split and slurped output compacted is
 *   a reference split and slurp of the compact output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "jenc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fz_buf out, plain, comp, tmp, ref, pref, pout;

static void
same_bytes(const fz_buf *a, const fz_buf *b, const char *what)
{
	size_t i;

	if (fz_buf_eq(a, 0, b->p, b->len))
		return;
	for (i = 0; i < a->len && i < b->len && a->p[i] == b->p[i]; i++)
		;
	fz_fail("%s: %zu bytes vs %zu, first difference at %zu", what,
	    a->len, b->len, i);
}

/* 1 if p[i] is one of the four hex digits of a \uXXXX escape. */
static int
in_u_escape(const char *p, size_t i)
{
	size_t k = i >= 5 ? i - 5 : 0;

	for (; k + 2 <= i; k++)
		if (p[k] == '\\' && p[k + 1] == 'u')
			return 1;
	return 0;
}

/* a and b differ only in the case of hex letters inside \u escapes:
 * a with lowercase where b has uppercase. */
static void
lower_hex_only(const fz_buf *a, const fz_buf *b)
{
	size_t i;

	if (a->len != b->len)
		fz_fail("JENC_LOWER_HEX changed the length");
	for (i = 0; i < a->len; i++) {
		char x = a->p[i], y = b->p[i];

		if (x == y)
			continue;
		if (!(y >= 'A' && y <= 'F' && x == y - 'A' + 'a'))
			fz_fail("JENC_LOWER_HEX changed byte %zu", i);
		if (!in_u_escape(a->p, i))
			fz_fail("JENC_LOWER_HEX changed byte %zu outside an "
			    "escape", i);
	}
}

static void
check_fd(const char *p, size_t n, const jenc_opts *eo,
    const jenc_read_opts *ro, int rc, const jenc_err *err, uint32_t seed)
{
	jenc_err ferr;
	struct fz_json_fd r;
	int frc;

	memset(&ferr, 0, sizeof(ferr));
	r.e = jenc_get_mem(eo);
	if (r.e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	r.ro = ro;
	r.err = &ferr;
	frc = fz_pipe_run(p, n, seed, fz_json_fd_run, &r);
	tmp.len = 0;
	fz_take(r.e, &tmp);
	(void)jenc_release(r.e);
	if (frc != rc)
		fz_fail("jenc_json_copy_fd returned %d, _mem %d (%s / %s)",
		    frc, rc, ferr.msg, err->msg);
	if (rc != 0) {
		fz_expect_same_err(&ferr, err, "jenc_json_copy_fd/_mem", 1);
	}
	same_bytes(&tmp, &out, "jenc_json_copy_fd vs _mem output");
}

/* The reader into a memory encoder with eo; a JENC_SLURP array is closed
 * when the input was accepted. */
static int
shaped(const char *p, size_t n, const jenc_opts *eo, const jenc_read_opts *ro,
    fz_buf *o, jenc_err *err)
{
	jenc_enc *e = jenc_get_mem(eo);
	int rc, rel;

	if (e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	o->len = 0;
	memset(err, 0, sizeof(*err));
	rc = jenc_json_copy_mem(p, n, e, ro, err);
	if (rc == 0 && (eo->flags & JENC_SLURP) && jenc_arr_end(e) != 0)
		fz_fail("closing the JENC_SLURP array failed");
	fz_take(e, o);
	rel = jenc_release(e);
	if (rc == 0 && rel != 0)
		fz_fail("jenc_release returned %d after an accepted input "
		    "(flags 0x%x)", rel, eo->flags);
	return rc;
}

/* in less its SGR escapes (ESC '[' digits and ';' 'm'), or its RS bytes,
 * which must each start a line. */
static void
strip(const fz_buf *in, fz_buf *o, int rs)
{
	size_t i = 0, j;

	o->len = 0;
	while (i < in->len) {
		char c = in->p[i];

		if (!rs && c == '\033') {
			for (j = i + 2; j < in->len &&
			    ((in->p[j] >= '0' && in->p[j] <= '9') ||
			    in->p[j] == ';'); j++)
				;
			if (i + 1 >= in->len || in->p[i + 1] != '[' ||
			    j >= in->len || in->p[j] != 'm')
				fz_fail("a bad color escape at %zu", i);
			i = j + 1;
			continue;
		}
		if (rs && c == '\036') {
			if (i > 0 && in->p[i - 1] != '\n')
				fz_fail("an RS inside a line at %zu", i);
			i++;
			continue;
		}
		fz_buf_add(o, &c, 1);
		i++;
	}
}

/* The reference of JENC_SPLIT then JENC_SLURP over a compact stream c
 * (one value a line, strings as JSON writes them). */
static void
ref_shape(const fz_buf *c, unsigned flags, fz_buf *o)
{
	size_t i = 0, nv = 0;

	o->len = 0;
	if (flags & JENC_SLURP)
		fz_buf_add(o, "[", 1);
	while (i < c->len) {
		size_t end = i;
		int split = (flags & JENC_SPLIT) && c->p[i] == '[';

		while (c->p[end] != '\n')
			end++;
		if (!split || end - i > 2) {
			size_t k = split ? i + 1 : i, from = k;
			int depth = 0, str = 0;

			for (; k < end; k++) {
				char x = c->p[k];
				int cut = 0;

				if (str) {
					if (x == '\\')
						k++;
					else if (x == '"')
						str = 0;
				} else if (x == '"')
					str = 1;
				else if (x == '[' || x == '{')
					depth++;
				else if (x == ']' || x == '}')
					cut = split && depth-- == 0;
				else if (x == ',')
					cut = split && depth == 0;
				if (!cut && k + 1 < end)
					continue;
				if (nv++ > 0 && (flags & JENC_SLURP))
					fz_buf_add(o, ",", 1);
				fz_buf_add(o, c->p + from, (cut ? k : k + 1) - from);
				if (!(flags & JENC_SLURP))
					fz_buf_add(o, "\n", 1);
				from = k + 1;
			}
		}
		i = end + 1;
	}
	if (flags & JENC_SLURP)
		fz_buf_add(o, "]\n", 2);
}

/*
 * The shaping flags, chosen from seed, on the layout and escapes of eo:
 * rc and err are the result without them, compact (accepted input only)
 * the compact output with eo's escapes.
 */
static void
check_shaping(const char *p, size_t n, const jenc_opts *eo,
    const jenc_read_opts *ro, int rc, const jenc_err *err,
    const fz_buf *compact, uint32_t seed)
{
	static const unsigned pick[7] = { JENC_SORT_KEYS, JENC_SPLIT,
	    JENC_SLURP, JENC_SEQ, JENC_FLUSH_EACH, JENC_HOLD, JENC_COLOR };
	static fz_buf a, b, c, d, t;
	jenc_opts o = *eo, q;
	jenc_err e2;
	unsigned i, shape;
	int r;

	for (i = 0; i < 7; i++)
		o.flags |= (seed >> (i + 8)) & 1 ? pick[i] : 0;
	shape = o.flags & (JENC_SPLIT | JENC_SLURP);
	r = shaped(p, n, &o, ro, &a, &e2);
	if (r != rc)
		fz_fail("shaping flags 0x%x changed the result: %d vs %d",
		    o.flags, r, rc);
	if (rc != 0)
		fz_expect_same_err(&e2, err, "shaped/plain", 0);
	/* b: without colors, c: and without RS */
	q = o;
	q.flags &= ~(unsigned)JENC_COLOR;
	if (o.flags & JENC_COLOR) {
		(void)shaped(p, n, &q, ro, &b, &e2);
		strip(&a, &t, 0);
		same_bytes(&t, &b, "colored output less its escapes");
	} else {
		b.len = 0;
		fz_buf_add(&b, a.p, a.len);
	}
	q.flags &= ~(unsigned)JENC_SEQ;
	if (o.flags & JENC_SEQ) {
		(void)shaped(p, n, &q, ro, &c, &e2);
		strip(&b, &t, 1);
		same_bytes(&t, &c, "JENC_SEQ output less its RS bytes");
	} else {
		c.len = 0;
		fz_buf_add(&c, b.p, b.len);
	}
	if (rc != 0)
		return;
	if (!fz_valid(c.p, c.len, 0))
		fz_fail("shaped output (flags 0x%x) is not valid JSON", q.flags);
	/* d: and not sorted */
	q.flags &= ~(unsigned)JENC_SORT_KEYS;
	if (o.flags & JENC_SORT_KEYS) {
		jenc_opts so = q;
		jenc_read_opts r0 = { 0, 0, NULL, NULL, NULL };

		(void)shaped(p, n, &q, ro, &d, &e2);
		if (d.len != c.len)
			fz_fail("sorted output is %zu bytes, unsorted %zu",
			    c.len, d.len);
		so.flags &= ~(unsigned)(JENC_SPLIT | JENC_SLURP);
		so.flags |= JENC_SORT_KEYS;
		if (shaped(c.p, c.len, &so, &r0, &t, &e2) != 0)
			fz_fail("sorting the sorted output failed");
		same_bytes(&t, &c, "sorted output sorted again");
	} else {
		d.len = 0;
		fz_buf_add(&d, c.p, c.len);
	}
	if (shape != 0) {
		jenc_opts co = q;
		jenc_read_opts r0 = { 0, 0, NULL, NULL, NULL };

		co.indent = 0;
		co.flags &= ~(unsigned)(JENC_TAB | JENC_SPLIT | JENC_SLURP);
		if (shaped(d.p, d.len, &co, &r0, &t, &e2) != 0)
			fz_fail("compacting the shaped output failed");
		ref_shape(compact, shape, &c);
		same_bytes(&t, &c, "split/slurped output vs the reference");
	}
}

static void
check_single(int rc, const jenc_err *err, int prc)
{
	static const char after[] =
	    "expected end of input after the value, found ";
	size_t nv = prc == 0 ? fz_count_values(plain.p, plain.len) : 0;

	if (rc == 0 && (prc != 0 || nv != 1))
		fz_fail("JENC_READ_SINGLE accepted what the stream reader "
		    "sees as %zu values (rc %d)", nv, prc);
	if (rc != 0 && prc == 0 && nv == 1)
		fz_fail("JENC_READ_SINGLE rejected one value: %s", err->msg);
	if (rc != 0 && prc == 0 && nv == 0 &&
	    strcmp(err->msg, "expected value, found end of input") != 0)
		fz_fail("JENC_READ_SINGLE on no value says '%s'", err->msg);
	if (rc != 0 && prc == 0 && nv > 1 &&
	    strncmp(err->msg, after, strlen(after)) != 0)
		fz_fail("JENC_READ_SINGLE on %zu values says '%s'", nv,
		    err->msg);
}

static void
count_bad(void *ctx, const jenc_err *err)
{
	if (err->code != JENC_E_SYNTAX && err->code != JENC_E_DEPTH)
		fz_fail("on_error got code %d", err->code);
	if (err->lines == 0)
		fz_fail("on_error: bad text of no line");
	++*(unsigned long *)ctx;
}

/*
 * JENC_READ_SKIP or JENC_READ_PASS (and JENC_READ_SEQ), picked by the
 * last input byte: bad input never ends the read; valid input gives what
 * the plain read gives; under SKIP every output value is valid.
 */
static void
check_policy(const char *p, size_t n, unsigned pick, unsigned max_depth,
    int prc)
{
	jenc_opts e0 = { 0, 0, 0 };
	jenc_read_opts ro = { 0 };
	unsigned long bad = 0;
	jenc_err err;
	int rc;

	ro.flags = (pick & 1 ? JENC_READ_PASS : JENC_READ_SKIP) |
	    (pick & 2 ? JENC_READ_SEQ : 0);
	ro.max_depth = max_depth;	/* as the plain read's */
	ro.on_error = count_bad;
	ro.ctx = &bad;
	rc = fz_json(p, n, &e0, &ro, &tmp, &err);
	if (rc != 0)
		fz_fail("%s ended the read: %d '%s'", pick & 1 ? "PASS" :
		    "SKIP", rc, err.msg);
	if (tmp.len != 0 && tmp.p[tmp.len - 1] != '\n')
		fz_fail("policy output does not end in a newline");
	if ((bad != 0) != (err.code != 0))
		fz_fail("%lu errors told, first error code %d", bad, err.code);
	if (!(pick & 1) && !fz_valid(tmp.p, tmp.len, 0))
		fz_fail("SKIP output is not valid JSON");
	if (!(pick & 2) && prc == 0 &&
	    (bad != 0 || tmp.len != plain.len ||
	    (tmp.len != 0 && memcmp(tmp.p, plain.p, tmp.len) != 0)))
		fz_fail("a policy changed the output of valid input");
	if (!(pick & 2) && prc != 0 && bad == 0)
		fz_fail("bad input with no error told");
}

static int
par_sink(void *ctx, const char *p, size_t n)
{
	fz_buf_add(ctx, p, n);
	return 0;
}

/*
 * Half the texts with a line end, from the hash: jenc_json_copy_fd_par
 * on two threads, over a pipe fed in pieces or a file, cut into chunks
 * of 16 bytes to a quarter of the text, gives what jenc_json_copy_mem gives: the same
 * code, error, bad texts told and output.  From the hash: no policy, SKIP
 * or PASS; a memory encoder or a sink encoder (each side the same, with
 * JENC_HOLD for a sink encoder: without it, how much of a bad value
 * reaches the sink depends on the buffers' sizes).
 */
static void
check_par(const char *p, size_t n, const jenc_opts *eo,
    const jenc_read_opts *ro, uint32_t seed)
{
	jenc_opts po = *eo;
	jenc_read_opts pr = *ro;
	unsigned long bad_mem = 0, bad_par = 0;
	int sink = (seed >> 2) & 1, mrc, prc;
	jenc_err merr, perr;
	struct fz_json_fd r;
	jenc_enc *e;

	/* threads only for a text with line ends to cut at; and half of
	 * those, for the time threads take to start */
	if (n == 0 || memchr(p, '\n', n) == NULL || (seed >> 20) % 2 != 0)
		return;
	if (seed & 1)
		pr.flags |= (seed & 2) ? JENC_READ_PASS : JENC_READ_SKIP;
	pr.on_error = count_bad;
	if (sink || ((seed >> 3) & 1))
		po.flags |= JENC_HOLD;
	pr.ctx = &bad_mem;
	pref.len = pout.len = 0;
	memset(&merr, 0, sizeof(merr));
	memset(&perr, 0, sizeof(perr));
	e = sink ? jenc_get_sink(par_sink, &pref, &po) : jenc_get_mem(&po);
	if (e == NULL)
		fz_fail("jenc_get_%s returned NULL", sink ? "sink" : "mem");
	mrc = jenc_json_copy_mem(p, n, e, &pr, &merr);
	if (!sink)
		fz_take(e, &pref);
	(void)jenc_release(e);

	pr.ctx = &bad_par;
	r.e = sink ? jenc_get_sink(par_sink, &pout, &po) : jenc_get_mem(&po);
	if (r.e == NULL)
		fz_fail("jenc_get_%s returned NULL", sink ? "sink" : "mem");
	r.ro = &pr;
	r.err = &perr;
	/* a few chunks at least, or the input is read on one thread */
	r.n = 16 + (seed >> 4) % (n / 4 + 1);
	if ((seed >> 15) % 4 == 0) {
		prc = fz_pipe_run(p, n, seed, fz_json_par_run, &r);
	} else {
		/* a regular file: cut where the chunks are full, not where
		 * the pipe is empty, and faster to run */
		int fd = memfd_create("fuzz_par", 0);

		if (fd < 0 || (n > 0 && write(fd, p, n) != (ssize_t)n) ||
		    lseek(fd, 0, SEEK_SET) != 0)
			fz_fail("memfd: %s", strerror(errno));
		prc = fz_json_par_run(fd, &r);
		close(fd);
	}
	if (!sink)
		fz_take(r.e, &pout);
	(void)jenc_release(r.e);
	if (prc != mrc)
		fz_fail("jenc_json_copy_fd_par returned %d, _mem %d (%s / %s)",
		    prc, mrc, perr.msg, merr.msg);
	if (mrc != 0 || merr.code != 0)
		fz_expect_same_err(&perr, &merr, "jenc_json_copy_fd_par/_mem", 1);
	if (bad_par != bad_mem)
		fz_fail("jenc_json_copy_fd_par told %lu bad texts, _mem %lu",
		    bad_par, bad_mem);
	same_bytes(&pout, &pref, "jenc_json_copy_fd_par vs _mem output");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned ns[4] = { 1, 2, 4, 16 }, ds[4] = { 1, 2, 3, 8 };
	jenc_opts eo = { 0, 0, 0 }, ec = { 0, 0, 0 }, e0 = { 0, 0, 0 };
	jenc_read_opts ro = { 0 }, rs;
	jenc_err err, perr, terr;
	unsigned mode, layout, sel, escf;
	const char *p, *why;
	size_t n, where;
	int rc, prc, r;

	/* UTF-16 and UTF-32 input: fuzz_conv.c */
	if (size < 1 || fz_wide_start((const char *)data + 1, size - 1))
		return 0;
	FZ_BEGIN();
	mode = data[0];
	p = (const char *)data + 1;
	n = size - 1;
	layout = mode & 3;
	sel = (mode >> 2) & 3;
	escf = (mode & 0x10 ? JENC_HTML : 0) | (mode & 0x20 ? JENC_ASCII : 0) |
	    (mode & 0x40 ? JENC_LOWER_HEX : 0);
	eo.flags = ec.flags = escf;
	if (layout == 1)
		eo.indent = ns[sel];
	else if (layout == 2)
		eo.flags |= JENC_TAB;
	else if (layout == 3)
		ro.max_depth = ds[sel];
	ro.flags = mode & 0x80 ? JENC_READ_SINGLE : 0;
	rs = ro;
	rs.flags = 0;

	rc = fz_json(p, n, &eo, &ro, &out, &err);
	prc = fz_json(p, n, &e0, &rs, &plain, &perr);
	check_policy(p, n, data[size - 1], rs.max_depth, prc);
	if (ro.flags & JENC_READ_SINGLE)
		check_single(rc, &err, prc);
	else if (rc != prc)
		fz_fail("output options changed the result: %d '%s' vs %d "
		    "'%s'", rc, err.msg, prc, perr.msg);
	else if (rc != 0)
		fz_expect_same_err(&err, &perr, "output mode/plain compact", 0);

	if (rc != 0) {
		fz_check_err(&err, rc, p, n, 0);
		fz_check_json_err(&err, p, n, ro.max_depth);
		if (out.len != 0 && !fz_valid(out.p, out.len, 0))
			fz_fail("output held after an error is not valid "
			    "JSON");
		check_fd(p, n, &eo, &ro, rc, &err, fz_hash(data, size));
		check_par(p, n, &eo, &ro, fz_hash(data, size));
		check_shaping(p, n, &eo, &ro, rc, &err, NULL,
		    fz_hash(data, size));
		return 0;
	}

	if (out.len != 0 && out.p[out.len - 1] != '\n')
		fz_fail("output does not end in a newline");
	if (!fz_valid(out.p, out.len, ro.flags))
		fz_fail("output is not accepted again");
	if ((why = fz_flags_violation(out.p, out.len, escf, &where)) != NULL)
		fz_fail("%s at output offset %zu", why, where);

	/* fixpoint */
	r = fz_json(out.p, out.len, &eo, &ro, &tmp, &terr);
	if (r != 0)
		fz_fail("re-encoding the output failed: %s", terr.msg);
	same_bytes(&tmp, &out, "re-encoded output (fixpoint)");

	/* compact with the same escapes, from the input and the output */
	if (layout == 0 || layout == 3) {
		comp.len = 0;
		fz_buf_add(&comp, out.p, out.len);
	} else if (fz_json(p, n, &ec, &ro, &comp, &terr) != 0) {
		fz_fail("compact encoding failed: %s", terr.msg);
	}
	if (fz_json(out.p, out.len, &ec, &ro, &tmp, &terr) != 0)
		fz_fail("compacting the output failed: %s", terr.msg);
	same_bytes(&tmp, &comp, "compact(output) vs compact(input)");

	/* indent: Go's json.Indent of the compact text */
	if (layout == 1 || layout == 2) {
		static const char sp[] = "                ";

		ref.len = 0;
		if (layout == 1)
			fz_ref_indent(comp.p, comp.len, sp, eo.indent, &ref);
		else
			fz_ref_indent(comp.p, comp.len, "\t", 1, &ref);
		same_bytes(&out, &ref, "output vs json.Indent(compact)");
	}

	/* escapes change representation, not values */
	if (escf & (JENC_HTML | JENC_ASCII)) {
		if (!fz_same_value(plain.p, plain.len, comp.p, comp.len,
		    &where))
			fz_fail("escaped output holds other values than the "
			    "plain one (plain offset %zu)", where);
		if (escf & JENC_LOWER_HEX) {
			jenc_opts eu = ec;

			eu.flags &= ~(unsigned)JENC_LOWER_HEX;
			if (fz_json(p, n, &eu, &ro, &tmp, &terr) != 0)
				fz_fail("encoding without JENC_LOWER_HEX "
				    "failed");
			lower_hex_only(&comp, &tmp);
		}
	} else {
		same_bytes(&comp, &plain, "compact output vs plain compact");
	}
	check_fd(p, n, &eo, &ro, rc, &err, fz_hash(data, size));
	check_par(p, n, &eo, &ro, fz_hash(data, size));
	check_shaping(p, n, &eo, &ro, rc, &err, &comp, fz_hash(data, size));
	return 0;
}
