/*
 * opts_check.c - what jenc(1)'s options leave to be checked once they are
 * all read: the combinations refused (opts_check), the colors, the --log
 * view and the test settings of the environment settled, and the warning
 * about options of an input format no input has (opts_warn_unused).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "quote.h"

/* Is path read as CSV or TSV? */
static int
opts_check_csv(const struct config *c, const char *path)
{
	return opts_input_format(c, path) != FROM_JSON;
}

/* The environment variable name if it is set and not empty, else NULL. */
static const char *
opts_env(const char *name)
{
	const char *s = getenv(name);

	return s != NULL && *s != '\0' ? s : NULL;
}

/*
 * JENC_CHUNK, for tests: the bytes per chunk of -j (see HACKING.md), so
 * that a small input is cut into many.  Unset or empty: the library's.
 */
static void
opts_check_chunk(struct config *c)
{
	const char *s = opts_env("JENC_CHUNK");
	unsigned long v;

	if (s == NULL)
		return;
	if (!opts_digits_ok(s, &v) || v < 1) {
		cli_say("JENC_CHUNK: '%s' is not a number of bytes", s);
		fputc('\n', stderr);
		exit(EXIT_USAGE);
	}
	c->chunk = v;
}

/*
 * JENC_STATS=FILE, for tests: at exit the readers' work counters
 * (jenc_read_stats_get) go to FILE, one "name value" line each, so that
 * a test bounds the work per input byte instead of timing it.
 */
static const char *opts_check_stats_path;

static void
opts_check_stats(void)
{
	jenc_read_stats st;
	FILE *f = fopen(opts_check_stats_path, "w");

	if (f == NULL) {
		fprintf(stderr, "jenc: JENC_STATS: %s: %s\n",
		    opts_check_stats_path, strerror(errno));
		return;
	}
	jenc_read_stats_get(&st);
	fprintf(f, "bytes_in %" PRIu64 "\nreads %" PRIu64 "\nwaits %" PRIu64
	    "\ngrows %" PRIu64 "\nmoved %" PRIu64 "\nskel_bytes %" PRIu64
	    "\njsmn_calls %" PRIu64 "\njsmn_bytes %" PRIu64
	    "\ncut_bytes %" PRIu64 "\nslow_bytes %" PRIu64 "\nthreads %" PRIu64
	    "\n", st.bytes_in, st.reads, st.waits, st.grows, st.moved,
	    st.skel_bytes, st.jsmn_calls, st.jsmn_bytes, st.cut_bytes,
	    st.slow_bytes, st.threads);
	if (fclose(f) != 0)
		fprintf(stderr, "jenc: JENC_STATS: %s: %s\n",
		    opts_check_stats_path, strerror(errno));
}

/* Colors or not (--color, a terminal, NO_COLOR), and JENC_COLORS. */
static void
opts_check_colors(struct config *c)
{
	jenc_err err;

	jenc_colors_default(&c->colors);
	/* -w and --check write or compare JSON files: never colored */
	if (c->color == COLOR_NEVER || c->validate || c->write || c->check ||
	    c->to != TO_JSON)
		return;
	if (c->color == COLOR_AUTO && (c->output != NULL ||
	    !isatty(STDOUT_FILENO) || opts_env("NO_COLOR") != NULL))
		return;
	if (jenc_colors_parse(&c->colors, getenv("JENC_COLORS"), &err) != 0) {
		cli_say("JENC_COLORS: %s", err.msg);
		fputc('\n', stderr);
		exit(EXIT_USAGE);
	}
	c->eflags |= JENC_COLOR;
}

/*
 * An option that applies to one input format only, given when no input is
 * of that format, is told once on stderr, as is one that another option
 * leaves without effect; it changes nothing else.
 */
void
opts_warn_unused(const struct config *c, int n, char **paths)
{
	size_t k;
	int json = 0, csv = 0, i;

	for (i = 0; i < (n > 0 ? n : 1); i++) {
		if (opts_check_csv(c, n > 0 ? paths[i] : "-"))
			csv = 1;
		else
			json = 1;
	}
	for (k = 0; !json && k < ARRAY_LEN(c->json_only); k++)
		if (c->json_only[k] != NULL)
			fprintf(stderr, "jenc: warning: %s has no effect on "
			    "CSV/TSV input\n", c->json_only[k]);
	for (k = 0; !csv && k < ARRAY_LEN(c->csv_only); k++)
		if (c->csv_only[k] != NULL && (c->to == TO_JSON ||
		    k == CO_TYPES || k == CO_NEST ||
		    (k == CO_DELIM && c->to == TO_TSV)))
			fprintf(stderr, "jenc: warning: %s has no effect on "
			    "JSON input\n", c->csv_only[k]);
	/* --no-header: the records are arrays, no name to split */
	if (csv && (c->copts.flags & JENC_CSV_NEST) &&
	    (c->copts.flags & JENC_CSV_NO_HEADER))
		fputs("jenc: warning: --nest has no effect with --no-header\n",
		    stderr);
	if (c->to == TO_JSON && (c->wflags & JENC_CSVW_CRLF))
		fputs("jenc: warning: --crlf has no effect without --to=csv "
		    "or --to=tsv\n", stderr);
	if (c->to == TO_JSON && (c->wflags & JENC_CSVW_SAFE))
		fputs("jenc: warning: --csv-safe has no effect without "
		    "--to=csv or --to=tsv\n", stderr);
	if (c->to == TO_JSON && c->sep != NULL &&
	    !(c->copts.flags & JENC_CSV_NEST))
		fputs("jenc: warning: --flatten-sep has no effect without "
		    "--to=csv, --to=tsv or --nest\n", stderr);
}

