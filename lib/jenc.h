/*
 * jenc.h - the public interface of libjenc, a pooled segmented JSON encoder
 * and the streaming JSON/CSV readers that re-encode through it.
 *
 * Invariants
 * ----------
 * - Output is held in a list of segments drawn from size-class pools
 *   (4, 8, 16, 32 and 64 KiB).  An encoder's segments double in size until
 *   64 KiB, then stay 64 KiB; a single append larger than that gets a
 *   segment of its own exact size, freed once the encoder holds nothing
 *   in it (written, taken or reset).  Pools keep a bounded number of free
 *   segments per class and never keep one larger than 64 KiB: 4 to 32 KiB
 *   segments in shared pools (512 KiB at most), 64 KiB ones per thread (7,
 *   448 KiB, freed when the thread exits).
 * - Encoders themselves come from a pool: jenc_get_*() followed by
 *   jenc_release() performs no allocation once the pools are warm; with
 *   JENC_SORT_KEYS, but for the sort state an encoder allocates at its
 *   first object and frees when it is released (a few blocks).
 * - An encoder writes to its sink (fd or callback) only when a segment is
 *   full, on jenc_flush() and on jenc_release(); never per token.
 * - Every call checks that the value sequence stays valid JSON.  A call
 *   that would make it invalid writes nothing, returns an error code and
 *   makes the error sticky: every later call returns the same code until
 *   jenc_reset().
 * - The pools and the allocator (jenc_set_alloc) are the only global
 *   state.  The pools are thread-safe (one lock per shared class, a cache
 *   per thread).  A single jenc_enc must not be used from two threads at
 *   once.
 *
 * Errors are negative int codes (JENC_E_*), 0 is success.
 *
 * Example
 * -------
 *	jenc_opts o = { .indent = 2 };
 *	jenc_enc *e = jenc_get_fd(STDOUT_FILENO, &o);
 *	jenc_obj_begin(e);
 *	jenc_kv_str(e, "name", 4, "jenc", 4);
 *	jenc_kv_i64(e, "stars", 5, 42);
 *	jenc_key(e, "tags", 4);
 *	jenc_arr_begin(e);
 *	jenc_str(e, "json", 4);
 *	jenc_arr_end(e);
 *	jenc_obj_end(e);
 *	int err = jenc_release(e);	// flushes; 0 or the first error
 */
#ifndef JENC_H
#define JENC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JENC_VERSION "1.0.0"

/*
 * JENC_API marks the calls libjenc.so exports: every function declared in
 * this header, and nothing else (the library is built with
 * -fvisibility=hidden; its internal functions stay inside it).
 */
#if defined(__GNUC__) || defined(__clang__)
#define JENC_API __attribute__((visibility("default")))
#else
#define JENC_API
#endif

/* ---- error codes --------------------------------------------------- */

#define JENC_OK 0
#define JENC_E_NOMEM (-1)  /* an allocation failed */
#define JENC_E_IO (-2)     /* write or read failed; errno kept, see jenc_errno() */
#define JENC_E_STATE (-3)  /* call not valid here: key outside an object,
			      value where a key is due, end without begin,
			      mismatched end, a key with no value;
			      jenc_set_alloc while blocks are held */
#define JENC_E_UTF8 (-4)   /* string is not valid UTF-8 */
#define JENC_E_NUMBER (-5) /* NaN or infinity given to jenc_f64() */
#define JENC_E_SECOND (-6) /* second top-level value with JENC_NO_NEWLINE */
#define JENC_E_RANGE (-7)  /* time outside years 1..9999; a log view's
			      time format too long */
#define JENC_E_INCOMPLETE (-8) /* jenc_release() with containers still
				  open */
#define JENC_E_SYNTAX (-9) /* reader: input is not valid JSON / CSV */
#define JENC_E_DEPTH (-10) /* reader: nesting deeper than max_depth */
#define JENC_E_SINK (-11)  /* the sink callback returned non-zero */
#define JENC_E_ENCODING (-12) /* reader: a byte not valid in the input's
				 encoding, a character cut by the end of
				 input, an encoding iconv(3) does not
				 know, or UTF-16/32 without a byte order
				 mark (see "Encodings" below) */

/* Returns a static, lowercase description of code (never NULL). */
JENC_API const char *jenc_strerror(int code);

/* ---- options -------------------------------------------------------- */

#define JENC_TAB 0x01	    /* indent with one tab per level (indent ignored) */
#define JENC_HTML 0x02	    /* escape < > & U+2028 U+2029 as \u003C ...
			       (hex case per JENC_LOWER_HEX) */
#define JENC_ASCII 0x04	    /* escape all non-ASCII as \uXXXX (pairs > U+FFFF) */
#define JENC_LOWER_HEX 0x08 /* hex digits of \u escapes in lowercase */
#define JENC_NO_NEWLINE 0x10 /* no newline after a top-level value; a
				second top-level value is JENC_E_SECOND */
#define JENC_HOLD 0x20	    /* hold each top-level value until complete:
			       the sink only ever sees whole values, unless
			       one grows past hold_max bytes */

typedef struct jenc_opts {
	unsigned indent;  /* spaces per level: 0 = compact, 1..16 (more
			     counts as 16) */
	unsigned flags;	  /* JENC_* bits above, 0 = plain compact */
	size_t hold_max;  /* with JENC_HOLD: bytes of one incomplete value
			     held before it streams; 0 = 1 MiB */
} jenc_opts;

/* ---- shaping the output: colors, sorted keys, streams ---------------- */

/*
 * More jenc_opts flags.  Each works with every layout and escaping flag
 * above, and with each other.
 *
 * JENC_COLOR: ANSI SGR escapes around every token, placed as jq 1.7.1
 * places them: a value is ESC[<color>m, its text, ESC[0m; the brackets,
 * commas and colons of a container are in the container's color; a key
 * is ESC[0m ESC[<key color>m "key" ESC[0m, its colon ESC[<object color>m
 * ':' ESC[0m.  The colors are jq 1.7.1's unless jenc_set_colors() says
 * otherwise.  The output is for terminals, no longer JSON.
 *
 * JENC_SORT_KEYS: the members of every object, nested ones too, in the
 * order of their keys' code points, compared after unescaping (a raw key
 * "\u00e9" and the key U+00E9 in UTF-8 are equal); members with equal
 * keys keep their order (a stable sort), duplicates are kept.  The
 * members of the outermost open object are held apart until it ends:
 * memory grows with the largest object written (at most its output bytes
 * plus 80 bytes and the decoded key per member, nested ones included),
 * not with the whole output.  While such an object is open,
 * jenc_len(), jenc_take() and jenc_segments() see only the output before
 * its members (its '{' included), and jenc_flush() writes only that.
 *
 * JENC_SPLIT: a top-level array is not written as one: each of its
 * elements is written as a top-level value (its own line, RS, commit
 * point with JENC_HOLD, flush with JENC_FLUSH_EACH); jenc_arr_end()
 * ends the array, writing nothing.  Arrays inside it, and other
 * top-level values, are written as they are.  jenc_depth() counts the
 * split array, jenc_discard() leaves it, jenc_release() with it open
 * returns JENC_E_INCOMPLETE.
 *
 * JENC_SLURP: the top-level values are the elements of one array.  The
 * first one writes its '['; jenc_arr_end() at top level closes the array
 * ("[]" if no value came), and a later value opens a new one.  Each
 * element is committed (JENC_HOLD) and dropped by jenc_discard() on its
 * own, so what is written stays a prefix of a valid array.  jenc_release()
 * with the array still open returns JENC_E_INCOMPLETE.  With JENC_SPLIT,
 * the elements of split arrays become the elements.  jenc_depth() does
 * not count the array.
 *
 * JENC_SEQ: RFC 7464 JSON text sequences: RS (0x1E) before each top-level
 * value (before a JENC_SLURP array, before each JENC_SPLIT element); the
 * newline after it stays.
 *
 * JENC_FLUSH_EACH: for fd and sink encoders, jenc_flush() after each
 * top-level value (each JENC_SPLIT element, each JENC_SLURP element):
 * one writev(2) per value (a sink: one call per segment the value
 * spans), for output read as it comes.
 *
 * With JENC_COLOR, JENC_SORT_KEYS or JENC_SPLIT the readers make one call
 * per token, not their faster copy of whole values (see json.c).
 */
#define JENC_COLOR 0x40
#define JENC_SORT_KEYS 0x80
#define JENC_SPLIT 0x100
#define JENC_SLURP 0x200
#define JENC_SEQ 0x400
#define JENC_FLUSH_EACH 0x800

/* ---- getting and releasing encoders -------------------------------- */

