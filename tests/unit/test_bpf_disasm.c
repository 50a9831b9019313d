// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF disassembler golden tests: one instruction (or ld_imm64 pair) in,
 * the kernel/bpftool-style text out. Host only, no bpf().
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "bpf_disasm.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define I(c, d, s, o, i) { .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

struct golden {
	struct bpf_insn insn[2];
	int nr;			/* insns given */
	int used;		/* insns the disassembler should consume */
	const char *text;
};

#define G1(c, d, s, o, i, t) { { I(c, d, s, o, i) }, 1, 1, t }
#define G2(c, d, s, o, i, i2, t) { { I(c, d, s, o, i), I(0, 0, 0, 0, i2) }, 2, 2, t }

static const struct golden goldens[] = {
	/* ALU64 / ALU32, imm and reg */
	G1(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 5, "r1 = 5"),
	G1(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, -1, "r1 = -1"),
	G1(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0, "r6 = r1"),
	G1(BPF_ALU | BPF_MOV | BPF_X, 2, 3, 0, 0, "w2 = w3"),
	G1(BPF_ALU64 | BPF_ADD | BPF_K, 10, 0, 0, -8, "r10 += -8"),
	G1(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 0, 0, "r1 += r2"),
	G1(BPF_ALU | BPF_SUB | BPF_X, 1, 2, 0, 0, "w1 -= w2"),
	G1(BPF_ALU64 | BPF_MUL | BPF_K, 3, 0, 0, 7, "r3 *= 7"),
	G1(BPF_ALU64 | BPF_DIV | BPF_X, 3, 4, 0, 0, "r3 /= r4"),
	G1(BPF_ALU64 | BPF_DIV | BPF_X, 3, 4, 1, 0, "r3 s/= r4"),
	G1(BPF_ALU | BPF_MOD | BPF_K, 3, 0, 1, 10, "w3 s%= 10"),
	G1(BPF_ALU64 | BPF_OR | BPF_K, 1, 0, 0, 0x10, "r1 |= 16"),
	G1(BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, 0xff, "r1 &= 255"),
	G1(BPF_ALU64 | BPF_LSH | BPF_K, 1, 0, 0, 32, "r1 <<= 32"),
	G1(BPF_ALU64 | BPF_RSH | BPF_K, 1, 0, 0, 32, "r1 >>= 32"),
	G1(BPF_ALU64 | BPF_ARSH | BPF_K, 1, 0, 0, 3, "r1 s>>= 3"),
	G1(BPF_ALU | BPF_XOR | BPF_X, 0, 0, 0, 0, "w0 ^= w0"),
	G1(BPF_ALU64 | BPF_NEG, 4, 0, 0, 0, "r4 = -r4"),
	G1(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 16, "r1 = be16 r1"),
	G1(BPF_ALU | BPF_END | BPF_TO_LE, 1, 0, 0, 64, "r1 = le64 r1"),
	G1(BPF_ALU64 | BPF_END, 1, 0, 0, 32, "r1 = bswap32 r1"),
	G1(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 8, 0, "r1 = (s8)r2"),
	G1(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 16, 0, "w1 = (s16)w2"),
	G1(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 1, 1, "r1 = addr_space_cast(r2, 0, 1)"),
	/* memory */
	G1(BPF_LDX | BPF_MEM | BPF_W, 1, 10, -4, 0, "r1 = *(u32 *)(r10 -4)"),
	G1(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 8, 0, "r0 = *(u64 *)(r1 +8)"),
	G1(BPF_LDX | BPF_MEM | BPF_B, 2, 6, 0, 0, "r2 = *(u8 *)(r6 +0)"),
	G1(BPF_LDX | 0x80 /* BPF_MEMSX */ | BPF_H, 2, 6, 2, 0, "r2 = *(s16 *)(r6 +2)"),
	G1(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -16, 0, "*(u64 *)(r10 -16) = r1"),
	G1(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 42, "*(u32 *)(r10 -4) = 42"),
	G1(BPF_ST | BPF_MEM | BPF_H, 10, 0, -2, -1, "*(u16 *)(r10 -2) = -1"),
	G1(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, BPF_ADD, "lock *(u64 *)(r1 +0) += r2"),
	G1(BPF_STX | BPF_ATOMIC | BPF_W, 1, 2, 4, BPF_OR, "lock *(u32 *)(r1 +4) |= r2"),
	G1(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, BPF_ADD | BPF_FETCH,
	   "r2 = atomic64_fetch_add((u64 *)(r1 +0), r2)"),
	G1(BPF_STX | BPF_ATOMIC | BPF_W, 1, 3, 0, BPF_AND | BPF_FETCH,
	   "r3 = atomic_fetch_and((u32 *)(r1 +0), r3)"),
	G1(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, BPF_XCHG, "r2 = atomic64_xchg((u64 *)(r1 +0), r2)"),
	G1(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, -8, BPF_CMPXCHG,
	   "r0 = atomic64_cmpxchg((u64 *)(r1 -8), r0, r2)"),
	G1(BPF_LD | BPF_ABS | BPF_H, 0, 0, 0, 12, "r0 = *(u16 *)skb[12]"),
	G1(BPF_LD | BPF_IND | BPF_B, 0, 7, 0, 14, "r0 = *(u8 *)skb[r7 +14]"),
	/* ld_imm64 */
	G2(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 0x5678, 0x1234, "r1 = 0x123400005678 ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, -1, -1, "r1 = 0xffffffffffffffff ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 5, 0, "r1 = map[fd:5] ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_MAP_VALUE, 0, 6, 16, "r2 = map[fd:6][0]+16 ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_IDX, 0, 2, 0, "r1 = map[idx:2] ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_IDX_VALUE, 0, 2, 8, "r1 = map[idx:2][0]+8 ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 3, BPF_PSEUDO_BTF_ID, 0, 1234, 0, "r3 = ksym[btf_id:1234] ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 3, BPF_PSEUDO_BTF_ID, 0, 1234, 30,
	   "r3 = ksym[btf_id:1234,btf_fd:30] ll"),
	G2(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_FUNC, 0, 5, 0, "r2 = subprog[pc+5] ll"),
	{ { I(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 5) }, 1, 1,
	  "r1 = <truncated ld_imm64 0x5>" },
	/* jumps and calls */
	G1(BPF_JMP | BPF_JA, 0, 0, 3, 0, "goto pc+3"),
	G1(BPF_JMP | BPF_JA, 0, 0, -7, 0, "goto pc-7"),
	G1(BPF_JMP32 | BPF_JA, 0, 0, 0, 70000, "gotol pc+70000"),
	G1(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 2, 0, "if r1 == 0x0 goto pc+2"),
	G1(BPF_JMP | BPF_JGT | BPF_K, 1, 0, 3, 5, "if r1 > 0x5 goto pc+3"),
	G1(BPF_JMP | BPF_JNE | BPF_X, 1, 2, -2, 0, "if r1 != r2 goto pc-2"),
	G1(BPF_JMP | BPF_JSGE | BPF_K, 1, 0, 1, -1, "if r1 s>= 0xffffffff goto pc+1"),
	G1(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1, 4, "if r1 & 0x4 goto pc+1"),
	G1(BPF_JMP32 | BPF_JLT | BPF_X, 1, 2, 4, 0, "if w1 < w2 goto pc+4"),
	G1(BPF_JMP32 | BPF_JSLE | BPF_K, 1, 0, 4, 9, "if w1 s<= 0x9 goto pc+4"),
	G1(BPF_JMP | BPF_CALL, 0, 0, 0, 1, "call bpf_map_lookup_elem#1"),
	G1(BPF_JMP | BPF_CALL, 0, 0, 0, 6, "call bpf_trace_printk#6"),
	G1(BPF_JMP | BPF_CALL, 0, 0, 0, 211, "call bpf_cgrp_storage_delete#211"),
	G1(BPF_JMP | BPF_CALL, 0, 0, 0, 999, "call unknown#999"),
	G1(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 10, "call pc+10"),
	G1(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 555, "call kfunc[btf_id:555]"),
	G1(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 2, 555, "call kfunc[btf_id:555,fd_idx:2]"),
	G1(BPF_JMP | BPF_EXIT, 0, 0, 0, 0, "exit"),
	G1(BPF_JMP | 0xe0 /* BPF_JCOND */, 0, 0, 5, 0, "may_goto pc+5"),
	/* nonsense */
	G1(0xff, 1, 2, 3, 4, "invalid insn code=0xff dst=r1 src=r2 off=3 imm=4"),
	G1(BPF_ALU64 | BPF_END, 1, 0, 0, 12, "invalid insn code=0xd7 dst=r1 src=r0 off=0 imm=12"),
	G1(BPF_JMP32 | BPF_EXIT, 0, 0, 0, 0, "invalid insn code=0x96 dst=r0 src=r0 off=0 imm=0"),
	G1(BPF_LDX | 0x80 | BPF_DW, 1, 2, 0, 0, "invalid insn code=0x99 dst=r1 src=r2 off=0 imm=0"),
};

