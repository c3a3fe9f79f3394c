/*
 * test_onerror.c - the JSON reader's error policies (JENC_READ_SKIP,
 * JENC_READ_PASS) and RFC 7464 text sequences (JENC_READ_SEQ): what is
 * written, what on_error is told, from memory and from a pipe fed in
 * small pieces, compact and indented.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jenc.h"
#include "harness.h"

/* What on_error was told. */
struct seen {
	int n;
	int code[16];
	unsigned long line[16], col[16], lines[16];
	int passed[16];
	char msg[16][192];
};

static void
on_err(void *ctx, const jenc_err *err)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		s->code[s->n] = err->code;
		s->line[s->n] = (unsigned long)err->line;
		s->col[s->n] = (unsigned long)err->col;
		s->lines[s->n] = (unsigned long)err->lines;
		s->passed[s->n] = err->passed;
		memcpy(s->msg[s->n], err->msg, sizeof(err->msg));
	}
	s->n++;
}

struct sinkbuf {
	char *p;
	size_t len;
};

static int
sink(void *ctx, const char *p, size_t n)
{
	struct sinkbuf *b = ctx;
	char *np = realloc(b->p, b->len + n + 1);

	if (np == NULL)
		return 1;
	memcpy(np + b->len, p, n);
	b->p = np;
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

struct run {
	int rc;
	jenc_err err;
	struct seen seen;
	struct sinkbuf out;
};

/*
 * Read in[0..n) with flags through a sink encoder (indent, hold_max 0:
 * the default); piece > 0: from a pipe written piece bytes at a time.
 */
static unsigned run_max_depth;	/* run's --max-depth (0: the default) */

static void
run(struct run *r, const char *in, size_t n, unsigned flags, unsigned indent,
    size_t hold_max, size_t piece)
{
	jenc_opts eo = { indent, JENC_HOLD, hold_max };
	jenc_read_opts ro = { 0 };
	jenc_enc *e;

	memset(r, 0, sizeof(*r));
	ro.flags = flags;
	ro.max_depth = run_max_depth;
	ro.on_error = on_err;
	ro.ctx = &r->seen;
	e = jenc_get_sink(sink, &r->out, &eo);
	if (piece == 0) {
		r->rc = jenc_json_copy_mem(in, n, e, &ro, &r->err);
	} else {
		int fds[2];
		pid_t pid;

		if (pipe(fds) != 0 || (pid = fork()) < 0) {
			perror("pipe/fork");
			exit(2);
		}
		if (pid == 0) {
			size_t at;

			close(fds[0]);
			for (at = 0; at < n; at += piece)
				if (write(fds[1], in + at, n - at < piece ?
				    n - at : piece) < 0)
					_exit(1);
			_exit(0);
		}
		close(fds[1]);
		r->rc = jenc_json_copy_fd(fds[0], e, &ro, &r->err);
		close(fds[0]);
		waitpid(pid, NULL, 0);
	}
	(void)jenc_release(e);
	if (r->out.p == NULL)
		r->out.p = calloc(1, 1);
}

static void
done(struct run *r)
{
	free(r->out.p);
}

#define S(lit) lit, sizeof(lit) - 1

static const char mixed[] =
    "{\"a\": 1}\r\n"
    "Exception in thread \"main\" boom\n"
    "\tat A.b(A.java:1)\r\n"
    "{\n  \"x\": [1,\n  2,,\n  3],\n  \"y\": 0\n}\n"
    "{\"t\"\n"
    "[true]\n";
static const char mixed_pass[] =
    "{\"a\":1}\n"
    "Exception in thread \"main\" boom\n"
    "\tat A.b(A.java:1)\r\n"
    "{\n  \"x\": [1,\n  2,,\n  3],\n  \"y\": 0\n}\n"
    "{\"t\"\n"
    "[true]\n";

int
main(void)
{
	struct run r;
	static const size_t pieces[] = { 0, 1, 3, 64 };
	size_t k;

	TEST("jenc_json_copy_mem JENC_READ_SKIP: bad lines dropped, told") {
		run(&r, S("1\nx\n2\n"), JENC_READ_SKIP, 0, 0, 0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len, "1\n2\n");
		CHECK_EQ(r.seen.n, 1);
		CHECK_EQ(r.seen.code[0], JENC_E_SYNTAX);
		CHECK_EQ(r.seen.line[0], 2);
		CHECK_EQ(r.seen.col[0], 1);
		CHECK_EQ(r.seen.lines[0], 1);
		CHECK_EQ(r.seen.passed[0], 0);
		/* *err: the first bad value */
		CHECK_EQ(r.err.code, JENC_E_SYNTAX);
		CHECK_EQ(r.err.line, 2);
		done(&r);
	}

	TEST("jenc_json_copy_mem without a policy still stops") {
		run(&r, S("1\nx\n2\n"), 0, 0, 0, 0);
		CHECK_EQ(r.rc, JENC_E_SYNTAX);
		CHECK_STR(r.out.p, r.out.len, "1\n");
		CHECK_EQ(r.seen.n, 0);
		done(&r);
	}

	for (k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
		TEST("JENC_READ_PASS on a mixed log, memory and pipe pieces") {
			run(&r, mixed, sizeof(mixed) - 1, JENC_READ_PASS, 0, 0,
			    pieces[k]);
			CHECK_EQ(r.rc, 0);
			CHECK_STR(r.out.p, r.out.len, mixed_pass);
			CHECK_EQ(r.seen.n, 4);
			CHECK_EQ(r.seen.lines[0], 1);	/* Exception ... */
			CHECK_EQ(r.seen.lines[1], 1);	/* at A.b ... */
			CHECK_EQ(r.seen.lines[2], 6);	/* the document */
			CHECK_EQ(r.seen.line[2], 6);
			CHECK_EQ(r.seen.col[2], 5);
			/* {"t" then [true]: the error at the '[' that
			 * starts line 11 ends the bad text before it */
			CHECK_EQ(r.seen.lines[3], 1);
			CHECK_EQ(r.seen.line[3], 11);
			CHECK_EQ(r.seen.col[3], 1);
			CHECK(r.seen.passed[0] && r.seen.passed[3]);
			done(&r);
		}
		TEST("JENC_READ_SKIP on a mixed log, memory and pipe pieces") {
			run(&r, mixed, sizeof(mixed) - 1, JENC_READ_SKIP, 0, 0,
			    pieces[k]);
			CHECK_EQ(r.rc, 0);
			CHECK_STR(r.out.p, r.out.len, "{\"a\":1}\n[true]\n");
			CHECK_EQ(r.seen.n, 4);
			CHECK_EQ(r.seen.lines[2], 6);
			CHECK_EQ(r.seen.passed[2], 0);
			done(&r);
		}
	}

	TEST("JENC_READ_PASS, indented output: the same bad text") {
		run(&r, S("[1,\n2]\nnope\r\n{\"a\":[1 2]}\n"), JENC_READ_PASS,
		    2, 0, 0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len,
		    "[\n  1,\n  2\n]\nnope\r\n{\"a\":[1 2]}\n");
		CHECK_EQ(r.seen.n, 2);
		done(&r);
	}

	TEST("JENC_READ_SKIP: a line cut short does not take the next ones") {
		/* ["a", then ["b"] reads as ["a",["b"]: the error shows at
		 * line 3, the bad text is line 1 */
		run(&r, S("[\"a\",\n[\"b\"]\n[\"c\"]\n"), JENC_READ_SKIP, 0, 0,
		    0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len, "[\"b\"]\n[\"c\"]\n");
		CHECK_EQ(r.seen.n, 1);
		CHECK_EQ(r.seen.line[0], 3);
		CHECK_EQ(r.seen.lines[0], 1);
		done(&r);
		run(&r, S("{\"a\":\n{\"b\":1}\n"), JENC_READ_PASS, 0, 0, 3);
		CHECK_STR(r.out.p, r.out.len, "{\"a\":\n{\"b\":1}\n");
		CHECK_EQ(r.seen.n, 1);
		done(&r);
	}

	TEST("JENC_READ_PASS: junk after a value on its line, none lost") {
		run(&r, S("[1] z\n"), JENC_READ_PASS, 0, 0, 0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len, "[1]\n z\n");
		done(&r);
	}

	TEST("JENC_READ_PASS: bad text at the end of input gets a newline") {
		run(&r, S("1\n[2,"), JENC_READ_PASS, 0, 0, 0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len, "1\n[2,\n");
		CHECK_EQ(r.seen.n, 1);
		done(&r);
	}

	TEST("JENC_READ_SKIP | JENC_READ_PASS means PASS") {
		run(&r, S("x\n"), JENC_READ_SKIP | JENC_READ_PASS, 0, 0, 0);
		CHECK_STR(r.out.p, r.out.len, "x\n");
		done(&r);
	}

	TEST("JENC_READ_SKIP: a depth error is bad input too") {
		jenc_read_opts ro = { .flags = JENC_READ_SKIP, .max_depth = 2 };
		jenc_err err;
		jenc_enc *e = jenc_get_mem(NULL);
		size_t n;
		char *p;

		CHECK_EQ(jenc_json_copy_mem(S("[[[1]]]\n2\n"), e, &ro, &err), 0);
		CHECK_EQ(err.code, JENC_E_DEPTH);
		p = jenc_take(e, &n);
		CHECK_STR(p, n, "2\n");
		jenc_free(p, n);
		jenc_release(e);
	}

	TEST("JENC_READ_SKIP with no encoder and no callback: every value") {
		jenc_read_opts ro = { .flags = JENC_READ_PASS };
		jenc_err err;

		CHECK_EQ(jenc_json_copy_mem(S("x\n1\ny\n"), NULL, &ro, &err), 0);
		CHECK_EQ(err.code, JENC_E_SYNTAX);
		CHECK_EQ(err.line, 1);
		CHECK_EQ(jenc_json_copy_mem(S("1\n"), NULL, &ro, &err), 0);
		CHECK_EQ(err.code, 0);
	}

	TEST("a value cut past hold_max: its output ends with a newline") {
		static char big[4096];
		size_t i, n = 0;
		unsigned pol;

		n += (size_t)snprintf(big + n, sizeof(big) - n, "[");
		for (i = 0; i < 300; i++)
			n += (size_t)snprintf(big + n, sizeof(big) - n, "%zu,", i);
		n += (size_t)snprintf(big + n, sizeof(big) - n, "]\n{}\n");
		for (pol = 0; pol < 3; pol++) {
			unsigned f = pol == 0 ? 0 : pol == 1 ? JENC_READ_SKIP :
			    JENC_READ_PASS;

			run(&r, big, n, f, 0, 64, 0);
			CHECK_EQ(r.rc, pol == 0 ? JENC_E_SYNTAX : 0);
			CHECK_EQ(r.err.cut, 1);
			CHECK(strstr(r.err.msg, "(output of this value was "
			    "cut)") != NULL);
			CHECK(r.out.len > 64 && r.out.p[0] == '[');
			if (pol == 0)
				CHECK(r.out.p[r.out.len - 1] == '\n');
			else
				CHECK(r.out.len > 4 && memcmp(r.out.p +
				    r.out.len - 4, "\n{}\n", 4) == 0);
			if (pol == 2) {
				CHECK_EQ(r.seen.passed[0], 0);
				CHECK(strstr(r.seen.msg[0],
				    "(not passed through)") != NULL);
			}
			done(&r);
		}
	}

	TEST("JENC_READ_SEQ: RS separates texts") {
		run(&r, S("\x1e{\"a\":1}\n\x1e[1]\n\x1e\x1e\"s\"\x1e 2 "),
		    JENC_READ_SEQ, 0, 0, 0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len, "{\"a\":1}\n[1]\n\"s\"\n2\n");
		done(&r);
	}

	TEST("JENC_READ_SEQ: a truncated text, then the next one") {
		run(&r, S("\x1e{\"a\":[1,\n\x1e" "2\n"), JENC_READ_SEQ, 0, 0, 0);
		CHECK_EQ(r.rc, JENC_E_SYNTAX);
		CHECK_STR(r.err.msg, strlen(r.err.msg),
		    "truncated JSON text before RS");
		CHECK_EQ(r.err.line, 2);
		CHECK_EQ(r.err.col, 1);
		done(&r);
		run(&r, S("\x1e{\"a\":[1,\n\x1e" "2\n"),
		    JENC_READ_SEQ | JENC_READ_SKIP, 0, 0, 0);
		CHECK_EQ(r.rc, 0);
		CHECK_STR(r.out.p, r.out.len, "2\n");
		CHECK_EQ(r.seen.n, 1);
		CHECK_EQ(r.seen.lines[0], 1);
		done(&r);
	}

	TEST("JENC_READ_SKIP: values inside one too deep, past hold_max") {
		/*
		 * Line 2's value starts inside line 1's, which is too deep
		 * at line 3's first '[' (jenc_json_deep could take it up
		 * there): its output passes hold_max (64) before its own
		 * depth error, so it is cut as read from its start, however
		 * the input arrives; line 3's value ends (line 4), and is
		 * written.
		 */
		static char in[512];
		size_t i, n = 0;
		char want[512];
		size_t wn = 0;

		n += (size_t)snprintf(in + n, sizeof(in) - n, "[\n[\n[");
		for (i = 0; i < 12; i++)
			n += (size_t)snprintf(in + n, sizeof(in) - n, "%zu,",
			    1000000 + i);
		n += (size_t)snprintf(in + n, sizeof(in) - n,
		    "[\n]]]\n[2]\n");
		wn += (size_t)snprintf(want + wn, sizeof(want) - wn, "[[");
		for (i = 0; i < 12; i++)
			wn += (size_t)snprintf(want + wn, sizeof(want) - wn,
			    "%zu,", 1000000 + i);
		wn--;	/* (the comma goes only with what follows it) */
		wn += (size_t)snprintf(want + wn, sizeof(want) - wn, "\n[");
		for (i = 0; i < 12; i++)
			wn += (size_t)snprintf(want + wn, sizeof(want) - wn,
			    "%zu,", 1000000 + i);
		wn += (size_t)snprintf(want + wn, sizeof(want) - wn,
		    "[]]\n[2]\n");
		for (k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
			run_max_depth = 2;
			run(&r, in, n, JENC_READ_SKIP, 0, 64, pieces[k]);
			run_max_depth = 0;
			CHECK_EQ(r.rc, 0);
			CHECK_STR(r.out.p, r.out.len, want);
			CHECK_EQ(r.seen.n, 3);
			CHECK_EQ(r.seen.code[0], JENC_E_DEPTH);
			CHECK_EQ(r.seen.line[0], 3);
			CHECK_EQ(r.seen.col[0], 1);
			CHECK_EQ(r.seen.code[1], JENC_E_DEPTH);
			CHECK_EQ(r.seen.line[1], 3);
			CHECK_EQ(r.seen.col[1], 98);
			CHECK(strstr(r.seen.msg[1], "(output of this value was "
			    "cut)") != NULL);
			CHECK_EQ(r.seen.code[2], JENC_E_SYNTAX);
			CHECK_EQ(r.seen.line[2], 4);
			CHECK_EQ(r.seen.col[2], 3);
			done(&r);
		}
	}

	TEST("JENC_READ_SEQ: a top-level number or literal needs whitespace") {
		jenc_read_opts ro = { .flags = JENC_READ_SEQ };
		jenc_err err;

		CHECK_EQ(jenc_json_copy_mem(S("\x1e" "1\x1e"), NULL, &ro, &err),
		    JENC_E_SYNTAX);
		CHECK_EQ(err.col, 2);
		CHECK_EQ(jenc_json_copy_mem(S("\x1etrue"), NULL, &ro, &err),
		    JENC_E_SYNTAX);
		CHECK(strstr(err.msg, "before end of input") != NULL);
		CHECK_EQ(jenc_json_copy_mem(S("\x1etrue\n\x1e" "1 "), NULL, &ro,
		    &err), 0);
		CHECK_EQ(jenc_json_copy_mem(S("\x1e\"s\"\x1e[]\x1e{}"), NULL,
		    &ro, &err), 0);
		/* inside a string too an RS cuts the text */
		CHECK_EQ(jenc_json_copy_mem(S("\x1e\"a\x1e\""), NULL, &ro,
		    &err), JENC_E_SYNTAX);
		CHECK(strcmp(err.msg, "truncated JSON text before RS") == 0);
		CHECK_EQ(err.col, 4);
		/* without the flag RS is no separator */
		ro.flags = 0;
		CHECK_EQ(jenc_json_copy_mem(S("\x1e[]"), NULL, &ro, &err),
		    JENC_E_SYNTAX);
	}

	for (k = 0; k < sizeof(pieces) / sizeof(pieces[0]); k++) {
		TEST("JENC_READ_SKIP: a bad string's text ends with its value") {
			/* the error inside each string: its closing quote and
			 * the brackets after it end the bad text on its line */
			static const char in[] =
			    "[1,\"\\q\"]\n2\n"
			    "{\"a\":\"\xff]\"}\n3\n"
			    "[\"\\u12g4\", {\"b\": \"}\"}]\n4\n"
			    "{\"c\": \"\x01[\"}\n5\n";

			run(&r, in, sizeof(in) - 1, JENC_READ_SKIP, 0, 0,
			    pieces[k]);
			CHECK_EQ(r.rc, 0);
			CHECK_STR(r.out.p, r.out.len, "2\n3\n4\n5\n");
			CHECK_EQ(r.seen.n, 4);
			CHECK_EQ(r.seen.lines[0], 1);
			CHECK_EQ(r.seen.lines[1], 1);
			CHECK_EQ(r.seen.lines[2], 1);
			CHECK_EQ(r.seen.lines[3], 1);
			CHECK_EQ(r.seen.line[3], 7);
			done(&r);
		}
		TEST("JENC_READ_SEQ|PASS: a bad string cut by RS, then on") {
			run(&r, S("\x1e\"a\\qb\x1e{\"b\": 1}\n\x1e" "2\n"),
			    JENC_READ_SEQ | JENC_READ_PASS, 0, 0, pieces[k]);
			CHECK_EQ(r.rc, 0);
			CHECK_STR(r.out.p, r.out.len, "\"a\\qb\n{\"b\":1}\n2\n");
			CHECK_EQ(r.seen.n, 1);
			CHECK_STR(r.seen.msg[0], strlen(r.seen.msg[0]),
			    "invalid escape '\\q' in string");
			done(&r);
		}
		TEST("JENC_READ_SKIP: bad lines one after another, then good") {
			/* (after each, jsmn reads pieces that double) */
			static char in[3000 * 8 + 5000 * 4];
			size_t n = 0, i;

			for (i = 0; i < 3000; i++, n += 8)
				memcpy(in + n, i % 2 ? "[1, 2,]\n" :
				    "{\"a\" 1}\n", 8);
			for (i = 0; i < 5000; i++, n += 4)
				memcpy(in + n, i % 2 ? "[1]\n" : "{ }\n", 4);
			run(&r, in, n, JENC_READ_SKIP, 0, 0, pieces[k]);
			CHECK_EQ(r.rc, 0);
			CHECK_EQ(r.seen.n, 3000);
			CHECK_EQ(r.out.len, 2500 * 3 + 2500 * 4);
			CHECK_STR(r.out.p + r.out.len - 7, 7, "{}\n[1]\n");
			done(&r);
		}
	}

	return harness_done();
}
