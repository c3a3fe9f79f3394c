/*
 * pipe.c - one document on two threads: a scout thread reads the input
 * and tokenizes it while the caller's thread, the JSON reader (json.c,
 * jenc_json_pipe), checks and encodes what the scout has tokenized.
 *
 * The scout does what the one-thread reader's jp_tokenize does, a slot at
 * a time: it reads up to SLOT_READ bytes after what the last slot left
 * over (from a mapped file, the slot's text is the mapping's, not a copy,
 * and the reader's window is a view of it too: jenc_pipe_view), makes the
 * skeleton of the slot's text (skel.c), and runs jsmn over it (jsmnx.c),
 * TOK_CALL new tokens per call, writing them straight into the slot's
 * token array after the chain of open tokens jsmn was left with.  The
 * slot covers its text up to the end of the skeleton; the rest starts the
 * next slot.  SLOTS slots make a ring: the scout fills one while the
 * reader takes the others' text and tokens, in order.
 *
 * The scout stops tokenizing where the one-thread reader would leave the
 * skeleton or where jsmn could say something other than "go on": a slot
 * the skeleton refuses (bad text, or text jsmn might read otherwise in a
 * skeleton), a jsmn error, a token that does not end within a slot (a
 * string longer than SLOT_READ), more than JENC_JSMN_DEEP open containers
 * (json.c then feeds jsmn small pieces), a read error and the end of the
 * input.  Its last slot then carries jsmn's state where its tokens end:
 * the state the slot began with if it is refused or jsmn fails in it,
 * else that after the last jsmn call.  The reader goes on from there with
 * jsmn of its own, so every error is found, reported and recovered from
 * by the one-thread code, at the same positions and with the same output
 * before it.
 *
 * Memory: SLOTS slots of SLOT_CAP bytes of text (unused for a mapped
 * file's text, but its last slots'), as much skeleton and four times as
 * much map, CHAIN_MAX chain tokens, and the tokens of each slot; about
 * 6.5 MiB of which 4 are touched on token-dense input.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "jsmnx.h"
#include "pipe.h"

#define SLOTS 4
#define SLOT_READ ((size_t)128 * 1024)	/* read into a slot at a time */
#define SLOT_CAP (SLOT_READ + JENC_SKEL_MAX)	/* and what was carried */
#define TOK_CALL 4096u		/* new tokens per jsmn call */
#define CHAIN_MAX JENC_PIPE_CHAIN_MAX	/* open tokens carried over */
#define NO_MAP SIZE_MAX

enum { PS_FREE, PS_FILL, PS_READY };

struct pslot {
	struct jenc_pipe_slot s;	/* what the reader sees */
	int state;		/* PS_*, under mu */
	int eof;		/* the input ends after s.len */
	int sys_errno;		/* reading after s.len failed */
	char *text;		/* SLOT_CAP bytes */
	const char *src;	/* the slot's text: text, or in the mapping */
	size_t map_at;		/* src is map + map_at; NO_MAP: text */
	char *sk;		/* its skeleton, and s.map: SLOT_CAP + 64 */
	size_t tok_cap;		/* of s.tok; s.chain has CHAIN_MAX */
	/* the reader's */
	int seen;		/* it saw the slot ready */
	size_t pulled;		/* text[0..pulled) is in its window */
};

struct jenc_pipe {
	pthread_mutex_t mu;
	pthread_cond_t ready;	/* a slot was filled */
	pthread_cond_t freed;	/* a slot was freed, or quit */
	pthread_t tid;
	int quit;		/* under mu */
	int wake[2];		/* a byte written to wake[1] stops the scout
				 * waiting for input (quit is set) */
	int raw;		/* under mu: the reader takes no more tokens */
	struct pslot slot[SLOTS];
	/* the scout's */
	int fd;
	const char *pre;	/* the caller's bytes before fd's */
	size_t pre_n;
	/* fd's file mapped, map.p[map_pos..map.len) its bytes not yet
	 * taken; read(2) from the mapping's end on */
	jenc_map map;
	size_t map_pos;
	size_t map_keep;	/* slots may read map.p[map_keep..): kept */
	int map_done;		/* all of it taken: read(2) on */
	int64_t map_delta;	/* a slot's map_at less its s.off */
	/* under mu: the reader's window, a view of the mapping
	 * (jenc_pipe_view), starts at this input offset; UINT64_MAX: it is
	 * no view */
	uint64_t win_off;
	uint64_t off;		/* input offset of the next slot */
	size_t piece;		/* bytes read at a time */
	int map_tok;		/* tokens' positions into the slot text's */
	char *carry;		/* text after the last slot's, to tokenize */
	size_t carry_len;
	/* jsmn's state between slots: the chain of open tokens (positions
	 * cleared) and the parser over it */
	jsmntok_t *chain;	/* CHAIN_MAX */
	jsmn_parser cjp;
	/* the reader's */
	uint64_t pull_i, tok_i, free_i;	/* slot numbers */
	int on;			/* tokens are taken */
	int end;		/* all text pulled */
	int err;		/* ... and then reading failed */
};

