/*
 * in.c - the input layer under both readers: the window of input bytes a
 * reader scans, read from a file descriptor or lent by the caller, and
 * where a spot in it is (offset, line, column, the text of its line).
 *
 * Every read goes through jenc_io_read (io.c), so that every kind of
 * descriptor, blocking or not, behaves the same; before it, before_read
 * flushes the reader's encoder, so that what is complete reaches its
 * reader before jenc waits for more input.  The window (jenc_in,
 * internal.h) is a buffer of our own, a view of the caller's, or a view
 * of a mapped regular file, which grows as reads would and unmaps the
 * pages behind it.  It grows only while what the reader still needs fills
 * it, and gives the memory back once that is gone.
 *
 * Input in another encoding (named, or announced by a UTF-16 or UTF-32
 * byte order mark) goes through a jenc_conv (conv.c): the raw bytes are
 * read into its buffer and converted into the window, so that the readers
 * above only ever see UTF-8.  UTF-8 input never meets it: one test of
 * in->conv per read.
 */
#include "compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "internal.h"
#include "swar.h"

static const char bom[3] = { '\xef', '\xbb', '\xbf' };

/* The window's next capacity after cap (> 0): twice it, at most in->max,
 * so that it cannot overflow. */
static size_t
in_twice(const jenc_in *in, size_t cap)
{
	return cap > in->max / 2 ? in->max : cap * 2;
}

/* cap doubled until it holds need bytes, or is in->max. */
static size_t
in_cap(const jenc_in *in, size_t cap, size_t need)
{
	while (cap < need && cap < in->max)
		cap = in_twice(in, cap);
	return cap;
}

static void
in_start(jenc_in *in, int fd, size_t win, size_t max)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->line = 1;
	in->init = win;
	in->max = max;
}

int
jenc_in_init_fd(jenc_in *in, int fd, size_t win, size_t max)
{
	in_start(in, fd, win, max);
	in->cap = win;
	in->buf = jenc_mem_alloc(win);
	if (in->buf == NULL) {
		in->cap = 0;
		return JENC_E_NOMEM;
	}
	in->p = in->buf;
	return 0;
}

int
jenc_in_init_map(jenc_in *in, int fd, size_t win, size_t max)
{
	jenc_map m;
	const char *p;
	off_t at;

	if (fd < 0 || (at = lseek(fd, 0, SEEK_CUR)) < 0 ||
	    (p = jenc_map_init(&m, fd, at)) == NULL)
		return JENC_ST_FALLBACK;
	in_start(in, fd, win, max);
	in->map = m;
	in->p = p;
	in->rest = m.len - (size_t)(p - m.p);
	return 0;
}

/*
 * Mapped input from here on read(2) into a buffer of our own, as from
 * jenc_in_init_fd: the window's bytes copied into it, the fd's offset set
 * to what follows them.  Returns 0, JENC_E_NOMEM or JENC_E_IO (in stays
 * mapped).
 */
static int
in_unmap(jenc_in *in)
{
	size_t cap = in_cap(in, in->init, in->len + 1);
	char *nb;

	if ((nb = jenc_mem_alloc(cap)) == NULL)
		return JENC_E_NOMEM;
	if (jenc_map_seek(&in->map, in->fd, in->p + in->len) < 0) {
		in->sys_errno = errno;
		jenc_mem_free(nb, cap);
		return JENC_E_IO;
	}
	memcpy(nb, in->p, in->len);
	jenc_map_release(&in->map);
	in->buf = nb;
	in->p = nb;
	in->cap = cap;
	in->rest = 0;
	return 0;
}

void
jenc_in_init_mem(jenc_in *in, const char *p, size_t n, size_t max)
{
	in_start(in, -1, 0, max);
	in->p = p != NULL ? p : "";
	in->len = n < max ? n : max;
	in->rest = n - in->len;
	in->eof = in->rest == 0;
	jenc_work_add(JENC_W_BYTES_IN, in->len);
}

