/*
 * rec.h - the check of one compact JSON object (rec.c), by the reader's
 * rules, for the views that take records without the reader: the
 * CSV/TSV writer's passes (csvw.c) and the log view over a file
 * (logfd.c).  Include after internal.h.
 */
#ifndef JENC_REC_H
#define JENC_REC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JENC_REC_DEPTH 256		/* the deepest nesting checked */

#define JENC_REC_PAIRS 0x01	/* refuse a lone surrogate escape (\ud800
				   without a low one after it), which the
				   CSV view cannot write */

/* A top-level key: its body p[b..q), q its closing quote (its value
 * starts at p[q + 2]). */
struct jenc_rec_key {
	size_t b, q;
	int esc;		/* the body holds an escape */
};

struct jenc_rec {
	const char *p;		/* the text: p[n] is readable and starts no
				   token ('\n', or a NUL), the sentinel
				   that ends every scan */
	size_t n;
	unsigned maxd;		/* containers that may be open (at most
				   JENC_REC_DEPTH) */
	unsigned flags;		/* JENC_REC_* */
	/*
	 * The top-level keys, when key is not NULL, matched during the
	 * check against shape[0..shapelen) (a record's keys before, each
	 * body with its closing quote, in order; none escaped): so bytes
	 * of it matched by the first keys; from the first key that does
	 * not match on, the first keycap of them noted in key[], all
	 * counted in nkeys.  nobj: the top-level values that are objects
	 * with members.
	 */
	struct jenc_rec_key *key;
	size_t keycap, nkeys;
	const char *shape;
	size_t shapelen, so, nobj;
};

/*
 * The object at k->p[i] (a '{') checked: 0 and *end just past its '}';
 * JENC_ST_MORE when it is refused within a token's length of p[n] (more
 * text may make it whole); JENC_E_SYNTAX when it is refused (the reader
 * tells why, or takes it: see rec.c).  k->nkeys, k->so and k->nobj are
 * set.
 */
int jenc_rec_check(struct jenc_rec *k, size_t i, size_t *end);

#endif
