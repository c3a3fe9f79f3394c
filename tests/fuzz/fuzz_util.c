/*
 * fuzz_util.c - helpers shared by the libFuzzer harnesses: buffers, an
 * independent decoder and indenter used as oracles, reader error checks
 * and a pipe feeder that makes reads return chosen chunks.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "width_tab.h"

jmp_buf fz_jmp;
static pthread_t fz_main;
static int fz_armed;

void
fz_begin(void)
{
	fz_main = pthread_self();
	fz_armed = 1;
}

void
fz_fail(const char *fmt, ...)
{
	static const char *ignore;
	static int looked;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!looked) {
		ignore = getenv("FUZZ_IGNORE");
		looked = 1;
	}
	if (ignore != NULL && fz_armed &&
	    pthread_equal(pthread_self(), fz_main)) {
		const char *a = ignore, *b;

		/* '|' separates the texts */
		for (; *a != '\0'; a = *b ? b + 1 : b) {
			char one[256];
			size_t k;

			b = strchr(a, '|');
			if (b == NULL)
				b = a + strlen(a);
			k = (size_t)(b - a) < sizeof(one) ? (size_t)(b - a) :
			    sizeof(one) - 1;
			memcpy(one, a, k);
			one[k] = '\0';
			if (k > 0 && strstr(msg, one) != NULL)
				longjmp(fz_jmp, 1);
		}
	}
	fprintf(stderr, "fuzz: property failed: %s\n", msg);
	abort();
}

