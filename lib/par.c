/*
 * par.c - the JSON reader on several threads (jenc_json_copy_fd_par).
 *
 * A stream of top-level values is cut into chunks at line ends, chunk
 * after chunk as it is read (this thread); each chunk is read, checked
 * and encoded on a worker thread of its own by the one-thread reader
 * (json.c, jenc_json_part), into an encoder made like the caller's: a
 * memory encoder the chunk's slot keeps, or, where only a sink encoder
 * writes what the caller's would (par_in_mem), one whose sink is the chunk's
 * output buffer.  This thread writes the chunks' output in order, and
 * tells the errors each chunk found in order too.  So the output, the
 * errors, their lines and what is written before them are those of
 * jenc_json_copy_fd:
 *
 * - A chunk starts at a line start between two values (the chunk before
 *   it ended cleanly, see below), so its errors' offsets and columns are
 *   the input's; its lines are counted from 1 and moved by the lines of
 *   the chunks before it as it is written.
 * - A chunk whose last value, or last bad text (--on-error), is still
 *   open at its end was cut in the middle of something: what it wrote
 *   is not used; the reader takes over from that chunk's start to the
 *   end of the input (a regular file is read again from there; from a
 *   pipe, the bytes read ahead come first), on two threads
 *   (jenc_json_pipe: one reads and tokenizes, this one checks, encodes
 *   and writes) unless all of the input is read already.  So does it
 *   when a line does not end within LINE_CHUNKS chunk sizes (one large
 *   document), or when a read fails.
 *   The first chunk is read before any other so that a single document
 *   costs one chunk read twice, not many; and not even that when the
 *   first chunk does not look like a stream (par_stream_like).
 * - A chunk with more than BAD_MAX bad texts (a stream with mostly bad
 *   lines) is read again on this thread, telling them as it goes.
 *
 * Chunks are cut after the last line end before which a line starts with
 * '{', '[' or an RS (the start of a record), or else after the last line
 * end: a pretty-printed value's inner lines are indented, so a cut
 * rarely falls inside a value.  From a pipe or a terminal, a chunk is cut
 * when no more input is waiting, and the chunks read are written before
 * jenc waits for more: output is not held back by a slow writer.
 *
 * Memory: nslot = jobs + 2 chunks at a time (read, being read by the
 * workers, being written), each with its output, the chunk size made
 * smaller with many jobs, and no more read ahead once the chunks not yet
 * written hold INFLIGHT bytes (long lines make large chunks).
 */
#include "compat.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define CHUNK_DEFAULT ((size_t)512 * 1024)
#define INFLIGHT ((size_t)3 << 20)	/* bytes of chunks read at a time */
#define JOBS_MAX 8u
#define BAD_MAX 64u			/* bad texts kept per chunk */
#define LINE_CHUNKS 8			/* longest line, in chunk sizes */
#define STREAM_SCAN ((size_t)64 * 1024)
#define OUT_KEEP ((size_t)4 << 20)	/* output buffer kept for reuse */

enum { SL_FREE, SL_FILLING, SL_QUEUED, SL_BUSY, SL_DONE };

struct slot {
	int state;		/* SL_*, under par.mu once workers run */
	uint64_t seq;		/* the chunk's number */
	const char *in;		/* the chunk: in[0..len), buf's bytes or a
				 * view of the mapped input */
	size_t len;
	char *buf;		/* the chunk's bytes, read(2) into it */
	size_t cap;
	uint64_t off;		/* its input offset */
	int last;		/* the input ends at in[len] */
	/* the worker's results */
	char *out;		/* output: out[0..out_len), or ... */
	size_t out_len, out_cap;
	jenc_enc *mem;		/* ... with in_mem, what this memory
				 * encoder holds (kept from chunk to
				 * chunk) */
	int in_mem;
	int rc, cut_end, overflow, nomem;
	uint64_t lines;		/* line ends in the chunk */
	jenc_err err;		/* rc's, or the first bad text's */
	unsigned nbad;
	jenc_err *bad;		/* the bad texts, in order: BAD_MAX of
				 * them, allocated at the first */
};

