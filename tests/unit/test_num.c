/*
 * test_num.c - unit tests for num.c: integers, doubles and times as text.
 *
 * Doubles are checked three ways against the C library: the text reads
 * back (strtod) as the same bits, it has the fewest significant digits
 * any decimal that reads back has (found with snprintf "%.*e"), and it is
 * laid out as Go's encoding/json lays out those digits.  Times are checked
 * against gmtime_r().
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "internal.h"

#define F64_OUT 32	/* bytes jenc_fmt_f64() may write */
#define CANARY 0x5a

static uint64_t rng_state = 0x2545f4914f6cdd1du;

/* splitmix64: a fixed sequence, so failures repeat. */
static uint64_t
rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static double
from_bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static uint64_t
to_bits(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	return b;
}

/* ---- integers ------------------------------------------------------- */

static void
test_ints(void)
{
	static const struct {
		int64_t v;
		const char *want;
	} i64[] = {
		{ 0, "0" }, { 1, "1" }, { -1, "-1" }, { 9, "9" }, { 10, "10" },
		{ -10, "-10" }, { 99, "99" }, { 100, "100" }, { 101, "101" },
		{ 4294967295, "4294967295" }, { 4294967296, "4294967296" },
		{ 99999999, "99999999" }, { 100000000, "100000000" },
		{ -100000000, "-100000000" },
		{ 1234567890123456789, "1234567890123456789" },
		{ INT64_MAX, "9223372036854775807" },
		{ -INT64_MAX, "-9223372036854775807" },
		{ INT64_MIN, "-9223372036854775808" },
	};
	static const struct {
		uint64_t v;
		const char *want;
	} u64[] = {
		{ 0, "0" }, { 7, "7" }, { 42, "42" },
		{ 9999999999999999999u, "9999999999999999999" },
		{ 10000000000000000000u, "10000000000000000000" },
		{ (uint64_t)INT64_MAX + 1, "9223372036854775808" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char buf[32], want[32];
	size_t i, n;
	uint64_t p10, bad_u = 0, bad_i = 0, first_u = 0;
	int64_t first_i = 0;
	int k, canary_ok = 1;

	TEST("jenc_fmt_i64 edge values") {
		for (i = 0; i < sizeof i64 / sizeof i64[0]; i++) {
			n = jenc_fmt_i64(buf, i64[i].v);
			CHECK_STR(buf, n, i64[i].want);
		}
	}
	TEST("jenc_fmt_u64 edge values") {
		for (i = 0; i < sizeof u64 / sizeof u64[0]; i++) {
			n = jenc_fmt_u64(buf, u64[i].v);
			CHECK_STR(buf, n, u64[i].want);
		}
	}
	TEST("jenc_fmt_u64 at every power of ten and one below") {
		/* 10^k and 10^k - 1 change the digit count. */
		p10 = 1;
		for (k = 0; k <= 19; k++, p10 *= 10) {
			snprintf(want, sizeof want, "%" PRIu64, p10);
			n = jenc_fmt_u64(buf, p10);
			CHECK_STR(buf, n, want);
			snprintf(want, sizeof want, "%" PRIu64, p10 - 1);
			n = jenc_fmt_u64(buf, p10 - 1);
			CHECK_STR(buf, n, want);
		}
	}
	TEST("jenc_fmt_u64 and jenc_fmt_i64 on 400000 random values") {
		for (i = 0; i < 200000; i++) {
			/* Random lengths: shift away 0..63 bits. */
			uint64_t u = rnd() >> (rnd() % 64);
			int64_t s = (int64_t)(rnd() >> (rnd() % 64));

			if (rnd() & 1)
				s = -s;
			memset(buf, CANARY, sizeof buf);
			n = jenc_fmt_u64(buf, u);
			snprintf(want, sizeof want, "%" PRIu64, u);
			if (n != strlen(want) || memcmp(buf, want, n) != 0) {
				if (bad_u++ == 0)
					first_u = u;
			}
			canary_ok &= buf[20] == CANARY;
			memset(buf, CANARY, sizeof buf);
			n = jenc_fmt_i64(buf, s);
			snprintf(want, sizeof want, "%" PRId64, s);
			if (n != strlen(want) || memcmp(buf, want, n) != 0) {
				if (bad_i++ == 0)
					first_i = s;
			}
			canary_ok &= buf[20] == CANARY;
		}
		if (bad_u)
			fprintf(stderr, "jenc_fmt_u64: %" PRIu64 " wrong, first "
			    "%" PRIu64 "\n", bad_u, first_u);
		if (bad_i)
			fprintf(stderr, "jenc_fmt_i64: %" PRIu64 " wrong, first "
			    "%" PRId64 "\n", bad_i, first_i);
		CHECK(bad_u == 0);
		CHECK(bad_i == 0);
		CHECK(canary_ok);	/* nothing written past 20 bytes */
	}
}

/* ---- doubles: exact cases --------------------------------------------- */

/* The expected texts are what Go's json.Marshal(float64) gives. */
static const struct {
	uint64_t bits;
	const char *want;
} f64_cases[] = {
	{ 0x0000000000000000u, "0" },
	{ 0x8000000000000000u, "-0" },
	{ 0x3ff0000000000000u, "1" },
	{ 0xbff0000000000000u, "-1" },
	{ 0x3fb999999999999au, "0.1" },
	{ 0x4059000000000000u, "100" },
	{ 0x444b1ae4d6e2ef50u, "1e+21" },
	{ 0x444b1ae4d6e2ef4fu, "999999999999999900000" },	/* below 1e21 */
	{ 0x4415af1d78b58c40u, "100000000000000000000" },	/* 1e20 */
	{ 0x441aabdf2145b430u, "123000000000000000000" },
	{ 0x3e7ad7f29abcaf48u, "1e-7" },
	{ 0x3e8091f16677e7afu, "1.23456789e-7" },
	{ 0x3ea0c6f7a0b5ed8du, "5e-7" },
	{ 0x3eb0c6f7a0b5ed8du, "0.000001" },
	{ 0x3eb0c6f7a0b5ed8cu, "9.999999999999997e-7" },	/* below 1e-6 */
	{ 0x3eb4b3fd5942cd96u, "0.000001234" },
	{ 0x3ee4f8b588e368f1u, "0.00001" },
	{ 0xbf1a36e2eb1c432du, "-0.0001" },
	{ 0x3f7cac083126e979u, "0.007" },
	{ 0x3ddb7cdfd9d7bdbbu, "1e-10" },
	{ 0x2b2bff2ee48e0530u, "1e-100" },
	{ 0x81a56e1fc2f8f359u, "-1e-300" },
	{ 0x390b860bde023111u, "6.62607015e-34" },
	{ 0x0000000000000001u, "5e-324" },		/* smallest subnormal */
	{ 0x0000000000000002u, "1e-323" },
	{ 0x0000000000000003u, "1.5e-323" },
	{ 0x0008000000000000u, "1.1125369292536007e-308" },
	{ 0x000fffffffffffffu, "2.225073858507201e-308" },	/* largest subnormal */
	{ 0x0010000000000000u, "2.2250738585072014e-308" },	/* smallest normal */
	{ 0x7fefffffffffffffu, "1.7976931348623157e+308" },	/* largest */
	{ 0x7fe0000000000000u, "8.98846567431158e+307" },	/* 2^1023 */
	{ 0x7fe1ccf385ebc8a0u, "1e+308" },
	{ 0x7e41eb2d66005835u, "1.5e+300" },
	{ 0x4480f0cf064dd592u, "1e+22" },
	{ 0x44b52d02c7e14af6u, "1e+23" },
	{ 0x4450bb084255acefu, "1.2345000000000001e+21" },
	{ 0x4450bb084255aceeu, "1.2345e+21" },
	{ 0x44dfe185ca57c517u, "6.02214076e+23" },
	{ 0x3fd3333333333333u, "0.3" },
	{ 0x3fd3333333333334u, "0.30000000000000004" },	/* 0.1 + 0.2 */
	{ 0x3fd5555555555555u, "0.3333333333333333" },
	{ 0x3fe5555555555555u, "0.6666666666666666" },
	{ 0x4040aaaaaaaaaaabu, "33.333333333333336" },
	{ 0x4004000000000000u, "2.5" },
	{ 0xc011666666666666u, "-4.35" },
	{ 0x405edd2f1a9fbe77u, "123.456" },
	{ 0x4028b0fcb4f1e4b4u, "12.345678" },
	{ 0x400921fb54442d18u, "3.141592653589793" },
	{ 0x4005bf0a8b145769u, "2.718281828459045" },
	{ 0x3ff0000000000001u, "1.0000000000000002" },
	{ 0x3fefffffffffffffu, "0.9999999999999999" },
	{ 0x41b1de784a000000u, "299792458" },
	{ 0x430c6bf526340000u, "1000000000000000" },
	{ 0x4330000000000000u, "4503599627370496" },		/* 2^52 */
	{ 0x4340000000000000u, "9007199254740992" },		/* 2^53 */
	{ 0x4340000000000001u, "9007199254740994" },
	{ 0x4341c37937e08000u, "10000000000000000" },
	{ 0x4376345785d8a000u, "100000000000000000" },
	{ 0x43d0000000000000u, "4611686018427388000" },	/* 2^62 */
	{ 0x43e0000000000000u, "9223372036854776000" },	/* 2^63 */
	{ 0x43f0000000000000u, "18446744073709552000" },	/* 2^64 */
};

static void
test_f64_cases(void)
{
	char buf[48];
	size_t i, n;

	TEST("jenc_fmt_f64 exact cases") {
		for (i = 0; i < sizeof f64_cases / sizeof f64_cases[0]; i++) {
			n = jenc_fmt_f64(buf, from_bits(f64_cases[i].bits));
			CHECK_STR(buf, n, f64_cases[i].want);
		}
	}
}

/* ---- doubles: the reference --------------------------------------------- */

/*
 * A decimal as a string of significant digits and the power of ten of
 * the first one: "125", 2 is 125, "125", -1 is 0.125.
 */
struct dec {
	char dig[24];
	int x;
};

/* |v| correctly rounded to m significant digits, by the C library. */
static void
rounded(double v, int m, struct dec *r)
{
	char buf[64], *s, *end;
	int j = 0;

	snprintf(buf, sizeof buf, "%.*e", m - 1, fabs(v));
	for (s = buf; *s != 'e'; s++)
		if (*s != '.')
			r->dig[j++] = *s;
	r->dig[j] = '\0';
	r->x = (int)strtol(s + 1, &end, 10);
}

/* Whether r reads back as |v|. */
static int
reads_back(double v, const struct dec *r)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%c.%se%d", r->dig[0], r->dig + 1, r->x);
	return to_bits(strtod(buf, NULL)) == to_bits(fabs(v));
}

/* r plus one unit in its last digit. */
static void
next_up(struct dec *r)
{
	int i = (int)strlen(r->dig) - 1;

	while (i >= 0 && r->dig[i] == '9')
		r->dig[i--] = '0';
	if (i >= 0) {
		r->dig[i]++;
	} else {
		r->dig[0] = '1';
		r->x++;
	}
}

/* A normal power of two above the smallest: the interval of reals that
 * round to it is narrower below than above. */
static int
lopsided(double v)
{
	uint64_t b = to_bits(v) & ~((uint64_t)1 << 63);

	return (b & ((((uint64_t)1) << 52) - 1)) == 0 && (b >> 52) > 1;
}

/*
 * The shortest decimal that reads back as v (v finite, not zero), closest
 * to v among those: try m = 1, 2, ... significant digits.  The closest
 * m-digit decimal is the correctly rounded one; where the interval around
 * v is lopsided the one above it may be in while it is not.
 *
 * hint, when not 0, is a length to try first.  Except where the interval
 * is lopsided, "some m-digit decimal reads back" is the same as "the
 * rounded m-digit one does", and it can only turn from false to true as m
 * grows; so hint is the answer if hint - 1 digits fail and hint succeed,
 * and the full search is run only when they do not.  Returns the length,
 * 0 if nothing up to 17 digits reads back.
 */
static int
ref_shortest(double v, int hint, struct dec *r)
{
	struct dec below;
	int m;

	if (hint >= 1 && hint <= 17 && !lopsided(v)) {
		if (hint > 1)
			rounded(v, hint - 1, &below);
		if (hint == 1 || !reads_back(v, &below)) {
			rounded(v, hint, r);
			if (reads_back(v, r))
				return hint;
		}
	}
	for (m = 1; m <= 17; m++) {
		rounded(v, m, r);
		if (reads_back(v, r))
			return m;
		if (lopsided(v)) {
			next_up(r);
			if (reads_back(v, r))
				return m;
		}
	}
	return 0;
}

/* Go's layout of -?r: 'e' form with a bare exponent, else plain. */
static void
ref_layout(char *out, int neg, const struct dec *r, int eform)
{
	int m = (int)strlen(r->dig), i;
	char *p = out;

	if (neg)
		*p++ = '-';
	if (eform) {
		*p++ = r->dig[0];
		if (m > 1) {
			*p++ = '.';
			for (i = 1; i < m; i++)
				*p++ = r->dig[i];
		}
		sprintf(p, "e%c%d", r->x < 0 ? '-' : '+', abs(r->x));
		return;
	}
	if (r->x < 0) {
		*p++ = '0';
		*p++ = '.';
		for (i = -1; i > r->x; i--)
			*p++ = '0';
		for (i = 0; i < m; i++)
			*p++ = r->dig[i];
	} else {
		for (i = 0; i <= r->x || i < m; i++) {
			if (i == r->x + 1)
				*p++ = '.';
			*p++ = i < m ? r->dig[i] : '0';
		}
	}
	*p = '\0';
}

/* Significant digits in a number's text: "-0.00120e5" has 2. */
static int
sig_digits(const char *s)
{
	const char *first = NULL, *last = NULL;

	for (; *s != '\0' && *s != 'e'; s++) {
		if (*s < '1' || *s > '9')
			continue;
		if (first == NULL)
			first = s;
		last = s;
	}
	if (first == NULL)
		return 0;
	/* Count digits between, skipping a point. */
	{
		int n = 0;

		for (s = first; s <= last; s++)
			n += *s != '.';
		return n;
	}
}

/* What can go wrong with one double, as bits of check_f64()'s result. */
enum {
	BAD_READBACK = 1,	/* strtod of the text is not v */
	BAD_SHORTEST = 2,	/* a shorter decimal reads back */
	BAD_LAYOUT = 4,		/* not Go's text for those digits */
	BAD_BOUNDS = 8,		/* wrote past 32 bytes or returned > 25 */
	BAD_KINDS = 4
};

struct tally {
	const char *name;
	long count;
	long bad[BAD_KINDS];
	uint64_t first[BAD_KINDS];	/* bits of the first failing value */
};

/* Check jenc_fmt_f64(v); full forces the slow shortest search. */
static void
check_f64(struct tally *t, double v, int full)
{
	/* the doubles 1e-6 and 1e21: a literal in a comparison may have
	 * greater precision (x87), where 1e-6 is above the double 1e-6 */
	static const double lo = 1e-6, hi = 1e21;
	char buf[F64_OUT + 16], text[F64_OUT + 1], want[64];
	struct dec r;
	size_t n, i;
	int m, bad = 0, k;

	memset(buf, CANARY, sizeof buf);
	n = jenc_fmt_f64(buf, v);
	for (i = F64_OUT; i < sizeof buf; i++)
		if ((unsigned char)buf[i] != CANARY)
			bad |= BAD_BOUNDS;
	if (n > 25)
		bad |= BAD_BOUNDS;
	if (n > F64_OUT)
		n = F64_OUT;
	memcpy(text, buf, n);
	text[n] = '\0';

	if (to_bits(strtod(text, NULL)) != to_bits(v))
		bad |= BAD_READBACK;
	if (v == 0) {
		if (strcmp(text, signbit(v) ? "-0" : "0") != 0)
			bad |= BAD_LAYOUT;
	} else {
		m = ref_shortest(v, full ? 0 : sig_digits(text), &r);
		if (m == 0 || sig_digits(text) != m)
			bad |= BAD_SHORTEST;
		ref_layout(want, signbit(v) != 0, &r,
		    fabs(v) < lo || fabs(v) >= hi);
		if (m == 0 || strcmp(text, want) != 0)
			bad |= BAD_LAYOUT;
	}
	t->count++;
	for (k = 0; k < BAD_KINDS; k++) {
		if (bad & (1 << k) && t->bad[k]++ == 0)
			t->first[k] = to_bits(v);
	}
}

/* One CHECK per kind of failure, with the first failing value. */
static void
report(const struct tally *t)
{
	static const char *what[BAD_KINDS] = {
		"does not read back", "is not the shortest",
		"is not laid out as Go does", "writes out of bounds",
	};
	char buf[F64_OUT];
	size_t n;
	int k;

	for (k = 0; k < BAD_KINDS; k++) {
		if (t->bad[k] == 0)
			continue;
		n = jenc_fmt_f64(buf, from_bits(t->first[k]));
		fprintf(stderr, "%s: %ld of %ld %s; first %.17g "
		    "(bits %016" PRIx64 ") gave [%.*s]\n", t->name, t->bad[k],
		    t->count, what[k], from_bits(t->first[k]), t->first[k],
		    (int)(n > F64_OUT ? F64_OUT : n), buf);
	}
	CHECK(t->count > 0 && t->bad[0] == 0);	/* reads back */
	CHECK(t->count > 0 && t->bad[1] == 0);	/* shortest */
	CHECK(t->count > 0 && t->bad[2] == 0);	/* layout */
	CHECK(t->count > 0 && t->bad[3] == 0);	/* bounds */
}

/* A finite double from random bits. */
static double
rnd_bits_double(void)
{
	uint64_t b;

	do
		b = rnd();
	while ((b >> 52 & 0x7ff) == 0x7ff);
	return from_bits(b);
}

/* Doubles as JSON tends to hold them. */
static double
rnd_typical_double(void)
{
	double v;

	switch (rnd() % 6) {
	case 0:		/* [0, 1) */
		v = (double)(rnd() >> 11) / 9007199254740992.0;
		break;
	case 1:		/* integers up to 2^53 and a bit beyond */
		v = (double)(rnd() >> (rnd() % 64));
		break;
	case 2:		/* short decimals: prices, coordinates */
		v = (double)(rnd() % 100000000u) / pow(10, (double)(rnd() % 10));
		break;
	case 3:		/* magnitudes either side of 1e-6 and 1e21 */
		v = ldexp((double)(rnd() >> 11) / 9007199254740992.0 + 0.5,
		    (int)(rnd() % 100) - 40 + (rnd() & 1 ? -10 : 50));
		break;
	case 4:		/* any magnitude, log-uniform */
		v = pow(10, (double)(rnd() % 60000) / 100.0 - 300);
		break;
	default:	/* ratios of small integers */
		v = (double)(rnd() % 1000 + 1) / (double)(rnd() % 999 + 1);
		break;
	}
	return rnd() & 1 ? -v : v;
}

static void
test_f64_random(void)
{
	struct tally bits = { "random bit patterns", 0, { 0 }, { 0 } };
	struct tally typical = { "typical values", 0, { 0 }, { 0 } };
	struct tally slow = { "full digit search", 0, { 0 }, { 0 } };
	struct tally pow2 = { "powers of two and neighbours", 0, { 0 }, { 0 } };
	struct tally sub = { "subnormals", 0, { 0 }, { 0 } };
	uint64_t e, c;
	long i;

	TEST("jenc_fmt_f64 on 500000 random bit patterns") {
		for (i = 0; i < 500000; i++)
			check_f64(&bits, rnd_bits_double(), 0);
		report(&bits);
	}
	TEST("jenc_fmt_f64 on 500000 typical values") {
		for (i = 0; i < 500000; i++)
			check_f64(&typical, rnd_typical_double(), 0);
		report(&typical);
	}
	TEST("jenc_fmt_f64 against the full digit search") {
		/* The search above starts at our length; here it does not. */
		for (i = 0; i < 10000; i++) {
			check_f64(&slow, rnd_bits_double(), 1);
			check_f64(&slow, rnd_typical_double(), 1);
		}
		report(&slow);
	}
	TEST("jenc_fmt_f64 at every power of two") {
		/* Each exponent with significand 0 (a lopsided interval
		 * above the smallest normal), its neighbours, and -0/+0. */
		for (e = 0; e <= 0x7fe; e++) {
			uint64_t b = e << 52;

			check_f64(&pow2, from_bits(b), 1);
			check_f64(&pow2, from_bits(b | (uint64_t)1 << 63), 1);
			check_f64(&pow2, from_bits(b + 1), 1);
			if (b != 0)
				check_f64(&pow2, from_bits(b - 1), 1);
		}
		report(&pow2);
	}
	TEST("jenc_fmt_f64 on subnormals") {
		for (c = 1; c <= 20000; c++)
			check_f64(&sub, from_bits(c), 0);
		for (i = 0; i < 20000; i++)
			check_f64(&sub, from_bits(rnd() >> 12), 0);
		for (i = 0; i < 52; i++)
			check_f64(&sub, from_bits((uint64_t)1 << i), 1);
		report(&sub);
	}
}

/* ---- time ------------------------------------------------------------- */

#define SECS_MIN (-62135596800LL)	/* 0001-01-01T00:00:00Z */
#define SECS_MAX 253402300799LL		/* 9999-12-31T23:59:59Z */

static void
put_num(char *p, int v, int width)
{
	while (width-- > 0) {
		p[width] = (char)('0' + v % 10);
		v /= 10;
	}
}

/* gmtime_r's view of secs in our layout; 0 if it cannot say. */
static int
ref_time(char *out, int64_t secs)
{
	time_t t = (time_t)secs;
	struct tm tm;

	if ((int64_t)t != secs || gmtime_r(&t, &tm) == NULL)
		return 0;
	memcpy(out, "0000-00-00T00:00:00Z", 20);
	put_num(out, tm.tm_year + 1900, 4);
	put_num(out + 5, tm.tm_mon + 1, 2);
	put_num(out + 8, tm.tm_mday, 2);
	put_num(out + 11, tm.tm_hour, 2);
	put_num(out + 14, tm.tm_min, 2);
	put_num(out + 17, tm.tm_sec, 2);
	return 1;
}

struct time_tally {
	long count, bad;
	int64_t first;
};

static void
check_time(struct time_tally *t, int64_t secs)
{
	char got[32], want[20];
	size_t n;

	if (!ref_time(want, secs))
		return;		/* time_t too narrow for secs */
	t->count++;
	n = jenc_fmt_time_utc(got, secs);
	if (n != 20 || memcmp(got, want, 20) != 0) {
		if (t->bad++ == 0)
			t->first = secs;
	}
}

static void
report_time(const char *name, const struct time_tally *t)
{
	char got[32], want[20];
	size_t n;

	if (t->bad) {
		n = jenc_fmt_time_utc(got, t->first);
		ref_time(want, t->first);
		fprintf(stderr, "%s: %ld of %ld wrong; first %" PRId64
		    " gave [%.*s], want [%.20s]\n", name, t->bad, t->count,
		    t->first, (int)(n > 20 ? 20 : n), got, want);
	}
	CHECK(t->count > 0 && t->bad == 0);
}

static void
test_time(void)
{
	static const struct {
		int64_t secs;
		const char *want;
	} cases[] = {
		{ 0, "1970-01-01T00:00:00Z" },
		{ -1, "1969-12-31T23:59:59Z" },
		{ 86399, "1970-01-01T23:59:59Z" },
		{ 86400, "1970-01-02T00:00:00Z" },
		{ -86400, "1969-12-31T00:00:00Z" },
		{ -86401, "1969-12-30T23:59:59Z" },
		{ 951782400, "2000-02-29T00:00:00Z" },
		{ 1000000000, "2001-09-09T01:46:40Z" },
		{ 2147483647, "2038-01-19T03:14:07Z" },
		{ -2147483648LL, "1901-12-13T20:45:52Z" },
		{ 4107542400, "2100-03-01T00:00:00Z" },	/* 2100 not leap */
		{ -2203891200, "1900-03-01T00:00:00Z" },	/* 1900 not leap */
		{ -62104147200, "0001-12-31T00:00:00Z" },
		{ -30610224000, "1000-01-01T00:00:00Z" },
		{ 253402214400, "9999-12-31T00:00:00Z" },
		{ SECS_MIN, "0001-01-01T00:00:00Z" },
		{ SECS_MAX, "9999-12-31T23:59:59Z" },
	};
	static const int64_t outside[] = {
		SECS_MIN - 1, SECS_MAX + 1, SECS_MIN - 86400, SECS_MAX + 86400,
		INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1,
		-100000000000000LL, 100000000000000LL,
	};
	struct time_tally days = { 0, 0, 0 }, random = { 0, 0, 0 };
	char buf[32];
	size_t i, n;
	int64_t d, first_day = SECS_MIN / 86400, last_day = SECS_MAX / 86400;
	long zero_bad = 0;

	TEST("jenc_fmt_time_utc exact cases") {
		for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			n = jenc_fmt_time_utc(buf, cases[i].secs);
			CHECK_STR(buf, n, cases[i].want);
		}
	}
	TEST("jenc_fmt_time_utc returns 0 outside years 1..9999") {
		for (i = 0; i < sizeof outside / sizeof outside[0]; i++) {
			memset(buf, CANARY, sizeof buf);
			n = jenc_fmt_time_utc(buf, outside[i]);
			CHECK_EQ(n, 0);
		}
		for (i = 0; i < 100000; i++) {
			uint64_t r = rnd() >> (rnd() % 64);

			zero_bad += jenc_fmt_time_utc(buf,
			    SECS_MIN - 1 - (int64_t)(r >> 1)) != 0;
			zero_bad += jenc_fmt_time_utc(buf,
			    SECS_MAX + 1 + (int64_t)(r >> 1)) != 0;
		}
		CHECK_EQ(zero_bad, 0);
	}
	TEST("jenc_fmt_time_utc on every day of years 1..9999") {
		/* Midnight, a second that moves through the day and, every
		 * seventh day, the last second. */
		for (d = first_day; d <= last_day; d++) {
			check_time(&days, d * 86400);
			check_time(&days, d * 86400 + (d * 7919 % 86400 + 86400) %
			    86400);
			if (d % 7 == 0)
				check_time(&days, d * 86400 + 86399);
		}
		report_time("every day", &days);
	}
	TEST("jenc_fmt_time_utc on 500000 random seconds") {
		uint64_t span = (uint64_t)(SECS_MAX - SECS_MIN) + 1;

		for (i = 0; i < 500000; i++)
			check_time(&random, SECS_MIN + (int64_t)(rnd() % span));
		report_time("random seconds", &random);
	}
}

int
main(void)
{
	test_ints();
	test_f64_cases();
	test_f64_random();
	test_time();
	return harness_done();
}
