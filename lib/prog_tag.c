// SPDX-License-Identifier: GPL-2.0-only
/*
 * prog_tag.c - a BPF program's tag, as the kernel computes it when it
 * loads the program (after CO-RE relocation, before map fds become map
 * addresses): see prog_tag.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "prog_tag.h"
#include "sha1.h"

int bpfrr_prog_tag(const void *insns, size_t nr_insns, uint8_t tag[BPFRR_PROG_TAG_LEN])
{
	uint8_t digest[BPFRR_SHA1_LEN];
	struct bpf_insn *copy;
	bool in_map_ld = false;	/* the previous insn began a map ld_imm64 */
	size_t i;

	copy = nr_insns ? malloc(nr_insns * sizeof(*copy)) : NULL;
	if (nr_insns && !copy)
		return -ENOMEM;
	if (nr_insns)
		memcpy(copy, insns, nr_insns * sizeof(*copy));
	for (i = 0; i < nr_insns; i++) {
		struct bpf_insn *in = &copy[i];

		if (!in_map_ld && in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE)) {
			in_map_ld = true;
			in->imm = 0;
		} else if (in_map_ld && in->code == 0 && in->dst_reg == 0 && in->src_reg == 0 && in->off == 0) {
			in_map_ld = false;
			in->imm = 0;
		} else {
			in_map_ld = false;
		}
	}
	bpfrr_sha1(copy, nr_insns * sizeof(*copy), digest);
	memcpy(tag, digest, BPFRR_PROG_TAG_LEN);
	free(copy);
	return 0;
}
