/*
 * libbench.c - library benchmarks for libjenc, side by side with yajl_gen,
 * cJSON, jansson and json-c, printed as Go benchmark lines:
 *
 *	BenchmarkName  N  ns/op  [MB/s]  cpu-ns/op  B/op  allocs/op  [extra]
 *
 * so that benchstat can compare runs.  cpu-ns/op is the process's CPU time
 * (all threads) per op: on a shared machine it is the steadier figure.
 * Usage:
 *
 *	libbench [-benchtime SECONDS] [-count N] [-bench SUBSTRING]
 *	    [-lib NAME,...] [-copies N] -code PATH/TO/code.json
 *
 * Each benchmark is calibrated like `go test -bench`: N grows until one
 * timed loop of N operations lasts -benchtime (default 1 s); that last
 * loop is reported.  It runs -count times (default 5), each printed.  A
 * warm-up operation always runs first, so pools and buffers are warm.
 * -lib limits the comparisons to the libraries named (jenc, yajl, cjson,
 * jansson, json-c); jenc's output is still made, as the reference.
 *
 * Counting allocations
 * --------------------
 * - libjenc: B/op and allocs/op are the deltas of jenc_pool_stats_get()
 *   (bytes requested and allocations made by the library) over the timed
 *   loop.  As a cross-check the same loop's calls into malloc, calloc,
 *   realloc and posix_memalign seen by the interposer below are printed as
 *   malloc-calls/op.
 * - yajl and jansson: through their allocator hooks (yajl_alloc_funcs,
 *   json_set_alloc_funcs), which count and call glibc's allocator.
 * - cJSON and json-c: through the interposer.  json-c has no allocator
 *   hook; cJSON has one, but installing any hook makes cJSON stop using
 *   realloc(3) when it grows a print buffer (it copies instead), so it is
 *   left alone to run as it does by default.
 * - The interposer: this program defines malloc, calloc, realloc, free,
 *   posix_memalign and aligned_alloc, which count into thread-local
 *   counters and call glibc's __libc_malloc and friends.  Definitions in
 *   the executable take precedence over libc's for every shared library
 *   (glibc supports replacing malloc this way), so no dlsym(RTLD_NEXT)
 *   bootstrapping is needed.  Counters are per thread: a benchmark counts
 *   the threads doing its work, never a reader thread that only drains a
 *   pipe.  B/op counts bytes requested (a realloc counts its new size).
 *   AllocationWastage additionally tracks live heap bytes with
 *   malloc_usable_size(3), only while it runs.
 *
 * Output checks
 * -------------
 * Before a comparison is timed, each library's output is checked against
 * libjenc's: byte-identical where the formats agree (all but LargeOutput),
 * else equal as values (both parsed with jansson and compared with
 * json_equal(); the libraries print the floating-point numbers of
 * code.json with different digits).  A library whose output differs gets
 * no speed: a "# ... differs" line is printed instead and the exit status
 * is 1.  Check results go to stderr as "check NAME: RESULT".
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <jansson.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_version.h>

#include "jenc.h"
#include "libbench.h"
#include "sha256.h"

/* ---- counting allocator ------------------------------------------- */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t k, size_t n);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

static _Thread_local uint64_t t_allocs, t_bytes;
static atomic_int live_on;		/* AllocationWastage is running */
static _Atomic int64_t live_bytes;	/* usable bytes of live blocks */
/* Allocations of worker threads, added when they finish a batch. */
static _Atomic uint64_t foreign_allocs, foreign_bytes;

static void
note_alloc(void *p, size_t n)
{
	t_allocs++;
	t_bytes += n;
	if (atomic_load_explicit(&live_on, memory_order_relaxed))
		atomic_fetch_add_explicit(&live_bytes,
		    (int64_t)malloc_usable_size(p), memory_order_relaxed);
}

static void
note_free(void *p)
{
	if (p != NULL && atomic_load_explicit(&live_on, memory_order_relaxed))
		atomic_fetch_sub_explicit(&live_bytes,
		    (int64_t)malloc_usable_size(p), memory_order_relaxed);
}

void *
malloc(size_t n)
{
	void *p = __libc_malloc(n);

	if (p != NULL)
		note_alloc(p, n);
	return p;
}

void *
calloc(size_t k, size_t n)
{
	void *p = __libc_calloc(k, n);

	if (p != NULL)
		note_alloc(p, k * n);
	return p;
}

void *
realloc(void *p, size_t n)
{
	void *q;

	note_free(p);
	q = __libc_realloc(p, n);
	if (q != NULL)
		note_alloc(q, n);
	else if (p != NULL && n > 0 &&
	    atomic_load_explicit(&live_on, memory_order_relaxed))
		/* failed: p is still live */
		atomic_fetch_add_explicit(&live_bytes,
		    (int64_t)malloc_usable_size(p), memory_order_relaxed);
	return q;
}

void
free(void *p)
{
	note_free(p);
	__libc_free(p);
}

int
posix_memalign(void **out, size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);

	if (p == NULL)
		return ENOMEM;
	note_alloc(p, n);
	*out = p;
	return 0;
}

void *
aligned_alloc(size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);

	if (p != NULL)
		note_alloc(p, n);
	return p;
}

/* Hooks for yajl and jansson: counted the same way, not through the
 * interposer (so nothing is counted twice). */
static void *
hook_malloc(size_t n)
{
	void *p = __libc_malloc(n);

	if (p != NULL)
		note_alloc(p, n);
	return p;
}

static void
hook_free(void *p)
{
	note_free(p);
	__libc_free(p);
}

static void *
yajl_hook_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return hook_malloc(n);
}

static void *
yajl_hook_realloc(void *ctx, void *p, size_t n)
{
	void *q;

	(void)ctx;
	note_free(p);
	q = __libc_realloc(p, n);
	if (q != NULL)
		note_alloc(q, n);
	return q;
}

static void
yajl_hook_free(void *ctx, void *p)
{
	(void)ctx;
	hook_free(p);
}

static yajl_alloc_funcs yajl_funcs = {
	yajl_hook_malloc, yajl_hook_realloc, yajl_hook_free, NULL,
};

/* ---- small helpers ------------------------------------------------------ */

static double opt_benchtime = 1.0;
static int opt_count = 5;
static const char *opt_filter = "";
static const char *opt_libs;	/* -lib: comma-separated names, NULL: all */
static int exit_status;

static void
die(const char *what)
{
	fprintf(stderr, "libbench: %s\n", what);
	exit(1);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL)
		die("out of memory");
	return p;
}

static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die("write failed");
		p += w;
		n -= (size_t)w;
	}
}

/* A growable byte string for checks (not used inside timed loops). */
struct bytes {
	char *p;
	size_t len, cap;
};

