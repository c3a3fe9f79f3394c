/*
 * csv_names.c - the header's names in the CSV/TSV reader: each made
 * unique (a hash table; "_2", "_3", ... for a repeat, "_N" for an empty
 * one), with its key text "name": built once for records written as text
 * (csv_out.c); the delimiter a header seems to use instead of the one
 * given (for the message of a record with the wrong field count); and
 * the tree --nest makes of names that hold the separator, walked into a
 * plan of keys and columns.
 */
#include <stdio.h>
#include <string.h>

#include "csv_int.h"

static uint64_t
csv_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	while (n--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The slot where the name s[0..n) is, or the empty slot where it goes. */
static size_t
csv_names_slot(const struct csv_names *nm, const char *s, size_t n)
{
	size_t mask = nm->nslot - 1, j = (size_t)csv_hash(s, n) & mask;

	for (;; j = (j + 1) & mask) {
		const struct csv_name *x;

		if (nm->slot[j] == 0)
			return j;
		x = &nm->v[nm->slot[j] - 1];
		if (x->len == n && memcmp(nm->buf + x->off, s, n) == 0)
			return j;
	}
}

static int
csv_names_rehash(struct csv_names *nm)
{
	size_t ns = nm->nslot ? nm->nslot * 2 : 64, k;
	uint32_t *old = nm->slot;
	size_t oldn = nm->nslot;

	nm->slot = jenc_mem_alloc(ns * sizeof *nm->slot);
	if (nm->slot == NULL) {
		nm->slot = old;
		return JENC_E_NOMEM;
	}
	memset(nm->slot, 0, ns * sizeof *nm->slot);
	nm->nslot = ns;
	for (k = 0; k < nm->n; k++) {
		const struct csv_name *x = &nm->v[k];

		nm->slot[csv_names_slot(nm, nm->buf + x->off, x->len)] =
		    (uint32_t)(k + 1);
	}
	jenc_mem_free(old, oldn * sizeof *old);
	return 0;
}

static int
csv_names_put(struct csv_names *nm, const char *s, size_t n)
{
	if (nm->len + n > nm->cap &&
	    csv_grow((void **)&nm->buf, &nm->cap, nm->len + n, 256))
		return JENC_E_NOMEM;
	memcpy(nm->buf + nm->len, s, n);
	nm->len += n;
	return 0;
}

/*
 * s[0..n) as the body of a JSON string at o, which has room for 2n bytes,
 * with the escapes the encoder writes without JENC_HTML or JENC_ASCII:
 * \" \\ \n \r \t \b \f.  Returns the end, or NULL if a byte needs a \u
 * escape (its hex digits' case is the encoder's).
 */
char *
jenc_csv_esc(char *o, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		unsigned char b = (unsigned char)s[k];
		char x;

		if (b >= 0x20 && b != '"' && b != '\\' && b != 0xe2) {
			*o++ = (char)b;
			continue;
		}
		if (b == 0xe2) {
			/* U+2028 and U+2029 are jenc_str's to escape */
			if (k + 2 < n && (unsigned char)s[k + 1] == 0x80 &&
			    ((unsigned char)s[k + 2] | 1) == 0xa9)
				return NULL;
			*o++ = (char)b;
			continue;
		}
		switch (b) {
		case '"':
		case '\\':
			x = (char)b;
			break;
		case '\n':
			x = 'n';
			break;
		case '\r':
			x = 'r';
			break;
		case '\t':
			x = 't';
			break;
		case '\b':
			x = 'b';
			break;
		case '\f':
			x = 'f';
			break;
		default:
			return NULL;
		}
		*o++ = '\\';
		*o++ = x;
	}
	return o;
}

