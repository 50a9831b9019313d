/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_disasm.h - BPF instruction disassembler, in the kernel's / bpftool's
 * syntax:
 *
 *	r1 = *(u32 *)(r10 -4)
 *	if r1 > 0x5 goto pc+3
 *	call bpf_map_lookup_elem#1
 *	r1 = map[fd:5] ll
 *
 * Instructions are the raw struct bpf_insn bytes (8 each, little-endian
 * register nibbles: dst_reg low, src_reg high), as a loader passes them to
 * BPF_PROG_LOAD. References to objects (maps, BTF ids, kfuncs, helpers,
 * subprograms) can be rendered by the caller through a hook, so the dumper
 * can print `map[events]` where the raw insn holds fd 5.
 */
#ifndef BPFRR_BPF_DISASM_H
#define BPFRR_BPF_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BPFRR_INSN_SIZE 8

/* What an instruction refers to. */
enum bpfrr_disasm_ref_type {
	BPFRR_DREF_MAP_FD,		/* ld_imm64 BPF_PSEUDO_MAP_FD: fd */
	BPFRR_DREF_MAP_VALUE,		/* ld_imm64 BPF_PSEUDO_MAP_VALUE: fd, value_off */
	BPFRR_DREF_MAP_IDX,		/* ld_imm64 BPF_PSEUDO_MAP_IDX: fd_array index in fd */
	BPFRR_DREF_MAP_IDX_VALUE,	/* ld_imm64 BPF_PSEUDO_MAP_IDX_VALUE: index, value_off */
	BPFRR_DREF_BTF_ID,		/* ld_imm64 BPF_PSEUDO_BTF_ID: btf_id, module BTF fd in fd (0: vmlinux) */
	BPFRR_DREF_FUNC,		/* ld_imm64 BPF_PSEUDO_FUNC: target insn index */
	BPFRR_DREF_HELPER,		/* call helper: helper_id */
	BPFRR_DREF_SUBPROG,		/* call BPF_PSEUDO_CALL: target insn index */
	BPFRR_DREF_KFUNC,		/* call BPF_PSEUDO_KFUNC_CALL: btf_id, fd_array index in fd (0: vmlinux) */
};

struct bpfrr_disasm_ref {
	enum bpfrr_disasm_ref_type type;
	size_t insn_idx;	/* index of the referring insn */
	int32_t fd;		/* fd, fd_array index, or module BTF fd / fd_array index (see type) */
	uint32_t value_off;	/* MAP_VALUE / MAP_IDX_VALUE: offset into the value */
	uint32_t btf_id;	/* BTF_ID / KFUNC */
	int32_t helper_id;	/* HELPER */
	int64_t target;		/* FUNC / SUBPROG: absolute insn index */
};

struct bpfrr_disasm_opts {
	/*
	 * Render ref into buf (size bytes, NUL-terminated) in place of the
	 * default text ("map[fd:5]", "bpf_map_lookup_elem#1", "pc+3", ...).
	 * Return > 0 if it wrote something, 0 to keep the default.
	 */
	int (*render_ref)(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size);
	void *ctx;
};

/*
 * Disassemble the insn at idx of insns[0..cnt) into buf. Returns the number
 * of insns it takes (2 for ld_imm64, 1 otherwise; 1 for a truncated
 * ld_imm64 at the end, rendered as such). opts may be NULL.
 */
int bpfrr_disasm_insn(const void *insns, size_t cnt, size_t idx, const struct bpfrr_disasm_opts *opts,
		      char *buf, size_t size);

/*
 * Is every ld_imm64 whole (its second half present)?  The kernel refuses a
 * program whose last instruction is the first half of one; a recorded load
 * that claims it succeeded is not what a kernel did.  false with the index
 * of the lone first half in *bad.
 */
bool bpfrr_insns_ld_imm64_whole(const void *insns, size_t cnt, size_t *bad);

/*
 * Print every insn as "<indent>IDX: (CODE) TEXT\n", e.g. "   3: (18) r1 = map[fd:5] ll".
 * Returns the number of lines printed.
 */
size_t bpfrr_disasm_fprint(FILE *out, const void *insns, size_t cnt, const struct bpfrr_disasm_opts *opts,
			   const char *indent);

#endif /* BPFRR_BPF_DISASM_H */