struct par {
	pthread_mutex_t mu;
	pthread_cond_t work;	/* a chunk was queued, or quit */
	pthread_cond_t done;	/* a chunk was read */
	struct slot *slot;
	unsigned nslot;
	uint64_t next_take;	/* the chunk workers take next */
	int quit;
	jenc_enc *e;
	jenc_opts eo;		/* e's options, for the workers' encoders */
	const jenc_view *view;	/* e's view (JENC_VIEW_THREADS), set on
				 * each worker's encoder too; or NULL */
	int mem_like;		/* what par_in_mem asks of e: 2 if it is a
				 * memory encoder, 1 if its output is held
				 * and verbatim; read before the workers
				 * start (this thread writes e's flags as
				 * it goes) */
	jenc_read_opts ro;
	/* this thread's */
	int fd, regular, eof;
	off_t start;		/* regular file: fd's offset at the call */
	/* JENC_READ_MAP: the file mapped, from is its byte at offset start;
	 * chunks are views of it from from + off on until from is NULL,
	 * read(2) from the mapping's end on after it */
	jenc_map map;
	const char *from;
	uint64_t off;		/* input offset of the next chunk */
	size_t chunk;
	size_t piece;		/* the caller's chunk, for jenc_json_pipe */
	char *carry;		/* read after the last cut */
	size_t carry_len, carry_cap;
	uint64_t next_fill, next_write;
	uint64_t line;		/* the line chunk next_write starts */
	int found;		/* a bad text was told */
};

unsigned
jenc_cpus_usable(void)
{
	long on;
#if defined(JENC_HAVE_AFFINITY)
	cpu_set_t set;
	int n;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 &&
	    (n = CPU_COUNT(&set)) > 0)
		return (unsigned)n;
#endif
	/* where the affinity mask is not known: the processors online */
#if defined(_SC_NPROCESSORS_ONLN)
	on = sysconf(_SC_NPROCESSORS_ONLN);
#else
	on = 1;
#endif
	return on > 0 ? (unsigned)(on < 1024 ? on : 1024) : 1;
}

/* Make *buf (of *cap bytes) hold at least n.  0 or JENC_E_NOMEM. */
static int
par_reserve(char **buf, size_t *cap, size_t n)
{
	return jenc_grow((void **)buf, cap, n, 4096, 1);
}

static int
par_nomem(jenc_err *err)
{
	return jenc_err_set(err, JENC_E_NOMEM, JENC_K_NONE, 0, 0, NULL,
	    "out of memory");
}

/* ---- the workers --------------------------------------------------------- */

static int
par_slot_sink(void *ctx, const char *p, size_t n)
{
	struct slot *s = ctx;

	if (par_reserve(&s->out, &s->out_cap, s->out_len + n) != 0) {
		s->nomem = 1;
		return 1;
	}
	memcpy(s->out + s->out_len, p, n);
	s->out_len += n;
	return 0;
}

static void
par_bad_keep(void *ctx, const jenc_err *err)
{
	struct slot *s = ctx;

	if (s->bad == NULL)
		s->bad = jenc_mem_alloc(BAD_MAX * sizeof(*s->bad));
	if (s->nbad < BAD_MAX && s->bad != NULL)
		s->bad[s->nbad++] = *err;
	else
		s->overflow = 1;	/* read again, on the calling thread */
}

/*
 * Does chunk s's output go to a memory encoder rather than a sink encoder
 * (whose output is copied into s->out)?  Whenever the two write the same,
 * and the memory encoder saves the copy:
 * - the caller's e is a memory encoder too: neither writes, so neither
 *   cuts a bad value held past hold_max (a sink encoder would);
 * - or the output is held (JENC_HOLD) and verbatim: a value's output is
 *   its input less whitespace plus a separator, and cannot reach
 *   hold_max within the chunk, where the sink encoder would cut it.
 */
