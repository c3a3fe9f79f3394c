/*
 * opts.c - jenc(1)'s options: the getopt_long table, the --help text, the
 * parsing and checking of each value (opts_parse), the refusal of options
 * that do not go together (opts_check), and the warning about options of
 * an input format no input has.  What they fill is struct config (cli.h).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "quote.h"

enum {
	OPT_INDENT = 256, OPT_TAB, OPT_SINGLE, OPT_VALIDATE, OPT_MAX_DEPTH,
	OPT_NO_HEADER, OPT_HEADER, OPT_RAGGED, OPT_CHECK,
	OPT_SPLIT, OPT_COLOR, OPT_ON_ERROR, OPT_SEQ, OPT_JSONC, OPT_ENCODING,
	OPT_NO_MMAP, OPT_BEST_EFFORT, OPT_TO, OPT_FLATTEN_SEP, OPT_CRLF,
	OPT_CSV_SAFE, OPT_NEST, OPT_LOG, OPT_LEVEL, OPT_SINCE, OPT_UNTIL,
	OPT_HIDE, OPT_ONLY, OPT_TIME_KEY, OPT_LEVEL_KEY, OPT_MESSAGE_KEY,
	OPT_TIME_FORMAT, OPT_UTC,
};

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

/* Is s a decimal number (digits only, no sign or space) that fits *v? */
int
opts_digits_ok(const char *s, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno == 0 && *end == '\0';
}

static unsigned long
opts_number(const char *opt, const char *s, unsigned long lo, unsigned long hi)
{
	unsigned long v;

	if (!opts_digits_ok(s, &v) || v < lo || v > hi)
		cli_usage_error("%s: '%s' is not a number from %lu to %lu",
		    opt, s, lo, hi);
	return v;
}

/* -j N: 1 to 1024, or auto (0). */
static unsigned
opts_jobs(const char *s)
{
	unsigned long v;

	if (strcmp(s, "auto") == 0)
		return 0;
	if (!opts_digits_ok(s, &v) || v < 1 || v > 1024)
		cli_usage_error("--jobs: '%s' is not auto or a number from 1 "
		    "to 1024", s);
	return (unsigned)v;
}

/* The index of s in words (NULL-ended), the values option opt takes; one
 * that is none of them is a usage error: "is not a, b or c". */
static int
opts_word(const char *opt, const char *s, const char *const *words)
{
	char list[64] = "";
	int i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(s, words[i]) == 0)
			return i;
	for (i = 0; words[i] != NULL; i++) {
		strcat(list, i == 0 ? "" : words[i + 1] != NULL ? ", " : " or ");
		strcat(list, words[i]);
	}
	cli_usage_error("%s: '%s' is not %s", opt, s, list);
}

/*
 * getopt_long reports a refused option only through its return value and
 * optopt, which tell neither "--foo" from "-x" nor why a long option was
 * refused, and argv[optind - 1] is not the element it looked at when a
 * short option was inside a bundle ("-xc") or after "--indent 3".  So
 * opts_parse follows the element each call scans (opts_elem), and for a
 * refused long option opts_option_error looks its name up in longopts
 * itself, as getopt_long did: an exact name wins, else a unique prefix.
 */

/* The index of the element the next getopt_long call scans: the one it is
 * inside of, or else the first option at or after optind.  The elements
 * getopt_long moves when it permutes are all before optind. */
static int
opts_elem(int argc, char **argv, int inside)
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
opts_option_error(int ch, const char *a) __attribute__((noreturn));

static void
opts_option_error(int ch, const char *a)
{
	const struct option *o, *hit = NULL;
	const char *name = a + 2;
	size_t n = strcspn(name, "=");
	int nhit = 0;

	if (a[1] != '-') {
		if (ch == ':')
			cli_usage_error("option '-%c' needs a value", optopt);
		cli_usage_error("unknown option '-%c'", optopt);
	}
	if (n == 0)
		cli_usage_error("unknown option '%s'", a);
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
		cli_usage_error("unknown option '--%.*s'", (int)n, name);
	if (nhit > 1) {
		cli_say("option '--%.*s' is ambiguous; possibilities:",
		    (int)n, name);
		for (o = longopts; o->name != NULL; o++)
			if (strncmp(o->name, name, n) == 0)
				fprintf(stderr, " '--%s'", o->name);
		cli_usage_hint();
	}
	if (ch == ':')
		cli_usage_error("option '--%s' needs a value", hit->name);
	cli_usage_error("option '--%s' doesn't allow an argument", hit->name);
}

