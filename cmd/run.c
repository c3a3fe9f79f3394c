/*
 * run.c - a run of jenc(1) over its inputs: the output set up for -o, -w
 * and --check (cmd/output.c) and for --slurp and --log (run_begin), each
 * input opened and re-encoded by the library's JSON reader (with -j, on
 * several threads) or CSV reader (run_input), bad input told and counted
 * (--on-error), and the counts and the exit status at the end (run_end).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "quote.h"

/* The name of the input being read, for run_sigbus; NULL between inputs. */
const char *volatile run_reading;

/* What follows the name of a mapped file made shorter while it is read. */
static const char run_shrunk[] = ": the file was made shorter while it was "
    "read (see --no-mmap)\n";

/* What the reader's on_error (run_bad) needs: the run, the input's name;
 * for a file that may be mapped, its descriptor and size when reading
 * began (else size -1). */
struct run_bad_ctx {
	struct run *r;
	const char *name;
	int fd;
	off_t size;
	uint64_t told;		/* 1 + the offset of the last error told */
};

/* Bad input as the reader reports it in err, the input called name. */
static void
run_print_error(const char *name, const jenc_err *err)
{
	if (err->code == JENC_E_IO) {
		(void)cli_sys_error(name, err->sys_errno);
		return;
	}
	if (err->col == 0) {
		fprintf(stderr, "jenc: %s:%llu: %s\n", name,
		    (unsigned long long)err->line, err->msg);
		return;
	}
	fprintf(stderr, "jenc: %s:%llu:%llu: %s\n", name,
	    (unsigned long long)err->line, (unsigned long long)err->col,
	    err->msg);
	fprintf(stderr, "  %s\n  %*s^\n", err->excerpt, (int)err->caret, "");
}

/*
 * A mapped file made shorter while it is read: past the new end, the
 * rest of its last page reads as zero bytes (SIGBUS comes only from the
 * pages after it), which the reader takes for bad input.  So before bad
 * input of such a file is told, see whether the file shrank, and if so
 * say that and stop as run_sigbus does.
 */
static void
run_check_shrunk(const struct run_bad_ctx *b)
{
	struct stat st;

	if (b->size < 0 || fstat(b->fd, &st) != 0 || st.st_size >= b->size)
		return;
	output_abandon();
	fprintf(stderr, "jenc: %s%s", b->name, run_shrunk);
	exit(EXIT_IO);
}

/* jenc_read_opts.on_error: report bad input that was skipped (or passed
 * only in part), count its lines. */
static void
run_bad(void *ctx, const jenc_err *err)
{
	struct run_bad_ctx *b = ctx;
	struct run *r = b->r;
	const struct config *c = r->c;

	run_check_shrunk(b);
	r->bad_lines += err->lines;
	if (c->on_error == ON_ERROR_PASS && !c->validate && !err->passed)
		r->dropped_lines += err->lines;
	/* --validate, and --seq under stop (see run_json): exit status 1 */
	if (c->validate || c->on_error == ON_ERROR_STOP)
		r->bad_valid = 1;
	/* a bad value's later lines that start values are read again, and
	 * may run into the same error: it is told once */
	if (!c->quiet && !err->passed && b->told != err->offset + 1)
		run_print_error(b->name, err);
	b->told = err->offset + 1;
}

/* The count that ends the standard error under skip and pass: "jenc: 3
 * invalid lines skipped", "... passed through", "... passed through, 1
 * dropped", "jenc: 1 invalid line dropped". */
static void
run_bad_count(const struct run *r)
{
	const struct config *c = r->c;
	uint64_t n = r->bad_lines, d = r->dropped_lines;
	const char *what = c->on_error != ON_ERROR_PASS || c->validate ?
	    "skipped" : d == 0 ? "passed through" : d == n ? "dropped" : NULL;

	if (what != NULL)
		fprintf(stderr, "jenc: %llu invalid line%s %s\n",
		    (unsigned long long)n, n == 1 ? "" : "s", what);
	else
		fprintf(stderr, "jenc: %llu invalid line%s passed through, "
		    "%llu dropped\n", (unsigned long long)(n - d),
		    n - d == 1 ? "" : "s", (unsigned long long)d);
}

