/*
 * logtime.c - the times of log records for the log view (logv.c): RFC
 * 3339 strings and Unix times as numbers read, relative times ("-1h")
 * for --since and --until, and a time shown through a strftime(3) format
 * with %N conversions for the fraction of the second.
 *
 * strftime's text for a record's second is kept per thread, so that a
 * log's records, which share seconds, cost one strftime and one
 * localtime_r per second of log and not per record.  A format is read
 * only once made: with -j, worker threads format times at once.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "logv.h"
#include "swar.h"

#define NS 1000000000LL

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t
lt_days_from_civil(int64_t y, unsigned m, unsigned d)
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
lt_digits(const char *s, size_t n, size_t at, size_t k, unsigned *v)
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

int
jenc_logt_rfc3339(const char *s, size_t n, int loose, int64_t *sec, long *nsec)
{
	unsigned y, mo, d, h = 0, mi = 0, se = 0, zh, zm, f;
	static const unsigned char mdays[12] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};
	size_t at;
	long ns = 0, scale = 100000000L;
	int64_t off = 0, t;
	int zone = 0;

	if (!lt_digits(s, n, 0, 4, &y) || n < 10 || s[4] != '-' ||
	    !lt_digits(s, n, 5, 2, &mo) || s[7] != '-' ||
	    !lt_digits(s, n, 8, 2, &d))
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && (y % 4 != 0 ||
	    (y % 100 == 0 && y % 400 != 0))))
		return 0;
	at = 10;
	if (n > 10 || !loose) {
		if (at >= n || (s[at] != 'T' && s[at] != 't' && s[at] != ' ') ||
		    !lt_digits(s, n, at + 1, 2, &h) || at + 3 >= n ||
		    s[at + 3] != ':' || !lt_digits(s, n, at + 4, 2, &mi))
			return 0;
		at += 6;
		if (at < n && s[at] == ':') {
			if (!lt_digits(s, n, at + 1, 2, &se))
				return 0;
			at += 3;
		} else if (!loose) {
			return 0;
		}
		if (h > 23 || mi > 59 || se > 60)
			return 0;
		/* ',' too: ISO 8601's, Python's logging's */
		if (at < n && (s[at] == '.' || s[at] == ',')) {
			if (!lt_digits(s, n, ++at, 1, &f))
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
			if (!lt_digits(s, n, at + 1, 2, &zh) || at + 3 >= n ||
			    s[at + 3] != ':' ||
			    !lt_digits(s, n, at + 4, 2, &zm) ||
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
	t = lt_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
	*sec = t - off;
	*nsec = ns;
	return 1;
}

/* 1 and the value *v of the eight bytes of w (sw_load) if they are
 * digits: a multiplication for each halving of the digits. */
static inline int
lt_eight(uint64_t w, uint64_t *v)
{
	if (((w & UINT64_C(0xf0f0f0f0f0f0f0f0)) |
	    (((w + UINT64_C(0x0606060606060606)) &
	    UINT64_C(0xf0f0f0f0f0f0f0f0)) >> 4)) !=
	    UINT64_C(0x3333333333333333))
		return 0;
	w = (w & UINT64_C(0x0f0f0f0f0f0f0f0f)) * 2561 >> 8;
	w = (w & UINT64_C(0x00ff00ff00ff00ff)) * 6553601 >> 16;
	*v = (w & UINT64_C(0x0000ffff0000ffff)) * UINT64_C(42949672960001) >>
	    32;
	return 1;
}

static const uint32_t lt_p10[8] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
};

/* A Unix time with an exponent (1.7e9), through a double, which holds 15
 * digits; as jenc_logt_epoch. */
