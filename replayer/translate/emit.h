/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emit.h - building BPF instructions: constructors, a growing program with
 * labels for forward jumps, and a note per instruction so that generated
 * code reads as an annotated listing (disasm.h).
 */
#ifndef BPFRR_EMIT_H
#define BPFRR_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

/* The instruction subset the loaders use, as constructors. */
static inline struct bpf_insn insn_raw(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };

	return i;
}

static inline struct bpf_insn insn_mov_reg(uint8_t dst, uint8_t src)
{
	return insn_raw(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}

static inline struct bpf_insn insn_mov_imm(uint8_t dst, int32_t imm)
{
	return insn_raw(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

/* 32-bit move: dst = (u32)imm, zero-extended (for values up to 2^32 - 1) */
static inline struct bpf_insn insn_mov32_imm(uint8_t dst, int32_t imm)
{
	return insn_raw(BPF_ALU | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

static inline struct bpf_insn insn_add_imm(uint8_t dst, int32_t imm)
{
	return insn_raw(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm);
}

/* dst = *(size *)(src + off) */
static inline struct bpf_insn insn_ldx(uint8_t size, uint8_t dst, uint8_t src, int16_t off)
{
	return insn_raw(BPF_LDX | BPF_MEM | size, dst, src, off, 0);
}

/* *(size *)(dst + off) = src */
static inline struct bpf_insn insn_stx(uint8_t size, uint8_t dst, uint8_t src, int16_t off)
{
	return insn_raw(BPF_STX | BPF_MEM | size, dst, src, off, 0);
}

/* *(size *)(dst + off) = imm */
static inline struct bpf_insn insn_st(uint8_t size, uint8_t dst, int16_t off, int32_t imm)
{
	return insn_raw(BPF_ST | BPF_MEM | size, dst, 0, off, imm);
}

static inline struct bpf_insn insn_call(int32_t func)
{
	return insn_raw(BPF_JMP | BPF_CALL, 0, 0, 0, func);
}

static inline struct bpf_insn insn_exit(void)
{
	return insn_raw(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* Registers the loaders keep across helper calls (r6..r9 survive them). */
#define REG_CTX		6	/* the loader's context */
#define REG_BLOB	7	/* the blob: map value of the blob map */
#define REG_SEQ		8	/* seq of the call being made (for the failure report) */
#define REG_ERR		9	/* error being reported */

struct bpfrr_emit {
	struct bpf_insn *insns;
	char **notes;		/* per instruction, may be NULL */
	uint32_t nr, cap;
	char *pending_note;	/* attached to the next instruction emitted */
	/* labels: target instruction (or UINT32_MAX while unbound) */
	uint32_t *labels;
	uint32_t nr_labels, cap_labels;
	/* jumps waiting for a label */
	struct emit_fixup {
		uint32_t insn;
		uint32_t label;
		bool wide;	/* a gotol (imm) rather than off */
	} *fixups;
	uint32_t nr_fixups, cap_fixups;
	bool keep_notes;
	int err;		/* first error (-ENOMEM, -E2BIG); emission continues as no-ops */
};

void emit_init(struct bpfrr_emit *e, bool keep_notes);
void emit_release(struct bpfrr_emit *e);
void emit(struct bpfrr_emit *e, struct bpf_insn insn);
/* the two halves of ld_imm64: dst = imm | (u64)imm2 << 32, with src_reg pseudo */
void emit_ld_imm64(struct bpfrr_emit *e, uint8_t dst, uint8_t pseudo, int32_t imm, int32_t imm2);
/* Note for the next instruction emitted ("call 3 (seq 17): BPF_PROG_LOAD"). */
void emit_note(struct bpfrr_emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

uint32_t emit_label(struct bpfrr_emit *e);
void emit_bind(struct bpfrr_emit *e, uint32_t label);
/* conditional jump (op: BPF_JSLT, ...) of class BPF_JMP or BPF_JMP32 to label */
void emit_jmp_imm(struct bpfrr_emit *e, uint8_t class, uint8_t op, uint8_t reg, int32_t imm,
		  uint32_t label);
/* unconditional jump; wide: gotol (32-bit offset) */
void emit_goto(struct bpfrr_emit *e, uint32_t label, bool wide);
/* Resolves jumps: 0, or -ERANGE if a 16-bit offset does not fit (or a label is unbound). */
int emit_finish(struct bpfrr_emit *e);

#endif /* BPFRR_EMIT_H */