static int
par_in_mem(const struct par *pp, const struct slot *s)
{
	return pp->mem_like == 2 ||
	    (pp->mem_like == 1 && s->len <= pp->eo.hold_max / 2);
}

/* Read chunk s into its output, as the one-thread reader would. */
static void
par_part_run(struct par *pp, struct slot *s)
{
	jenc_read_opts ro = pp->ro;
	jenc_enc *w = NULL;

	ro.on_error = par_bad_keep;
	ro.ctx = s;
	s->out_len = 0;
	s->nbad = 0;
	s->overflow = s->nomem = s->cut_end = 0;
	s->in_mem = pp->e != NULL && par_in_mem(pp, s);
	if (s->in_mem && s->mem != NULL) {
		jenc_reset(s->mem);	/* the last chunk's output */
		w = s->mem;
	} else if (pp->e != NULL) {
		w = s->in_mem ? jenc_get_mem(&pp->eo) :
		    jenc_get_sink(par_slot_sink, s, &pp->eo);
		if (w != NULL)
			jenc_enc_pal_copy(w, pp->e);
		if (w != NULL && pp->view != NULL &&
		    jenc_set_view(w, pp->view) != 0) {
			(void)jenc_release(w);
			w = NULL;
		}
		if (s->in_mem)
			s->mem = w;
		if (w == NULL) {
			s->rc = par_nomem(&s->err);
			return;
		}
	}
	s->rc = jenc_json_part(-1, s->in, s->len, s->off, 1, w, &ro, &s->err,
	    &s->cut_end, &s->lines);
	if (w != NULL) {
		/* all of it is complete values: written out to the buffer,
		 * or held by s->mem */
		int ee = jenc_error(w);

		if (!s->in_mem)
			(void)jenc_release(w);
		if (ee != 0 || s->nomem)
			s->rc = par_nomem(&s->err);
	}
}

static void *
par_worker(void *arg)
{
	struct par *pp = arg;

	pthread_mutex_lock(&pp->mu);
	while (!pp->quit) {
		struct slot *s = &pp->slot[pp->next_take % pp->nslot];

		if (s->state != SL_QUEUED || s->seq != pp->next_take) {
			pthread_cond_wait(&pp->work, &pp->mu);
			continue;
		}
		s->state = SL_BUSY;
		pp->next_take++;
		pthread_mutex_unlock(&pp->mu);
		par_part_run(pp, s);
		pthread_mutex_lock(&pp->mu);
		s->state = SL_DONE;
		pthread_cond_broadcast(&pp->done);
	}
	pthread_mutex_unlock(&pp->mu);
	return NULL;
}

/* ---- reading chunks ---------------------------------------------------- */

/* Where to cut p[0..n): just after a line end, preferring one that a
 * record's start follows (see the top).  0 if there is no line end. */
static size_t
par_cut_at(const char *p, size_t n)
{
	const char *half = p + n / 2, *q = p + n, *nl;

	while (q > half &&
	    (nl = jenc_memrchr(half, '\n', (size_t)(q - half))) != NULL) {
		if (nl + 1 < p + n && (nl[1] == '{' || nl[1] == '[' ||
		    nl[1] == 0x1e))
			return (size_t)(nl + 1 - p);
		q = nl;
	}
	nl = jenc_memrchr(p, '\n', n);
	return nl != NULL ? (size_t)(nl + 1 - p) : 0;
}

/* Set the state of s, which the workers look at. */
static void
par_set_state(struct par *pp, struct slot *s, int state)
{
	pthread_mutex_lock(&pp->mu);
	s->state = state;
	pthread_mutex_unlock(&pp->mu);
}