typedef struct jenc_enc jenc_enc;

/*
 * A sink receives output bytes in order, one call per segment written
 * (up to 64 KiB, or a large append's own): a value may come in several
 * calls, and one call may hold several values.  It returns 0 on success
 * or non-zero to fail the encoder with JENC_E_SINK.  buf is only valid
 * during the call.
 */
typedef int (*jenc_sink_fn)(void *ctx, const char *buf, size_t len);

/*
 * jenc_get_fd - an encoder writing to fd with writev(2), retrying partial
 * writes and EINTR.  fd stays owned by the caller.  opts NULL means compact.
 * Returns NULL only if an allocation fails.
 */
JENC_API jenc_enc *jenc_get_fd(int fd, const jenc_opts *opts);

/* jenc_get_mem - an encoder that keeps its output; read it with
 * jenc_take() or jenc_segments(). */
JENC_API jenc_enc *jenc_get_mem(const jenc_opts *opts);

/* jenc_get_sink - an encoder writing through fn(ctx, ...); fn must not be
 * NULL. */
JENC_API jenc_enc *jenc_get_sink(jenc_sink_fn fn, void *ctx,
    const jenc_opts *opts);

/*
 * jenc_release - flush what is held (sink encoders), give the encoder and
 * its segments back to the pools.  After an error only the complete
 * top-level values held are written (none after a write error).  Returns the first error the encoder
 * met (0 if none); JENC_E_INCOMPLETE if containers were left open (what
 * was written is still flushed).  e NULL is a no-op returning 0.
 */
JENC_API int jenc_release(jenc_enc *e);

/* ---- structure ------------------------------------------------------ */

JENC_API int jenc_obj_begin(jenc_enc *e);
JENC_API int jenc_obj_end(jenc_enc *e);
JENC_API int jenc_arr_begin(jenc_enc *e);
JENC_API int jenc_arr_end(jenc_enc *e);
/* jenc_key - an object member's name; s is UTF-8 text, escaped here (s
 * may be NULL when len is 0, as for jenc_str and the jenc_kv_* keys). */
JENC_API int jenc_key(jenc_enc *e, const char *s, size_t len);

/* ---- values --------------------------------------------------------- */

/* jenc_str - a string value; s is UTF-8 text (validated), escaped here as
 * Go 1.22's json.Marshal does: \" \\ \b \f \n \r \t, \u00XX for the other
 * control characters, \u2028 \u2029 always (jenc_key too). */
JENC_API int jenc_str(jenc_enc *e, const char *s, size_t len);
JENC_API int jenc_i64(jenc_enc *e, int64_t v);
JENC_API int jenc_u64(jenc_enc *e, uint64_t v);
/* jenc_f64 - shortest text that parses back to v (Go's float format:
 * exponent form below 1e-6 and from 1e21); NaN/inf -> JENC_E_NUMBER. */
JENC_API int jenc_f64(jenc_enc *e, double v);
JENC_API int jenc_bool(jenc_enc *e, int v);
JENC_API int jenc_null(jenc_enc *e);
/* jenc_raw - an already valid JSON scalar (number, literal or quoted
 * string), copied verbatim; not validated.  Not for containers. */
JENC_API int jenc_raw(jenc_enc *e, const char *json, size_t len);
/* jenc_time_utc - RFC 3339 "YYYY-MM-DDTHH:MM:SSZ"; JENC_E_RANGE outside
 * years 1..9999. */
JENC_API int jenc_time_utc(jenc_enc *e, int64_t unix_seconds);
/* jenc_time_unix - the seconds as a JSON integer. */
JENC_API int jenc_time_unix(jenc_enc *e, int64_t unix_seconds);

/* jenc_raw_str - a JSON string body (without quotes) that is already
 * valid JSON string content (escapes kept as written); surrounded with
 * quotes and copied verbatim except for JENC_HTML/JENC_ASCII escapes.
 * jenc_raw_key is the same as an object key.  Not validated; body is not
 * NULL. */
JENC_API int jenc_raw_str(jenc_enc *e, const char *body, size_t len);
JENC_API int jenc_raw_key(jenc_enc *e, const char *body, size_t len);

/* Key-value shorthands: jenc_key() then the value. */
JENC_API int jenc_kv_str(jenc_enc *e, const char *k, size_t klen,
    const char *s, size_t len);
JENC_API int jenc_kv_i64(jenc_enc *e, const char *k, size_t klen, int64_t v);
JENC_API int jenc_kv_u64(jenc_enc *e, const char *k, size_t klen, uint64_t v);
JENC_API int jenc_kv_f64(jenc_enc *e, const char *k, size_t klen, double v);
JENC_API int jenc_kv_bool(jenc_enc *e, const char *k, size_t klen, int v);
JENC_API int jenc_kv_null(jenc_enc *e, const char *k, size_t klen);
JENC_API int jenc_kv_time_utc(jenc_enc *e, const char *k, size_t klen,
    int64_t secs);
JENC_API int jenc_kv_time_unix(jenc_enc *e, const char *k, size_t klen,
    int64_t secs);

/* ---- output ---------------------------------------------------------- */

/* jenc_flush - write held bytes to the sink (with JENC_HOLD: the complete
 * values only).  No-op for memory encoders.  Returns 0 or the error. */
JENC_API int jenc_flush(jenc_enc *e);
/* jenc_len - bytes held (not yet written to a sink). */
JENC_API size_t jenc_len(const jenc_enc *e);
/* jenc_take - the held output as one block from the library's allocator,
 * which the caller frees with jenc_free(p, *len) (or, while the allocator
 * is libc's, with free(3), which jenc_pool_stats then does not count as a
 * free); *len gets its length.  May be called in the middle of a value:
 * the encoder is emptied, its state kept; it keeps its first segment and
 * gives the others back to the pools.  NULL on allocation failure
 * (JENC_E_NOMEM, sticky). */
JENC_API char *jenc_take(jenc_enc *e, size_t *len);
/* jenc_free - free p, a block jenc_take returned with length len, through
 * the allocator it came from.  p NULL is a no-op. */
JENC_API void jenc_free(void *p, size_t len);
/* jenc_segments - iterate held output without copying: call with *it = 0;
 * returns each segment's bytes and length until it returns NULL. */
JENC_API const char *jenc_segments(const jenc_enc *e, size_t *it, size_t *len);
/* jenc_reset - drop held output and any sticky error, back to the state
 * of a fresh encoder.  Its segments stay with the encoder for reuse (so a
 * reused encoder allocates nothing) until jenc_release gives them back to
 * the pools. */
JENC_API void jenc_reset(jenc_enc *e);
/* jenc_error - the sticky error, 0 if none. */
JENC_API int jenc_error(const jenc_enc *e);
/* jenc_errno - errno of the failed write for JENC_E_IO. */
JENC_API int jenc_errno(const jenc_enc *e);
/* jenc_depth - number of open containers. */
JENC_API unsigned jenc_depth(const jenc_enc *e);
/* jenc_discard - drop the incomplete top-level value: its held bytes are
 * dropped and the encoder is back at top level, error cleared.  Returns 1
 * if part of it had already reached the sink (without JENC_HOLD, or with it
 * once the value grew past hold_max), else 0. */
JENC_API int jenc_discard(jenc_enc *e);
/* jenc_fd_read - one read(2) of up to n bytes of fd into buf, as the
 * readers read: EINTR retried, EAGAIN (a non-blocking fd with nothing to
 * read) waited out with poll(2).  Returns the bytes read, 0 at end of
 * file, or -1 with *sys_errno set.  Thread-safe; allocates nothing. */
JENC_API ssize_t jenc_fd_read(int fd, void *buf, size_t n, int *sys_errno);
/* jenc_fd_write - write all of p[0..n) to fd, as a sink does: short
 * writes continued, EINTR retried, EAGAIN waited out with poll(2).
 * Returns 0, or -1 with *sys_errno set (what was written before stays
 * written).  Thread-safe; allocates nothing. */
JENC_API int jenc_fd_write(int fd, const void *p, size_t n, int *sys_errno);

/* ---- views: each top-level value handed to the caller ----------------- */