/*
 * SIGBUS with BUS_ADRERR while an input is read: a page of a file the
 * reader mapped (JENC_READ_MAP) is gone, because the file was made
 * shorter meanwhile.  Say so and stop as for a read error, the temporary
 * file of -o or -w removed; only async-signal-safe calls.  Any other
 * SIGBUS is left to its default action.
 */
static void
run_sigbus(int sig, siginfo_t *si, void *uc)
{
	const char *name = run_reading;

	(void)uc;
	if (name == NULL || si->si_code != BUS_ADRERR) {
		(void)signal(sig, SIG_DFL);
		(void)raise(sig);
		return;
	}
	output_abandon();
	(void)!write(STDERR_FILENO, "jenc: ", 6);
	(void)!write(STDERR_FILENO, name, strlen(name));
	(void)!write(STDERR_FILENO, run_shrunk, sizeof(run_shrunk) - 1);
	_exit(EXIT_IO);
}

/* The output options every input shares. */
static void
run_out_opts(const struct config *c, jenc_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->flags = JENC_LOWER_HEX | c->eflags;
	o->flags |= c->html ? JENC_HTML : 0;
	o->flags |= c->ascii ? JENC_ASCII : 0;
	if (c->lines)
		o->indent = 0;
	else if (c->tab)
		o->flags |= JENC_TAB;
	else
		o->indent = c->indent;
	if (c->slurp)
		o->flags |= JENC_SLURP | JENC_HOLD;
	if (c->ropts.flags & JENC_READ_SEQ)
		o->flags |= JENC_SEQ;	/* --seq: RS before each value */
}

/* An encoder writing to standard output with o and the colors. */
static jenc_enc *
run_new_out(const struct run *r, const jenc_opts *o)
{
	jenc_enc *e = output_encoder(r->out, o);

	if (e == NULL)
		cli_out_of_memory();
	jenc_set_colors(e, &r->c->colors);
	if (r->c->log) {
		int rc = jenc_set_view(e, &r->view);

		if (rc == JENC_E_NOMEM)
			cli_out_of_memory();
		if (rc != 0) {
			fprintf(stderr, "jenc: --log: %s\n", jenc_strerror(rc));
			exit(EXIT_IO);
		}
	}
	return e;
}

/* The CSV reader's options for input of format from. */
jenc_csv_opts
run_csv_opts(const struct config *c, int from)
{
	jenc_csv_opts co = c->copts;

	if (from == FROM_TSV)
		co.flags |= JENC_CSV_TSV;
	else if (co.delim == 0)
		co.flags |= JENC_CSV_DETECT;	/* no -d */
	/* --slurp: each record an element of the one array */
	if (c->lines || c->slurp || c->log)
		co.flags |= JENC_CSV_LINES;
	if (c->sep != NULL)
		co.sep = c->sep;
	return co;
}

/* JSON input is read on past bad input (see run_json): skip, pass, and
 * stop with --seq. */
int
run_reads_on(const struct config *c)
{
	return c->on_error != ON_ERROR_STOP ||
	    (c->ropts.flags & JENC_READ_SEQ) != 0;
}

/*
 * Set up the run of the checked config c over the n paths: the handler of
 * SIGBUS for mapped inputs, the --log view, the output of -o, -w or
 * --check, the warnings of options no input needs, the one encoder of
 * --slurp, the writer of --to=csv|tsv.  stdin_closed: the standard input
 * was closed when jenc started.
 */
