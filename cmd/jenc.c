/*
 * jenc - re-encode JSON (and CSV/TSV) compactly, indented or escaped.
 *
 * This file parses options, opens inputs, prints the errors the library
 * reports and maps them to the exit status; the work is in lib/.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jenc.h"
#include "output.h"
#include "quote.h"

#define EXIT_INVALID 1
#define EXIT_USAGE 2
#define EXIT_IO 3

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

enum { FROM_AUTO, FROM_JSON, FROM_CSV, FROM_TSV };
enum { TO_JSON, TO_CSV, TO_TSV };
enum {
	OPT_INDENT = 256, OPT_TAB, OPT_SINGLE, OPT_VALIDATE, OPT_MAX_DEPTH,
	OPT_NO_HEADER, OPT_HEADER, OPT_RAGGED, OPT_CHECK,
	OPT_SPLIT, OPT_COLOR, OPT_ON_ERROR, OPT_SEQ, OPT_JSONC, OPT_ENCODING,
	OPT_NO_MMAP, OPT_BEST_EFFORT, OPT_TO, OPT_FLATTEN_SEP, OPT_CRLF,
	OPT_CSV_SAFE, OPT_NEST, OPT_LOG, OPT_LEVEL, OPT_SINCE, OPT_UNTIL, OPT_HIDE,
	OPT_ONLY, OPT_TIME_KEY, OPT_LEVEL_KEY, OPT_MESSAGE_KEY, OPT_TIME_FORMAT,
	OPT_UTC,
};
enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
enum { ON_ERROR_STOP, ON_ERROR_SKIP, ON_ERROR_PASS };
/* -j when not given: one thread (see jenc(1), "Threads") */
#define JOBS_DEFAULT 1u

static const struct option longopts[] = {
	{ "from", required_argument, NULL, 'f' },
	{ "encoding", required_argument, NULL, OPT_ENCODING },
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
	{ "jsonc", no_argument, NULL, OPT_JSONC },
	{ "to", required_argument, NULL, OPT_TO },
	{ "flatten-sep", required_argument, NULL, OPT_FLATTEN_SEP },
	{ "crlf", no_argument, NULL, OPT_CRLF },
	{ "csv-safe", no_argument, NULL, OPT_CSV_SAFE },
	{ "delimiter", required_argument, NULL, 'd' },
	{ "no-header", no_argument, NULL, OPT_NO_HEADER },
	{ "header", required_argument, NULL, OPT_HEADER },
	{ "types", no_argument, NULL, 't' },
	{ "ragged", required_argument, NULL, OPT_RAGGED },
	{ "nest", no_argument, NULL, OPT_NEST },
	{ "output", required_argument, NULL, 'o' },
	{ "write", no_argument, NULL, 'w' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "null", no_argument, NULL, 'z' },
	{ "best-effort", no_argument, NULL, OPT_BEST_EFFORT },
	{ "on-error", required_argument, NULL, OPT_ON_ERROR },
	{ "seq", no_argument, NULL, OPT_SEQ },
	{ "quiet", no_argument, NULL, 'q' },
	{ "log", no_argument, NULL, OPT_LOG },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "hide", required_argument, NULL, OPT_HIDE },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "time-key", required_argument, NULL, OPT_TIME_KEY },
	{ "level-key", required_argument, NULL, OPT_LEVEL_KEY },
	{ "message-key", required_argument, NULL, OPT_MESSAGE_KEY },
	{ "time-format", required_argument, NULL, OPT_TIME_FORMAT },
	{ "utc", no_argument, NULL, OPT_UTC },
	{ "jobs", required_argument, NULL, 'j' },
	{ "no-mmap", no_argument, NULL, OPT_NO_MMAP },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};
static const char optstring[] = ":f:clHaSsCMud:to:wzqj:hV";

/* In two parts: C11 compilers need only take strings of 4095 bytes. */
static const char usage_text[] =
"Usage: jenc [OPTION]... [FILE]...\n"
"Re-encode JSON (one document, JSON Lines or concatenated values) or CSV/TSV\n"
"from each FILE, or standard input, to standard output.\n"
"\n"
"Input:\n"
"  -f, --from=FORMAT     json, csv or tsv (default json; FILE names ending in\n"
"                        .csv, .tsv or .tab, in any case, pick their format)\n"
"      --encoding=NAME   input in NAME (an iconv name: cp1252, utf-16le, ...)\n"
"      --single          JSON: each input must hold exactly one value\n"
"      --max-depth=N     JSON: nesting limit (default 10000)\n"
"      --jsonc           JSON: allow // and /* */ comments, trailing commas\n"
"      --validate        check the input only, write nothing\n"
"Output format:\n"
"      --to=FORMAT       json (default), csv or tsv: each record, an object, a\n"
"                        row; columns from --header, a FILE's keys or the first;\n"
"                        log: the same as --log\n"
"      --flatten-sep=S   join nested keys with S in column names (default .)\n"
"      --crlf            end CSV/TSV lines with CR LF\n"
"      --csv-safe        ' before a string cell a spreadsheet would run\n"
"Output layout:\n"
"  -c, --compact         no whitespace\n"
"      --indent=N        indent N spaces per level, 1 to 16 (default 2)\n"
"      --tab             indent with one tab per level\n"
"  -l, --lines           one compact value (CSV/TSV record) per line\n"
"  -H, --html-escape     escape < > & U+2028 U+2029 in strings as \\uXXXX\n"
"  -a, --ascii           escape every non-ASCII character as \\uXXXX\n"
"  -S, --sort-keys       members of every object in the order of their keys\n"
"  -s, --slurp           every value (CSV/TSV record) of all inputs in one array\n"
"      --split           each element of a top-level array as its own value\n"
"  -C, -M                color always, never (--color=always, --color=never)\n"
"      --color=WHEN      auto (default: a terminal and NO_COLOR unset), always\n"
"                        or never; colors from JENC_COLORS (as jq's JQ_COLORS)\n"
"  -u, --unbuffered      write each value out as soon as it is complete\n"
"CSV and TSV:\n"
"  -d, --delimiter=C     field delimiter, one byte ('\\t' means tab); without\n"
"                        it CSV takes , ; tab or | from the first line (or sep=)\n"
"      --no-header       each record becomes an array of its fields\n"
"      --header=A,B,...  field names; the first row is data\n"
"  -t, --types           numbers, true/false and empty fields (null) typed\n"
"      --ragged=MODE     rows with the wrong field count: error (default) or\n"
"                        pad (missing fields null, extra ones as _N)\n"
"      --nest            names holding the --flatten-sep as nested objects\n"
"Streams and logs:\n"
"      --on-error=MODE   bad JSON: stop (default), skip (reported) or pass\n"
"                        (copied verbatim); both go on at the next line, exit\n"
"                        status 0, and end with a count\n"
"      --seq             JSON text sequences (RFC 7464): RS before each text\n"
"  -q, --quiet           no report of skipped or passed input, no count\n";
static const char usage_text_log[] =
"Logs (--log):\n"
"      --log             each JSON object (record) as one line for people:\n"
"                        TIME LEVEL message key=value ..., stack traces\n"
"                        below it; other lines passed through as they are\n"
"      --level=LEVEL     records at LEVEL (trace, debug, info, warn, error,\n"
"                        fatal or a number) and above only\n"
"      --since=TIME      records from TIME on only: RFC 3339, a date, now,\n"
"                        or before now as -1h, -15m, -2d, -1h30m\n"
"      --until=TIME      records up to TIME only\n"
"      --hide=KEY,...    leave out these fields (and the members under them)\n"
"      --only=KEY,...    show only these fields after the message\n"
"      --time-key=KEY,...     the record's time: the first present of these\n"
"                        keys (default time,ts,timestamp,@timestamp,t)\n"
"      --level-key=KEY,...    its level (default level,lvl,severity,log.level)\n"
"      --message-key=KEY,...  its message (default msg,message,@message,event)\n"
"      --time-format=FMT strftime(3) format, %3N milliseconds, %6N, %9N\n"
"                        (default '%Y-%m-%d %H:%M:%S.%3N', local time)\n"
"      --utc             times in UTC, not local time\n"
"Files:\n"
"  -o, --output=FILE     write to FILE, replaced once every input is written\n"
"  -w, --write           rewrite each FILE in place if it is valid and changes\n"
"      --check           write nothing; list each FILE not in the requested\n"
"                        form, exit status 1 if there is one\n"
"  -z, --null            --check: list names as they are, each followed by NUL\n"
"      --best-effort     -o, -w: replace a file even where its owner, group,\n"
"                        ACL or extended attributes cannot be kept (warned)\n"
"Performance:\n"
"  -j, --jobs=N          read JSON on N threads (a number, or auto: one per\n"
"                        usable CPU); default 1, see jenc(1)\n"
"      --no-mmap         read JSON files with read(2), never map them into\n"
"                        memory (for files that may shrink while jenc reads)\n"
"Other:\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"An option of one input format only, given when no input has that format, is\n"
"ignored with a warning.\n"
"Exit status: 0 success, 1 invalid input, 2 usage error, 3 read or write error\n"
"or out of memory.  See jenc(1).\n";