/*
 * Does the first chunk look like a stream of values: do two of the lines
 * in its first STREAM_SCAN bytes start with '{', '[' or RS?  A document
 * (pretty-printed or not) has its inner lines indented or none at all: it
 * goes to the one-thread reader at once, and is not read twice.  (A
 * wrong guess costs one chunk read twice, or the threads not used.)
 */
static int
par_stream_like(const char *p, size_t n)
{
	const char *end = p + (n < STREAM_SCAN ? n : STREAM_SCAN), *q = p;
	int k = 0;

	while (q < end) {
		if (*q == '{' || *q == '[' || *q == 0x1e)
			if (++k == 2)
				return 1;
		if ((q = memchr(q, '\n', (size_t)(end - q))) == NULL)
			break;
		q++;
	}
	return 0;
}

/* Does p[0..n) start with a UTF-16 or UTF-32 byte order mark?  Such an
 * input is converted as a whole: its '\n' bytes are not line ends. */
static int
par_wide_mark(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;

	return (n >= 2 && ((u[0] == 0xff && u[1] == 0xfe) ||
	    (u[0] == 0xfe && u[1] == 0xff))) ||
	    (n >= 4 && u[0] == 0 && u[1] == 0 && u[2] == 0xfe && u[3] == 0xff);
}

/* Chunk s, its first len bytes, is ready for a worker. */
static void
par_queue(struct par *pp, struct slot *s, size_t len)
{
	s->len = len;
	pp->off += len;
	pthread_mutex_lock(&pp->mu);
	s->seq = pp->next_fill++;
	s->state = SL_QUEUED;
	pthread_cond_broadcast(&pp->work);
	pthread_mutex_unlock(&pp->mu);
}

/* p[0..n), read after the last cut, is carried into the next chunk.  0 or
 * JENC_E_NOMEM. */
static int
par_carry(struct par *pp, const char *p, size_t n)
{
	if (par_reserve(&pp->carry, &pp->carry_cap, n) != 0)
		return JENC_E_NOMEM;
	if (n > 0)
		memcpy(pp->carry, p, n);
	pp->carry_len = n;
	return 0;
}

/*
 * The next chunk as a view of the mapping, cut as a chunk read is: 0
 * when it is queued in s, JENC_ST_FALLBACK when a line is too long (as
 * par_fill).  Or the mapping ends within the chunk: what is left of it
 * becomes the carry, reading goes on with read(2) from its end (so what
 * the file grew by meanwhile is read, as without the mapping), and
 * JENC_ST_MORE tells par_fill to read more.
 */
static int
par_fill_map(struct par *pp, struct slot *s)
{
	const char *p = pp->from + pp->off;
	size_t avail = (size_t)(pp->map.p + pp->map.len - p);
	size_t len = pp->chunk, cut;

	for (; len < avail; len += pp->chunk) {
		if ((cut = par_cut_at(p, len)) > 0) {
			s->in = p;
			s->off = pp->off;
			s->last = 0;
			par_queue(pp, s, cut);
			return 0;
		}
		if (len >= LINE_CHUNKS * pp->chunk)
			return JENC_ST_FALLBACK;
	}
	if (jenc_map_seek(&pp->map, pp->fd, p + avail) < 0 ||
	    par_carry(pp, p, avail) != 0)
		return JENC_ST_FALLBACK;
	pp->from = NULL;
	return JENC_ST_MORE;
}

/*
 * Read the next chunk into s (free, or being filled): 0 when it is
 * queued, JENC_ST_WAIT when (block 0, not a regular file) no input is
 * waiting and no line has ended yet, JENC_ST_FALLBACK when the one-thread
 * reader must take over (a read failed, a line too long, no memory, or
 * from a pipe no line end at all before the input paused).
 */
