/*
 * gen.c - deterministic inputs for `make bench` (written to stdout).
 *
 *	gen mixed BYTES FILE...	one JSON array holding FILE, FILE, ... in turn,
 *				repeated until it is at least BYTES long
 *	gen ndjson BYTES FILE	FILE (NDJSON) repeated, whole copies, until
 *				at least BYTES
 *	gen doc BYTES SEED	a generated JSON document (one array of
 *				records) of at least BYTES
 *	gen csv ROWS SEED	a CSV file with a header and ROWS records
 *	gen flat BYTES SEED	JSON Lines of flat records (the columns of
 *				`gen csv`, a few members null), at least BYTES
 *	gen nested BYTES SEED	one array of nested records of a fixed shape
 *				(some members missing), at least BYTES
 *	gen pino BYTES SEED	a log as pino writes it, of at least BYTES:
 *				one JSON object a line, level (10 to 60),
 *				time (Unix milliseconds, rising), pid,
 *				hostname, 0 to 5 more fields, msg; 1% of
 *				the records carry an err with a stack of
 *				several lines
 *
 * The same arguments give the same bytes on every machine: the generated
 * forms use their own PRNG (splitmix64) and integer arithmetic only, and
 * the first N rows of `gen csv` do not depend on ROWS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n). */
static unsigned
pick(unsigned n)
{
	return (unsigned)(rng() % n);
}

static void
die(const char *what)
{
	fprintf(stderr, "gen: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t total;	/* bytes written so far */

static void
out(const char *p, size_t n)
{
	if (fwrite(p, 1, n, stdout) != n)
		die("write");
	total += n;
}

static void
outs(const char *s)
{
	out(s, strlen(s));
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t cap = 0, n = 0, r;

	if (f == NULL)
		die(path);
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			if ((p = realloc(p, cap)) == NULL)
				die("realloc");
		}
		r = fread(p + n, 1, cap - n, f);
		if (r == 0)
			break;
		n += r;
	}
	if (ferror(f))
		die(path);
	fclose(f);
	*len = n;
	return p;
}

static uint64_t
parse_u64(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0') {
		fprintf(stderr, "gen: '%s' is not a number\n", s);
		exit(2);
	}
	return (uint64_t)v;
}

static void
gen_mixed(uint64_t want, char **files, int nfiles)
{
	char **data = calloc((size_t)nfiles, sizeof(*data));
	size_t *len = calloc((size_t)nfiles, sizeof(*len));
	int i;

	if (data == NULL || len == NULL)
		die("calloc");
	for (i = 0; i < nfiles; i++)
		data[i] = slurp(files[i], &len[i]);
	outs("[\n");
	for (i = 0; total < want; i = (i + 1) % nfiles) {
		if (total > 2)
			outs(",\n");
		out(data[i], len[i]);
	}
	outs("]\n");
}

static void
gen_ndjson(uint64_t want, const char *file)
{
	size_t len;
	char *data = slurp(file, &len);

	while (total < want)
		out(data, len);
}

/* ---- generated document -------------------------------------------- */

static const char *const words[] = {
	"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
	"hotel", "india", "juliet", "kilo", "lima", "mike", "november",
	"oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
	"victor", "whiskey", "xray", "yankee", "zulu", "stream", "encoder",
	"segment", "pool", "buffer", "value",
};

/* String pieces: plain words most of the time, then escapes, raw UTF-8
 * of every length, and the characters -H escapes. */
static const char *const pieces[] = {
	"\\\"quoted\\\"", "back\\\\slash", "line\\nbreak", "tab\\there",
	"\\u00e9t\\u00e9", "\\ud83d\\ude00", "caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac",
	"\xf0\x9f\x98\x80", "<b>bold</b>", "a & b", "\xe2\x80\xa8sep",
	"http:\\/\\/example.com\\/x", "\xd0\x9c\xd0\xbe\xd1\x81\xd0\xba\xd0\xb2\xd0\xb0",
};

static void
gen_text(unsigned nwords)
{
	unsigned i;

	outs("\"");
	for (i = 0; i < nwords; i++) {
		if (i > 0)
			outs(" ");
		if (pick(8) == 0)
			outs(pieces[pick(sizeof(pieces) / sizeof(pieces[0]))]);
		else
			outs(words[pick(sizeof(words) / sizeof(words[0]))]);
	}
	outs("\"");
}

/* A number in one of the forms JSON allows: integers, decimals,
 * exponents, negative zero. */
