/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core_reloc.h - our own CO-RE calculator: what the kernel's in-kernel
 * CO-RE (PROG_LOAD's core_relos, kernel/bpf/btf.c bpf_core_apply() on
 * tools/lib/bpf/relo_core.c) will make of a program's instructions on a
 * given kernel BTF, computed without the kernel (pure: no bpf()).
 *
 * `bpfrr replay --verify` on another build uses it to know the tag a
 * replayed program must get there: the kernel re-relocates the compiler's
 * original instructions against its own BTF before it computes the tag, so
 * neither the recorded tag nor the kernel's answer can be the reference.
 *
 * Semantics followed (the kernel's, which are libbpf's):
 *  - candidates: the target types of the local type's exact BTF kind whose
 *    name equals the local name without its "___flavor" suffix, searched in
 *    the target (vmlinux) BTF only; every candidate that matches must give
 *    the same result, none matching gives the "not found" result (0 for the
 *    existence kinds, a poisoned instruction for the others);
 *  - the access string "0:1:2" is walked over the local BTF (members by
 *    index, arrays by element), then the named members are looked up by
 *    name in the candidate, through anonymous struct/union members;
 *  - bitfields read with the smallest load that covers them, LDX/ST/STX
 *    size adjusted where the field's size changed (pointers, unsigned
 *    integers), otherwise poisoned; a poisoned instruction becomes
 *    `call 0xbad2310` (both halves of an ld_imm64);
 *  - the original value in the instruction is checked where the kernel
 *    checks it; a mismatch is a load the kernel would refuse.
 * Type comparisons follow the kernel's depth limits (2), not libbpf's (32).
 * Not done: module BTF (the kernel searches modules when vmlinux has no
 * candidate).  A kind newer than BPF_CORE_TYPE_MATCHES is reported as
 * unsupported.
 */
#ifndef BPFRR_CORE_RELOC_H
#define BPFRR_CORE_RELOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

/* struct bpf_core_relo of the UAPI (linux/bpf.h), one record of attr.core_relos */
struct bpfrr_core_relo {
	uint32_t insn_off;		/* bytes from the first instruction */
	uint32_t type_id;		/* local BTF type the access starts at */
	uint32_t access_str_off;	/* "0:1:2" in the local BTF's strings */
	uint32_t kind;			/* enum bpf_core_relo_kind */
};

/* What one record resolves to (for the tests and explanations). */
struct bpfrr_core_res {
	uint64_t orig_val;		/* the value the compiler put there (local BTF) */
	uint64_t new_val;		/* the value for the target */
	uint32_t orig_sz, new_sz;	/* field sizes, for the LDX/ST/STX size adjustment */
	bool poison;			/* the instruction becomes a call to an invalid helper */
	bool validate;			/* orig_val must be in the instruction */
	bool fail_memsz_adjust;		/* the size changed in a way a load cannot follow */
	uint32_t nr_cands;		/* candidates found in the target */
	uint32_t nr_matched;		/* of them, those that matched the access */
};

/* Error outcomes, beside 0 */
#define BPFRR_CORE_UNSUPPORTED	(-EOPNOTSUPP)	/* a kind we do not compute: no guess */
#define BPFRR_CORE_REFUSED	(-EINVAL)	/* the kernel would refuse the load */

/*
 * The result of one record against target.  0; BPFRR_CORE_UNSUPPORTED for
 * a kind not computed here; BPFRR_CORE_REFUSED (the kernel fails the load:
 * bad access string, ambiguous candidates, ...) with a reason in msg;
 * -ENOMEM.
 */
int bpfrr_core_calc(const struct btf *local, const struct btf *target, const struct bpfrr_core_relo *relo,
		    struct bpfrr_core_res *res, char *msg, size_t msg_size);

/*
 * Applies one computed result to the instruction at insn (insn[1] also
 * for an ld_imm64; nr_left instructions from insn on), as the kernel
 * patches it.  0, or BPFRR_CORE_REFUSED with the reason in msg.
 */
int bpfrr_core_patch(void *insn, uint32_t nr_left, const struct bpfrr_core_relo *relo,
		     const struct bpfrr_core_res *res, char *msg, size_t msg_size);

/* What a whole program's relocation came to. */
struct bpfrr_core_report {
	uint32_t nr_relos;
	uint32_t nr_poisoned;	/* records whose instruction was poisoned */
	uint32_t nr_changed;	/* records that changed their instruction */
	uint32_t bad_relo;	/* on error: the record */
	uint32_t bad_kind;	/* on error: its kind */
	char msg[256];		/* on error: one line */
};

/*
 * Relocates nr_insns instructions (8 bytes each) in place for target with
 * nr_relos records of rec_size bytes each (>= 16: the record above, a
 * longer one's tail is ignored, as the kernel requires it zero), in record
 * order, as the kernel does.  Before touching anything it checks that every
 * record's kind is one it computes.  0, BPFRR_CORE_UNSUPPORTED,
 * BPFRR_CORE_REFUSED or -ENOMEM, and rep says which record and why.
 */
int bpfrr_core_relocate(const struct btf *local, const struct btf *target, const void *relos,
			uint32_t nr_relos, uint32_t rec_size, void *insns, uint32_t nr_insns,
			struct bpfrr_core_report *rep);

/* "FIELD_BYTE_OFFSET", ..., or NULL for a number the UAPI does not name */
const char *bpfrr_core_kind_name(uint32_t kind);
/* Is the kind one bpfrr_core_calc() computes? */
bool bpfrr_core_kind_supported(uint32_t kind);

#endif /* BPFRR_CORE_RELOC_H */
