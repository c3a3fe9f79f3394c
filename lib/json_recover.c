/*
 * json_recover.c - the JSON reader after bad input, with JENC_READ_SKIP
 * or JENC_READ_PASS: where the bad text starts and ends (jenc.h says
 * which text that is), passing it through or dropping it, and the state
 * from which the reader (json.c) starts afresh after it.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"

/* The bad text as recover reads on through it. */
struct json_bad {
	size_t spot;		/* the error's place in the window */
	size_t from;		/* the bad text starts here */
	size_t i;		/* ... and ends here, so far */
	size_t stop;		/* it ends before this line (NO_POS: read on) */
	int pass;		/* it is to be passed through */
	int d;			/* brackets open */
	int instr, esc;		/* in a string, after its backslash */
	int nl;			/* --seq: the last byte was a line end */
	int dropped;		/* the window dropped its start */
	uint64_t lines;		/* its lines */
	uint64_t resume_line;	/* the line reading resumes on */
};

/*
 * One byte c of text followed for its strings and brackets (*instr: in a
 * string, *esc: after its backslash): +1 for a bracket opened, -1 for one
 * closed, else 0.
 */
static inline int
json_lex_step(int *instr, int *esc, unsigned char c)
{
	if (*instr) {
		if (*esc)
			*esc = 0;
		else if (c == '\\')
			*esc = 1;
		else if (c == '"')
			*instr = 0;
		return 0;
	}
	if (c == '"')
		*instr = 1;
	return c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
}

/* Does a line starting at in.p[i] start a new value, after a bad one? */
static int
json_starts_value(const struct json_rd *r, size_t i)
{
	char c = r->in.p[i];

	return c == '{' || c == '[';
}

/* Where the bad text starts (b->from), and whether it may be passed. */
static void
json_bad_start(struct json_rd *r, struct json_bad *b)
{
	jenc_err *err = r->err;
	size_t spot;

	memset(b, 0, sizeof(*b));
	/* (an error in a string: the scan of json_bad_read starts in it) */
	b->d = (int)r->depth;
	b->instr = r->str_bad != NO_OFF;
	/* (text part of which is out is not passed: not a value cut short,
	 * nor a split array some elements of which were written) */
	b->pass = r->policy == JENC_READ_PASS && r->e != NULL && !err->cut &&
	    !r->split_out;
	b->lines = 1;
	b->resume_line = err->line;
	spot = (size_t)(err->offset - r->in.off);
	if (spot > r->in.len)
		spot = r->in.len;
	b->spot = spot;
	/* found at the end of the input: more input would change it */
	if (spot == r->in.len && r->in.eof)
		r->cut_end = 1;
	/* (a value is lost when its line starts more than PASS_MAX bytes
	 * before the error, whatever the window still holds) */
	if (r->depth == 0)
		/* a bad top-level string starts at its quote */
		b->from = b->instr && r->str_bad >= r->in.off &&
		    r->str_bad - r->in.off <= spot ?
		    (size_t)(r->str_bad - r->in.off) : spot;
	else if (r->vstart >= r->in.off && !r->lost &&
	    spot - json_line_start(r, (size_t)(r->vstart - r->in.off)) <=
	    PASS_MAX)
		b->from = (size_t)(r->vstart - r->in.off);
	else {
		b->from = spot;
		b->pass = 0;
	}
	if (!r->seq) {
		b->from = json_line_start(r, b->from);
		if (r->vend >= r->in.off + b->from &&
		    r->vend <= r->in.off + spot)
			b->from = (size_t)(r->vend - r->in.off);
	}
}

/*
 * The line ends of in.p[a..spot).  The bad texts of one error replayed
 * (see json_replay_note) end nearer and nearer to its place, and those
 * of depth errors one after another (jenc_json_deep) start and end later
 * and later: each count is the last one less the line ends between the
 * two starts, plus those between the two places, so that counting them
 * all takes time in the length of the text, not its square.
 */
