/*
 * logv.c - the log view: a JSON object, one record of a log, as one line
 * for people, "TIME LEVEL message key=value ...", its lines of several
 * lines (stack traces) below it; the filters on level, time and keys.
 *
 * A record is walked two or three times over its text, never stored: the
 * first walk finds the time, level and message among its leaves (the
 * scalars and arrays, named by their dotted paths), the second writes the
 * line, and a third, only when the second met a string holding a newline,
 * writes those strings below it.  The text is the compact JSON a reader
 * hands to a view, already checked; the walk still stops at any byte it
 * does not expect (JENC_E_SYNTAX), and never reads outside it.
 *
 * Times: numbers are Unix seconds, milliseconds, microseconds or
 * nanoseconds by magnitude, strings RFC 3339; shown through strftime(3),
 * whose text for the record's second is kept per thread, so that a log's
 * records, which share seconds, cost one strftime and one localtime_r
 * per second of log and not per record.  The view's ctx is read only once
 * made: with -j, worker threads format records at once.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define LV_DEPTH 64		/* objects deeper than this are one leaf */
#define LV_FMT_MAX 8		/* strftime pieces of a time format */
#define LV_PIECE_MAX 128	/* bytes of one piece's output */
#define LV_OUT 4096		/* output gathered for one sink call */
#define LV_LOCAL 2048		/* records up to this long: no alloc */
#define NS 1000000000LL

static const char *const default_keys[3] = {
	"time,ts,timestamp,@timestamp,t",
	"level,lvl,severity,log.level",
	"msg,message,@message,event",
};
static const char default_format[] = "%Y-%m-%d %H:%M:%S.%3N";

/* A list of dotted key names: name i is text[off[i]..off[i]+len[i]). */
struct lv_names {
	char *text;
	size_t textlen;
	size_t n;
	size_t *off, *len;
};

struct jenc_logv {
	unsigned flags;
	uint64_t id;		/* tells this view's cached times apart */
	struct lv_names keys[3];	/* time, level, message */
	uint32_t lens[3];	/* bit k: keys[i] has one of length k (31:
				 * 31 or more) */
	uint32_t anylen;	/* lens[0] | lens[1] | lens[2] */
	uint32_t first[8];	/* bit c: a key of the three lists begins
				 * with byte c */
	struct lv_names hide, only;
	int has_only;		/* only was given, maybe empty: no field */
	int min_level;
	int64_t since, until;
	/* the time format: piece[i], then (i < nfrac) frac[i] digits of
	 * the second's fraction */
	char *fmt;
	size_t fmtlen;
	char *piece[LV_FMT_MAX];
	unsigned char frac[LV_FMT_MAX];
	int fracmax;		/* the most digits of any frac[i] */
	int npiece;
	jenc_pal pal;
};

enum { ROLE_TIME, ROLE_LEVEL, ROLE_MSG };

/* ---- names ------------------------------------------------------------ */

static void
names_free(struct lv_names *l)
{
	jenc_mem_free(l->text, l->textlen);
	jenc_mem_free(l->off, l->n * sizeof(size_t));
	jenc_mem_free(l->len, l->n * sizeof(size_t));
	memset(l, 0, sizeof(*l));
}

/* s "a,b.c,d" into l; empty names are left out. */
static int
names_set(struct lv_names *l, const char *s)
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
	l->off = jenc_mem_alloc(n * sizeof(size_t));
	l->len = jenc_mem_alloc(n * sizeof(size_t));
	if (l->text == NULL || l->off == NULL || l->len == NULL) {
		l->n = n;
		names_free(l);
		return JENC_E_NOMEM;
	}
	memcpy(l->text, s, k + 1);
	for (i = 0, at = 0; i <= k; i++) {
		if (s[i] != ',' && s[i] != '\0')
			continue;
		if (i > at) {
			l->off[l->n] = at;
			l->len[l->n++] = i - at;
		}
		at = i + 1;
	}
	return 0;
}

/* The index in l of name[0..n), -1 if it is not there. */
static long
names_find(const struct lv_names *l, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->len[i] == n && memcmp(l->text + l->off[i], name, n) == 0)
			return (long)i;
	return -1;
}

/* 1 if name[0..n) is in l or inside one in l ("req" holds "req.url"). */
static int
names_hold(const struct lv_names *l, const char *name, size_t n)
{
	size_t i, k;

	for (i = 0; i < l->n; i++) {
		k = l->len[i];
		if (k <= n && memcmp(l->text + l->off[i], name, k) == 0 &&
		    (k == n || name[k] == '.'))
			return 1;
	}
	return 0;
}

/* ---- levels ------------------------------------------------------------ */

static const struct {
	const char *name;
	int sev;
} level_names[] = {
	{ "trace", 10 }, { "debug", 20 }, { "info", 30 }, { "notice", 30 },
	{ "information", 30 }, { "warn", 40 }, { "warning", 40 },
	{ "error", 50 }, { "err", 50 }, { "fatal", 60 }, { "critical", 60 },
	{ "crit", 60 }, { "alert", 60 }, { "emerg", 60 }, { "emergency", 60 },
	{ "panic", 60 }, { "dpanic", 60 },
};

/* The name shown for severities 10, 20, ... 60, five columns wide, and
 * the color of each (SGR parameters) from pino-pretty's. */
static const char *const level_shown[6] = {
	"TRACE", "DEBUG", "INFO ", "WARN ", "ERROR", "FATAL",
};
static const char *const level_sgr[6] = {
	"\033[0;90m", "\033[0;34m", "\033[0;32m", "\033[0;33m",
	"\033[0;31m", "\033[1;31m",
};

/* The severity of a level's name (any case) or decimal number, -1 if it
 * is neither. */
static int
level_sev(const char *s, size_t n)
{
	size_t i, k;
	int v = 0;

	if (n > 0 && n <= 3 && s[0] >= '0' && s[0] <= '9') {
		for (i = 0; i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			v = v * 10 + (s[i] - '0');
		}
		return v;
	}
	for (i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
		const char *m = level_names[i].name;

		for (k = 0; k < n && m[k] != '\0'; k++)
			if ((s[k] | 0x20) != m[k])
				break;
		if (k == n && m[k] == '\0')
			return level_names[i].sev;
	}
	return -1;
}

