/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay-sample.h - a hand-built IR of a small load, as the translator's
 * front end would produce it from a libbpf-style trace:
 *
 *   seq 3  BPF_BTF_LOAD      types u32, u64, int, a FUNC_PROTO and FUNC "count"  -> slot 0 (btf)
 *   seq 5  BPF_MAP_CREATE    hash "counts" u32 -> u64 x 16, btf_fd = slot 0        -> slot 1 (map)
 *   seq 8  BPF_PROG_LOAD     socket filter "count" bumping counts[7], ld_imm64 of
 *                            slot 1, prog_btf_fd = slot 0, func_info             -> slot 2 (prog)
 *   seq 9  BPF_MAP_UPDATE_ELEM counts[7] = 42, map_fd = slot 1
 * and with SAMPLE_FAIL_LAST:
 *   seq 12 BPF_MAP_UPDATE_ELEM counts[99] with BPF_EXIST: fails with ENOENT
 * or with SAMPLE_BAD_PROG the program reads r6 before setting it: the
 * verifier refuses it (EACCES) and has a log to show.  SAMPLE_RAW_TP adds
 *   seq 14 BPF_PROG_LOAD     a no-op raw tracepoint program "on_enter"         -> slot 3 (prog)
 *   seq 15 BPF_RAW_TRACEPOINT_OPEN "sys_enter" (a user pointer on stock 6.12)  -> slot 4 (link)
 *
 * Used by the host unit tests (tests/unit/test_translate_*.c) and the guest
 * test program (tests/guest/replay-ir.c).  The attrs are laid out with the
 * system <linux/bpf.h>: an independent check of the ABI table the product
 * code uses.
 */
#ifndef REPLAY_SAMPLE_H
#define REPLAY_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/btf.h>

#include "bpf_abi.h"
#include "ir.h"

#define SAMPLE_FAIL_LAST	0x1
#define SAMPLE_BAD_PROG		0x2
#define SAMPLE_RAW_TP		0x4	/* and a raw tracepoint program attached to sys_enter */

#define SAMPLE_KEY		7u
#define SAMPLE_VALUE		42ull
#define SAMPLE_MAX_ENTRIES	16u

/* size of the attr up to and including field f (libbpf's offsetofend) */
#define SAMPLE_ATTR_END(f) (offsetof(union bpf_attr, f) + sizeof(((union bpf_attr *)0)->f))

enum { SAMPLE_SLOT_BTF, SAMPLE_SLOT_MAP, SAMPLE_SLOT_PROG, SAMPLE_SLOT_TP_PROG, SAMPLE_SLOT_TP_LINK };

/* The BTF: [1] u32, [2] u64, [3] int, [4] int (void), [5] FUNC count */
struct sample_btf {
	struct btf_header hdr;
	uint32_t types[4 * 3 + 3 + 3];	/* exactly the type section: the strings follow */
	char strings[24];
};

static inline uint32_t sample_btf_build(struct sample_btf *b)
{
	static const char strs[] = "\0u32\0u64\0int\0count";	/* offsets 1, 5, 9, 13 */
	uint32_t t[] = {
		1, BTF_KIND_INT << 24, 4, 32,				/* [1] u32 */
		5, BTF_KIND_INT << 24, 8, 64,				/* [2] u64 */
		9, BTF_KIND_INT << 24, 4, BTF_INT_SIGNED << 24 | 32,	/* [3] int */
		0, BTF_KIND_FUNC_PROTO << 24, 3,			/* [4] int (void) */
		13, BTF_KIND_FUNC << 24 | BTF_FUNC_GLOBAL, 4,		/* [5] count */
	};

	memset(b, 0, sizeof(*b));
	b->hdr.magic = BTF_MAGIC;
	b->hdr.version = BTF_VERSION;
	b->hdr.hdr_len = sizeof(b->hdr);
	b->hdr.type_off = 0;
	b->hdr.type_len = sizeof(t);
	b->hdr.str_off = sizeof(t);
	b->hdr.str_len = sizeof(strs);
	memcpy(b->types, t, sizeof(t));
	memcpy(b->strings, strs, sizeof(strs));
	return sizeof(b->hdr) + sizeof(t) + sizeof(strs);
}

