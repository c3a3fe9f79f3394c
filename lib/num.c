/*
 * num.c - integers, doubles and times as text, without printf, and the
 * grammar of a JSON number.
 *
 * Integers are written two digits at a time from a table.
 *
 * A double is written as the shortest decimal that reads back as the same
 * double (ties between equally short candidates go to the one closest to
 * the exact value), laid out as Go's encoding/json does: plain notation,
 * or exponent notation ("1e-7", "1.5e+21") when the magnitude is below
 * 1e-6 or at least 1e21.  The digits come from the Schubfach method of
 * R. Giulietti ("The Schubfach way to render doubles", 2020): scale the
 * double and the two ends of the interval of reals that round to it by a
 * power of ten, using a 126-bit approximation of that power from
 * num_tab.h, and pick the decimal with the fewest digits inside the
 * interval.
 *
 * Times use the days-to-civil-date arithmetic of the proleptic Gregorian
 * calendar (400-year eras of 146097 days, years starting in March).
 */
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "num_tab.h"

static const char digits2[200] = {
	'0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
	'1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
	'2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
	'3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
	'4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
	'5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
	'6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
	'7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
	'8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
	'9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9',
};

static const uint64_t pow10_u64[20] = {
	1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
	100000000u, 1000000000u, 10000000000u, 100000000000u,
	1000000000000u, 10000000000000u, 100000000000000u,
	1000000000000000u, 10000000000000000u, 100000000000000000u,
	1000000000000000000u, 10000000000000000000u,
};

/* ---- integers --------------------------------------------------------- */

/* Number of decimal digits of v (1 for 0). */
static unsigned
num_count_digits(uint64_t v)
{
	/* bits * 1233 / 4096 is floor(log10(2^bits)) for bits <= 64. */
	unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1u);
	unsigned t = (bits * 1233u) >> 12;

	return t + (v >= pow10_u64[t]) + (v == 0);
}

static void
num_put2(char *p, uint32_t v)
{
	memcpy(p, digits2 + 2 * v, 2);
}

/* Exactly eight digits of v < 10^8, with leading zeros. */
static void
num_put8(char *p, uint32_t v)
{
	uint32_t hi = v / 10000u, lo = v % 10000u;

	num_put2(p, hi / 100u);
	num_put2(p + 2, hi % 100u);
	num_put2(p + 4, lo / 100u);
	num_put2(p + 6, lo % 100u);
}

/* The digits of v, ending just before end. */
static void
num_put_digits(char *end, uint64_t v)
{
	uint32_t w;

	while (v >= 100000000u) {
		uint64_t q = v / 100000000u;

		end -= 8;
		num_put8(end, (uint32_t)(v - q * 100000000u));
		v = q;
	}
	w = (uint32_t)v;
	while (w >= 100u) {
		end -= 2;
		num_put2(end, w % 100u);
		w /= 100u;
	}
	if (w >= 10u)
		num_put2(end - 2, w);
	else
		end[-1] = (char)('0' + w);
}

size_t
jenc_fmt_u64(char *out, uint64_t v)
{
	unsigned n = num_count_digits(v);

	num_put_digits(out + n, v);
	return n;
}

size_t
jenc_fmt_i64(char *out, int64_t v)
{
	if (v < 0) {
		*out = '-';
		/* Negate in unsigned arithmetic: right for INT64_MIN too. */
		return 1 + jenc_fmt_u64(out + 1, 0u - (uint64_t)v);
	}
	return jenc_fmt_u64(out, (uint64_t)v);
}

/* ---- doubles: shortest digits ------------------------------------------ */

#define SIG_BITS 52			/* stored significand bits */
#define C_MIN ((uint64_t)1 << SIG_BITS)	/* smallest normal significand */
#define Q_MIN (-1074)			/* binary exponent of subnormals */
#define MASK63 (((uint64_t)1 << 63) - 1)

/* floor(log10(2^q)), floor(log10(3/4 * 2^q)) and floor(log2(10^e)) for
 * the exponents of doubles; gen_num_tab.py checks them exact over that
 * range.  They rely on >> of a negative int being an arithmetic shift,
 * as it is with every compiler jenc supports (gcc, clang). */
static int
num_flog10_pow2(int q)
{
	return (q * 78913) >> 18;
}

static int
num_flog10_3q_pow2(int q)
{
	return (q * 1262611 - 524031) >> 22;
}

static int
num_flog2_pow10(int e)
{
	return (e * 1741647) >> 19;
}

/* High and low 64 bits of a * b. */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

static uint64_t
num_mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
	u128 p = (u128)a * b;

	*lo = (uint64_t)p;
	return (uint64_t)(p >> 64);
}
#else
static uint64_t
num_mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;

	*lo = (mid << 32) | (uint32_t)p00;
	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
#endif

/*
 * Round to odd of g * cp / 2^127, g = {gh, gl}: the integer part, with its
 * lowest bit set when the fraction is not zero (the fraction is taken
 * from g * cp / 2^64, which drops less than one unit in 2^-63).  The
 * caller scales cp so that the result carries two fraction bits; being
 * odd whenever inexact, it never equals a multiple of 4 by accident.
 */
