/*
 * jsmnx.h - the jsmn adapter (jsmnx.c): what both JSON readers, the
 * one-thread reader (json.c) and the scout thread (pipe.c), do with jsmn.
 *
 * Only jsmnx.c compiles jsmn's code; the files that include this header
 * see its types (jsmntok_t, jsmn_parser) and reach its calls through the
 * jenc_jsmn_* functions below: a parser put at a position, a call of
 * jsmn_parse with the work counted, skeletons of the text (skel.c) read
 * instead of the text with the tokens' positions mapped back, and the
 * chain of open tokens that is all jsmn needs between two calls.
 *
 * What jsmn keeps between two calls of jsmn_parse: pos, the next byte it
 * looks at; toknext, the first free token; toksuper, the innermost open
 * container (or the key whose value comes next), -1 at top level.  It
 * reads the input only from pos on, and looks back at earlier tokens only
 * through toksuper and the parent links from toknext - 1 up (built with
 * JSMN_PARENT_LINKS), asking of each only its type and whether it is still
 * open (start != -1, end == -1).  That is what lets a reader's window
 * slide under it, the finished tokens go (jenc_jsmn_chain), and a fresh
 * start at top level (jenc_jsmn_init).
 */
#ifndef JENC_JSMNX_H
#define JENC_JSMNX_H

#include <stddef.h>
#include <stdint.h>

/* jsmn's types and declarations only (its code is jsmnx.c's). */
#ifndef JSMN_H
#define JSMN_HEADER
#include <jsmn.h>
#undef JSMN_HEADER
#endif

/*
 * Nesting from which jsmn is given small pieces: it finds the container a
 * ']' closes by climbing from its newest token over every container
 * closed since, so a long run of closing brackets in one call would be
 * quadratic.  The reader (json.c) feeds jsmn pieces of input deeper than
 * this; the scout (pipe.c) stops tokenizing there.
 */
#define JENC_JSMN_DEEP 256u

/*
 * The skeletons a reader has jsmn read (jenc_jsmn_sk_parse): buf[0..len)
 * and map[0..len) (JENC_SKEL_ROOM(JENC_SKEL_MAX) entries each, the
 * caller's) of the input from offset base on, up to end; with valid,
 * jsmn goes on at buf[next], the input at offset at.  The text at
 * [ok_lo, ok_hi) of the caller's buffer is covered by the skeletons read
 * since the parser last started afresh or the buffer moved (the caller
 * clears them then): its strings are checked (no control byte, valid
 * UTF-8).
 */
struct jenc_jsmn_sk {
	char *buf;
	uint32_t *map;
	size_t len, next;
	uint64_t base, end, at;
	int valid;
	size_t ok_lo, ok_hi;
};

/* A parser with no token, at top level, that reads on at p[pos]:
 * jsmn_init's state at another position. */
void jenc_jsmn_init(jsmn_parser *jp, size_t pos);

/*
 * jsmn_parse(jp, js, len, tok, ntok), counted in the work counters
 * (JENC_W_JSMN_CALLS, JENC_W_JSMN_BYTES).  jsmn runs on a copy of *jp in
 * a local: it keeps its position in the parser and reads the input
 * through a char pointer, which may alias anything, so through a pointer
 * the position is stored and reloaded around every byte, where a local
 * whose address never escapes lives in a register.
 */
int jenc_jsmn_parse(jsmn_parser *jp, const char *js, size_t len,
    jsmntok_t *tok, unsigned ntok);

/* jenc_skel(p, n, sk, map, slen, b) (skel.c), counted (JENC_W_SKEL). */
int jenc_jsmn_skel(const char *p, size_t n, char *sk, uint32_t *map,
    size_t *slen, size_t *b);

/*
 * jsmn_parse over p[jp->pos..len), p[0] at input offset off, as
 * jenc_jsmn_parse(jp, p, len, ...) would, but reading skeletons of up to
 * JENC_SKEL_MAX bytes at a time instead of the text: jsmn makes the same
 * tokens of a skeleton, with positions in it, which are turned back into
 * positions in p through the skeleton's map (jenc_jsmn_tok_text); its
 * position after the call too.  Each skeleton ends where no token spans,
 * so that jsmn can go on from there in the text or in the next skeleton.
 * Where skel.c refuses a piece (bad input, or anything jsmn could read
 * otherwise in a skeleton), jsmn reads the rest of p itself, and finds any
 * error exactly where it would have.  After JSMN_ERROR_NOMEM the next call
 * goes on in the same skeleton (s keeps it).
 */
int jenc_jsmn_sk_parse(struct jenc_jsmn_sk *s, jsmn_parser *jp,
    jsmntok_t *tok, unsigned ntok, const char *p, uint64_t off, size_t len);

/*
 * A token's positions in a skeleton to its text's, through the
 * skeleton's map (skel.c), base added: a string's are those of its quotes
 * (start after the opening one), a primitive's those of its first byte
 * and of the byte that ends it (the one kept after it), a container's
 * those of its brackets (its end only if it was closed when this is
 * called, after the closing one: one closed by a later call of jsmn keeps
 * its skeleton end; the readers read no container's end).
 * A token allocated but not filled (start < 0) is left.
 */
static inline void
jenc_jsmn_tok_text(jsmntok_t *t, const uint32_t *map, size_t base)
{
	if (t->start < 0)
		return;
	if (t->type == JSMN_STRING) {
		t->start = (int)(base + map[t->start - 1]) + 1;
		t->end = (int)(base + map[t->end]);
		return;
	}
	if (t->type == JSMN_PRIMITIVE)
		t->end = (int)(base + map[t->end]);
	else if (t->end >= 0)
		t->end = (int)(base + map[t->end - 1]) + 1;
	t->start = (int)(base + map[t->start]);
}

/* jenc_jsmn_tok_text over tok[from..to). */
static inline void
jenc_jsmn_map(jsmntok_t *tok, unsigned from, unsigned to,
    const uint32_t *map, size_t base)
{
	for (; from < to; from++)
		jenc_jsmn_tok_text(&tok[from], map, base);
}

/* The tokens of the chain from jp's toksuper up (open containers, and
 * keys whose value comes next), and the open containers of it. */
unsigned jenc_jsmn_chain_len(const jsmntok_t *t, const jsmn_parser *jp,
    unsigned *open);

/* The key still waiting for its ':' under *jp: the newest token, a string
 * right under an object that is toksuper; -1 if there is none. */
int jenc_jsmn_key_waiting(const jsmntok_t *t, const jsmn_parser *jp);

/*
 * What jsmn still needs of t[] under *jp: the chain of open containers
 * and keys from toksuper up, root first, positions cleared (open
 * containers start 0, end -1; keys start 0, end 0), and the key t[pending]
 * still waiting for its ':' (pending -1: none; jsmn takes toknext - 1 as
 * the key when the ':' comes), into out[0..cap), which must not be t;
 * *ojp (which may be jp) the parser over it, at jp's position, *open
 * (unless open is NULL) the number of open containers.  Returns 0, or
 * JENC_ST_FULL if the tokens do not fit in cap (out, *ojp and *open
 * unchanged).
 */
int jenc_jsmn_chain(const jsmntok_t *t, const jsmn_parser *jp, int pending,
    jsmntok_t *out, unsigned cap, jsmn_parser *ojp, unsigned *open);

#endif