/* The program; *map_imm_off is the byte offset of the ld_imm64's imm. */
static inline uint32_t sample_prog(struct bpf_insn *insn, int bad, uint32_t *map_imm_off)
{
	uint32_t n = 0;

	/* *(u32 *)(r10 - 4) = SAMPLE_KEY; r2 = r10 - 4 */
	insn[n++] = (struct bpf_insn){ BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, SAMPLE_KEY };
	insn[n++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0 };
	insn[n++] = (struct bpf_insn){ BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4 };
	/* r1 = map (fd 5 in the recording) */
	*map_imm_off = n * sizeof(*insn) + 4;
	insn[n++] = (struct bpf_insn){ BPF_LD | BPF_IMM | BPF_DW, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, 5 };
	insn[n++] = (struct bpf_insn){ 0, 0, 0, 0, 0 };
	insn[n++] = (struct bpf_insn){ BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem };
	/* if (r0) *(u64 *)r0 += 1 */
	insn[n++] = (struct bpf_insn){ BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0 };
	insn[n++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1 };
	insn[n++] = (struct bpf_insn){ BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0, BPF_ADD };
	if (!bad)
		insn[n++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0 };
	else	/* r0 = r6: r6 was never set */
		insn[n++] = (struct bpf_insn){ BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, BPF_REG_6, 0, 0 };
	insn[n++] = (struct bpf_insn){ BPF_JMP | BPF_EXIT, 0, 0, 0, 0 };
	return n;
}

#define SAMPLE_CHECK(x) do { if ((x) < 0) goto fail; } while (0)

/* The IR, or NULL (out of memory / a builder refused). */
static inline struct bpfrr_ir *sample_ir(unsigned int flags)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct sample_btf btf;
	struct bpf_insn insns[16];
	struct bpf_func_info finfo = { 0, 5 };
	union bpf_attr a;
	uint32_t btf_len, nr_insns, map_imm, key = SAMPLE_KEY;
	uint64_t value = SAMPLE_VALUE;
	int c;

	if (!ir)
		return NULL;
	/* the machine it runs on: replay refuses a bundle of another architecture */
#ifdef __aarch64__
	ir->arch = 183;
#else
	ir->arch = 62;
