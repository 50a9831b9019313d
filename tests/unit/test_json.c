// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer of every --json output (lib/json.h): exact output for
 * well-formed use, and valid JSON for the mistakes it promises to absorb
 * (a key in an array, no key in an object, mismatched or extra closes,
 * containers left open at the end of a line, nesting past its depth).
 * Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct buf {
	char *text;
	size_t len;
	FILE *f;
	struct json_out j;
};

static struct json_out *buf_open(struct buf *b)
{
	memset(b, 0, sizeof(*b));
	b->f = open_memstream(&b->text, &b->len);
	ck_assert_ptr_nonnull(b->f);
	json_start(&b->j, b->f);
	return &b->j;
}

static void buf_check(struct buf *b, const char *want)
{
	fclose(b->f);
	ck_assert_str_eq(b->text, want);
	free(b->text);
}

START_TEST(well_formed)
{
	static const unsigned char tag[] = { 0xde, 0xad, 0x00, 0x01 };
	struct buf b;
	struct json_out *j = buf_open(&b);

	json_obj_begin(j, NULL);
	json_u64(j, "version", 1);
	json_i64(j, "fd", -1);
	json_str(j, "name", "a\"b\\c\n");
	json_str(j, "none", NULL);
	json_strn(j, "bytes", "x\0y", 3);
	json_strf(j, "fmt", "%s %d", "seq", 7);
	json_bool(j, "ok", true);
	json_hex(j, "tag", tag, sizeof(tag));
	json_errno(j, "errno", EINVAL);
	json_errno(j, "no_errno", 0);
	json_arr_begin(j, "calls");
	json_u64(j, NULL, 1);
	json_obj_begin(j, NULL);
	json_null(j, "why");
	json_obj_end(j);
	json_arr_begin(j, NULL);
	json_arr_end(j);
	json_arr_end(j);
	json_obj_end(j);
	json_newline(j);
	json_obj_begin(j, NULL);
	json_obj_end(j);
	json_newline(j);
	buf_check(&b, "{\"version\":1,\"fd\":-1,\"name\":\"a\\\"b\\\\c\\n\",\"none\":null,\"bytes\":\"x\\u0000y\","
		      "\"fmt\":\"seq 7\",\"ok\":true,\"tag\":\"dead0001\",\"errno\":\"EINVAL\",\"no_errno\":null,"
		      "\"calls\":[1,{\"why\":null},[]]}\n{}\n");
}
END_TEST

START_TEST(keys_where_they_belong)
{
	struct buf b;
	struct json_out *j = buf_open(&b);

	json_obj_begin(j, NULL);
	json_u64(j, NULL, 1);		/* no key in an object: "" */
	json_arr_begin(j, "a");
	json_u64(j, "stray", 2);	/* a key in an array: left out */
	json_obj_begin(j, "stray");
	json_obj_end(j);
	json_arr_end(j);
	json_obj_end(j);
	json_newline(j);
	buf_check(&b, "{\"\":1,\"a\":[2,{}]}\n");
}
END_TEST

START_TEST(closes_match_and_newline_closes)
{
	struct buf b;
	struct json_out *j = buf_open(&b);

	json_obj_begin(j, NULL);
	json_arr_begin(j, "a");
	json_obj_end(j);		/* closes the array it is in */
	json_obj_end(j);
	json_obj_end(j);		/* nothing open: ignored */
	json_newline(j);
	json_obj_begin(j, NULL);
	json_arr_begin(j, "left");
	json_obj_begin(j, NULL);
	json_newline(j);		/* closes all three */
	buf_check(&b, "{\"a\":[]}\n{\"left\":[{}]}\n");
}
END_TEST

START_TEST(too_deep_is_null)
{
	struct buf b;
	struct json_out *j = buf_open(&b);
	char want[4 * JSON_MAX_DEPTH + 64], *p = want;
	int i;

	for (i = 0; i < JSON_MAX_DEPTH + 3; i++)
		json_arr_begin(j, NULL);
	json_u64(j, NULL, 5);		/* inside the null: left out */
	for (i = 0; i < JSON_MAX_DEPTH + 3; i++)
		json_arr_end(j);
	json_newline(j);
	for (i = 0; i < JSON_MAX_DEPTH - 1; i++)
		*p++ = '[';
	p += sprintf(p, "null");
	for (i = 0; i < JSON_MAX_DEPTH - 1; i++)
		*p++ = ']';
	strcpy(p, "\n");
	buf_check(&b, want);
}
END_TEST

START_TEST(escapes_make_valid_utf8)
{
	static const char nasty[] = "k\"\x01\xff\xc3\xa9";
	struct buf b;
	struct json_out *j = buf_open(&b);

	json_obj_begin(j, NULL);
	json_str(j, nasty, nasty);	/* keys are escaped as values are */
	json_obj_end(j);
	json_newline(j);
	buf_check(&b, "{\"k\\\"\\u0001\\u00ff\xc3\xa9\":\"k\\\"\\u0001\\u00ff\xc3\xa9\"}\n");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, well_formed);
	tcase_add_test(tc, keys_where_they_belong);
	tcase_add_test(tc, closes_match_and_newline_closes);
	tcase_add_test(tc, too_deep_is_null);
	tcase_add_test(tc, escapes_make_valid_utf8);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
