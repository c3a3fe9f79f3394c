/*
 * seg.h - output segments and their pools (pool.c).
 *
 * A segment holds bytes [off, len) of output not yet written to a sink in
 * data[0..cap).  Segments of 4, 8, 16, 32 and 64 KiB come from per-class
 * pools; a larger one is allocated to its exact size and freed when put
 * back.
 */
#ifndef JENC_SEG_H
#define JENC_SEG_H

#include <stddef.h>

#define JENC_SEG_MIN ((size_t)4096)
#define JENC_SEG_MAX ((size_t)65536)
#define JENC_SEG_NCLASS 5

typedef struct jenc_seg {
	struct jenc_seg *next;
	size_t cap;
	size_t len;
	size_t off;
} jenc_seg;

#define JENC_SEG_DATA(s) ((char *)((s) + 1))

/* A segment of at least want bytes (the class size, or exactly want above
 * 64 KiB), empty; NULL if allocation fails. */
jenc_seg *jenc_seg_get(size_t want);
/* Give s back: kept by its class pool if under budget, else freed. */
void jenc_seg_release(jenc_seg *s);
void jenc_seg_put_list(jenc_seg *s);
/* Free every segment the pools keep: the shared classes and the calling
 * thread's cache (jenc_pool_trim, in enc_out.c, calls it after freeing the
 * encoders it keeps). */
void jenc_seg_trim(void);

#endif