static uint64_t
json_lines_to(struct json_rd *r, size_t a, size_t spot)
{
	uint64_t n, at = r->in.off + a;

	if (r->nl_at <= at && r->nl_at >= r->in.off &&
	    r->nl_spot <= r->in.off + spot && r->nl_spot >= r->in.off) {
		size_t i = (size_t)(r->nl_at - r->in.off);
		size_t k = (size_t)(r->nl_spot - r->in.off);

		n = r->nl_n - jenc_count_lines(r->in.p + i, a - i, NULL) +
		    jenc_count_lines(r->in.p + k, spot - k, NULL);
	} else {
		n = jenc_count_lines(r->in.p + a, spot - a, NULL);
	}
	r->nl_at = at;
	r->nl_spot = r->in.off + spot;
	r->nl_n = n;
	return n;
}

/*
 * A line after the bad value's first one that starts a new value (a line
 * cut short, then a good one that went into the bad value): the bad text
 * ends before the first such line, and reading resumes there (b->stop).
 * Likewise at the RS after a truncated text, and at the end of the input.
 * A JENC_SPLIT array some elements of which were written: no line before
 * the error's starts one (it would read a written element again), the
 * error's own if the error is at its start.  Counts the bad text's lines
 * up to the error, or to the stop.
 */
static void
json_bad_stop(struct json_rd *r, struct json_bad *b)
{
	size_t q, i, spot = b->spot, from = b->from, stop = NO_POS;
	/* (a record a view rejected at its first token: the value that
	 * starts on the error's line is the bad one, not a new one) */
	size_t last = r->err->kind == JENC_K_RECORD ? spot : spot + 1;

	if (!r->seq && r->depth > 0)
		for (q = r->split_out && spot > from ? spot : from + 1;
		    q < last && q < r->in.len; q++)
			if (r->in.p[q - 1] == '\n' && json_starts_value(r, q)) {
				stop = q;
				break;
			}
	if (stop == NO_POS && spot > from && ((spot == r->in.len &&
	    r->in.eof) || (r->seq && (unsigned char)r->in.p[spot] == RS))) {
		stop = spot;
		r->cut_end = spot == r->in.len;
	}
	for (i = from; i < (stop != NO_POS ? stop : spot); i++)
		b->lines += r->in.p[i] == '\n' &&
		    (stop == NO_POS || i + 1 < stop);
	b->i = spot;
	b->stop = stop;
	if (stop != NO_POS) {
		b->resume_line -= json_lines_to(r, stop, spot);
		b->i = stop;
	}
}

/*
 * The window is read to its end at b->i: read more, dropping what is
 * before b->i unless it is to be passed.  0, or the reading's error.
 */
static int
json_bad_more(struct json_rd *r, struct json_bad *b)
{
	int rc;

	if (b->pass && b->i - b->from > PASS_MAX)
		b->pass = 0;
	if (!b->pass) {
		/* nothing before i is needed any more, but with --seq
		 * reading may resume mid-line: keep that line's start (up
		 * to JENC_IN_CONTEXT bytes), which a later excerpt shows */
		size_t k = r->seq ? jenc_in_keep(&r->in, b->i) : b->i;

		jenc_in_drop(&r->in, k);
		b->from = b->spot = b->i = b->i - k;
		b->dropped = 1;
	}
	if ((rc = jenc_in_fill(&r->in)) != 0)
		return jenc_json_in_fail(r, rc);
	return 0;
}

/*
 * The byte c of the bad text, not --seq: strings and brackets followed
 * so that a line end with every bracket closed ends it.  JENC_ST_END if
 * the bad text ends after c, 0 if it goes on, or an error code (after the
 * line end of a value still open, reading on failed).
 */
static int
json_bad_byte(struct json_rd *r, struct json_bad *b, unsigned char c)
{
	int rc;

	b->d += json_lex_step(&b->instr, &b->esc, c);
	if (c != '\n')
		return 0;
	b->resume_line++;
	b->instr = b->esc = 0;
	if (b->d <= 0)
		return JENC_ST_END;
	/* the value is still open: does the next line go on with it? */
	while (b->i == r->in.len && !r->in.eof)
		if ((rc = json_bad_more(r, b)) != 0)
			return rc;
	if (b->i == r->in.len) {
		r->cut_end = 1;
		return JENC_ST_END;
	}
	if (json_starts_value(r, b->i))
		return JENC_ST_END;
	b->lines++;
	return 0;
}

