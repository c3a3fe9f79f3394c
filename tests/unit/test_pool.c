/*
 * test_pool.c - what the pools keep and what the library allocates:
 * a 100 MB output leaves less than 1 MiB behind once released, a steady
 * stream of small outputs makes no allocation once the pools are warm, and
 * jenc_take() of a multi-segment output is one allocation.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#endif

#if defined(TEST_ASAN)
#include <sanitizer/allocator_interface.h>
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#define TEST_MALLINFO2 1
#include <malloc.h>
#endif

/*
 * heap_in_use - bytes the process has allocated and not freed: glibc's
 * mallinfo2() in-use arena bytes plus mmap'd blocks, or ASan's own count
 * when built with ASan (which replaces malloc); -1 where neither is
 * there (musl, the BSDs, macOS: the checks that need it are skipped).
 */
static long long
heap_in_use(void)
{
#if defined(TEST_ASAN)
	return (long long)__sanitizer_get_current_allocated_bytes();
#elif defined(TEST_MALLINFO2)
	struct mallinfo2 mi = mallinfo2();

	return (long long)(mi.uordblks + mi.hblkhd);
#else
	return -1;
#endif
}

static uint64_t
mallocs(void)
{
	jenc_pool_stats st;

	jenc_pool_stats_get(&st);
	return st.mallocs;
}

static char outbuf[4096];

/* copy_out - e's bytes into outbuf (no allocation), or -1 if too long. */
static long
copy_out(const jenc_enc *e)
{
	const char *p;
	size_t it = 0, len, total = 0;

	while ((p = jenc_segments(e, &it, &len)) != NULL) {
		if (total + len >= sizeof outbuf)
			return -1;
		memcpy(outbuf + total, p, len);
		total += len;
	}
	outbuf[total] = '\0';
	return (long)total;
}

/* A sink that checks it is given exactly want, in pieces. */
struct expect_sink {
	const char *want;
	size_t off;
	int bad;
};

static int
expect_sink(void *ctx, const char *buf, size_t len)
{
	struct expect_sink *x = ctx;

	if (x->off + len > strlen(x->want) ||
	    memcmp(x->want + x->off, buf, len) != 0)
		x->bad = 1;
	x->off += len;
	return 0;
}

static void
small_doc(jenc_enc *e, int64_t i)
{
	jenc_obj_begin(e);
	jenc_kv_i64(e, "id", 2, i);
	jenc_kv_str(e, "name", 4, "<caf\xc3\xa9>", 7);
	jenc_key(e, "tags", 4);
	jenc_arr_begin(e);
	jenc_str(e, "a", 1);
	jenc_f64(e, 0.5);
	jenc_arr_end(e);
	jenc_obj_end(e);
}

static const char small_want[] =
    "{\"id\":7,\"name\":\"<caf\xc3\xa9>\",\"tags\":[\"a\",0.5]}\n";
static const char small_want_html_ascii[] =
    "{\n  \"id\": 7,\n  \"name\": \"\\u003Ccaf\\u00E9\\u003E\",\n"
    "  \"tags\": [\n    \"a\",\n    0.5\n  ]\n}\n";

static void
test_counters(void)
{
	jenc_pool_stats st0, st1;
	jenc_enc *e;

	TEST("jenc_pool_trim empties the pools") {
		jenc_pool_trim();
		jenc_pool_stats_get(&st0);
		CHECK_EQ(st0.held_bytes, 0);
		CHECK_EQ(st0.held_segments, 0);
	}
	TEST("cold pools allocate, and the pools keep what is released") {
		e = jenc_get_mem(NULL);
		CHECK(e != NULL);
		small_doc(e, 7);
		CHECK_EQ(copy_out(e), (long)strlen(small_want));
		CHECK_STR(outbuf, strlen(outbuf), small_want);
		CHECK_EQ(jenc_release(e), 0);
		jenc_pool_stats_get(&st1);
		CHECK(st1.mallocs > st0.mallocs);
		CHECK(st1.bytes > st0.bytes);
		CHECK(st1.held_segments >= 1);
		CHECK(st1.held_bytes >= st1.held_segments * 4096);
		CHECK(st1.held_bytes <= st1.held_segments * 65536 + 65536);
		jenc_pool_trim();
		jenc_pool_stats_get(&st0);
		CHECK_EQ(st0.held_bytes, 0);
		CHECK_EQ(st0.held_segments, 0);
		CHECK(st0.frees > st1.frees);
		CHECK_EQ(st0.mallocs, st1.mallocs);
	}
	TEST("pools never keep a segment larger than 64 KiB") {
		char *big = malloc(3000000);

		CHECK(big != NULL);
		memset(big, 'q', 3000000);
		jenc_pool_trim();
		e = jenc_get_mem(NULL);
		CHECK_EQ(jenc_str(e, big, 3000000), 0);
		CHECK_EQ(jenc_len(e), 3000003);
		CHECK_EQ(jenc_release(e), 0);
		jenc_pool_stats_get(&st1);
		CHECK(st1.held_bytes < 3000000);
		CHECK(st1.held_bytes <= st1.held_segments * 65536 + 65536);
		free(big);
	}
}

