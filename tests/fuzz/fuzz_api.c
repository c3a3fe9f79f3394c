/*
 * fuzz_api.c - libFuzzer harness for the encoder API: the input is a
 * sequence of calls on one encoder, checked against a model of what the
 * encoder must accept and refuse.
 *
 * Input: two option bytes, then operations.
 *	byte 0: bit 0 sink encoder (else memory); bits 1-2 layout: compact,
 *		indent N, tab, compact; bit 3 JENC_HTML; bit 4 JENC_ASCII;
 *		bit 5 JENC_LOWER_HEX; bit 6 JENC_NO_NEWLINE; bit 7 JENC_HOLD
 *	byte 1: bits 0-3 N - 1; bits 4-5 hold_max: 0 (1 MiB), 1, 64, 5000;
 *		bits 6-7 K: the sink fails from its Kth call on (0: never)
 *	then one byte per operation (its value modulo NOPS, see enum op),
 *	followed by the operation's argument bytes (see gen_*()).
 *
 * The model knows the open containers, whether a key is due, whether a
 * top-level value was completed (JENC_NO_NEWLINE) and the sticky error.
 * From it each call has a set of allowed results (two when the call is
 * wrong in two ways and either check may come first); the library must
 * return one of them, and once a call failed every later call must
 * return the same code until jenc_reset() or jenc_discard().
 *
 * Output is collected in "documents": what left the encoder (sink calls,
 * jenc_take()) between resets.  A document is checked when it ends unless
 * it was tainted: a sink failure, bytes of an unfinished value that left
 * the encoder before jenc_reset()/jenc_discard() dropped the rest, or
 * containers still open at jenc_release().  A checked document must be
 * accepted by jenc_json_copy_mem, obey JENC_HTML/JENC_ASCII, be a fixpoint
 * of the reader in the same output mode, and (JENC_NO_NEWLINE) hold at
 * most one value.
 *
 * Each value call is also made on a fresh compact memory encoder with the
 * same escape flags and its text checked exactly: integers as printf
 * prints them, times against an independent civil-date conversion,
 * doubles by round trip, Go's choice of exponent form and shortness, and
 * strings by decoding them back to the code points given.  String and
 * key calls are made once more with JENC_COLOR and JENC_SORT_KEYS (chosen
 * from the string's length), in an object with a second member "m":
 * less the color escapes, the output is the plain one's, its members in
 * key order (either order for a raw key, which is not validated).
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "jenc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum op {
	OP_OBJ_BEGIN, OP_OBJ_END, OP_ARR_BEGIN, OP_ARR_END, OP_KEY, OP_STR,
	OP_RAW_STR, OP_RAW_KEY, OP_RAW, OP_I64, OP_U64, OP_F64, OP_BOOL,
	OP_NULL, OP_TIME_UTC, OP_TIME_UNIX, OP_KV_STR, OP_KV_I64, OP_KV_U64,
	OP_KV_F64, OP_KV_BOOL, OP_KV_NULL, OP_KV_TIME_UTC, OP_KV_TIME_UNIX,
	OP_FLUSH, OP_RESET, OP_DISCARD, OP_TAKE, OP_QUERY, OP_TRIM, NOPS
};

#define BIT(code) (1u << (unsigned)-(code))
#define TIME_MIN INT64_C(-62135596800)	/* 0001-01-01T00:00:00Z */
#define TIME_MAX INT64_C(253402300799)	/* 9999-12-31T23:59:59Z */

struct src {
	const uint8_t *p;
	size_t n, i;
};

struct sink {
	fz_buf *doc;
	unsigned calls, fail_at;
	int failed;	/* the sink refused bytes during the current call */
	int ever;	/* ... during any call */
};

static struct state {
	jenc_enc *e;
	jenc_opts o;
	int is_sink;
	int hold_big;		/* JENC_HOLD with hold_max 1 MiB: the sink
				   gets whole values, unless one outgrows it */
	struct sink sk;
	fz_buf doc;
	/* model */
	unsigned char *stk;	/* 'o' or 'a' per open container */
	size_t depth, cap;
	int key_due, top_done, err, taint, exposed;
	int releasing;		/* finishing the last document */
	int cut_out;		/* bytes left while a value was unfinished;
				   its tail may still be held */
	size_t doc_at_value;
	size_t value_pos;	/* output offset where the unfinished top-level
				   value begins: out + held before it */
	const char *what;	/* the current call, for messages */
} S;

static fz_buf sbuf, ebuf;

/* ---- input ---- */

static uint8_t
u8(struct src *s)
{
	return s->i < s->n ? s->p[s->i++] : 0;
}

static uint64_t
u64(struct src *s)
{
	uint64_t v = 0;
	int k;

	for (k = 0; k < 8; k++)
		v = v << 8 | u8(s);
	return v;
}

static const char *const text_pieces[] = {
	"a", "Z", "0", " ", "\"", "\\", "/", "\b", "\f", "\n", "\r", "\t",
	"\x01", "\x1f", "\x7f", "<", ">", "&", "'", "\xc3\xa9",
	"\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x82\xac", "\xef\xbf\xbf",
	"\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xc2\x80", "\xed\x9f\xbf",
	"\xee\x80\x80", "\xef\xbb\xbf", "u", "\\u0041",
};

