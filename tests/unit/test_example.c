/*
 * test_example.c - the example programs of jenc(3): the encoder's (also
 * in README.md), the JSON reader's and the CSV reader's, each run with
 * its standard output on a pipe and then on /dev/full, and given the
 * input jenc(3) shows it must print what jenc(3) says.
 *
 * The programs between the markers are those of the EXAMPLES section of
 * man/jenc.3, character for character (the last tests check that); their
 * main is renamed here so that the test can call them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define main example_main
/* example begin */
#include <stdio.h>
#include <unistd.h>

#include <jenc.h>

int
main(void)
{
	jenc_opts o = { .indent = 2 };
	jenc_enc *e;
	int err;

	e = jenc_get_fd(STDOUT_FILENO, &o);
	if (e == NULL) {
		fprintf(stderr, "example: out of memory\n");
		return 1;
	}
	jenc_obj_begin(e);
	jenc_kv_str(e, "name", 4, "jenc", 4);
	jenc_kv_i64(e, "stars", 5, 42);
	jenc_key(e, "tags", 4);
	jenc_arr_begin(e);
	jenc_str(e, "json", 4);
	jenc_arr_end(e);
	jenc_obj_end(e);
	err = jenc_release(e);	/* flushes; 0 or the first error */
	if (err != 0) {
		fprintf(stderr, "example: %s\n", jenc_strerror(err));
		return 1;
	}
	return 0;
}
/* example end */
#undef main

#define main json_example_main
/* json example begin */
#include <stdio.h>
#include <unistd.h>

#include <jenc.h>

int
main(void)
{
	/* Compact, a newline after each value; a value is written only
	 * once it is complete, so that a bad one leaves nothing behind. */
	jenc_opts o = { .flags = JENC_HOLD };
	jenc_enc *e;
	jenc_err err;
	int rc, wrc;

	e = jenc_get_fd(STDOUT_FILENO, &o);
	if (e == NULL) {
		fprintf(stderr, "compact: out of memory\n");
		return 1;
	}
	rc = jenc_json_copy_fd(STDIN_FILENO, e, NULL, &err);
	wrc = jenc_release(e);	/* writes out what is held */
	if (rc == JENC_E_SYNTAX || rc == JENC_E_DEPTH) {
		fprintf(stderr, "compact: %llu:%llu: %s\n",
		    (unsigned long long)err.line, (unsigned long long)err.col,
		    err.msg);
		if (err.excerpt[0] != '\0')
			fprintf(stderr, "  %s\n  %*s^\n", err.excerpt,
			    (int)err.caret, "");
		return 1;
	}
	if (rc != 0 || wrc != 0) {
		fprintf(stderr, "compact: %s\n",
		    jenc_strerror(rc != 0 ? rc : wrc));
		return 1;
	}
	return 0;
}
/* json example end */
#undef main

#define main csv_example_main
/* csv example begin */
#include <stdio.h>
#include <unistd.h>

#include <jenc.h>

int
main(void)
{
	jenc_opts o = { .indent = 2 };
	jenc_csv_opts c = { .flags = JENC_CSV_TYPES };
	jenc_enc *e;
	jenc_err err;
	int rc, wrc;

	e = jenc_get_fd(STDOUT_FILENO, &o);
	if (e == NULL) {
		fprintf(stderr, "csv2json: out of memory\n");
		return 1;
	}
	rc = jenc_csv_copy_fd(STDIN_FILENO, e, &c, &err);
	wrc = jenc_release(e);
	if (rc == JENC_E_SYNTAX) {
		fprintf(stderr, "csv2json: line %llu: %s\n",
		    (unsigned long long)err.line, err.msg);
		return 1;
	}
	if (rc != 0 || wrc != 0) {
		fprintf(stderr, "csv2json: %s\n",
		    jenc_strerror(rc != 0 ? rc : wrc));
		return 1;
	}
	return 0;
}
/* csv example end */
#undef main

/* read_fd - everything readable from fd until EOF, NUL-terminated. */
static char *
read_fd(int fd, size_t *n)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	ssize_t r;

	if (buf == NULL)
		abort();
	for (;;) {
		if (cap - len < 2 && (buf = realloc(buf, cap *= 2)) == NULL)
			abort();
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	*n = len;
	return buf;
}

/*
 * run - fn() with its standard input reading the bytes in (NULL: none),
 * its standard output on out and its standard error on a pipe; returns
 * its exit status and what it wrote to stderr.  in must fit in a pipe's
 * buffer.
 */
