/*
 * json.c - the streaming JSON reader's driver: jsmn finds the tokens (through
 * the adapter of jsmnx.c), the walk (json_walk.c) checks everything jsmn lets
 * through and re-encodes each value as it completes; this file runs them
 * over the window of input, and holds the entry points.
 *
 * jsmn (JSMN_STRICT, JSMN_PARENT_LINKS) runs over a window of input (the
 * input layer's, in.c) with a small token array; only this file changes
 * its parser.  Each time it returns, the new tokens are
 * walked in order, and the bytes between them (separators, closing
 * brackets) go through the reader's state machine, so trailing or missing
 * commas, stray colons and brackets, bad literals and numbers, raw control
 * bytes and invalid UTF-8 are caught at their exact position.  Then the
 * token array is compacted to what jsmn still needs (the chain of open
 * containers from toksuper up, and a key still waiting for its ':'), and
 * the window slides past the consumed bytes so positions never approach
 * jsmn's int limit.  A string or number cut by the window end is not
 * handed to jsmn again until what ends it has arrived
 * (json_jsmn_cut_ends), so a long token arriving in small pieces costs
 * linear time.  When jsmn reports an error, the slow scan (json_scan.c)
 * re-reads from that point to say precisely what is wrong, after reading
 * on to the end of its line for the excerpt (json_err.c); with SKIP or
 * PASS, json_recover.c finds the end of the bad text and the loop goes on
 * after it.
 *
 * jenc_json_pipe runs the same reader with the tokens of a second thread
 * (pipe.c), which reads the input and tokenizes it as json_jsmn_tokenize
 * would, in slots of text the window takes whole; where that thread stops
 * (anything but clean text, the end of the input) its jsmn state becomes
 * this thread's, and the reader goes on alone.
 *
 * Output goes call by call (jenc_obj_begin, jenc_raw_str, ...), except
 * when the encoder writes compact output with no escaping flag: then a
 * value's output is its input minus whitespace, so the walk only checks,
 * and runs of input between whitespace go to the encoder as fragments of
 * the top-level value (bulk mode, jenc_frag_*).
 */
#include <limits.h>
#include <string.h>

#include "json.h"

#define WIN_INIT ((size_t)256 * 1024)
#define WIN_MAX ((size_t)INT_MAX - 64)
#define TOK_INIT 4096u
#define DEPTH_DEFAULT 10000u
#define DEEP_CHUNK ((size_t)64)
#define SK_ROOM JENC_SKEL_ROOM(JENC_SKEL_MAX)	/* skeleton entries */

/* ---- jsmn ---------------------------------------------------------------- */

/* (jsmnx.h says what jsmn keeps between calls, and why the window may
 * slide under it, the finished tokens go, and a fresh start at top
 * level) */

/*
 * Start afresh at pos, at top level, with no token: jsmn_init's state at
 * another position.  Only right where nothing is open (a top-level value
 * just ended), or where jsmn's state no longer matters (after an error).
 */
static void
json_jsmn_restart(struct json_rd *r, size_t pos)
{
	json_pipe_stop(r);
	r->gap_to = NO_POS;
	jenc_jsmn_init(&r->jp, pos);
	r->done = 0;
	r->pend = NO_POS;
	r->sk.valid = 0;
	r->sk.ok_lo = r->sk.ok_hi = 0;
}

/*
 * jsmn_parse over in.p[pos..len): over skeletons of the window
 * (jenc_jsmn_sk_parse), or over the window itself with JENC_READ_EXACT
 * or for a piece short of the window's end; with a scout, its tokens.
 */
static int json_pipe_tokenize(struct json_rd *r, size_t len);

static int
json_jsmn_tokenize(struct json_rd *r, size_t len)
{
	if (r->pipe_on)
		return json_pipe_tokenize(r, len);
	if (r->sk.buf == NULL || len < r->in.len)
		return jenc_jsmn_parse(&r->jp, r->in.p, len, r->tok, r->ntok);
	return jenc_jsmn_sk_parse(&r->sk, &r->jp, r->tok, r->ntok, r->in.p,
	    r->in.off, len);
}

