/*
 * logv.c - the log view: a JSON object, one record of a log, as one line
 * for people, "TIME LEVEL message key=value ...", its strings of several
 * lines (stack traces) below it; the filters on level, time and keys; the
 * view's settings.  Its times are logtime.c's, its levels loglevel.c's,
 * the walk of a record's text logwalk.c's (logv.h).
 *
 * A record is walked once over its text, never stored: the walk
 * (logwalk.c) hands over its leaves in batches, and the first pass finds
 * the time, level and message among them (by the chains of lv_key); a
 * record whose leaves fit in one batch (64, and 2 KiB of nested names)
 * is then written from it, a larger one is walked again for each later
 * pass.  The line is written first, then, only when a
 * string holding a newline was met, those strings below it.  The view's
 * ctx is read only once made: with -j, worker threads format records at
 * once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "logv.h"
#include "scan.h"
#include "swar.h"

#define LV_OUT 4096		/* output gathered for one sink call */
#define LV_LOCAL 768		/* words of work on the stack: records up
				 * to 2 KiB need no alloc */

static const char *const lv_default_keys[3] = {
	"time,ts,timestamp,@timestamp,t",
	"level,lvl,severity,log.level",
	"msg,message,@message,event",
};
static const char lv_default_format[] = "%Y-%m-%d %H:%M:%S.%3N";

/* A list of dotted key names, n of them in name[], into text. */
struct lv_names {
	char *text;
	size_t textlen;
	size_t n;
	struct lv_name {
		const char *s;
		size_t len;
	} *name;
};

struct jenc_logv {
	unsigned flags;
	struct lv_names keys[3];	/* time, level, message */
	/* the keys of the three lists, each name at its first place in
	 * each list it is in, chained by their first byte c and length n
	 * (modulo 32):
	 * slot[LV_SLOT(c, n)] is 1 + the index in key[] of the first,
	 * key[i].next of the next, 0 for none */
	uint32_t *slot;
	struct lv_key *key;
	size_t nkey;
	struct lv_names hide, only;
	int has_only;		/* only was given, maybe empty: no field */
	int names;		/* has_only, or hide holds a name */
	int min_level;
	int64_t since, until;
	struct jenc_logt_fmt tf;	/* the time format */
	jenc_pal pal;
};

enum { ROLE_TIME, ROLE_LEVEL, ROLE_MSG };

/* The passes over a record's leaves: lv_role, lv_put_field,
 * lv_put_below. */
enum { LV_ROLES, LV_FIELDS, LV_BELOW };

/* A key of one of the three lists. */
struct lv_key {
	const char *name;
	size_t len;
	int role;
	uint32_t next;		/* 1 + the next one's index, 0: none */
	size_t rank;		/* its place in its list */
};

/* The chains of keys: by first byte and length modulo 32 (the length
 * itself is compared in the chain). */
#define LV_SLOTS (256 * 32)
#define LV_SLOT(c, n) ((size_t)(unsigned char)(c) << 5 | ((n) & 31))

/* ---- names ------------------------------------------------------------ */

static void
lv_names_free(struct lv_names *l)
{
	jenc_mem_free(l->text, l->textlen);
	jenc_mem_free(l->name, l->n * sizeof(*l->name));
	memset(l, 0, sizeof(*l));
}

/* s "a,b.c,d" into l; empty names are left out. */
static int
lv_names_set(struct lv_names *l, const char *s)
{
	size_t n = 0, i, at = 0, k = strlen(s);

	memset(l, 0, sizeof(*l));
	for (i = 0; i <= k; i++) {
		if (s[i] != ',' && s[i] != '\0')
			continue;
		n += i > at;
		at = i + 1;
	}
	if (n == 0)
		return 0;
	l->textlen = k + 1;
	l->text = jenc_mem_alloc(l->textlen);
	l->name = jenc_mem_alloc(n * sizeof(*l->name));
	if (l->text == NULL || l->name == NULL) {
		l->n = n;
		lv_names_free(l);
		return JENC_E_NOMEM;
	}
	memcpy(l->text, s, k + 1);
	for (i = 0, at = 0; i <= k; i++) {
		if (s[i] != ',' && s[i] != '\0')
			continue;
		if (i > at) {
			l->name[l->n].s = l->text + at;
			l->name[l->n++].len = i - at;
		}
		at = i + 1;
	}
	return 0;
}