static void
bytes_add(struct bytes *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + n + 1)
			cap *= 2;
		if ((b->p = realloc(b->p, cap)) == NULL)
			die("out of memory");
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
bytes_free(struct bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void
jenc_collect(const jenc_enc *e, struct bytes *out)
{
	size_t it = 0, len;
	const char *p;

	while ((p = jenc_segments(e, &it, &len)) != NULL)
		bytes_add(out, p, len);
}

static void
check_jenc(jenc_enc *e, const char *where)
{
	if (jenc_error(e) != 0) {
		fprintf(stderr, "libbench: %s: %s\n", where,
		    jenc_strerror(jenc_error(e)));
		exit(1);
	}
}

static int
selected(const char *name)
{
	return strstr(name, opt_filter) != NULL;
}

/* 1 if -lib names the library (or was not given). */
static int
lib_selected(const char *name)
{
	size_t n = strlen(name);
	const char *p = opt_libs;

	if (p == NULL)
		return 1;
	while (*p != '\0') {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, name, n) == 0)
			return 1;
		p += k;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Compare out with ref.  Returns 0 and prints "identical" or
 * "value-equal", or returns -1 ("DIFFERS"). */
static int
check_output(const char *name, const struct bytes *ref,
    const struct bytes *out, int need_identical)
{
	json_t *a, *b;
	json_error_t err;
	int eq;

	if (ref->len == out->len && memcmp(ref->p, out->p, ref->len) == 0) {
		fprintf(stderr, "check %s: identical (%zu bytes)\n", name,
		    out->len);
		return 0;
	}
	if (need_identical) {
		size_t i = 0;

		while (i < ref->len && i < out->len && ref->p[i] == out->p[i])
			i++;
		fprintf(stderr, "check %s: DIFFERS at byte %zu (%zu vs %zu "
		    "bytes): '%.40s' vs '%.40s'\n", name, i, ref->len, out->len,
		    ref->p + i, out->p + i);
		return -1;
	}
	a = json_loadb(ref->p, ref->len, JSON_DECODE_ANY, &err);
	b = json_loadb(out->p, out->len, JSON_DECODE_ANY, &err);
	if (b == NULL)
		fprintf(stderr, "check %s: %s at byte %d\n", name, err.text,
		    err.position);
	eq = a != NULL && b != NULL && json_equal(a, b);
	json_decref(a);
	json_decref(b);
	fprintf(stderr, "check %s: %s (%zu vs %zu bytes)\n", name,
	    eq ? "value-equal" : "DIFFERS", ref->len, out->len);
	return eq ? 0 : -1;
}

static void
refuse(const char *name)
{
	printf("# %s: output differs from libjenc's, no speed reported\n",
	    name);
	fflush(stdout);
	exit_status = 1;
}

/* ---- the benchmark runner --------------------------------------------------- */

typedef void (*bench_fn)(void *ctx, uint64_t n);

struct counts {
	uint64_t ns, cpu, allocs, bytes, lib_allocs, lib_bytes;
};

static void
snapshot(struct counts *c)
{
	jenc_pool_stats st;
	struct timespec ts;

	jenc_pool_stats_get(&st);
	c->lib_allocs = st.mallocs;
	c->lib_bytes = st.bytes;
	c->allocs = t_allocs + atomic_load(&foreign_allocs);
	c->bytes = t_bytes + atomic_load(&foreign_bytes);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	c->cpu = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	c->ns = now_ns();
}

/* Print a per-op figure: integers as integers, a fraction as is (an
 * allocation every thousand operations must not print as 0). */
static void
print_metric(double total, uint64_t n, const char *unit)
{
	double v = total / (double)n;

	if (total == 0)
		printf("\t0 %s", unit);
	else if (v >= 100 || v == (double)(uint64_t)v)
		printf("\t%.0f %s", v, unit);
	else
		printf("\t%.4g %s", v, unit);
}

/*
 * Run fn like `go test -bench`: grow n until the timed loop lasts
 * opt_benchtime, print the last loop.  bytes: output bytes of one op (for
 * MB/s), 0 for none.  is_jenc: count allocations with the pool stats.
 * extra: called after each reported loop to print more metrics, or NULL.
 */
static void
run_bench(const char *name, bench_fn fn, void *ctx, double bytes, int is_jenc,
    void (*extra)(void *ctx))
{
	uint64_t goal = (uint64_t)(opt_benchtime * 1e9);
	int c;

	for (c = 0; c < opt_count; c++) {
		struct counts a, b;
		uint64_t n = 1, ns;

		if (c == 0)
			fn(ctx, 1);	/* warm-up */
		for (;;) {
			snapshot(&a);
			fn(ctx, n);
			snapshot(&b);
			ns = b.ns - a.ns;
			if (ns >= goal || n >= 1000000000u)
				break;
			{
				uint64_t prev = n, next;

				next = goal * prev / (ns ? ns : 1);
				next += next / 5;
				if (next > 100 * prev)
					next = 100 * prev;
				if (next < prev + 1)
					next = prev + 1;
				n = next;
			}
		}
		printf("Benchmark%s\t%" PRIu64 "\t", name, n);
		if ((double)ns / (double)n < 100)
			printf("%.2f ns/op", (double)ns / (double)n);
		else
			printf("%.0f ns/op", (double)ns / (double)n);
		if (bytes > 0)
			printf("\t%.2f MB/s", bytes * (double)n * 1e3 / (double)ns);
		printf("\t%.0f cpu-ns/op", (double)(b.cpu - a.cpu) / (double)n);
		if (is_jenc) {
			print_metric((double)(b.lib_bytes - a.lib_bytes), n, "B/op");
			print_metric((double)(b.lib_allocs - a.lib_allocs), n,
			    "allocs/op");
			print_metric((double)(b.allocs - a.allocs), n,
			    "malloc-calls/op");
		} else {
			print_metric((double)(b.bytes - a.bytes), n, "B/op");
			print_metric((double)(b.allocs - a.allocs), n, "allocs/op");
		}
		if (extra != NULL)
			extra(ctx);
		printf("\n");
		fflush(stdout);
	}
}

/* ---- Go's streaming encoder benchmarks, for libjenc ------------------------ */

/*
 * A memory encoder reused across operations, holding one open top-level
 * object (or array): each operation adds to it, and past REUSE_MAX bytes
 * it is closed and reset, as a program that sends a message every 64 KiB
 * would.  jenc_reset keeps its segments with it for the next message, so
 * memory stays bounded (the segments of one message) and no
 * operation allocates once warm.
 */
#define REUSE_MAX (64u * 1024u)

struct reuse {
	jenc_enc *e;
	int object;
	uint64_t i;	/* operation counter, varies the values */
};

static void
reuse_open(struct reuse *r)
{
	if (r->object)
		jenc_obj_begin(r->e);
	else
		jenc_arr_begin(r->e);
}

static void
reuse_cycle(struct reuse *r)
{
	if (jenc_len(r->e) < REUSE_MAX)
		return;
	if (r->object)
		jenc_obj_end(r->e);
	else
		jenc_arr_end(r->e);
	check_jenc(r->e, "reuse");
	jenc_reset(r->e);
	reuse_open(r);
}

/* NewEncoder: an encoder from the pool, one small object written, the
 * encoder given back (what a caller does to encode one value). */
static void
b_new_encoder(void *ctx, uint64_t n)
{
	uint64_t i;

	(void)ctx;
	for (i = 0; i < n; i++) {
		jenc_enc *e = jenc_get_mem(NULL);

		jenc_obj_begin(e);
		jenc_kv_i64(e, "id", 2, (int64_t)i);
		jenc_obj_end(e);
		if (jenc_release(e) != 0)
			die("NewEncoder: jenc_release failed");
	}
}

/* GetEncoder: only the pool round trip, jenc_get_mem + jenc_release. */
static void
b_get_encoder(void *ctx, uint64_t n)
{
	uint64_t i;

	(void)ctx;
	for (i = 0; i < n; i++)
		jenc_release(jenc_get_mem(NULL));
}

/* Write: append a pre-encoded JSON value verbatim (jenc_raw), the
 * counterpart of an encoder's Write(p []byte). */
static void
b_write(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_raw(r->e, "\"hello, world\"", 14);
		reuse_cycle(r);
	}
}

/* EncodeKey: a member name escaped and validated by jenc_key(), then a
 * string value. */
static void
b_encode_key(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_key(r->e, "message", 7);
		jenc_str(r->e, "hello, world", 12);
		reuse_cycle(r);
	}
}

/* ObjectKey: a member whose value is an object of two members. */
static void
b_object_key(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_key(r->e, "user", 4);
		jenc_obj_begin(r->e);
		jenc_kv_str(r->e, "name", 4, "gopher", 6);
		jenc_kv_i64(r->e, "id", 2, (int64_t)(r->i++));
		jenc_obj_end(r->e);
		reuse_cycle(r);
	}
}

/* WriteUint32Key: key plus a uint32 value (varied). */
static void
b_uint32_key(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_kv_u64(r->e, "count", 5, (uint32_t)(r->i++ * 2654435761u));
		reuse_cycle(r);
	}
}

/* WriteUint64Key: key plus a full-width uint64 value (varied). */
static void
b_uint64_key(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_kv_u64(r->e, "total", 5, r->i++ * 0x9e3779b97f4a7c15u);
		reuse_cycle(r);
	}
}