void
fz_buf_add(fz_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (b->p == NULL)
			fz_fail("out of memory");
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

int
fz_buf_eq(const fz_buf *b, size_t from, const void *p, size_t n)
{
	if (from > b->len || b->len - from != n)
		return 0;
	return n == 0 || memcmp(b->p + from, p, n) == 0;
}

void
fz_buf_free(fz_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void
fz_take(jenc_enc *e, fz_buf *out)
{
	size_t it = 0, len, total = 0, held = jenc_len(e), tlen = 0;
	size_t start = out->len;
	const char *s;
	char *t;

	while ((s = jenc_segments(e, &it, &len)) != NULL) {
		fz_buf_add(out, s, len);
		total += len;
	}
	if (total != held)
		fz_fail("jenc_segments gave %zu bytes, jenc_len says %zu",
		    total, held);
	t = jenc_take(e, &tlen);
	if (t == NULL) {
		if (held != 0 && jenc_error(e) == 0)
			fz_fail("jenc_take returned NULL for %zu held bytes",
			    held);
		return;
	}
	if (!fz_buf_eq(out, start, t, tlen))
		fz_fail("jenc_take gave %zu bytes unlike the %zu of "
		    "jenc_segments", tlen, total);
	free(t);
	if (jenc_len(e) != 0)
		fz_fail("jenc_len is %zu after jenc_take", jenc_len(e));
}

int
fz_json(const char *p, size_t n, const jenc_opts *eo,
    const jenc_read_opts *ro, fz_buf *out, jenc_err *err)
{
	jenc_enc *e = jenc_get_mem(eo);
	int rc;

	if (e == NULL)
		fz_fail("jenc_get_mem returned NULL");
	if (p == NULL)
		p = "";
	out->len = 0;
	memset(err, 0, sizeof(*err));
	rc = jenc_json_copy_mem(p, n, e, ro, err);
	fz_take(e, out);
	if (rc == 0 && jenc_release(e) != 0)
		fz_fail("jenc_release failed after a successful copy");
	else if (rc != 0)
		(void)jenc_release(e);
	return rc;
}

int
fz_valid(const char *p, size_t n, unsigned rflags)
{
	jenc_read_opts ro = { .flags = rflags };
	jenc_err err;

	if (p == NULL)
		p = "";
	return jenc_json_copy_mem(p, n, NULL, &ro, &err) == 0;
}

static void
ref_newline(fz_buf *out, const char *u, size_t ulen, size_t depth)
{
	fz_buf_add(out, "\n", 1);
	while (depth-- > 0)
		fz_buf_add(out, u, ulen);
}

/* The loop of Go's json.Indent, on input that is already compact. */
void
fz_ref_indent(const char *c, size_t n, const char *u, size_t ulen,
    fz_buf *out)
{
	size_t depth = 0, i;
	int instr = 0, esc = 0, need = 0;

	for (i = 0; i < n; i++) {
		char ch = c[i];

		if (instr) {
			fz_buf_add(out, &ch, 1);
			if (esc)
				esc = 0;
			else if (ch == '\\')
				esc = 1;
			else if (ch == '"')
				instr = 0;
			continue;
		}
		if (ch == '\n') {	/* end of a top-level value */
			fz_buf_add(out, "\n", 1);
			continue;
		}
		if (need && ch != ']' && ch != '}') {
			need = 0;
			depth++;
			ref_newline(out, u, ulen, depth);
		}
		switch (ch) {
		case '{':
		case '[':
			need = 1;
			fz_buf_add(out, &ch, 1);
			break;
		case ',':
			fz_buf_add(out, ",", 1);
			ref_newline(out, u, ulen, depth);
			break;
		case ':':
			fz_buf_add(out, ": ", 2);
			break;
		case '}':
		case ']':
			if (need) {
				need = 0;
			} else {
				depth--;
				ref_newline(out, u, ulen, depth);
			}
			fz_buf_add(out, &ch, 1);
			break;
		case '"':
			instr = 1;
			fz_buf_add(out, &ch, 1);
			break;
		default:
			fz_buf_add(out, &ch, 1);
			break;
		}
	}
}

static int
hex4(const char *s, long *v)
{
	long x = 0;
	int k;

	for (k = 0; k < 4; k++) {
		char h = s[k];

		x <<= 4;
		if (h >= '0' && h <= '9')
			x |= h - '0';
		else if (h >= 'a' && h <= 'f')
			x |= h - 'a' + 10;
		else if (h >= 'A' && h <= 'F')
			x |= h - 'A' + 10;
		else
			return 0;
	}
	*v = x;
	return 1;
}

/* A UTF-8 decoder written from RFC 3629 for the oracle; -2 if invalid. */
static long
utf8_cp(const unsigned char *s, size_t n, size_t *i)
{
	unsigned char c = s[*i];
	size_t need, k;
	long cp, min;

	if (c < 0xc2 || c > 0xf4)
		return -2;
	if (c < 0xe0) {
		need = 1;
		cp = c & 0x1f;
		min = 0x80;
	} else if (c < 0xf0) {
		need = 2;
		cp = c & 0x0f;
		min = 0x800;
	} else {
		need = 3;
		cp = c & 0x07;
		min = 0x10000;
	}
	if (*i + need >= n)
		return -2;
	for (k = 1; k <= need; k++) {
		if ((s[*i + k] & 0xc0) != 0x80)
			return -2;
		cp = (cp << 6) | (s[*i + k] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -2;
	*i += need + 1;
	return cp;
}

/* Next code point of the string body at s[*i..n): -1 at the closing
 * quote, -2 on text that is not valid string content. */
static long
next_cp(const char *s, size_t n, size_t *i)
{
	unsigned char c;
	long v, w;

	if (*i >= n)
		return -2;
	c = (unsigned char)s[*i];
	if (c == '"') {
		(*i)++;
		return -1;
	}
	if (c < 0x20)
		return -2;
	if (c >= 0x80)
		return utf8_cp((const unsigned char *)s, n, i);
	if (c != '\\') {
		(*i)++;
		return c;
	}
	if (*i + 1 >= n)
		return -2;
	*i += 2;
	switch (s[*i - 1]) {
	case '"':
	case '\\':
	case '/':
		return s[*i - 1];
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	case 'n':
		return '\n';
	case 'r':
		return '\r';
	case 't':
		return '\t';
	case 'u':
		if (*i + 4 > n || !hex4(s + *i, &v))
			return -2;
		*i += 4;
		if (v >= 0xd800 && v <= 0xdbff && *i + 6 <= n &&
		    s[*i] == '\\' && s[*i + 1] == 'u' &&
		    hex4(s + *i + 2, &w) && w >= 0xdc00 && w <= 0xdfff) {
			*i += 6;
			return 0x10000 + ((v - 0xd800) << 10) + (w - 0xdc00);
		}
		return v;
	default:
		return -2;
	}
}

int
fz_same_value(const char *a, size_t an, const char *b, size_t bn,
    size_t *where)
{
	size_t i = 0, j = 0;

	while (i < an && j < bn) {
		if (a[i] != b[j])
			break;
		i++;
		j++;
		if (a[i - 1] == '"') {
			long x, y;

			do {
				x = next_cp(a, an, &i);
				y = next_cp(b, bn, &j);
			} while (x == y && x >= 0);
			if (x != y || x == -2)
				break;
		}
	}
	if (i == an && j == bn)
		return 1;
	*where = i;
	return 0;
}

const char *
fz_flags_violation(const char *p, size_t n, unsigned flags, size_t *where)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		*where = i;
		if ((flags & JENC_ASCII) && c >= 0x80)
			return "byte >= 0x80 with JENC_ASCII";
		if (!(flags & JENC_HTML))
			continue;
		if (c == '<' || c == '>' || c == '&')
			return "raw < > or & with JENC_HTML";
		if (c == 0xe2 && i + 2 < n && (unsigned char)p[i + 1] == 0x80 &&
		    ((unsigned char)p[i + 2] == 0xa8 ||
		    (unsigned char)p[i + 2] == 0xa9))
			return "raw U+2028 or U+2029 with JENC_HTML";
	}
	return NULL;
}

int
fz_utf8_valid(const char *s, size_t n, int *nul)
{
	size_t i = 0;

	*nul = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0)
			*nul = 1;
		if (c < 0x80)
			i++;
		else if (utf8_cp((const unsigned char *)s, n, &i) < 0)
			return 0;
	}
	return 1;
}