/* The name of a --log option, for messages. */
const char *
opts_log_name(int ch)
{
	const struct option *o;

	for (o = longopts; o->name != NULL; o++)
		if (o->val == ch)
			return o->name;
	return "log";
}

/* --since and --until: RFC 3339, a date, now, or a time before now. */
static int64_t
opts_time(int ch, const char *s)
{
	struct timespec now;
	int64_t ns;
	int rc;

	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		now.tv_sec = time(NULL), now.tv_nsec = 0;
	rc = jenc_logv_time(s, strlen(s), (int64_t)now.tv_sec * 1000000000 +
	    now.tv_nsec, &ns);
	if (rc == JENC_E_RANGE)
		cli_usage_error("--%s: '%s' is outside the years 1678 to 2261",
		    opts_log_name(ch), s);
	if (rc != 0)
		cli_usage_error("--%s: '%s' is not a time (RFC 3339, a date, "
		    "now, or before now as -1h, -15m)", opts_log_name(ch), s);
	return ns;
}

/* The options of --log only: as the groups of opts_parse. */
static int
opts_log_arg(struct config *c, int ch, const char *arg)
{
	jenc_logv_opts *lo = &c->lopts;

	switch (ch) {
	case OPT_LEVEL:
		lo->min_level = jenc_logv_level(arg, strlen(arg));
		if (lo->min_level < 0)
			cli_usage_error("--level: '%s' is not a level (trace, "
			    "debug, info, warn, error, fatal or a number)",
			    arg);
		break;
	case OPT_SINCE:
		lo->since = opts_time(ch, arg);
		lo->flags |= JENC_LOGV_SINCE;
		break;
	case OPT_UNTIL:
		lo->until = opts_time(ch, arg);
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
	default:
		return 0;
	}
	c->log_opt = ch;
	return 1;
}

/* Does s end in suffix, in any case? */
static int
opts_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* The format path is read in: --from, else its name's ending (.csv,
 * .tsv or .tab in any case), else JSON. */
int
opts_input_format(const struct config *c, const char *path)
{
	if (c->from != FROM_AUTO)
		return c->from;
	if (opts_ends_with(path, ".csv"))
		return FROM_CSV;
	if (opts_ends_with(path, ".tsv") || opts_ends_with(path, ".tab"))
		return FROM_TSV;
	return FROM_JSON;
}

/*
 * The cases of the option switch, by the groups of --help.  Each takes
 * the option ch (its value in optarg) if it is of its group and returns
 * non-zero, else returns 0 and changes nothing.
 */

/* Input: --from, --encoding, --single, --max-depth, --jsonc, --validate. */
static int
opts_input_arg(struct config *c, int ch)
{
	int rc;

	switch (ch) {
	case 'f':
		c->from = FROM_JSON + opts_word("--from", optarg,
		    (const char *const[]){ "json", "csv", "tsv", NULL });
		return 1;
	case OPT_ENCODING:
		/* checked here, before any input is read */
		rc = jenc_encoding_check(optarg);
		if (rc == JENC_E_NOMEM)
			cli_out_of_memory();
		if (rc != 0)
			cli_usage_error("--encoding: unknown encoding '%s'",
			    optarg);
		c->ropts.encoding = c->copts.encoding = optarg;
		return 1;
	case OPT_SINGLE:
		c->json_only[JO_SINGLE] = "--single";
		c->ropts.flags |= JENC_READ_SINGLE;
		return 1;
	case OPT_VALIDATE:
		c->validate = 1;
		return 1;
	case OPT_MAX_DEPTH:
		c->json_only[JO_MAX_DEPTH] = "--max-depth";
		c->ropts.max_depth = (unsigned)opts_number("--max-depth",
		    optarg, 1, 100000000);
		return 1;
	case OPT_JSONC:
		c->json_only[JO_JSONC] = "--jsonc";
		c->ropts.flags |= JENC_READ_JSONC;
		return 1;
	}
	return 0;
}

/* Output layout: -c, --indent, --tab, -l, -H, -a, -S, -s, --split,
 * -C, -M, --color, -u. */
