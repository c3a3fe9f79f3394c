/*
 * pool.c - the allocator every block of the library comes from (libc's,
 * or the one a program installs with jenc_set_alloc), counted for
 * jenc_pool_stats, and the size-class pools of output segments.
 *
 * Classes are powers of two from 4 KiB to 64 KiB; a segment larger than
 * 64 KiB is never kept.  The 4 to 32 KiB classes keep at most class_max[]
 * free segments each, shared by all threads under one lock per class.
 * 64 KiB segments, the ones every large output is made of, are kept per
 * thread instead, at most TC_MAX of them: a thread that builds large
 * outputs one after another reuses its own without a lock, several
 * threads doing so at once do not take each other's, and what one thread
 * keeps is freed when it exits.  These pools, the encoder pool (enc_out.c),
 * the installed allocator and the counters are the library's only global
 * state.
 *
 * The budgets: 512 KiB shared (SHARED_MAX_BYTES) plus 448 KiB per thread,
 * so that whatever one thread released, the pools never keep 1 MiB for
 * it.  The first segment of every encoder is a 4 KiB one: 64 of them let
 * as many small outputs (the encoder pool's size) be built at once without
 * allocating.  Four each of 8, 16 and 32 KiB (eight of 8 KiB, the same
 * bytes as four of 16 KiB) serve four outputs growing at once.  Seven
 * 64 KiB segments hold a 500 KB output.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "seg.h"

/* Free segments kept in the shared pools: 4, 8, 16, 32 KiB (64 KiB: none,
 * those are kept per thread). */
static const size_t class_max[JENC_SEG_NCLASS] = { 64, 8, 4, 4, 0 };
#define TC_CLASS (JENC_SEG_NCLASS - 1)	/* the 64 KiB class */
#define TC_MAX 7			/* 64 KiB segments kept per thread */

#define SHARED_MAX_BYTES ((size_t)512 * 1024)
_Static_assert(64 * 4096 + 8 * 8192 + 4 * 16384 + 4 * 32768 ==
    SHARED_MAX_BYTES, "class_max[] adds up to SHARED_MAX_BYTES");

struct pool_class {
	pthread_mutex_t lock;
	jenc_seg *free;
	size_t count;
};

static struct pool_class classes[JENC_SEG_NCLASS] = {
	{ PTHREAD_MUTEX_INITIALIZER, NULL, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, NULL, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, NULL, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, NULL, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, NULL, 0 },
};

static _Atomic uint64_t stat_mallocs, stat_frees, stat_bytes;

/* ---- the allocator ---- */

static void *
pool_libc_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return malloc(n);
}

static void *
pool_libc_realloc(void *ctx, void *p, size_t old_n, size_t n)
{
	(void)ctx;
	(void)old_n;
	return realloc(p, n);
}

static void
pool_libc_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	(void)n;
	free(p);
}

static const jenc_alloc libc_alloc = {
	pool_libc_malloc, pool_libc_realloc, pool_libc_free, NULL
};
/* Written only by jenc_set_alloc, while the library holds no block. */
static jenc_alloc alc = {
	pool_libc_malloc, pool_libc_realloc, pool_libc_free, NULL
};

int
jenc_set_alloc(const jenc_alloc *a)
{
	if (a == NULL)
		a = &libc_alloc;
	if (a->malloc == NULL || a->free == NULL)
		return JENC_E_STATE;
	/* Every block from the allocator in place must have gone back to
	 * it: the new one could not free them. */
	if (atomic_load(&stat_mallocs) != atomic_load(&stat_frees))
		return JENC_E_STATE;
	alc = *a;
	return 0;
}

void *
jenc_mem_alloc(size_t n)
{
	void *p = alc.malloc(alc.ctx, n);

	if (p != NULL) {
		atomic_fetch_add_explicit(&stat_mallocs, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&stat_bytes, n, memory_order_relaxed);
	}
	return p;
}

void *
jenc_mem_realloc(void *p, size_t old_n, size_t n)
{
	void *q;

	if (p == NULL)
		return jenc_mem_alloc(n);
	if (alc.realloc != NULL) {
		q = alc.realloc(alc.ctx, p, old_n, n);
	} else if ((q = alc.malloc(alc.ctx, n)) != NULL) {
		memcpy(q, p, old_n < n ? old_n : n);
		alc.free(alc.ctx, p, old_n);
	}
	if (q != NULL) {
		/* counted as a free of p and a new block */
		atomic_fetch_add_explicit(&stat_mallocs, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&stat_bytes, n, memory_order_relaxed);
		atomic_fetch_add_explicit(&stat_frees, 1, memory_order_relaxed);
	}
	return q;
}

void
jenc_mem_free(void *p, size_t n)
{
	if (p == NULL)
		return;
	atomic_fetch_add_explicit(&stat_frees, 1, memory_order_relaxed);
	alc.free(alc.ctx, p, n);
}

/* ---- the per-thread cache of 64 KiB segments ---- */

struct tcache {
	jenc_seg *free;
	size_t count;
};

static pthread_key_t tc_key;
static pthread_once_t tc_once = PTHREAD_ONCE_INIT;
static int tc_ready;

static void
pool_tc_free_list(jenc_seg *s)
{
	while (s != NULL) {
		jenc_seg *next = s->next;

		jenc_mem_free(s, sizeof(*s) + s->cap);
		s = next;
	}
}

/* A thread exits: free what it kept. */
static void
pool_tc_exit(void *p)
{
	struct tcache *tc = p;

	pool_tc_free_list(tc->free);
	jenc_mem_free(tc, sizeof(*tc));
}

static void
pool_tc_init(void)
{
	tc_ready = pthread_key_create(&tc_key, pool_tc_exit) == 0;
}

