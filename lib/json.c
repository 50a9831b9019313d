// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - the JSON writer of every --json output (see json.h): escaping
 * (strings from a tracee are arbitrary bytes; the output is always valid
 * UTF-8 JSON), commas and nesting, and dotted field names as nested objects.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/*
 * Length of the valid UTF-8 sequence at s (at most left bytes), or 0 if the
 * bytes there are not one (overlong forms, surrogates and values above
 * U+10FFFF are not).
 */
static size_t utf8_seq_len(const unsigned char *s, size_t left)
{
	unsigned int cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * Quotes and backslashes escaped, control characters as \n, \t, ... or
 * \u00XX; valid UTF-8 passed through; a byte that is not part of valid
 * UTF-8 becomes \u00XX (its Latin-1 reading), so the output stays valid.
 */
void json_escape(FILE *f, const void *data, size_t len)
{
	const unsigned char *s = data;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '"': fputs("\\\"", f); i++; continue;
		case '\\': fputs("\\\\", f); i++; continue;
		case '\n': fputs("\\n", f); i++; continue;
		case '\r': fputs("\\r", f); i++; continue;
		case '\t': fputs("\\t", f); i++; continue;
		case '\b': fputs("\\b", f); i++; continue;
		case '\f': fputs("\\f", f); i++; continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, len - i);
		if (!n) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		fwrite(s + i, 1, n, f);
		i += n;
	}
}

void json_start(struct json_out *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

/*
 * Comma and key before a value; false if the value is to be left out
 * (inside a container nested too deep).  Inside an array a key is left
 * out, inside an object a missing key is "": the output stays JSON.  At
 * the top the key is written as given (a member on its own: the tests
 * check fragments that way).
 */
static bool json_prefix(struct json_out *j, const char *key)
{
	if (j->skip)
		return false;
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->open[j->depth] == '[')
		key = NULL;
	else if (j->open[j->depth] == '{' && !key)
		key = "";
	if (key) {
		fputc('"', j->f);
		json_escape(j->f, key, strlen(key));
		fputs("\":", j->f);
	}
	return true;
}

static void json_open(struct json_out *j, const char *key, char c)
{
	if (j->skip) {
		j->skip++;
		return;
	}
	json_prefix(j, key);
	if (j->depth + 1 >= JSON_MAX_DEPTH) {
		fputs("null", j->f);
		j->skip = 1;
		return;
	}
	fputc(c, j->f);
	j->depth++;
	j->first[j->depth] = true;
	j->open[j->depth] = c;
}

/* closes the innermost open container, whichever end the caller asked for */
static void json_close(struct json_out *j)
{
	if (j->skip) {
		j->skip--;
		return;
	}
	if (j->depth == 0)
		return;
	fputc(j->open[j->depth] == '[' ? ']' : '}', j->f);
	j->depth--;
}

void json_obj_begin(struct json_out *j, const char *key) { json_open(j, key, '{'); }
void json_obj_end(struct json_out *j) { json_close(j); }
void json_arr_begin(struct json_out *j, const char *key) { json_open(j, key, '['); }
void json_arr_end(struct json_out *j) { json_close(j); }
void json_strn(struct json_out *j, const char *key, const void *s, size_t len)
{
	if (!json_prefix(j, key))
		return;
	fputc('"', j->f);
	json_escape(j->f, s, len);
	fputc('"', j->f);
}

void json_str(struct json_out *j, const char *key, const char *s)
{
	if (!s) {
		json_null(j, key);
		return;
	}
	json_strn(j, key, s, strlen(s));
}

void json_u64(struct json_out *j, const char *key, uint64_t v)
{
	if (json_prefix(j, key))
		fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_i64(struct json_out *j, const char *key, int64_t v)
{
	if (json_prefix(j, key))
		fprintf(j->f, "%lld", (long long)v);
}

void json_bool(struct json_out *j, const char *key, bool v)
{
	if (json_prefix(j, key))
		fputs(v ? "true" : "false", j->f);
}

void json_null(struct json_out *j, const char *key)
{
	if (json_prefix(j, key))
		fputs("null", j->f);
}

void json_hex(struct json_out *j, const char *key, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	if (!json_prefix(j, key))
		return;
	fputc('"', j->f);
	for (i = 0; i < len; i++)
		fprintf(j->f, "%02x", p[i]);
	fputc('"', j->f);
}

void json_strf(struct json_out *j, const char *key, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		json_null(j, key);
		return;
	}
	json_strn(j, key, s, (size_t)n);
	free(s);
}

