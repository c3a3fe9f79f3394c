/*
 * color.c - the colors of JENC_COLOR: jq 1.7.1's defaults, JQ_COLORS'
 * syntax, and the escapes an encoder writes.
 */
#include <string.h>

#include "internal.h"

/* jq 1.7.1, src/jv_print.c: def_colors and FIELD_COLOR. */
static const char *const default_sgr[JENC_COLOR_N] = {
	"0;90", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34",
};

static const char *const color_name[JENC_COLOR_N] = {
	"null", "false", "true", "numbers", "strings", "arrays", "objects",
	"objectkeys",
};

void
jenc_colors_default(jenc_colors *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < JENC_COLOR_N; i++)
		strcpy(c->sgr[i], default_sgr[i]);
}

/* The bad field spec[at..at+n), for the message. */
static int
color_fail(jenc_err *err, const char *spec, size_t at, size_t n, int field,
    const char *why)
{
	jenc_where w;

	if (err == NULL)
		return JENC_E_SYNTAX;
	memset(&w, 0, sizeof(w));
	w.offset = at;
	w.line = 1;
	w.col = at + 1;
	w.text = spec;
	w.avail = strlen(spec);
	w.eof = 1;	/* the spec ends there: its excerpt is not cut */
	w.at = at;
	if (field >= JENC_COLOR_N)
		return jenc_err_set(err, JENC_E_SYNTAX, JENC_K_NONE, 0, 0, &w,
		    "field %d: more than %d fields", field + 1, JENC_COLOR_N);
	return jenc_err_set(err, JENC_E_SYNTAX, JENC_K_NONE, 0, 0, &w,
	    "field %d (%s): '%.*s%s' %s", field + 1, color_name[field],
	    n > 32 ? 32 : (int)n, spec + at, n > 32 ? "..." : "", why);
}

int
jenc_colors_parse(jenc_colors *c, const char *spec, jenc_err *err)
{
	jenc_colors v;
	size_t at = 0;
	int i;

	jenc_colors_default(&v);
	/* As jq 1.7.1's jq_set_colors: fields until the end of spec; an
	 * empty one is ESC[m, a ':' at the very end starts no field. */
	for (i = 0; spec != NULL && spec[at] != '\0'; i++) {
		size_t n = strcspn(spec + at, ":");

		if (i >= JENC_COLOR_N)
			return color_fail(err, spec, at, n, i, "");
		if (strspn(spec + at, "0123456789;") < n)
			return color_fail(err, spec, at, n, i,
			    "is not a color (digits and ';')");
		if (n > JENC_COLOR_MAX)
			return color_fail(err, spec, at, n, i,
			    "is longer than 16 bytes");
		memcpy(v.sgr[i], spec + at, n);
		v.sgr[i][n] = '\0';
		at += n;
		if (spec[at] == ':')
			at++;
	}
	*c = v;
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	return 0;
}

void
jenc_pal_init(jenc_pal *p, const jenc_colors *c)
{
	jenc_colors d;
	int i;

	if (c == NULL) {
		jenc_colors_default(&d);
		c = &d;
	}
	for (i = 0; i <= JENC_COLOR_N; i++) {
		const char *sgr = i < JENC_COLOR_N ? c->sgr[i] : "0";
		size_t n = strnlen(sgr, JENC_COLOR_MAX);

		p->esc[i][0] = '\033';
		p->esc[i][1] = '[';
		memcpy(p->esc[i] + 2, sgr, n);
		p->esc[i][n + 2] = 'm';
		p->len[i] = (unsigned char)(n + 3);
	}
}
