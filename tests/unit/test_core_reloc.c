// SPDX-License-Identifier: GPL-2.0
/*
 * The CO-RE calculator (lib/core_reloc.h), SHA-1 (lib/sha1.h) and the
 * kernel's program tag (lib/prog_tag.h).
 *
 *  - SHA-1 against the FIPS 180 / RFC 3174 vectors; the tag against tags a
 *    6.12 kernel gave recorded programs (tests/data/dump), and its blanking
 *    of map fds;
 *  - two "kernels" built in memory whose struct sample differs (members
 *    moved into anonymous unions, widened, bitfields moved, an array
 *    grown, an enum renumbered) against one program-side BTF with a
 *    flavored struct: every kind's value, the LDX size change
 *    and its poisoning, the validation of the original value, ambiguous
 *    candidates, an unsupported kind;
 *  - fx_core.bpf.o's real .BTF.ext records and instructions against a
 *    synthetic task_struct laid out unlike the program's (FX_CORE_OBJ:
 *    tests/data/objects/fx_core.bpf.o);
 *  - raw BTF parsed for dump, diff, the translator and --verify
 *    (lib/btf_parse.h): refused when its types would sit misaligned.
 * Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "btf_parse.h"
#include "core_reloc.h"
#include "prog_tag.h"
#include "sha1.h"

/* --- SHA-1 and tags ------------------------------------------------------------------------ */

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static void check_sha1(const void *data, size_t len, const char *want)
{
	uint8_t d[BPFRR_SHA1_LEN];
	char h[2 * BPFRR_SHA1_LEN + 1];

	bpfrr_sha1(data, len, d);
	hex(d, sizeof(d), h);
	ck_assert_str_eq(h, want);
}