void json_errno(struct json_out *j, const char *key, int e)
{
	const char *name = e > 0 ? strerrorname_np(e) : NULL;

	if (!e)
		json_null(j, key);
	else if (name)
		json_str(j, key, name);
	else
		json_i64(j, key, e);
}

void json_newline(struct json_out *j)
{
	j->skip = 0;
	while (j->depth > 0)
		json_close(j);
	fputc('\n', j->f);
	j->first[0] = true;
}

/* --- dotted names as nested objects ----------------------------------------------- */

enum tree_kind { TREE_OBJ, TREE_U64, TREE_I64, TREE_STR };

struct json_tree {
	char *name;
	enum tree_kind kind;
	uint64_t u;
	int64_t i;
	char *s;
	struct json_tree **kids;
	size_t nr_kids, cap_kids;
};

struct json_tree *json_tree_new(void)
{
	return calloc(1, sizeof(struct json_tree));
}

void json_tree_free(struct json_tree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_kids; i++)
		json_tree_free(t->kids[i]);
	free(t->kids);
	free(t->name);
	free(t->s);
	free(t);
}

static struct json_tree *tree_child(struct json_tree *t, const char *name, size_t len)
{
	struct json_tree *kid, **kids;
	size_t i;

	for (i = 0; i < t->nr_kids; i++)
		if (strlen(t->kids[i]->name) == len && !memcmp(t->kids[i]->name, name, len))
			return t->kids[i];
	if (t->nr_kids == t->cap_kids) {
		size_t cap = t->cap_kids ? t->cap_kids * 2 : 8;

		kids = realloc(t->kids, cap * sizeof(*kids));
		if (!kids)
			return NULL;
		t->kids = kids;
		t->cap_kids = cap;
	}
	kid = calloc(1, sizeof(*kid));
	if (!kid)
		return NULL;
	kid->name = strndup(name, len);
	if (!kid->name) {
		free(kid);
		return NULL;
	}
	t->kids[t->nr_kids++] = kid;
	return kid;
}

/*
 * The leaf for path, creating objects for its dotted prefix.  Where a
 * prefix is already a value, the rest of the path becomes one flat key
 * ("a.b" next to the value "a") rather than losing either.
 */
static struct json_tree *tree_leaf(struct json_tree *t, const char *path)
{
	const char *dot;

	while ((dot = strchr(path, '.'))) {
		struct json_tree *kid = NULL;
		size_t i;

		for (i = 0; i < t->nr_kids; i++)
			if (strlen(t->kids[i]->name) == (size_t)(dot - path) &&
			    !memcmp(t->kids[i]->name, path, dot - path))
				kid = t->kids[i];
		if (kid && kid->kind != TREE_OBJ)
			break;
		if (!kid)
			kid = tree_child(t, path, dot - path);
		if (!kid)
			return NULL;
		t = kid;
		path = dot + 1;
	}
	t = tree_child(t, path, strlen(path));
	if (t && t->kind == TREE_OBJ && t->nr_kids)
		return NULL;	/* already an object: keep it */
	return t;
}

void json_tree_u64(struct json_tree *t, const char *path, uint64_t v)
{
	struct json_tree *leaf = tree_leaf(t, path);

	if (leaf) {
		leaf->kind = TREE_U64;
		leaf->u = v;
	}
}

void json_tree_i64(struct json_tree *t, const char *path, int64_t v)
{
	struct json_tree *leaf = tree_leaf(t, path);

	if (leaf) {
		leaf->kind = TREE_I64;
		leaf->i = v;
	}
}

void json_tree_str(struct json_tree *t, const char *path, const char *s)
{
	struct json_tree *leaf = tree_leaf(t, path);

	if (leaf) {
		free(leaf->s);
		leaf->kind = TREE_STR;
		leaf->s = strdup(s ? s : "");
	}
}

void json_tree_emit(struct json_tree *t, struct json_out *j, const char *key)
{
	size_t i;

	switch (t->kind) {
	case TREE_U64:
		json_u64(j, key, t->u);
		return;
	case TREE_I64:
		json_i64(j, key, t->i);
		return;
	case TREE_STR:
		json_str(j, key, t->s);
		return;
	case TREE_OBJ:
		break;
	}
	json_obj_begin(j, key);
	for (i = 0; i < t->nr_kids; i++)
		json_tree_emit(t->kids[i], j, t->kids[i]->name);
	json_obj_end(j);
}
