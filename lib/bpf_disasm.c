// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_disasm.c - BPF instruction disassembler (see bpf_disasm.h).
 *
 * The opcode layout (class in bits 0-2; for ALU/JMP the op in bits 4-7 and
 * source in bit 3; for loads/stores the size in bits 3-4 and mode in 5-7)
 * is the eBPF ISA (Documentation/bpf/standardization/instruction-set.rst).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "bpf_insn.h"

/* atomic imm */
#define AT_FETCH	0x01
#define AT_XCHG		(0xe0 | AT_FETCH)
#define AT_CMPXCHG	(0xf0 | AT_FETCH)

struct insn {
	uint8_t code;
	uint8_t dst, src;
	int16_t off;
	int32_t imm;
};

static struct insn decode(const void *insns, size_t idx)
{
	const unsigned char *p = (const unsigned char *)insns + idx * BPFRR_INSN_SIZE;
	struct insn in;
	uint16_t off;
	uint32_t imm;

	in.code = p[0];
	in.dst = p[1] & 0x0f;
	in.src = p[1] >> 4;
	memcpy(&off, p + 2, 2);
	memcpy(&imm, p + 4, 4);
	in.off = (int16_t)off;
	in.imm = (int32_t)imm;
	return in;
}

/* Output buffer that never overflows and always stays NUL-terminated. */
struct out {
	char *buf;
	size_t size, len;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len >= o->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n : o->size - 1;
}

/* Render a reference through the hook, or with the default text. */
static void put_ref(struct out *o, const struct bpfrr_disasm_opts *opts,
		    const struct bpfrr_disasm_ref *ref, const char *def)
{
	char tmp[256];

	if (opts && opts->render_ref) {
		tmp[0] = '\0';
		if (opts->render_ref(opts->ctx, ref, tmp, sizeof(tmp)) > 0) {
			tmp[sizeof(tmp) - 1] = '\0';
			put(o, "%s", tmp);
			return;
		}
	}
	put(o, "%s", def);
}

static const char *const alu_ops[16] = {
	[OP_ADD >> 4] = "+=", [OP_SUB >> 4] = "-=", [OP_MUL >> 4] = "*=", [OP_DIV >> 4] = "/=",
	[OP_OR >> 4] = "|=", [OP_AND >> 4] = "&=", [OP_LSH >> 4] = "<<=", [OP_RSH >> 4] = ">>=",
	[OP_MOD >> 4] = "%=", [OP_XOR >> 4] = "^=", [OP_MOV >> 4] = "=", [OP_ARSH >> 4] = "s>>=",
};

static const char *const jmp_ops[16] = {
	[0x1] = "==", [0x2] = ">", [0x3] = ">=", [0x4] = "&", [0x5] = "!=", [0x6] = "s>",
	[0x7] = "s>=", [0xa] = "<", [0xb] = "<=", [0xc] = "s<", [0xd] = "s<=",
};

static const char *size_name(uint8_t code, bool sx)
{
	switch (code & 0x18) {
	case SZ_B:
		return sx ? "s8" : "u8";
	case SZ_H:
		return sx ? "s16" : "u16";
	case SZ_W:
		return sx ? "s32" : "u32";
	default:
		return sx ? "s64" : "u64";
	}
}

