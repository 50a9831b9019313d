// SPDX-License-Identifier: GPL-2.0-only
/*
 * bundle-flip: flips one byte of a signed bundle's loader, as an attacker
 * with write access to the file would, keeping the file well-formed (the
 * record CRCs recomputed): what the kernel must then refuse at
 * BPF_PROG_LOAD (tests/guest/sign-replay.t, tests/host/translate-sign.t).
 *
 *   bundle-flip IN.bundle insns|blob|signature OUT.bundle
 *
 * The byte is in the middle of the part (an insn's imm, a blob byte, the
 * last byte of the signature).  Exit 0, or 2 with a reason.
 */
#include <stdio.h>
#include <string.h>

#include "bundle.h"
#include "ir.h"

int main(int argc, char **argv)
{
	struct bpfrr_ir *ir;
	struct bpfrr_ir_sig *sg;
	char err[512];

	if (argc != 4) {
		fprintf(stderr, "usage: bundle-flip IN.bundle insns|blob|signature OUT.bundle\n");
		return 2;
	}
	ir = bpfrr_bundle_read(argv[1], err, sizeof(err));
	if (!ir) {
		fprintf(stderr, "bundle-flip: %s\n", err);
		return 2;
	}
	sg = ir->sig;
	if (!sg) {
		fprintf(stderr, "bundle-flip: %s is not signed\n", argv[1]);
		return 2;
	}
	if (!strcmp(argv[2], "insns")) {
		sg->insns[8 * (sg->nr_insns / 2) + 4] ^= 0x01;
	} else if (!strcmp(argv[2], "blob")) {
		sg->blob[sg->blob_size / 2] ^= 0x01;
	} else if (!strcmp(argv[2], "signature")) {
		sg->sig[sg->sig_size - 1] ^= 0x01;
	} else {
		fprintf(stderr, "bundle-flip: '%s': insns, blob or signature\n", argv[2]);
		return 2;
	}
	if (bpfrr_bundle_write(ir, argv[3], err, sizeof(err))) {
		fprintf(stderr, "bundle-flip: %s\n", err);
		return 2;
	}
	bpfrr_ir_free(ir);
	return 0;
}
