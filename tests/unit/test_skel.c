/*
 * test_skel.c - the skeleton jsmn reads (lib/skel.c) and the reader's two
 * paths: every classifier the processor runs against a plain byte-by-byte
 * reference, and the JSON reader with and without JENC_READ_EXACT on the
 * corpus, the JSONTestSuite, the sample files and damaged copies of them
 * (bytes changed, dropped, whitespace put between tokens), from memory
 * and from a file, in every output mode and error policy: the output
 * bytes (all that reached the sink, before an error too), the result,
 * and every field of the error must be the same.  Likewise the reader on
 * two threads (jenc_json_pipe, lib/pipe.c) against the one-thread reader
 * from the file, its second thread reading 1 byte to 128 KiB at a time.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "harness.h"

static const char *
shared(void)
{
	const char *d = getenv("JENC_SHARED");

	return d != NULL && *d != '\0' ? d : "../shared";
}

/* ---- the reference skeleton ------------------------------------------- */

static int
is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
is_st(unsigned char c)
{
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' ||
	    c == ':';
}

static int
is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* skel.c's contract, one byte at a time. */
static size_t
ref_skel(const char *text, size_t n, char *s, uint32_t *map, size_t *slen)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i, k = 0, b = 0, sb = 0;
	int instr = 0, prim = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (instr) {
			if (c == '\\') {
				if (i + 1 >= n)
					break;
				c = p[++i];
				if (c == 'u') {
					size_t j;

					for (j = i + 1; j < i + 5 && j < n; j++)
						if (!is_hex(p[j]))
							return (size_t)-1;
				} else if (strchr("\"\\/bfnrt", c) == NULL ||
				    c == 0) {
					return (size_t)-1;
				}
				continue;
			}
			if (c < 0x20)
				return (size_t)-1;
			if (c >= 0x80) {
				uint32_t cp;
				size_t len = jenc_utf8_seq(p + i, n - i, &cp), e;

				if (len == 0) {
					/* cut by the end: the string goes on */
					size_t need = c >= 0xf0 ? 4 :
					    c >= 0xe0 ? 3 : 2;

					if (i + need <= n || c < 0xc2 ||
					    c > 0xf4)
						return (size_t)-1;
					for (e = i + 1; e < n; e++)
						if ((p[e] & 0xc0) != 0x80)
							return (size_t)-1;
					break;
				}
				i += len - 1;
				continue;
			}
			if (c == '"') {
				instr = 0;
				s[k] = '"';
				map[k++] = (uint32_t)i;
				b = i + 1;
				sb = k;
			}
			continue;
		}
		if (is_ws(c)) {
			if (prim) {
				s[k] = (char)c;
				map[k++] = (uint32_t)i;
				b = i + 1;
				sb = k;
			}
			prim = 0;
			continue;
		}
		if (c == '\\' || c < 0x20 || c >= 0x7f)
			return (size_t)-1;
		if (prim && (c == '"' || c == '{' || c == '[' || c == ':'))
			return (size_t)-1;
		if (!prim || is_st(c)) {
			s[k] = (char)c;
			map[k++] = (uint32_t)i;
		}
		if (c == '"') {
			instr = 1;
			prim = 0;
		} else if (is_st(c)) {
			b = i + 1;
			sb = k;
			prim = 0;
		} else {
			prim = 1;
		}
	}
	*slen = sb;
	return b;
}

static char sk_a[JENC_SKEL_MAX], sk_b[JENC_SKEL_ROOM(JENC_SKEL_MAX)];
static uint32_t map_a[JENC_SKEL_MAX], map_b[JENC_SKEL_ROOM(JENC_SKEL_MAX)];

/* Every classifier agrees with the reference on p[0..n). */
/* jenc_skel's result in ref_skel's form: the bytes covered, or
 * (size_t)-1 if refused (JENC_ST_FALLBACK). */
