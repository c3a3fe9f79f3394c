/*
 * json_err.c - the JSON reader's errors: what each report says, the hint
 * added where JSON with comments or CSV would explain the input (--jsonc,
 * -f csv), and what happens to the value being written when the input
 * goes bad (jenc_err, lib/err.c, takes the rest).  All cold: the walk
 * calls them out of line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

/*
 * Does the first line of the input, t[0..n), look like CSV: a ',', ';',
 * tab or '|' outside double quotes, a field (a byte that is none of them
 * nor a space or CR), and no '{' or '['?  (A line of tabs and spaces is
 * whitespace, not a record.)
 */
static int
json_looks_csv(const char *t, size_t n)
{
	size_t i, delims = 0, fields = 0;
	int inq = 0;

	if (n > 4096)
		n = 4096;
	for (i = 0; i < n && t[i] != '\n'; i++) {
		if (t[i] == '"') {
			inq = !inq;
			fields++;
		} else if (inq) {
			continue;
		} else if (t[i] == '{' || t[i] == '[') {
			return 0;
		} else if (t[i] == ',' || t[i] == ';' || t[i] == '\t' ||
		    t[i] == '|') {
			delims++;
		} else if (t[i] != ' ' && t[i] != '\r') {
			fields++;
		}
	}
	return delims > 0 && fields > 0;
}

/*
 * What to add to the message of bad input at in.p[pos] (on the line w
 * shows, NULL if none) that JSON with comments, or CSV, would explain.
 */
static const char *
json_input_hint(const struct json_rd *r, size_t pos, const jenc_where *w)
{
	const char *p = r->in.p;

	if (pos < r->in.len && !r->jsonc) {
		if (p[pos] == '/' && pos + 1 < r->in.len &&
		    (p[pos + 1] == '/' || p[pos + 1] == '*'))
			return " (JSON with comments? try --jsonc)";
		if (jenc_json_grammar.trail[r->st] != 0 &&
		    p[pos] == jenc_json_grammar.trail[r->st])
			return " (trailing comma? try --jsonc)";
	}
	/* (an error at a '/' is about a comment, whatever the line holds;
	 * of the line, only what every window holds however the input
	 * comes, whole or in pieces: its start when the spot is at most
	 * JENC_IN_CONTEXT bytes into it, and what jenc_in_line reads past
	 * the spot; the input's first line, not that of a part of it, as
	 * a chunk of -j counts its lines from 1: nobom) */
	if (w != NULL && w->line == 1 && !r->nobom && !w->text_cut &&
	    w->at <= JENC_IN_CONTEXT && !(pos < r->in.len && p[pos] == '/') &&
	    json_looks_csv(w->text, w->avail < w->at + JENC_IN_AFTER ?
	    w->avail : w->at + JENC_IN_AFTER))
		return " (is it CSV? try -f csv)";
	return "";
}

void
jenc_json_jsonc_upto(struct json_rd *r, size_t at, size_t reach)
{
	while (jenc_jsonc_filter(&r->jc, (char *)r->in.p, r->in.len,
	    r->in.off, r->in.eof) != 0 &&
	    jenc_jsonc_undecided(&r->jc) < r->in.off + at + reach &&
	    r->in.len - at < ((size_t)64 << 10))
		if (jenc_in_fill(&r->in) != 0)
			break;
}

int
jenc_json_fail(struct json_rd *r, size_t pos, int code, int kind, int sys_errno,
    const char *fmt, ...)
{
	char msg[sizeof(r->err->msg)];
	jenc_where w;
	int cut = 0;
	const char *hint = "";
	va_list ap;

	json_pipe_stop(r);
	r->str_bad = NO_OFF;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (pos != NO_POS && pos != ENC_POS && pos > r->in.len)
		pos = r->in.len;
	/*
	 * The bad value: held whole, it is dropped; past hold_max (or with no
	 * JENC_HOLD) part of it is out already, so write all of it that was
	 * checked (in bulk mode the last bytes are still in the window).
	 * This comes before the rest of the line is read for the excerpt:
	 * each read flushes e first, which a view's rejection, held in e
	 * until jenc_discard, would fail, and so stop the line short.
	 */
	size_t end = json_bulk_end(r);

	if (r->bulk && r->depth > 0 && end > r->from && end <= r->in.len)
		(void)jenc_frag(r->e, r->in.p + r->from, end - r->from);
	if (r->e != NULL) {
		(void)jenc_flush(r->e);
		r->split_out = jenc_split_written(r->e);
		cut = jenc_discard(r->e);
		/* what was written of bad input ends its line, as a value
		 * would, so that what follows is not glued to it (a read
		 * or allocation failure ends the output there) */
		if (cut && (code == JENC_E_SYNTAX || code == JENC_E_DEPTH))
			(void)jenc_passthru(r->e, "\n", 1);
	}
	if (pos == ENC_POS) {
		jenc_in_enc_where(&r->in, &w);
	} else if (pos != NO_POS) {
		jenc_in_line(&r->in, pos, 0);
		/* (so that the excerpt shows the line as it is however
		 * the input arrived) */
		if (r->jsonc)
			jenc_json_jsonc_upto(r, pos, JENC_EXCERPT_SCAN);
		jenc_in_where(&r->in, pos, &w);
		if (code == JENC_E_SYNTAX)
			hint = json_input_hint(r, pos, &w);
	}
	return jenc_err_set(r->err, code, kind, sys_errno, cut,
	    pos != NO_POS ? &w : NULL, "%s%s%s", msg, hint,
	    cut ? " (output of this value was cut)" : "");
}