/*
 * A view turns each complete top-level value into output of its own (a
 * CSV row, a log line): CSV output (jenc_csvw) and other formats are
 * views.  With a view set, every top-level value (each JENC_SPLIT
 * element, each value of a stream) is encoded compact as usual, and when
 * it is complete, value(ctx, e, json, len) gets its whole text, json
 * [0..len) (compact JSON, no newline; its strings escaped as the reader
 * or the jenc_* calls wrote them; valid during the call only), and the
 * value's bytes are replaced in the output by what the view writes during
 * the call with jenc_view_write.  The text is gathered into a buffer of
 * the encoder that grows to the longest value and is reused: in steady
 * state a value costs no allocation.  A value is held whole until it is
 * complete (JENC_HOLD without hold_max): memory grows with the longest
 * value, and none of its text reaches the sink.
 *
 * text(ctx, e, p, len), NULL to drop it: text the JSON reader passes
 * through with JENC_READ_PASS (a bad text, ending with its newline), in
 * place of writing it raw.  end(ctx, e), NULL for none: once, at
 * jenc_release, when the encoder has no error and no value open, to
 * write what ends the output (a count, a summary).
 *
 * Each call returns 0, or a JENC_E_* code that becomes the encoder's
 * sticky error, what the call wrote being dropped.  To reject a value as
 * bad input, value() returns jenc_view_reject(e, msg): the JSON reader
 * then reports JENC_E_SYNTAX with msg at the value's closing bracket (a
 * scalar: at its start) and, with JENC_READ_SKIP or JENC_READ_PASS,
 * drops or passes its text and goes on, as for other bad input.
 *
 * JENC_VIEW_RECORDS: every top-level value must be an object (a record):
 * another value is rejected at its first token, before any of it is
 * written; the JSON reader reports it as "expected an object as a
 * record, found '5'" (found '[', '"', ...) at that token.  With
 * JENC_SPLIT, the split array's elements are the records.  Without it,
 * when the reader copies the compact text of whole values (an encoder
 * that jenc_verbatim would call plain: no JENC_SPLIT, no escaping
 * flag), a top-level array is told at its closing bracket, "expected an
 * object as a record, found an array", once it is held whole.
 */
#define JENC_VIEW_RECORDS 0x01
/*
 * JENC_VIEW_THREADS: value and text may be called from several threads
 * at once, each call with an encoder of its own (ctx is shared: the view
 * must be thread-safe).  jenc_json_copy_fd_par then reads on threads:
 * each chunk's values go through the view into the chunk's output, which
 * is written to e in order, as without a view; end is called on e only.
 */
#define JENC_VIEW_THREADS 0x02
/*
 * JENC_VIEW_NAMES: the view has a names call, the member after flags
 * (read only with this flag, so that a view written before it, whose
 * struct ends at flags, is still taken; with the flag it must not be
 * NULL).  names(ctx, e, json, len) gets the names of records that did
 * not come, from a reader that knows them without a record: the CSV/TSV
 * reader's header (read, or given in o->header) with no record after it
 * (see jenc_view_names_next).  json[0..len) is the compact text of one
 * object shaped as such a record would be with every field missing: its
 * keys the names, each value null (with JENC_CSV_NEST, nested as the
 * record would be).  Nothing of it is written but what the call writes
 * (jenc_view_write); the call returns as value does (jenc_view_reject
 * too).  A view without this flag never sees such an object.
 */
#define JENC_VIEW_NAMES 0x04

typedef struct jenc_view {
	int (*value)(void *ctx, jenc_enc *e, const char *json, size_t len);
	int (*text)(void *ctx, jenc_enc *e, const char *p, size_t len);
	int (*end)(void *ctx, jenc_enc *e);
	void *ctx;
	unsigned flags;	/* JENC_VIEW_* */
	int (*names)(void *ctx, jenc_enc *e, const char *json, size_t len);
} jenc_view;

/*
 * jenc_set_view - hand e's top-level values to v (copied; v->ctx stays
 * the caller's and must live until jenc_release).  Only on an encoder
 * that holds nothing and is at top level, once; v->value must not be
 * NULL: else JENC_E_STATE.  The view makes e compact (indent 0), held
 * (JENC_HOLD, hold_max ignored), without colors and without the
 * separators of JENC_SEQ, JENC_SLURP and the newline after each value:
 * the view writes its own line ends.  Escaping flags and JENC_SORT_KEYS
 * still shape the text the view gets; JENC_FLUSH_EACH flushes after each
 * value's output.  jenc_json_copy_fd_par runs on one thread for e,
 * unless the view has JENC_VIEW_THREADS.  The view stays until
 * jenc_release (jenc_reset and jenc_discard keep it).
 * Returns 0, JENC_E_STATE or JENC_E_NOMEM.
 */
JENC_API int jenc_set_view(jenc_enc *e, const jenc_view *v);

/* jenc_view_write - append p[0..n) to e's output, from inside one of the
 * view's calls only (else JENC_E_STATE).  Returns 0 or e's error. */
JENC_API int jenc_view_write(jenc_enc *e, const char *p, size_t n);

/*
 * jenc_view_names_next - for a reader that has the names of records but
 * no record (the CSV/TSV reader calls it at the end of an input whose
 * names no record followed): returns 1 if e's view has JENC_VIEW_NAMES,
 * and then the next top-level value written to e (or element of its
 * JENC_SPLIT array), which the caller writes as the record of no fields
 * (an object, each value null), goes to the view's names call instead of
 * value.  Returns 0, and changes nothing, if e has no view, its view
 * lacks JENC_VIEW_NAMES, e has an error, or e is inside a value (an
 * array that is not split, whose elements are not records): write
 * nothing then.
 */
JENC_API int jenc_view_names_next(jenc_enc *e);

/* jenc_view_reject - inside the view's value call: the value is bad
 * input, msg (copied, at most 191 bytes kept: what jenc_err's msg
 * holds) says why; returns
 * JENC_E_SYNTAX for the call to return. */
JENC_API int jenc_view_reject(jenc_enc *e, const char *msg);

/* ---- colors (JENC_COLOR) -------------------------------------------- */

/* The eight colors, in JQ_COLORS' order. */
enum {
	JENC_COLOR_NULL, JENC_COLOR_FALSE, JENC_COLOR_TRUE, JENC_COLOR_NUMBER,
	JENC_COLOR_STRING, JENC_COLOR_ARRAY, JENC_COLOR_OBJECT, JENC_COLOR_KEY,
	JENC_COLOR_N
};
#define JENC_COLOR_MAX 16	/* bytes of one color's SGR parameters */

/* SGR parameters of each color, as in ESC [ sgr m: digits and ';',
 * NUL-terminated; "" is ESC[m, no color. */
typedef struct jenc_colors {
	char sgr[JENC_COLOR_N][JENC_COLOR_MAX + 1];
} jenc_colors;

/* jenc_colors_default - jq 1.7.1's colors:
 * 0;90 0;39 0;39 0;39 0;32 1;39 1;39 1;34. */
JENC_API void jenc_colors_default(jenc_colors *c);

/*
 * jenc_colors_parse - colors from spec in JQ_COLORS' syntax: up to eight
 * colon-separated fields, null:false:true:numbers:strings:arrays:objects:
 * objectkeys; the colors of missing fields are the defaults, an empty
 * field means no color, a trailing ':' is ignored.  spec NULL or "" gives
 * the defaults.  Returns 0, or JENC_E_SYNTAX with c unchanged and err (if
 * not NULL) filled: offset and col of the bad field, msg such as "field 3
 * (true): '1;x' is not a color (digits and ';')", or "... is longer than
 * 16 bytes", or "field 9: more than 8 fields".
 */
struct jenc_err;
JENC_API int jenc_colors_parse(jenc_colors *c, const char *spec,
    struct jenc_err *err);

/* jenc_set_colors - the colors e writes with JENC_COLOR from its next
 * token on (c is copied; NULL = the defaults).  No effect without
 * JENC_COLOR. */
JENC_API void jenc_set_colors(jenc_enc *e, const jenc_colors *c);

/* ---- pools ------------------------------------------------------------ */

typedef struct jenc_pool_stats {
	uint64_t mallocs;     /* allocations made by the library */
	uint64_t frees;
	uint64_t bytes;	      /* bytes requested by those allocations */
	size_t held_bytes;    /* bytes of free segments kept: shared pools
				 and the calling thread's cache */
	size_t held_segments;
} jenc_pool_stats;

/* jenc_pool_stats_get - counters since start (thread-safe snapshot). */
JENC_API void jenc_pool_stats_get(jenc_pool_stats *st);
/* jenc_pool_trim - free every segment and encoder the pools keep (of the
 * per-thread caches, the calling thread's, and the cache itself). */
JENC_API void jenc_pool_trim(void);

/* ---- work counters ----------------------------------------------------- */

/*
 * What the readers did, counted since the program started, over every
 * reader and thread (JSON, CSV/TSV, -j's chunks and scout): a measure of
 * work that does not depend on the machine, for tests that prove a bound
 * per input byte ("the bytes jsmn reads stay under 3 per input byte at
 * 4 MiB and at 32 MiB") where a CPU time would vary with the load.
 * Each counter is added to (a relaxed atomic add) once per read, per
 * window move, per skeleton of up to 64 KiB or per call of jsmn, never
 * per byte.  Take two snapshots and subtract.
 */