static size_t
skel_b(const char *p, size_t n, char *s, uint32_t *map, size_t *slen)
{
	size_t b = 0;

	return jenc_skel(p, n, s, map, slen, &b) != 0 ? (size_t)-1 : b;
}

static int
skel_same(const char *p, size_t n)
{
	size_t ra, la = 0, rb, lb = 0;
	int isa, ok = 1;

	if (n > JENC_SKEL_MAX)
		n = JENC_SKEL_MAX;
	ra = ref_skel(p, n, sk_a, map_a, &la);
	for (isa = JENC_SKEL_SCALAR; isa <= JENC_SKEL_LAST; isa++) {
		if (jenc_skel_use(isa) != isa)
			continue;
		rb = skel_b(p, n, sk_b, map_b, &lb);
		if (rb != ra || (ra != (size_t)-1 && (lb != la ||
		    memcmp(sk_a, sk_b, la) != 0 ||
		    memcmp(map_a, map_b, la * sizeof(uint32_t)) != 0))) {
			fprintf(stderr, "isa %d: b %zu/%zu, %zu/%zu bytes\n",
			    isa, rb, ra, lb, la);
			ok = 0;
		}
	}
	jenc_skel_use(-1);
	return ok;
}

/* ---- inputs ---------------------------------------------------------- */

struct input {
	char *p;
	size_t n;
};

static struct input *inputs;
static size_t ninputs, capinputs;

static void
add_input(const char *p, size_t n)
{
	if (ninputs == capinputs) {
		capinputs = capinputs ? capinputs * 2 : 256;
		inputs = realloc(inputs, capinputs * sizeof(*inputs));
	}
	inputs[ninputs].p = malloc(n + 1);
	memcpy(inputs[ninputs].p, p, n);
	inputs[ninputs].n = n;
	ninputs++;
}

static int
read_file(const char *path, char **p, size_t *n)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (f == NULL)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	*p = malloc((size_t)len + 1);
	*n = fread(*p, 1, (size_t)len, f);
	fclose(f);
	return 0;
}

static void
add_file(const char *path, size_t max)
{
	char *p;
	size_t n;

	if (read_file(path, &p, &n) != 0)
		return;
	add_input(p, n < max ? n : max);
	free(p);
}

static void
add_dir(const char *dir, const char *suffix, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name), sl = strlen(suffix);

		if (l < sl || strcmp(de->d_name + l - sl, suffix) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		add_file(path, max);
	}
	closedir(d);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Damaged copies of p[0..n): a few bytes changed, dropped, or whitespace
 * put in. */
static void
add_damaged(const char *p, size_t n, int copies)
{
	static const char bytes[] = " \n\t\"\\{}[],:0-1e.tfnu\x01\x80\xc3\xff";
	char *q = malloc(n + 64);
	int c;

	for (c = 0; c < copies && n > 0; c++) {
		size_t m = n, at, k;
		int edits = 1 + (int)(rnd() % 3), i;

		memcpy(q, p, n);
		for (i = 0; i < edits; i++) {
			at = (size_t)(rnd() % m);
			switch (rnd() % 3) {
			case 0:
				q[at] = bytes[rnd() % (sizeof(bytes) - 1)];
				break;
			case 1:
				memmove(q + at, q + at + 1, m - at - 1);
				m--;
				break;
			default:
				k = 1 + (size_t)(rnd() % 3);
				if (m + k > n + 60)
					break;
				memmove(q + at + k, q + at, m - at);
				memset(q + at, rnd() & 1 ? ' ' : '\n', k);
				m += k;
			}
			if (m == 0)
				break;
		}
		add_input(q, m);
	}
	free(q);
}

/* ---- the reader, both ways ------------------------------------------ */

struct result {
	struct harness_buf out;
	int rc;
	jenc_err err;
	uint64_t bad;		/* on_error calls */
};

static void
on_bad(void *ctx, const jenc_err *err)
{
	struct result *r = ctx;

	r->bad = r->bad * 31 + err->offset + err->line * 7 + err->col;
}

