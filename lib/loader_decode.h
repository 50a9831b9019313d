/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loader_decode.h - what a light skeleton's loader program will do, decoded
 * statically from its instructions and its blob.
 *
 * libbpf's gen_loader turns a BPF object into one BPF_PROG_TYPE_SYSCALL
 * program and a blob (the value of a one-entry array map): the blob holds
 * the attrs of the bpf() commands the program issues through bpf_sys_bpf()
 * and everything they point to (BTF, instructions, license, map values,
 * names); the instructions patch into it, at run time, what only the run
 * knows: fds the earlier commands returned, values the skeleton passes in
 * its ctx (log buffer, max_entries, initial map contents), BTF ids and
 * kernel addresses found in the running kernel.
 *
 * bpfrr_lskel_decode() interprets the instructions abstractly, once along
 * the path gen_loader lays out: registers and stack slots are constants,
 * blob/ctx/stack addresses, values read from the ctx, results of earlier
 * helper calls, or unknown; the blob is its bytes plus the stores the
 * program makes into it.  Each helper call is recorded with its arguments;
 * a bpf_sys_bpf() call with its attr as the blob holds it at that point,
 * which fields are patched at run time and from what, and the buffers the
 * attr points to inside the blob (found by the ABI table's walker,
 * lib/bpf_abi.h, so no attr layout is known here).
 *
 * Branches: a backward conditional jump is an error exit (gen_loader's
 * "if r7 < 0 goto cleanup") and is not taken; a forward one whose condition
 * is not a constant has both arms followed, each once, and what they store
 * is marked conditional; a jump that leaves the arm it is in, a loop, an
 * instruction or helper gen_loader does not emit, a store through an
 * unknown pointer end the decoding there ("stopped at insn N: why"): the
 * calls recorded up to that point stay.  Work is linear in the number of
 * instructions (each is interpreted at most once) and bounded by the blob
 * size per store; nothing here issues bpf().
 */
#ifndef BPFRR_LOADER_DECODE_H
#define BPFRR_LOADER_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an abstract value is. */
enum bpfrr_ld_kind {
	BPFRR_LDV_UNKNOWN,	/* nothing known (or not a thing gen_loader computes) */
	BPFRR_LDV_CONST,	/* v */
	BPFRR_LDV_BLOB,		/* the address blob + v */
	BPFRR_LDV_CTX,		/* the address ctx + v */
	BPFRR_LDV_STACK,	/* the address r10 + v */
	BPFRR_LDV_CTX_FIELD,	/* the size bytes the ctx holds at v (the skeleton's input) */
	BPFRR_LDV_RESULT,	/* what helper call #call returned, >> shift */
	BPFRR_LDV_RESULT_OUT,	/* what helper call #call wrote to its result pointer (kallsyms address) */
	BPFRR_LDV_COPY,		/* bytes a helper call #call copied in (bpf_copy_from_user, ...) */
};

#define BPFRR_LDV_F_COND	0x1	/* stored on one arm of a branch only (see cond_insn) */
#define BPFRR_LDV_F_EITHER	0x2	/* COPY: by call or by call2, one on each arm of cond_insn */

struct bpfrr_ld_val {
	uint8_t kind;		/* enum bpfrr_ld_kind */
	uint8_t size;		/* CTX_FIELD: bytes read */
	uint8_t shift;		/* RESULT: right shift applied (32: a helper's upper half) */
	uint8_t flags;		/* BPFRR_LDV_F_* */
	uint32_t call;		/* RESULT, RESULT_OUT, COPY: index in bpfrr_lskel.calls */
	uint32_t cond_insn;	/* F_COND: the branch */
	uint32_t call2;		/* F_EITHER: the other arm's call */
	int64_t v;		/* CONST value; BLOB, CTX, STACK offset; CTX_FIELD ctx offset */
};

/* A run-time value inside a region of the blob: bytes [off, off + len) of it. */
struct bpfrr_ld_patch {
	uint32_t off, len;
	struct bpfrr_ld_val val;
};

/* Where blob addresses and run-time fds are put in the attr and buffer
 * copies handed to the ABI walkers (and the dumper): a blob address is
 * BPFRR_LD_BLOB_ADDR + offset; the fd helper call #k returned is
 * BPFRR_LD_FD_BASE + k, the module BTF fd it found (upper half) is
 * BPFRR_LD_FD_BASE + BPFRR_LD_FD_UPPER + k.  No real fd is that large. */
#define BPFRR_LD_BLOB_ADDR	0xb10b000000000000ull
#define BPFRR_LD_FD_BASE	0x70000000
#define BPFRR_LD_FD_UPPER	0x08000000
#define BPFRR_LD_FD_MAX		0x0fffffff