typedef struct jenc_read_stats {
	uint64_t bytes_in;    /* bytes that entered a window: read(2),
				 converted, or shown of a mapping or a
				 caller's buffer */
	uint64_t reads;       /* read(2) calls that returned data or the
				 end of input, windows shown of a mapping
				 or a buffer */
	uint64_t waits;       /* poll(2) waits for input not ready (EAGAIN) */
	uint64_t grows;       /* windows enlarged for a long token or record */
	uint64_t moved;       /* bytes copied inside a window: kept bytes
				 slid to its front, or copied when it grew */
	uint64_t skel_bytes;  /* bytes of text made into skeletons (skel.c) */
	uint64_t jsmn_calls;  /* calls of jsmn_parse */
	uint64_t jsmn_bytes;  /* bytes jsmn_parse read, skeleton or text:
				 from its position to where it stopped, and
				 on to the end of what it was given for a
				 token that end cut (read again next call) */
	uint64_t cut_bytes;   /* bytes of a token cut by a window's end
				 scanned for its end as they arrive */
	uint64_t slow_bytes;  /* bytes read by the reader's own exact
				 scanner (an error's spot, the last token) */
	uint64_t threads;     /* threads started to read: -j's workers
				 and a document's scout */
} jenc_read_stats;

/* jenc_read_stats_get - the counters since start (thread-safe snapshot;
 * counts of calls still running may be in part). */
JENC_API void jenc_read_stats_get(jenc_read_stats *st);

/* ---- the allocator ------------------------------------------------------ */

/*
 * jenc_alloc - where every block of the library comes from (segments,
 * encoders, the readers' windows and tables, jenc_take's result): libc's
 * malloc, realloc and free unless a program installs its own.
 *
 * malloc(ctx, n) returns n bytes (n > 0) aligned for any type, or NULL.
 * realloc(ctx, p, old_n, n) resizes p, a block of old_n bytes from this
 * allocator, to n > 0 bytes keeping its contents up to the smaller size;
 * on failure it returns NULL and p stays valid.  It is never called with
 * p NULL.  It may be left NULL: the library then uses malloc, a copy and
 * free.  free(ctx, p, n) frees p (never NULL), n being the size it was
 * allocated, or last reallocated, with.  ctx is passed to each call.  The
 * functions must be thread-safe if the library is used from more than one
 * thread; a thread that used the library frees what its cache kept through
 * free() when it exits.
 *
 * Every call that needs memory fails with JENC_E_NOMEM when malloc or
 * realloc returns NULL (jenc_get_*: NULL); what was written before is
 * kept, as for bad input.
 */
typedef struct jenc_alloc {
	void *(*malloc)(void *ctx, size_t n);
	void *(*realloc)(void *ctx, void *p, size_t old_n, size_t n);
	void (*free)(void *ctx, void *p, size_t n);
	void *ctx;
} jenc_alloc;

/*
 * jenc_set_alloc - install *a (copied) as the library's allocator; NULL
 * restores libc's.  Call it before the library's first use, or once it
 * holds no block at all: every encoder released, jenc_take's results
 * given to jenc_free, jenc_pool_trim called, and no other thread holding a
 * cache (the counts of jenc_pool_stats equal: mallocs == frees).
 * Otherwise, or if a->malloc or a->free is NULL, it returns JENC_E_STATE
 * and the allocator stays as it was; 0 on success.  Not thread-safe: no
 * other thread may be in the library meanwhile.
 */
JENC_API int jenc_set_alloc(const jenc_alloc *a);

/* ---- readers ------------------------------------------------------------ */

/* Position and description of bad input. */
typedef struct jenc_err {
	int code;	  /* JENC_E_* */
	int sys_errno;	  /* for JENC_E_IO */
	uint64_t offset;  /* 0-based byte offset in the input */
	uint64_t line;	  /* 1-based */
	uint64_t col;	  /* 1-based byte column; 0 for an error about a
			     whole CSV record (its field count, the
			     header's names), or with no position */
	int cut;	  /* 1: part of the bad value's output had been written */
	char msg[192];	  /* what was found and what was expected */
	char excerpt[332]; /* the offending line, NUL-terminated, safe to
			      print on a terminal: at most 80 display
			      columns, up to 40 of them before the spot
			      (more when the line ends sooner after it),
			      "..." where the line is cut; controls, C1,
			      format characters (bidi, zero-width, BOM),
			      U+2028/9 and bytes that are not UTF-8 shown
			      as '?', a tab as a space */
	int kind;	  /* JENC_K_*: what is wrong with the input, to
			     tell without reading msg.  It takes the last
			     4 bytes of what was a 336-byte excerpt, so no
			     other field moved and sizeof(jenc_err) is
			     what it was on every ABI */
	size_t caret;	  /* display column (0-based) of the spot in
			     excerpt on a UTF-8 terminal: CJK and emoji
			     take 2 columns, combining marks 0; an empty
			     excerpt means there is none to show */
	uint64_t lines;	  /* JENC_READ_SKIP/PASS: lines of input the bad
			     text spans (dropped or passed through) */
	int passed;	  /* JENC_READ_PASS: 1 if the bad text was copied
			     to the output, 0 if it was dropped (too long,
			     or part of its output had been written) */
} jenc_err;

/*
 * Kinds of bad input (jenc_err.kind), one per fault, each with an input
 * that gives it (to jenc_json_copy_mem, JSON, or jenc_csv_copy_mem with
 * a header, CSV).  code stays what it was: JENC_E_SYNTAX, or
 * JENC_E_DEPTH and JENC_E_ENCODING for the kinds of those names.  New
 * kinds may be added; a kind's number never changes.
 */
#define JENC_K_NONE 0	  /* not bad input: allocation, read or write
			     failure, a bad option or color spec */
#define JENC_K_CUT 1	  /* the input ends inside a value (or where
			     one is due): [1, 2  "abc  {"a":  an empty
			     input with JENC_READ_SINGLE; an unclosed
			     JSONC comment; RS inside a JENC_READ_SEQ
			     text */
#define JENC_K_BYTE 2	  /* a byte that is not UTF-8 in a JSON string
			     ("\xff") or in a CSV field, or a NUL byte in
			     CSV (a byte no JSON token starts with, outside
			     strings, is JENC_K_TOKEN) */
#define JENC_K_ESCAPE 3	  /* a bad escape in a string: "\x"  "\u12" */
#define JENC_K_CONTROL 4  /* an unescaped control byte in a string:
			     "a<TAB>b" */
#define JENC_K_NUMBER 5	  /* a malformed number: 01  1.  -  1e */
#define JENC_K_LITERAL 6  /* a misspelt literal: tru  nul  True */
#define JENC_K_TOKEN 7	  /* a token where the grammar has none: [1 2]
			     {"a" 1}  ]  {1:2} */
#define JENC_K_DEPTH 8	  /* nesting deeper than max_depth (code
			     JENC_E_DEPTH): [[1]] with max_depth 1 */
#define JENC_K_SECOND 9	  /* a second value with JENC_READ_SINGLE: 1 2 */
#define JENC_K_RECORD 10  /* a view with JENC_VIEW_RECORDS got a value
			     that is not an object: 5  [1] */
#define JENC_K_VIEW 11	  /* a view rejected the value
			     (jenc_view_reject) */
#define JENC_K_FIELDS 12  /* a CSV record whose field count is not the
			     header's: a,b\n1\n */
#define JENC_K_QUOTE 13	  /* a CSV quoted field not closed: a\n"1\n */
#define JENC_K_LONG 14	  /* a record or token past a limit: a CSV
			     record longer than max_record, a JSON token
			     of 2 GiB, a record too long for JENC_CSV_NEST */
#define JENC_K_ENCODING 15 /* the input's encoding (code
			      JENC_E_ENCODING): UTF-16 without a byte
			      order mark, a byte not valid in the named
			      encoding, an encoding iconv(3) does not
			      know */
#define JENC_K_NAMES 16	  /* CSV header names JENC_CSV_NEST cannot
			     nest: a,a.b */

#define JENC_READ_SINGLE 0x01 /* exactly one value per input (RFC 8259) */
#define JENC_READ_SKIP 0x02   /* bad input: drop the bad text, go on */
#define JENC_READ_PASS 0x04   /* bad input: copy the bad text, go on */
#define JENC_READ_SEQ 0x08    /* RFC 7464 text sequences: RS (0x1E)
				 separates texts at top level */
#define JENC_READ_JSONC 0x10  /* JSON with comments: // and block
				 comments, trailing commas (see below) */
