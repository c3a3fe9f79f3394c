/*
 * fuzz_skel.c - libFuzzer harness: the JSON reader over skeletons
 * (lib/skel.c) against the reader over the text (JENC_READ_EXACT).
 *
 * Input: two bytes, then the JSON text.
 *	byte 0, bits 0-1: layout (compact, indent 2, tab, compact with
 *	    JENC_HTML | JENC_ASCII); bits 2-4: shaping (none, JENC_SORT_KEYS,
 *	    JENC_SPLIT, JENC_SLURP, JENC_SEQ, JENC_FLUSH_EACH, no JENC_HOLD,
 *	    JENC_SORT_KEYS | JENC_SPLIT); bits 5-7: max_depth 0 (10000) or
 *	    1, 2, 3, 8, 64, 300, 5000
 *	byte 1, bits 0-2: policy (stop, JENC_READ_SKIP, JENC_READ_PASS,
 *	    JENC_READ_SINGLE, JENC_READ_SEQ, SEQ | SKIP, SEQ | PASS, SINGLE |
 *	    SKIP); bit 3: from a pipe fed in chunks (the seed from the
 *	    input's hash) instead of from memory; bits 4-7: the text is
 *	    repeated 1 + N times (so that it spans skeleton pieces and, from
 *	    a pipe, windows)
 *
 * Property: the two readings give the same result, the same error (code,
 * offset, line, column, message, excerpt, caret, lines, passed, cut), the
 * same on_error reports and the same bytes at the sink, all of them,
 * those written before an error too.  And each classifier skel.c has on
 * this processor gives the portable one's skeleton of the text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct side {
	fz_buf out;
	int rc;
	jenc_err err;
	fz_buf reports;
};

static struct side fast, exact;
static fz_buf text;

static int
sink(void *ctx, const char *buf, size_t len)
{
	fz_buf_add(ctx, buf, len);
	return 0;
}

static void
on_bad(void *ctx, const jenc_err *err)
{
	struct side *s = ctx;

	fz_buf_add(&s->reports, err, sizeof(*err));
}

static void
run(struct side *s, const jenc_opts *eo, jenc_read_opts ro, int pipe,
    uint32_t seed)
{
	jenc_enc *e;

	s->out.len = 0;
	s->reports.len = 0;
	memset(&s->err, 0, sizeof(s->err));
	ro.on_error = on_bad;
	ro.ctx = s;
	e = jenc_get_sink(sink, &s->out, eo);
	if (e == NULL)
		fz_fail("jenc_get_sink failed");
	if (pipe) {
		struct fz_json_fd fr = { e, &ro, &s->err };

		s->rc = fz_pipe_run(text.p, text.len, seed, fz_json_fd_run,
		    &fr);
	} else {
		s->rc = jenc_json_copy_mem(text.p, text.len, e, &ro, &s->err);
	}
	(void)jenc_flush(e);
	(void)jenc_release(e);
}

static void
same_skeletons(void)
{
	static char s0[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	static char s1[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	static uint32_t m0[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	static uint32_t m1[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	size_t n = text.len < JENC_SKEL_MAX ? text.len : JENC_SKEL_MAX;
	size_t l0 = 0, l1 = 0, b0, b1;
	int isa;

	jenc_skel_use(JENC_SKEL_SCALAR);
	b0 = jenc_skel(text.p, n, s0, m0, &l0);
	for (isa = JENC_SKEL_SSE2; isa <= JENC_SKEL_VBMI2; isa++) {
		if (jenc_skel_use(isa) != isa)
			continue;
		b1 = jenc_skel(text.p, n, s1, m1, &l1);
		if (b1 != b0 || (b0 != (size_t)-1 && (l1 != l0 ||
		    memcmp(s0, s1, l0) != 0 ||
		    memcmp(m0, m1, l0 * sizeof(uint32_t)) != 0)))
			fz_fail("classifier %d: covers %zu bytes, skeleton of "
			    "%zu; the portable one %zu, %zu", isa, b1, l1, b0,
			    l0);
	}
	jenc_skel_use(-1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned shaping[] = {
		0, JENC_SORT_KEYS, JENC_SPLIT, JENC_SLURP, JENC_SEQ,
		JENC_FLUSH_EACH, 0, JENC_SORT_KEYS | JENC_SPLIT,
	};
	static const unsigned depths[] = { 0, 1, 2, 3, 8, 64, 300, 5000 };
	static const unsigned policies[] = {
		0, JENC_READ_SKIP, JENC_READ_PASS, JENC_READ_SINGLE,
		JENC_READ_SEQ, JENC_READ_SEQ | JENC_READ_SKIP,
		JENC_READ_SEQ | JENC_READ_PASS,
		JENC_READ_SINGLE | JENC_READ_SKIP,
	};
	jenc_opts eo;
	jenc_read_opts ro;
	unsigned m, p, rep, i;
	uint32_t seed;

	if (size < 2)
		return 0;
	FZ_BEGIN();
	m = data[0];
	p = data[1];
	data += 2;
	size -= 2;
	text.len = 0;
	for (rep = 1 + (p >> 4), i = 0; i < rep; i++)
		fz_buf_add(&text, data, size);
	memset(&eo, 0, sizeof(eo));
	eo.flags = JENC_LOWER_HEX | JENC_HOLD;
	switch (m & 3) {
	case 1:
		eo.indent = 2;
		break;
	case 2:
		eo.flags |= JENC_TAB;
		break;
	case 3:
		eo.flags |= JENC_HTML | JENC_ASCII;
		break;
	}
	eo.flags |= shaping[(m >> 2) & 7];
	if (((m >> 2) & 7) == 6)
		eo.flags &= ~(unsigned)JENC_HOLD;
	memset(&ro, 0, sizeof(ro));
	ro.max_depth = depths[m >> 5];
	ro.flags = policies[p & 7];
	seed = fz_hash(data, size);

	run(&fast, &eo, ro, p & 8, seed);
	ro.flags |= JENC_READ_EXACT;
	run(&exact, &eo, ro, p & 8, seed);
	if (fast.rc != exact.rc)
		fz_fail("result %d over skeletons, %d over the text", fast.rc,
		    exact.rc);
	fz_expect_same_err(&fast.err, &exact.err, "skeleton vs text", 0);
	if (fast.err.lines != exact.err.lines ||
	    fast.err.passed != exact.err.passed ||
	    fast.err.cut != exact.err.cut)
		fz_fail("lines %llu/%llu, passed %d/%d, cut %d/%d",
		    (unsigned long long)fast.err.lines,
		    (unsigned long long)exact.err.lines, fast.err.passed,
		    exact.err.passed, fast.err.cut, exact.err.cut);
	if (!fz_buf_eq(&fast.reports, 0, exact.reports.p, exact.reports.len))
		fz_fail("on_error reports differ (%zu vs %zu bytes)",
		    fast.reports.len, exact.reports.len);
	if (!fz_buf_eq(&fast.out, 0, exact.out.p, exact.out.len))
		fz_fail("output differs: %zu bytes over skeletons, %zu over "
		    "the text", fast.out.len, exact.out.len);
	same_skeletons();
	return 0;
}
