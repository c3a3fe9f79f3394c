/*
 * test_logv.c - the log view: a record as one line (each time key and
 * shape, level key and form, message key), logfmt fields, lines below,
 * colors, the filters, jenc_logv_level and jenc_logv_time, and text that
 * is not a record.
 *
 * TZ is set here (UTC, or JST-9 for local time), so the expected lines
 * do not depend on the machine's zone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"

struct buf {
	char p[65536];
	size_t n;
	int calls;
	int fail_at;		/* the call that fails, 0: none */
};

static int
to_buf(void *ctx, const char *s, size_t n)
{
	struct buf *b = ctx;

	if (++b->calls == b->fail_at)
		return 1;
	if (n > sizeof(b->p) - b->n)
		abort();
	memcpy(b->p + b->n, s, n);
	b->n += n;
	return 0;
}

static struct buf out;

/* 40 bytes of plain text, for strings of each length. */
#define LONG_A "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"

/* Format json with o (NULL: defaults) into out; the result code. */
static int
fmt(const jenc_logv_opts *o, const char *json)
{
	jenc_logv *lv;
	int rc;

	if (jenc_logv_new(&lv, o) != 0)
		abort();
	memset(&out, 0, sizeof(out));
	rc = jenc_logv_format(lv, json, strlen(json), to_buf, &out);
	jenc_logv_free(lv);
	return rc;
}

#define LINE(o, json, want) do { \
	CHECK_EQ(fmt((o), (json)), 1); \
	CHECK_STR(out.p, out.n, (want)); \
} while (0)

#define DROPPED(o, json) do { \
	CHECK_EQ(fmt((o), (json)), 0); \
	CHECK_EQ(out.n, 0); \
} while (0)

static void
set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