START_TEST(sha1_standard_vectors)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	struct bpfrr_sha1 ctx;
	uint8_t d[BPFRR_SHA1_LEN], chunk[1000];
	char h[2 * BPFRR_SHA1_LEN + 1];
	int i;

	check_sha1("", 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	check_sha1("abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d");
	check_sha1(two_blocks, strlen(two_blocks), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	/* one million 'a', fed in pieces that straddle blocks */
	memset(chunk, 'a', sizeof(chunk));
	bpfrr_sha1_init(&ctx);
	for (i = 0; i < 1000; i++)
		bpfrr_sha1_update(&ctx, chunk, sizeof(chunk));
	bpfrr_sha1_final(&ctx, d);
	hex(d, sizeof(d), h);
	ck_assert_str_eq(h, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}
END_TEST

static void check_tag(const struct bpf_insn *insns, size_t n, const char *want)
{
	uint8_t tag[BPFRR_PROG_TAG_LEN];
	char h[2 * BPFRR_PROG_TAG_LEN + 1];

	ck_assert_int_eq(bpfrr_prog_tag(insns, n, tag), 0);
	hex(tag, sizeof(tag), h);
	ck_assert_str_eq(h, want);
}

START_TEST(tags_a_kernel_gave)
{
	/* tests/data/dump/x86_64-fx_maps.json.out: seq 3 and seq 1, tags from BPF_OBJ_GET_INFO_BY_FD */
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	const struct bpf_insn ktime[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_ktime_get_coarse_ns },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	check_tag(ret0, 2, "a04f5eef06a7f555");
	check_tag(ktime, 2, "358605598c76853b");
}
END_TEST

START_TEST(tag_blanks_map_references_only)
{
	struct bpf_insn a[] = {
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = 7 },
		{ .imm = 16 },
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 2, .src_reg = BPF_PSEUDO_BTF_ID, .imm = 300 },
		{ .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	}, b[6], zeroed[6];
	uint8_t ta[8], tb[8], tz[8], full[BPFRR_SHA1_LEN];

	memcpy(b, a, sizeof(a));
	b[0].imm = 12;		/* another fd */
	b[1].imm = 24;		/* another value offset: blanked too */
	memcpy(zeroed, a, sizeof(a));
	zeroed[0].imm = 0;
	zeroed[1].imm = 0;
	ck_assert_int_eq(bpfrr_prog_tag(a, 6, ta), 0);
	ck_assert_int_eq(bpfrr_prog_tag(b, 6, tb), 0);
	ck_assert_int_eq(bpfrr_prog_tag(zeroed, 6, tz), 0);
	ck_assert_mem_eq(ta, tb, 8);
	ck_assert_mem_eq(ta, tz, 8);
	bpfrr_sha1(zeroed, sizeof(zeroed), full);
	ck_assert_mem_eq(ta, full, 8);
	/* a BTF id is part of what the tag covers */
	b[2].imm = 301;
	ck_assert_int_eq(bpfrr_prog_tag(b, 6, tb), 0);
	ck_assert_mem_ne(ta, tb, 8);
}
END_TEST

/* --- two kernels built in memory -------------------------------------------------------- */

/* program side (local) type ids */
enum { L_INT = 1, L_UINT, L_ARR, L_SAMPLE, L_FLAV, L_ENUM, L_TYPEDEF, L_PAIR, L_PAIR_BAD };
/* the target's struct sample */
#define T_SAMPLE 8

static struct btf *local_btf(void)
{
	struct btf *b = btf__new_empty();

	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(btf__add_int(b, "int", 4, BTF_INT_SIGNED), L_INT);
	ck_assert_int_eq(btf__add_int(b, "unsigned int", 4, 0), L_UINT);
	ck_assert_int_eq(btf__add_array(b, L_UINT, L_INT, 4), L_ARR);
	ck_assert_int_eq(btf__add_struct(b, "sample", 32), L_SAMPLE);
	ck_assert_int_eq(btf__add_field(b, "a", L_INT, 0, 0), 0);	/* member 0: byte 0 */
	ck_assert_int_eq(btf__add_field(b, "b", L_UINT, 32, 0), 0);	/* 1: byte 4 */
	ck_assert_int_eq(btf__add_field(b, "c", L_INT, 64, 3), 0);	/* 2: bits 64..66 */
	ck_assert_int_eq(btf__add_field(b, "d", L_UINT, 67, 5), 0);	/* 3: bits 67..71 */
	ck_assert_int_eq(btf__add_field(b, "e", L_INT, 96, 0), 0);	/* 4: byte 12 */
	ck_assert_int_eq(btf__add_field(b, "arr", L_ARR, 128, 0), 0);	/* 5: bytes 16..31 */
	ck_assert_int_eq(btf__add_struct(b, "sample___v2", 8), L_FLAV);
	ck_assert_int_eq(btf__add_field(b, "a", L_INT, 0, 0), 0);
	ck_assert_int_eq(btf__add_field(b, "missing", L_INT, 32, 0), 0);
	ck_assert_int_eq(btf__add_enum(b, "color", 4), L_ENUM);
	ck_assert_int_eq(btf__add_enum_value(b, "RED", 0), 0);
	ck_assert_int_eq(btf__add_enum_value(b, "GREEN", 1), 0);
	ck_assert_int_eq(btf__add_enum_value(b, "BLUE", 2), 0);
	ck_assert_int_eq(btf__add_typedef(b, "sample_t", L_SAMPLE), L_TYPEDEF);
	ck_assert_int_eq(btf__add_struct(b, "pair", 8), L_PAIR);
	ck_assert_int_eq(btf__add_field(b, "x", L_INT, 0, 0), 0);
	ck_assert_int_eq(btf__add_field(b, "y", L_UINT, 32, 0), 0);
	ck_assert_int_eq(btf__add_struct(b, "pair___bad", 8), L_PAIR_BAD);
	ck_assert_int_eq(btf__add_field(b, "x", L_INT, 0, 0), 0);
	ck_assert_int_eq(btf__add_field(b, "y", L_INT, 32, 0), 0);	/* "int", the target has "unsigned int" */
	return b;
}

/*
 * The other kernel: struct sample reordered and widened, 'a' inside an
 * anonymous struct in an anonymous union; a second, flavored candidate
 * with 'a' elsewhere when ambiguous is set.
 */
static struct btf *target_btf(bool ambiguous)
{
	struct btf *b = btf__new_empty();
	int int_id, uint_id, u64_id, long_id, arr_id, inner, uni;

	ck_assert_ptr_nonnull(b);
	int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);				/* 1 */
	uint_id = btf__add_int(b, "unsigned int", 4, 0);				/* 2 */
	u64_id = btf__add_int(b, "long unsigned int", 8, 0);				/* 3 */
	long_id = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);			/* 4 */
	arr_id = btf__add_array(b, uint_id, int_id, 8);					/* 5 */
	inner = btf__add_struct(b, NULL, 8);						/* 6 */
	btf__add_field(b, "pad1", int_id, 0, 0);
	btf__add_field(b, "a", int_id, 32, 0);
	uni = btf__add_union(b, NULL, 8);						/* 7 */
	btf__add_field(b, NULL, inner, 0, 0);
	btf__add_field(b, "alias", long_id, 0, 0);
	ck_assert_int_eq(btf__add_struct(b, "sample", 72), T_SAMPLE);			/* 8 */
	btf__add_field(b, "pad0", long_id, 0, 0);
	btf__add_field(b, NULL, uni, 64, 0);		/* a: byte 8 + 4 = 12 */
	btf__add_field(b, "b", u64_id, 128, 0);		/* byte 16, 8 bytes unsigned */
	btf__add_field(b, "c", int_id, 193, 3);		/* bits 193..195 */
	btf__add_field(b, "d", uint_id, 222, 5);	/* bits 222..226: straddles a 4-byte boundary */
	btf__add_field(b, "e", long_id, 256, 0);	/* byte 32, 8 bytes signed */
	btf__add_field(b, "arr", arr_id, 320, 0);	/* bytes 40..71 */
	ck_assert_int_eq(btf__add_enum(b, "color", 4), 9);
	btf__add_enum_value(b, "GREEN", 10);
	btf__add_enum_value(b, "BLUE", -20);
	/* pair: members in another order, one more: TYPE_MATCHES holds for pair, not pair___bad */
	btf__add_struct(b, "pair", 16);
	btf__add_field(b, "y", uint_id, 0, 0);
	btf__add_field(b, "x", int_id, 32, 0);
	btf__add_field(b, "z", long_id, 64, 0);
	if (ambiguous) {
		btf__add_struct(b, "sample___other", 8);
		btf__add_field(b, "a", int_id, 32, 0);
	}
	return b;
}