/*
 * json_jsmn_tokenize with the scout's tokens (jenc_json_pipe): those of the
 * slots whose text the window holds, as many as tok[] takes, their
 * positions moved into the window; jsmn's result as it would be.  The
 * walk checks them as it does jsmn's (a string's text is known to be
 * clean: the scout's skeletons took it).  Where the scout stopped, its
 * jsmn state becomes ours and jsmn goes on here.
 */
static int
json_pipe_tokenize(struct json_rd *r, size_t len)
{
	const struct jenc_pipe_slot *s;
	unsigned n = 0;

	r->sk.ok_lo = 0;
	r->sk.ok_hi = SIZE_MAX;
	while ((s = jenc_pipe_next(r->pipe)) != NULL) {
		size_t base = (size_t)(s->off - r->in.off);
		size_t k = r->pipe_k > s->first ? r->pipe_k : s->first;
		size_t m = s->ntok - k, i;
		const uint32_t *map = s->map;

		if (m > r->ntok - n)
			m = r->ntok - n;
		/* positions in the skeleton to positions in the window, as
		 * json_jsmn_tokenize turns them; or, when the scout turned
		 * them into the slot text's (s->mapped), only moved */
		for (i = 0; i < m; i++) {
			jsmntok_t t = s->tok[k + i];

			if (!s->mapped) {
				jenc_jsmn_tok_text(&t, map, base);
			} else {
				t.start += (int)base;
				if (t.end >= 0)
					t.end += (int)base;
			}
			r->tok[n++] = t;
		}
		r->pipe_k = k += m;
		r->jp.toknext = n;
		r->done = 0;
		if (k < s->ntok) {
			/* tok[] is full: the next call goes on at the next
			 * token's first byte, as jsmn would */
			const jsmntok_t *t = &s->tok[k];

			r->jp.pos = (unsigned)(base + (s->mapped ?
			    (size_t)t->start - (t->type == JSMN_STRING) :
			    map[t->start - (t->type == JSMN_STRING)]));
			return JSMN_ERROR_NOMEM;
		}
		r->jp.pos = (unsigned)(base + s->tok_end);
		r->pipe_open = s->open;
		if (s->takeover) {
			if (n > 0)	/* walk these first */
				return JSMN_ERROR_NOMEM;
			/* (tok[] has room for twice the longest chain) */
			if (s->nchain > 0)
				memcpy(r->tok, s->chain,
				    s->nchain * sizeof(jsmntok_t));
			r->jp = s->jp;
			r->jp.pos = (unsigned)(base + s->tok_end);
			r->done = s->nchain;
			r->pend = NO_POS;
			r->sk.valid = 0;
			r->pipe_k = 0;
			jenc_pipe_next_done(r->pipe);
			json_pipe_stop(r);
			return json_jsmn_tokenize(r, len);
		}
		r->pipe_k = 0;
		jenc_pipe_next_done(r->pipe);
	}
	return r->pipe_open ? JSMN_ERROR_PART : (int)n;
}

/*
 * Cheap trim after each jsmn call: every open container is toksuper or an
 * ancestor of it, so a lower index; the tokens after toksuper are finished
 * values already walked, which jsmn's climbs would only step over.  A key
 * still waiting for its ':' moves down to just after toksuper, where jsmn
 * takes it as the key (toknext - 1) when the ':' comes.
 */
static void
json_jsmn_trim(struct json_rd *r)
{
	unsigned n = (unsigned)(r->jp.toksuper + 1);

	if (r->pipe_on) {
		r->jp.toknext = r->done = 0;
		return;
	}
	if (r->st == S_OBJ_COLON && r->jp.toknext > n) {
		r->tok[n] = r->tok[r->jp.toknext - 1];
		n++;
	}
	if (n < r->jp.toknext) {
		r->jp.toknext = n;
		r->done = n;
	}
}