/* WriteFloat64Key: key plus a double printed shortest (varied values,
 * 1 to 17 significant digits). */
static void
b_float64_key(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_kv_f64(r->e, "ratio", 5, (double)(r->i++ % 1000003) / 7.0);
		reuse_cycle(r);
	}
}

/* PrettyPrint: one record (scalars, an array, a nested object) as a
 * top-level value with two-space indentation. */
static void
b_pretty(void *ctx, uint64_t n)
{
	jenc_enc *e = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_obj_begin(e);
		jenc_kv_i64(e, "id", 2, (int64_t)i);
		jenc_kv_str(e, "name", 4, "gopher", 6);
		jenc_kv_bool(e, "active", 6, 1);
		jenc_key(e, "tags", 4);
		jenc_arr_begin(e);
		jenc_str(e, "json", 4);
		jenc_str(e, "stream", 6);
		jenc_arr_end(e);
		jenc_key(e, "geo", 3);
		jenc_obj_begin(e);
		jenc_kv_f64(e, "lat", 3, 52.52);
		jenc_kv_f64(e, "lon", 3, 13.405);
		jenc_obj_end(e);
		jenc_obj_end(e);
		if (jenc_len(e) >= REUSE_MAX) {
			check_jenc(e, "PrettyPrint");
			jenc_reset(e);
		}
	}
}

/* Timestamp/unix and Timestamp/utc: key plus a time, as seconds or as
 * RFC 3339 text. */
static void
b_time_unix(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		jenc_kv_time_unix(r->e, "ts", 2, 1700000000 + (int64_t)(r->i++));
		reuse_cycle(r);
	}
}

static void
b_time_utc(void *ctx, uint64_t n)
{
	struct reuse *r = ctx;
	uint64_t i;

	for (i = 0; i < n; i++) {
		/* times spread over about 500 years from 2023 */
		jenc_kv_time_utc(r->e, "ts", 2, 1700000000 +
		    (int64_t)(r->i++ * 7919 % 16000000000u));
		reuse_cycle(r);
	}
}

static void
run_go_table(void)
{
	static const struct {
		const char *name;
		bench_fn fn;
		int object;	/* reuse an object (keys) or an array */
	} table[] = {
		{ "Write", b_write, 0 },
		{ "EncodeKey", b_encode_key, 1 },
		{ "ObjectKey", b_object_key, 1 },
		{ "WriteUint32Key", b_uint32_key, 1 },
		{ "WriteUint64Key", b_uint64_key, 1 },
		{ "WriteFloat64Key", b_float64_key, 1 },
		{ "Timestamp/unix", b_time_unix, 1 },
		{ "Timestamp/utc", b_time_utc, 1 },
	};
	size_t i;

	if (selected("NewEncoder"))
		run_bench("NewEncoder", b_new_encoder, NULL, 0, 1, NULL);
	if (selected("GetEncoder"))
		run_bench("GetEncoder", b_get_encoder, NULL, 0, 1, NULL);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct reuse r = { NULL, table[i].object, 0 };

		if (!selected(table[i].name))
			continue;
		if ((r.e = jenc_get_mem(NULL)) == NULL)
			die("jenc_get_mem failed");
		reuse_open(&r);
		run_bench(table[i].name, table[i].fn, &r, 0, 1, NULL);
		check_jenc(r.e, table[i].name);
		jenc_reset(r.e);
		jenc_release(r.e);
	}
	if (selected("PrettyPrint")) {
		jenc_opts o = { .indent = 2 };
		jenc_enc *e = jenc_get_mem(&o);

		if (e == NULL)
			die("jenc_get_mem failed");
		run_bench("PrettyPrint", b_pretty, e, 0, 1, NULL);
		check_jenc(e, "PrettyPrint");
		jenc_release(e);
	}
}

/* ---- records shared by the comparisons ------------------------------------- */

#define NREC 10000

static struct rec recs[NREC];

/*
 * Names are ASCII with, now and then, a quote, a backslash or a UTF-8
 * letter, which every library writes the same way; ratios are binary
 * fractions with few digits (0.125 ... 3.875), which every library prints
 * the same way ("%.17g", "%.20g" and shortest agree on them).
 */
static void
recs_init(void)
{
	int i;

	for (i = 0; i < NREC; i++) {
		struct rec *r = &recs[i];
		int k;

		r->id = i + 1;
		if (i % 7 == 3)
			k = snprintf(r->name, sizeof(r->name), "say \"hi\" %d", i);
		else if (i % 11 == 5)
			k = snprintf(r->name, sizeof(r->name), "caf\xc3\xa9 %d", i);
		else if (i % 13 == 6)
			k = snprintf(r->name, sizeof(r->name), "C:\\dir %d", i);
		else
			k = snprintf(r->name, sizeof(r->name), "record-%d", i);
		r->namelen = (size_t)k;
		r->count = (int64_t)((i * 7919) % 100000);
		r->ratio = (double)(i % 16) / 4.0 + 0.125;
	}
}

static void
rec_jenc(jenc_enc *e, const struct rec *r)
{
	jenc_obj_begin(e);
	jenc_kv_i64(e, "id", 2, r->id);
	jenc_kv_str(e, "name", 4, r->name, r->namelen);
	jenc_kv_i64(e, "count", 5, r->count);
	jenc_kv_f64(e, "ratio", 5, r->ratio);
	jenc_obj_end(e);
}

static void
rec_yajl(yajl_gen g, const struct rec *r)
{
	yajl_gen_map_open(g);
	yajl_gen_string(g, (const unsigned char *)"id", 2);
	yajl_gen_integer(g, r->id);
	yajl_gen_string(g, (const unsigned char *)"name", 4);
	yajl_gen_string(g, (const unsigned char *)r->name, r->namelen);
	yajl_gen_string(g, (const unsigned char *)"count", 5);
	yajl_gen_integer(g, r->count);
	yajl_gen_string(g, (const unsigned char *)"ratio", 5);
	yajl_gen_double(g, r->ratio);
	yajl_gen_map_close(g);
}

static cJSON *
rec_cjson(const struct rec *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", (double)r->id);
	cJSON_AddStringToObject(o, "name", r->name);
	cJSON_AddNumberToObject(o, "count", (double)r->count);
	cJSON_AddNumberToObject(o, "ratio", r->ratio);
	return o;
}

static json_t *
rec_jansson(const struct rec *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "name", json_stringn(r->name, r->namelen));
	json_object_set_new(o, "count", json_integer(r->count));
	json_object_set_new(o, "ratio", json_real(r->ratio));
	return o;
}

enum { L_JENC, L_YAJL, L_CJSON, L_JANSSON, L_JSONC, NLIB };

static const char *const lib_names[NLIB] = {
	"jenc", "yajl", "cjson", "jansson", "json-c",
};

/*
 * One comparison: for each library an op function over a shared context
 * and a capture function that runs one op and returns its output.
 */
struct cmp {
	const char *name;
	bench_fn op[NLIB];
	void (*capture)(void *ctx, int lib, struct bytes *out);
	void (*extra)(void *ctx);	/* more metrics per line, or NULL */
	int need_identical;
	int no_mbps;		/* ops differ in size: no MB/s */
	/* bytes of one timed op's output, from the captured output's
	 * length, when the capture is smaller than a timed op; or NULL */
	double (*op_bytes)(void *ctx, size_t captured);
};

static void
run_cmp(const struct cmp *c, void *ctx, int *lib_slot)
{
	struct bytes ref = { 0 }, out = { 0 };
	char name[128];
	int lib;

	for (lib = 0; lib < NLIB; lib++) {
		if (lib != L_JENC && !lib_selected(lib_names[lib]))
			continue;
		*lib_slot = lib;
		snprintf(name, sizeof(name), "%s/%s", c->name, lib_names[lib]);
		out.len = 0;
		c->capture(ctx, lib, lib == L_JENC ? &ref : &out);
		if (lib != L_JENC &&
		    check_output(name, &ref, &out, c->need_identical) != 0) {
			refuse(name);
			continue;
		}
		if (lib == L_JENC)
			fprintf(stderr, "check %s: reference (%zu bytes)\n",
			    name, ref.len);
		if (lib == L_JENC && !lib_selected(lib_names[lib]))
			continue;
		run_bench(name, c->op[lib], ctx, c->no_mbps ? 0 :
		    c->op_bytes ? c->op_bytes(ctx, ref.len) : (double)ref.len,
		    lib == L_JENC, c->extra);
	}
	bytes_free(&ref);
	bytes_free(&out);
}