static uint64_t
num_rop(uint64_t gh, uint64_t gl, uint64_t cp)
{
	uint64_t x, y0, y1, z;

	x = num_mul128(gl, cp, &z);		/* the low word is dropped */
	y1 = num_mul128(gh, cp, &y0);
	z = y0 + x;
	y1 += z < x;
	return (y1 << 1) | (z >> 63) | ((z & MASK63) != 0);
}

/*
 * Shortest decimal f * 10^e for the double c * 2^q (c > 0).  The reals
 * that round to it lie between (c - 1/2) 2^q and (c + 1/2) 2^q, ends
 * included when c is even; at a power of two the gap below is half as
 * wide, (c - 1/4) 2^q.  With k = floor(log10 of that gap), the interval
 * holds at most one multiple of 10^(k+1) and at least one of 10^k:
 * take the first if there is one (fewest digits), else the multiple of
 * 10^k that is in the interval, or the closer of the two, ties to even.
 */
static uint64_t
num_shortest(int q, uint64_t c, int *ep)
{
	uint64_t odd = c & 1, cb = c << 2, cbl, cbr = cb + 2;
	uint64_t vb, vbl, vbr, s, s10, t;
	const uint64_t *g;
	int k, h, uin, win;
	int64_t cmp;

	if (c != C_MIN || q == Q_MIN) {
		cbl = cb - 2;
		k = num_flog10_pow2(q);
	} else {
		cbl = cb - 1;
		k = num_flog10_3q_pow2(q);
	}
	g = pow10_g[-k - JENC_POW10_MIN];
	/* 2 <= h <= 5, so cb << h < 2^60. */
	h = q + num_flog2_pow10(-k) + 2;
	vb = num_rop(g[0], g[1], cb << h);
	vbl = num_rop(g[0], g[1], cbl << h);
	vbr = num_rop(g[0], g[1], cbr << h);

	/* v * 10^-k = vb / 4; s and s + 1 are the multiples of 10^k around
	 * v, s10 and s10 + 1 those of 10^(k+1). */
	s = vb >> 2;
	s10 = s / 10u;
	uin = vbl + odd <= (s10 * 10u) << 2;
	win = ((s10 * 10u + 10u) << 2) + odd <= vbr;
	if (uin != win) {
		*ep = k + 1;
		return uin ? s10 : s10 + 1;
	}
	t = s + 1;
	uin = vbl + odd <= s << 2;
	win = (t << 2) + odd <= vbr;
	*ep = k;
	if (uin != win)
		return uin ? s : t;
	cmp = (int64_t)(vb - ((s + t) << 1));
	return cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
}

/* If p10, which is 10^k, divides *fp: *fp / p10 * 10^(*ep + k) instead
 * of *fp * 10^*ep, and 1; else 0. */
static inline int
num_strip(uint64_t *fp, int *ep, uint32_t p10, int k)
{
	if (*fp % p10 != 0)
		return 0;
	*fp /= p10;
	*ep += k;
	return 1;
}

/* f * 10^e with the trailing zeros of f moved into e; f > 0. */
static uint64_t
num_strip_zeros(uint64_t f, int *ep)
{
	int e = *ep;

	while (num_strip(&f, &e, 100000000u, 8))
		;
	(void)num_strip(&f, &e, 10000u, 4);
	(void)num_strip(&f, &e, 100u, 2);
	(void)num_strip(&f, &e, 10u, 1);
	*ep = e;
	return f;
}

/* ---- doubles: layout --------------------------------------------------- */

/* The bits of the doubles 1e-6 and 1e21, where Go's layout changes. */
#define BITS_1E_6 UINT64_C(0x3eb0c6f7a0b5ed8d)
#define BITS_1E21 UINT64_C(0x444b1ae4d6e2ef50)

/*
 * Digits go straight to out, never through a scratch buffer: reading back
 * bytes just stored in pieces stalls the CPU.  At most 17 digits, a sign,
 * a point and "e-324" (or "0.00000" before 17 digits) make 25 bytes; the
 * zero fill of the ddd000 layout stays inside out[0..25).
 */