/*
 * Keep only the tokens jsmn still needs (jenc_jsmn_chain): the chain of
 * open containers (and keys awaiting values) from toksuper up, plus a key
 * still waiting for its ':', moved down to the front of tok[].  The token
 * array doubles when the chain fills half of it.  Returns 0 or
 * JENC_E_NOMEM.
 */
static int
json_jsmn_compact(struct json_rd *r)
{
	jsmntok_t chain[64], *ch = chain;
	int pending = r->st == S_OBJ_COLON && r->jp.toknext > 0 ?
	    (int)r->jp.toknext - 1 : -1;
	unsigned n;

	if (r->pipe_on) {
		r->jp.toknext = r->done = 0;
		return 0;
	}
	n = jenc_jsmn_chain_len(r->tok, &r->jp, NULL) + (pending >= 0);
	if (n > 64 && (ch = jenc_mem_alloc(n * sizeof(*ch))) == NULL)
		return JENC_E_NOMEM;
	(void)jenc_jsmn_chain(r->tok, &r->jp, pending, ch, n, &r->jp, NULL);
	memcpy(r->tok, ch, n * sizeof(*ch));
	if (ch != chain)
		jenc_mem_free(ch, n * sizeof(*ch));
	r->done = n;
	if (n * 2 > r->ntok) {
		unsigned nn = r->ntok * 2;
		jsmntok_t *nt = jenc_mem_realloc(r->tok,
		    r->ntok * sizeof(jsmntok_t), nn * sizeof(jsmntok_t));

		if (nt == NULL)
			return JENC_E_NOMEM;
		r->tok = nt;
		r->ntok = nn;
	}
	return 0;
}

/*
 * jsmn returned JSMN_ERROR_PART with pos at a string or primitive the
 * window end cuts.  On its next call it would scan that token again from
 * its first byte, so calling it after every short read of a long token
 * would take time quadratic in its length.  Instead json_jsmn_cut_ends
 * scans the bytes that arrive, as jsmn would, until its next call can end
 * otherwise than JSMN_ERROR_PART for the token.  jsmn_parse then makes the
 * token as always: the scan only says when to call it.
 */
static void
json_jsmn_cut(struct json_rd *r)
{
	r->pend = r->jp.pos;
	r->pend_scan = r->jp.pos + (r->in.p[r->jp.pos] == '"');
}

/*
 * 0 when the window now holds what ends the cut token for jsmn: for a
 * primitive, a byte it stops or fails at (space, ',', ']', '}', a control
 * byte, NUL, a byte from 0x7f); for a string its closing quote, a NUL
 * byte or an escape it rejects.  Else JENC_ST_MORE, and pend_scan moves
 * on to the window end, or to a backslash whose escape is not all in yet.
 * The bytes scanned are counted (cut_bytes).
 */
static int
json_jsmn_cut_ends(struct json_rd *r)
{
	const unsigned char *p = (const unsigned char *)r->in.p;
	size_t i = r->pend_scan, n = r->in.len, len;
	int k, st = JENC_ST_MORE;

	if (p[r->pend] != '"') {
		while (i < n && p[i] > ' ' && p[i] < 0x7f && p[i] != ',' &&
		    p[i] != ']' && p[i] != '}')
			i++;
		if (i < n)
			st = 0;
	} else {
		while ((i = scan_find(p, i, n, NULL, '"', '\\', '\\')) < n) {
			if (p[i] == '"' || p[i] == '\0') {
				st = 0;
				break;
			}
			if (p[i] != '\\') {
				i++;
				continue;
			}
			if ((k = scan_esc_len(p, i, n, &len)) < 0)
				st = 0;
			if (k != 0)
				break;
			i += len;
		}
	}
	jenc_work_add(JENC_W_CUT, i - r->pend_scan);
	r->pend_scan = i;
	return st;
}

/* ---- input -------------------------------------------------------------- */

/* An index of the window after its first n bytes are dropped. */
static inline size_t
json_rebase(size_t i, size_t n)
{
	return i == NO_POS || i < n ? NO_POS : i - n;
}