static int
par_fill(struct par *pp, struct slot *s, int block)
{
	size_t cut;
	int f;

	if (s->state == SL_FREE && pp->from != NULL &&
	    (f = par_fill_map(pp, s)) != JENC_ST_MORE)
		return f;
	if (s->state == SL_FREE) {
		if (par_reserve(&s->buf, &s->cap,
		    pp->carry_len + pp->chunk) != 0)
			return JENC_ST_FALLBACK;
		s->in = s->buf;
		if (pp->carry_len > 0)
			memcpy(s->buf, pp->carry, pp->carry_len);
		s->len = pp->carry_len;
		pp->carry_len = 0;
		s->off = pp->off;
		s->last = 0;
		par_set_state(pp, s, SL_FILLING);
	}
	for (;;) {
		if (pp->eof) {
			s->last = 1;
			par_queue(pp, s, s->len);
			return 0;
		}
		/* a pipe or a terminal: cut what came when no more waits */
		int idle = !pp->regular && !jenc_io_ready(pp->fd);

		if (s->len >= pp->chunk || (idle && s->len > 0)) {
			if ((cut = par_cut_at(s->in, s->len)) > 0)
				break;
			if (s->len >= LINE_CHUNKS * pp->chunk)
				return JENC_ST_FALLBACK;
			/* no line has ended since the input began, and no
			 * more input is waiting: values not on lines of their
			 * own (`{"a":1} {"b":2}` from a pipe) go to the
			 * one-thread reader, which writes each as it ends */
			if (idle && pp->off == 0)
				return JENC_ST_FALLBACK;
		}
		if (idle && !block)
			return JENC_ST_WAIT;
		size_t want = s->len < pp->chunk ? pp->chunk - s->len :
		    pp->chunk;

		if (par_reserve(&s->buf, &s->cap, s->len + want) != 0)
			return JENC_ST_FALLBACK;
		s->in = s->buf;
		int err;
		ssize_t n = jenc_io_read(pp->fd, s->buf + s->len, want, -1,
		    JENC_IO_COUNT | (block ? 0 : JENC_IO_NOWAIT), &err);

		if (n > 0) {
			s->len += (size_t)n;
		} else if (n == 0) {
			pp->eof = 1;
		} else if (n == JENC_IO_AGAIN) {
			return JENC_ST_WAIT;
		} else {
			/* the one-thread reader reads again and says why */
			return JENC_ST_FALLBACK;
		}
	}
	if (par_carry(pp, s->in + cut, s->len - cut) != 0)
		return JENC_ST_FALLBACK;
	par_queue(pp, s, cut);
	return 0;
}

/* ---- in order ------------------------------------------------------------ */

/* Bytes of the chunks read and not yet written (long lines make chunks
 * larger: read ahead stops at INFLIGHT bytes, whatever their number). */
static size_t
par_ahead(const struct par *pp)
{
	size_t n = 0;
	uint64_t q;

	for (q = pp->next_write; q < pp->next_fill; q++)
		n += pp->slot[q % pp->nslot].len;
	return n;
}

/* A jenc_err of chunk that starts line `line`, as the input's. */
static void
par_err_move(jenc_err *err, uint64_t line)
{
	if (err->line > 0)
		err->line += line - 1;
}

/* A reading's result rc and err one merged into err: the call reports
 * its first bad text, or its error. */
static int
par_merge(struct par *pp, int rc, const jenc_err *one, jenc_err *err)
{
	if (rc != 0 || (one->code != 0 && !pp->found))
		*err = *one;
	pp->found |= one->code != 0;
	return rc;
}

/*
 * The one-thread reader over the rest: the chunks from next_write on,
 * what was read after them, then the input (unless it ended).  Returns
 * its result, err merged as the one-thread reader would have it.
 */