int
jenc_logv_level(const char *s, size_t len)
{
	return level_sev(s, len);
}

/* ---- times ------------------------------------------------------------- */

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153u * (m > 2 ? m - 3 : m + 9) + 2u) / 5u + d - 1u;
	doe = yoe * 365u + yoe / 4u - yoe / 100u + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int
digits(const char *s, size_t n, size_t at, size_t k, unsigned *v)
{
	size_t i;

	if (at + k > n)
		return 0;
	*v = 0;
	for (i = at; i < at + k; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10u + (unsigned)(s[i] - '0');
	}
	return 1;
}

/*
 * An RFC 3339 time, "2024-05-01T12:00:00.123Z" or with "+02:00", 't' or
 * ' ' for the 'T', 'z' for the 'Z'.  Without a zone it is local time;
 * loose also takes it without seconds, or a date alone (its midnight).
 * 1 and *sec, *nsec; 0 if s is not such a time.
 */
static int
parse_rfc3339(const char *s, size_t n, int loose, int64_t *sec, long *nsec)
{
	unsigned y, mo, d, h = 0, mi = 0, se = 0, zh, zm, f;
	static const unsigned char mdays[12] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	size_t at;
	long ns = 0, scale = 100000000L;
	int64_t off = 0, t;
	int zone = 0;

	if (!digits(s, n, 0, 4, &y) || n < 10 || s[4] != '-' ||
	    !digits(s, n, 5, 2, &mo) || s[7] != '-' || !digits(s, n, 8, 2, &d))
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && (y % 4 != 0 ||
	    (y % 100 == 0 && y % 400 != 0))))
		return 0;
	at = 10;
	if (n > 10 || !loose) {
		if (at >= n || (s[at] != 'T' && s[at] != 't' && s[at] != ' ') ||
		    !digits(s, n, at + 1, 2, &h) || at + 3 >= n ||
		    s[at + 3] != ':' || !digits(s, n, at + 4, 2, &mi))
			return 0;
		at += 6;
		if (at < n && s[at] == ':') {
			if (!digits(s, n, at + 1, 2, &se))
				return 0;
			at += 3;
		} else if (!loose) {
			return 0;
		}
		if (h > 23 || mi > 59 || se > 60)
			return 0;
		if (at < n && s[at] == '.') {
			if (!digits(s, n, ++at, 1, &f))
				return 0;
			for (; at < n && s[at] >= '0' && s[at] <= '9'; at++) {
				ns += (s[at] - '0') * scale;
				scale /= 10;
			}
		}
		if (at < n && (s[at] == 'Z' || s[at] == 'z')) {
			zone = 1;
			at++;
		} else if (at < n && (s[at] == '+' || s[at] == '-')) {
			if (!digits(s, n, at + 1, 2, &zh) || at + 3 >= n ||
			    s[at + 3] != ':' || !digits(s, n, at + 4, 2, &zm) ||
			    zh > 23 || zm > 59)
				return 0;
			off = ((int64_t)zh * 3600 + zm * 60) *
			    (s[at] == '-' ? -1 : 1);
			zone = 1;
			at += 6;
		}
	}
	if (at != n)
		return 0;
	if (!zone) {
		struct tm tm;
		time_t tt;

		memset(&tm, 0, sizeof(tm));
		tm.tm_year = (int)y - 1900;
		tm.tm_mon = (int)mo - 1;
		tm.tm_mday = (int)d;
		tm.tm_hour = (int)h;
		tm.tm_min = (int)mi;
		tm.tm_sec = (int)se;
		tm.tm_isdst = -1;
		errno = 0;
		tt = mktime(&tm);
		if (tt == (time_t)-1 && errno != 0)
			return 0;
		*sec = (int64_t)tt;
		*nsec = ns;
		return 1;
	}
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
	*sec = t - off;
	*nsec = ns;
	return 1;
}

/*
 * A Unix time as a JSON number: seconds below 1e11 (in magnitude),
 * milliseconds below 1e14, microseconds below 1e17, else nanoseconds;
 * a fraction is kept to the nanosecond.  1 and *sec, *nsec; 0 if s is not
 * such a number (or out of range).
 */
static int
parse_epoch(const char *s, size_t n, int64_t *sec, long *nsec)
{
	size_t at = 0, id = 0;
	uint64_t ip = 0, k;
	long ns = 0, unit_ns, scale;
	int neg = 0;

	if (at < n && s[at] == '-')
		neg = 1, at++;
	for (; at < n && s[at] >= '0' && s[at] <= '9'; at++, id++) {
		if (id >= 19)
			return 0;
		ip = ip * 10u + (uint64_t)(s[at] - '0');
	}
	if (id == 0)
		return 0;
	if (ip < 100000000000ull)
		k = 1;
	else if (ip < 100000000000000ull)
		k = 1000;
	else if (ip < 100000000000000000ull)
		k = 1000000;
	else
		k = 1000000000;
	unit_ns = (long)(NS / (int64_t)k);
	if (at < n && s[at] == '.') {
		at++;
		if (at >= n || s[at] < '0' || s[at] > '9')
			return 0;
		/* the fraction of one unit, in nanoseconds */
		for (scale = unit_ns / 10; at < n && s[at] >= '0' &&
		    s[at] <= '9'; at++, scale /= 10)
			ns += (s[at] - '0') * scale;
	}
	if (at < n && (s[at] == 'e' || s[at] == 'E')) {
		/* 1.7e9: through a double, which holds 15 digits */
		char buf[64];
		double v, w;

		if (n >= sizeof(buf))
			return 0;
		memcpy(buf, s, n);
		buf[n] = '\0';
		v = strtod(buf, NULL);
		w = v < 0 ? -v : v;
		if (!(w < 1e19))
			return 0;
		k = w < 1e11 ? 1 : w < 1e14 ? 1000 : w < 1e17 ? 1000000 :
		    1000000000;
		w = v / (double)k;
		*sec = (int64_t)w;
		if ((double)*sec > w)
			(*sec)--;
		*nsec = (long)((w - (double)*sec) * 1e9);
		if (*nsec >= NS)
			*nsec = NS - 1;
		return 1;
	}
	if (at != n)
		return 0;
	*sec = (int64_t)(ip / k);
	ns += (long)(ip % k) * unit_ns;
	if (neg) {
		*sec = -*sec;
		if (ns > 0) {
			(*sec)--;
			ns = (long)NS - ns;
		}
	}
	*nsec = ns;
	return 1;
}

