/*
 * jsoncanon.c - digest the values of a JSON stream, not its bytes, so that
 * outputs of tools that format differently can be checked for equality.
 *
 *	jsoncanon [-s] [-k] < stream
 *
 * Reads a stream of JSON values (one document, NDJSON or concatenated)
 * from stdin with yajl's push parser (memory stays bounded) and prints
 * "SHA256 VALUES BYTES": the SHA-256 of a canonical event sequence, the
 * number of top-level values and the input length.  Two streams get the
 * same digest when they hold the same values in the same order:
 *  - strings and keys are compared after decoding escapes (so "\u00e9"
 *    equals a raw e-acute and "\/" equals "/");
 *  - numbers are compared as IEEE doubles (strtod; -0 equals 0), as jq and
 *    Python read them;
 *  - member order and duplicate keys are kept: tools that reorder or drop
 *    members do not compare equal, unless -k is given: then each object's
 *    members are digested in key order (for gojq, which sorts keys).  -k
 *    digests every container separately (a Merkle tree), so memory grows
 *    with the members of the objects open at once, not with the input.
 * With -s every scalar is compared as text: a number by its exact text,
 * true/false as "true"/"false", null as "" (used for CSV converters that
 * infer types, against jenc's all-string output).
 * Exit status 0, or 1 if the input is not valid JSON (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "sha256.h"

struct member {
	unsigned char *key;
	size_t klen;
	unsigned char digest[32];
};

/* An open container (-k only). */
struct frame {
	sha256_ctx ctx;
	int is_obj;
	struct member *m;
	size_t n, cap;
	unsigned char *key;	/* key of the member being read */
	size_t klen;
};

static sha256_ctx hash;
static int strings_mode, sort_keys;
static unsigned long long nvalues;
static unsigned depth;
static struct frame *stack;
static size_t nstack, capstack;

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL) {
		perror("jsoncanon");
		exit(1);
	}
	return p;
}

static void
put(sha256_ctx *c, char type, const void *p, size_t len)
{
	unsigned char hdr[9];
	uint64_t n = len;
	int i;

	hdr[0] = (unsigned char)type;
	for (i = 0; i < 8; i++)
		hdr[1 + i] = (unsigned char)(n >> (8 * i));
	sha256_update(c, hdr, sizeof(hdr));
	if (len > 0)
		sha256_update(c, p, len);
}

/* A finished value with this digest goes to the container it is in. */
static void
add_digest(const unsigned char d[32])
{
	struct frame *f;

	if (nstack == 0) {
		put(&hash, 'D', d, 32);
		return;
	}
	f = &stack[nstack - 1];
	if (!f->is_obj) {
		put(&f->ctx, 'D', d, 32);
		return;
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 8;
		f->m = xrealloc(f->m, f->cap * sizeof(*f->m));
	}
	f->m[f->n].key = f->key;
	f->m[f->n].klen = f->klen;
	memcpy(f->m[f->n].digest, d, 32);
	f->n++;
	f->key = NULL;
}

static void
event(char type, const void *p, size_t len)
{
	if (depth == 0 && type != 'K')
		nvalues++;
	if (!sort_keys) {
		put(&hash, type, p, len);
	} else if (type == 'K') {
		struct frame *f = &stack[nstack - 1];

		f->key = xrealloc(NULL, len + 1);
		memcpy(f->key, p, len);
		f->klen = len;
	} else {
		sha256_ctx c;
		unsigned char d[32];

		sha256_init(&c);
		put(&c, type, p, len);
		sha256_final(&c, d);
		add_digest(d);
	}
}

static void
open_container(char type)
{
	struct frame *f;

	if (depth == 0)
		nvalues++;
	depth++;
	if (!sort_keys) {
		put(&hash, type, "", 0);
		return;
	}
	if (nstack == capstack) {
		capstack = capstack ? 2 * capstack : 64;
		stack = xrealloc(stack, capstack * sizeof(*stack));
	}
	f = &stack[nstack++];
	memset(f, 0, sizeof(*f));
	f->is_obj = type == '{';
	sha256_init(&f->ctx);
	put(&f->ctx, type, "", 0);
}