/* ---- CompareMemory: 32 records into a reused buffer -------------------------- */

#define MEM_RECS 32

struct memctx {
	int lib;
	jenc_enc *e;
	yajl_gen g;
	char *buf;	/* the reused buffer of the tree libraries */
	size_t cap;
	size_t len;	/* length of the last output (tree libraries) */
};

static void
mem_jenc(void *ctx, uint64_t n)
{
	struct memctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		jenc_reset(m->e);
		jenc_arr_begin(m->e);
		for (k = 0; k < MEM_RECS; k++)
			rec_jenc(m->e, &recs[k]);
		jenc_arr_end(m->e);
	}
	check_jenc(m->e, "CompareMemory");
}

static void
mem_yajl(void *ctx, uint64_t n)
{
	struct memctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		yajl_gen_clear(m->g);
		yajl_gen_reset(m->g, NULL);
		yajl_gen_array_open(m->g);
		for (k = 0; k < MEM_RECS; k++)
			rec_yajl(m->g, &recs[k]);
		yajl_gen_array_close(m->g);
	}
}

static void
mem_cjson(void *ctx, uint64_t n)
{
	struct memctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		cJSON *a = cJSON_CreateArray();

		for (k = 0; k < MEM_RECS; k++)
			cJSON_AddItemToArray(a, rec_cjson(&recs[k]));
		if (!cJSON_PrintPreallocated(a, m->buf, (int)m->cap, 0))
			die("cJSON_PrintPreallocated failed");
		cJSON_Delete(a);
	}
	m->len = strlen(m->buf);
}

static void
mem_jansson(void *ctx, uint64_t n)
{
	struct memctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		json_t *a = json_array();

		for (k = 0; k < MEM_RECS; k++)
			json_array_append_new(a, rec_jansson(&recs[k]));
		m->len = json_dumpb(a, m->buf, m->cap, JSON_COMPACT);
		if (m->len == 0 || m->len > m->cap)
			die("json_dumpb failed");
		json_decref(a);
	}
}

static void
mem_jsonc(void *ctx, uint64_t n)
{
	struct memctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		void *a = bj_array();
		const char *s;

		for (k = 0; k < MEM_RECS; k++)
			bj_array_add(a, bj_rec(&recs[k]));
		s = bj_print(a, &m->len);
		if (s == NULL || m->len > m->cap)
			die("json-c: printing failed");
		memcpy(m->buf, s, m->len);
		bj_put(a);
	}
}

static void
mem_capture(void *ctx, int lib, struct bytes *out)
{
	struct memctx *m = ctx;
	const unsigned char *p;
	size_t len;

	switch (lib) {
	case L_JENC:
		mem_jenc(m, 1);
		jenc_collect(m->e, out);
		break;
	case L_YAJL:
		mem_yajl(m, 1);
		yajl_gen_get_buf(m->g, &p, &len);
		bytes_add(out, (const char *)p, len);
		break;
	case L_CJSON:
		mem_cjson(m, 1);
		bytes_add(out, m->buf, m->len);
		break;
	case L_JANSSON:
		mem_jansson(m, 1);
		bytes_add(out, m->buf, m->len);
		break;
	default:
		mem_jsonc(m, 1);
		bytes_add(out, m->buf, m->len);
		break;
	}
}

static void
run_compare_memory(void)
{
	static const struct cmp c = {
		"CompareMemory",
		{ mem_jenc, mem_yajl, mem_cjson, mem_jansson, mem_jsonc },
		mem_capture, NULL, 1, 0, NULL,
	};
	jenc_opts o = { .flags = JENC_NO_NEWLINE };
	struct memctx m = { 0 };

	m.e = jenc_get_mem(&o);
	m.g = yajl_gen_alloc(&yajl_funcs);
	m.cap = 1 << 16;
	m.buf = xmalloc(m.cap);
	if (m.e == NULL || m.g == NULL)
		die("CompareMemory: setup failed");
	run_cmp(&c, &m, &m.lib);
	jenc_release(m.e);
	yajl_gen_free(m.g);
	free(m.buf);
}

/* ---- CompareStream: 10,000 records through a pipe to a reading thread ------ */

#define STAGE_CAP (64 * 1024)

struct streamctx {
	int lib;
	int rfd, wfd;
	pthread_t reader;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t got;		/* bytes the reader has read */
	uint64_t want;		/* bytes written so far by complete ops */
	size_t op_len;		/* bytes of one op's output */
	int capture;		/* reader keeps what it reads in cap */
	struct bytes cap;
	yajl_gen g;
	char *stage;		/* staging buffer of the tree libraries */
	size_t used;
};

static void *
stream_reader(void *arg)
{
	struct streamctx *s = arg;
	char *buf = __libc_malloc(1 << 16);	/* not counted: not the writer's */
	ssize_t r;

	if (buf == NULL)
		die("out of memory");
	for (;;) {
		r = read(s->rfd, buf, 1 << 16);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		pthread_mutex_lock(&s->lock);
		if (s->capture)
			bytes_add(&s->cap, buf, (size_t)r);
		s->got += (uint64_t)r;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	__libc_free(buf);
	return NULL;
}

/* The op is done when the reader has read everything it wrote. */
static void
stream_wait(struct streamctx *s)
{
	pthread_mutex_lock(&s->lock);
	s->want += s->op_len;
	while (s->got < s->want)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static void
stage_flush(struct streamctx *s)
{
	write_all(s->wfd, s->stage, s->used);
	s->used = 0;
}

static void
stream_jenc(void *ctx, uint64_t n)
{
	struct streamctx *s = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		jenc_enc *e = jenc_get_fd(s->wfd, NULL);

		for (k = 0; k < NREC; k++)
			rec_jenc(e, &recs[k]);
		if (jenc_release(e) != 0)
			die("CompareStream: jenc_release failed");
		stream_wait(s);
	}
}

static void
stream_yajl(void *ctx, uint64_t n)
{
	struct streamctx *s = ctx;
	const unsigned char *p;
	size_t len;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < NREC; k++) {
			rec_yajl(s->g, &recs[k]);
			yajl_gen_reset(s->g, "\n");
			yajl_gen_get_buf(s->g, &p, &len);
			if (len >= STAGE_CAP) {
				write_all(s->wfd, (const char *)p, len);
				yajl_gen_clear(s->g);
			}
		}
		yajl_gen_get_buf(s->g, &p, &len);
		write_all(s->wfd, (const char *)p, len);
		yajl_gen_clear(s->g);
		stream_wait(s);
	}
}

static void
stream_cjson(void *ctx, uint64_t n)
{
	struct streamctx *s = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < NREC; k++) {
			cJSON *o = rec_cjson(&recs[k]);

			if (!cJSON_PrintPreallocated(o, s->stage + s->used,
			    (int)(STAGE_CAP - s->used - 1), 0)) {
				stage_flush(s);
				if (!cJSON_PrintPreallocated(o, s->stage,
				    STAGE_CAP - 1, 0))
					die("cJSON_PrintPreallocated failed");
			}
			s->used += strlen(s->stage + s->used);
			s->stage[s->used++] = '\n';
			cJSON_Delete(o);
		}
		stage_flush(s);
		stream_wait(s);
	}
}