START_TEST(test_golden)
{
	const struct golden *g = &goldens[_i];
	char text[256];
	int used;

	used = bpfrr_disasm_insn(g->insn, (size_t)g->nr, 0, NULL, text, sizeof(text));
	ck_assert_msg(!strcmp(text, g->text), "golden %d: got \"%s\", want \"%s\"", _i, text, g->text);
	ck_assert_int_eq(used, g->used);
}
END_TEST

/* The hook renders references as the objects they name. */
static int render(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	int *calls = ctx;

	(*calls)++;
	switch (ref->type) {
	case BPFRR_DREF_MAP_FD:
		return snprintf(buf, size, "map[events]#fd%d", ref->fd);
	case BPFRR_DREF_MAP_VALUE:
		return snprintf(buf, size, "map[.rodata]+%u", ref->value_off);
	case BPFRR_DREF_SUBPROG:
		return snprintf(buf, size, "handle_exit@%lld", (long long)ref->target);
	case BPFRR_DREF_HELPER:
		return 0;	/* keep the default */
	default:
		return snprintf(buf, size, "?");
	}
}

START_TEST(test_hook)
{
	struct bpf_insn prog[] = {
		I(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 5), I(0, 0, 0, 0, 0),
		I(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_MAP_VALUE, 0, 6), I(0, 0, 0, 0, 24),
		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1),
		I(BPF_JMP | BPF_CALL, 0, 0, 0, 1),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int calls = 0;
	struct bpfrr_disasm_opts opts = { .render_ref = render, .ctx = &calls };
	char text[256];

	ck_assert_int_eq(bpfrr_disasm_insn(prog, ARRAY_SIZE(prog), 0, &opts, text, sizeof(text)), 2);
	ck_assert_str_eq(text, "r1 = map[events]#fd5 ll");
	ck_assert_int_eq(bpfrr_disasm_insn(prog, ARRAY_SIZE(prog), 2, &opts, text, sizeof(text)), 2);
	ck_assert_str_eq(text, "r2 = map[.rodata]+24 ll");
	bpfrr_disasm_insn(prog, ARRAY_SIZE(prog), 4, &opts, text, sizeof(text));
	ck_assert_str_eq(text, "call handle_exit@6");
	bpfrr_disasm_insn(prog, ARRAY_SIZE(prog), 5, &opts, text, sizeof(text));
	ck_assert_str_eq(text, "call bpf_map_lookup_elem#1");
	ck_assert_int_eq(calls, 4);
}
END_TEST

