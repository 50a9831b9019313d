/* SPDX-License-Identifier: GPL-2.0-only */
/* sha256.h - SHA-256 (FIPS 180-4), for trace blob identities. */
#ifndef BPFRR_SHA256_H
#define BPFRR_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "md_block.h"

#define BPFRR_SHA256_LEN 32

struct bpfrr_sha256 {
	uint32_t state[8];
	struct bpfrr_md_block md;
};

void bpfrr_sha256_init(struct bpfrr_sha256 *ctx);
void bpfrr_sha256_update(struct bpfrr_sha256 *ctx, const void *data, size_t len);
void bpfrr_sha256_final(struct bpfrr_sha256 *ctx, uint8_t out[BPFRR_SHA256_LEN]);
/* One-shot digest of a buffer. */
void bpfrr_sha256(const void *data, size_t len, uint8_t out[BPFRR_SHA256_LEN]);
/* Digest and size of a file read to its end (sysfs files have no size to
 * stat: /sys/kernel/btf/vmlinux).  0 or -errno. */
int bpfrr_sha256_file(const char *path, uint64_t *size, uint8_t out[BPFRR_SHA256_LEN]);

#endif /* BPFRR_SHA256_H */
