/*
 * json_scan.c - the JSON reader's slow path: the input checked byte by
 * byte with the grammar's steps (json_walk.c) where jsmn stopped, with an
 * error, at a NUL byte or at the end of the input, so that each error is
 * named at its exact place (each byte's class picks the step, and the
 * steps take their transitions and messages from the grammar's table, as
 * the walks do); and the check of a string body with its escapes that it
 * needs.
 */
#include <stdio.h>

#include "json.h"

/*
 * Check a string body from b: 0 with the index of the closing quote in
 * *q, JENC_ST_MORE if there is none before `limit`, or JENC_E_SYNTAX
 * after reporting an error.
 */
static int
json_str_scan(struct json_rd *r, size_t b, size_t limit, size_t *q)
{
	const unsigned char *p = (const unsigned char *)r->in.p;
	size_t i = b;

	while (i < limit) {
		i = scan_find(p, i, limit, NULL, '"', '\\', '\\');
		if (i >= limit)
			break;
		unsigned char c = p[i];
		if (c == '"') {
			*q = i;
			return 0;
		}
		if (c == '\\') {
			size_t len;
			int k = scan_esc_len(p, i, limit, &len);

			if (k == 0) {
				i += len;
				continue;
			}
			if (k == JENC_ST_MORE)
				return JENC_ST_MORE;
			if (p[i + 1] == 'u') {
				jenc_json_fail(r, i, JENC_E_SYNTAX,
				    JENC_K_ESCAPE, 0,
				    "invalid \\u escape in string, "
				    "expected 4 hex digits");
				r->str_bad = r->in.off + b - 1;
				return JENC_E_SYNTAX;
			}
			char found[32];
			if (p[i + 1] > 0x20 && p[i + 1] < 0x7f)
				snprintf(found, sizeof(found), "'\\%c'", p[i + 1]);
			else
				snprintf(found, sizeof(found), "'\\' + byte 0x%02x",
				    p[i + 1]);
			jenc_json_fail(r, i, JENC_E_SYNTAX, JENC_K_ESCAPE, 0,
			    "invalid escape %s in string", found);
			r->str_bad = r->in.off + b - 1;
			return JENC_E_SYNTAX;
		}
		if (c < 0x20) {
			(void)jenc_json_str_fail(r, b, i);
			return JENC_E_SYNTAX;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t k = jenc_utf8_seq(p + i, limit - i, &cp);
		if (k == 0) {
			/* A sequence cut by the window end may complete later. */
			if (!r->in.eof && limit == r->in.len &&
			    jenc_utf8_cut(p + i, limit - i))
				return JENC_ST_MORE;
			(void)jenc_json_str_fail(r, b, i);
			return JENC_E_SYNTAX;
		}
		i += k;
	}
	return JENC_ST_MORE;
}

static int json_slow_scan_run(struct json_rd *r, size_t pos, size_t limit);

/*
 * The slow path: check win[pos..limit) byte by byte with our own grammar,
 * after jsmn stopped with an error, at a NUL byte, or at the end of input.
 * Returns 0 if everything up to limit is fine so far.  The work counted
 * is what the scan read: up to where it stopped (r->cur), not limit, which
 * an error or the end of a top-level value may come long before.
 */
int
jenc_json_slow_scan(struct json_rd *r, size_t pos, size_t limit)
{
	int rc = json_slow_scan_run(r, pos, limit);
	size_t end = r->cur >= pos && r->cur < limit ? r->cur + 1 : limit;

	jenc_work_add(JENC_W_SLOW, end > pos ? end - pos : 0);
	return rc;
}

static int
json_slow_scan_run(struct json_rd *r, size_t pos, size_t limit)
{
	size_t from = pos;

	r->gap_to = NO_POS;	/* cur is the scan's */
	while (pos < limit) {
		r->cur = pos;	/* checked so far (jenc_json_fail reads it) */
		if (r->stop_top && pos > from && r->st == S_TOP)
			return 0;
		unsigned char c = (unsigned char)r->in.p[pos];

		if (c == RS && r->seq) {
			if (r->st != S_TOP)
				return jenc_json_rs_fail(r, pos);
			if (json_skip_ws(r, pos, pos + 1) != 0)
				return JENC_E_SYNTAX;
			pos++;
			continue;
		}
		switch (json_byte_class(c)) {
		case G_QUOTE: {
			size_t q;
			int st;

			if (jenc_json_token_check(r, pos, G_QUOTE) != 0)
				return JENC_E_SYNTAX;
			st = json_str_scan(r, pos + 1, limit, &q);
			if (st < 0)
				return JENC_E_SYNTAX;
			if (st == JENC_ST_MORE) {
				if (!r->in.eof) {
					r->cur = pos;
					return 0;
				}
				return jenc_json_fail(r, pos, JENC_E_SYNTAX,
				    JENC_K_CUT, 0,
				    "unterminated string, found end of input");
			}
			if (jenc_json_string(r, pos, q, 0) != 0)
				return JENC_E_SYNTAX;
			pos = q + 1;
			break;
		}
		case G_LBRACKET:
		case G_LBRACE:
			if (jenc_json_open(r, pos, (char)c) != 0)
				return JENC_E_SYNTAX;
			pos++;
			break;
		case G_WORD: {
			size_t k = pos;

			while (k < limit &&
			    json_word_byte((unsigned char)r->in.p[k]))
				k++;
			if (k == limit && !r->in.eof) {
				r->cur = pos;
				return 0;
			}
			int rc = jenc_json_primitive(r, pos, k);

			if (rc != 0 && rc != JENC_ST_RESTART)
				return JENC_E_SYNTAX;
			pos = k;
			break;
		}
		default:	/* between tokens */
			if (jenc_json_gap(r, pos, pos + 1) != 0)
				return JENC_E_SYNTAX;
			pos++;
			break;
		}
	}
	r->cur = pos;
	return 0;
}