struct relo_case {
	uint32_t type_id;
	const char *access;
	uint32_t kind;
};

static struct bpfrr_core_relo relo_of(struct btf *local, const struct relo_case *c, uint32_t insn_off)
{
	int off = btf__add_str(local, c->access);	/* "" is offset 0 */

	ck_assert_int_ge(off, 0);
	return (struct bpfrr_core_relo){ .insn_off = insn_off, .type_id = c->type_id, .access_str_off = off,
					 .kind = c->kind };
}

/* The result of one record. */
static int calc(struct btf *local, struct btf *target, uint32_t type_id, const char *access, uint32_t kind,
		struct bpfrr_core_res *res)
{
	struct relo_case c = { type_id, access, kind };
	struct bpfrr_core_relo r = relo_of(local, &c, 0);
	char msg[200];

	int err = bpfrr_core_calc(local, target, &r, res, msg, sizeof(msg));

	if (err && getenv("CORE_DEBUG"))
		fprintf(stderr, "%s %s: %s\n", access, bpfrr_core_kind_name(kind), msg);
	return err;
}

static uint64_t value_of(struct btf *local, struct btf *target, uint32_t type_id, const char *access,
			 uint32_t kind, uint64_t want_orig)
{
	struct bpfrr_core_res res;

	ck_assert_int_eq(calc(local, target, type_id, access, kind, &res), 0);
	ck_assert(!res.poison);
	ck_assert_uint_eq(res.orig_val, want_orig);
	return res.new_val;
}