static void
stream_jansson(void *ctx, uint64_t n)
{
	struct streamctx *s = ctx;
	uint64_t i;
	size_t len;
	int k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < NREC; k++) {
			json_t *o = rec_jansson(&recs[k]);

			len = json_dumpb(o, s->stage + s->used,
			    STAGE_CAP - s->used - 1, JSON_COMPACT);
			if (len > STAGE_CAP - s->used - 1) {
				stage_flush(s);
				len = json_dumpb(o, s->stage, STAGE_CAP - 1,
				    JSON_COMPACT);
			}
			s->used += len;
			s->stage[s->used++] = '\n';
			json_decref(o);
		}
		stage_flush(s);
		stream_wait(s);
	}
}

static void
stream_jsonc(void *ctx, uint64_t n)
{
	struct streamctx *s = ctx;
	uint64_t i;
	size_t len;
	int k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < NREC; k++) {
			void *o = bj_rec(&recs[k]);
			const char *p = bj_print(o, &len);

			if (s->used + len + 1 > STAGE_CAP)
				stage_flush(s);
			memcpy(s->stage + s->used, p, len);
			s->used += len;
			s->stage[s->used++] = '\n';
			bj_put(o);
		}
		stage_flush(s);
		stream_wait(s);
	}
}

static const bench_fn stream_ops[NLIB] = {
	stream_jenc, stream_yajl, stream_cjson, stream_jansson, stream_jsonc,
};

/*
 * Capture: the op length is not known yet, so the writer closes its end
 * afterwards and the reader, seeing EOF, ends; a new pipe and reader are
 * then set up for the timed ops.
 */
static void
stream_start(struct streamctx *s)
{
	int fds[2];

	if (pipe(fds) != 0)
		die("pipe failed");
	s->rfd = fds[0];
	s->wfd = fds[1];
	s->got = s->want = 0;
	if (pthread_create(&s->reader, NULL, stream_reader, s) != 0)
		die("pthread_create failed");
}

static void
stream_stop(struct streamctx *s)
{
	close(s->wfd);
	pthread_join(s->reader, NULL);
	close(s->rfd);
}

static void
stream_capture(void *ctx, int lib, struct bytes *out)
{
	struct streamctx *s = ctx;
	size_t save = s->op_len;

	stream_stop(s);
	s->capture = 1;
	s->cap.len = 0;
	stream_start(s);
	s->op_len = 0;	/* no waiting: EOF ends the reader */
	stream_ops[lib](s, 1);
	stream_stop(s);
	s->capture = 0;
	bytes_add(out, s->cap.p, s->cap.len);
	s->op_len = lib == L_JENC ? out->len : save;
	stream_start(s);
}

static void
run_compare_stream(void)
{
	static const struct cmp c = {
		"CompareStream",
		{ stream_jenc, stream_yajl, stream_cjson, stream_jansson,
		    stream_jsonc },
		stream_capture, NULL, 1, 0, NULL,
	};
	struct streamctx s;

	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.cond, NULL);
	s.g = yajl_gen_alloc(&yajl_funcs);
	s.stage = xmalloc(STAGE_CAP);
	if (s.g == NULL)
		die("yajl_gen_alloc failed");
	stream_start(&s);
	run_cmp(&c, &s, &s.lib);
	stream_stop(&s);
	yajl_gen_free(s.g);
	free(s.stage);
	bytes_free(&s.cap);
}

/* ---- NewEncoderEncode: a 100,000-entry map, fresh encoder, /dev/null ---- */

#define MAP_N 100000

struct mapctx {
	int lib;
	int fd;
	char (*keys)[16];
	size_t *klen;
	char (*vals)[65];
};

static void
map_jenc(void *ctx, uint64_t n)
{
	struct mapctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		jenc_enc *e = jenc_get_fd(m->fd, NULL);

		jenc_obj_begin(e);
		for (k = 0; k < MAP_N; k++)
			jenc_kv_str(e, m->keys[k], m->klen[k], m->vals[k], 64);
		jenc_obj_end(e);
		if (jenc_release(e) != 0)
			die("NewEncoderEncode: jenc_release failed");
	}
}

static void
map_yajl(void *ctx, uint64_t n)
{
	struct mapctx *m = ctx;
	const unsigned char *p;
	size_t len;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		yajl_gen g = yajl_gen_alloc(&yajl_funcs);

		yajl_gen_map_open(g);
		for (k = 0; k < MAP_N; k++) {
			yajl_gen_string(g, (const unsigned char *)m->keys[k],
			    m->klen[k]);
			yajl_gen_string(g, (const unsigned char *)m->vals[k], 64);
			yajl_gen_get_buf(g, &p, &len);
			if (len >= STAGE_CAP) {
				write_all(m->fd, (const char *)p, len);
				yajl_gen_clear(g);
			}
		}
		yajl_gen_map_close(g);
		yajl_gen_get_buf(g, &p, &len);
		write_all(m->fd, (const char *)p, len);
		write_all(m->fd, "\n", 1);
		yajl_gen_free(g);
	}
}

static void
map_cjson(void *ctx, uint64_t n)
{
	struct mapctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		char *s;

		for (k = 0; k < MAP_N; k++)
			cJSON_AddStringToObject(o, m->keys[k], m->vals[k]);
		s = cJSON_PrintUnformatted(o);
		if (s == NULL)
			die("cJSON_PrintUnformatted failed");
		write_all(m->fd, s, strlen(s));
		write_all(m->fd, "\n", 1);
		cJSON_free(s);
		cJSON_Delete(o);
	}
}

static void
map_jansson(void *ctx, uint64_t n)
{
	struct mapctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		json_t *o = json_object();
		char *s;

		for (k = 0; k < MAP_N; k++)
			json_object_set_new(o, m->keys[k], json_string(m->vals[k]));
		/* not json_dumpfd(): it makes a write(2) per token */
		if ((s = json_dumps(o, JSON_COMPACT)) == NULL)
			die("json_dumps failed");
		write_all(m->fd, s, strlen(s));
		write_all(m->fd, "\n", 1);
		free(s);
		json_decref(o);
	}
}

static void
map_jsonc(void *ctx, uint64_t n)
{
	struct mapctx *m = ctx;
	uint64_t i;
	int k;

	for (i = 0; i < n; i++) {
		void *o = bj_object();

		for (k = 0; k < MAP_N; k++)
			bj_object_add_string(o, m->keys[k], m->vals[k]);
		if (bj_to_fd(m->fd, o) != 0)
			die("json_object_to_fd failed");
		write_all(m->fd, "\n", 1);
		bj_put(o);
	}
}

static const bench_fn map_ops[NLIB] = {
	map_jenc, map_yajl, map_cjson, map_jansson, map_jsonc,
};

static void
map_capture(void *ctx, int lib, struct bytes *out)
{
	struct mapctx *m = ctx;
	int devnull = m->fd;
	FILE *f = tmpfile();
	char buf[1 << 16];
	ssize_t r;

	if (f == NULL)
		die("tmpfile failed");
	m->fd = fileno(f);
	map_ops[lib](m, 1);
	if (lseek(m->fd, 0, SEEK_SET) != 0)
		die("lseek failed");
	while ((r = read(m->fd, buf, sizeof(buf))) > 0)
		bytes_add(out, buf, (size_t)r);
	if (r < 0)
		die("read failed");
	fclose(f);
	m->fd = devnull;
}

static void
run_new_encoder_encode(void)
{
	static const struct cmp c = {
		"NewEncoderEncode",
		{ map_jenc, map_yajl, map_cjson, map_jansson, map_jsonc },
		map_capture, NULL, 1, 0, NULL,
	};
	struct mapctx m;
	int k;

	memset(&m, 0, sizeof(m));
	m.keys = xmalloc(MAP_N * sizeof(*m.keys));
	m.klen = xmalloc(MAP_N * sizeof(*m.klen));
	m.vals = xmalloc(MAP_N * sizeof(*m.vals));
	for (k = 0; k < MAP_N; k++) {
		m.klen[k] = (size_t)snprintf(m.keys[k], sizeof(m.keys[k]),
		    "key%d", k);
		sha256_hex(m.keys[k], m.klen[k], m.vals[k]);
	}
	if ((m.fd = open("/dev/null", O_WRONLY)) < 0)
		die("/dev/null: cannot open");
	run_cmp(&c, &m, &m.lib);
	close(m.fd);
	free(m.keys);
	free(m.klen);
	free(m.vals);
}