size_t
jenc_fmt_f64(char *out, double v)
{
	char *p = out;
	uint64_t bits, c, f, ip, p10;
	int bq, q, e, dx;
	unsigned n, x;

	memcpy(&bits, &v, sizeof bits);
	if (bits >> 63)
		*p++ = '-';
	bits &= ~((uint64_t)1 << 63);
	if (bits == 0) {
		*p = '0';
		return (size_t)(p - out) + 1;
	}
	c = bits & (C_MIN - 1);
	bq = (int)(bits >> SIG_BITS);
	if (bq != 0) {
		c |= C_MIN;
		q = bq - 1075;
	} else
		q = Q_MIN;
	if (q <= 0 && q > -SIG_BITS - 1 &&
	    (c & (((uint64_t)1 << -q) - 1)) == 0) {
		/* An integer below 2^53: its own digits are the
		 * shortest. */
		f = c >> -q;
		e = 0;
	} else
		f = num_shortest(q, c, &e);
	f = num_strip_zeros(f, &e);
	n = num_count_digits(f);
	dx = e + (int)n - 1;	/* exponent of the first digit */

	/* |v| < 1e-6 or >= 1e21, compared as the bits of positive doubles
	 * (ordered as their values): a comparison of doubles may be made
	 * in greater precision (x87, FLT_EVAL_METHOD 2), where 1e-6 is not
	 * the double 1e-6 and the double 1e-6 is below it. */
	if (bits < BITS_1E_6 || bits >= BITS_1E21) {
		/* d.ddde-x, Go's 'e' format with no leading zero in the
		 * exponent: digits at p[1..n], then the first moves left. */
		num_put_digits(p + 1 + n, f);
		p[0] = p[1];
		if (n > 1) {
			p[1] = '.';
			p += n + 1;
		} else
			p += 1;
		*p++ = 'e';
		*p++ = dx < 0 ? '-' : '+';
		x = (unsigned)(dx < 0 ? -dx : dx);
		return (size_t)(p - out) + jenc_fmt_u64(p, x);
	}
	if (dx < 0) {
		/* 0.000ddd, -6 <= dx <= -1 */
		memcpy(p, "0.000000", 8);
		p += 1 - dx;
		num_put_digits(p + n, f);
		return (size_t)(p - out) + n;
	}
	if (e >= 0) {
		/* ddd000, dx <= 20 */
		memset(p, '0', 24);
		num_put_digits(p + n, f);
		return (size_t)(p - out) + (size_t)dx + 1;
	}
	/* ddd.ddd: the -e fraction digits are written as 10^-e plus
	 * them, whose leading 1 then becomes the point. */
	p10 = pow10_u64[-e];
	ip = f / p10;
	num_put_digits(p + n + 1, f - ip * p10 + p10);
	p[dx + 1] = '.';
	num_put_digits(p + dx + 1, ip);
	return (size_t)(p - out) + n + 1;
}

/* ---- time ------------------------------------------------------------ */

#define SECS_MIN (-62135596800LL)	/* 0001-01-01T00:00:00Z */
#define SECS_MAX 253402300799LL		/* 9999-12-31T23:59:59Z */

size_t
jenc_fmt_time_utc(char *out, int64_t secs)
{
	int64_t days, sod;
	uint32_t z, era, doe, yoe, doy, mp, y, m, dd;
	unsigned i;

	if (secs < SECS_MIN || secs > SECS_MAX)
		return 0;
	days = secs / 86400;
	sod = secs % 86400;
	if (sod < 0) {
		sod += 86400;
		days--;
	}
	/* Days since 0000-03-01, positive for year >= 1. */
	z = (uint32_t)(days + 719468);
	era = z / 146097u;
	doe = z - era * 146097u;				/* [0, 146096] */
	yoe = (doe - doe / 1460u + doe / 36524u - doe / 146096u) / 365u;
	doy = doe - (365u * yoe + yoe / 4u - yoe / 100u);	/* [0, 365] */
	mp = (5u * doy + 2u) / 153u;				/* 0 = March */
	dd = doy - (153u * mp + 2u) / 5u + 1u;
	m = mp < 10u ? mp + 3u : mp - 9u;
	y = yoe + era * 400u + (m <= 2u);

	/* YYYY-MM-DDTHH:MM:SSZ: each field after the year, its separator
	 * before it */
	const uint32_t f[5] = { m, dd, (uint32_t)sod / 3600u,
	    (uint32_t)sod / 60u % 60u, (uint32_t)sod % 60u };

	num_put2(out, y / 100u);
	num_put2(out + 2, y % 100u);
	for (i = 0; i < 5; i++) {
		out[4 + 3 * i] = "--T::"[i];
		num_put2(out + 5 + 3 * i, f[i]);
	}
	out[19] = 'Z';
	return 20;
}

/* ---- the JSON number grammar ----------------------------------------- */

int
jenc_json_number_ok(const char *p, size_t n)
{
	const char *end = p + n;

	if (p < end && *p == '-')
		p++;
	if (p == end)
		return 0;
	if (*p == '0') {
		p++;
	} else if ((unsigned)(*p - '1') < 9) {
		p++;
		while (p < end && (unsigned)(*p - '0') < 10)
			p++;
	} else {
		return 0;
	}
	if (p == end)
		return 1;
	if (*p == '.') {
		const char *d = ++p;

		while (p < end && (unsigned)(*p - '0') < 10)
			p++;
		if (p == d)
			return 0;
		if (p == end)
			return 1;
	}
	if (*p == 'e' || *p == 'E') {
		const char *d;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		d = p;
		while (p < end && (unsigned)(*p - '0') < 10)
			p++;
		if (p == d)
			return 0;
	}
	return p == end;
}