int
jenc_in_init_copy(jenc_in *in, const char *p, size_t n, size_t win,
    size_t max)
{
	if (jenc_in_init_fd(in, -1, win, max) != 0)
		return JENC_E_NOMEM;
	in->src = p;
	in->rest = n;
	in->eof = n == 0;
	return 0;
}

void
jenc_in_release(jenc_in *in)
{
	jenc_mem_free(in->buf, in->cap);
	jenc_map_release(&in->map);
	jenc_conv_free(in->conv);
	in->conv = NULL;
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
	if (ncap > in->cap) {
		jenc_work_add(JENC_W_GROWS, 1);
		jenc_work_add(JENC_W_MOVED, in->len);
	}
	in->buf = nb;
	in->p = nb;
	in->cap = ncap;
	return 0;
}

/* A window that was a view (jenc_in.view) into our buffer, from where on
 * the input is pulled.  Returns 0 or JENC_E_NOMEM. */
static int
in_unview(jenc_in *in)
{
	size_t cap = in_cap(in, in->cap, in->len + 1);

	if (cap != in->cap) {
		char *nb = jenc_mem_alloc(cap);

		if (nb == NULL)
			return JENC_E_NOMEM;
		jenc_mem_free(in->buf, in->cap);
		in->buf = nb;
		in->cap = cap;
	}
	if (in->len > 0)
		memcpy(in->buf, in->p, in->len);
	jenc_work_add(JENC_W_MOVED, in->len);
	in->p = in->buf;
	in->viewing = 0;
	return 0;
}

/* Free room a conversion wants after p[len): a character's UTF-8 (and
 * some encodings make two characters of one sequence). */
#define CONV_ROOM 16
/* The window of converted buffer input. */
#define CONV_WIN ((size_t)64 * 1024)

/* One read(2) into dst[0..n) (jenc_io_read, counted), or one pull.
 * Returns 0 with *got the bytes read (0 at the end of the input), or
 * JENC_E_IO (sys_errno set). */
static int
in_read(jenc_in *in, char *dst, size_t n, size_t *got)
{
	ssize_t k;

	if (in->pull != NULL)	/* any part of what comes: see jenc_in.pull */
		return in->pull(in->pull_ctx, dst, n, got, NULL,
		    &in->sys_errno);
	k = jenc_io_read(in->fd, dst, n, -1, JENC_IO_COUNT, &in->sys_errno);
	*got = k > 0 ? (size_t)k : 0;
	return k < 0 ? JENC_E_IO : 0;
}

/* jenc_in_fill through the conversion: convert what raw input is held,
 * reading more while it completes no character. */
static int
in_fill_conv(jenc_in *in)
{
	jenc_conv *c = in->conv;
	int st;

	for (;;) {
		if (c->state != 0)
			return JENC_E_ENCODING;
		if (c->rlen > 0) {
			const char *src = c->raw != NULL ? c->raw + c->rpos :
			    c->mem, *from = src;
			size_t made = jenc_conv_run(c, &src, &c->rlen,
			    in->buf + in->len, in->cap - in->len, &st);

			if (c->raw != NULL)
				c->rpos += (size_t)(src - from);
			else
				c->mem = src;
			in->len += made;
			jenc_work_add(JENC_W_BYTES_IN, made);
			if (st == JENC_CONV_BAD)
				c->state = st;	/* told at the next fill */
			if (made > 0)
				return 0;
			if (st == JENC_CONV_BAD)
				return JENC_E_ENCODING;
			if (st == 0 && c->rlen > 0) {
				/* no room for what one sequence makes */
				if (in->cap >= in->max)
					return JENC_ST_FULL;
				if (in_resize(in, in_twice(in, in->cap)) != 0)
					return JENC_E_NOMEM;
				continue;
			}
		}
		if (c->raw_eof) {
			if (c->rlen > 0) {
				c->state = JENC_CONV_PART;
				return JENC_E_ENCODING;
			}
			if (!c->flushed) {
				/* what iconv holds to compose with what
				 * follows (cp1255, cp1258, tcvn) */
				size_t made = jenc_conv_flush(c,
				    in->buf + in->len, in->cap - in->len);

				in->len += made;
				if (made > 0)
					return 0;
			}
			in->eof = 1;
			return 0;
		}
		/* more raw input, after what is held of a character */
		memmove(c->raw, c->raw + c->rpos, c->rlen);
		c->rpos = 0;
		size_t n;

		if (in->before_read != NULL && in->before_read(in->ctx) != 0)
			return JENC_ST_OUT;
		if (in_read(in, c->raw + c->rlen, c->rawcap - c->rlen,
		    &n) != 0)
			return JENC_E_IO;
		if (n == 0)
			c->raw_eof = 1;
		c->rlen += n;
	}
}