/* ---- LargeOutput: copies of code.json's structure into memory --------------- */

struct largectx {
	int lib;
	json_t *doc;		/* code.json, parsed once with jansson */
	struct bnode src;	/* the same, as a plain tree */
	int copies;
	jenc_enc *e;
	yajl_gen g;
	char *buf;		/* cJSON / jansson output buffer */
	size_t cap;
	size_t len;
};

/* code.json's tree, converted once from jansson's parse: every library
 * walks the same plain structure. */
static struct bnode *
bnode_from(json_t *v, struct bnode *n)
{
	const char *k;
	json_t *x;
	size_t i;

	memset(n, 0, sizeof(*n));
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		n->type = BN_OBJ;
		n->kids = calloc(json_object_size(v) + 1, sizeof(*n->kids));
		if (n->kids == NULL)
			die("out of memory");
		json_object_foreach(v, k, x) {
			bnode_from(x, &n->kids[n->nkids]);
			n->kids[n->nkids].key = k;
			n->kids[n->nkids].klen = strlen(k);
			n->nkids++;
		}
		break;
	case JSON_ARRAY:
		n->type = BN_ARR;
		n->kids = calloc(json_array_size(v) + 1, sizeof(*n->kids));
		if (n->kids == NULL)
			die("out of memory");
		json_array_foreach(v, i, x)
			bnode_from(x, &n->kids[n->nkids++]);
		break;
	case JSON_STRING:
		n->type = BN_STR;
		n->s = json_string_value(v);
		n->len = json_string_length(v);
		break;
	case JSON_INTEGER:
		n->type = BN_INT;
		n->i = json_integer_value(v);
		break;
	case JSON_REAL:
		n->type = BN_REAL;
		n->f = json_real_value(v);
		break;
	case JSON_TRUE:
		n->type = BN_TRUE;
		break;
	case JSON_FALSE:
		n->type = BN_FALSE;
		break;
	default:
		n->type = BN_NULL;
		break;
	}
	return n;
}

static void
bnode_free(struct bnode *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++)
		bnode_free(&n->kids[i]);
	free(n->kids);
}

static void
walk_jenc(jenc_enc *e, const struct bnode *n)
{
	size_t i;

	switch (n->type) {
	case BN_OBJ:
		jenc_obj_begin(e);
		for (i = 0; i < n->nkids; i++) {
			jenc_key(e, n->kids[i].key, n->kids[i].klen);
			walk_jenc(e, &n->kids[i]);
		}
		jenc_obj_end(e);
		break;
	case BN_ARR:
		jenc_arr_begin(e);
		for (i = 0; i < n->nkids; i++)
			walk_jenc(e, &n->kids[i]);
		jenc_arr_end(e);
		break;
	case BN_STR:
		jenc_str(e, n->s, n->len);
		break;
	case BN_INT:
		jenc_i64(e, n->i);
		break;
	case BN_REAL:
		jenc_f64(e, n->f);
		break;
	case BN_TRUE:
	case BN_FALSE:
		jenc_bool(e, n->type == BN_TRUE);
		break;
	default:
		jenc_null(e);
		break;
	}
}

static void
walk_yajl(yajl_gen g, const struct bnode *n)
{
	size_t i;

	switch (n->type) {
	case BN_OBJ:
		yajl_gen_map_open(g);
		for (i = 0; i < n->nkids; i++) {
			yajl_gen_string(g, (const unsigned char *)n->kids[i].key,
			    n->kids[i].klen);
			walk_yajl(g, &n->kids[i]);
		}
		yajl_gen_map_close(g);
		break;
	case BN_ARR:
		yajl_gen_array_open(g);
		for (i = 0; i < n->nkids; i++)
			walk_yajl(g, &n->kids[i]);
		yajl_gen_array_close(g);
		break;
	case BN_STR:
		yajl_gen_string(g, (const unsigned char *)n->s, n->len);
		break;
	case BN_INT:
		yajl_gen_integer(g, n->i);
		break;
	case BN_REAL:
		yajl_gen_double(g, n->f);
		break;
	case BN_TRUE:
	case BN_FALSE:
		yajl_gen_bool(g, n->type == BN_TRUE);
		break;
	default:
		yajl_gen_null(g);
		break;
	}
}

static cJSON *
walk_cjson(const struct bnode *n)
{
	cJSON *o;
	size_t i;

	switch (n->type) {
	case BN_OBJ:
		o = cJSON_CreateObject();
		for (i = 0; i < n->nkids; i++)
			cJSON_AddItemToObject(o, n->kids[i].key,
			    walk_cjson(&n->kids[i]));
		return o;
	case BN_ARR:
		o = cJSON_CreateArray();
		for (i = 0; i < n->nkids; i++)
			cJSON_AddItemToArray(o, walk_cjson(&n->kids[i]));
		return o;
	case BN_STR:
		return cJSON_CreateString(n->s);
	case BN_INT:
		return cJSON_CreateNumber((double)n->i);
	case BN_REAL:
		return cJSON_CreateNumber(n->f);
	case BN_TRUE:
	case BN_FALSE:
		return cJSON_CreateBool(n->type == BN_TRUE);
	default:
		return cJSON_CreateNull();
	}
}

static json_t *
walk_jansson(const struct bnode *n)
{
	json_t *o;
	size_t i;

	switch (n->type) {
	case BN_OBJ:
		o = json_object();
		for (i = 0; i < n->nkids; i++)
			json_object_set_new(o, n->kids[i].key,
			    walk_jansson(&n->kids[i]));
		return o;
	case BN_ARR:
		o = json_array();
		for (i = 0; i < n->nkids; i++)
			json_array_append_new(o, walk_jansson(&n->kids[i]));
		return o;
	case BN_STR:
		return json_stringn(n->s, n->len);
	case BN_INT:
		return json_integer(n->i);
	case BN_REAL:
		return json_real(n->f);
	case BN_TRUE:
		return json_true();
	case BN_FALSE:
		return json_false();
	default:
		return json_null();
	}
}

static void
large_jenc(void *ctx, uint64_t n)
{
	struct largectx *l = ctx;
	uint64_t i;
	int c;

	for (i = 0; i < n; i++) {
		jenc_reset(l->e);
		jenc_arr_begin(l->e);
		for (c = 0; c < l->copies; c++)
			walk_jenc(l->e, &l->src);
		jenc_arr_end(l->e);
	}
	check_jenc(l->e, "LargeOutput");
}

static void
large_yajl(void *ctx, uint64_t n)
{
	struct largectx *l = ctx;
	uint64_t i;
	int c;

	for (i = 0; i < n; i++) {
		yajl_gen_clear(l->g);
		yajl_gen_reset(l->g, NULL);
		yajl_gen_array_open(l->g);
		for (c = 0; c < l->copies; c++)
			walk_yajl(l->g, &l->src);
		yajl_gen_array_close(l->g);
	}
}

static void
large_cjson(void *ctx, uint64_t n)
{
	struct largectx *l = ctx;
	uint64_t i;
	int c;

	for (i = 0; i < n; i++) {
		cJSON *a = cJSON_CreateArray();

		for (c = 0; c < l->copies; c++)
			cJSON_AddItemToArray(a, walk_cjson(&l->src));
		if (!cJSON_PrintPreallocated(a, l->buf, (int)l->cap, 0))
			die("cJSON_PrintPreallocated failed");
		cJSON_Delete(a);
	}
}

static void
large_jansson(void *ctx, uint64_t n)
{
	struct largectx *l = ctx;
	uint64_t i;
	int c;

	for (i = 0; i < n; i++) {
		json_t *a = json_array();

		for (c = 0; c < l->copies; c++)
			json_array_append_new(a, walk_jansson(&l->src));
		l->len = json_dumpb(a, l->buf, l->cap, JSON_COMPACT);
		if (l->len == 0 || l->len > l->cap)
			die("json_dumpb failed");
		json_decref(a);
	}
}