START_TEST(test_fprint)
{
	struct bpf_insn prog[] = {
		I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		I(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 5), I(0, 0, 0, 0, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(bpfrr_disasm_fprint(f, prog, ARRAY_SIZE(prog), NULL, "  "), 3);
	fclose(f);
	ck_assert_str_eq(out, "     0: (b7) r0 = 0\n"
			      "     1: (18) r1 = map[fd:5] ll\n"
			      "     3: (95) exit\n");
	free(out);
}
END_TEST

/* Small buffers truncate, never overflow; bad indexes give nothing. */
START_TEST(test_bounds)
{
	struct bpf_insn prog[] = {
		I(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, -8, BPF_CMPXCHG),
	};
	char text[12];

	ck_assert_int_eq(bpfrr_disasm_insn(prog, 1, 0, NULL, text, sizeof(text)), 1);
	ck_assert_str_eq(text, "r0 = atomic");
	ck_assert_int_eq(bpfrr_disasm_insn(prog, 1, 1, NULL, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "");
	ck_assert_int_eq(bpfrr_disasm_insn(NULL, 1, 0, NULL, text, sizeof(text)), 0);
	/* every 8-byte pattern of a few opcode bytes decodes to something printable */
	for (int code = 0; code < 256; code++) {
		struct bpf_insn in[2] = { I((uint8_t)code, 15, 15, -32768, -2147483647 - 1), I(0, 0, 0, 0, 0) };
		char big[256];

		ck_assert_int_ge(bpfrr_disasm_insn(in, 2, 0, NULL, big, sizeof(big)), 1);
		ck_assert_uint_gt(strlen(big), 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bpf_disasm");
	TCase *tc = tcase_create("disasm");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, test_golden, 0, (int)ARRAY_SIZE(goldens));
	tcase_add_test(tc, test_hook);
	tcase_add_test(tc, test_fprint);
	tcase_add_test(tc, test_bounds);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