/*
 * One 100 MB output: ~97 MB in 1 KiB strings (segments up to 64 KiB) and
 * one 4 MB string (a segment of its own).
 */
static void
test_retention(void)
{
	char *s1 = malloc(1024), *s4 = malloc(4 << 20);
	long long before, after;
	jenc_pool_stats st;
	jenc_enc *e;
	size_t n = 0;
	int bad = 0;

	if (s1 == NULL || s4 == NULL)
		abort();
	memset(s1, 'r', 1024);
	memset(s4, 's', 4 << 20);
	TEST("a released 100 MB output leaves < 1 MiB allocated") {
		before = heap_in_use();
		if (before < 0)
			printf("skipped: the heap's size checks of '%s': no "
			    "mallinfo2() in this C library\n", harness_name);
		e = jenc_get_mem(NULL);
		CHECK_EQ(jenc_arr_begin(e), 0);
		for (int i = 0; i < 95000; i++)
			bad += jenc_str(e, s1, 1024) != 0;
		CHECK_EQ(bad, 0);
		CHECK_EQ(jenc_str(e, s4, 4 << 20), 0);
		CHECK_EQ(jenc_str(e, s1, 1024), 0);
		CHECK_EQ(jenc_arr_end(e), 0);
		n = jenc_len(e);
		CHECK_EQ(n, 95001 * 1027 + (4 << 20) + 5);
		CHECK(n > 100000000);
		if (before >= 0)
			CHECK(heap_in_use() - before > 100000000);
		CHECK_EQ(jenc_release(e), 0);
		after = heap_in_use();
		if (before >= 0)
			CHECK(after - before < 1024 * 1024);
		if (before >= 0 && after - before >= 1024 * 1024)
			fprintf(stderr, "retention: %lld bytes before, %lld "
			    "after\n", before, after);
		jenc_pool_stats_get(&st);
		CHECK(st.held_bytes < 1024 * 1024);
	}
	/*
	 * A 4 MB append gets a segment of its own; once written (fd, sink)
	 * or taken or reset (memory) the encoder does not keep it for the
	 * small values after it.
	 */
	for (int k = 0; k < 5; k++) {
		static const char *const how[] = { "flushed", "written on",
			"taken", "reset", "taken, as the first segment" };
		char name[96];
		jenc_opts hold = { 0, JENC_HOLD, 8 << 20 };
		int devnull = open("/dev/null", O_WRONLY);

		snprintf(name, sizeof(name), "a 4 MB append's segment is not "
		    "kept once %s", how[k]);
		TEST(name) {
			jenc_pool_trim();
			before = heap_in_use();
			if (before < 0)
				SKIP("no mallinfo2() in this C library");
			e = k < 2 ? jenc_get_fd(devnull, k ? &hold : NULL) :
			    jenc_get_mem(NULL);
			if (k < 4) {
				CHECK_EQ(jenc_str(e, s4, 4 << 20), 0);
			} else {	/* a number of 4 MB digits */
				memset(s4, '7', 4 << 20);
				CHECK_EQ(jenc_raw(e, s4, 4 << 20), 0);
			}
			if (k >= 2)	/* held: fd encoders write it */
				CHECK(heap_in_use() - before > 4 << 20);
			if (k == 0)
				CHECK_EQ(jenc_flush(e), 0);
			if (k == 2 || k == 4) {
				char *p = jenc_take(e, &n);

				CHECK_EQ(n, (4 << 20) + (k == 2 ? 3 : 1));
				jenc_free(p, n);
			}
			if (k == 3)
				jenc_reset(e);
			/* 100 KB, held by a memory encoder */
			for (int i = 0; i < 100; i++)
				bad += jenc_str(e, s1, 1024) != 0;
			CHECK_EQ(bad, 0);
			after = heap_in_use();
			CHECK(after - before < 1024 * 1024);
			if (after - before >= 1024 * 1024)
				fprintf(stderr, "retention: %lld bytes kept\n",
				    after - before);
			CHECK_EQ(jenc_release(e), 0);
		}
		close(devnull);
	}
	free(s1);
	free(s4);
}

