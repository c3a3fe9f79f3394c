/*
 * sort.c - JENC_SORT_KEYS: the members of each object are written apart
 * and put in key order when the object ends.
 *
 * While an object is open, everything the encoder writes goes to a side
 * buffer, a segment list like the main output that never reaches the sink
 * (enc_opts.c swaps the two: jenc_out_ops.side).  What is written there is
 * recorded as pieces, spans of the side buffer's bytes in output order.  A
 * new piece starts at each member's ',' (every member is written with
 * one), so a member is a run of whole pieces, and an object inside it
 * stays one once it is closed.  When an object ends, the runs of its
 * members are put in order (a stable merge sort by key) and the ',' of
 * the new first member is cut off its first piece: pieces move, bytes do
 * not.  When the outermost object ends, its pieces are copied to the main
 * output in order, and the side buffer is emptied.
 *
 * Keys are compared as their code points: written out as UTF-8 (raw keys
 * unescaped first), compared byte by byte, a prefix first.
 *
 * Memory, for the outermost open object: its output bytes in the side
 * buffer; one piece (16 bytes) for each of its members and each object
 * inside it, and one more for each segment boundary; a member record (32
 * bytes, an 8-byte prefix of the key included, which settles most
 * comparisons) and the unescaped key for each member of the objects still
 * open; while an object is sorted, two indices and a piece (32 bytes) per
 * member of it.  So at most 80 bytes and the key per member.
 */
#include <string.h>

#include "internal.h"
#include "swar.h"
#include "seg.h"

struct piece {
	const char *p;
	size_t n;
};

struct member {
	uint64_t pre;		/* the key's first 8 bytes, big-endian */
	size_t key, klen;	/* its unescaped key: keys[key..key+klen) */
	size_t piece;		/* its first piece */
};

struct jenc_sort {
	const jenc_out_ops *ops; /* the encoder's output (enc_opts.c) */
	struct piece *pc;	/* the pieces of the outermost open object */
	size_t npc, cap_pc;
	struct member *m;	/* members of the open objects, in order */
	size_t nm, cap_m;
	char *keys;
	size_t nkeys, cap_keys;
	size_t *open;		/* first member of each open object */
	size_t nopen, cap_open;
	jenc_seg *at_seg;	/* where the piece being written starts; */
	char *at;		/* NULL: at the start of the side buffer */
	size_t *idx;		/* scratch for sorting: 2 per member */
	size_t cap_idx;
	struct piece *tmp;	/* scratch for reordering pieces */
	size_t cap_tmp;
};

/* Arrays above this many bytes are freed when the outermost object ends. */
#define KEEP_MAX ((size_t)64 * 1024)

/* Room for n elements in s->arr (capacity s->cap), doubling. */
#define RESERVE(s, arr, cap, n) ((n) <= (s)->cap ? 0 : \
	jenc_grow((void **)&(s)->arr, &(s)->cap, (n), 16, sizeof(*(s)->arr)))

static void
sort_free_arr(void **a, size_t *cap, size_t sz, size_t keep)
{
	if (*a != NULL && *cap * sz > keep) {
		jenc_mem_free(*a, *cap * sz);
		*a = NULL;
		*cap = 0;
	}
}

#define FREE_ARR(s, arr, cap, keep) \
	sort_free_arr((void **)&(s)->arr, &(s)->cap, sizeof(*(s)->arr), (keep))

static void
sort_trim(struct jenc_sort *s, size_t keep)
{
	FREE_ARR(s, pc, cap_pc, keep);
	FREE_ARR(s, m, cap_m, keep);
	FREE_ARR(s, keys, cap_keys, keep);
	FREE_ARR(s, open, cap_open, keep);
	FREE_ARR(s, idx, cap_idx, keep);
	FREE_ARR(s, tmp, cap_tmp, keep);
}

/* No piece, the side buffer emptied: the outermost object is out. */
static void
sort_clear(jenc_enc *e, struct jenc_sort *s)
{
	s->npc = 0;
	s->at = NULL;
	s->ops->side_clear(e);
	sort_trim(s, KEEP_MAX);
}

static inline int
sort_piece(jenc_enc *e, struct jenc_sort *s, const char *from, size_t n)
{
	if (RESERVE(s, pc, cap_pc, s->npc + 1) != 0)
		return s->ops->fail(e, JENC_E_NOMEM);
	s->pc[s->npc].p = from;
	s->pc[s->npc].n = n;
	s->npc++;
	return 0;
}