/* The index in l of name[0..n), -1 if it is not there. */
static long
lv_names_find(const struct lv_names *l, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->name[i].len == n && memcmp(l->name[i].s, name, n) == 0)
			return (long)i;
	return -1;
}

/* 1 if name[0..n) is in l or inside one in l ("req" holds "req.url"). */
static int
lv_names_hold(const struct lv_names *l, const char *name, size_t n)
{
	size_t i, k;

	for (i = 0; i < l->n; i++) {
		k = l->name[i].len;
		if (k <= n && memcmp(l->name[i].s, name, k) == 0 &&
		    (k == n || name[k] == '.'))
			return 1;
	}
	return 0;
}

/* lv->slot and lv->key from lv->keys. */
static int
lv_tab_set(jenc_logv *lv)
{
	size_t n = 0, k, at;
	int r;

	for (r = 0; r < 3; r++)
		n += lv->keys[r].n;
	lv->slot = jenc_mem_alloc(LV_SLOTS * sizeof(*lv->slot));
	lv->key = jenc_mem_alloc((n > 0 ? n : 1) * sizeof(*lv->key));
	lv->nkey = n;
	if (lv->slot == NULL || lv->key == NULL)
		return JENC_E_NOMEM;
	memset(lv->slot, 0, LV_SLOTS * sizeof(*lv->slot));
	for (r = 0, n = 0; r < 3; r++) {
		const struct lv_names *l = &lv->keys[r];

		for (k = 0; k < l->n; k++) {
			const struct lv_name *name = &l->name[k];

			/* a name again in its list: its first place only */
			if ((size_t)lv_names_find(l, name->s, name->len) != k)
				continue;
			at = LV_SLOT(name->s[0], name->len);
			lv->key[n].name = name->s;
			lv->key[n].len = name->len;
			lv->key[n].role = r;
			lv->key[n].rank = k;
			lv->key[n].next = lv->slot[at];
			lv->slot[at] = (uint32_t)++n;
		}
	}
	return 0;
}

/* ---- output ------------------------------------------------------------ */

struct lv_out {
	char buf[LV_OUT];
	size_t n;
	jenc_sink_fn fn;
	void *ctx;
	int err;
};

static void
lv_out_flush(struct lv_out *o)
{
	if (o->n > 0 && o->err == 0 && o->fn(o->ctx, o->buf, o->n) != 0)
		o->err = JENC_E_SINK;
	o->n = 0;
}

/* s[0..n) to the sink when it does not fit in the buffer. */
static void
lv_out_big(struct lv_out *o, const char *s, size_t n)
{
	lv_out_flush(o);
	if (n > LV_OUT) {
		if (o->err == 0 && o->fn(o->ctx, s, n) != 0)
			o->err = JENC_E_SINK;
		return;
	}
	memcpy(o->buf, s, n);
	o->n = n;
}

static inline void
lv_out_put(struct lv_out *o, const char *s, size_t n)
{
	if (n > LV_OUT - o->n) {
		lv_out_big(o, s, n);
		return;
	}
	jenc_logw_copy(o->buf + o->n, s, n);
	o->n += n;
}

static inline void
lv_out_c(struct lv_out *o, char c)
{
	if (o->n == LV_OUT)
		lv_out_flush(o);
	o->buf[o->n++] = c;
}

/*
 * The code point of the bidi control (U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069) or line or paragraph separator (U+2028,
 * U+2029) that starts at s[i], 0xd8 or 0xe2, in s[0..n); 0 for another
 * character.  Such a character could reorder what the reader sees on a
 * line, or end it: the view shows it as an escape, as a control.  Its
 * bytes: d8 9c; e2 80 8e, e2 80 8f, e2 80 a8 to e2 80 ae; e2 81 a6 to
 * e2 81 a9.
 */