/* ---- the scout ------------------------------------------------------- */

/* Up to n bytes of input into dst: the caller's first, then the mapped
 * file's (its pages unmapped behind), then one read(2) (jenc_io_read),
 * once poll(2) says fd has input (or its end, or an error) or the
 * wake-up pipe says jenc_pipe_free wants the scout to stop.  Returns the
 * bytes, 0 at the end, -1 with *e, or STOPPED. */
#define STOPPED JENC_IO_STOPPED

static ssize_t
pipe_take(jenc_pipe *pp, char *dst, size_t n, int *e)
{
	if (pp->pre_n > 0) {
		size_t k = pp->pre_n < n ? pp->pre_n : n;

		memcpy(dst, pp->pre, k);
		pp->pre += k;
		pp->pre_n -= k;
		return (ssize_t)k;
	}
	if (pp->fd < 0)
		return 0;
	if (pp->map.p != NULL && !pp->map_done) {
		size_t k = pp->map.len - pp->map_pos;

		if (k > 0) {
			k = k < n ? k : n;
			memcpy(dst, pp->map.p + pp->map_pos, k);
			pp->map_pos += k;
			jenc_map_trim(&pp->map, pp->map.p +
			    (pp->map_pos < pp->map_keep ? pp->map_pos :
			    pp->map_keep));
			return (ssize_t)k;
		}
		/* what the file grew by since: read(2); the mapping stays
		 * for the slots that hold its text, until jenc_pipe_free */
		pp->map_done = 1;
		if (jenc_map_seek(&pp->map, pp->fd,
		    pp->map.p + pp->map.len) < 0) {
			*e = errno;
			return -1;
		}
	}
	return jenc_io_read(pp->fd, dst, n, pp->wake[0], JENC_IO_COUNT, e);
}

/* Is more input there to take at once: the caller's, the mapping's, or
 * waiting on fd (or its end)? */
static int
pipe_waiting(const jenc_pipe *pp)
{
	if (pp->pre_n > 0 || (pp->map.p != NULL && !pp->map_done &&
	    pp->map_pos < pp->map.len))
		return 1;
	return pp->fd >= 0 && jenc_io_ready(pp->fd);
}

/* What jsmn still needs of t[] under *jp, into out[] (CHAIN_MAX) as the
 * reader keeps it (jenc_jsmn_chain, with a key waiting for its ':').
 * 0, or JENC_ST_FULL if it does not fit. */
static int
pipe_chain_of(const jsmntok_t *t, const jsmn_parser *jp, jsmntok_t *out,
    jsmn_parser *ojp, unsigned *open)
{
	return jenc_jsmn_chain(t, jp, jenc_jsmn_key_waiting(t, jp), out,
	    CHAIN_MAX, ojp, open);
}

/* Room for n tokens in ps's array.  0 or JENC_E_NOMEM. */
static int
pipe_tok_room(struct pslot *ps, size_t n)
{
	return jenc_grow((void **)&ps->s.tok, &ps->tok_cap, n, 4096,
	    sizeof(*ps->s.tok));
}

/* The tokens of ps end at its tok_end, with jsmn's state there. */
static void
pipe_takeover(struct pslot *ps, const jsmntok_t *chain, const jsmn_parser *jp)
{
	ps->s.nchain = jp->toknext;
	if (ps->s.nchain > 0 && ps->s.chain != chain)
		memcpy(ps->s.chain, chain, ps->s.nchain * sizeof(*chain));
	ps->s.jp = *jp;
	ps->s.jp.pos = (unsigned)ps->s.tok_end;
	ps->s.takeover = 1;
}