static void
large_jsonc(void *ctx, uint64_t n)
{
	struct largectx *l = ctx;
	uint64_t i;
	int c;

	for (i = 0; i < n; i++) {
		void *a = bj_array();

		for (c = 0; c < l->copies; c++)
			bj_array_add(a, bj_walk(&l->src));
		if (bj_print(a, &l->len) == NULL)
			die("json-c: printing failed");
		bj_put(a);
	}
}

/*
 * The check runs on a 2-copy output (the full output is the same structure
 * repeated).  From it, cJSON's and jansson's output buffer is sized for
 * the full output before they are timed: 2 brackets, the copies and the
 * commas between them.
 */
static void
large_capture(void *ctx, int lib, struct bytes *out)
{
	struct largectx *l = ctx;
	int copies = l->copies;
	const unsigned char *p;
	size_t len, one;

	free(l->buf);
	l->buf = NULL;
	l->copies = 2;
	l->cap = 0;
	if (lib == L_CJSON || lib == L_JANSSON) {
		/* the 2-copy output, compact, is at most jenc's with every
		 * number in 24 bytes */
		l->cap = 2 * json_dumpb(l->doc, NULL, 0, JSON_COMPACT) + (1 << 20);
		l->buf = xmalloc(l->cap);
	}
	switch (lib) {
	case L_JENC:
		large_jenc(l, 1);
		jenc_collect(l->e, out);
		jenc_reset(l->e);
		break;
	case L_YAJL:
		large_yajl(l, 1);
		yajl_gen_get_buf(l->g, &p, &len);
		bytes_add(out, (const char *)p, len);
		yajl_gen_clear(l->g);
		break;
	case L_CJSON:
		large_cjson(l, 1);
		bytes_add(out, l->buf, strlen(l->buf));
		break;
	case L_JANSSON:
		large_jansson(l, 1);
		bytes_add(out, l->buf, l->len);
		break;
	default: {
		void *a = bj_array();
		const char *s;
		int c;

		for (c = 0; c < l->copies; c++)
			bj_array_add(a, bj_walk(&l->src));
		s = bj_print(a, &len);
		bytes_add(out, s, len);
		bj_put(a);
		break;
	}
	}
	l->copies = copies;
	free(l->buf);
	l->buf = NULL;
	l->cap = 0;
	if (lib == L_CJSON || lib == L_JANSSON) {
		one = (out->len - 3) / 2;
		l->cap = 2 + (size_t)copies * (one + 1) + 64;
		l->buf = xmalloc(l->cap);
	}
}

/* jenc's output for all copies, from its 2-copy output: "[" A "," A "]". */
static double
large_bytes(void *ctx, size_t captured)
{
	struct largectx *l = ctx;
	double one = (double)(captured - 3) / 2;

	return 2 + (double)l->copies * one + (double)(l->copies - 1);
}

static void
run_large_output(const char *code_path, int copies)
{
	static const struct cmp c = {
		"LargeOutput",
		{ large_jenc, large_yajl, large_cjson, large_jansson,
		    large_jsonc },
		large_capture, NULL, 0, 0, large_bytes,
	};
	jenc_opts o = { .flags = JENC_NO_NEWLINE };
	struct largectx l;
	json_error_t err;
	int count = opt_count;

	memset(&l, 0, sizeof(l));
	l.copies = copies;
	l.doc = json_load_file(code_path, 0, &err);
	if (l.doc == NULL) {
		fprintf(stderr, "libbench: %s:%d: %s\n", code_path, err.line,
		    err.text);
		exit(1);
	}
	bnode_from(l.doc, &l.src);
	l.e = jenc_get_mem(&o);
	l.g = yajl_gen_alloc(&yajl_funcs);
	if (l.e == NULL || l.g == NULL)
		die("LargeOutput: setup failed");
	/*
	 * One op of a tree library takes seconds: at most 3 reported loops.
	 * The warm-up op still runs first, for every library, as in every
	 * other benchmark: the 2-copy check before it leaves jenc's segments
	 * and yajl's buffer sized for 2 copies, not 250, so without it the
	 * first reported op measures growing them from nothing.
	 */
	if (opt_count > 3)
		opt_count = 3;
	run_cmp(&c, &l, &l.lib);
	opt_count = count;
	jenc_release(l.e);
	yajl_gen_free(l.g);
	free(l.buf);
	bnode_free(&l.src);
	json_decref(l.doc);
}

/* ---- AllocationWastage: tiny and huge outputs from several threads ---------- */

#define WA_THREADS 4
#define WA_HUGE_RECS 8192
#define WA_HUGE_EVERY 16	/* every 16th op of a thread is huge */
#define WA_SAMPLE_OPS 256	/* ops per thread in the waste pass */

struct wa_thread {
	struct wactx *w;
	int idx;
	pthread_t tid;
	uint64_t k;		/* op counter */
	/* the output this thread holds */
	jenc_enc *held_enc;
	char *held_str;
	size_t held_len;
	yajl_gen g;
};

struct wactx {
	int lib;
	pthread_barrier_t start, done, step;
	uint64_t ops;		/* ops per thread in this batch */
	int sampling, quit;
	struct wa_thread t[WA_THREADS];
	int64_t base;		/* live bytes before the waste pass */
	double waste_sum, waste_max;
	uint64_t samples;
	uint64_t out_bytes;	/* output bytes, for MB/s */
};

static void
wa_release_held(struct wa_thread *t)
{
	if (t->held_enc != NULL)
		jenc_release(t->held_enc);
	t->held_enc = NULL;
	if (t->held_str != NULL) {
		if (t->w->lib == L_CJSON)
			cJSON_free(t->held_str);
		else
			free(t->held_str);
	}
	t->held_str = NULL;
	t->held_len = 0;
}

/* One op: give back the previous output, make the next and hold it. */
static void
wa_op(struct wa_thread *t)
{
	int huge = t->k % WA_HUGE_EVERY == WA_HUGE_EVERY - 1;
	size_t first = (size_t)(t->k * 31 % NREC), nrec = huge ? WA_HUGE_RECS : 1;
	size_t k;

	if (first + nrec > NREC)
		first = 0;
	t->k++;
	if (t->w->lib != L_YAJL)
		wa_release_held(t);
	switch (t->w->lib) {
	case L_JENC: {
		jenc_opts o = { .flags = JENC_NO_NEWLINE };
		jenc_enc *e = jenc_get_mem(&o);

		if (e == NULL)
			die("jenc_get_mem failed");
		if (huge)
			jenc_arr_begin(e);
		for (k = 0; k < nrec; k++)
			rec_jenc(e, &recs[first + k]);
		if (huge)
			jenc_arr_end(e);
		check_jenc(e, "AllocationWastage");
		t->held_enc = e;
		t->held_len = jenc_len(e);
		break;
	}
	case L_YAJL: {
		const unsigned char *p;

		yajl_gen_clear(t->g);
		yajl_gen_reset(t->g, NULL);
		if (huge)
			yajl_gen_array_open(t->g);
		for (k = 0; k < nrec; k++)
			rec_yajl(t->g, &recs[first + k]);
		if (huge)
			yajl_gen_array_close(t->g);
		yajl_gen_get_buf(t->g, &p, &t->held_len);
		t->held_str = NULL;
		break;
	}
	case L_CJSON: {
		cJSON *o;

		if (huge) {
			o = cJSON_CreateArray();
			for (k = 0; k < nrec; k++)
				cJSON_AddItemToArray(o, rec_cjson(&recs[first + k]));
		} else
			o = rec_cjson(&recs[first]);
		t->held_str = cJSON_PrintUnformatted(o);
		t->held_len = strlen(t->held_str);
		cJSON_Delete(o);
		break;
	}
	case L_JANSSON: {
		json_t *o;

		if (huge) {
			o = json_array();
			for (k = 0; k < nrec; k++)
				json_array_append_new(o, rec_jansson(&recs[first + k]));
		} else
			o = rec_jansson(&recs[first]);
		t->held_str = json_dumps(o, JSON_COMPACT);
		t->held_len = strlen(t->held_str);
		json_decref(o);
		break;
	}
	default: {
		void *o;
		const char *s;

		if (huge) {
			o = bj_array();
			for (k = 0; k < nrec; k++)
				bj_array_add(o, bj_rec(&recs[first + k]));
		} else
			o = bj_rec(&recs[first]);
		/* the string belongs to o: keep a copy, free the tree */
		s = bj_print(o, &t->held_len);
		t->held_str = xmalloc(t->held_len + 1);
		memcpy(t->held_str, s, t->held_len + 1);
		bj_put(o);
		break;
	}
	}
}