static void
test_steady(void)
{
	jenc_opts ha = { 2, JENC_HTML | JENC_ASCII, 0 };
	jenc_opts hold = { 0, JENC_HOLD, 0 };
	struct expect_sink xs;
	uint64_t m0 = 0;
	jenc_enc *e;
	int bad, devnull = open("/dev/null", O_WRONLY);

	/* Warm up every path used below. */
	for (int i = 0; i < 100; i++) {
		jenc_enc *w[4];

		w[0] = jenc_get_mem(NULL);
		w[1] = jenc_get_mem(&ha);
		w[2] = jenc_get_fd(devnull, NULL);
		w[3] = jenc_get_sink(expect_sink, &xs, &hold);
		xs.want = "";
		xs.off = 0;
		xs.bad = 0;
		for (int j = 0; j < 4; j++) {
			if (j == 3)
				jenc_null(w[j]);
			else
				small_doc(w[j], 7);
			jenc_flush(w[j]);
			(void)copy_out(w[j]);
		}
		for (int j = 0; j < 4; j++)
			jenc_release(w[j]);
	}

	TEST("get/encode/release of memory encoders: no allocation") {
		bad = 0;
		m0 = mallocs();
		for (int i = 0; i < 10000; i++) {
			e = jenc_get_mem(i % 2 ? &ha : NULL);
			small_doc(e, 7);
			if (copy_out(e) < 0 || strcmp(outbuf, i % 2 ?
			    small_want_html_ascii : small_want) != 0)
				bad++;
			if (jenc_release(e) != 0)
				bad++;
		}
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(bad, 0);
	}

	TEST("32 encoders in use at once, 1000 times: no allocation") {
		jenc_enc *many[32];

		bad = 0;
		for (int round = 0; round < 1001; round++) {
			if (round == 1)
				m0 = mallocs();
			for (int j = 0; j < 32; j++) {
				many[j] = jenc_get_mem(NULL);
				small_doc(many[j], 7);
			}
			for (int j = 0; j < 32; j++) {
				if (copy_out(many[j]) < 0 ||
				    strcmp(outbuf, small_want) != 0)
					bad++;
				if (jenc_release(many[j]) != 0)
					bad++;
			}
		}
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(bad, 0);
	}

	TEST("one memory encoder, jenc_reset after each value: no allocation") {
		e = jenc_get_mem(NULL);
		small_doc(e, 7);
		jenc_reset(e);
		bad = 0;
		m0 = mallocs();
		for (int i = 0; i < 10000; i++) {
			small_doc(e, 7);
			if (copy_out(e) < 0 || strcmp(outbuf, small_want) != 0)
				bad++;
			jenc_reset(e);
		}
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(bad, 0);
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("get/encode/release of sink and fd encoders: no allocation") {
		bad = 0;
		m0 = mallocs();
		for (int i = 0; i < 10000; i++) {
			memset(&xs, 0, sizeof xs);
			xs.want = small_want;
			e = jenc_get_sink(expect_sink, &xs, i % 2 ? &hold : NULL);
			small_doc(e, 7);
			if (jenc_release(e) != 0 || xs.bad ||
			    xs.off != strlen(small_want))
				bad++;
			e = jenc_get_fd(devnull, NULL);
			small_doc(e, 7);
			if (jenc_release(e) != 0)
				bad++;
		}
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(bad, 0);
	}

	TEST("a long-lived sink encoder flushed after each value") {
		memset(&xs, 0, sizeof xs);
		xs.want = small_want;
		e = jenc_get_sink(expect_sink, &xs, NULL);
		bad = 0;
		small_doc(e, 7);
		jenc_flush(e);
		m0 = mallocs();
		for (int i = 0; i < 100000; i++) {
			xs.off = 0;
			small_doc(e, 7);
			if (jenc_flush(e) != 0 || xs.bad ||
			    xs.off != strlen(small_want))
				bad++;
		}
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(bad, 0);
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("a long-lived fd encoder writing 10 MB: no allocation") {
		e = jenc_get_fd(devnull, NULL);
		for (int i = 0; i < 20000; i++)	/* ~1 MB */
			small_doc(e, 7);
		m0 = mallocs();
		for (int i = 0; i < 200000; i++)	/* ~10 MB */
			small_doc(e, 7);
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(jenc_error(e), 0);
		CHECK_EQ(jenc_release(e), 0);
	}

	TEST("a long-lived JENC_HOLD sink encoder: no allocation") {
		memset(&xs, 0, sizeof xs);
		xs.want = small_want;
		e = jenc_get_sink(expect_sink, &xs, &hold);
		small_doc(e, 7);
		jenc_flush(e);
		m0 = mallocs();
		bad = 0;
		for (int i = 0; i < 20000; i++) {
			xs.off = 0;
			small_doc(e, 7);
			if (jenc_flush(e) != 0 || xs.bad ||
			    xs.off != strlen(small_want))
				bad++;
		}
		CHECK_EQ(mallocs() - m0, 0);
		CHECK_EQ(bad, 0);
		CHECK_EQ(jenc_release(e), 0);
	}
	close(devnull);
}

static void
test_take(void)
{
	jenc_pool_stats st0, st1;
	jenc_enc *e;
	char *p;
	size_t n, nseg = 0, it = 0, len;

	TEST("jenc_take of a multi-segment output is one allocation") {
		e = jenc_get_mem(NULL);
		jenc_arr_begin(e);
		for (int i = 0; i < 20000; i++)
			jenc_i64(e, 1000000 + i);	/* 160 KB */
		jenc_arr_end(e);
		while (jenc_segments(e, &it, &len) != NULL)
			nseg++;
		CHECK(nseg >= 3);
		jenc_pool_stats_get(&st0);
		p = jenc_take(e, &n);
		jenc_pool_stats_get(&st1);
		CHECK(p != NULL);
		CHECK_EQ(n, 1 + 20000 * 8 + 1);
		CHECK_EQ(st1.mallocs - st0.mallocs, 1);
		CHECK(st1.bytes - st0.bytes >= n);
		CHECK(p != NULL && n > 20 && memcmp(p, "[1000000,1000001,", 17) == 0 &&
		    memcmp(p + n - 10, ",1019999]\n", 10) == 0);
		free(p);

		/* and a single-segment one */
		jenc_i64(e, 5);
		jenc_pool_stats_get(&st0);
		p = jenc_take(e, &n);
		jenc_pool_stats_get(&st1);
		CHECK_EQ(st1.mallocs - st0.mallocs, 1);
		CHECK_STR(p, n, "5\n");
		free(p);
		CHECK_EQ(jenc_release(e), 0);
	}
	TEST("jenc_take of a 20 MB output keeps none of its segments") {
		uint64_t live0, live1;
		long long before, after;

		jenc_pool_trim();
		jenc_pool_stats_get(&st0);
		live0 = st0.mallocs - st0.frees;
		before = heap_in_use();
		e = jenc_get_mem(NULL);
		jenc_arr_begin(e);
		for (int i = 0; i < 2000000; i++)
			jenc_i64(e, 1000000000 + i);	/* 11 bytes each */
		jenc_arr_end(e);
		p = jenc_take(e, &n);
		CHECK_EQ(n, 22000002);
		CHECK(p != NULL && memcmp(p + n - 13, ",1001999999]\n", 13) == 0);
		jenc_free(p, n);
		jenc_pool_stats_get(&st1);
		live1 = st1.mallocs - st1.frees;
		/* the encoder, its first segment, this thread's cache of
		 * 64 KiB segments and what the pools keep */
		CHECK(live1 - live0 <= 3 + st1.held_segments);
		CHECK(st1.held_bytes < 1024 * 1024);
		after = heap_in_use();
		if (before >= 0)
			CHECK(after - before < 2 * 1024 * 1024);
		/* the encoder goes on, in the sizes the pools have */
		CHECK_EQ(jenc_i64(e, 5), 0);
		CHECK_EQ(jenc_len(e), 2);
		CHECK_EQ(jenc_release(e), 0);
	}
}

/* An output of n records of 64 bytes: {"id":N,"name":"..."} */
static void
records(jenc_enc *e, int n)
{
	jenc_arr_begin(e);
	for (int i = 0; i < n; i++) {
		jenc_obj_begin(e);
		jenc_kv_i64(e, "id", 2, 1000000 + i);
		jenc_kv_str(e, "name", 4, "abcdefghijklmnopqrstuvwxyz0123456789",
		    36);
		jenc_obj_end(e);
	}
	jenc_arr_end(e);
}

/*
 * The budgets: 64 segments of 4 KiB, 8 of 8, 4 of 16 and 32 shared, 7 of
 * 64 KiB in this thread's cache: 960 KiB in all for a single thread.
 */
static void
test_budgets(void)
{
	enum { NENC = 80 };
	jenc_enc *e[NENC];
	jenc_pool_stats st;
	uint64_t m0;

	TEST("for one thread the pools never keep more than 960 KiB, whatever "
	    "is released") {
		jenc_pool_trim();
		for (int i = 0; i < NENC; i++) {
			e[i] = jenc_get_mem(NULL);
			records(e[i], 4000);	/* 260 KB: every class */
		}
		for (int i = 0; i < NENC; i++)
			CHECK_EQ(jenc_release(e[i]), 0);
		jenc_pool_stats_get(&st);
		CHECK_EQ(st.held_segments, 64 + 8 + 4 + 4 + 7);
		CHECK_EQ(st.held_bytes, 960 * 1024);
	}
	TEST("a 450 KB output made again allocates nothing") {
		jenc_pool_trim();
		e[0] = jenc_get_mem(NULL);
		records(e[0], 7000);
		CHECK(jenc_len(e[0]) > 400000);
		CHECK(jenc_len(e[0]) < 61440 + 7 * 65536);
		CHECK_EQ(jenc_release(e[0]), 0);
		m0 = mallocs();
		e[0] = jenc_get_mem(NULL);
		records(e[0], 7000);
		CHECK_EQ(jenc_release(e[0]), 0);
		CHECK_EQ(mallocs() - m0, 0);
	}
	TEST("four of them made at once, twice: the second time allocates "
	    "just the 64 KiB segments the budget did not keep") {
		size_t it = 0, len, nseg = 0;

		jenc_pool_trim();
		for (int round = 0; round < 2; round++) {
			m0 = mallocs();
			for (int i = 0; i < 4; i++) {
				e[i] = jenc_get_mem(NULL);
				records(e[i], 7000);
			}
			/* segments of 4, 8, 16, 32 KiB, then 64 KiB ones */
			while (round == 0 &&
			    jenc_segments(e[0], &it, &len) != NULL)
				nseg++;
			for (int i = 0; i < 4; i++)
				CHECK_EQ(jenc_release(e[i]), 0);
		}
		CHECK(nseg == 4 + 6 || nseg == 4 + 7);
		CHECK_EQ(mallocs() - m0, 4 * (nseg - 4) - 7);
	}
}

/*
 * Threads that each build a 450 KB output at the same moment, round after
 * round: each reuses the 64 KiB segments it kept itself, so after the
 * first round nothing is allocated; what a thread kept is freed when it
 * exits.
 */
enum { TH = 4, ROUNDS = 6 };
static pthread_barrier_t th_bar;
static uint64_t th_mallocs[ROUNDS];

static void *
th_run(void *arg)
{
	(void)arg;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&th_bar);
		if (r > 0 && arg == NULL)
			th_mallocs[r - 1] = mallocs();
		pthread_barrier_wait(&th_bar);
		jenc_enc *e = jenc_get_mem(NULL);

		records(e, 7000);
		/* all four outputs exist at once, whatever the timing */
		pthread_barrier_wait(&th_bar);
		jenc_release(e);
	}
	pthread_barrier_wait(&th_bar);
	if (arg == NULL)
		th_mallocs[ROUNDS - 1] = mallocs();
	return NULL;
}

