/*
 * output.h - where jenc(1) puts its output when it is not simply the
 * standard output: a file replaced atomically (-o FILE), each input
 * rewritten in place (-w), or nowhere, the output only compared with the
 * input (--check).
 *
 * A replaced file is never seen half-written: the output goes to a new
 * file in the same directory, which has no name while it is written
 * (O_TMPFILE; where the file system refuses that, a file made by
 * mkstemp(3) named .NAME.jenc-PID-XXXXXX), and is fsync'd, named and
 * renamed over the file (the directory is fsync'd after).  Until that
 * rename the file keeps its old content.  It gets what the old file had:
 * owner, group, mode, extended attributes and ACL (keep.h); if one of
 * them cannot be kept, the file is left as it was unless
 * OUTPUT_BEST_EFFORT is set.  On an error, on exit() and on SIGHUP,
 * SIGINT or SIGTERM the named temporary file is removed; jenc never
 * removes a file it did not create in this run, so one left by a process
 * killed outright (SIGKILL, a crash, a power cut) stays for the user.
 * (An unnamed one goes with the process.)
 *
 * The functions print their own messages ("jenc: NAME: reason") and return
 * an exit status: 0, 1 (the input is not in the requested form, --check)
 * or 3 (a read or write error).
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include "jenc.h"

enum output_mode {
	OUTPUT_FILE = 1,	/* -o FILE: every input's output into FILE */
	OUTPUT_WRITE,		/* -w: each input replaced by its output */
	OUTPUT_CHECK		/* --check: the output compared with the input */
};

/* Flags of output_new. */
#define OUTPUT_BEST_EFFORT 1u	/* --best-effort: replace a file even if
				 * its owner, ... cannot be kept (warned) */
#define OUTPUT_NUL 2u		/* --check -z: names as they are, NUL after
				 * each */

struct output;

/*
 * output_new - the state for a run in mode with flags (OUTPUT_*, 0 for
 * none).  For OUTPUT_FILE and OUTPUT_WRITE it installs the handlers that
 * remove a named temporary file on SIGHUP, SIGINT and SIGTERM (a signal
 * already ignored stays ignored) and on exit().  Returns NULL if memory
 * runs out.
 */
struct output *output_new(enum output_mode mode, unsigned flags);

/*
 * output_abandon - remove the temporary file, if one exists: for a signal
 * handler that ends the process (async-signal-safe).
 */
void output_abandon(void);

/* output_free - frees o (NULL is a no-op). */
void output_free(struct output *o);

/*
 * output_fd_path - the descriptor path names without the file system:
 * 0, 1, 2 for /dev/stdin, /dev/stdout, /dev/stderr, N for /dev/fd/N and
 * /proc/self/fd/N; else -1.
 */
int output_fd_path(const char *path);

/*
 * output_open - OUTPUT_FILE: start writing path, before any input is read.
 * A regular file (or one a symbolic link points to) gets a temporary file
 * beside it; a descriptor's name (output_fd_path) is written through that
 * descriptor, whatever it is open on; anything else that exists, such as
 * /dev/null or a FIFO, is written directly.  Returns 0 or 3 (said why).
 */
int output_open(struct output *o, const char *path);

/*
 * output_input - open the input path (name: its name for messages) for
 * reading.  With OUTPUT_WRITE, without waiting on a FIFO or a device:
 * anything but a regular file is refused.  o may be NULL.  Returns the
 * descriptor, or -1 (said why).
 */
int output_input(const struct output *o, const char *path, const char *name);

/*
 * output_begin - OUTPUT_WRITE, OUTPUT_CHECK: start on one input, *fd open
 * on path (name is the name for messages, quoted as quote.h says,
 * "<stdin>" for the standard input).  With OUTPUT_CHECK an input that is
 * not a regular file is first copied to an unlinked temporary file in
 * $TMPDIR (/tmp by default), and *fd is replaced by it (the caller closes
 * it).  Returns 0, or 3 when the input cannot be worked on (said why; the
 * caller skips it).  A no-op for OUTPUT_FILE.
 */
int output_begin(struct output *o, int *fd, const char *path,
    const char *name);

/*
 * output_encoder - an encoder that writes where o says; o NULL means the
 * standard output.  Returns NULL only if memory runs out.  Its sink never
 * fails: a failed write is kept in o and reported by output_end().
 */
jenc_enc *output_encoder(struct output *o, const jenc_opts *opts);

/*
 * output_end - after one input, whose encoder has been released; status
 * is the exit status its reading earned (0 if it was valid and read).
 * OUTPUT_WRITE: a valid input whose output differs is replaced, any other
 * is left as it was.  OUTPUT_CHECK: a valid input whose output differs has
 * its name written on the standard output (quoted as quote.h says, or as
 * it is and followed by a NUL with OUTPUT_NUL); if that write fails, the
 * run stops (output_failed).  OUTPUT_FILE: says if a write failed.
 * Returns the status to keep (the higher of status and its own).
 */
int output_end(struct output *o, int status);

/* output_failed - non-zero once a write to the file of OUTPUT_FILE or
 * to --check's list failed (the remaining inputs need not be read). */
int output_failed(const struct output *o);

/*
 * output_close - OUTPUT_FILE: after the last input.  With status 0 the
 * file is replaced by the output; otherwise it is left untouched and the
 * temporary file removed.  Returns the status to keep.  A no-op for the
 * other modes.
 */
int output_close(struct output *o, int status);

/*
 * output_is_stdout - the first of the n paths (n 0: the standard input,
 * as does "-") that is the same file as the standard output when that is a
 * regular file, or NULL.  Paths that cannot be stat'ed are passed over.
 */
const char *output_is_stdout(char *const *paths, int n);

#endif /* OUTPUT_H */