int
main(void)
{
	jenc_logv_opts o;

	set_tz("UTC0");

	TEST("jenc_logv_format: a pino record") {
		LINE(NULL, "{\"level\":30,\"time\":1714564800042,\"pid\":7,"
		    "\"hostname\":\"h1\",\"msg\":\"listening\",\"port\":8080}",
		    "2024-05-01 12:00:00.042 INFO  listening pid=7 hostname=h1 "
		    "port=8080\n");
	}

	TEST("jenc_logv_format: whitespace between tokens") {
		LINE(NULL, " { \"msg\" : \"a\" , \"x\" : [ 1 ] }\n",
		    "a x=[ 1 ]\n");
	}

	TEST("jenc_logv_format: each time key") {
		static const char *const keys[] = {
			"time", "ts", "timestamp", "@timestamp", "t",
		};
		char json[128];
		size_t i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			snprintf(json, sizeof(json),
			    "{\"%s\":1714564800,\"msg\":\"m\"}", keys[i]);
			LINE(NULL, json, "2024-05-01 12:00:00.000 m\n");
		}
	}

	TEST("jenc_logv_format: the first present time key wins, not the first member") {
		LINE(NULL, "{\"t\":1,\"ts\":2,\"time\":1714564800,\"msg\":\"m\"}",
		    "2024-05-01 12:00:00.000 m t=1 ts=2\n");
		LINE(NULL, "{\"t\":1714564800,\"@timestamp\":\"x\"}",
		    "x t=1714564800\n");
	}

	TEST("jenc_logv_format: numbers by magnitude") {
		/* seconds, milliseconds, microseconds, nanoseconds */
		LINE(NULL, "{\"time\":1714564800}",
		    "2024-05-01 12:00:00.000\n");
		LINE(NULL, "{\"time\":1714564800123}",
		    "2024-05-01 12:00:00.123\n");
		LINE(NULL, "{\"time\":1714564800123456}",
		    "2024-05-01 12:00:00.123\n");
		LINE(NULL, "{\"time\":1714564800123456789}",
		    "2024-05-01 12:00:00.123\n");
		/* fractions, small, negative and exponent forms */
		LINE(NULL, "{\"time\":1714564800.987654}",
		    "2024-05-01 12:00:00.987\n");
		LINE(NULL, "{\"time\":1714564800123.9}",
		    "2024-05-01 12:00:00.123\n");
		LINE(NULL, "{\"time\":0}", "1970-01-01 00:00:00.000\n");
		LINE(NULL, "{\"time\":99999999999}",
		    "5138-11-16 09:46:39.000\n");
		LINE(NULL, "{\"time\":100000000000}",
		    "1973-03-03 09:46:40.000\n");
		LINE(NULL, "{\"time\":-1.5}", "1969-12-31 23:59:58.500\n");
		LINE(NULL, "{\"time\":1.7145648e9}",
		    "2024-05-01 12:00:00.000\n");
		/* a number in a string */
		LINE(NULL, "{\"time\":\"1714564800042\"}",
		    "2024-05-01 12:00:00.042\n");
	}

	TEST("jenc_logv_format: epoch numbers of every length of digits") {
		/* digits are read eight at a time, the last fewer than eight
		 * as the word that ends the number, thirteen as two words:
		 * each length from 1 to 20, thirteen digits below 1e11 (then
		 * seconds), with a sign, a fraction, in a string, and not a
		 * number */
		static const char *const cases[][2] = {
			{ "9", "9.000000000" },
			{ "12345678", "12345678.000000000" },
			{ "123456789", "123456789.000000000" },
			{ "1234567890123", "1234567890.123000000" },
			{ "0001714564800", "1714564800.000000000" },
			{ "0000000000000", "0.000000000" },
			{ "12345678901234", "12345678901.234000000" },
			{ "123456789012345", "123456789.012345000" },
			{ "1234567890123456", "1234567890.123456000" },
			{ "12345678901234567", "12345678901.234567000" },
			{ "123456789012345678", "123456789.012345678" },
			{ "1234567890123456789", "1234567890.123456789" },
			{ "12345678901234567890", "12345678901234567890" },
			{ "-1234567890123", "-1234567891.877000000" },
			{ "-123456789", "-123456789.000000000" },
			{ "1714564800123.5", "1714564800.123500000" },
			{ "\"1714564800123\"", "1714564800.123000000" },
			{ "\"17145648001234x\"", "17145648001234x" },
		};
		char json[64], want[64];
		size_t i;

		memset(&o, 0, sizeof(o));
		o.flags = JENC_LOGV_UTC;
		o.time_format = "%s.%N";
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			snprintf(json, sizeof(json), "{\"time\":%s}",
			    cases[i][0]);
			snprintf(want, sizeof(want), "%s\n", cases[i][1]);
			LINE(&o, json, want);
		}
	}

	TEST("jenc_logv_format: RFC 3339 strings") {
		LINE(NULL, "{\"time\":\"2024-05-01T12:00:00Z\"}",
		    "2024-05-01 12:00:00.000\n");
		LINE(NULL, "{\"time\":\"2024-05-01T12:00:00.5Z\"}",
		    "2024-05-01 12:00:00.500\n");
		LINE(NULL, "{\"time\":\"2024-05-01T14:00:00.123456789+02:00\"}",
		    "2024-05-01 12:00:00.123\n");
		LINE(NULL, "{\"time\":\"2024-05-01t07:30:00-04:30\"}",
		    "2024-05-01 12:00:00.000\n");
		LINE(NULL, "{\"time\":\"2024-05-01 12:00:00z\"}",
		    "2024-05-01 12:00:00.000\n");
		LINE(NULL, "{\"time\":\"2024-02-29T00:00:00Z\"}",
		    "2024-02-29 00:00:00.000\n");
		/* without a zone: local time (here UTC) */
		LINE(NULL, "{\"time\":\"2024-05-01T12:00:00.25\"}",
		    "2024-05-01 12:00:00.250\n");
		/* a comma for the point, as Python's logging writes its
		 * asctime (ISO 8601 allows both) */
		LINE(NULL, "{\"time\":\"2024-05-01 12:00:00,123\"}",
		    "2024-05-01 12:00:00.123\n");
		LINE(NULL, "{\"time\":\"2024-05-01T14:00:00,5+02:00\"}",
		    "2024-05-01 12:00:00.500\n");
		LINE(NULL, "{\"time\":\"2024-05-01T12:00:00,Z\"}",
		    "2024-05-01T12:00:00,Z\n");
	}

	TEST("jenc_logv_format: a time that cannot be read is its text") {
		LINE(NULL, "{\"time\":\"yesterday\",\"msg\":\"m\"}",
		    "yesterday m\n");
		LINE(NULL, "{\"time\":\"2023-02-29T00:00:00Z\"}",
		    "2023-02-29T00:00:00Z\n");
		LINE(NULL, "{\"time\":\"2024-05-01T25:00:00Z\"}",
		    "2024-05-01T25:00:00Z\n");
		LINE(NULL, "{\"time\":\"2024-05-01T12:00Z\"}",
		    "2024-05-01T12:00Z\n");
		LINE(NULL, "{\"time\":\"a\\u001bb\"}", "a\\u001bb\n");
		LINE(NULL, "{\"time\":99999999999999999999}",
		    "99999999999999999999\n");
		/* a string that starts as a number with an exponent and
		 * goes on */
		LINE(NULL, "{\"time\":\"1714564800e0x\"}", "1714564800e0x\n");
		LINE(NULL, "{\"time\":\"1714564800e\"}", "1714564800e\n");
		LINE(NULL, "{\"time\":\"1.7e9 s\"}", "1.7e9 s\n");
		/* not a string or a number: a field */
		LINE(NULL, "{\"time\":true,\"msg\":\"m\"}", "m time=true\n");
		LINE(NULL, "{\"time\":{\"s\":1},\"msg\":\"m\"}", "m time.s=1\n");
	}

	TEST("jenc_logv_format: local time, --utc, the time format") {
		set_tz("JST-9");
		LINE(NULL, "{\"time\":1714564800042}",
		    "2024-05-01 21:00:00.042\n");
		memset(&o, 0, sizeof(o));
		o.flags = JENC_LOGV_UTC;
		LINE(&o, "{\"time\":1714564800042}",
		    "2024-05-01 12:00:00.042\n");
		o.time_format = "%H:%M:%S.%6N|%N|%1N|%%N|%%%3N";
		LINE(&o, "{\"time\":1714564800.123456789}",
		    "12:00:00.123456|123456789|1|%N|%123\n");
		o.time_format = "%s|%%s|%%%s";
		LINE(&o, "{\"time\":1714564800042}",
		    "1714564800|%s|%1714564800\n");
		o.flags = 0;
		LINE(&o, "{\"time\":1714564800042}",
		    "1714564800|%s|%1714564800\n");
		o.time_format = "";
		LINE(&o, "{\"time\":1714564800042,\"msg\":\"m\"}", " m\n");
		set_tz("UTC0");
	}

	TEST("jenc_logv_format: one view's times across changes of DST") {
		/* the text of a record's second is kept per thread: seconds
		 * either side of a change, and back, each in its own offset
		 * (a POSIX TZ rule, so that no zone file is needed) */
		static const char *const recs[] = {
			"{\"time\":1710053999}", "{\"time\":1710054000}",
			"{\"time\":1710053999.5}", "{\"time\":1710054000}",
			"{\"time\":1730613599}", "{\"time\":1730613600}",
			"{\"time\":1730613599}",
		};
		jenc_logv *lv;
		size_t i;

		set_tz("EST5EDT,M3.2.0,M11.1.0");
		memset(&o, 0, sizeof(o));
		o.time_format = "%Y-%m-%d %H:%M:%S.%3N %Z";
		CHECK_EQ(jenc_logv_new(&lv, &o), 0);
		memset(&out, 0, sizeof(out));
		for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
			CHECK_EQ(jenc_logv_format(lv, recs[i], strlen(recs[i]),
			    to_buf, &out), 1);
		CHECK_STR(out.p, out.n,
		    "2024-03-10 01:59:59.000 EST\n"
		    "2024-03-10 03:00:00.000 EDT\n"
		    "2024-03-10 01:59:59.500 EST\n"
		    "2024-03-10 03:00:00.000 EDT\n"
		    "2024-11-03 01:59:59.000 EDT\n"
		    "2024-11-03 01:00:00.000 EST\n"
		    "2024-11-03 01:59:59.000 EDT\n");
		jenc_logv_free(lv);
		set_tz("UTC0");
	}

	TEST("jenc_logv_format: a time format with too many %N") {
		jenc_logv *lv = NULL;

		memset(&o, 0, sizeof(o));
		o.time_format = "%N%N%N%N%N%N%N%N";
		CHECK_EQ(jenc_logv_new(&lv, &o), JENC_E_STATE);
		CHECK(lv == NULL);
		o.time_format = "%N%N%N%N%N%N%N";
		CHECK_EQ(jenc_logv_new(&lv, &o), 0);
		jenc_logv_free(lv);
	}

	TEST("jenc_logv_format: a time format whose part is too long") {
		/* each part before, between and after %N gives at most 127
		 * bytes: more text than that is refused; a time whose part
		 * comes out longer is shown as its text, not as nothing */
		static char f[512], want[512];
		jenc_logv *lv = NULL;

		memset(&o, 0, sizeof(o));
		o.flags = JENC_LOGV_UTC;
		o.time_format = f;
		snprintf(f, sizeof(f), "%.64s%.64s", LONG_A LONG_A,
		    LONG_A LONG_A);
		CHECK_EQ(jenc_logv_new(&lv, &o), JENC_E_RANGE);
		CHECK(lv == NULL);
		snprintf(f, sizeof(f), "%%H%.64s%.64s%%3N%%%%%.63s%.63s",
		    LONG_A LONG_A, LONG_A LONG_A, LONG_A LONG_A, LONG_A LONG_A);
		CHECK_EQ(jenc_logv_new(&lv, &o), JENC_E_RANGE);
		/* 127 bytes: "%%" is one, a conversion none */
		snprintf(f, sizeof(f), "%.64s%.62s%%%%%%Y", LONG_A LONG_A,
		    LONG_A LONG_A);
		CHECK_EQ(jenc_logv_new(&lv, &o), 0);
		jenc_logv_free(lv);
		lv = NULL;
		/* 123 bytes of text and %Y's four: 127, shown */
		snprintf(f, sizeof(f), "%.64s%.59s%%Y%%3N", LONG_A LONG_A,
		    LONG_A LONG_A);
		snprintf(want, sizeof(want), "%.64s%.59s2024500 m\n",
		    LONG_A LONG_A, LONG_A LONG_A);
		LINE(&o, "{\"time\":\"2024-05-01T12:00:00.5Z\",\"msg\":\"m\"}",
		    want);
		/* 124 and four, 128: the time as it is in the record, after
		 * a time of the same format shown (its second's cache) */
		snprintf(f, sizeof(f), "%.64s%.60s%%Y%%3N", LONG_A LONG_A,
		    LONG_A LONG_A);
		LINE(&o, "{\"time\":\"2024-05-01T12:00:00.5Z\",\"msg\":\"m\"}",
		    "2024-05-01T12:00:00.5Z m\n");
		LINE(&o, "{\"time\":1714564800500,\"msg\":\"m\"}",
		    "1714564800500 m\n");
		{
			const char *json[2] = {
				"{\"time\":\"2024-05-01T12:00:00.5Z\"}",
				"{\"time\":\"2024-05-01T12:00:00.7Z\"}",
			};

			/* one view: a second shown, then too long for a
			 * later piece; %s's piece too */
			o.time_format = "%H:%M:%S%3N %c%c%c%c%c%c";
			CHECK_EQ(jenc_logv_new(&lv, &o), 0);
			memset(&out, 0, sizeof(out));
			CHECK_EQ(jenc_logv_format(lv, json[0], strlen(json[0]),
			    to_buf, &out), 1);
			CHECK_EQ(jenc_logv_format(lv, json[1], strlen(json[1]),
			    to_buf, &out), 1);
			CHECK_STR(out.p, out.n, "2024-05-01T12:00:00.5Z\n"
			    "2024-05-01T12:00:00.7Z\n");
			jenc_logv_free(lv);
		}
		snprintf(f, sizeof(f), "%%s%.64s%.60s", LONG_A LONG_A,
		    LONG_A LONG_A);
		o.time_format = f;
		LINE(&o, "{\"time\":\"2024-05-01T12:00:00.5Z\"}",
		    "2024-05-01T12:00:00.5Z\n");
		snprintf(f, sizeof(f), "%%s%.64s%.53s", LONG_A LONG_A,
		    LONG_A LONG_A);
		snprintf(want, sizeof(want), "1714564800%.64s%.53s\n",
		    LONG_A LONG_A, LONG_A LONG_A);
		LINE(&o, "{\"time\":\"2024-05-01T12:00:00.5Z\"}", want);
	}

	TEST("jenc_logv_format: each level key") {
		LINE(NULL, "{\"level\":\"info\",\"msg\":\"m\"}", "INFO  m\n");
		LINE(NULL, "{\"lvl\":\"info\",\"msg\":\"m\"}", "INFO  m\n");
		LINE(NULL, "{\"severity\":\"info\",\"msg\":\"m\"}", "INFO  m\n");
		LINE(NULL, "{\"log.level\":\"info\",\"msg\":\"m\"}", "INFO  m\n");
		LINE(NULL, "{\"log\":{\"level\":\"info\",\"logger\":\"a\"},"
		    "\"msg\":\"m\"}", "INFO  m log.logger=a\n");
		LINE(NULL, "{\"severity\":\"debug\",\"level\":\"warn\"}",
		    "WARN  severity=debug\n");
	}

	TEST("jenc_logv_format: level names and numbers") {
		static const char *const in[] = {
			"10", "20", "30", "40", "50", "60", "\"TRACE\"",
			"\"Debug\"", "\"INFO\"", "\"notice\"", "\"warning\"",
			"\"WARN\"", "\"err\"", "\"Error\"", "\"critical\"",
			"\"fatal\"", "\"panic\"", "\"30\"", "35", "\"verbose\"",
			"\"x\"", "1.5", "\"a\\nb\"", "\"INFO+2\"", "\"WARN-1\"",
		};
		static const char *const want[] = {
			"TRACE", "DEBUG", "INFO ", "WARN ", "ERROR", "FATAL",
			"TRACE", "DEBUG", "INFO ", "INFO ", "WARN ", "WARN ",
			"ERROR", "ERROR", "FATAL", "FATAL", "FATAL", "INFO ",
			"35   ", "VERBOSE", "X    ", "1.5  ", "A\\nB  ",
			"INFO+2", "WARN-1",
		};
		char json[64], line[64];
		size_t i;

		for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
			snprintf(json, sizeof(json), "{\"level\":%s}", in[i]);
			snprintf(line, sizeof(line), "%s\n", want[i]);
			LINE(NULL, json, line);
		}
	}

	TEST("jenc_logv_format: each message key") {
		LINE(NULL, "{\"msg\":\"a\"}", "a\n");
		LINE(NULL, "{\"message\":\"a\"}", "a\n");
		LINE(NULL, "{\"@message\":\"a\"}", "a\n");
		LINE(NULL, "{\"event\":\"a\"}", "a\n");
		LINE(NULL, "{\"event\":\"b\",\"msg\":\"a\"}", "a event=b\n");
		LINE(NULL, "{\"msg\":42}", "42\n");
		LINE(NULL, "{\"msg\":null}", "null\n");
		LINE(NULL, "{\"msg\":[1],\"message\":\"a\"}", "a msg=[1]\n");
		/* unquoted, its escapes decoded, controls escaped */
		LINE(NULL, "{\"msg\":\"say \\\"hi\\\" \\u00e9\\t\\n\\u001b[31m"
		    "\\u0085\"}", "say \"hi\" \xc3\xa9\t\\n\\u001b[31m\\u0085\n");
		/* one line end at the end is not shown (Docker's "log") */
		LINE(NULL, "{\"msg\":\"docker\\n\",\"a\":1}", "docker a=1\n");
		LINE(NULL, "{\"msg\":\"crlf\\r\\n\"}", "crlf\n");
		LINE(NULL, "{\"msg\":\"two\\n\\n\"}", "two\\n\n");
		LINE(NULL, "{\"msg\":\"a\\nb\\n\"}", "a\\nb\n");
		LINE(NULL, "{\"msg\":\"cr\\r\"}", "cr\\r\n");
	}

	TEST("jenc_logv_format: the order of the parts, each one missing") {
		LINE(NULL, "{\"a\":1,\"msg\":\"m\",\"level\":\"warn\","
		    "\"time\":0,\"b\":2}",
		    "1970-01-01 00:00:00.000 WARN  m a=1 b=2\n");
		LINE(NULL, "{\"level\":\"warn\",\"a\":1}", "WARN  a=1\n");
		LINE(NULL, "{\"time\":0,\"a\":1}",
		    "1970-01-01 00:00:00.000 a=1\n");
		LINE(NULL, "{\"a\":1}", "a=1\n");
		LINE(NULL, "{}", "\n");
	}

	TEST("jenc_logv_format: logfmt values") {
		LINE(NULL, "{\"a\":\"plain\",\"b\":\"two words\",\"c\":\"k=v\","
		    "\"d\":\"say \\\"x\\\"\",\"e\":\"\",\"f\":\"back\\\\slash\","
		    "\"g\":\"tab\\there\",\"h\":\"\\u00e9t\\u00e9\"}",
		    "a=plain b=\"two words\" c=\"k=v\" d=\"say \\\"x\\\"\" "
		    "e=\"\" f=back\\slash g=\"tab\\there\" "
		    "h=\xc3\xa9t\xc3\xa9\n");
		LINE(NULL, "{\"n\":-1.5e3,\"t\":true,\"f\":false,\"z\":null,"
		    "\"a\":[1,\"x y\",{\"k\":2}],\"o\":{},\"e\":[]}",
		    "n=-1.5e3 t=true f=false z=null a=[1,\"x y\",{\"k\":2}] "
		    "o={} e=[]\n");
		LINE(NULL, "{\"q\":\"a\\u0000b\\u007f\\u0085\"}",
		    "q=\"a\\u0000b\\u007f\\u0085\"\n");
		LINE(NULL, "{\"q\":\"\\ud83d\\ude00\"}", "q=\xf0\x9f\x98\x80\n");
	}

	TEST("jenc_logv_format: strings that are not plain, with or without bytes to escape") {
		/* the walk marks a string that holds a byte not plain (a space,
		 * '=') and, apart, one that holds a byte out_text escapes (raw
		 * DEL, C1 controls, non-ASCII) or an escape: the first is
		 * copied as it is (quoted as a field), the second looked at
		 * byte by byte; each with its bytes at each place of the
		 * walk's blocks of 16 or 8 and of its last bytes */
		static char json[512], want[512];
		static const char *const odd[][2] = {
			{ "\x7f", "\\u007f" }, { "\xc2\x85", "\\u0085" },
			{ "\xc3\xa9", "\xc3\xa9" }, { "\\u0001", "\\u0001" },
			{ "\\t", "\t" }, { "=", "=" }, { " ", " " },
		};
		size_t i, k, n, w;

		for (k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
			for (i = 0; i < 40; i++) {
				/* a message, then a field: "aaa bbb<odd>cc" */
				n = (size_t)snprintf(json, sizeof(json),
				    "{\"msg\":\"%.*s %.*s%s%.*s\","
				    "\"f\":\"%.*s %s%.*s\",\"g\":\"%.*s%s\"}",
				    (int)i, LONG_A, (int)(i % 17), LONG_A,
				    odd[k][0], (int)(i % 5), LONG_A,
				    (int)i, LONG_A, odd[k][0], (int)(i % 3),
				    LONG_A, (int)i, LONG_A, odd[k][0]);
				w = (size_t)snprintf(want, sizeof(want),
				    "%.*s %.*s%s%.*s f=\"%.*s %s%.*s\" g=",
				    (int)i, LONG_A, (int)(i % 17), LONG_A,
				    odd[k][1], (int)(i % 5), LONG_A,
				    (int)i, LONG_A,
				    k == 4 ? "\\t" : odd[k][1], (int)(i % 3),
				    LONG_A);
				/* g: quoted for a space, '=' or DEL, or a C1 or
				 * C0 control (tab escaped within quotes) */
				if (k == 2)
					w += (size_t)snprintf(want + w,
					    sizeof(want) - w, "%.*s%s\n",
					    (int)i, LONG_A, odd[k][1]);
				else
					w += (size_t)snprintf(want + w,
					    sizeof(want) - w, "\"%.*s%s\"\n",
					    (int)i, LONG_A,
					    k == 4 ? "\\t" : odd[k][1]);
				(void)n;
				LINE(NULL, json, want);
			}
		}
	}

	TEST("jenc_logv_format: bidi controls and line separators as escapes") {
		/* U+061C, U+200E, U+200F, U+2028 to U+202E, U+2066 to U+2069:
		 * raw or decoded, in a message, a field (then quoted), a key,
		 * a level, a line below, at each place of the blocks of 16 or
		 * 8 bytes; their neighbours are shown as they are */
		static char json[512], want[512];
		static const char *const bidi[][2] = {
			{ "\xd8\x9c", "\\u061c" },
			{ "\xe2\x80\x8e", "\\u200e" }, { "\xe2\x80\x8f", "\\u200f" },
			{ "\xe2\x80\xa8", "\\u2028" }, { "\xe2\x80\xa9", "\\u2029" },
			{ "\xe2\x80\xaa", "\\u202a" }, { "\xe2\x80\xab", "\\u202b" },
			{ "\xe2\x80\xac", "\\u202c" }, { "\xe2\x80\xad", "\\u202d" },
			{ "\xe2\x80\xae", "\\u202e" }, { "\\u202e", "\\u202e" },
			{ "\xe2\x81\xa6", "\\u2066" }, { "\xe2\x81\xa7", "\\u2067" },
			{ "\xe2\x81\xa8", "\\u2068" }, { "\xe2\x81\xa9", "\\u2069" },
			{ "\\u2029", "\\u2029" }, { "\\u061C", "\\u061c" },
		};
		static const char *const near[] = {
			"\xd8\x9b", "\xd8\x80", "\xd9\x9c", "\xe2\x80\x8d",
			"\xe2\x80\x90", "\xe2\x80\xa7", "\xe2\x80\xaf",
			"\xe2\x81\xa5", "\xe2\x81\xaa", "\xe2\x82\xac",
			"\xe3\x80\xae", "\xc2\xa0",
		};
		size_t i, k;

		for (k = 0; k < sizeof(bidi) / sizeof(bidi[0]); k++) {
			for (i = 0; i < 40; i++) {
				snprintf(json, sizeof(json),
				    "{\"msg\":\"%.*s%s%.*s\",\"f\":\"%.*s%s\","
				    "\"g\":\"%s\"}", (int)i, LONG_A, bidi[k][0],
				    (int)(i % 5), LONG_A, (int)i, LONG_A,
				    bidi[k][0], bidi[k][0]);
				snprintf(want, sizeof(want),
				    "%.*s%s%.*s f=\"%.*s%s\" g=\"%s\"\n",
				    (int)i, LONG_A, bidi[k][1], (int)(i % 5),
				    LONG_A, (int)i, LONG_A, bidi[k][1],
				    bidi[k][1]);
				LINE(NULL, json, want);
			}
			/* a key; a level of its own, cut into pieces of 32
			 * bytes; a line below */
			snprintf(json, sizeof(json), "{\"k%sy\":1}", bidi[k][0]);
			snprintf(want, sizeof(want), "\"k%sy\"=1\n", bidi[k][1]);
			LINE(NULL, json, want);
			for (i = 28; i < 33; i++) {
				snprintf(json, sizeof(json),
				    "{\"level\":\"%.*s%sz\"}", (int)i, LONG_A,
				    bidi[k][0]);
				snprintf(want, sizeof(want), "%.*s%sZ\n", (int)i,
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMN",
				    bidi[k][1]);
				LINE(NULL, json, want);
			}
			snprintf(json, sizeof(json),
			    "{\"msg\":\"m\",\"stack\":\"a\\n%sb\"}", bidi[k][0]);
			snprintf(want, sizeof(want), "m\n    stack: a\n    %sb\n",
			    bidi[k][1]);
			LINE(NULL, json, want);
		}
		for (k = 0; k < sizeof(near) / sizeof(near[0]); k++) {
			for (i = 0; i < 20; i++) {
				snprintf(json, sizeof(json),
				    "{\"msg\":\"%.*s%s\",\"f\":\"%.*s%sx\"}",
				    (int)i, LONG_A, near[k], (int)i, LONG_A,
				    near[k]);
				snprintf(want, sizeof(want), "%.*s%s f=%.*s%sx\n",
				    (int)i, LONG_A, near[k], (int)i, LONG_A,
				    near[k]);
				LINE(NULL, json, want);
			}
		}
	}

	TEST("jenc_logv_format: a level and a time with escapes, decoded in turn") {
		/* both are decoded into the same scratch: the level's text is
		 * read again after the time's */
		LINE(NULL, "{\"time\":\"2024-05-01T12:00:00\\u005a\","
		    "\"level\":\"w\\u0061rn\",\"msg\":\"m\"}",
		    "2024-05-01 12:00:00.000 WARN  m\n");
		LINE(NULL, "{\"time\":\"2024-05-01T12:00:00Z\","
		    "\"level\":\"\\u0057ARN\",\"msg\":\"m\\u0020x\"}",
		    "2024-05-01 12:00:00.000 WARN  m x\n");
	}

	TEST("jenc_logv_format: keys escaped and quoted as values are, raw or decoded") {
		/* top-level names are copied from the text when they hold
		 * nothing to escape: these hold something */
		LINE(NULL, "{\"a\\u0001b\":1,\"k\x7f\":\"v\",\"x\xc2\x85y\":2,"
		    "\"t\\tab\":3,\"u\\u0085\":\"w\",\"\xc3\xa9\":4}",
		    "\"a\\u0001b\"=1 \"k\\u007f\"=v \"x\\u0085y\"=2 \"t\\tab\"=3 "
		    "\"u\\u0085\"=w \xc3\xa9=4\n");
		LINE(NULL, "{\"o\":{\"k\x7f\":1,\"a\\u0001\":2}}",
		    "\"o.k\\u007f\"=1 \"o.a\\u0001\"=2\n");
		/* a key that a space, '=' or '"' would make ambiguous: "a b=1"
		 * is not the key "a" then the field "b=1"; an empty key, which
		 * is not, as it is */
		LINE(NULL, "{\"a b\":1,\"k=v\":\"x\",\"say \\\"hi\\\"\":true,"
		    "\"\":2,\"b\\\\s\":3,\"c\\u003d\":[1],\"t\\u0009\":\"y z\"}",
		    "\"a b\"=1 \"k=v\"=x \"say \\\"hi\\\"\"=true =2 b\\s=3 "
		    "\"c=\"=[1] \"t\\t\"=\"y z\"\n");
		LINE(NULL, "{\"msg\":\"m\",\"r q\":{\"id\":7,\"a=\":{\"b\":\"\"}},"
		    "\"s t\":\"one\\ntwo\"}",
		    "m \"r q.id\"=7 \"r q.a=.b\"=\"\"\n"
		    "    \"s t\": one\n"
		    "    two\n");
		/* at each place of the blocks the walk and the checks read */
		{
			static char json[256], want[256];
			size_t i;

			for (i = 0; i < 40; i++) {
				snprintf(json, sizeof(json),
				    "{\"%.*s %.*s\":1,\"%.*s\":2,\"%.*s=\":3}",
				    (int)i, LONG_A, (int)(i % 9), LONG_A,
				    (int)i + 1, LONG_A, (int)i, LONG_A);
				snprintf(want, sizeof(want),
				    "\"%.*s %.*s\"=1 %.*s=2 \"%.*s=\"=3\n",
				    (int)i, LONG_A, (int)(i % 9), LONG_A,
				    (int)i + 1, LONG_A, (int)i, LONG_A);
				LINE(NULL, json, want);
			}
		}
	}

	TEST("jenc_logv_format: nested objects as dotted keys, in input order") {
		LINE(NULL, "{\"msg\":\"m\",\"req\":{\"id\":7,\"h\":{\"ua\":\"x\","
		    "\"n\":{}}},\"z\":1,\"k\\u00e9y\":2,\"a b\":3}",
		    "m req.id=7 req.h.ua=x req.h.n={} z=1 k\xc3\xa9y=2 \"a b\"=3\n");
	}

	TEST("jenc_logv_format: objects deeper than 64 levels stay JSON") {
		char json[1024], want[1024];
		int i, n = 0, w = 0;

		for (i = 0; i < 70; i++)
			n += snprintf(json + n, sizeof(json) - (size_t)n,
			    "{\"a\":");
		n += snprintf(json + n, sizeof(json) - (size_t)n, "1");
		for (i = 0; i < 70; i++)
			json[n++] = '}';
		json[n] = '\0';
		for (i = 0; i < 64; i++)
			w += snprintf(want + w, sizeof(want) - (size_t)w,
			    i == 0 ? "a" : ".a");
		w += snprintf(want + w, sizeof(want) - (size_t)w, "=");
		for (i = 0; i < 6; i++)
			w += snprintf(want + w, sizeof(want) - (size_t)w,
			    "{\"a\":");
		w += snprintf(want + w, sizeof(want) - (size_t)w, "1");
		for (i = 0; i < 6; i++)
			want[w++] = '}';
		want[w++] = '\n';
		want[w] = '\0';
		LINE(NULL, json, want);
	}

	TEST("jenc_logv_format: strings of several lines go below") {
		LINE(NULL, "{\"time\":0,\"level\":50,\"msg\":\"boom\","
		    "\"err\":{\"type\":\"Error\",\"stack\":\"Error: boom\\n"
		    "    at f (a.js:1:2)\\r\\n    at g (b.js:3:4)\"},\"x\":1}",
		    "1970-01-01 00:00:00.000 ERROR boom err.type=Error x=1\n"
		    "    err.stack: Error: boom\n"
		    "        at f (a.js:1:2)\n"
		    "        at g (b.js:3:4)\n");
		LINE(NULL, "{\"msg\":\"m\",\"stack\":\"a\\n\\nb\\n\","
		    "\"exception\":\"Traceback:\\n  x\\u001b\",\"error\":"
		    "{\"stack\":\"s\\n\"},\"note\":\"one\\ntwo\"}",
		    "m\n"
		    "    stack: a\n"
		    "    \n"
		    "    b\n"
		    "    exception: Traceback:\n"
		    "      x\\u001b\n"
		    "    error.stack: s\n"
		    "    note: one\n"
		    "    two\n");
	}

	TEST("jenc_logv_format: colors") {
		jenc_colors c;

		memset(&o, 0, sizeof(o));
		o.flags = JENC_LOGV_COLOR;
		LINE(&o, "{\"time\":0,\"level\":40,\"msg\":\"m\",\"k\":1}",
		    "\033[0;90m1970-01-01 00:00:00.000\033[0m "
		    "\033[0;33mWARN \033[0m m \033[1;34mk\033[0m=1\n");
		LINE(&o, "{\"level\":10}", "\033[0;90mTRACE\033[0m\n");
		LINE(&o, "{\"level\":20}", "\033[0;34mDEBUG\033[0m\n");
		LINE(&o, "{\"level\":30}", "\033[0;32mINFO \033[0m\n");
		LINE(&o, "{\"level\":35}", "\033[0;32m35   \033[0m\n");
		LINE(&o, "{\"level\":50}", "\033[0;31mERROR\033[0m\n");
		LINE(&o, "{\"level\":60}", "\033[1;31mFATAL\033[0m\n");
		LINE(&o, "{\"level\":99}", "\033[1;31m99   \033[0m\n");
		LINE(&o, "{\"level\":\"x\"}", "X    \n");
		LINE(&o, "{\"s\":\"a\\nb\"}",
		    "\n    \033[1;34ms\033[0m: a\n    b\n");
		CHECK_EQ(jenc_colors_parse(&c, "1:2:3:4:5:6:7:8", NULL), 0);
		o.colors = &c;
		LINE(&o, "{\"time\":0,\"k\":1}",
		    "\033[1m1970-01-01 00:00:00.000\033[0m \033[8mk\033[0m=1\n");
	}

	TEST("jenc_logv_format: min_level") {
		memset(&o, 0, sizeof(o));
		o.min_level = 40;
		LINE(&o, "{\"level\":40}", "WARN \n");
		LINE(&o, "{\"level\":\"error\"}", "ERROR\n");
		LINE(&o, "{\"level\":45}", "45   \n");
		DROPPED(&o, "{\"level\":30}");
		DROPPED(&o, "{\"level\":\"info\"}");
		DROPPED(&o, "{\"level\":\"verbose\"}");
		DROPPED(&o, "{\"msg\":\"no level\"}");
	}

	TEST("jenc_logv_format: since and until") {
		memset(&o, 0, sizeof(o));
		o.flags = JENC_LOGV_SINCE | JENC_LOGV_UNTIL;
		o.since = 1714564800000000000LL;
		o.until = 1714564801000000000LL;
		DROPPED(&o, "{\"time\":1714564799999,\"msg\":\"m\"}");
		LINE(&o, "{\"time\":1714564800000,\"msg\":\"m\"}",
		    "2024-05-01 12:00:00.000 m\n");
		LINE(&o, "{\"time\":\"2024-05-01T12:00:01Z\",\"msg\":\"m\"}",
		    "2024-05-01 12:00:01.000 m\n");
		DROPPED(&o, "{\"time\":\"2024-05-01T12:00:01.000000001Z\"}");
		DROPPED(&o, "{\"time\":\"soon\",\"msg\":\"m\"}");
		DROPPED(&o, "{\"msg\":\"no time\"}");
		o.flags = JENC_LOGV_SINCE;
		LINE(&o, "{\"time\":1800000000}", "2027-01-15 08:00:00.000\n");
		o.flags = JENC_LOGV_UNTIL;
		LINE(&o, "{\"time\":-1}", "1969-12-31 23:59:59.000\n");
	}

	TEST("jenc_logv_format: hide and only") {
		memset(&o, 0, sizeof(o));
		o.hide = "pid,req,,err.stack";
		LINE(&o, "{\"msg\":\"m\",\"pid\":1,\"req\":{\"id\":2},\"reqs\":3,"
		    "\"err\":{\"type\":\"E\",\"stack\":\"a\\nb\"},\"level\":30}",
		    "INFO  m reqs=3 err.type=E\n");
		o.hide = NULL;
		o.only = "req.id,err";
		LINE(&o, "{\"msg\":\"m\",\"pid\":1,\"req\":{\"id\":2,\"u\":1},"
		    "\"err\":{\"type\":\"E\",\"stack\":\"a\\nb\"},\"level\":30}",
		    "INFO  m req.id=2 err.type=E\n    err.stack: a\n    b\n");
		o.hide = "err.stack";
		LINE(&o, "{\"msg\":\"m\",\"err\":{\"type\":\"E\",\"stack\":"
		    "\"a\\nb\"},\"level\":30,\"time\":0}",
		    "1970-01-01 00:00:00.000 INFO  m err.type=E\n");
		/* an empty list: no field at all */
		o.hide = NULL;
		o.only = "";
		LINE(&o, "{\"msg\":\"m\",\"a\":1,\"s\":\"x\\ny\"}", "m\n");
		/* the time, level and message are never hidden */
		o.only = NULL;
		o.hide = "msg,level,time";
		LINE(&o, "{\"msg\":\"m\",\"level\":30}", "INFO  m\n");
	}

	TEST("jenc_logv_format: keys of one's own") {
		memset(&o, 0, sizeof(o));
		o.time_keys = "when,at";
		o.level_keys = "sev";
		o.message_keys = "text,body.msg";
		LINE(&o, "{\"time\":1,\"at\":0,\"sev\":\"E\",\"level\":30,"
		    "\"body\":{\"msg\":\"hi\"},\"msg\":\"x\"}",
		    "1970-01-01 00:00:00.000 E     hi time=1 level=30 msg=x\n");
		o.time_keys = "";
		o.level_keys = "";
		o.message_keys = "";
		LINE(&o, "{\"time\":1,\"level\":30,\"msg\":\"x\"}",
		    "time=1 level=30 msg=x\n");
	}

	TEST("jenc_logv_format: a record longer than the local room") {
		static char json[20000], want[20000];
		size_t i, n, w;

		n = (size_t)snprintf(json, sizeof(json), "{\"msg\":\"");
		w = 0;
		for (i = 0; i < 9000; i++) {
			json[n++] = (char)('a' + i % 26);
			want[w++] = (char)('a' + i % 26);
		}
		n += (size_t)snprintf(json + n, sizeof(json) - n,
		    "\",\"k\":\"a\\nb\"}");
		w += (size_t)snprintf(want + w, sizeof(want) - w,
		    "\n    k: a\n    b\n");
		LINE(NULL, json, want);
		CHECK(out.calls > 1);
	}

	TEST("jenc_logv_format: a key twice in its list, and in two lists") {
		/* the key lists are one hash table: each name at its first
		 * place in each list it is in */
		memset(&o, 0, sizeof(o));
		o.time_keys = "b,a,b";
		o.message_keys = "a,c,a";
		LINE(&o, "{\"a\":1714564800,\"b\":\"x\",\"c\":\"m\"}",
		    "x 1714564800 c=m\n");
		LINE(&o, "{\"b\":\"m1\",\"a\":\"m2\",\"c\":3}", "m1 m2 c=3\n");
		LINE(&o, "{\"c\":\"zz\",\"b\":1714564800123}",
		    "2024-05-01 12:00:00.123 zz\n");
		o.time_keys = "c";
		o.level_keys = "c";
		o.message_keys = "c";
		LINE(&o, "{\"a\":1,\"c\":\"m\"}", "m M     m a=1\n");
		LINE(&o, "{\"c\":3,\"b\":2}",
		    "1970-01-01 00:00:03.000 3     3 b=2\n");
		o.time_keys = "b,a";
		o.level_keys = NULL;
		o.message_keys = "b,a,c";
		LINE(&o, "{\"a\":1714564800,\"b\":\"x\",\"c\":\"m\"}",
		    "x x a=1714564800 c=m\n");
	}

	TEST("jenc_logv_format: a record at each place of its 64-byte words") {
		/* the walk finds strings, and the bytes that ask for quotes,
		 * a block of 16 or 8 bytes at a time, a byte at a time near
		 * the end: the same record moved by 0 to 130 bytes of white
		 * space puts each of them on each side of a block's end */
		static const char rec[] = "{\"time\":1714564800020,"
		    "\"level\":30,\"msg\":\"hello world\",\"a\":\"x=y\","
		    "\"b\":\"a_plain_value_long_enough_to_cross_a_word_0123456789\","
		    "\"c\":\"t\\u00e9\",\"d\":\"\xc3\xa9\",\"e\":\"back\\\\slash\","
		    "\"f\":\"q\\\"q\",\"g\":\"\x7f\",\"n\":{\"k\":\"v w\","
		    "\"m\":12,\"\xc3\xa9\":true},\"z\":-1.5,\"w\":\"x\"}";
		static const char want[] = "2024-05-01 12:00:00.020 INFO  "
		    "hello world a=\"x=y\" "
		    "b=a_plain_value_long_enough_to_cross_a_word_0123456789 "
		    "c=t\xc3\xa9 d=\xc3\xa9 e=back\\slash f=\"q\\\"q\" "
		    "g=\"\\u007f\" n.k=\"v w\" n.m=12 n.\xc3\xa9=true z=-1.5 "
		    "w=x\n";
		static char json[512];
		size_t pad;

		for (pad = 0; pad <= 130; pad++) {
			memset(json, ' ', pad);
			memcpy(json + pad, rec, sizeof(rec));
			LINE(NULL, json, want);
		}
	}

	TEST("jenc_logv_format: more leaves and names than one batch holds") {
		/* 70 leaves: the roles are found in the second batch of 64,
		 * and the line walks the text again */
		static char json[4096], want[4096];
		size_t n = 0, w = 0, i;

		n += (size_t)snprintf(json + n, sizeof(json) - n, "{");
		w += (size_t)snprintf(want + w, sizeof(want) - w, "m");
		for (i = 0; i < 70; i++) {
			n += (size_t)snprintf(json + n, sizeof(json) - n,
			    "\"k%zu\":%zu,", i, i);
			w += (size_t)snprintf(want + w, sizeof(want) - w,
			    " k%zu=%zu", i, i);
		}
		n += (size_t)snprintf(json + n, sizeof(json) - n,
		    "\"msg\":\"m\"}");
		w += (size_t)snprintf(want + w, sizeof(want) - w, "\n");
		LINE(NULL, json, want);

		/* 30 nested names of 100 bytes: more than the 2 KiB of names
		 * of a batch */
		n = (size_t)snprintf(json, sizeof(json), "{\"o\":{");
		w = 0;
		for (i = 0; i < 30; i++) {
			n += (size_t)snprintf(json + n, sizeof(json) - n,
			    "%s\"%098zu\":\"v\"", i > 0 ? "," : "", i);
			w += (size_t)snprintf(want + w, sizeof(want) - w,
			    "%so.%098zu=v", i > 0 ? " " : "", i);
		}
		n += (size_t)snprintf(json + n, sizeof(json) - n,
		    "},\"x\":\"a\\nb\"}");
		w += (size_t)snprintf(want + w, sizeof(want) - w,
		    "\n    x: a\n    b\n");
		LINE(NULL, json, want);
	}

	TEST("jenc_logv_format: a nested name longer than a batch's names") {
		static char json[8192], want[8192];
		size_t n, w;

		n = (size_t)snprintf(json, sizeof(json), "{\"a\":1,\"o\":{\"");
		w = (size_t)snprintf(want, sizeof(want), "m a=1 o.");
		memset(json + n, 'k', 3000);
		memset(want + w, 'k', 3000);
		n += 3000;
		w += 3000;
		n += (size_t)snprintf(json + n, sizeof(json) - n,
		    "\":\"x y\",\"j\":2},\"msg\":\"m\",\"p\":2}");
		w += (size_t)snprintf(want + w, sizeof(want) - w,
		    "=\"x y\" o.j=2 p=2\n");
		LINE(NULL, json, want);
	}

	TEST("jenc_logv_format: text that is not an object") {
		static const char *const bad[] = {
			"", " ", "[1]", "1", "\"s\"", "null", "{", "{\"a\"",
			"{\"a\":", "{\"a\":1", "{\"a\":1,", "{\"a\":1}x",
			"{\"a\":1}{}", "{\"a\" 1}", "{1:2}", "{\"a\":1 \"b\":2}",
			"{\"a\":}", "{\"a\":\"x}", "{\"a\":[1}", "{\"a\":{\"b\":1}",
			"{\"a\":\x01}",
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			CHECK_EQ(fmt(NULL, bad[i]), JENC_E_SYNTAX);
			CHECK_EQ(out.n, 0);
		}
	}

	TEST("jenc_logv_format: every prefix of a record is refused") {
		const char *json = "{\"time\":1,\"level\":\"info\",\"msg\":\"m\","
		    "\"a\":{\"b\":[1,{\"c\":\"x\\\"y\"}]},\"s\":\"a\\nb\"}";
		jenc_logv *lv;
		size_t n, k = strlen(json);
		char *p;

		CHECK_EQ(jenc_logv_new(&lv, NULL), 0);
		for (n = 0; n < k; n++) {
			/* a block of exactly n bytes, for ASan */
			p = malloc(n + 1);
			memcpy(p, json, n);
			memset(&out, 0, sizeof(out));
			CHECK_EQ(jenc_logv_format(lv, p, n, to_buf, &out),
			    JENC_E_SYNTAX);
			free(p);
		}
		memset(&out, 0, sizeof(out));
		CHECK_EQ(jenc_logv_format(lv, json, k, to_buf, &out), 1);
		jenc_logv_free(lv);
	}

	TEST("jenc_logv_format: the sink fails") {
		jenc_logv *lv;

		CHECK_EQ(jenc_logv_new(&lv, NULL), 0);
		memset(&out, 0, sizeof(out));
		out.fail_at = 1;
		CHECK_EQ(jenc_logv_format(lv, "{\"msg\":\"m\"}", 11, to_buf,
		    &out), JENC_E_SINK);
		jenc_logv_free(lv);
	}

	TEST("jenc_logv_level") {
		CHECK_EQ(jenc_logv_level("WaRnInG", 7), 40);
		CHECK_EQ(jenc_logv_level("info", 4), 30);
		CHECK_EQ(jenc_logv_level("info", 3), -1);
		CHECK_EQ(jenc_logv_level("infos", 5), -1);
		CHECK_EQ(jenc_logv_level("55", 2), 55);
		CHECK_EQ(jenc_logv_level("1000", 4), -1);
		/* Go's log/slog between its names */
		CHECK_EQ(jenc_logv_level("INFO+2", 6), 35);
		CHECK_EQ(jenc_logv_level("WARN-1", 6), 38);
		CHECK_EQ(jenc_logv_level("INFO+4", 6), 40);
		CHECK_EQ(jenc_logv_level("ERROR+12", 8), 80);
		CHECK_EQ(jenc_logv_level("DEBUG-4", 7), 10);
		CHECK_EQ(jenc_logv_level("DEBUG-12", 8), 0);
		CHECK_EQ(jenc_logv_level("INFO+", 5), -1);
		CHECK_EQ(jenc_logv_level("INFO+100", 8), -1);
		CHECK_EQ(jenc_logv_level("INFO2", 5), -1);
		CHECK_EQ(jenc_logv_level("+2", 2), -1);
		CHECK_EQ(jenc_logv_level("X+2", 3), -1);
		CHECK_EQ(jenc_logv_level("INFO+-2", 7), -1);
		CHECK_EQ(jenc_logv_level("5x", 2), -1);
		CHECK_EQ(jenc_logv_level("", 0), -1);
	}

	TEST("jenc_logv_time") {
		int64_t now = 1714564800000000000LL, ns = 0;

		CHECK_EQ(jenc_logv_time("-1h", 3, now, &ns), 0);
		CHECK_EQ(ns, now - 3600 * 1000000000LL);
		CHECK_EQ(jenc_logv_time("15m", 3, now, &ns), 0);
		CHECK_EQ(ns, now - 900 * 1000000000LL);
		CHECK_EQ(jenc_logv_time("-1h30m10s", 9, now, &ns), 0);
		CHECK_EQ(ns, now - 5410 * 1000000000LL);
		CHECK_EQ(jenc_logv_time("-2d", 3, now, &ns), 0);
		CHECK_EQ(ns, now - 172800 * 1000000000LL);
		CHECK_EQ(jenc_logv_time("1w", 2, now, &ns), 0);
		CHECK_EQ(ns, now - 604800 * 1000000000LL);
		CHECK_EQ(jenc_logv_time("now", 3, now, &ns), 0);
		CHECK_EQ(ns, now);
		CHECK_EQ(jenc_logv_time("2024-05-01T12:00:00.5+01:00", 27, 0,
		    &ns), 0);
		CHECK_EQ(ns, 1714561200500000000LL);
		CHECK_EQ(jenc_logv_time("2024-05-01 12:00", 16, 0, &ns), 0);
		CHECK_EQ(ns, now);
		CHECK_EQ(jenc_logv_time("2024-05-01", 10, 0, &ns), 0);
		CHECK_EQ(ns, now - 12 * 3600 * 1000000000LL);
		set_tz("JST-9");
		CHECK_EQ(jenc_logv_time("2024-05-01", 10, 0, &ns), 0);
		CHECK_EQ(ns, now - 21 * 3600 * 1000000000LL);
		set_tz("UTC0");
		CHECK_EQ(jenc_logv_time("", 0, now, &ns), JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("-", 1, now, &ns), JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("-1", 2, now, &ns), JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("-1y", 3, now, &ns), JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("-h", 2, now, &ns), JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("2024-13-01", 10, now, &ns),
		    JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("2024-05-01T12", 13, now, &ns),
		    JENC_E_SYNTAX);
		CHECK_EQ(jenc_logv_time("9999-01-01T00:00:00Z", 20, now, &ns),
		    JENC_E_RANGE);
	}

	TEST("jenc_logv_new: allocations are given back") {
		jenc_pool_stats a, b;
		jenc_logv *lv;

		jenc_pool_stats_get(&a);
		memset(&o, 0, sizeof(o));
		o.hide = "a,b";
		o.only = "c";
		CHECK_EQ(jenc_logv_new(&lv, &o), 0);
		jenc_logv_free(lv);
		jenc_logv_free(NULL);
		jenc_pool_stats_get(&b);
		CHECK_EQ(b.mallocs - a.mallocs, b.frees - a.frees);
	}

	TEST("jenc_logv_view: records in their place, other text and blank lines as they are") {
		static const char in[] =
		    "\n{\"level\":30,\"msg\":\"a\"}\n\n  \t\nbanner\n"
		    "[1]\n{\"level\":40,\"msg\":\"b\"}\n{\"x\":\n\n"
		    "{\"level\":50,\"msg\":\"c\",\"s\":\"1\\n2\"} \n\n";
		static const char want[] =
		    "\nINFO  a\n\n\nbanner\n[1]\nWARN  b\n{\"x\":\n\n"
		    "ERROR c\n    s: 1\n    2\n\n";
		jenc_read_opts ro = { JENC_READ_PASS | JENC_READ_BLANK, 0,
		    NULL, NULL, NULL };
		jenc_logv *lv;
		jenc_view v;
		jenc_enc *e;
		jenc_err err;
		char *p;
		size_t n;

		CHECK_EQ(jenc_logv_new(&lv, NULL), 0);
		jenc_logv_view(lv, &v);
		e = jenc_get_mem(NULL);
		CHECK_EQ(jenc_set_view(e, &v), 0);
		CHECK_EQ(jenc_json_copy_mem(in, sizeof(in) - 1, e, &ro, &err), 0);
		CHECK_EQ(err.code, JENC_E_SYNTAX);
		p = jenc_take(e, &n);
		CHECK_STR(p, n, want);
		jenc_free(p, n);
		CHECK_EQ(jenc_release(e), 0);
		/* without JENC_READ_BLANK, blank lines go as whitespace does */
		ro.flags = JENC_READ_PASS;
		e = jenc_get_mem(NULL);
		CHECK_EQ(jenc_set_view(e, &v), 0);
		CHECK_EQ(jenc_json_copy_mem(in, sizeof(in) - 1, e, &ro, &err), 0);
		p = jenc_take(e, &n);
		CHECK_STR(p, n, "INFO  a\nbanner\n[1]\nWARN  b\n{\"x\":\n\n"
		    "ERROR c\n    s: 1\n    2\n");
		jenc_free(p, n);
		CHECK_EQ(jenc_release(e), 0);
		jenc_logv_free(lv);
	}

	TEST("jenc_logv_view: blank lines after a window has slid") {
		/* a line of 300 KiB: the blank lines after it are read in a
		 * window that has slid */
		static const char tail[] = "\"}\n\n \n{\"msg\":\"y\"}\n\n";
		size_t big = 300 * 1024, n, k;
		char *in = malloc(big + 64), *p;
		jenc_read_opts ro = { JENC_READ_PASS | JENC_READ_BLANK, 0,
		    NULL, NULL, NULL };
		jenc_logv *lv;
		jenc_view v;
		jenc_enc *e;
		jenc_err err;

		memcpy(in, "{\"msg\":\"", 8);
		memset(in + 8, 'x', big);
		memcpy(in + 8 + big, tail, sizeof(tail) - 1);
		CHECK_EQ(jenc_logv_new(&lv, NULL), 0);
		jenc_logv_view(lv, &v);
		e = jenc_get_mem(NULL);
		CHECK_EQ(jenc_set_view(e, &v), 0);
		CHECK_EQ(jenc_json_copy_mem(in, 8 + big + sizeof(tail) - 1, e, &ro,
		    &err), 0);
		p = jenc_take(e, &n);
		CHECK_EQ(n, big + 1 + 2 + 2 + 1);
		for (k = 0; k < big && p[k] == 'x'; k++)
			;
		CHECK_EQ(k, big);
		CHECK_STR(p + big, n - big, "\n\n\ny\n\n");
		jenc_free(p, n);
		CHECK_EQ(jenc_release(e), 0);
		jenc_logv_free(lv);
		free(in);
	}

	TEST("jenc_logv_view: CSV records, which the reader hands over whole") {
		static const char in[] = "time,level,msg\n0,warn,a b\n";
		jenc_csv_opts co = { JENC_CSV_LINES, 0, NULL, 0, NULL, 0, NULL };
		jenc_logv *lv;
		jenc_view v;
		jenc_enc *e;
		jenc_err err;
		char *p;
		size_t n;

		CHECK_EQ(jenc_logv_new(&lv, NULL), 0);
		jenc_logv_view(lv, &v);
		e = jenc_get_mem(NULL);
		CHECK_EQ(jenc_set_view(e, &v), 0);
		CHECK_EQ(jenc_csv_copy_mem(in, sizeof(in) - 1, e, &co, &err), 0);
		p = jenc_take(e, &n);
		CHECK_STR(p, n, "1970-01-01 00:00:00.000 WARN  a b\n");
		jenc_free(p, n);
		CHECK_EQ(jenc_release(e), 0);
		jenc_logv_free(lv);
	}

	TEST("jenc_logv_view: on threads (jenc_json_copy_fd_par), the same bytes") {
		char path[] = "/tmp/test_logv.XXXXXX", line[160];
		jenc_read_opts ro = { JENC_READ_PASS | JENC_READ_BLANK, 0,
		    NULL, NULL, NULL };
		jenc_logv *lv;
		jenc_view v;
		jenc_enc *e;
		jenc_err err;
		char *one, *par;
		size_t n1, n2;
		int fd = mkstemp(path), i, pass;

		CHECK(fd >= 0);
		for (i = 1; i <= 3000; i++) {
			int k = snprintf(line, sizeof(line), i % 7 == 3 ?
			    "not json %d\n\n" : i % 11 == 5 ?
			    "{\"time\":%d,\"level\":50,\"msg\":\"m\","
			    "\"stack\":\"a\\nb\"}\n" :
			    "{\"time\":%d000,\"level\":30,\"msg\":\"m\"}\n", i);

			CHECK_EQ(write(fd, line, (size_t)k), k);
		}
		CHECK_EQ(jenc_logv_new(&lv, NULL), 0);
		jenc_logv_view(lv, &v);
		CHECK(v.flags & JENC_VIEW_THREADS);
		one = par = NULL;
		n1 = n2 = 0;
		for (pass = 0; pass < 2; pass++) {
			CHECK_EQ(lseek(fd, 0, SEEK_SET), 0);
			e = jenc_get_mem(NULL);
			CHECK_EQ(jenc_set_view(e, &v), 0);
			CHECK_EQ(jenc_json_copy_fd_par(fd, e, &ro, &err,
			    pass ? 2 : 1, 256), 0);
			if (pass)
				par = jenc_take(e, &n2);
			else
				one = jenc_take(e, &n1);
			CHECK_EQ(jenc_release(e), 0);
		}
		CHECK(n1 > 60000);
		CHECK_EQ(n2, n1);
		CHECK(one != NULL && par != NULL && n2 == n1 &&
		    memcmp(one, par, n1) == 0);
		CHECK_STR(one, 24, "1970-01-01 00:16:40.000 ");
		jenc_free(one, n1);
		jenc_free(par, n2);
		jenc_logv_free(lv);
		close(fd);
		unlink(path);
	}

	return harness_done();
}