#define JENC_READ_EXACT 0x20  /* jsmn reads the text itself, not its
				 skeleton: the same result, slower (for
				 tests that compare the two) */
#define JENC_READ_MAP 0x40    /* jenc_json_copy_fd(_par): a regular
				 file may be mapped into memory, not
				 read (see there); SIGBUS if it is made
				 shorter meanwhile */
#define JENC_READ_THREADS 0x80 /* jenc_json_copy_fd_par: start the
				 threads even when fewer than two CPUs
				 are usable (for tests of the threaded
				 path on any machine) */
#define JENC_READ_BLANK 0x100 /* with JENC_READ_PASS: each blank line
				 between top-level values (empty, or of
				 whitespace alone) passed through as an
				 empty line, so a log keeps its layout */

/*
 * The bad text, with JENC_READ_SKIP or JENC_READ_PASS: from the start of
 * the line where the bad value began (or just after a complete value
 * earlier on that line) through the end of the line holding the error,
 * including its line end.  While the bad value is still open at the end
 * of that line (an error inside a pretty-printed document), the lines
 * after it belong to the bad text too, up to the line where its brackets
 * close.  A line whose first byte is '{' or '[' starts a new value: the
 * bad text ends before the first such line after the bad value's first
 * one, even when the error is found further on (a line cut short takes
 * the good lines after it into its value until the error shows; they
 * are read again).  Brackets count only outside strings; a string runs
 * to its closing quote or to the end of its line, and an error inside a
 * string is counted in it (the brackets after its closing quote count).
 * With JENC_SPLIT on e, the bad value is the whole array, however many
 * of its elements were written; when some were, a line whose first byte
 * is '{' or '[' starts a new value only after the line holding the
 * error, or as that line itself when the error is at its first byte (a
 * written element is not read again).  With JENC_READ_SEQ the bad text runs
 * instead from the start of the bad value (a top-level string's opening
 * quote; the error's spot outside any value) to the next RS, line ends
 * included; a value cut by an RS ends before it.  Reading resumes just
 * after the bad text.  jenc_json_copy_fd, _mem and _fd_par find the same
 * bad texts however the input is read.
 *
 * PASS writes the bad text to e verbatim as top-level output (a newline
 * added if it has none: the input ended), with nothing of its formatted
 * form; except when it is longer than 1 MiB or part of the bad value's
 * output had already been written (a value past hold_max, err->cut):
 * then it is dropped as with SKIP (err->passed 0), and a written part is
 * ended with a newline.  SKIP and PASS given together mean PASS.
 */
typedef struct jenc_read_opts {
	unsigned flags;	      /* JENC_READ_* */
	unsigned max_depth;   /* 0 = 10000 */
	/* SKIP/PASS: called for each bad value once its text is dropped
	 * or passed (err is valid during the call only); NULL: none */
	void (*on_error)(void *ctx, const jenc_err *err);
	void *ctx;
	/* the input's encoding, any name iconv(3) knows ("latin1",
	 * "cp1252", "utf-16le", "shift_jis"); NULL, "utf-8" or "utf8":
	 * UTF-8, or what a byte order mark says (see "Encodings") */
	const char *encoding;
} jenc_read_opts;

/*
 * jenc_json_copy_fd - read a stream of JSON values from fd (until EOF) and
 * re-encode each through e as it completes: as top-level values, or as the
 * elements of an array the caller opened on e.  e NULL only validates.
 * Strings and numbers are copied verbatim (jenc_raw_str, jenc_raw).
 * Before each blocking read, e is flushed.  Returns 0, or a code with err
 * filled in.  On bad input every value before the bad one is complete in
 * e; of the bad value, a part held whole (JENC_HOLD, under hold_max) is
 * dropped, and a part already written (err->cut) is completed up to the
 * last token checked before the error, and ended with a newline.
 * Memory stays bounded: a 256 KiB window that grows only for a single
 * token longer than it (with JENC_READ_PASS, for up to 1 MiB of a bad
 * value's text).
 *
 * With JENC_READ_MAP, a regular file of 1 MiB or more from fd's offset on
 * is mapped into memory (mmap(2)) instead of read, without
 * JENC_READ_JSONC or another encoding than UTF-8: the bytes are not
 * copied, and the pages the window has left are unmapped a megabyte at a
 * time, so memory stays as bounded.  The result is the same in every
 * other way; what the file holds past the size it had when the call began
 * is read after the mapped part, and fd's offset ends past what was read
 * as without it (unless an error stopped the read first).  If the file is
 * made shorter while it is mapped (truncated, rewritten in place), the
 * process gets SIGBUS on reading a page that is gone: a caller that
 * cannot rule that out catches it, or leaves the flag off.  The rest of
 * the last page past the new end reads as zero bytes, without the
 * signal, which the reader reports as bad input: on an error, fstat(2)
 * tells whether the file shrank.
 *
 * With JENC_READ_SKIP or JENC_READ_PASS, bad input (JENC_E_SYNTAX,
 * JENC_E_DEPTH) does not end the read: each bad text (see above) is
 * dropped or passed, told to o->on_error, and reading goes on.  The call
 * then returns 0 unless reading or writing fails; *err holds the first
 * bad value's error (err->code 0 if there was none).
 *
 * With JENC_READ_SEQ (RFC 7464), an RS byte between top-level values is
 * a separator.  An RS inside a value (in a string too) ends it as
 * truncated ("truncated JSON text before RS"), as does a top-level
 * number, true, false or null followed directly by RS or the end of
 * input, without the whitespace RFC 7464 section 2.4 requires after it
 * (it may have been cut).  With SKIP or PASS the bad text then runs to
 * the next RS: from the start of the truncated value (a string's
 * opening quote) to the RS that cut it.
 *
 * With JENC_READ_JSONC the input may hold comments, from // to the end of
 * the line and from slash-star to the next star-slash, outside strings,
 * and a trailing comma after the last element of an array or member of
 * an object; they are read as whitespace, so the output is strict JSON
 * and every error position (offset, line, column) is the one in the
 * input; the excerpt shows them as spaces, as does the bad text that
 * JENC_READ_PASS copies.  An unterminated block comment
 * is JENC_E_SYNTAX "unterminated comment, found end of input" at its
 * first '/'.  A comment, and the whitespace and comments between a ','
 * and what follows it, are held whole in the window, as a token is.
 * Without it, an error at a comment says so: "... found '/' (JSON with
 * comments? try --jsonc)", and one at a trailing comma "(trailing comma?
 * try --jsonc)".  Whatever the flags, bad input on the first line, when
 * that line holds a ',', ';', tab or '|' outside double quotes, some
 * other byte than those and spaces, and no '{' or '[', has "(is it CSV?
 * try -f csv)" added to its message.
 */
JENC_API int jenc_json_copy_fd(int fd, jenc_enc *e, const jenc_read_opts *o,
    jenc_err *err);
/* jenc_json_copy_mem - the same over a buffer (with JENC_READ_JSONC,
 * copied 256 KiB at a time into a window of its own: p is never
 * written). */
JENC_API int jenc_json_copy_mem(const char *p, size_t len, jenc_enc *e,
    const jenc_read_opts *o, jenc_err *err);

/* ---- encodings ------------------------------------------------------- */

/*
 * Encodings.  Both readers read UTF-8, and convert other input to UTF-8
 * as they read it (iconv(3), in a bounded buffer): input whose encoding
 * o->encoding names, or else input that starts with a UTF-16LE, UTF-16BE,
 * UTF-32LE or UTF-32BE byte order mark (read as if o->encoding were
 * "utf-16le", ..., the mark dropped).  A UTF-8 byte order mark is
 * skipped, as is one a named encoding keeps (U+FEFF at the start).  The
 * output is UTF-8 whatever the input was.  Nothing is replaced: a byte
 * sequence not valid in the encoding, or a character cut by the end of
 * the input, is JENC_E_ENCODING once every value (record) before it is
 * out, with err->msg "invalid byte 0x81 for encoding cp1252" ("invalid
 * bytes 0x81 0x7f for encoding shift_jis": the fewest bytes that cannot
 * start a character) or "incomplete character at end of input for
 * encoding utf-16le, found byte 0x41"; err->line is its line (counted in
 * the converted text, as for other errors), err->col 1 plus the number
 * of characters before it on its line, err->offset its byte offset in
 * the input as it is, and the excerpt shows the converted line up to it.
 * The readers' own errors in converted input give the line, the byte
 * column and the offset in the converted UTF-8 text (in which a byte
 * order mark counts as its 3 bytes).  Without o->encoding, input whose
 * first bytes have a NUL in every other byte (or three of four) is
 * JENC_E_ENCODING at line 1, column 1: "input looks like UTF-16LE
 * without a byte order mark; try --encoding=utf-16le".  An encoding
 * iconv does not know is JENC_E_ENCODING with "unknown encoding 'x'"
 * and no position.  JENC_READ_SKIP and JENC_READ_PASS do not go on after
 * JENC_E_ENCODING.  The conversion's buffers come from jenc_alloc, but
 * iconv_open(3) keeps its own state, allocated by libc's malloc.
 */