static inline unsigned
lv_bidi(const char *s, size_t i, size_t n)
{
	const unsigned char *u = (const unsigned char *)s + i;

	if (u[0] == 0xd8)
		return n - i >= 2 && u[1] == 0x9c ? 0x061c : 0;
	if (n - i < 3)
		return 0;
	if (u[1] == 0x80 && ((u[2] >= 0xa8 && u[2] <= 0xae) ||
	    u[2] == 0x8e || u[2] == 0x8f))
		return 0x2000u | (u[2] & 0x3fu);
	if (u[1] == 0x81 && u[2] >= 0xa6 && u[2] <= 0xa9)
		return 0x2040u | (u[2] & 0x3fu);
	return 0;
}

/* The index of the first 8-byte word of s[0..n) from i on that may hold
 * a byte that makes a logfmt value quoted, but for bidi controls and
 * line separators; the bytes before it hold none.  Bytes after the first
 * such one may be taken for one too: the caller looks at each byte from
 * there. */
static inline size_t
lv_quote_skip(const char *s, size_t n, size_t i)
{
	uint64_t w, m;

	for (; n - i >= 8; i += 8) {
		w = sw_load((const unsigned char *)s + i);
		m = sw_lt(w, 0x21) | sw_eq(w, 0x7f) | sw_eq(w, 0xc2) |
		    sw_eq(w, '"') | sw_eq(w, '=');
		if (m != 0)
			break;
	}
	return i;
}

/*
 * 1 if the text s[0..n) is quoted as a logfmt key or value: it is empty
 * or holds a space, '=', '"', or what lv_out_text escapes (a control, a
 * bidi control, a line separator).  Most text that is not plain holds a
 * space; only text without one is looked at again for the first bytes of
 * bidi controls, 0xd8 and 0xe2 (one compare with bit 5 set: 0xf8 and
 * 0xe2 are found with them, and 0xc2, which the first loop took).  Not
 * inlined: lv_put_field's loop calls it only for a name that is not plain.
 */
static __attribute__((noinline)) int
lv_quote_need(const char *s, size_t n)
{
	size_t i;
	uint64_t w;
	unsigned char c;

	if (n == 0)
		return 1;
	for (i = lv_quote_skip(s, n, 0); i < n; i++) {
		c = (unsigned char)s[i];
		if (c <= ' ' || c == '=' || c == '"' || c == 0x7f ||
		    (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] <= 0x9f))
			return 1;
	}
	for (i = 0; n - i >= 8; i += 8) {
		w = sw_load((const unsigned char *)s + i) | SW_ONES * 0x20;
		if ((sw_eq(w, 0xe2) | sw_eq(w, 0xf8)) != 0)
			break;
	}
	for (; i < n; i++) {
		c = (unsigned char)s[i];
		if ((c == 0xe2 || c == 0xd8) && lv_bidi(s, i, n) != 0)
			return 1;
	}
	return 0;
}

/*
 * The bytes out_text looks at, [0] outside quotes, [1] within them: C0
 * controls but tab (with tab too within quotes), DEL, 0xc2 (a C1
 * control's first byte), 0xd8 and 0xe2 (the first of a bidi control's or
 * line separator's, lv_bidi); within quotes also '"' and '\\'.  Each is
 * a candidate of scan_find with DEL, '"' and '\\' (LV_SCAN), which
 * looks at every byte from 0x80 on anyway.
 */
static const unsigned char lv_esc[2][256] = {
	{
		1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		[0x7f] = 1, [0xc2] = 1, [0xd8] = 1, [0xe2] = 1,
	}, {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		['"'] = 1, ['\\'] = 1, [0x7f] = 1, [0xc2] = 1, [0xd8] = 1,
		[0xe2] = 1,
	},
};
#define LV_SCAN(s, i, n, quoted) scan_find((const unsigned char *)(s), \
	(i), (n), lv_esc[(quoted)], 0x7f, '"', '\\')

/*
 * s[0..n), decoded text, with what could move the cursor, split the line
 * or reorder it escaped as in JSON: C0 controls but tab (with tab too
 * when quoted), DEL, C1 controls, bidi controls and line separators
 * (lv_bidi); within quotes also '"' and '\\'.
 */