/*
 * Tokenize ps->text[0..len): its skeleton, then jsmn over it, the slot's
 * token array starting with the chain jsmn was left with.  Returns 0 if
 * the tokens go on in the next slot, JENC_ST_FALLBACK where they end for
 * good (the slot carries the state: takeover, the reader's jsmn goes on),
 * or JENC_ST_MORE: the text holds no end of a token yet, read on.
 */
static int
pipe_tokenize(jenc_pipe *pp, struct pslot *ps, size_t len, int eof)
{
	jsmn_parser jp = pp->cjp;
	size_t slen, b;
	int sk = jenc_jsmn_skel(ps->src, len, ps->sk, ps->s.map, &slen, &b);
	unsigned c = pp->cjp.toknext, open, chained;

	if (sk == 0 && b == 0 && !eof && len < SLOT_CAP)
		return JENC_ST_MORE;
	if (sk != 0 || b == 0 || pipe_tok_room(ps, c + TOK_CALL) != 0)
		goto refused;
	if (c > 0)
		memcpy(ps->s.tok, pp->chain, c * sizeof(*pp->chain));
	jp.pos = 0;
	for (;;) {
		unsigned from = jp.toknext;
		int res = jenc_jsmn_parse(&jp, ps->sk, slen, ps->s.tok,
		    jp.toknext + TOK_CALL);

		/* (done here, while the map is in this core's cache, the
		 * reader only adds the slot's place in its window) */
		if (pp->map_tok)
			jenc_jsmn_map(ps->s.tok, from, jp.toknext, ps->s.map,
			    0);
		if (res == JSMN_ERROR_NOMEM) {
			/* deep: json.c reads on in small pieces */
			(void)jenc_jsmn_chain_len(ps->s.tok, &jp, &open);
			if (open > JENC_JSMN_DEEP) {
				ps->s.first = c;
				ps->s.ntok = jp.toknext;
				ps->s.tok_end = ps->s.map[jp.pos];
				if (pipe_chain_of(ps->s.tok, &jp, ps->s.chain,
				    &ps->s.jp, NULL) != 0)
					goto refused;
				pipe_takeover(ps, ps->s.chain, &ps->s.jp);
				return JENC_ST_FALLBACK;
			}
			if (pipe_tok_room(ps, jp.toknext + TOK_CALL) != 0)
				goto refused;
			continue;
		}
		if ((res < 0 && res != JSMN_ERROR_PART) || jp.pos < slen)
			goto refused;
		break;
	}
	ps->s.first = c;
	ps->s.ntok = jp.toknext;
	ps->s.tok_end = b;
	ps->s.open = jp.toksuper >= 0;
	if (pipe_chain_of(ps->s.tok, &jp, pp->chain, &pp->cjp,
	    &chained) != 0)
		goto refused;
	if (chained > JENC_JSMN_DEEP || eof) {
		pipe_takeover(ps, pp->chain, &pp->cjp);
		return JENC_ST_FALLBACK;
	}
	return 0;
refused:
	/* the slot's tokens go: it is raw text from its start, jsmn's
	 * state that of the slot before */
	ps->s.tok_end = 0;
	ps->s.first = ps->s.ntok = 0;
	pipe_takeover(ps, pp->chain, &pp->cjp);
	return JENC_ST_FALLBACK;
}