/*
 * jenc_encoding_check - 0 if the readers can read input in the encoding
 * name (NULL and the names of UTF-8 included), JENC_E_ENCODING if
 * iconv(3) does not know it (or name is "" or holds a '/': glibc's
 * //IGNORE and //TRANSLIT would drop or replace bad bytes), JENC_E_NOMEM.
 * Thread-safe.
 */
JENC_API int jenc_encoding_check(const char *name);

/* ---- the JSON reader on several threads -------------------------------- */

/*
 * jenc_json_copy_fd_par - jenc_json_copy_fd on up to `jobs` threads (0:
 * one per usable CPU, see jenc_cpus_usable; at most 8), with the same
 * result: the same output bytes through e, the same return value and
 * *err, the same o->on_error calls in the same order, from the calling
 * thread (e and o->ctx are only ever used from it).
 *
 * A stream of top-level values (JSON Lines, concatenated values) is cut
 * into chunks of about `chunk` bytes (0: 512 KiB, less with many jobs)
 * just after a line end, preferably one followed by '{', '[' or RS;
 * each chunk is read and encoded on a thread of its own into memory, and
 * the chunks' output goes to e in order.  When a chunk ends inside a
 * value (or inside a bad text, with JENC_READ_SKIP or PASS), when a line
 * is longer than eight chunks, or when a read fails, the rest of the
 * input from that chunk on is read on the calling thread alone, as
 * jenc_json_copy_fd reads it: so a single large document costs one
 * chunk read twice.
 *
 * It is jenc_json_copy_fd itself, with no thread started, when jobs is 1,
 * when fewer than two CPUs are usable (unless o->flags has
 * JENC_READ_THREADS: then jobs threads start anyway, taking turns on the
 * one CPU, with the same result), with JENC_READ_SINGLE or
 * JENC_READ_JSONC, with an o->encoding other than UTF-8, and when e
 * is inside a value, has an error, or writes with JENC_SLURP,
 * JENC_NO_NEWLINE or JENC_FLUSH_EACH.  From a pipe or a terminal, a
 * chunk is cut as soon as no more input is waiting, and what is read is
 * written before the call waits for more; input in which no line has
 * ended when it first pauses (values one after another on one line) is
 * read on the calling thread alone, which writes each value as it ends.
 *
 * With JENC_READ_MAP, a regular file of 1 MiB or more from fd's offset
 * on is mapped as for jenc_json_copy_fd: the chunks are views of the
 * mapping (not copies), a document's second thread reads from it, and
 * the pages of the chunks written are unmapped a megabyte at a time;
 * what follows the mapping is read with read(2), and SIGBUS comes as
 * there if the file is made shorter meanwhile.
 *
 * Memory: up to jobs + 2 chunks and their output (at most 3 MiB of
 * input read ahead, more only for a line longer than that), and what
 * the reader itself takes.  The output buffers come from
 * jenc_alloc; e must be usable from the calling thread only, as always.
 * jenc_alloc's functions must be thread-safe.
 */
JENC_API int jenc_json_copy_fd_par(int fd, jenc_enc *e,
    const jenc_read_opts *o, jenc_err *err, unsigned jobs, size_t chunk);

/* jenc_cpus_usable - how many CPUs this thread may run on
 * (sched_getaffinity(2) on Linux, else the processors online,
 * sysconf(_SC_NPROCESSORS_ONLN)); 1 if that cannot be told.  Thread-safe. */
JENC_API unsigned jenc_cpus_usable(void);

/* ---- CSV / TSV reader ------------------------------------------------- */

#define JENC_CSV_TSV 0x01	 /* TSV: no quoting, \t \n \r \\ escapes */
#define JENC_CSV_NO_HEADER 0x02	 /* each record an array of its fields */
#define JENC_CSV_TYPES 0x04	 /* numbers, true/false, empty -> null */
#define JENC_CSV_LINES 0x08	 /* each record a top-level value, not one array */
#define JENC_CSV_RAGGED_PAD 0x10 /* pad short rows with null, extra fields
				    under _N keys, instead of an error */
#define JENC_CSV_DETECT 0x20	 /* CSV with delim 0: the delimiter is found
				    from the first line (below) */
#define JENC_CSV_NEST 0x40	 /* names holding sep as nested objects
				    (below) */

/*
 * JENC_CSV_DETECT (CSV only, and only when delim is 0).  A first line that
 * is exactly "sep=X" (Excel's hint; "sep" in any case, then LF, CR LF, CR
 * or the end), X a byte allowed as a delimiter, sets the delimiter to X
 * and is dropped (its line is still counted).  Otherwise the delimiter is
 * found from the first line that is not blank, counting the bytes , ; tab
 * and | outside quotes (a quote opens at the line's start or after one of
 * those bytes; "" inside quotes is one quote): ',' if there is a comma or
 * none of the four; else the most frequent of ; tab |, a tie going to the
 * first of them in that order.  So a line of one column (no such byte, or
 * only inside quotes) stays one column.  Of a line longer than max_record
 * + 2 bytes, only those first bytes count, however the input is read.
 *
 * A delimiter is one byte other than NUL, LF, CR and the bytes >= 0x80; in
 * CSV not '"', in TSV not '\\' (it starts an escape).  Another one makes
 * both calls fail with JENC_E_STATE before anything is read.
 */
#define JENC_CSV_MAX_RECORD ((size_t)1 << 30) /* max_record's default */

typedef struct jenc_csv_opts {
	unsigned flags;		   /* JENC_CSV_* */
	char delim;		   /* 0 = ',' (CSV) or '\t' (TSV) */
	const char *const *header; /* names given by the caller (the first
				      row is then data), or NULL */
	size_t nheader;
	const char *encoding;	   /* as in jenc_read_opts */
	size_t max_record;	   /* bytes of one record, its line end left
				      out; a longer record is JENC_E_SYNTAX
				      "record longer than N bytes" at its
				      start.  0 = JENC_CSV_MAX_RECORD (1 GiB) */
	const char *sep;	   /* JENC_CSV_NEST: the separator of nested
				      names; NULL = "." */
} jenc_csv_opts;

/*
 * JENC_CSV_NEST (header mode): the field names are split at each sep
 * into the keys of nested objects, as jenc_csvw flattens them: the
 * columns "id", "user.name", "user.mail" make records {"id": ...,
 * "user": {"name": ..., "mail": ...}}.  The members of each object are
 * in the order their first column came; a name without sep is a member
 * as it is, an empty key between two seps ("a..b") a key "".  A name that
 * is a value and also holds nested names ("a" and "a.b") is JENC_E_SYNTAX
 * at the header ("column 'a' is both a value and an object of other
 * columns: --nest cannot nest it"), as is a long record (more than 8192
 * fields or 1 MiB of rewritten fields, which are not all held at once).
 */

/*
 * jenc_csv_copy_fd - convert CSV/TSV records from fd to JSON through e,
 * each record as it completes.  Returns 0 or a code with err filled in;
 * in array mode the array is closed before an error returns, so what was
 * written is valid JSON holding every record before the bad one; but a
 * read error (JENC_E_IO) before the first record writes nothing.
 * Memory: the window holds the record being read (it doubles while one
 * does not fit), and a table of fields of bounded size: a record of very
 * many fields, or with long rewritten fields, is checked first and then
 * read again to be written, so that its fields are never all held.
 * Header mode, when no record follows the names (the header read, or
 * o->header) and e's view has JENC_VIEW_NAMES: the names go to its
 * names call at the end (jenc_view_names_next), with JENC_CSV_NEST
 * after the check of its plan (which may fail as at a record).
 */
JENC_API int jenc_csv_copy_fd(int fd, jenc_enc *e, const jenc_csv_opts *o,
    jenc_err *err);
JENC_API int jenc_csv_copy_mem(const char *p, size_t len, jenc_enc *e,
    const jenc_csv_opts *o, jenc_err *err);

/* ---- CSV / TSV writer ------------------------------------------------- */

