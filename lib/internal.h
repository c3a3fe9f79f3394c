/*
 * internal.h - declarations shared inside lib/, not part of the public API.
 *
 * The layers of lib/, bottom to top.  A file calls only into the layers
 * below its own, never up and never sideways, so that the call graph has
 * no cycle (tests/cli/layers.bats checks it on the built objects); the
 * headers are declarations only (jenc.h, then internal.h and seg.h).
 * The files of one module (x.c and x_*.c, in one layer) call each other.
 * A layer N.M lies between N and N+1: the files of one module that call
 * each other in one direction only (the CSV reader's, csv_int.h).
 *
 *	1 pool.c	counted allocation through the installed jenc_alloc,
 *			the segment pools
 *	1 utf8.c	UTF-8 checks; a JSON string body's escapes decoded
 *	2 num.c skel.c	numbers and times as text, the JSON number grammar;
 *			the skeleton of JSON text that jsmn reads (skel.c)
 *	2 io.c		read(2) with EINTR, EAGAIN and a wake descriptor;
 *			the writev(2) loop; buffer growth with its
 *			overflow check
 *	2 loglevel.c logwalk.c
 *			the log view's levels, and its walk of a
 *			record's text (logv.h)
 *	3 err.c		filling jenc_err: message, excerpt, caret
 *	3 conv.c	input in another encoding converted to UTF-8 with
 *			iconv(3), for in.c
 *	3 map.c		a regular file mapped read-only, unmapped behind
 *			its reader (JENC_READ_MAP)
 *	3 logtime.c	the log view's times: read, and shown through a
 *			strftime format (logv.h)
 *	3 rec.c		the check of one compact JSON object by the
 *			reader's rules, for views that take records
 *			without the reader (rec.h)
 *	3 jsmnx.c	the jsmn adapter under both JSON readers: its
 *			calls, skeletons read instead of the text, the
 *			chain of open tokens (jsmnx.h)
 *	4 in.c color.c jsonc.c pipe.c
 *			the input layer: reading an fd or memory into a
 *			window, positions, end of input; the palette of
 *			JENC_COLOR in JQ_COLORS' syntax; the filter of
 *			JENC_READ_JSONC over the JSON reader's window;
 *			the scout thread that reads and tokenizes a
 *			document for the JSON reader (pipe.h)
 *	5 sort.c	JENC_SORT_KEYS: members put in order, reaching
 *			the encoder's output through jenc_out_ops
 *	6 enc.c enc_out.c enc_esc.c enc_opts.c enc_view.c
 *			the encoder: its calls and grammar; its held output,
 *			sink policy, pool, jenc_pool_trim; its escaping;
 *			colors, top-level framing, the side buffer; views
 *			(the encoder's files share lib/enc_int.h)
 *	6.1 csv_err.c	the parts of the CSV/TSV reader (csv_int.h),
 *			each calling only those listed before it:
 *			its errors
 *	6.2 csv_scan.c csv_detect.c
 *			the record scanner; the delimiter
 *	6.3 csv_names.c	the header's names, --nest's tree of them
 *	6.4 csv_out.c	the loop over the records; a record written,
 *			typed with JENC_CSV_TYPES
 *	7 json.c csv.c csvw.c
 *			the JSON and CSV/TSV readers; the CSV/TSV
 *			writer, a view of the encoder
 *	7 logv.c	the log view: a record as a line for people
 *	7 json_walk.c json_scan.c json_err.c json_recover.c
 *			the JSON reader's grammar and walk, its slow scan,
 *			its errors, its reading on after bad input (json.h)
 *	8 par.c		the JSON reader on several threads: chunks of
 *			a stream read at once, written in order
 *	8 logfd.c	the log view over a file descriptor: compact
 *			records without the reader, other lines with it
 */
#ifndef JENC_INTERNAL_H
#define JENC_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jenc.h"

/* ---- results of internal calls ---- */
/*
 * An internal call that can end more than one way returns an int: 0 when
 * it did what it is for, a negative JENC_E_* code (jenc.h) when it
 * failed, or one of the statuses below, each with one meaning in every
 * module.  Sizes, positions and counts come back through out-parameters,
 * never mixed with a status in one value.  The exceptions: jenc_io_read
 * (io.c), which keeps read(2)'s form, and steps inlined into a hot loop
 * whose sentinel is cheaper (skel.c's skel_block says what it saves;
 * rec.c's steps, behind jenc_rec_check).
 */
#define JENC_ST_MORE 1		/* more input is needed to decide */
#define JENC_ST_END 2		/* what is read ends here (the input, a
				 * bad text): nothing more of it comes */
#define JENC_ST_FULL 3		/* a buffer at its limit is full */
#define JENC_ST_ROOM 4		/* more room is needed (how much: an
				 * out-parameter) */
#define JENC_ST_WAIT 5		/* nothing is there without blocking */
#define JENC_ST_OUT 6		/* the output failed: the encoder's
				 * error says how */
#define JENC_ST_FALLBACK 7	/* this way declines (no error): the
				 * caller goes on the general way */
#define JENC_ST_RESTART 8	/* the caller's tokenizer is out of step
				 * (no error): it starts afresh where
				 * it is told */

/* ---- counted allocation (pool.c) ---- */
/* Every block of the library, through the installed jenc_alloc.  n > 0;
 * old_n and the n given to jenc_mem_free are the block's exact size (the
 * allocator is told them).  jenc_mem_realloc(NULL, 0, n) allocates;
 * jenc_mem_free(NULL, n) does nothing. */
