/*
 * fuzz_util.h - helpers shared by the libFuzzer harnesses in tests/fuzz/.
 *
 * Every check that fails calls fz_fail(), which prints what was expected and
 * aborts, so libFuzzer keeps the input as a crash reproducer.
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "jenc.h"

/* A growable byte buffer. */
typedef struct fz_buf {
	char *p;
	size_t len;
	size_t cap;
} fz_buf;

void fz_buf_add(fz_buf *b, const void *p, size_t n);
void fz_buf_free(fz_buf *b);

/*
 * 1 if the bytes of b from offset from to its end are p[0..n).  b->p is
 * NULL while b has never held a byte, and p may be NULL when n is 0:
 * memcmp() must not be given a NULL pointer even for 0 bytes, nor may
 * NULL + 0 be computed (UBSan stops on both, and whether a buffer is still
 * unallocated depends on which inputs ran before in the process), so
 * buffers are compared with this, never with memcmp() directly.
 */
int fz_buf_eq(const fz_buf *b, size_t from, const void *p, size_t n);

/*
 * Print "fuzz: property failed: ..." to stderr and abort.  For triage, a
 * failure whose message contains one of the '|'-separated texts of the
 * environment variable FUZZ_IGNORE instead abandons the input:
 * FZ_BEGIN() at the top of LLVMFuzzerTestOneInput returns 0 from it
 * (objects of the abandoned input leak, so run with -detect_leaks=0).
 */
void fz_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

extern jmp_buf fz_jmp;
void fz_begin(void);
#define FZ_BEGIN() do {				\
	if (setjmp(fz_jmp) != 0)		\
		return 0;			\
	fz_begin();				\
} while (0)

/* Append everything a memory encoder holds to out (checks that
 * jenc_segments() and jenc_take() agree with jenc_len()). */
void fz_take(jenc_enc *e, fz_buf *out);

/* Re-encode p[0..n) with jenc_json_copy_mem into a fresh memory encoder
 * with eo; the output goes to out (emptied first).  Returns the code.
 * Here and in fz_valid, p may be NULL when n is 0 (an empty fz_buf); the
 * library is then given "" instead. */
int fz_json(const char *p, size_t n, const jenc_opts *eo,
    const jenc_read_opts *ro, fz_buf *out, jenc_err *err);

/* 1 if jenc_json_copy_mem accepts p[0..n) with read flags rflags. */
int fz_valid(const char *p, size_t n, unsigned rflags);

/* Go's json.Indent applied to each value of a compact stream (values
 * separated by "\n"), with indent unit u[0..ulen). */
void fz_ref_indent(const char *c, size_t n, const char *u, size_t ulen,
    fz_buf *out);

/* 1 if the compact streams a and b hold the same values: identical bytes
 * outside strings, and strings that decode to the same code points (raw
 * UTF-8, \uXXXX with surrogate pairs joined, or short escapes).  On 0,
 * *where is the offset in a where they part. */
int fz_same_value(const char *a, size_t an, const char *b, size_t bn,
    size_t *where);

/* NULL if p[0..n) obeys JENC_HTML (no raw < > & U+2028 U+2029) and
 * JENC_ASCII (no byte >= 0x80) as set in flags; else what is wrong, with
 * *where set to the offset. */
const char *fz_flags_violation(const char *p, size_t n, unsigned flags,
    size_t *where);

/* 1 if s[0..n) is valid UTF-8 (NUL allowed); *nul set if it has a NUL. */
int fz_utf8_valid(const char *s, size_t n, int *nul);

/* Append the JSON string literal of UTF-8 text s[0..n) to out (quotes,
 * backslashes and control bytes escaped, all else raw). */
void fz_json_quote(const char *s, size_t n, fz_buf *out);

/* Number of top-level values in a compact stream (its "\n" count). */
size_t fz_count_values(const char *c, size_t n);

/* Check the fields of a reader error for input p[0..n) and result rc:
 * code, offset <= n, line and col >= 1 and matching offset (lines end at
 * LF, and with cr_lines also at a CR not before LF, as CSV records do),
 * msg and excerpt terminated, the excerpt showing the offending line
 * around the caret as jenc.h says: at most 80 display columns, "..." at
 * a cut, '?' for controls, invisible characters and bytes that are not
 * UTF-8, the caret at the spot's display column. */
void fz_check_err(const jenc_err *err, int rc, const char *p, size_t n,
    int cr_lines);

/* Extra checks of a JSON reader error against cli-spec.md's message
 * forms: the "found X" byte and the spot of each message kind. */
void fz_check_json_err(const jenc_err *err, const char *p, size_t n,
    unsigned max_depth);

/* 1 if err and f describe the same error (code, position, text). */
int fz_same_err(const jenc_err *a, const jenc_err *b);

/* Fail with both errors in full unless fz_same_err(); with prefix set,
 * a's excerpt may be a prefix of b's that reaches the caret, ending in up
 * to three '?' where b has a character or its end (a reader of a
 * descriptor shows the line only as far as it has read it: the bytes of a
 * cut character as '?', a CR before an unread LF as '?'). */
void fz_expect_same_err(const jenc_err *a, const jenc_err *b,
    const char *what, int prefix);

/* fz_pipe_run's jobs for the JSON reader, ctx a struct fz_json_fd:
 * jenc_json_copy_fd(fd, e, ro, err), and jenc_json_copy_fd_par(fd, e,
 * ro, err, 2, n) on two threads in chunks of n bytes.  (A harness's own
 * job may use n as it needs.) */
struct fz_json_fd {
	jenc_enc *e;
	const jenc_read_opts *ro;
	jenc_err *err;
	size_t n;
};
int fz_json_fd_run(int fd, void *ctx);
int fz_json_par_run(int fd, void *ctx);

/*
 * fz_pipe_run - call fn(fd, ctx) with fd the read end of a pipe that a
 * thread fills with p[0..n) in chunks whose sizes come from seed.  The
 * thread writes a chunk only once the pipe is empty, so each read(2)
 * returns exactly one chunk: tokens split across reads in a way that
 * depends only on seed.  Returns what fn returns.
 */
int fz_pipe_run(const char *p, size_t n, uint32_t seed,
    int (*fn)(int fd, void *ctx), void *ctx);

/* 1 if p[0..n) may be read as UTF-16 or UTF-32 rather than UTF-8 (a
 * UTF-16/32 byte order mark, a NUL among its first two bytes): the
 * readers convert it, or name it (see fuzz_conv.c), so the harnesses of
 * UTF-8 input leave it out. */
int fz_wide_start(const char *p, size_t n);

/* fz_file - the descriptor of a temporary file (made at the first call
 * and kept) that now holds p[0..n), at offset 0. */
int fz_file(const char *p, size_t n);

/* A small deterministic hash of p[0..n). */
uint32_t fz_hash(const uint8_t *p, size_t n);

#endif
