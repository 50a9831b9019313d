/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sha1.h - SHA-1 (FIPS 180-4), for one thing only: a BPF program's tag is
 * the first 8 bytes of the SHA-1 of its instructions (prog_tag.h).
 */
#ifndef BPFRR_SHA1_H
#define BPFRR_SHA1_H

#include <stddef.h>
#include <stdint.h>

#include "md_block.h"

#define BPFRR_SHA1_LEN 20

struct bpfrr_sha1 {
	uint32_t state[5];
	struct bpfrr_md_block md;
};

void bpfrr_sha1_init(struct bpfrr_sha1 *ctx);
void bpfrr_sha1_update(struct bpfrr_sha1 *ctx, const void *data, size_t len);
void bpfrr_sha1_final(struct bpfrr_sha1 *ctx, uint8_t out[BPFRR_SHA1_LEN]);
/* One-shot digest of a buffer. */
void bpfrr_sha1(const void *data, size_t len, uint8_t out[BPFRR_SHA1_LEN]);

#endif /* BPFRR_SHA1_H */