/*
 * Drop in.p[0..n), every index kept moving down with it.  In bulk mode the
 * checked bytes of an unfinished value go to the encoder first.
 */
static int
json_slide(struct json_rd *r, size_t n)
{
	if (r->bulk && r->depth > 0) {
		size_t end = json_bulk_end(r);

		if (end > r->from)
			EMIT(jenc_frag(r->e, r->in.p + r->from,
			    end - r->from));
		else
			end = r->from;
		if (n > end)
			n = end;	/* keep what is not out yet */
		r->from = end - n;
	}
	if (n == 0)
		return 0;
	r->tend = r->tend >= n ? r->tend - n : 0;
	r->gap_to = json_rebase(r->gap_to, n);
	jenc_in_drop(&r->in, n);
	/* (jsmn's only byte position that it reads again: compact cleared
	 * those of the tokens kept) */
	r->jp.pos -= (unsigned)n;
	r->sk.valid = 0;
	r->sk.ok_lo = r->sk.ok_hi = 0;
	r->cur -= n;
	r->pend = json_rebase(r->pend, n);
	r->pend_scan -= r->pend != NO_POS ? n : 0;
	return 0;
}

static int
json_fill(struct json_rd *r)
{
	int rc = jenc_in_fill(&r->in);

	return rc != 0 ? jenc_json_in_fail(r, rc) : 0;
}

/*
 * JENC_READ_JSONC: blank the comments and trailing commas of what was
 * read (jsonc.c), reading on while the window's end is undecided, so
 * that the reader only ever sees strict JSON at the input's offsets.  The
 * window is then our own buffer (jenc_in_init_fd, jenc_in_init_copy).
 */
static int __attribute__((noinline))
json_jsonc_ready(struct json_rd *r)
{
	int rc;

	while (jenc_jsonc_filter(&r->jc, (char *)r->in.p, r->in.len,
	    r->in.off, r->in.eof) != 0)
		if ((rc = json_fill(r)) != 0)
			return rc;
	return 0;
}

/*
 * With JENC_READ_SKIP or PASS, inside a value checked up to pos: of the n
 * bytes the window could drop, keep those from the start of the value's
 * line (to pass it through, and to count its lines), for as long as they
 * are at most PASS_MAX bytes before pos; past that its text will not be
 * passed (lost).  (Measured to pos, not to the window's end, so that
 * whether a value is lost does not depend on how much was read: see
 * recover.)
 */
static size_t
json_pass_keep(struct json_rd *r, size_t n, size_t pos)
{
	size_t ls;

	if (r->vstart < r->in.off) {
		r->lost = 1;
		return n;
	}
	ls = json_line_start(r, (size_t)(r->vstart - r->in.off));
	if (pos - ls > PASS_MAX) {
		r->lost = 1;
		return n;
	}
	return ls < n ? ls : n;
}

/* Slide the window to where the unchecked input starts, or at most
 * JENC_IN_CONTEXT bytes before it, and read more. */
static int
json_next_window(struct json_rd *r, size_t pos)
{
	size_t n = jenc_in_keep(&r->in, pos);
	int rc;

	if (r->policy != 0 && r->depth > 0 && !r->lost)
		n = json_pass_keep(r, n, pos);
	if (json_slide(r, n) != 0)
		return r->err->code;
	if ((rc = json_fill(r)) != 0)
		return rc;
	/* a value taken up inside another (jenc_json_deep) whose text in
	 * the window passes ff_max: read it again from its start, as its
	 * output could pass hold_max */
	if (r->ff_on && r->in.off + r->in.len - r->ff_ls > r->ff_max) {
		r->ff_undo = 1;
		return JENC_ST_FALLBACK;
	}
	return r->jsonc ? json_jsonc_ready(r) : 0;
}

