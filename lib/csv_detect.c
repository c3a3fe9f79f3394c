/*
 * csv_detect.c - the delimiter of the CSV/TSV reader: which bytes may be
 * one, the byte classes the scanner reads with it, and JENC_CSV_DETECT:
 * an Excel "sep=X" first line, or the delimiter guessed from the first
 * line that is not blank.
 */
#include <string.h>
#include <strings.h>

#include "csv_int.h"

int
jenc_csv_delim_ok(unsigned char d, int tsv)
{
	return d != 0 && d != '\n' && d != '\r' && d < 0x80 &&
	    d != (tsv ? '\\' : '"');
}

void
jenc_csv_set_delim(struct csv *c, unsigned char d)
{
	int tsv = (c->flags & JENC_CSV_TSV) != 0, b;

	c->delim = d;
	for (b = 0; b < 256; b++) {
		unsigned char cl = b == 0 ? C_NUL : b < 0x20 ? C_ESC :
		    b >= 0x80 ? C_HIGH : b == '"' || b == '\\' ? C_ESC : C_PLAIN;

		if (b == '\n')
			cl = C_LF;
		else if (b == '\r')
			cl = C_CR;
		c->qcls[b] = b == '"' ? C_QUOTE : cl;
		c->ucls[b] = tsv && b == '\\' ? C_BSLASH : cl;
	}
	c->ucls[d] = C_DELIM;
}

/* Reads more for jenc_csv_detect.  Returns 0 (there may be more to look
 * at), JENC_ST_FULL if the window is as long as a record may be (what it
 * holds decides), or an error. */
static int
csv_detect_more(struct csv *c)
{
	int r;

	if (c->in.len > c->max_rec + 1)
		return JENC_ST_FULL;
	if ((r = jenc_in_fill(&c->in)) == 0 || r == JENC_ST_FULL)
		return r;
	return jenc_csv_in_fail(c, r);
}

/* Could p[0..n) start an Excel "sep=X" line whose end it does not hold? */
static int
csv_sep_open(const char *p, size_t n)
{
	if (n < 4)
		return strncasecmp(p, "sep=", n) == 0;
	if (strncasecmp(p, "sep=", 4) != 0)
		return 0;
	return n == 4 || n == 5 || (n == 6 && p[5] == '\r');
}

/*
 * JENC_CSV_DETECT (jenc.h): an Excel "sep=X" first line, dropped, or the
 * delimiter found from the first line that is not blank.  Reads until
 * that line is in the window; nothing is dropped but the sep= line.  Of
 * a longer line only the first max_rec + 2 bytes of the input count
 * (csv_detect_more reads no further): a window that holds more, from
 * memory or after a large read, decides as one that holds just those.
 */
int
jenc_csv_detect(struct csv *c)
{
	static const unsigned char cand[4] = { ',', ';', '\t', '|' };
	size_t cnt[4] = { 0, 0, 0, 0 }, i = 0, best = 0, j, n;
	size_t lim = c->max_rec < SIZE_MAX - 2 ? c->max_rec + 2 : SIZE_MAX;
	const unsigned char *u;
	unsigned char d = ',';
	int inq = 0, after = 1, started = 0, r;

	/* sep=X, then LF, CR LF or CR: read while the bytes so far could
	 * still be one whose end is not known */
	while (!c->in.eof && csv_sep_open(c->in.p, c->in.len))
		if ((r = csv_detect_more(c)) != 0) {
			if (r < 0)
				return r;
			break;
		}
	u = (const unsigned char *)c->in.p;
	if (c->in.len >= 5 && strncasecmp(c->in.p, "sep=", 4) == 0 &&
	    jenc_csv_delim_ok(u[4], 0) &&
	    (c->in.len == 5 || u[5] == '\n' || u[5] == '\r')) {
		c->pos = 5;
		if (c->in.len > 5)
			c->pos += u[5] == '\r' && c->in.len > 6 &&
			    u[6] == '\n' ? 2 : 1;
		if (c->pos > 5)
			c->line = 2;
		jenc_csv_set_delim(c, u[4]);
		return 0;
	}
	/* the first line that is not blank, the state kept across reads */
	for (;;) {
		u = (const unsigned char *)c->in.p;
		n = c->in.len < lim ? c->in.len : lim;
		for (; i < n; i++) {
			unsigned char b = u[i];
			const unsigned char *p;

			if (inq) {
				if (b != '"')
					continue;
				if (i + 1 == c->in.len && !c->in.eof &&
				    i + 1 < lim)
					break;
				if (i + 1 < n && u[i + 1] == '"') {
					i++;
					continue;
				}
				inq = 0;
				after = 0;
				continue;
			}
			if (b == '\n' || b == '\r') {
				if (started)
					goto decide;
				continue;
			}
			started = 1;
			p = memchr(cand, b, 4);
			if (b == '"' && after)
				inq = 1;
			else if (p != NULL)
				cnt[p - cand]++;
			after = p != NULL;
		}
		if (c->in.eof || i >= lim)
			break;
		if ((r = csv_detect_more(c)) < 0)
			return r;
		if (r == JENC_ST_FULL)
			break;
	}
decide:
	if (cnt[0] == 0)
		for (j = 1; j < 4; j++)
			if (cnt[j] > best) {
				best = cnt[j];
				d = cand[j];
			}
	jenc_csv_set_delim(c, d);
	return 0;
}