static const char *const body_pieces[] = {
	"a", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
	"\\u0000", "\\u001F", "\\u00e9", "\\u00E9", "\\u2028",
	"\\uD83D\\uDE00", "\\ud800", "\\uDFFF", "<", ">", "&", "\xc3\xa9",
	"\xe2\x80\xa8", "\xe2\x80\xa9", "\xf0\x9f\x98\x80", "\x7f", "'",
	"\xef\xbb\xbf", "u", "\\u003c", "0", "/",
};

static const char *const raw_scalars[] = {
	"0", "-0", "1", "-1", "1.0", "1e400", "-1.5E-7", "0.1e+2",
	"123456789012345678901234567890", "true", "false", "null", "\"\"",
	"\"a\\u0041\\n\"", "\"\\/\"", "\"x y\"",
};

#define NELEM(a) (sizeof(a) / sizeof(*(a)))

/* Text for jenc_str/jenc_key: length byte, bit 7 set = raw input bytes
 * (maybe invalid UTF-8), else pieces of valid UTF-8. */
static size_t
gen_text(struct src *s, char *out)
{
	uint8_t h = u8(s);
	size_t len = h & 0x3f, k, n = 0;

	if (h & 0x80) {
		for (k = 0; k < len && s->i < s->n; k++)
			out[n++] = (char)u8(s);
		return n;
	}
	for (k = 0; k < len; k++) {
		const char *pc = text_pieces[u8(s) % NELEM(text_pieces)];

		memcpy(out + n, pc, strlen(pc));
		n += strlen(pc);
	}
	return n;
}

/* Valid JSON string content for jenc_raw_str/jenc_raw_key. */
static size_t
gen_body(struct src *s, char *out)
{
	size_t len = u8(s) & 0x3f, k, n = 0;

	for (k = 0; k < len; k++) {
		const char *pc = body_pieces[u8(s) % NELEM(body_pieces)];

		memcpy(out + n, pc, strlen(pc));
		n += strlen(pc);
	}
	return n;
}

/* A valid JSON scalar for jenc_raw: from a table or a generated number. */
static size_t
gen_raw(struct src *s, char *out)
{
	uint8_t sel = u8(s), b;
	size_t n = 0, k;

	if (sel < 64) {
		const char *r = raw_scalars[sel % NELEM(raw_scalars)];

		memcpy(out, r, strlen(r));
		return strlen(r);
	}
	b = u8(s);
	if (b & 1)
		out[n++] = '-';
	if (b & 2) {
		out[n++] = '0';
	} else {
		out[n++] = (char)('1' + u8(s) % 9);
		for (k = (b >> 2) & 7; k > 0; k--)
			out[n++] = (char)('0' + u8(s) % 10);
	}
	if (b & 0x20) {
		out[n++] = '.';
		for (k = 1 + (u8(s) & 7); k > 0; k--)
			out[n++] = (char)('0' + u8(s) % 10);
	}
	if (b & 0x40) {
		out[n++] = b & 0x80 ? 'E' : 'e';
		if (sel & 1)
			out[n++] = sel & 2 ? '-' : '+';
		for (k = 1 + (u8(s) & 3); k > 0; k--)
			out[n++] = (char)('0' + u8(s) % 10);
	}
	return n;
}

static double
gen_f64(struct src *s)
{
	static const double table[] = {
		0.0, -0.0, 1e-6, 9.999999999999999e-7, 1e21, 1e20,
		999999999999999900000.0, 5e-324, DBL_MAX, DBL_MIN, 0.1,
		1.0 / 3, 100, 1e-7, 123456789012345680000.0, -2.5e-8,
		0.000001, 1e22, 1e23, 9007199254740993.0,
	};
	uint8_t sel = u8(s);
	uint64_t bits;
	unsigned hi, lo;
	double v;

	switch (sel % 4) {
	case 0:
		bits = u64(s);
		memcpy(&v, &bits, sizeof(v));
		return v;
	case 1:
		return table[u8(s) % NELEM(table)];
	case 2:
		switch (u8(s) % 4) {
		case 0:
			return NAN;
		case 1:
			return INFINITY;
		case 2:
			return -INFINITY;
		default:
			return -NAN;
		}
	default:
		hi = u8(s);
		lo = u8(s);
		return (double)(int16_t)(hi << 8 | lo) / (double)(1 + u8(s));
	}
}

static int64_t
gen_time(struct src *s)
{
	static const int64_t edges[] = {
		TIME_MIN, TIME_MAX, TIME_MIN - 1, TIME_MAX + 1, 0, -1,
		951782400, INT64_MIN, INT64_MAX, 4102444800,
	};
	uint8_t sel = u8(s);
	uint64_t v = u64(s);

	switch (sel % 4) {
	case 0:
		return (int64_t)v;
	case 1:
		return TIME_MIN + (int64_t)(v % (uint64_t)(TIME_MAX - TIME_MIN +
		    1));
	case 2:
		return edges[v % NELEM(edges)];
	default:
		return (int32_t)(uint32_t)v;
	}
}

/* ---- oracles ---- */

/* "YYYY-MM-DDTHH:MM:SSZ" by Howard Hinnant's civil_from_days. */
static void
civil(char *out, size_t sz, int64_t secs)
{
	int64_t days = secs / 86400, rem = secs % 86400, z, era, doe, yoe,
	    y, doy, mp, d, m;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	if (m <= 2)
		y++;
	snprintf(out, sz, "\"%04" PRId64 "-%02" PRId64 "-%02" PRId64
	    "T%02" PRId64 ":%02" PRId64 ":%02" PRId64 "Z\"", y, m, d,
	    rem / 3600, rem / 60 % 60, rem % 60);
}