START_TEST(field_values_across_layouts)
{
	struct btf *l = local_btf(), *t = target_btf(false);

	/* through an anonymous union and an anonymous struct */
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:0", BPF_CORE_FIELD_BYTE_OFFSET, 0), 12);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:1", BPF_CORE_FIELD_BYTE_OFFSET, 4), 16);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:1", BPF_CORE_FIELD_BYTE_SIZE, 4), 8);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:4", BPF_CORE_FIELD_SIGNED, 1), 1);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:1", BPF_CORE_FIELD_SIGNED, 0), 0);
	/* an array element, and the array's size */
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:5:2", BPF_CORE_FIELD_BYTE_OFFSET, 24), 48);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:5", BPF_CORE_FIELD_BYTE_SIZE, 16), 32);
	/* an element of an array of structs: the root index scales by the struct size */
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "1:0", BPF_CORE_FIELD_BYTE_OFFSET, 32), 72 + 12);
	/* through a typedef and a flavor */
	ck_assert_uint_eq(value_of(l, t, L_FLAV, "0:0", BPF_CORE_FIELD_BYTE_OFFSET, 0), 12);
	ck_assert_uint_eq(value_of(l, t, L_FLAV, "0:0", BPF_CORE_FIELD_EXISTS, 1), 1);
	ck_assert_uint_eq(value_of(l, t, L_FLAV, "0:1", BPF_CORE_FIELD_EXISTS, 1), 0);
	btf__free(l);
	btf__free(t);
}
END_TEST

START_TEST(bitfields)
{
	struct btf *l = local_btf(), *t = target_btf(false);

	/* c: local bits 64..66 of an int; target bits 193..195 */
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:2", BPF_CORE_FIELD_BYTE_OFFSET, 8), 24);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:2", BPF_CORE_FIELD_BYTE_SIZE, 4), 4);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:2", BPF_CORE_FIELD_LSHIFT_U64, 61), 60);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:2", BPF_CORE_FIELD_RSHIFT_U64, 61), 61);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:2", BPF_CORE_FIELD_SIGNED, 1), 1);
	/* d: local bits 67..71; target 222..226 crosses byte 28: an 8-byte load at 24 */
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:3", BPF_CORE_FIELD_BYTE_OFFSET, 8), 24);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:3", BPF_CORE_FIELD_BYTE_SIZE, 4), 8);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:3", BPF_CORE_FIELD_LSHIFT_U64, 56), 29);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:3", BPF_CORE_FIELD_RSHIFT_U64, 59), 59);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0:3", BPF_CORE_FIELD_SIGNED, 0), 0);
	btf__free(l);
	btf__free(t);
}
END_TEST

START_TEST(type_and_enum_values)
{
	struct btf *l = local_btf(), *t = target_btf(false);
	struct bpfrr_core_res res;

	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0", BPF_CORE_TYPE_EXISTS, 1), 1);
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0", BPF_CORE_TYPE_SIZE, 32), 72);
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "0", BPF_CORE_TYPE_ID_TARGET, &res), 0);
	ck_assert_uint_eq(res.new_val, T_SAMPLE);
	ck_assert(!res.validate);
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "0", BPF_CORE_TYPE_ID_LOCAL, &res), 0);
	ck_assert_uint_eq(res.new_val, L_SAMPLE);
	/* no typedef sample_t on the target */
	ck_assert_uint_eq(value_of(l, t, L_TYPEDEF, "0", BPF_CORE_TYPE_EXISTS, 1), 0);
	ck_assert_uint_eq(value_of(l, t, L_TYPEDEF, "0", BPF_CORE_TYPE_ID_TARGET, L_TYPEDEF), 0);
	/* TYPE_MATCHES: names, sizes and signedness of every local member */
	ck_assert_uint_eq(value_of(l, t, L_PAIR, "0", BPF_CORE_TYPE_MATCHES, 1), 1);
	ck_assert_uint_eq(value_of(l, t, L_PAIR_BAD, "0", BPF_CORE_TYPE_MATCHES, 1), 0);
	ck_assert_uint_eq(value_of(l, t, L_PAIR_BAD, "0", BPF_CORE_TYPE_EXISTS, 1), 1);
	/* sample's 'a' is inside an anonymous union on the target: not a match, but compatible */
	ck_assert_uint_eq(value_of(l, t, L_SAMPLE, "0", BPF_CORE_TYPE_MATCHES, 1), 0);
	/* a type relocation takes only "0" */
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "0:1", BPF_CORE_TYPE_SIZE, &res), BPFRR_CORE_REFUSED);

	ck_assert_uint_eq(value_of(l, t, L_ENUM, "0", BPF_CORE_ENUMVAL_EXISTS, 1), 0);
	ck_assert_uint_eq(value_of(l, t, L_ENUM, "1", BPF_CORE_ENUMVAL_EXISTS, 1), 1);
	ck_assert_uint_eq(value_of(l, t, L_ENUM, "1", BPF_CORE_ENUMVAL_VALUE, 1), 10);
	ck_assert_uint_eq(value_of(l, t, L_ENUM, "2", BPF_CORE_ENUMVAL_VALUE, 2), (uint64_t)-20);
	ck_assert_int_eq(calc(l, t, L_ENUM, "0", BPF_CORE_ENUMVAL_VALUE, &res), 0);
	ck_assert(res.poison);
	btf__free(l);
	btf__free(t);
}
END_TEST