struct config {
	int from;
	unsigned indent;
	int tab, lines, html, ascii;
	int validate;
	int on_error, quiet;	/* ON_ERROR_*, -q */
	uint64_t bad_lines;	/* skipped or passed, over all inputs */
	uint64_t dropped_lines;	/* --on-error=pass: of those, not passed */
	int bad_valid;		/* --validate found bad input */
	const char *output;	/* -o FILE, or NULL */
	int write, check;	/* -w, --check */
	int nul, best_effort;	/* -z, --best-effort */
	struct output *out;	/* with -o, -w or --check */
	int color, slurp;
	unsigned eflags;	/* JENC_SORT_KEYS, JENC_SPLIT, ... */
	jenc_colors colors;
	jenc_enc *all;		/* --slurp: the one encoder of all inputs */
	jenc_read_opts ropts;
	unsigned jobs;		/* -j: threads, 0 = auto */
	size_t chunk;		/* JENC_CHUNK: bytes per chunk, for tests */
	jenc_csv_opts copts;
	int to;			/* TO_* */
	unsigned wflags;	/* JENC_CSVW_*: --crlf, --csv-safe */
	const char *sep;	/* --flatten-sep */
	jenc_csvw *csvw;	/* --to=csv|tsv: the writer of every input */
	unsigned char *plain;	/* per input: its first pass found objects
				 * only (see scan_columns) */
	off_t *ends;		/* per input of plain 2: the offset its first
				 * pass read to */
	int input;		/* the index of the input being read */
	int log;		/* --log */
	int log_opt;		/* the last option of --log only, or 0 */
	jenc_logv_opts lopts;
	jenc_logv *logv;
	jenc_view view;
	char **names;
	/* Options given that apply to one input format only, as written
	 * ("-t" or "--types"), NULL if not given: see warn_unused. */
	const char *json_only[4], *csv_only[6];
};

/* Indexes into config.json_only and config.csv_only. */
enum { JO_SINGLE, JO_MAX_DEPTH, JO_JSONC, JO_ON_ERROR };
enum { CO_DELIM, CO_NO_HEADER, CO_HEADER, CO_TYPES, CO_RAGGED, CO_NEST };

static void
usage_hint(void) __attribute__((noreturn));
static void
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void
out_of_memory(void) __attribute__((noreturn));

/* End the message on stderr with the hint line; exit 2. */
static void
usage_hint(void)
{
	fputs("\nTry 'jenc --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("jenc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	usage_hint();
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

/* -j N: 1 to 1024, or auto (0). */
static unsigned
jobs_arg(const char *s)
{
	char *end;
	unsigned long v;

	if (strcmp(s, "auto") == 0)
		return 0;
	errno = 0;
	v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || errno != 0 || *end != '\0' || v < 1 ||
	    v > 1024)
		usage_error("--jobs: '%s' is not auto or a number from 1 to 1024",
		    s);
	return (unsigned)v;
}

/*
 * JENC_CHUNK, for tests: the bytes per chunk of -j (see HACKING.md), so
 * that a small input is cut into many.  Unset or empty: the library's.
 */
static void
chunk_env(struct config *c)
{
	const char *s = getenv("JENC_CHUNK");
	char *end;
	unsigned long v;

	if (s == NULL || *s == '\0')
		return;
	errno = 0;
	v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || errno != 0 || *end != '\0' || v < 1) {
		fprintf(stderr, "jenc: JENC_CHUNK: '%s' is not a number of "
		    "bytes\n", s);
		exit(EXIT_USAGE);
	}
	c->chunk = v;
}

/*
 * JENC_STATS=FILE, for tests: at exit the readers' work counters
 * (jenc_read_stats_get) go to FILE, one "name value" line each, so that
 * a test bounds the work per input byte instead of timing it.
 */
static const char *stats_path;