static int
lt_epoch_exp(const char *s, size_t n, int64_t *sec, long *nsec)
{
	char buf[64], *end;
	double v, w;
	uint64_t k;

	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* all of it a number: a string's text may go on after one */
	v = strtod(buf, &end);
	w = v < 0 ? -v : v;
	if (end != buf + n || !(w < 1e19))
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

int
jenc_logt_epoch(const char *s, size_t n, int64_t *sec, long *nsec)
{
	size_t at = 0, id = 0;
	uint64_t ip = 0, k;
	int64_t t;
	long ns, unit_ns, scale;
	int neg = 0;

	/* thirteen digits, milliseconds since 1970 (JavaScript's
	 * Date.now(), pino's and bunyan's): two words that overlap */
	if (n == 13 && lt_eight(sw_load((const unsigned char *)s), &ip) &&
	    lt_eight(sw_load((const unsigned char *)s + 5), &k) &&
	    (ip = ip * 100000u + k % 100000u) >= 100000000000ull) {
		*sec = (int64_t)(ip / 1000);
		*nsec = (long)(ip % 1000) * 1000000L;
		return 1;
	}
	ip = 0;
	if (at < n && s[at] == '-')
		neg = 1, at++;
	/* more than 19 digits are refused below, whatever ip became */
	id = at;
	while (n - at >= 8 &&
	    lt_eight(sw_load((const unsigned char *)s + at), &k)) {
		ip = ip * 100000000u + k;
		at += 8;
	}
	/* the last digits, fewer than eight: the word that ends the text,
	 * the bytes before them taken for leading zeros */
	if (at < n && n - at < 8 && n >= 8) {
		uint64_t low = ((uint64_t)1 << (8 * (8 - (n - at)))) - 1;
		uint64_t w = sw_load((const unsigned char *)s + n - 8);

		if (lt_eight((w & ~low) | (SW_ONES * '0' & low), &k)) {
			ip = ip * (uint64_t)lt_p10[n - at] + k;
			at = n;
		}
	}
	for (; at < n && (unsigned)(s[at] - '0') <= 9; at++)
		ip = ip * 10u + (uint64_t)(s[at] - '0');
	id = at - id;
	if (id == 0 || id > 19)
		return 0;
	/* the unit by magnitude; by constants: multiplications, not
	 * divisions */
	if (ip < 100000000000ull) {
		unit_ns = 1000000000L;
		t = (int64_t)ip;
		ns = 0;
	} else if (ip < 100000000000000ull) {
		unit_ns = 1000000L;
		t = (int64_t)(ip / 1000);
		ns = (long)(ip % 1000) * unit_ns;
	} else if (ip < 100000000000000000ull) {
		unit_ns = 1000L;
		t = (int64_t)(ip / 1000000);
		ns = (long)(ip % 1000000) * unit_ns;
	} else {
		unit_ns = 1L;
		t = (int64_t)(ip / 1000000000);
		ns = (long)(ip % 1000000000);
	}
	if (at < n && s[at] == '.') {
		at++;
		if (at >= n || s[at] < '0' || s[at] > '9')
			return 0;
		/* the fraction of one unit, in nanoseconds */
		for (scale = unit_ns / 10; at < n && s[at] >= '0' &&
		    s[at] <= '9'; at++, scale /= 10)
			ns += (s[at] - '0') * scale;
	}
	if (at < n && (s[at] == 'e' || s[at] == 'E'))
		return lt_epoch_exp(s, n, sec, nsec);
	if (at != n)
		return 0;
	if (neg && ns > 0) {
		t = -t - 1;
		ns = (long)NS - ns;
	} else if (neg) {
		t = -t;
	}
	*sec = t;
	*nsec = ns;
	return 1;
}

int
jenc_logt_cmp(int64_t sec, long nsec, int64_t ns)
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
lt_ago(const char *s, size_t n, int64_t now, int64_t *ns)
{
	size_t at = s[0] == '-' ? 1 : 0;
	int64_t total = 0, v, unit;

	if (at >= n)
		return 0;
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
	}
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
	if (len > 0 && lt_ago(s, len, now, ns))
		return 0;
	if (!jenc_logt_rfc3339(s, len, 1, &sec, &nsec))
		return JENC_E_SYNTAX;
	if (sec > INT64_MAX / NS - 1 || sec < INT64_MIN / NS + 1)
		return JENC_E_RANGE;
	*ns = sec * NS + nsec;
	return 0;
}

/* ---- the time format -------------------------------------------------- */

/*
 * Each piece of a format is kept with LT_END after it, a byte strftime
 * copies as it is: its output is never empty, so that strftime's 0 means
 * only that it did not fit.
 */
#define LT_END '|'

/* The bytes of piece that strftime writes whatever the time and locale:
 * its text outside conversions, "%%", "%n" and "%t". */
static size_t
lt_fixed(const char *piece)
{
	size_t i, k = 0;

	for (i = 0; piece[i] != '\0'; i++) {
		if (piece[i] != '%') {
			k++;
			continue;
		}
		if (piece[i + 1] == '%' || piece[i + 1] == 'n' ||
		    piece[i + 1] == 't') {
			k++;
			i++;
			continue;
		}
		/* a conversion: flags, width, E or O, then its letter */
		while (piece[i + 1] != '\0' &&
		    strchr("_-0^#+123456789EO", piece[i + 1]) != NULL)
			i++;
		if (piece[i + 1] != '\0')
			i++;
	}
	return k;
}

/* Cut fmt into strftime pieces at each %N, %3N, %6N, %9N ("%%" stays),
 * each followed by LT_END. */
int
jenc_logt_fmt_set(struct jenc_logt_fmt *f, const char *fmt, int utc)
{
	static uint64_t ids;	/* ids handed out (atomic adds) */
	size_t n = strlen(fmt), i, w = 0;
	char *out;
	int at;

	memset(f, 0, sizeof(*f));
	f->utc = utc;
	f->id = __atomic_add_fetch(&ids, 1, __ATOMIC_RELAXED);
	f->textlen = n + 2 * JENC_LOGT_PIECES + 1;
	f->text = out = jenc_mem_alloc(f->textlen);
	if (out == NULL)
		return JENC_E_NOMEM;
	f->npiece = 1;
	f->piece[0] = out;
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
		if (f->npiece == JENC_LOGT_PIECES)
			return JENC_E_STATE;
		out[w++] = LT_END;
		out[w++] = '\0';
		f->frac[f->npiece - 1] = (unsigned char)k;
		if ((int)k > f->fracmax)
			f->fracmax = (int)k;
		f->piece[f->npiece++] = out + w;
	}
	out[w++] = LT_END;
	out[w] = '\0';
	/* a piece that holds more text than fits (LT_END counted): every
	 * time would be too long */
	for (at = 0; at < f->npiece; at++)
		if (lt_fixed(f->piece[at]) > JENC_LOGT_PIECE)
			return JENC_E_RANGE;
	return 0;
}