/* Buffer or mapped input: the window shows up to more of the bytes
 * after it.  0 or JENC_ST_FULL. */
static int
in_show(jenc_in *in, size_t more)
{
	if (in->len >= in->max)
		return JENC_ST_FULL;
	if (more > in->max - in->len)
		more = in->max - in->len;
	jenc_work_add(JENC_W_BYTES_IN, more);
	jenc_work_add(JENC_W_READS, 1);
	in->len += more;
	in->rest -= more;
	return 0;
}

int
jenc_in_fill(jenc_in *in)
{
	int rc;

	if (in->map.p != NULL) {	/* mapped input */
		if (in->rest > 0)
			return in_show(in, in->rest < in->init ? in->rest :
			    in->init);
		/* the file may have grown since: read on */
		if ((rc = in_unmap(in)) != 0)
			return rc;
	}
	if (in->buf == NULL) {		/* buffer input */
		if (in->rest == 0) {
			in->eof = 1;
			return 0;
		}
		if ((rc = in_show(in, in->rest)) == 0)
			in->eof = in->rest == 0;
		return rc;
	}
	if (in->view != NULL && in->conv == NULL &&
	    (in->viewing || in->len == 0)) {
		/* the source's bytes where they are, while they follow on (not
		 * raw bytes to convert: those are pulled into the conversion) */
		const char *q;
		size_t k = 0;

		if (in->before_read != NULL && in->before_read(in->ctx) != 0)
			return JENC_ST_OUT;
		q = in->view(in->pull_ctx, in->off, in->viewing && in->len > 0 ?
		    in->p + in->len : NULL, in->max - in->len, &k);
		if (q != NULL) {
			if (!in->viewing || in->len == 0)
				in->p = q;
			in->viewing = 1;
			in->len += k;
			jenc_work_add(JENC_W_BYTES_IN, k);
			return 0;
		}
		if (in->viewing && (rc = in_unview(in)) != 0)
			return rc;
	}
	if (in->conv == NULL ? in->len == in->cap :
	    in->cap - in->len < CONV_ROOM) {
		if (in->cap >= in->max)
			return JENC_ST_FULL;
		if (in_resize(in, in_twice(in, in->cap)) != 0)
			return JENC_E_NOMEM;
	} else if (in->cap > in->init && in->len <= in->init / 2) {
		/* what needed a larger window is gone: give its memory back */
		(void)in_resize(in, in->init);
	}
	if (in->conv != NULL)
		return in_fill_conv(in);
	if (in->src != NULL) {		/* copied buffer input */
		size_t more = in->cap - in->len;

		if (more > in->rest)
			more = in->rest;
		if (more > 0)
			memcpy(in->buf + in->len, in->src, more);
		jenc_work_add(JENC_W_BYTES_IN, more);
		in->src += more;
		in->rest -= more;
		in->len += more;
		in->eof = in->rest == 0;
		return 0;
	}
	if (in->before_read != NULL && in->before_read(in->ctx) != 0)
		return JENC_ST_OUT;
	size_t n;
	if (in->pull == NULL) {
		rc = in_read(in, in->buf + in->len, in->cap - in->len, &n);
	} else {
		size_t need = 0;

		while ((rc = in->pull(in->pull_ctx, in->buf + in->len,
		    in->cap - in->len, &n, &need, &in->sys_errno)) ==
		    JENC_ST_ROOM) {
			/* what comes next comes whole: make room for it */
			if (need > in->max - in->len)
				return JENC_ST_FULL;
			if (in_resize(in, in_cap(in, in->cap,
			    in->len + need)) != 0)
				return JENC_E_NOMEM;
		}
	}

	if (rc != 0)
		return JENC_E_IO;
	if (n == 0)
		in->eof = 1;
	in->len += n;
	jenc_work_add(JENC_W_BYTES_IN, (uint64_t)n);
	return 0;
}

