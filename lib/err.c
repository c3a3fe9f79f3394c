/*
 * err.c - filling jenc_err: the code, the position, the message, and the
 * excerpt of the offending line with its caret.
 *
 * The excerpt is made to be printed as it is on a UTF-8 terminal, the
 * caret line under it as err->caret spaces and '^':
 *
 *  - Every character is one cell of the excerpt with a display width:
 *    2 for East Asian Wide and Fullwidth characters (CJK, most emoji),
 *    0 for combining marks (shown after their base, in its column),
 *    1 for the rest.  The widths come from width_tab.h, not from the
 *    locale, so every program and terminal setting gets the same excerpt.
 *  - What a terminal would not show as itself is shown as '?': C0
 *    controls but tab, DEL, C1 controls, format characters (Unicode
 *    category Cf: bidi controls, zero-width characters and joiners,
 *    U+FEFF, ...), U+2028 and U+2029, the invisible Hangul fillers, and
 *    each byte that is not part of valid UTF-8.  A tab is a space.  So no
 *    byte of the input can move the cursor or reorder what follows it.
 *  - The excerpt is at most EXCERPT_COLS columns and EXCERPT_BYTES bytes,
 *    "..." marks included.  A longer line is shown around the spot: at
 *    most EXCERPT_BEFORE columns before it (more when the line ends sooner
 *    after it), "..." where text before or after the shown part exists.
 *  - err->caret is the display column of the spot's character, or just
 *    past the line for a spot at its end; for a spot on a combining mark,
 *    the column of the character it sits on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "width_tab.h"

#define EXCERPT_COLS	80	/* display columns, "..." marks included */
#define EXCERPT_BEFORE	40	/* columns before the spot, marks included */
#define EXCERPT_BYTES	(sizeof(((jenc_err *)0)->excerpt) - 1)
#define MARK		"..."
#define MARK_LEN	3

/*
 * Bytes of the line read on either side of the spot: at most EXCERPT_COLS
 * characters of up to 4 bytes with a width, and zero-width ones filling
 * the rest of the bytes.
 */
_Static_assert(JENC_EXCERPT_SCAN >= 4 * EXCERPT_COLS + EXCERPT_BYTES,
    "JENC_EXCERPT_SCAN does not cover an excerpt");

/*
 * kind took the last 4 bytes of what was excerpt[336], beside it: every
 * field keeps its offset and jenc_err its size on every ABI, so a caller
 * built against the older header is served unchanged.  The excerpt holds
 * 331 bytes of text instead of 335, which only a line of zero-width marks
 * ever reached (80 columns of 4-byte characters and two "..." take 326).
 */
_Static_assert(offsetof(jenc_err, kind) + sizeof(int) ==
    offsetof(jenc_err, excerpt) + 336 &&
    offsetof(jenc_err, caret) % _Alignof(size_t) == 0 &&
    offsetof(jenc_err, caret) - (offsetof(jenc_err, excerpt) + 336) <
    _Alignof(size_t),
    "jenc_err's layout changed: the ABI (SONAME) question");

/* How a character is shown. */
enum { SHOW_RAW, SHOW_QMARK, SHOW_SPACE };

struct cell {
	size_t len;	/* bytes of input */
	size_t width;	/* display columns */
	int show;	/* SHOW_* */
};

static int
err_in_tab(uint32_t cp, const struct cp_range *t, size_t n)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cp > t[mid].hi)
			lo = mid + 1;
		else if (cp < t[mid].lo)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

#define IN_TAB(cp, t) err_in_tab((cp), (t), sizeof(t) / sizeof((t)[0]))

/* The character at p[0..n), n >= 1, as the excerpt shows it. */
static void
err_cell_at(const unsigned char *p, size_t n, struct cell *c)
{
	uint32_t cp;

	c->len = 1;
	c->width = 1;
	c->show = SHOW_RAW;
	if (p[0] < 0x80) {
		if (p[0] == '\t')
			c->show = SHOW_SPACE;
		else if (p[0] < 0x20 || p[0] == 0x7f)
			c->show = SHOW_QMARK;
		return;
	}
	if ((c->len = jenc_utf8_seq(p, n, &cp)) == 0) {
		c->len = 1;
		c->show = SHOW_QMARK;
	} else if (IN_TAB(cp, unsafe_tab))
		c->show = SHOW_QMARK;
	else if (IN_TAB(cp, zero_tab))
		c->width = 0;
	else if (IN_TAB(cp, wide_tab))
		c->width = 2;
}

/* Bytes the character takes in the excerpt. */
static size_t
err_cell_cost(const struct cell *c)
{
	return c->show == SHOW_RAW ? c->len : 1;
}

static size_t
err_cell_put(char *out, size_t o, const unsigned char *p, const struct cell *c)
{
	if (c->show == SHOW_RAW) {
		memcpy(out + o, p, c->len);
		return o + c->len;
	}
	out[o] = c->show == SHOW_SPACE ? ' ' : '?';
	return o + 1;
}