static void
gen_number(void)
{
	char buf[64];
	uint64_t r = rng();

	switch (pick(6)) {
	case 0:
		snprintf(buf, sizeof(buf), "%" PRIu64, r % 1000);
		break;
	case 1:
		snprintf(buf, sizeof(buf), "-%" PRIu64, r >> 12);
		break;
	case 2:
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%02" PRIu64,
		    r % 100000, (r >> 32) % 100);
		break;
	case 3:
		snprintf(buf, sizeof(buf), "-%" PRIu64 ".%06" PRIu64 "e%s%u",
		    r % 10, (r >> 20) % 1000000, pick(2) ? "-" : "+", pick(300));
		break;
	case 4:
		snprintf(buf, sizeof(buf), "0.%017" PRIu64,
		    r % (uint64_t)100000000000000000ULL);
		break;
	default:
		snprintf(buf, sizeof(buf), "%s", pick(50) ? "1E3" : "-0");
		break;
	}
	outs(buf);
}

static void gen_value(unsigned depth);

static void
gen_array(unsigned depth)
{
	unsigned i, n = pick(6);

	outs("[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			outs(pick(2) ? "," : ", ");
		gen_value(depth + 1);
	}
	outs("]");
}

static void
gen_object(unsigned depth)
{
	unsigned i, n = 1 + pick(5), first = pick(32);

	/* Distinct keys (7 is prime to 32): peers that keep only the last
	 * of duplicate keys must still give equal values. */
	outs("{");
	for (i = 0; i < n; i++) {
		if (i > 0)
			outs(", ");
		outs("\"");
		outs(words[(first + 7 * i) % 32]);
		outs("\": ");
		gen_value(depth + 1);
	}
	outs("}");
}

static void
gen_value(unsigned depth)
{
	unsigned k = pick(depth > 4 ? 6 : 8);

	switch (k) {
	case 0: case 1:
		gen_text(1 + pick(6));
		break;
	case 2: case 3:
		gen_number();
		break;
	case 4:
		outs(pick(2) ? "true" : "false");
		break;
	case 5:
		outs("null");
		break;
	case 6:
		gen_array(depth);
		break;
	default:
		gen_object(depth);
		break;
	}
}

static void
gen_record(uint64_t id)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "{\n    \"id\": %" PRIu64 ",\n    \"uuid\": "
	    "\"%016" PRIx64 "%016" PRIx64 "\",\n    \"name\": ", id, rng(), rng());
	outs(buf);
	gen_text(2 + pick(3));
	outs(",\n    \"active\": ");
	outs(pick(2) ? "true" : "false");
	outs(",\n    \"score\": ");
	gen_number();
	outs(",\n    \"tags\": [");
	gen_text(1);
	outs(", ");
	gen_text(1);
	outs("],\n    \"geo\": {\"lat\": ");
	gen_number();
	outs(", \"lon\": ");
	gen_number();
	outs("},\n    \"text\": ");
	gen_text(8 + pick(24));
	outs(",\n    \"extra\": ");
	gen_object(1);
	outs("\n  }");
}

static void
gen_doc(uint64_t want, uint64_t seed)
{
	uint64_t id;

	rng_state = seed;
	outs("[\n  ");
	for (id = 1; total < want; id++) {
		if (id > 1)
			outs(",\n  ");
		gen_record(id);
	}
	outs("\n]\n");
}

/* ---- CSV ------------------------------------------------------------ */

static const char *const cities[] = {
	"Z\xc3\xbcrich", "S\xc3\xa3o Paulo", "\xd0\x9c\xd0\xbe\xd1\x81\xd0\xba\xd0\xb2\xd0\xb0",
	"\xe6\x9d\xb1\xe4\xba\xac", "Krak\xc3\xb3w", "Reykjav\xc3\xadk", "M\xc3\xbcnchen",
	"\xce\x91\xce\xb8\xce\xae\xce\xbd\xce\xb1", "Lyon", "Oslo", "Cairo",
	"\xf0\x9f\x8c\x8d Earth",
};

/*
 * Columns: id (int), name (text; some quoted with a comma), price
 * (decimal), qty (int, sometimes negative or empty), active
 * (true/false), note (often empty; quoted with "" quotes, commas or a
 * newline), city (non-ASCII), ratio (exponent form), code (text that
 * looks half numeric).
 */