/* The end of all input: is the state complete? */
static int
json_finish(struct json_rd *r)
{
	if (r->st != S_TOP || (r->single && r->values == 0))
		return jenc_json_state_fail(r, r->in.len);
	/* A byte order mark announces a text: it may not stand alone. */
	if (r->bom && r->values == 0)
		return jenc_json_fail(r, r->in.len, JENC_E_SYNTAX, JENC_K_CUT,
		    0, "expected value after the byte order mark, "
		    "found end of input");
	return 0;
}

/*
 * jsmn stopped with an error at pos.  Read on with our own scanner, taking
 * more input while a token is cut by the window end, until it names the
 * error.  jsmn also rejects some valid streams (a number followed at once
 * by a value holding non-ASCII bytes, `2["é"]`): if the scanner gets back
 * to top level with no error, jsmn resumes there (JENC_ST_RESTART).
 * Until then jsmn's state is of no use: it restarts wherever the scan
 * stands, which also keeps its position inside the window as it slides.
 */
static int
json_diagnose(struct json_rd *r, size_t pos)
{
	size_t from = pos;
	int rc;

	for (;;) {
		r->stop_top = 1;
		rc = jenc_json_slow_scan(r, pos, r->in.len);
		r->stop_top = 0;
		if (rc != 0)
			return r->err->code;
		json_jsmn_restart(r, r->cur);
		if (r->st == S_TOP && r->cur > from && r->cur < r->in.len)
			return JENC_ST_RESTART;
		if (r->in.eof)
			return json_finish(r);
		if ((rc = json_next_window(r, r->cur)) != 0)
			return rc;
		pos = from = r->cur;
	}
}

/*
 * Out of line, so that the jsmn loop inlined here is laid out apart from
 * json_rd_run's other calls: inlined, it lost a register and one instruction
 * per token (measured with cachegrind on the corpus).
 */
static int __attribute__((noinline))
json_run(struct json_rd *r)
{
	size_t chunk = DEEP_CHUNK;
	int rc;

	for (;;) {
		/*
		 * A token cut by the window end: read on until jsmn can end it
		 * (or the input ends), with no call to jsmn in between.
		 */
		if (r->pend != NO_POS) {
			if (!r->in.eof &&
			    json_jsmn_cut_ends(r) == JENC_ST_MORE) {
				rc = json_next_window(r, json_jsmn_pos(r));
				if (rc != 0)
					return rc;
				continue;
			}
			r->pend = NO_POS;
		}
		/* deep in nesting, small pieces (see JENC_JSMN_DEEP) */
		size_t jlen = r->in.len, start = json_jsmn_pos(r);
		int bad_piece = 0;
		if (r->depth > JENC_JSMN_DEEP && r->in.len - start > chunk &&
		    !r->pipe_on && !(r->piece > 0 && r->piece < chunk))
			jlen = start + chunk;
		else if (r->piece > 0 && r->in.len - start > r->piece &&
		    !r->pipe_on) {
			/*
			 * After bad text, where the next may be close: a
			 * piece at a time, doubled each time, so that bad
			 * lines one after another do not cost jsmn (and the
			 * skeleton) a window each.
			 */
			jlen = start + r->piece;
			bad_piece = 1;
		}
		int res = json_jsmn_tokenize(r, jlen);
		int w = jenc_json_walk(r);

		if (w == JENC_ST_RESTART) {
			json_jsmn_restart(r, r->cur);
			continue;
		}
		if (w != 0)
			return r->err->code;
		if (res == JSMN_ERROR_INVAL) {
			int rc2 = json_diagnose(r, json_jsmn_pos(r));

			if (rc2 != JENC_ST_RESTART)
				return rc2;
			continue;
		}
		json_jsmn_trim(r);
		if (res == JSMN_ERROR_NOMEM) {
			if (json_jsmn_count(r) * 2 > r->ntok &&
			    json_jsmn_compact(r) != 0)
				return jenc_json_fail(r, NO_POS, JENC_E_NOMEM,
				    JENC_K_NONE, 0, "out of memory");
			continue;
		}
		size_t pos = json_jsmn_pos(r);
		if (bad_piece) {
			r->piece = r->piece < JENC_SKEL_MAX ? r->piece * 2 : 0;
			continue;
		}
		if (jlen < r->in.len) {
			/* a piece ended: go on, longer if a token was cut */
			chunk = pos == start ? chunk * 2 : DEEP_CHUNK;
			continue;
		}
		/* jsmn stops at a NUL byte: at pos, or in a token it says
		 * the window end cuts */
		if ((res >= 0 && pos < r->in.len) || (res == JSMN_ERROR_PART &&
		    memchr(r->in.p + pos, '\0', r->in.len - pos) != NULL)) {
			if (jenc_json_slow_scan(r, pos, res >= 0 ? pos + 1 :
			    r->in.len) != 0)
				return r->err->code;
			return jenc_json_fail(r, pos, JENC_E_SYNTAX,
			    JENC_K_TOKEN, 0, "invalid input");
		}
		if (r->in.eof) {
			/* A trailing primitive, an unterminated string, or
			 * open containers. */
			if (jenc_json_slow_scan(r, pos, r->in.len) != 0)
				return r->err->code;
			return json_finish(r);
		}
		if (json_jsmn_compact(r) != 0)
			return jenc_json_fail(r, NO_POS, JENC_E_NOMEM,
			    JENC_K_NONE, 0, "out of memory");
		if (pos < r->in.len)
			json_jsmn_cut(r);
		if ((rc = json_next_window(r, pos)) != 0)
			return rc;
	}
}

