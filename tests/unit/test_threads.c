/*
 * test_threads.c - the pools shared by 8 threads: each thread gets, fills,
 * reads and releases 10,000 memory encoders with its own options and checks
 * every output byte for byte.  Every 100th output spans several segments
 * of every size class, and one thread trims the pools now and then.
 *
 * Also meant to be run built with -fsanitize=thread.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "jenc.h"

#define NTHREADS 8
#define CYCLES 10000
#define NBIG 25
#define BIGLEN 4000

/* The small document, and what each thread's options make of it (%d is
 * the cycle number). */
#define S_IN "<\xc3\xa9\xf0\x9f\x98\x80>\n"

static const struct {
	unsigned indent, flags;
	const char *fmt;
} cfg[NTHREADS] = {
	{ 0, 0, "{\"n\":%d,\"s\":\"<\xc3\xa9\xf0\x9f\x98\x80>\\n\","
	    "\"a\":[1,-2,0.5],\"e\":{}}\n" },
	{ 2, 0, "{\n  \"n\": %d,\n  \"s\": \"<\xc3\xa9\xf0\x9f\x98\x80>\\n\",\n"
	    "  \"a\": [\n    1,\n    -2,\n    0.5\n  ],\n  \"e\": {}\n}\n" },
	{ 0, JENC_TAB, "{\n\t\"n\": %d,\n\t\"s\": \"<\xc3\xa9\xf0\x9f\x98\x80>"
	    "\\n\",\n\t\"a\": [\n\t\t1,\n\t\t-2,\n\t\t0.5\n\t],\n"
	    "\t\"e\": {}\n}\n" },
	{ 0, JENC_HTML, "{\"n\":%d,\"s\":\"\\u003C\xc3\xa9\xf0\x9f\x98\x80"
	    "\\u003E\\n\",\"a\":[1,-2,0.5],\"e\":{}}\n" },
	{ 0, JENC_ASCII, "{\"n\":%d,\"s\":\"<\\u00E9\\uD83D\\uDE00>\\n\","
	    "\"a\":[1,-2,0.5],\"e\":{}}\n" },
	{ 0, JENC_ASCII | JENC_HTML | JENC_LOWER_HEX, "{\"n\":%d,\"s\":"
	    "\"\\u003c\\u00e9\\ud83d\\ude00\\u003e\\n\",\"a\":[1,-2,0.5],"
	    "\"e\":{}}\n" },
	{ 0, JENC_NO_NEWLINE, "{\"n\":%d,\"s\":\"<\xc3\xa9\xf0\x9f\x98\x80>"
	    "\\n\",\"a\":[1,-2,0.5],\"e\":{}}" },
	{ 4, JENC_HOLD, "{\n    \"n\": %d,\n    \"s\": \"<\xc3\xa9\xf0\x9f"
	    "\x98\x80>\\n\",\n    \"a\": [\n        1,\n        -2,\n"
	    "        0.5\n    ],\n    \"e\": {}\n}\n" },
};

static char big_in[BIGLEN];

struct worker {
	int id;
	int bad;	/* outputs that differ */
	int errs;	/* calls that failed */
	char *big_want;
	size_t big_len;
};

static void
small_doc(jenc_enc *e, int i, int *errs)
{
	*errs += jenc_obj_begin(e) != 0;
	*errs += jenc_kv_i64(e, "n", 1, i) != 0;
	*errs += jenc_kv_str(e, "s", 1, S_IN, strlen(S_IN)) != 0;
	*errs += jenc_key(e, "a", 1) != 0;
	*errs += jenc_arr_begin(e) != 0;
	*errs += jenc_i64(e, 1) != 0;
	*errs += jenc_i64(e, -2) != 0;
	*errs += jenc_f64(e, 0.5) != 0;
	*errs += jenc_arr_end(e) != 0;
	*errs += jenc_key(e, "e", 1) != 0;
	*errs += jenc_obj_begin(e) != 0;
	*errs += jenc_obj_end(e) != 0;
	*errs += jenc_obj_end(e) != 0;
}

