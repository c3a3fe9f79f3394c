/*
 * libbench.h - what bench/libbench.c shares with bench/libbench_jsonc.c.
 * json-c's headers and jansson's declare the same names (json_object,
 * json_type, ...), so json-c is used from its own file, through the
 * bj_* functions below, and the document that LargeOutput writes is held
 * in a plain tree (struct bnode) that every library's walk reads alike.
 */
#ifndef LIBBENCH_H
#define LIBBENCH_H

#include <stddef.h>
#include <stdint.h>

/* One record of the comparisons: {"id","name","count","ratio"}. */
struct rec {
	int64_t id;
	char name[40];	/* NUL-terminated too */
	size_t namelen;
	int64_t count;
	double ratio;
};

enum bnode_type {
	BN_NULL, BN_FALSE, BN_TRUE, BN_INT, BN_REAL, BN_STR, BN_ARR, BN_OBJ,
};

/* A JSON value; an object's members are its kids, each with a key. */
struct bnode {
	enum bnode_type type;
	const char *key;	/* member name (NUL-terminated) or NULL */
	size_t klen;
	const char *s;		/* BN_STR: NUL-terminated, no NUL inside */
	size_t len;
	int64_t i;
	double f;
	struct bnode *kids;
	size_t nkids;
};

/* json-c, in libbench_jsonc.c.  Pointers are struct json_object *. */
const char *bj_version(void);
void *bj_rec(const struct rec *r);
void *bj_array(void);
void bj_array_add(void *a, void *v);
void *bj_object(void);
void bj_object_add_string(void *o, const char *k, const char *v);
void *bj_walk(const struct bnode *n);
/* The text of v (compact, '/' not escaped), owned by v. */
const char *bj_print(void *v, size_t *len);
int bj_to_fd(int fd, void *v);
void bj_put(void *v);

#endif