/* sort_cut when the piece does not start in tail. */
static int
sort_cut_segs(jenc_enc *e, struct jenc_sort *s, jenc_seg *tail, char *p)
{
	jenc_seg *head, *t, *seg;
	char *from, *q;

	if (tail == NULL)
		return 0;
	if (s->at == NULL) {	/* the first piece: the side buffer's start */
		s->ops->at(e, &head, &t, &q);
		seg = head;
		from = JENC_SEG_DATA(head);
	} else {
		seg = s->at_seg;
		from = s->at;
	}
	for (;;) {
		char *to = seg == tail ? p : JENC_SEG_DATA(seg) + seg->len;

		if (to > from && sort_piece(e, s, from, (size_t)(to - from)) != 0)
			return s->ops->error(e);
		if (seg == tail)
			break;
		seg = seg->next;
		from = JENC_SEG_DATA(seg);
	}
	s->at_seg = tail;
	s->at = p;
	return 0;
}

/* End the piece being written at the cursor p in tail, as one piece per
 * segment. */
static inline int
sort_cut(jenc_enc *e, struct jenc_sort *s, jenc_seg *tail, char *p)
{
	if (s->at_seg != tail || s->at == NULL || tail == NULL)
		return sort_cut_segs(e, s, tail, p);
	/* the usual case: the piece started in the segment being written */
	if (p > s->at && sort_piece(e, s, s->at, (size_t)(p - s->at)) != 0)
		return s->ops->error(e);
	s->at = p;
	return 0;
}

static inline int
sort_cmp(const struct jenc_sort *s, const struct member *a,
    const struct member *b)
{
	size_t n;
	int c;

	if (a->pre != b->pre)
		return a->pre < b->pre ? -1 : 1;
	n = a->klen < b->klen ? a->klen : b->klen;
	if (n > 8 && (c = memcmp(s->keys + a->key + 8, s->keys + b->key + 8,
	    n - 8)) != 0)
		return c;
	return (a->klen > b->klen) - (a->klen < b->klen);
}

/*
 * Sort a[0..n), indices of the members m[0..n), by key, stably: runs of 8
 * by insertion, then merged bottom-up through t[0..n).  Returns the array
 * that holds the result (a or t).
 */