/* Read on from b->spot to the end of the bad text.  0 or an error code. */
static int
json_bad_read(struct json_rd *r, struct json_bad *b)
{
	int rc;

	for (;;) {
		if (b->i == r->in.len) {
			if (r->in.eof) {
				r->cut_end = 1;
				return 0;
			}
			if ((rc = json_bad_more(r, b)) != 0)
				return rc;
			continue;
		}
		unsigned char c = (unsigned char)r->in.p[b->i];

		if (r->seq) {
			/* (an RS that starts the bad text is part of it) */
			if (c == RS && (b->i > b->from || b->dropped))
				return 0;
			/* a line end followed by more of the text (kept in
			 * nl, as the window may have dropped it) */
			if (b->nl)
				b->lines++;
			b->nl = c == '\n';
			b->i++;
			continue;
		}
		b->i++;
		if ((rc = json_bad_byte(r, b, c)) != 0)
			return rc == JENC_ST_END ? 0 : rc;
	}
}

/* Pass the bad text in.p[from..i) through, or say in the message why it
 * was not.  0 or the encoder's error code. */
static int
json_bad_pass(struct json_rd *r, struct json_bad *b)
{
	jenc_err *err = r->err;
	size_t i = b->i, from = b->from;

	err->lines = b->lines;
	if (b->pass && i - from > PASS_MAX)
		b->pass = 0;
	if (b->pass) {
		/* with JENC_READ_JSONC, what this reading on brought in is
		 * blanked as the rest, whatever the window's ends were */
		if (r->jsonc)
			jenc_json_jsonc_upto(r, i, 0);
		/* (an empty bad text, as at the end of the input after a
		 * byte order mark, has nothing to pass) */
		if (i > from) {
			EMIT(jenc_passthru(r->e, r->in.p + from, i - from));
			if (r->in.p[i - 1] != '\n')
				EMIT(jenc_passthru(r->e, "\n", 1));
		}
		err->passed = 1;
	} else if (r->policy == JENC_READ_PASS && r->e != NULL) {
		size_t k = strlen(err->msg);

		snprintf(err->msg + k, sizeof(err->msg) - k, "%s",
		    err->cut || r->split_out ? " (not passed through)" :
		    " (too long to pass through, dropped)");
	}
	return 0;
}

/*
 * A syntax error inside a value: a document cut short, or lines that each
 * open a bracket ("[\n[\n[\n..."), has the same error at the same place
 * for each of its lines that starts a value, and reading from each such
 * line to that place again would make the work grow with the square of
 * the input.  So the brackets still open at the error are found once (a
 * scan that follows the strings and brackets of text the reader accepted),
 * and a top-level value that later starts at one of them gets the error
 * again (jenc_json_replay) as reading it would: the same place and message
 * (its context, the innermost open value, starts at or after that
 * bracket), as many brackets open as are open from it on, and no output
 * (the error's value was not cut, so this one, inside it, is held whole
 * too).  Only where nothing else could tell the difference: no view, no
 * JENC_SPLIT, not --seq, JSONC, blank lines told or one value only, no
 * scout thread.
 */
static void
json_replay_note(struct json_rd *r)
{
	const jenc_err *err = r->err;
	size_t spot, i, n = 0;
	int instr = 0, esc = 0;

	r->rp_i = r->rp_n = 0;
	if (err->code != JENC_E_SYNTAX || err->cut || r->depth == 0 ||
	    r->seq || r->jsonc || r->single || r->blank || r->pipe != NULL ||
	    r->split_out || r->vstart < r->in.off || err->offset < r->vstart ||
	    err->offset > r->in.off + r->in.len)
		return;
	if (r->e != NULL) {
		jenc_opts o;

		jenc_enc_like(r->e, &o);
		if ((o.flags & JENC_SPLIT) || jenc_enc_view(r->e) != NULL)
			return;
	}
	if (jenc_grow((void **)&r->rp_at, &r->rp_cap, r->depth, 16,
	    sizeof(uint64_t)) != 0)
		return;
	spot = (size_t)(err->offset - r->in.off);
	for (i = (size_t)(r->vstart - r->in.off); i < spot; i++) {
		int step = json_lex_step(&instr, &esc,
		    (unsigned char)r->in.p[i]);

		if (step > 0) {
			if (n == r->depth)
				return;	/* not what the reader saw */
			r->rp_at[n++] = r->in.off + i;
		} else if (step < 0 && n-- == 0) {
			return;
		}
	}
	if (n != r->depth)
		return;
	r->rp_i = 1;	/* (the first is the error's own value) */
	r->rp_n = n;
	r->rp_err = *err;
	r->rp_str_bad = r->str_bad;
}

