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
 *   hash gives the same code, error and output as jenc_json_copy_mem.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_util.h"
#include "jenc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fz_buf out, plain, comp, tmp, ref;

struct fd_run {
	jenc_enc *e;
	const jenc_read_opts *ro;
	jenc_err *err;
};

static int
run_fd(int fd, void *ctx)
{
	struct fd_run *r = ctx;

	return jenc_json_copy_fd(fd, r->e, r->ro, r->err);
}

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
	struct fd_run r;
	int frc;

	memset(&ferr, 0, sizeof(ferr));
	r.e = jenc_get_mem(eo);
	if (r.e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	r.ro = ro;
	r.err = &ferr;
	frc = fz_pipe_run(p, n, seed, run_fd, &r);
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

	if (size < 1)
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
	return 0;
}
