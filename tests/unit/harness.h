/*
 * harness.h - a tiny unit test harness (after sds's testhelp.h).
 *
 *	TEST("jenc_str escapes quotes") {
 *		CHECK(x == 1);
 *		CHECK_STR(out, len, "\"a\"");
 *	}
 *	return harness_done();
 *
 * A TEST block is one named test (the name may be built at run time; it
 * must live until the block ends); each CHECK in it is one check.  A
 * failed check prints file:line, the test's name and what was wrong on
 * stderr.  harness_done() prints two lines on stdout and returns the exit
 * status:
 *
 *	42 tests (1 failed), 1234 checks
 *	1232 passed, 2 failed
 *
 * The last line counts checks; `make check-unit` reads it, and shows
 * every other line a test binary prints, such as SKIP's.
 *
 * The environment picks the tests that run:
 *	TEST_ONLY=NAME	only the tests named NAME, or matching NAME as an
 *			fnmatch(3) pattern ('jenc_str*'); none is a failure
 *	TEST_LIST=1	print the name of each test, one a line; run none
 *	TEST_SKIP=PATS	not the tests whose name is one of PATS, or matches
 *			one as an fnmatch(3) pattern (one a line); their
 *			number is printed ("left out: ...").  make
 *			check-cross-ci leaves out the slowest under
 *			emulation (tests/cross/ci-skip)
 * Code outside TEST blocks runs either way.  From make:
 *	make check-unit T=test_enc N='jenc_depth'
 */
#ifndef JENC_HARNESS_H
#define JENC_HARNESS_H

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_passed, harness_failed;	/* checks */
static int harness_tests, harness_tests_failed, harness_tests_skipped;
static int harness_tests_left_out;		/* by TEST_SKIP */
static const char *harness_name = "";
static const char *harness_only;		/* TEST_ONLY */
static const char *harness_skip_pats;	/* TEST_SKIP */
static int harness_list;			/* TEST_LIST */
static int harness_open;			/* a test is running ... */
static int harness_failed_at;			/* ... since this many failed */

/* End the running test, if any (also when its block was left by break or
 * return), counting it as failed if a check in it failed. */
static void
harness_close(void)
{
	if (harness_open && harness_failed > harness_failed_at)
		harness_tests_failed++;
	harness_open = 0;
}

/* 1 if name is one of the lines of TEST_SKIP or matches one. */
static int
harness_left_out(const char *name)
{
	const char *p = harness_skip_pats;
	char pat[256];

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, "\n");

		if (n > 0 && n < sizeof(pat)) {
			memcpy(pat, p, n);
			pat[n] = '\0';
			if (strcmp(name, pat) == 0 || fnmatch(pat, name, 0) == 0)
				return 1;
		}
		p += n + (p[n] != '\0');
	}
	return 0;
}

/* Start the test called name: 1 if it is to run. */
static int
harness_begin(const char *name)
{
	static int looked;
	const char *s;

	if (!looked) {
		looked = 1;
		s = getenv("TEST_ONLY");
		harness_only = s != NULL && *s != '\0' ? s : NULL;
		s = getenv("TEST_LIST");
		harness_list = s != NULL && *s != '\0';
		harness_skip_pats = getenv("TEST_SKIP");
	}
	harness_close();
	if (harness_list) {
		printf("%s\n", name);
		return 0;
	}
	if (harness_only != NULL && strcmp(name, harness_only) != 0 &&
	    fnmatch(harness_only, name, 0) != 0)
		return 0;
	if (harness_left_out(name)) {
		harness_tests_left_out++;
		return 0;
	}
	harness_name = name;
	harness_tests++;
	harness_open = 1;
	harness_failed_at = harness_failed;
	return 1;
}

static int
harness_end(void)
{
	harness_close();
	return 0;
}

#define TEST(name) for (int harness_once_ = harness_begin(name); \
			harness_once_; harness_once_ = harness_end())

/* Stop the running test here, as not run: "skipped: NAME: why" on stdout
 * (make check-unit shows it), and the test is not counted.  A statement
 * of the TEST block itself (it breaks out of it), not of a loop in it. */
static inline void
harness_skip(const char *why)
{
	printf("skipped: %s: %s\n", harness_name, why);
	harness_tests--;
	harness_tests_skipped++;
	harness_open = 0;
}
#define SKIP(why) { harness_skip(why); break; }

#define CHECK(cond) do { \
	if (cond) { \
		harness_passed++; \
	} else { \
		harness_failed++; \
		fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, \
		    __LINE__, harness_name, #cond); \
	} \
} while (0)

/* CHECK_STR(p, n, "expected"): n bytes at p equal the C string. */
#define CHECK_STR(p, n, want) do { \
	const char *hs_p_ = (const char *)(p); \
	size_t hs_n_ = (size_t)(n), hs_wn_ = strlen(want); \
	if (hs_p_ != NULL && hs_n_ == hs_wn_ && memcmp(hs_p_, (want), hs_n_) == 0) { \
		harness_passed++; \
	} else { \
		harness_failed++; \
		fprintf(stderr, "%s:%d: %s: got [%.*s] (%zu bytes), want [%s]\n", \
		    __FILE__, __LINE__, harness_name, hs_p_ ? (int)hs_n_ : 0, \
		    hs_p_ ? hs_p_ : "", hs_n_, (want)); \
	} \
} while (0)

/* CHECK_TAKE(e, "expected"): jenc_take of the encoder e gives exactly that
 * (for the tests that include jenc.h; the block is freed). */
#define CHECK_TAKE(e, want) do { \
	size_t tn_ = 99999; \
	char *tp_ = jenc_take((e), &tn_); \
	CHECK_STR(tp_, tn_, (want)); \
	free(tp_); \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long he_a_ = (long long)(a), he_b_ = (long long)(b); \
	if (he_a_ == he_b_) { \
		harness_passed++; \
	} else { \
		harness_failed++; \
		fprintf(stderr, "%s:%d: %s: %s == %lld, want %lld\n", __FILE__, \
		    __LINE__, harness_name, #a, he_a_, he_b_); \
	} \
} while (0)

static int
harness_done(void)
{
	harness_close();
	if (harness_list)
		return 0;
	if (harness_tests_left_out > 0)
		printf("left out: %d test%s (TEST_SKIP)\n",
		    harness_tests_left_out, harness_tests_left_out == 1 ? "" :
		    "s");
	printf("%d test%s (%d failed), %d check%s\n", harness_tests,
	    harness_tests == 1 ? "" : "s", harness_tests_failed,
	    harness_passed + harness_failed,
	    harness_passed + harness_failed == 1 ? "" : "s");
	printf("%d passed, %d failed\n", harness_passed, harness_failed);
	if (harness_only != NULL && harness_tests == 0) {
		fprintf(stderr, "no test is named '%s' (TEST_LIST=1 lists "
		    "them)\n", harness_only);
		return 1;
	}
	return harness_failed ? 1 : 0;
}

/*
 * A growable buffer that output is appended to: harness_buf_put is a
 * jenc_sink_fn whose ctx is the buffer.  Start it zeroed; free(p).
 */
struct harness_buf {
	char *p;
	size_t len, cap;
};

static inline int
harness_buf_put(void *ctx, const char *p, size_t n)
{
	struct harness_buf *b = ctx;

	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			abort();
	}
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

#endif