static char tmpname[64];

static void
run(const char *p, size_t n, const jenc_opts *eo, unsigned rflags,
    int from_fd, struct result *res)
{
	jenc_read_opts ro = { .flags = rflags, .on_error = on_bad,
		.ctx = res };
	jenc_enc *e;

	memset(&res->err, 0, sizeof(res->err));
	res->out.len = 0;
	res->bad = 0;
	e = jenc_get_sink(harness_buf_put, &res->out, eo);
	if (from_fd) {
		int fd = open(tmpname, O_RDONLY);

		res->rc = jenc_json_copy_fd(fd, e, &ro, &res->err);
		close(fd);
	} else {
		res->rc = jenc_json_copy_mem(p, n, e, &ro, &res->err);
	}
	(void)jenc_flush(e);
	(void)jenc_release(e);
}

/*
 * The reader on two threads (jenc_json_pipe, pipe.c), the scout reading
 * piece bytes at a time: how 0 from memory, 1 from the file, 2 its first
 * third from memory and the rest from the file.
 */
static void
run_pipe(const char *p, size_t n, const jenc_opts *eo, unsigned rflags,
    int how, size_t piece, struct result *res)
{
	jenc_read_opts ro = { .flags = rflags, .on_error = on_bad,
		.ctx = res };
	size_t k = how == 0 ? n : how == 1 ? 0 : n / 3;
	int fd = how == 0 ? -1 : open(tmpname, O_RDONLY);
	jenc_enc *e;

	memset(&res->err, 0, sizeof(res->err));
	res->out.len = 0;
	res->bad = 0;
	if (fd >= 0)
		(void)lseek(fd, (off_t)k, SEEK_SET);
	e = jenc_get_sink(harness_buf_put, &res->out, eo);
	res->rc = jenc_json_pipe(fd, k > 0 ? p : NULL, k, 0, 1, e, &ro,
	    &res->err, piece);
	if (fd >= 0)
		close(fd);
	(void)jenc_flush(e);
	(void)jenc_release(e);
}

static int
same_result(const struct result *a, const struct result *b)
{
	const jenc_err *x = &a->err, *y = &b->err;

	return a->rc == b->rc && a->out.len == b->out.len &&
	    (a->out.len == 0 || memcmp(a->out.p, b->out.p, a->out.len) == 0) &&
	    a->bad == b->bad &&
	    x->code == y->code && x->offset == y->offset &&
	    x->line == y->line && x->col == y->col &&
	    x->lines == y->lines && x->passed == y->passed &&
	    x->cut == y->cut && strcmp(x->msg, y->msg) == 0 &&
	    strcmp(x->excerpt, y->excerpt) == 0 && x->caret == y->caret;
}

static const struct mode {
	const char *name;
	jenc_opts o;
} modes[] = {
	{ "-c", { .indent = 0, .flags = JENC_LOWER_HEX | JENC_HOLD } },
	{ "indent 2", { .indent = 2, .flags = JENC_LOWER_HEX | JENC_HOLD } },
	{ "tab", { .flags = JENC_TAB | JENC_LOWER_HEX | JENC_HOLD } },
	{ "-H -a -c", { .flags = JENC_HTML | JENC_ASCII | JENC_HOLD } },
	{ "-S", { .indent = 2, .flags = JENC_SORT_KEYS | JENC_HOLD } },
	{ "-c --split", { .flags = JENC_SPLIT | JENC_HOLD } },
	{ "-c -s", { .flags = JENC_SLURP | JENC_HOLD } },
	{ "-c unheld", { .flags = JENC_LOWER_HEX } },
	{ "-c --seq", { .flags = JENC_SEQ | JENC_HOLD } },
};

static const unsigned policies[] = {
	0, JENC_READ_SKIP, JENC_READ_PASS, JENC_READ_SINGLE,
	JENC_READ_SEQ | JENC_READ_SKIP,
};

static struct result fast, exact;

