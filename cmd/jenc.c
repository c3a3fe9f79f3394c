/*
 * jenc - re-encode JSON (and CSV/TSV) compactly, indented or escaped.
 *
 * This file is main, which takes jenc(1) through its steps (cli.h), and
 * the ways it ends early: a usage error, no memory, a failed write.  The
 * options are read in opts.c and checked in opts_check.c, the inputs run
 * in run.c (--to=csv|tsv: tocsv.c); the work is in lib/.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "quote.h"

/* End the message on stderr with the hint line; exit 2. */
void
cli_usage_hint(void)
{
	fputs("\nTry 'jenc --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

/* "jenc: " and the message on stderr, without a line end, through
 * quote_fputs: the values it holds came from the command line or the
 * environment. */
static void
cli_vsay(const char *fmt, va_list ap)
{
	char buf[512], *m = buf;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf) && (m = malloc((size_t)n + 1)) != NULL)
		(void)vsnprintf(m, (size_t)n + 1, fmt, ap2);
	else if (m == NULL)
		m = buf;	/* no memory: the message cut */
	va_end(ap2);
	fputs("jenc: ", stderr);
	quote_fputs(n >= 0 ? m : fmt, stderr);
	if (m != buf)
		free(m);
}

void
cli_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vsay(fmt, ap);
	va_end(ap);
}

/* "jenc: " and the message on stderr, then the hint; exit 2. */
void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vsay(fmt, ap);
	va_end(ap);
	cli_usage_hint();
}

/* "jenc: NAME: " and strerror(err) on stderr.  Returns EXIT_IO. */
int
cli_sys_error(const char *name, int err)
{
	fprintf(stderr, "jenc: %s: %s\n", name, strerror(err));
	return EXIT_IO;
}

/* Memory ran out: the input is not at fault, so no position is told.  What
 * was complete is out already; stop there, as for a write error. */
void
cli_out_of_memory(void)
{
	fputs("jenc: out of memory\n", stderr);
	exit(EXIT_IO);
}

/*
 * A write to standard output failed: say why.  A closed pipe ends jenc by
 * SIGPIPE before the write returns, unless the signal is ignored: then,
 * as cat(1) does, EPIPE is a write error like any other.
 */
void
cli_write_failed(int err)
{
	fprintf(stderr, "jenc: write error: %s\n", strerror(err));
	exit(EXIT_IO);
}

/*
 * A standard descriptor that is closed would be taken by the first file
 * jenc opens: messages would go into the output file, or an input be read
 * as the standard input.  Each is held by /dev/null, read-only: a write to
 * a closed standard output still fails with EBADF, and "-" is answered
 * with the error reading a closed descriptor gives.  Returns -1 if there
 * is no /dev/null (nowhere safe), else whether the standard input was
 * closed.
 */
static int
cli_hold_std(void)
{
	int fd, stdin_closed = 0;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (fd == STDIN_FILENO)
			stdin_closed = 1;
		if (open("/dev/null", O_RDONLY) != fd)
			return -1;
	}
	return stdin_closed;
}

int
main(int argc, char **argv)
{
	struct config c;
	struct run r;
	int status = 0, n, stdin_closed;

	if ((stdin_closed = cli_hold_std()) < 0)
		return EXIT_IO;
	/* A write past the file size limit (ulimit -f) is a write error,
	 * not the end of jenc with its temporary file left behind. */
	(void)signal(SIGXFSZ, SIG_IGN);
	opts_parse(&c, argc, argv);
	n = argc - optind;
	opts_check(&c, n, argv + optind);
	run_begin(&r, &c, stdin_closed, n, argv + optind);
	/* no FILE: the standard input */
	for (r.input = 0; r.input < (n > 0 ? n : 1); r.input++) {
		int s = run_input(&r, n > 0 ? argv[optind + r.input] : "-");

		if (s > status)
			status = s;
		if (output_failed(r.out))
			break;
	}
	status = run_end(&r, status);
	free(c.names);
	return status;
}
