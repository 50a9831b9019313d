/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * u64map.h - a small open-addressing hash map from u64 keys to u64 values
 * (seqs, fds, tids to pointers or numbers), shared by the trace readers
 * (bpfrr dump, the translator's front end, the fd model).
 */
#ifndef BPFRR_U64MAP_H
#define BPFRR_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Zero-initialised is an empty map. */
struct bpfrr_u64map {
	uint64_t *keys, *vals;
	uint8_t *used;
	size_t cap, nr;		/* cap: a power of two, or 0 */
};

/* Is key there? Its value in *val (val may be NULL). */
bool bpfrr_u64map_get(const struct bpfrr_u64map *m, uint64_t key, uint64_t *val);
/* Insert or replace; 0 or -ENOMEM (the map is unchanged then). */
int bpfrr_u64map_put(struct bpfrr_u64map *m, uint64_t key, uint64_t val);
void bpfrr_u64map_del(struct bpfrr_u64map *m, uint64_t key);
/* dst becomes a copy of src (dst is overwritten, not freed); 0 or -ENOMEM (dst empty then). */
int bpfrr_u64map_copy(struct bpfrr_u64map *dst, const struct bpfrr_u64map *src);
void bpfrr_u64map_free(struct bpfrr_u64map *m);

/*
 * A u64 key for a symbol (kind, value): a SYMBOL record's kind and number,
 * kernel addresses and small ids alike, bits mixed (MurmurHash3's 64-bit
 * finalizer) so the map spreads them.  Different pairs may collide: a key
 * finds candidates, the caller compares kind, value and module.
 */
static inline uint64_t bpfrr_u64map_symbol_key(uint32_t kind, uint64_t value)
{
	uint64_t h = value ^ ((uint64_t)kind << 59) ^ kind;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

/* Iteration: for (i = 0; i < m->cap; i++) if (m->used[i]) ... m->keys[i], m->vals[i]. */

#endif /* BPFRR_U64MAP_H */