static void
gen_csv(uint64_t rows, uint64_t seed)
{
	char buf[128];
	uint64_t id;

	rng_state = seed;
	outs("id,name,price,qty,active,note,city,ratio,code\n");
	for (id = 1; id <= rows; id++) {
		snprintf(buf, sizeof(buf), "%" PRIu64 ",", id);
		outs(buf);
		if (pick(10) == 0) {
			outs("\"");
			outs(words[pick(32)]);
			outs(", ");
			outs(words[pick(32)]);
			outs("\"");
		} else {
			outs(words[pick(32)]);
			outs(" ");
			outs(words[pick(32)]);
		}
		snprintf(buf, sizeof(buf), ",%u.%02u,", pick(10000), pick(100));
		outs(buf);
		switch (pick(8)) {
		case 0:
			break;
		case 1:
			snprintf(buf, sizeof(buf), "-%u", 1 + pick(500));
			outs(buf);
			break;
		default:
			snprintf(buf, sizeof(buf), "%u", pick(100000));
			outs(buf);
			break;
		}
		outs(pick(2) ? ",true," : ",false,");
		switch (pick(10)) {
		case 0: case 1: case 2: case 3:
			break;
		case 4:
			outs("\"she said \"\"");
			outs(words[pick(32)]);
			outs("\"\", then left\"");
			break;
		case 5:
			outs("\"first line\nsecond line, ");
			outs(words[pick(32)]);
			outs("\"");
			break;
		default:
			outs(words[pick(32)]);
			outs(" ");
			outs(cities[pick(12)]);
			break;
		}
		outs(",");
		outs(cities[pick(12)]);
		snprintf(buf, sizeof(buf), ",%s%u.%03ue-%u,%c-%03u\n",
		    pick(4) ? "" : "-", 1 + pick(9), pick(1000), 1 + pick(12),
		    (char)('A' + pick(26)), pick(1000));
		outs(buf);
	}
}

/* ---- records for --to=csv ------------------------------------------- */

/* One word, or two joined by a space. */
static void
gen_words(unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			outs(" ");
		outs(words[pick(32)]);
	}
}

/* The text of a note: plain, with quotes, a comma or a newline. */
static void
gen_note(void)
{
	switch (pick(6)) {
	case 0:
		outs("\"she said \\\"");
		outs(words[pick(32)]);
		outs("\\\", then left\"");
		break;
	case 1:
		outs("\"first line\\nsecond line, ");
		outs(words[pick(32)]);
		outs("\"");
		break;
	default:
		outs("\"");
		gen_words(1 + pick(4));
		outs("\"");
		break;
	}
}

static void
gen_flat(uint64_t want, uint64_t seed)
{
	char buf[160];
	uint64_t id;

	rng_state = seed;
	for (id = 1; total < want; id++) {
		snprintf(buf, sizeof(buf), "{\"id\":%" PRIu64 ",\"name\":\"", id);
		outs(buf);
		gen_words(2);
		snprintf(buf, sizeof(buf), "\",\"price\":%u.%02u,\"qty\":",
		    pick(10000), pick(100));
		outs(buf);
		if (pick(8) == 0)
			outs("null");
		else {
			snprintf(buf, sizeof(buf), "%d", (int)pick(100000) - 500);
			outs(buf);
		}
		outs(pick(2) ? ",\"active\":true,\"note\":" :
		    ",\"active\":false,\"note\":");
		if (pick(3) == 0)
			outs("null");
		else
			gen_note();
		outs(",\"city\":\"");
		outs(cities[pick(12)]);
		snprintf(buf, sizeof(buf), "\",\"ratio\":%s%u.%03ue-%u,"
		    "\"code\":\"%c-%03u\"}\n", pick(4) ? "" : "-", 1 + pick(9),
		    pick(1000), 1 + pick(12), (char)('A' + pick(26)), pick(1000));
		outs(buf);
	}
}

static void
gen_nested(uint64_t want, uint64_t seed)
{
	char buf[160];
	uint64_t id;
	unsigned i, n;

	rng_state = seed;
	outs("[\n");
	for (id = 1; total < want; id++) {
		snprintf(buf, sizeof(buf), "%s  {\n    \"id\": %" PRIu64 ",\n"
		    "    \"user\": {\"name\": \"", id > 1 ? ",\n" : "", id);
		outs(buf);
		gen_words(2);
		outs("\", \"email\": \"");
		outs(words[pick(32)]);
		outs("@example.org\"");
		if (pick(4) != 0) {
			outs(", \"address\": {\"city\": \"");
			outs(cities[pick(12)]);
			snprintf(buf, sizeof(buf), "\", \"zip\": \"%05u\"}",
			    pick(100000));
			outs(buf);
		}
		snprintf(buf, sizeof(buf), "},\n    \"order\": {\"total\": "
		    "%u.%02u, \"currency\": \"%s\", \"paid\": %s},\n"
		    "    \"tags\": [", pick(100000), pick(100),
		    pick(3) ? "EUR" : "CHF", pick(2) ? "true" : "false");
		outs(buf);
		for (i = 0, n = pick(4); i < n; i++) {
			outs(i > 0 ? ", \"" : "\"");
			outs(words[pick(32)]);
			outs("\"");
		}
		outs("],\n    \"note\": ");
		if (pick(3) == 0)
			outs("null");
		else
			gen_note();
		snprintf(buf, sizeof(buf), ",\n    \"score\": %s%u.%03ue-%u\n  }",
		    pick(4) ? "" : "-", 1 + pick(9), pick(1000), 1 + pick(12));
		outs(buf);
	}
	outs("\n]\n");
}

