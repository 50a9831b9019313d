/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prog_tag.h - the tag the kernel gives a BPF program (bpf_prog_info.tag),
 * computed the kernel's way (kernel/bpf/core.c, bpf_prog_calc_tag()).
 */
#ifndef BPFRR_PROG_TAG_H
#define BPFRR_PROG_TAG_H

#include <stddef.h>
#include <stdint.h>

#define BPFRR_PROG_TAG_LEN 8

/*
 * The tag of nr_insns instructions (8 bytes each, in the byte order the
 * kernel sees them): the first 8 bytes of the SHA-1 of the instructions
 * with the map references blanked, as the kernel does before it resolves
 * them, since their fds mean nothing outside the loading process: the imm
 * of an ld_imm64 whose src_reg is BPF_PSEUDO_MAP_FD or BPF_PSEUDO_MAP_VALUE,
 * and the imm of the ld_imm64's second half (the value offset, for
 * MAP_VALUE) when that half is well formed (code, regs and off all 0).
 * Other imms stay: a kfunc's BTF id, a ksym's BTF id and module BTF fd, a
 * map index into fd_array.  0, or -ENOMEM.
 */
int bpfrr_prog_tag(const void *insns, size_t nr_insns, uint8_t tag[BPFRR_PROG_TAG_LEN]);

#endif /* BPFRR_PROG_TAG_H */
