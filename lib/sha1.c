// SPDX-License-Identifier: GPL-2.0-only
/*
 * sha1.c - SHA-1 as specified in FIPS 180-4, sections 5.1.1, 5.3.1 and
 * 6.1.  Not for security: the kernel names a BPF program by the SHA-1 of
 * its instructions, and --verify computes the tag a program should get.
 */
#include <string.h>

#include "sha1.h"

static inline uint32_t rotl(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static void compress(uint32_t state[5], const uint8_t block[64])
{
	uint32_t w[80], a, b, c, d, e, f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
		       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
	for (i = 16; i < 80; i++)
		w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = state[0]; b = state[1]; c = state[2]; d = state[3]; e = state[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);		/* Ch */
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;			/* Parity */
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);	/* Maj */
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rotl(a, 5) + f + e + k + w[i];
		e = d; d = c; c = rotl(b, 30); b = a; a = t;
	}
	state[0] += a; state[1] += b; state[2] += c; state[3] += d; state[4] += e;
}

void bpfrr_sha1_init(struct bpfrr_sha1 *ctx)
{
	static const uint32_t initial[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

	memcpy(ctx->state, initial, sizeof(initial));
	ctx->md.total = 0;
	ctx->md.fill = 0;
}

void bpfrr_sha1_update(struct bpfrr_sha1 *ctx, const void *data, size_t len)
{
	bpfrr_md_update(&ctx->md, ctx->state, compress, data, len);
}

void bpfrr_sha1_final(struct bpfrr_sha1 *ctx, uint8_t out[BPFRR_SHA1_LEN])
{
	bpfrr_md_final(&ctx->md, ctx->state, compress, 5, out);
}

void bpfrr_sha1(const void *data, size_t len, uint8_t out[BPFRR_SHA1_LEN])
{
	struct bpfrr_sha1 ctx;

	bpfrr_sha1_init(&ctx);
	bpfrr_sha1_update(&ctx, data, len);
	bpfrr_sha1_final(&ctx, out);
}