/* This thread's cache; with create, made on first use (NULL: none). */
static struct tcache *
pool_tc_get(int create)
{
	struct tcache *tc;

	pthread_once(&tc_once, pool_tc_init);
	if (!tc_ready)
		return NULL;
	tc = pthread_getspecific(tc_key);
	if (tc == NULL && create && (tc = jenc_mem_alloc(sizeof(*tc))) != NULL) {
		tc->free = NULL;
		tc->count = 0;
		if (pthread_setspecific(tc_key, tc) != 0) {
			jenc_mem_free(tc, sizeof(*tc));
			tc = NULL;
		}
	}
	return tc;
}

/* Class index for a capacity that is a class size, or -1. */
static int
pool_class_of(size_t cap)
{
	int c = 0;
	size_t sz = JENC_SEG_MIN;

	for (; c < JENC_SEG_NCLASS; c++, sz <<= 1)
		if (sz == cap)
			return c;
	return -1;
}

jenc_seg *
jenc_seg_get(size_t want)
{
	size_t cap = JENC_SEG_MIN;
	jenc_seg *s = NULL;
	int c = 0;

	while (cap < want && cap < JENC_SEG_MAX) {
		cap <<= 1;
		c++;
	}
	if (want > JENC_SEG_MAX) {
		cap = want;
		c = -1;
	}
	if (c == TC_CLASS) {
		struct tcache *tc = pool_tc_get(0);

		if (tc != NULL && (s = tc->free) != NULL) {
			tc->free = s->next;
			tc->count--;
		}
	} else if (c >= 0) {
		struct pool_class *pc = &classes[c];

		pthread_mutex_lock(&pc->lock);
		if ((s = pc->free) != NULL) {
			pc->free = s->next;
			pc->count--;
		}
		pthread_mutex_unlock(&pc->lock);
	}
	if (s == NULL) {
		if ((s = jenc_mem_alloc(sizeof(*s) + cap)) == NULL)
			return NULL;
		s->cap = cap;
	}
	s->next = NULL;
	s->len = s->off = 0;
	return s;
}

void
jenc_seg_release(jenc_seg *s)
{
	int c;

	if (s == NULL)
		return;
	c = pool_class_of(s->cap);
	if (c == TC_CLASS) {
		struct tcache *tc = pool_tc_get(1);

		if (tc != NULL && tc->count < TC_MAX) {
			s->next = tc->free;
			tc->free = s;
			tc->count++;
			s = NULL;
		}
	} else if (c >= 0) {
		struct pool_class *pc = &classes[c];

		pthread_mutex_lock(&pc->lock);
		if (pc->count < class_max[c]) {
			s->next = pc->free;
			pc->free = s;
			pc->count++;
			s = NULL;
		}
		pthread_mutex_unlock(&pc->lock);
	}
	if (s != NULL)
		jenc_mem_free(s, sizeof(*s) + s->cap);
}

void
jenc_seg_put_list(jenc_seg *s)
{
	while (s != NULL) {
		jenc_seg *next = s->next;

		jenc_seg_release(s);
		s = next;
	}
}

void
jenc_pool_stats_get(jenc_pool_stats *st)
{
	size_t c, sz = JENC_SEG_MIN;

	st->mallocs = atomic_load(&stat_mallocs);
	st->frees = atomic_load(&stat_frees);
	st->bytes = atomic_load(&stat_bytes);
	st->held_bytes = 0;
	st->held_segments = 0;
	for (c = 0; c < JENC_SEG_NCLASS; c++, sz <<= 1) {
		pthread_mutex_lock(&classes[c].lock);
		st->held_segments += classes[c].count;
		st->held_bytes += classes[c].count * sz;
		pthread_mutex_unlock(&classes[c].lock);
	}
	struct tcache *tc = pool_tc_get(0);
	if (tc != NULL) {
		st->held_segments += tc->count;
		st->held_bytes += tc->count * JENC_SEG_MAX;
	}
}

/* The readers' work counters: see jenc_read_stats_get. */
static _Atomic uint64_t work[JENC_W_N];

void
jenc_work_add(int k, uint64_t n)
{
	atomic_fetch_add_explicit(&work[k], n, memory_order_relaxed);
}

void
jenc_read_stats_get(jenc_read_stats *st)
{
	st->bytes_in = atomic_load(&work[JENC_W_BYTES_IN]);
	st->reads = atomic_load(&work[JENC_W_READS]);
	st->waits = atomic_load(&work[JENC_W_WAITS]);
	st->grows = atomic_load(&work[JENC_W_GROWS]);
	st->moved = atomic_load(&work[JENC_W_MOVED]);
	st->skel_bytes = atomic_load(&work[JENC_W_SKEL]);
	st->jsmn_calls = atomic_load(&work[JENC_W_JSMN_CALLS]);
	st->jsmn_bytes = atomic_load(&work[JENC_W_JSMN_BYTES]);
	st->cut_bytes = atomic_load(&work[JENC_W_CUT]);
	st->slow_bytes = atomic_load(&work[JENC_W_SLOW]);
	st->threads = atomic_load(&work[JENC_W_THREADS]);
}

void
jenc_seg_trim(void)
{
	size_t c;

	for (c = 0; c < JENC_SEG_NCLASS; c++) {
		jenc_seg *list;

		pthread_mutex_lock(&classes[c].lock);
		list = classes[c].free;
		classes[c].free = NULL;
		classes[c].count = 0;
		pthread_mutex_unlock(&classes[c].lock);
		pool_tc_free_list(list);
	}
	/* This thread's cache goes too (made again on its next use), so that
	 * after a trim the library holds no block for this thread. */
	struct tcache *tc = pool_tc_get(0);
	if (tc != NULL && pthread_setspecific(tc_key, NULL) == 0)
		pool_tc_exit(tc);
}