static size_t *
sort_members(const struct jenc_sort *s, const struct member *m, size_t *a,
    size_t *t, size_t n)
{
	size_t lo, w;

	for (lo = 0; lo < n; lo += 8) {
		size_t hi = lo + 8 < n ? lo + 8 : n, i, j;

		for (i = lo + 1; i < hi; i++) {
			size_t x = a[i];

			for (j = i; j > lo && sort_cmp(s, &m[a[j - 1]], &m[x]) > 0;
			    j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	}
	for (w = 8; w < n; w *= 2) {
		size_t *sw;

		for (lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				t[k++] = sort_cmp(s, &m[a[j]], &m[a[i]]) < 0 ?
				    a[j++] : a[i++];
			while (i < mid)
				t[k++] = a[i++];
			while (j < hi)
				t[k++] = a[j++];
		}
		sw = a;
		a = t;
		t = sw;
	}
	return a;
}

/* Put the k members from m[f] in key order: their runs of pieces. */
static int
sort_object(jenc_enc *e, struct jenc_sort *s, size_t f, size_t k)
{
	const struct member *m = s->m + f;
	size_t base = m[0].piece, total = s->npc - base, i, o = 0, *order;

	for (i = 1; i < k; i++)
		if (sort_cmp(s, &m[i - 1], &m[i]) > 0)
			break;
	if (i == k)
		return 0;	/* in order already */
	if (RESERVE(s, idx, cap_idx, 2 * k) != 0 ||
	    RESERVE(s, tmp, cap_tmp, total) != 0)
		return s->ops->fail(e, JENC_E_NOMEM);
	for (i = 0; i < k; i++)
		s->idx[i] = i;
	order = sort_members(s, m, s->idx, s->idx + k, k);
	for (i = 0; i < k; i++) {
		size_t j = order[i];
		size_t from = m[j].piece;
		size_t to = j + 1 < k ? m[j + 1].piece : s->npc;

		/* most members are one piece or a few */
		while (from < to)
			s->tmp[o++] = s->pc[from++];
	}
	memcpy(s->pc + base, s->tmp, total * sizeof(*s->tmp));
	return 0;
}

int
jenc_sort_open(jenc_enc *e, const jenc_out_ops *ops, struct jenc_sort **sp)
{
	struct jenc_sort *s = *sp;

	if (s == NULL) {
		if ((s = jenc_mem_alloc(sizeof(*s))) == NULL)
			return ops->fail(e, JENC_E_NOMEM);
		memset(s, 0, sizeof(*s));
		*sp = s;
	}
	s->ops = ops;
	if (RESERVE(s, open, cap_open, s->nopen + 1) != 0)
		return s->ops->fail(e, JENC_E_NOMEM);
	if (s->nopen == 0) {
		s->ops->side(e, 1);
		s->at = NULL;
		s->npc = 0;
	}
	s->open[s->nopen++] = s->nm;
	return 0;
}


/*
 * Copy k[0..n) to o (room for n bytes) if none of them is a backslash,
 * and return 1; else return 0 (o then holds anything).  Most keys are
 * short and have no escape: up to 16 bytes take two overlapping words,
 * with no call.
 */
static inline int
sort_copy_plain(char *o, const char *k, size_t n)
{
	if (n >= 8 && n <= 16) {
		uint64_t a, b;

		memcpy(&a, k, 8);
		memcpy(&b, k + n - 8, 8);
		if ((sw_eq(a, '\\') | sw_eq(b, '\\')) != 0)
			return 0;
		memcpy(o, &a, 8);
		memcpy(o + n - 8, &b, 8);
		return 1;
	}
	if (n >= 4 && n < 8) {
		uint32_t a, b;

		memcpy(&a, k, 4);
		memcpy(&b, k + n - 4, 4);
		if (sw_eq((uint64_t)a << 32 | b, '\\'))
			return 0;
		memcpy(o, &a, 4);
		memcpy(o + n - 4, &b, 4);
		return 1;
	}
	if (n < 4) {
		size_t i;

		for (i = 0; i < n; i++) {
			if (k[i] == '\\')
				return 0;
			o[i] = k[i];
		}
		return 1;
	}
	if (memchr(k, '\\', n) != NULL)
		return 0;
	memcpy(o, k, n);
	return 1;
}

int
jenc_sort_key(jenc_enc *e, struct jenc_sort *s, jenc_seg *tail, char *p,
    const char *k, size_t n, int raw)
{
	struct member *m;
	char *kb;
	uint64_t pre;
	static const char zero[8];

	if (sort_cut(e, s, tail, p) != 0)
		return s->ops->error(e);
	/* the key, then 8 zero bytes that make its prefix */
	if (RESERVE(s, m, cap_m, s->nm + 1) != 0 ||
	    RESERVE(s, keys, cap_keys, s->nkeys + n + 8) != 0)
		return s->ops->fail(e, JENC_E_NOMEM);
	m = &s->m[s->nm++];
	m->key = s->nkeys;
	m->piece = s->npc;
	kb = s->keys + s->nkeys;
	if (!raw) {
		if (n > 0)
			memcpy(kb, k, n);
		m->klen = n;
	} else if (sort_copy_plain(kb, k, n)) {
		m->klen = n;
	} else {
		/* (raw keys are not validated; a lone surrogate as its
		 * three bytes keeps the order of the code points) */
		m->klen = jenc_utf8_unescape(kb, k, n, JENC_LONE_KEEP);
	}
	memcpy(kb + m->klen, zero, 8);
	memcpy(&pre, kb, 8);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
	pre = __builtin_bswap64(pre);
#endif
	m->pre = pre;
	s->nkeys += m->klen;
	return 0;
}

int
jenc_sort_close(jenc_enc *e, struct jenc_sort *s, jenc_seg *tail, char *p,
    size_t *members)
{
	size_t f = s->open[s->nopen - 1], k = s->nm - f, i;
	int rc = 0;

	if (sort_cut(e, s, tail, p) != 0)
		return s->ops->error(e);
	*members = k;
	if (k > 1 && sort_object(e, s, f, k) != 0)
		return s->ops->error(e);
	if (k > 0) {
		/* the first member's ',' is the first byte of its pieces */
		for (i = s->m[f].piece; i < s->npc && s->pc[i].n == 0; i++)
			;
		s->pc[i].p++;
		s->pc[i].n--;
		s->nkeys = s->m[f].key;
	}
	s->nm = f;
	if (--s->nopen > 0)
		return 0;
	/* The outermost object: its members go out, runs of pieces that
	 * follow each other in the side buffer (in order already) at once. */
	s->ops->side(e, 0);
	for (i = 0; i < s->npc && rc == 0; i++) {
		const char *q = s->pc[i].p;
		size_t n = s->pc[i].n;

		while (i + 1 < s->npc && s->pc[i + 1].p == q + n)
			n += s->pc[++i].n;
		if (n > 0)
			rc = s->ops->put(e, q, n);
	}
	sort_clear(e, s);
	return rc;
}

void
jenc_sort_drop(jenc_enc *e, struct jenc_sort *s)
{
	s->ops->side(e, 0);
	s->nm = s->nkeys = s->nopen = 0;
	sort_clear(e, s);
}

void
jenc_sort_free(struct jenc_sort *s)
{
	if (s == NULL)
		return;
	sort_trim(s, 0);
	jenc_mem_free(s, sizeof(*s));
}