static int
json_rd_run(struct json_rd *r, jenc_enc *e, const jenc_read_opts *o,
    jenc_err *err)
{
	unsigned fl = o != NULL ? o->flags : 0;
	jenc_err dummy, one;
	int rc, found = 0;

	r->e = e;
	/* values inside a container the caller opened go call by call */
	r->bulk = e != NULL && jenc_verbatim(e) && jenc_depth(e) == 0;
	r->err = err != NULL ? err : &dummy;
	memset(r->err, 0, sizeof(*r->err));
	r->in.lf_lines = 1;
	if (e != NULL) {
		r->in.before_read = jenc_flush_cb;
		r->in.ctx = e;
	}
	r->max_depth = o != NULL && o->max_depth ? o->max_depth : DEPTH_DEFAULT;
	r->single = (fl & JENC_READ_SINGLE) != 0;
	r->seq = (fl & JENC_READ_SEQ) != 0;
	r->jsonc = (fl & JENC_READ_JSONC) != 0;
	r->policy = (fl & JENC_READ_PASS) ? JENC_READ_PASS :
	    fl & JENC_READ_SKIP;
	if (r->policy != 0)
		r->err = &one;
	r->blank = e != NULL && r->policy == JENC_READ_PASS &&
	    (fl & JENC_READ_BLANK);
	r->bol = 1;
	r->st = S_TOP;
	/* with a scout, room for its chain and as much again */
	r->ntok = r->pipe != NULL ? 2 * JENC_PIPE_CHAIN_MAX : TOK_INIT;
	r->tok = jenc_mem_alloc(r->ntok * sizeof(jsmntok_t));
	r->stk_cap = 64;
	r->stk = jenc_mem_alloc(r->stk_cap);
	/* without room for the skeleton, jsmn reads the text */
	if (!(fl & JENC_READ_EXACT)) {
		r->sk.buf = jenc_mem_alloc(SK_ROOM);
		r->sk.map = jenc_mem_alloc(SK_ROOM * sizeof(uint32_t));
		if (r->sk.buf == NULL || r->sk.map == NULL) {
			jenc_mem_free(r->sk.buf, SK_ROOM);
			jenc_mem_free(r->sk.map, SK_ROOM * sizeof(uint32_t));
			r->sk.buf = NULL;
			r->sk.map = NULL;
		}
	}
	json_jsmn_restart(r, 0);
	r->str_bad = NO_OFF;
	/* tokens from the scout, unless the start of the input says
	 * otherwise (below), or an error comes first */
	r->pipe_on = r->pipe != NULL;
	if (r->tok == NULL || r->stk == NULL) {
		rc = jenc_json_fail(r, NO_POS, JENC_E_NOMEM, JENC_K_NONE, 0,
		    "out of memory");
	} else if ((rc = r->nobom ? 0 : jenc_in_begin(&r->in,
	    o != NULL ? o->encoding : NULL, 0, &r->bom)) != 0) {
		rc = jenc_json_in_fail(r, rc);
		if (r->policy != 0 && err != NULL)
			*err = one;
	} else {
		/* the scout's offsets are the bytes read: not past a byte
		 * order mark, nor in a conversion */
		if (r->bom || r->in.conv != NULL || r->sk.buf == NULL)
			json_pipe_stop(r);
		jenc_jsonc_init(&r->jc, r->in.off);
		for (;;) {
			if (r->jsonc && (rc = json_jsonc_ready(r)) != 0)
				break;
			/* (a bad text's end where a value starts that the
			 * last error cuts short again: json_recover.c) */
			rc = 0;
			if (r->rp_i < r->rp_n && r->cur < r->in.len)
				rc = jenc_json_replay(r, r->cur);
			else if (r->dp_on && r->cur < r->in.len &&
			    jenc_json_deep(r, r->cur))
				json_jsmn_restart(r, r->cur);
			if (rc == 0)
				rc = json_run(r);
			if (r->ff_undo) {
				jenc_json_deep_undo(r);
				json_jsmn_restart(r, r->cur);
				continue;
			}
			if (rc == 0 || r->policy == 0 ||
			    (rc != JENC_E_SYNTAX && rc != JENC_E_DEPTH))
				break;
			if ((rc = jenc_json_recover(r)) != 0)
				break;
			json_jsmn_restart(r, r->cur);
			if (r->jsonc)
				jenc_jsonc_resume(&r->jc, r->in.off + r->cur);
			if (!found++ && err != NULL)
				*err = one;
			if (o->on_error != NULL)
				o->on_error(o->ctx, &one);
			/* the bad text ended where a read did: is that the end
			 * of the input?  (Then it is over, whatever finish
			 * would say, as when the end was known already.) */
			if (r->cur == r->in.len && !r->in.eof &&
			    (rc = json_next_window(r, r->cur)) != 0)
				break;
			if (r->in.eof && r->cur == r->in.len)
				break;
		}
		/* a read or write error after bad input: that is the error */
		if (r->policy != 0 && rc != 0 && err != NULL)
			*err = one;
	}
	jenc_mem_free(r->tok, r->ntok * sizeof(jsmntok_t));
	jenc_mem_free(r->rp_at, r->rp_cap * sizeof(uint64_t));
	jenc_mem_free(r->dp_pos, r->dp_cap * sizeof(uint64_t));
	jenc_mem_free(r->dp_c, r->dp_ccap);
	jenc_mem_free(r->stk, r->stk_cap);
	jenc_mem_free(r->sk.buf, SK_ROOM);
	jenc_mem_free(r->sk.map, SK_ROOM * sizeof(uint32_t));
	return rc;
}