/* The key text "name": of x, appended to nm->rbuf (see csv_text). */
static int
csv_names_render(struct csv_names *nm, struct csv_name *x)
{
	size_t need = nm->rlen + 2 * x->len + 3 + 16;
	char *o;

	if (nm->rbad)
		return 0;
	if (need > nm->cap_r &&
	    csv_grow((void **)&nm->rbuf, &nm->cap_r, need, 256))
		return JENC_E_NOMEM;
	o = nm->rbuf + nm->rlen;
	*o++ = '"';
	if ((o = jenc_csv_esc(o, nm->buf + x->off, x->len)) == NULL) {
		nm->rbad = 1;
		return 0;
	}
	*o++ = '"';
	*o++ = ':';
	x->roff = nm->rlen;
	x->rlen = (size_t)(o - nm->rbuf) - nm->rlen;
	nm->rlen += x->rlen;
	return 0;
}

/*
 * Adds a name for column col (1-based): s[0..n), or "_col" if it is empty,
 * suffixed with _2, _3, ... until it differs from every name so far.
 * Linear in expected time however many names repeat: the name b that is
 * taken keeps in b.next the first suffix still worth trying.  Names are
 * only ever added, so every suffix below the one a duplicate of b got
 * stays taken, and the next duplicate can start after it.
 */
int
jenc_csv_names_add(struct csv_names *nm, const char *s, size_t n, size_t col)
{
	char tmp[32];
	size_t base = nm->len, blen, j, k, slot, bi;
	struct csv_name *x;
	int len;

	if (nm->n >= UINT32_MAX - 1)
		return JENC_E_NOMEM;
	if ((nm->n + 1) * 2 > nm->nslot && csv_names_rehash(nm))
		return JENC_E_NOMEM;
	if ((nm->n + 1) * sizeof *nm->v > nm->cap_v &&
	    csv_grow((void **)&nm->v, &nm->cap_v, (nm->n + 1) * sizeof *nm->v,
	    16 * sizeof *nm->v))
		return JENC_E_NOMEM;
	if (n == 0) {
		len = snprintf(tmp, sizeof tmp, "_%zu", col);
		s = tmp;
		n = (size_t)len;
	}
	if (csv_names_put(nm, s, n))
		return JENC_E_NOMEM;
	blen = n;
	slot = csv_names_slot(nm, nm->buf + base, blen);
	if (nm->slot[slot] != 0) {
		bi = nm->slot[slot] - 1;
		for (k = nm->v[bi].next ? nm->v[bi].next : 2;; k++) {
			nm->len = base + blen;
			len = snprintf(tmp, sizeof tmp, "_%zu", k);
			if (csv_names_put(nm, tmp, (size_t)len))
				return JENC_E_NOMEM;
			slot = csv_names_slot(nm, nm->buf + base,
			    nm->len - base);
			if (nm->slot[slot] == 0)
				break;
		}
		nm->v[bi].next = k + 1;
	}
	x = &nm->v[nm->n];
	x->off = base;
	x->len = nm->len - base;
	x->next = 0;
	x->raw = 1;
	for (j = base; j < nm->len; j++) {
		unsigned char b = (unsigned char)nm->buf[j];

		if (b < 0x20 || b == '"' || b == '\\' || (b == 0xe2 &&
		    j + 2 < nm->len && csv_sep((const unsigned char *)
		    nm->buf + j, 3)))
			x->raw = 0;
	}
	if (csv_names_render(nm, x))
		return JENC_E_NOMEM;
	nm->slot[slot] = (uint32_t)(nm->n + 1);
	nm->n++;
	return 0;
}

void
jenc_csv_names_release(struct csv_names *nm)
{
	jenc_mem_free(nm->buf, nm->cap);
	jenc_mem_free(nm->rbuf, nm->cap_r);
	jenc_mem_free(nm->v, nm->cap_v);
	jenc_mem_free(nm->slot, nm->nslot * sizeof *nm->slot);
	memset(nm, 0, sizeof *nm);
}