START_TEST(refusals_and_unsupported)
{
	struct btf *l = local_btf(), *t = target_btf(false), *amb = target_btf(true);
	struct bpfrr_core_res res;

	/* two candidates that put 'a' at different offsets: the kernel refuses */
	ck_assert_int_eq(calc(l, amb, L_SAMPLE, "0:0", BPF_CORE_FIELD_BYTE_OFFSET, &res), BPFRR_CORE_REFUSED);
	/* ...but agree that a type exists */
	ck_assert_uint_eq(value_of(l, amb, L_SAMPLE, "0", BPF_CORE_TYPE_EXISTS, 1), 1);
	/* member index beyond the struct, array index beyond the array */
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "0:9", BPF_CORE_FIELD_BYTE_OFFSET, &res), BPFRR_CORE_REFUSED);
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "0:5:4", BPF_CORE_FIELD_BYTE_OFFSET, &res), BPFRR_CORE_REFUSED);
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "", BPF_CORE_FIELD_BYTE_OFFSET, &res), BPFRR_CORE_REFUSED);
	ck_assert_int_eq(calc(l, t, L_SAMPLE, "0", 13, &res), BPFRR_CORE_UNSUPPORTED);
	btf__free(l);
	btf__free(t);
	btf__free(amb);
}
END_TEST