void
fz_json_quote(const char *s, size_t n, fz_buf *out)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	fz_buf_add(out, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			fz_buf_add(out, "\\", 1);
			fz_buf_add(out, &s[i], 1);
		} else if (c < 0x20) {
			char u[6] = { '\\', 'u', '0', '0', hx[c >> 4],
			    hx[c & 15] };

			fz_buf_add(out, u, 6);
		} else {
			fz_buf_add(out, &s[i], 1);
		}
	}
	fz_buf_add(out, "\"", 1);
}

size_t
fz_count_values(const char *c, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (c[i] == '\n')
			k++;
	return k;
}

/*
 * The excerpt's rendering of one character, as jenc.h describes it: the
 * character at p[i] takes *len bytes of input and is shown as out[0..*olen)
 * over *width display columns.  The character classes come from the same
 * generated Unicode table as err.c's (lib/width_tab.h); how they are
 * applied is written here again from jenc.h.
 */
static int
in_ranges(long cp, const struct cp_range *t, size_t nt)
{
	size_t k;

	for (k = 0; k < nt; k++)
		if (cp >= (long)t[k].lo && cp <= (long)t[k].hi)
			return 1;
	return 0;
}

#define IN_RANGES(cp, t) in_ranges((cp), (t), sizeof(t) / sizeof((t)[0]))

static void
excerpt_cell(const char *p, size_t n, size_t i, size_t *len,
    const char **out, size_t *olen, size_t *width)
{
	unsigned char c = (unsigned char)p[i];
	size_t k = i;
	long cp;

	*len = 1;
	*width = 1;
	*olen = 1;
	*out = p + i;
	if (c == '\t') {
		*out = " ";
		return;
	}
	if (c < 0x20 || c == 0x7f) {
		*out = "?";
		return;
	}
	if (c < 0x80)
		return;
	if ((cp = utf8_cp((const unsigned char *)p, n, &k)) < 0) {
		*out = "?";
		return;
	}
	*len = k - i;
	if (IN_RANGES(cp, unsafe_tab)) {
		*out = "?";
		return;
	}
	*olen = *len;
	if (IN_RANGES(cp, zero_tab))
		*width = 0;
	else if (IN_RANGES(cp, wide_tab))
		*width = 2;
}

/*
 * 1 if err->excerpt shows the line p[s..e) from its character at s on, as
 * jenc.h describes it (see excerpt_cell), within 80 display columns, with
 * "..." first if lead and last if the shown part ends before e, and
 * err->caret the display column of the character holding err->offset (of
 * the one it sits on for a combining mark), or just past the last one.
 */
