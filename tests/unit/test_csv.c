/*
 * test_csv.c - jenc_csv_copy_mem / jenc_csv_copy_fd: exact output bytes for
 * each CSV and TSV edge case, and code, line, column and message of each
 * error.  Every case is also read through a packet socket in chunks of 1,
 * 2, 3 and 7 bytes, which must give the same output and error as reading
 * it from memory (the parser resumes wherever a read ends).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "jenc.h"

/* The conversion's settings, set by each test before run(). */
static unsigned enc_indent, enc_flags;
static jenc_csv_opts copts;

/* The last conversion's result. */
static char *out;
static size_t outlen;
static jenc_err err;
static int rc;

static void
take(jenc_enc *e)
{
	free(out);
	out = jenc_take(e, &outlen);
	if (out == NULL && outlen == 0)
		out = calloc(1, 1);
	jenc_release(e);
}

/* Converts in[0..n) from memory. */
static int
runn(const char *in, size_t n)
{
	jenc_opts o = { .indent = enc_indent, .flags = enc_flags };
	jenc_enc *e = jenc_get_mem(&o);

	rc = jenc_csv_copy_mem(in, n, e, &copts, &err);
	take(e);
	return rc;
}

static int
run(const char *in)
{
	return runn(in, strlen(in));
}

/* Converts in[0..n) read from a SOCK_SEQPACKET socket that a child fills
 * with packets of chunk bytes, so each read() returns exactly one chunk. */
static int
run_chunked(const char *in, size_t n, size_t chunk)
{
	jenc_opts o = { .indent = enc_indent, .flags = enc_flags };
	jenc_enc *e;
	int sv[2], st;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
		return -100;
	pid = fork();
	if (pid < 0)
		return -101;
	if (pid == 0) {
		size_t i;

		close(sv[0]);
		for (i = 0; i < n; i += chunk) {
			size_t k = n - i < chunk ? n - i : chunk;

			if (write(sv[1], in + i, k) != (ssize_t)k)
				_exit(1);
		}
		_exit(0);
	}
	close(sv[1]);
	e = jenc_get_mem(&o);
	rc = jenc_csv_copy_fd(sv[0], e, &copts, &err);
	take(e);
	close(sv[0]);
	waitpid(pid, &st, 0);
	return rc;
}

/*
 * Checks that reading in[0..n) in chunks gives what reading it from memory
 * gives (output bytes, code, line, column, message).
 */
static void
check_chunks(const char *in, size_t n)
{
	static const size_t chunks[] = { 1, 2, 3, 7 };
	char *want;
	size_t wantlen, k;
	jenc_err werr;
	int wrc;

	runn(in, n);
	want = out;
	wantlen = outlen;
	out = NULL;
	wrc = rc;
	werr = err;
	for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
		run_chunked(in, n, chunks[k]);
		if (outlen != wantlen || memcmp(out, want, wantlen) != 0 ||
		    rc != wrc || err.line != werr.line || err.col != werr.col ||
		    strcmp(err.msg, werr.msg) != 0 ||
		    strcmp(err.excerpt, werr.excerpt) != 0) {
			fprintf(stderr, "in chunks of %zu: [%.*s] rc %d %llu:%llu "
			    "%s; from memory: [%.*s] rc %d %llu:%llu %s\n",
			    chunks[k], (int)outlen, out, rc,
			    (unsigned long long)err.line,
			    (unsigned long long)err.col, err.msg,
			    (int)wantlen, want, wrc,
			    (unsigned long long)werr.line,
			    (unsigned long long)werr.col, werr.msg);
			CHECK(0);	/* the difference is printed above */
		} else {
			CHECK(1);
		}
	}
	free(want);
}

/* CHECK_OUT(input, expected): converts from memory and checks the bytes
 * and success, then the same in chunks. */
#define CHECK_OUT(in, want) do { \
	CHECK_EQ(runn((in), sizeof(in) - 1), 0); \
	CHECK_STR(out, outlen, want); \
	check_chunks((in), sizeof(in) - 1); \
} while (0)

/* CHECK_ERR(input, output before the error, line, col, msg) */
#define CHECK_ERR(in, want, ln, cl, m) do { \
	CHECK_EQ(runn((in), sizeof(in) - 1), JENC_E_SYNTAX); \
	CHECK_EQ(err.code, JENC_E_SYNTAX); \
	CHECK_STR(out, outlen, want); \
	CHECK_EQ(err.line, (ln)); \
	CHECK_EQ(err.col, (cl)); \
	CHECK_STR(err.msg, strlen(err.msg), m); \
	check_chunks((in), sizeof(in) - 1); \
} while (0)

static void
reset(void)
{
	enc_indent = 0;
	enc_flags = 0;
	memset(&copts, 0, sizeof copts);
}

