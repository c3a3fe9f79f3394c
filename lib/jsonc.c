/*
 * jsonc.c - JSON with comments: the window filter that makes JSONC input
 * strict JSON for the JSON reader, before it tokenizes.
 *
 * The filter overwrites with spaces, in the window itself, every comment
 * (from // to the end of the line, and block comments from slash-star to
 * star-slash) and every trailing comma (a
 * ',' after a value whose next byte other than whitespace and comments is
 * ']' or '}').  Nothing moves: an offset of the filtered window is the
 * offset of the input, and the line ends in a comment (LF, and CR, as
 * that of a CR LF) are kept, so every error position the reader reports
 * is the one in the input, and a CR LF ends a line of an excerpt as it
 * does without comments.
 * Strings are left alone, a "//" or slash-star in them included.
 *
 * It runs over each new part of the window as it is read, keeping its
 * state between calls (input offsets, not indices, so that the reader may
 * drop the front of the window in between).  Some ends of a window are
 * undecided: a '/' as its last byte (a comment, or a stray '/'), an open
 * block comment (blanked only once its end is seen, so that an
 * unterminated one is still there, as it was, for the reader to report),
 * a ',' followed so far only by whitespace and comments.  The filter then
 * asks for more input before the reader may look at the window; at the
 * end of the input everything is decided.
 *
 * A byte after which a ',' is not a trailing comma but stays for the
 * reader to judge: nothing (the start), '[', '{', ',' and ':'.  The
 * filter knows no more of the grammar than that; what it lets through
 * that is not JSON, the reader reports.  A line feed or an RS byte ends a
 * string (neither may stand in one, and a reader that goes on after bad
 * input starts afresh there).
 */
#include <string.h>

#include "internal.h"
#include "scan.h"

#define NONE UINT64_MAX
#define NO_IDX ((size_t)-1)
#define RS 0x1e

enum {
	JC_CODE,	/* outside strings and comments */
	JC_STR,		/* in a string */
	JC_ESC,		/* in a string, after a backslash */
	JC_SLASH,	/* after a '/' in code, at c->slash */
	JC_LINE,	/* in a // comment */
	JC_BLOCK,	/* in a block comment opened at c->open */
	JC_STAR,	/* in a block comment, after a '*' */
	JC_UNTERM,	/* the input ended in the block comment at c->open */
};

static int
jsonc_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* May a ',' after the significant byte c be a trailing comma? */
static int
jsonc_value_end(unsigned char c)
{
	return c != 0 && c != '[' && c != '{' && c != ',' && c != ':';
}

/* The first byte of p[i..n) that is not whitespace, or n. */
static size_t
jsonc_ws_skip(const unsigned char *p, size_t i, size_t n)
{
#ifdef __SSE2__
	while (i + 16 <= n) {
		unsigned m = scan_not_ws16(p + i);

		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
		i += 16;
	}
#endif
	while (i < n && jsonc_ws(p[i]))
		i++;
	return i;
}

/*
 * The first byte of p[i..n) that is a, b or c or below ctl, or n: the
 * next '"', '/' or ',' in code (ctl 0), the next '"', '\\' or control
 * byte in a string (ctl 0x20).  Forced inline, so that each caller's
 * bytes are constants in its loop.  (Not scan_find, whose candidates,
 * each tried against a table, would include every line end here and
 * every byte from 0x80 in strings: 4% more instructions on the corpus
 * with --jsonc.)
 */
static inline __attribute__((always_inline)) size_t
jsonc_skip(const unsigned char *p, size_t i, size_t n, unsigned char a,
    unsigned char b, unsigned char c, unsigned char ctl)
{
#ifdef __SSE2__
	const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
	const __m128i vc = _mm_set1_epi8((char)c);
	const __m128i vl = _mm_set1_epi8((char)(ctl - 1));

	while (i + 16 <= n) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va),
		    _mm_cmpeq_epi8(v, vb)), _mm_cmpeq_epi8(v, vc));
		unsigned bits;

		if (ctl != 0)
			m = _mm_or_si128(m,
			    _mm_cmpeq_epi8(_mm_min_epu8(v, vl), v));
		if ((bits = (unsigned)_mm_movemask_epi8(m)) != 0)
			return i + (size_t)__builtin_ctz(bits);
		i += 16;
	}
#endif
	while (i < n && p[i] != a && p[i] != b && p[i] != c && p[i] >= ctl)
		i++;
	return i;
}

/* The last byte of p[from..to) that is not whitespace, else last. */
static unsigned char
jsonc_last(const unsigned char *p, size_t from, size_t to, unsigned char last)
{
	while (to > from && jsonc_ws(p[to - 1]))
		to--;
	return to > from ? p[to - 1] : last;
}

/* Blank p[a..b] (inclusive), keeping its line ends (LF, CR). */
static void
jsonc_blank(unsigned char *p, size_t a, size_t b)
{
	for (; a <= b; a++)
		if (p[a] != '\n' && p[a] != '\r')
			p[a] = ' ';
}

void
jenc_jsonc_init(jenc_jsonc *c, uint64_t at)
{
	memset(c, 0, sizeof(*c));
	c->done = at;
	c->comma = NONE;
	c->st = JC_CODE;
}

/*
 * One pass over the new bytes.  The state lives in locals while it runs
 * (p, an unsigned char pointer, may alias c: through c, every store to
 * p would reload it), its states are labels, and the common case, code
 * and short strings, stays in two tight loops; comments take the slow
 * way.  It is one function of some 170 lines because it is the hot loop
 * of --jsonc over every byte and a resumable state machine: split into
 * functions, its labels would become a state stored and reloaded at
 * each change (and p reloaded through c, as above).
 */
