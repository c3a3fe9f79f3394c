/*
 * logv.h - the parts of the log view (jenc_logv_*, jenc.h) as its files
 * see each other: the times of records (logtime.c), the names of levels
 * (loglevel.c), the walk of a record's text (logwalk.c); the record view
 * itself, its line and logfmt fields, is logv.c.  Include after
 * internal.h.
 */
#ifndef JENC_LOGV_H
#define JENC_LOGV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "swar.h"

/* ---- times (logtime.c) ---- */

#define JENC_LOGT_PIECES 8	/* strftime pieces of a time format */
#define JENC_LOGT_PIECE 128	/* bytes of one piece's output */
/* the most bytes of a time shown: every piece and its fraction digits */
#define JENC_LOGT_MAX (JENC_LOGT_PIECES * (JENC_LOGT_PIECE + 9))

/* A time format cut at its %N conversions: piece[i], then (i < npiece -
 * 1) frac[i] digits of the second's fraction; id tells its cached
 * texts apart from another format's. */
struct jenc_logt_fmt {
	char *text;		/* the pieces, each NUL-terminated */
	size_t textlen;
	char *piece[JENC_LOGT_PIECES];
	unsigned char frac[JENC_LOGT_PIECES];
	int fracmax;		/* the most digits of any frac[i] */
	int npiece;
	int utc;		/* gmtime, not localtime */
	uint64_t id;
};

/* fmt (strftime with %N, %3N, ...) into *f; utc non-zero for UTC.  0,
 * JENC_E_NOMEM, JENC_E_STATE for more than seven %N.  Freed with
 * jenc_logt_fmt_free (also after a failure). */
int jenc_logt_fmt_set(struct jenc_logt_fmt *f, const char *fmt, int utc);
void jenc_logt_fmt_free(struct jenc_logt_fmt *f);

/* sec.nsec through f: its text (at most JENC_LOGT_MAX bytes) and length
 * *len, or NULL when the time cannot be shown (outside the years 1 to
 * 9999).  The text is the thread's, kept for the next time of the same
 * second, and good until the thread's next call. */
const char *jenc_logt_text(const struct jenc_logt_fmt *f, int64_t sec,
    long nsec, size_t *len);

/* An RFC 3339 time, "2024-05-01T12:00:00.123Z" or with "+02:00", 't' or
 * ' ' for the 'T', 'z' for the 'Z', ',' for the '.' (ISO 8601, Python's
 * logging), local time without a zone (loose: also
 * without seconds, or a date alone, its midnight); or a Unix time as a
 * JSON number: seconds below 1e11 in magnitude, milliseconds below 1e14,
 * microseconds below 1e17, else nanoseconds, a fraction kept to the
 * nanosecond.  1 and *sec, *nsec (0 to 999999999), or 0 if s[0..n) is
 * not one (or out of range). */
int jenc_logt_rfc3339(const char *s, size_t n, int loose, int64_t *sec,
    long *nsec);
int jenc_logt_epoch(const char *s, size_t n, int64_t *sec, long *nsec);

/* sec.nsec compared with ns nanoseconds: <0, 0, >0. */
int jenc_logt_cmp(int64_t sec, long nsec, int64_t ns);

/* ---- levels (loglevel.c) ---- */

/* The name shown for a severity of 10, 20, ... 60, five columns wide,
 * NULL for another severity (inline: once a record); the SGR sequence
 * (7 bytes) of the band 1 (10 to 19) to 6 (60 and up) at [band - 1]. */
extern const char *const jenc_logl_names[6];
extern const char *const jenc_logl_sgr[6];

static inline const char *
jenc_logl_name(int sev)
{
	if (sev < 10 || sev > 60 || sev % 10 != 0)
		return NULL;
	return jenc_logl_names[sev / 10 - 1];
}

/* ---- the walk of a record's text (logwalk.c) ---- */

#define JENC_LOGW_DEPTH 64	/* objects deeper than this are one leaf */

/* A leaf: a member that is not a non-empty object (or is one too deep). */
struct jenc_logw_leaf {
	const char *name;	/* the dotted path, decoded */
	size_t nlen;
	const char *v;		/* a string's body (no quotes), or text */
	size_t vlen;
	char type;		/* '"', '0' number, 't', 'f', 'n', '[', '{' */
	char esc;		/* a string body holding a backslash */
	unsigned char odd;	/* JENC_LOGW_ODD_* */
};

/* The name, or a string's body, may hold a byte that is not plain:
 * below '!', '=', '"', '\\', DEL or any from 0x80 on (0: it holds none). */
#define JENC_LOGW_ODD_NAME 0x01
#define JENC_LOGW_ODD_VALUE 0x02
/* A string value's body holds a byte that out_text may escape (below
 * ' ', DEL, from 0x80 on) or a backslash: with JENC_LOGW_ODD_VALUE. */
#define JENC_LOGW_CTL_VALUE 0x04

#define JENC_LOGW_LEAVES 64	/* leaves of one batch */
#define JENC_LOGW_NAMES 2048	/* bytes of their names */

/* Leaves of a record in order, their names that do not point into the
 * record's text in names[]. */
struct jenc_logw_batch {
	size_t n;		/* leaves in leaf[] */
	size_t nnames;		/* bytes used of names[] */
	int more;		/* fn was called: not every leaf is here */
	struct jenc_logw_leaf leaf[JENC_LOGW_LEAVES];
	char names[JENC_LOGW_NAMES];
};

/* Takes the leaves of a full batch; non-zero stops the walk. */
typedef int (*jenc_logw_fn)(void *ctx, struct jenc_logw_batch *b);

/* The 64-bit words of work a walk of len bytes of text takes: room for
 * the path of a nested leaf. */
#define JENC_LOGW_WORK(len) (((len) + 7) / 8 + 1)

/*
 * The leaves of the object that json[0..len) holds into *b, in order:
 * whenever b is full (or a name is longer than its names[]), fn(ctx, b)
 * takes its leaves and b is emptied; the last leaves are in b when it
 * returns, b->more 0 if they are all of them.  work has room for
 * JENC_LOGW_WORK(len) words; a leaf's name may point into it for the
 * length of an fn call.  0, fn's non-zero result, or JENC_E_SYNTAX.
 */
int jenc_logw_walk(const char *json, size_t len, uint64_t *work,
    struct jenc_logw_batch *b, jenc_logw_fn fn, void *ctx);

/* s[0..n) to d: up to 32 bytes by sw_copy32 (swar.h), not a call
 * (names, values and times are most often that short). */
static inline void
jenc_logw_copy(char *d, const char *s, size_t n)
{
	if (n <= 32)
		sw_copy32(d, s, n);
	else
		memcpy(d, s, n);
}

#endif