#endif
	ir->nr_recorded = 14;
	SAMPLE_CHECK(bpfrr_ir_add_slot(ir, BPFRR_OBJ_BTF, "btf"));
	SAMPLE_CHECK(bpfrr_ir_add_slot(ir, BPFRR_OBJ_MAP, "map.counts"));
	SAMPLE_CHECK(bpfrr_ir_add_slot(ir, BPFRR_OBJ_PROG, "prog.count"));
	ir->slots[SAMPLE_SLOT_MAP].flags = BPFRR_IR_SLOT_KEEP;
	ir->slots[SAMPLE_SLOT_PROG].flags = BPFRR_IR_SLOT_KEEP;

	/* seq 3: BTF_LOAD; the recorded pointer value is irrelevant: the buffer replaces it */
	btf_len = sample_btf_build(&btf);
	memset(&a, 0, sizeof(a));
	a.btf = 0x7ffd00001000ull;
	a.btf_size = btf_len;
	c = bpfrr_ir_add_call(ir, 3, BPFRR_IR_BPF, BPF_BTF_LOAD, &a, SAMPLE_ATTR_END(btf_log_level));
	SAMPLE_CHECK(c);
	SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, btf), "attr.btf", &btf,
				      btf_len, BPFRR_DIR_IN, BPFRR_CONTENT_BTF));
	SAMPLE_CHECK(bpfrr_ir_set_result(ir, c, SAMPLE_SLOT_BTF));
	ir->slots[SAMPLE_SLOT_BTF].ident.have = BPFRR_ID_BTF_SIZE;
	ir->slots[SAMPLE_SLOT_BTF].ident.btf_size = btf_len;

	/* seq 5: MAP_CREATE */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = SAMPLE_MAX_ENTRIES;
	strcpy(a.map_name, "counts");
	a.btf_fd = 4;	/* the recording's fd */
	a.btf_key_type_id = 1;
	a.btf_value_type_id = 2;
	c = bpfrr_ir_add_call(ir, 5, BPFRR_IR_BPF, BPF_MAP_CREATE, &a, SAMPLE_ATTR_END(map_extra));
	SAMPLE_CHECK(c);
	SAMPLE_CHECK(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, btf_fd),
					SAMPLE_SLOT_BTF, BPFRR_IR_REF_FIELD));
	SAMPLE_CHECK(bpfrr_ir_set_result(ir, c, SAMPLE_SLOT_MAP));
	ir->slots[SAMPLE_SLOT_MAP].ident = (struct bpfrr_ir_ident){
		.have = BPFRR_ID_TYPE | BPFRR_ID_NAME | BPFRR_ID_KEY_SIZE | BPFRR_ID_VALUE_SIZE |
			BPFRR_ID_MAX_ENTRIES | BPFRR_ID_MAP_FLAGS,
		.type = BPF_MAP_TYPE_HASH, .name = "counts", .key_size = 4, .value_size = 8,
		.max_entries = SAMPLE_MAX_ENTRIES, .map_flags = 0,
	};

	/* seq 8: PROG_LOAD */
	nr_insns = sample_prog(insns, flags & SAMPLE_BAD_PROG, &map_imm);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insn_cnt = nr_insns;
	a.insns = 0x7ffd00002000ull;
	a.license = 0x7ffd00003000ull;
	strcpy(a.prog_name, "count");
	a.prog_btf_fd = 4;
	a.func_info_rec_size = sizeof(finfo);
	a.func_info = 0x7ffd00004000ull;
	a.func_info_cnt = 1;
	c = bpfrr_ir_add_call(ir, 8, BPFRR_IR_BPF, BPF_PROG_LOAD, &a, SAMPLE_ATTR_END(fd_array));
	SAMPLE_CHECK(c);
	SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, insns), "attr.insns",
				      insns, nr_insns * sizeof(insns[0]), BPFRR_DIR_IN, BPFRR_CONTENT_INSNS));
	SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, license),
				      "attr.license", "GPL", 4, BPFRR_DIR_IN, BPFRR_CONTENT_STRING));
	SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, func_info),
				      "attr.func_info", &finfo, sizeof(finfo), BPFRR_DIR_IN,
				      BPFRR_CONTENT_FUNC_INFO));
	SAMPLE_CHECK(bpfrr_ir_add_fdrel(ir, c, 0, map_imm, SAMPLE_SLOT_MAP, BPFRR_IR_REF_LD_IMM64));
	SAMPLE_CHECK(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, prog_btf_fd),
					SAMPLE_SLOT_BTF, BPFRR_IR_REF_FIELD));
	SAMPLE_CHECK(bpfrr_ir_set_result(ir, c, SAMPLE_SLOT_PROG));
	ir->slots[SAMPLE_SLOT_PROG].ident = (struct bpfrr_ir_ident){
		.have = BPFRR_ID_TYPE | BPFRR_ID_NAME, .type = BPF_PROG_TYPE_SOCKET_FILTER, .name = "count",
	};

	/* seq 9: MAP_UPDATE_ELEM counts[7] = 42 */
	memset(&a, 0, sizeof(a));
	a.map_fd = 5;
	a.key = 0x7ffd00005000ull;
	a.value = 0x7ffd00005008ull;
	a.flags = BPF_ANY;
	c = bpfrr_ir_add_call(ir, 9, BPFRR_IR_BPF, BPF_MAP_UPDATE_ELEM, &a, SAMPLE_ATTR_END(flags));
	SAMPLE_CHECK(c);
	SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, key), "attr.key", &key,
				      4, BPFRR_DIR_IN, BPFRR_CONTENT_KEY));
	SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, value), "attr.value",
				      &value, 8, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE));
	SAMPLE_CHECK(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, map_fd),
					SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD));

	if (flags & SAMPLE_FAIL_LAST) {
		key = 99;
		a.flags = BPF_EXIST;
		c = bpfrr_ir_add_call(ir, 12, BPFRR_IR_BPF, BPF_MAP_UPDATE_ELEM, &a,
				      SAMPLE_ATTR_END(flags));
		SAMPLE_CHECK(c);
		SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, key), "attr.key",
					      &key, 4, BPFRR_DIR_IN, BPFRR_CONTENT_KEY));
		SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, value),
					      "attr.value", &value, 8, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE));
		SAMPLE_CHECK(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, map_fd),
						SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD));
	}
	if (flags & SAMPLE_RAW_TP) {
		static const struct bpf_insn noop[] = {
			{ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0 },
			{ BPF_JMP | BPF_EXIT, 0, 0, 0, 0 },
		};

		SAMPLE_CHECK(bpfrr_ir_add_slot(ir, BPFRR_OBJ_PROG, "prog.on_enter"));
		SAMPLE_CHECK(bpfrr_ir_add_slot(ir, BPFRR_OBJ_LINK, "link.sys_enter"));
		ir->slots[SAMPLE_SLOT_TP_LINK].flags = BPFRR_IR_SLOT_KEEP;
		memset(&a, 0, sizeof(a));
		a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
		a.insn_cnt = 2;
		strcpy(a.prog_name, "on_enter");
		c = bpfrr_ir_add_call(ir, 14, BPFRR_IR_BPF, BPF_PROG_LOAD, &a, SAMPLE_ATTR_END(fd_array));
		SAMPLE_CHECK(c);
		SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, insns),
					      "attr.insns", noop, sizeof(noop), BPFRR_DIR_IN, BPFRR_CONTENT_INSNS));
		SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, license),
					      "attr.license", "GPL", 4, BPFRR_DIR_IN, BPFRR_CONTENT_STRING));
		SAMPLE_CHECK(bpfrr_ir_set_result(ir, c, SAMPLE_SLOT_TP_PROG));
		ir->slots[SAMPLE_SLOT_TP_PROG].ident = (struct bpfrr_ir_ident){
			.have = BPFRR_ID_TYPE | BPFRR_ID_NAME, .type = BPF_PROG_TYPE_RAW_TRACEPOINT,
			.name = "on_enter",
		};
		memset(&a, 0, sizeof(a));
		a.raw_tracepoint.name = 0x7ffd00006000ull;
		a.raw_tracepoint.prog_fd = 6;
		c = bpfrr_ir_add_call(ir, 15, BPFRR_IR_BPF, BPF_RAW_TRACEPOINT_OPEN, &a, 16);
		SAMPLE_CHECK(c);
		SAMPLE_CHECK(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, raw_tracepoint.name),
					      "attr.raw_tracepoint.name", "sys_enter", 10, BPFRR_DIR_IN,
					      BPFRR_CONTENT_STRING));
		SAMPLE_CHECK(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR,
						offsetof(union bpf_attr, raw_tracepoint.prog_fd), SAMPLE_SLOT_TP_PROG,
						BPFRR_IR_REF_FIELD));
		SAMPLE_CHECK(bpfrr_ir_set_result(ir, c, SAMPLE_SLOT_TP_LINK));
		ir->slots[SAMPLE_SLOT_TP_LINK].ident = (struct bpfrr_ir_ident){
			.have = BPFRR_ID_TYPE | BPFRR_ID_LINK_PROG, .type = BPF_LINK_TYPE_RAW_TRACEPOINT,
			.link_prog_slot = SAMPLE_SLOT_TP_PROG,
		};
	}
	SAMPLE_CHECK(bpfrr_ir_add_drop(ir, 1, "BPF_PROG_LOAD", "feature probe: made and closed, nothing uses it"));
	SAMPLE_CHECK(bpfrr_ir_add_drop(ir, 10, "BPF_OBJ_GET_INFO_BY_FD", "read-only query"));
	return ir;
fail:
	bpfrr_ir_free(ir);
	return NULL;
}

#endif /* REPLAY_SAMPLE_H */