static void *
pipe_scout(void *arg)
{
	jenc_pipe *pp = arg;
	uint64_t wi = 0;
	size_t tried;		/* the slot's length when tokenize last
				 * found no end of a token in it */
	int eof = 0, stopped = 0;

	jenc_jsmn_init(&pp->cjp, 0);
	while (!eof) {
		struct pslot *ps = &pp->slot[wi++ % SLOTS];
		size_t len;
		unsigned j;
		int inmap;

		pthread_mutex_lock(&pp->mu);
		while (ps->state != PS_FREE && !pp->quit)
			pthread_cond_wait(&pp->freed, &pp->mu);
		if (pp->quit) {
			pthread_mutex_unlock(&pp->mu);
			break;
		}
		if (pp->raw)
			stopped = 1;
		ps->state = PS_FILL;
		/* what the slots the reader has not freed may still read */
		pp->map_keep = pp->map_pos;
		for (j = 0; j < SLOTS; j++)
			if (pp->slot[j].state == PS_READY &&
			    pp->slot[j].map_at < pp->map_keep)
				pp->map_keep = pp->slot[j].map_at;
		if (pp->win_off != UINT64_MAX) {
			int64_t w = (int64_t)pp->win_off + pp->map_delta;

			w = w < 0 ? 0 : w;
			if ((uint64_t)w < pp->map_keep)
				pp->map_keep = (size_t)w;
		}
		pthread_mutex_unlock(&pp->mu);

		/*
		 * A slot within the mapping, short of its end, is the mapping's
		 * text itself: nothing is copied, and the text after its
		 * tokens starts the next slot where it is.  Anything else (the
		 * caller's bytes, a carry from them, the mapping's end and what
		 * is read after it) is copied into the slot's buffer.
		 */
		inmap = pp->map.p != NULL && pp->pre_n == 0 &&
		    pp->carry_len == 0 && pp->map.len - pp->map_pos > SLOT_CAP;
		if (inmap) {
			jenc_map_trim(&pp->map, pp->map.p + pp->map_keep);
			ps->src = pp->map.p + pp->map_pos;
			ps->map_at = pp->map_pos;
			pp->map_delta = (int64_t)pp->map_pos - (int64_t)pp->off;
		} else {
			memcpy(ps->text, pp->carry, pp->carry_len);
			ps->src = ps->text;
			ps->map_at = NO_MAP;
		}
		len = pp->carry_len;
		pp->carry_len = 0;
		ps->s.off = pp->off;
		ps->s.tok_end = ps->s.first = ps->s.ntok = 0;
		ps->s.takeover = ps->s.open = 0;
		ps->sys_errno = 0;
		tried = 0;
		for (;;) {
			int e = 0, t;
			size_t room = SLOT_CAP - len;
			ssize_t got;

			if (inmap) {
				/* (the mapping has more than SLOT_CAP bytes
				 * after the slot's start) */
				got = (ssize_t)(room < pp->piece ? room :
				    pp->piece);
				pp->map_pos += (size_t)got;
			} else {
				got = pipe_take(pp, ps->text + len,
				    room < pp->piece ? room : pp->piece, &e);
				if (got == STOPPED)
					return NULL;	/* jenc_pipe_free */
			}

			if (got <= 0) {
				eof = 1;
				ps->sys_errno = e;
			} else {
				len += (size_t)got;
			}
			if (stopped)
				break;
			/* a token still open at the last try: tokenize (all
			 * of the slot's text) again once the slot has doubled
			 * since, or no more input is there to take, so that a
			 * long token read in small pieces costs linear time */
			if (!eof && len < SLOT_CAP && len < 2 * tried &&
			    pipe_waiting(pp))
				continue;
			if ((t = pipe_tokenize(pp, ps, len, eof)) ==
			    JENC_ST_MORE) {
				tried = len;
				continue;	/* read on into the same slot */
			}
			stopped = t == JENC_ST_FALLBACK;
			break;
		}
		if (!stopped) {
			/* the text after the tokens starts the next slot */
			if (inmap) {
				pp->map_pos -= len - ps->s.tok_end;
			} else {
				pp->carry_len = len - ps->s.tok_end;
				memcpy(pp->carry, ps->text + ps->s.tok_end,
				    pp->carry_len);
			}
			len = ps->s.tok_end;
		}
		ps->s.len = len;
		ps->eof = eof;
		pp->off += len;
		pthread_mutex_lock(&pp->mu);
		ps->state = PS_READY;
		pthread_cond_signal(&pp->ready);
		pthread_mutex_unlock(&pp->mu);
	}
	return NULL;
}

/* ---- the reader's side ----------------------------------------------- */