/*
 * The CSV/TSV writer is a view (see "views" above): set on an encoder
 * with JENC_SPLIT, it turns each record, a JSON object (the values of a
 * stream, the elements of a top-level array), into a row.
 *
 * Columns: the names given in o->header, in their order (a repeated name
 * counts once); else those that jenc_csvw_view(w, 1, ...) collected in
 * a first pass over the input, in the order they first appeared; else
 * the keys of the first record.  While there are none yet, the names of
 * a CSV header with no record after it are columns too, in a first pass
 * or not (the view has JENC_VIEW_NAMES): its header line is kept.  Once
 * the columns are set (the first
 * row is written), a record with a key that is not a column is rejected
 * (jenc_view_reject: "key 'x' is not a column: ..."), or with
 * JENC_CSVW_PAD the key is dropped and counted (jenc_csvw_dropped).  A
 * column a record lacks is an empty cell.
 *
 * Names: the members of nested objects are flattened, their keys joined
 * with o->sep ("a.b"); a key is taken as it is, separator and all, so
 * that two members of one record may give the same name ({"a.b": 1,
 * "a": {"b": 2}}, or a key given twice): such a record is rejected ("two
 * values for column 'a.b' in one record").  An empty object is a cell
 * "{}", an array a cell of its compact JSON text.
 *
 * Cells: a string's text, its escapes decoded (a lone surrogate escape
 * such as \ud800 is no text: the record is rejected); a number as it was
 * written; true and false; null and a missing member empty.  CSV quotes
 * a cell, doubling its quotes, only when it holds the delimiter, a quote,
 * CR or LF, or starts or ends with a space (RFC 4180); TSV writes \t,
 * \n, \r and \\ for tab, LF, CR and backslash, as the TSV reader reads
 * them.  A CSV line (header or row) whose only cell is empty is written
 * "" (an empty line would be read as no line), as Python's csv.writer
 * does.  With
 * JENC_CSVW_SAFE, a string cell (or name) that starts with
 * '=', '+', '-', '@', tab or CR gets a ' before it, so that a spreadsheet
 * does not run it as a formula (numbers are kept as they are).  Lines
 * end with LF, or CR LF with JENC_CSVW_CRLF.  The header line is written
 * before the first row, or at jenc_release if no record came and the
 * columns are known; none with JENC_CSVW_NO_HEADER.
 *
 * Memory: the columns' names and a table of them, and buffers that grow
 * to the largest record and are kept: no allocation per record in
 * steady state.  A jenc_csvw is used by one encoder at a time.
 */
#define JENC_CSVW_TSV 0x01	 /* TSV, not CSV */
#define JENC_CSVW_NO_HEADER 0x02 /* no header line */
#define JENC_CSVW_CRLF 0x04	 /* lines end with CR LF */
#define JENC_CSVW_SAFE 0x08	 /* ' before a cell that looks like a formula */
#define JENC_CSVW_PAD 0x10	 /* drop keys that are not columns */
/* JENC_CSVW_READ_ON: the reader reads on past bad input (JENC_READ_SKIP,
 * JENC_READ_PASS): a rejected record names no column, in a first pass or
 * as the first record; without it, its keys stay columns (a first pass
 * then stops at it, and the rows' pass tells why it is bad). */
#define JENC_CSVW_READ_ON 0x20

typedef struct jenc_csvw_opts {
	unsigned flags;		   /* JENC_CSVW_* */
	char delim;		   /* CSV: 0 = ','; any byte but NUL, LF, CR,
				      '"' and those >= 0x80.  TSV: 0 or tab */
	const char *sep;	   /* joins the keys of nested objects; NULL =
				      "."; 1 to 15 bytes */
	const char *const *header; /* the columns, or NULL */
	size_t nheader;
} jenc_csvw_opts;

typedef struct jenc_csvw jenc_csvw;

/* jenc_csvw_new - a writer in *w (NULL on error), freed with
 * jenc_csvw_free.  o NULL: CSV, ',', ".", columns from the records.
 * Returns 0, JENC_E_STATE (a delimiter or separator not allowed) or
 * JENC_E_NOMEM. */
JENC_API int jenc_csvw_new(jenc_csvw **w, const jenc_csvw_opts *o);
/* jenc_csvw_free - w NULL is a no-op. */
JENC_API void jenc_csvw_free(jenc_csvw *w);
/* jenc_csvw_view - fill *v with w's view, for jenc_set_view.  scan 1:
 * the first pass, which only collects the keys of the records as
 * columns (no output, no error but non-objects); scan 0: the rows. */
JENC_API void jenc_csvw_view(jenc_csvw *w, int scan, jenc_view *v);
/*
 * jenc_csvw_keys_fd - a first pass without the reader: the keys of the
 * records of fd, from its offset to its end, as columns of w, as
 * jenc_csvw_view(w, 1, ...) would collect them through
 * jenc_json_copy_fd(fd, ..., ro, ...) with JENC_READ_MAP or not; for input
 * of objects written compactly (no whitespace but between records), all
 * valid.  Returns 1 if it read fd to its end so; 0 if it stopped at
 * anything else (whitespace in a record, an array, bad input, a record
 * the view rejects, a read error), the columns as they were before the
 * call (make the first pass with the reader, which tells what is wrong);
 * JENC_E_NOMEM.  ro NULL: the defaults; with JENC_READ_SINGLE, SEQ or
 * JSONC, or an encoding, it returns 0 at once.  fd's offset is left at
 * the end of the input when it returns 1, else anywhere.  Memory: a
 * buffer of 256 KiB, doubled while one record does not fit, freed before
 * it returns.
 */
JENC_API int jenc_csvw_keys_fd(jenc_csvw *w, int fd,
    const jenc_read_opts *ro);
/*
 * jenc_csvw_rows_fd - the rows' pass after jenc_csvw_keys_fd returned 1
 * for the same input, without the reader: each record of fd (from its
 * offset to its end), checked as jenc_csvw_keys_fd checks it, goes to e
 * with jenc_raw, e's view being w's (jenc_csvw_view(w, 0, ...)), which
 * writes its row; e is flushed before each read.  Returns 1 if it read
 * all of fd so (fd's offset at its end, which the caller may compare
 * with the first pass's, for a file that changed length), the same rows
 * as the reader would give; 0 at a record
 * the first pass would not have taken, or with a key that is not a
 * column (the input changed since: the rows before it are written);
 * JENC_E_NOMEM (e's unfinished row dropped, as the readers drop an
 * unfinished value); e's error (jenc_error: a write error); or, before
 * reading anything, JENC_E_STATE if e does not write values as they are
 * (JENC_ASCII, JENC_HTML, JENC_SORT_KEYS, colors or indentation change a
 * nested cell's text): read the rows with the reader then.
 */
JENC_API int jenc_csvw_rows_fd(jenc_csvw *w, int fd, jenc_enc *e,
    const jenc_read_opts *ro);
/* jenc_csvw_columns - how many columns w has so far. */
JENC_API size_t jenc_csvw_columns(const jenc_csvw *w);
/* jenc_csvw_dropped - JENC_CSVW_PAD: how many keys were dropped. */
JENC_API uint64_t jenc_csvw_dropped(const jenc_csvw *w);
/* ---- the log view ------------------------------------------------------ */

