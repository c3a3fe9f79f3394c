/*
 * tocsv.c - --to=csv and --to=tsv in a run of jenc(1): the one writer of
 * the run (jenc_csvw) that every input's encoder writes its rows through
 * (tocsv_set_view), its columns found by a first pass over each input
 * (tocsv_scan_columns), and the count of keys it dropped (tocsv_end).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "quote.h"

/* A sink that keeps nothing: --validate with --to=csv|tsv, which checks
 * the records as it would write them. */
int
tocsv_discard(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return 0;
}

/* --to=csv|tsv: e writes rows through the one writer of the run. */
void
tocsv_set_view(struct run *r, jenc_enc *e)
{
	jenc_view v;

	if (e == NULL)
		cli_out_of_memory();
	jenc_csvw_view(r->csvw, 0, &v);
	if (jenc_set_view(e, &v) != 0)
		cli_out_of_memory();
}

/* lseek(fd, at, whence), its result; a failure (or, with SEEK_SET,
 * another offset than at) is told and exits. */
static off_t
tocsv_seek(int fd, off_t at, int whence, const char *name)
{
	off_t r = lseek(fd, at, whence);

	if (r < 0 || (whence == SEEK_SET && r != at)) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(errno));
		exit(EXIT_IO);
	}
	return r;
}

/*
 * One first pass over fd (from its offset at, put back there after) into
 * the writer's keys, with JENC_SPLIT or not: returns 1 if it went through
 * with no bad input.
 */
static int
tocsv_scan_one(struct run *r, int fd, off_t at, const char *path,
    const char *name, unsigned split)
{
	jenc_opts o = { 0, split, 0 };
	jenc_view v;
	jenc_enc *e;
	jenc_err err;
	int rc, from = opts_input_format(r->c, path);

	jenc_csvw_view(r->csvw, 1, &v);
	tocsv_seek(fd, at, SEEK_SET, name);
	if ((e = jenc_get_mem(&o)) == NULL || jenc_set_view(e, &v) != 0)
		cli_out_of_memory();
	if (from == FROM_JSON) {
		jenc_read_opts ro = r->c->ropts;

		ro.flags &= ~(unsigned)JENC_READ_PASS;
		if (run_reads_on(r->c))
			ro.flags |= JENC_READ_SKIP;
		ro.on_error = NULL;
		run_reading = name;
		rc = jenc_json_copy_fd(fd, e, &ro, &err);
		run_reading = NULL;
	} else {
		jenc_csv_opts co = run_csv_opts(r->c, from);

		rc = jenc_csv_copy_fd(fd, e, &co, &err);
	}
	if (rc == JENC_E_NOMEM || jenc_release(e) == JENC_E_NOMEM)
		cli_out_of_memory();
	tocsv_seek(fd, at, SEEK_SET, name);
	return rc == 0 && err.code == 0;
}

/* The first pass without the reader (jenc_csvw_keys_fd) over fd from
 * its offset at (put back there after): 1 if it read fd to its end, at
 * offset *end, found it valid and took its keys. */
static int
tocsv_scan_keys(struct run *r, int fd, off_t at, const char *name,
    off_t *end)
{
	int rc;

	tocsv_seek(fd, at, SEEK_SET, name);
	if ((rc = jenc_csvw_keys_fd(r->csvw, fd, &r->c->ropts)) ==
	    JENC_E_NOMEM)
		cli_out_of_memory();
	if (rc == 1)
		*end = tocsv_seek(fd, 0, SEEK_CUR, name);
	tocsv_seek(fd, at, SEEK_SET, name);
	return rc == 1;
}

/*
 * --to=csv|tsv without --header: the columns are every key of the
 * records of each input that is a regular file (a FILE, or the standard
 * input from where it stands), in the order they first appear, found by
 * a first pass that keeps only the keys (a pipe cannot be read twice:
 * its columns are the first record's).  Bad input ends a file's pass
 * where the second pass will stop (or is skipped as it will be); it is
 * told by the second.
 *
 * A JSON file that starts with an object is first read by
 * jenc_csvw_keys_fd, which takes the keys of compact records without the
 * reader (most NDJSON): if it read all of it (plain 2), so does the
 * second pass (tocsv_rows).  Else it is read without JENC_SPLIT,
 * its values going to the view as runs of their text rather than a call
 * per token, which takes about half the time.  If that pass went
 * through (objects only), so does the second, with the same rows; else
 * (an array, whose elements are records, or bad input) the pass is done
 * again with JENC_SPLIT, and so is the second.
 */