int
jenc_pipe_new(jenc_pipe **out, int fd, const char *p, size_t n,
    uint64_t off, size_t piece, int map, int map_tok)
{
	jenc_pipe *pp = jenc_mem_alloc(sizeof(*pp));
	unsigned i;
	int ok, wake_ok = 1;

	*out = NULL;
	if (pp == NULL)
		return JENC_E_NOMEM;
	memset(pp, 0, sizeof(*pp));
	pp->wake[0] = pp->wake[1] = -1;
	pp->fd = fd;
	pp->pre = p;
	pp->pre_n = p != NULL ? n : 0;
	pp->off = off;
	if (map && fd >= 0) {
		const char *q = jenc_map_init(&pp->map, fd,
		    lseek(fd, 0, SEEK_CUR));

		if (q != NULL)
			pp->map_pos = (size_t)(q - pp->map.p);
	}
	pp->piece = piece > 0 && piece < SLOT_READ ? piece : SLOT_READ;
	pp->map_tok = map_tok;
	pp->win_off = UINT64_MAX;
	for (i = 0; i < SLOTS; i++)
		pp->slot[i].s.mapped = map_tok;
	pp->on = 1;
	pp->carry = jenc_mem_alloc(SLOT_CAP);
	pp->chain = jenc_mem_alloc(CHAIN_MAX * sizeof(*pp->chain));
	ok = pp->carry != NULL && pp->chain != NULL;
	if (ok && pipe(pp->wake) != 0)
		wake_ok = 0;
	for (i = 0; i < 2 && wake_ok && ok; i++)
		(void)fcntl(pp->wake[i], F_SETFD, FD_CLOEXEC);
	for (i = 0; i < SLOTS && ok; i++) {
		struct pslot *ps = &pp->slot[i];

		ps->text = jenc_mem_alloc(SLOT_CAP);
		ps->sk = jenc_mem_alloc(JENC_SKEL_ROOM(SLOT_CAP));
		ps->s.map = jenc_mem_alloc(JENC_SKEL_ROOM(SLOT_CAP) *
		    sizeof(*ps->s.map));
		ps->s.chain = jenc_mem_alloc(CHAIN_MAX * sizeof(*ps->s.chain));
		ok = ps->text != NULL && ps->sk != NULL && ps->s.map != NULL &&
		    ps->s.chain != NULL;
	}
	pthread_mutex_init(&pp->mu, NULL);
	pthread_cond_init(&pp->ready, NULL);
	pthread_cond_init(&pp->freed, NULL);
	if (!ok || !wake_ok ||
	    pthread_create(&pp->tid, NULL, pipe_scout, pp) != 0) {
		pp->quit = 2;		/* no thread to stop */
		jenc_pipe_free(pp);
		return ok ? JENC_E_IO : JENC_E_NOMEM;
	}
	jenc_work_add(JENC_W_THREADS, 1);
	*out = pp;
	return 0;
}

void
jenc_pipe_free(jenc_pipe *pp)
{
	unsigned i;

	if (pp == NULL)
		return;
	if (pp->quit != 2) {
		pthread_mutex_lock(&pp->mu);
		pp->quit = 1;
		pthread_cond_broadcast(&pp->freed);
		pthread_mutex_unlock(&pp->mu);
		/* a scout waiting for input is woken there: one byte, which
		 * the pipe always has room for (nothing else writes to it) */
		while (write(pp->wake[1], "", 1) < 0 && errno == EINTR)
			;
		(void)pthread_join(pp->tid, NULL);
	}
	for (i = 0; i < 2; i++)
		if (pp->wake[i] >= 0)
			(void)close(pp->wake[i]);
	pthread_mutex_destroy(&pp->mu);
	pthread_cond_destroy(&pp->ready);
	pthread_cond_destroy(&pp->freed);
	for (i = 0; i < SLOTS; i++) {
		struct pslot *ps = &pp->slot[i];

		jenc_mem_free(ps->text, SLOT_CAP);
		jenc_mem_free(ps->sk, JENC_SKEL_ROOM(SLOT_CAP));
		jenc_mem_free(ps->s.map,
		    JENC_SKEL_ROOM(SLOT_CAP) * sizeof(*ps->s.map));
		jenc_mem_free(ps->s.tok, ps->tok_cap * sizeof(*ps->s.tok));
		jenc_mem_free(ps->s.chain, CHAIN_MAX * sizeof(*ps->s.chain));
	}
	jenc_mem_free(pp->carry, SLOT_CAP);
	jenc_mem_free(pp->chain, CHAIN_MAX * sizeof(*pp->chain));
	jenc_map_release(&pp->map);
	jenc_mem_free(pp, sizeof(*pp));
}

/* Give the scout back the slots the reader is done with, in order: all
 * text pulled, and the tokens taken (or no longer wanted). */
static void
pipe_release(jenc_pipe *pp)
{
	while (pp->free_i < pp->pull_i &&
	    (pp->free_i < pp->tok_i || !pp->on)) {
		struct pslot *ps = &pp->slot[pp->free_i++ % SLOTS];

		ps->seen = 0;
		ps->pulled = 0;
		pthread_mutex_lock(&pp->mu);
		ps->state = PS_FREE;
		pthread_cond_signal(&pp->freed);
		pthread_mutex_unlock(&pp->mu);
	}
}

