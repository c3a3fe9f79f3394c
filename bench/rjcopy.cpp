/*
 * rjcopy.cpp - a bench peer: RapidJSON's SAX Reader feeding its Writer
 * (compact) or PrettyWriter (indented), a streaming re-encoder in bounded
 * memory as jenc is.
 *
 *	rjcopy [-i N] [FILE]
 *
 * Reads FILE (or standard input) through a 64 KiB FileReadStream and
 * writes through a 64 KiB FileWriteStream: compact without -i, indented N
 * spaces per level with -i N (N >= 1; PrettyWriter's layout is Go's
 * json.Indent's, so -i 2 is laid out as jenc's default and -i 4 as
 * jenc --indent=4).  Every top-level value of the input is read in turn
 * (kParseStopWhenDoneFlag), so JSON Lines and concatenated values work,
 * and each is written with a newline after it.
 *
 * The Reader validates UTF-8 (kParseValidateEncodingFlag) and hands
 * numbers over as their text (kParseNumbersAsStringsFlag), which goes
 * out as it came: numbers come out verbatim, as jenc writes them, but
 * the Reader still rejects a number beyond a double's range (1e400) as
 * "Number too big to be stored in double".  Strings
 * are unescaped and escaped again (RapidJSON escapes only what JSON
 * requires, and control characters as \u00XX).  Exit status 0, 1 on
 * invalid input (with the byte offset), 3 on a read or write error.
 *
 * Built by bench/bench.mk when rapidjson-dev is installed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rapidjson/error/en.h>
#include <rapidjson/filereadstream.h>
#include <rapidjson/filewritestream.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/writer.h>

using namespace rapidjson;

static const unsigned flags = kParseStopWhenDoneFlag |
    kParseValidateEncodingFlag | kParseNumbersAsStringsFlag;

/*
 * The writer, but a number's text goes out as a raw value: RapidJSON
 * 1.1.0's Writer::RawNumber writes it as a string, in quotes.
 */
template <typename W>
struct Verbatim : public BaseReaderHandler<UTF8<>, Verbatim<W> > {
	W &w;
	explicit Verbatim(W &writer) : w(writer) {}
	bool Null() { return w.Null(); }
	bool Bool(bool b) { return w.Bool(b); }
	bool RawNumber(const char *s, SizeType n, bool) {
		return w.RawValue(s, n, kNumberType);
	}
	bool String(const char *s, SizeType n, bool c) {
		return w.String(s, n, c);
	}
	bool StartObject() { return w.StartObject(); }
	bool Key(const char *s, SizeType n, bool c) { return w.Key(s, n, c); }
	bool EndObject(SizeType n) { return w.EndObject(n); }
	bool StartArray() { return w.StartArray(); }
	bool EndArray(SizeType n) { return w.EndArray(n); }
};

template <typename W>
static int
copy(FileReadStream &is, FileWriteStream &os, W &w)
{
	Verbatim<W> h(w);
	Reader reader;

	for (;;) {
		SkipWhitespace(is);
		if (is.Peek() == '\0')
			break;
		if (!reader.Parse<flags>(is, h)) {
			os.Flush();
			fprintf(stderr, "rjcopy: offset %zu: %s\n",
			    reader.GetErrorOffset(),
			    GetParseError_En(reader.GetParseErrorCode()));
			return 1;
		}
		os.Put('\n');
		w.Reset(os);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static char ibuf[1 << 16], obuf[1 << 16];
	FILE *in = stdin;
	long indent = 0;
	int ch, rc;

	while ((ch = getopt(argc, argv, "i:")) != -1) {
		if (ch != 'i' || (indent = strtol(optarg, NULL, 10)) < 1) {
			fprintf(stderr, "usage: rjcopy [-i n] [file]\n");
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "usage: rjcopy [-i n] [file]\n");
		return 2;
	}
	if (optind < argc && (in = fopen(argv[optind], "rb")) == NULL) {
		fprintf(stderr, "rjcopy: %s: %s\n", argv[optind],
		    strerror(errno));
		return 3;
	}
	FileReadStream is(in, ibuf, sizeof(ibuf));
	FileWriteStream os(stdout, obuf, sizeof(obuf));
	if (indent > 0) {
		PrettyWriter<FileWriteStream> w(os);

		w.SetIndent(' ', (unsigned)indent);
		rc = copy(is, os, w);
	} else {
		Writer<FileWriteStream> w(os);

		rc = copy(is, os, w);
	}
	os.Flush();
	if (ferror(in) || ferror(stdout) || fflush(stdout) != 0) {
		fprintf(stderr, "rjcopy: read or write error\n");
		return 3;
	}
	return rc;
}