static jenc_enc *
scratch(void)
{
	jenc_opts so = { 0, 0, 0 };
	jenc_enc *e;

	so.flags = S.o.flags & (JENC_HTML | JENC_ASCII | JENC_LOWER_HEX);
	e = jenc_get_mem(&so);
	if (e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	return e;
}

/* Finish a scratch encoder: rc must be 0 (want != NULL) or bad; the
 * output (without its newline) goes to sbuf. */
static int
scratch_end(jenc_enc *e, int rc, int bad, const char *what)
{
	sbuf.len = 0;
	if (bad) {
		if (rc != bad)
			fz_fail("%s on a fresh encoder returned %d, not %d",
			    what, rc, bad);
		(void)jenc_release(e);
		return 0;
	}
	if (rc != 0)
		fz_fail("%s on a fresh encoder returned %d", what, rc);
	fz_take(e, &sbuf);
	if (jenc_release(e) != 0)
		fz_fail("%s: jenc_release failed", what);
	if (sbuf.len == 0 || sbuf.p[sbuf.len - 1] != '\n')
		fz_fail("%s: output does not end in a newline", what);
	sbuf.len--;
	return 1;
}

static void
scratch_exact(const char *want, const char *what)
{
	if (!fz_buf_eq(&sbuf, 0, want, strlen(want)))
		fz_fail("%s wrote '%.*s', expected '%s'", what,
		    (int)sbuf.len, sbuf.p, want);
}

static void
scratch_value(const char *what)
{
	const char *why;
	size_t where;

	if ((why = fz_flags_violation(sbuf.p, sbuf.len, S.o.flags,
	    &where)) != NULL)
		fz_fail("%s: %s at %zu", what, why, where);
	if (!fz_same_value(sbuf.p, sbuf.len, ebuf.p, ebuf.len, &where))
		fz_fail("%s wrote '%.*s', other than '%.*s'", what,
		    (int)sbuf.len, sbuf.p, (int)ebuf.len, ebuf.p);
}

/* s[0..n) on an encoder with colors and sorted keys; sbuf holds the
 * plain output of the same call (key: "{KEY:null}"). */
static void
check_shaped(const char *s, size_t n, int key, int raw, const char *what)
{
	static fz_buf t, want;
	jenc_opts so = { 0, 0, 0 };
	jenc_enc *e;
	size_t i, j;
	int rc, first = 1;

	so.flags = (S.o.flags & (JENC_HTML | JENC_ASCII | JENC_LOWER_HEX)) |
	    (n & 1 ? JENC_COLOR : 0) | (n & 2 ? 0 : JENC_SORT_KEYS);
	if ((e = jenc_get_mem(&so)) == NULL)
		fz_fail("jenc_get_mem returned NULL");
	if (key) {
		(void)jenc_obj_begin(e);
		(void)(raw ? jenc_raw_key(e, s, n) : jenc_key(e, s, n));
		(void)jenc_null(e);
		(void)jenc_kv_bool(e, "m", 1, 1);
		rc = jenc_obj_end(e);
	} else {
		rc = raw ? jenc_raw_str(e, s, n) : jenc_str(e, s, n);
	}
	if (rc != 0)
		fz_fail("%s with flags 0x%x returned %d", what, so.flags, rc);
	t.len = 0;
	fz_take(e, &t);
	(void)jenc_release(e);
	for (i = j = 0; i < t.len; i++) {	/* drop ESC [ ... m */
		if (t.p[i] == '\033') {
			while (i < t.len && t.p[i] != 'm')
				i++;
			continue;
		}
		t.p[j++] = t.p[i];
	}
	t.len = j;
	want.len = 0;
	if (!key) {
		fz_buf_add(&want, sbuf.p, sbuf.len);
		fz_buf_add(&want, "\n", 1);
	} else {
		/* sbuf is {KEY:null}: KEY is sbuf[1, len - 6) */
		if ((so.flags & JENC_SORT_KEYS) && raw) {
			first = !(t.len >= 5 && memcmp(t.p, "{\"m\":", 5) == 0);
		} else if (so.flags & JENC_SORT_KEYS) {
			int c = n > 0 ? memcmp(s, "m", 1) : 0;

			first = c < 0 || (c == 0 && n <= 1);
		}
		if (first) {
			fz_buf_add(&want, sbuf.p, sbuf.len - 1);
			fz_buf_add(&want, ",\"m\":true}\n", 11);
		} else {
			fz_buf_add(&want, "{\"m\":true,", 10);
			fz_buf_add(&want, sbuf.p + 1, sbuf.len - 1);
			fz_buf_add(&want, "\n", 1);
		}
	}
	if (t.len != want.len || memcmp(t.p, want.p, t.len) != 0)
		fz_fail("%s with flags 0x%x wrote '%.*s', less its colors not "
		    "'%.*s'", what, so.flags, (int)t.len, t.p, (int)want.len,
		    want.p);
}

static void
check_str(const char *s, size_t n, int key)
{
	const char *what = key ? "jenc_key" : "jenc_str";
	jenc_enc *e = scratch();
	int nul, ok = fz_utf8_valid(s, n, &nul), rc;

	if (key) {
		(void)jenc_obj_begin(e);
		rc = jenc_key(e, s, n);
		if (rc == 0)
			(void)jenc_null(e);
		if (rc == 0)
			rc = jenc_obj_end(e);
	} else {
		rc = jenc_str(e, s, n);
	}
	if (ok && nul && rc == JENC_E_UTF8) {	/* NUL may be refused */
		(void)jenc_release(e);
		return;
	}
	if (!scratch_end(e, rc, ok ? 0 : JENC_E_UTF8, what))
		return;
	ebuf.len = 0;
	if (key)
		fz_buf_add(&ebuf, "{", 1);
	fz_json_quote(s, n, &ebuf);
	if (key)
		fz_buf_add(&ebuf, ":null}", 6);
	scratch_value(what);
	check_shaped(s, n, key, 0, what);
}

static void
check_raw_str(const char *b, size_t n, int key)
{
	const char *what = key ? "jenc_raw_key" : "jenc_raw_str";
	jenc_enc *e = scratch();
	int rc;

	if (key) {
		(void)jenc_obj_begin(e);
		rc = jenc_raw_key(e, b, n);
		if (rc == 0)
			(void)jenc_null(e);
		if (rc == 0)
			rc = jenc_obj_end(e);
	} else {
		rc = jenc_raw_str(e, b, n);
	}
	scratch_end(e, rc, 0, what);
	ebuf.len = 0;
	fz_buf_add(&ebuf, key ? "{\"" : "\"", key ? 2 : 1);
	fz_buf_add(&ebuf, b, n);
	fz_buf_add(&ebuf, key ? "\":null}" : "\"", key ? 7 : 1);
	scratch_value(what);
	check_shaped(b, n, key, 1, what);
}

static size_t
sig_digits(const char *t, size_t n)
{
	char d[40];
	size_t k = 0, i, a = 0;

	for (i = 0; i < n && t[i] != 'e' && t[i] != 'E'; i++)
		if (t[i] >= '0' && t[i] <= '9' && k < sizeof(d))
			d[k++] = t[i];
	while (a < k && d[a] == '0')
		a++;
	while (k > a && d[k - 1] == '0')
		k--;
	return k - a;
}

static void
check_f64(double v)
{
	jenc_enc *e = scratch();
	int rc = jenc_f64(e, v);
	char t[64], shorter[64], *end, *ex;
	double back, av = fabs(v);
	size_t d;

	if (!scratch_end(e, rc, isfinite(v) ? 0 : JENC_E_NUMBER, "jenc_f64"))
		return;
	if (sbuf.len == 0 || sbuf.len >= sizeof(t))
		fz_fail("jenc_f64(%a) wrote %zu bytes", v, sbuf.len);
	memcpy(t, sbuf.p, sbuf.len);
	t[sbuf.len] = '\0';
	if (!fz_valid(t, sbuf.len, JENC_READ_SINGLE) ||
	    !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9')))
		fz_fail("jenc_f64(%a) wrote '%s', not a JSON number", v, t);
	back = strtod(t, &end);
	if (*end != '\0' || memcmp(&back, &v, sizeof(v)) != 0)
		fz_fail("jenc_f64(%a) wrote '%s', which reads back as %a", v, t,
		    back);
	ex = strchr(t, 'e');
	if ((ex != NULL) != (v != 0 && (av < 1e-6 || av >= 1e21)))
		fz_fail("jenc_f64(%.17g) wrote '%s': Go uses the exponent form "
		    "exactly below 1e-6 and from 1e21", v, t);
	if (ex != NULL && !((ex[1] == '-' || ex[1] == '+') && ex[2] >= '1' &&
	    ex[2] <= '9'))
		fz_fail("jenc_f64(%.17g) wrote '%s': exponent not like Go's "
		    "e-7 / e+21", v, t);
	if (strchr(t, '.') != NULL && (ex ? ex[-1] : t[sbuf.len - 1]) == '0')
		fz_fail("jenc_f64(%.17g) wrote '%s' with a trailing zero", v,
		    t);
	d = sig_digits(t, sbuf.len);
	if (d >= 2) {
		snprintf(shorter, sizeof(shorter), "%.*e", (int)d - 2, v);
		back = strtod(shorter, NULL);
		if (back == v)
			fz_fail("jenc_f64(%.17g) wrote '%s' but %s is shorter",
			    v, t, shorter);
	}
}

static void
check_int(int rc, jenc_enc *e, int bad, const char *want, const char *what)
{
	if (scratch_end(e, rc, bad, what))
		scratch_exact(want, what);
}

/* ---- the model ---- */

static size_t
doc_len(void)
{
	return S.doc.len;
}

static void
push(unsigned char c)
{
	if (S.depth == S.cap) {
		S.cap = S.cap ? 2 * S.cap : 64;
		S.stk = realloc(S.stk, S.cap);
		if (S.stk == NULL)
			fz_fail("out of memory");
	}
	S.stk[S.depth++] = c;
}

static int
in_obj(void)
{
	return S.depth > 0 && S.stk[S.depth - 1] == 'o';
}

/* Errors a value (scalar or begin) would meet here. */
static unsigned
value_state(void)
{
	if (in_obj() && S.key_due)
		return BIT(JENC_E_STATE);
	if (S.depth == 0 && (S.o.flags & JENC_NO_NEWLINE) && S.top_done)
		return BIT(JENC_E_SECOND);
	return 0;
}

static unsigned
key_state(void)
{
	return in_obj() && S.key_due ? 0 : BIT(JENC_E_STATE);
}

static unsigned
allowed(unsigned state, unsigned content)
{
	if (S.err)
		return BIT(S.err);
	if (state | content)
		return state | content;
	return BIT(0);
}

/* Check rc against the allowed set; 1 if the call succeeded. */
static int
result(int rc, unsigned ok)
{
	int failed = S.sk.failed;

	S.sk.failed = 0;
	if (failed) {
		ok |= BIT(JENC_E_SINK);
		S.taint = 1;
	}
	if (rc > 0 || rc < -31 || !(BIT(rc) & ok))
		fz_fail("%s returned %d; allowed set 0x%x (sticky %d, depth "
		    "%zu)", S.what, rc, ok, S.err, S.depth);
	if (rc != 0) {
		if (S.err == 0)
			S.err = rc;
		if (rc == JENC_E_IO || rc == JENC_E_NOMEM || rc == JENC_E_SINK)
			S.taint = 1;
		return 0;
	}
	/* the call worked, though the sink failed while it ran: the
	 * error shows from the next call on */
	if (failed)
		S.err = JENC_E_SINK;
	return 1;
}

static void
value_done(void)
{
	if (S.depth == 0)
		S.top_done = 1;
	else if (in_obj())
		S.key_due = 1;
}

static void
begin(unsigned char c, size_t pos)
{
	if (S.depth == 0) {
		S.exposed = 0;
		S.doc_at_value = doc_len();
		S.value_pos = pos;
	}
	push(c);
	S.key_due = c == 'o';
}

static void
end(void)
{
	S.depth--;
	if (S.depth == 0)
		S.exposed = 0;
	value_done();
}

static void
model_fresh(void)
{
	S.depth = 0;
	S.key_due = S.top_done = S.err = S.exposed = S.cut_out = 0;
	S.doc_at_value = doc_len();
}

/* 1 if bytes of the unfinished top-level value left: more is out than
 * was out and held when it began (plus the newline that may precede it). */
static int
leaked(void)
{
	if (S.depth == 0)
		return 0;
	return S.exposed || doc_len() > S.value_pos + 1;
}

/* 1 if the encoder must still hold the unfinished value whole: JENC_HOLD
 * with 1 MiB and the value well below that so far. */
static int
held_whole(void)
{
	return S.hold_big && (S.depth == 0 || doc_len() + jenc_len(S.e) <
	    S.value_pos + 1048576 - 4096);
}

static int
sink_fn(void *ctx, const char *buf, size_t len)
{
	struct sink *sk = ctx;

	sk->calls++;
	if (sk->fail_at != 0 && sk->calls >= sk->fail_at) {
		sk->failed = sk->ever = 1;
		return 1;
	}
	fz_buf_add(sk->doc, buf, len);
	return 0;
}

/* Check the document that ends here and start a new one. */
static void
finish_doc(void)
{
	jenc_opts ro = S.o;
	jenc_read_opts rd = { 0 };
	jenc_err err;
	const char *why;
	size_t where;
	fz_buf re = { NULL, 0, 0 };
	/* jenc.h: release flushes what is held; jenc(3): not after an
	 * error, which can cut a finished value or its newline */
	const char *who = S.releasing && S.err ? "jenc_release after an "
	    "error left" : "the encoder wrote";

	/* A release after an error writes nothing more, so what the sink
	 * has may end inside a value (a jenc_take or flush exposed its start). */
	if (!S.taint && !(S.releasing && S.err)) {
		if (!fz_valid(S.doc.p, S.doc.len, 0))
			fz_fail("%s invalid JSON (%zu bytes, "
			    "flags 0x%x indent %u hold_max %zu, %s): '%.*s'",
			    who, S.doc.len, S.o.flags, S.o.indent, S.o.hold_max,
			    S.is_sink ? "sink" : "memory",
			    S.doc.len > 400 ? 400 : (int)S.doc.len, S.doc.p);
		if ((why = fz_flags_violation(S.doc.p, S.doc.len, S.o.flags,
		    &where)) != NULL)
			fz_fail("%s: %s at output offset %zu", who, why,
			    where);
		ro.flags &= ~(unsigned)JENC_HOLD;
		if (fz_json(S.doc.p, S.doc.len, &ro, &rd, &re, &err) != 0 ||
		    !fz_buf_eq(&re, 0, S.doc.p, S.doc.len))
			fz_fail("%s output that is not a fixpoint of the "
			    "reader in the same mode", who);
		if (S.o.flags & JENC_NO_NEWLINE) {
			ro.flags = 0;
			ro.indent = 0;
			if (fz_json(S.doc.p, S.doc.len, &ro, &rd, &re, &err) ||
			    fz_count_values(re.p, re.len) > 1)
				fz_fail("two values with JENC_NO_NEWLINE");
		} else if (S.doc.len && S.doc.p[S.doc.len - 1] != '\n') {
			fz_fail("%s output without its last newline", who);
		}
	}
	fz_buf_free(&re);
	S.doc.len = 0;
	S.taint = 0;
}

static void
take(void)
{
	size_t start = S.doc.len, it = 0, len, tl = 0, held = jenc_len(S.e);
	const char *seg;
	char *t;

	while ((seg = jenc_segments(S.e, &it, &len)) != NULL)
		fz_buf_add(&S.doc, seg, len);
	if (S.doc.len - start != held)
		fz_fail("jenc_segments gave %zu bytes, jenc_len %zu",
		    S.doc.len - start, held);
	t = jenc_take(S.e, &tl);
	if (t == NULL && held != 0) {
		if (S.err == 0)
			fz_fail("jenc_take returned NULL for %zu bytes", held);
		S.taint = 1;	/* lost bytes */
		return;
	}
	if (t != NULL && !fz_buf_eq(&S.doc, start, t, tl))
		fz_fail("jenc_take differs from jenc_segments");
	free(t);
	if (jenc_len(S.e) != 0)
		fz_fail("jenc_len %zu after jenc_take", jenc_len(S.e));
	if (S.depth > 0)
		S.exposed = 1;
	S.cut_out = S.depth > 0;
}

/* ---- operations ---- */

static void
step(struct src *s, unsigned op)
{
	/* 63 pieces of up to 6 (text) and 12 (body) bytes */
	static char t1[512], t2[512], b1[1024];
	char want[64];
	size_t n1, n2;
	unsigned st, ct;
	int64_t iv;
	uint64_t uv;
	double dv;
	int rc, r, nul, bad;
	jenc_enc *e;

	switch (op) {
	case OP_OBJ_BEGIN:
	case OP_ARR_BEGIN:
		S.what = op == OP_OBJ_BEGIN ? "jenc_obj_begin" :
		    "jenc_arr_begin";
		st = allowed(value_state(), 0);
		n1 = doc_len() + jenc_len(S.e);
		rc = op == OP_OBJ_BEGIN ? jenc_obj_begin(S.e) :
		    jenc_arr_begin(S.e);
		if (result(rc, st))
			begin(op == OP_OBJ_BEGIN ? 'o' : 'a', n1);
		break;
	case OP_OBJ_END:
	case OP_ARR_END:
		S.what = op == OP_OBJ_END ? "jenc_obj_end" : "jenc_arr_end";
		bad = S.depth == 0 || S.stk[S.depth - 1] !=
		    (op == OP_OBJ_END ? 'o' : 'a') ||
		    (op == OP_OBJ_END && !S.key_due);
		st = allowed(bad ? BIT(JENC_E_STATE) : 0, 0);
		rc = op == OP_OBJ_END ? jenc_obj_end(S.e) : jenc_arr_end(S.e);
		if (result(rc, st))
			end();
		break;
	case OP_KEY:
		S.what = "jenc_key";
		n1 = gen_text(s, t1);
		ct = fz_utf8_valid(t1, n1, &nul) ? 0 : BIT(JENC_E_UTF8);
		st = allowed(key_state(), ct);
		if (nul && S.err == 0)
			st |= BIT(JENC_E_UTF8);
		if (result(jenc_key(S.e, t1, n1), st))
			S.key_due = 0;
		check_str(t1, n1, 1);
		break;
	case OP_RAW_KEY:
		S.what = "jenc_raw_key";
		n1 = gen_body(s, b1);
		if (result(jenc_raw_key(S.e, b1, n1), allowed(key_state(), 0)))
			S.key_due = 0;
		check_raw_str(b1, n1, 1);
		break;
	case OP_STR:
	case OP_KV_STR:
		S.what = op == OP_STR ? "jenc_str" : "jenc_kv_str";
		n1 = gen_text(s, t1);
		ct = fz_utf8_valid(t1, n1, &nul) ? 0 : BIT(JENC_E_UTF8);
		if (op == OP_KV_STR) {
			n2 = gen_text(s, t2);
			if (!fz_utf8_valid(t2, n2, &r))
				ct |= BIT(JENC_E_UTF8);
			nul |= r;
			st = allowed(key_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = jenc_kv_str(S.e, t2, n2, t1, n1);
		} else {
			st = allowed(value_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = jenc_str(S.e, t1, n1);
		}
		if (result(rc, st))
			value_done();
		check_str(t1, n1, 0);
		break;
	case OP_RAW_STR:
		S.what = "jenc_raw_str";
		n1 = gen_body(s, b1);
		if (result(jenc_raw_str(S.e, b1, n1), allowed(value_state(),
		    0)))
			value_done();
		check_raw_str(b1, n1, 0);
		break;
	case OP_RAW:
		S.what = "jenc_raw";
		n1 = gen_raw(s, t1);
		if (result(jenc_raw(S.e, t1, n1), allowed(value_state(), 0)))
			value_done();
		e = scratch();
		rc = jenc_raw(e, t1, n1);
		t1[n1] = '\0';
		check_int(rc, e, 0, t1, "jenc_raw");
		break;
	case OP_I64:
	case OP_KV_I64:
	case OP_TIME_UNIX:
	case OP_KV_TIME_UNIX:
		iv = (int64_t)u64(s);
		S.what = "an integer call";
		if (op == OP_I64 || op == OP_TIME_UNIX) {
			rc = op == OP_I64 ? jenc_i64(S.e, iv) :
			    jenc_time_unix(S.e, iv);
			st = allowed(value_state(), 0);
		} else {
			n2 = gen_text(s, t2);
			ct = fz_utf8_valid(t2, n2, &nul) ? 0 : BIT(JENC_E_UTF8);
			st = allowed(key_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = op == OP_KV_I64 ? jenc_kv_i64(S.e, t2, n2, iv) :
			    jenc_kv_time_unix(S.e, t2, n2, iv);
		}
		if (result(rc, st))
			value_done();
		e = scratch();
		rc = op == OP_I64 || op == OP_KV_I64 ? jenc_i64(e, iv) :
		    jenc_time_unix(e, iv);
		snprintf(want, sizeof(want), "%" PRId64, iv);
		check_int(rc, e, 0, want, "jenc_i64/jenc_time_unix");
		break;
	case OP_U64:
	case OP_KV_U64:
		uv = u64(s);
		S.what = "jenc_u64";
		if (op == OP_U64) {
			st = allowed(value_state(), 0);
			rc = jenc_u64(S.e, uv);
		} else {
			n2 = gen_text(s, t2);
			ct = fz_utf8_valid(t2, n2, &nul) ? 0 : BIT(JENC_E_UTF8);
			st = allowed(key_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = jenc_kv_u64(S.e, t2, n2, uv);
		}
		if (result(rc, st))
			value_done();
		e = scratch();
		rc = jenc_u64(e, uv);
		snprintf(want, sizeof(want), "%" PRIu64, uv);
		check_int(rc, e, 0, want, "jenc_u64");
		break;
	case OP_F64:
	case OP_KV_F64:
		dv = gen_f64(s);
		S.what = "jenc_f64";
		ct = isfinite(dv) ? 0 : BIT(JENC_E_NUMBER);
		if (op == OP_F64) {
			st = allowed(value_state(), ct);
			rc = jenc_f64(S.e, dv);
		} else {
			n2 = gen_text(s, t2);
			if (!fz_utf8_valid(t2, n2, &nul))
				ct |= BIT(JENC_E_UTF8);
			st = allowed(key_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = jenc_kv_f64(S.e, t2, n2, dv);
		}
		if (result(rc, st))
			value_done();
		check_f64(dv);
		break;
	case OP_BOOL:
	case OP_KV_BOOL:
	case OP_NULL:
	case OP_KV_NULL:
		r = (int8_t)u8(s);
		S.what = "jenc_bool/jenc_null";
		if (op == OP_BOOL || op == OP_NULL) {
			st = allowed(value_state(), 0);
			rc = op == OP_BOOL ? jenc_bool(S.e, r) : jenc_null(S.e);
		} else {
			n2 = gen_text(s, t2);
			ct = fz_utf8_valid(t2, n2, &nul) ? 0 : BIT(JENC_E_UTF8);
			st = allowed(key_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = op == OP_KV_BOOL ? jenc_kv_bool(S.e, t2, n2, r) :
			    jenc_kv_null(S.e, t2, n2);
		}
		if (result(rc, st))
			value_done();
		e = scratch();
		if (op == OP_BOOL || op == OP_KV_BOOL)
			check_int(jenc_bool(e, r), e, 0, r ? "true" : "false",
			    "jenc_bool");
		else
			check_int(jenc_null(e), e, 0, "null", "jenc_null");
		break;
	case OP_TIME_UTC:
	case OP_KV_TIME_UTC:
		iv = gen_time(s);
		S.what = "jenc_time_utc";
		ct = iv >= TIME_MIN && iv <= TIME_MAX ? 0 : BIT(JENC_E_RANGE);
		if (op == OP_TIME_UTC) {
			st = allowed(value_state(), ct);
			rc = jenc_time_utc(S.e, iv);
		} else {
			n2 = gen_text(s, t2);
			if (!fz_utf8_valid(t2, n2, &nul))
				ct |= BIT(JENC_E_UTF8);
			st = allowed(key_state(), ct);
			if (nul && S.err == 0)
				st |= BIT(JENC_E_UTF8);
			rc = jenc_kv_time_utc(S.e, t2, n2, iv);
		}
		if (result(rc, st))
			value_done();
		e = scratch();
		rc = jenc_time_utc(e, iv);
		civil(want, sizeof(want), iv);
		check_int(rc, e, iv >= TIME_MIN && iv <= TIME_MAX ? 0 :
		    JENC_E_RANGE, want, "jenc_time_utc");
		break;
	case OP_FLUSH:
		S.what = "jenc_flush";
		if (result(jenc_flush(S.e), allowed(0, 0)) && S.is_sink) {
			if (!(S.o.flags & JENC_HOLD) && jenc_len(S.e) != 0)
				fz_fail("jenc_flush left %zu bytes held",
				    jenc_len(S.e));
			if (S.depth > 0 && !(S.o.flags & JENC_HOLD))
				S.exposed = 1;
			/* all out at top level; otherwise with JENC_HOLD
			 * (1 MiB) the finished values, not the current one */
			S.cut_out = S.depth == 0 ? 0 : held_whole() ?
			    S.exposed : 1;
			/* only whole values reach the sink */
			if (!S.taint && !S.exposed &&
			    (S.depth == 0 || held_whole()) &&
			    !fz_valid(S.doc.p, S.doc.len, 0))
				fz_fail("after jenc_flush the sink holds "
				    "invalid JSON (depth %zu), ending '%.*s'",
				    S.depth, (int)(S.doc.len > 300 ? 300 :
				    S.doc.len), S.doc.p + (S.doc.len > 300 ?
				    S.doc.len - 300 : 0));
		}
		break;
	case OP_RESET:
		/* the held bytes dropped may be the tail of a value whose
		 * head left: the caller's doing */
		if (leaked() || S.cut_out)
			S.taint = 1;
		jenc_reset(S.e);
		finish_doc();
		model_fresh();
		if (jenc_error(S.e) != 0 || jenc_depth(S.e) != 0)
			fz_fail("jenc_reset left error %d depth %u",
			    jenc_error(S.e), jenc_depth(S.e));
		break;
	case OP_DISCARD:
		n1 = doc_len();
		r = jenc_discard(S.e);
		if (r != 0 && r != 1)
			fz_fail("jenc_discard returned %d", r);
		if (S.depth == 0 && S.err == 0 && r != 0)
			fz_fail("jenc_discard with nothing open returned 1");
		if (r == 1 && !leaked() && !S.sk.ever)
			fz_fail("jenc_discard says part was written, but the "
			    "sink got nothing since the value began");
		if (r == 0 && S.depth > 0 && !S.exposed && leaked())
			fz_fail("jenc_discard returned 0, but %zu bytes of the "
			    "value had been written (flags 0x%x)",
			    doc_len() - S.value_pos, S.o.flags);
		if (r == 1 || (S.depth > 0 && S.exposed))
			S.taint = 1;
		S.depth = 0;
		S.key_due = S.err = S.exposed = 0;
		if (jenc_error(S.e) != 0 || jenc_depth(S.e) != 0)
			fz_fail("jenc_discard left error %d depth %u",
			    jenc_error(S.e), jenc_depth(S.e));
		break;
	case OP_TAKE:
		take();
		break;
	case OP_QUERY:
		/* a call failing in the sink may have been applied or not */
		if (S.err != JENC_E_SINK && jenc_depth(S.e) != S.depth)
			fz_fail("jenc_depth %u, expected %zu", jenc_depth(S.e),
			    S.depth);
		if (jenc_error(S.e) != S.err)
			fz_fail("jenc_error %d, expected %d", jenc_error(S.e),
			    S.err);
		if (jenc_strerror(S.err) == NULL || !*jenc_strerror(S.err))
			fz_fail("jenc_strerror(%d) is empty", S.err);
		break;
	case OP_TRIM:
		{
			jenc_pool_stats ps;

			jenc_pool_trim();
			jenc_pool_stats_get(&ps);
			if (ps.frees > ps.mallocs)
				fz_fail("pool stats: %llu frees > %llu mallocs",
				    (unsigned long long)ps.frees,
				    (unsigned long long)ps.mallocs);
		}
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t holds[4] = { 0, 1, 64, 5000 };
	static int trace = -1;	/* FUZZ_TRACE set: print each operation */
	struct src s = { data, size, 0 };
	unsigned b0, b1, want;
	int rc;

	if (size < 2)
		return 0;
	FZ_BEGIN();
	if (trace < 0)
		trace = getenv("FUZZ_TRACE") != NULL;
	if (S.e != NULL) {	/* left by an input that FUZZ_IGNORE dropped */
		(void)jenc_release(S.e);
		S.e = NULL;
	}
	b0 = u8(&s);
	b1 = u8(&s);
	memset(&S.o, 0, sizeof(S.o));
	S.is_sink = b0 & 1;
	if (((b0 >> 1) & 3) == 1)
		S.o.indent = 1 + (b1 & 15);
	else if (((b0 >> 1) & 3) == 2)
		S.o.flags |= JENC_TAB;
	S.o.flags |= (b0 & 0x08 ? JENC_HTML : 0) |
	    (b0 & 0x10 ? JENC_ASCII : 0) | (b0 & 0x20 ? JENC_LOWER_HEX : 0) |
	    (b0 & 0x40 ? JENC_NO_NEWLINE : 0) | (b0 & 0x80 ? JENC_HOLD : 0);
	S.o.hold_max = holds[(b1 >> 4) & 3];
	S.hold_big = (S.o.flags & JENC_HOLD) && S.o.hold_max == 0;
	S.doc.len = 0;
	S.sk.doc = &S.doc;
	S.sk.calls = 0;
	S.sk.failed = S.sk.ever = 0;
	S.sk.fail_at = S.is_sink ? b1 >> 6 : 0;
	S.taint = 0;
	model_fresh();
	S.e = S.is_sink ? jenc_get_sink(sink_fn, &S.sk, &S.o) :
	    jenc_get_mem(&S.o);
	if (S.e == NULL)
		fz_fail("jenc_get_%s returned NULL",
		    S.is_sink ? "sink" : "mem");

	while (s.i < s.n) {
		unsigned op = u8(&s) % NOPS;
		size_t before = doc_len();
		int whole = held_whole();

		step(&s, op);
		/* a full segment went out: it may end inside a value */
		if (op != OP_FLUSH && op != OP_TAKE && op != OP_RESET &&
		    doc_len() > before && !(whole && held_whole()))
			S.cut_out = 1;
		if (trace)
			fprintf(stderr, "op %2u: depth %zu err %d taint %d "
			    "exposed %d cut_out %d doc %zu (value from %zu) "
			    "held %zu\n", op, S.depth, S.err, S.taint,
			    S.exposed, S.cut_out, S.doc.len, S.doc_at_value,
			    S.e ? jenc_len(S.e) : 0);
	}

	if (!S.is_sink)
		take();
	if (S.depth > 0)
		S.taint = 1;
	S.what = "jenc_release";
	want = S.err ? BIT(S.err) : 0;
	if (S.depth > 0)
		want |= BIT(JENC_E_INCOMPLETE);
	if (want == 0)
		want = BIT(0);
	rc = jenc_release(S.e);
	S.e = NULL;
	(void)result(rc, want);
	S.releasing = 1;
	finish_doc();
	S.releasing = 0;
	return 0;
}