void *jenc_mem_alloc(size_t n);
void *jenc_mem_realloc(void *p, size_t old_n, size_t n);
void jenc_mem_free(void *p, size_t n);

/*
 * The readers' work counters (pool.c), read by jenc_read_stats_get: each
 * names a field of jenc_read_stats.  Added to once per read, per window
 * slid or grown, per skeleton, per call of jsmn (never per byte), with
 * relaxed atomics, from any thread.
 */
enum {
	JENC_W_BYTES_IN, JENC_W_READS, JENC_W_WAITS, JENC_W_GROWS,
	JENC_W_MOVED, JENC_W_SKEL, JENC_W_JSMN_CALLS, JENC_W_JSMN_BYTES,
	JENC_W_CUT, JENC_W_SLOW, JENC_W_THREADS, JENC_W_N
};
void jenc_work_add(int k, uint64_t n);

/* ---- system calls and buffer growth (io.c) ---- */
struct iovec;
#define JENC_IO_NOWAIT 0x01	/* EAGAIN: return JENC_IO_AGAIN at once */
#define JENC_IO_COUNT 0x02	/* count JENC_W_READS and JENC_W_WAITS */
#define JENC_IO_AGAIN (-2)	/* JENC_IO_NOWAIT: no input waiting */
#define JENC_IO_STOPPED (-3)	/* the wake descriptor became readable */
/*
 * jenc_io_read - one read(2) of up to n bytes of fd into dst: EINTR
 * retried; EAGAIN (a non-blocking fd) waited out with poll(2), or
 * JENC_IO_AGAIN with JENC_IO_NOWAIT.  wake >= 0: poll fd and wake before
 * each read, JENC_IO_STOPPED once wake is readable (another thread's
 * cancel), so that the wait ends without input.  Returns the bytes read,
 * 0 at the end of the input, or -1 with *sys_errno set.
 */
ssize_t jenc_io_read(int fd, void *dst, size_t n, int wake, unsigned flags,
    int *sys_errno);
/* jenc_io_ready - 1 if a read of fd would not wait now: input, its end
 * or an error is there (poll(2) with no timeout); 0 if it would wait, or
 * poll fails. */
int jenc_io_ready(int fd);
/* jenc_io_writev - write all of iov[0..cnt) to fd (iov is consumed):
 * EINTR retried, EAGAIN waited out with poll(2).  0, or -1 with
 * *sys_errno set. */
int jenc_io_writev(int fd, struct iovec *iov, int cnt, int *sys_errno);
/* jenc_grow_cap - the capacity, in elements of size bytes, that holds
 * need: cap (first if cap is 0) doubled until it does; 0 if that would
 * not fit in a size_t of bytes. */
size_t jenc_grow_cap(size_t cap, size_t need, size_t first, size_t size);
/* jenc_grow - make *p (of *cap elements of size bytes) hold need
 * elements: jenc_grow_cap's capacity, its contents kept (through
 * jenc_mem_realloc).  0, or JENC_E_NOMEM with *p and *cap unchanged. */
int jenc_grow(void **p, size_t *cap, size_t need, size_t first, size_t size);

/* ---- number and time text (num.c) ---- */
/* Each writes text without a terminating NUL and returns its length. */
size_t jenc_fmt_i64(char *out, int64_t v);	/* out: 20+ bytes */
size_t jenc_fmt_u64(char *out, uint64_t v);	/* out: 20+ bytes */
size_t jenc_fmt_f64(char *out, double v);	/* out: 32 bytes, v finite */
/* "YYYY-MM-DDTHH:MM:SSZ" (20 bytes, no quotes); 0 if the year is outside
 * 1..9999. */
size_t jenc_fmt_time_utc(char *out, int64_t secs);
/* 1 if p[0..n) is exactly a JSON number by RFC 8259's grammar. */
int jenc_json_number_ok(const char *p, size_t n);

/* ---- the skeleton of JSON text for jsmn (skel.c) ---- */
/* The most bytes of text one jenc_skel call takes (its positions fit the
 * map's uint32_t and jsmn's int). */
#define JENC_SKEL_MAX ((size_t)64 * 1024)
/* The room jenc_skel needs in s and map for n bytes of text. */
#define JENC_SKEL_ROOM(n) ((n) + 64)
/*
 * jenc_skel - the skeleton of p[0..n) (n <= JENC_SKEL_MAX, or up to
 * INT_MAX for a caller that gives jsmn skeletons that long): its
 * whitespace outside strings, the bodies of its strings and all but the
 * first byte of each primitive left out, a whitespace byte kept after
 * each primitive; see skel.c.  p[0] must be
 * outside any token.  Writes s[0..*slen) and map[0..*slen), map[i] the
 * index in p of s[i] (s and map have room for n + 64 entries: the
 * bytes after the last are written too), and *b, the bytes of p the
 * skeleton covers (0: none; p[b..n) is left for later).  Returns 0, or
 * JENC_ST_FALLBACK if jsmn might read the skeleton otherwise than the
 * text: p holds bad escapes, control or non-ASCII bytes outside strings,
 * control bytes or invalid UTF-8 inside them, or a primitive glued to a
 * quote or bracket (the caller then gives jsmn the text).  The strings of
 * p[0..b) are then known to hold what the reader's body check allows.
 */
