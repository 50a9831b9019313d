/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pass_core.h - CO-RE across builds (pass_core.c): the BPF ELF objects a
 * trace captured (ELF records), read far enough to put back what libbpf's
 * CO-RE changed in a loaded program and to hand the object's CO-RE records
 * to the target kernel through BPF_PROG_LOAD's core_relos.
 *
 * Internal to the front end (pass_reloc.c calls fe_pass_core()) and to its
 * unit tests.  The parser is pure and trusts nothing: every offset, count
 * and record size of the ELF, .BTF and .BTF.ext is checked against the
 * bytes it has.
 */
#ifndef BPFRR_PASS_CORE_H
#define BPFRR_PASS_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

struct fe_trace;
struct fe_call;

#define FE_CORE_RELO_SIZE	16u	/* sizeof(struct bpf_core_relo), the record we emit */

/* A program section of the object that .BTF.ext describes ("tp/...", ".text"). */
struct fe_core_sec {
	const char *name;		/* in the object's .BTF string section */
	const uint8_t *insns;		/* the section's bytes (the compiler's instructions) */
	uint32_t size;			/* bytes, a multiple of 8 */
};

/* A function of the object (.BTF.ext func_info): bytes [off, end) of section sec. */
struct fe_core_func {
	uint32_t sec;
	uint32_t off, end;
	uint32_t type_id;		/* its BTF FUNC type */
};

/* A CO-RE record of the object (.BTF.ext core_relo), insn_off in bytes of section sec. */
struct fe_core_relo {
	uint32_t sec;
	uint32_t insn_off;
	uint32_t type_id;
	uint32_t access_str_off;
	uint32_t kind;			/* enum bpf_core_relo_kind */
};

/* A parsed object; its pointers point into the bytes given to fe_core_parse(). */
struct fe_core_obj {
	const uint8_t *btf;		/* .BTF, as the compiler wrote it */
	uint32_t btf_len;
	struct fe_core_sec *secs;
	uint32_t nr_secs;
	struct fe_core_func *funcs;
	uint32_t nr_funcs;
	struct fe_core_relo *relos;
	uint32_t nr_relos;
};

/*
 * Reads a BPF ELF object (ELF64, little-endian, e_machine EM_BPF): its
 * .BTF, and .BTF.ext's func_info and core_relo records with the sections
 * they name (line_info is checked, not kept).  An object without .BTF.ext
 * parses with no functions.  0; -EINVAL with a one-line reason in err for
 * anything malformed; -ENOMEM.
 */
int fe_core_parse(const void *data, size_t len, struct fe_core_obj *o, char *err, size_t err_size);
void fe_core_obj_free(struct fe_core_obj *o);

/*
 * Is the raw BTF `loaded` (what a BPF_BTF_LOAD passed) the object's .BTF
 * as a loader loads it?  libbpf rewrites DATASEC sizes and variable
 * offsets in place but keeps every type id and string: same string
 * section, byte for byte, and the same number of types.
 */
bool fe_core_btf_matches(const struct fe_core_obj *o, const void *loaded, size_t len);

/*
 * Does raw BTF carry CO-RE access strings ("0:1:2", "0")?  The compiler
 * writes them into .BTF's string section only for .BTF.ext's core_relo
 * records, so a loaded BTF that has them came from an object that used
 * CO-RE.
 */
bool fe_core_btf_has_access_strings(const void *btf, size_t len);

/*
 * Pass 3's CO-RE step for a kept BPF_PROG_LOAD c, already IR call `call`:
 * finds the captured object whose .BTF is the program's BTF, puts back
 * the compiler's instruction at every CO-RE-relocated place and gives the
 * call the object's CO-RE records (attr.core_relos, core_relo_cnt,
 * core_relo_rec_size), so that the target kernel relocates them against
 * its own BTF.  A load that used CO-RE but whose object was not captured
 * (or does not fit) is marked build-bound (BPFRR_IR_CALL_BUILD_BOUND).  What it
 * did is noted in c->core_note for --explain.  0, or -ENOMEM.
 */
int fe_pass_core(struct fe_trace *t, struct fe_call *c, struct bpfrr_ir *ir, uint32_t call);

/* Frees the parsed objects the pass cached in t. */
void fe_core_free(struct fe_trace *t);

#endif /* BPFRR_PASS_CORE_H */