static bool alu(struct out *o, const struct insn *in)
{
	bool is64 = (in->code & 0x07) == CLS_ALU64;
	char r = is64 ? 'r' : 'w';
	uint8_t op = in->code & 0xf0;
	bool x = in->code & SRC_X;

	switch (op) {
	case OP_NEG:
		put(o, "%c%u = -%c%u", r, in->dst, r, in->dst);
		return true;
	case OP_END:
		if (in->imm != 16 && in->imm != 32 && in->imm != 64)
			return false;
		if (is64)	/* BPF_ALU64 | BPF_END: unconditional byte swap */
			put(o, "r%u = bswap%d r%u", in->dst, in->imm, in->dst);
		else
			put(o, "r%u = %s%d r%u", in->dst, x ? "be" : "le", in->imm, in->dst);
		return true;
	case OP_MOV:
		if (!x) {
			put(o, "%c%u = %d", r, in->dst, in->imm);
			return true;
		}
		if (is64 && in->off == 1 && in->imm) {
			put(o, "r%u = addr_space_cast(r%u, %d, %d)", in->dst, in->src,
			    (int)((uint32_t)in->imm >> 16), in->imm & 0xffff);
			return true;
		}
		if (in->off == 8 || in->off == 16 || (is64 && in->off == 32))
			put(o, "%c%u = (s%d)%c%u", r, in->dst, in->off, r, in->src);
		else if (!in->off)
			put(o, "%c%u = %c%u", r, in->dst, r, in->src);
		else
			return false;
		return true;
	case OP_DIV:
	case OP_MOD:
		if (in->off != 0 && in->off != 1)
			return false;
		if (x)
			put(o, "%c%u %s%s %c%u", r, in->dst, in->off ? "s" : "", alu_ops[op >> 4], r, in->src);
		else
			put(o, "%c%u %s%s %d", r, in->dst, in->off ? "s" : "", alu_ops[op >> 4], in->imm);
		return true;
	}
	if (!alu_ops[op >> 4])
		return false;
	if (x)
		put(o, "%c%u %s %c%u", r, in->dst, alu_ops[op >> 4], r, in->src);
	else
		put(o, "%c%u %s %d", r, in->dst, alu_ops[op >> 4], in->imm);
	return true;
}

static bool atomic(struct out *o, const struct insn *in)
{
	const char *sz = size_name(in->code, false);
	const char *bits = (in->code & 0x18) == SZ_DW ? "64" : "";
	static const char *const names[16] = {
		[OP_ADD >> 4] = "add", [OP_AND >> 4] = "and", [OP_OR >> 4] = "or", [OP_XOR >> 4] = "xor",
	};
	const char *name = names[(in->imm & 0xf0) >> 4];

	if ((in->code & 0x18) != SZ_DW && (in->code & 0x18) != SZ_W)
		return false;
	if (in->imm == AT_XCHG) {
		put(o, "r%u = atomic%s_xchg((%s *)(r%u %+d), r%u)", in->src, bits, sz, in->dst, in->off,
		    in->src);
	} else if (in->imm == AT_CMPXCHG) {
		put(o, "r0 = atomic%s_cmpxchg((%s *)(r%u %+d), r0, r%u)", bits, sz, in->dst, in->off,
		    in->src);
	} else if (name && (in->imm & ~0xf1) == 0 && (in->imm & AT_FETCH)) {
		put(o, "r%u = atomic%s_fetch_%s((%s *)(r%u %+d), r%u)", in->src, bits, name, sz,
		    in->dst, in->off, in->src);
	} else if (name && (in->imm & ~0xf0) == 0) {
		put(o, "lock *(%s *)(r%u %+d) %s r%u", sz, in->dst, in->off,
		    alu_ops[(in->imm & 0xf0) >> 4], in->src);
	} else {
		return false;
	}
	return true;
}

