// SPDX-License-Identifier: GPL-2.0-only
/* md_block.c - block buffering and padding of SHA-1 and SHA-256 (md_block.h). */
#include <string.h>

#include "md_block.h"

void bpfrr_md_update(struct bpfrr_md_block *m, uint32_t *state, bpfrr_md_compress_fn *compress,
		     const void *data, size_t len)
{
	const uint8_t *p = data;

	m->total += len;
	if (m->fill) {
		size_t take = 64 - m->fill < len ? 64 - m->fill : len;

		memcpy(m->block + m->fill, p, take);
		m->fill += take;
		p += take;
		len -= take;
		if (m->fill < 64)
			return;
		compress(state, m->block);
		m->fill = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(state, p);
	if (len) {
		memcpy(m->block, p, len);
		m->fill = len;
	}
}

void bpfrr_md_final(struct bpfrr_md_block *m, uint32_t *state, bpfrr_md_compress_fn *compress,
		    unsigned int nr_words, uint8_t *out)
{
	uint64_t bits = m->total * 8;
	uint8_t tail[72];
	unsigned int i;
	size_t pad;

	/* 0x80, zeros up to 56 mod 64, then the bit length big-endian */
	pad = (m->fill < 56 ? 56 : 120) - m->fill;
	memset(tail, 0, sizeof(tail));
	tail[0] = 0x80;
	for (i = 0; i < 8; i++)
		tail[pad + i] = (uint8_t)(bits >> (56 - 8 * i));
	bpfrr_md_update(m, state, compress, tail, pad + 8);
	for (i = 0; i < nr_words; i++) {
		out[4 * i] = (uint8_t)(state[i] >> 24);
		out[4 * i + 1] = (uint8_t)(state[i] >> 16);
		out[4 * i + 2] = (uint8_t)(state[i] >> 8);
		out[4 * i + 3] = (uint8_t)state[i];
	}
}
