/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - the JSON writer every --json output uses (bpfrr dump, translate
 * --explain, replay --plan/--caps/--verify): values streamed to a FILE,
 * strings escaped so that the output is valid UTF-8 JSON whatever bytes
 * they hold, commas and nesting kept by the writer.
 *
 * The writer never emits invalid JSON, also when its caller errs: a key
 * given inside an array (or at the top) is left out, a value without a key
 * inside an object gets the key "", a close matches the container that is
 * open (and is ignored when none is), json_newline() closes what is still
 * open, and a container nested deeper than JSON_MAX_DEPTH is written as
 * null with everything inside it left out.
 */
#ifndef BPFRR_JSON_H
#define BPFRR_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_out {
	FILE *f;
	int depth;			/* open containers */
	int skip;			/* containers opened past JSON_MAX_DEPTH (written as null) */
	bool first[JSON_MAX_DEPTH];	/* nothing emitted yet at this depth */
	char open[JSON_MAX_DEPTH];	/* the container at this depth: '{', '[' (0 at depth 0) */
};

void json_start(struct json_out *j, FILE *f);
void json_obj_begin(struct json_out *j, const char *key);	/* key NULL inside arrays / at top */
void json_obj_end(struct json_out *j);
void json_arr_begin(struct json_out *j, const char *key);
void json_arr_end(struct json_out *j);
void json_str(struct json_out *j, const char *key, const char *s);	/* s NULL: null */
void json_strn(struct json_out *j, const char *key, const void *s, size_t len);
void json_strf(struct json_out *j, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void json_u64(struct json_out *j, const char *key, uint64_t v);
void json_i64(struct json_out *j, const char *key, int64_t v);
void json_bool(struct json_out *j, const char *key, bool v);
void json_null(struct json_out *j, const char *key);
void json_hex(struct json_out *j, const char *key, const void *data, size_t len);
/* the errno name of e ("EINVAL", e > 0), or its number if it has none; null for 0 */
void json_errno(struct json_out *j, const char *key, int e);
/* end of one line (top-level value): closes what is open */
void json_newline(struct json_out *j);
/* the escaped form of s[0..len) (without quotes), as JSON wants it */
void json_escape(FILE *f, const void *s, size_t len);

/*
 * Values keyed by dotted names ("link_create.kprobe_multi.cnt") emitted as
 * nested objects ({"link_create": {"kprobe_multi": {"cnt": ...}}}).
 */
struct json_tree;
struct json_tree *json_tree_new(void);
void json_tree_free(struct json_tree *t);
/* the value kinds; strings are copied */
void json_tree_u64(struct json_tree *t, const char *path, uint64_t v);
void json_tree_i64(struct json_tree *t, const char *path, int64_t v);
void json_tree_str(struct json_tree *t, const char *path, const char *s);
void json_tree_emit(struct json_tree *t, struct json_out *j, const char *key);

#endif /* BPFRR_JSON_H */