static int
par_rest_one(struct par *pp, jenc_err *err)
{
	struct slot *f = &pp->slot[pp->next_fill % pp->nslot];
	/* after the chunks: the one being filled (its off is pp->off), or
	 * the carry */
	int filling = f->state == SL_FILLING;
	const char *tail = filling ? f->in : pp->carry, *p = pp->carry;
	size_t tail_n = filling ? f->len : pp->carry_len, n = 0, k = 0;
	uint64_t q, off = pp->off;
	char *buf = NULL;
	jenc_err one;
	int rc, pieces = 0;

	if (pp->next_write < pp->next_fill)
		off = pp->slot[pp->next_write % pp->nslot].off;
	for (q = pp->next_write; q < pp->next_fill; q++) {
		n += pp->slot[q % pp->nslot].len;
		p = pp->slot[q % pp->nslot].in;
		pieces++;
	}
	if (filling || tail_n > 0) {
		n += tail_n;
		p = tail;
		pieces++;
	}
	if (pp->regular && !pp->eof &&
	    lseek(pp->fd, pp->start + (off_t)off, SEEK_SET) >= 0) {
		/* a file: read again from there, rather than copy */
		p = NULL;
		n = 0;
	} else if (pieces > 1 && n > 0) {
		if ((buf = jenc_mem_alloc(n)) == NULL)
			return par_nomem(err);
		for (q = pp->next_write; q < pp->next_fill; q++) {
			struct slot *s = &pp->slot[q % pp->nslot];

			if (s->len > 0)
				memcpy(buf + k, s->in, s->len);
			k += s->len;
		}
		if (tail_n > 0)
			memcpy(buf + k, tail, tail_n);
		p = buf;
	}
	/* a document, or a value too long for a chunk, with more to read:
	 * read and tokenized on a second thread */
	if (!pp->eof && !(pp->ro.flags & JENC_READ_EXACT))
		rc = jenc_json_pipe(pp->fd, p, n, off, pp->line, pp->e,
		    &pp->ro, &one, pp->piece);
	else
		rc = jenc_json_part(pp->eof ? -1 : pp->fd, p, n, off,
		    pp->line, pp->e, &pp->ro, &one, NULL, NULL);
	jenc_mem_free(buf, n);
	return par_merge(pp, rc, &one, err);
}

/* Chunk s's output to the caller's encoder. */
static int
par_chunk_out(struct par *pp, const struct slot *s)
{
	/*
	 * What e holds first (all of it complete: the bad texts passed by a
	 * chunk read again here), so that the chunk's output is written as
	 * it is: added to what e holds, a chunk's output past hold_max
	 * would have e write it as a value cut short, and the next bad
	 * text told as one whose output was cut.
	 */
	if (jenc_flush(pp->e) != 0)
		return jenc_error(pp->e);
	if (s->in_mem)
		return jenc_out_enc(pp->e, s->mem);
	return s->out_len > 0 ? jenc_out_bytes(pp->e, s->out, s->out_len) : 0;
}

/* Write chunk s, and tell its bad texts; returns what the one-thread
 * reader would have returned at its end (0, or the error, in err). */
static int
par_write_chunk(struct par *pp, struct slot *s, jenc_err *err)
{
	unsigned i;
	int rc = s->rc;

	if (s->overflow && rc == 0) {
		/* too many bad texts to keep: read it again here */
		jenc_err one;

		rc = jenc_json_part(-1, s->in, s->len, s->off, pp->line, pp->e,
		    &pp->ro, &one, NULL, NULL);
		return par_merge(pp, rc, &one, err);
	}
	for (i = 0; i < s->nbad; i++) {
		par_err_move(&s->bad[i], pp->line);
		if (pp->ro.on_error != NULL)
			pp->ro.on_error(pp->ro.ctx, &s->bad[i]);
	}
	par_err_move(&s->err, pp->line);
	(void)par_merge(pp, rc, &s->err, err);
	if (pp->e != NULL && par_chunk_out(pp, s) != 0 && rc == 0) {
		int code = jenc_error(pp->e);

		rc = jenc_err_set(err, code, JENC_K_NONE, jenc_errno(pp->e), 0,
		    NULL, "%s", jenc_strerror(code));
	}
	if (s->out_cap > OUT_KEEP) {
		jenc_mem_free(s->out, s->out_cap);
		s->out = NULL;
		s->out_cap = 0;
	}
	if (s->in_mem && jenc_len(s->mem) > OUT_KEEP) {
		(void)jenc_release(s->mem);	/* not kept: its segments */
		s->mem = NULL;
	}
	return rc;
}