/* t1 compared with the time ns in nanoseconds: <0, 0, >0. */
static int
time_cmp(int64_t sec, long nsec, int64_t ns)
{
	int64_t s2 = ns / NS;
	long n2 = (long)(ns % NS);

	if (n2 < 0) {
		n2 += (long)NS;
		s2--;
	}
	if (sec != s2)
		return sec < s2 ? -1 : 1;
	return nsec < n2 ? -1 : nsec > n2;
}

/* A relative time: "-1h", "15m", "-1h30m", "2d" (s, m, h, d, w), before
 * now. */
static int
parse_ago(const char *s, size_t n, int64_t now, int64_t *ns)
{
	size_t at = s[0] == '-' ? 1 : 0;
	int64_t total = 0, v, unit;
	int any = 0;

	while (at < n) {
		if (s[at] < '0' || s[at] > '9')
			return 0;
		for (v = 0; at < n && s[at] >= '0' && s[at] <= '9'; at++) {
			if (v > 1000000000)
				return 0;
			v = v * 10 + (s[at] - '0');
		}
		if (at >= n)
			return 0;
		switch (s[at++]) {
		case 's': unit = 1; break;
		case 'm': unit = 60; break;
		case 'h': unit = 3600; break;
		case 'd': unit = 86400; break;
		case 'w': unit = 604800; break;
		default: return 0;
		}
		total += v * unit;
		if (total > 1000000000)
			return 0;
		any = 1;
	}
	if (!any)
		return 0;
	*ns = now - total * NS;
	return 1;
}

int
jenc_logv_time(const char *s, size_t len, int64_t now, int64_t *ns)
{
	int64_t sec;
	long nsec;

	if (len == 3 && memcmp(s, "now", 3) == 0) {
		*ns = now;
		return 0;
	}
	if (len > 0 && parse_ago(s, len, now, ns))
		return 0;
	if (!parse_rfc3339(s, len, 1, &sec, &nsec))
		return JENC_E_SYNTAX;
	if (sec > INT64_MAX / NS - 1 || sec < INT64_MIN / NS + 1)
		return JENC_E_RANGE;
	*ns = sec * NS + nsec;
	return 0;
}

/* ---- the time format -------------------------------------------------- */

/* Cut fmt into strftime pieces at each %N, %3N, %6N, %9N ("%%" stays). */
static int
fmt_set(jenc_logv *lv, const char *fmt)
{
	size_t n = strlen(fmt), i, w = 0;
	char *out;

	lv->fmtlen = n + LV_FMT_MAX + 1;
	lv->fmt = out = jenc_mem_alloc(lv->fmtlen);
	if (out == NULL)
		return JENC_E_NOMEM;
	lv->npiece = 1;
	lv->piece[0] = out;
	for (i = 0; i < n; i++) {
		size_t k = 0;

		if (fmt[i] == '%' && fmt[i + 1] == '%') {
			out[w++] = fmt[i++];
			out[w++] = fmt[i];
			continue;
		}
		if (fmt[i] == '%' && fmt[i + 1] == 'N')
			k = 9, i += 1;
		else if (fmt[i] == '%' && fmt[i + 1] >= '1' &&
		    fmt[i + 1] <= '9' && fmt[i + 2] == 'N')
			k = (size_t)(fmt[i + 1] - '0'), i += 2;
		if (k == 0) {
			out[w++] = fmt[i];
			continue;
		}
		if (lv->npiece == LV_FMT_MAX)
			return JENC_E_STATE;
		out[w++] = '\0';
		lv->frac[lv->npiece - 1] = (unsigned char)k;
		if ((int)k > lv->fracmax)
			lv->fracmax = (int)k;
		lv->piece[lv->npiece++] = out + w;
	}
	out[w] = '\0';
	return 0;
}

/* The pieces' text for one second, per thread. */
static _Thread_local struct {
	uint64_t id;
	int64_t sec;
	size_t len[LV_FMT_MAX];
	char text[LV_FMT_MAX][LV_PIECE_MAX];
} tcache;

static uint64_t lv_ids;		/* ids handed out (atomic adds) */

/* ---- output ------------------------------------------------------------ */

struct lv_out {
	char buf[LV_OUT];
	size_t n;
	jenc_sink_fn fn;
	void *ctx;
	int err;
};

static void
out_flush(struct lv_out *o)
{
	if (o->n > 0 && o->err == 0 && o->fn(o->ctx, o->buf, o->n) != 0)
		o->err = JENC_E_SINK;
	o->n = 0;
}

