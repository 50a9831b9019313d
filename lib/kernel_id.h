/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_id.h - which kernel build a trace was recorded on, and whether two
 * builds are the same: one rule for the recorder, `bpfrr diff` and the replay.
 *
 * A build is named by its release (uname -r) and its GNU build id (the
 * NT_GNU_BUILD_ID note of vmlinux, which the kernel exports in
 * /sys/kernel/notes: free to read).  The size and SHA-256 of
 * /sys/kernel/btf/vmlinux are the fallback for a kernel without a build id,
 * and what traces recorded before the build id was the identity carry:
 * hashing the BTF (a few MB) was most of a recording's start-up cost.
 */
#ifndef BPFRR_KERNEL_ID_H
#define BPFRR_KERNEL_ID_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define BPFRR_BUILD_ID_MAX	64			/* bytes of a build id kept (GNU ones are 20) */
#define BPFRR_BUILD_ID_HEX	(2 * BPFRR_BUILD_ID_MAX + 1)	/* its hex and NUL */

/*
 * The GNU build id in a run of ELF notes (the contents of /sys/kernel/notes),
 * in lower-case hex into hex[size] (size >= BPFRR_BUILD_ID_HEX): 0, or
 * -ENOENT with hex "" when there is none (or a note is malformed).
 */
int bpfrr_build_id_from_notes(const void *notes, size_t len, char *hex, size_t size);

/* The same, reading the notes file at path: 0, -ENOENT ("" : none), -errno reading it. */
int bpfrr_build_id_read(const char *path, char *hex, size_t size);

/* One build as a trace, a bundle or the running kernel knows it. */
struct bpfrr_kernel_ident {
	const char *release;		/* uname -r; NULL unknown */
	const char *build_id;		/* hex; NULL or "": unknown */
	uint32_t btf_size;		/* bytes of /sys/kernel/btf/vmlinux (0: no BTF) */
	const uint8_t *btf_sha256;	/* their SHA-256 (zero: no BTF); NULL: not computed */
};

enum bpfrr_build_match {
	BPFRR_BUILD_UNDECIDED = -1,	/* only one side has a build id, the other no BTF hash */
	BPFRR_BUILD_OTHER = 0,
	BPFRR_BUILD_SAME = 1,
};

/*
 * Are a and b the same build?  Different releases are different builds;
 * with a build id on both sides, the build ids decide; otherwise BTF size
 * and SHA-256, when both sides have them; else BPFRR_BUILD_UNDECIDED (the
 * caller that can hash its side does so and asks again).
 */
enum bpfrr_build_match bpfrr_kernel_build_match(const struct bpfrr_kernel_ident *a,
						const struct bpfrr_kernel_ident *b);

/* A trace's KERNEL record as an identity. */
static inline struct bpfrr_kernel_ident bpfrr_kernel_ident_of_rec(const struct bpfrr_rec_kernel *k)
{
	return (struct bpfrr_kernel_ident){
		.release = k->release, .build_id = k->build_id, .btf_size = k->btf_size,
		.btf_sha256 = k->flags & BPFRR_KERNEL_F_BTF_UNHASHED ? NULL : k->btf_sha256,
	};
}

#endif /* BPFRR_KERNEL_ID_H */