static bool ld_imm64(struct out *o, const void *insns, size_t cnt, size_t idx,
		     const struct bpfrr_disasm_opts *opts, const struct insn *in)
{
	struct bpfrr_disasm_ref ref = { .insn_idx = idx };
	struct insn hi;
	char def[96];

	if (idx + 1 >= cnt || (hi = decode(insns, idx + 1)).code != 0) {
		put(o, "r%u = <truncated ld_imm64 0x%x>", in->dst, (uint32_t)in->imm);
		return true;
	}
	ref.fd = in->imm;
	switch (in->src) {
	case 0:
		put(o, "r%u = %#" PRIx64 " ll", in->dst,
		    ((uint64_t)(uint32_t)hi.imm << 32) | (uint32_t)in->imm);
		return true;
	case PSEUDO_MAP_FD:
		ref.type = BPFRR_DREF_MAP_FD;
		snprintf(def, sizeof(def), "map[fd:%d]", in->imm);
		break;
	case PSEUDO_MAP_VALUE:
		ref.type = BPFRR_DREF_MAP_VALUE;
		ref.value_off = (uint32_t)hi.imm;
		snprintf(def, sizeof(def), "map[fd:%d][0]+%u", in->imm, (uint32_t)hi.imm);
		break;
	case PSEUDO_MAP_IDX:
		ref.type = BPFRR_DREF_MAP_IDX;
		snprintf(def, sizeof(def), "map[idx:%d]", in->imm);
		break;
	case PSEUDO_MAP_IDX_VALUE:
		ref.type = BPFRR_DREF_MAP_IDX_VALUE;
		ref.value_off = (uint32_t)hi.imm;
		snprintf(def, sizeof(def), "map[idx:%d][0]+%u", in->imm, (uint32_t)hi.imm);
		break;
	case PSEUDO_BTF_ID:
		ref.type = BPFRR_DREF_BTF_ID;
		ref.btf_id = (uint32_t)in->imm;
		ref.fd = hi.imm;
		if (hi.imm)
			snprintf(def, sizeof(def), "ksym[btf_id:%u,btf_fd:%d]", (uint32_t)in->imm, hi.imm);
		else
			snprintf(def, sizeof(def), "ksym[btf_id:%u]", (uint32_t)in->imm);
		break;
	case PSEUDO_FUNC:
		ref.type = BPFRR_DREF_FUNC;
		ref.target = (int64_t)idx + in->imm + 1;
		snprintf(def, sizeof(def), "subprog[pc%+d]", in->imm);
		break;
	default:
		put(o, "r%u = <ld_imm64 src %u imm 0x%x,0x%x> ll", in->dst, in->src, (uint32_t)in->imm,
		    (uint32_t)hi.imm);
		return true;
	}
	put(o, "r%u = ", in->dst);
	put_ref(o, opts, &ref, def);
	put(o, " ll");
	return true;
}

static bool jmp(struct out *o, size_t idx, const struct bpfrr_disasm_opts *opts, const struct insn *in)
{
	bool is32 = (in->code & 0x07) == CLS_JMP32;
	char r = is32 ? 'w' : 'r';
	uint8_t op = in->code & 0xf0;
	struct bpfrr_disasm_ref ref = { .insn_idx = idx };
	char def[96];

	switch (op) {
	case OP_JA:
		if (is32)
			put(o, "gotol pc%+d", in->imm);
		else
			put(o, "goto pc%+d", in->off);
		return true;
	case OP_CALL:
		if (is32)
			return false;
		if (in->src == PSEUDO_CALL) {
			ref.type = BPFRR_DREF_SUBPROG;
			ref.target = (int64_t)idx + in->imm + 1;
			snprintf(def, sizeof(def), "pc%+d", in->imm);
		} else if (in->src == PSEUDO_KFUNC_CALL) {
			ref.type = BPFRR_DREF_KFUNC;
			ref.btf_id = (uint32_t)in->imm;
			ref.fd = in->off;
			if (in->off)
				snprintf(def, sizeof(def), "kfunc[btf_id:%u,fd_idx:%d]", (uint32_t)in->imm,
					 in->off);
			else
				snprintf(def, sizeof(def), "kfunc[btf_id:%u]", (uint32_t)in->imm);
		} else if (in->src == 0) {
			const char *name = bpfrr_abi_helper_name(in->imm);

			ref.type = BPFRR_DREF_HELPER;
			ref.helper_id = in->imm;
			if (name)
				snprintf(def, sizeof(def), "%s#%d", name, in->imm);
			else
				snprintf(def, sizeof(def), "unknown#%d", in->imm);
		} else {
			return false;
		}
		put(o, "call ");
		put_ref(o, opts, &ref, def);
		return true;
	case OP_EXIT:
		if (is32)
			return false;
		put(o, "exit");
		return true;
	case OP_JCOND:
		if (is32 || in->src != 0)
			return false;
		put(o, "may_goto pc%+d", in->off);
		return true;
	}
	if (!jmp_ops[op >> 4])
		return false;
	if (in->code & SRC_X)
		put(o, "if %c%u %s %c%u goto pc%+d", r, in->dst, jmp_ops[op >> 4], r, in->src, in->off);
	else
		put(o, "if %c%u %s 0x%x goto pc%+d", r, in->dst, jmp_ops[op >> 4], (uint32_t)in->imm,
		    in->off);
	return true;
}