static int
cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->key, y->key, n);

	if (c != 0)
		return c;
	return (x->klen > y->klen) - (x->klen < y->klen);
}

static void
close_container(char type)
{
	struct frame *f;
	unsigned char d[32];
	size_t i;

	depth--;
	if (!sort_keys) {
		sha256_update(&hash, &type, 1);
		return;
	}
	f = &stack[nstack - 1];
	if (f->is_obj) {
		qsort(f->m, f->n, sizeof(*f->m), cmp_member);
		for (i = 0; i < f->n; i++) {
			put(&f->ctx, 'K', f->m[i].key, f->m[i].klen);
			put(&f->ctx, 'D', f->m[i].digest, 32);
			free(f->m[i].key);
		}
		free(f->m);
	}
	sha256_update(&f->ctx, &type, 1);
	sha256_final(&f->ctx, d);
	nstack--;
	add_digest(d);
}

static int
on_null(void *ctx)
{
	(void)ctx;
	event(strings_mode ? 'S' : 'Z', "", 0);
	return 1;
}

static int
on_boolean(void *ctx, int v)
{
	(void)ctx;
	if (strings_mode)
		event('S', v ? "true" : "false", v ? 4 : 5);
	else
		event(v ? 'T' : 'F', "", 0);
	return 1;
}

static int
on_number(void *ctx, const char *s, size_t len)
{
	char buf[512], out[40];
	double d;
	int n;

	(void)ctx;
	if (strings_mode) {
		event('S', s, len);
		return 1;
	}
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	d = strtod(buf, NULL);
	if (d == 0)
		d = 0;	/* -0 */
	n = snprintf(out, sizeof(out), "%.17g", d);
	event('N', out, (size_t)n);
	return 1;
}

static int
on_string(void *ctx, const unsigned char *s, size_t len)
{
	(void)ctx;
	event('S', s, len);
	return 1;
}

static int
on_key(void *ctx, const unsigned char *s, size_t len)
{
	(void)ctx;
	event('K', s, len);
	return 1;
}

static int
on_start_map(void *ctx)
{
	(void)ctx;
	open_container('{');
	return 1;
}

static int
on_end_map(void *ctx)
{
	(void)ctx;
	close_container('}');
	return 1;
}

static int
on_start_array(void *ctx)
{
	(void)ctx;
	open_container('[');
	return 1;
}

static int
on_end_array(void *ctx)
{
	(void)ctx;
	close_container(']');
	return 1;
}

static const yajl_callbacks callbacks = {
	on_null, on_boolean, NULL, NULL, on_number, on_string,
	on_start_map, on_key, on_end_map, on_start_array, on_end_array,
};

static int
fail(yajl_handle h, const unsigned char *buf, size_t len)
{
	unsigned char *msg = yajl_get_error(h, 1, buf, len);

	fprintf(stderr, "jsoncanon: %s", (const char *)msg);
	yajl_free_error(h, msg);
	return 1;
}

int
main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	unsigned long long total = 0;
	unsigned char digest[32];
	yajl_handle h;
	ssize_t r;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-s") == 0)
			strings_mode = 1;
		else if (strcmp(argv[i], "-k") == 0)
			sort_keys = 1;
		else {
			fprintf(stderr, "usage: jsoncanon [-s] [-k] < stream\n");
			return 2;
		}
	}
	sha256_init(&hash);
	h = yajl_alloc(&callbacks, NULL, NULL);
	if (h == NULL)
		return 1;
	yajl_config(h, yajl_allow_multiple_values, 1);
	while ((r = read(STDIN_FILENO, buf, sizeof(buf))) > 0) {
		total += (unsigned long long)r;
		if (yajl_parse(h, buf, (size_t)r) != yajl_status_ok)
			return fail(h, buf, (size_t)r);
	}
	if (r < 0) {
		perror("jsoncanon: read");
		return 1;
	}
	if (yajl_complete_parse(h) != yajl_status_ok)
		return fail(h, buf, 0);
	yajl_free(h);
	sha256_final(&hash, digest);
	for (i = 0; i < 32; i++)
		printf("%02x", digest[i]);
	printf(" %llu %llu\n", nvalues, total);
	return 0;
}