static void
lv_out_text(struct lv_out *o, const char *s, size_t n, int quoted)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, from = 0;
	char e[6] = { '\\', 'u', '0', '0', 0, 0 };
	unsigned c, cp;

	for (i = LV_SCAN(s, 0, n, quoted); i < n;
	    i = LV_SCAN(s, i + 1, n, quoted)) {
		c = (unsigned char)s[i];
		if (c < 0x80 || (c == 0xc2 && i + 1 < n &&
		    (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f)) {
			lv_out_put(o, s + from, i - from);
			cp = c == 0xc2 ? (unsigned char)s[++i] : c;
		} else if (c != 0xc2 && (cp = lv_bidi(s, i, n)) != 0) {
			lv_out_put(o, s + from, i - from);
			i += cp == 0x061c ? 1 : 2;
		} else {
			continue;
		}
		from = i + 1;
		switch (cp) {
		case '"': lv_out_put(o, "\\\"", 2); continue;
		case '\\': lv_out_put(o, "\\\\", 2); continue;
		case '\n': lv_out_put(o, "\\n", 2); continue;
		case '\r': lv_out_put(o, "\\r", 2); continue;
		case '\t': lv_out_put(o, "\\t", 2); continue;
		default:
			e[2] = hex[cp >> 12];
			e[3] = hex[cp >> 8 & 15];
			e[4] = hex[cp >> 4 & 15];
			e[5] = hex[cp & 15];
			lv_out_put(o, e, 6);
		}
	}
	lv_out_put(o, s + from, n - from);
}

static void
lv_out_color(struct lv_out *o, const jenc_logv *lv, int i)
{
	if (lv->flags & JENC_LOGV_COLOR)
		lv_out_put(o, lv->pal.esc[i], lv->pal.len[i]);
}

/* ---- one record ------------------------------------------------------- */

struct lv_rec {
	const jenc_logv *lv;
	struct lv_out *o;
	struct jenc_logw_leaf role[3];		/* v NULL: none found */
	size_t rank[3];			/* its key's place in its list */
	char *scratch;			/* room for any string's text */
	int below;			/* a string with newlines was met */
	int any;			/* something is on the line */
	/* the first walk's leaves, all of them unless b->more, so that
	 * the later passes need not walk the text again */
	struct jenc_logw_batch *b;
	int pass;			/* LV_ROLES, LV_FIELDS or LV_BELOW */
};

/* The text of a string leaf, decoded if it has to be; any other leaf's
 * (never esc) as it is. */
static const char *
lv_leaf_text(struct lv_rec *r, const struct jenc_logw_leaf *l, size_t *n)
{
	if (!l->esc) {
		*n = l->vlen;
		return l->v;
	}
	*n = jenc_utf8_unescape(r->scratch, l->v, l->vlen, JENC_LONE_FFFD);
	return r->scratch;
}

/* The first pass: the time, level and message, each the leaf of the
 * earliest of its keys (of a type that can be one). */
static void
lv_role(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	const jenc_logv *lv = r->lv;
	const struct lv_key *k;
	uint32_t at;
	int i;

	/* most keys are none of the three: their first byte and length
	 * tell (an empty name finds keys of 32, 64... bytes at most, and
	 * not their length) */
	if ((at = lv->slot[LV_SLOT(l->name[0], l->nlen)]) == 0 ||
	    l->type == '[' || l->type == '{')
		return;
	for (; at != 0; at = k->next) {
		k = &lv->key[at - 1];
		i = k->role;
		/* a time or level is a string or a number, a message any
		 * scalar */
		if (k->len != l->nlen || (i < ROLE_MSG && l->type != '"' &&
		    l->type != '0') || !sw_same(k->name, l->name, k->len))
			continue;
		if (r->role[i].v == NULL || k->rank < r->rank[i]) {
			r->role[i] = *l;
			r->rank[i] = k->rank;
		}
	}
}

/* The record's time (it has one), 1 if it can be read. */
static int
lv_record_time(struct lv_rec *r, int64_t *sec, long *nsec)
{
	const struct jenc_logw_leaf *l = &r->role[ROLE_TIME];
	const char *s;
	size_t n;

	if (l->type == '0')
		return jenc_logt_epoch(l->v, l->vlen, sec, nsec);
	s = lv_leaf_text(r, l, &n);
	if (n > 0 && s[0] >= '0' && s[0] <= '9' &&
	    jenc_logt_epoch(s, n, sec, nsec))
		return 1;
	return jenc_logt_rfc3339(s, n, 0, sec, nsec);
}