/* err->excerpt and err->caret for the spot w describes. */
static void
err_excerpt(jenc_err *err, const jenc_where *w)
{
	const unsigned char *p = (const unsigned char *)w->text;
	size_t avail = w->avail, at = w->at, ds, dlim, end, lim, a, i, k;
	size_t lc = 0, lb = 0, rc = 0, rb = 0, bc, bb, cols, o, caret, base;
	int lead, complete, all, based = 0;
	struct cell c;

	err->excerpt[0] = '\0';
	err->caret = 0;
	if (p == NULL)
		return;
	if (at > avail)
		at = avail;
	/* a spot on the LF of a CR LF is at the end of the line */
	if (at > 0 && at < avail && p[at] == '\n' && p[at - 1] == '\r')
		at--;

	/*
	 * The line ends at end, before its LF, CR LF (or CR), if that is
	 * within JENC_EXCERPT_SCAN bytes of the spot; the line is complete
	 * when its end is known: found there, or the input ends at avail.
	 */
	lim = avail - at > JENC_EXCERPT_SCAN ? at + JENC_EXCERPT_SCAN : avail;
	for (end = at; end < lim; end++)
		if (p[end] == '\n' || (p[end] == '\r' && (w->cr_ends_line ||
		    (end + 1 < avail && p[end + 1] == '\n'))))
			break;
	complete = end < lim || (lim == avail && w->eof);
	dlim = end < lim ? end : avail;	/* characters end here at the latest */

	/* Where to start: as far back as could be shown, at a character. */
	ds = at > JENC_EXCERPT_SCAN ? at - JENC_EXCERPT_SCAN : 0;
	if (ds > 0 || w->text_cut)
		for (k = 0; k < 3 && ds < at && (p[ds] & 0xc0) == 0x80; k++)
			ds++;

	/* The width (lc) and bytes (lb) of what comes before the spot. */
	for (i = ds; i < at; i += c.len) {
		err_cell_at(p + i, dlim - i, &c);
		if (i + c.len > at) {
			at = i;		/* the spot inside a character */
			break;
		}
		lc += c.width;
		lb += err_cell_cost(&c);
	}
	/* ... and from the spot to the line's end, or as far as looked */
	for (i = at; i < end; i += c.len) {
		err_cell_at(p + i, dlim - i, &c);
		rc += c.width;
		rb += err_cell_cost(&c);
	}
	if (at == end)
		rc = 1;		/* the caret past the last character */

	/*
	 * The part before the spot may take EXCERPT_BEFORE columns and half
	 * the bytes, or, when the rest of the line is shorter than the other
	 * half, everything that rest leaves.
	 */
	if (complete && rc <= EXCERPT_COLS - EXCERPT_BEFORE &&
	    rb <= EXCERPT_BYTES - EXCERPT_BYTES / 2) {
		bc = EXCERPT_COLS - rc;
		bb = EXCERPT_BYTES - rb;
	} else {
		bc = EXCERPT_BEFORE;
		bb = EXCERPT_BYTES / 2;
	}
	a = ds;
	lead = ds > 0 || w->text_cut;
	if (lead || lc > bc || lb > bb) {
		lead = 1;
		while (lc > bc - MARK_LEN || lb > bb - MARK_LEN) {
			err_cell_at(p + a, dlim - a, &c);
			lc -= c.width;
			lb -= err_cell_cost(&c);
			a += c.len;
		}
		/* no combining mark right after the "..." */
		while (a < at) {
			err_cell_at(p + a, dlim - a, &c);
			if (c.width != 0)
				break;
			lb -= err_cell_cost(&c);
			a += c.len;
		}
	}

	o = cols = 0;
	if (lead) {
		memcpy(err->excerpt, MARK, MARK_LEN);
		o = cols = MARK_LEN;
	}
	base = cols;
	for (i = a; i < at; i += c.len) {
		err_cell_at(p + i, dlim - i, &c);
		if (c.width > 0) {
			base = cols;
			based = 1;
		}
		o = err_cell_put(err->excerpt, o, p + i, &c);
		cols += c.width;
	}
	caret = cols;

	/* From the spot on: all of the rest, or what fits before a "...". */
	all = complete && cols + rc <= EXCERPT_COLS && o + rb <= EXCERPT_BYTES;
	for (i = at; i < end; i += c.len) {
		err_cell_at(p + i, dlim - i, &c);
		if (!all && (cols + c.width > EXCERPT_COLS - MARK_LEN ||
		    o + err_cell_cost(&c) > EXCERPT_BYTES - MARK_LEN))
			break;
		if (i == at && c.width == 0 && based)
			caret = base;	/* a mark: under what it sits on */
		o = err_cell_put(err->excerpt, o, p + i, &c);
		cols += c.width;
	}
	if (!all) {
		memcpy(err->excerpt + o, MARK, MARK_LEN);
		o += MARK_LEN;
	}
	err->excerpt[o] = '\0';
	err->caret = caret;
}

int
jenc_err_set(jenc_err *err, int code, int kind, int sys_errno, int cut,
    const jenc_where *w, const char *fmt, ...)
{
	va_list ap;

	memset(err, 0, sizeof(*err));
	err->code = code;
	err->kind = kind;
	err->sys_errno = sys_errno;
	err->cut = cut;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (w != NULL) {
		err->offset = w->offset;
		err->line = w->line;
		err->col = w->col;
		err_excerpt(err, w);
	}
	return code;
}

void
jenc_err_found(char *out, size_t outsz, const char *p, size_t avail)
{
	unsigned char c = avail > 0 ? (unsigned char)*p : 0;

	if (avail == 0)
		snprintf(out, outsz, "end of input");
	else if (c == 0)
		snprintf(out, outsz, "NUL byte");
	else if (c > 0x20 && c < 0x7f)
		snprintf(out, outsz, "'%c'", c);
	else
		snprintf(out, outsz, "byte 0x%02x", c);
}

void
jenc_err_name(char *out, const char *p, size_t n)
{
	size_t k = n < 40 ? n : 40, i;

	while (k < n && k > 0 && ((unsigned char)p[k] & 0xc0) == 0x80)
		k--;
	for (i = 0; i < k; i++)
		out[i] = (unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' :
		    p[i];
	memcpy(out + k, k < n ? "..." : "", k < n ? 4 : 1);
}