static int
excerpt_from(const jenc_err *err, const char *p, size_t n, size_t s,
    size_t e, int lead)
{
	const char *ex = err->excerpt, *show;
	size_t xl = strlen(ex), i = s, o = 0, cols = 0, base = 0, len;
	size_t olen, w, spotcol = 0;
	uint64_t off = err->offset;
	int spotted = 0, based = 0;

	if (lead) {
		if (xl < 3 || memcmp(ex, "...", 3) != 0)
			return 0;
		o = cols = base = 3;
	}
	for (;;) {
		/* The rest is the mark of a cut, if the line goes on here
		 * (the line itself may go on with "..."; then read on). */
		if (xl - o == 3 && memcmp(ex + o, "...", 3) == 0 && i < e &&
		    cols + 3 <= 80 && (spotted ? spotcol : cols) == err->caret &&
		    (spotted || off == i))
			return 1;
		if (o == xl)
			break;
		if (i >= e)
			return 0;
		excerpt_cell(p, n, i, &len, &show, &olen, &w);
		if (o + olen > xl || memcmp(ex + o, show, olen) != 0)
			return 0;
		if (!spotted && off < i + len) {
			spotted = 1;
			spotcol = w == 0 && based ? base : cols;
		}
		if (w > 0) {
			base = cols;
			based = 1;
		}
		o += olen;
		cols += w;
		i += len;
	}
	/* all of the rest of the line is shown */
	if (i < e || cols > 80)
		return 0;
	if (!spotted)
		spotcol = cols;		/* the spot at the line's end */
	return spotcol == err->caret;
}

void
fz_check_err(const jenc_err *err, int rc, const char *p, size_t n,
    int cr_lines)
{
	uint64_t line = 1, ls = 0, k, s, e;
	int bom;

	/* line 1's columns start after a byte order mark */
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		ls = 3;
	if (rc >= 0)
		fz_fail("fz_check_err called with %d", rc);
	if (err->code != rc)
		fz_fail("err.code %d but %d returned", err->code, rc);
	if (memchr(err->msg, '\0', sizeof(err->msg)) == NULL ||
	    err->msg[0] == '\0')
		fz_fail("err.msg empty or not terminated");
	if (memchr(err->excerpt, '\0', sizeof(err->excerpt)) == NULL)
		fz_fail("err.excerpt not terminated");
	if (rc == JENC_E_NOMEM || rc == JENC_E_IO || rc == JENC_E_SINK)
		return;
	if (err->offset > n)
		fz_fail("err.offset %llu past the input length %zu (%s)",
		    (unsigned long long)err->offset, n, err->msg);
	for (k = 0; k < err->offset; k++)
		if (p[k] == '\n' || (cr_lines && p[k] == '\r' &&
		    (k + 1 >= n || p[k + 1] != '\n'))) {
			line++;
			ls = k + 1;
		}
	/* line 0: no position (an encoder error); col 0: a whole record */
	if (err->line == 0 && (err->col != 0 || rc == JENC_E_SYNTAX ||
	    rc == JENC_E_DEPTH))
		fz_fail("err.line 0 with col %llu for %d (%s)",
		    (unsigned long long)err->col, rc, err->msg);
	if (err->line != 0 && err->line != line)
		fz_fail("err at offset %llu says line %llu, the input has "
		    "line %llu (%s)", (unsigned long long)err->offset,
		    (unsigned long long)err->line, (unsigned long long)line,
		    err->msg);
	if (err->col != 0 && err->col != err->offset - ls + 1)
		fz_fail("err at offset %llu says col %llu, the input has col "
		    "%llu (%s)", (unsigned long long)err->offset,
		    (unsigned long long)err->col,
		    (unsigned long long)(err->offset - ls + 1), err->msg);
	if (err->col == 0) {
		if (err->excerpt[0] != '\0')
			fz_fail("an excerpt without a column (%s)", err->msg);
		return;
	}
	/* the line ends at LF, CR LF, and with cr_lines at any CR */
	for (e = err->offset; e < n; e++)
		if (p[e] == '\n' || (p[e] == '\r' && (cr_lines ||
		    (e + 1 < n && p[e + 1] == '\n'))))
			break;
	if (err->offset > 0 && e < n && err->offset == e && p[e] == '\n' &&
	    p[e - 1] == '\r')
		e--;	/* the spot on the LF of a CR LF: the CR ends the line */
	/* the excerpt starts at most 80 columns (of up to 4 bytes) back,
	 * with a mark unless at the line's start, or just after a byte order
	 * mark that starts the input (which it leaves out) */
	bom = n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0;
	for (s = err->offset;; s--) {
		if (excerpt_from(err, p, n, (size_t)s, (size_t)e,
		    s > ls && !(bom && ls == 0 && s == 3)))
			return;
		if (s == ls || err->offset - s > 4 * 80 + 8)
			break;
	}
	fz_fail("err.excerpt '%s' with caret %zu is not the input line "
	    "around offset %llu (%s)", err->excerpt, err->caret,
	    (unsigned long long)err->offset, err->msg);
}