static void
out_put(struct lv_out *o, const char *s, size_t n)
{
	if (n > LV_OUT - o->n) {
		out_flush(o);
		if (n > LV_OUT) {
			if (o->err == 0 && o->fn(o->ctx, s, n) != 0)
				o->err = JENC_E_SINK;
			return;
		}
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

static void
out_c(struct lv_out *o, char c)
{
	if (o->n == LV_OUT)
		out_flush(o);
	o->buf[o->n++] = c;
}

static const char hexd[] = "0123456789abcdef";

/* Eight bytes at a time: the high bit of each byte of w below n (n at
 * most 0x80), or equal to c. */
#define ONES8 0x0101010101010101ULL
#define HIGHS8 0x8080808080808080ULL
static inline uint64_t
bytes_below(uint64_t w, unsigned char n)
{
	return (w - ONES8 * n) & ~w & HIGHS8;
}
static inline uint64_t
bytes_eq(uint64_t w, unsigned char c)
{
	uint64_t a = w ^ (ONES8 * c);

	return (a - ONES8) & ~a & HIGHS8;
}

/* The index of the first 8-byte word of s[0..n) from i on that may hold
 * a byte out_text (or, with quote, a logfmt value) must look at; the
 * bytes before it hold none.  Bytes after the first such one may be
 * taken for one too: the caller looks at each byte from there. */
static inline size_t
text_skip(const char *s, size_t n, size_t i, int quoted, int quote)
{
	uint64_t w, m;

	for (; n - i >= 8; i += 8) {
		memcpy(&w, s + i, 8);
		m = bytes_below(w, quote ? 0x21 : 0x20) | bytes_eq(w, 0x7f) |
		    bytes_eq(w, 0xc2);
		if (quoted || quote)
			m |= bytes_eq(w, '"') | bytes_eq(w, quote ? '=' : '\\');
		if (m != 0)
			break;
	}
	return i;
}

/* 1 if s[0..n) holds none of the bytes out_text escapes outside quotes
 * (0xc2 taken for one whatever follows it). */
static inline int
text_plain(const char *s, size_t n)
{
	size_t i;

	for (i = text_skip(s, n, 0, 0, 0); i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == 0xc2)
			return 0;
	}
	return 1;
}

/* Bytes out_text looks at: 1 C0 controls, DEL and 0xc2 (a C1 control's
 * first byte), 2 also '"' and '\\' (escaped within quotes). */
static const unsigned char text_class[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	[0x5c] = 2, [0x7f] = 1, [0xc2] = 1,
};

/*
 * s[0..n), decoded text, with what could move the cursor or split the
 * line escaped as in JSON: C0 controls but tab (with tab too when
 * quoted), DEL, C1 controls; within quotes also '"' and '\\'.
 */
static void
out_text(struct lv_out *o, const char *s, size_t n, int quoted)
{
	size_t i, from = 0;
	char e[6] = { '\\', 'u', '0', '0', 0, 0 };

	for (i = text_skip(s, n, 0, quoted, 0); i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		unsigned cp, k = text_class[c];

		if (k == 0 || (k == 2 && !quoted) || (c == '\t' && !quoted))
			continue;
		if (c == 0xc2 && (i + 1 >= n ||
		    (unsigned char)s[i + 1] < 0x80 ||
		    (unsigned char)s[i + 1] > 0x9f))
			continue;
		out_put(o, s + from, i - from);
		cp = c == 0xc2 ? (unsigned char)s[++i] : c;
		from = i + 1;
		switch (cp) {
		case '"': out_put(o, "\\\"", 2); continue;
		case '\\': out_put(o, "\\\\", 2); continue;
		case '\n': out_put(o, "\\n", 2); continue;
		case '\r': out_put(o, "\\r", 2); continue;
		case '\t': out_put(o, "\\t", 2); continue;
		default:
			e[4] = hexd[cp >> 4];
			e[5] = hexd[cp & 15];
			out_put(o, e, 6);
		}
	}
	out_put(o, s + from, n - from);
}

static void
out_color(struct lv_out *o, const jenc_logv *lv, int i)
{
	if (lv->flags & JENC_LOGV_COLOR)
		out_put(o, lv->pal.esc[i], lv->pal.len[i]);
}

/* ---- walking a record ------------------------------------------------ */

/* A leaf: a member that is not a non-empty object (or is one too deep). */
struct lv_leaf {
	const char *name;	/* the dotted path, decoded */
	size_t nlen;
	const char *v;		/* a string's body (no quotes), or text */
	size_t vlen;
	char type;		/* '"', '0' number, 't', 'f', 'n', '[', '{' */
	char esc;		/* a string body holding a backslash */
	char named;		/* name points into the record's text (a
				 * top-level key without escapes), not
				 * into the walk's path buffer */
};

struct lv_walk {
	const char *end;
	char *path;		/* room for the longest path: the record's
				 * length */
	int (*fn)(void *ctx, const struct lv_leaf *l);
	void *ctx;
	int rc;			/* fn's non-zero result: the walk stops */
};

static inline const char *
ws(const char *p, const char *end)
{
	while (p < end && (unsigned char)*p <= ' ' && (*p == ' ' ||
	    *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* The index of the first byte of an 8-byte word whose mask m (the high
 * bit of each byte found) is not 0: exact for the first one found, as
 * bytes_eq's borrows only run upwards; 0 where that cannot be told,
 * and the caller looks at each byte from the word's first. */
static inline size_t
first_byte(uint64_t m)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (size_t)__builtin_ctzll(m) >> 3;
#else
	(void)m;
	return 0;
#endif
}

/*
 * Just past the string that starts at p ('"'), NULL if it does not end;
 * *esc 1 if its body holds a backslash.  Eight bytes at a time to the
 * first '"' or '\\' of a word, a byte at a time in the last seven: a
 * log's strings are short, and a call to memchr costs more than most of
 * them.
 */
static inline const char *
str_end(const char *p, const char *end, char *esc)
{
	const char *q = p + 1;

	*esc = 0;
	while (end - q >= 8) {
		uint64_t w, m;

		memcpy(&w, q, 8);
		m = bytes_eq(w, '"') | bytes_eq(w, '\\');
		if (m == 0) {
			q += 8;
			continue;
		}
		q += first_byte(m);
		if (*q == '"')
			return q + 1;
		if (*q == '\\') {
			*esc = 1;
			if (end - q < 2)
				return NULL;
			q += 2;
		} else {
			q++;
		}
	}
	while (q < end) {
		if (*q == '"')
			return q + 1;
		if (*q == '\\') {
			*esc = 1;
			q++;
		}
		q++;
	}
	return NULL;
}

/* Bytes that end a number or literal: ',', '}', ']' and white space. */
static const unsigned char ends_scalar[256] = {
	['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [' '] = 1, [','] = 1,
	[']'] = 1, ['}'] = 1,
};

/* Just past the value that starts at p, NULL if it does not end. */
static const char *
value_end(const char *p, const char *end)
{
	size_t depth = 0;

	char esc;

	if (*p == '"')
		return str_end(p, end, &esc);
	if (*p != '{' && *p != '[') {
		while (p < end && !ends_scalar[(unsigned char)*p])
			p++;
		return p;
	}
	for (; p < end; p++) {
		if (*p == '"') {
			p = str_end(p, end, &esc);
			if (p == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if ((*p == '}' || *p == ']') && --depth == 0) {
			return p + 1;
		}
	}
	return NULL;
}

/* 1 and *v if s[0..4) are hex digits. */
static int
hex4(const char *s, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			*v = *v << 4 | (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v = *v << 4 | (unsigned)((c | 0x20) - 'a' + 10);
		else
			return 0;
	}
	return 1;
}

/* Decode the JSON string body s[0..n) into out (room: n bytes); returns
 * its length.  A bad escape is copied as it is. */
static size_t
unescape(const char *s, size_t n, char *out)
{
	size_t i = 0, w = 0;

	while (i < n) {
		const char *b = memchr(s + i, '\\', n - i);
		size_t k = b == NULL ? n - i : (size_t)(b - (s + i));
		unsigned cp, lo;

		memcpy(out + w, s + i, k);
		w += k;
		i += k;
		if (i + 1 >= n) {
			if (i < n)
				out[w++] = s[i++];
			break;
		}
		switch (s[i + 1]) {
		case 'b': out[w++] = '\b'; i += 2; continue;
		case 'f': out[w++] = '\f'; i += 2; continue;
		case 'n': out[w++] = '\n'; i += 2; continue;
		case 'r': out[w++] = '\r'; i += 2; continue;
		case 't': out[w++] = '\t'; i += 2; continue;
		case '"': case '\\': case '/':
			out[w++] = s[i + 1];
			i += 2;
			continue;
		case 'u':
			break;
		default:
			out[w++] = s[i++];
			continue;
		}
		if (i + 6 > n || !hex4(s + i + 2, &cp)) {
			out[w++] = s[i++];
			continue;
		}
		i += 6;
		if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= n &&
		    s[i] == '\\' && s[i + 1] == 'u' &&
		    hex4(s + i + 2, &lo) && lo >= 0xdc00 &&
		    lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			i += 6;
		} else if (cp >= 0xd800 && cp <= 0xdfff) {
			cp = 0xfffd;
		}
		if (cp < 0x80) {
			out[w++] = (char)cp;
		} else if (cp < 0x800) {
			out[w++] = (char)(0xc0 | cp >> 6);
			out[w++] = (char)(0x80 | (cp & 0x3f));
		} else if (cp < 0x10000) {
			out[w++] = (char)(0xe0 | cp >> 12);
			out[w++] = (char)(0x80 | (cp >> 6 & 0x3f));
			out[w++] = (char)(0x80 | (cp & 0x3f));
		} else {
			out[w++] = (char)(0xf0 | cp >> 18);
			out[w++] = (char)(0x80 | (cp >> 12 & 0x3f));
			out[w++] = (char)(0x80 | (cp >> 6 & 0x3f));
			out[w++] = (char)(0x80 | (cp & 0x3f));
		}
	}
	return w;
}

/* A type of leaf: '"', '0', 't', 'f', 'n', '[', '{'. */
static inline int
leaf_type_ok(char t)
{
	switch (t) {
	case '"': case '0': case 't': case 'f': case 'n': case '[': case '{':
		return 1;
	}
	return 0;
}

/*
 * Walk the members of the object at p ('{'), whose path so far is
 * w->path[0..plen): fn for each leaf, in order.  Returns just past its
 * '}', or NULL on text it does not expect or when fn stopped the walk.
 */
static const char *
walk_obj(struct lv_walk *w, const char *p, size_t plen, int depth)
{
	const char *end = w->end, *q, *v, *name;
	struct lv_leaf l;
	size_t nl, k;
	char esc;
	int nested;

	p = ws(p + 1, end);
	if (p < end && *p == '}')
		return p + 1;
	for (;;) {
		if (p >= end || *p != '"' ||
		    (q = str_end(p, end, &esc)) == NULL)
			return NULL;
		name = p + 1;
		k = (size_t)(q - p - 2);
		p = ws(q, end);
		if (p >= end || *p != ':')
			return NULL;
		p = ws(p + 1, end);
		if (p >= end)
			return NULL;
		q = ws(p + 1, end);
		nested = *p == '{' && depth + 1 < LV_DEPTH && q < end &&
		    *q != '}';
		/* a top-level key as it is in the text needs no copy */
		l.named = plen == 0 && !esc && !nested;
		nl = plen;
		if (!l.named) {
			if (plen > 0)
				w->path[nl++] = '.';
			if (esc) {
				nl += unescape(name, k, w->path + nl);
			} else {
				memcpy(w->path + nl, name, k);
				nl += k;
			}
		}
		if (nested) {
			if ((p = walk_obj(w, p, nl, depth + 1)) == NULL)
				return NULL;
		} else {
			l.esc = 0;
			if (*p == '"')
				v = str_end(p, end, &l.esc);
			else
				v = value_end(p, end);
			if (v == NULL || v == p)
				return NULL;
			l.name = l.named ? name : w->path;
			l.nlen = l.named ? k : nl;
			l.type = *p == '-' || (*p >= '0' && *p <= '9') ?
			    '0' : *p;
			if (l.type == '"') {
				l.v = p + 1;
				l.vlen = (size_t)(v - p - 2);
			} else {
				l.v = p;
				l.vlen = (size_t)(v - p);
			}
			if (!leaf_type_ok(l.type))
				return NULL;
			if ((w->rc = w->fn(w->ctx, &l)) != 0)
				return NULL;
			p = v;
		}
		p = ws(p, end);
		if (p >= end)
			return NULL;
		if (*p == '}')
			return p + 1;
		if (*p != ',')
			return NULL;
		p = ws(p + 1, end);
	}
}

/* fn for each leaf of the object that json[0..len) holds.  0, fn's
 * non-zero result, or JENC_E_SYNTAX. */
static int
walk(const char *json, size_t len, char *path,
    int (*fn)(void *ctx, const struct lv_leaf *l), void *ctx)
{
	struct lv_walk w = { json + len, path, fn, ctx, 0 };
	const char *p = ws(json, json + len);

	if (p >= w.end || *p != '{')
		return JENC_E_SYNTAX;
	p = walk_obj(&w, p, 0, 0);
	if (w.rc != 0)
		return w.rc;
	if (p == NULL || ws(p, w.end) != w.end)
		return JENC_E_SYNTAX;
	return 0;
}

/* ---- one record ------------------------------------------------------- */

#define LV_LEAVES 64		/* leaves kept by the first walk */
#define LV_NAMES 2048		/* bytes of their names */

struct lv_rec {
	const jenc_logv *lv;
	struct lv_out *o;
	struct lv_leaf role[3];		/* v NULL: none found */
	size_t rank[3];			/* its key's place in its list */
	char *scratch;			/* room for any string's text */
	int below;			/* a string with newlines was met */
	int any;			/* something is on the line */
	/* the first walk's leaves, their names in names[], so that the
	 * later ones need not walk the text again; nleaf -1: too many */
	int nleaf;
	struct lv_leaf leaf[LV_LEAVES];
	size_t nnames;
	char names[LV_NAMES];
};

/* The text of a string leaf, decoded if it has to be. */
static const char *
leaf_text(struct lv_rec *r, const struct lv_leaf *l, size_t *n)
{
	if (!l->esc) {
		*n = l->vlen;
		return l->v;
	}
	*n = unescape(l->v, l->vlen, r->scratch);
	return r->scratch;
}

/* The first walk: the time, level and message, each the leaf of the
 * earliest of its keys (of a type that can be one); the leaves kept. */
static int
find_roles(void *ctx, const struct lv_leaf *l)
{
	struct lv_rec *r = ctx;
	long at;
	int i;

	if (r->nleaf >= 0) {
		if (r->nleaf == LV_LEAVES || l->nlen > LV_NAMES - r->nnames) {
			r->nleaf = -1;
		} else {
			struct lv_leaf *k = &r->leaf[r->nleaf++];

			*k = *l;
			if (!l->named) {
				k->name = r->names + r->nnames;
				memcpy(r->names + r->nnames, l->name, l->nlen);
				r->nnames += l->nlen;
			}
		}
	}
	/* most keys are none of the three: their length or first byte
	 * tells */
	if (l->nlen == 0 || !((r->lv->anylen >> (l->nlen < 31 ? l->nlen :
	    31)) & 1) || !((r->lv->first[(unsigned char)l->name[0] >> 5] >>
	    ((unsigned char)l->name[0] & 31)) & 1))
		return 0;

	for (i = 0; i < 3; i++) {
		/* a time or level is a string or a number, a message any
		 * scalar */
		if (l->type == '[' || l->type == '{' || (i < ROLE_MSG &&
		    l->type != '"' && l->type != '0'))
			continue;
		if (r->rank[i] == 0 && r->role[i].v != NULL)
			continue;	/* its first key found already */
		if (!((r->lv->lens[i] >> (l->nlen < 31 ? l->nlen : 31)) & 1) ||
		    (at = names_find(&r->lv->keys[i], l->name, l->nlen)) < 0)
			continue;
		if (r->role[i].v == NULL || (size_t)at < r->rank[i]) {
			r->role[i] = *l;
			r->rank[i] = (size_t)at;
		}
	}
	return 0;
}

/* The record's time, 1 if it can be read. */
static int
record_time(struct lv_rec *r, int64_t *sec, long *nsec)
{
	const struct lv_leaf *l = &r->role[ROLE_TIME];
	const char *s;
	size_t n;

	if (l->v == NULL)
		return 0;
	if (l->type == '0')
		return parse_epoch(l->v, l->vlen, sec, nsec);
	s = leaf_text(r, l, &n);
	if (n > 0 && s[0] >= '0' && s[0] <= '9' &&
	    parse_epoch(s, n, sec, nsec))
		return 1;
	return parse_rfc3339(s, n, 0, sec, nsec);
}

/* The record's severity, -1 if it has no level known. */
static int
record_sev(struct lv_rec *r, const char **s, size_t *n)
{
	const struct lv_leaf *l = &r->role[ROLE_LEVEL];

	if (l->v == NULL)
		return -1;
	*s = l->type == '"' ? leaf_text(r, l, n) : l->v;
	if (l->type != '"')
		*n = l->vlen;
	return level_sev(*s, *n);
}

static void
sep(struct lv_rec *r)
{
	if (r->any)
		out_c(r->o, ' ');
	r->any = 1;
}

/*
 * strftime of one piece of the format into out (LV_PIECE_MAX bytes), and
 * its length (0 also when it does not fit).  glibc's %s reads tm as local
 * time, whatever made it: so %s is the seconds here, put in first.
 */
static size_t
piece_time(const char *piece, int64_t sec, const struct tm *tm, char *out)
{
	char f[LV_PIECE_MAX * 2], num[24];
	size_t i, w = 0, k;

	if (piece[0] == '\0')
		return 0;
	if (strstr(piece, "%s") == NULL)
		return strftime(out, LV_PIECE_MAX, piece, tm);
	k = jenc_fmt_i64(num, sec);
	for (i = 0; piece[i] != '\0'; i++) {
		if (w + k + 2 >= sizeof(f))
			return 0;
		if (piece[i] == '%' && piece[i + 1] == 's') {
			memcpy(f + w, num, k);
			w += k;
			i++;
		} else if (piece[i] == '%' && piece[i + 1] != '\0') {
			f[w++] = piece[i++];
			f[w++] = piece[i];
		} else {
			f[w++] = piece[i];
		}
	}
	f[w] = '\0';
	return strftime(out, LV_PIECE_MAX, f, tm);
}

/* The time through the format, from the thread's cache of its second. */
static int
put_time(struct lv_rec *r, int64_t sec, long nsec)
{
	static const long p10[10] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000, 1000000000 };
	const jenc_logv *lv = r->lv;
	char d[9];
	long v;
	int i;

	if (tcache.id != lv->id || tcache.sec != sec) {
		time_t t = (time_t)sec;
		struct tm tm;

		if ((int64_t)t != sec || ((lv->flags & JENC_LOGV_UTC) ?
		    gmtime_r(&t, &tm) : localtime_r(&t, &tm)) == NULL ||
		    tm.tm_year < 1 - 1900 || tm.tm_year > 9999 - 1900)
			return 0;
		for (i = 0; i < lv->npiece; i++)
			tcache.len[i] = piece_time(lv->piece[i], sec, &tm,
			    tcache.text[i]);
		tcache.id = lv->id;
		tcache.sec = sec;
	}
	/* the first fracmax digits of the nine of nsec */
	v = nsec / p10[9 - lv->fracmax];
	for (i = lv->fracmax - 1; i >= 0; i--, v /= 10)
		d[i] = (char)('0' + v % 10);
	sep(r);
	out_color(r->o, lv, JENC_COLOR_NULL);
	for (i = 0; i < lv->npiece; i++) {
		out_put(r->o, tcache.text[i], tcache.len[i]);
		if (i + 1 < lv->npiece)
			out_put(r->o, d, lv->frac[i]);
	}
	out_color(r->o, lv, JENC_PAL_RESET);
	return 1;
}

/* A scalar leaf as it is: a string's text, a number's or literal's. */
static void
put_plain(struct lv_rec *r, const struct lv_leaf *l)
{
	const char *s;
	size_t n;

	if (l->type == '"') {
		s = leaf_text(r, l, &n);
		out_text(r->o, s, n, 0);
	} else {
		out_text(r->o, l->v, l->vlen, 0);
	}
}

static void
put_level(struct lv_rec *r, int sev, const char *s, size_t n)
{
	const jenc_logv *lv = r->lv;
	int band = sev >= 10 ? (sev > 60 ? 6 : sev / 10) : 0;
	char up[32];
	size_t i;

	sep(r);
	if (band > 0 && (lv->flags & JENC_LOGV_COLOR))
		out_put(r->o, level_sgr[band - 1], 7);
	if (sev >= 10 && sev <= 60 && sev % 10 == 0) {
		out_put(r->o, level_shown[sev / 10 - 1], 5);
	} else {
		/* a level of its own: in upper case, five columns or more */
		for (i = 0; i < n; i += sizeof(up)) {
			size_t k = n - i < sizeof(up) ? n - i : sizeof(up), j;

			for (j = 0; j < k; j++)
				up[j] = s[i + j] >= 'a' && s[i + j] <= 'z' ?
				    (char)(s[i + j] - 32) : s[i + j];
			out_text(r->o, up, k, 0);
		}
		for (i = n; i < 5; i++)
			out_c(r->o, ' ');
	}
	if (band > 0 && (lv->flags & JENC_LOGV_COLOR))
		out_color(r->o, lv, JENC_PAL_RESET);
}

/* 1 if the leaf is one of the record's time, level, message, or hidden. */
static int
left_out(const struct lv_rec *r, const struct lv_leaf *l)
{
	const jenc_logv *lv = r->lv;

	if (l->v == r->role[0].v || l->v == r->role[1].v ||
	    l->v == r->role[2].v)
		return 1;
	if (lv->has_only && !names_hold(&lv->only, l->name, l->nlen))
		return 1;
	return lv->hide.n > 0 && names_hold(&lv->hide, l->name, l->nlen);
}

static void
put_key(struct lv_rec *r, const struct lv_leaf *l)
{
	out_color(r->o, r->lv, JENC_COLOR_KEY);
	out_text(r->o, l->name, l->nlen, 0);
	out_color(r->o, r->lv, JENC_PAL_RESET);
}

/* The second walk: key=value for each leaf left, but strings of several
 * lines, which the third writes below. */
static int
put_field(void *ctx, const struct lv_leaf *l)
{
	struct lv_rec *r = ctx;
	const char *s;
	size_t n, i;
	int quote;

	if (left_out(r, l))
		return 0;
	s = l->v;
	n = l->vlen;
	quote = 0;
	if (l->type == '"') {
		s = leaf_text(r, l, &n);
		if (l->esc && memchr(s, '\n', n) != NULL) {
			r->below = 1;
			return 0;
		}
		quote = n == 0;
		for (i = text_skip(s, n, 0, 0, 1); i < n && !quote; i++) {
			unsigned char c = (unsigned char)s[i];

			quote = c <= ' ' || c == '=' || c == '"' || c == 0x7f ||
			    (c == 0xc2 && i + 1 < n &&
			    (unsigned char)s[i + 1] <= 0x9f);
		}
	}
	/* most fields: a name and a value that out_text would copy as
	 * they are (a string that needs no quotes holds no byte it
	 * escapes; nor do numbers and literals), no colors: one copy of
	 * each into the buffer */
	if (!quote && l->type != '[' && l->type != '{' &&
	    !(r->lv->flags & JENC_LOGV_COLOR) && l->nlen + n + 2 <= LV_OUT &&
	    text_plain(l->name, l->nlen)) {
		struct lv_out *o = r->o;
		char *d;

		if (l->nlen + n + 2 > LV_OUT - o->n)
			out_flush(o);
		d = o->buf + o->n;
		if (r->any)
			*d++ = ' ';
		r->any = 1;
		memcpy(d, l->name, l->nlen);
		d += l->nlen;
		*d++ = '=';
		memcpy(d, s, n);
		o->n = (size_t)(d + n - o->buf);
		return 0;
	}
	sep(r);
	put_key(r, l);
	out_c(r->o, '=');
	if (quote)
		out_c(r->o, '"');
	out_text(r->o, s, n, quote);
	if (quote)
		out_c(r->o, '"');
	return 0;
}

/* The third walk: each string of several lines, under the record, its
 * lines indented by four spaces, its key before the first. */
static int
put_below(void *ctx, const struct lv_leaf *l)
{
	struct lv_rec *r = ctx;
	const char *s, *nl;
	size_t n, k;

	if (l->type != '"' || !l->esc || left_out(r, l))
		return 0;
	s = leaf_text(r, l, &n);
	if (memchr(s, '\n', n) == NULL)
		return 0;
	out_put(r->o, "    ", 4);
	put_key(r, l);
	out_put(r->o, ": ", 2);
	for (;;) {
		nl = memchr(s, '\n', n);
		k = nl == NULL ? n : (size_t)(nl - s);
		if (k > 0 && s[k - 1] == '\r')
			k--;
		out_text(r->o, s, k, 0);
		out_c(r->o, '\n');
		if (nl == NULL)
			break;
		n -= (size_t)(nl + 1 - s);
		s = nl + 1;
		if (n == 0)
			break;
		out_put(r->o, "    ", 4);
	}
	return 0;
}

/* fn for each leaf, from the first walk's list when it kept them all. */
static int
each_leaf(struct lv_rec *r, const char *json, size_t len, char *path,
    int (*fn)(void *ctx, const struct lv_leaf *l))
{
	int i, rc;

	if (r->nleaf < 0)
		return walk(json, len, path, fn, r);
	for (i = 0; i < r->nleaf; i++)
		if ((rc = fn(r, &r->leaf[i])) != 0)
			return rc;
	return 0;
}

int
jenc_logv_format(const jenc_logv *lv, const char *json, size_t len,
    jenc_sink_fn fn, void *ctx)
{
	struct lv_out o;
	struct lv_rec r;
	char local[2 * LV_LOCAL], *mem = NULL, *lvl = NULL;
	size_t room = len + 8, nlvl = 0;
	int64_t sec = 0;
	long nsec = 0;
	int rc, sev = -1, timed = 0;

	if (room > LV_LOCAL && (mem = jenc_mem_alloc(2 * room)) == NULL)
		return JENC_E_NOMEM;
	/* not all of r: its leaves and names are written before read */
	memset(r.role, 0, sizeof(r.role));
	memset(r.rank, 0, sizeof(r.rank));
	r.below = r.any = r.nleaf = 0;
	r.nnames = 0;
	r.lv = lv;
	r.o = &o;
	r.scratch = (mem != NULL ? mem : local) + room;
	o.n = 0;
	o.fn = fn;
	o.ctx = ctx;
	o.err = 0;
	rc = walk(json, len, mem != NULL ? mem : local, find_roles, &r);
	if (rc != 0)
		goto done;
	if (r.role[ROLE_LEVEL].v != NULL)
		sev = record_sev(&r, (const char **)&lvl, &nlvl);
	if (lv->min_level > 0 && sev < lv->min_level)
		goto done;
	if (r.role[ROLE_TIME].v != NULL)
		timed = record_time(&r, &sec, &nsec);
	if ((lv->flags & (JENC_LOGV_SINCE | JENC_LOGV_UNTIL)) &&
	    (!timed || ((lv->flags & JENC_LOGV_SINCE) &&
	    time_cmp(sec, nsec, lv->since) < 0) ||
	    ((lv->flags & JENC_LOGV_UNTIL) &&
	    time_cmp(sec, nsec, lv->until) > 0)))
		goto done;
	if (r.role[ROLE_TIME].v != NULL && (!timed ||
	    !put_time(&r, sec, nsec))) {
		sep(&r);
		put_plain(&r, &r.role[ROLE_TIME]);
	}
	if (r.role[ROLE_LEVEL].v != NULL) {
		/* its text again: the scratch may have been used since */
		sev = record_sev(&r, (const char **)&lvl, &nlvl);
		put_level(&r, sev, lvl, nlvl);
	}
	if (r.role[ROLE_MSG].v != NULL) {
		sep(&r);
		put_plain(&r, &r.role[ROLE_MSG]);
	}
	rc = each_leaf(&r, json, len, mem != NULL ? mem : local, put_field);
	out_c(&o, '\n');
	if (rc == 0 && r.below)
		rc = each_leaf(&r, json, len, mem != NULL ? mem : local,
		    put_below);
	if (rc == 0) {
		out_flush(&o);
		rc = o.err != 0 ? o.err : 1;
	}
done:
	jenc_mem_free(mem, 2 * room);
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
	for (i = 0; i < 3; i++) {
		size_t k;

		if (names_set(&lv->keys[i], keys[i] != NULL ? keys[i] :
		    default_keys[i]) != 0)
			goto fail;
		for (k = 0; k < lv->keys[i].n; k++) {
			const struct lv_names *l = &lv->keys[i];
			unsigned char c = (unsigned char)l->text[l->off[k]];

			lv->lens[i] |= 1u << (l->len[k] < 31 ? l->len[k] : 31);
			lv->first[c >> 5] |= 1u << (c & 31);
		}
		lv->anylen |= lv->lens[i];
	}
	if ((o->hide != NULL && names_set(&lv->hide, o->hide) != 0) ||
	    (o->only != NULL && names_set(&lv->only, o->only) != 0))
		goto fail;
	lv->has_only = o->only != NULL;
	if ((rc = fmt_set(lv, o->time_format != NULL ? o->time_format :
	    default_format)) != 0)
		goto fail;
	jenc_pal_init(&lv->pal, o->colors);
	lv->id = __atomic_add_fetch(&lv_ids, 1, __ATOMIC_RELAXED);
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
		names_free(&lv->keys[i]);
	names_free(&lv->hide);
	names_free(&lv->only);
	jenc_mem_free(lv->fmt, lv->fmtlen);
	jenc_mem_free(lv, sizeof(*lv));
}

/* ---- the view ---------------------------------------------------------- */

static int
logv_write(void *ctx, const char *p, size_t n)
{
	return jenc_view_write(ctx, p, n);
}

/* A record: its line in its place; a record a filter drops: nothing. */
static int
logv_value(void *ctx, jenc_enc *e, const char *json, size_t len)
{
	int rc = jenc_logv_format(ctx, json, len, logv_write, e);

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
logv_text(void *ctx, jenc_enc *e, const char *p, size_t len)
{
	(void)ctx;
	return jenc_view_write(e, p, len);
}

void
jenc_logv_view(const jenc_logv *lv, jenc_view *v)
{
	memset(v, 0, sizeof(*v));
	v->value = logv_value;
	v->text = logv_text;
	v->ctx = (void *)(uintptr_t)lv;
	/* jenc_logv_format only reads lv: any number of threads */
	v->flags = JENC_VIEW_RECORDS | JENC_VIEW_THREADS;
}
