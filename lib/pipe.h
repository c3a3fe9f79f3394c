/*
 * pipe.h - one document on two threads: the scout thread's side of it
 * (pipe.c) as the JSON reader (json.c) sees it.
 *
 * The scout reads the input and tokenizes it as the reader would (the
 * skeleton of the text, jsmn over it: jsmnx.h); it hands the reader slots
 * in input order, each a run of text and the tokens jsmn made of its first
 * tok_end bytes, with their positions in the slot's skeleton and the
 * skeleton's map back to the slot's text (see skel.c), or, with mapped set,
 * their positions turned into the slot text's already (jenc_jsmn_tok_text).
 * The reader pulls the text into its window as it would read(2) it
 * (jenc_pipe_pull), and takes each slot's tokens instead of running jsmn
 * (jenc_pipe_next).  A slot with takeover set ends the tokens: the text
 * after its tok_end, and every slot after it, is raw text, and jp/chain are
 * jsmn's state at tok_end (compacted by jenc_jsmn_chain: the chain of open
 * tokens, positions cleared), for the reader to go on with jsmn of its own.
 */
#ifndef JENC_PIPE_H
#define JENC_PIPE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jsmnx.h"

typedef struct jenc_pipe jenc_pipe;

/* The most tokens a slot's chain has (see jenc_pipe_slot). */
#define JENC_PIPE_CHAIN_MAX 4096u

struct jenc_pipe_slot {
	uint64_t off;		/* input offset of the slot's first byte */
	size_t len;		/* its bytes */
	size_t tok_end;		/* the tokens cover [0, tok_end) */
	jsmntok_t *tok;		/* tok[first..ntok) are the slot's (those
				 * before, the chain jsmn started with) */
	size_t first, ntok;
	uint32_t *map;		/* skeleton position -> text position */
	int mapped;		/* tok[first..ntok) have text positions (a
				 * string's after its opening quote, a
				 * container's start only) */
	int open;		/* containers are open at tok_end */
	int takeover;		/* see above: jp and chain[0..nchain) */
	jsmn_parser jp;		/* pos: tok_end */
	jsmntok_t *chain;
	unsigned nchain;
};

/*
 * Start the scout on the input p[0..n) then fd (fd < 0: the input ends
 * at p[n]), p[0] at input offset off and outside any token, reading at
 * most piece bytes at a time (0: the default, 128 KiB; smaller for
 * tests).  map: fd's bytes may be read from a mapping of its file
 * (jenc_map_init, as JENC_READ_MAP), then with read(2) from the mapping's
 * end.  map_tok: the scout turns the tokens' positions into the slot
 * text's (mapped), which costs it about as much as it saves the reader:
 * worth it when the reader has more to do (it encodes), not when the
 * scout is the slower (the reader copies text verbatim, or only checks).
 * p must stay valid, and fd is the scout's, until jenc_pipe_free.
 * Returns 0, or JENC_E_NOMEM / JENC_E_IO (no thread could start, or no
 * pipe(2) to wake it with; *pp is NULL).
 */
int jenc_pipe_new(jenc_pipe **pp, int fd, const char *p, size_t n,
    uint64_t off, size_t piece, int map, int map_tok);
/* Stop the scout (wherever it is: waiting for input, it is woken through
 * its pipe, never cancelled) and free everything.  NULL is a no-op. */
void jenc_pipe_free(jenc_pipe *pp);
/*
 * The reader's source (jenc_in.pull): up to n bytes of text into dst, in
 * input order, *got the bytes copied (0 at the end of the input).  While
 * tokens are taken, a slot's tokenized text comes whole: if it does not
 * fit, nothing is copied and *need says how much room it takes (need
 * NULL: any part of it, for a window that will take no tokens: a
 * converted input's).  Returns 0, JENC_ST_ROOM (*need), or JENC_E_IO with
 * *sys_errno (the scout's read failed there).  Waits only for the first
 * byte.
 */
int jenc_pipe_pull(void *pp, char *dst, size_t n, size_t *got, size_t *need,
    int *sys_errno);
/*
 * The reader's view (jenc_in.view): the next slot's text where it is, in
 * a mapped file, if it starts at end (the window's end; NULL: the window
 * is empty) and is at most room bytes; *n its bytes.  It stays mapped
 * while the window, which starts at input offset off, holds it: the
 * scout unmaps only before the off of the last call, until the reader
 * pulls again (jenc_pipe_pull, which means it copied its window).  NULL
 * (nothing taken) if the slot's text is a copy, or any other way: pull
 * it.  Waits for the slot to be filled.
 */
const char *jenc_pipe_view(void *pp, uint64_t off, const char *end,
    size_t room, size_t *n);
/* The slot whose tokens come next, once its tokenized text is pulled;
 * NULL while none is. */
const struct jenc_pipe_slot *jenc_pipe_next(jenc_pipe *pp);
/* Done with the tokens (and the takeover state) of jenc_pipe_next's
 * slot. */
void jenc_pipe_next_done(jenc_pipe *pp);
/* Take no more tokens: all text from here on is raw, and the scout stops
 * tokenizing. */
void jenc_pipe_raw(jenc_pipe *pp);

#endif
