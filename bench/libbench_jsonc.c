/*
 * libbench_jsonc.c - json-c's side of the library benchmarks, kept apart
 * because json-c's headers clash with jansson's (see libbench.h).  Each
 * function is the plain json-c call sequence a program would write.
 */
#include <json-c/json.h>

#include "libbench.h"

#define JSONC_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

const char *
bj_version(void)
{
	return json_c_version();
}

void *
bj_rec(const struct rec *r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(r->id));
	json_object_object_add(o, "name",
	    json_object_new_string_len(r->name, (int)r->namelen));
	json_object_object_add(o, "count", json_object_new_int64(r->count));
	json_object_object_add(o, "ratio", json_object_new_double(r->ratio));
	return o;
}

void *
bj_array(void)
{
	return json_object_new_array();
}

void
bj_array_add(void *a, void *v)
{
	json_object_array_add(a, v);
}

void *
bj_object(void)
{
	return json_object_new_object();
}

void
bj_object_add_string(void *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

void *
bj_walk(const struct bnode *n)
{
	struct json_object *o;
	size_t i;

	switch (n->type) {
	case BN_OBJ:
		o = json_object_new_object();
		for (i = 0; i < n->nkids; i++)
			json_object_object_add(o, n->kids[i].key,
			    bj_walk(&n->kids[i]));
		return o;
	case BN_ARR:
		o = json_object_new_array();
		for (i = 0; i < n->nkids; i++)
			json_object_array_add(o, bj_walk(&n->kids[i]));
		return o;
	case BN_STR:
		return json_object_new_string_len(n->s, (int)n->len);
	case BN_INT:
		return json_object_new_int64(n->i);
	case BN_REAL:
		return json_object_new_double(n->f);
	case BN_TRUE:
	case BN_FALSE:
		return json_object_new_boolean(n->type == BN_TRUE);
	default:
		return NULL;	/* json-c's null */
	}
}

const char *
bj_print(void *v, size_t *len)
{
	return json_object_to_json_string_length(v, JSONC_FLAGS, len);
}

int
bj_to_fd(int fd, void *v)
{
	return json_object_to_fd(fd, v, JSONC_FLAGS);
}

void
bj_put(void *v)
{
	json_object_put(v);
}