/* The record's severity (it has a level), -1 if the level is not known;
 * its text in *s, *n. */
static inline int
lv_record_sev(struct lv_rec *r, const char **s, size_t *n)
{
	const struct jenc_logw_leaf *l = &r->role[ROLE_LEVEL];

	if (l->type == '0' && l->vlen == 2 &&
	    (unsigned)(l->v[0] - '0') <= 9 && (unsigned)(l->v[1] - '0') <= 9) {
		/* pino's and bunyan's numbers, as jenc_logv_level reads them */
		*s = l->v;
		*n = 2;
		return (l->v[0] - '0') * 10 + (l->v[1] - '0');
	}
	*s = lv_leaf_text(r, l, n);
	return jenc_logv_level(*s, *n);
}

static void
lv_sep(struct lv_rec *r)
{
	if (r->any)
		lv_out_c(r->o, ' ');
	r->any = 1;
}

/* The time through the format. */
static int
lv_put_time(struct lv_rec *r, int64_t sec, long nsec)
{
	const char *t;
	size_t n;

	if ((t = jenc_logt_text(&r->lv->tf, sec, nsec, &n)) == NULL)
		return 0;
	lv_sep(r);
	lv_out_color(r->o, r->lv, JENC_COLOR_NULL);
	lv_out_put(r->o, t, n);
	lv_out_color(r->o, r->lv, JENC_PAL_RESET);
	return 1;
}

/* A scalar leaf as it is: a string's text, a number's or literal's. */
static void
lv_put_plain(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	size_t n;
	const char *s = lv_leaf_text(r, l, &n);

	/* a string without escapes, nor bytes out_text escapes: as it is */
	if (l->type == '"' && !(l->odd & JENC_LOGW_CTL_VALUE))
		lv_out_put(r->o, s, n);
	else
		lv_out_text(r->o, s, n, 0);
}

/* The message: as lv_put_plain, but for one line end at its end (a
 * string's "\n" or "\r\n", as Docker's "log" ends), which is left out. */
static void
lv_put_msg(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	size_t n;
	const char *s;

	if (l->type != '"' || !l->esc) {
		lv_put_plain(r, l);
		return;
	}
	s = lv_leaf_text(r, l, &n);
	if (n > 0 && s[n - 1] == '\n')
		n -= n > 1 && s[n - 2] == '\r' ? 2 : 1;
	lv_out_text(r->o, s, n, 0);
}

static void
lv_put_level(struct lv_rec *r, int sev, const char *s, size_t n)
{
	const jenc_logv *lv = r->lv;
	int band = sev >= 10 ? (sev > 60 ? 6 : sev / 10) : 0;
	const char *name;
	char up[32];
	size_t i, k;

	lv_sep(r);
	if (band > 0 && (lv->flags & JENC_LOGV_COLOR))
		lv_out_put(r->o, jenc_logl_sgr[band - 1], 7);
	if ((name = jenc_logl_name(sev)) != NULL) {
		lv_out_put(r->o, name, 5);
	} else {
		/* a level of its own: in upper case, five columns or more */
		for (i = 0; i < n; i += k) {
			size_t j;

			/* a piece ends before a character's last bytes do:
			 * lv_out_text sees each character whole */
			k = n - i < sizeof(up) ? n - i : sizeof(up);
			while (k < n - i && k > sizeof(up) - 4 &&
			    ((unsigned char)s[i + k] & 0xc0) == 0x80)
				k--;
			for (j = 0; j < k; j++)
				up[j] = s[i + j] >= 'a' && s[i + j] <= 'z' ?
				    (char)(s[i + j] - 32) : s[i + j];
			lv_out_text(r->o, up, k, 0);
		}
		for (i = n; i < 5; i++)
			lv_out_c(r->o, ' ');
	}
	if (band > 0)
		lv_out_color(r->o, lv, JENC_PAL_RESET);
}

/* 1 if the leaf is one of the record's time, level, message, or hidden. */
static inline int
lv_left_out(const struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	const jenc_logv *lv = r->lv;

	if (l->v == r->role[0].v || l->v == r->role[1].v ||
	    l->v == r->role[2].v)
		return 1;
	if (!lv->names)
		return 0;
	if (lv->has_only && !lv_names_hold(&lv->only, l->name, l->nlen))
		return 1;
	return lv->hide.n > 0 && lv_names_hold(&lv->hide, l->name, l->nlen);
}