/*
 * Every combination of options that jenc refuses, and what the options
 * leave to be settled, in one place, after opts_parse and before anything
 * is read or written.  The refusals are tried in a fixed order, so that of
 * two the same is told: --log's and --header's, a '\' delimiter of TSV
 * input, -s's, then (after the colors, the --log view and the test
 * settings of the environment are settled, which may refuse too) those of
 * -o, -w, --check, -z and --best-effort, and last an input that is the
 * output.  Each says "jenc: ..." and the hint on stderr and exits 2.
 */

/* One of --header's names and its place in the argument. */
struct opts_check_name {
	const char *s;
	size_t i;
};

/* By name, then by place. */
static int
opts_check_name_cmp(const void *a, const void *b)
{
	const struct opts_check_name *x = a, *y = b;
	int d = strcmp(x->s, y->s);

	return d != 0 ? d : (x->i > y->i) - (x->i < y->i);
}

/*
 * --to=csv|tsv: a column named twice in --header (the writer would make
 * one column of the two) is refused, naming the first name that comes
 * again in the argument.  Sorted, so that many names take n log n.
 */
static void
opts_check_names(const struct config *c)
{
	struct opts_check_name *v;
	size_t i, n = c->copts.nheader, dup = (size_t)-1;

	if (c->to == TO_JSON || c->names == NULL || n < 2)
		return;
	if ((v = malloc(n * sizeof(*v))) == NULL)
		cli_out_of_memory();
	for (i = 0; i < n; i++) {
		v[i].s = c->names[i];
		v[i].i = i;
	}
	qsort(v, n, sizeof(*v), opts_check_name_cmp);
	for (i = 1; i < n; i++)
		if (strcmp(v[i].s, v[i - 1].s) == 0 && v[i].i < dup)
			dup = v[i].i;
	free(v);
	if (dup != (size_t)-1)
		cli_usage_error("--header: column '%s' is named twice",
		    c->names[dup]);
}

/* --log, --header and --no-header; the standard input's format. */
static void
opts_check_log(struct config *c, int n, char **paths)
{
	/* (for output, --header chooses the columns, --no-header drops
	 * the header line) */
	if (c->names != NULL && (c->copts.flags & JENC_CSV_NO_HEADER) &&
	    c->to == TO_JSON)
		cli_usage_error("--header and --no-header cannot be used "
		    "together");
	opts_check_names(c);
	if (c->log && c->to != TO_JSON)
		cli_usage_error("--log and --to=%s cannot be used together",
		    c->to == TO_CSV ? "csv" : "tsv");
	if (c->log_opt != 0 && !c->log)
		cli_usage_error("--%s needs --log", opts_log_name(c->log_opt));
	if (c->log && (c->slurp || c->validate || c->write || c->check))
		cli_usage_error("--log and %s cannot be used together",
		    c->slurp ? "--slurp" : c->validate ? "--validate" :
		    c->write ? "-w" : "--check");
	/* a log's lines that are not records stay where they are */
	if (c->log && c->json_only[JO_ON_ERROR] == NULL)
		c->on_error = ON_ERROR_PASS;
	/* a backslash starts a TSV escape: refused before any input is read */
	if (c->copts.delim == '\\') {
		int i, tsv = c->from == FROM_TSV;

		for (i = 0; i < n && !tsv; i++)
			tsv = opts_input_format(c, paths[i]) == FROM_TSV;
		if (tsv)
			cli_usage_error("--delimiter: '\\' cannot be a TSV "
			    "delimiter (it starts an escape)");
	}
}

/* -s makes one array of all inputs. */
static void
opts_check_slurp(const struct config *c)
{
	if (c->slurp && (c->write || c->check))
		cli_usage_error("-s makes one array of all inputs: not with %s",
		    c->write ? "-w" : "--check");
	if (c->to != TO_JSON && c->slurp)
		cli_usage_error("-s makes one array of all inputs: not with "
		    "--to=%s", c->to == TO_CSV ? "csv" : "tsv");
	if (c->slurp && c->on_error == ON_ERROR_PASS)
		cli_usage_error("-s makes one array of all inputs: bad text "
		    "cannot pass into it (use --on-error=skip)");
}

/* The --log view of the options lo; a --time-format it refuses is a usage
 * error (opts_check tries them first, before run_begin keeps one). */
