/*
 * cli.h - what the files of jenc(1) share: the options as the user gave
 * them (struct config, filled by opts.c), the state of a run (struct run,
 * run.c and tocsv.c), and the ways the command ends.
 *
 * The command's one status convention: a function of cmd/ that tells the
 * user what went wrong (opts_*, run_*, tocsv_*, output_*) and returns an
 * int status returns an exit status, 0 ok, EXIT_INVALID (1) invalid input
 * (or, --check, input not in the requested form), EXIT_USAGE (2) a usage
 * error, EXIT_IO (3) a read or write error or no memory; of two statuses
 * the larger wins.  A usage error, no memory and a failed write to the
 * standard output end jenc at once (cli_usage_error, cli_out_of_memory,
 * cli_write_failed).  A helper that leaves the telling to its caller
 * (keep_copy) returns 0 or -1 with errno set, as a system call does, and
 * one that returns a descriptor returns -1 for none.  A predicate returns
 * non-zero for yes.  Library calls keep theirs: 0 or a negative JENC_E_*
 * code.
 *
 * The order of a run: opts_parse fills the config from the command line,
 * opts_check refuses what does not go together and settles what the
 * options leave open (colors, --log's defaults, the environment's test
 * settings); from there the config is read only.  run_begin sets up the
 * output, run_input re-encodes each input, run_end says what is left to
 * say and gives the exit status.
 */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>

#include "jenc.h"

#define EXIT_INVALID 1
#define EXIT_USAGE 2
#define EXIT_IO 3

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* In the order of the values of --from, --to, --color, --on-error
 * (opts_word). */
enum { FROM_AUTO, FROM_JSON, FROM_CSV, FROM_TSV };
enum { TO_JSON, TO_CSV, TO_TSV };
enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
enum { ON_ERROR_STOP, ON_ERROR_SKIP, ON_ERROR_PASS };

/* What the user asked for, from the command line and the environment. */
struct config {
	int from;		/* FROM_* */
	unsigned indent;
	int tab, lines, html, ascii;
	int validate;
	int on_error, quiet;	/* ON_ERROR_*, -q */
	const char *output;	/* -o FILE, or NULL */
	int write, check;	/* -w, --check */
	int nul, best_effort;	/* -z, --best-effort */
	int color, slurp;	/* COLOR_*, -s */
	unsigned eflags;	/* JENC_SORT_KEYS, JENC_SPLIT, ... */
	jenc_colors colors;
	jenc_read_opts ropts;
	unsigned jobs;		/* -j: threads, 0 = auto */
	size_t chunk;		/* JENC_CHUNK: bytes per chunk, for tests */
	jenc_csv_opts copts;
	int to;			/* TO_* */
	unsigned wflags;	/* JENC_CSVW_*: --crlf, --csv-safe */
	const char *sep;	/* --flatten-sep */
	int log;		/* --log */
	int log_opt;		/* the last option of --log only, or 0 */
	jenc_logv_opts lopts;
	char **names;		/* --header: the names, into its argument */
	/* Options given that apply to one input format only, as written
	 * ("-t" or "--types"), NULL if not given: see opts_warn_unused. */
	const char *json_only[4], *csv_only[6];
};

/* Indexes into config.json_only and config.csv_only. */
enum { JO_SINGLE, JO_MAX_DEPTH, JO_JSONC, JO_ON_ERROR };
enum { CO_DELIM, CO_NO_HEADER, CO_HEADER, CO_TYPES, CO_RAGGED, CO_NEST };

/* What changes while jenc runs; c is the checked config. */
struct run {
	const struct config *c;
	struct output *out;	/* with -o, -w or --check */
	jenc_enc *all;		/* --slurp: the one encoder of all inputs */
	jenc_csvw *csvw;	/* --to=csv|tsv: the writer of every input */
	unsigned char *plain;	/* per input: its first pass found objects
				 * only, 2: compact ones, read without the
				 * reader (see tocsv_begin) */
	off_t *ends;		/* per input of plain 2: the offset its first
				 * pass read to */
	int input;		/* the index of the input being read */
	jenc_logv *logv;	/* --log: the view of every output encoder */
	jenc_view view;
	uint64_t bad_lines;	/* skipped or passed, over all inputs */
	uint64_t dropped_lines;	/* --on-error=pass: of those, not passed */
	int bad_valid;		/* --validate found bad input */
	int stdin_closed;	/* standard input was closed at the start */
};

/* jenc.c: the ends of jenc, and a system error told. */
void cli_usage_hint(void) __attribute__((noreturn));
/* cli_say: "jenc: " and the message on stderr, no line end; control
 * characters and bytes that are not UTF-8 in it shown as escapes
 * (quote_fputs), since its values come from outside.  cli_usage_error
 * says so, then the hint, and exits 2. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
void cli_out_of_memory(void) __attribute__((noreturn));
void cli_write_failed(int err) __attribute__((noreturn));
int cli_sys_error(const char *name, int err);

/* opts.c: the options. */
void opts_parse(struct config *c, int argc, char **argv);
int opts_input_format(const struct config *c, const char *path);
const char *opts_log_name(int ch);
int opts_digits_ok(const char *s, unsigned long *v);

/* opts_check.c: what the options leave to be checked. */
void opts_check(struct config *c, int n, char **paths);
void opts_warn_unused(const struct config *c, int n, char **paths);
jenc_logv *opts_logv_new(const jenc_logv_opts *lo);

/* run.c: the run. */
void run_begin(struct run *r, const struct config *c, int stdin_closed,
    int n, char **paths);
int run_input(struct run *r, const char *path);
int run_end(struct run *r, int status);
jenc_csv_opts run_csv_opts(const struct config *c, int from);
int run_reads_on(const struct config *c);
extern const char *volatile run_reading;

/* tocsv.c: --to=csv|tsv. */
void tocsv_begin(struct run *r, int n, char **paths);
void tocsv_set_view(struct run *r, jenc_enc *e);
int tocsv_discard(void *ctx, const char *p, size_t n);
int tocsv_rows(struct run *r, int fd, jenc_enc *e, const char *name);
void tocsv_end(struct run *r);

#endif /* CLI_H */