/* A key, quoted as a value is when it holds a byte that asks for quotes
 * (lv_quote_need): "a b"=1 is one field, a b=1 would read as a then b=1.
 * An empty key, which reads one way (=1), is not: lv_put_field's loop
 * would pay for the test of each name. */
static void
lv_put_key(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	int quote = (l->odd & JENC_LOGW_ODD_NAME) && l->nlen > 0 &&
	    lv_quote_need(l->name, l->nlen);

	lv_out_color(r->o, r->lv, JENC_COLOR_KEY);
	if (quote)
		lv_out_c(r->o, '"');
	lv_out_text(r->o, l->name, l->nlen, quote);
	if (quote)
		lv_out_c(r->o, '"');
	lv_out_color(r->o, r->lv, JENC_PAL_RESET);
}

/* A field but the most common ones (lv_put_field): key=value, the value
 * quoted when it has to be; a string of several lines left to the third
 * walk.  (With colors every field comes here: kept out of line, it cost
 * that view 3.4% more instructions on a pino log, for 0.4% less without
 * colors.) */
static void
lv_put_other(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	const char *s = l->v;
	size_t n = l->vlen;
	int quote = 0;

	if (l->type == '"' && !(l->odd & JENC_LOGW_CTL_VALUE)) {
		/* no byte out_text escapes, nor escapes: quoted for a space
		 * or '=', the only bytes that are not plain left */
		quote = n == 0 || (l->odd & JENC_LOGW_ODD_VALUE);
	} else if (l->type == '"') {
		s = lv_leaf_text(r, l, &n);
		if (l->esc && memchr(s, '\n', n) != NULL) {
			r->below = 1;
			return;
		}
		quote = lv_quote_need(s, n);
	}
	lv_sep(r);
	lv_put_key(r, l);
	lv_out_c(r->o, '=');
	if (quote)
		lv_out_c(r->o, '"');
	lv_out_text(r->o, s, n, quote);
	if (quote)
		lv_out_c(r->o, '"');
}

/*
 * The second walk: key=value for each leaf left, but strings of several
 * lines, which the third writes below.  Most fields are a name and a
 * number, literal or non-empty string that out_text would copy as they
 * are and that need no quotes (the walk found no byte that asks for
 * them), without colors: one copy of each into the buffer.
 */
static inline void
lv_put_field(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	struct lv_out *o = r->o;
	size_t room = l->nlen + l->vlen + 2;
	char *d;

	if (lv_left_out(r, l))
		return;
	if (l->type == '[' || l->type == '{' ||
	    (l->odd & JENC_LOGW_ODD_VALUE) ||
	    (l->type == '"' && l->vlen == 0) ||
	    (r->lv->flags & JENC_LOGV_COLOR) || room > LV_OUT ||
	    ((l->odd & JENC_LOGW_ODD_NAME) &&
	    lv_quote_need(l->name, l->nlen))) {
		lv_put_other(r, l);
		return;
	}
	if (room > LV_OUT - o->n)
		lv_out_flush(o);
	d = o->buf + o->n;
	if (r->any)
		*d++ = ' ';
	r->any = 1;
	jenc_logw_copy(d, l->name, l->nlen);
	d += l->nlen;
	*d++ = '=';
	jenc_logw_copy(d, l->v, l->vlen);
	o->n = (size_t)(d + l->vlen - o->buf);
}

/* The third walk: each string of several lines, under the record, its
 * lines indented by four spaces, its key before the first. */
static void
lv_put_below(struct lv_rec *r, const struct jenc_logw_leaf *l)
{
	const char *s, *nl;
	size_t n, k;

	if (l->type != '"' || !l->esc || lv_left_out(r, l))
		return;
	s = lv_leaf_text(r, l, &n);
	if (memchr(s, '\n', n) == NULL)
		return;
	lv_out_put(r->o, "    ", 4);
	lv_put_key(r, l);
	lv_out_put(r->o, ": ", 2);
	for (;;) {
		nl = memchr(s, '\n', n);
		k = nl == NULL ? n : (size_t)(nl - s);
		if (k > 0 && s[k - 1] == '\r')
			k--;
		lv_out_text(r->o, s, k, 0);
		lv_out_c(r->o, '\n');
		if (nl == NULL)
			break;
		n -= (size_t)(nl + 1 - s);
		s = nl + 1;
		if (n == 0)
			break;
		lv_out_put(r->o, "    ", 4);
	}
}