void
run_begin(struct run *r, const struct config *c, int stdin_closed, int n,
    char **paths)
{
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->stdin_closed = stdin_closed;
	if (c->ropts.flags & JENC_READ_MAP) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = run_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		(void)sigaction(SIGBUS, &sa, NULL);
	}
	if (c->log) {	/* the view every output encoder gets */
		r->logv = opts_logv_new(&c->lopts);
		jenc_logv_view(r->logv, &r->view);
	}
	if (c->output != NULL || c->write || c->check) {
		r->out = output_new(c->output != NULL ? OUTPUT_FILE :
		    c->write ? OUTPUT_WRITE : OUTPUT_CHECK,
		    (c->best_effort ? OUTPUT_BEST_EFFORT : 0) |
		    (c->nul ? OUTPUT_NUL : 0));
		if (r->out == NULL)
			cli_out_of_memory();
		if (c->output != NULL && output_open(r->out, c->output) != 0)
			exit(EXIT_IO);
	}
	opts_warn_unused(c, n, paths);
	if (c->slurp && !c->validate) {
		jenc_opts o;

		run_out_opts(c, &o);
		r->all = run_new_out(r, &o);
	}
	if (c->to != TO_JSON)
		tocsv_begin(r, n, paths);
}

/* Open the input path, called name, on *fdp (the standard input for "-"),
 * and start the output of -w or --check on it.  Returns 0, or the exit
 * status of an input that cannot be read. */
static int
run_open(struct run *r, const char *path, const char *name, int *fdp)
{
	int status;

	*fdp = STDIN_FILENO;
	if (strcmp(path, "-") == 0) {
		if (r->stdin_closed)
			return cli_sys_error(name, EBADF);
	} else if ((*fdp = output_input(r->out, path, name)) < 0) {
		return EXIT_IO;
	}
	if (r->out != NULL && (status = output_begin(r->out, fdp, path,
	    name)) != 0) {
		if (*fdp != STDIN_FILENO)
			close(*fdp);
		return status;
	}
	return 0;
}

/* Read the JSON input fd into e (NULL under --validate), its bad input
 * told through bad.  Returns the reader's status, err filled. */
static int
run_json(struct run *r, int fd, jenc_enc *e, struct run_bad_ctx *bad,
    jenc_err *err)
{
	const struct config *c = r->c;
	jenc_read_opts ro = c->ropts;
	struct stat st;
	int rc;

	if ((ro.flags & JENC_READ_MAP) && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		bad->fd = fd;
		bad->size = st.st_size;
	}
	/*
	 * --validate has no output to pass bad text to: it lists it.
	 * With --seq, stop still reads on at the next RS, as RFC 7464
	 * asks of a truncated text: the bad text is reported and
	 * skipped, and the exit status is 1.
	 */
	if (c->on_error == ON_ERROR_SKIP ||
	    (c->on_error == ON_ERROR_PASS && c->validate) ||
	    (c->on_error == ON_ERROR_STOP && (ro.flags & JENC_READ_SEQ)))
		ro.flags |= JENC_READ_SKIP;
	else if (c->on_error == ON_ERROR_PASS)
		ro.flags |= JENC_READ_PASS;
	if (c->log)
		ro.flags |= JENC_READ_BLANK;	/* a log's layout */
	ro.on_error = run_bad;
	ro.ctx = bad;
	run_reading = bad->name;
	/* --log on one thread: the lines that are compact records go to
	 * the view without the reader */
	if (c->log && c->jobs == 1 && e != NULL)
		rc = jenc_logv_fd(r->logv, fd, e, &ro, err);
	else
		rc = jenc_json_copy_fd_par(fd, e, &ro, err, c->jobs, c->chunk);
	run_reading = NULL;
	return rc;
}

/*
 * After an input: everything before a bad value is out before the error
 * is told.  The encoder's own error is a write error, or no memory: then
 * jenc_release still writes the complete values it holds.
 */
static void
run_flush(const struct run *r, jenc_enc *e)
{
	int ee;

	if (e == NULL)
		return;
	if ((ee = jenc_error(e)) == 0)
		ee = jenc_flush(e);
	if (ee == JENC_E_NOMEM) {
		(void)jenc_release(e);
		cli_out_of_memory();
	}
	if (ee != 0)
		cli_write_failed(jenc_errno(e) ? jenc_errno(e) : EIO);
	if (e != r->all)
		(void)jenc_release(e);
}