/* The byte that "found X" names, or -1 for end of input, -2 if unknown. */
static int
found_byte(const char *f)
{
	unsigned v;

	if (strcmp(f, "end of input") == 0)
		return -1;
	if (strcmp(f, "NUL byte") == 0)
		return 0;
	if (sscanf(f, "byte 0x%2x", &v) == 1 && strlen(f) == 9)
		return (int)v;
	if (f[0] == '\'' && f[1] != '\0' && f[2] == '\'' && f[3] == '\0' &&
	    (unsigned char)f[1] > 0x20 && (unsigned char)f[1] < 0x7f)
		return (unsigned char)f[1];
	return -2;
}

/* The text between the first quote after prefix and the last quote. */
static void
check_quoted_prefix(const char *msg, size_t plen, const char *p, size_t n,
    uint64_t off)
{
	const char *q = msg + plen, *end = strrchr(msg, '\'');
	size_t tl;

	if (end == NULL || end < q)
		fz_fail("malformed message '%s'", msg);
	tl = (size_t)(end - q);
	if (tl == 35 && memcmp(q + 32, "...", 3) == 0)
		tl = 32;
	if (tl == 0 || off + tl > n || memcmp(p + off, q, tl) != 0)
		fz_fail("message '%s' does not quote the input at offset "
		    "%llu", msg, (unsigned long long)off);
}

static const char *const expected_forms[] = {
	"expected value or end of input, found ",
	"expected end of input after the value, found ",
	"expected value, found ",
	"expected value or ']', found ",
	"expected value after ',', found ",
	"expected value after ':', found ",
	"expected ',' or ']' after array element, found ",
	"expected string key or '}', found ",
	"expected string key after ',', found ",
	"expected ':' after object key, found ",
	"expected ',' or '}' after object member, found ",
	/* used by the reader and json_suite.bats, missing from cli-spec.md
	 * and jenc(1) */
	"expected value after the byte order mark, found ",
	"unterminated string, found ",
};

/* 1 if m is prefix, two hex digits, " in string"; *v gets the digits. */
static int
hex_form(const char *m, const char *prefix, unsigned *v)
{
	size_t pl = strlen(prefix);
	char hx[3];

	if (strncmp(m, prefix, pl) != 0 || strlen(m) != pl + 12 ||
	    strcmp(m + pl + 2, " in string") != 0)
		return 0;
	memcpy(hx, m + pl, 2);
	hx[2] = '\0';
	return sscanf(hx, "%2x", v) == 1;
}