/* A walk's fn: r->pass over each leaf of a batch (a switch, not a
 * pointer, so that each pass is inlined in its loop). */
static int
lv_batch(void *ctx, struct jenc_logw_batch *b)
{
	struct lv_rec *r = ctx;
	size_t i;

	switch (r->pass) {
	case LV_ROLES:
		for (i = 0; i < b->n; i++)
			lv_role(r, &b->leaf[i]);
		break;
	case LV_FIELDS:
		for (i = 0; i < b->n; i++)
			lv_put_field(r, &b->leaf[i]);
		break;
	default:
		for (i = 0; i < b->n; i++)
			lv_put_below(r, &b->leaf[i]);
	}
	return 0;
}

/* A pass over each leaf: from the first walk's batch when it holds them
 * all, else walking the text again. */
static int
lv_each_leaf(struct lv_rec *r, const char *json, size_t len, uint64_t *work,
    int pass)
{
	int rc;

	r->pass = pass;
	if (r->b->more && (rc = jenc_logw_walk(json, len, work, r->b,
	    lv_batch, r)) != 0)
		return rc;
	return lv_batch(r, r->b);
}

int
jenc_logv_format(const jenc_logv *lv, const char *json, size_t len,
    jenc_sink_fn fn, void *ctx)
{
	struct jenc_logw_batch b;
	struct lv_out o;
	struct lv_rec r;
	uint64_t local[LV_LOCAL], *mem = NULL, *work;
	/* the walk's work, then room for any string's text */
	size_t words = JENC_LOGW_WORK(len) + len / 8 + 1, nlvl = 0;
	const char *lvl = NULL;
	int64_t sec = 0;
	long nsec = 0;
	int rc, sev = -1, timed = 0;

	if (words > LV_LOCAL && (mem = jenc_mem_alloc(words * 8)) == NULL)
		return JENC_E_NOMEM;
	work = mem != NULL ? mem : local;
	/* a role's other members are read only once its v is set */
	r.role[ROLE_TIME].v = r.role[ROLE_LEVEL].v = r.role[ROLE_MSG].v =
	    NULL;
	r.below = r.any = 0;
	r.lv = lv;
	r.o = &o;
	r.scratch = (char *)(work + JENC_LOGW_WORK(len));
	r.b = &b;
	r.pass = LV_ROLES;
	o.n = 0;
	o.fn = fn;
	o.ctx = ctx;
	o.err = 0;
	if ((rc = jenc_logw_walk(json, len, work, &b, lv_batch, &r)) != 0)
		goto done;
	lv_batch(&r, &b);
	if (r.role[ROLE_LEVEL].v != NULL)
		sev = lv_record_sev(&r, &lvl, &nlvl);
	if (lv->min_level > 0 && sev < lv->min_level)
		goto done;
	if (r.role[ROLE_TIME].v != NULL)
		timed = lv_record_time(&r, &sec, &nsec);
	if ((lv->flags & (JENC_LOGV_SINCE | JENC_LOGV_UNTIL)) &&
	    (!timed || ((lv->flags & JENC_LOGV_SINCE) &&
	    jenc_logt_cmp(sec, nsec, lv->since) < 0) ||
	    ((lv->flags & JENC_LOGV_UNTIL) &&
	    jenc_logt_cmp(sec, nsec, lv->until) > 0)))
		goto done;
	if (r.role[ROLE_TIME].v != NULL && (!timed ||
	    !lv_put_time(&r, sec, nsec))) {
		lv_sep(&r);
		lv_put_plain(&r, &r.role[ROLE_TIME]);
	}
	if (r.role[ROLE_LEVEL].v != NULL) {
		/* an escaped name's text again: the scratch may have been
		 * used since */
		if (r.role[ROLE_LEVEL].esc)
			sev = lv_record_sev(&r, &lvl, &nlvl);
		lv_put_level(&r, sev, lvl, nlvl);
	}
	if (r.role[ROLE_MSG].v != NULL) {
		lv_sep(&r);
		lv_put_msg(&r, &r.role[ROLE_MSG]);
	}
	rc = lv_each_leaf(&r, json, len, work, LV_FIELDS);
	lv_out_c(&o, '\n');
	if (rc == 0 && r.below)
		rc = lv_each_leaf(&r, json, len, work, LV_BELOW);
	if (rc == 0) {
		lv_out_flush(&o);
		rc = o.err != 0 ? o.err : 1;
	}
done:
	jenc_mem_free(mem, words * 8);
	return rc;
}

