/*
 * jsmnx.c - the jsmn adapter under both JSON readers (json.c, and the
 * scout of pipe.c): the one place that compiles jsmn (Debian's <jsmn.h>,
 * JSMN_STRICT, JSMN_PARENT_LINKS) and touches its parser: its calls,
 * counted; skeletons of the text read instead of the text, the tokens'
 * positions mapped back; the chain of open tokens jsmn keeps between
 * calls.  jsmnx.h says what jsmn keeps, and why this is allowed.
 */
#define JSMN_STATIC
#include <jsmn.h>

#include "internal.h"
#include "jsmnx.h"

void
jenc_jsmn_init(jsmn_parser *jp, size_t pos)
{
	jsmn_init(jp);
	jp->pos = (unsigned)pos;
}

/*
 * The bytes a call of jsmn_parse read, for the work counters: from its
 * position before the call (from) to the one after it (to), and on to
 * the end (len) when it returned JSMN_ERROR_PART: jsmn went back to the
 * start of the token that the end cut, and will read it again.
 */
static inline uint64_t
jsmnx_read(size_t from, size_t to, size_t len, int res)
{
	return (to > from ? to - from : 0) +
	    (res == JSMN_ERROR_PART && len > to ? len - to : 0);
}

/* (flatten: jsmn is inlined here, and its parser lives in registers) */
int __attribute__((flatten))
jenc_jsmn_parse(jsmn_parser *jp, const char *js, size_t len, jsmntok_t *tok,
    unsigned ntok)
{
	jsmn_parser p = *jp;
	int res = jsmn_parse(&p, js, len, tok, ntok);

	jenc_work_add(JENC_W_JSMN_CALLS, 1);
	jenc_work_add(JENC_W_JSMN_BYTES, jsmnx_read(jp->pos, p.pos, len, res));
	*jp = p;
	return res;
}

int
jenc_jsmn_skel(const char *p, size_t n, char *sk, uint32_t *map,
    size_t *slen, size_t *b)
{
	jenc_work_add(JENC_W_SKEL, n);
	return jenc_skel(p, n, sk, map, slen, b);
}

int
jenc_jsmn_sk_parse(struct jenc_jsmn_sk *s, jsmn_parser *jp, jsmntok_t *tok,
    unsigned ntok, const char *p, uint64_t off, size_t len)
{
	for (;;) {
		size_t pos = jp->pos, base, sp, n, b;
		unsigned t0 = jp->toknext;
		int res;

		if (!s->valid || off + pos != s->at) {
			s->valid = 0;
			n = len - pos;
			if (n > JENC_SKEL_MAX)
				n = JENC_SKEL_MAX;
			if (jenc_jsmn_skel(p + pos, n, s->buf, s->map, &s->len,
			    &b) != 0 || b == 0)
				break;
			if (pos != s->ok_hi)
				s->ok_lo = pos;
			s->ok_hi = pos + b;
			s->base = s->at = off + pos;
			s->end = s->base + b;
			s->next = 0;
			s->valid = 1;
		}
		jp->pos = (unsigned)s->next;
		res = jenc_jsmn_parse(jp, s->buf, s->len, tok, ntok);
		base = (size_t)(s->base - off);
		jenc_jsmn_map(tok, t0, jp->toknext, s->map, base);
		sp = jp->pos;
		if (sp >= s->len) {
			jp->pos = (unsigned)(s->end - off);
			s->valid = 0;
		} else {
			jp->pos = (unsigned)(base + s->map[sp]);
			s->next = sp;
			s->at = off + jp->pos;
		}
		if (res == JSMN_ERROR_NOMEM || res == JSMN_ERROR_INVAL)
			return res;
		/* JSMN_ERROR_PART with everything read: a container is
		 * open.  (Anything else is not expected: a skeleton ends
		 * where no token is cut, and holds no NUL byte.) */
		if ((res < 0 && res != JSMN_ERROR_PART) || sp < s->len)
			break;
		if (jp->pos == len)
			return res;
	}
	s->valid = 0;
	return jenc_jsmn_parse(jp, p, len, tok, ntok);
}

unsigned
jenc_jsmn_chain_len(const jsmntok_t *t, const jsmn_parser *jp,
    unsigned *open)
{
	unsigned n = 0, o = 0;
	int i;

	for (i = jp->toksuper; i >= 0; i = t[i].parent) {
		n++;
		o += t[i].type == JSMN_OBJECT || t[i].type == JSMN_ARRAY;
	}
	if (open != NULL)
		*open = o;
	return n;
}

int
jenc_jsmn_key_waiting(const jsmntok_t *t, const jsmn_parser *jp)
{
	int super = jp->toksuper, last = (int)jp->toknext - 1;

	return last > super && super >= 0 && t[super].type == JSMN_OBJECT &&
	    t[last].type == JSMN_STRING && t[last].parent == super ? last : -1;
}

int
jenc_jsmn_chain(const jsmntok_t *t, const jsmn_parser *jp, int pending,
    jsmntok_t *out, unsigned cap, jsmn_parser *ojp, unsigned *open)
{
	int super = jp->toksuper, i, k;
	unsigned o, n = jenc_jsmn_chain_len(t, jp, &o);

	if (n + (pending >= 0) > cap)
		return JENC_ST_FULL;
	/* from toksuper down to the root, each into its place from the
	 * root (out is not t: nothing read is overwritten) */
	for (i = super, k = (int)n; i >= 0; i = t[i].parent) {
		jsmntok_t x = t[i];

		k--;
		x.parent = k - 1;
		x.start = 0;
		x.end = x.type == JSMN_OBJECT || x.type == JSMN_ARRAY ? -1 : 0;
		out[k] = x;
	}
	if (pending >= 0) {
		/* The key is the newest token, above every chain slot. */
		jsmntok_t x = t[pending];

		x.parent = (int)n - 1;
		x.start = 0;
		x.end = 0;
		out[n++] = x;
	}
	*ojp = *jp;
	ojp->toknext = n;
	ojp->toksuper = super >= 0 ? (int)n - 1 - (pending >= 0) : -1;
	if (open != NULL)
		*open = o;
	return 0;
}