static void
test_basic(void)
{
	reset();
	TEST("jenc_csv_copy_mem: header row keys each record") {
		CHECK_OUT("a,b\n1,2\n3,4\n",
		    "[{\"a\":\"1\",\"b\":\"2\"},{\"a\":\"3\",\"b\":\"4\"}]\n");
	}
	TEST("jenc_csv_copy_mem: empty input is an empty array") {
		CHECK_OUT("", "[]\n");
		CHECK_OUT("\n\r\n\n", "[]\n");
		CHECK_OUT("\xef\xbb\xbf", "[]\n");
	}
	TEST("jenc_csv_copy_mem: a header and no records") {
		CHECK_OUT("a,b\n", "[]\n");
		CHECK_OUT("a,b", "[]\n");
	}
	TEST("jenc_csv_copy_mem: LF, CRLF and lone CR end records") {
		CHECK_OUT("a\r\n1\r2\n3\r\n", "[{\"a\":\"1\"},{\"a\":\"2\"},"
		    "{\"a\":\"3\"}]\n");
	}
	TEST("jenc_csv_copy_mem: the last record needs no line end") {
		CHECK_OUT("a,b\n1,2", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("a,b\n1,\"2\"", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("a,b\n1,", "[{\"a\":\"1\",\"b\":\"\"}]\n");
	}
	TEST("jenc_csv_copy_mem: blank lines are skipped") {
		CHECK_OUT("\n\na\n\n\r\n\r1\n\n\n2\r\n\r\n",
		    "[{\"a\":\"1\"},{\"a\":\"2\"}]\n");
	}
	TEST("jenc_csv_copy_mem: a byte order mark at the start is skipped") {
		CHECK_OUT("\xef\xbb\xbf" "a\n1\n", "[{\"a\":\"1\"}]\n");
		/* only at the start: later it is data */
		CHECK_OUT("a\n\xef\xbb\xbf" "1\n",
		    "[{\"a\":\"\xef\xbb\xbf" "1\"}]\n");
	}
	TEST("jenc_csv_copy_mem: the encoder's indent applies") {
		enc_indent = 2;
		CHECK_OUT("a,b\n1,2\n",
		    "[\n  {\n    \"a\": \"1\",\n    \"b\": \"2\"\n  }\n]\n");
		CHECK_OUT("a\n", "[]\n");
		reset();
	}
}

static void
test_quotes(void)
{
	reset();
	copts.flags = JENC_CSV_NO_HEADER;
	TEST("jenc_csv_copy_mem: quoted fields keep delimiters and quotes") {
		CHECK_OUT("\"a,b\",\"say \"\"hi\"\"\",\"\"\"\"\n",
		    "[[\"a,b\",\"say \\\"hi\\\"\",\"\\\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: line breaks inside quotes are kept byte for byte") {
		CHECK_OUT("\"1\n2\",\"3\r\n4\",\"5\r6\"\nx\n",
		    "[[\"1\\n2\",\"3\\r\\n4\",\"5\\r6\"],[\"x\"]]\n");
	}
	TEST("jenc_csv_copy_mem: empty fields, quoted or not") {
		CHECK_OUT("\"\"\n,\n\"\",\"\"\n",
		    "[[\"\"],[\"\",\"\"],[\"\",\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: a quote inside an unquoted field is literal") {
		CHECK_OUT("a\"b,c\"\" ,\"d\"\n",
		    "[[\"a\\\"b\",\"c\\\"\\\" \",\"d\"]]\n");
		CHECK_OUT(" \"a\",b\n", "[[\" \\\"a\\\"\",\"b\"]]\n");
	}
	TEST("jenc_csv_copy_mem: text after a closing quote is appended") {
		CHECK_OUT("\"ab\"cd,\"x\"y\"z\",\"p\"\"q\"r\n",
		    "[[\"abcd\",\"xy\\\"z\\\"\",\"p\\\"qr\"]]\n");
		CHECK_OUT("\"a\" \n", "[[\"a \"]]\n");
	}
	TEST("jenc_csv_copy_mem: records of any number of fields without a header") {
		CHECK_OUT("1\n1,2,3\n,\n", "[[\"1\"],[\"1\",\"2\",\"3\"],[\"\",\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: bytes JSON must escape") {
		CHECK_OUT("a\tb,\x01,\\,\x7f\n",
		    "[[\"a\\tb\",\"\\u0001\",\"\\\\\",\"\x7f\"]]\n");
	}
	TEST("jenc_csv_copy_mem: UTF-8 is copied") {
		CHECK_OUT("\xc3\xa9,\xe2\x82\xac,\xf0\x9f\x98\x80,\"\xc3\xa9\"\"\"\n",
		    "[[\"\xc3\xa9\",\"\xe2\x82\xac\",\"\xf0\x9f\x98\x80\","
		    "\"\xc3\xa9\\\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: -H and -a escapes reach every field") {
		enc_flags = JENC_HTML | JENC_ASCII | JENC_LOWER_HEX;
		CHECK_OUT("<a&b>,\xc3\xa9,\"\xe2\x80\xa8\"\n",
		    "[[\"\\u003ca\\u0026b\\u003e\",\"\\u00e9\",\"\\u2028\"]]\n");
		enc_flags = 0;
	}
	TEST("jenc_csv_copy_mem: another delimiter") {
		copts.delim = ';';
		CHECK_OUT("a;\"b;c\";d,e\n", "[[\"a\",\"b;c\",\"d,e\"]]\n");
		/* a comma after the closing quote is text, not a delimiter */
		CHECK_OUT("\"a\",b\n", "[[\"a,b\"]]\n");
		copts.delim = '\t';
		CHECK_OUT("a\t\"b\tc\"\t,\n", "[[\"a\",\"b\\tc\",\",\"]]\n");
		copts.delim = 0;
	}
	TEST("jenc_csv_copy_mem: one record per line with JENC_CSV_LINES") {
		copts.flags = JENC_CSV_NO_HEADER | JENC_CSV_LINES;
		CHECK_OUT("a,b\n\"c\nd\"\n", "[\"a\",\"b\"]\n[\"c\\nd\"]\n");
		CHECK_OUT("", "");
		copts.flags = JENC_CSV_LINES;
		CHECK_OUT("a,b\n1,2\n3,4", "{\"a\":\"1\",\"b\":\"2\"}\n"
		    "{\"a\":\"3\",\"b\":\"4\"}\n");
		CHECK_OUT("a,b\n", "");
	}
}

static void
test_types(void)
{
	reset();
	copts.flags = JENC_CSV_NO_HEADER | JENC_CSV_TYPES;
	TEST("jenc_csv_copy_mem: JSON numbers are written verbatim") {
		CHECK_OUT("0,-0,42,-1.5,6.02e23,1E+2,1e-400,123456789012345678901234567890\n",
		    "[[0,-0,42,-1.5,6.02e23,1E+2,1e-400,"
		    "123456789012345678901234567890]]\n");
	}
	TEST("jenc_csv_copy_mem: what is not a JSON number stays a string") {
		CHECK_OUT("007,+1,.5,1.,0x10,NaN,-,1e, 1,1 ,Infinity,-.5\n",
		    "[[\"007\",\"+1\",\".5\",\"1.\",\"0x10\",\"NaN\",\"-\",\"1e\","
		    "\" 1\",\"1 \",\"Infinity\",\"-.5\"]]\n");
	}
	TEST("jenc_csv_copy_mem: true, false, and empty as null") {
		CHECK_OUT("true,false,,True,FALSE,null,\"\"\n",
		    "[[true,false,null,\"True\",\"FALSE\",\"null\",null]]\n");
	}
	TEST("jenc_csv_copy_mem: quoting does not change the inferred type") {
		CHECK_OUT("\"1\",\"true\",\"a\"\"\"\n", "[[1,true,\"a\\\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: types in objects") {
		copts.flags = JENC_CSV_TYPES;
		CHECK_OUT("n,b,s,e\n1.5,true,x,\n",
		    "[{\"n\":1.5,\"b\":true,\"s\":\"x\",\"e\":null}]\n");
	}
	TEST("jenc_csv_copy_mem: without JENC_CSV_TYPES every field is a string") {
		copts.flags = 0;
		CHECK_OUT("n,b,e\n1.5,true,\n",
		    "[{\"n\":\"1.5\",\"b\":\"true\",\"e\":\"\"}]\n");
	}
}

static void
test_header(void)
{
	static const char *const given[] = { "x", "y", "x", "" };
	static const char *const bad[] = { "ok", "b\xff" };

	reset();
	TEST("jenc_csv_copy_mem: duplicate names get _2, _3 ...") {
		CHECK_OUT("a,a,b,a,a_2\n1,2,3,4,5\n",
		    "[{\"a\":\"1\",\"a_2\":\"2\",\"b\":\"3\",\"a_3\":\"4\","
		    "\"a_2_2\":\"5\"}]\n");
	}
	TEST("jenc_csv_copy_mem: an empty name becomes _N, its column") {
		CHECK_OUT(",x,\"\",_2\n1,2,3,4\n",
		    "[{\"_1\":\"1\",\"x\":\"2\",\"_3\":\"3\",\"_2\":\"4\"}]\n");
		CHECK_OUT("_2,\n1,2\n", "[{\"_2\":\"1\",\"_2_2\":\"2\"}]\n");
	}
	TEST("jenc_csv_copy_mem: names are escaped as keys") {
		CHECK_OUT("\"a\"\"b\",\"c\\d\",\"e\nf\"\n1,2,3\n",
		    "[{\"a\\\"b\":\"1\",\"c\\\\d\":\"2\",\"e\\nf\":\"3\"}]\n");
	}
	TEST("jenc_csv_copy_mem: -H and -a apply to keys") {
		enc_flags = JENC_HTML | JENC_ASCII | JENC_LOWER_HEX;
		CHECK_OUT("<\xc3\xa9>\n1\n", "[{\"\\u003c\\u00e9\\u003e\":\"1\"}]\n");
		enc_flags = 0;
	}
	TEST("jenc_csv_copy_mem: names given by the caller; the first row is data") {
		copts.header = given;
		copts.nheader = 4;
		CHECK_OUT("1,2,3,4\n5,6,7,8\n",
		    "[{\"x\":\"1\",\"y\":\"2\",\"x_2\":\"3\",\"_4\":\"4\"},"
		    "{\"x\":\"5\",\"y\":\"6\",\"x_2\":\"7\",\"_4\":\"8\"}]\n");
		CHECK_ERR("1,2,3\n", "[]\n", 1, 0,
		    "record has 3 fields, header has 4");
	}
	TEST("jenc_csv_copy_mem: a given name that is not UTF-8") {
		copts.header = bad;
		copts.nheader = 2;
		CHECK_EQ(run("1,2\n"), JENC_E_UTF8);
		CHECK_EQ(err.code, JENC_E_UTF8);
		CHECK_EQ(outlen, 0);
		CHECK_STR(err.msg, strlen(err.msg),
		    "invalid UTF-8 byte 0xff in header name 2");
	}
	TEST("jenc_csv_copy_mem: JENC_CSV_NO_HEADER wins over given names") {
		copts.header = given;
		copts.nheader = 4;
		copts.flags = JENC_CSV_NO_HEADER;
		CHECK_OUT("1,2\n", "[[\"1\",\"2\"]]\n");
	}
}

static void
test_ragged(void)
{
	reset();
	TEST("jenc_csv_copy_mem: a record with too many fields") {
		/* line 4: the blank line 3 counts, the record starts on 4 */
		CHECK_ERR("a,b\n1,2\n\n1,2,3\n4,5\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n",
		    4, 0, "record has 3 fields, header has 2");
		CHECK_EQ(err.offset, 9);
		CHECK_STR(err.excerpt, strlen(err.excerpt), "");
	}
	TEST("jenc_csv_copy_mem: a record with too few fields") {
		CHECK_ERR("a,b\n1\n", "[]\n", 2, 0,
		    "record has 1 field, header has 2");
	}
	TEST("jenc_csv_copy_mem: the line is where the record starts") {
		CHECK_ERR("a,b\n\"x\ny\",2\n\"p\nq\"\n", "[{\"a\":\"x\\ny\",\"b\":\"2\"}]\n",
		    4, 0, "record has 1 field, header has 2");
		CHECK_ERR("a,b\r1,2\r\r\n3\r", "[{\"a\":\"1\",\"b\":\"2\"}]\n",
		    4, 0, "record has 1 field, header has 2");
	}
	TEST("jenc_csv_copy_mem: JENC_CSV_LINES writes the records before it") {
		copts.flags = JENC_CSV_LINES;
		CHECK_ERR("a,b\n1,2\n3\n", "{\"a\":\"1\",\"b\":\"2\"}\n", 3, 0,
		    "record has 1 field, header has 2");
		copts.flags = 0;
	}
	TEST("jenc_csv_copy_mem: padding with JENC_CSV_RAGGED_PAD") {
		copts.flags = JENC_CSV_RAGGED_PAD;
		CHECK_OUT("a,b,c\n1\n1,2,3,4,5\n1,2,3\n",
		    "[{\"a\":\"1\",\"b\":null,\"c\":null},"
		    "{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\",\"_4\":\"4\",\"_5\":\"5\"},"
		    "{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\"}]\n");
		/* an extra key never repeats a header name */
		CHECK_OUT("_2\n1,2\n", "[{\"_2\":\"1\",\"_2_2\":\"2\"}]\n");
		copts.flags = JENC_CSV_RAGGED_PAD | JENC_CSV_TYPES;
		CHECK_OUT("a,b\n,\n1\n", "[{\"a\":null,\"b\":null},"
		    "{\"a\":1,\"b\":null}]\n");
	}
}

static void
test_errors(void)
{
	reset();
	TEST("jenc_csv_copy_mem: invalid UTF-8") {
		/* a\n1,x\xff\n
		 *      ^ line 2, column 4 */
		CHECK_ERR("a,b\n1,x\xff\n", "[]\n", 2, 4, "invalid UTF-8 byte 0xff");
		CHECK_STR(err.excerpt, strlen(err.excerpt), "1,x?");
		CHECK_EQ(err.caret, 3);
		CHECK_EQ(err.offset, 7);
		/* an overlong form, a surrogate, a stray continuation, a
		 * truncated sequence at the end */
		CHECK_ERR("a\n\xc0\xaf\n", "[]\n", 2, 1, "invalid UTF-8 byte 0xc0");
		CHECK_ERR("a\n\xed\xa0\x80\n", "[]\n", 2, 1, "invalid UTF-8 byte 0xed");
		CHECK_ERR("a\n1\n\x80\n", "[{\"a\":\"1\"}]\n", 3, 1,
		    "invalid UTF-8 byte 0x80");
		CHECK_ERR("a\n1\n\xe2\x82", "[{\"a\":\"1\"}]\n", 3, 1,
		    "invalid UTF-8 byte 0xe2");
		CHECK_ERR("a\n\xc3(\n", "[]\n", 2, 1, "invalid UTF-8 byte 0xc3");
	}
	TEST("jenc_csv_copy_mem: invalid UTF-8 inside quotes, lines counted") {
		/* "x\r\ny\xfe": the quoted line break makes it line 3 */
		CHECK_ERR("a\n\"x\r\ny\xfe\"\n", "[]\n", 3, 2,
		    "invalid UTF-8 byte 0xfe");
		CHECK_EQ(err.caret, 1);
		CHECK_ERR("a\n\"x\ry\xfe\"\n", "[]\n", 3, 2,
		    "invalid UTF-8 byte 0xfe");
	}
	TEST("jenc_csv_copy_mem: invalid UTF-8 in the header row") {
		CHECK_ERR("a,\xff\n1,2\n", "[]\n", 1, 3, "invalid UTF-8 byte 0xff");
	}
	TEST("jenc_csv_copy_mem: a NUL byte") {
		CHECK_ERR("a\n1\nx\0y\n", "[{\"a\":\"1\"}]\n", 3, 2,
		    "NUL byte in input");
		CHECK_STR(err.excerpt, strlen(err.excerpt), "x?y");
		CHECK_ERR("a\n\"x\0\"\n", "[]\n", 2, 3, "NUL byte in input");
	}
	TEST("jenc_csv_copy_mem: an unterminated quoted field") {
		/* a,b\n1,"abc\nd\n: the quote opened at 2:3 */
		CHECK_ERR("a,b\n1,\"abc\nd\n", "[]\n", 2, 3,
		    "unterminated quoted field, opened here");
		CHECK_STR(err.excerpt, strlen(err.excerpt), "1,\"abc");
		CHECK_EQ(err.caret, 2);
		CHECK_EQ(err.offset, 6);
		CHECK_ERR("a\n1\n\"", "[{\"a\":\"1\"}]\n", 3, 1,
		    "unterminated quoted field, opened here");
		/* a doubled quote at the end does not close it */
		CHECK_ERR("a\n\"x\"\"", "[]\n", 2, 1,
		    "unterminated quoted field, opened here");
	}
	TEST("jenc_csv_copy_mem: line 1's columns start after a byte order mark") {
		CHECK_ERR("\xef\xbb\xbf" "a\xff\n", "[]\n", 1, 2,
		    "invalid UTF-8 byte 0xff");
		CHECK_EQ(err.offset, 4);
		CHECK_STR(err.excerpt, strlen(err.excerpt), "a?");
		CHECK_EQ(err.caret, 1);
		CHECK_ERR("\xef\xbb\xbf" "a\nb\xff\n", "[]\n", 2, 2,
		    "invalid UTF-8 byte 0xff");
	}
	TEST("jenc_csv_copy_mem: a bad delimiter") {
		copts.delim = '"';
		CHECK_EQ(run("a\n"), JENC_E_STATE);
		CHECK_EQ(outlen, 0);
		copts.delim = '\n';
		CHECK_EQ(run("a\n"), JENC_E_STATE);
		copts.delim = 0;
	}
	TEST("jenc_csv_copy_fd: a read error") {
		jenc_opts o = { 0 };
		jenc_enc *e = jenc_get_mem(&o);

		CHECK_EQ(jenc_csv_copy_fd(-1, e, &copts, &err), JENC_E_IO);
		CHECK_EQ(err.code, JENC_E_IO);
		CHECK_EQ(err.sys_errno, EBADF);
		CHECK_EQ(err.col, 0);
		take(e);
		/* nothing was read: not even [] */
		CHECK_STR(out, outlen, "");
	}
	TEST("jenc_csv_copy_mem: a NULL encoder only checks") {
		CHECK_EQ(jenc_csv_copy_mem("a\n1\n", 4, NULL, NULL, &err), 0);
		CHECK_EQ(jenc_csv_copy_mem("a\n1,2\n", 6, NULL, NULL, &err),
		    JENC_E_SYNTAX);
		CHECK_EQ(err.line, 2);
		CHECK_EQ(jenc_csv_copy_mem("a\n\"", 3, NULL, NULL, NULL),
		    JENC_E_SYNTAX);
	}
}

static void
test_tsv(void)
{
	reset();
	copts.flags = JENC_CSV_TSV | JENC_CSV_NO_HEADER;
	TEST("jenc_csv_copy_mem: TSV splits on tabs and LF") {
		CHECK_OUT("a\tb\n\tc\t\n", "[[\"a\",\"b\"],[\"\",\"c\",\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: TSV drops a CR before LF only") {
		CHECK_OUT("a\tb\r\nc\rd\n\r\n\re\r\n",
		    "[[\"a\",\"b\"],[\"c\\rd\"],[\"\\re\"]]\n");
	}
	TEST("jenc_csv_copy_mem: TSV has no quoting") {
		CHECK_OUT("\"a\tb\"\t\"\"\n", "[[\"\\\"a\",\"b\\\"\",\"\\\"\\\"\"]]\n");
	}
	TEST("jenc_csv_copy_mem: TSV escapes are decoded") {
		CHECK_OUT("a\\tb\tc\\nd\\re\t\\\\\t\\\\n\n",
		    "[[\"a\\tb\",\"c\\nd\\re\",\"\\\\\",\"\\\\n\"]]\n");
	}
	TEST("jenc_csv_copy_mem: other backslashes stay") {
		CHECK_OUT("\\x\t\\\ta\\\n\\", "[[\"\\\\x\",\"\\\\\",\"a\\\\\"],"
		    "[\"\\\\\"]]\n");
	}
	TEST("jenc_csv_copy_mem: TSV with a header, types, another delimiter") {
		copts.flags = JENC_CSV_TSV | JENC_CSV_TYPES;
		CHECK_OUT("n\ts\tb\n1\tx\\ty\ttrue\n\t\\t\tfalse\n",
		    "[{\"n\":1,\"s\":\"x\\ty\",\"b\":true},"
		    "{\"n\":null,\"s\":\"\\t\",\"b\":false}]\n");
		copts.flags = JENC_CSV_TSV | JENC_CSV_NO_HEADER;
		copts.delim = '|';
		CHECK_OUT("a|b\tc\n", "[[\"a\",\"b\\tc\"]]\n");
		copts.delim = 0;
	}
	TEST("jenc_csv_copy_mem: TSV errors") {
		copts.flags = JENC_CSV_TSV;
		CHECK_ERR("a\tb\n1\t2\n3\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n", 3, 0,
		    "record has 1 field, header has 2");
		CHECK_ERR("a\n\"\\t\xff\n", "[]\n", 2, 4, "invalid UTF-8 byte 0xff");
		CHECK_ERR("a\nb\0\n", "[]\n", 2, 2, "NUL byte in input");
	}
}

/* A record far larger than the read window, through a pipe. */
static void
test_large(void)
{
	size_t n = 700 * 1024, k;
	char *in = malloc(n + 16), *want = malloc(n + 32);
	size_t wlen;

	reset();
	copts.flags = JENC_CSV_NO_HEADER;
	memcpy(in, "x,\"", 3);
	for (k = 3; k < n; k++)
		in[k] = (char)('a' + k % 26);
	in[n - 200] = '"';
	in[n - 199] = '"';
	memcpy(in + n, "\"\ny\n", 4);
	/* the expected output: the field with one quote escaped */
	wlen = 0;
	memcpy(want, "[[\"x\",\"", 7);
	wlen = 7;
	for (k = 3; k < n; k++) {
		if (k == n - 199)
			continue;
		if (in[k] == '"')
			want[wlen++] = '\\';
		want[wlen++] = in[k];
	}
	memcpy(want + wlen, "\"],[\"y\"]]\n", 10);
	wlen += 10;
	TEST("jenc_csv_copy_fd: a record larger than the window") {
		run_chunked(in, n + 4, 65536);
		CHECK_EQ(rc, 0);
		CHECK(outlen == wlen && memcmp(out, want, wlen) == 0);
		runn(in, n + 4);
		CHECK(outlen == wlen && memcmp(out, want, wlen) == 0);
	}
	free(in);
	free(want);
}

static void
test_detect(void)
{
	reset();
	copts.flags = JENC_CSV_DETECT;
	TEST("JENC_CSV_DETECT: ';' when the first line has no comma") {
		CHECK_OUT("a;b\n1;2\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("name;price\nTee;3,50\n",
		    "[{\"name\":\"Tee\",\"price\":\"3,50\"}]\n");
	}
	TEST("JENC_CSV_DETECT: tab and |") {
		CHECK_OUT("a\tb\n1\t2\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("a|b\n1|2\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
	}
	TEST("JENC_CSV_DETECT: a comma wins; else the most frequent") {
		CHECK_OUT("a;b;c,d\n1;2;3,4\n",
		    "[{\"a;b;c\":\"1;2;3\",\"d\":\"4\"}]\n");
		CHECK_OUT("a|b|c\td\n1|2|3\t4\n",
		    "[{\"a\":\"1\",\"b\":\"2\",\"c\\td\":\"3\\t4\"}]\n");
	}
	TEST("JENC_CSV_DETECT: ties go ; tab |") {
		CHECK_OUT("a;b\tc|d\n1;2\t3|4\n",
		    "[{\"a\":\"1\",\"b\\tc|d\":\"2\\t3|4\"}]\n");
		CHECK_OUT("a|b\tc\n1|2\t3\n",
		    "[{\"a|b\":\"1|2\",\"c\":\"3\"}]\n");
	}
	TEST("JENC_CSV_DETECT: one column stays one column") {
		CHECK_OUT("name\na;b\n", "[{\"name\":\"a;b\"}]\n");
		CHECK_OUT("\"a;b\"\n1\n", "[{\"a;b\":\"1\"}]\n");
		CHECK_OUT("\"x\"\"|\"\"y\"\n1\n", "[{\"x\\\"|\\\"y\":\"1\"}]\n");
		CHECK_OUT("", "[]\n");
		CHECK_OUT("se", "[]\n");
	}
	TEST("JENC_CSV_DETECT: a quote opens only at a field's start") {
		/* a"b is literal, so the ';' after it counts */
		CHECK_OUT("a\"b;c\n1;2\n", "[{\"a\\\"b\":\"1\",\"c\":\"2\"}]\n");
	}
	TEST("JENC_CSV_DETECT: blank lines first, the line that follows decides") {
		CHECK_OUT("\r\n\n\ra;b\n1;2\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
	}
	TEST("JENC_CSV_DETECT: sep=X is dropped and sets the delimiter") {
		CHECK_OUT("sep=;\r\na,b;c\r\n1,5;2\r\n",
		    "[{\"a,b\":\"1,5\",\"c\":\"2\"}]\n");
		CHECK_OUT("sep=|\na|b\n1|2", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("Sep=;\ra;b\r1;2\r", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("sep=;", "[]\n");
		CHECK_OUT("sep=;\n", "[]\n");
		CHECK_OUT("sep=;\r", "[]\n");
	}
	TEST("JENC_CSV_DETECT: what is not a sep= line is data") {
		CHECK_OUT("sep=\"\na\n", "[{\"sep=\\\"\":\"a\"}]\n");
		/* then the line is a header like any other */
		CHECK_OUT("sep=;x\n1;2\n", "[{\"sep=\":\"1\",\"x\":\"2\"}]\n");
		CHECK_OUT("sepa;b\n1;2\n", "[{\"sepa\":\"1\",\"b\":\"2\"}]\n");
	}
	TEST("JENC_CSV_DETECT: a sep= line is still counted") {
		CHECK_ERR("sep=;\na;b\n1\xff;2\n", "[]\n", 3, 2,
		    "invalid UTF-8 byte 0xff");
	}
	TEST("JENC_CSV_DETECT: with JENC_CSV_NO_HEADER and given names") {
		copts.flags = JENC_CSV_DETECT | JENC_CSV_NO_HEADER;
		CHECK_OUT("sep=;\na;b\n", "[[\"a\",\"b\"]]\n");
		CHECK_OUT("a;b\n", "[[\"a\",\"b\"]]\n");
		copts.flags = JENC_CSV_DETECT;
	}
	TEST("JENC_CSV_DETECT: a delimiter given, or TSV, turns it off") {
		copts.delim = ',';
		CHECK_OUT("a;b\n1;2\n", "[{\"a;b\":\"1;2\"}]\n");
		CHECK_OUT("sep=;\n1\n", "[{\"sep=;\":\"1\"}]\n");
		copts.delim = 0;
		copts.flags = JENC_CSV_DETECT | JENC_CSV_TSV;
		CHECK_OUT("a;b\tc\n1;2\t3\n", "[{\"a;b\":\"1;2\",\"c\":\"3\"}]\n");
		copts.flags = JENC_CSV_DETECT;
	}
	reset();
	TEST("a field-count error names another delimiter of the header") {
		CHECK_ERR("a;b\n1,2\n", "[]\n", 2, 0, "record has 2 fields, "
		    "header has 1 (delimiter ';'? try -d ';')");
		CHECK_ERR("a\tb|c|d\n1,2\n", "[]\n", 2, 0, "record has 2 "
		    "fields, header has 1 (delimiter '|'? try -d '|')");
		CHECK_ERR("a\tb\n1,2\n", "[]\n", 2, 0, "record has 2 fields, "
		    "header has 1 (delimiter '\\t'? try -d '\\t')");
		CHECK_ERR("a,b\n1\n", "[]\n", 2, 0,
		    "record has 1 field, header has 2");
	}
}

static void
test_limits(void)
{
	reset();
	copts.max_record = 8;
	TEST("max_record: a record of 8 bytes, with any line end") {
		CHECK_OUT("a,b\n123456,8\n", "[{\"a\":\"123456\",\"b\":\"8\"}]\n");
		CHECK_OUT("a,b\r\n123456,8\r\n",
		    "[{\"a\":\"123456\",\"b\":\"8\"}]\n");
		CHECK_OUT("a,b\r123456,8\r", "[{\"a\":\"123456\",\"b\":\"8\"}]\n");
		CHECK_OUT("a,b\n\"1234\",8", "[{\"a\":\"1234\",\"b\":\"8\"}]\n");
	}
	TEST("max_record: a longer record, at its start") {
		CHECK_ERR("a,b\n1234567,8\nx\n", "[]\n", 2, 1,
		    "record longer than 8 bytes");
		CHECK_ERR("a,b\n1,2\n\n1234567,8", "[{\"a\":\"1\",\"b\":\"2\"}]\n",
		    4, 1, "record longer than 8 bytes");
		CHECK_ERR("a,b,c,d,e,f\n", "[]\n", 1, 1,
		    "record longer than 8 bytes");
	}
	TEST("max_record: a quote never closed stops at the limit") {
		CHECK_ERR("a\n\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		    "[]\n", 2, 1, "record longer than 8 bytes");
		CHECK_ERR("a\n\"x\ny\nz\nw\nv\n", "[]\n", 2, 1,
		    "record longer than 8 bytes");
	}
	TEST("max_record: with JENC_CSV_DETECT and TSV") {
		copts.flags = JENC_CSV_DETECT;
		CHECK_ERR("aaaa;bbbb;cccc\n", "[]\n", 1, 1,
		    "record longer than 8 bytes");
		/* the delimiter from the first max_record + 2 bytes only,
		 * from memory as in pieces: ';' (a ',' comes later) */
		copts.max_record = 16;
		CHECK_ERR("b;\" s \";\"q\nr\";\ta 1;,\r\n2,;\t, ,\r\n", "[]\n",
		    1, 1, "record longer than 16 bytes");
		copts.max_record = 8;
		copts.flags = JENC_CSV_TSV;
		CHECK_OUT("a\n1234567\r\n", "[{\"a\":\"1234567\"}]\n");
		CHECK_ERR("a\n123456789\n", "[]\n", 2, 1,
		    "record longer than 8 bytes");
	}
	TEST("max_record: an error's excerpt as long from memory as read") {
		/* the window from memory stops at its limit (the longest
		 * record and 1 KiB), the error near it: the excerpt still
		 * shows the line as far as it would from a file */
		char in[2048], want[96];
		size_t n = 0, k;

		memcpy(in, "a,b\n", 4);
		n = 4;
		for (k = 0; k < 255; k++) {
			memcpy(in + n, "1,2\n", 4);
			n += 4;
		}
		memcpy(in + n, "x,y", 3);
		n += 3;
		in[n++] = '\0';
		memset(in + n, 'z', 80);
		n += 80;
		in[n++] = '\n';
		CHECK_EQ(runn(in, n), JENC_E_SYNTAX);
		CHECK_EQ(err.line, 257);
		CHECK_EQ(err.col, 4);
		CHECK_STR(err.msg, strlen(err.msg), "NUL byte in input");
		memcpy(want, "x,y?", 4);
		memset(want + 4, 'z', 73);
		memcpy(want + 77, "...", 4);
		CHECK_STR(err.excerpt, strlen(err.excerpt), want);
		check_chunks(in, n);
	}
	reset();
	TEST("delimiters refused: line ends, NUL, non-ASCII; '\"' in CSV, '\\\\' in TSV") {
		static const char bad[] = { '\n', '\r', '"', (char)0x80 };
		size_t k;

		for (k = 0; k < sizeof bad; k++) {
			copts.delim = bad[k];
			CHECK_EQ(run("a\n"), JENC_E_STATE);
			CHECK_EQ(outlen, 0);
		}
		copts.flags = JENC_CSV_TSV;
		copts.delim = '\\';
		CHECK_EQ(run("a\n"), JENC_E_STATE);
		CHECK_EQ(outlen, 0);
		copts.delim = '"';
		CHECK_OUT("a\"b\n1\"2\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		copts.flags = 0;
		copts.delim = '\\';
		CHECK_OUT("a\\b\n1\\2\n", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
	}
	reset();
	TEST("TSV: a CR before the end of input is part of the line end") {
		copts.flags = JENC_CSV_TSV;
		CHECK_OUT("a\tb\n1\t2\r", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("a\tb\n1\t2\r\n\r", "[{\"a\":\"1\",\"b\":\"2\"}]\n");
		CHECK_OUT("a\tb\n1\r\t2\r", "[{\"a\":\"1\\r\",\"b\":\"2\"}]\n");
		CHECK_OUT("a\r", "[]\n");
	}
	reset();
}

/* Records built as text (compact, plain escapes) and through the
 * encoder's calls (any other output) must be the same bytes. */
static void
test_text(void)
{
	static const char nums[] =
	    "x\n0\n-0\n007\n1.\n.5\n-.5\n1.5\n-1.5\n1e5\n-\n--1\n0.0\n00.1\n"
	    "1.2.3\n12345678901234567\n-01\n0.\n1.50\n1E+2\ntrue\nfalse\n"
	    "True\ntru\n\n\"\"\n\"7\"\n-12345678901234.5\n";
	static const char want[] =
	    "[{\"x\":0},{\"x\":-0},{\"x\":\"007\"},{\"x\":\"1.\"},{\"x\":\".5\"},"
	    "{\"x\":\"-.5\"},{\"x\":1.5},{\"x\":-1.5},{\"x\":1e5},{\"x\":\"-\"},"
	    "{\"x\":\"--1\"},{\"x\":0.0},{\"x\":\"00.1\"},{\"x\":\"1.2.3\"},"
	    "{\"x\":12345678901234567},{\"x\":\"-01\"},{\"x\":\"0.\"},"
	    "{\"x\":1.50},{\"x\":1E+2},{\"x\":true},{\"x\":false},"
	    "{\"x\":\"True\"},{\"x\":\"tru\"},{\"x\":null},"
	    "{\"x\":7},{\"x\":-12345678901234.5}]\n";

	reset();
	copts.flags = JENC_CSV_TYPES;
	TEST("JENC_CSV_TYPES: numbers, booleans, null as text and as calls") {
		CHECK_OUT(nums, want);
		enc_flags = JENC_HTML;	/* not verbatim: the encoder's calls */
		CHECK_OUT(nums, want);
		enc_flags = 0;
	}
	reset();
	TEST("escapes as text: the short ones; \\u ones left to the encoder") {
		CHECK_OUT("a\n\"x\by\fz\tt\"\"q\\\\\"\n",
		    "[{\"a\":\"x\\by\\fz\\tt\\\"q\\\\\\\\\"}]\n");
		CHECK_OUT("a\n\x01\x1f\n", "[{\"a\":\"\\u0001\\u001F\"}]\n");
		enc_flags = JENC_LOWER_HEX;
		CHECK_OUT("a\n\x01\x1f\n", "[{\"a\":\"\\u0001\\u001f\"}]\n");
		enc_flags = 0;
		CHECK_OUT("a\x1f,\"b\"\"\"\n1,2\n",
		    "[{\"a\\u001F\":\"1\",\"b\\\"\":\"2\"}]\n");
		CHECK_OUT("a\\,b\tc\n1,2\n",
		    "[{\"a\\\\\":\"1\",\"b\\tc\":\"2\"}]\n");
	}
	TEST("text: ragged padding and extra fields") {
		copts.flags = JENC_CSV_RAGGED_PAD;
		CHECK_OUT("a,b,c\n1\n1,2,3,4\n",
		    "[{\"a\":\"1\",\"b\":null,\"c\":null},"
		    "{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\",\"_4\":\"4\"}]\n");
		copts.flags = JENC_CSV_RAGGED_PAD | JENC_CSV_NO_HEADER;
		CHECK_OUT("1\n1,\"\"\"\"\n", "[[\"1\"],[\"1\",\"\\\"\"]]\n");
	}
	reset();
}

/* A buffer of at most cap bytes being filled. */
struct sbuf {
	char *p;
	size_t n;
};

static void
sb_add(struct sbuf *b, const char *s)
{
	size_t k = strlen(s);

	memcpy(b->p + b->n, s, k);
	b->n += k;
}

/* Records of more fields than are held (CSV_LONG_FIELDS): checked, then
 * read again and written in pieces; the bytes must be those of a short
 * record. */
static void
test_long(void)
{
	struct sbuf in, w;
	char tmp[64];
	size_t k, nf = 20000;

	in.p = malloc(8 * 1024 * 1024);
	w.p = malloc(8 * 1024 * 1024);
	reset();
	TEST("a long record without a header: every field, in order") {
		copts.flags = JENC_CSV_NO_HEADER;
		in.n = w.n = 0;
		sb_add(&w, "[[");
		for (k = 0; k < nf; k++) {
			snprintf(tmp, sizeof tmp, "%s%zu", k ? "," : "", k);
			sb_add(&in, tmp);
			snprintf(tmp, sizeof tmp, "%s\"%zu\"", k ? "," : "", k);
			sb_add(&w, tmp);
		}
		sb_add(&in, "\r\nx\n");
		sb_add(&w, "],[\"x\"]]\n");
		CHECK_EQ(runn(in.p, in.n), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
		CHECK_EQ(run_chunked(in.p, in.n, 4096), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
	}
	TEST("a long header, long records, -t and padding") {
		copts.flags = JENC_CSV_TYPES | JENC_CSV_RAGGED_PAD;
		in.n = w.n = 0;
		for (k = 0; k < nf; k++) {
			/* every name twice: the second gets _2 */
			snprintf(tmp, sizeof tmp, "%sc%zu", k ? "," : "", k / 2);
			sb_add(&in, tmp);
		}
		sb_add(&in, "\n");
		sb_add(&w, "[{");
		for (k = 0; k < nf + 2; k++) {
			snprintf(tmp, sizeof tmp, "%s%zu", k ? "," : "", k);
			sb_add(&in, tmp);
			if (k < nf)
				snprintf(tmp, sizeof tmp, "%s\"c%zu%s\":%zu",
				    k ? "," : "", k / 2, k % 2 ? "_2" : "", k);
			else
				snprintf(tmp, sizeof tmp, ",\"_%zu\":%zu",
				    k + 1, k);
			sb_add(&w, tmp);
		}
		sb_add(&in, "\n1\n");
		/* padded up to the header's names, not the extra ones */
		sb_add(&w, "},{\"c0\":1");
		for (k = 1; k < nf; k++) {
			snprintf(tmp, sizeof tmp, ",\"c%zu%s\":null", k / 2,
			    k % 2 ? "_2" : "");
			sb_add(&w, tmp);
		}
		sb_add(&w, "}]\n");
		CHECK_EQ(runn(in.p, in.n), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
		enc_indent = 0;
		enc_flags = JENC_HTML;	/* the encoder's calls */
		CHECK_EQ(runn(in.p, in.n), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
		enc_flags = 0;
		CHECK_EQ(run_chunked(in.p, in.n, 4096), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
	}
	TEST("a long record that is bad: nothing of it is written") {
		copts.flags = 0;
		in.n = 0;
		sb_add(&in, "a\n1\n");
		for (k = 0; k < nf; k++)
			sb_add(&in, k ? ",x" : "x");
		sb_add(&in, "\xff\n");
		CHECK_EQ(runn(in.p, in.n), JENC_E_SYNTAX);
		CHECK_STR(out, outlen, "[{\"a\":\"1\"}]\n");
		CHECK_EQ(err.line, 3);
		CHECK_EQ(err.col, 2 * nf);
		in.p[in.n - 2] = '\n';
		CHECK_EQ(runn(in.p, in.n - 1), JENC_E_SYNTAX);
		CHECK_STR(out, outlen, "[{\"a\":\"1\"}]\n");
		CHECK_STR(err.msg, strlen(err.msg),
		    "record has 20000 fields, header has 1");
	}
	TEST("a field rewritten past 1 MiB: read twice, the same bytes") {
		size_t nq = 600000;

		copts.flags = JENC_CSV_NO_HEADER;
		in.n = w.n = 0;
		sb_add(&in, "1,\"");
		sb_add(&w, "[[\"1\",\"");
		for (k = 0; k < nq; k++) {
			sb_add(&in, "\"\"");
			sb_add(&w, "\\\"");
		}
		sb_add(&in, "\"x,2\n3\n");
		sb_add(&w, "x\",\"2\"],[\"3\"]]\n");
		CHECK_EQ(runn(in.p, in.n), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
		CHECK_EQ(run_chunked(in.p, in.n, 65536), 0);
		CHECK(outlen == w.n && memcmp(out, w.p, w.n) == 0);
	}
	reset();
	free(in.p);
	free(w.p);
}

static int
discard(void *ctx, const char *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return 0;
}

/* Allocations made converting n generated records through a sink. */
static uint64_t
allocs_for(size_t n, unsigned flags)
{
	jenc_csv_opts o = { .flags = flags };
	jenc_pool_stats a, b;
	char *in = malloc(n * 40 + 64);
	size_t len, k;
	jenc_enc *e;

	len = (size_t)sprintf(in, "id,name,note,x\n");
	for (k = 0; k < n; k++)
		len += (size_t)sprintf(in + len, "%zu,n%zu,\"a \"\"q\"\" %zu\",%s\n",
		    k, k, k % 7, k % 2 ? "true" : "1.5");
	e = jenc_get_sink(discard, NULL, NULL);
	jenc_pool_stats_get(&a);
	rc = jenc_csv_copy_mem(in, len, e, &o, &err);
	jenc_pool_stats_get(&b);
	jenc_release(e);
	free(in);
	return b.mallocs - a.mallocs;
}

static void
test_allocs(void)
{
	TEST("jenc_csv_copy_mem: no allocation per record") {
		/* warm the pools: segments of every size class */
		allocs_for(20000, 0);
		CHECK_EQ(allocs_for(100, 0), allocs_for(20000, 0));
		CHECK_EQ(allocs_for(100, JENC_CSV_TYPES | JENC_CSV_LINES),
		    allocs_for(20000, JENC_CSV_TYPES | JENC_CSV_LINES));
		CHECK_EQ(allocs_for(100, JENC_CSV_NO_HEADER),
		    allocs_for(20000, JENC_CSV_NO_HEADER));
	}
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_basic();
	test_quotes();
	test_types();
	test_header();
	test_ragged();
	test_errors();
	test_tsv();
	test_large();
	test_detect();
	test_limits();
	test_text();
	test_long();
	test_allocs();
	free(out);
	return harness_done();
}