/* ---- the view's settings ---------------------------------------------- */

int
jenc_logv_new(jenc_logv **lvp, const jenc_logv_opts *o)
{
	static const jenc_logv_opts none;
	jenc_logv *lv;
	const char *keys[3];
	int i, rc = JENC_E_NOMEM;

	*lvp = NULL;
	if (o == NULL)
		o = &none;
	lv = jenc_mem_alloc(sizeof(*lv));
	if (lv == NULL)
		return JENC_E_NOMEM;
	memset(lv, 0, sizeof(*lv));
	lv->flags = o->flags;
	lv->min_level = o->min_level;
	lv->since = o->since;
	lv->until = o->until;
	keys[0] = o->time_keys;
	keys[1] = o->level_keys;
	keys[2] = o->message_keys;
	for (i = 0; i < 3; i++)
		if (lv_names_set(&lv->keys[i], keys[i] != NULL ? keys[i] :
		    lv_default_keys[i]) != 0)
			goto fail;
	if ((o->hide != NULL && lv_names_set(&lv->hide, o->hide) != 0) ||
	    (o->only != NULL && lv_names_set(&lv->only, o->only) != 0))
		goto fail;
	lv->has_only = o->only != NULL;
	lv->names = lv->has_only || lv->hide.n > 0;
	if (lv_tab_set(lv) != 0)
		goto fail;
	if ((rc = jenc_logt_fmt_set(&lv->tf, o->time_format != NULL ?
	    o->time_format : lv_default_format,
	    (o->flags & JENC_LOGV_UTC) != 0)) != 0)
		goto fail;
	jenc_pal_init(&lv->pal, o->colors);
	tzset();
	*lvp = lv;
	return 0;
fail:
	jenc_logv_free(lv);
	return rc;
}

void
jenc_logv_free(jenc_logv *lv)
{
	int i;

	if (lv == NULL)
		return;
	for (i = 0; i < 3; i++)
		lv_names_free(&lv->keys[i]);
	lv_names_free(&lv->hide);
	lv_names_free(&lv->only);
	jenc_mem_free(lv->slot, LV_SLOTS * sizeof(*lv->slot));
	jenc_mem_free(lv->key, (lv->nkey > 0 ? lv->nkey : 1) *
	    sizeof(*lv->key));
	jenc_logt_fmt_free(&lv->tf);
	jenc_mem_free(lv, sizeof(*lv));
}

/* ---- the view ---------------------------------------------------------- */

static int
lv_write(void *ctx, const char *p, size_t n)
{
	return jenc_view_write(ctx, p, n);
}

/* A record: its line in its place; a record a filter drops: nothing. */
static int
lv_value(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	int rc = jenc_logv_format(ctx, json, len, lv_write, e);

	if (rc >= 0)
		return 0;
	if (rc == JENC_E_SINK)
		return jenc_error(e) != 0 ? jenc_error(e) : JENC_E_IO;
	if (rc == JENC_E_SYNTAX)
		return jenc_view_reject(e, "expected an object as a record");
	return rc;
}

/* Text that is not a record, passed through: as it is. */
static int
lv_text(void *ctx, jenc_enc *e, const char *p, size_t len)
{
	(void)ctx;
	return jenc_view_write(e, p, len);
}

void
jenc_logv_view(const jenc_logv *lv, jenc_view *v)
{
	memset(v, 0, sizeof(*v));
	v->value = lv_value;
	v->text = lv_text;
	v->ctx = (void *)(uintptr_t)lv;
	/* jenc_logv_format only reads lv: any number of threads */
	v->flags = JENC_VIEW_RECORDS | JENC_VIEW_THREADS;
}