jenc_logv *
opts_logv_new(const jenc_logv_opts *lo)
{
	jenc_logv *lv;
	int rc = jenc_logv_new(&lv, lo);

	if (rc == JENC_E_NOMEM)
		cli_out_of_memory();
	if (rc == JENC_E_RANGE)
		cli_usage_error("--time-format: more than 127 bytes of text "
		    "between two %%N conversions");
	if (rc != 0)
		cli_usage_error("--time-format: more than seven %%N "
		    "conversions");
	return lv;
}

/* --log: colored by the view instead of the encoder when colors are on;
 * its options tried. */
static void
opts_check_log_view(struct config *c)
{
	if (c->eflags & JENC_COLOR) {
		c->eflags &= ~(unsigned)JENC_COLOR;
		c->lopts.flags |= JENC_LOGV_COLOR;
		c->lopts.colors = &c->colors;
	}
	jenc_logv_free(opts_logv_new(&c->lopts));
}

/* The settings of the environment for tests: JENC_EXACT,
 * JENC_FORCE_THREADS, JENC_STATS and JENC_CHUNK. */
static void
opts_check_env(struct config *c)
{
	/* JENC_EXACT: jsmn reads the text itself (the test suite's second
	 * run, which must give the same bytes) */
	if (opts_env("JENC_EXACT") != NULL)
		c->ropts.flags |= JENC_READ_EXACT;
	/* JENC_FORCE_THREADS: -j starts its threads even on one usable CPU
	 * (the test suite's way to test them on any machine) */
	if (opts_env("JENC_FORCE_THREADS") != NULL)
		c->ropts.flags |= JENC_READ_THREADS;
	if ((opts_check_stats_path = opts_env("JENC_STATS")) != NULL)
		(void)atexit(opts_check_stats);
	opts_check_chunk(c);
}

/* -o, -w and --check (the modes of cmd/output.c) against each other and
 * the rest of the command line.  Returns how many modes were given. */
static int
opts_check_modes(const struct config *c, int n)
{
	const char *mode[4];
	int k = 0;

	if (c->output != NULL)
		mode[k++] = "-o";
	if (c->write)
		mode[k++] = "-w";
	if (c->check)
		mode[k++] = "--check";
	if (c->validate && k > 0 && !c->check)
		mode[k++] = "--validate";
	if (k > 1)
		cli_usage_error("%s and %s cannot be used together", mode[0],
		    mode[1]);
	if (c->to != TO_JSON && (c->write || c->check))
		cli_usage_error("%s cannot be used with --to=%s: %s", c->write ?
		    "-w" : "--check", c->to == TO_CSV ? "csv" : "tsv",
		    c->write ? "a change of format is not a rewrite in place "
		    "(write it elsewhere with -o)" : "it compares JSON output "
		    "with its input");
	if (c->write && n == 0)
		cli_usage_error("-w needs the FILEs to rewrite");
	if (c->nul && !c->check)
		cli_usage_error("-z needs --check");
	if (c->best_effort && !c->write && c->output == NULL)
		cli_usage_error("--best-effort needs -o FILE or -w");
	return k;
}

/* Each input against -w and --check, then (k modes given) whether an
 * input is the standard output. */
static void
opts_check_inputs(const struct config *c, int k, int n, char **paths)
{
	const char *self;
	char q[QUOTE_SIZE];
	int i;

	for (i = 0; i < (n > 0 ? n : 1); i++) {
		const char *p = n > 0 ? paths[i] : "-";
		const char *name = strcmp(p, "-") == 0 ? "<stdin>" :
		    quote_name(p, q, sizeof(q));

		if (c->write && strcmp(p, "-") == 0)
			cli_usage_error("-w cannot rewrite the standard input "
			    "in place");
		if (c->write && opts_check_csv(c, p))
			cli_usage_error("%s: -w cannot replace CSV or TSV "
			    "input with JSON (write it elsewhere with -o)",
			    name);
		if (c->check && opts_check_csv(c, p))
			cli_usage_error("%s: --check cannot compare CSV or TSV "
			    "input with JSON", name);
	}
	/* Only where an input's data goes to the standard output. */
	if (k == 0 && !c->validate &&
	    (self = output_is_stdout(paths, n)) != NULL) {
		fprintf(stderr, "jenc: %s: input file is output file%s\n",
		    strcmp(self, "-") == 0 ? "<stdin>" :
		    quote_name(self, q, sizeof(q)),
		    opts_check_csv(c, self) ? "" :
		    " (use -w to rewrite it in place)");
		exit(EXIT_USAGE);
	}
}

/*
 * Refuse what does not go together, settle the rest; paths are the n
 * FILEs.  From here on c is read only.
 */
void
opts_check(struct config *c, int n, char **paths)
{
	int k;

	opts_check_log(c, n, paths);
	opts_check_slurp(c);
	opts_check_colors(c);
	if (c->log)
		opts_check_log_view(c);
	opts_check_env(c);
	k = opts_check_modes(c, n);
	opts_check_inputs(c, k, n, paths);
	/* --check reads each input as --validate does, and more. */
	if (k > 0)
		c->validate = 0;
}