/* Tell the workers to quit, and wait for the nt of them to end. */
static void
par_stop_workers(struct par *pp, const pthread_t *tid, unsigned nt)
{
	unsigned i;

	pthread_mutex_lock(&pp->mu);
	pp->quit = 1;
	pthread_cond_broadcast(&pp->work);
	pthread_mutex_unlock(&pp->mu);
	for (i = 0; i < nt; i++)
		pthread_join(tid[i], NULL);
}

/* Can e take the output of other encoders made like it?  (Not while a
 * value or a --slurp array is open, nor with -u's one write per value,
 * nor with a view whose calls are e's alone: one without
 * JENC_VIEW_THREADS.) */
static int
par_fits(const jenc_enc *e, const jenc_opts *eo)
{
	const jenc_view *v = jenc_enc_view(e);

	return jenc_depth(e) == 0 && jenc_error(e) == 0 &&
	    !(eo->flags & (JENC_SLURP | JENC_NO_NEWLINE | JENC_FLUSH_EACH)) &&
	    (!(eo->flags & JENC_VIEW_SET) ||
	    (v != NULL && (v->flags & JENC_VIEW_THREADS)));
}

int
jenc_json_copy_fd_par(int fd, jenc_enc *e, const jenc_read_opts *o,
    jenc_err *err, unsigned jobs, size_t chunk)
{
	struct par P, *pp = &P;
	pthread_t tid[JOBS_MAX];
	unsigned nt = 0, i;
	jenc_err dummy;
	struct stat st;
	int rc = 0, f;

	if (err == NULL)
		err = &dummy;
	memset(pp, 0, sizeof(*pp));
	if (e != NULL)
		jenc_enc_like(e, &pp->eo);
	if (jobs == 0)
		jobs = jenc_cpus_usable();
	if (jobs < 2 || (jenc_cpus_usable() < 2 &&
	    (o == NULL || !(o->flags & JENC_READ_THREADS))) ||
	    (o != NULL && (o->flags & (JENC_READ_SINGLE | JENC_READ_JSONC))) ||
	    (o != NULL && !jenc_conv_utf8(o->encoding)) ||
	    (e != NULL && !par_fits(e, &pp->eo)))
		return jenc_json_copy_fd(fd, e, o, err);
	if (jobs > JOBS_MAX)
		jobs = JOBS_MAX;
	memset(err, 0, sizeof(*err));
	pp->e = e;
	/* the workers' encoders are made plain, then given e's view */
	if (e != NULL && (pp->view = jenc_enc_view(e)) != NULL)
		pp->eo.flags &= ~(unsigned)JENC_VIEW_SET;
	if (e != NULL)
		pp->mem_like = jenc_enc_is_mem(e) ? 2 :
		    (pp->eo.flags & JENC_HOLD) && jenc_verbatim(e);
	if (o != NULL)
		pp->ro = *o;
	pp->fd = fd;
	pp->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (pp->start = lseek(fd, 0, SEEK_CUR)) >= 0;
	pp->nslot = jobs + 2;
	pp->chunk = chunk;
	pp->piece = chunk;	/* tests cut the scout's reads with it too */
	if (pp->chunk == 0) {
		pp->chunk = CHUNK_DEFAULT;
		if (pp->chunk * pp->nslot > INFLIGHT)
			pp->chunk = INFLIGHT / pp->nslot;
	}
	/* a file of a few chunks is read faster than threads start */
	if (pp->regular && st.st_size - pp->start < (off_t)(2 * pp->chunk))
		return jenc_json_copy_fd(fd, e, o, err);
	pp->line = 1;
	pp->slot = jenc_mem_alloc(pp->nslot * sizeof(*pp->slot));
	if (pp->slot == NULL)
		return par_nomem(err);
	memset(pp->slot, 0, pp->nslot * sizeof(*pp->slot));
	if (pp->regular && (pp->ro.flags & JENC_READ_MAP))
		pp->from = jenc_map_init(&pp->map, fd, pp->start);
	pthread_mutex_init(&pp->mu, NULL);
	pthread_cond_init(&pp->work, NULL);
	pthread_cond_init(&pp->done, NULL);

	/* The first chunk: all of a small input is read on this thread. */
	f = par_fill(pp, &pp->slot[0], 1);
	/* all of the input, a document, or UTF-16 or UTF-32 (converted as
	 * a whole): slot 0 (queued, but no thread will take it) and the
	 * rest go to the one-thread reader */
	if (f == 0 && (pp->slot[0].last ||
	    par_wide_mark(pp->slot[0].in, pp->slot[0].len) ||
	    !par_stream_like(pp->slot[0].in, pp->slot[0].len)))
		f = JENC_ST_FALLBACK;
	if (f == 0)
		for (nt = 0; nt < jobs; nt++)
			if (pthread_create(&tid[nt], NULL, par_worker, pp) != 0)
				break;
	jenc_work_add(JENC_W_THREADS, nt);
	if (f != 0 || nt == 0) {
		rc = par_rest_one(pp, err);
		goto out;
	}
	for (;;) {
		struct slot *s = &pp->slot[pp->next_write % pp->nslot];
		struct slot *n = &pp->slot[pp->next_fill % pp->nslot];

		/* read ahead while there is room, once the first chunk has
		 * shown a stream of values */
		if (pp->next_write > 0 && !pp->eof &&
		    pp->next_fill < pp->next_write + pp->nslot &&
		    par_ahead(pp) < INFLIGHT) {
			f = par_fill(pp, n, pp->next_fill == pp->next_write);
			if (f == 0)
				continue;
			if (f == JENC_ST_FALLBACK)
				break;
		}
		if (pp->next_write == pp->next_fill)
			break;		/* all written (or: read on) */
		pthread_mutex_lock(&pp->mu);
		while (s->state != SL_DONE)
			pthread_cond_wait(&pp->done, &pp->mu);
		pthread_mutex_unlock(&pp->mu);
		if (s->cut_end && !s->last && s->rc != JENC_E_NOMEM)
			break;		/* the one-thread reader from s on */
		rc = par_write_chunk(pp, s, err);
		pp->line += s->lines;
		if (pp->map.p != NULL && s->in != s->buf)
			jenc_map_trim(&pp->map, s->in + s->len);
		par_set_state(pp, s, SL_FREE);
		pp->next_write++;
		if (rc != 0 || s->last)
			goto stop;
	}
	/* stop the workers, then read the rest on this thread */
	par_stop_workers(pp, tid, nt);
	nt = 0;
	if (pp->next_write < pp->next_fill || !pp->eof ||
	    pp->carry_len > 0 ||
	    pp->slot[pp->next_fill % pp->nslot].state == SL_FILLING)
		rc = par_rest_one(pp, err);
stop:
	par_stop_workers(pp, tid, nt);
out:
	for (i = 0; i < pp->nslot; i++) {
		jenc_mem_free(pp->slot[i].buf, pp->slot[i].cap);
		jenc_mem_free(pp->slot[i].out, pp->slot[i].out_cap);
		(void)jenc_release(pp->slot[i].mem);
		jenc_mem_free(pp->slot[i].bad,
		    BAD_MAX * sizeof(*pp->slot[i].bad));
	}
	jenc_mem_free(pp->slot, pp->nslot * sizeof(*pp->slot));
	jenc_mem_free(pp->carry, pp->carry_cap);
	jenc_map_release(&pp->map);
	pthread_mutex_destroy(&pp->mu);
	pthread_cond_destroy(&pp->done);
	pthread_cond_destroy(&pp->work);
	return rc;
}