/* Input i in every mode (all of them: full 1, else a few chosen from
 * the input's number) and policy, from memory and from a file. */
static int
diff_input(size_t i, int full)
{
	const struct input *in = &inputs[i];
	size_t m, k, nm = sizeof(modes) / sizeof(modes[0]);
	size_t np = sizeof(policies) / sizeof(policies[0]);
	int fd, ok = 1, from_fd;

	fd = open(tmpname, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, in->p, in->n) != (ssize_t)in->n)
		return 0;
	close(fd);
	for (m = 0; m < nm; m++) {
		if (!full && m != 0 && m != 1 + i % (nm - 1))
			continue;
		for (k = 0; k < np; k++) {
			if (!full && k != 0 && k != 1 + (i / nm) % (np - 1))
				continue;
			for (from_fd = 0; from_fd < 2; from_fd++) {
				run(in->p, in->n, &modes[m].o, policies[k],
				    from_fd, &fast);
				run(in->p, in->n, &modes[m].o,
				    policies[k] | JENC_READ_EXACT, from_fd,
				    &exact);
				if (same_result(&fast, &exact))
					continue;
				fprintf(stderr, "input %zu (%zu bytes, %.40s), "
				    "%s, policy %#x, %s: rc %d/%d, %zu/%zu "
				    "bytes, error '%s' / '%s'\n", i, in->n,
				    in->p, modes[m].name, policies[k],
				    from_fd ? "fd" : "mem", fast.rc,
				    exact.rc, fast.out.len, exact.out.len,
				    fast.err.msg, exact.err.msg);
				ok = 0;
			}
		}
	}
	return ok;
}

/* Input i on two threads as on one: in every mode and policy (full), or
 * one of each chosen from i; the piece size and the way to read it are
 * chosen from i too. */
static int
diff_pipe(size_t i, int full)
{
	static const size_t pieces[] = { 1, 7, 64, 1000, 4096, 70000, 0 };
	const struct input *in = &inputs[i];
	size_t m, k, nm = sizeof(modes) / sizeof(modes[0]);
	size_t np = sizeof(policies) / sizeof(policies[0]);
	size_t piece = pieces[i % (sizeof(pieces) / sizeof(pieces[0]))];
	int fd, ok = 1, how = (int)(i / 7 % 3);

	if (piece == 1 && in->n > 20000)
		piece = 4096;		/* in time */
	fd = open(tmpname, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, in->p, in->n) != (ssize_t)in->n)
		return 0;
	close(fd);
	for (m = 0; m < nm; m++) {
		if (!full && m != i % nm)
			continue;
		for (k = 0; k < np; k++) {
			if (!full && k != (i / nm) % np)
				continue;
			run(in->p, in->n, &modes[m].o, policies[k], 1, &fast);
			run_pipe(in->p, in->n, &modes[m].o, policies[k], how,
			    piece, &exact);
			if (same_result(&fast, &exact))
				continue;
			fprintf(stderr, "input %zu (%zu bytes, %.40s), %s, "
			    "policy %#x, piece %zu, how %d: rc %d/%d, "
			    "%zu/%zu bytes, error '%s' / '%s'\n", i, in->n,
			    in->p, modes[m].name, policies[k], piece, how,
			    fast.rc, exact.rc, fast.out.len, exact.out.len,
			    fast.err.msg, exact.err.msg);
			ok = 0;
		}
	}
	return ok;
}