/* Out of memory, told in *err (if not NULL); JENC_E_NOMEM. */
static int
json_nomem(jenc_err *err)
{
	if (err != NULL)
		jenc_err_set(err, JENC_E_NOMEM, JENC_K_NONE, 0, 0, NULL,
		    "out of memory");
	return JENC_E_NOMEM;
}

/*
 * Run the reader over r->in, opened with open_rc (not 0: it could not be,
 * for want of memory), and close it.  Returns json_rd_run's code.
 */
static int
json_run_in(struct json_rd *r, int open_rc, jenc_enc *e,
    const jenc_read_opts *o, jenc_err *err)
{
	int rc;

	if (open_rc != 0)
		return json_nomem(err);
	rc = json_rd_run(r, e, o, err);
	jenc_in_release(&r->in);	/* (a converted input has a buffer) */
	return rc;
}

int
jenc_json_copy_fd(int fd, jenc_enc *e, const jenc_read_opts *o, jenc_err *err)
{
	struct json_rd r;

	memset(&r, 0, sizeof(r));
	return json_run_in(&r, (o == NULL || (o->flags & (JENC_READ_MAP |
	    JENC_READ_JSONC)) != JENC_READ_MAP ||
	    !jenc_conv_utf8(o->encoding) ||
	    jenc_in_init_map(&r.in, fd, WIN_INIT, WIN_MAX) != 0) &&
	    jenc_in_init_fd(&r.in, fd, WIN_INIT, WIN_MAX) != 0, e, o, err);
}