/*
 * The log view turns a JSON object, a record of a log, into one line for
 * people:
 *
 *	2024-05-01 12:00:00.042 INFO  listening port=8080 tls.on=true
 *
 * TIME, LEVEL, message, then the record's other members as logfmt
 * key=value, in input order, separated by single spaces; each part the
 * record lacks is left out.
 *
 * - TIME is the first present of the time keys (by default time, ts,
 *   timestamp, @timestamp, t): a JSON number (or a string of one) is Unix
 *   time in seconds when its magnitude is below 1e11, milliseconds below
 *   1e14, microseconds below 1e17, else nanoseconds, a fraction kept to
 *   the nanosecond; a string is RFC 3339, "2024-05-01T12:00:00.5Z" or
 *   "+02:00" ('t', 'z' and a space for the 'T' too, a comma for the
 *   point, as Python's logging writes; without a zone, local time).  It is shown through the time format: strftime(3)'s
 *   conversions in local time (TZ), or UTC with JENC_LOGV_UTC, and %3N,
 *   %6N, %9N (%N) for the milliseconds, microseconds, nanoseconds; by
 *   default "%Y-%m-%d %H:%M:%S.%3N".  A time that cannot be read (or is
 *   outside years 1 to 9999) is shown as its text.
 * - LEVEL is the first present of the level keys (level, lvl, severity,
 *   log.level): a name in any case or a number (see jenc_logv_level);
 *   the severities 10 to 60 are shown as TRACE, DEBUG, INFO, WARN, ERROR,
 *   FATAL, padded to five columns; another level as its text in upper
 *   case, padded to five.  With JENC_LOGV_COLOR it is colored by severity
 *   (10 gray, 20 blue, 30 green, 40 yellow, 50 red, 60 bold red; each
 *   band up to the next one, e.g. 35 as 30), the time has the colors'
 *   null color and the keys their objectkeys color (jenc_colors).
 * - The message is the first present of the message keys (msg, message,
 *   @message, event): a string's text, less one line end at its end
 *   ("\n" or "\r\n", as Docker's "log" has), or a number, true, false,
 *   null.
 * - A member whose value is a non-empty object is not one field: its
 *   members are, under dotted keys ({"req":{"id":7}} gives req.id=7),
 *   down to 64 levels, deeper ones as their JSON text.  So a key list
 *   may name a nested member ("log.level"), and a key of the record that
 *   holds a dot matches it too.  A value is shown as its text (a string
 *   decoded), in double quotes when it is empty or holds a space, '=',
 *   '"', a control character, a bidi control or a line separator;
 *   arrays and empty objects as their compact JSON text.  A key that
 *   holds one of these is quoted the same way ("a b"=1, not a b=1), on
 *   the line and below it.
 * - A string holding a newline (a stack trace) is not on the line: after
 *   it, the record's strings of several lines each follow, in input
 *   order, as "    key: " and the first line, then each later line
 *   indented by four spaces (a CR before each newline dropped).
 * - Nothing of a record can move the cursor, split its line or reorder
 *   it: the C0 controls (but tab outside quotes), DEL, the C1 controls,
 *   the bidi controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066
 *   to U+2069) and U+2028 and U+2029 are shown as JSON escapes (\n, \t,
 *   \u001b, \u202e); inside quotes '"' and '\\' are escaped too.
 *
 * The filters: min_level drops each record whose level is below it, or
 * that has no level known; JENC_LOGV_SINCE and JENC_LOGV_UNTIL drop each
 * record whose time is before since or after until (both inclusive), or
 * that has no time that can be read.  only (when not NULL) keeps just
 * the trailing fields and lines below it names (none if it is ""), hide
 * leaves out those it names: a name holds itself and the members under
 * it ("req" holds req.id).  Neither touches the time, level or message.
 */
#define JENC_LOGV_UTC 0x01    /* times in UTC, not local time */
#define JENC_LOGV_COLOR 0x02  /* ANSI colors, from colors */
#define JENC_LOGV_SINCE 0x04  /* records from since on only */
#define JENC_LOGV_UNTIL 0x08  /* records up to until only */

typedef struct jenc_logv_opts {
	unsigned flags;		  /* JENC_LOGV_* */
	/* comma-separated keys, first present first; NULL: the defaults
	 * above; "": none (the part is never found) */
	const char *time_keys, *level_keys, *message_keys;
	const char *time_format;  /* NULL: "%Y-%m-%d %H:%M:%S.%3N"; each
				     part before, between and after %N
				     conversions gives up to 127 bytes (a
				     time a part would make longer is
				     shown as its text); at most 7 %N */
	int min_level;		  /* 0: every record */
	int64_t since, until;	  /* Unix time in nanoseconds */
	const char *hide, *only;  /* comma-separated keys, or NULL */
	const jenc_colors *colors; /* with JENC_LOGV_COLOR; NULL: defaults */
} jenc_logv_opts;

typedef struct jenc_logv jenc_logv;

/*
 * jenc_logv_new - a log view with the settings o (NULL: the defaults; its
 * strings are copied).  Calls tzset(3).  Returns 0 and *lv, to be freed
 * with jenc_logv_free; JENC_E_NOMEM; JENC_E_STATE if the time format has
 * more than seven %N conversions; JENC_E_RANGE if a part of it holds more
 * than 127 bytes of text outside its conversions (every time would be
 * too long).
 */
JENC_API int jenc_logv_new(jenc_logv **lv, const jenc_logv_opts *o);
/* jenc_logv_free - lv NULL is a no-op. */
JENC_API void jenc_logv_free(jenc_logv *lv);

/*
 * jenc_logv_format - the record json[0..len), one JSON object as a reader
 * hands it to a view (valid; whitespace between tokens allowed), as its
 * line and the lines below it, written through fn(ctx, ...), which may
 * be called several times.  Returns 1 if written, 0 if a filter dropped
 * it (nothing written), JENC_E_SYNTAX if json is not an object (nothing
 * written; text that is not valid JSON may give either), JENC_E_SINK if
 * fn returned non-zero, JENC_E_NOMEM.  A record longer than 2 KiB takes
 * an allocation of at most two and a half times its length for the
 * call.  Thread-safe: lv is
 * only read (each thread keeps the text of the last second it formatted).
 */
JENC_API int jenc_logv_format(const jenc_logv *lv, const char *json,
    size_t len, jenc_sink_fn fn, void *ctx);

/*
 * jenc_logv_view - fill *v with the view (jenc_set_view) that writes each
 * record through jenc_logv_format, in its place, or nothing where a filter
 * drops it; a record that is not an object is rejected (JENC_VIEW_RECORDS)
 * as bad input, and text passed through (JENC_READ_PASS: lines that are
 * not JSON, or not objects) is written as it is.  It has
 * JENC_VIEW_THREADS: jenc_json_copy_fd_par formats on its threads.  So
 *
 *	jenc_logv *lv;
 *	jenc_view v;
 *	jenc_read_opts ro = { .flags = JENC_READ_PASS };
 *	jenc_enc *e = jenc_get_fd(STDOUT_FILENO, NULL);
 *
 *	jenc_logv_new(&lv, NULL);
 *	jenc_logv_view(lv, &v);
 *	jenc_set_view(e, &v);
 *	jenc_json_copy_fd(STDIN_FILENO, e, &ro, &err);
 *	jenc_release(e);
 *	jenc_logv_free(lv);
 *
 * shows a log as jenc --log does.  lv must live until e is released.
 */
JENC_API void jenc_logv_view(const jenc_logv *lv, jenc_view *v);

/*
 * jenc_logv_fd - jenc_json_copy_fd(fd, e, ro, err) where e has lv's view
 * (jenc_logv_view, jenc_set_view), faster: each line of fd that holds
 * one JSON object written compactly (no whitespace inside), followed by
 * '\n' or the end of the input, goes straight to jenc_logv_format,
 * without the reader and the encoder; every other line (not JSON, not an
 * object, blank, with whitespace or a CR, a value of several lines, bad
 * input) is read by the reader into e.  The output, the result, err and
 * the reports to ro->on_error are those of jenc_json_copy_fd.  The
 * input is read with read(2), in memory of at most 1 MiB plus 64 KiB of
 * output; a longer line, or input in UTF-16 or UTF-32, hands the rest of
 * fd to the reader.  Before each read, e is flushed (so a pipe's lines
 * are out before jenc waits for more; but while a value of several
 * lines is still open, the lines of bad input before it in the same run
 * of such lines wait with it).
 * All of fd goes to jenc_json_copy_fd when e is NULL or has no view of
 * lv, is not verbatim (jenc_verbatim: JENC_ASCII, JENC_HTML,
 * JENC_SORT_KEYS shape the text the view gets), or ro has
 * JENC_READ_SINGLE, JENC_READ_SEQ, JENC_READ_JSONC or an encoding.
 * ro NULL: the defaults; err NULL: not filled.  Not thread-safe for e.
 */
JENC_API int jenc_logv_fd(const jenc_logv *lv, int fd, jenc_enc *e,
    const jenc_read_opts *ro, jenc_err *err);

/*
 * jenc_logv_level - the severity of a level: trace 10, debug 20, info,
 * information and notice 30, warn and warning 40, error and err 50,
 * fatal, critical, crit, alert, emerg, emergency, panic and dpanic 60,
 * in any case; one of these names followed by + or - and one or two
 * digits is a level of Go's log/slog between two names, which are four
 * of its steps apart ("INFO+2" 35, "WARN-1" 38, at least 0); a decimal
 * number of one to three digits is its own severity (pino's and bunyan's
 * 10 to 60).  -1 for anything else.
 */
JENC_API int jenc_logv_level(const char *s, size_t len);

/*
 * jenc_logv_time - s[0..len) as Unix time in nanoseconds (*ns), for
 * since and until: RFC 3339 as above, also without seconds or as a date
 * alone (local midnight), "now", or a time before now (Unix time in
 * nanoseconds): "-1h", "15m", "-1h30m" (units s, m, h, d, w; the '-' may
 * be left out).  Returns 0, JENC_E_SYNTAX if s is none of those,
 * JENC_E_RANGE if it is outside the years 1678 to 2261.
 */
JENC_API int jenc_logv_time(const char *s, size_t len, int64_t now,
    int64_t *ns);

#ifdef __cplusplus
}
#endif
#endif /* JENC_H */