/* A buffer an inner bpf() call's attr points to inside the blob, as the blob held it then. */
struct bpfrr_ld_buf {
	char *path;		/* "attr.insns", as the ABI walker names it */
	uint32_t blob_off, len;
	uint64_t want_len;	/* what the length rule asked for (more than len: cut at the blob's end) */
	uint8_t content;	/* enum bpfrr_abi_content */
	uint8_t dir;		/* enum bpfrr_dir */
	uint32_t elem_size;
	uint8_t *bytes;		/* len bytes; run-time values as BPFRR_LD_* placeholders */
	uint8_t *blob_bytes;	/* the same as the blob holds them (what is there before the run) */
	struct bpfrr_ld_patch *patches;	/* buffer-relative */
	uint32_t nr_patches;
};

/* One helper call of the loader program. */
struct bpfrr_ld_call {
	uint32_t insn;		/* of the call instruction */
	int32_t helper;		/* BPF_FUNC_* id */
	uint32_t flags;		/* BPFRR_LDV_F_COND: made on one arm of a branch */
	uint32_t cond_insn;
	struct bpfrr_ld_val args[5];	/* r1..r5 at the call */
	/* bpf_sys_bpf(): the inner command */
	bool is_sys_bpf;
	uint32_t cmd;		/* args[0] (a constant, else the decoding stopped) */
	uint32_t attr_off, attr_size;	/* in the blob */
	uint8_t *attr;		/* attr_size bytes; run-time values as BPFRR_LD_* placeholders */
	uint8_t *attr_blob;	/* the same as the blob holds them (patched fields as they were) */
	struct bpfrr_ld_patch *patches;	/* attr-relative */
	uint32_t nr_patches;
	struct bpfrr_ld_buf *bufs;
	uint32_t nr_bufs;
	/* a name the helper reads from the blob (bpf_btf_find_by_name_kind, bpf_kallsyms_lookup_name,
	 * bpf_trace_printk's format), NUL-terminated; NULL if none */
	char *name;
};

/* A store into the ctx: what the program hands back to the skeleton. */
struct bpfrr_ld_ctx_out {
	uint32_t insn;
	uint32_t ctx_off, size;
	struct bpfrr_ld_val val;
};

struct bpfrr_lskel {
	struct bpfrr_ld_call *calls;
	uint32_t nr_calls;
	uint32_t nr_sys_bpf;
	struct bpfrr_ld_ctx_out *ctx_outs;
	uint32_t nr_ctx_outs;
	uint32_t stack_zeroed;	/* bytes of stack the prologue clears */
	bool complete;		/* reached the final exit */
	struct bpfrr_ld_val exit_val;	/* r0 there */
	int64_t stop_insn;	/* not complete: where decoding stopped (-1: before any insn) */
	char stop_why[160];
	uint32_t insns_visited;
};

/*
 * Does this program start as gen_loader's do (ctx saved in r6, then the stack
 * cleared with bpf_probe_read_kernel from NULL)?  Only such programs are
 * decoded by bpfrr dump.
 */
bool bpfrr_lskel_looks_generated(const void *insns, size_t insn_cnt);

/*
 * Decode insns[0..insn_cnt) with blob[0..blob_len) as the value of the map
 * its map-value loads refer to: ld_imm64 of BPF_PSEUDO_MAP_IDX_VALUE with
 * imm == blob_ref (blob_by_idx) or of BPF_PSEUDO_MAP_VALUE with imm ==
 * blob_ref.  *out is allocated even when the decoding stops early (see
 * complete, stop_insn, stop_why).  Returns 0, or -ENOMEM (*out NULL).
 */
int bpfrr_lskel_decode(const void *insns, size_t insn_cnt, const void *blob, size_t blob_len, bool blob_by_idx,
			int32_t blob_ref, struct bpfrr_lskel **out);
void bpfrr_lskel_free(struct bpfrr_lskel *ld);

/* "bpf_sys_bpf" etc. for a call (the ABI table's helper name), "helper#N" if unknown. */
const char *bpfrr_lskel_helper_name(int32_t helper);

/* How many arguments of the helper gen_loader passes (3 if it is not one of its). */
unsigned int bpfrr_lskel_helper_nargs(int32_t helper);

/*
 * A value as text, for people: "fd of inner #2 BPF_MAP_CREATE", "ctx+28 (u32,
 * ctx.log_level)", "blob+0x918", "btf id from inner #4 bpf_btf_find_by_name_kind",
 * "module BTF fd from inner #4 ...", "0x10".  Inner calls count from 1.
 * Returns buf.
 */
char *bpfrr_lskel_val_text(const struct bpfrr_lskel *ld, const struct bpfrr_ld_val *v, char *buf, size_t size);
/* A short kind name for JSON: "const", "blob", "ctx", "stack", "ctx_field", "result", "result_out", "copy",
 * "unknown". */
const char *bpfrr_lskel_val_kind_name(uint8_t kind);
/* The name of libbpf's struct bpf_loader_ctx member at ctx offset off (its first 24 bytes), or NULL. */
const char *bpfrr_lskel_ctx_field(uint32_t off);

/* A placeholder fd (BPFRR_LD_FD_BASE...) as the call it came from: true and *call, *upper. */
bool bpfrr_lskel_fake_fd(int64_t fd, uint32_t *call, bool *upper);

#endif /* BPFRR_LOADER_DECODE_H */
