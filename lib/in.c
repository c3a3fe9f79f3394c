/*
 * in.c - the input layer under both readers: the window of input bytes a
 * reader scans, read from a file descriptor or lent by the caller, and
 * where a spot in it is (offset, line, column, the text of its line).
 *
 * One read loop serves every kind of descriptor: a read interrupted by a
 * signal is retried, and a non-blocking descriptor with nothing to read
 * yet (EAGAIN) is waited for with poll(2), so regular files, pipes, FIFOs,
 * terminals and sockets behave the same, blocking or not.  The encoder a
 * reader writes to is flushed before each read, so that what is complete
 * reaches its reader before jenc waits for more input.
 *
 * The window is a buffer of our own (fd input) or a view of the caller's
 * (buffer input).  A reader drops the bytes it no longer needs from the
 * front and subtracts their count from the indices it keeps; the window
 * grows only while what the reader still needs fills it, and gives the
 * memory back once that is gone.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "internal.h"

static const char bom[3] = { '\xef', '\xbb', '\xbf' };

int
jenc_in_open_fd(jenc_in *in, int fd, size_t win, size_t max)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->line = 1;
	in->init = in->cap = win;
	in->max = max;
	in->buf = jenc_mem_alloc(win);
	if (in->buf == NULL) {
		in->cap = 0;
		return JENC_E_NOMEM;
	}
	in->p = in->buf;
	return 0;
}

void
jenc_in_open_mem(jenc_in *in, const char *p, size_t n, size_t max)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->line = 1;
	in->max = max;
	in->p = p != NULL ? p : "";
	in->len = n < max ? n : max;
	in->rest = n - in->len;
	in->eof = in->rest == 0;
}

void
jenc_in_close(jenc_in *in)
{
	if (in->buf != NULL)
		jenc_mem_free(in->buf, in->cap);
	in->buf = NULL;
	in->cap = 0;
	in->p = NULL;
	in->len = 0;
}

/* Resize the buffer to ncap bytes (>= len).  Returns 0 or JENC_E_NOMEM. */
static int
in_resize(jenc_in *in, size_t ncap)
{
	char *nb = jenc_mem_realloc(in->buf, in->cap, ncap);

	if (nb == NULL)
		return JENC_E_NOMEM;
	in->buf = nb;
	in->p = nb;
	in->cap = ncap;
	return 0;
}

int
jenc_in_fill(jenc_in *in)
{
	if (in->buf == NULL) {		/* buffer input */
		size_t more = in->rest;

		if (more == 0) {
			in->eof = 1;
			return 0;
		}
		if (in->len >= in->max)
			return JENC_IN_FULL;
		if (more > in->max - in->len)
			more = in->max - in->len;
		in->len += more;
		in->rest -= more;
		in->eof = in->rest == 0;
		return 0;
	}
	if (in->len == in->cap) {
		if (in->cap >= in->max)
			return JENC_IN_FULL;
		if (in_resize(in, in->cap > in->max / 2 ? in->max :
		    in->cap * 2) != 0)
			return JENC_E_NOMEM;
	} else if (in->cap > in->init && in->len <= in->init / 2) {
		/* what needed a larger window is gone: give its memory back */
		(void)in_resize(in, in->init);
	}
	if (in->before_read != NULL && in->before_read(in->ctx) != 0)
		return JENC_IN_OUT;
	for (;;) {
		ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);

		if (n > 0) {
			in->len += (size_t)n;
			return 0;
		}
		if (n == 0) {
			in->eof = 1;
			return 0;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = { .fd = in->fd, .events = POLLIN };

			/* wakes for data, end of file or an error, which the
			 * next read then reports */
			(void)poll(&pfd, 1, -1);
			continue;
		}
		in->sys_errno = errno;
		return JENC_E_IO;
	}
}

int
jenc_in_preload(jenc_in *in, const char *p, size_t n)
{
	size_t cap = in->cap;

	if (n > in->max)
		return JENC_E_NOMEM;
	while (cap < n)
		cap = cap > in->max / 2 ? in->max : cap * 2;
	if (cap != in->cap && in_resize(in, cap) != 0)
		return JENC_E_NOMEM;
	if (n > 0)
		memcpy(in->buf, p, n);
	in->len = n;
	return 0;
}

/*
 * Number of '\n' bytes in p[0..n); *after gets the index just past the
 * last one (0 if there is none).
 */
