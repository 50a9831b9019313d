/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * out_elf.h - `bpfrr translate --format elf`: the IR as a BPF object file
 * that unmodified libbpf tools load (`bpftool prog load OUT PIN`) and run
 * (`bpftool prog run pinned PIN repeat 0`).
 *
 * An ELF object holds one loader program and no replayer: the IR is
 * planned at translate time for assumed caps (bpfrr_caps_assume():
 * patched-6.12 by default) and must come out as one loader run, every call
 * in the kernel, with no user image (a user pointer needs the replayer's
 * memory), no slot opened by path and no value looked up on the running
 * kernel (a tracepoint id, a PMU type).  Anything else is refused with
 * the first call that needs it and why.
 *
 * The object (ELF64 relocatable, EM_BPF, little endian):
 *   syscall       the loader (SEC("syscall"): BPF_PROG_TYPE_SYSCALL,
 *                 sleepable), its one global FUNC symbol the program name
 *   .relsyscall   R_BPF_64_64 of the loader's blob ld_imm64 against the
 *                 blob's symbol (libbpf makes it BPF_PSEUDO_MAP_VALUE of the
 *                 global-data map); R_BPF_64_32 of each bpf_perf_event_open()
 *                 call against that extern (libbpf finds the kfunc in the
 *                 kernel's BTF and makes it a BPF_PSEUDO_KFUNC_CALL)
 *   .data.blob    the blob, symbol bpfrr_blob: libbpf's global-data array
 *                 map ".data.blob", filled with it before the loader loads;
 *                 its first bytes are the loader's context
 *                 (BPFRR_CG_CTX_IN_BLOB: struct bpfrr_loader_ctx, then one
 *                 s32 fd per slot), so nothing need be passed in: Debian's
 *                 bpftool 7.1 cannot pass a context to a syscall program
 *                 (it always asks for ctx_out, which the kernel refuses)
 *   license       "GPL"
 *   .BTF          int, u8[blob size], VAR bpfrr_blob, DATASEC .data.blob,
 *                 the loader's FUNC and FUNC_PROTO; for the kfunc its
 *                 FUNC_PROTO, an extern FUNC and DATASEC .ksyms
 *   .BTF.ext      one func_info record (the loader's FUNC)
 *   .symtab, .strtab
 * The program's return value is 0, or the -errno of the failing call
 * (after closing what it made); err, failed_seq and the fds made (numbers
 * in the runner's fd table) stay in the blob map for the runner to read.
 */
#ifndef BPFRR_OUT_ELF_H
#define BPFRR_OUT_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

#define BPFRR_ELF_DEFAULT_CAPS	"patched-6.12"
#define BPFRR_ELF_DEFAULT_NAME	"bpfrr_loader"
#define BPFRR_ELF_BLOB_SEC	".data.blob"
#define BPFRR_ELF_BLOB_SYM	"bpfrr_blob"
#define BPFRR_ELF_PROG_SEC	"syscall"
#define BPFRR_ELF_KFUNC		"bpf_perf_event_open"

struct bpfrr_elf_opts {
	const char *caps;	/* bpfrr_caps_assume() name; NULL: BPFRR_ELF_DEFAULT_CAPS */
	const char *name;	/* the program's symbol (a C identifier; the kernel keeps
				 * its first 15 characters); NULL: BPFRR_ELF_DEFAULT_NAME */
	const char *pin_dir;	/* the loader also pins the objects alive at the replay
				 * point (maps, programs, links) as DIR/NAME, like
				 * `bpfrr replay --pin`; an absolute path; NULL: no */
};

struct bpfrr_elf_image {
	uint8_t *obj;		/* the ELF object */
	size_t obj_size;
	uint32_t ctx_size;	/* the context at the start of the blob */
	/* for reports */
	uint32_t nr_calls, nr_insns, blob_size, nr_kfunc_calls, nr_pins;
	char caps[32];		/* the caps it was planned for */
};

/*
 * Plans, generates and lays out the object in memory.  0, or -errno with a
 * one-line reason in err: -EOPNOTSUPP for an IR the format cannot carry
 * ("seq N NAME: why"), -EINVAL for bad options.
 */
int bpfrr_elf_build(const struct bpfrr_ir *ir, const struct bpfrr_elf_opts *o, struct bpfrr_elf_image *img,
		    char *err, size_t err_size);
void bpfrr_elf_image_free(struct bpfrr_elf_image *img);

/*
 * bpfrr_elf_build(), then the object to path.
 * Prints one line saying what it wrote to stdout.  0, or -errno with err.
 */
int bpfrr_elf_write(const struct bpfrr_ir *ir, const char *path, const struct bpfrr_elf_opts *o, char *err,
		    size_t err_size);

#endif /* BPFRR_OUT_ELF_H */