/* Is ps filled?  Waits for it if wait. */
static int
pipe_slot_ready(jenc_pipe *pp, struct pslot *ps, int wait)
{
	if (ps->seen)
		return 1;
	pthread_mutex_lock(&pp->mu);
	while (ps->state != PS_READY && wait)
		pthread_cond_wait(&pp->ready, &pp->mu);
	ps->seen = ps->state == PS_READY;
	pthread_mutex_unlock(&pp->mu);
	return ps->seen;
}

int
jenc_pipe_pull(void *ctx, char *dst, size_t n, size_t *out, size_t *need,
    int *sys_errno)
{
	jenc_pipe *pp = ctx;
	size_t got = 0;

	*out = 0;
	if (pp->win_off != UINT64_MAX) {
		/* the reader copied its window out of the mapping, and pulls
		 * from here on: the scout may unmap what it viewed */
		pthread_mutex_lock(&pp->mu);
		pp->win_off = UINT64_MAX;
		pthread_mutex_unlock(&pp->mu);
	}
	while (!pp->end && got < n) {
		struct pslot *ps = &pp->slot[pp->pull_i % SLOTS];
		size_t k;

		if (pp->pull_i - pp->free_i == SLOTS) {
			/* every slot is pulled and its tokens not taken: the
			 * reader asks for input only once it has taken all
			 * it pulled (or takes no more), so this is a bug */
			if (got > 0)
				break;
			*sys_errno = EDEADLK;
			return JENC_E_IO;
		}
		if (!pipe_slot_ready(pp, ps, got == 0))
			break;
		if (pp->on && need != NULL && ps->pulled < ps->s.tok_end) {
			k = ps->s.tok_end - ps->pulled;
			if (k > n - got) {
				if (got > 0)
					break;
				*need = k;
				return JENC_ST_ROOM;
			}
		} else {
			k = ps->s.len - ps->pulled;
			if (k > n - got)
				k = n - got;
		}
		memcpy(dst + got, ps->src + ps->pulled, k);
		got += k;
		ps->pulled += k;
		if (ps->pulled < ps->s.len)
			break;
		if (ps->eof) {
			pp->end = 1;
			pp->err = ps->sys_errno;
		}
		pp->pull_i++;
		pipe_release(pp);
	}
	if (got == 0 && pp->err != 0) {
		*sys_errno = pp->err;
		return JENC_E_IO;
	}
	*out = got;
	return 0;
}

const char *
jenc_pipe_view(void *ctx, uint64_t off, const char *end, size_t room,
    size_t *n)
{
	jenc_pipe *pp = ctx;
	struct pslot *ps = &pp->slot[pp->pull_i % SLOTS];
	const char *q;

	if (pp->end || pp->pull_i - pp->free_i == SLOTS ||
	    !pipe_slot_ready(pp, ps, 1))
		return NULL;
	q = ps->src + ps->pulled;
	if (ps->map_at == NO_MAP || ps->eof || ps->pulled == ps->s.len ||
	    (end != NULL && q != end) || ps->s.len - ps->pulled > room)
		return NULL;
	/* (before the slot is freed: the scout may unmap behind it then) */
	pthread_mutex_lock(&pp->mu);
	pp->win_off = off;
	pthread_mutex_unlock(&pp->mu);
	*n = ps->s.len - ps->pulled;
	ps->pulled = ps->s.len;
	pp->pull_i++;
	pipe_release(pp);
	return q;
}

const struct jenc_pipe_slot *
jenc_pipe_next(jenc_pipe *pp)
{
	struct pslot *ps = &pp->slot[pp->tok_i % SLOTS];

	if (!pp->on)
		return NULL;
	if (pp->tok_i < pp->pull_i ||
	    (pp->tok_i == pp->pull_i && ps->seen &&
	    ps->pulled >= ps->s.tok_end))
		return &ps->s;
	return NULL;
}

void
jenc_pipe_next_done(jenc_pipe *pp)
{
	pp->tok_i++;
	pipe_release(pp);
}

void
jenc_pipe_raw(jenc_pipe *pp)
{
	pp->on = 0;
	pthread_mutex_lock(&pp->mu);
	pp->raw = 1;
	pthread_mutex_unlock(&pp->mu);
	pipe_release(pp);
}
