/*
 * jsmnfloor.c - the floor under a jsmn-based re-encoder: read the input,
 * tokenize all of it with jsmn, write as many bytes back.
 *
 *	jsmnfloor [FILE]
 *
 * Reads FILE (or standard input) whole into one buffer sized from
 * fstat(2) (peerio.h), runs the system jsmn.h (JSMN_STRICT and
 * JSMN_PARENT_LINKS, as the Makefile's CPPFLAGS set them) over it into a
 * token array that starts at 4096 tokens and doubles whenever jsmn_parse
 * returns JSMN_ERROR_NOMEM (jsmn then goes on where it stopped), and
 * writes the input back unchanged to standard output.  That is every
 * byte read, every token found and the output's size written, with no
 * walk and no encoding: what jenc does beyond it is its own cost.  Unlike
 * jsmnbench (the tokenizer alone, file already in memory) it pays for the
 * read and the write, as a command in a pipeline does.
 *
 * Exit status 0, 1 if jsmn rejects the input, 3 on a read or write error.
 */
#include <stdio.h>
#include <stdlib.h>

#include <jsmn.h>

#include "peerio.h"

int
main(int argc, char **argv)
{
	jsmntok_t *tok = NULL, *t;
	jsmn_parser p;
	unsigned ntok = 4096;
	size_t len;
	char *buf;
	int fd = 0, r;

	peerio_prog = "jsmnfloor";
	if (argc > 2) {
		fprintf(stderr, "usage: jsmnfloor [file]\n");
		return 2;
	}
	if (argc == 2 && (fd = open(argv[1], O_RDONLY)) < 0)
		peerio_die(argv[1], strerror(errno));
	buf = peerio_slurp(fd, 0, &len);
	jsmn_init(&p);
	for (;;) {
		if ((t = realloc(tok, ntok * sizeof(*tok))) == NULL)
			peerio_die("tokens", "out of memory");
		tok = t;
		r = jsmn_parse(&p, buf, len, tok, ntok);
		if (r != JSMN_ERROR_NOMEM)
			break;
		ntok *= 2;
	}
	if (r < 0) {
		fprintf(stderr, "jsmnfloor: jsmn rejects the input (%d)\n", r);
		return 1;
	}
	peerio_write(1, buf, len);
	free(tok);
	free(buf);
	return 0;
}
