/*
 * simdparse.cpp - a bench peer: simdjson's DOM parser, which validates
 * everything (structure, strings, escapes, UTF-8, numbers), then its
 * minifying serializer: a validating compact re-encoder.
 *
 *	simdparse [-l] [FILE]
 *
 * Reads FILE (or standard input) whole into one buffer sized from
 * fstat(2) (peerio.h), parses it as one document with
 * simdjson::dom::parser and writes simdjson::minify() of it and a
 * newline.  With -l the input is JSON Lines: each line that is not blank
 * is parsed and written on its own (in place: the buffer's padding covers
 * the last line, the bytes after the others are readable), which is what
 * parse_many would do without its second thread.
 *
 * The serializer writes numbers from their parsed value: an integer beyond
 * 64 bits or a number beyond a double's range is an error, 1E2 comes out
 * as 100.0 and -0 as 0.  Exit status 0, 1 on invalid input (with
 * simdjson's message), 3 on a read or write error.
 *
 * Built by bench/bench.mk when libsimdjson-dev is installed.
 */
#include <string>

#include <simdjson.h>

#include "peerio.h"

static simdjson::dom::parser parser;
static std::string outbuf;

/* Parse p[0..n) and append its minified form and a newline to outbuf. */
static void
one(const char *p, size_t n, size_t lineno)
{
	simdjson::dom::element doc;
	simdjson::error_code e = parser.parse(p, n, false).get(doc);

	if (e != simdjson::SUCCESS) {
		if (lineno > 0)
			fprintf(stderr, "simdparse: line %zu: %s\n", lineno,
			    simdjson::error_message(e));
		else
			fprintf(stderr, "simdparse: %s\n",
			    simdjson::error_message(e));
		exit(1);
	}
	outbuf += simdjson::minify(doc);
	outbuf += '\n';
	if (outbuf.size() >= (1u << 16)) {
		peerio_write(1, outbuf.data(), outbuf.size());
		outbuf.clear();
	}
}

int
main(int argc, char **argv)
{
	int fd = 0, lines = 0, ch;
	size_t len;
	char *in;

	peerio_prog = "simdparse";
	while ((ch = getopt(argc, argv, "l")) != -1) {
		if (ch != 'l') {
			fprintf(stderr, "usage: simdparse [-l] [file]\n");
			return 2;
		}
		lines = 1;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "usage: simdparse [-l] [file]\n");
		return 2;
	}
	if (optind < argc && (fd = open(argv[optind], O_RDONLY)) < 0)
		peerio_die(argv[optind], strerror(errno));
	in = peerio_slurp(fd, simdjson::SIMDJSON_PADDING, &len);
	if (!lines) {
		one(in, len, 0);
	} else {
		size_t i = 0, lineno = 0;

		while (i < len) {
			const char *nl = (const char *)memchr(in + i, '\n',
			    len - i);
			size_t end = nl != NULL ? (size_t)(nl - in) : len, j;

			lineno++;
			for (j = i; j < end && (in[j] == ' ' || in[j] == '\t' ||
			    in[j] == '\r'); j++)
				;
			if (j < end)
				one(in + i, end - i, lineno);
			i = end + 1;
		}
	}
	peerio_write(1, outbuf.data(), outbuf.size());
	free(in);
	return 0;
}
