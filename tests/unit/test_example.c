/*
 * test_example.c - the example program of lib/jenc.h and jenc(3), run with
 * its standard output on a pipe, then on /dev/full.
 *
 * The program between the markers is the one in the EXAMPLES section of
 * man/jenc.3, character for character (the last test checks that); its
 * main is renamed here so that the test can call it.
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

#include "jenc.h"

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
 * run_example - example_main() with its stdout on out and its stderr on a
 * pipe; returns its exit status and what it wrote to stderr.
 */
static int
run_example(int out, char **err, size_t *errlen)
{
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	int ep[2], rc;

	if (saved_out < 0 || saved_err < 0 || pipe(ep) != 0)
		abort();
	fflush(stdout);
	fflush(stderr);
	dup2(out, STDOUT_FILENO);
	dup2(ep[1], STDERR_FILENO);
	close(ep[1]);
	rc = example_main();
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	*err = read_fd(ep[0], errlen);
	close(ep[0]);
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

int
main(void)
{
	char *out, *err;
	size_t outlen, errlen;
	int p[2], fd;

	TEST("the example writes its object to a pipe") {
		CHECK_EQ(pipe(p), 0);
		/* the output is far smaller than a pipe's buffer */
		CHECK_EQ(run_example(p[1], &err, &errlen), 0);
		close(p[1]);
		out = read_fd(p[0], &outlen);
		close(p[0]);
		CHECK_STR(out, outlen,
		    "{\n"
		    "  \"name\": \"jenc\",\n"
		    "  \"stars\": 42,\n"
		    "  \"tags\": [\n"
		    "    \"json\"\n"
		    "  ]\n"
		    "}\n");
		CHECK_STR(err, errlen, "");
		free(out);
		free(err);
	}

	TEST("the example reports a failed write once, at the end") {
		fd = open("/dev/full", O_WRONLY);
		CHECK(fd >= 0);
		CHECK_EQ(run_example(fd, &err, &errlen), 1);
		close(fd);
		{
			char want[256];

			snprintf(want, sizeof want, "example: %s\n",
			    jenc_strerror(JENC_E_IO));
			CHECK_STR(err, errlen, want);
		}
		free(err);
	}

	TEST("man/jenc.3 shows the same program") {
		char *src = file_text(__FILE__), *man = file_text("man/jenc.3");
		char *a = NULL, *b = NULL, *m, *q;

		CHECK(src != NULL);
		CHECK(man != NULL);
		if (src != NULL) {
			a = strstr(src, "/* example begin */\n");
			b = strstr(src, "/* example end */");
		}
		CHECK(a != NULL && b != NULL && a < b);
		if (man != NULL && a != NULL && b != NULL) {
			a += strlen("/* example begin */\n");
			*b = '\0';
			/* the first literal display of EXAMPLES, \e as \ */
			m = strstr(man, "\n.Sh EXAMPLES\n");
			m = m ? strstr(m, "\n.Bd -literal") : NULL;
			m = m ? strchr(m + 1, '\n') : NULL;
			q = m ? strstr(m, "\n.Ed\n") : NULL;
			CHECK(m != NULL && q != NULL);
			if (m != NULL && q != NULL) {
				char *d = m + 1, *s;

				q[1] = '\0';
				for (s = m + 1; *s != '\0'; s++) {
					*d++ = *s;
					if (s[0] == '\\' && s[1] == 'e')
						s++;
				}
				*d = '\0';
				CHECK_STR(a, strlen(a), m + 1);
			}
		}
		free(src);
		free(man);
	}
	return harness_done();
}