int
jenc_jsonc_filter(jenc_jsonc *c, char *w, size_t n, uint64_t off, int eof)
{
	unsigned char *p = (unsigned char *)w, last, ch;
	const unsigned char *star;
	size_t i, run, comma, slash, open;
	int st;

	/* what the reader dropped unfiltered (skipping bad input) is gone,
	 * and with it what the state said about it */
	if (c->done < off)
		jenc_jsonc_init(c, off);
	i = run = (size_t)(c->done - off);
	st = c->st;
	last = c->last;
	/* indices of the window; each is valid only in its state */
	comma = c->comma == NONE ? NO_IDX : (size_t)(c->comma - off);
	slash = (size_t)(c->slash - off);
	open = (size_t)(c->open - off);
	switch (st) {
	case JC_STR:
		goto str;
	case JC_ESC:
		goto esc;
	case JC_SLASH:
		goto slash;
	case JC_LINE:
		goto line;
	case JC_BLOCK:
		goto block;
	case JC_STAR:
		goto star;
	case JC_UNTERM:
		goto out;
	}
code:
	st = JC_CODE;
	while (i < n) {
		if (comma != NO_IDX) {
			/* what follows the ',': is it trailing? */
			if ((i = jsonc_ws_skip(p, i, n)) == n)
				goto out;
			if (p[i] == '/') {
				slash = i++;
				goto slash;
			}
			if (p[i] == ']' || p[i] == '}')
				p[comma] = ' ';
			comma = NO_IDX;
			run = i;
		}
		i = jsonc_skip(p, i, n, '"', '/', ',', 0);
		if (i == n)
			break;
		ch = p[i];
		if (ch == '"') {	/* last becomes its closing quote */
			i++;
			goto str;
		}
		last = jsonc_last(p, run, i, last);
		if (ch == '/') {
			slash = i++;
			goto slash;
		}
		/* a ',': most often what follows it decides at once */
		if (jsonc_value_end(last)) {
			if (i + 1 < n && !jsonc_ws(p[i + 1]) && p[i + 1] != '/') {
				if (p[i + 1] == ']' || p[i + 1] == '}')
					p[i] = ' ';
			} else {
				comma = i;
			}
		}
		last = ',';
		run = ++i;
	}
	goto out;
str:
	for (;;) {
		i = jsonc_skip(p, i, n, '"', '\\', '\\', 0x20);
		if (i == n) {
			st = JC_STR;
			goto out;
		}
		ch = p[i];
		if (ch == '"') {
			last = '"';
			run = ++i;
			goto code;
		}
		if (ch == '\\') {
			i++;
esc:
			if (i == n) {
				st = JC_ESC;
				goto out;
			}
			ch = p[i];
		}
		if (ch == '\n' || ch == RS) {
			last = '"';
			run = i;
			goto code;
		}
		i++;
	}
slash:
	if (i == n) {
		st = JC_SLASH;
		goto out;
	}
	if (p[i] == '/') {
		p[slash] = ' ';
		p[i++] = ' ';
		goto line;
	}
	if (p[i] == '*') {
		open = slash;
		i++;
		goto block;
	}
	/* a '/' of its own: the reader reports it */
	comma = NO_IDX;
	last = '/';
	run = i;
	goto code;
line:
	/* (a CR is kept: that of a CR LF ends the line in an excerpt) */
	for (; i < n && p[i] != '\n' && p[i] != RS; i++)
		if (p[i] != '\r')
			p[i] = ' ';
	if (i == n) {
		st = JC_LINE;
		goto out;
	}
	run = i;
	goto code;
block:
	for (;;) {
		if ((star = memchr(p + i, '*', n - i)) == NULL) {
			i = n;
			st = JC_BLOCK;
			goto out;
		}
		i = (size_t)(star - p) + 1;
star:
		while (i < n && p[i] == '*')
			i++;
		if (i == n) {
			st = JC_STAR;
			goto out;
		}
		if (p[i] == '/') {
			jsonc_blank(p, open, i);
			run = ++i;
			goto code;
		}
		i++;
	}
out:
	c->done = off + n;
	if (st == JC_CODE && comma == NO_IDX)
		last = jsonc_last(p, run, n, last);
	if (eof) {
		/* the end of the input decides */
		if (st == JC_BLOCK || st == JC_STAR)
			st = JC_UNTERM;
		else if (st != JC_UNTERM)
			st = JC_CODE;
		comma = NO_IDX;
	}
	c->st = st;
	c->last = last;
	c->comma = comma == NO_IDX ? NONE : off + comma;
	c->slash = off + slash;
	c->open = off + open;
	return st == JC_SLASH || st == JC_BLOCK || st == JC_STAR ||
	    comma != NO_IDX ? JENC_JSONC_MORE : 0;
}

int
jenc_jsonc_unterminated(const jenc_jsonc *c, uint64_t at)
{
	return c->st == JC_UNTERM && c->open == at;
}

void
jenc_jsonc_resume(jenc_jsonc *c, uint64_t at)
{
	if (c->done <= at || (c->st == JC_UNTERM && c->open < at))
		jenc_jsonc_init(c, at);
}

uint64_t
jenc_jsonc_undecided(const jenc_jsonc *c)
{
	if (c->comma != NONE)
		return c->comma;
	if (c->st == JC_SLASH)
		return c->slash;
	if (c->st == JC_BLOCK || c->st == JC_STAR)
		return c->open;
	return NONE;
}