int
jenc_in_preload(jenc_in *in, const char *p, size_t n)
{
	size_t cap = in_cap(in, in->cap, n);

	if (n > in->max)
		return JENC_E_NOMEM;
	if (cap != in->cap && in_resize(in, cap) != 0)
		return JENC_E_NOMEM;
	if (n > 0)
		memcpy(in->buf, p, n);
	in->len = n;
	jenc_work_add(JENC_W_BYTES_IN, n);
	return 0;
}

/*
 * NAME(p, n, count): adds the number of '\n' bytes in p[0..i) to *count
 * and returns i, the length of the start of p[0..n) made of whole
 * vectors of W bytes (type T), compared with '\n' and subtracted into
 * byte counters that SUM adds up every 255 rounds (before one can wrap).
 * No branch depends on the bytes: the count is all this loop does, and
 * the last newline is found apart (jenc_count_lines).
 */
#define COUNT_NL_FN(NAME, W, T, LOAD, EQ, SUB, ZERO, NL, SUM)		\
	static size_t							\
	NAME(const char *p, size_t n, uint64_t *count)			\
	{								\
		size_t i = 0;						\
									\
		while (i + (W) <= n) {					\
			T acc = ZERO;					\
			size_t stop = i + (W) * 255 < n ?		\
			    i + (W) * 255 : n;				\
									\
			for (; i + (W) <= stop; i += (W))		\
				acc = SUB(acc, EQ(LOAD((const T *)	\
				    (const void *)(p + i)), NL));	\
			*count += SUM(acc);				\
		}							\
		return i;						\
	}

#ifdef __SSE2__
static inline uint64_t
in_sum16(__m128i acc)
{
	acc = _mm_sad_epu8(acc, _mm_setzero_si128());
	return (uint64_t)_mm_cvtsi128_si32(acc) +
	    (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(acc, 8));
}

COUNT_NL_FN(count_nl_sse2, 16, __m128i, _mm_loadu_si128, _mm_cmpeq_epi8,
    _mm_sub_epi8, _mm_setzero_si128(), _mm_set1_epi8('\n'), in_sum16)
#endif

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#define IN_AVX2 1
__attribute__((target("avx2"))) static inline uint64_t
in_sum32(__m256i acc)
{
	acc = _mm256_sad_epu8(acc, _mm256_setzero_si256());
	return (uint64_t)_mm256_extract_epi64(acc, 0) +
	    (uint64_t)_mm256_extract_epi64(acc, 1) +
	    (uint64_t)_mm256_extract_epi64(acc, 2) +
	    (uint64_t)_mm256_extract_epi64(acc, 3);
}

/* count_nl_sse2 32 bytes at a time.  With the last line end found
 * apart, this counts the lines of the 3 MB NDJSON of bench/ in 0.68M
 * instructions, where one SSE2 loop that also noted each block with a
 * newline took 2.5M. */
__attribute__((target("avx2")))
COUNT_NL_FN(count_nl_avx2, 32, __m256i, _mm256_loadu_si256,
    _mm256_cmpeq_epi8, _mm256_sub_epi8, _mm256_setzero_si256(),
    _mm256_set1_epi8('\n'), in_sum32)