int jenc_skel(const char *p, size_t n, char *s, uint32_t *map,
    size_t *slen, size_t *b);
/* The classifier jenc_skel uses: chosen once from the processor (isa -1),
 * or one of these; returns the one in use, -1 if isa is not supported. */
#define JENC_SKEL_SCALAR 0	/* byte by byte */
#define JENC_SKEL_SSE2 1
#define JENC_SKEL_AVX2 2
#define JENC_SKEL_AVX512 3	/* AVX-512BW */
#define JENC_SKEL_VBMI2 4	/* and VBMI2's byte compress */
#define JENC_SKEL_SWAR 5	/* eight bytes in a uint64_t: the portable one */
#define JENC_SKEL_NEON 6	/* aarch64 */
#define JENC_SKEL_LAST 6
int jenc_skel_use(int isa);

/* ---- UTF-8 (utf8.c) ---- */
/* Length of the valid UTF-8 sequence at p (1..4), or 0 if p[0..n) does not
 * start with one (overlong, surrogate, > U+10FFFF, truncated, stray
 * continuation).  p[0] must be >= 0x80. */
static inline size_t
jenc_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char c = p[0];

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		if (n < 2 || (p[1] & 0xc0) != 0x80)
			return 0;
		*cp = (uint32_t)(c & 0x1f) << 6 | (p[1] & 0x3f);
		return 2;
	}
	if (c >= 0xe0 && c <= 0xef) {
		if (n < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0)	/* overlong */
			return 0;
		if (c == 0xed && p[1] >= 0xa0)	/* surrogate */
			return 0;
		*cp = (uint32_t)(c & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 |
		    (p[2] & 0x3f);
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (n < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90)	/* overlong */
			return 0;
		if (c == 0xf4 && p[1] >= 0x90)	/* above U+10FFFF */
			return 0;
		*cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
		    (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
		return 4;
	}
	return 0;
}
/* 1 if p[0..n) (n >= 1), where jenc_utf8_seq found no sequence, may be one
 * that the end of p cuts: a lead byte from 0xc2 to 0xf4 that needs more
 * than n bytes, then continuation bytes only.  The readers wait for more
 * input then. */
static inline int
jenc_utf8_cut(const unsigned char *p, size_t n)
{
	size_t need = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2, j;

	if (n >= need || p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	for (j = 1; j < n; j++)
		if ((p[j] & 0xc0) != 0x80)
			return 0;
	return 1;
}
/* 1 if p[0..n) is valid UTF-8 with no NUL byte; else 0 and *bad = index of
 * the first offending byte (scan.h's scan_text_bad, not inline). */
int jenc_utf8_check(const char *p, size_t n, size_t *bad);
/* jenc_utf8_unescape - the text of the JSON string body s[0..n) written
 * at o (room: n bytes, which the text never exceeds): its escapes decoded
 * to UTF-8, a backslash that starts no valid escape copied as it is.  A
 * lone surrogate escape (\ud800 with no low one after it, or a low one
 * alone) comes out by lone: JENC_LONE_KEEP as its three bytes (sort keys
 * compare by them), JENC_LONE_FAIL ends the call with (size_t)-1 (a CSV
 * cell must be UTF-8), JENC_LONE_FFFD as U+FFFD (text for people).
 * Returns the text's length. */
enum { JENC_LONE_KEEP, JENC_LONE_FAIL, JENC_LONE_FFFD };
size_t jenc_utf8_unescape(char *o, const char *s, size_t n, int lone);

/* ---- the encoder for the input layer (enc_out.c) ---- */
/* jenc_flush(ctx) as a jenc_in before_read callback (ctx: a jenc_enc). */
int jenc_flush_cb(void *ctx);

/* ---- verbatim values (enc.c), for the readers ---- */
/* 1 if e writes compact output and copies raw strings unchanged: then a
 * valid JSON value with its insignificant whitespace removed is exactly
 * what the structure calls would write. */
int jenc_verbatim(const jenc_enc *e);
/* 1 if e is inside a JENC_SPLIT array of which an element was written
 * (committed): part of the array's text is out. */
int jenc_split_written(const jenc_enc *e);
/* A top-level value written as fragments of its compact text: begin (at
 * top level only), any number of fragments, end (the newline, and with
 * JENC_HOLD the commit point).  Between begin and end e is inside a value:
 * other calls fail with JENC_E_STATE, jenc_discard drops the fragments. */
int jenc_frag_begin(jenc_enc *e);
int jenc_frag(jenc_enc *e, const char *s, size_t n);
int jenc_frag_end(jenc_enc *e);

/* ---- text passed through (enc_opts.c), for the JSON reader ---- */
/* Write s[0..n) verbatim at top level (no newline added, uncolored),
 * committed as a complete value is under JENC_HOLD; under JENC_SEQ an RS
 * first, except for a lone "\n" (what ends a cut value's output).
 * JENC_E_STATE inside a value. */
int jenc_passthru(jenc_enc *e, const char *s, size_t n);

/* ---- views (enc_view.c), for the JSON reader ---- */
/* The bit of jenc_opts.flags (jenc_enc_like) of an encoder with a view:
 * none of the public JENC_* flags. */
#define JENC_VIEW_SET 0x40000000u
/* The message of e's sticky JENC_E_SYNTAX, which only a view sets (its
 * jenc_view_reject, or a record that is not an object with
 * JENC_VIEW_RECORDS), *at_start 1 if it was found at the value's first
 * token, 0 at its end, and *kind JENC_K_VIEW or JENC_K_RECORD; NULL for
 * any other error. */
const char *jenc_view_msg(const jenc_enc *e, int *at_start, int *kind);

/* ---- input in another encoding (conv.c), under in.c ---- */
/*
 * A conversion to UTF-8 from the encoding `name` (iconv(3)'s names), and
 * where it stands in the input.  raw[rpos..rpos+rlen) holds raw bytes
 * read and not yet converted (fd input; raw NULL for buffer input, whose
 * raw bytes stay the caller's, from mem on).  Ownership: raw (rawcap
 * bytes, from jenc_mem_alloc, maybe handed over by in.c) is the
 * jenc_conv's, freed with it by jenc_conv_free.
 */
typedef struct jenc_conv {
	void *cd;		/* iconv_t */
	char name[64];		/* as given, for messages */
	int cr;			/* a lone CR ends a line (CSV) */
	char *raw;
	size_t rawcap, rpos, rlen;
	const char *mem;	/* buffer input: mem[0..rlen) is left */
	int raw_eof;		/* no raw input after the held bytes */
	int state;		/* 0, or the JENC_CONV_* that stopped it */
	int flushed;		/* what iconv held at the end is out */
	uint64_t roff;		/* input offset of the next raw byte */
	/* the converted text so far: the line its end is on, and the
	 * column (1 + characters) and bytes of that line before its end */
	uint64_t line, col;
	size_t lbytes;
	int after_cr;		/* with cr: the last byte was a CR */
	/* a single-byte encoding is converted through tab, built from
	 * iconv's own mapping: tab[b][0..3) byte b's character in UTF-8,
	 * tab[b][3] its length (0: b is invalid) */
	int table;
	unsigned char tab[256][4];
} jenc_conv;

#define JENC_CONV_BAD 1		/* a sequence invalid in the encoding */
#define JENC_CONV_PART 2	/* a character not complete (yet) */

/* 1 if name means UTF-8 input, which needs no conversion (NULL too). */
int jenc_conv_utf8(const char *name);
/* A converter from name, with rawcap bytes of raw buffer (0: none).
 * Returns 0, JENC_E_NOMEM or JENC_E_ENCODING (iconv does not know name,
 * or name is "" or holds a '/'); *cp NULL on error. */
int jenc_conv_new(jenc_conv **cp, const char *name, int cr, size_t rawcap);
void jenc_conv_free(jenc_conv *c);
/* 1 if c converts through its table (a single-byte encoding). */
int jenc_conv_is_table(const jenc_conv *c);
/* Convert (*in)[0..*inlen) into out[0..outcap) until the input is used
 * up, the output is full, or *st is set: JENC_CONV_BAD (*in is at an
 * invalid sequence), JENC_CONV_PART (*in starts a character that the
 * bytes left do not complete).  Advances *in and *inlen, follows roff,
 * line and col; returns the bytes written. */
size_t jenc_conv_run(jenc_conv *c, const char **in, size_t *inlen,
    char *out, size_t outcap, int *st);
/* At the end of the input: what the conversion still holds (a character
 * that composes with the next, in cp1255, cp1258, tcvn) written to
 * out[0..outcap), 16 bytes or more.  Returns the bytes written. */
size_t jenc_conv_flush(jenc_conv *c, char *out, size_t outcap);
/* A UTF-8 byte order mark of `bytes` bytes and `chars` characters was
 * dropped from the start of the converted text: line 1's columns start
 * after it. */
void jenc_conv_bom(jenc_conv *c, size_t chars, size_t bytes);
/* The message for st (JENC_CONV_BAD, or JENC_CONV_PART at the end of
 * the input), p[0..n) being the raw bytes from the spot on. */
void jenc_conv_msg(jenc_conv *c, const char *p, size_t n, int st,
    char *msg, size_t msgsz);

/* ---- output made elsewhere (enc_out.c), for the parallel reader ---- */
/* The options e was made with (indent, flags, hold_max), for an encoder
 * that writes as e does. */
void jenc_enc_like(const jenc_enc *e, jenc_opts *o);
/* dst's colors become src's. */
void jenc_enc_pal_copy(jenc_enc *dst, const jenc_enc *src);
/* e's view (as given to jenc_set_view), NULL if it has none (enc_view.c). */
const jenc_view *jenc_enc_view(const jenc_enc *e);
/* 1 if e is a memory encoder (jenc_get_mem): it writes nothing, so it
 * never cuts a value held past hold_max. */
int jenc_enc_is_mem(const jenc_enc *e);
/* s[0..n), output another encoder made like e (complete top-level
 * values, or text passed through), as committed output of e at top
 * level: written straight to the sink when e holds nothing, else held
 * after what it holds.  JENC_E_STATE inside a value. */
int jenc_out_bytes(jenc_enc *e, const char *s, size_t n);
/* jenc_out_bytes of all that memory encoder from holds, in one writev(2)
 * of its segments (IOV_BATCH at a time) when e holds nothing.  from is
 * not changed. */
int jenc_out_enc(jenc_enc *e, const jenc_enc *from);

/* ---- a part of a stream (json.c), for the parallel reader ---- */
/*
 * jenc_json_part - jenc_json_copy_fd or _mem over a part of a larger
 * input: p[0..n) starts at input offset off, at the start of line `line`,
 * between top-level values (off 0: the start of the input, where a byte
 * order mark may be).  fd >= 0: the fd's bytes follow p[0..n) to the end
 * of the input; fd < 0: the part ends at p[n], read as if the input did.
 * Positions in err and in on_error's reports are the whole input's.  err
 * must not be NULL.  *cut_end (if not NULL) gets 1 when what was read at
 * p[n] was not at an end that more input cannot change: a value or a
 * bad text (SKIP, PASS) still open there; 0 otherwise.  *lines (if not
 * NULL, with fd < 0) gets the line ends in p[0..n), counted as the
 * reader's window slid past them rather than in a pass of their own.
 */
int jenc_json_part(int fd, const char *p, size_t n, uint64_t off,
    uint64_t line, jenc_enc *e, const jenc_read_opts *o, jenc_err *err,
    int *cut_end, uint64_t *lines);
/*
 * jenc_json_pipe - jenc_json_part(fd, p, n, off, line, e, o, err, NULL,
 * NULL)
 * on two threads: a second one reads the input and tokenizes it
 * (pipe.c) while this one checks and encodes.  The same output, result
 * and reports.  p must stay valid until it returns.  piece: the bytes the
 * second thread reads at a time, 0 for its default (jenc_pipe_new).
 */
int jenc_json_pipe(int fd, const char *p, size_t n, uint64_t off,
    uint64_t line, jenc_enc *e, const jenc_read_opts *o, jenc_err *err,
    size_t piece);

/* ---- a regular file mapped read-only (map.c), JENC_READ_MAP ---- */
/* p[0..len) are the file's bytes from offset base (a page's) on, of which
 * p[0..gone) are unmapped already; p NULL: nothing is mapped. */
typedef struct jenc_map {
	char *p;
	size_t len, gone;
	off_t base;
} jenc_map;
/* fd's file mapped from the page that holds offset at, if it has at least
 * JENC_IN_MAP_MIN bytes from there on: returns the byte at offset at, or
 * NULL (m->p NULL: not such a file, or mmap failed).  m is released with
 * jenc_map_release, which a zeroed m also takes. */
const char *jenc_map_init(jenc_map *m, int fd, off_t at);
void jenc_map_release(jenc_map *m);
/* Unmap the pages before done, once they are JENC_MAP_TRIM bytes or more
 * (pages still mapped stay as they are). */
void jenc_map_trim(jenc_map *m, const char *done);
#define JENC_MAP_TRIM ((size_t)1024 * 1024)
/* fd's offset set to that of the mapped byte at, for read(2) on from
 * there: lseek(2)'s result. */
off_t jenc_map_seek(const jenc_map *m, int fd, const char *at);

/* ---- input (in.c), under both readers ---- */
struct jenc_where;		/* below, with the reader errors */
/*
 * The window a reader scans: p[0..len) holds the input bytes from offset
 * off on.  Input comes from a file descriptor, read into a buffer of our
 * own that grows (doubling, up to max bytes) only while one token or
 * record does not fit and shrinks back once it is gone (a caller's buffer
 * may be copied in the same way), or from the caller's buffer, of which
 * the window is a view of at most max bytes, or from a regular file
 * mapped into memory (jenc_in_init_map), of which the window is a view
 * that grows as reads would and whose pages are unmapped behind it.
 * A reader keeps its positions as indices into the window; when it drops
 * bytes from the front it subtracts their count from each (rebasing).
 * Growing may move the window: after jenc_in_fill or jenc_in_line, p must
 * be read again.  Ownership: the buffer is the jenc_in's, freed by
 * jenc_in_release; a caller's buffer and out stay the caller's.
 */
typedef struct jenc_in {
	const char *p;		/* the window */
	size_t len;
	int eof;		/* no input after p[len) */
	int lf_lines;		/* jenc_in_drop counts the LF line ends */
	uint64_t off;		/* input offset of p[0] */
	uint64_t line;		/* with lf_lines: the line p[0] is on */
	uint64_t lstart;	/* with lf_lines: input offset where that
				 * line's text starts (after a byte order
				 * mark on line 1) */
	int sys_errno;		/* errno of a read that failed */
	/* with lf_lines: p[mark] (mark > 0) is known to start line
	 * mark_line, so jenc_in_where and jenc_in_drop count lines from
	 * there, not from p[0]; see jenc_in_mark.  0: no mark */
	size_t mark;
	uint64_t mark_line;
	/* called before each blocking read (the readers flush their encoder
	 * there, so that what is complete is out while input is awaited);
	 * non-zero fails the read with JENC_ST_OUT.  NULL: nothing.  A
	 * callback, so that this layer never calls the encoder above it. */
	int (*before_read)(void *ctx);
	void *ctx;
	/* fd input from elsewhere than read(2): pull(pull_ctx, dst, n, got,
	 * need, sys_errno) as jenc_pipe_pull (pipe.h) puts up to n bytes in
	 * dst (*got, 0 at the end), or returns JENC_ST_ROOM to ask for room
	 * for *need (need NULL: never, as for a converted input's raw
	 * bytes), or JENC_E_IO; NULL: read(2) on fd */
	int (*pull)(void *, char *, size_t, size_t *, size_t *, int *);
	void *pull_ctx;
	/* with pull, or NULL: view(pull_ctx, off, end, room, &n) as
	 * jenc_pipe_view gives the next n bytes where they are, if they
	 * follow end (the window's end; NULL: the window is empty) and n <=
	 * room, so that the window is a view of them, not a copy; else NULL,
	 * and they are pulled.  off: the input offset the window starts at
	 * (what is before it the source may free) */
	const char *(*view)(void *, uint64_t, const char *, size_t, size_t *);
	/* the rest is in.c's own */
	char *buf;		/* fd input: our buffer, p == buf; NULL for
				 * buffer input (unless converted) */
	int viewing;		/* p is a view from view(), not buf */
	jenc_conv *conv;	/* input in another encoding, NULL: UTF-8 */
	const char *wide;	/* wide input: "UTF-16LE", ... */
	const char *enc;	/* an unknown encoding: the name asked for */
	int enc_cr;		/* jenc_in_begin's cr */
	size_t cap, init, max;
	size_t rest;		/* buffer input: bytes after p[len) */
	const char *src;	/* copied buffer input: where they are */
	int fd;
	jenc_map map;		/* mapped input: the window is a view of
				 * it, grown by at most init bytes at a
				 * time */
} jenc_in;

/* jenc_in_fill's results: 0, JENC_E_NOMEM, JENC_E_IO (errno in
 * sys_errno), JENC_ST_FULL (the window is max bytes and full),
 * JENC_ST_OUT (before_read failed) or JENC_E_ENCODING: the encoding's own
 * error, which the reader reports with jenc_in_enc_msg and, when
 * jenc_in_enc_spot says it has one, jenc_in_enc_where.  That is a byte
 * invalid in the input's encoding, or a character cut by the end of
 * input, right after p[len); from jenc_in_begin, also an input that looks
 * like UTF-16 or UTF-32 without a byte order mark, or an encoding
 * iconv(3) does not know (no spot). */

/* Context an error excerpt can need: the window keeps this many bytes
 * before the earliest position a reader still needs (or from the start of
 * its line), and jenc_in_line reads this many after an error's spot. */
#define JENC_IN_CONTEXT ((size_t)256)
#define JENC_IN_AFTER ((size_t)1024)

/* Input from fd through a window of win bytes (growing to max).  Returns
 * 0 or JENC_E_NOMEM (in is then closed).  fd stays the caller's. */
int jenc_in_init_fd(jenc_in *in, int fd, size_t win, size_t max);
/*
 * jenc_in_init_fd for a regular file of at least JENC_IN_MAP_MIN bytes
 * from fd's offset on, mapped into memory instead of read: no copy, and
 * what was read is unmapped behind the window, so memory stays that of a
 * window.  Where the mapping ends (or for a conversion, which reads its
 * raw bytes), reading goes on with read(2) from there: bytes written to
 * the file meanwhile are read as with jenc_in_init_fd.  A file made
 * shorter while it is mapped raises SIGBUS.  Returns 0, or
 * JENC_ST_FALLBACK with in untouched (not such a file, or mmap failed:
 * use jenc_in_init_fd).
 */
int jenc_in_init_map(jenc_in *in, int fd, size_t win, size_t max);
#define JENC_IN_MAP_MIN ((size_t)1024 * 1024)
/* Input from p[0..n) (p may be NULL when n is 0), the window showing at
 * most max bytes of it at a time. */
void jenc_in_init_mem(jenc_in *in, const char *p, size_t n, size_t max);
/* Input from p[0..n) copied into a window of our own, as for a
 * descriptor (for a reader that writes to its window).  Returns 0 or
 * JENC_E_NOMEM (in is then closed).  p stays the caller's. */
int jenc_in_init_copy(jenc_in *in, const char *p, size_t n, size_t win,
    size_t max);
void jenc_in_release(jenc_in *in);
/* fd input: the window starts with a copy of p[0..n) (read earlier by
 * the caller), the fd's bytes after it; call it just after
 * jenc_in_init_fd.  Returns 0 or JENC_E_NOMEM (in stays open). */
int jenc_in_preload(jenc_in *in, const char *p, size_t n);
/* More input after p[len): grows a full window, flushes out, reads once
 * (EINTR retried; on a non-blocking fd, EAGAIN waits in poll(2)), or sets
 * eof.  Returns 0 or an error of jenc_in_fill's (above). */
int jenc_in_fill(jenc_in *in);
/* Drop p[0..n): off grows by n, with lf_lines line and lstart follow
 * (counted from the mark when it is among the bytes dropped). */
void jenc_in_drop(jenc_in *in, size_t n);
/* Number of '\n' bytes in p[0..n), vectorised; *after (unless after is
 * NULL) gets the index just past the last one, 0 if there is none. */
uint64_t jenc_count_lines(const char *p, size_t n, size_t *after);
/* How much a reader that still needs p[pos..) may drop: up to the start
 * of pos's line, but keeping at least JENC_IN_CONTEXT bytes before pos. */
size_t jenc_in_keep(const jenc_in *in, size_t pos);
/* Skip a UTF-8 byte order mark at the start of the input (reading while
 * the window holds a prefix of one): it is dropped, and line 1's columns
 * start after it.  *bom gets 1 if there was one, 0 if not.  Returns 0 or
 * an error of jenc_in_fill. */
int jenc_in_bom(jenc_in *in, int *bom);
/*
 * Start reading: with enc (not NULL, not a name of UTF-8) the input is
 * converted from enc to UTF-8 from its first byte on, and a byte order
 * mark the conversion keeps (U+FEFF) is skipped.  Without, the start of
 * the input is looked at (read while it could still be a byte order mark
 * or UTF-16): a UTF-8 byte order mark is skipped as by jenc_in_bom; a
 * UTF-16LE/BE or UTF-32LE/BE one is dropped and the rest converted as
 * with enc "utf-16le", ...; a NUL in every other byte of the first four
 * (of an input of two bytes, of both), or in three of four, is
 * JENC_E_ENCODING (wide input).  Lines of the converted text are
 * counted at LF, with cr at a lone CR too (for the position of a bad
 * byte).  *bom gets 1 if there was a byte order mark, 0 if not.  Returns
 * 0 or an error of jenc_in_fill (JENC_E_ENCODING also for wide input or
 * an unknown encoding).  Offsets are those of the converted text, in
 * which a byte order mark counts as its 3 UTF-8 bytes (as when the input
 * is UTF-8).
 */
int jenc_in_begin(jenc_in *in, const char *enc, int cr, int *bom);
/* The message of a JENC_E_ENCODING of jenc_in_fill or jenc_in_begin. */
void jenc_in_enc_msg(const jenc_in *in, char *msg, size_t n);
/* 1 if that error has a spot for jenc_in_enc_where (all but an unknown
 * encoding's). */
int jenc_in_enc_spot(const jenc_in *in);
/* Where that error is: the bad byte, its offset in the raw input, its
 * line in the converted text and column in characters (see conv.c), the
 * excerpt of the converted text before it; for wide input line 1, column
 * 1.  Reads on for the excerpt, as jenc_in_line. */
void jenc_in_enc_where(jenc_in *in, struct jenc_where *w);
/*
 * Before an error at p[at] is reported: read on until the window holds
 * the end of at's line (an LF, with cr a CR too), JENC_IN_AFTER bytes
 * from at, or the end of the input, so that the excerpt is the same
 * however the input arrived.  For that the window may grow past its
 * limit (max), to at most at + JENC_IN_AFTER bytes.  Nothing is dropped;
 * a read that fails just stops it.
 */
void jenc_in_line(jenc_in *in, size_t at, int cr);
/* Tell the window that p[at] starts line `line` (a reader that resumes
 * there after an error whose position it knows), so that jenc_in_where
 * for a later spot, and jenc_in_drop, count the lines from there and not
 * again before it.  Kept until the window drops p[at]. */
void jenc_in_mark(jenc_in *in, size_t at, uint64_t line);
/* Where p[at] is, for a reader with lf_lines (lines end at LF). */
void jenc_in_where(const jenc_in *in, size_t at, struct jenc_where *w);
/* Where p[at] is, on line `line` whose text starts at p[ls], for a reader
 * that counts lines itself; cr: a lone CR ends a line too. */
void jenc_in_where_line(const jenc_in *in, size_t at, uint64_t line,
    size_t ls, int cr, struct jenc_where *w);

/* ---- JSON with comments (jsonc.c), for the JSON reader ---- */
/*
 * The filter of JENC_READ_JSONC over the reader's window (its own buffer):
 * comments and trailing commas become spaces, line feeds stay, nothing
 * moves.  The state is kept in input offsets, so the reader may drop the
 * front of its window between calls (what it drops must be filtered, or
 * the filter starts afresh after it).
 */
typedef struct jenc_jsonc {
	uint64_t done;		/* the input is filtered up to here */
	uint64_t comma;		/* a ',' that may be trailing, or none */
	uint64_t slash;		/* a '/' that may start a comment */
	uint64_t open;		/* the '/' of an open block comment */
	int st;
	unsigned char last;	/* the last byte before the current run of
				 * code that was not whitespace, 0: none */
} jenc_jsonc;

#define JENC_JSONC_MORE JENC_ST_MORE	/* jsonc.c's name for it */

/* Start at input offset at, outside strings and comments, after nothing. */
void jenc_jsonc_init(jenc_jsonc *c, uint64_t at);
/*
 * Filter w[c->done - off .. n), w[0] being at input offset off (bytes
 * before off that were not filtered are skipped).  eof: no input follows
 * w[n).  Returns 0 when w[0..n) is final, or JENC_JSONC_MORE when its end
 * is undecided (a '/' last, an open block comment, a ',' followed only
 * by whitespace and comments): the reader must read more, dropping
 * nothing from the first undecided byte on, and call again before it
 * looks at any of the new bytes.  At eof it always returns 0; an
 * unterminated block comment is then left as it was, for the reader to
 * report (see jenc_jsonc_unterminated).
 */
int jenc_jsonc_filter(jenc_jsonc *c, char *w, size_t n, uint64_t off,
    int eof);
/* The offset of the first undecided byte, UINT64_MAX if there is none. */
uint64_t jenc_jsonc_undecided(const jenc_jsonc *c);
/* 1 if the input ended inside a block comment opened at offset at. */
int jenc_jsonc_unterminated(const jenc_jsonc *c, uint64_t at);
/* The reader goes on at offset at, at top level, after bad input: the
 * filter starts afresh there unless it has filtered past it already. */
void jenc_jsonc_resume(jenc_jsonc *c, uint64_t at);

/* ---- reader errors (err.c) ---- */
/*
 * Where an error is, for jenc_err_set.  text points into the reader's
 * window at the start of the line holding the spot (text_cut 0), or at a
 * later byte of that line when what came before it is no longer held
 * (text_cut 1: the excerpt then starts with "...").  avail bytes are
 * readable from text; the spot is text[at] (at == avail: just past them).
 * The line ends at LF, at CR LF, and with cr_ends_line (CSV) at a lone CR
 * too.  eof 1 says the input ends at text[avail], so a line with no end
 * within avail bytes ends there; with eof 0 the line goes on past what was
 * read and the excerpt ends with "..." too.  A reader that reads on to
 * complete the line before reporting needs at most JENC_EXCERPT_SCAN bytes
 * past the spot (or the line's end, or the input's): the excerpt is then
 * the one of the whole input, however it arrived.
 * col 0 (a CSV record with the wrong number of fields): the error is about
 * the whole line, which has no column and no excerpt (text NULL, avail 0).
 */
typedef struct jenc_where {
	uint64_t offset;	/* 0-based byte offset of the spot */
	uint64_t line;		/* 1-based */
	uint64_t col;		/* 1-based byte column */
	const char *text;
	size_t avail, at;
	int text_cut;
	int cr_ends_line;
	int eof;
} jenc_where;

/* An excerpt shows at most this many bytes of the line on either side of
 * the spot. */
#define JENC_EXCERPT_SCAN 656

/*
 * jenc_err_set - the one function that fills a jenc_err: everything is
 * cleared, then code, kind (JENC_K_*), sys_errno, cut, the message
 * (printf-style) and, when w is not NULL, offset, line, col, excerpt and
 * caret (see err.c for how the excerpt shows the line).  w NULL (I/O errors, allocation failures)
 * leaves offset, line, col, the excerpt and caret 0 and empty.  The
 * message is taken as it is: a reader adds "(output of this value was
 * cut)" itself.  Returns code.
 */
int jenc_err_set(jenc_err *err, int code, int kind, int sys_errno, int cut,
    const jenc_where *w, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Describe the byte at p for "found ...": 'x', byte 0xNN, NUL byte, or end of
 * input when avail is 0. */
void jenc_err_found(char *out, size_t outsz, const char *p, size_t avail);
/* A name (a key, a column) p[0..n) as a message quotes it, into out (at
 * least JENC_ERR_NAME bytes): its first 40 bytes or fewer, cut at the
 * start of a character, "..." after a cut, a control byte as '?'. */
#define JENC_ERR_NAME 44
void jenc_err_name(char *out, const char *p, size_t n);

/* ---- colors, sorted keys (color.c, sort.c, enc.c) ---- */
/* The escapes an encoder writes with JENC_COLOR: ESC [ sgr m for each
 * jenc_colors entry, then ESC [ 0 m (JENC_PAL_RESET). */
#define JENC_PAL_RESET JENC_COLOR_N
typedef struct jenc_pal {
	char esc[JENC_COLOR_N + 1][JENC_COLOR_MAX + 4];
	unsigned char len[JENC_COLOR_N + 1];
} jenc_pal;
/* Fill p from c (NULL: the defaults). */
void jenc_pal_init(jenc_pal *p, const jenc_colors *c);

/*
 * JENC_SORT_KEYS (sort.c): while an object is open its members are
 * written to a side buffer, another segment list of the encoder, and
 * are put in order as each object ends.  enc.c calls the hooks; sort.c,
 * a layer below it, reaches the encoder's output only through the
 * jenc_out_ops that enc.c hands to jenc_sort_open (its jenc_out_* calls),
 * so that no call goes up a layer.
 */
struct jenc_seg;
struct jenc_sort;
typedef struct jenc_out_ops {
	/* Make the side buffer (on) or the main output (off) the one
	 * written. */
	void (*side)(jenc_enc *e, int on);
	/* The written list's first segment, last segment and cursor (the
	 * last one's len is synced); head and tail are NULL while it is
	 * empty. */
	void (*at)(jenc_enc *e, struct jenc_seg **head,
	    struct jenc_seg **tail, char **p);
	/* Append bytes to the written list. */
	int (*put)(jenc_enc *e, const char *s, size_t n);
	/* Empty the side buffer (not being written): keep its first
	 * segment, give the others back. */
	void (*side_clear)(jenc_enc *e);
	/* Fail e with code (sticky), as the encoder's own calls do. */
	int (*fail)(jenc_enc *e, int code);
	/* The sticky error, 0 if none. */
	int (*error)(const jenc_enc *e);
} jenc_out_ops;
/* After a '{' is written; ops stays the caller's, kept until
 * jenc_sort_free. */
int jenc_sort_open(jenc_enc *e, const jenc_out_ops *ops,
    struct jenc_sort **sp);
/* Before a member's ',', whatever its place, with the encoder's cursor
 * at p in its last segment tail: key k[0..n), raw as for jenc_raw_key. */
int jenc_sort_key(jenc_enc *e, struct jenc_sort *s, struct jenc_seg *tail,
    char *p, const char *k, size_t n, int raw);
/* Before the object's closing bytes (cursor as above): puts its members
 * in order, strips the ',' of the new first one; *members gets their
 * count.  When the outermost object closes, its members are written to
 * the main output. */
int jenc_sort_close(jenc_enc *e, struct jenc_sort *s, struct jenc_seg *tail,
    char *p, size_t *members);
/* Forget every open object (jenc_discard, jenc_reset, jenc_release):
 * back to the main output, the side buffer emptied. */
void jenc_sort_drop(jenc_enc *e, struct jenc_sort *s);
void jenc_sort_free(struct jenc_sort *s);

#endif