/* A program with one relocated instruction per case; relocate; compare with want. */
START_TEST(relocate_patches_instructions)
{
	struct btf *l = local_btf(), *t = target_btf(false);
	static const struct relo_case cases[] = {
		{ L_SAMPLE, "0:0", BPF_CORE_FIELD_BYTE_OFFSET },	/* insn 0: ldx w off 0 */
		{ L_SAMPLE, "0:1", BPF_CORE_FIELD_BYTE_OFFSET },	/* insn 1: ldx w off 4 -> dw */
		{ L_SAMPLE, "0:4", BPF_CORE_FIELD_BYTE_OFFSET },	/* insn 2: ldx w, int -> long: poison */
		{ L_SAMPLE, "0:5:2", BPF_CORE_FIELD_BYTE_OFFSET },	/* insn 3: r1 += 24 */
		{ L_FLAV, "0:1", BPF_CORE_FIELD_BYTE_OFFSET },		/* insn 4: missing: poison */
		{ L_ENUM, "2", BPF_CORE_ENUMVAL_VALUE },		/* insn 5-6: ld_imm64 */
		{ L_ENUM, "0", BPF_CORE_ENUMVAL_VALUE },		/* insn 7-8: ld_imm64, poison */
		{ L_SAMPLE, "0:3", BPF_CORE_FIELD_LSHIFT_U64 },		/* insn 9: r1 <<= 56 */
	};
	static const uint32_t at[] = { 0, 1, 2, 3, 4, 5, 7, 9 };
	struct bpf_insn insns[] = {
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 2, .src_reg = 1, .off = 0 },
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 2, .src_reg = 1, .off = 4 },
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 2, .src_reg = 1, .off = 12 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = 24 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = 4 },
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 3, .imm = 2 },
		{ .imm = 0 },
		{ .code = BPF_LD | BPF_IMM | BPF_DW, .dst_reg = 3, .imm = 0 },
		{ .imm = 0 },
		{ .code = BPF_ALU64 | BPF_LSH | BPF_K, .dst_reg = 1, .imm = 56 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpfrr_core_relo relos[8];
	struct bpfrr_core_report rep;
	const struct bpf_insn poisoned = { .code = BPF_JMP | BPF_CALL, .imm = 0xbad2310 };
	unsigned int i;

	for (i = 0; i < 8; i++)
		relos[i] = relo_of(l, &cases[i], at[i] * 8);
	ck_assert_int_eq(bpfrr_core_relocate(l, t, relos, 8, sizeof(relos[0]), insns, 11, &rep), 0);
	ck_assert_int_eq(insns[0].off, 12);
	ck_assert_uint_eq(insns[0].code, BPF_LDX | BPF_MEM | BPF_W);
	ck_assert_int_eq(insns[1].off, 16);
	ck_assert_uint_eq(insns[1].code, BPF_LDX | BPF_MEM | BPF_DW);
	ck_assert_mem_eq(&insns[2], &poisoned, 8);
	ck_assert_int_eq(insns[3].imm, 48);
	ck_assert_mem_eq(&insns[4], &poisoned, 8);
	ck_assert_int_eq(insns[5].imm, -20);
	ck_assert_int_eq(insns[6].imm, -1);
	ck_assert_mem_eq(&insns[7], &poisoned, 8);
	ck_assert_mem_eq(&insns[8], &poisoned, 8);
	ck_assert_int_eq(insns[9].imm, 29);
	ck_assert_uint_eq(insns[10].code, BPF_JMP | BPF_EXIT);
	ck_assert_uint_eq(rep.nr_poisoned, 3);
	ck_assert_uint_eq(rep.nr_changed, 8);

	/* the compiler's value is not in the instruction: the kernel refuses */
	insns[0].off = 99;
	ck_assert_int_eq(bpfrr_core_relocate(l, t, relos, 1, sizeof(relos[0]), insns, 11, &rep),
			 BPFRR_CORE_REFUSED);
	ck_assert_ptr_nonnull(strstr(rep.msg, "insn 0"));

	/* an unsupported kind anywhere: nothing is touched */
	insns[0].off = 0;
	relos[7].kind = BPF_CORE_TYPE_MATCHES + 1;
	ck_assert_int_eq(bpfrr_core_relocate(l, t, relos, 8, sizeof(relos[0]), insns, 11, &rep),
			 BPFRR_CORE_UNSUPPORTED);
	ck_assert_uint_eq(rep.bad_relo, 7);
	ck_assert_str_eq(rep.msg, "CO-RE kind 13");
	ck_assert_int_eq(insns[0].off, 0);
	btf__free(l);
	btf__free(t);
}
END_TEST

/* --- fx_core.bpf.o's own records -------------------------------------------------------- */

/* The bytes of the ELF section named name, malloc'ed. */
static void *elf_section(const char *path, const char *name, size_t *len)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	void *copy = NULL;
	int fd = open(path, O_RDONLY);
	Elf *elf;

	ck_assert_msg(fd >= 0, "%s: %s (make %s)", path, strerror(errno), path);
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(elf);
	ck_assert_int_eq(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
		if (strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name))
			continue;
		d = elf_getdata(scn, NULL);
		ck_assert_ptr_nonnull(d);
		copy = malloc(d->d_size);
		memcpy(copy, d->d_buf, d->d_size);
		*len = d->d_size;
	}
	elf_end(elf);
	close(fd);
	ck_assert_msg(copy, "%s has no section %s", path, name);
	return copy;
}

/* task_struct of a kernel unlike the program's view: pid and tgid in an anonymous union */
static struct btf *fx_core_target(void)
{
	struct btf *b = btf__new_empty();
	int int_id, uint_id, long_id, char_id, comm, inner, uni, ts, ptr;