int
jenc_json_copy_mem(const char *p, size_t len, jenc_enc *e,
    const jenc_read_opts *o, jenc_err *err)
{
	struct json_rd r;

	memset(&r, 0, sizeof(r));
	if (o == NULL || !(o->flags & JENC_READ_JSONC)) {
		jenc_in_init_mem(&r.in, p, p != NULL ? len : 0, WIN_MAX);
		return json_run_in(&r, 0, e, o, err);
	}
	/* the filter writes to the window: a copy of the caller's buffer */
	return json_run_in(&r, jenc_in_init_copy(&r.in, p, p != NULL ? len :
	    0, WIN_INIT, WIN_MAX), e, o, err);
}

int
jenc_json_pipe(int fd, const char *p, size_t n, uint64_t off, uint64_t line,
    jenc_enc *e, const jenc_read_opts *o, jenc_err *err, size_t piece)
{
	struct json_rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	/* (the scout maps the tokens' positions when this thread encodes,
	 * and so has more to do than the scout: see jenc_pipe_new) */
	if (jenc_pipe_new(&r.pipe, fd, p, n, off, piece,
	    o != NULL && (o->flags & JENC_READ_MAP),
	    e != NULL && !(jenc_verbatim(e) && jenc_depth(e) == 0)) != 0)
		return jenc_json_part(fd, p, n, off, line, e, o, err, NULL,
		    NULL);
	if (jenc_in_init_fd(&r.in, -1, WIN_INIT, WIN_MAX) != 0) {
		jenc_pipe_free(r.pipe);
		return json_nomem(err);
	}
	r.in.pull = jenc_pipe_pull;
	r.in.pull_ctx = r.pipe;
	r.in.view = jenc_pipe_view;
	r.in.off = r.in.lstart = off;
	r.in.line = line;
	r.nobom = off > 0;
	rc = json_rd_run(&r, e, o, err);
	jenc_in_release(&r.in);
	jenc_pipe_free(r.pipe);
	return rc;
}

int
jenc_json_part(int fd, const char *p, size_t n, uint64_t off, uint64_t line,
    jenc_enc *e, const jenc_read_opts *o, jenc_err *err, int *cut_end,
    uint64_t *lines)
{
	struct json_rd r;
	int rc;

	memset(&r, 0, sizeof(r));
	if (fd >= 0) {
		if (jenc_in_init_fd(&r.in, fd, WIN_INIT, WIN_MAX) != 0 ||
		    jenc_in_preload(&r.in, p, n) != 0) {
			jenc_in_release(&r.in);
			return json_nomem(err);
		}
	} else {
		jenc_in_init_mem(&r.in, p, p != NULL ? n : 0, WIN_MAX);
	}
	r.in.off = r.in.lstart = off;
	r.in.line = line;
	r.nobom = off > 0;
	rc = json_rd_run(&r, e, o, err);
	if (cut_end != NULL)
		*cut_end = r.policy != 0 ? r.cut_end :
		    (rc == JENC_E_SYNTAX || rc == JENC_E_DEPTH) &&
		    err->offset == off + n;
	if (lines != NULL) {
		/* the lines of the window left, from the reader's count */
		jenc_where w;

		if (fd < 0 && r.in.off + r.in.len == off + n) {
			jenc_in_where(&r.in, r.in.len, &w);
			*lines = w.line - line;
		} else {
			*lines = jenc_count_lines(p, n, NULL);
		}
	}
	jenc_in_release(&r.in);
	return rc;
}