static void *
wa_worker(void *arg)
{
	struct wa_thread *t = arg;
	struct wactx *w = t->w;

	for (;;) {
		uint64_t a0, b0, i, out = 0;

		pthread_barrier_wait(&w->start);
		if (w->quit)
			break;
		a0 = t_allocs;
		b0 = t_bytes;
		if (w->lib == L_YAJL && t->g == NULL)
			t->g = yajl_gen_alloc(&yajl_funcs);
		for (i = 0; i < w->ops; i++) {
			wa_op(t);
			out += t->held_len;
			if (w->sampling) {
				/* all threads hold a finished output here */
				if (pthread_barrier_wait(&w->step) ==
				    PTHREAD_BARRIER_SERIAL_THREAD) {
					int64_t held = 0;
					double waste;
					int j;

					for (j = 0; j < WA_THREADS; j++)
						held += (int64_t)w->t[j].held_len;
					waste = (double)(atomic_load(&live_bytes) -
					    w->base - held) / WA_THREADS;
					w->waste_sum += waste;
					if (waste > w->waste_max)
						w->waste_max = waste;
					w->samples++;
				}
				pthread_barrier_wait(&w->step);
			}
		}
		atomic_fetch_add(&foreign_allocs, t_allocs - a0);
		atomic_fetch_add(&foreign_bytes, t_bytes - b0);
		if (t->idx == 0)
			w->out_bytes = out * WA_THREADS;
		pthread_barrier_wait(&w->done);
	}
	return NULL;
}

/* n ops in all, split over the threads. */
static void
wa_batch(struct wactx *w, uint64_t n)
{
	w->ops = (n + WA_THREADS - 1) / WA_THREADS;
	pthread_barrier_wait(&w->start);
	pthread_barrier_wait(&w->done);
}

static void
wa_run(void *ctx, uint64_t n)
{
	wa_batch(ctx, n);
}

static void
wa_free_all(struct wactx *w)
{
	int j;

	for (j = 0; j < WA_THREADS; j++) {
		wa_release_held(&w->t[j]);
		if (w->t[j].g != NULL)
			yajl_gen_free(w->t[j].g);
		w->t[j].g = NULL;
		w->t[j].k = 0;
	}
}

/*
 * After each timed line: the waste pass.  Everything the library holds is
 * given back and the pools trimmed, live bytes are tracked from there, and
 * the threads run WA_SAMPLE_OPS ops each, stopping together after each op
 * while one of them samples: live bytes - bytes before - bytes of the
 * outputs held = capacity held but unused, per thread.
 */
static void
wa_extra(void *ctx)
{
	struct wactx *w = ctx;

	wa_free_all(w);
	jenc_pool_trim();
	atomic_store(&live_on, 1);
	w->base = atomic_load(&live_bytes);
	w->waste_sum = w->waste_max = 0;
	w->samples = 0;
	w->sampling = 1;
	wa_batch(w, (uint64_t)WA_SAMPLE_OPS * WA_THREADS);
	w->sampling = 0;
	wa_free_all(w);
	atomic_store(&live_on, 0);
	printf("\t%.0f wasted-B/op\t%.0f max-wasted-B",
	    w->waste_sum / (double)w->samples, w->waste_max);
}

static void
wa_capture(void *ctx, int lib, struct bytes *out)
{
	struct wactx *w = ctx;
	struct wa_thread *t = &w->t[0];
	const unsigned char *p;
	int i;

	(void)lib;
	wa_free_all(w);
	if (w->lib == L_YAJL)
		t->g = yajl_gen_alloc(&yajl_funcs);
	/* op 0 is tiny, op 15 huge: capture both */
	for (i = 0; i < WA_HUGE_EVERY; i++) {
		wa_op(t);
		if (i != 0 && i != WA_HUGE_EVERY - 1)
			continue;
		if (t->held_enc != NULL)
			jenc_collect(t->held_enc, out);
		else if (w->lib == L_YAJL) {
			yajl_gen_get_buf(t->g, &p, &t->held_len);
			bytes_add(out, (const char *)p, t->held_len);
		} else
			bytes_add(out, t->held_str, t->held_len);
		bytes_add(out, "\n", 1);
	}
	wa_free_all(w);
}

static void
run_allocation_wastage(void)
{
	static const struct cmp c = {
		"AllocationWastage",
		{ wa_run, wa_run, wa_run, wa_run, wa_run },
		wa_capture, wa_extra, 1, 1, NULL,
	};
	struct wactx *w = calloc(1, sizeof(*w));
	int j;

	if (w == NULL)
		die("out of memory");
	pthread_barrier_init(&w->start, NULL, WA_THREADS + 1);
	pthread_barrier_init(&w->done, NULL, WA_THREADS + 1);
	pthread_barrier_init(&w->step, NULL, WA_THREADS);
	for (j = 0; j < WA_THREADS; j++) {
		w->t[j].w = w;
		w->t[j].idx = j;
		if (pthread_create(&w->t[j].tid, NULL, wa_worker, &w->t[j]) != 0)
			die("pthread_create failed");
	}
	run_cmp(&c, w, &w->lib);
	w->quit = 1;
	pthread_barrier_wait(&w->start);
	for (j = 0; j < WA_THREADS; j++)
		pthread_join(w->t[j].tid, NULL);
	wa_free_all(w);
	free(w);
}

/* ---- main ---------------------------------------------------------------- */

static void
usage(void)
{
	fprintf(stderr, "usage: libbench [-benchtime SECONDS] [-count N] "
	    "[-bench SUBSTRING] [-lib NAME,...] [-copies N] -code PATH\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *code_path = NULL;
	int copies = 250, i;

	for (i = 1; i < argc; i++) {
		char *end;

		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "-benchtime") == 0) {
			opt_benchtime = strtod(argv[++i], &end);
			if (*end != '\0' || opt_benchtime <= 0)
				usage();
		} else if (strcmp(argv[i], "-count") == 0) {
			opt_count = (int)strtol(argv[++i], &end, 10);
			if (*end != '\0' || opt_count < 1)
				usage();
		} else if (strcmp(argv[i], "-copies") == 0) {
			copies = (int)strtol(argv[++i], &end, 10);
			if (*end != '\0' || copies < 1)
				usage();
		} else if (strcmp(argv[i], "-bench") == 0)
			opt_filter = argv[++i];
		else if (strcmp(argv[i], "-lib") == 0)
			opt_libs = argv[++i];
		else if (strcmp(argv[i], "-code") == 0)
			code_path = argv[++i];
		else
			usage();
	}
	if (code_path == NULL)
		usage();
	json_set_alloc_funcs(hook_malloc, hook_free);
	recs_init();
	printf("goos: linux\npkg: jenc/bench\n");
	printf("note: yajl %d.%d.%d, cJSON %d.%d.%d, jansson %s, json-c %s, "
	    "jenc %s\n", YAJL_MAJOR, YAJL_MINOR, YAJL_MICRO,
	    CJSON_VERSION_MAJOR, CJSON_VERSION_MINOR, CJSON_VERSION_PATCH,
	    JANSSON_VERSION, bj_version(), JENC_VERSION);
	fflush(stdout);
	run_go_table();
	if (selected("CompareMemory"))
		run_compare_memory();
	if (selected("CompareStream"))
		run_compare_stream();
	if (selected("NewEncoderEncode"))
		run_new_encoder_encode();
	if (selected("LargeOutput"))
		run_large_output(code_path, copies);
	if (selected("AllocationWastage"))
		run_allocation_wastage();
	return exit_status;
}
