/*
 * harness.h - a tiny unit test harness (after sds's testhelp.h).
 *
 *	TEST("jenc_str escapes quotes") {
 *		CHECK(x == 1);
 *		CHECK_STR(out, len, "\"a\"");
 *	}
 *	return harness_done();
 *
 * Every CHECK counts as one test; a failure prints file:line, the test name
 * and the expression.  harness_done() prints "N passed, N failed" and returns
 * the exit status.
 */
#ifndef JENC_HARNESS_H
#define JENC_HARNESS_H

#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed;
static const char *harness_name = "";

#define TEST(name) for (int harness_once_ = (harness_name = (name), 1); \
			harness_once_; harness_once_ = 0)

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
	printf("%d passed, %d failed\n", harness_passed, harness_failed);
	return harness_failed ? 1 : 0;
}

#endif
