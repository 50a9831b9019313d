/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * md_block.h - the Merkle-Damgard framing SHA-1 and SHA-256 share (FIPS
 * 180-4, 5.1.1 and 5.3): 64-byte blocks fed to the hash's compression
 * function, the last one padded with 0x80, zeros and the message length in
 * bits, big-endian.  Each hash keeps its own state words and compression.
 */
#ifndef BPFRR_MD_BLOCK_H
#define BPFRR_MD_BLOCK_H

#include <stddef.h>
#include <stdint.h>

struct bpfrr_md_block {
	uint64_t total;		/* bytes fed so far */
	uint8_t block[64];	/* pending partial block */
	size_t fill;
};

/* A hash's compression of one block into its state words. */
typedef void bpfrr_md_compress_fn(uint32_t *state, const uint8_t *block);

void bpfrr_md_update(struct bpfrr_md_block *m, uint32_t *state, bpfrr_md_compress_fn *compress,
		     const void *data, size_t len);
/* Pads, compresses the rest and writes nr_words state words big-endian to out. */
void bpfrr_md_final(struct bpfrr_md_block *m, uint32_t *state, bpfrr_md_compress_fn *compress,
		    unsigned int nr_words, uint8_t *out);

#endif /* BPFRR_MD_BLOCK_H */