	int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	uint_id = btf__add_int(b, "unsigned int", 4, 0);
	long_id = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
	char_id = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	comm = btf__add_array(b, uint_id, char_id, 16);
	ptr = btf__add_ptr(b, 0);	/* fixed below: points at task_struct */
	inner = btf__add_struct(b, NULL, 8);
	btf__add_field(b, "pid", int_id, 0, 0);
	btf__add_field(b, "tgid", int_id, 32, 0);
	uni = btf__add_union(b, NULL, 8);
	btf__add_field(b, NULL, inner, 0, 0);
	ts = btf__add_struct(b, "task_struct", 96);
	btf__add_field(b, "thread_info", long_id, 0, 0);
	btf__add_field(b, "__state", uint_id, 64, 0);	/* byte 8 */
	btf__add_field(b, NULL, uni, 128, 0);		/* pid 16, tgid 20 */
	btf__add_field(b, "stack", long_id, 192, 0);
	btf__add_field(b, "real_parent", ptr, 256, 0);	/* byte 32 */
	btf__add_field(b, "comm", comm, 512, 0);	/* byte 64 */
	((struct btf_type *)btf__type_by_id(b, ptr))->type = ts;
	return b;
}

START_TEST(fx_core_records_on_a_synthetic_kernel)
{
	static const char sec_name[] = "tp/syscalls/sys_enter_getpid";
	struct btf *local = btf__parse(FX_CORE_OBJ, NULL), *target = fx_core_target();
	const uint8_t *p, *end;
	uint8_t *raw;
	size_t raw_size;
	uint32_t hdr_len, core_off, core_len, rec_size, checked = 0, i;
	struct bpf_insn *insns;
	size_t text_len;
	struct bpfrr_core_report rep;
	const struct bpfrr_core_relo *relos = NULL;
	uint32_t nr = 0;

	ck_assert_msg(local, "%s: no BTF", FX_CORE_OBJ);
	insns = elf_section(FX_CORE_OBJ, sec_name, &text_len);

	/* .BTF.ext: header (hdr_len, ..., core_relo_off/len at 24/28), then per section records */
	raw = elf_section(FX_CORE_OBJ, ".BTF.ext", &raw_size);
	memcpy(&hdr_len, raw + 4, 4);
	ck_assert_uint_ge(hdr_len, 32);
	ck_assert_uint_ge(raw_size, hdr_len);
	memcpy(&core_off, raw + 24, 4);
	memcpy(&core_len, raw + 28, 4);
	p = raw + hdr_len + core_off;
	end = p + core_len;
	memcpy(&rec_size, p, 4);
	ck_assert_uint_eq(rec_size, sizeof(struct bpfrr_core_relo));
	for (p += 4; p < end;) {
		uint32_t name_off, n;

		memcpy(&name_off, p, 4);
		memcpy(&n, p + 4, 4);
		if (!strcmp(btf__name_by_offset(local, name_off), sec_name)) {
			relos = (const void *)(p + 8);
			nr = n;
		}
		p += 8 + (size_t)n * rec_size;
	}
	ck_assert_uint_ge(nr, 6);

	ck_assert_int_eq(bpfrr_core_relocate(local, target, relos, nr, rec_size, insns, text_len / 8, &rep), 0);
	for (i = 0; i < nr; i++) {
		const struct bpfrr_core_relo *r = &relos[i];
		const char *access = btf__name_by_offset(local, r->access_str_off);
		const struct btf_type *t = btf__type_by_id(local, r->type_id);
		const char *tname = btf__name_by_offset(local, t->name_off);
		const struct bpf_insn *in = &insns[r->insn_off / 8];
		const char *field;
		int64_t got;
		unsigned int idx;

		ck_assert_int_eq(sscanf(access, "0:%u", &idx), 1);
		field = btf__name_by_offset(local, btf_members(t)[idx].name_off);
		got = BPF_CLASS(in->code) == BPF_LDX ? in->off : in->imm;
		if (!strcmp(tname, "task_struct___old")) {
			ck_assert_uint_eq(r->kind, BPF_CORE_FIELD_EXISTS);
			ck_assert_int_eq(got, 0);
		} else if (r->kind == BPF_CORE_FIELD_EXISTS) {
			ck_assert_str_eq(field, "__state");
			ck_assert_int_eq(got, 1);
		} else if (r->kind == BPF_CORE_FIELD_BYTE_SIZE) {
			ck_assert_str_eq(field, "comm");
			ck_assert_int_eq(got, 16);
		} else {
			static const struct { const char *name; int64_t off; } want[] = {
				{ "pid", 16 }, { "tgid", 20 }, { "real_parent", 32 }, { "comm", 64 },
			};
			unsigned int k;

			ck_assert_uint_eq(r->kind, BPF_CORE_FIELD_BYTE_OFFSET);
			for (k = 0; k < 4 && strcmp(want[k].name, field); k++)
				;
			ck_assert_msg(k < 4, "relocation of %s", field);
			ck_assert_msg(got == want[k].off, "%s: %lld, want %lld", field, (long long)got,
				      (long long)want[k].off);
		}
		checked++;
	}
	ck_assert_uint_eq(checked, nr);
	ck_assert_uint_eq(rep.nr_poisoned, 0);
	free(insns);
	free(raw);
	btf__free(local);
	btf__free(target);
}
END_TEST

