/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * codegen.h - IR calls -> a BPF_PROG_TYPE_SYSCALL loader program and its data.
 *
 * A loader makes a run of IR calls with bpf_sys_bpf().  Its data:
 *
 *  blob   the attrs and every buffer the kernel may read through a
 *         bpfptr_t, laid out 8-aligned.  The replayer stores it as the one
 *         value of a 1-entry array map; the loader reaches it with
 *         ld_imm64 BPF_PSEUDO_MAP_IDX_VALUE (fd_array[0] = the blob map),
 *         so the instructions contain no fd and are the same every time.
 *  user   buffers the kernel reads or writes as user pointers even from a
 *         syscall program (log_buf on stock 6.12).  The replayer copies
 *         this image into its own memory; the loader adds the image's
 *         address, passed in the context, to the offsets.
 *  ctx    the program context, copied in and back out by BPF_PROG_RUN:
 *         struct bpfrr_loader_ctx followed by one s32 fd per IR slot.
 *         The replayer passes in the fds made before (by user-space steps,
 *         earlier loaders, or opened by path) and -1 for the others, and
 *         reads back the fds this loader made.
 *
 * At run time, per call in order: write the kernel address of each blob
 * buffer (or user address of each user buffer) into its parent's pointer
 * field, copy fds from ctx slots into the attr/buffers (ld_imm64 imms
 * included: the instructions stay as recorded, BPF_PSEUDO_MAP_FD and all,
 * so the kernel computes the recorded prog tag), call bpf_sys_bpf(cmd,
 * attr, attr_size) (for perf_event_open the kfunc bpf_perf_event_open(attr,
 * attr_size, pid, cpu, flags) of the patched kernel, caps.h), on error
 * jump to the cleanup, store a returned fd in its slot.  The cleanup records the errno and seq of the failing call in
 * the ctx, closes every fd this loader made (bpf_sys_close) and returns
 * the -errno.  Success returns 0.
 *
 * Registers: r6 ctx, r7 blob, r8 seq of the current call, r9 the error.
 */
#ifndef BPFRR_CODEGEN_H
#define BPFRR_CODEGEN_H

#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#include "caps.h"
#include "ir.h"

/* The loader's context; the s32 slots follow at BPFRR_LOADER_CTX_SLOTS. */
struct bpfrr_loader_ctx {
	int32_t err;		/* out: 0, or -errno of the failing call */
	uint32_t failed_seq;	/* out: recorded seq (low 32 bits) of the failing call */
	uint64_t user_base;	/* in: address of the replayer's copy of the user image */
};
#define BPFRR_LOADER_CTX_SLOTS	16u
#define BPFRR_LOADER_CTX_SIZE(nr_slots)	(BPFRR_LOADER_CTX_SLOTS + 4u * (nr_slots))

/* Where a buffer (or attr) is placed. */
enum bpfrr_area {
	BPFRR_AREA_NONE = 0,
	BPFRR_AREA_BLOB = 1,
	BPFRR_AREA_USER = 2,
};

struct bpfrr_loader_call {
	uint32_t call;		/* IR call index */
	uint32_t attr_off;	/* in the blob */
	uint8_t *buf_area;	/* per IR buffer: enum bpfrr_area */
	uint32_t *buf_off;	/* per IR buffer: offset in its area */
};

struct bpfrr_loader {
	struct bpf_insn *insns;
	uint32_t nr_insns;
	char **notes;			/* per instruction (BPFRR_CG_NOTES), else NULL */
	uint8_t *blob;
	uint32_t blob_size;
	uint8_t *user;			/* user image (NULL if empty) */
	uint32_t user_size;
	uint32_t *user_relocs;		/* offsets of u64s in the user image that hold an offset
					 * into the image: add the copy's address */
	uint32_t nr_user_relocs;
	uint32_t ctx_size;
	uint32_t nr_calls;
	struct bpfrr_loader_call *calls;	/* in the order they are made */
	uint32_t nr_created;
	uint32_t *created;		/* slots the loader makes */
	/* what the code does, for reports */
	uint32_t nr_ptr_fixups, nr_fd_patches;
	bool wide_jumps;		/* too long for 16-bit jump offsets: gotol used */
	bool ctx_in_blob;		/* BPFRR_CG_CTX_IN_BLOB */
};

/* Flags */
#define BPFRR_CG_NOTES		0x1	/* annotate instructions (disassembly) */
#define BPFRR_CG_WIDE_JUMPS	0x2	/* force gotol to the cleanup (tests) */
/*
 * The context is the first ctx_size bytes of the blob instead of the
 * program's context, and the loader does not read r1: for runners that
 * cannot pass a context in (`bpftool prog run` of Debian's bpftool 7.1
 * always asks for ctx_out, which syscall programs refuse).  The blob holds
 * it initialised (header zero, slots -1); the loader sets err, failed_seq
 * and the slots it makes to 0, 0, -1 first, so it can run again; no slot
 * comes in from outside and there can be no user image (no user_base).
 */
#define BPFRR_CG_CTX_IN_BLOB	0x4

/*
 * Can the loader make call c on a kernel with these caps?  If so, fills
 * area[] (one per buffer of c, enum bpfrr_area) and returns 0; otherwise
 * returns -EOPNOTSUPP and sets *why to a static reason.
 */
int bpfrr_codegen_place(const struct bpfrr_ir_call *c, const struct bpfrr_caps *caps, uint8_t *area,
			const char **why);

/*
 * Generate the loader for calls[0..nr) (IR call indices, in the order to
 * make them; each must be placeable).  0, or -errno with a one-line reason
 * in err.
 */
int bpfrr_codegen(const struct bpfrr_ir *ir, const uint32_t *calls, uint32_t nr,
		  const struct bpfrr_caps *caps, unsigned int flags, struct bpfrr_loader *out,
		  char *err, size_t err_size);
void bpfrr_loader_free(struct bpfrr_loader *l);

/*
 * The listing: a summary of the layout (ctx, blob, user image, per call
 * where its attr and buffers are), then the annotated instructions.
 */
void bpfrr_loader_print(const struct bpfrr_ir *ir, const struct bpfrr_loader *l, FILE *out);

#endif /* BPFRR_CODEGEN_H */