/* Cold and out of line: see jenc_json_walk(). */
int __attribute__((cold, noinline))
jenc_json_state_fail(struct json_rd *r, size_t pos)
{
	char found[32];
	size_t avail = pos < r->in.len ? r->in.len - pos : 0;
	int kind = avail == 0 ? JENC_K_CUT : JENC_K_TOKEN;

	jenc_err_found(found, sizeof(found), r->in.p + pos, avail);
	if (r->jsonc && avail > 0 && r->in.p[pos] == '/' &&
	    jenc_jsonc_unterminated(&r->jc, r->in.off + pos))
		return jenc_json_fail(r, pos, JENC_E_SYNTAX, JENC_K_CUT, 0,
		    "unterminated comment, found end of input");
	if (r->st == S_TOP && r->single && r->values > 0)
		return jenc_json_fail(r, pos, JENC_E_SYNTAX, JENC_K_SECOND, 0,
		    "%s, found %s", jenc_json_grammar.expect_one[1], found);
	return jenc_json_fail(r, pos, JENC_E_SYNTAX, kind, 0, "%s, found %s",
	    r->st == S_TOP && r->single ? jenc_json_grammar.expect_one[0] :
	    jenc_json_grammar.expect[r->st], found);
}

/*
 * A view rejected a value (jenc.h, "views"): bad input at the token whose
 * call failed, r->fail_at: the value's first token (a record that is not
 * an object) or the bracket that closed it, found before the reader
 * counted it closed (so that the bad text is the whole value).
 */
static int __attribute__((cold, noinline))
json_view_fail(struct json_rd *r, const char *msg, int at_start, int kind)
{
	char m[sizeof(r->err->msg)], found[32];
	size_t pos = r->fail_at;

	snprintf(m, sizeof(m), "%s", msg);
	if (pos == NO_POS || pos >= r->in.len)
		pos = r->cur < r->in.len ? r->cur : r->in.len;
	if (!at_start) {
		if (r->depth == 0)
			r->depth = 1;	/* the closing bracket: inside it */
		return jenc_json_fail(r, pos, JENC_E_SYNTAX, kind, 0, "%s", m);
	}
	jenc_err_found(found, sizeof(found), r->in.p + pos, r->in.len - pos);
	return jenc_json_fail(r, pos, JENC_E_SYNTAX, kind, 0, "%s, found %s", m,
	    found);
}

int __attribute__((cold, noinline))
jenc_json_enc_fail(struct json_rd *r)
{
	int code = jenc_error(r->e), at_start, kind;
	const char *msg = jenc_view_msg(r->e, &at_start, &kind);

	if (msg != NULL)
		return json_view_fail(r, msg, at_start, kind);
	/* Out of memory, the value cannot be finished: as for bad input,
	 * it is dropped, so that e holds complete values only. */
	int cut = code == JENC_E_NOMEM ? jenc_discard(r->e) : 0;

	return jenc_err_set(r->err, code, JENC_K_NONE, jenc_errno(r->e), cut,
	    NULL, "%s", jenc_strerror(code));
}

int __attribute__((cold, noinline))
jenc_json_rs_fail(struct json_rd *r, size_t pos)
{
	return jenc_json_fail(r, pos, JENC_E_SYNTAX, JENC_K_CUT, 0,
	    "truncated JSON text before RS");
}

/* (with JENC_READ_SEQ an RS there ends the text as truncated, as it does
 * in a container) */
int __attribute__((cold, noinline))
jenc_json_str_fail(struct json_rd *r, size_t b, size_t i)
{
	unsigned char c = (unsigned char)r->in.p[i];

	if (c == RS && r->seq)
		jenc_json_rs_fail(r, i);
	else if (c < 0x20)
		jenc_json_fail(r, i, JENC_E_SYNTAX, JENC_K_CONTROL, 0,
		    "unescaped control character 0x%02x in string", c);
	else
		jenc_json_fail(r, i, JENC_E_SYNTAX, JENC_K_BYTE, 0,
		    "invalid UTF-8 byte 0x%02x in string", c);
	r->str_bad = r->in.off + b - 1;
	return JENC_E_SYNTAX;
}

int __attribute__((cold, noinline))
jenc_json_in_fail(struct json_rd *r, int rc)
{
	switch (rc) {
	case JENC_ST_FULL:
		return jenc_json_fail(r, 0, JENC_E_SYNTAX, JENC_K_LONG, 0,
		    "token longer than 2 GiB");
	case JENC_ST_OUT:
		return jenc_json_enc_fail(r);
	case JENC_E_ENCODING: {
		char m[sizeof(r->err->msg)];

		jenc_in_enc_msg(&r->in, m, sizeof(m));
		return jenc_json_fail(r, jenc_in_enc_spot(&r->in) ? ENC_POS :
		    NO_POS, JENC_E_ENCODING, JENC_K_ENCODING, 0, "%s", m);
	}
	case JENC_E_IO:
		return jenc_json_fail(r, NO_POS, JENC_E_IO, JENC_K_NONE,
		    r->in.sys_errno, "%s", strerror(r->in.sys_errno));
	default:
		return jenc_json_fail(r, NO_POS, JENC_E_NOMEM, JENC_K_NONE, 0,
		    "out of memory");
	}
}