/* Re-encode the input open on fd, path, called name in messages.
 * Returns the exit status it earns. */
static int
run_read(struct run *r, int fd, const char *path, const char *name)
{
	const struct config *c = r->c;
	int from = opts_input_format(c, path), rc;
	jenc_opts o;
	jenc_enc *e = r->all;
	jenc_err err;
	struct run_bad_ctx bad = { r, name, -1, -1, 0 };

	run_out_opts(c, &o);
	if (c->to != TO_JSON) {
		/* each record a top-level value of the view, the elements
		 * of a top-level array too; but a file of objects alone
		 * (its first pass says so) goes as runs of its text */
		if (r->plain == NULL || !r->plain[r->input])
			o.flags |= JENC_SPLIT;
		if (c->validate && e == NULL)
			e = jenc_get_sink(tocsv_discard, NULL, &o);
	}
	if (from == FROM_JSON)
		o.flags |= JENC_HOLD;
	if (!c->validate && e == NULL)
		e = run_new_out(r, &o);
	if (c->to != TO_JSON)
		tocsv_set_view(r, e);
	if (from == FROM_JSON && r->plain != NULL && r->plain[r->input] == 2) {
		/* a file of compact records the first pass took whole (its
		 * objects only: else as plain 1, through the reader) */
		int status = tocsv_rows(r, fd, e, name);

		if (status >= 0) {
			run_flush(r, e);
			return status;
		}
	}
	if (from == FROM_JSON) {
		rc = run_json(r, fd, e, &bad, &err);
	} else {
		jenc_csv_opts co = run_csv_opts(c, from);

		rc = jenc_csv_copy_fd(fd, e, &co, &err);
	}
	run_flush(r, e);
	if (rc == JENC_E_NOMEM)
		cli_out_of_memory();
	if (rc == JENC_E_SYNTAX || rc == JENC_E_DEPTH)
		run_check_shrunk(&bad);
	if (rc != 0) {
		run_print_error(name, &err);
		return rc == JENC_E_IO ? EXIT_IO : EXIT_INVALID;
	}
	return 0;
}

/* Re-encode one input, path ("-": the standard input); its name is
 * quoted in messages (quote.h).  Returns the exit status it earns. */
int
run_input(struct run *r, const char *path)
{
	char q[QUOTE_SIZE];
	const char *name = quote_name(path, q, sizeof(q));
	int is_stdin = strcmp(path, "-") == 0, fd, status;

	if (is_stdin)
		name = "<stdin>";
	if ((status = run_open(r, path, name, &fd)) != 0)
		return status;
	status = run_read(r, fd, path, name);
	if (r->out != NULL)
		status = output_end(r->out, status);
	if (!is_stdin)
		close(fd);
	return status;
}

/*
 * After the last input, whose worst exit status is status: close the
 * array of --slurp, tell the counts of bad lines and of keys dropped,
 * finish the output of -o and --check, free the run.  Returns jenc's exit
 * status.
 */
int
run_end(struct run *r, int status)
{
	const struct config *c = r->c;

	/* --slurp: the array closes after the last input, whatever came */
	if (r->all != NULL) {
		if (jenc_arr_end(r->all) != 0 || jenc_flush(r->all) != 0)
			cli_write_failed(jenc_errno(r->all) ?
			    jenc_errno(r->all) : EIO);
		(void)jenc_release(r->all);
	}
	/* --log passes what is not a record as a part of the log: only
	 * lines that could not be passed are counted */
	if (r->bad_lines > 0 && !c->quiet && !(c->log &&
	    c->on_error == ON_ERROR_PASS && r->dropped_lines == 0))
		run_bad_count(r);
	tocsv_end(r);
	if (r->bad_valid && status == 0)
		status = EXIT_INVALID;
	status = output_close(r->out, status);
	if (c->check && fflush(stdout) != 0)
		cli_write_failed(errno);
	output_free(r->out);
	jenc_logv_free(r->logv);
	return status;
}