int
main(void)
{
	char dir[4096];
	size_t i, first_damaged, nfiles;
	int ok;

	snprintf(tmpname, sizeof(tmpname), "/tmp/test_skel.%d",
	    (int)getpid());

	TEST("jenc_skel: the classifier chosen is supported") {
		int isa = jenc_skel_use(-1);

		CHECK(isa >= JENC_SKEL_SCALAR && isa <= JENC_SKEL_LAST);
		CHECK(jenc_skel_use(JENC_SKEL_SCALAR) == JENC_SKEL_SCALAR);
		jenc_skel_use(-1);
	}

	/* Which classifiers the tests below compare with the reference
	 * (skel_same): those this processor runs; the others are skipped,
	 * and said so. */
	{
		static const char *const isa_name[] = {
			[JENC_SKEL_SCALAR] = "portable", [JENC_SKEL_SSE2] = "SSE2",
			[JENC_SKEL_AVX2] = "AVX2",
			[JENC_SKEL_AVX512] = "AVX-512BW",
			[JENC_SKEL_VBMI2] = "AVX-512 VBMI2",
		};
		static char names[JENC_SKEL_VBMI2 + 1][64];
		int isa;

		printf("test_skel: classifiers compared:");
		for (isa = JENC_SKEL_SCALAR; isa <= JENC_SKEL_VBMI2; isa++)
			if (jenc_skel_use(isa) == isa)
				printf(" %s", isa_name[isa]);
		printf(" (the widest is jenc's)\n");
		jenc_skel_use(-1);
		for (isa = JENC_SKEL_SCALAR; isa <= JENC_SKEL_VBMI2; isa++) {
			snprintf(names[isa], sizeof(names[isa]),
			    "jenc_skel: the %s classifier", isa_name[isa]);
			TEST(names[isa]) {
				if (jenc_skel_use(isa) != isa)
					SKIP("not run: this processor (or "
					    "build) has no such instructions");
				CHECK(skel_same("[1, \"a\"]", 8));
				jenc_skel_use(-1);
			}
		}
	}

	TEST("jenc_skel: a worked example") {
		static const char t[] = "{\"id\": 12, \"s\": \"a b\\\"\", "
		    "\"l\": [true , null]}";
		size_t sl = 0, b = skel_b(t, sizeof(t) - 1, sk_b, map_b, &sl);

		CHECK_EQ(b, sizeof(t) - 1);
		CHECK_STR(sk_b, sl, "{\"\":1,\"\":\"\",\"\":[t ,n]}");
		CHECK_EQ(map_b[4], 7);		/* the "1" of 12 */
		CHECK(skel_same(t, sizeof(t) - 1));
	}

	TEST("jenc_skel: the skeleton ends where no token is cut") {
		size_t sl = 0;

		CHECK_EQ(skel_b("[1,\"ab", 6, sk_b, map_b, &sl), 3);
		CHECK_STR(sk_b, sl, "[1,");
		CHECK_EQ(skel_b("[12", 3, sk_b, map_b, &sl), 1);
		CHECK_EQ(skel_b("12 ", 3, sk_b, map_b, &sl), 3);
		CHECK_STR(sk_b, sl, "1 ");
		CHECK_EQ(skel_b("\"a\\", 3, sk_b, map_b, &sl), 0);
		CHECK_EQ(skel_b("\"\\u12", 5, sk_b, map_b, &sl), 0);
	}

	TEST("jenc_skel: what jsmn could read otherwise is refused") {
		static const char *const bad[] = {
			"[1\"a b\"]", "[1{\"a\":1}]", "[true[]]", "{\"a\":1:2}",
			"[\"\\x\"]", "[\"\\u12x4\"]", "[\"a\x01\"]", "[\"\0\"]",
			"[1]\\", "[\x7f]", "[\xc3\xa9]", "[\x01]",
			"[\"\\u\"]", "[\"\xc3\"]", "[\"\xed\xa0\x80\"]",
			"[\"\xff\"]",
		};
		size_t j, sl, b;

		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
			size_t len = j == 7 ? 5 : strlen(bad[j]);

			CHECK(jenc_skel(bad[j], len, sk_b, map_b, &sl, &b) ==
			    JENC_ST_FALLBACK);
			CHECK(skel_same(bad[j], len));
		}
	}

	TEST("jenc_skel: every byte, at every place of two blocks, in and "
	    "out of strings") {
		/* the byte takes the place of '@' in each; the run of spaces
		 * before it moves it through 128 offsets */
		static const char *const ctx[] = {
			"[\"@\"]", "[@]", "[1@2]", "{\"a\"@1}", "[\"\\@\"]",
			"[1,@", "[\"a\"@\"b\"]", "[t@ ]",
		};
		char t[256];
		size_t j, sp;
		int c;

		ok = 1;
		for (c = 0; c < 256 && ok; c++)
			for (j = 0; j < sizeof(ctx) / sizeof(ctx[0]); j++)
				for (sp = 0; sp < 128 && ok; sp++) {
					const char *x = ctx[j], *at = strchr(x, '@');
					size_t n = 0, a = (size_t)(at - x);

					memset(t, ' ', sp);
					n = sp;
					memcpy(t + n, x, a);
					n += a;
					t[n++] = (char)c;
					memcpy(t + n, at + 1, strlen(at + 1));
					n += strlen(at + 1);
					ok = skel_same(t, n);
					if (!ok)
						fprintf(stderr, "byte 0x%02x in "
						    "%s after %zu spaces\n", c,
						    x, sp);
				}
		CHECK(ok);
	}

	/* inputs: the corpus (up to 1 MiB of each, and a 3 MiB one through
	 * several windows), the JSONTestSuite, the samples */
	snprintf(dir, sizeof(dir), "%s/corpus", shared());
	add_dir(dir, ".json", (size_t)1 << 20);
	add_dir(dir, ".ndjson", (size_t)1 << 20);
	snprintf(dir, sizeof(dir), "%s/corpus/canada.json", shared());
	add_file(dir, (size_t)3 << 20);
	nfiles = ninputs;
	snprintf(dir, sizeof(dir), "%s/conformance/JSONTestSuite", shared());
	add_dir(dir, ".json", (size_t)1 << 20);
	add_dir("tests/data", ".json", (size_t)1 << 20);
	add_dir("tests/data", ".ndjson", (size_t)1 << 20);
	first_damaged = ninputs;
	for (i = 0; i < first_damaged; i++) {
		const struct input *in = &inputs[i];

		if (in->n <= 4096) {
			add_damaged(in->p, in->n, 8);
		} else {
			/* damaged slices of the large ones */
			int c;

			for (c = 0; c < 24; c++) {
				size_t len = 200 + (size_t)(rnd() % 3000);
				size_t at = (size_t)(rnd() % (in->n - len));

				add_damaged(in->p + at, len, 1);
			}
		}
	}

	TEST("jenc_skel: every classifier is the reference, on every input") {
		ok = 1;
		for (i = 0; i < ninputs && ok; i++) {
			size_t at;

			ok = skel_same(inputs[i].p, inputs[i].n);
			/* the large ones from many places */
			for (at = 4099; ok && at < inputs[i].n;
			    at += 65536 + 4099)
				ok = skel_same(inputs[i].p + at,
				    inputs[i].n - at);
		}
		CHECK(ok);
		CHECK(ninputs > 1000);
		CHECK(nfiles >= 5);
	}

	TEST("reader: skeleton and exact paths give the same, every input") {
		ok = 1;
		for (i = 0; i < ninputs; i++)
			if (!diff_input(i, i < first_damaged))
				ok = 0;
		CHECK(ok);
	}

	TEST("reader: on two threads (jenc_json_pipe) as on one") {
		ok = 1;
		for (i = 0; i < ninputs; i++)
			if (!diff_pipe(i, i < nfiles))
				ok = 0;
		CHECK(ok);
	}

	TEST("reader: the same with the portable classifier") {
		jenc_skel_use(JENC_SKEL_SCALAR);
		ok = 1;
		for (i = nfiles; i < ninputs; i += 3)
			if (!diff_input(i, 0))
				ok = 0;
		jenc_skel_use(-1);
		CHECK(ok);
	}

	unlink(tmpname);
	for (i = 0; i < ninputs; i++)
		free(inputs[i].p);
	free(inputs);
	free(fast.out.p);
	free(exact.out.p);
	return harness_done();
}