static int
opts_layout_arg(struct config *c, int ch)
{
	switch (ch) {
	/* The last of -c, --indent and --tab picks the layout; -l is
	 * not a layout and is never undone by one. */
	case 'c':
		c->indent = 0;
		c->tab = 0;
		return 1;
	case OPT_INDENT:
		c->indent = (unsigned)opts_number("--indent", optarg, 1, 16);
		c->tab = 0;
		return 1;
	case OPT_TAB:
		c->tab = 1;
		return 1;
	case 'l':
		c->lines = 1;
		return 1;
	case 'H':
		c->html = 1;
		return 1;
	case 'a':
		c->ascii = 1;
		return 1;
	case 'S':
		c->eflags |= JENC_SORT_KEYS;
		return 1;
	case 's':
		c->slurp = 1;
		return 1;
	case OPT_SPLIT:
		c->eflags |= JENC_SPLIT;
		return 1;
	case 'C':
		c->color = COLOR_ALWAYS;
		return 1;
	case 'M':
		c->color = COLOR_NEVER;
		return 1;
	case OPT_COLOR:
		c->color = opts_word("--color", optarg,
		    (const char *const[]){ "auto", "always", "never", NULL });
		return 1;
	case 'u':
		c->eflags |= JENC_FLUSH_EACH;
		return 1;
	}
	return 0;
}

/* Output format: --to, --flatten-sep, --crlf, --csv-safe. */
static int
opts_to_arg(struct config *c, int ch)
{
	switch (ch) {
	case OPT_TO:
		c->to = opts_word("--to", optarg, (const char *const[]){
		    "json", "csv", "tsv", "log", NULL });
		if (c->to > TO_TSV) {	/* log: as --log */
			c->to = TO_JSON;
			c->log = 1;
		}
		return 1;
	case OPT_FLATTEN_SEP:
		if (optarg[0] == '\0' || strlen(optarg) > 15)
			cli_usage_error("--flatten-sep: '%s' is not 1 to 15 "
			    "bytes", optarg);
		c->sep = optarg;
		return 1;
	case OPT_CRLF:
		c->wflags |= JENC_CSVW_CRLF;
		return 1;
	case OPT_CSV_SAFE:
		c->wflags |= JENC_CSVW_SAFE;
		return 1;
	}
	return 0;
}

/* -d, as "-d" or "--delimiter" (islong). */
static void
opts_delim_arg(struct config *c, int islong)
{
	c->csv_only[CO_DELIM] = islong ? "--delimiter" : "-d";
	if (strcmp(optarg, "\\t") == 0)
		c->copts.delim = '\t';
	else if (strlen(optarg) == 1)
		c->copts.delim = optarg[0];
	else
		cli_usage_error("--delimiter: '%s' is not one byte", optarg);
	if (c->copts.delim == '"' || c->copts.delim == '\n' ||
	    c->copts.delim == '\r' || (unsigned char)c->copts.delim >= 0x80)
		cli_usage_error("--delimiter: '%s' cannot be a delimiter",
		    optarg);
}

/* --header A,B,...: the names, pointers into the argument (kept), which
 * must be UTF-8; the last --header wins. */
static void
opts_header_arg(struct config *c, char *s)
{
	jenc_csv_opts probe = { 0 };
	jenc_err err;
	size_t n = 1, i;
	char *p;

	c->csv_only[CO_HEADER] = "--header";
	for (p = s; *p; p++)
		n += *p == ',';
	free(c->names);
	c->names = calloc(n, sizeof(*c->names));
	if (c->names == NULL)
		cli_out_of_memory();
	for (i = 0; i < n; i++) {
		c->names[i] = s;
		s += strcspn(s, ",");
		if (*s != '\0')
			*s++ = '\0';
	}
	c->copts.header = probe.header = (const char *const *)c->names;
	c->copts.nheader = probe.nheader = n;
	if (jenc_csv_copy_mem("", 0, NULL, &probe, &err) == JENC_E_UTF8)
		cli_usage_error("--header: names must be valid UTF-8");
}

/* CSV and TSV: -d, --no-header, --header, -t, --ragged, --nest; islong
 * says whether the option was written long. */