static uint64_t
in_count_lines(const char *p, size_t n, size_t *after)
{
	uint64_t count = 0;
	size_t i = 0, last = 0;

#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
	size_t lastv = (size_t)-1;	/* last 16-byte block with a '\n' */

	while (i + 16 <= n) {
		/* Each byte of acc counts the '\n' at its place, up to 255. */
		__m128i acc = zero;
		size_t stop = i + 16 * 255 < n ? i + 16 * 255 : n;

		for (; i + 16 <= stop; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			__m128i eq = _mm_cmpeq_epi8(v, nl);

			acc = _mm_sub_epi8(acc, eq);
			if (_mm_movemask_epi8(eq) != 0)
				lastv = i;
		}
		acc = _mm_sad_epu8(acc, zero);
		count += (uint64_t)_mm_cvtsi128_si32(acc) +
		    (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(acc, 8));
	}
	if (lastv != (size_t)-1) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + lastv));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl));

		last = lastv + 32 - (size_t)__builtin_clz(m);
	}
#endif
	for (; i < n; i++)
		if (p[i] == '\n') {
			count++;
			last = i + 1;
		}
	*after = last;
	return count;
}

void
jenc_in_drop(jenc_in *in, size_t n)
{
	if (n == 0)
		return;
	if (in->lf_lines) {
		size_t after;
		uint64_t lines = in_count_lines(in->p, n, &after);

		if (lines > 0) {
			in->line += lines;
			in->lstart = in->off + after;
		}
	}
	in->mark = in->mark > n ? in->mark - n : 0;
	in->off += n;
	in->len -= n;
	if (in->buf != NULL)
		memmove(in->buf, in->buf + n, in->len);
	else
		in->p += n;
}

size_t
jenc_in_keep(const jenc_in *in, size_t pos)
{
	size_t from = pos > JENC_IN_CONTEXT ? pos - JENC_IN_CONTEXT : 0, i;

	for (i = pos; i > from; i--)
		if (in->p[i - 1] == '\n')
			return i;
	return from;
}

int
jenc_in_bom(jenc_in *in)
{
	int rc;

	while (in->len < 3 && !in->eof && memcmp(in->p, bom, in->len) == 0)
		if ((rc = jenc_in_fill(in)) != 0)
			return rc;
	if (in->len < 3 || memcmp(in->p, bom, 3) != 0)
		return 0;
	jenc_in_drop(in, 3);
	in->lstart = in->off;
	return 1;
}

void
jenc_in_line(jenc_in *in, size_t at, int cr)
{
	size_t k = at;

	for (;;) {
		for (; k < in->len && k - at < JENC_IN_AFTER; k++)
			if (in->p[k] == '\n' || (cr && in->p[k] == '\r'))
				return;
		if (k - at >= JENC_IN_AFTER || in->eof)
			return;
		if (jenc_in_fill(in) != 0)
			return;
	}
}

void
jenc_in_where_line(const jenc_in *in, size_t at, uint64_t line, size_t ls,
    int cr, jenc_where *w)
{
	memset(w, 0, sizeof(*w));
	w->offset = in->off + at;
	w->line = line;
	w->col = (uint64_t)(at - ls) + 1;
	w->text = in->p + ls;
	w->avail = in->len - ls;
	w->at = at - ls;
	w->cr_ends_line = cr;
	w->eof = in->eof;
}

void
jenc_in_mark(jenc_in *in, size_t at, uint64_t line)
{
	in->mark = at;
	in->mark_line = line;
}

void
jenc_in_where(const jenc_in *in, size_t at, jenc_where *w)
{
	size_t after, base = 0;
	uint64_t lines;

	if (in->mark > 0 && in->mark <= at) {
		/* p[mark] starts a line: count from there */
		base = in->mark;
		lines = in_count_lines(in->p + base, at - base, &after);
		jenc_in_where_line(in, at, in->mark_line + lines,
		    lines > 0 ? base + after : base, 0, w);
		return;
	}
	lines = in_count_lines(in->p, at, &after);
	if (lines > 0) {
		jenc_in_where_line(in, at, in->line + lines, after, 0, w);
	} else if (in->lstart >= in->off) {
		/* the line starts at p[0] (lstart is never past off) */
		jenc_in_where_line(in, at, in->line,
		    (size_t)(in->lstart - in->off), 0, w);
	} else {
		/* the line started before the window: show what is left */
		jenc_in_where_line(in, at, in->line, 0, 0, w);
		w->col = in->off + at - in->lstart + 1;
		w->text_cut = 1;
	}
}