static int
run(int (*fn)(void), const char *in, int out, char **err, size_t *errlen)
{
	int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO);
	int saved_err = dup(STDERR_FILENO);
	int ip[2], ep[2], rc;

	if (saved_in < 0 || saved_out < 0 || saved_err < 0 || pipe(ip) != 0 ||
	    pipe(ep) != 0)
		abort();
	if (in != NULL && write(ip[1], in, strlen(in)) != (ssize_t)strlen(in))
		abort();
	close(ip[1]);
	fflush(stdout);
	fflush(stderr);
	dup2(ip[0], STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(ep[1], STDERR_FILENO);
	close(ip[0]);
	close(ep[1]);
	rc = fn();
	fflush(stderr);
	dup2(saved_in, STDIN_FILENO);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_in);
	close(saved_out);
	close(saved_err);
	*err = read_fd(ep[0], errlen);
	close(ep[0]);
	return rc;
}

/* run_pipe - run() with stdout on a pipe; *out gets what it wrote. */
static int
run_pipe(int (*fn)(void), const char *in, char **out, size_t *outlen,
    char **err, size_t *errlen)
{
	int p[2], rc;

	if (pipe(p) != 0)
		abort();
	/* every output here is far smaller than a pipe's buffer */
	rc = run(fn, in, p[1], err, errlen);
	close(p[1]);
	*out = read_fd(p[0], outlen);
	close(p[0]);
	return rc;
}

/* file_text - the whole file at path, or NULL. */
static char *
file_text(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t n;
	char *s;

	if (fd < 0)
		return NULL;
	s = read_fd(fd, &n);
	close(fd);
	return s;
}

/*
 * man_block - the text of the n-th (from 1) literal display in the
 * EXAMPLES section of man/jenc.3, with mdoc's \e as \ and \& as nothing;
 * NULL if there is none.  The caller frees it.
 */
static char *
man_block(int n)
{
	char *man = file_text("man/jenc.3"), *m, *q, *d, *s, *r = NULL;

	if (man == NULL)
		return NULL;
	m = strstr(man, "\n.Sh EXAMPLES\n");
	while (m != NULL && n-- > 0)
		m = strstr(m + 1, "\n.Bd -literal");
	m = m ? strchr(m + 1, '\n') : NULL;
	q = m ? strstr(m, "\n.Ed\n") : NULL;
	if (m != NULL && q != NULL) {
		q[1] = '\0';
		for (d = m + 1, s = m + 1; *s != '\0'; s++) {
			if (s[0] == '\\' && s[1] == '&') {
				s++;
				continue;
			}
			*d++ = *s;
			if (s[0] == '\\' && s[1] == 'e')
				s++;
		}
		*d = '\0';
		r = strdup(m + 1);
	}
	free(man);
	return r;
}

/* src_block - the program between the markers NAME begin and NAME end
 * in this file; the caller frees it. */
static char *
src_block(const char *name)
{
	char *src = file_text(__FILE__), *a, *b, *r = NULL;
	char begin[64], end[64];

	if (src == NULL)
		return NULL;
	snprintf(begin, sizeof begin, "/* %s begin */\n", name);
	snprintf(end, sizeof end, "/* %s end */", name);
	a = strstr(src, begin);
	b = a ? strstr(a, end) : NULL;
	if (a != NULL && b != NULL) {
		*b = '\0';
		r = strdup(a + strlen(begin));
	}
	free(src);
	return r;
}

/* The EXAMPLES displays of man/jenc.3, in order. */
enum {
	M_ENC = 1, M_ENC_OUT,
	M_JSON, M_JSON_IN, M_JSON_OUT,
	M_CSV, M_CSV_IN, M_CSV_OUT,
};

/* CHECK_SAME_PROGRAM - man/jenc.3's display n is the program NAME. */
#define CHECK_SAME_PROGRAM(name, n) do { \
	char *src_ = src_block(name), *man_ = man_block(n); \
	CHECK(src_ != NULL); \
	CHECK(man_ != NULL); \
	if (src_ != NULL && man_ != NULL) \
		CHECK_STR(man_, strlen(man_), src_); \
	free(src_); \
	free(man_); \
} while (0)

/* CHECK_FULL - fn() with stdout on /dev/full fails once, at the end,
 * with "PROG: input/output error". */
