/*
 * jenc - re-encode JSON (and CSV/TSV) compactly, indented or escaped.
 *
 * This file parses options, opens inputs, prints the errors the library
 * reports and maps them to the exit status; the work is in lib/.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jenc.h"

#define EXIT_INVALID 1
#define EXIT_USAGE 2
#define EXIT_IO 3

enum { FROM_AUTO, FROM_JSON, FROM_CSV, FROM_TSV };
enum {
	OPT_INDENT = 256, OPT_TAB, OPT_SINGLE, OPT_VALIDATE, OPT_MAX_DEPTH,
	OPT_NO_HEADER, OPT_HEADER, OPT_RAGGED,
	OPT_SPLIT, OPT_COLOR,
};
enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

static const struct option longopts[] = {
	{ "from", required_argument, NULL, 'f' },
	{ "compact", no_argument, NULL, 'c' },
	{ "indent", required_argument, NULL, OPT_INDENT },
	{ "tab", no_argument, NULL, OPT_TAB },
	{ "lines", no_argument, NULL, 'l' },
	{ "html-escape", no_argument, NULL, 'H' },
	{ "ascii", no_argument, NULL, 'a' },
	{ "sort-keys", no_argument, NULL, 'S' },
	{ "slurp", no_argument, NULL, 's' },
	{ "split", no_argument, NULL, OPT_SPLIT },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "unbuffered", no_argument, NULL, 'u' },
	{ "single", no_argument, NULL, OPT_SINGLE },
	{ "validate", no_argument, NULL, OPT_VALIDATE },
	{ "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
	{ "delimiter", required_argument, NULL, 'd' },
	{ "no-header", no_argument, NULL, OPT_NO_HEADER },
	{ "header", required_argument, NULL, OPT_HEADER },
	{ "types", no_argument, NULL, 't' },
	{ "ragged", required_argument, NULL, OPT_RAGGED },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
static const char optstring[] = ":f:clHaSsCMud:thV";

static const char usage_text[] =
"Usage: jenc [OPTION]... [FILE]...\n"
"Re-encode JSON (one document, JSON Lines or concatenated values) or CSV/TSV\n"
"from each FILE, or standard input, to standard output.\n"
"\n"
"Input:\n"
"  -f, --from=FORMAT     json (default), csv or tsv; FILE names ending in\n"
"                        .csv or .tsv pick their format unless --from is given\n"
"Output:\n"
"  -c, --compact         no whitespace\n"
"      --indent=N        indent N spaces per level, 1 to 16 (default 2)\n"
"      --tab             indent with one tab per level\n"
"  -l, --lines           one compact value per line, whatever -c, --indent or\n"
"                        --tab say; CSV/TSV records each on their own line\n"
"                        instead of one array\n"
"  -H, --html-escape     escape < > & U+2028 U+2029 in strings as \\uXXXX\n"
"  -a, --ascii           escape every non-ASCII character as \\uXXXX\n"
"  -S, --sort-keys       members of every object in the order of their keys\n"
"  -s, --slurp           every value (every CSV/TSV record) of all inputs\n"
"                        into one array\n"
"      --split           each element of a top-level array as its own value\n"
"  -C, -M                color always, never (--color=always, --color=never)\n"
"      --color=WHEN      auto (default: if standard output is a terminal and\n"
"                        NO_COLOR is not set), always or never; the colors\n"
"                        come from JENC_COLORS, as JQ_COLORS for jq\n"
"  -u, --unbuffered      write each value out as soon as it is complete\n"
"JSON input:\n"
"      --single          each input must hold exactly one JSON value\n"
"      --validate        check the input only, write nothing\n"
"      --max-depth=N     nesting limit (default 10000)\n"
"CSV/TSV input:\n"
"  -d, --delimiter=C     field delimiter, one byte ('\\t' means tab)\n"
"      --no-header       each record becomes an array of its fields\n"
"      --header=A,B,...  field names; the first row is data\n"
"  -t, --types           numbers, true/false and empty fields (null) typed\n"
"      --ragged=MODE     rows with the wrong field count: error (default)\n"
"                        or pad (missing fields null, extra ones as _N)\n"
"General:\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"Exit status: 0 success, 1 invalid input, 2 usage error, 3 read or write error.\n"
"See jenc(1).\n";

struct config {
	int from;
	unsigned indent;
	int tab, lines, html, ascii;
	int validate;
	int color, slurp;
	unsigned eflags;	/* JENC_SORT_KEYS, JENC_SPLIT, ... */
	jenc_colors colors;
	jenc_enc *all;		/* --slurp: the one encoder of all inputs */
	jenc_read_opts ropts;
	jenc_csv_opts copts;
	char **names;
};