unsigned char
jenc_csv_hint(const struct csv *c)
{
	static const unsigned char cand[4] = { ',', ';', '\t', '|' };
	size_t cnt[4] = { 0, 0, 0, 0 }, k, j, best = 0;
	unsigned char d = 0;

	if (!c->hdr_read || (c->flags & JENC_CSV_NO_HEADER))
		return 0;
	for (k = 0; k < c->nhdr && k < c->nm.n; k++) {
		const struct csv_name *x = &c->nm.v[k];

		for (j = 0; j < x->len; j++) {
			const char *p = memchr(cand, c->nm.buf[x->off + j], 4);

			if (p != NULL)
				cnt[(const unsigned char *)p - cand]++;
		}
	}
	for (j = 0; j < 4; j++)
		if (cand[j] != c->delim && cnt[j] > best) {
			best = cnt[j];
			d = cand[j];
		}
	return d;
}

/* The first n2 bytes of s2 in s[0..n), or NULL. */
static const char *
csv_memmem(const char *s, size_t n, const char *s2, size_t n2)
{
	const char *p = s, *end = s + n;

	while ((size_t)(end - p) >= n2 &&
	    (p = memchr(p, s2[0], (size_t)(end - p) - n2 + 1)) != NULL) {
		if (memcmp(p, s2, n2) == 0)
			return p;
		p++;
	}
	return NULL;
}

static uint64_t
csv_node_hash(size_t parent, const char *s, size_t n)
{
	return csv_hash(s, n) ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull);
}

/* The child of parent named s[0..n), added if new (col: its column + 1
 * for a leaf).  Returns its index + 1, 0 out of memory. */
static size_t
csv_node_get(struct csv *c, size_t parent, size_t off, size_t n)
{
	const char *s = c->nm.buf + off;
	size_t m, i, k;
	struct csv_node *x;

	if ((c->nnodes + 1) * 2 > c->nnslot) {
		size_t cap = c->nnslot ? c->nnslot * 2 : 64;
		uint32_t *t = jenc_mem_alloc(cap * sizeof *t);

		if (t == NULL)
			return 0;
		memset(t, 0, cap * sizeof *t);
		jenc_mem_free(c->nslot, c->nnslot * sizeof *c->nslot);
		c->nslot = t;
		c->nnslot = cap;
		for (k = 0; k < c->nnodes; k++) {
			x = &c->nodes[k];
			for (i = (size_t)csv_node_hash(x->parent, c->nm.buf +
			    x->off, x->len) & (cap - 1); t[i] != 0;
			    i = (i + 1) & (cap - 1))
				;
			t[i] = (uint32_t)(k + 1);
		}
	}
	m = c->nnslot - 1;
	for (i = (size_t)csv_node_hash(parent, s, n) & m; c->nslot[i] != 0;
	    i = (i + 1) & m) {
		x = &c->nodes[c->nslot[i] - 1];
		if (x->parent == parent && x->len == n &&
		    memcmp(c->nm.buf + x->off, s, n) == 0)
			return c->nslot[i];
	}
	if ((c->nnodes + 1) * sizeof *c->nodes > c->cap_nodes &&
	    csv_grow((void **)&c->nodes, &c->cap_nodes,
	    (c->nnodes + 1) * sizeof *c->nodes, 16 * sizeof *c->nodes))
		return 0;
	x = &c->nodes[c->nnodes];
	memset(x, 0, sizeof *x);
	x->off = off;
	x->len = n;
	x->parent = parent;
	c->nslot[i] = (uint32_t)(++c->nnodes);
	if (parent != 0) {
		struct csv_node *p = &c->nodes[parent - 1];

		if (p->last != 0)
			c->nodes[p->last - 1].next = c->nnodes;
		else
			p->child = c->nnodes;
		p->last = c->nnodes;
	}
	return c->nnodes;
}

static int
csv_plan_add(struct csv *c, int op, size_t off, size_t len, size_t col)
{
	struct csv_op *o;

	if ((c->nplan + 1) * sizeof *c->plan > c->cap_plan &&
	    csv_grow((void **)&c->plan, &c->cap_plan,
	    (c->nplan + 1) * sizeof *c->plan, 64 * sizeof *c->plan))
		return JENC_E_NOMEM;
	o = &c->plan[c->nplan++];
	o->op = op;
	o->off = off;
	o->len = len;
	o->col = col;
	return 0;
}