static void
test_threads_keep_their_own(void)
{
	pthread_t t[TH];
	jenc_pool_stats st0, st1;

	jenc_pool_trim();
	jenc_pool_stats_get(&st0);
	pthread_barrier_init(&th_bar, NULL, TH);
	for (int i = 0; i < TH; i++)
		pthread_create(&t[i], NULL, th_run, i == 0 ? NULL : &t[i]);
	for (int i = 0; i < TH; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&th_bar);
	jenc_pool_trim();	/* the shared pools and this thread's cache */
	jenc_pool_stats_get(&st1);
	TEST("four threads building 450 KB outputs at once: no allocation "
	    "after the first round") {
		for (int r = 1; r < ROUNDS - 1; r++)
			CHECK_EQ(th_mallocs[r] - th_mallocs[r - 1], 0);
		CHECK_EQ(th_mallocs[ROUNDS - 1] - th_mallocs[0], 0);
	}
	TEST("what the threads kept is freed when they exit") {
		/* trimmed before and after: every allocation of the threads
		 * is freed again */
		CHECK_EQ(st1.held_bytes, 0);
		CHECK_EQ(st1.mallocs - st1.frees, st0.mallocs - st0.frees);
	}
}

int
main(void)
{
	test_counters();
	test_retention();
	test_steady();
	test_take();
	test_budgets();
	test_threads_keep_their_own();
	return harness_done();
}
