/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_build.h - the running kernel as a replay sees it: its build
 * identity (to compare with the recording's, ir->kernel) and the symbols a
 * bundle names (BTF types in /sys/kernel/btf/vmlinux, kernel addresses in
 * /proc/kallsyms), looked up by name for the IR's BTF_ID and KSYM_ADDR
 * resolutions.  User space only: it reads files, it issues no bpf().
 */
#ifndef BPFRR_KERNEL_BUILD_H
#define BPFRR_KERNEL_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "kernel_id.h"

struct btf;

#define BPFRR_VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
#define BPFRR_KALLSYMS		"/proc/kallsyms"

#define BPFRR_KERNEL_NOTES	"/sys/kernel/notes"

/* The running kernel's identity, as the recorder writes a KERNEL record. */
struct bpfrr_kernel_build {
	char release[65];		/* uname -r */
	char machine[65];		/* uname -m */
	char build_id[BPFRR_BUILD_ID_HEX];	/* GNU build id in hex, "" unknown */
	uint32_t btf_size;		/* bytes of /sys/kernel/btf/vmlinux, 0 without it */
	uint8_t btf_sha256[32];		/* their SHA-256, zero without BTF */
	bool btf_hashed;		/* btf_sha256 computed (else not known yet) */
};

/*
 * Fills b from uname(2), /sys/kernel/notes and /sys/kernel/btf/vmlinux
 * (hashed: the identity of a recording without build id).  0 or -errno
 * (uname, reading the BTF).
 */
int bpfrr_kernel_build_running(struct bpfrr_kernel_build *b);
/*
 * The same, read once per process and shared by the replay's refusal,
 * bpfrr_rt_same_build() and --verify, but without the hash: the BTF's size
 * comes from stat(2) and btf_hashed is false until bpfrr_rt_same_build()
 * needs the hash (a recording without build id, or a kernel without one):
 * hashing the 3 to 6 MB BTF, which sysfs hands out a page per read, costs
 * 50 to 100 ms under TCG, and the build ids decide without it.  0 and *b,
 * or -errno and *b NULL.
 */
int bpfrr_kernel_build_current(const struct bpfrr_kernel_build **b);

/*
 * Is the running kernel the build the IR was recorded on (lib/kernel_id.h:
 * release and build id equal, or without a build id on the IR, release, BTF
 * size and SHA-256)?  False when the IR does not know its build (a 1.0
 * trace: ir->kernel.known is 0; such a bundle replays as recorded) or the
 * running build cannot be read.  The running kernel's BTF is hashed only
 * when the build ids cannot decide.
 */
bool bpfrr_rt_same_build(const struct bpfrr_ir *ir);

/* "6.12.0-stock (build id 0a1b2c3d4e5f6071..., BTF 5912345 bytes)", or without a build id
 * "6.12.0-stock (BTF 5912345 bytes, sha256 0a1b2c3d...)"; sha NULL: not hashed */
const char *bpfrr_kernel_build_desc(const char *release, const char *build_id, uint32_t btf_size,
				    const uint8_t *sha, char *buf, size_t size);

/* ELF e_machine of this machine (62 x86_64, 183 aarch64), 0 if unknown; its uname -m name. */
uint32_t bpfrr_kernel_machine_arch(const char **name);
/* "x86_64", "aarch64" for an ELF e_machine, NULL if unknown */
const char *bpfrr_arch_name(uint32_t e_machine);

/*
 * Resolves the IR's symbol resolutions on the running kernel: the vmlinux
 * BTF is parsed once, /proc/kallsyms read once, both on first need.
 */
struct bpfrr_symbols;
struct bpfrr_symbols *bpfrr_symbols_new(void);
void bpfrr_symbols_free(struct bpfrr_symbols *s);
/* The running kernel's vmlinux BTF, parsed on first need (the resolutions and
 * --verify's CO-RE share it); NULL with *err = -errno if it cannot be. */
struct btf *bpfrr_symbols_vmlinux(struct bpfrr_symbols *s, int *err);
/*
 * The value of a BTF_ID or KSYM_ADDR resolution.  0; -ENOENT when the
 * kernel lacks the symbol (why: "is not in this kernel's BTF"); another
 * -errno when the BTF or kallsyms cannot be read (why says so).
 */
int bpfrr_symbols_resolve(struct bpfrr_symbols *s, const struct bpfrr_ir_resolve *r, uint64_t *val, char *why,
			  size_t why_size);

#endif /* BPFRR_KERNEL_BUILD_H */
