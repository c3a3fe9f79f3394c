/*
 * simdminify.cpp - a bench peer: simdjson's minify, the speed of removing
 * whitespace outside strings with SIMD while checking nothing.
 *
 *	simdminify [FILE]
 *
 * Reads FILE (or standard input) whole into one buffer sized from
 * fstat(2) (peerio.h), calls simdjson::minify() into a second buffer of
 * the same size and writes that.  simdjson::minify validates nothing: bad
 * JSON comes out minified just the same, so this is a limit to aim at,
 * not a re-encoder.  Exit status 0, or 1 if minify reports an error, 3 on
 * a read or write error.
 *
 * Built by bench/bench.mk when libsimdjson-dev is installed.
 */
#include <simdjson.h>

#include "peerio.h"

int
main(int argc, char **argv)
{
	int fd = 0;
	size_t len, outlen;
	char *in, *out;

	peerio_prog = "simdminify";
	if (argc > 2) {
		fprintf(stderr, "usage: simdminify [file]\n");
		return 2;
	}
	if (argc == 2 && (fd = open(argv[1], O_RDONLY)) < 0)
		peerio_die(argv[1], strerror(errno));
	in = peerio_slurp(fd, simdjson::SIMDJSON_PADDING, &len);
	if ((out = (char *)malloc(len + 1)) == NULL)
		peerio_die("output", "out of memory");
	simdjson::error_code e = simdjson::minify(in, len, out, outlen);
	if (e != simdjson::SUCCESS) {
		fprintf(stderr, "simdminify: %s\n", simdjson::error_message(e));
		return 1;
	}
	peerio_write(1, out, outlen);
	free(out);
	free(in);
	return 0;
}