/*
 * The plan of the names in c->nm (the header, with --ragged=pad the _N
 * names after it).  A name that is a value and also holds nested names
 * ("a" and "a.b") is bad input at the header; with no name holding the
 * separator, c->nest stays 0 and records are written as without --nest.
 */
int
jenc_csv_nest_plan(struct csv *c)
{
	size_t k, top = 0, cur;
	size_t *tops = NULL, ntops = 0, cap_tops = 0;

	c->nnodes = 0;
	c->nplan = 0;
	c->nest = 0;
	if (c->nslot != NULL)
		memset(c->nslot, 0, c->nnslot * sizeof *c->nslot);
	for (k = 0; k < c->nm.n; k++) {
		const struct csv_name *x = &c->nm.v[k];
		size_t at = x->off, end = x->off + x->len, parent = 0, node;

		for (;;) {
			const char *q = c->seplen > 0 && end - at >= c->seplen ?
			    csv_memmem(c->nm.buf + at, end - at, c->sep,
			    c->seplen) : NULL;
			size_t segend = q != NULL ?
			    (size_t)(q - c->nm.buf) : end, before = c->nnodes;

			if (q != NULL)
				c->nest = 1;
			if ((node = csv_node_get(c, parent, at,
			    segend - at)) == 0)
				goto nomem;
			if (parent == 0 && c->nnodes > before) {
				if ((ntops + 1) * sizeof *tops > cap_tops &&
				    csv_grow((void **)&tops, &cap_tops,
				    (ntops + 1) * sizeof *tops,
				    16 * sizeof *tops))
					goto nomem;
				tops[ntops++] = node;
			}
			if (q == NULL) {
				struct csv_node *n = &c->nodes[node - 1];

				if (n->col != 0 || n->child != 0)
					goto conflict;
				n->col = k + 1;
				break;
			}
			if (c->nodes[node - 1].col != 0)
				goto conflict;
			parent = node;
			at = segend + c->seplen;
		}
		continue;
conflict:
		jenc_mem_free(tops, cap_tops);
		{
			char shown[JENC_ERR_NAME];

			/* (two names of the input's header: its line; else
			 * the record whose --ragged=pad name or --header
			 * names the plan is made for) */
			jenc_err_name(shown, c->nm.buf + x->off, x->len);
			return jenc_csv_fail_line(c, JENC_K_NAMES, 0,
			    c->hdr_read && k < c->nhdr ? c->hdr_line :
			    c->rec_line, "column '%s' and another column make "
			    "one name both a value and an object: --nest "
			    "cannot nest them", shown);
		}
	}
	/* the plan: each top-level node in order, depth first */
	for (top = 0; top < ntops; top++) {
		cur = tops[top];
		for (;;) {
			struct csv_node *n = &c->nodes[cur - 1];

			if (n->col != 0) {
				if (csv_plan_add(c, OP_FIELD, n->off, n->len,
				    n->col - 1))
					goto nomem;
			} else {
				if (csv_plan_add(c, OP_OPEN, n->off, n->len, 0))
					goto nomem;
				cur = n->child;
				continue;
			}
			/* up until a node has a next sibling */
			while (c->nodes[cur - 1].next == 0 &&
			    c->nodes[cur - 1].parent != 0) {
				cur = c->nodes[cur - 1].parent;
				if (csv_plan_add(c, OP_CLOSE, 0, 0, 0))
					goto nomem;
			}
			if (c->nodes[cur - 1].parent == 0)
				break;
			cur = c->nodes[cur - 1].next;
		}
	}
	jenc_mem_free(tops, cap_tops);
	c->plan_names = c->nm.n + 1;
	return 0;
nomem:
	jenc_mem_free(tops, cap_tops);
	return jenc_csv_nomem(c);
}