void
fz_check_json_err(const jenc_err *err, const char *p, size_t n,
    unsigned max_depth)
{
	static const char *const hints[] = {
		" (JSON with comments? try --jsonc)",
		" (trailing comma? try --jsonc)",
		" (is it CSV? try -f csv)",
	};
	char mb[sizeof(err->msg)];
	const char *m = mb;
	uint64_t off = err->offset;
	int at = off < n ? (unsigned char)p[off] : -1;
	char tmp[sizeof(err->msg)];
	unsigned v, d;
	size_t k;

	/* a hint at the end (lib/json_err.c): what JSON with comments or CSV
	 * would explain; each only where it applies */
	memcpy(mb, err->msg, sizeof(mb));
	mb[sizeof(mb) - 1] = '\0';
	for (k = 0; k < sizeof(hints) / sizeof(*hints); k++) {
		size_t ml = strlen(mb), hl = strlen(hints[k]);

		if (ml < hl || strcmp(mb + ml - hl, hints[k]) != 0)
			continue;
		mb[ml - hl] = '\0';
		if (k == 0 && !(at == '/' && off + 1 < n &&
		    (p[off + 1] == '/' || p[off + 1] == '*')))
			fz_fail("comment hint at byte %d: '%s'", at, err->msg);
		if (k == 1 && at != ']' && at != '}')
			fz_fail("trailing comma hint at byte %d: '%s'", at,
			    err->msg);
		if (k == 2 && err->line != 1)
			fz_fail("CSV hint on line %llu: '%s'",
			    (unsigned long long)err->line, err->msg);
		break;
	}

	if (err->excerpt[0] == '\0' && at >= 0 && at != '\n' && at != '\r')
		fz_fail("empty excerpt for '%s' at a byte of the line", m);
	if (err->code == JENC_E_DEPTH) {
		if (sscanf(m, "nesting deeper than %u levels", &d) != 1 ||
		    d != (max_depth ? max_depth : 10000))
			fz_fail("depth message '%s' with max_depth %u", m,
			    max_depth);
		if (at != '[' && at != '{')
			fz_fail("depth error spot is byte %d, not a bracket",
			    at);
		return;
	}
	if (err->code != JENC_E_SYNTAX)
		fz_fail("reader returned %d (%s)", err->code, m);
	for (k = 0; k < sizeof(expected_forms) / sizeof(*expected_forms);
	    k++) {
		size_t pl = strlen(expected_forms[k]);
		int fb;

		if (strncmp(m, expected_forms[k], pl) != 0)
			continue;
		fb = found_byte(m + pl);
		if (fb == -2)
			fz_fail("message '%s' names an unknown found byte", m);
		if (k == 12) {	/* unterminated: spot = opening quote */
			if (fb != -1 || at != '"')
				fz_fail("'%s' at byte %d", m, at);
		} else if (fb != at) {
			fz_fail("message '%s' but the byte at offset %llu is "
			    "%d", m, (unsigned long long)off, at);
		}
		return;
	}
	if (strncmp(m, "invalid number '", 16) == 0) {
		check_quoted_prefix(m, 16, p, n, off);
	} else if (strncmp(m, "invalid literal '", 17) == 0) {
		/* the quoted text ends before "', expected ..." */
		char *e;

		memcpy(tmp, m, sizeof(tmp));
		e = strstr(tmp, "', expected true, false or null");
		if (e == NULL || strlen(e) != 31)
			fz_fail("literal message '%s'", m);
		e[1] = '\0';
		check_quoted_prefix(tmp, 17, p, n, off);
	} else if (strncmp(m, "invalid escape '\\", 17) == 0 ||
	    strcmp(m, "invalid \\u escape in string, expected 4 hex "
	    "digits") == 0) {
		if (at != '\\')
			fz_fail("escape message '%s' at byte %d", m, at);
	} else if (hex_form(m, "unescaped control character 0x", &v)) {
		if ((int)v != at || v >= 0x20)
			fz_fail("'%s' at byte %d", m, at);
	} else if (hex_form(m, "invalid UTF-8 byte 0x", &v)) {
		if ((int)v != at || v < 0x80)
			fz_fail("'%s' at byte %d", m, at);
	} else {
		fz_fail("message '%s' is none of the documented forms", m);
	}
}

int
fz_same_err(const jenc_err *a, const jenc_err *b)
{
	return a->code == b->code && a->offset == b->offset &&
	    a->line == b->line && a->col == b->col && a->cut == b->cut &&
	    strcmp(a->msg, b->msg) == 0 &&
	    strcmp(a->excerpt, b->excerpt) == 0 && a->caret == b->caret;
}