/* A record of `gen pino`: 5 to 10 members, as pino orders them. */
static void
pino_record(uint64_t *ms)
{
	static const char *const msgs[] = {
		"request completed", "incoming request", "cache miss",
		"user logged in", "job finished", "retrying upstream call",
		"connection closed", "slow query", "token refreshed",
		"payment accepted", "queue drained", "listening",
	};
	static const char *const methods[] = { "GET", "POST", "PUT", "DELETE" };
	static const unsigned levels[] = { 30, 30, 30, 30, 30, 30, 20, 20, 40, 10 };
	char buf[512];
	unsigned lv = levels[pick(10)], extra = pick(6), i;
	int err = pick(100) == 0;

	*ms += pick(40);
	if (err)
		lv = pick(5) ? 50 : 60;
	snprintf(buf, sizeof(buf), "{\"level\":%u,\"time\":%" PRIu64 ","
	    "\"pid\":%u,\"hostname\":\"web-%u\"", lv, *ms, 4000 + pick(8),
	    1 + pick(4));
	outs(buf);
	for (i = 0; i < extra; i++) {
		switch (i) {
		case 0:
			snprintf(buf, sizeof(buf), ",\"reqId\":\"req-%u\"",
			    pick(1000000));
			break;
		case 1:
			snprintf(buf, sizeof(buf), ",\"req\":{\"method\":\"%s\","
			    "\"url\":\"/api/v1/%s/%u\",\"remoteAddress\":"
			    "\"10.0.%u.%u\"}", methods[pick(4)], words[pick(32)],
			    pick(100000), pick(256), pick(256));
			break;
		case 2:
			snprintf(buf, sizeof(buf), ",\"res\":{\"statusCode\":%u}",
			    pick(8) ? 200 : 500 + pick(4));
			break;
		case 3:
			snprintf(buf, sizeof(buf), ",\"responseTime\":%u.%u",
			    pick(2000), pick(10));
			break;
		case 4:
			snprintf(buf, sizeof(buf), ",\"user\":\"%s %s\"",
			    words[pick(32)], cities[pick(12)]);
			break;
		default:
			snprintf(buf, sizeof(buf), ",\"tags\":[\"%s\",\"%s\"]",
			    words[pick(32)], words[pick(32)]);
			break;
		}
		outs(buf);
	}
	if (err) {
		snprintf(buf, sizeof(buf), ",\"err\":{\"type\":\"Error\","
		    "\"message\":\"connect ECONNREFUSED 10.0.0.%u:5432\","
		    "\"stack\":\"Error: connect ECONNREFUSED 10.0.0.%u:5432\\n"
		    "    at TCPConnectWrap.afterConnect [as oncomplete] "
		    "(node:net:1555:16)\\n    at Pool.connect "
		    "(/app/node_modules/pg-pool/index.js:%u:11)\\n"
		    "    at async Query.run (/app/src/db.js:%u:5)\"}",
		    pick(256), pick(256), 40 + pick(200), 10 + pick(90));
		outs(buf);
	}
	snprintf(buf, sizeof(buf), ",\"msg\":\"%s\"}\n",
	    err ? "database unavailable" : msgs[pick(12)]);
	outs(buf);
}

static void
gen_pino(uint64_t want, uint64_t seed)
{
	uint64_t ms = 1714564800000ULL;

	rng_state = seed;
	while (total < want)
		pino_record(&ms);
}

int
main(int argc, char **argv)
{
	static char obuf[1 << 20];

	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (argc >= 4 && strcmp(argv[1], "mixed") == 0)
		gen_mixed(parse_u64(argv[2]), argv + 3, argc - 3);
	else if (argc == 4 && strcmp(argv[1], "ndjson") == 0)
		gen_ndjson(parse_u64(argv[2]), argv[3]);
	else if (argc == 4 && strcmp(argv[1], "doc") == 0)
		gen_doc(parse_u64(argv[2]), parse_u64(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "csv") == 0)
		gen_csv(parse_u64(argv[2]), parse_u64(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "flat") == 0)
		gen_flat(parse_u64(argv[2]), parse_u64(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "nested") == 0)
		gen_nested(parse_u64(argv[2]), parse_u64(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "pino") == 0)
		gen_pino(parse_u64(argv[2]), parse_u64(argv[3]));
	else {
		fprintf(stderr, "usage: gen mixed BYTES FILE... | ndjson BYTES FILE |"
		    " doc BYTES SEED | csv ROWS SEED | flat BYTES SEED |"
		    " nested BYTES SEED | pino BYTES SEED\n");
		return 2;
	}
	if (fflush(stdout) != 0)
		die("write");
	return 0;
}
