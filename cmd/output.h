/*
 * output.h - where jenc(1) puts its output when it is not simply the
 * standard output: a file replaced atomically (-o FILE), each input
 * rewritten in place (-w), or nowhere, the output only compared with the
 * input (--check).
 *
 * A replaced file is never seen half-written: the output goes to a
 * temporary file in the same directory, named
 *
 *	.NAME.jenc-PID-XXXXXX
 *
 * which is fsync'd and renamed over the file (the directory is fsync'd
 * after).  Until that rename the file keeps its old content.  On an error,
 * on exit() and on SIGHUP, SIGINT or SIGTERM the temporary file is
 * removed; one left by a process that was killed outright (SIGKILL, a
 * crash, a power cut) is removed by the next -o or -w working in that
 * directory, which removes every such name whose PID is not a running
 * process.
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

struct output;

/*
 * output_new - the state for a run in mode.  For OUTPUT_FILE and
 * OUTPUT_WRITE it installs the handlers that remove the temporary file on
 * SIGHUP, SIGINT and SIGTERM (a signal already ignored stays ignored) and
 * on exit().  Returns NULL if memory runs out.
 */
struct output *output_new(enum output_mode mode);

/*
 * output_abandon - remove the temporary file, if one exists: for a signal
 * handler that ends the process (async-signal-safe).
 */
void output_abandon(void);

/* output_free - frees o (NULL is a no-op). */
void output_free(struct output *o);

/*
 * output_open - OUTPUT_FILE: start writing path, before any input is read.
 * A regular file (or one a symbolic link points to) gets a temporary file
 * beside it; anything else that exists, such as /dev/null or a FIFO, is
 * written directly.  Returns 0 or 3 (said why).
 */
int output_open(struct output *o, const char *path);

/*
 * output_begin - OUTPUT_WRITE, OUTPUT_CHECK: start on one input, *fd open
 * on path (name is the name for messages, "<stdin>" for the standard
 * input).  With OUTPUT_CHECK an input that is not a regular file is first
 * copied to an unlinked temporary file in $TMPDIR (/tmp by default), and
 * *fd is replaced by it (the caller closes it).  Returns 0, or 3 when the
 * input cannot be worked on (said why; the caller skips it).  A no-op for
 * OUTPUT_FILE.
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
 * its name printed on the standard output.  OUTPUT_FILE: says if a write
 * failed.  Returns the status to keep (the higher of status and its own).
 */
int output_end(struct output *o, int status);

/* output_failed - OUTPUT_FILE: non-zero once a write to the file failed
 * (the remaining inputs need not be read). */
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