/* big_doc - an array of NBIG strings of BIGLEN bytes (about 100 KB). */
static void
big_doc(jenc_enc *e, int *errs)
{
	*errs += jenc_arr_begin(e) != 0;
	for (int j = 0; j < NBIG; j++)
		*errs += jenc_str(e, big_in, BIGLEN) != 0;
	*errs += jenc_arr_end(e) != 0;
}

/* The expected text of big_doc under the worker's options. */
static void
make_big_want(struct worker *w)
{
	unsigned indent = cfg[w->id].indent, flags = cfg[w->id].flags;
	const char *ind = (flags & JENC_TAB) ? "\t" : "";
	char *p;

	if (!(flags & JENC_TAB) && indent > 0)
		ind = indent == 2 ? "  " : "    ";
	w->big_want = malloc(NBIG * (BIGLEN + 16) + 16);
	if (w->big_want == NULL)
		abort();
	p = w->big_want;
	*p++ = '[';
	for (int j = 0; j < NBIG; j++) {
		if (j > 0)
			*p++ = ',';
		if (*ind != '\0') {
			*p++ = '\n';
			memcpy(p, ind, strlen(ind));
			p += strlen(ind);
		}
		*p++ = '"';
		memcpy(p, big_in, BIGLEN);
		p += BIGLEN;
		*p++ = '"';
	}
	if (*ind != '\0')
		*p++ = '\n';
	*p++ = ']';
	if (!(flags & JENC_NO_NEWLINE))
		*p++ = '\n';
	w->big_len = (size_t)(p - w->big_want);
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	jenc_opts o = { cfg[w->id].indent, cfg[w->id].flags, 0 };
	char want[512], *got = malloc(NBIG * (BIGLEN + 16) + 16);
	size_t gotlen, wantlen, it, len;
	const char *seg;
	jenc_enc *e;

	if (got == NULL)
		abort();
	make_big_want(w);
	for (int i = 0; i < CYCLES; i++) {
		int big = i % 100 == 99;

		if ((e = jenc_get_mem(&o)) == NULL) {
			w->errs++;
			continue;
		}
		if (big) {
			big_doc(e, &w->errs);
		} else {
			small_doc(e, i, &w->errs);
			snprintf(want, sizeof want, cfg[w->id].fmt, i);
		}
		if (i % 2 == 0) {
			char *t = jenc_take(e, &gotlen);

			if (t == NULL) {
				w->errs++;
				gotlen = 0;
			} else {
				memcpy(got, t, gotlen);
				free(t);
			}
		} else {
			it = 0;
			gotlen = 0;
			while ((seg = jenc_segments(e, &it, &len)) != NULL) {
				memcpy(got + gotlen, seg, len);
				gotlen += len;
			}
		}
		w->errs += jenc_release(e) != 0;
		wantlen = big ? w->big_len : strlen(want);
		if (gotlen != wantlen ||
		    memcmp(got, big ? w->big_want : want, wantlen) != 0)
			w->bad++;
		if (w->id == 0 && i % 1000 == 500)
			jenc_pool_trim();
	}
	free(got);
	return NULL;
}

int
main(void)
{
	struct worker w[NTHREADS];
	pthread_t th[NTHREADS];
	jenc_pool_stats st;

	for (int j = 0; j < BIGLEN; j++)
		big_in[j] = (char)('a' + j % 26);
	memset(w, 0, sizeof w);
	TEST("8 threads, 10,000 encoders each, exact output") {
		for (int t = 0; t < NTHREADS; t++) {
			w[t].id = t;
			CHECK_EQ(pthread_create(&th[t], NULL, work, &w[t]), 0);
		}
		for (int t = 0; t < NTHREADS; t++)
			CHECK_EQ(pthread_join(th[t], NULL), 0);
		for (int t = 0; t < NTHREADS; t++) {
			CHECK_EQ(w[t].errs, 0);
			CHECK_EQ(w[t].bad, 0);
			free(w[t].big_want);
		}
	}
	TEST("the pools are consistent afterwards") {
		jenc_pool_stats_get(&st);
		CHECK(st.held_bytes <= st.held_segments * 65536 + 65536);
		jenc_pool_trim();
		jenc_pool_stats_get(&st);
		CHECK_EQ(st.held_bytes, 0);
		CHECK_EQ(st.held_segments, 0);
	}
	return harness_done();
}