int
jenc_json_replay(struct json_rd *r, size_t pos)
{
	uint64_t at = r->in.off + pos;

	while (r->rp_i < r->rp_n && r->rp_at[r->rp_i] < at)
		r->rp_i++;
	if (r->rp_i == r->rp_n || r->rp_at[r->rp_i] != at)
		return 0;
	if (r->rp_err.offset > r->in.off + r->in.len) {
		r->rp_i = r->rp_n = 0;
		return 0;
	}
	/* the reader and the encoder as jenc_json_fail leaves them there */
	r->vstart = at;
	r->lost = 0;
	if (r->e != NULL)
		(void)jenc_flush(r->e);
	*r->err = r->rp_err;
	r->depth = (unsigned)(r->rp_n - r->rp_i);
	r->str_bad = r->rp_str_bad;
	r->split_out = 0;
	r->rp_i++;
	r->rp_again = 1;
	return JENC_E_SYNTAX;
}

/* May the reader take up a value where the last depth error was
 * (jenc_json_deep)?  As for json_replay_note, only where nothing else
 * could tell: no output (validating), or compact output held whole by
 * the encoder up to hold_max (the value's text in the window is kept
 * under it: ff_max).  (A scout thread is stopped by the error: jsmn is
 * this thread's from there on.) */
static int
json_deep_ok(struct json_rd *r)
{
	jenc_opts o;

	if (r->seq || r->jsonc || r->single || r->blank || r->pipe_on ||
	    r->split_out)
		return 0;
	r->ff_max = PASS_MAX;
	if (r->e == NULL)
		return 1;
	jenc_enc_like(r->e, &o);
	if (!r->bulk || !(o.flags & JENC_HOLD) || (o.flags & JENC_SPLIT) ||
	    jenc_enc_view(r->e) != NULL)
		return 0;
	if (o.hold_max < r->ff_max)
		r->ff_max = o.hold_max;
	return 1;
}

/*
 * A depth error: note the brackets open at it (dp_pos, dp_c), found by a
 * scan that follows the strings and brackets of the text the reader
 * accepted, from the value's start; for a value taken up at the last
 * depth error (ff_on), its brackets open there are noted already, and
 * the scan starts at that error's bracket.  So each byte is scanned once
 * however many values start inside the last one.
 */
static void
json_deep_note(struct json_rd *r)
{
	const jenc_err *err = r->err;
	size_t spot, i, d = r->depth;
	uint64_t from;
	int instr = 0, esc = 0, ff = r->ff_on;

	r->ff_on = 0;
	r->dp_on = 0;
	if (err->code != JENC_E_DEPTH || err->cut || d == 0 ||
	    d != r->max_depth || !json_deep_ok(r) || r->vstart < r->in.off ||
	    err->offset < r->vstart || err->offset >= r->in.off + r->in.len)
		return;
	from = ff ? r->ff_at : r->vstart;
	if (!ff)
		r->dp_lo = r->dp_hi = 0;
	if (from < r->in.off || from > err->offset || r->dp_hi - r->dp_lo > d)
		return;
	if (r->dp_lo + d > r->dp_cap || r->dp_lo + d > r->dp_ccap) {
		/* (moved down only when the front is most of it: each
		 * bracket is moved a constant number of times) */
		if (r->dp_lo > 0) {
			memmove(r->dp_pos, r->dp_pos + r->dp_lo,
			    (r->dp_hi - r->dp_lo) * sizeof(uint64_t));
			memmove(r->dp_c, r->dp_c + r->dp_lo,
			    r->dp_hi - r->dp_lo);
			r->dp_hi -= r->dp_lo;
			r->dp_lo = 0;
		}
		if (jenc_grow((void **)&r->dp_pos, &r->dp_cap, 2 * d, 16,
		    sizeof(uint64_t)) != 0 ||
		    jenc_grow((void **)&r->dp_c, &r->dp_ccap, 2 * d, 16,
		    1) != 0)
			return;
	}
	spot = (size_t)(err->offset - r->in.off);
	for (i = (size_t)(from - r->in.off); i < spot; i++) {
		unsigned char c = (unsigned char)r->in.p[i];
		int step = json_lex_step(&instr, &esc, c);

		if (step > 0) {
			if (r->dp_hi - r->dp_lo == d)
				return;	/* not what the reader saw */
			r->dp_pos[r->dp_hi] = r->in.off + i;
			r->dp_c[r->dp_hi++] = c;
		} else if (step < 0) {
			if (r->dp_hi == r->dp_lo)
				return;
			r->dp_hi--;
		}
	}
	if (r->dp_hi - r->dp_lo != d ||
	    memcmp(r->dp_c + r->dp_lo, r->stk, d) != 0)
		return;
	r->dp_on = 1;
	r->dp_i = r->dp_lo + 1;	/* (the first is the error's own value) */
	r->dp_st = r->st;
	r->dp_at = err->offset;
	r->dp_line = err->line;
}