#endif

#ifndef __SSE2__
/* The portable one: SWAR, each byte of acc counting the newlines in its
 * place of up to 252 words, four words a round, then the eight counts
 * added. */
static size_t
in_count_nl_swar(const char *p, size_t n, uint64_t *count)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0;

	while (i + 32 <= n) {
		uint64_t acc = 0, lo;
		size_t stop = i + 32 * 63 < n ? i + 32 * 63 : n;

		for (; i + 32 <= stop; i += 32)
			acc += (sw_eq(sw_load(u + i), '\n') >> 7) +
			    (sw_eq(sw_load(u + i + 8), '\n') >> 7) +
			    (sw_eq(sw_load(u + i + 16), '\n') >> 7) +
			    (sw_eq(sw_load(u + i + 24), '\n') >> 7);
		lo = (acc & UINT64_C(0x00ff00ff00ff00ff)) +
		    (acc >> 8 & UINT64_C(0x00ff00ff00ff00ff));
		*count += lo * UINT64_C(0x0001000100010001) >> 48;
	}
	return i;
}
#endif

uint64_t
jenc_count_lines(const char *p, size_t n, size_t *after)
{
	uint64_t count = 0;
	size_t i = 0;

#ifdef IN_AVX2
	if (__builtin_cpu_supports("avx2"))
		i = count_nl_avx2(p, n, &count);
	else
#endif
#ifdef __SSE2__
		i = count_nl_sse2(p, n, &count);
#else
	i = in_count_nl_swar(p, n, &count);
#endif
	for (; i < n; i++)
		count += p[i] == '\n';
	/* the last line end searched from the end, so only the last line is
	 * read */
	if (after != NULL)
		*after = count > 0 ?
		    (size_t)(jenc_memrchr(p, '\n', n) + 1 - p) : 0;
	return count;
}