static int
opts_csv_arg(struct config *c, int ch, int islong)
{
	switch (ch) {
	case OPT_NEST:
		c->csv_only[CO_NEST] = "--nest";
		c->copts.flags |= JENC_CSV_NEST;
		return 1;
	case 'd':
		opts_delim_arg(c, islong);
		return 1;
	case OPT_NO_HEADER:
		c->csv_only[CO_NO_HEADER] = "--no-header";
		c->copts.flags |= JENC_CSV_NO_HEADER;
		return 1;
	case OPT_HEADER:
		opts_header_arg(c, optarg);
		return 1;
	case 't':
		c->csv_only[CO_TYPES] = islong ? "--types" : "-t";
		c->copts.flags |= JENC_CSV_TYPES;
		return 1;
	case OPT_RAGGED:
		c->csv_only[CO_RAGGED] = "--ragged";
		c->copts.flags &= ~(unsigned)JENC_CSV_RAGGED_PAD;
		if (opts_word("--ragged", optarg,
		    (const char *const[]){ "error", "pad", NULL }) == 1)
			c->copts.flags |= JENC_CSV_RAGGED_PAD;
		return 1;
	}
	return 0;
}

/* Files: -o, -w, --check, -z, --best-effort. */
static int
opts_file_arg(struct config *c, int ch)
{
	switch (ch) {
	case 'o':
		/* "-" and /dev/stdout: the standard output itself */
		c->output = strcmp(optarg, "-") == 0 ||
		    output_fd_path(optarg) == STDOUT_FILENO ? NULL : optarg;
		return 1;
	case 'w':
		c->write = 1;
		return 1;
	case OPT_CHECK:
		c->check = 1;
		return 1;
	case 'z':
		c->nul = 1;
		return 1;
	case OPT_BEST_EFFORT:
		c->best_effort = 1;
		return 1;
	}
	return 0;
}

/* Streams, logs and performance: --on-error, --seq, -q, -j, --no-mmap,
 * --log (the options of --log only: opts_log_arg). */
static int
opts_stream_arg(struct config *c, int ch)
{
	switch (ch) {
	case OPT_ON_ERROR:
		c->json_only[JO_ON_ERROR] = "--on-error";
		c->on_error = opts_word("--on-error", optarg,
		    (const char *const[]){ "stop", "skip", "pass", NULL });
		return 1;
	case OPT_SEQ:
		c->ropts.flags |= JENC_READ_SEQ;
		return 1;
	case 'q':
		c->quiet = 1;
		return 1;
	case 'j':
		c->jobs = opts_jobs(optarg);
		return 1;
	case OPT_NO_MMAP:
		c->ropts.flags &= ~(unsigned)JENC_READ_MAP;
		return 1;
	case OPT_LOG:
		c->log = 1;
		return 1;
	}
	return 0;
}

/*
 * Fill c from the command line, each value checked as it comes (a bad one
 * is a usage error); optind is left at the first FILE.  What does not go
 * together is opts_check's.
 */
void
opts_parse(struct config *c, int argc, char **argv)
{
	int ch, at, inside = 0, islong;

	memset(c, 0, sizeof(*c));
	c->indent = 2;
	c->jobs = JOBS_DEFAULT;
	c->ropts.flags = JENC_READ_MAP;	/* --no-mmap */
	opterr = 0;
	for (;;) {
		at = opts_elem(argc, argv, inside);
		if ((ch = getopt_long(argc, argv, optstring, longopts,
		    NULL)) == -1)
			break;
		/* Still inside a bundle of short options? */
		inside = optind == at && argv[at][1] != '-';
		islong = at < argc && argv[at][1] == '-';
		if (opts_input_arg(c, ch) || opts_layout_arg(c, ch) ||
		    opts_to_arg(c, ch) || opts_csv_arg(c, ch, islong) ||
		    opts_file_arg(c, ch) || opts_stream_arg(c, ch) ||
		    opts_log_arg(c, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			fputs(usage_text, stdout);
			fputs(usage_text_log, stdout);
			exit(fflush(stdout) == 0 ? 0 : EXIT_IO);
		case 'V':
			printf("jenc %s\n", JENC_VERSION);
			exit(fflush(stdout) == 0 ? 0 : EXIT_IO);
		default:
			opts_option_error(ch, argv[at]);
		}
	}
}