#define CHECK_FULL(fn, in, prog) do { \
	char want_[256], *err_; \
	size_t errlen_; \
	int fd_ = open("/dev/full", O_WRONLY); \
	CHECK(fd_ >= 0); \
	CHECK_EQ(run(fn, in, fd_, &err_, &errlen_), 1); \
	close(fd_); \
	snprintf(want_, sizeof want_, "%s: %s\n", prog, \
	    jenc_strerror(JENC_E_IO)); \
	CHECK_STR(err_, errlen_, want_); \
	free(err_); \
} while (0)

int
main(void)
{
	char *out, *err, *in, *want;
	size_t outlen, errlen;

	TEST("the encoder example writes its object to a pipe") {
		CHECK_EQ(run_pipe(example_main, NULL, &out, &outlen, &err,
		    &errlen), 0);
		CHECK_STR(out, outlen,
		    "{\n"
		    "  \"name\": \"jenc\",\n"
		    "  \"stars\": 42,\n"
		    "  \"tags\": [\n"
		    "    \"json\"\n"
		    "  ]\n"
		    "}\n");
		CHECK_STR(err, errlen, "");
		want = man_block(M_ENC_OUT);
		CHECK(want != NULL);
		if (want != NULL)
			CHECK_STR(out, outlen, want);
		free(want);
		free(out);
		free(err);
	}

	TEST("the encoder example reports a failed write once, at the end") {
		CHECK_FULL(example_main, NULL, "example");
	}

	TEST("the JSON reader example prints what jenc(3) shows") {
		in = man_block(M_JSON_IN);
		want = man_block(M_JSON_OUT);
		CHECK(in != NULL && want != NULL);
		if (in != NULL && want != NULL) {
			CHECK_EQ(run_pipe(json_example_main, in, &out, &outlen,
			    &err, &errlen), 1);
			CHECK_STR(out, outlen,
			    "{\"name\":\"jenc\",\"tags\":[\"json\"]}\n"
			    "[1,2.50,1e400]\n");
			CHECK_STR(err, errlen,
			    "compact: 3:8: invalid literal 'nul', expected "
			    "true, false or null\n"
			    "  [true, nul]\n"
			    "         ^\n");
			/* the display shows stdout, then stderr */
			out = realloc(out, outlen + errlen + 1);
			memcpy(out + outlen, err, errlen + 1);
			CHECK_STR(out, outlen + errlen, want);
			free(out);
			free(err);
		}
		free(in);
		free(want);
	}

	TEST("the JSON reader example: valid input, and a failed write") {
		CHECK_EQ(run_pipe(json_example_main, "1 2\n\"a\\u00e9\"", &out,
		    &outlen, &err, &errlen), 0);
		CHECK_STR(out, outlen, "1\n2\n\"a\\u00e9\"\n");
		CHECK_STR(err, errlen, "");
		free(out);
		free(err);
		CHECK_EQ(run_pipe(json_example_main, "{}", &out, &outlen, &err,
		    &errlen), 0);
		CHECK_STR(out, outlen, "{}\n");
		free(out);
		free(err);
		CHECK_FULL(json_example_main, "[1]", "compact");
	}

	TEST("the CSV reader example prints what jenc(3) shows") {
		in = man_block(M_CSV_IN);
		want = man_block(M_CSV_OUT);
		CHECK(in != NULL && want != NULL);
		if (in != NULL && want != NULL) {
			CHECK_EQ(run_pipe(csv_example_main, in, &out, &outlen,
			    &err, &errlen), 0);
			CHECK_STR(out, outlen, want);
			CHECK_STR(err, errlen, "");
			free(out);
			free(err);
		}
		free(in);
		free(want);
	}

	TEST("the CSV reader example reports a bad record by its line") {
		CHECK_EQ(run_pipe(csv_example_main, "a,b\n1,2\n3,4,5\n", &out,
		    &outlen, &err, &errlen), 1);
		CHECK_STR(out, outlen, "[\n  {\n    \"a\": 1,\n    \"b\": 2\n"
		    "  }\n]\n");
		CHECK_STR(err, errlen,
		    "csv2json: line 3: record has 3 fields, header has 2\n");
		free(out);
		free(err);
		CHECK_FULL(csv_example_main, "a\n1\n", "csv2json");
	}

	TEST("man/jenc.3 shows the same programs") {
		CHECK_SAME_PROGRAM("example", M_ENC);
		CHECK_SAME_PROGRAM("json example", M_JSON);
		CHECK_SAME_PROGRAM("csv example", M_CSV);
	}
	return harness_done();
}