static void
tocsv_scan_columns(struct run *r, int n, char **paths)
{
	int i;
	char *none[] = { (char *)"-" };
	jenc_view v;

	if (n == 0) {
		n = 1;
		paths = none;
	}
	if ((r->plain = calloc((size_t)n, 1)) == NULL ||
	    (r->ends = calloc((size_t)n, sizeof(off_t))) == NULL)
		cli_out_of_memory();
	for (i = 0; i < n; i++) {
		struct stat st;
		int fd, in = strcmp(paths[i], "-") == 0;
		char q[QUOTE_SIZE], head[512];
		const char *name = in ? "<stdin>" :
		    quote_name(paths[i], q, sizeof(q));
		ssize_t k, j = 0;
		off_t at = 0;

		if (in) {
			if (r->stdin_closed || fstat(STDIN_FILENO, &st) != 0 ||
			    !S_ISREG(st.st_mode) ||
			    (at = lseek(STDIN_FILENO, 0, SEEK_CUR)) < 0)
				continue;
			fd = STDIN_FILENO;
		} else if (stat(paths[i], &st) != 0 || !S_ISREG(st.st_mode) ||
		    (fd = open(paths[i], O_RDONLY)) < 0) {
			continue;
		}
		k = pread(fd, head, sizeof(head), at);
		while (j < k && (head[j] == ' ' || head[j] == '\t' ||
		    head[j] == '\n' || head[j] == '\r'))
			j++;
		if (j < k && head[j] == '{' &&
		    opts_input_format(r->c, paths[i]) == FROM_JSON)
			r->plain[i] = (unsigned char)(tocsv_scan_keys(r, fd,
			    at, name, &r->ends[i]) ? 2 :
			    tocsv_scan_one(r, fd, at, paths[i], name, 0));
		if (!r->plain[i])
			(void)tocsv_scan_one(r, fd, at, paths[i], name,
			    JENC_SPLIT);
		if (!in)
			close(fd);
	}
	jenc_csvw_view(r->csvw, 0, &v);
}

/*
 * --to=csv|tsv: the writer of the run, from the options; without
 * --header its columns from a first pass over the n paths.
 */
void
tocsv_begin(struct run *r, int n, char **paths)
{
	const struct config *c = r->c;
	jenc_csvw_opts wo = { 0 };
	int rc;

	wo.flags = c->wflags | (c->to == TO_TSV ? JENC_CSVW_TSV : 0) |
	    ((c->copts.flags & JENC_CSV_NO_HEADER) ? JENC_CSVW_NO_HEADER : 0) |
	    ((c->copts.flags & JENC_CSV_RAGGED_PAD) ? JENC_CSVW_PAD : 0) |
	    (run_reads_on(c) ? JENC_CSVW_READ_ON : 0);
	wo.delim = c->to == TO_CSV ? c->copts.delim : 0;
	wo.sep = c->sep;
	wo.header = c->copts.header;
	wo.nheader = c->copts.nheader;
	if ((rc = jenc_csvw_new(&r->csvw, &wo)) == JENC_E_NOMEM)
		cli_out_of_memory();
	/* (opts_parse refuses each delimiter the writer would) */
	if (rc != 0)
		cli_usage_error("--delimiter: '%c' cannot be a CSV delimiter",
		    c->copts.delim);
	if (c->copts.header == NULL)
		tocsv_scan_columns(r, n, paths);
}

/*
 * --to=csv|tsv, the second pass over a file that jenc_csvw_keys_fd took
 * whole: its rows without the reader, into e.  Returns 0, EXIT_IO if the
 * file changed since (a record, or where it ends), or -1 if e does not
 * write values as they are (-a, -H, -S change nested cells): the reader
 * reads the rows then.  e's errors are told by the caller.
 */
int
tocsv_rows(struct run *r, int fd, jenc_enc *e, const char *name)
{
	const struct config *c = r->c;
	int rc = jenc_csvw_rows_fd(r->csvw, fd, e, &c->ropts);

	if (rc == JENC_E_NOMEM)
		cli_out_of_memory();
	if (rc == JENC_E_STATE)
		return -1;
	if (rc == 1 && lseek(fd, 0, SEEK_CUR) != r->ends[r->input])
		rc = 0;
	if (rc == 0) {
		fprintf(stderr, "jenc: %s: the file changed between the two "
		    "passes of --to=%s\n", name, c->to == TO_CSV ? "csv" :
		    "tsv");
		return EXIT_IO;
	}
	return 0;
}

/* After the last input: the count of keys not among the columns, and the
 * writer freed. */
void
tocsv_end(struct run *r)
{
	if (r->csvw != NULL && jenc_csvw_dropped(r->csvw) > 0 &&
	    !r->c->quiet)
		fprintf(stderr, "jenc: %llu key%s not among the columns "
		    "dropped\n", (unsigned long long)jenc_csvw_dropped(r->csvw),
		    jenc_csvw_dropped(r->csvw) == 1 ? "" : "s");
	jenc_csvw_free(r->csvw);
	free(r->plain);
	free(r->ends);
}
