/*
 * rec.h - the check of one compact JSON object (rec.c), by the reader's
 * rules, for the views that take records without the reader: the
 * CSV/TSV writer's passes (csvw.c) and the log view over a file
 * (logfd.c).  Include after internal.h.
 */
#ifndef JENC_REC_H
#define JENC_REC_H

#include <stddef.h>

#define JENC_REC_MORE ((size_t)-1)	/* refused within a token's length
					   of p[n]: more text may make it
					   whole */
#define JENC_REC_BAD ((size_t)-2)	/* refused */
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
	/* the top-level keys, in order, when key is not NULL: the first
	 * keycap of them in key[], all counted in nkeys */
	struct jenc_rec_key *key;
	size_t keycap, nkeys;
};

/*
 * The object at k->p[i] (a '{') checked: the index just past its '}',
 * JENC_REC_MORE or JENC_REC_BAD.  k->nkeys is set.
 */
size_t jenc_rec_check(struct jenc_rec *k, size_t i);

#endif