static bool mem(struct out *o, const struct insn *in)
{
	uint8_t cls = in->code & 0x07, mode = in->code & 0xe0;

	switch (cls) {
	case CLS_LDX:
		if (mode != MODE_MEM && mode != MODE_MEMSX)
			return false;
		if (mode == MODE_MEMSX && (in->code & 0x18) == SZ_DW)
			return false;
		put(o, "r%u = *(%s *)(r%u %+d)", in->dst, size_name(in->code, mode == MODE_MEMSX),
		    in->src, in->off);
		return true;
	case CLS_STX:
		if (mode == MODE_ATOMIC)
			return atomic(o, in);
		if (mode != MODE_MEM)
			return false;
		put(o, "*(%s *)(r%u %+d) = r%u", size_name(in->code, false), in->dst, in->off, in->src);
		return true;
	case CLS_ST:
		if (mode != MODE_MEM)
			return false;
		put(o, "*(%s *)(r%u %+d) = %d", size_name(in->code, false), in->dst, in->off, in->imm);
		return true;
	case CLS_LD:
		/* legacy packet access, seen in old socket filters */
		if (mode == MODE_ABS && (in->code & 0x18) != SZ_DW) {
			put(o, "r0 = *(%s *)skb[%d]", size_name(in->code, false), in->imm);
			return true;
		}
		if (mode == MODE_IND && (in->code & 0x18) != SZ_DW) {
			put(o, "r0 = *(%s *)skb[r%u %+d]", size_name(in->code, false), in->src, in->imm);
			return true;
		}
		return false;
	}
	return false;
}

bool bpfrr_insns_ld_imm64_whole(const void *insns, size_t cnt, size_t *bad)
{
	size_t i;

	for (i = 0; i < cnt; i++) {
		if (decode(insns, i).code != (CLS_LD | SZ_DW | MODE_IMM))
			continue;
		if (i + 1 == cnt) {
			*bad = i;
			return false;
		}
		i++;	/* the second half */
	}
	return true;
}

int bpfrr_disasm_insn(const void *insns, size_t cnt, size_t idx, const struct bpfrr_disasm_opts *opts,
		      char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };
	struct insn in;
	bool ok;
	int used = 1;

	if (size)
		buf[0] = '\0';
	if (!insns || idx >= cnt)
		return 0;
	in = decode(insns, idx);
	switch (in.code & 0x07) {
	case CLS_ALU:
	case CLS_ALU64:
		ok = alu(&o, &in);
		break;
	case CLS_JMP:
	case CLS_JMP32:
		ok = jmp(&o, idx, opts, &in);
		break;
	case CLS_LD:
		if (in.code == (CLS_LD | MODE_IMM | SZ_DW)) {
			ok = ld_imm64(&o, insns, cnt, idx, opts, &in);
			used = idx + 1 < cnt && decode(insns, idx + 1).code == 0 ? 2 : 1;
			break;
		}
		ok = mem(&o, &in);
		break;
	default:
		ok = mem(&o, &in);
	}
	if (!ok) {
		o.len = 0;
		if (size)
			buf[0] = '\0';
		put(&o, "invalid insn code=%#04x dst=r%u src=r%u off=%d imm=%d", in.code, in.dst, in.src,
		    in.off, in.imm);
	}
	return used;
}

size_t bpfrr_disasm_fprint(FILE *out, const void *insns, size_t cnt, const struct bpfrr_disasm_opts *opts,
			   const char *indent)
{
	char text[512];
	size_t lines = 0;

	for (size_t i = 0; i < cnt;) {
		int used = bpfrr_disasm_insn(insns, cnt, i, opts, text, sizeof(text));

		fprintf(out, "%s%4zu: (%02x) %s\n", indent ? indent : "", i,
			((const unsigned char *)insns)[i * BPFRR_INSN_SIZE], text);
		lines++;
		i += used > 0 ? (size_t)used : 1;
	}
	return lines;
}