/*
 * bpfrr_btf_parse(): a one-int BTF parses in either byte order. Moved one
 * byte later behind a header of 25 bytes (hdr_len 25: libbpf takes it, and
 * its types then sit at an odd address in libbpf's copy) it is refused, so
 * nothing reads a struct btf_type there; so is a type_off of 1 (which
 * libbpf refuses too), and bytes that are not BTF.
 */
START_TEST(btf_parse_refuses_misaligned_types)
{
	struct btf *b = btf__new_empty(), *p;
	struct btf_header h;
	const uint8_t *raw;
	uint8_t odd[256];
	uint32_t size;

	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(btf__add_int(b, "int", 4, BTF_INT_SIGNED), 1);
	for (int swap = 0; swap < 2; swap++) {
		if (swap)
			btf__set_endianness(b, btf__endianness(b) == BTF_LITTLE_ENDIAN ? BTF_BIG_ENDIAN :
											BTF_LITTLE_ENDIAN);
		raw = btf__raw_data(b, &size);
		ck_assert_ptr_nonnull(raw);
		ck_assert_uint_lt(size + 1, sizeof(odd));
		p = bpfrr_btf_parse(raw, size);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(btf__type_cnt(p), 2);
		btf__free(p);

		/* one zero byte after the header: hdr_len 25, or type_off 1 and str_off one later */
		for (int how = 0; how < 2; how++) {
			memcpy(&h, raw, sizeof(h));
			memcpy(odd, raw, sizeof(h));
			odd[sizeof(h)] = 0;
			memcpy(odd + sizeof(h) + 1, raw + sizeof(h), size - sizeof(h));
			if (how == 0) {
				h.hdr_len = swap ? __builtin_bswap32(sizeof(h) + 1) : sizeof(h) + 1;
			} else {
				h.type_off = swap ? __builtin_bswap32(1) : 1;
				h.str_off = swap ? __builtin_bswap32(__builtin_bswap32(h.str_off) + 1) : h.str_off + 1;
			}
			memcpy(odd, &h, sizeof(h));
			errno = 0;
			ck_assert_msg(!bpfrr_btf_parse(odd, size + 1), "swap %d, how %d: parsed", swap, how);
			ck_assert_int_eq(errno, EINVAL);
		}
	}
	ck_assert_ptr_null(bpfrr_btf_parse("not BTF at all, no magic", 24));
	ck_assert_ptr_null(bpfrr_btf_parse(odd, 10));
	btf__free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core_reloc");
	TCase *tc = tcase_create("core_reloc");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, sha1_standard_vectors);
	tcase_add_test(tc, tags_a_kernel_gave);
	tcase_add_test(tc, tag_blanks_map_references_only);
	tcase_add_test(tc, field_values_across_layouts);
	tcase_add_test(tc, bitfields);
	tcase_add_test(tc, type_and_enum_values);
	tcase_add_test(tc, refusals_and_unsupported);
	tcase_add_test(tc, relocate_patches_instructions);
	tcase_add_test(tc, fx_core_records_on_a_synthetic_kernel);
	tcase_add_test(tc, btf_parse_refuses_misaligned_types);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