static void
write_stats(void)
{
	jenc_read_stats st;
	FILE *f = fopen(stats_path, "w");

	if (f == NULL) {
		fprintf(stderr, "jenc: JENC_STATS: %s: %s\n", stats_path,
		    strerror(errno));
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
		fprintf(stderr, "jenc: JENC_STATS: %s: %s\n", stats_path,
		    strerror(errno));
}

/* Split "a,b,c" into the names array (pointers into s, which is kept). */
static void
split_header(struct config *c, char *s)
{
	size_t n = 1, i = 0;
	char *p;

	for (p = s; *p; p++)
		n += *p == ',';
	free(c->names);		/* the last --header wins */
	c->names = calloc(n, sizeof(*c->names));
	if (c->names == NULL)
		out_of_memory();
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

/*
 * getopt_long reports a refused option only through its return value and
 * optopt, which tell neither "--foo" from "-x" nor why a long option was
 * refused, and argv[optind - 1] is not the element it looked at when a
 * short option was inside a bundle ("-xc") or after "--indent 3".  So
 * parse_args follows the element each call scans (opt_elem), and for a
 * refused long option option_error looks its name up in longopts itself,
 * as getopt_long did: an exact name wins, else a unique prefix.
 */

/* The index of the element the next getopt_long call scans: the one it is
 * inside of, or else the first option at or after optind.  The elements
 * getopt_long moves when it permutes are all before optind. */
static int
opt_elem(int argc, char **argv, int inside)
{
	int i = optind;

	if (inside)
		return i;
	while (i < argc && (argv[i][0] != '-' || argv[i][1] == '\0'))
		i++;
	return i;
}

/* Report the option getopt_long refused in element a with result ch. */
static void
option_error(int ch, const char *a) __attribute__((noreturn));

static void
option_error(int ch, const char *a)
{
	const struct option *o, *hit = NULL;
	const char *name = a + 2;
	size_t n = strcspn(name, "=");
	int nhit = 0;

	if (a[1] != '-') {
		if (ch == ':')
			usage_error("option '-%c' needs a value", optopt);
		usage_error("unknown option '-%c'", optopt);
	}
	if (n == 0)
		usage_error("unknown option '%s'", a);
	for (o = longopts; o->name != NULL; o++) {
		if (strncmp(o->name, name, n) != 0)
			continue;
		if (o->name[n] == '\0') {	/* exact: never ambiguous */
			hit = o;
			nhit = 1;
			break;
		}
		if (nhit++ == 0)
			hit = o;
	}
	if (nhit == 0)
		usage_error("unknown option '--%.*s'", (int)n, name);
	if (nhit > 1) {
		fprintf(stderr, "jenc: option '--%.*s' is ambiguous; "
		    "possibilities:", (int)n, name);
		for (o = longopts; o->name != NULL; o++)
			if (strncmp(o->name, name, n) == 0)
				fprintf(stderr, " '--%s'", o->name);
		usage_hint();
	}
	if (ch == ':')
		usage_error("option '--%s' needs a value", hit->name);
	usage_error("option '--%s' doesn't allow an argument", hit->name);
}

static int input_format(const struct config *c, const char *path);

/* The name of a --log option, for messages. */
static const char *
log_opt_name(int ch)
{
	const struct option *o;

	for (o = longopts; o->name != NULL; o++)
		if (o->val == ch)
			return o->name;
	return "log";
}

/* --since and --until: RFC 3339, a date, now, or a time before now. */
static int64_t
time_arg(int ch, const char *s)
{
	struct timespec now;
	int64_t ns;
	int rc;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		now.tv_sec = time(NULL), now.tv_nsec = 0;
	rc = jenc_logv_time(s, strlen(s), (int64_t)now.tv_sec * 1000000000 +
	    now.tv_nsec, &ns);
	if (rc == JENC_E_RANGE)
		usage_error("--%s: '%s' is outside the years 1678 to 2261",
		    log_opt_name(ch), s);
	if (rc != 0)
		usage_error("--%s: '%s' is not a time (RFC 3339, a date, now, "
		    "or before now as -1h, -15m)", log_opt_name(ch), s);
	return ns;
}

/* An option of --log only. */
static void
log_arg(struct config *c, int ch, const char *arg)
{
	jenc_logv_opts *lo = &c->lopts;

	c->log_opt = ch;
	switch (ch) {
	case OPT_LEVEL:
		lo->min_level = jenc_logv_level(arg, strlen(arg));
		if (lo->min_level < 0)
			usage_error("--level: '%s' is not a level (trace, debug, "
			    "info, warn, error, fatal or a number)", arg);
		break;
	case OPT_SINCE:
		lo->since = time_arg(ch, arg);
		lo->flags |= JENC_LOGV_SINCE;
		break;
	case OPT_UNTIL:
		lo->until = time_arg(ch, arg);
		lo->flags |= JENC_LOGV_UNTIL;
		break;
	case OPT_HIDE:
		lo->hide = arg;
		break;
	case OPT_ONLY:
		lo->only = arg;
		break;
	case OPT_TIME_KEY:
		lo->time_keys = arg;
		break;
	case OPT_LEVEL_KEY:
		lo->level_keys = arg;
		break;
	case OPT_MESSAGE_KEY:
		lo->message_keys = arg;
		break;
	case OPT_TIME_FORMAT:
		lo->time_format = arg;
		break;
	case OPT_UTC:
		lo->flags |= JENC_LOGV_UTC;
		break;
	}
}

static void
parse_args(struct config *c, int argc, char **argv)
{
	int ch, at, inside = 0, islong;

	memset(c, 0, sizeof(*c));
	c->indent = 2;
	c->jobs = JOBS_DEFAULT;
	c->ropts.flags = JENC_READ_MAP;	/* --no-mmap */
	opterr = 0;
	for (;;) {
		at = opt_elem(argc, argv, inside);
		if ((ch = getopt_long(argc, argv, optstring, longopts,
		    NULL)) == -1)
			break;
		/* Still inside a bundle of short options? */
		inside = optind == at && argv[at][1] != '-';
		islong = at < argc && argv[at][1] == '-';
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
		case OPT_ENCODING: {
			/* checked here, before any input is read */
			int rc = jenc_encoding_check(optarg);

			if (rc == JENC_E_NOMEM)
				out_of_memory();
			if (rc != 0)
				usage_error("--encoding: unknown encoding '%s'",
				    optarg);
			c->ropts.encoding = c->copts.encoding = optarg;
			break;
		}
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
			c->json_only[JO_SINGLE] = "--single";
			c->ropts.flags |= JENC_READ_SINGLE;
			break;
		case OPT_VALIDATE:
			c->validate = 1;
			break;
		case OPT_MAX_DEPTH:
			c->json_only[JO_MAX_DEPTH] = "--max-depth";
			c->ropts.max_depth = (unsigned)number_arg("--max-depth",
			    optarg, 1, 100000000);
			break;
		case OPT_JSONC:
			c->json_only[JO_JSONC] = "--jsonc";
			c->ropts.flags |= JENC_READ_JSONC;
			break;
		case OPT_TO:
			if (strcmp(optarg, "json") == 0)
				c->to = TO_JSON;
			else if (strcmp(optarg, "csv") == 0)
				c->to = TO_CSV;
			else if (strcmp(optarg, "tsv") == 0)
				c->to = TO_TSV;
			else if (strcmp(optarg, "log") == 0) {
				c->to = TO_JSON;	/* as --log */
				c->log = 1;
			} else
				usage_error("--to: '%s' is not json, csv, tsv "
				    "or log", optarg);
			break;
		case OPT_FLATTEN_SEP:
			if (optarg[0] == '\0' || strlen(optarg) > 15)
				usage_error("--flatten-sep: '%s' is not 1 to 15 "
				    "bytes", optarg);
			c->sep = optarg;
			break;
		case OPT_CRLF:
			c->wflags |= JENC_CSVW_CRLF;
			break;
		case OPT_CSV_SAFE:
			c->wflags |= JENC_CSVW_SAFE;
			break;
		case OPT_NEST:
			c->csv_only[CO_NEST] = "--nest";
			c->copts.flags |= JENC_CSV_NEST;
			break;
		case 'd':
			c->csv_only[CO_DELIM] = islong ? "--delimiter" : "-d";
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
			c->csv_only[CO_NO_HEADER] = "--no-header";
			c->copts.flags |= JENC_CSV_NO_HEADER;
			break;
		case OPT_HEADER: {
			c->csv_only[CO_HEADER] = "--header";
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
			c->csv_only[CO_TYPES] = islong ? "--types" : "-t";
			c->copts.flags |= JENC_CSV_TYPES;
			break;
		case OPT_RAGGED:
			c->csv_only[CO_RAGGED] = "--ragged";
			if (strcmp(optarg, "pad") == 0)
				c->copts.flags |= JENC_CSV_RAGGED_PAD;
			else if (strcmp(optarg, "error") == 0)
				c->copts.flags &= ~(unsigned)JENC_CSV_RAGGED_PAD;
			else
				usage_error("--ragged: '%s' is not error or pad",
				    optarg);
			break;
		case 'o':
			/* "-" and /dev/stdout: the standard output itself */
			c->output = strcmp(optarg, "-") == 0 ||
			    output_fd_path(optarg) == STDOUT_FILENO ? NULL : optarg;
			break;
		case 'w':
			c->write = 1;
			break;
		case OPT_CHECK:
			c->check = 1;
			break;
		case 'z':
			c->nul = 1;
			break;
		case OPT_BEST_EFFORT:
			c->best_effort = 1;
			break;
		case OPT_ON_ERROR:
			c->json_only[JO_ON_ERROR] = "--on-error";
			if (strcmp(optarg, "stop") == 0)
				c->on_error = ON_ERROR_STOP;
			else if (strcmp(optarg, "skip") == 0)
				c->on_error = ON_ERROR_SKIP;
			else if (strcmp(optarg, "pass") == 0)
				c->on_error = ON_ERROR_PASS;
			else
				usage_error("--on-error: '%s' is not stop, skip or "
				    "pass", optarg);
			break;
		case OPT_SEQ:
			c->ropts.flags |= JENC_READ_SEQ;
			break;
		case 'q':
			c->quiet = 1;
			break;
		case 'j':
			c->jobs = jobs_arg(optarg);
			break;
		case OPT_NO_MMAP:
			c->ropts.flags &= ~(unsigned)JENC_READ_MAP;
			break;
		case OPT_LOG:
			c->log = 1;
			break;
		case OPT_LEVEL:
		case OPT_SINCE:
		case OPT_UNTIL:
		case OPT_HIDE:
		case OPT_ONLY:
		case OPT_TIME_KEY:
		case OPT_LEVEL_KEY:
		case OPT_MESSAGE_KEY:
		case OPT_TIME_FORMAT:
		case OPT_UTC:
			log_arg(c, ch, optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			fputs(usage_text_log, stdout);
			exit(fflush(stdout) == 0 ? 0 : EXIT_IO);
		case 'V':
			printf("jenc %s\n", JENC_VERSION);
			exit(fflush(stdout) == 0 ? 0 : EXIT_IO);
		default:
			option_error(ch, argv[at]);
		}
	}
	/* (for output, --header chooses the columns, --no-header drops
	 * the header line) */
	if (c->names != NULL && (c->copts.flags & JENC_CSV_NO_HEADER) &&
	    c->to == TO_JSON)
		usage_error("--header and --no-header cannot be used together");
	if (c->log && c->to != TO_JSON)
		usage_error("--log and --to=%s cannot be used together",
		    c->to == TO_CSV ? "csv" : "tsv");
	if (c->log_opt != 0 && !c->log)
		usage_error("--%s needs --log", log_opt_name(c->log_opt));
	if (c->log && (c->slurp || c->validate || c->write || c->check))
		usage_error("--log and %s cannot be used together",
		    c->slurp ? "--slurp" : c->validate ? "--validate" :
		    c->write ? "-w" : "--check");
	/* a log's lines that are not records stay where they are */
	if (c->log && c->json_only[JO_ON_ERROR] == NULL)
		c->on_error = ON_ERROR_PASS;
	/* a backslash starts a TSV escape: refused before any input is read */
	if (c->copts.delim == '\\') {
		int i, tsv = c->from == FROM_TSV;

		for (i = optind; i < argc && !tsv; i++)
			tsv = input_format(c, argv[i]) == FROM_TSV;
		if (tsv)
			usage_error("--delimiter: '\\' cannot be a TSV delimiter "
			    "(it starts an escape)");
	}
}

/* Colors or not (--color, a terminal, NO_COLOR), and JENC_COLORS. */
static void
color_setup(struct config *c)
{
	const char *no = getenv("NO_COLOR");
	jenc_err err;

	jenc_colors_default(&c->colors);
	/* -w and --check write or compare JSON files: never colored */
	if (c->color == COLOR_NEVER || c->validate || c->write || c->check ||
	    c->to != TO_JSON)
		return;
	if (c->color == COLOR_AUTO && (c->output != NULL ||
	    !isatty(STDOUT_FILENO) ||
	    (no != NULL && no[0] != '\0')))
		return;
	if (jenc_colors_parse(&c->colors, getenv("JENC_COLORS"), &err) != 0) {
		fprintf(stderr, "jenc: JENC_COLORS: %s\n", err.msg);
		exit(EXIT_USAGE);
	}
	c->eflags |= JENC_COLOR;
}

/* --log: the view every output encoder gets, colored instead of the
 * encoder when colors are on. */
static void
log_setup(struct config *c)
{
	int rc;

	if (c->eflags & JENC_COLOR) {
		c->eflags &= ~(unsigned)JENC_COLOR;
		c->lopts.flags |= JENC_LOGV_COLOR;
		c->lopts.colors = &c->colors;
	}
	rc = jenc_logv_new(&c->logv, &c->lopts);
	if (rc == JENC_E_NOMEM)
		out_of_memory();
	if (rc != 0)
		usage_error("--time-format: more than seven %%N conversions");
	jenc_logv_view(c->logv, &c->view);
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
	if (c->ropts.flags & JENC_READ_SEQ)
		o->flags |= JENC_SEQ;	/* --seq: RS before each value */
}

/* Does s end in suffix, in any case? */
static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* The format path is read in: --from, else its name's ending (.csv,
 * .tsv or .tab in any case), else JSON. */
static int
input_format(const struct config *c, const char *path)
{
	if (c->from != FROM_AUTO)
		return c->from;
	if (ends_with(path, ".csv"))
		return FROM_CSV;
	if (ends_with(path, ".tsv") || ends_with(path, ".tab"))
		return FROM_TSV;
	return FROM_JSON;
}

/* Is path read as CSV or TSV? */
static int
is_csv(const struct config *c, const char *path)
{
	return input_format(c, path) != FROM_JSON;
}

/*
 * An option that applies to one input format only, given when no input is
 * of that format, is told once on stderr; it changes nothing else.
 */
static void
warn_unused(const struct config *c, int n, char **paths)
{
	size_t k;
	int json = 0, csv = 0, i;

	for (i = 0; i < (n > 0 ? n : 1); i++) {
		if (is_csv(c, n > 0 ? paths[i] : "-"))
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
		    k == CO_TYPES || k == CO_NEST))
			fprintf(stderr, "jenc: warning: %s has no effect on "
			    "JSON input\n", c->csv_only[k]);
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
 * Check -o, -w and --check against the rest of the command line and the
 * standard output, before any input is read; then set up the output.
 */
static void
setup_output(struct config *c, int n, char **paths)
{
	const char *mode[4], *self;
	char q[QUOTE_SIZE];
	int k = 0, i;

	if (c->output != NULL)
		mode[k++] = "-o";
	if (c->write)
		mode[k++] = "-w";
	if (c->check)
		mode[k++] = "--check";
	if (c->validate && k > 0 && !c->check)
		mode[k++] = "--validate";
	if (k > 1)
		usage_error("%s and %s cannot be used together", mode[0],
		    mode[1]);
	if (c->to != TO_JSON && (c->write || c->check))
		usage_error("%s cannot be used with --to=%s: %s", c->write ?
		    "-w" : "--check", c->to == TO_CSV ? "csv" : "tsv",
		    c->write ? "a change of format is not a rewrite in place "
		    "(write it elsewhere with -o)" : "it compares JSON output "
		    "with its input");
	if (c->write && n == 0)
		usage_error("-w needs the FILEs to rewrite");
	if (c->nul && !c->check)
		usage_error("-z needs --check");
	if (c->best_effort && !c->write && c->output == NULL)
		usage_error("--best-effort needs -o FILE or -w");
	for (i = 0; i < (n > 0 ? n : 1); i++) {
		const char *p = n > 0 ? paths[i] : "-";
		const char *name = strcmp(p, "-") == 0 ? "<stdin>" :
		    quote_name(p, q, sizeof(q));

		if (c->write && strcmp(p, "-") == 0)
			usage_error("-w cannot rewrite the standard input in "
			    "place");
		if (c->write && is_csv(c, p))
			usage_error("%s: -w cannot replace CSV or TSV input "
			    "with JSON (write it elsewhere with -o)", name);
		if (c->check && is_csv(c, p))
			usage_error("%s: --check cannot compare CSV or TSV "
			    "input with JSON", name);
	}
	/* Only where an input's data goes to the standard output. */
	if (k == 0 && !c->validate &&
	    (self = output_is_stdout(paths, n)) != NULL) {
		fprintf(stderr, "jenc: %s: input file is output file%s\n",
		    strcmp(self, "-") == 0 ? "<stdin>" :
		    quote_name(self, q, sizeof(q)), is_csv(c, self) ? "" :
		    " (use -w to rewrite it in place)");
		exit(EXIT_USAGE);
	}
	if (k == 0)
		return;
	/* --check reads each input as --validate does, and more. */
	c->validate = 0;
	c->out = output_new(c->output != NULL ? OUTPUT_FILE :
	    c->write ? OUTPUT_WRITE : OUTPUT_CHECK,
	    (c->best_effort ? OUTPUT_BEST_EFFORT : 0) |
	    (c->nul ? OUTPUT_NUL : 0));
	if (c->out == NULL)
		out_of_memory();
	if (c->output != NULL && output_open(c->out, c->output) != 0)
		exit(EXIT_IO);
}

/* Memory ran out: the input is not at fault, so no position is told.  What
 * was complete is out already; stop there, as for a write error. */
static void
out_of_memory(void)
{
	fputs("jenc: out of memory\n", stderr);
	exit(EXIT_IO);
}

/*
 * A write to standard output failed: say why.  A closed pipe ends jenc by
 * SIGPIPE before the write returns, unless the signal is ignored: then,
 * as cat(1) does, EPIPE is a write error like any other.
 */
static void
write_failed(int err) __attribute__((noreturn));

static void
write_failed(int err)
{
	fprintf(stderr, "jenc: write error: %s\n", strerror(err));
	exit(EXIT_IO);
}

/* An encoder writing to standard output with o and the colors. */
static jenc_enc *
new_out(const struct config *c, const jenc_opts *o)
{
	jenc_enc *e = output_encoder(c->out, o);

	if (e == NULL)
		out_of_memory();
	jenc_set_colors(e, &c->colors);
	if (c->log) {
		int rc = jenc_set_view(e, &c->view);

		if (rc == JENC_E_NOMEM)
			out_of_memory();
		if (rc != 0) {
			fprintf(stderr, "jenc: --log: %s\n", jenc_strerror(rc));
			exit(EXIT_IO);
		}
	}
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

/* What on_error needs: the input's name and the run's settings; for a
 * file that may be mapped, its descriptor and size when reading began
 * (else size -1). */
struct bad_ctx {
	struct config *c;
	const char *name;
	int fd;
	off_t size;
	uint64_t told;		/* 1 + the offset of the last error told */
};

/*
 * A mapped file made shorter while it is read: past the new end, the
 * rest of its last page reads as zero bytes (SIGBUS comes only from the
 * pages after it), which the reader takes for bad input.  So before bad
 * input of such a file is told, see whether the file shrank, and if so
 * say that and stop as on_sigbus does.
 */
static void
check_shrunk(const struct bad_ctx *b)
{
	struct stat st;

	if (b->size < 0 || fstat(b->fd, &st) != 0 || st.st_size >= b->size)
		return;
	output_abandon();
	fprintf(stderr, "jenc: %s: the file was made shorter while it was "
	    "read (see --no-mmap)\n", b->name);
	exit(EXIT_IO);
}

/* jenc_read_opts.on_error: report bad input that was skipped (or passed
 * only in part), count its lines. */
static void
on_bad(void *ctx, const jenc_err *err)
{
	struct bad_ctx *b = ctx;

	check_shrunk(b);
	b->c->bad_lines += err->lines;
	if (b->c->on_error == ON_ERROR_PASS && !b->c->validate && !err->passed)
		b->c->dropped_lines += err->lines;
	/* --validate, and --seq under stop (see convert): exit status 1 */
	if (b->c->validate || b->c->on_error == ON_ERROR_STOP)
		b->c->bad_valid = 1;
	/* a bad value's later lines that start values are read again, and
	 * may run into the same error: it is told once */
	if (!b->c->quiet && !err->passed && b->told != err->offset + 1)
		print_error(b->name, err);
	b->told = err->offset + 1;
}

/* The count that ends the standard error under skip and pass: "jenc: 3
 * invalid lines skipped", "... passed through", "... passed through, 1
 * dropped", "jenc: 1 invalid line dropped". */
static void
bad_count(const struct config *c)
{
	uint64_t n = c->bad_lines, d = c->dropped_lines;

	if (c->on_error != ON_ERROR_PASS || c->validate)
		fprintf(stderr, "jenc: %llu invalid line%s skipped\n",
		    (unsigned long long)n, n == 1 ? "" : "s");
	else if (d == 0)
		fprintf(stderr, "jenc: %llu invalid line%s passed through\n",
		    (unsigned long long)n, n == 1 ? "" : "s");
	else if (d == n)
		fprintf(stderr, "jenc: %llu invalid line%s dropped\n",
		    (unsigned long long)n, n == 1 ? "" : "s");
	else
		fprintf(stderr, "jenc: %llu invalid line%s passed through, "
		    "%llu dropped\n", (unsigned long long)(n - d),
		    n - d == 1 ? "" : "s", (unsigned long long)d);
}

/* Standard input was closed when jenc started (see main). */
static int stdin_closed;

/* The name of the input being read, for on_sigbus; NULL between inputs. */
static const char *volatile reading;

/*
 * SIGBUS with BUS_ADRERR while an input is read: a page of a file the
 * reader mapped (JENC_READ_MAP) is gone, because the file was made
 * shorter meanwhile.  Say so and stop as for a read error, the temporary
 * file of -o or -w removed; only async-signal-safe calls.  Any other
 * SIGBUS is left to its default action.
 */
static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	static const char msg[] = ": the file was made shorter while it was "
	    "read (see --no-mmap)\n";
	const char *name = reading;

	(void)uc;
	if (name == NULL || si->si_code != BUS_ADRERR) {
		(void)signal(sig, SIG_DFL);
		(void)raise(sig);
		return;
	}
	output_abandon();
	(void)!write(STDERR_FILENO, "jenc: ", 6);
	(void)!write(STDERR_FILENO, name, strlen(name));
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	_exit(EXIT_IO);
}

/* A sink that keeps nothing: --validate with --to=csv|tsv, which checks
 * the records as it would write them. */
static int
discard(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return 0;
}

/* --to=csv|tsv: e writes rows through the one writer of the run. */
static void
set_view(struct config *c, jenc_enc *e)
{
	jenc_view v;

	if (e == NULL)
		out_of_memory();
	jenc_csvw_view(c->csvw, 0, &v);
	if (jenc_set_view(e, &v) != 0)
		out_of_memory();
}

/* The CSV reader's options for input of format from. */
static jenc_csv_opts
csv_opts(const struct config *c, int from)
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

/* JSON input is read on past bad input (see convert_one): skip, pass,
 * and stop with --seq. */
static int
reads_on(const struct config *c)
{
	return c->on_error != ON_ERROR_STOP ||
	    (c->ropts.flags & JENC_READ_SEQ) != 0;
}

/*
 * One first pass over fd (from its offset at, put back there after) into
 * the writer's keys, with JENC_SPLIT or not: returns 1 if it went through
 * with no bad input.
 */
static int
scan_one(struct config *c, int fd, off_t at, const char *path,
    const char *name, unsigned split)
{
	jenc_opts o = { 0, split, 0 };
	jenc_view v;
	jenc_enc *e;
	jenc_err err;
	int rc;

	jenc_csvw_view(c->csvw, 1, &v);
	if (lseek(fd, at, SEEK_SET) != at) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(errno));
		exit(EXIT_IO);
	}
	if ((e = jenc_get_mem(&o)) == NULL || jenc_set_view(e, &v) != 0)
		out_of_memory();
	if (input_format(c, path) == FROM_JSON) {
		jenc_read_opts ro = c->ropts;

		ro.flags &= ~(unsigned)JENC_READ_PASS;
		if (reads_on(c))
			ro.flags |= JENC_READ_SKIP;
		ro.on_error = NULL;
		reading = name;
		rc = jenc_json_copy_fd(fd, e, &ro, &err);
		reading = NULL;
	} else {
		jenc_csv_opts co = csv_opts(c, input_format(c, path));

		rc = jenc_csv_copy_fd(fd, e, &co, &err);
	}
	if (rc == JENC_E_NOMEM || jenc_release(e) == JENC_E_NOMEM)
		out_of_memory();
	if (lseek(fd, at, SEEK_SET) != at) {
		fprintf(stderr, "jenc: %s: %s\n", name, strerror(errno));
		exit(EXIT_IO);
	}
	return rc == 0 && err.code == 0;
}