static void
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("jenc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'jenc --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static unsigned long
number_arg(const char *opt, const char *s, unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		usage_error("%s: '%s' is not a number from %lu to %lu", opt, s,
		    lo, hi);
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		usage_error("%s: '%s' is not a number from %lu to %lu", opt, s,
		    lo, hi);
	return v;
}

/* Split "a,b,c" into the names array (pointers into s, which is kept). */
static void
split_header(struct config *c, char *s)
{
	size_t n = 1, i = 0;
	char *p;

	for (p = s; *p; p++)
		n += *p == ',';
	c->names = calloc(n, sizeof(*c->names));
	if (c->names == NULL) {
		perror("jenc");
		exit(EXIT_IO);
	}
	for (p = s;; p++) {
		if (*p == ',' || *p == '\0') {
			int last = *p == '\0';

			*p = '\0';
			c->names[i++] = s;
			s = p + 1;
			if (last)
				break;
		}
	}
	c->copts.header = (const char *const *)c->names;
	c->copts.nheader = n;
}

/* Is a the --long option getopt_long just complained about? */
static int
is_long(const char *a)
{
	return a[0] == '-' && a[1] == '-' && a[2] != '\0';
}

/* Length of a long option's name, without "=value". */
static int
long_len(const char *a)
{
	return (int)strcspn(a, "=");
}

static void
parse_args(struct config *c, int argc, char **argv)
{
	int ch;

	memset(c, 0, sizeof(*c));
	c->indent = 2;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (strcmp(optarg, "json") == 0)
				c->from = FROM_JSON;
			else if (strcmp(optarg, "csv") == 0)
				c->from = FROM_CSV;
			else if (strcmp(optarg, "tsv") == 0)
				c->from = FROM_TSV;
			else
				usage_error("--from: '%s' is not json, csv or tsv",
				    optarg);
			break;
		/* The last of -c, --indent and --tab picks the layout; -l is
		 * not a layout and is never undone by one. */
		case 'c':
			c->indent = 0;
			c->tab = 0;
			break;
		case OPT_INDENT:
			c->indent = (unsigned)number_arg("--indent", optarg, 1, 16);
			c->tab = 0;
			break;
		case OPT_TAB:
			c->tab = 1;
			break;
		case 'l':
			c->lines = 1;
			break;
		case 'H':
			c->html = 1;
			break;
		case 'a':
			c->ascii = 1;
			break;
		case 'S':
			c->eflags |= JENC_SORT_KEYS;
			break;
		case 's':
			c->slurp = 1;
			break;
		case OPT_SPLIT:
			c->eflags |= JENC_SPLIT;
			break;
		case 'C':
			c->color = COLOR_ALWAYS;
			break;
		case 'M':
			c->color = COLOR_NEVER;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0)
				c->color = COLOR_AUTO;
			else if (strcmp(optarg, "always") == 0)
				c->color = COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				c->color = COLOR_NEVER;
			else
				usage_error("--color: '%s' is not auto, always or never",
				    optarg);
			break;
		case 'u':
			c->eflags |= JENC_FLUSH_EACH;
			break;
		case OPT_SINGLE:
			c->ropts.flags |= JENC_READ_SINGLE;
			break;
		case OPT_VALIDATE:
			c->validate = 1;
			break;
		case OPT_MAX_DEPTH:
			c->ropts.max_depth = (unsigned)number_arg("--max-depth",
			    optarg, 1, 100000000);
			break;
		case 'd':
			if (strcmp(optarg, "\\t") == 0)
				c->copts.delim = '\t';
			else if (strlen(optarg) == 1)
				c->copts.delim = optarg[0];
			else
				usage_error("--delimiter: '%s' is not one byte",
				    optarg);
			if (c->copts.delim == '"' || c->copts.delim == '\n' ||
			    c->copts.delim == '\r' ||
			    (unsigned char)c->copts.delim >= 0x80)
				usage_error("--delimiter: '%s' cannot be a delimiter",
				    optarg);
			break;
		case OPT_NO_HEADER:
			c->copts.flags |= JENC_CSV_NO_HEADER;
			break;
		case OPT_HEADER: {
			jenc_csv_opts probe = { 0 };
			jenc_err err;

			split_header(c, optarg);
			probe.header = c->copts.header;
			probe.nheader = c->copts.nheader;
			if (jenc_csv_copy_mem("", 0, NULL, &probe, &err) ==
			    JENC_E_UTF8)
				usage_error("--header: names must be valid UTF-8");
			break;
		}
		case 't':
			c->copts.flags |= JENC_CSV_TYPES;
			break;
		case OPT_RAGGED:
			if (strcmp(optarg, "pad") == 0)
				c->copts.flags |= JENC_CSV_RAGGED_PAD;
			else if (strcmp(optarg, "error") == 0)
				c->copts.flags &= ~(unsigned)JENC_CSV_RAGGED_PAD;
			else
				usage_error("--ragged: '%s' is not error or pad",
				    optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(fflush(stdout) == 0 ? 0 : EXIT_IO);
		case 'V':
			printf("jenc %s\n", JENC_VERSION);
			exit(fflush(stdout) == 0 ? 0 : EXIT_IO);
		case ':':
			if (is_long(argv[optind - 1]))
				usage_error("option '%.*s' needs a value",
				    long_len(argv[optind - 1]), argv[optind - 1]);
			usage_error("option '-%c' needs a value", optopt);
		default:
			if (is_long(argv[optind - 1]))
				usage_error("unknown option '%.*s'",
				    long_len(argv[optind - 1]), argv[optind - 1]);
			usage_error("unknown option '-%c'", optopt);
		}
	}
}