int
jenc_json_deep(struct json_rd *r, size_t pos)
{
	uint64_t at = r->in.off + pos;
	size_t n, ls, p, pls;

	while (r->dp_i < r->dp_hi && r->dp_pos[r->dp_i] < at)
		r->dp_i++;
	if (r->dp_i == r->dp_hi || r->dp_pos[r->dp_i] != at)
		return 0;
	if (r->dp_at >= r->in.off + r->in.len || r->dp_at <= at) {
		r->dp_on = 0;
		return 0;
	}
	/* (its text in the window, from its line on, under ff_max: see
	 * json_next_window) */
	ls = json_line_start(r, pos);
	if (r->in.len - ls > r->ff_max ||
	    (r->bulk && jenc_frag_begin(r->e) != 0))
		return 0;
	n = r->dp_hi - r->dp_i;
	memcpy(r->stk, r->dp_c + r->dp_i, n);	/* (stk held more) */
	r->dp_lo = r->dp_i;
	r->dp_on = 0;
	p = (size_t)(r->dp_at - r->in.off);
	/* the reader as reading from pos leaves it at p */
	r->depth = (unsigned)n;
	r->st = r->dp_st;
	r->vstart = at;
	r->lost = 0;
	r->str_bad = NO_OFF;
	r->split_out = 0;
	r->bol = 0;
	r->cur = r->from = r->tend = p;
	/* (its next error is often near: jsmn reads little at first) */
	r->piece = DEEP_PIECE;
	r->ff_on = 1;
	r->ff_b = at;
	r->ff_at = r->dp_at;
	r->ff_ls = r->in.off + ls;
	/* the next error's line is counted from p's line, not from here */
	pls = json_line_start(r, p);
	if (pls > 0)
		jenc_in_mark(&r->in, pls, r->dp_line);
	return 1;
}

void
jenc_json_deep_undo(struct json_rd *r)
{
	size_t b = (size_t)(r->ff_b - r->in.off);

	if (r->e != NULL)
		(void)jenc_discard(r->e);
	r->ff_on = r->ff_undo = 0;
	r->dp_on = 0;
	r->depth = 0;
	r->st = S_TOP;
	r->cur = r->from = r->tend = b;
	r->str_bad = NO_OFF;
	r->lost = 0;
	r->bol = b == 0 || r->in.p[b - 1] == '\n';
}

int
jenc_json_recover(struct json_rd *r)
{
	struct json_bad b;
	size_t i;
	int rc;

	json_deep_note(r);
	if (!r->rp_again)
		json_replay_note(r);
	r->rp_again = 0;
	json_bad_start(r, &b);
	json_bad_stop(r, &b);
	if (b.stop == NO_POS && (rc = json_bad_read(r, &b)) != 0)
		return rc;
	if ((rc = json_bad_pass(r, &b)) != 0)
		return rc;
	/* on at in.p[i]; the window slides as usual (dropping here would
	 * move what is left of it for every bad line), and the next error's
	 * line is counted from here */
	i = b.i;
	if (!r->seq && i > 0 && i < r->in.len && r->in.p[i - 1] == '\n')
		jenc_in_mark(&r->in, i, b.resume_line);
	r->depth = 0;
	r->st = S_TOP;
	r->cur = i;
	r->from = i;
	r->lost = 0;
	r->bom = 0;	/* it announced this bad text: not alone at the end */
	r->bol = i == 0 || r->in.p[i - 1] == '\n';
	r->str_bad = NO_OFF;
	r->piece = BAD_PIECE;
	return 0;
}
