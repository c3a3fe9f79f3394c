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
 * And a third reading, on two threads (jenc_json_pipe: a second thread
 * reads and tokenizes, lib/pipe.c), reading 1 to 4096 bytes at a time
 * (from the seed), from memory or the same pipe.
 *
 * Property: the three readings give the same result, the same error
 * (code, offset, line, column, message, excerpt, caret, lines, passed,
 * cut), the same on_error reports and the same bytes at the sink, all of
 * them, those written before an error too.  And each classifier skel.c has on
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

static struct side fast, exact, two;
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

/* fz_pipe_run's job: the reader on two threads over fd, the scout
 * reading t->n bytes at a time. */
static int
two_fd_run(int fd, void *ctx)
{
	struct fz_json_fd *t = ctx;

	return jenc_json_pipe(fd, NULL, 0, 0, 1, t->e, t->ro, t->err, t->n);
}

/* One reading of the text into s: from memory or the pipe; on one
 * thread, or on two (threads), the second reading 1 to 4096 bytes at a
 * time. */
static void
run(struct side *s, const jenc_opts *eo, jenc_read_opts ro, int pipe,
    uint32_t seed, int threads)
{
	size_t piece = 1 + seed % 4096;
	jenc_enc *e;

	s->out.len = 0;
	s->reports.len = 0;
	memset(&s->err, 0, sizeof(s->err));
	ro.on_error = on_bad;
	ro.ctx = s;
	e = jenc_get_sink(sink, &s->out, eo);
	if (e == NULL)
		fz_fail("jenc_get_sink failed");
	if (pipe && threads) {
		struct fz_json_fd t = { e, &ro, &s->err, piece };

		s->rc = fz_pipe_run(text.p, text.len, seed, two_fd_run, &t);
	} else if (pipe) {
		struct fz_json_fd fr = { e, &ro, &s->err, 0 };

		s->rc = fz_pipe_run(text.p, text.len, seed, fz_json_fd_run,
		    &fr);
	} else if (threads) {
		s->rc = jenc_json_pipe(-1, text.p, text.len, 0, 1, e, &ro,
		    &s->err, piece);
	} else {
		s->rc = jenc_json_copy_mem(text.p, text.len, e, &ro, &s->err);
	}
	(void)jenc_flush(e);
	(void)jenc_release(e);
}

static void
same_sides(const struct side *a, const struct side *b, const char *what)
{
	if (a->rc != b->rc)
		fz_fail("%s: result %d, %d", what, a->rc, b->rc);
	fz_expect_same_err(&a->err, &b->err, what, 0);
	if (a->err.lines != b->err.lines || a->err.passed != b->err.passed ||
	    a->err.cut != b->err.cut)
		fz_fail("%s: lines %llu/%llu, passed %d/%d, cut %d/%d", what,
		    (unsigned long long)a->err.lines,
		    (unsigned long long)b->err.lines, a->err.passed,
		    b->err.passed, a->err.cut, b->err.cut);
	if (a->reports.len != b->reports.len)
		fz_fail("%s: %zu on_error reports, %zu", what,
		    a->reports.len / sizeof(jenc_err),
		    b->reports.len / sizeof(jenc_err));
	for (size_t i = 0; i < a->reports.len / sizeof(jenc_err); i++) {
		const jenc_err *x = (const jenc_err *)(const void *)a->reports.p + i;
		const jenc_err *y = (const jenc_err *)(const void *)b->reports.p + i;

		/* a report's excerpt shows what the window held of its line
		 * when the reader met the error, which depends on where the
		 * reads ended: the rest must be the same */
		if (x->code != y->code || x->offset != y->offset ||
		    x->line != y->line || x->col != y->col ||
		    strcmp(x->msg, y->msg) != 0 ||
		    x->lines != y->lines || x->passed != y->passed ||
		    x->cut != y->cut)
			fz_fail("%s: report %zu: offset %llu/%llu, msg '%s' / "
			    "'%s', lines %llu/%llu, passed %d/%d, cut %d/%d",
			    what, i, (unsigned long long)x->offset,
			    (unsigned long long)y->offset, x->msg, y->msg,
			    (unsigned long long)x->lines,
			    (unsigned long long)y->lines, x->passed, y->passed,
			    x->cut, y->cut);
	}
	if (!fz_buf_eq(&a->out, 0, b->out.p, b->out.len))
		fz_fail("%s: output differs: %zu bytes, %zu", what,
		    a->out.len, b->out.len);
}

static void
same_skeletons(void)
{
	static char s0[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	static char s1[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	static uint32_t m0[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	static uint32_t m1[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
	size_t n = text.len < JENC_SKEL_MAX ? text.len : JENC_SKEL_MAX;
	size_t l0 = 0, l1 = 0, b0 = 0, b1 = 0;
	int isa, r0, r1;

	jenc_skel_use(JENC_SKEL_SCALAR);
	r0 = jenc_skel(text.p, n, s0, m0, &l0, &b0);
	for (isa = JENC_SKEL_SSE2; isa <= JENC_SKEL_LAST; isa++) {
		if (jenc_skel_use(isa) != isa)
			continue;
		r1 = jenc_skel(text.p, n, s1, m1, &l1, &b1);
		if (r1 != r0 || (r0 == 0 && (b1 != b0 || l1 != l0 ||
		    memcmp(s0, s1, l0) != 0 ||
		    memcmp(m0, m1, l0 * sizeof(uint32_t)) != 0)))
			fz_fail("classifier %d: %d, covers %zu bytes, skeleton "
			    "of %zu; the portable one %d, %zu, %zu", isa, r1,
			    b1, l1, r0, b0, l0);
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

	run(&fast, &eo, ro, p & 8, seed, 0);
	run(&two, &eo, ro, p & 8, seed, 1);
	ro.flags |= JENC_READ_EXACT;
	run(&exact, &eo, ro, p & 8, seed, 0);
	same_sides(&fast, &exact, "skeleton vs text");
	same_sides(&fast, &two, "one thread vs two");
	same_skeletons();
	return 0;
}
