/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_insn.h - the eBPF instruction encoding, as the kernel's UAPI spells it
 * (Documentation/bpf/standardization/instruction-set.rst), for the lib code
 * that reads instructions: the disassembler (bpf_disasm.c) and the light
 * skeleton decoder (loader_decode.c).  The opcode: class in bits 0-2; for
 * ALU/JMP the op in bits 4-7 and the source in bit 3; for loads and stores
 * the size in bits 3-4 and the mode in bits 5-7.  Only lib/ .c files include
 * it: the short names are theirs.
 */
#ifndef BPFRR_BPF_INSN_H
#define BPFRR_BPF_INSN_H

/* classes */
#define CLS_LD		0x00
#define CLS_LDX		0x01
#define CLS_ST		0x02
#define CLS_STX		0x03
#define CLS_ALU		0x04
#define CLS_JMP		0x05
#define CLS_JMP32	0x06
#define CLS_ALU64	0x07

/* sizes */
#define SZ_MASK		0x18
#define SZ_W		0x00
#define SZ_H		0x08
#define SZ_B		0x10
#define SZ_DW		0x18

/* modes */
#define MODE_MASK	0xe0
#define MODE_IMM	0x00
#define MODE_ABS	0x20
#define MODE_IND	0x40
#define MODE_MEM	0x60
#define MODE_MEMSX	0x80
#define MODE_ATOMIC	0xc0

#define SRC_X		0x08
#define OP_MASK		0xf0

/* ALU ops */
#define OP_ADD		0x00
#define OP_SUB		0x10
#define OP_MUL		0x20
#define OP_DIV		0x30
#define OP_OR		0x40
#define OP_AND		0x50
#define OP_LSH		0x60
#define OP_RSH		0x70
#define OP_NEG		0x80
#define OP_MOD		0x90
#define OP_XOR		0xa0
#define OP_MOV		0xb0
#define OP_ARSH		0xc0
#define OP_END		0xd0

/* JMP ops */
#define OP_JA		0x00
#define OP_JEQ		0x10
#define OP_JGT		0x20
#define OP_JGE		0x30
#define OP_JSET		0x40
#define OP_JNE		0x50
#define OP_JSGT		0x60
#define OP_JSGE		0x70
#define OP_CALL		0x80
#define OP_EXIT		0x90
#define OP_JLT		0xa0
#define OP_JLE		0xb0
#define OP_JSLT		0xc0
#define OP_JSLE		0xd0
#define OP_JCOND	0xe0

/* ld_imm64 (its src_reg says what its imm is) */
#define LD_IMM64	(CLS_LD | MODE_IMM | SZ_DW)
#define PSEUDO_MAP_FD		1
#define PSEUDO_MAP_VALUE	2
#define PSEUDO_BTF_ID		3
#define PSEUDO_FUNC		4
#define PSEUDO_MAP_IDX		5
#define PSEUDO_MAP_IDX_VALUE	6

/* call (src_reg) */
#define PSEUDO_CALL		1
#define PSEUDO_KFUNC_CALL	2

#endif /* BPFRR_BPF_INSN_H */