/* The first pass without the reader (jenc_csvw_keys_fd) over fd from
 * its offset at (put back there after): 1 if it read fd to its end, at
 * offset *end, found it valid and took its keys. */
static int
scan_keys(struct config *c, int fd, off_t at, const char *name, off_t *end)
{
	int rc;

	if (lseek(fd, at, SEEK_SET) != at)
		goto fail;
	if ((rc = jenc_csvw_keys_fd(c->csvw, fd, &c->ropts)) == JENC_E_NOMEM)
		out_of_memory();
	if (rc == 1 && (*end = lseek(fd, 0, SEEK_CUR)) < 0)
		goto fail;
	if (lseek(fd, at, SEEK_SET) != at)
		goto fail;
	return rc == 1;
fail:
	fprintf(stderr, "jenc: %s: %s\n", name, strerror(errno));
	exit(EXIT_IO);
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
 * second pass (jenc_csvw_rows_fd).  Else it is read without JENC_SPLIT,
 * its values going to the view as runs of their text rather than a call
 * per token, which takes about half the time.  If that pass went
 * through (objects only), so does the second, with the same rows; else
 * (an array, whose elements are records, or bad input) the pass is done
 * again with JENC_SPLIT, and so is the second.
 */
static void
scan_columns(struct config *c, int n, char **paths)
{
	int i;
	char *none[] = { (char *)"-" };
	jenc_view v;

	if (n == 0) {
		n = 1;
		paths = none;
	}
	if ((c->plain = calloc((size_t)n, 1)) == NULL ||
	    (c->ends = calloc((size_t)n, sizeof(off_t))) == NULL)
		out_of_memory();
	for (i = 0; i < n; i++) {
		struct stat st;
		int fd, in = strcmp(paths[i], "-") == 0;
		char q[QUOTE_SIZE], head[512];
		const char *name = in ? "<stdin>" :
		    quote_name(paths[i], q, sizeof(q));
		ssize_t k, j = 0;
		off_t at = 0;

		if (in) {
			if (stdin_closed || fstat(STDIN_FILENO, &st) != 0 ||
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
		    input_format(c, paths[i]) == FROM_JSON)
			c->plain[i] = (unsigned char)(scan_keys(c, fd, at,
			    name, &c->ends[i]) ? 2 :
			    scan_one(c, fd, at, paths[i], name, 0));
		if (!c->plain[i])
			(void)scan_one(c, fd, at, paths[i], name, JENC_SPLIT);
		if (!in)
			close(fd);
	}
	jenc_csvw_view(c->csvw, 0, &v);
}

/* --to=csv|tsv, the second pass over a file that jenc_csvw_keys_fd took
 * whole: its rows without the reader.  0, or *status set to EXIT_IO if
 * the file changed since (a record, or where it ends); e's errors are
 * told by the caller. */
static int
rows_fast(struct config *c, int fd, jenc_enc *e, const char *name,
    int *status)
{
	int rc = jenc_csvw_rows_fd(c->csvw, fd, e, &c->ropts);

	if (rc == JENC_E_NOMEM)
		out_of_memory();
	if (rc == 1 && lseek(fd, 0, SEEK_CUR) != c->ends[c->input])
		rc = 0;
	if (rc == 0) {
		fprintf(stderr, "jenc: %s: the file changed between the two "
		    "passes of --to=%s\n", name, c->to == TO_CSV ? "csv" :
		    "tsv");
		*status = EXIT_IO;
	}
	return 0;
}

/* Re-encode one input, path, called name in messages.  Returns the exit
 * status it earns. */
static int
convert_one(struct config *c, const char *path, const char *name)
{
	int fd = STDIN_FILENO, from = c->from, rc, status = 0;
	int is_stdin = strcmp(path, "-") == 0;
	jenc_opts o;
	jenc_enc *e = c->all;
	jenc_err err;
	jenc_read_opts ro = c->ropts;
	struct bad_ctx bad = { c, NULL, -1, -1, 0 };
	struct stat st;

	if (is_stdin) {
		name = "<stdin>";
		if (stdin_closed) {
			fprintf(stderr, "jenc: %s: %s\n", name, strerror(EBADF));
			return EXIT_IO;
		}
	} else if ((fd = output_input(c->out, path, name)) < 0) {
		return EXIT_IO;
	}
	if (c->out != NULL && (status = output_begin(c->out, &fd, path,
	    name)) != 0) {
		if (fd != STDIN_FILENO)
			close(fd);
		return status;
	}
	if (from == FROM_AUTO)
		from = input_format(c, path);

	out_opts(c, &o);
	if (c->to != TO_JSON) {
		/* each record a top-level value of the view, the elements
		 * of a top-level array too; but a file of objects alone
		 * (its first pass says so) goes as runs of its text */
		if (c->plain == NULL || !c->plain[c->input])
			o.flags |= JENC_SPLIT;
		if (c->validate && e == NULL)
			e = jenc_get_sink(discard, NULL, &o);
	}
	if (from == FROM_JSON && (ro.flags & JENC_READ_MAP) &&
	    fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		bad.fd = fd;
		bad.size = st.st_size;
	}
	if (from == FROM_JSON) {
		o.flags |= JENC_HOLD;
		if (!c->validate && e == NULL)
			e = new_out(c, &o);
		if (c->to != TO_JSON)
			set_view(c, e);
		/*
		 * --validate has no output to pass bad text to: it lists it.
		 * With --seq, stop still reads on at the next RS, as RFC 7464
		 * asks of a truncated text: the bad text is reported and
		 * skipped, and the exit status is 1.
		 */
		if (c->on_error == ON_ERROR_SKIP ||
		    (c->on_error == ON_ERROR_PASS && c->validate) ||
		    (c->on_error == ON_ERROR_STOP &&
		    (ro.flags & JENC_READ_SEQ)))
			ro.flags |= JENC_READ_SKIP;
		else if (c->on_error == ON_ERROR_PASS)
			ro.flags |= JENC_READ_PASS;
		if (c->log)
			ro.flags |= JENC_READ_BLANK;	/* a log's layout */
		bad.name = name;
		ro.on_error = on_bad;
		ro.ctx = &bad;
		reading = name;
		if (c->plain != NULL && c->plain[c->input] == 2)
			rc = rows_fast(c, fd, e, name, &status);
		else
			rc = jenc_json_copy_fd_par(fd, e, &ro, &err, c->jobs,
			    c->chunk);
		reading = NULL;
	} else {
		jenc_csv_opts co = csv_opts(c, from);

		if (!c->validate && e == NULL)
			e = new_out(c, &o);
		if (c->to != TO_JSON)
			set_view(c, e);
		rc = jenc_csv_copy_fd(fd, e, &co, &err);
	}
	/*
	 * Everything before a bad value is out before the error is told.
	 * The encoder's own error is a write error, or no memory: then
	 * jenc_release still writes the complete values it holds.
	 */
	if (e != NULL) {
		int ee = jenc_error(e);

		if (ee == 0)
			ee = jenc_flush(e);
		if (ee == JENC_E_NOMEM) {
			(void)jenc_release(e);
			out_of_memory();
		}
		if (ee != 0)
			write_failed(jenc_errno(e) ? jenc_errno(e) : EIO);
		if (e != c->all)
			(void)jenc_release(e);
	}
	if (rc == JENC_E_NOMEM)
		out_of_memory();
	if (rc == JENC_E_SYNTAX || rc == JENC_E_DEPTH)
		check_shrunk(&bad);
	if (rc != 0) {
		print_error(name, &err);
		status = rc == JENC_E_IO ? EXIT_IO : EXIT_INVALID;
	}
	if (c->out != NULL)
		status = output_end(c->out, status);
	if (!is_stdin)
		close(fd);
	return status;
}

/* Re-encode one input, its name quoted in messages (quote.h). */
static int
convert(struct config *c, const char *path)
{
	char q[QUOTE_SIZE];

	return convert_one(c, path, quote_name(path, q, sizeof(q)));
}

int
main(int argc, char **argv)
{
	struct config c;
	int status = 0, i, fd;

	/*
	 * A standard descriptor that is closed would be taken by the first
	 * file jenc opens: messages would go into the output file, or an
	 * input be read as the standard input.  Each is held by /dev/null,
	 * read-only: a write to a closed standard output still fails with
	 * EBADF, and "-" is answered with the error reading a closed
	 * descriptor gives.
	 */
	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (fd == STDIN_FILENO)
			stdin_closed = 1;
		if (open("/dev/null", O_RDONLY) != fd)
			return EXIT_IO;	/* no /dev/null: nowhere safe */
	}
	/* A write past the file size limit (ulimit -f) is a write error,
	 * not the end of jenc with its temporary file left behind. */
	(void)signal(SIGXFSZ, SIG_IGN);
	parse_args(&c, argc, argv);
	if (c.ropts.flags & JENC_READ_MAP) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		(void)sigaction(SIGBUS, &sa, NULL);
	}
	if (c.slurp && (c.write || c.check))
		usage_error("-s makes one array of all inputs: not with %s",
		    c.write ? "-w" : "--check");
	if (c.to != TO_JSON && c.slurp)
		usage_error("-s makes one array of all inputs: not with --to=%s",
		    c.to == TO_CSV ? "csv" : "tsv");
	if (c.slurp && c.on_error == ON_ERROR_PASS)
		usage_error("-s makes one array of all inputs: bad text cannot "
		    "pass into it (use --on-error=skip)");
	color_setup(&c);
	if (c.log)
		log_setup(&c);
	/* JENC_EXACT: jsmn reads the text itself (the test suite's second
	 * run, which must give the same bytes) */
	if (getenv("JENC_EXACT") != NULL && getenv("JENC_EXACT")[0] != '\0')
		c.ropts.flags |= JENC_READ_EXACT;
	/* JENC_FORCE_THREADS: -j starts its threads even on one usable CPU
	 * (the test suite's way to test them on any machine) */
	if (getenv("JENC_FORCE_THREADS") != NULL &&
	    getenv("JENC_FORCE_THREADS")[0] != '\0')
		c.ropts.flags |= JENC_READ_THREADS;
	if ((stats_path = getenv("JENC_STATS")) != NULL &&
	    stats_path[0] != '\0')
		(void)atexit(write_stats);
	chunk_env(&c);
	setup_output(&c, argc - optind, argv + optind);
	warn_unused(&c, argc - optind, argv + optind);
	if (c.slurp && !c.validate) {
		jenc_opts o;

		out_opts(&c, &o);
		c.all = new_out(&c, &o);
	}
	if (c.to != TO_JSON) {
		jenc_csvw_opts wo = { 0 };
		int rc;

		wo.flags = c.wflags | (c.to == TO_TSV ? JENC_CSVW_TSV : 0) |
		    ((c.copts.flags & JENC_CSV_NO_HEADER) ?
		    JENC_CSVW_NO_HEADER : 0) |
		    ((c.copts.flags & JENC_CSV_RAGGED_PAD) ? JENC_CSVW_PAD : 0) |
		    (reads_on(&c) ? JENC_CSVW_READ_ON : 0);
		wo.delim = c.to == TO_CSV ? c.copts.delim : 0;
		wo.sep = c.sep;
		wo.header = c.copts.header;
		wo.nheader = c.copts.nheader;
		if ((rc = jenc_csvw_new(&c.csvw, &wo)) == JENC_E_NOMEM)
			out_of_memory();
		if (rc != 0)
			usage_error("--delimiter: '%c' cannot be a CSV delimiter",
			    c.copts.delim);
		if (c.copts.header == NULL)
			scan_columns(&c, argc - optind, argv + optind);
	}
	if (optind == argc) {
		c.input = 0;
		status = convert(&c, "-");
	} else {
		for (i = optind; i < argc; i++) {
			int s;

			c.input = i - optind;
			s = convert(&c, argv[i]);

			if (s > status)
				status = s;
			if (output_failed(c.out))
				break;
		}
	}
	/* --slurp: the array closes after the last input, whatever came */
	if (c.all != NULL) {
		if (jenc_arr_end(c.all) != 0 || jenc_flush(c.all) != 0)
			write_failed(jenc_errno(c.all) ? jenc_errno(c.all) : EIO);
		(void)jenc_release(c.all);
	}
	/* --log passes what is not a record as a part of the log: only
	 * lines that could not be passed are counted */
	if (c.bad_lines > 0 && !c.quiet && !(c.log &&
	    c.on_error == ON_ERROR_PASS && c.dropped_lines == 0))
		bad_count(&c);
	if (c.csvw != NULL && jenc_csvw_dropped(c.csvw) > 0 && !c.quiet)
		fprintf(stderr, "jenc: %llu key%s not among the columns "
		    "dropped\n", (unsigned long long)jenc_csvw_dropped(c.csvw),
		    jenc_csvw_dropped(c.csvw) == 1 ? "" : "s");
	jenc_csvw_free(c.csvw);
	free(c.plain);
	free(c.ends);
	if (c.bad_valid && status == 0)
		status = EXIT_INVALID;
	status = output_close(c.out, status);
	if (c.check && fflush(stdout) != 0)
		write_failed(errno);
	output_free(c.out);
	jenc_logv_free(c.logv);
	free(c.names);
	return status;
}