void
fz_expect_same_err(const jenc_err *a, const jenc_err *b, const char *what,
    int prefix)
{
	jenc_err c;
	size_t al = strlen(a->excerpt), k;

	if (fz_same_err(a, b))
		return;
	/*
	 * A reader of a descriptor shows the line only as far as it has read
	 * it: a may be a prefix of b that goes past the caret, ending in one
	 * to three '?' for the bytes of a character cut by the end of what
	 * was read, or for a CR before an unread LF, where b shows the
	 * character (raw, or as one '?') or nothing.
	 */
	for (k = 0; prefix && k <= 3 && k <= al; k++) {
		unsigned char next = (unsigned char)b->excerpt[al - k];

		if (k > 0 && a->excerpt[al - k] != '?')
			break;
		if (strlen(b->excerpt) < al - k ||
		    strncmp(a->excerpt, b->excerpt, al - k) != 0 ||
		    (k > 0 && !(next == '\0' || next == '?' || next >= 0x80)) ||
		    (al - k + (k > 0) <= a->caret && b->excerpt[al - k] != '\0'))
			continue;
		c = *b;
		memcpy(c.excerpt, a->excerpt, al + 1);
		if (fz_same_err(a, &c))
			return;
	}
	fz_fail("%s: code %d/%d offset %llu/%llu line %llu/%llu col "
	    "%llu/%llu cut %d/%d caret %zu/%zu msg '%s' / '%s' excerpt '%s' / "
	    "'%s'", what, a->code, b->code, (unsigned long long)a->offset,
	    (unsigned long long)b->offset, (unsigned long long)a->line,
	    (unsigned long long)b->line, (unsigned long long)a->col,
	    (unsigned long long)b->col, a->cut, b->cut, a->caret, b->caret,
	    a->msg, b->msg, a->excerpt, b->excerpt);
}

uint32_t
fz_hash(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

struct feeder {
	const char *p;
	size_t n;
	uint32_t seed;
	int rfd, wfd;
	atomic_int stop;
};

static uint32_t
next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int
pipe_empty(int fd)
{
	int avail = 0;

	if (ioctl(fd, FIONREAD, &avail) != 0)
		fz_fail("ioctl FIONREAD: %s", strerror(errno));
	return avail == 0;
}

static void *
feed(void *arg)
{
	struct feeder *f = arg;
	uint32_t s = f->seed | 1;
	size_t off = 0, avg = f->n / 12 + 1;

	while (off < f->n && !f->stop) {
		size_t c = 1 + next_rand(&s) % (2 * avg), w = 0;

		if (next_rand(&s) % 4 == 0)
			c = 1 + next_rand(&s) % 3;
		if (c > 4096)
			c = 4096;
		if (c > f->n - off)
			c = f->n - off;
		while (w < c) {
			ssize_t r = write(f->wfd, f->p + off + w, c - w);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				fz_fail("write to pipe: %s", strerror(errno));
			w += (size_t)r;
		}
		off += c;
		while (!f->stop && !pipe_empty(f->rfd))
			sched_yield();
	}
	close(f->wfd);
	return NULL;
}

int
fz_pipe_run(const char *p, size_t n, uint32_t seed,
    int (*fn)(int fd, void *ctx), void *ctx)
{
	struct feeder f;
	pthread_t t;
	int fds[2], rc;

	if (pipe(fds) != 0)
		fz_fail("pipe: %s", strerror(errno));
	f.p = p;
	f.n = n;
	f.seed = seed;
	f.rfd = fds[0];
	f.wfd = fds[1];
	f.stop = 0;
	if (pthread_create(&t, NULL, feed, &f) != 0)
		fz_fail("pthread_create failed");
	rc = fn(fds[0], ctx);
	f.stop = 1;
	pthread_join(t, NULL);
	close(fds[0]);
	return rc;
}

int
fz_file(const char *p, size_t n)
{
	static int fd = -1;

	if (fd < 0) {
		FILE *f = tmpfile();

		if (f == NULL || (fd = dup(fileno(f))) < 0)
			abort();
		fclose(f);
	}
	if (ftruncate(fd, 0) != 0 ||
	    (n > 0 && pwrite(fd, p, n, 0) != (ssize_t)n) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

int
fz_wide_start(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;

	if (n < 2)
		return 0;
	return (u[0] == 0xff && u[1] == 0xfe) ||
	    (u[0] == 0xfe && u[1] == 0xff) || u[0] == 0 || u[1] == 0;
}

int
fz_json_fd_run(int fd, void *ctx)
{
	struct fz_json_fd *r = ctx;

	return jenc_json_copy_fd(fd, r->e, r->ro, r->err);
}

int
fz_json_par_run(int fd, void *ctx)
{
	struct fz_json_fd *r = ctx;

	return jenc_json_copy_fd_par(fd, r->e, r->ro, r->err, 2, r->n);
}