void
jenc_logt_fmt_free(struct jenc_logt_fmt *f)
{
	jenc_mem_free(f->text, f->textlen);
	memset(f, 0, sizeof(*f));
}

/*
 * The text of one second through one format, per thread: the pieces
 * with room for each fraction's digits at at[i], which each time shown
 * of that second writes there.
 */
static _Thread_local struct {
	uint64_t id;
	int64_t sec;
	size_t len;
	size_t at[JENC_LOGT_PIECES];
	char text[JENC_LOGT_MAX];
} lt_cache;

#define LT_LONG ((size_t)-1)

/*
 * strftime of one piece of the format (LT_END after it) into out
 * (JENC_LOGT_PIECE + 1 bytes), and its length without LT_END; LT_LONG
 * when it is longer than JENC_LOGT_PIECE - 1 bytes.  glibc's %s reads tm
 * as local time, whatever made it: so %s is the seconds here, put in
 * first (a piece that is then longer than f is taken for too long).
 */
static size_t
lt_piece(const char *piece, int64_t sec, const struct tm *tm, char *out)
{
	char f[JENC_LOGT_PIECE * 2], num[24];
	size_t i, w = 0, k;

	if (piece[0] == LT_END && piece[1] == '\0')
		return 0;
	if (strstr(piece, "%s") != NULL) {
		k = jenc_fmt_i64(num, sec);
		for (i = 0; piece[i] != '\0'; i++) {
			if (w + k + 2 >= sizeof(f))
				return LT_LONG;
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
		piece = f;
	}
	k = strftime(out, JENC_LOGT_PIECE + 1, piece, tm);
	return k == 0 ? LT_LONG : k - 1;
}

/* "00" to "99". */
static const char lt_two[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The text of sec in the thread's cache: 1, or 0 when it cannot be shown
 * (outside the years 1 to 9999, or a piece longer than it may be; the
 * cache then holds no second). */
static int
lt_second(const struct jenc_logt_fmt *f, int64_t sec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	size_t w = 0, k;
	int i;

	if ((int64_t)t != sec || (f->utc ? gmtime_r(&t, &tm) :
	    localtime_r(&t, &tm)) == NULL ||
	    tm.tm_year < 1 - 1900 || tm.tm_year > 9999 - 1900)
		return 0;
	for (i = 0; i < f->npiece; i++) {
		/* the cache's text may be left changed: its id is not set */
		if ((k = lt_piece(f->piece[i], sec, &tm, lt_cache.text + w)) ==
		    LT_LONG) {
			lt_cache.id = 0;
			return 0;
		}
		w += k;
		lt_cache.at[i] = w;
		if (i + 1 < f->npiece)
			w += f->frac[i];
	}
	lt_cache.len = w;
	lt_cache.id = f->id;
	lt_cache.sec = sec;
	return 1;
}

/* The time through the format, from the thread's cache of its second:
 * only the fraction's digits are written for each time. */
const char *
jenc_logt_text(const struct jenc_logt_fmt *f, int64_t sec, long nsec,
    size_t *len)
{
	static const long p10[10] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000, 1000000000 };
	char d[9];
	long v;
	int i;

	if ((lt_cache.id != f->id || lt_cache.sec != sec) &&
	    !lt_second(f, sec))
		return NULL;
	/* the first fracmax digits of the nine of nsec; the milliseconds
	 * of a format with one %3N (the default's) in their place */
	if (f->fracmax == 3 && f->npiece == 2) {
		char *o = lt_cache.text + lt_cache.at[0];

		v = nsec / 1000000;
		o[0] = (char)('0' + v / 100);
		memcpy(o + 1, lt_two + 2 * (v % 100), 2);
		*len = lt_cache.len;
		return lt_cache.text;
	}
	if (f->fracmax == 3) {
		v = nsec / 1000000;
		d[0] = (char)('0' + v / 100);
		memcpy(d + 1, lt_two + 2 * (v % 100), 2);
	} else {
		v = nsec / p10[9 - f->fracmax];
		for (i = f->fracmax - 1; i >= 0; i--, v /= 10)
			d[i] = (char)('0' + v % 10);
	}
	for (i = 0; i + 1 < f->npiece; i++)
		memcpy(lt_cache.text + lt_cache.at[i], d, f->frac[i]);
	*len = lt_cache.len;
	return lt_cache.text;
}