void
jenc_in_drop(jenc_in *in, size_t n)
{
	if (n == 0)
		return;
	if (in->lf_lines) {
		size_t after, base = 0;
		uint64_t lines;

		if (in->mark > 0 && in->mark <= n) {
			/* p[mark] starts line mark_line (a reader that
			 * resumed there after an error counted the lines
			 * up to it): count only after it */
			base = in->mark;
			in->line = in->mark_line;
			in->lstart = in->off + base;
		}
		lines = jenc_count_lines(in->p + base, n - base, &after);
		if (lines > 0) {
			in->line += lines;
			in->lstart = in->off + base + after;
		}
	}
	in->mark = in->mark > n ? in->mark - n : 0;
	in->off += n;
	in->len -= n;
	if (in->buf != NULL && !in->viewing) {
		memmove(in->buf, in->buf + n, in->len);
		jenc_work_add(JENC_W_MOVED, in->len);
	} else {
		in->p += n;
		if (in->map.p != NULL)
			jenc_map_trim(&in->map, in->p);
	}
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
jenc_in_bom(jenc_in *in, int *found)
{
	int rc;

	*found = 0;
	while (in->len < 3 && !in->eof && memcmp(in->p, bom, in->len) == 0)
		if ((rc = jenc_in_fill(in)) != 0)
			return rc;
	if (in->len < 3 || memcmp(in->p, bom, 3) != 0)
		return 0;
	jenc_in_drop(in, 3);
	in->lstart = in->off;
	*found = 1;
	return 0;
}

/*
 * Convert the input from `name` on, after its first skip bytes (a byte
 * order mark) that the window holds.  The raw bytes the window holds
 * already are the first the conversion takes: for fd input the window's
 * buffer becomes the conversion's raw buffer and a new one is the window;
 * for buffer input the window becomes a buffer of our own.  Returns 0,
 * JENC_E_NOMEM or JENC_E_ENCODING (an unknown encoding).
 */
static int
in_convert(jenc_in *in, const char *name, int cr, size_t skip)
{
	size_t win;
	char *nb;
	int rc;

	/* the raw bytes are read (they stay till converted), into our
	 * buffer: a window that is a view of the pulled source's bytes
	 * (jenc_in.view) is copied into it first */
	if (in->map.p != NULL && (rc = in_unmap(in)) != 0)
		return rc;
	if (in->viewing && (rc = in_unview(in)) != 0)
		return rc;
	win = in->buf != NULL ? in->init : CONV_WIN;
	if (win > in->max)
		win = in->max;
	if (win < CONV_ROOM)
		win = CONV_ROOM;
	if ((rc = jenc_conv_new(&in->conv, name, cr, 0)) != 0) {
		in->enc = name;
		return rc == JENC_E_NOMEM ? rc : JENC_E_ENCODING;
	}
	if ((nb = jenc_mem_alloc(win)) == NULL) {
		jenc_conv_free(in->conv);
		in->conv = NULL;
		return JENC_E_NOMEM;
	}
	if (in->src != NULL) {
		/* copied buffer input, nothing dropped yet: convert from the
		 * caller's buffer, which the copy began (its len bytes are
		 * the window's, the rest after them as before) */
		const char *orig = in->src - in->len;

		in->src = NULL;
		jenc_mem_free(in->buf, in->cap);
		in->buf = NULL;
		in->p = orig;
	}
	if (in->buf != NULL) {
		in->conv->raw = in->buf;
		in->conv->rawcap = in->cap;
		in->conv->rpos = skip;
		in->conv->rlen = in->len - skip;
	} else {
		in->conv->mem = in->p + skip;
		in->conv->rlen = in->len - skip + in->rest;
		in->conv->raw_eof = 1;
		in->rest = 0;
	}
	in->conv->roff = skip;
	in->buf = nb;
	in->p = nb;
	in->init = in->cap = win;
	in->len = 0;
	in->eof = 0;
	if (skip > 0) {
		/* as if the mark were U+FEFF in UTF-8, dropped */
		in->off = in->lstart = 3;
	}
	return 0;
}

/* May p[0..n) still grow into a byte order mark or a start of UTF-16? */
static int
in_sniff_more(const unsigned char *p, size_t n)
{
	if (n >= 4)
		return 0;
	if (n == 0)
		return 1;
	if (p[0] == 0xef || p[0] == 0xff || p[0] == 0xfe || p[0] == 0)
		return 1;
	return n < 2 || p[1] == 0;
}

/* The wide encodings a start of input announces: by its byte order mark
 * b[0..len), else by its NULs (bit j of zeros: p[j] is one, of its first
 * four bytes; of an input of two bytes, the low two, for UTF-16 only). */
static const struct {
	unsigned char len, b[4], zeros;
	const char *name, *upper;
} in_wide[] = {
	{ 4, { 0xff, 0xfe, 0, 0 }, 0xe, "utf-32le", "UTF-32LE" },
	{ 4, { 0, 0, 0xfe, 0xff }, 0x7, "utf-32be", "UTF-32BE" },
	{ 2, { 0xff, 0xfe }, 0xa, "utf-16le", "UTF-16LE" },
	{ 2, { 0xfe, 0xff }, 0x5, "utf-16be", "UTF-16BE" },
};
#define IN_WIDE_N (sizeof(in_wide) / sizeof(in_wide[0]))

int
jenc_in_begin(jenc_in *in, const char *enc, int cr, int *found)
{
	const unsigned char *p;
	size_t i, n;
	unsigned zeros = 0;
	int rc;

	*found = 0;
	in->enc_cr = cr;
	if (!jenc_conv_utf8(enc)) {
		if ((rc = in_convert(in, enc, cr, 0)) != 0)
			return rc;
		/* a mark the encoding keeps (utf-16le) is U+FEFF */
		if ((rc = jenc_in_bom(in, found)) == 0 && *found)
			jenc_conv_bom(in->conv, 1, 3);
		return rc;
	}
	while (!in->eof &&
	    in_sniff_more((const unsigned char *)in->p, in->len))
		if ((rc = jenc_in_fill(in)) != 0)
			return rc;
	p = (const unsigned char *)in->p;
	n = in->len;
	for (i = 0; i < IN_WIDE_N; i++) {
		if (n < in_wide[i].len || memcmp(p, in_wide[i].b,
		    in_wide[i].len))
			continue;
		if ((rc = in_convert(in, in_wide[i].name, cr,
		    in_wide[i].len)) != 0)
			return rc;
		*found = 1;
		return 0;
	}
	for (i = 0; i < n && i < 4; i++)
		zeros |= (unsigned)(p[i] == 0) << i;
	for (i = 0; i < IN_WIDE_N; i++)
		if (n >= 4 ? zeros == in_wide[i].zeros : n == 2 &&
		    in_wide[i].len == 2 && zeros == (in_wide[i].zeros & 3u))
			in->wide = in_wide[i].upper;
	if (in->wide != NULL)
		return JENC_E_ENCODING;
	return jenc_in_bom(in, found);
}

int
jenc_in_enc_spot(const jenc_in *in)
{
	return in->conv != NULL || in->wide != NULL;
}

void
jenc_in_enc_msg(const jenc_in *in, char *msg, size_t n)
{
	const jenc_conv *c = in->conv;

	if (!jenc_in_enc_spot(in)) {
		(void)snprintf(msg, n, "unknown encoding '%s'", in->enc);
	} else if (c == NULL) {		/* wide input */
		size_t i = 0;

		while (in_wide[i].upper != in->wide)
			i++;
		(void)snprintf(msg, n, "input looks like %s without a byte "
		    "order mark; try --encoding=%s", in->wide, in_wide[i].name);
	} else {
		jenc_conv_msg(in->conv, c->raw != NULL ? c->raw + c->rpos :
		    c->mem, c->rlen, c->state, msg, n);
	}
}

void
jenc_in_enc_where(jenc_in *in, jenc_where *w)
{
	const jenc_conv *c = in->conv;
	size_t ls = 0;

	if (c == NULL || c->state == 0) {	/* wide input */
		jenc_in_line(in, 0, in->enc_cr);
		jenc_in_where_line(in, 0, 1, 0, in->enc_cr, w);
		return;
	}
	if (c->lbytes <= in->len)
		ls = in->len - c->lbytes;
	jenc_in_where_line(in, in->len, c->line, ls, c->cr, w);
	w->offset = c->roff;
	w->col = c->col;
	w->text_cut = c->lbytes > in->len;
	w->eof = c->state == JENC_CONV_PART;
}

void
jenc_in_line(jenc_in *in, size_t at, int cr)
{
	size_t k = at, max = in->max;

	/*
	 * The window may pass its limit here, by at most JENC_IN_AFTER
	 * bytes: a window at its limit (a CSV reader's, whose limit is the
	 * longest record) would otherwise show less of the line than one
	 * that read in larger pieces, or held the whole input, does.
	 */
	if (max < JENC_IN_AFTER || at > max - JENC_IN_AFTER)
		in->max = at + JENC_IN_AFTER;
	for (;;) {
		while (k < in->len && k - at < JENC_IN_AFTER &&
		    in->p[k] != '\n' && !(cr && in->p[k] == '\r'))
			k++;
		if (k < in->len || k - at >= JENC_IN_AFTER || in->eof ||
		    jenc_in_fill(in) != 0)
			break;
	}
	in->max = max;
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
	uint64_t line = in->line, lines;

	if (in->mark > 0 && in->mark <= at) {
		/* p[mark] starts a line: count from there */
		base = in->mark;
		line = in->mark_line;
	}
	lines = jenc_count_lines(in->p + base, at - base, &after);
	if (lines > 0 || base > 0) {
		jenc_in_where_line(in, at, line + lines,
		    lines > 0 ? base + after : base, 0, w);
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