/* Colors or not (--color, a terminal, NO_COLOR), and JENC_COLORS. */
static void
color_setup(struct config *c)
{
	const char *no = getenv("NO_COLOR");
	jenc_err err;

	jenc_colors_default(&c->colors);
	if (c->color == COLOR_NEVER || c->validate)
		return;
	if (c->color == COLOR_AUTO && (!isatty(STDOUT_FILENO) ||
	    (no != NULL && no[0] != '\0')))
		return;
	if (jenc_colors_parse(&c->colors, getenv("JENC_COLORS"), &err) != 0) {
		fprintf(stderr, "jenc: JENC_COLORS: %s\n", err.msg);
		exit(EXIT_USAGE);
	}
	c->eflags |= JENC_COLOR;
}

/* The output options every input shares. */
static void
out_opts(const struct config *c, jenc_opts *o)
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
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A write to standard output failed: say why (quietly for a closed pipe). */
static void
write_failed(int err) __attribute__((noreturn));

static void
write_failed(int err)
{
	if (err == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	fprintf(stderr, "jenc: write error: %s\n", strerror(err));
	exit(EXIT_IO);
}

/* An encoder writing to standard output with o and the colors. */
static jenc_enc *
new_out(const struct config *c, const jenc_opts *o)
{
	jenc_enc *e = jenc_get_fd(STDOUT_FILENO, o);

	if (e == NULL)
		write_failed(ENOMEM);
	jenc_set_colors(e, &c->colors);
	return e;
}

static void
print_error(const char *name, const jenc_err *err)
{
	if (err->code == JENC_E_IO) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(err->sys_errno));
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

/* Re-encode one input.  Returns the exit status it earns. */
static int
convert(const struct config *c, const char *path)
{
	const char *name = path;
	int fd = STDIN_FILENO, from = c->from, rc, status = 0;
	jenc_opts o;
	jenc_enc *e = c->all;
	jenc_err err;

	if (strcmp(path, "-") == 0) {
		name = "<stdin>";
	} else if ((fd = open(path, O_RDONLY)) < 0) {
		fprintf(stderr, "jenc: %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	if (from == FROM_AUTO)
		from = ends_with(path, ".csv") ? FROM_CSV :
		    ends_with(path, ".tsv") ? FROM_TSV : FROM_JSON;

	out_opts(c, &o);
	if (from == FROM_JSON) {
		o.flags |= JENC_HOLD;
		if (!c->validate && e == NULL)
			e = new_out(c, &o);
		rc = jenc_json_copy_fd(fd, e, &c->ropts, &err);
	} else {
		jenc_csv_opts co = c->copts;

		if (from == FROM_TSV)
			co.flags |= JENC_CSV_TSV;
		/* --slurp: each record an element of the one array */
		if (c->lines || c->slurp)
			co.flags |= JENC_CSV_LINES;
		if (!c->validate && e == NULL)
			e = new_out(c, &o);
		rc = jenc_csv_copy_fd(fd, e, &co, &err);
	}
	/* Everything before a bad value is out before the error is told. */
	if (e != NULL) {
		if (jenc_error(e) != 0 || jenc_flush(e) != 0)
			write_failed(jenc_errno(e) ? jenc_errno(e) : EIO);
		if (e != c->all)
			(void)jenc_release(e);
	}
	if (rc != 0) {
		print_error(name, &err);
		status = rc == JENC_E_IO ? EXIT_IO : EXIT_INVALID;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	return status;
}

int
main(int argc, char **argv)
{
	struct config c;
	int status = 0, i;

	parse_args(&c, argc, argv);
	color_setup(&c);
	if (c.slurp && !c.validate) {
		jenc_opts o;

		out_opts(&c, &o);
		c.all = new_out(&c, &o);
	}
	if (optind == argc) {
		status = convert(&c, "-");
	} else {
		for (i = optind; i < argc; i++) {
			int s = convert(&c, argv[i]);

			if (s > status)
				status = s;
		}
	}
	/* --slurp: the array closes after the last input, whatever came */
	if (c.all != NULL) {
		if (jenc_arr_end(c.all) != 0 || jenc_flush(c.all) != 0)
			write_failed(jenc_errno(c.all) ? jenc_errno(c.all) : EIO);
		(void)jenc_release(c.all);
	}
	free(c.names);
	return status;
}
